"""Layer 3, hardware cost models: accelerator configurations, their time and their area.

A :class:`HwUnit` is one configuration of one accelerator core. It covers *targets*: whole
primitives (``keygen``) or operations inside a primitive (``keygen.inversion``), each with the
accelerator's time for that target, and costs LUT/FF/DSP/BRAM36 once however many targets it
serves (units are shared: a multiplier placed once serves the multiplications of KeyGen,
Encaps and Decaps). At most one configuration of each core is placed.

Sources:

* ``seed000``: the HLS modules of seed 000 Table I (one core per KEM primitive; by default the
  "Final HLS (Perf+Area)" step, which Table II uses).
* ``bikeco``: our own cores' results records in ``hw/results/*.json`` (``docs/hw-results-json.md``),
  validated here; cycles become milliseconds at the record's ``clock_mhz_assumed``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bikeco.data_files import read_table
from bikeco.devices import RESOURCES
from bikeco.errors import BikecoError
from bikeco.profiles import PRIMITIVES

HW_SOURCES: tuple[str, ...] = ("seed000", "bikeco", "all")
SEED000_STEPS: tuple[str, ...] = ("baseline_hls", "interm_hls_perf", "final_hls_perf_area")
DEFAULT_CLOCK_MHZ = 100.0
"""Clock assumed when a record gives none: the 100 MHz of seed 000's programmable logic."""

# Operation names of hw results records -> the targets they serve (each called once).
RECORD_OP_TARGETS: dict[str, tuple[str, ...]] = {
    "mul": ("keygen.multiplication", "encaps.multiplication", "decaps.multiplication"),
    "inv": ("keygen.inversion",),
    "decode": ("decaps.decoding",),
    "sha3_384": (
        "encaps.l_function",
        "encaps.k_function",
        "decaps.l_function",
        "decaps.k_function",
    ),
    "sample_keygen": ("keygen.prng",),
    "function_h": ("encaps.h_function", "decaps.h_function"),
    "keygen": ("keygen",),
    "encaps": ("encaps",),
    "decaps": ("decaps",),
}
# The operations BIKE's primitives are made of (primitive.operation), as the records serve them:
# KeyGen has no decoding, Encaps no inversion.
LEAF_TARGETS: tuple[str, ...] = tuple(
    sorted({t for ts in RECORD_OP_TARGETS.values() for t in ts if "." in t})
)
# Operations a record may give that are steps inside a target rather than a target themselves
# (mul_d, mul_t: the decoder's products, which serve the KEM cores built around it; mul_sym
# and sqr_k_half: gf2x_mul's symmetric mode and gf2x_sqr_k's half mode, which serve the
# inversion).
RECORD_OPS_INTERNAL: tuple[str, ...] = (
    "sqr_k",
    "mul_sparse",
    "upc",
    "shake256_block",
    "mul_d",
    "mul_t",
    "mul_sym",
    "sqr_k_half",
)


@dataclass
class HwUnit:
    """One accelerator configuration."""

    source: str
    core: str
    config: str
    resources: dict[str, float]
    clock_mhz: float
    cycles: dict[str, float]
    """Cycles per target (primitive or ``primitive.operation``)."""
    origin: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        """``source:core:config``, unique among the units of a plan."""
        return f"{self.source}:{self.core}:{self.config}"

    def time_ms(self, target: str) -> float:
        """Accelerator time of one target, in milliseconds."""
        return self.cycles[target] / (self.clock_mhz * 1e3)

    def targets(self) -> list[str]:
        """The targets this unit can run."""
        return list(self.cycles)


def seed000_units(
    steps: tuple[str, ...] = ("final_hls_perf_area",), level: int = 1
) -> list[HwUnit]:
    """The HLS modules of seed 000 Table I (BIKE level 1 only; none for other levels)."""
    for s in steps:
        if s not in SEED000_STEPS:
            raise BikecoError(f"unknown seed 000 design step '{s}' ({', '.join(SEED000_STEPS)})")
    if level != 1:
        return []
    units = []
    for r in read_table("hls_modules_000_table1.csv"):
        if r["design"] not in steps:
            continue
        prim = r["primitive"]
        units.append(
            HwUnit(
                source="seed000",
                core=f"hls_{prim}",
                config=r["design"],
                resources={k: float(r[k]) for k in RESOURCES},
                clock_mhz=float(r["clock_mhz"]),
                cycles={prim: float(r["latency_kcycles"]) * 1000.0},
                origin="seed 000 Table I",
            )
        )
    return units


