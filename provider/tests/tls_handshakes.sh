#!/usr/bin/env bash
# Real TLS 1.3 handshakes with the system openssl s_server/s_client and the
# provider loaded from a config file: for each of the provider's groups, the
# client offers only that group; the handshake must complete, the server's
# ServerHello must carry that group's code point, and an HTTP request must be
# answered over the connection. Then one handshake with the provider loaded
# on the command line (-provider-path/-provider) instead of a config file.
source "$(dirname "$0")/common.sh"

make_cert
make_conf "$WORK/server.cnf" "$(IFS=:; echo "${ALL_GROUPS[*]}")"
start_server "$WORK/server.log" "$WORK/server.cnf" -tls1_3 -www

for g in "${ALL_GROUPS[@]}"; do
  make_conf "$WORK/client-$g.cnf" "$g"
  log=$WORK/client-$g.log
  rc=0
  printf 'GET / HTTP/1.0\r\n\r\n' | OPENSSL_CONF=$WORK/client-$g.cnf timeout 20 \
    env ${BIKEPROV_PRELOAD:+LD_PRELOAD=$BIKEPROV_PRELOAD} \
    openssl s_client -connect "127.0.0.1:$PORT" -servername localhost -CAfile "$WORK/cert.pem" \
    -verify_return_error -trace -ign_eof > "$log" 2>&1 || rc=$?
  [[ $rc -eq 0 ]] || { tail -30 "$log" >&2; fail "$g: s_client exited with $rc"; }
  got=$(server_hello_group "$log")
  [[ $got == "${CODEPOINT[$g]}" ]] || fail "$g: ServerHello group '$got', want ${CODEPOINT[$g]}"
  grep -q '^New, TLSv1.3, Cipher is' "$log" || fail "$g: not TLS 1.3"
  grep -q 'Verify return code: 0 (ok)' "$log" || fail "$g: certificate not verified"
  grep -q "^Shared groups: $g\$" "$log" || fail "$g: s_server -www page does not show the group"
  echo "ok $g: TLS 1.3 handshake, ServerHello group $got"
done

# HelloRetryRequest: the client's key share is for X25519, which this server
# does not accept; it asks for p384_bikel3 and the second ClientHello carries
# a BIKE hybrid share.
make_conf "$WORK/client-hrr.cnf" "X25519:p384_bikel3"
rc=0
printf 'GET / HTTP/1.0\r\n\r\n' | OPENSSL_CONF=$WORK/client-hrr.cnf timeout 20 \
  env ${BIKEPROV_PRELOAD:+LD_PRELOAD=$BIKEPROV_PRELOAD} \
  openssl s_client -connect "127.0.0.1:$PORT" -CAfile "$WORK/cert.pem" -trace -ign_eof \
  > "$WORK/hrr.log" 2>&1 || rc=$?
[[ $rc -eq 0 ]] || { tail -30 "$WORK/hrr.log" >&2; fail "HelloRetryRequest: s_client exited with $rc"; }
[[ $(grep -c 'ServerHello, Length' "$WORK/hrr.log") -eq 2 ]] || fail "HelloRetryRequest: no retry"
[[ $(grep 'NamedGroup:' "$WORK/hrr.log" | tail -1) == *"(65044)"* ]] || fail "HelloRetryRequest: wrong group"
echo "ok HelloRetryRequest from X25519 to p384_bikel3"
# The same to the ML-KEM hybrid: the retried ClientHello's share is the
# 1216-byte X25519MLKEM768 one.
make_conf "$WORK/client-hrr-mlkem.cnf" "X25519:X25519MLKEM768"
rc=0
printf 'GET / HTTP/1.0\r\n\r\n' | OPENSSL_CONF=$WORK/client-hrr-mlkem.cnf timeout 20 \
  env ${BIKEPROV_PRELOAD:+LD_PRELOAD=$BIKEPROV_PRELOAD} \
  openssl s_client -connect "127.0.0.1:$PORT" -CAfile "$WORK/cert.pem" -trace -ign_eof \
  > "$WORK/hrr-mlkem.log" 2>&1 || rc=$?
[[ $rc -eq 0 ]] || { tail -30 "$WORK/hrr-mlkem.log" >&2; fail "HelloRetryRequest to X25519MLKEM768: exit $rc"; }
[[ $(grep -c 'ServerHello, Length' "$WORK/hrr-mlkem.log") -eq 2 ]] || fail "X25519MLKEM768: no retry"
[[ $(grep 'NamedGroup:' "$WORK/hrr-mlkem.log" | tail -1) == *"(4588)"* ]] \
  || fail "HelloRetryRequest: not X25519MLKEM768"
