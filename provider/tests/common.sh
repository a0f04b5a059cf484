# Shared helpers of the provider's shell tests (sourced, not run).
#
# Environment (set by ctest, see provider/CMakeLists.txt):
#   BIKEPROV_MODULE   absolute path of bikeprovider.so (required)
#   BIKEPROV_PRELOAD  sanitizer runtime to LD_PRELOAD into openssl/curl (ASan builds)
#   KEEP=1            keep the temporary work directory (logs) for debugging
# Every server binds 127.0.0.1 on a free port, runs under `timeout`, and is
# stopped by its process id when the test ends, whatever happens.
set -euo pipefail

: "${BIKEPROV_MODULE:?set BIKEPROV_MODULE to the path of bikeprovider.so}"
[[ -f $BIKEPROV_MODULE ]] || { echo "FAIL: no module at $BIKEPROV_MODULE" >&2; exit 1; }
command -v openssl >/dev/null || { echo "FAIL: openssl not installed (apt-get install openssl)" >&2; exit 1; }

ALL_GROUPS=(bikel1 p256_bikel1 x25519_bikel1 bikel3 p384_bikel3 x448_bikel3 bikel5 p521_bikel5
            mlkem768 X25519MLKEM768 SecP256r1MLKEM768)
declare -A CODEPOINT=([bikel1]=65040 [p256_bikel1]=65041 [x25519_bikel1]=65042 [bikel3]=65043
                      [p384_bikel3]=65044 [x448_bikel3]=65045 [bikel5]=65046 [p521_bikel5]=65047
                      [mlkem768]=513 [X25519MLKEM768]=4588 [SecP256r1MLKEM768]=4587)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bikeprov-test.XXXXXX")
SERVER_PIDS=()
cleanup() {
  local pid
  for pid in "${SERVER_PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  [[ -n ${KEEP:-} ]] || rm -rf "$WORK"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# Runs a command with the sanitizer runtime preloaded when there is one.
san() {
  if [[ -n ${BIKEPROV_PRELOAD:-} ]]; then LD_PRELOAD=$BIKEPROV_PRELOAD "$@"; else "$@"; fi
}

# make_conf FILE GROUPS: an openssl.cnf that loads default + bike and sets the
# TLS groups of every SSL_CTX (the system_default section).
make_conf() {
  cat > "$1" <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
ssl_conf = ssl_sect
[provider_sect]
default = default_sect
bike = bike_sect
[default_sect]
activate = 1
[bike_sect]
module = $BIKEPROV_MODULE
activate = 1
[ssl_sect]
system_default = system_default_sect
[system_default_sect]
Groups = $2
CNF
}

# A throw-away self-signed P-256 certificate for localhost (test-only key).
make_cert() {
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout "$WORK/key.pem" -out "$WORK/cert.pem" -subj /CN=localhost \
    -addext subjectAltName=DNS:localhost -days 1 2>/dev/null || fail "cannot make a certificate"
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_server LOG CONF ARGS...: s_server on 127.0.0.1:$PORT with s_server ARGS
# (e.g. -tls1_3 -www); waits (bounded) until it listens. Sets PORT and
# SERVER_PID.
start_server() {
  local log=$1 conf=$2 i
  shift 2
  rm -f "$log" # the shell truncates it only later, in the child: no stale ACCEPT
  PORT=$(free_port)
  OPENSSL_CONF=$conf timeout 60 env ${BIKEPROV_PRELOAD:+LD_PRELOAD=$BIKEPROV_PRELOAD} \
    openssl s_server -accept "127.0.0.1:$PORT" -cert "$WORK/cert.pem" -key "$WORK/key.pem" \
    "$@" > "$log" 2>&1 &
  SERVER_PID=$!
  SERVER_PIDS+=("$SERVER_PID")
  for ((i = 0; i < 100; i++)); do
    grep -q '^ACCEPT' "$log" 2>/dev/null && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$log" >&2; fail "s_server exited at start"; }
    sleep 0.05
  done
  cat "$log" >&2
  fail "s_server did not start listening within 5 s"
}

# server_alive: the server under test still runs (no crash).
server_alive() {
  kill -0 "$SERVER_PID" 2>/dev/null
}

# The NamedGroup the server chose, from an s_client -trace log (decimal).
server_hello_group() {
  awk '/ServerHello, Length/ {sh = 1} sh && /NamedGroup:/ {gsub(/.*\(|\).*/, ""); print; exit}' "$1"
}
