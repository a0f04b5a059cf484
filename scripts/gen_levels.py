#!/usr/bin/env python3
"""Write every form of BIKE's level table from its one source, spec/bike_levels.json.

    scripts/gen_levels.py            write the generated files
    scripts/gen_levels.py --check    regenerate into a temporary folder and fail (exit 1) on
                                     any difference, or on a hand-written copy that disagrees

The generated files (committed, each headed "generated ... do not edit"):
  lib/src/common/params.c                    libbike's bike_params table
  hw/ip/bike_levels/rtl/bike_levels_pkg.sv   the hardware's constants, selected by r
  python/src/bikeco/levels.py                a frozen dataclass per level

The hand-written copies checked against the table: the size macros of lib/include/bike/bike.h
and lib/include/bike/ops.h, and the level parameter defaults (R, D, T) of the RTL modules.
Standard library only.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
import tempfile
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = "spec/bike_levels.json"
C_OUT = "lib/src/common/params.c"
SV_OUT = "hw/ip/bike_levels/rtl/bike_levels_pkg.sv"
PY_OUT = "python/src/bikeco/levels.py"
LEVEL_KEYS = (
    "level",
    "r",
    "d",
    "t",
    "th_a",
    "th_b",
    "th_min",
    "bg_threshold",
    "public_key_bytes",
    "ciphertext_bytes",
    "secret_key_bytes",
)
COMMON_KEYS = ("nb_iter", "tau", "seed_bytes", "shared_secret_bytes", "th_scale")


class TableError(Exception):
    """The table is malformed or contradicts itself."""


@dataclass(frozen=True)
class Level:
    level: int
    r: int
    d: int
    t: int
    th_a: int  # times th_scale
    th_b: int  # times th_scale
    th_a_text: str  # the specification's decimal
    th_b_text: str
    th_min: int
    bg_threshold: int
    r_bytes: int
    r_qwords: int
    public_key_bytes: int
    ciphertext_bytes: int
    secret_key_bytes: int


@dataclass(frozen=True)
class Table:
    nb_iter: int
    tau: int
    seed_bytes: int
    shared_secret_bytes: int
    th_scale: int
    levels: tuple[Level, ...]
    doc: dict[str, str]


def _int(where: str, obj: dict[str, object], key: str) -> int:
    v = obj.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
        raise TableError(f"{where}: '{key}' must be a positive integer, not {v!r}")
    return v


def _scaled(where: str, obj: dict[str, object], key: str, scale: int) -> tuple[int, str]:
    text = obj.get(key)
    if not isinstance(text, str) or not re.fullmatch(r"\d+\.\d+", text):
        raise TableError(f"{where}: '{key}' must be a decimal written as a string, not {text!r}")
    v = Fraction(text) * scale
    if v.denominator != 1:
        raise TableError(f"{where}: '{key}' = {text} is not exact in 1/{scale}")
    return int(v), text


def load(path: Path) -> Table:
    """The table of `path`, checked: every key present, and the stated sizes and step
    threshold equal to their derivation from r and d."""
    try:
        raw = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise TableError(f"{path}: {e}") from e
    common = raw.get("common", {})
    doc = raw.get("fields", {})
    for key in (*LEVEL_KEYS, *COMMON_KEYS):
        if not isinstance(doc.get(key), str):
            raise TableError(f"{path}: fields: no description of '{key}'")
    c = {k: _int(f"{path}: common", common, k) for k in COMMON_KEYS}
    if set(common) != set(COMMON_KEYS):
        raise TableError(f"{path}: common: keys {sorted(common)}, expected {sorted(COMMON_KEYS)}")
    levels = []
    for i, lv in enumerate(raw.get("levels", [])):
        where = f"{path}: levels[{i}]"
        if set(lv) != set(LEVEL_KEYS):
            raise TableError(f"{where}: keys {sorted(lv)}, expected {sorted(LEVEL_KEYS)}")
        r, d = _int(where, lv, "r"), _int(where, lv, "d")
        th_a, th_a_text = _scaled(where, lv, "th_a", c["th_scale"])
        th_b, th_b_text = _scaled(where, lv, "th_b", c["th_scale"])
        r_bytes = (r + 7) // 8
        level = Level(
            level=_int(where, lv, "level"),
            r=r,
            d=d,
            t=_int(where, lv, "t"),
            th_a=th_a,
            th_b=th_b,
            th_a_text=th_a_text,
            th_b_text=th_b_text,
            th_min=_int(where, lv, "th_min"),
            bg_threshold=_int(where, lv, "bg_threshold"),
            r_bytes=r_bytes,
            r_qwords=(r + 63) // 64,
            public_key_bytes=_int(where, lv, "public_key_bytes"),
            ciphertext_bytes=_int(where, lv, "ciphertext_bytes"),
            secret_key_bytes=_int(where, lv, "secret_key_bytes"),
        )
        derived = {
            "bg_threshold": (d + 1) // 2 + 1,
            "public_key_bytes": r_bytes,
            "ciphertext_bytes": r_bytes + c["seed_bytes"],
            "secret_key_bytes": 8 * d + 3 * r_bytes + c["seed_bytes"],
        }
        for key, want in derived.items():
            if getattr(level, key) != want:
                raise TableError(
                    f"{where}: '{key}' = {getattr(level, key)}, derivation gives {want}"
                )
        levels.append(level)
    if [lv.level for lv in levels] != [1, 3, 5]:
        raise TableError(f"{path}: levels {[lv.level for lv in levels]}, expected [1, 3, 5]")
    return Table(levels=tuple(levels), doc=dict(doc), **c)


# ---- the generated forms ---------------------------------------------------------------------

HEAD = f"Generated by scripts/gen_levels.py from {TABLE}: do not edit."


def render_c(tb: Table) -> str:
    out = [
        f"/* {HEAD}",
        " *",
        " * libbike's parameters of each BIKE level (bike/ops.h describes the fields).",
        " * The threshold constants th_a and th_b are the specification's times",
        f" * BIKE_TH_SCALE = {tb.th_scale}:",
        *(f" *   L{lv.level} a = {lv.th_a_text}, b = {lv.th_b_text}" for lv in tb.levels),
        " */",
        '#include "bike/ops.h"',
        "",
        f"static const bike_params levels[{len(tb.levels)}] = {{",
    ]
    for lv in tb.levels:
        fields = [
            ("level", f"{lv.level}"),
            ("r", f"{lv.r}u"),
            ("d", f"{lv.d}u"),
            ("t", f"{lv.t}u"),
            ("r_bytes", f"{lv.r_bytes}u"),
            ("r_qwords", f"{lv.r_qwords}u"),
            ("pk_bytes", f"{lv.public_key_bytes}u"),
            ("ct_bytes", f"{lv.ciphertext_bytes}u"),
            ("sk_bytes", f"{lv.secret_key_bytes}u"),
            ("th_a", f"{lv.th_a}u"),
            ("th_b", f"{lv.th_b}u"),
            ("th_min", f"{lv.th_min}u"),
            ("bg_threshold", f"{lv.bg_threshold}u"),
            ("nb_iter", f"{tb.nb_iter}u"),
            ("tau", f"{tb.tau}u"),
        ]
        out.append("    {")
        out += [f"        .{k} = {v}," for k, v in fields]
        out.append("    },")
    out += ["};", "", "const bike_params *bike_params_get(int level) {", "  switch (level) {"]
    for i, lv in enumerate(tb.levels):
        out += [f"  case {lv.level}:", f"    return &levels[{i}];"]
    out += ["  default:", "    return 0;", "  }", "}"]
    return "\n".join(out) + "\n"


def _sv_case(name: str, ret: str, rows: list[tuple[int, str]], default: str, doc: str) -> list[str]:
    out = [f"  // {doc}", f"  function automatic {ret} {name}(int unsigned r);", "    case (r)"]
    out += [f"      {r}: return {v};" for r, v in rows]
    out += [f"      default: return {default};", "    endcase", "  endfunction", ""]
    return out


def render_sv(tb: Table) -> str:
    known = " || ".join(f"(r == {lv.r})" for lv in tb.levels)
    out = [
        f"// {HEAD}",
        "//",
        "// BIKE's level constants for the hardware cores. A core's level is its",
        "// parameter R (the block length r); these functions give the other constants",
        "// of the level with that r.",
        "package bike_levels_pkg;",
        "",
        f"  // {tb.doc['nb_iter']}",
        f"  localparam int unsigned BgfNbIter = {tb.nb_iter};",
        f"  // {tb.doc['tau']}",
        f"  localparam int unsigned BgfTau = {tb.tau};",
        "  // the scale of th_a and th_b: the threshold is",
        "  // max(floor((th_a + th_b S) / ThScale), th_min)",
        f"  localparam longint unsigned ThScale = 64'd{tb.th_scale};",
        "",
        "  // 1 if r is a BIKE level's",
        "  function automatic bit known_level(int unsigned r);",
        f"    return {known};",
        "  endfunction",
        "",
    ]
    out += _sv_case(
        "level_of",
        "int unsigned",
        [(lv.r, str(lv.level)) for lv in tb.levels],
        "0",
        "the level (1, 3 or 5) of r, 0 if r is no level's",
    )
    out += _sv_case(
        "th_a",
        "longint unsigned",
        [(lv.r, f"64'd{lv.th_a}") for lv in tb.levels],
        "64'd0",
        "BGF threshold constant a times ThScale",
    )
    out += _sv_case(
        "th_b",
        "longint unsigned",
        [(lv.r, f"64'd{lv.th_b}") for lv in tb.levels],
        "64'd0",
        "BGF threshold constant b times ThScale",
    )
    out += _sv_case(
        "th_min",
        "int unsigned",
        [(lv.r, str(lv.th_min)) for lv in tb.levels],
        "0",
        tb.doc["th_min"],
    )
    out += ["endpackage"]
    return "\n".join(out) + "\n"


PY_FIELDS = (
    "level",
    "r",
    "d",
    "t",
    "th_a",
    "th_b",
    "th_min",
    "bg_threshold",
    "r_bytes",
    "public_key_bytes",
    "ciphertext_bytes",
    "secret_key_bytes",
)


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] + "."


def render_py(tb: Table) -> str:
    doc = dict(tb.doc)
    doc["th_a"] = "BGF threshold constant a times TH_SCALE"
    doc["th_b"] = "BGF threshold constant b times TH_SCALE"
    doc["r_bytes"] = "bytes of a polynomial: ceil(r / 8)"
    out = [
        '"""BIKE\'s per-level constants.',
        "",
        HEAD,
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from collections.abc import Mapping",
        "from dataclasses import dataclass",
        "from types import MappingProxyType",
        "from typing import Final",
        "",
    ]
    for key in COMMON_KEYS:
        out += [f"{key.upper()}: Final = {getattr(tb, key)}", f'"""{_sentence(doc[key])}"""']
    out += [
        "",
        "",
        "@dataclass(frozen=True)",
        "class Level:",
        '    """The constants of one BIKE level."""',
        "",
    ]
    for key in PY_FIELDS:
        out += [f"    {key}: int", f'    """{_sentence(doc[key])}"""']
    out += [
        "",
        "",
        "LEVELS: Final[Mapping[int, Level]] = MappingProxyType(",
        "    {",
    ]
    for lv in tb.levels:
        out.append(f"        {lv.level}: Level(")
        out += [f"            {key}={getattr(lv, key)}," for key in PY_FIELDS]
        out.append("        ),")
    out += ["    }", ")", '"""Every level, by its number (1, 3, 5)."""']
    return "\n".join(out) + "\n"


