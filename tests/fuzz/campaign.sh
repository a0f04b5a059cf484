#!/bin/sh
# An offline fuzzing campaign over the targets of a BIKE_FUZZ build
# (docs/fuzzing.md): each NAME:SECONDS in turn, from its seeds and the corpus
# kept in CORPUS_ROOT/corpus-NAME (grown run after run), with libFuzzer's
# -jobs=JOBS processes. Appends a line per target to CORPUS_ROOT/campaign.txt
# with the executions (summed over the jobs), coverage and findings.
#   campaign.sh BUILD_DIR CORPUS_ROOT JOBS NAME:SECONDS...
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd) root=$(mkdir -p "$2" && cd "$2" && pwd) jobs=$3
shift 3
cd "$root"
for spec in "$@"; do
  name=${spec%%:*} seconds=${spec#*:}
  fuzzer=$build/bin/$name
  max_len=$(sed -n "s/^bike_fuzz_test($name \([0-9]*\))/\1/p" \
            "$src/tests/fuzz/CMakeLists.txt" "$src/provider/fuzz/CMakeLists.txt")
  mkdir -p "corpus-$name" "logs-$name"
  BIKEFUZZ_SEEDS=corpus-$name BIKE_KAT_DIR=${BIKE_KAT_DIR:-$src/../shared/kat} \
    "$fuzzer" -runs=0 "corpus-$name" >"logs-$name/seeds.log" 2>&1
  parallel=
  [ "$jobs" -gt 1 ] && parallel="-jobs=$jobs -workers=$jobs"
  status=0
  start=$(date +%s)
  # shellcheck disable=SC2086
  ( cd "logs-$name" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      "$fuzzer" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=1024 \
      -print_final_stats=1 $parallel -artifact_prefix="$root/$name-" \
      "$root/corpus-$name" >run.log 2>&1 ) || status=$?
  elapsed=$(( $(date +%s) - start ))
  logs="logs-$name/run.log"
  [ "$jobs" -gt 1 ] && logs="logs-$name/fuzz-*.log"
  # shellcheck disable=SC2086
  runs=$(cat $logs | sed -n 's/^stat::number_of_executed_units: *//p' | awk '{s+=$1} END {print s+0}')
  # shellcheck disable=SC2086
  cov=$(cat $logs | grep -o 'cov: [0-9]* ft: [0-9]*' | sort -t' ' -k2,2n | tail -n 1)
  findings=$(ls "$root" | grep -c "^$name-" || true)
  echo "$name: $runs executions in $elapsed s ($jobs jobs), $cov, corpus $(ls "corpus-$name" | wc -l), findings $findings, exit $status" \
    | tee -a campaign.txt
done
