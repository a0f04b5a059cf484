#!/bin/sh
# ctest's mlkem_interop_go: libmlkem against Go's crypto/mlkem (main.go).
# Needs go 1.26 or later (crypto/mlkem/mlkemtest); without it the test
# says so and exits 77, which ctest reports as skipped, not passed.
# usage: run.sh <mlkem tool>
set -eu
tool=$1
cd "$(dirname "$0")"
# go on PATH if it is 1.26 or later, else where scripts/setup.sh installs it.
go_minor() { GOTOOLCHAIN=local "$1" env GOVERSION 2>/dev/null | sed -n 's/^go1\.\([0-9]*\).*/\1/p'; }
go=$(command -v go || true)
if [ -z "$go" ] || [ "$(go_minor "$go")" -lt 26 ] 2>/dev/null || [ -z "$(go_minor "$go")" ]; then
  go=/usr/local/go/bin/go
fi
if [ ! -x "$go" ]; then
  echo "ML-KEM interop with Go NOT RUN: no go on PATH nor in /usr/local/go"
  exit 77
fi
version=$(GOTOOLCHAIN=local "$go" env GOVERSION)
minor=$(echo "$version" | sed -n 's/^go1\.\([0-9]*\).*/\1/p')
if [ -z "$minor" ] || [ "$minor" -lt 26 ]; then
  echo "ML-KEM interop with Go NOT RUN: $version is older than go1.26"
  exit 77
fi
GOTOOLCHAIN=local GOFLAGS=-buildvcs=false exec "$go" run . interop "$tool"