GENERATED = {C_OUT: render_c, SV_OUT: render_sv, PY_OUT: render_py}


# ---- the hand-written copies -------------------------------------------------------------------


def _macro(root: Path, rel: str, name: str) -> int | None:
    m = re.search(rf"^#define {name} (\d+)u?\b", (root / rel).read_text(), re.MULTILINE)
    return int(m.group(1)) if m else None


def check_hand_written(root: Path, tb: Table) -> list[str]:
    """Differences between the table and the copies kept by hand."""
    want: dict[tuple[str, str], int] = {
        ("lib/include/bike/bike.h", "BIKE_SHARED_SECRET_BYTES"): tb.shared_secret_bytes,
        ("lib/include/bike/ops.h", "BIKE_MAX_R"): max(lv.r for lv in tb.levels),
        ("lib/include/bike/ops.h", "BIKE_MAX_D"): max(lv.d for lv in tb.levels),
        ("lib/include/bike/ops.h", "BIKE_MAX_T"): max(lv.t for lv in tb.levels),
        ("lib/include/bike/ops.h", "BIKE_M_BYTES"): tb.seed_bytes,
        ("lib/include/bike/ops.h", "BIKE_TH_SCALE"): tb.th_scale,
    }
    for lv in tb.levels:
        for what, v in (
            ("PUBLIC_KEY", lv.public_key_bytes),
            ("SECRET_KEY", lv.secret_key_bytes),
            ("CIPHERTEXT", lv.ciphertext_bytes),
        ):
            want["lib/include/bike/bike.h", f"BIKE_L{lv.level}_{what}_BYTES"] = v
    bad = []
    for (rel, name), v in want.items():
        got = _macro(root, rel, name)
        if got != v:
            bad.append(f"{rel}: {name} is {got}, {TABLE} gives {v}")
    # RTL defaults: a module's R is some level's r, and its D and T that level's.
    by_r = {lv.r: lv for lv in tb.levels}
    for sv in sorted((root / "hw" / "ip").glob("*/rtl/*.sv")):
        rel = sv.relative_to(root).as_posix()
        found = dict(
            re.findall(r"parameter\s+int\s+unsigned\s+([RDT])\s*=\s*(\d+)", sv.read_text())
        )
        if "R" not in found:
            continue
        of_r = by_r.get(int(found["R"]))
        if of_r is None:
            bad.append(f"{rel}: default R = {found['R']} is no level's r")
            continue
        for key in ("D", "T"):
            if key in found and int(found[key]) != getattr(of_r, key.lower()):
                bad.append(
                    f"{rel}: default {key} = {found[key]}, level {of_r.level} has "
                    f"{getattr(of_r, key.lower())}"
                )
    return bad


