// Cross-checks of libmlkem with Go's crypto/mlkem (ML-KEM-768 and -1024;
// Go has no ML-KEM-512), and the Go side of the benchmark.
//
//	go run . interop <path of the mlkem tool>
//	go run . bench [runs]
//
// interop drives the tool's line protocol (`mlkem stdio`) and checks, per
// set and per random seed: the encapsulation key from the same d || z is
// byte-identical; our ciphertext and key from m equal Go's derandomised
// encapsulation (crypto/mlkem/mlkemtest); Go decapsulates our ciphertext
// to our key; we decapsulate Go's (randomised) ciphertext to Go's key; and
// both reject a tampered ciphertext with the same implicit-rejection key.
package main

import (
	"bufio"
	"bytes"
	"crypto/mlkem"
	"crypto/mlkem/mlkemtest"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// tool is a running `mlkem stdio`.
type tool struct {
	in  *bufio.Writer
	out *bufio.Scanner
}

func (t *tool) call(args ...string) []string {
	fmt.Fprintln(t.in, strings.Join(args, " "))
	if err := t.in.Flush(); err != nil {
		fail("writing to the tool: %v", err)
	}
	if !t.out.Scan() {
		fail("the tool closed its output: %v", t.out.Err())
	}
	fields := strings.Fields(t.out.Text())
	if len(fields) > 0 && fields[0] == "error" {
		fail("the tool answered %q to %s %s", t.out.Text(), args[0], args[1])
	}
	return fields
}

func unhex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		fail("bad hex from the tool: %v", err)
	}
	return b
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "FAIL: "+format+"\n", a...)
	os.Exit(1)
}

func random(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

// kem is what the two sets of Go's API have in common, as functions.
type kem struct {
	set       int
	keygen    func(seed []byte) (ek []byte, decaps func([]byte) []byte)
	encapsDet func(ek, m []byte) (ss, ct []byte)
	encaps    func(ek []byte) (ss, ct []byte)
}

var kems = []kem{
	{768,
		func(seed []byte) ([]byte, func([]byte) []byte) {
			dk, err := mlkem.NewDecapsulationKey768(seed)
			check(err)
			return dk.EncapsulationKey().Bytes(), func(ct []byte) []byte {
				ss, err := dk.Decapsulate(ct)
				check(err)
				return ss
			}
		},
		func(ek, m []byte) ([]byte, []byte) {
			k, err := mlkem.NewEncapsulationKey768(ek)
			check(err)
			ss, ct, err := mlkemtest.Encapsulate768(k, m)
			check(err)
			return ss, ct
		},
		func(ek []byte) ([]byte, []byte) {
			k, err := mlkem.NewEncapsulationKey768(ek)
			check(err)
			return k.Encapsulate()
		}},
	{1024,
		func(seed []byte) ([]byte, func([]byte) []byte) {
			dk, err := mlkem.NewDecapsulationKey1024(seed)
			check(err)
			return dk.EncapsulationKey().Bytes(), func(ct []byte) []byte {
				ss, err := dk.Decapsulate(ct)
				check(err)
				return ss
			}
		},
		func(ek, m []byte) ([]byte, []byte) {
			k, err := mlkem.NewEncapsulationKey1024(ek)
			check(err)
			ss, ct, err := mlkemtest.Encapsulate1024(k, m)
			check(err)
			return ss, ct
		},
		func(ek []byte) ([]byte, []byte) {
			k, err := mlkem.NewEncapsulationKey1024(ek)
			check(err)
			return k.Encapsulate()
		}},
}

func check(err error) {
	if err != nil {
		fail("Go: %v", err)
	}
}

func interop(path string, rounds int) {
	cmd := exec.Command(path, "stdio")
	stdin, err := cmd.StdinPipe()
	check(err)
	stdout, err := cmd.StdoutPipe()
	check(err)
	cmd.Stderr = os.Stderr
	check(cmd.Start())
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<16), 1<<16)
	t := &tool{bufio.NewWriter(stdin), sc}
	for _, k := range kems {
		set := strconv.Itoa(k.set)
		for i := 0; i < rounds; i++ {
			d, z, m := random(32), random(32), random(32)
			// Key generation from the same seed.
			goEK, goDecaps := k.keygen(append(append([]byte{}, d...), z...))
			r := t.call("keygen", set, hex.EncodeToString(d), hex.EncodeToString(z))
			ourEK, ourDK := unhex(r[0]), r[1]
			if !bytes.Equal(goEK, ourEK) {
				fail("ML-KEM-%d: encapsulation keys from the same seed differ", k.set)
			}
			// Our encapsulation -> Go: byte-exact with Go's derandomised
			// encapsulation, and Go decapsulates it to our key.
			r = t.call("encaps", set, hex.EncodeToString(ourEK), hex.EncodeToString(m))
			ourCT, ourSS := unhex(r[0]), unhex(r[1])
			goSS, goCT := k.encapsDet(goEK, m)
			if !bytes.Equal(ourCT, goCT) || !bytes.Equal(ourSS, goSS) {
				fail("ML-KEM-%d: encapsulation from the same m differs", k.set)
			}
			if !bytes.Equal(goDecaps(ourCT), ourSS) {
				fail("ML-KEM-%d: Go decapsulated our ciphertext to another key", k.set)
			}
			// Go's encapsulation -> our decapsulation.
			goSS, goCT = k.encaps(ourEK)
			r = t.call("decaps", set, hex.EncodeToString(goCT), ourDK)
			if !bytes.Equal(unhex(r[0]), goSS) {
				fail("ML-KEM-%d: we decapsulated Go's ciphertext to another key", k.set)
			}
			// Implicit rejection agrees.
			goCT[i%len(goCT)] ^= 0x20
			r = t.call("decaps", set, hex.EncodeToString(goCT), ourDK)
			rej := goDecaps(goCT)
			if !bytes.Equal(unhex(r[0]), rej) || bytes.Equal(rej, goSS) {
				fail("ML-KEM-%d: implicit-rejection keys differ", k.set)
			}
		}
		fmt.Printf("ML-KEM-%d: %d rounds agree with Go %s crypto/mlkem (keygen, encaps both ways, decaps, rejection)\n",
			k.set, rounds, runtime.Version())
	}
	stdin.Close()
	check(cmd.Wait())
}

