#!/bin/sh
# Old and new libbike in one process (scripts/bench_ab.c): builds libbike at
# git revision OLD in a temporary worktree, renames its symbols old_*, links
# both with the driver and runs it pinned to one CPU. The new side is the
# current top-level build (make build). Report the old/new ratios of several
# runs, with the other cores idle.
# Usage: scripts/bench_ab.sh OLD [CALLS [BACKEND [CPU]]]
set -eu
[ $# -ge 1 ] || { echo "usage: $0 OLD [CALLS [BACKEND [CPU]]]" >&2; exit 2; }
old=$1 calls=${2:-401} backend=${3:-auto} cpu=${4:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
new_lib=$root/build/lib/libbike.a
[ -f "$new_lib" ] || { echo "$0: $new_lib missing: run make build first" >&2; exit 1; }
for tool in git cmake ninja objcopy nm cc taskset; do
  command -v $tool >/dev/null || { echo "$0: needs $tool" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$work/src" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git -C "$root" worktree add --detach "$work/src" "$old" >/dev/null 2>&1
cmake -S "$work/src" -B "$work/build" -G Ninja >/dev/null
cmake --build "$work/build" --target bike >/dev/null
nm --defined-only -g "$work/build/lib/libbike.a" 2>/dev/null |
  awk 'NF == 3 { print $3 " old_" $3 }' | sort -u >"$work/rename"
objcopy --redefine-syms="$work/rename" "$work/build/lib/libbike.a" "$work/libold.a"
cc -O2 -I"$root/lib/include" "$root/scripts/bench_ab.c" "$new_lib" "$work/libold.a" \
  -lpthread -o "$work/bench_ab"
taskset -c "$cpu" "$work/bench_ab" "$calls" "$backend"
