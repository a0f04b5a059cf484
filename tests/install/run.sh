#!/usr/bin/env bash
# What a user outside the repository does with libbike and libmlkem, checked
# end to end:
#  1. `cmake --install BUILD --prefix P` puts everything under P (and nowhere
#     else): headers, static and shared libraries (soname links), bike.pc and
#     mlkem.pc, the CMake packages, the tool and its man page, the provider;
#     libmlkem.so exports exactly the functions of mlkem.h.
#  2. consumer.c and consumer_mlkem.c (KEM round trips) built against P with
#     pkg-config, and with CMake's find_package(bike) / find_package(mlkem)
#     (shared and static), run on P's libraries.
#     The prefix's provider, enabled by a config file, makes and prints a
#     BIKE key with openssl genpkey / pkey (as README shows).
#  3. The Debian packages: a build configured for prefix /usr, `cpack`, the
#     .deb files installed by dpkg into a fresh root with its own database;
#     that root's `bike kat --level 1` matches the official KAT file, its
#     libmlkem runs the consumer, and its provider loads into the system
#     openssl.
# Usage: run.sh SOURCE_DIR BUILD_DIR KAT_DIR C_COMPILER GENERATOR
set -euo pipefail
src=$1 build=$2 kat=$3 cc=$4 generator=$5
here=$src/tests/install
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
step() { echo "== $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
version=$(sed -n 's/^#define BIKE_VERSION_STRING "\(.*\)"$/\1/p' "$src/lib/include/bike/bike.h")
major=${version%%.*}
[[ -n $version ]] || fail "no BIKE_VERSION_STRING in bike.h"

step "install into a prefix"
P=$tmp/prefix
cmake --install "$build" --prefix "$P" >"$tmp/install.log"
while read -r f || [[ -n $f ]]; do  # the manifest lacks a final newline
  [[ $f == "$P"/* ]] || fail "installed outside the prefix: $f"
done <"$build/install_manifest.txt"
[[ -s $build/install_manifest.txt ]] || fail "cmake --install installed nothing"
for f in include/bike/bike.h include/bike/ops.h lib/libbike.a "lib/libbike.so.$version" \
         lib/pkgconfig/bike.pc lib/cmake/bike/bikeConfig.cmake \
         lib/cmake/bike/bikeConfigVersion.cmake lib/cmake/bike/bikeTargets.cmake \
         bin/bike share/man/man1/bike.1 lib/ossl-modules/bikeprovider.so \
         include/mlkem/mlkem.h lib/libmlkem.a "lib/libmlkem.so.$version" lib/pkgconfig/mlkem.pc \
         lib/cmake/mlkem/mlkemConfig.cmake lib/cmake/mlkem/mlkemConfigVersion.cmake \
         lib/cmake/mlkem/mlkemTargets.cmake; do
  [[ -f $P/$f ]] || fail "not installed: $f"
done
[[ $(readlink "$P/lib/libbike.so.$major") == "libbike.so.$version" ]] || fail "libbike.so.$major link"
[[ $(readlink "$P/lib/libbike.so") == "libbike.so.$major" ]] || fail "libbike.so link"
readelf -d "$P/lib/libbike.so.$version" | grep -q "Library soname: \[libbike.so.$major\]" ||
  fail "soname of libbike.so.$version is not libbike.so.$major"
[[ $(readlink "$P/lib/libmlkem.so") == "libmlkem.so.$major" ]] || fail "libmlkem.so link"
readelf -d "$P/lib/libmlkem.so.$version" | grep -q "Library soname: \[libmlkem.so.$major\]" ||
  fail "soname of libmlkem.so.$version is not libmlkem.so.$major"
! readelf -d "$P/lib/libmlkem.so.$version" | grep -q "libbike" || fail "libmlkem.so needs libbike"
declared=$(sed -n 's/^[a-z].* \**\(mlkem_[a-z_]*\)(.*/\1/p' "$P/include/mlkem/mlkem.h" | sort)
exported=$(nm -D --defined-only "$P/lib/libmlkem.so.$version" | awk '$2 == "T" { print $3 }' |
           sed 's/@.*//' | sort)
[[ -n $declared && $declared == "$exported" ]] ||
  fail "libmlkem.so exports [$(echo $exported)], mlkem.h declares [$(echo $declared)]"

step "man page: renders without warnings, documents every command"
warnings=$(groff -man -Tutf8 -ww -z "$P/share/man/man1/bike.1" 2>&1)
[[ -z $warnings ]] || fail "groff: $warnings"
commands=$("$build/bin/bike" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
[[ -n $commands ]] || fail "no commands in bike --help"
for c in $commands; do
  grep -q "^\.SS $c\$" "$P/share/man/man1/bike.1" || fail "bike.1 has no section for '$c'"
done

# The program must use P's library (libbike, or NAME), not the build tree's
# or the system's.
uses_lib_from() {
  local exe=$1 dir=$2 name=${3:-bike} lib
  lib=$(LD_LIBRARY_PATH=$dir ldd "$exe" | awk '$1 == "lib'"$name"'.so.'"$major"'" { print $3 }')
  [[ $lib == "$dir/lib$name.so.$major" ]] || fail "$exe loads lib$name from '$lib', not $dir"
}

step "consumer with pkg-config"
export PKG_CONFIG_PATH=$P/lib/pkgconfig
[[ $(pkg-config --modversion bike) == "$version" ]] || fail "pkg-config --modversion bike"
# shellcheck disable=SC2046  # pkg-config's output is a list of flags
"$cc" -std=c11 -Wall -Werror $(pkg-config --cflags bike) "$here/consumer.c" \
  $(pkg-config --libs bike) -o "$tmp/consumer_pc"
uses_lib_from "$tmp/consumer_pc" "$P/lib"
LD_LIBRARY_PATH=$P/lib "$tmp/consumer_pc"
[[ $(pkg-config --modversion mlkem) == "$version" ]] || fail "pkg-config --modversion mlkem"
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Werror $(pkg-config --cflags mlkem) "$here/consumer_mlkem.c" \
  $(pkg-config --libs mlkem) -o "$tmp/consumer_mlkem_pc"
uses_lib_from "$tmp/consumer_mlkem_pc" "$P/lib" mlkem
LD_LIBRARY_PATH=$P/lib "$tmp/consumer_mlkem_pc"

step "consumers with CMake find_package(bike) and find_package(mlkem)"
cmake -S "$here" -B "$tmp/consumer" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_PREFIX_PATH="$P" -DBIKE_EXPECTED_VERSION="$version" >"$tmp/consumer.log"
cmake --build "$tmp/consumer" >>"$tmp/consumer.log"
uses_lib_from "$tmp/consumer/consumer_shared" "$P/lib"
LD_LIBRARY_PATH=$P/lib "$tmp/consumer/consumer_shared"
if readelf -d "$tmp/consumer/consumer_static" | grep -q "libbike.so"; then
  fail "consumer_static needs libbike.so"
fi
"$tmp/consumer/consumer_static"
uses_lib_from "$tmp/consumer/consumer_mlkem_shared" "$P/lib" mlkem
LD_LIBRARY_PATH=$P/lib "$tmp/consumer/consumer_mlkem_shared"
if readelf -d "$tmp/consumer/consumer_mlkem_static" | grep -q "lib\(mlkem\|bike\).so"; then
  fail "consumer_mlkem_static needs a shared library of ours"
fi
"$tmp/consumer/consumer_mlkem_static"

step "the prefix's provider from a config file: openssl genpkey and pkey (README)"
cat >"$tmp/bike.cnf" <<'CNF'
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
default = default_sect
bikeprovider = bike_sect
[default_sect]
activate = 1
[bike_sect]
activate = 1
CNF
OPENSSL_CONF=$tmp/bike.cnf OPENSSL_MODULES=$P/lib/ossl-modules \
  openssl genpkey -algorithm bikel1 -out "$tmp/bike.pem" || fail "genpkey with the prefix's provider"
text=$(OPENSSL_CONF=$tmp/bike.cnf OPENSSL_MODULES=$P/lib/ossl-modules \
       openssl pkey -in "$tmp/bike.pem" -text -noout) || fail "pkey -text"
grep -q "^BIKE level 1 Private-Key:$" <<<"$text" || fail "pkey -text does not show a BIKE key"

step "Debian packages (cpack)"
debbuild=$tmp/deb-build
cmake -S "$src" -B "$debbuild" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_INSTALL_PREFIX=/usr >"$tmp/deb.log"
cmake --build "$debbuild" --target bike bike_shared mlkem mlkem_shared bike_tool bikeprovider \
  >>"$tmp/deb.log"
(cd "$debbuild" && cpack -G DEB >>"$tmp/deb.log" 2>&1) || { cat "$tmp/deb.log"; fail "cpack"; }
debs=("$debbuild"/*.deb)
names=$(for d in "${debs[@]}"; do dpkg-deb -f "$d" Package; done | sort | tr '\n' ' ')
[[ $names == "bike-tools bikeprovider libbike-dev libbike$major libmlkem-dev libmlkem$major " ]] ||
  fail "packages: $names"

step "dpkg into a fresh root"
root=$tmp/root admin=$tmp/root/var/lib/dpkg
mkdir -p "$admin/info" "$admin/updates"
# The packages' dependencies outside this project (libc6, libssl3) are
# recorded as the host's installed versions; ours are resolved for real.
for dep in $(for d in "${debs[@]}"; do dpkg-deb -f "$d" Depends; done |
             tr ',' '\n' | sed 's/(.*//; s/ //g' | sort -u); do
  case " $names" in *" $dep "*) continue ;; esac
  dpkg-query -s "$dep" >>"$admin/status" || fail "dependency $dep is not installed here"
  echo >>"$admin/status"
  : >"$admin/info/$(dpkg-query -f '${binary:Package}' -W "$dep").list"
done
# Maintainer scripts run outside a chroot (the root has no shell); the
# library's postinst calls ldconfig, which must not touch this machine's cache.
mkdir "$tmp/stub"
printf '#!/bin/sh\necho "ldconfig $*" >>"%s/ldconfig.log"\n' "$tmp" >"$tmp/stub/ldconfig"
chmod +x "$tmp/stub/ldconfig"
PATH=$tmp/stub:$PATH dpkg --root="$root" --force-script-chrootless --log=/dev/null \
  -i "${debs[@]}" >"$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log"; fail "dpkg -i"; }
installed=$(dpkg-query --admindir="$admin" -W -f '${Package} ${db:Status-Abbrev}\n' \
            bike-tools bikeprovider libbike-dev "libbike$major" libmlkem-dev "libmlkem$major")
[[ $(grep -c " ii $" <<<"$installed") == 6 ]] || fail "not all installed: $installed"
grep -q ldconfig "$tmp/ldconfig.log" || fail "libbike$major's postinst did not run ldconfig"

step "the root's bike kat --level 1 against the official KAT"
libdir=$root/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
uses_lib_from "$root/usr/bin/bike" "$libdir"
LD_LIBRARY_PATH=$libdir "$root/usr/bin/bike" kat --level 1 | cmp - "$kat/PQCkemKAT_BIKE_L1.rsp"

step "the root's libmlkem runs the consumer"
uses_lib_from "$tmp/consumer_mlkem_pc" "$libdir" mlkem
LD_LIBRARY_PATH=$libdir "$tmp/consumer_mlkem_pc"

step "the packaged provider sits in OpenSSL's modules folder and loads"
modules=$(openssl version -m | sed 's/^MODULESDIR: "\(.*\)"$/\1/')
[[ -f $root$modules/bikeprovider.so ]] || fail "no bikeprovider.so in the root's $modules"
openssl list -kem-algorithms -provider-path "$root$modules" -provider bikeprovider |
  grep -q bikel1 || fail "openssl does not list bikel1 from the packaged provider"
echo "install: all checks passed"
