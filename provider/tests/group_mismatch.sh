#!/usr/bin/env bash
# A client that offers only X25519 against a BIKE-only server: the handshake
# fails cleanly (handshake_failure alert, ordinary error exit, no crash), and
# the server keeps serving BIKE clients. Likewise a BIKE-only client against
# an X25519-only server. And a TLS 1.2 client never offers a BIKE group.
source "$(dirname "$0")/common.sh"

make_cert
make_conf "$WORK/bike.cnf" "bikel1:bikel3:bikel5"
make_conf "$WORK/x25519.cnf" "X25519"

client() { # CONF LOG
  printf 'GET / HTTP/1.0\r\n\r\n' | OPENSSL_CONF=$1 timeout 20 \
    env ${BIKEPROV_PRELOAD:+LD_PRELOAD=$BIKEPROV_PRELOAD} \
    openssl s_client -connect "127.0.0.1:$PORT" -CAfile "$WORK/cert.pem" -ign_eof > "$2" 2>&1
}

start_server "$WORK/server.log" "$WORK/bike.cnf" -tls1_3 -www
rc=0; client "$WORK/x25519.cnf" "$WORK/c1.log" || rc=$?
[[ $rc -ne 0 && $rc -lt 124 ]] || { cat "$WORK/c1.log" >&2; fail "X25519 client vs BIKE server: exit $rc"; }
grep -q 'alert handshake failure' "$WORK/c1.log" || { cat "$WORK/c1.log" >&2; fail "no handshake_failure alert"; }
echo "ok X25519-only client refused by BIKE-only server with a handshake_failure alert (exit $rc)"
rc=0; client "$WORK/bike.cnf" "$WORK/c2.log" || rc=$?
[[ $rc -eq 0 ]] || fail "BIKE client after the failed handshake: exit $rc"
server_alive || fail "BIKE server died"
echo "ok BIKE-only server still serves BIKE clients"

start_server "$WORK/server2.log" "$WORK/x25519.cnf" -tls1_3 -www
rc=0; client "$WORK/bike.cnf" "$WORK/c3.log" || rc=$?
[[ $rc -ne 0 && $rc -lt 124 ]] || { cat "$WORK/c3.log" >&2; fail "BIKE client vs X25519 server: exit $rc"; }
echo "ok BIKE-only client refused by X25519-only server (exit $rc)"

# TLS 1.3 only: a TLS 1.2 client with BIKE first in its groups offers no BIKE
# group at all and agrees on X25519 with a server that accepts both TLS
# versions and would take bikel1. (P-256 is listed because TLS 1.2 needs the
# curve of the server's ECDSA certificate among the client's groups.)
make_conf "$WORK/both.cnf" "bikel1:X25519:P-256"
start_server "$WORK/server3.log" "$WORK/both.cnf" -www
rc=0
printf 'GET / HTTP/1.0\r\n\r\n' | OPENSSL_CONF=$WORK/both.cnf timeout 20 \
  env ${BIKEPROV_PRELOAD:+LD_PRELOAD=$BIKEPROV_PRELOAD} \
  openssl s_client -connect "127.0.0.1:$PORT" -CAfile "$WORK/cert.pem" -tls1_2 -trace -ign_eof \
  > "$WORK/c4.log" 2>&1 || rc=$?
[[ $rc -eq 0 ]] || { tail -30 "$WORK/c4.log" >&2; fail "TLS 1.2 client: exit $rc"; }
grep -q '^New, TLSv1.2, Cipher is ECDHE-' "$WORK/c4.log" || fail "TLS 1.2 client: not an ECDHE TLS 1.2 session"
grep -q 'ecdh_x25519 (29)' "$WORK/c4.log" || fail "TLS 1.2 client: X25519 not offered"
! grep -q 'UNKNOWN (6504[0-7])' "$WORK/c4.log" || fail "TLS 1.2 client offered a BIKE group"
grep -q '^Server Temp Key: X25519' "$WORK/c4.log" || fail "TLS 1.2: key exchange not X25519"
echo "ok a TLS 1.2 client offers no BIKE group and gets X25519"
echo "all group mismatch tests passed"