echo "ok HelloRetryRequest from X25519 to X25519MLKEM768"

# Command-line loading, no config file.
rc=0
printf 'GET / HTTP/1.0\r\n\r\n' | OPENSSL_CONF=/dev/null timeout 20 \
  env ${BIKEPROV_PRELOAD:+LD_PRELOAD=$BIKEPROV_PRELOAD} \
  openssl s_client -provider-path "$(dirname "$BIKEPROV_MODULE")" -provider bikeprovider \
  -provider default -groups x25519_bikel1 -connect "127.0.0.1:$PORT" -CAfile "$WORK/cert.pem" \
  -trace -ign_eof > "$WORK/cli.log" 2>&1 || rc=$?
[[ $rc -eq 0 && $(server_hello_group "$WORK/cli.log") == 65042 ]] \
  || { tail -30 "$WORK/cli.log" >&2; fail "-provider bikeprovider: handshake failed"; }
echo "ok -provider bikeprovider -groups x25519_bikel1"

# Loading by name from a config file: no module path, the module is found in
# OPENSSL_MODULES (as it would be in OpenSSL's modules folder once installed).
sed -e '/^module = /d' -e 's/^bike = bike_sect$/bikeprovider = bike_sect/' \
  "$WORK/client-bikel3.cnf" > "$WORK/byname.cnf"
grep -q '^bikeprovider = bike_sect$' "$WORK/byname.cnf" || fail "by-name config not made"
rc=0
printf 'GET / HTTP/1.0\r\n\r\n' | OPENSSL_CONF=$WORK/byname.cnf timeout 20 \
  env OPENSSL_MODULES="$(dirname "$BIKEPROV_MODULE")" ${BIKEPROV_PRELOAD:+LD_PRELOAD=$BIKEPROV_PRELOAD} \
  openssl s_client -connect "127.0.0.1:$PORT" -CAfile "$WORK/cert.pem" -trace -ign_eof \
  > "$WORK/byname.log" 2>&1 || rc=$?
[[ $rc -eq 0 && $(server_hello_group "$WORK/byname.log") == 65043 ]] \
  || { tail -30 "$WORK/byname.log" >&2; fail "provider by name from openssl.cnf: handshake failed"; }
echo "ok openssl.cnf loading the provider by name (bikeprovider, OPENSSL_MODULES): bikel3"

server_alive || fail "s_server died"

# Code point override from the environment, on the wire: server and client
# both set BIKE_CODEPOINT_BIKEL1=0xFEA0 (65184); the ServerHello must carry
# it. A client without the override offers 0xFE10, which that server does
# not know, and must fail.
override_client() { # LOG [VAR=VALUE]
  local log=$1
  shift
  printf 'GET / HTTP/1.0\r\n\r\n' | OPENSSL_CONF=$WORK/client-bikel1.cnf timeout 20 \
    env "$@" ${BIKEPROV_PRELOAD:+LD_PRELOAD=$BIKEPROV_PRELOAD} \
    openssl s_client -connect "127.0.0.1:$PORT" -CAfile "$WORK/cert.pem" -trace -ign_eof \
    > "$log" 2>&1
}
BIKE_CODEPOINT_BIKEL1=0xFEA0 start_server "$WORK/override.log" "$WORK/client-bikel1.cnf" -tls1_3 -www
rc=0; override_client "$WORK/override-client.log" BIKE_CODEPOINT_BIKEL1=0xFEA0 || rc=$?
[[ $rc -eq 0 && $(server_hello_group "$WORK/override-client.log") == 65184 ]] \
  || { tail -30 "$WORK/override-client.log" >&2; fail "BIKE_CODEPOINT_BIKEL1=0xFEA0: no handshake on 65184"; }
echo "ok BIKE_CODEPOINT_BIKEL1=0xFEA0: ServerHello group 65184"
rc=0; override_client "$WORK/no-override-client.log" || rc=$?
[[ $rc -ne 0 && $rc -lt 124 ]] || fail "client on 0xFE10 against a server on 0xFEA0: exit $rc"
echo "ok a client without the override is refused (exit $rc)"
server_alive || fail "s_server with the override died"
echo "all handshake tests passed"
