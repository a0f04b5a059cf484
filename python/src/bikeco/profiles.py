"""Layer 2, software profiles: time per primitive and per operation inside each primitive.

A profile is either published (seed 000 Table I, seed 001 Tables 1 and 2) or measured on this
machine by libbike's ``bike bench --json`` (see ``docs/bench-json.md``; :mod:`bikeco.bench`).

Every profile gives, for one security level, the milliseconds of each primitive (``keygen``,
``encaps``, ``decaps``) and a breakdown of each primitive into operations named as in seed 001
Table 2 (``prng``, ``inversion``, ``multiplication``, ``h_function``, ``l_function``,
``k_function``, ``decoding``) plus ``other``: whatever the named operations leave of the
primitive's time.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bikeco.data_files import read_table
from bikeco.errors import BikecoError
from bikeco.levels import LEVELS
from bikeco.userfiles import read_json

PRIMITIVES: tuple[str, ...] = ("keygen", "encaps", "decaps")

OP_CLASS: dict[str, str] = {
    "prng": "hashing/sampling",
    "h_function": "hashing/sampling",
    "l_function": "hashing/sampling",
    "k_function": "hashing/sampling",
    "multiplication": "multiplication",
    "inversion": "inversion",
    "decoding": "decoding",
    "other": "other",
}
"""Each breakdown operation and the class of operation the issue groups it in."""

# name -> (platform column prefix of seed 001 tables, implementation, description)
PUBLISHED: dict[str, tuple[str, str, str, str]] = {
    "a9-ref": (
        "arm32_cortex_a9_667mhz",
        "ref_c99",
        "arm32_ref",
        "Cortex-A9 667 MHz, reference C99 (seed 001 Tables 1-2)",
    ),
    "a53-ct": (
        "arm64_cortex_a53_1ghz",
        "ct_c99",
        "arm64_ct",
        "Cortex-A53 1 GHz, constant-time C99 (seed 001 Tables 1-2)",
    ),
    "i5-ct": (
        "x86_64_core_i5_10310u",
        "ct_c99",
        "x86_ct",
        "Core i5-10310U, constant-time C99 (seed 001 Tables 1-2)",
    ),
    "i5-avx2": (
        "x86_64_core_i5_10310u",
        "ct_avx2",
        "x86_avx2",
        "Core i5-10310U, constant-time AVX2 (seed 001 Tables 1-2)",
    ),
}
SEED000_PROFILE = "seed000-a9"
ROUNDED_ZERO_SHARE = 0.25
"""Percent taken for an operation seed 001 Table 2 shows as 0 %: its shares are whole percent,
so a 0 is a share in [0, 0.5) %; the middle of that interval keeps hashing and sampling from
costing nothing (the named operations' time then comes out of ``other``)."""


@dataclass
class SoftwareProfile:
    """Software times of one implementation at one security level, in milliseconds."""

    name: str
    description: str
    level: int
    primitives: dict[str, float]
    breakdown: dict[str, dict[str, float]]
    per_call: dict[str, float] = field(default_factory=dict)
    """Median ms of single calls of library operations (measured profiles only)."""

    def leaves(self, primitives: tuple[str, ...] = PRIMITIVES) -> dict[str, float]:
        """Operation-grain items ``"<primitive>.<operation>"`` and their software ms."""
        out: dict[str, float] = {}
        for prim in primitives:
            for op, ms in self.breakdown.get(prim, {}).items():
                out[f"{prim}.{op}"] = ms
        return out

    def total_ms(self, primitives: tuple[str, ...] = PRIMITIVES) -> float:
        """Sum of the given primitives' times."""
        return sum(self.primitives[p] for p in primitives)


def complete_breakdown(
    primitive_ms: Mapping[str, float], ops_ms: Mapping[str, Mapping[str, float]]
) -> dict[str, dict[str, float]]:
    """Add the ``other`` residual to each primitive's breakdown.

    When the named operations add up to more than the primitive (rounded percentages can do
    that), they are scaled down to fit and ``other`` is 0.
    """
    out: dict[str, dict[str, float]] = {}
    for prim, total in primitive_ms.items():
        ops = {k: max(0.0, float(v)) for k, v in ops_ms.get(prim, {}).items()}
        named = sum(ops.values())
        if named > total > 0:
            scale = total / named
            ops = {k: v * scale for k, v in ops.items()}
            ops["other"] = 0.0
        else:
            ops["other"] = max(0.0, total - named)
        out[prim] = ops
    return out


def published_profile(name: str, level: int) -> SoftwareProfile:
    """A published profile by name (see :data:`PUBLISHED` and ``seed000-a9``)."""
    if name == SEED000_PROFILE:
        return seed000_profile(level)
    if name not in PUBLISHED:
        known = ", ".join([*PUBLISHED, SEED000_PROFILE])
        raise BikecoError(f"unknown software profile '{name}' (published: {known}, or measured)")
    platform, impl, column, desc = PUBLISHED[name]
    times = [
        r
        for r in read_table("sw_times_001_table1.csv")
        if r["platform"] == platform and r["implementation"] == impl and int(r["level"]) == level
    ]
    if not times:
        raise BikecoError(f"profile '{name}' has no published figures for level {level}")
    prim_ms = {p: float(times[0][f"{p}_ms"]) for p in PRIMITIVES}
    total = float(times[0]["total_ms"])
    col = f"{column}_sl{level}"
    ops: dict[str, dict[str, float]] = {p: {} for p in PRIMITIVES}
    for r in read_table("sw_breakdown_001_table2.csv"):
        share = float(r[col]) or ROUNDED_ZERO_SHARE
        ops[r["primitive"]][r["operation"]] = share / 100.0 * total
    return SoftwareProfile(name, desc, level, prim_ms, complete_breakdown(prim_ms, ops))


def seed000_profile(level: int = 1) -> SoftwareProfile:
    """Seed 000 Table I "Baseline SW" (Cortex-A9, reference C), level 1 only.

    Seed 000 gives no breakdown; the operation shares of seed 001 Table 2 (same CPU, same
    reference code) are applied to these primitive times.
    """
    if level != 1:
        raise BikecoError("the seed 000 software profile exists for level 1 only")
    rows = [r for r in read_table("hls_modules_000_table1.csv") if r["design"] == "baseline_sw"]
    prim_ms = {r["primitive"]: float(r["latency_ms"]) for r in rows}
    ref = published_profile("a9-ref", 1)
    ops = {
        p: {
            op: ms / ref.primitives[p] * prim_ms[p]
            for op, ms in ref.breakdown[p].items()
            if op != "other"
        }
        for p in PRIMITIVES
    }
    return SoftwareProfile(
        SEED000_PROFILE,
        "Cortex-A9 667 MHz, reference C (seed 000 Table I; shares of seed 001 Table 2)",
        1,
        prim_ms,
        complete_breakdown(prim_ms, ops),
    )


# ---------------------------------------------------------------- measured (bike bench --json)

_TIMING_FIELDS = ("median_ns",)


def _positive(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BikecoError(f"{where}: expected a number, got {value!r}")
    if not math.isfinite(value) or value < 0:
        raise BikecoError(f"{where}: expected a non-negative number, got {value!r}")
    return float(value)


def _obj(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BikecoError(f"{where}: expected a JSON object")
    return value


def parse_bench(data: object, origin: str = "bench JSON") -> list[SoftwareProfile]:
    """Validate a ``bikeco-bench/1`` record and return one profile per (level, back end)."""
    top = _obj(data, origin)
    if top.get("schema") != "bikeco-bench/1":
        raise BikecoError(f"{origin}: schema must be 'bikeco-bench/1', got {top.get('schema')!r}")
    results = top.get("results")
    if not isinstance(results, list) or not results:
        raise BikecoError(f"{origin}: 'results' must be a non-empty list")
    cpu = str(top.get("cpu") or "this machine")
    out: list[SoftwareProfile] = []
    for i, res in enumerate(results):
        where = f"{origin}: results[{i}]"
        entry = _obj(res, where)
        level = entry.get("level")
        if not isinstance(level, int) or level not in LEVELS:
            raise BikecoError(f"{where}: 'level' must be 1, 3 or 5, got {level!r}")
        backend = str(entry.get("backend") or "").strip()
        if not backend:
            raise BikecoError(f"{where}: missing 'backend'")
        prims = _obj(entry.get("primitives"), f"{where}.primitives")
        prim_ms: dict[str, float] = {}
        for p in PRIMITIVES:
            rec = _obj(prims.get(p), f"{where}.primitives.{p}")
            prim_ms[p] = _positive(rec.get("median_ns"), f"{where}.primitives.{p}.median_ns") / 1e6
        per_call: dict[str, float] = {}
        ops = entry.get("operations", {})
        for name, rec in _obj(ops, f"{where}.operations").items():
            rec_obj = _obj(rec, f"{where}.operations.{name}")
            if "median_ns" in rec_obj:
                per_call[name] = (
                    _positive(rec_obj["median_ns"], f"{where}.operations.{name}.median_ns") / 1e6
                )
        bd = _obj(entry.get("breakdown"), f"{where}.breakdown")
        ops_ms: dict[str, dict[str, float]] = {}
        for p in PRIMITIVES:
            part = _obj(bd.get(p, {}), f"{where}.breakdown.{p}")
            ops_ms[p] = {
                op: _positive(ns, f"{where}.breakdown.{p}.{op}") / 1e6 for op, ns in part.items()
            }
            for op in ops_ms[p]:
                if op not in OP_CLASS:
                    raise BikecoError(f"{where}.breakdown.{p}: unknown operation '{op}'")
        out.append(
            SoftwareProfile(
                name=f"measured-{backend}",
                description=f"measured here: libbike {backend} back end on {cpu}",
                level=level,
                primitives=prim_ms,
                breakdown=complete_breakdown(prim_ms, ops_ms),
                per_call=per_call,
            )
        )
    return out


def load_bench_file(path: Path) -> list[SoftwareProfile]:
    """Read a saved ``bike bench --json`` output."""
    return parse_bench(read_json(path, "profile file"), str(path))


def select_measured(profiles: list[SoftwareProfile], level: int) -> SoftwareProfile:
    """The measured profile of a level, preferring the portable back end."""
    at_level = [p for p in profiles if p.level == level]
    if not at_level:
        raise BikecoError(f"the measured profile has no results for level {level}")
    for p in at_level:
        if p.name == "measured-portable":
            return p
    return at_level[0]