// median of single calls, in nanoseconds.
func median(runs int, f func()) int64 {
	for i := 0; i < runs/10+2; i++ {
		f()
	}
	ns := make([]int64, runs)
	for i := range ns {
		t0 := time.Now()
		f()
		ns[i] = time.Since(t0).Nanoseconds()
	}
	sort.Slice(ns, func(a, b int) bool { return ns[a] < ns[b] })
	return ns[runs/2]
}

func bench(runs int) {
	runtime.LockOSThread()
	seed := random(64)
	dk, err := mlkem.NewDecapsulationKey768(seed)
	check(err)
	ek := dk.EncapsulationKey()
	ekBytes := ek.Bytes()
	_, ct := ek.Encapsulate()
	m := random(32)
	fmt.Printf("Go %s crypto/mlkem ML-KEM-768, median of %d single calls (ns)\n", runtime.Version(), runs)
	fmt.Printf("keygen (NewDecapsulationKey768 from d||z)          %8d\n",
		median(runs, func() { mlkem.NewDecapsulationKey768(seed) }))
	fmt.Printf("encaps (Encapsulate on a parsed key, random m)      %8d\n",
		median(runs, func() { ek.Encapsulate() }))
	fmt.Printf("encaps (NewEncapsulationKey768 from bytes + derand) %8d\n",
		median(runs, func() {
			k, _ := mlkem.NewEncapsulationKey768(ekBytes)
			mlkemtest.Encapsulate768(k, m)
		}))
	fmt.Printf("decaps (Decapsulate on a parsed key)                %8d\n",
		median(runs, func() { dk.Decapsulate(ct) }))
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "interop" {
		interop(os.Args[2], 20)
		return
	}
	if len(os.Args) >= 2 && os.Args[1] == "bench" {
		runs := 1001
		if len(os.Args) == 3 {
			n, err := strconv.Atoi(os.Args[2])
			check(err)
			runs = n
		}
		bench(runs)
		return
	}
	fmt.Fprintln(os.Stderr, "usage: go run . interop <mlkem tool> | go run . bench [runs]")
	os.Exit(2)
}
