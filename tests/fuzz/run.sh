#!/bin/sh
# One bounded libFuzzer run (a ctest test of the BIKE_FUZZ build):
#   run.sh NAME FUZZER SECONDS MAX_LEN SUMMARY
# replays tests/fuzz/regressions/NAME/* if there are any, writes NAME's seeds
# (the fuzzer's BIKEFUZZ_SEEDS start-up) into corpus-NAME/, fuzzes for SECONDS, and appends one line to SUMMARY:
# executions, speed, coverage and features as libFuzzer last printed them.
# Exits non-zero on any finding (libFuzzer's crash-*/leak-* file is kept).
set -eu
name=$1 fuzzer=$2 seconds=$3 max_len=$4 summary=$5
corpus=corpus-$name
log=$name.log

rm -rf "$corpus" && mkdir "$corpus"
status=0
# Inputs that once found something (tests/fuzz/regressions/NAME/), each run once.
regressions=$(dirname "$0")/regressions/$name
: >"$log"
if [ -d "$regressions" ]; then
  "$fuzzer" "$regressions"/* >>"$log" 2>&1 || status=$?
fi
[ "$status" -ne 0 ] || BIKEFUZZ_SEEDS=$corpus "$fuzzer" -runs=0 "$corpus" >>"$log" 2>&1 || status=$?
[ "$status" -ne 0 ] || "$fuzzer" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=1024 \
          -print_final_stats=1 -artifact_prefix="$name-" "$corpus" >>"$log" 2>&1 || status=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1)
line="$name: ${runs:-?} executions in ${seconds} s (${speed:-?}/s), $cov, corpus $(ls "$corpus" | wc -l)"
if [ "$status" -ne 0 ]; then
  line="$line, FINDING (exit $status, see $(pwd)/$log)"
  tail -n 60 "$log"
fi
echo "$line" | tee -a "$summary"
exit "$status"
