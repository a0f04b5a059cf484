// The Go side of the TLS interop test (provider/tests/interop_go.sh): Go's
// crypto/tls, an implementation independent of OpenSSL and of this project,
// as a TLS 1.3 client or server offering exactly one key-exchange group.
//
//	go run . client -connect 127.0.0.1:PORT -group X25519MLKEM768 -ca cert.pem
//	go run . server -group X25519MLKEM768 -cert cert.pem -key key.pem -count N
//
// The client completes a handshake, checks that the negotiated group is the
// one asked for (with -group default: Go's default preferences, which must
// then negotiate X25519MLKEM768), sends an HTTP request and prints `group=NAME` and the first
// line of the answer. The server prints `PORT n` once it listens, then for
// each of its N connections `group=NAME` after the handshake (failing if it
// is not the one asked for) and answers one line that names the group.
package main

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"net"
	"os"
	"time"
)

var groups = map[string]tls.CurveID{
	"X25519":            tls.X25519,
	"X25519MLKEM768":    tls.X25519MLKEM768,
	"SecP256r1MLKEM768": tls.SecP256r1MLKEM768,
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "FAIL: "+format+"\n", a...)
	os.Exit(1)
}

func group(name string) tls.CurveID {
	id, ok := groups[name]
	if !ok {
		fail("group %q: not one this test knows", name)
	}
	return id
}

func client(args []string) {
	fs := flag.NewFlagSet("client", flag.ExitOnError)
	addr := fs.String("connect", "", "host:port")
	name := fs.String("group", "", "the one group to offer")
	ca := fs.String("ca", "", "PEM certificate to trust")
	fs.Parse(args)
	var prefs []tls.CurveID // nil: Go's defaults
	want := tls.X25519MLKEM768
	if *name != "default" {
		want = group(*name)
		prefs = []tls.CurveID{want}
	}
	pem, err := os.ReadFile(*ca)
	if err != nil {
		fail("%v", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		fail("no certificate in %s", *ca)
	}
	conf := &tls.Config{
		MinVersion:       tls.VersionTLS13,
		CurvePreferences: prefs,
		RootCAs:          roots,
		ServerName:       "localhost",
	}
	d := &net.Dialer{Timeout: 10 * time.Second}
	conn, err := tls.DialWithDialer(d, "tcp", *addr, conf)
	if err != nil {
		fail("handshake with %s offering %s: %v", *addr, *name, err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	st := conn.ConnectionState()
	if st.Version != tls.VersionTLS13 || st.CurveID != want {
		fail("negotiated %v with group %v, want TLS 1.3 with %v", st.Version, st.CurveID, want)
	}
	fmt.Fprintf(conn, "GET / HTTP/1.0\r\n\r\n")
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		fail("no answer over the connection: %v", err)
	}
	fmt.Printf("group=%v answer=%q\n", st.CurveID, line)
}

func server(args []string) {
	fs := flag.NewFlagSet("server", flag.ExitOnError)
	name := fs.String("group", "", "the one group to accept")
	certFile := fs.String("cert", "", "PEM certificate")
	keyFile := fs.String("key", "", "PEM private key")
	count := fs.Int("count", 1, "connections to serve before exiting")
	fs.Parse(args)
	want := group(*name)
	cert, err := tls.LoadX509KeyPair(*certFile, *keyFile)
	if err != nil {
		fail("%v", err)
	}
	conf := &tls.Config{
		MinVersion:       tls.VersionTLS13,
		CurvePreferences: []tls.CurveID{want},
		Certificates:     []tls.Certificate{cert},
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", conf)
	if err != nil {
		fail("%v", err)
	}
	fmt.Printf("PORT %d\n", ln.Addr().(*net.TCPAddr).Port)
	for i := 0; i < *count; i++ {
		c, err := ln.Accept()
		if err != nil {
			fail("accept: %v", err)
		}
		conn := c.(*tls.Conn)
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		if err := conn.Handshake(); err != nil {
			// The peer may be a test that expects a failure: report, go on.
			fmt.Printf("handshake failed: %v\n", err)
			conn.Close()
			continue
		}
		st := conn.ConnectionState()
		if st.CurveID != want {
			fail("negotiated group %v, want %v", st.CurveID, want)
		}
		fmt.Printf("group=%v\n", st.CurveID)
		fmt.Fprintf(conn, "hello from Go %v\n", st.CurveID)
		conn.Close()
	}
}

func main() {
	if len(os.Args) >= 2 && os.Args[1] == "client" {
		client(os.Args[2:])
		return
	}
	if len(os.Args) >= 2 && os.Args[1] == "server" {
		server(os.Args[2:])
		return
	}
	fmt.Fprintln(os.Stderr, "usage: tlspeer client ... | tlspeer server ...")
	os.Exit(2)
}
