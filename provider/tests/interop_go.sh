#!/usr/bin/env bash
# TLS 1.3 interoperability of the provider's ML-KEM hybrids with Go's
# crypto/tls (tests/interop/tls/main.go), an implementation independent of
# OpenSSL and of this project. For each of X25519MLKEM768 and
# SecP256r1MLKEM768 (the ML-KEM groups Go 1.26 speaks; it has no ML-KEM-768
# alone), both sides offering only that group:
#   Go client -> openssl s_server with the provider: Go's ConnectionState
#     names the group and an HTTP answer comes back over the connection;
#     s_server's trace shows the group's code point in its ServerHello;
#   openssl s_client with the provider -> Go server: s_client's trace shows
#     the code point in the ServerHello and it receives the server's line;
#     the Go server reports the group for the connection;
# and a Go client with its default preferences gets X25519MLKEM768 from an
# s_server that accepts X25519MLKEM768 and X25519.
# Needs go 1.26 or later (scripts/setup.sh installs it): fails without it.
source "$(dirname "$0")/common.sh"

here=$(cd "$(dirname "$0")" && pwd)
peer_src=$here/../../tests/interop/tls
# go on PATH if it is 1.26 or later, else where scripts/setup.sh installs it.
go_version() { GOTOOLCHAIN=local "$1" env GOVERSION 2>/dev/null || true; }
go_minor() { sed -n 's/^go1\.\([0-9]*\).*/\1/p' <<<"$(go_version "$1")"; }
go=$(command -v go || true)
if [[ -z $go || $(go_minor "$go") -lt 26 ]]; then
  go=/usr/local/go/bin/go
fi
[[ -x $go ]] || fail "no go >= 1.26 on PATH nor in /usr/local/go (scripts/setup.sh installs it)"
version=$(go_version "$go")
[[ $(go_minor "$go") -ge 26 ]] || fail "$go is $version, older than go1.26"
(cd "$peer_src" && GOTOOLCHAIN=local GOFLAGS=-buildvcs=false "$go" build -o "$WORK/tlspeer" .) \
  || fail "cannot build the Go peer"

make_cert

for g in X25519MLKEM768 SecP256r1MLKEM768; do
  # Go client -> openssl s_server.
  make_conf "$WORK/$g.cnf" "$g"
  start_server "$WORK/server-$g.log" "$WORK/$g.cnf" -tls1_3 -www -trace
  rc=0
  timeout 20 "$WORK/tlspeer" client -connect "127.0.0.1:$PORT" -group "$g" -ca "$WORK/cert.pem" \
    > "$WORK/goclient-$g.log" 2>&1 || rc=$?
  [[ $rc -eq 0 ]] || { cat "$WORK/goclient-$g.log" >&2; fail "$g: Go client exited with $rc"; }
  grep -q "^group=$g answer=\"HTTP/1.0 200 ok" "$WORK/goclient-$g.log" \
    || { cat "$WORK/goclient-$g.log" >&2; fail "$g: Go client got no answer on $g"; }
  got=$(server_hello_group "$WORK/server-$g.log")
  [[ $got == "${CODEPOINT[$g]}" ]] || fail "$g: s_server's ServerHello group '$got', want ${CODEPOINT[$g]}"
  server_alive || fail "$g: s_server died"
  echo "ok Go $version client -> openssl s_server + provider: $g (code point $got) on both sides"

  # openssl s_client -> Go server.
  log=$WORK/goserver-$g.log
  timeout 60 "$WORK/tlspeer" server -group "$g" -cert "$WORK/cert.pem" -key "$WORK/key.pem" \
    -count 1 > "$log" 2>&1 &
  go_pid=$!
  SERVER_PIDS+=("$go_pid")
  for ((i = 0; i < 200; i++)); do
    grep -q '^PORT ' "$log" 2>/dev/null && break
    kill -0 "$go_pid" 2>/dev/null || { cat "$log" >&2; fail "$g: Go server exited at start"; }
    sleep 0.05
  done
  go_port=$(sed -n 's/^PORT //p' "$log")
  [[ -n $go_port ]] || fail "$g: Go server did not listen within 10 s"
  rc=0
  OPENSSL_CONF=$WORK/$g.cnf timeout 20 env ${BIKEPROV_PRELOAD:+LD_PRELOAD=$BIKEPROV_PRELOAD} \
    openssl s_client -connect "127.0.0.1:$go_port" -servername localhost \
    -CAfile "$WORK/cert.pem" -verify_return_error -trace -ign_eof < /dev/null \
    > "$WORK/client-$g.log" 2>&1 || rc=$?
  [[ $rc -eq 0 ]] || { tail -30 "$WORK/client-$g.log" >&2; fail "$g: s_client exited with $rc"; }
  got=$(server_hello_group "$WORK/client-$g.log")
  [[ $got == "${CODEPOINT[$g]}" ]] || fail "$g: Go's ServerHello group '$got', want ${CODEPOINT[$g]}"
  grep -q "^hello from Go $g\$" "$WORK/client-$g.log" || fail "$g: s_client got no data from Go"
  wait "$go_pid" || { cat "$log" >&2; fail "$g: Go server failed"; }
  grep -q "^group=$g\$" "$log" || { cat "$log" >&2; fail "$g: Go server negotiated another group"; }
  echo "ok openssl s_client + provider -> Go $version server: $g (code point $got) on both sides"
done
# Go's default preferences (X25519MLKEM768 first, an X25519 share beside it)
# against a server that, like a typical deployment, takes either.
make_conf "$WORK/both.cnf" "X25519MLKEM768:X25519"
start_server "$WORK/server-default.log" "$WORK/both.cnf" -tls1_3 -www -trace
rc=0
timeout 20 "$WORK/tlspeer" client -connect "127.0.0.1:$PORT" -group default -ca "$WORK/cert.pem" \
  > "$WORK/goclient-default.log" 2>&1 || rc=$?
[[ $rc -eq 0 ]] || { cat "$WORK/goclient-default.log" >&2; fail "Go defaults: client exited with $rc"; }
got=$(server_hello_group "$WORK/server-default.log")
[[ $got == "${CODEPOINT[X25519MLKEM768]}" ]] || fail "Go defaults: ServerHello group '$got'"
echo "ok Go $version client with its default groups -> s_server: X25519MLKEM768 (code point $got)"
echo "all Go interop tests passed"
