#!/usr/bin/env bash
# nginx with BIKE from an openssl.cnf alone (docs/tls.md recipe): nginx's
# default `ssl_ecdh_curve auto` leaves the groups to OpenSSL's config. The
# nginx binary is $NGINX or `nginx` on PATH; without one the test fails
# (scripts/setup.sh installs Debian's `nginx`). It runs in the foreground on
# 127.0.0.1 and is killed by PID.
source "$(dirname "$0")/common.sh"
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)} # /usr/sbin may be off PATH
[[ -n $NGINX && -x $NGINX ]] || fail "nginx not installed (apt-get install nginx)"
command -v curl >/dev/null || fail "curl not installed (apt-get install curl)"

make_cert
make_conf "$WORK/nginx.cnf" "x25519_bikel1:bikel1:X25519"
mkdir -p "$WORK/logs" "$WORK/tmp"
PORT=$(free_port)
cat > "$WORK/nginx.conf" <<CONF
daemon off;
error_log $WORK/logs/error.log info;
pid $WORK/logs/nginx.pid;
worker_processes 1;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $WORK/tmp; proxy_temp_path $WORK/tmp; fastcgi_temp_path $WORK/tmp;
    uwsgi_temp_path $WORK/tmp; scgi_temp_path $WORK/tmp;
    server {
        listen 127.0.0.1:$PORT ssl;
        ssl_certificate     $WORK/cert.pem;
        ssl_certificate_key $WORK/key.pem;
        ssl_protocols       TLSv1.2 TLSv1.3;
        location / { return 200 "curve=\$ssl_curve protocol=\$ssl_protocol\n"; }
    }
}
CONF
OPENSSL_CONF=$WORK/nginx.cnf timeout 60 env ${BIKEPROV_PRELOAD:+LD_PRELOAD=$BIKEPROV_PRELOAD} \
  "$NGINX" -p "$WORK" -c "$WORK/nginx.conf" > "$WORK/logs/stdout" 2>&1 &
SERVER_PID=$!
SERVER_PIDS+=("$SERVER_PID")
for ((i = 0; i < 100; i++)); do
  grep -q 'start worker process' "$WORK/logs/error.log" 2>/dev/null && break
  server_alive || { cat "$WORK/logs/stdout" "$WORK/logs/error.log" >&2; fail "nginx exited at start"; }
  sleep 0.05
done
grep -q 'start worker process' "$WORK/logs/error.log" || fail "nginx did not start within 5 s"

CURL_ASAN=
[[ -n ${BIKEPROV_PRELOAD:-} ]] && CURL_ASAN="ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0"
for pair in x25519_bikel1:0xfe12 bikel1:0xfe10 X25519:X25519; do
  g=${pair%%:*} want=${pair#*:}
  make_conf "$WORK/curl.cnf" "$g"
  page=$(OPENSSL_CONF=$WORK/curl.cnf timeout 20 env $CURL_ASAN curl -sS --max-time 10 \
    --cacert "$WORK/cert.pem" --resolve "localhost:$PORT:127.0.0.1" "https://localhost:$PORT/") \
    || fail "curl offering $g to nginx"
  [[ $page == "curve=$want protocol=TLSv1.3" ]] || fail "nginx answered '$page' for $g"
  echo "ok nginx negotiated $g ($page)"
done
server_alive || fail "nginx died"
echo "all nginx tests passed"
