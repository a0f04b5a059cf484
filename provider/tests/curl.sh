#!/usr/bin/env bash
# curl (system libcurl with OpenSSL 3) against an s_server that accepts only
# bikel1, configured by nothing but an openssl.cnf that loads the provider and
# lists the groups: no curl option names a group.
source "$(dirname "$0")/common.sh"
command -v curl >/dev/null || fail "curl not installed (apt-get install curl)"

# Sanitizer builds: s_server runs with the ASan runtime preloaded, but curl
# deadlocks at start-up under LD_PRELOAD=libasan (in a futex during library
# initialisation, before any of our code runs), so curl loads the ASan-built
# module late instead; ASan then checks the module's stack and globals but
# not heap allocations made through libc's malloc.
CURL_ASAN=
if [[ -n ${BIKEPROV_PRELOAD:-} ]]; then
  CURL_ASAN="ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0"
fi

make_cert
make_conf "$WORK/server.cnf" "bikel1"
start_server "$WORK/server.log" "$WORK/server.cnf" -tls1_3 -www

for g in bikel1 x25519_bikel1; do
  make_conf "$WORK/curl.cnf" "$g:X25519"
  rc=0
  OPENSSL_CONF=$WORK/curl.cnf timeout 20 env $CURL_ASAN \
    curl -sS --max-time 10 --tlsv1.3 --cacert "$WORK/cert.pem" \
    --resolve "localhost:$PORT:127.0.0.1" "https://localhost:$PORT/" > "$WORK/page.html" \
    2> "$WORK/curl.err" || rc=$?
  if [[ $g == bikel1 ]]; then
    [[ $rc -eq 0 ]] || { cat "$WORK/curl.err" >&2; fail "curl with bikel1: exit $rc"; }
    grep -q '^Shared groups: bikel1$' "$WORK/page.html" || fail "server page does not show bikel1"
    grep -qi '^Supported groups: bikel1:X25519$' "$WORK/page.html" \
      || fail "curl did not offer the groups of the config file"
    echo "ok curl negotiated bikel1 from openssl.cnf alone"
  else
    # A client that offers neither of the server's groups fails cleanly.
    [[ $rc -ne 0 && $rc -lt 128 ]] || fail "curl with $g against a bikel1-only server: exit $rc"
    echo "ok curl offering $g:X25519 refused by the bikel1-only server (exit $rc)"
  fi
done
server_alive || fail "s_server died"
echo "all curl tests passed"
