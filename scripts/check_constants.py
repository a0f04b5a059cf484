#!/usr/bin/env python3
"""Recompute libbike's Keccak tables from the derivations in their comments and
compare them with the tables in the C sources (run by ctest). The level
constants are generated from spec/bike_levels.json (scripts/gen_levels.py)."""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
failures: list[str] = []
checks = 0


def c_array(path: Path, name: str) -> list[int]:
    text = path.read_text()
    body = re.search(name + r"\[\d*\]\s*=\s*\{(.*?)\};", text, re.S)
    if body is None:
        sys.exit(f"check_constants: table {name} not found in {path}")
    return [int(v.rstrip("ULul"), 0) for v in re.findall(r"0x[0-9A-Fa-f]+|\d+", body.group(1))]


def lfsr_rc(t: int) -> int:
    """rc(t) of FIPS 202 algorithm 5: LFSR x^8 + x^6 + x^5 + x^4 + 1."""
    r = 1
    for _ in range(t % 255):
        r <<= 1
        if r & 0x100:
            r ^= 0x171
    return r & 1


def check(label: str, got: object, want: object) -> None:
    global checks
    checks += 1
    if got != want:
        failures.append(f"{label}: source has {got}, derivation gives {want}")


keccak = ROOT / "lib/src/hash/keccak.h"
rc = [sum(lfsr_rc(j + 7 * i) << ((1 << j) - 1) for j in range(7)) for i in range(24)]
check("keccak_rc", c_array(keccak, "keccak_rc"), rc)

rho = [0] * 25
x, y = 1, 0
for t in range(24):
    rho[x + 5 * y] = (t + 1) * (t + 2) // 2 % 64
    x, y = y, (2 * x + 3 * y) % 5
check("keccak_rho", c_array(keccak, "keccak_rho"), rho)

for f in failures:
    print("check_constants:", f, file=sys.stderr)
print(f"{checks - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
