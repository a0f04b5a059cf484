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
