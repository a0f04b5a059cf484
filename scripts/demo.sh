#!/usr/bin/env bash
# A short tour of libbike through the bike tool: a KEM round trip on files at
# each level, then the benchmark table. Usage: demo.sh path/to/bike
set -euo pipefail
bike=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for level in 1 3 5; do
  "$bike" keygen --level $level --pk "$tmp/pk" --sk "$tmp/sk"
  "$bike" encaps --level $level --pk "$tmp/pk" --ct "$tmp/ct" --ss "$tmp/ss_server"
  "$bike" decaps --level $level --sk "$tmp/sk" --ct "$tmp/ct" --ss "$tmp/ss_client"
  if cmp -s "$tmp/ss_server" "$tmp/ss_client"; then
    printf 'level %d: pk %5d B, ct %5d B, shared secret %s (both sides agree)\n' "$level" \
      "$(stat -c %s "$tmp/pk")" "$(stat -c %s "$tmp/ct")" "$(od -An -tx1 -N8 "$tmp/ss_client" | tr -d ' ')..."
  else
    echo "level $level: the two sides disagree" >&2
    exit 1
  fi
done
echo
"$bike" bench --runs 21
