#!/usr/bin/env python3
"""The shared library exports exactly the public API, in its symbol versions.

Usage: check_exports.py LIBBIKE_SO BIKE_H BATCH_H OPS_H ACCEL_H LIBBIKE_MAP

Every function the headers mark BIKE_API is listed in the version script
(bike.h and batch.h under BIKE_<major>, ops.h and accel.h under
BIKE_OPS_<version>), is exported by the library with that version, and
nothing else is exported; the soname is libbike.so.<BIKE_ABI_VERSION>.
"""

import re
import subprocess
import sys
from pathlib import Path

so, bike_h, batch_h, ops_h, accel_h, map_file = (Path(a) for a in sys.argv[1:7])
failures: list[str] = []


def declared(header: Path) -> set[str]:
    """Names of the functions a header declares; each must be BIKE_API."""
    names = set()
    for line in header.read_text().splitlines():
        m = re.match(r"^(BIKE_API\s+)?(?:const\s+)?\w+\s*\*?\s*(bike_\w+)\s*\(", line)
        if m:
            if not m.group(1):
                failures.append(f"{header.name}: {m.group(2)} is declared without BIKE_API")
            names.add(m.group(2))
    if not names:
        sys.exit(f"check_exports: no functions found in {header}")
    return names


def macro(header: Path, name: str) -> str:
    m = re.search(rf"^#define {name} (\S+)", header.read_text(), re.M)
    if m is None:
        sys.exit(f"check_exports: {name} not defined in {header}")
    return m.group(1)


def version_nodes(path: Path) -> dict[str, set[str]]:
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    nodes = {}
    for node, body in re.findall(r"(\S+)\s*\{(.*?)\}", text, re.S):
        glob = body.split("local:")[0].replace("global:", "")
        nodes[node] = {s.strip() for s in glob.split(";") if s.strip()}
    return nodes


major = macro(bike_h, "BIKE_VERSION_MAJOR")
version = ".".join(macro(bike_h, f"BIKE_VERSION_{p}") for p in ("MAJOR", "MINOR", "PATCH"))
if macro(bike_h, "BIKE_VERSION_STRING") != f'"{version}"':
    failures.append(f"BIKE_VERSION_STRING is not \"{version}\"")
want = {f"BIKE_{major}": declared(bike_h) | declared(batch_h),
        f"BIKE_OPS_{version}": declared(ops_h) | declared(accel_h)}

nodes = version_nodes(map_file)
if nodes != want:
    failures.append(f"{map_file.name} lists {nodes}, the headers declare {want}")

dynamic = subprocess.run(["readelf", "-d", "-W", str(so)], check=True, capture_output=True,
                         text=True).stdout
soname = re.search(r"\(SONAME\)\s+Library soname: \[(.*)\]", dynamic)
if soname is None or soname.group(1) != f"libbike.so.{major}":
    failures.append(f"soname is {soname and soname.group(1)}, expected libbike.so.{major}")

syms = subprocess.run(["readelf", "--dyn-syms", "-W", str(so)], check=True,
                      capture_output=True, text=True).stdout
exported: dict[str, set[str]] = {}
for line in syms.splitlines():
    f = line.split()
    # Num: Value Size Type Bind Vis Ndx Name
    if len(f) >= 8 and f[4] in ("GLOBAL", "WEAK") and f[6] != "UND":
        name, _, node = f[7].partition("@@")
        if f[3] == "OBJECT" and f[6] == "ABS" and name in want:
            continue  # the version nodes' own definitions
        exported.setdefault(node or "(no version)", set()).add(name)
for node in want:
    exported.setdefault(node, set())
if exported != want:
    extra = {n: s - want.get(n, set()) for n, s in exported.items() if s - want.get(n, set())}
    missing = {n: s - exported.get(n, set()) for n, s in want.items() if s - exported.get(n, set())}
    failures.append(f"{so.name} exports unexpected {extra}, lacks {missing}")

for f in failures:
    print("FAIL:", f)
count = sum(len(s) for s in want.values())
print(f"check_exports: {count} functions in {len(want)} version nodes, "
      f"{len(failures)} failures")
sys.exit(1 if failures else 0)
