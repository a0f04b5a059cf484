#!/usr/bin/env bash
# The bike tool's command line: help, bad input that fails cleanly, and a
# KEM round trip on files. Usage: test_cli.sh path/to/bike
set -u
bike=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

expect() { # expect <exit code> <stderr pattern or -> <command...>
  local want=$1 pattern=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [[ $got -ne $want ]]; then
    echo "FAIL: '$*' exited $got, want $want; stderr: $(head -c 300 "$tmp/err")"; failed=$((failed+1)); return
  fi
  if [[ $pattern != - ]] && ! grep -q -- "$pattern" "$tmp/err"; then
    echo "FAIL: '$*' stderr lacks '$pattern': $(head -c 300 "$tmp/err")"; failed=$((failed+1)); return
  fi
  passed=$((passed+1))
}

for cmd in kat keygen encaps decaps bench info; do
  expect 0 - "$bike" "$cmd" --help
  grep -q "usage: bike $cmd" "$tmp/out" && passed=$((passed+1)) || { echo "FAIL: $cmd --help"; failed=$((failed+1)); }
done
expect 0 - "$bike" --help
expect 0 - "$bike" --version
expect 2 "unknown command" "$bike" frobnicate
expect 2 - "$bike"
expect 2 "unknown level '2'" "$bike" kat --level 2
expect 2 "--level is required" "$bike" keygen --pk "$tmp/pk" --sk "$tmp/sk"
expect 2 "unknown argument '--bogus'" "$bike" encaps --level 1 --bogus
expect 2 "needs a value" "$bike" decaps --level
expect 2 "positive integer" "$bike" bench --runs -3
expect 2 "positive integer" "$bike" kat --level 1 --count zero
# Back ends: an unknown name is an error, never a silent fallback.
expect 2 "unknown back end 'nope'" env BIKE_BACKEND=nope "$bike" info
expect 2 "unknown or not supported" "$bike" bench --backend nope --level 1 --runs 1
expect 0 - env BIKE_BACKEND=portable "$bike" info
grep -q "^back end: portable" "$tmp/out" && passed=$((passed+1)) || { echo "FAIL: BIKE_BACKEND=portable bike info"; failed=$((failed+1)); }
expect 0 - "$bike" --version
grep -q "(back end " "$tmp/out" && passed=$((passed+1)) || { echo "FAIL: --version names the back end"; failed=$((failed+1)); }

for level in 1 3 5; do
  expect 0 - "$bike" keygen --level $level --pk "$tmp/pk$level" --sk "$tmp/sk$level"
  expect 0 - "$bike" encaps --level $level --pk "$tmp/pk$level" --ct "$tmp/ct$level" --ss "$tmp/ss_enc$level"
  expect 0 - "$bike" decaps --level $level --sk "$tmp/sk$level" --ct "$tmp/ct$level" --ss "$tmp/ss_dec$level"
  if cmp -s "$tmp/ss_enc$level" "$tmp/ss_dec$level" && [[ $(stat -c %s "$tmp/ss_enc$level") -eq 32 ]]; then
    passed=$((passed+1))
  else
    echo "FAIL: level $level file round trip"; failed=$((failed+1))
  fi
done

# Wrong sizes are named, and existing outputs survive a failed command.
head -c 100 "$tmp/pk1" >"$tmp/short"
echo keep >"$tmp/ct_keep"
expect 1 "has 100 bytes; this level needs exactly 1541" "$bike" encaps --level 1 --pk "$tmp/short" --ct "$tmp/ct_keep" --ss "$tmp/x"
grep -q keep "$tmp/ct_keep" && passed=$((passed+1)) || { echo "FAIL: output clobbered"; failed=$((failed+1)); }
expect 1 "has more than 1541 bytes" "$bike" encaps --level 1 --pk "$tmp/pk3" --ct "$tmp/c" --ss "$tmp/x"
expect 1 "ciphertext" "$bike" decaps --level 3 --sk "$tmp/sk3" --ct "$tmp/ct1" --ss "$tmp/x"
expect 1 "cannot open public key" "$bike" encaps --level 1 --pk "$tmp/missing" --ct "$tmp/c" --ss "$tmp/x"
expect 1 "cannot write" "$bike" keygen --level 1 --pk "$tmp/no/such/dir/pk" --sk "$tmp/sk"
printf '\xff' | dd of="$tmp/pk1" bs=1 seek=1540 conv=notrunc status=none
expect 1 "malformed key" "$bike" encaps --level 1 --pk "$tmp/pk1" --ct "$tmp/c" --ss "$tmp/x"

# A tampered ciphertext still decapsulates, to a different secret. The byte
# is flipped, not overwritten: a fixed value equals the old one once in 256.
cp "$tmp/ct3" "$tmp/ct3_bad"
byte=$(od -An -tu1 -j3100 -N1 "$tmp/ct3" | tr -d ' ')
printf "\\$(printf '%03o' $((byte ^ 0x5a)))" | dd of="$tmp/ct3_bad" bs=1 seek=3100 conv=notrunc status=none
cmp -s "$tmp/ct3" "$tmp/ct3_bad" && { echo "FAIL: tampering left the ciphertext as it was"; failed=$((failed+1)); } || passed=$((passed+1))
expect 0 - "$bike" decaps --level 3 --sk "$tmp/sk3" --ct "$tmp/ct3_bad" --ss "$tmp/ss_bad"
cmp -s "$tmp/ss_bad" "$tmp/ss_dec3" && { echo "FAIL: tampered ct kept the secret"; failed=$((failed+1)); } || passed=$((passed+1))

# bench --json is valid JSON with every primitive and the batch timings.
expect 0 - "$bike" bench --level 1 --runs 3 --json
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["results"][0]; assert d["schema"]=="bikeco-bench/1" and set(r["primitives"])=={"keygen","encaps","decaps"} and r["breakdown"]["decaps"]["decoding"]>0 and list(r["keygen_batch"])==["1","4","16"] and r["keygen_batch"]["16"]["median_ns"]>0' "$tmp/out"; then
  passed=$((passed+1))
else
  echo "FAIL: bench --json"; failed=$((failed+1))
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
