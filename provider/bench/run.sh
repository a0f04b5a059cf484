#!/usr/bin/env bash
# Handshake benchmark: full TLS 1.3 handshakes on 127.0.0.1 per group, server
# and client pinned to different cores, X25519 alone as the baseline.
#
#   provider/bench/run.sh [BUILD_DIR] [COUNT] [ROUNDS]
#
# BUILD_DIR defaults to build-provider (a Release build is what you want to
# measure), COUNT (handshakes per group and round, after WARMUP=10 warm-up
# ones) to 200, ROUNDS to 5. The groups are run round-robin, ROUNDS times, so
# that a burst of load from other processes hits all groups alike; each cell
# of the Markdown table is the median over the rounds of that round's figure
# (handshakes/s, median/p10/p90 latency, CPU time per handshake of client and
# server), then the client CPU time of every round. Set BENCH_CPUS="0 1" to
# choose the server and client cores, BENCH_GROUPS="X25519 X25519MLKEM768
# bikel1" to run only some groups, and BENCH_CLIENT_BACKEND=avx2-vpclmul to
# run the client's libbike on that back end (BIKE_BACKEND in the client's
# environment only; the server keeps the one dispatch chooses).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-provider}
[[ -d $build ]] || { echo "no build directory $build" >&2; exit 1; }
build=$(cd "$build" && pwd) # OpenSSL resolves a relative module path in its own modules folder
count=${2:-200}
rounds=${3:-5}
warmup=${WARMUP:-10}
read -r cpu_server cpu_client <<< "${BENCH_CPUS:-0 1}"
client_env=(env)
[[ -n ${BENCH_CLIENT_BACKEND:-} ]] && client_env+=("BIKE_BACKEND=$BENCH_CLIENT_BACKEND")
bench=$build/bin/bikeprov_tls_bench
module=$build/lib/bikeprovider.so
[[ -x $bench && -f $module ]] || { echo "build first: cmake --build $build" >&2; exit 1; }
command -v taskset >/dev/null || { echo "taskset missing (util-linux)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bikeprov-bench.XXXXXX")
server_pid=
cleanup() {
  [[ -n $server_pid ]] && { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }
  rm -rf "$work"
}
trap cleanup EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/key.pem" \
  -out "$work/cert.pem" -subj /CN=localhost -days 1 2>/dev/null

all_groups="X25519 X25519MLKEM768 SecP256r1MLKEM768 mlkem768 bikel1 x25519_bikel1 p256_bikel1"
all_groups+=" bikel3 x448_bikel3 p384_bikel3 bikel5 p521_bikel5"
read -r -a groups <<< "${BENCH_GROUPS:-$all_groups}"
declare -A share=([X25519]="32 / 32" [bikel1]="1541 / 1573" [p256_bikel1]="1606 / 1638"
  [x25519_bikel1]="1573 / 1605" [bikel3]="3083 / 3115" [p384_bikel3]="3180 / 3212"
  [x448_bikel3]="3139 / 3171" [bikel5]="5122 / 5154" [p521_bikel5]="5255 / 5287"
  [mlkem768]="1184 / 1088" [X25519MLKEM768]="1216 / 1120" [SecP256r1MLKEM768]="1249 / 1153")
for g in "${groups[@]}"; do
  [[ -n ${share[$g]:-} ]] || { echo "unknown group $g (known: ${!share[*]})" >&2; exit 1; }
done

info=$("$bench" info --module "$module") || { echo "cannot load $module" >&2; exit 1; }
if [[ -n ${BENCH_CLIENT_BACKEND:-} ]]; then
  # The provider reports the back end it runs on: check the client's took.
  client_info=$("${client_env[@]}" "$bench" info --module "$module") \
    || { echo "client cannot run back end $BENCH_CLIENT_BACKEND" >&2; exit 1; }
  [[ $client_info == *"back end $BENCH_CLIENT_BACKEND;"* ]] \
    || { echo "client back end not $BENCH_CLIENT_BACKEND: $client_info" >&2; exit 1; }
  info="server: $info; client: $client_info"
fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# One round for one group: appends "key=value ..." of client and server to
# $work/$g.results (one line per round).
run_one() {
  local g=$1 port line i out=$work/server-$1-$2.out # a fresh file: no READY of an earlier run
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  # The provider is loaded for X25519 too, so that both sides run the same set-up.
  timeout 300 taskset -c "$cpu_server" "$bench" server --module "$module" --group "$g" \
    --port "$port" --count "$count" --warmup "$warmup" --cert "$work/cert.pem" --key "$work/key.pem" \
    > "$out" 2>&1 &
  server_pid=$!
  for ((i = 0; i < 400; i++)); do
    grep -q READY "$out" 2>/dev/null && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$out" >&2; exit 1; }
    sleep 0.05
  done
  grep -q READY "$out" || { echo "server for $g not ready after 20 s" >&2; exit 1; }
  line=$(timeout 300 taskset -c "$cpu_client" "${client_env[@]}" "$bench" client --module "$module" --group "$g" \
    --port "$port" --count "$count" --warmup "$warmup" --cafile "$work/cert.pem")
  wait "$server_pid" || { cat "$out" >&2; exit 1; }
  server_pid=
  echo "$line $(grep server_cpu_ms "$out")" >> "$work/$g.results"
}

for ((r = 0; r < rounds; r++)); do
  for g in "${groups[@]}"; do run_one "$g" "$r"; done
done

# The median over the rounds of one key's values in a results file.
median_of() {
  sed -E "s/(^|.* )$2=([^ ]+).*/\2/" "$1" | sort -g \
    | awk '{v[NR] = $1} END {printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

echo "Provider: $info; CPUs: server $cpu_server, client $cpu_client; $rounds rounds x $count" \
  "handshakes per group (medians over the rounds); load average before: $load_before," \
  "after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| group | handshakes/s | median (ms) | p10 (ms) | p90 (ms) | client CPU (ms) | server CPU (ms) | key share / ciphertext (bytes) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for g in "${groups[@]}"; do
  f=$work/$g.results
  printf '| %s | %.1f | %s | %s | %s | %s | %s | %s |\n' "$g" "$(median_of "$f" handshakes_per_s)" \
    "$(median_of "$f" median_ms)" "$(median_of "$f" p10_ms)" "$(median_of "$f" p90_ms)" \
    "$(median_of "$f" client_cpu_ms)" "$(median_of "$f" server_cpu_ms)" "${share[$g]}"
done
echo
echo "Client CPU (ms) per handshake, round by round:"
for g in "${groups[@]}"; do
  echo "  $g: $(sed -E 's/(^|.* )client_cpu_ms=([^ ]+).*/\2/' "$work/$g.results" | tr '\n' ' ')"
done
