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
  validated by :mod:`bikeco.hwrecord`; cycles become milliseconds at the record's
  ``clock_mhz_assumed``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bikeco.data_files import read_table
from bikeco.devices import RESOURCES
from bikeco.errors import BikecoError
from bikeco.hwrecord import HwRecord, load_record
from bikeco.profiles import PRIMITIVES

HW_SOURCES: tuple[str, ...] = ("seed000", "bikeco", "all")
SEED000_STEPS: tuple[str, ...] = ("baseline_hls", "interm_hls_perf", "final_hls_perf_area")

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


def unit_from_record(rec: dict[str, Any], origin: str, clock_override: float | None) -> HwUnit:
    """Map a record (a JSON object of :class:`~bikeco.hwrecord.HwRecord`) to a unit covering
    the targets its operations serve."""
    r = HwRecord.from_json(rec, origin)
    cycles: dict[str, float] = {}
    notes: list[str] = []
    for op, cyc in r.cycles.items():
        if op in RECORD_OP_TARGETS:
            for target in RECORD_OP_TARGETS[op]:
                cycles[target] = float(cyc)
        elif op in RECORD_OPS_INTERNAL:
            notes.append(f"'{op}' is a step inside a larger operation; not placed on its own")
        else:
            notes.append(f"unknown operation '{op}' ignored")
    if not r.verified.passed:
        notes.append("record reports no verification")
    return HwUnit(
        source="bikeco",
        core=r.core,
        config=r.preset,
        resources={k: float(getattr(r.resources, k)) for k in RESOURCES},
        clock_mhz=clock_override or float(r.clock_mhz_assumed),
        cycles=cycles,
        origin=origin,
        notes=notes,
    )


def load_records(directory: Path) -> list[tuple[Path, dict[str, Any]]]:
    """Read every ``*.json`` record in ``directory`` (sorted by file name), each validated by
    :class:`~bikeco.hwrecord.HwRecord`; the records as JSON objects."""
    if not directory.is_dir():
        raise BikecoError(
            f"no hardware results folder at {directory} (the hardware cores write their records "
            "there with 'make -C hw results'; or choose --hw-source seed000)"
        )
    return [(path, load_record(path).to_json()) for path in sorted(directory.glob("*.json"))]


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