def write_all(tb: Table, root: Path) -> list[str]:
    """Write the generated files under `root`; the paths whose content changed."""
    changed = []
    for rel, render in GENERATED.items():
        path = root / rel
        text = render(tb)
        if not path.exists() or path.read_text() != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            changed.append(rel)
    return changed


def check(root: Path) -> list[str]:
    """Every difference between the committed files under `root` and the table."""
    tb = load(root / TABLE)
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        write_all(tb, Path(tmp))
        for rel in GENERATED:
            fresh = (Path(tmp) / rel).read_text().splitlines(keepends=True)
            path = root / rel
            have = path.read_text().splitlines(keepends=True) if path.exists() else []
            if fresh != have:
                diff = difflib.unified_diff(have, fresh, f"{rel} (committed)", f"{rel} (generated)")
                bad.append(f"{rel} differs from {TABLE}:\n" + "".join(diff))
    return bad + check_hand_written(root, tb)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="fail on any difference, write nothing")
    ap.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this one)")
    a = ap.parse_args()
    try:
        if a.check:
            bad = check(a.root)
            for msg in bad:
                print(f"gen_levels: {msg}", file=sys.stderr)
            if bad:
                sys.exit(f"gen_levels: {len(bad)} difference(s); run scripts/gen_levels.py")
            print(f"gen_levels: {len(GENERATED)} generated files and the hand-written copies agree")
        else:
            tb = load(a.root / TABLE)
            for rel in write_all(tb, a.root):
                print(f"gen_levels: wrote {rel}")
            bad = check_hand_written(a.root, tb)
            for msg in bad:
                print(f"gen_levels: fix by hand: {msg}", file=sys.stderr)
            if bad:
                sys.exit(1)
    except TableError as e:
        sys.exit(f"gen_levels: {e}")


if __name__ == "__main__":
    main()
