#!/usr/bin/env bash
# One-time set-up of everything the two README commands need, idempotent.
# System packages through apt-get (when run as root and something is missing),
# Python tools into the project-local virtual environment .venv/.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
for pkg_cmd in "build-essential:gcc" "cmake:cmake" "ninja-build:ninja" "valgrind:valgrind" \
               "libssl-dev:/usr/include/openssl/evp.h" "openssl:openssl" "curl:curl" \
               "clang:clang" "libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.msan-x86_64.a" \
               "nginx:/usr/sbin/nginx" "pkgconf:pkg-config" "dpkg-dev:dpkg-shlibdeps" \
               "groff-base:groff" "file:file" \
               "gcc-arm-linux-gnueabihf:arm-linux-gnueabihf-gcc" \
               "gcc-aarch64-linux-gnu:aarch64-linux-gnu-gcc" "qemu-user-static:qemu-arm-static" \
               "chromium:chromium"; do
  pkg=${pkg_cmd%%:*}; probe=${pkg_cmd#*:}
  if [[ $probe == /* ]]; then [[ -e $probe ]] || need_apt+=("$pkg")
  else command -v "$probe" >/dev/null 2>&1 || need_apt+=("$pkg"); fi
done
if ((${#need_apt[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    echo "setup: installing ${need_apt[*]} with apt-get"
    # The tests start their own servers on 127.0.0.1: keep the packages'
    # (nginx's) system services from starting on install.
    no_services=0
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
      printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
      no_services=1
    fi
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
    if ((no_services)); then rm -f /usr/sbin/policy-rc.d; fi
  else
    echo "setup: missing system packages: ${need_apt[*]} (install them with apt-get)" >&2
    exit 1
  fi
fi

# Go >= 1.26 for the interop tests with Go's crypto/mlkem and crypto/tls
# (tests/interop/, provider/tests/interop_go.sh; Debian 12's golang-go is
# 1.19): the release's module zip from the Go module proxy (what `go` itself
# fetches to switch toolchains; go.dev's downloads are not reachable from CI)
# into /usr/local/go, where the tests look when go is not on PATH, checked
# against the SHA-256 pinned here.
GO_VERSION=1.26.8
GO_ZIP_SHA256_amd64=30c2b1bf7dcc88d3eb0a1364e47ddd9128edb3110a30e8a0ef61cd5856b31de7
go_ok() { # go_ok BINARY: it exists and is go 1.26 or later
  local minor
  [[ -x $1 ]] || return 1
  minor=$(GOTOOLCHAIN=local "$1" env GOVERSION 2>/dev/null | sed -n 's/^go1\.\([0-9]*\).*/\1/p')
  [[ -n $minor && $minor -ge 26 ]]
}
if ! go_ok "$(command -v go || true)" && ! go_ok /usr/local/go/bin/go; then
  [[ $(id -u) -eq 0 ]] || { echo "setup: need go >= 1.26 in /usr/local/go (run as root)" >&2; exit 1; }
  arch=$(dpkg --print-architecture)
  sumvar=GO_ZIP_SHA256_$arch
  [[ -n ${!sumvar:-} ]] || { echo "setup: no pinned Go toolchain checksum for $arch" >&2; exit 1; }
  module=v0.0.1-go$GO_VERSION.linux-$arch
  echo "setup: installing Go $GO_VERSION ($module) into /usr/local/go"
  curl -fsSL -o /tmp/go-toolchain.zip "https://proxy.golang.org/golang.org/toolchain/@v/$module.zip"
  echo "${!sumvar}  /tmp/go-toolchain.zip" | sha256sum -c --quiet -
  rm -rf /usr/local/go
  python3 - /tmp/go-toolchain.zip "golang.org/toolchain@$module/" <<'PY'
import os, sys, zipfile
zip_path, prefix = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(zip_path) as z:
    for info in z.infolist():
        if not info.filename.startswith(prefix) or info.is_dir():
            continue
        dest = os.path.join("/usr/local/go", info.filename[len(prefix):])
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with z.open(info) as src, open(dest, "wb") as out:
            out.write(src.read())
        # the module zip keeps no modes: executables are bin/* and pkg/tool/*/*
        rel = info.filename[len(prefix):].split("/")
        if rel[0] == "bin" or (rel[:2] == ["pkg", "tool"] and len(rel) == 4):
            os.chmod(dest, 0o755)
PY
  rm -f /tmp/go-toolchain.zip
  go_ok /usr/local/go/bin/go || { echo "setup: the installed Go does not run" >&2; exit 1; }
fi

if [[ ! -x .venv/bin/python ]]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
if [[ -f hw/requirements.txt ]]; then
  .venv/bin/python -m pip install -q -r hw/requirements.txt
fi
if [[ -f python/pyproject.toml ]]; then
  .venv/bin/python -m pip install -q -e 'python[dev]'
fi
echo "setup: done"