def _num(value: object, where: str, allow_zero: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise BikecoError(f"{where}: expected a number, got {value!r}")
    if value < 0 or (value == 0 and not allow_zero):
        raise BikecoError(f"{where}: expected a {'' if allow_zero else 'positive '}number >= 0")
    return float(value)


def parse_record(data: object, origin: str) -> dict[str, Any]:
    """Validate one ``bikeco-hw/1`` record; return it unchanged or raise :class:`BikecoError`."""
    if not isinstance(data, dict):
        raise BikecoError(f"{origin}: expected a JSON object")
    if data.get("schema") != "bikeco-hw/1":
        raise BikecoError(f"{origin}: schema must be 'bikeco-hw/1', got {data.get('schema')!r}")
    for key in ("core", "preset"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise BikecoError(f"{origin}: '{key}' must be a non-empty string")
    if data.get("level") not in (1, 3, 5):
        raise BikecoError(f"{origin}: 'level' must be 1, 3 or 5, got {data.get('level')!r}")
    cycles = data.get("cycles")
    if not isinstance(cycles, dict) or not cycles:
        raise BikecoError(f"{origin}: 'cycles' must be a non-empty object")
    for op, cyc in cycles.items():
        _num(cyc, f"{origin}: cycles.{op}", allow_zero=False)
    res = data.get("resources")
    if not isinstance(res, dict):
        raise BikecoError(f"{origin}: 'resources' must be an object")
    for k in RESOURCES:
        if k not in res:
            raise BikecoError(f"{origin}: resources.{k} is missing")
        _num(res[k], f"{origin}: resources.{k}")
    clock = data.get("clock_mhz_assumed")
    if clock is not None:
        _num(clock, f"{origin}: clock_mhz_assumed", allow_zero=False)
    return data


def unit_from_record(rec: dict[str, Any], origin: str, clock_override: float | None) -> HwUnit:
    """Map a validated record to a unit covering the targets its operations serve."""
    clock = clock_override or float(rec.get("clock_mhz_assumed") or DEFAULT_CLOCK_MHZ)
    cycles: dict[str, float] = {}
    notes: list[str] = []
    for op, cyc in rec["cycles"].items():
        if op in RECORD_OP_TARGETS:
            for target in RECORD_OP_TARGETS[op]:
                cycles[target] = float(cyc)
        elif op in RECORD_OPS_INTERNAL:
            notes.append(f"'{op}' is a step inside a larger operation; not placed on its own")
        else:
            notes.append(f"unknown operation '{op}' ignored")
    verified = rec.get("verified")
    if not verified:
        notes.append("record reports no verification")
    return HwUnit(
        source="bikeco",
        core=str(rec["core"]),
        config=str(rec["preset"]),
        resources={k: float(rec["resources"][k]) for k in RESOURCES},
        clock_mhz=clock,
        cycles=cycles,
        origin=origin,
        notes=notes,
    )


def load_records(directory: Path) -> list[tuple[Path, dict[str, Any]]]:
    """Read and validate every ``*.json`` record in ``directory`` (sorted by file name)."""
    if not directory.is_dir():
        raise BikecoError(
            f"no hardware results folder at {directory} (the hardware cores write their records "
            "there with 'make -C hw results'; or choose --hw-source seed000)"
        )
    out = []
    for path in sorted(directory.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise BikecoError(f"{path}: cannot read a JSON record ({exc})") from None
        out.append((path, parse_record(data, str(path))))
    return out


def bikeco_units(
    directory: Path, level: int, clock_override: float | None = None, required: bool = True
) -> list[HwUnit]:
    """Units from our cores' records of the given level.

    With ``required``, a missing folder or one without records is an error; otherwise it gives
    no units.
    """
    try:
        records = load_records(directory)
    except BikecoError:
        if required or directory.exists():
            raise
        return []
    if not records and required:
        raise BikecoError(
            f"no hardware results records (*.json) in {directory} yet; "
            "use --hw-source seed000 until the cores have written some"
        )
    return [
        unit_from_record(rec, str(path), clock_override)
        for path, rec in records
        if rec["level"] == level
    ]


def coverage(units: list[HwUnit], targets: list[str]) -> dict[str, list[str]]:
    """For each target, the names of the units that can run it (empty: stays in software)."""
    out: dict[str, list[str]] = {t: [] for t in targets}
    for u in units:
        for t in u.targets():
            if t in out:
                out[t].append(u.name)
            prim = t.split(".")[0]
            if t in PRIMITIVES:
                for leaf in targets:
                    if leaf.startswith(prim + ".") and u.name not in out[leaf]:
                        out[leaf].append(u.name)
    return out
