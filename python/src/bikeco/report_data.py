"""The report as data: every plan, Pareto front and table of ``bikeco report``, computed once.

:func:`build_report_data` is the only place the report runs the explorer. It computes each
shared input once (the seed 000 profile and units, the transfer models, our cores' units) and
returns a :class:`ReportData`, which the renderers (:mod:`bikeco.report_doc` for Markdown,
HTML and CSV, :mod:`bikeco.report_plots` for the PNGs) turn into files without computing
anything more. :func:`data_json` is its canonical JSON form, which the golden test compares.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bikeco import __version__
from bikeco import design as ds
from bikeco.data_files import read_table
from bikeco.design_cli import DEFAULT_CLOCK_MHZ, GOALS, gap_text, routing_margin_for
from bikeco.designfile import Design, DesignError, load_design
from bikeco.devices import RESOURCES, Device, DeviceCatalog
from bikeco.errors import BikecoError
from bikeco.explore import ParetoPoint, Plan, Problem, explore, front_below
from bikeco.hwarea import FitQuality, default_model, level_note
from bikeco.hwmodels import LEAF_TARGETS, HwUnit, coverage, seed000_units, unit_from_record
from bikeco.hwrecord import HwRecord, RecordError
from bikeco.interconnect import DESIGN_INTERCONNECT, TransferModel, calibrate
from bikeco.mlkem import device_reports
from bikeco.profiles import OP_CLASS, PRIMITIVES, PUBLISHED, SoftwareProfile, seed000_profile
from bikeco.report_mlkem import MlkemSection, mlkem_section
from bikeco.report_seed004 import Seed004Section, load_cosim, seed004_section
from bikeco.verifyrecord import load_verify

LEVEL = 1
"""The security level the report plans for (seed 000's)."""
SEED000_DEVICES: tuple[str, ...] = ("xc7z010", "xc7z015", "xc7z020")
ROLES: tuple[str, ...] = ("client", "server")
FRONT_SOURCES: tuple[str, ...] = ("seed000", "bikeco+seed000")
"""The hardware sources whose Pareto fronts the report traces."""
DIGITS = 10
"""Significant digits of the floats in :func:`data_json` (last-bit noise of the solver and of
the least-squares fit stays out of the golden file)."""


@dataclass(frozen=True)
class ReportInputs:
    """What the report reads: devices, this machine's measured profiles, our cores' records."""

    catalog: DeviceCatalog
    measured: tuple[SoftwareProfile, ...]
    measured_how: str
    """Where the measured profiles come from, or why there are none (a sentence)."""
    records: tuple[tuple[str, dict[str, Any]], ...]
    """(file name, validated record) of each hardware results record."""
    records_error: str | None = None
    """Why the records could not be used (then ``records`` is empty)."""
    hw_dir: Path | None = None
    """The hw/ folder whose synthesis reports the designs' area model is fitted on and whose
    ``results/designs/<name>/verify.json`` records give the measured columns; None: no
    designs."""


@dataclass(frozen=True)
class Seed000Design:
    """One design of seed 000 Table II: the published row beside the explorer's plan."""

    design: str
    published: Mapping[str, str]
    """The row of ``codesign_000_table2.csv``, as published."""
    plan: Plan
    matches: bool
    """Same split, resources and times (to the published 0.01 ms)."""


@dataclass(frozen=True)
class DeviceResult:
    """One device at level 1, whole KEM, bare-metal transfers: a plan per hardware source and
    a Pareto front per source of :data:`FRONT_SOURCES`."""

    device: Device
    plans: Mapping[str, Plan]
    fronts: Mapping[str, list[ParetoPoint]]


@dataclass(frozen=True)
class RolePlan:
    """A client or server plan on a Zynq-7000 part with seed 000 modules."""

    device: Device
    role: str
    plan: Plan


@dataclass(frozen=True)
class TimeRow:
    """Seed 001 Table 1 row: a primitive's (or ``total``'s) ms, published and measured."""

    key: str
    published: tuple[str, ...]
    measured: tuple[float, ...]


@dataclass(frozen=True)
class ShareRow:
    """Seed 001 Table 2 row: an operation's share of the KEM's time [%], published (None: not
    in the paper) and measured (None: not in the breakdown)."""

    primitive: str
    operation: str
    published: tuple[str | None, ...]
    measured: tuple[float | None, ...]


@dataclass(frozen=True)
class SoftwareComparison:
    """Seed 001 Tables 1 and 2 with this machine's measured profiles beside them."""

    how: str
    published: tuple[tuple[str, int], ...]
    """(profile name, level) of each published column."""
    measured: tuple[SoftwareProfile, ...]
    """The measured columns, by (name, level)."""
    times: tuple[TimeRow, ...]
    shares: tuple[ShareRow, ...]


@dataclass(frozen=True)
class RecordRow:
    """One hardware results record and the unit the explorer makes of it."""

    file: str
    core: str
    preset: str
    level: int
    cycles: Mapping[str, float]
    verified: bool
    unit: HwUnit


@dataclass(frozen=True)
class HardwareRecords:
    """Our cores' records, the level-1 units planned with, and which classes they cover."""

    error: str | None
    records: tuple[RecordRow, ...]
    units: tuple[HwUnit, ...]
    """Level-1 units (the report's level)."""
    coverage: Mapping[str, list[str]]
    """Operation class -> names of the level-1 units that run some of it."""


@dataclass(frozen=True)
class BusTarget:
    """One target of a verified design through the bus, per call (the record's
    ``cosim.targets[]``)."""

    target: str
    run_pl_cycles: int
    """What the C driver saw: CYCLES, DMA set-up, register accesses, the interrupt."""
    predicted_pl_cycles: int
    """The core's predicted cycles plus the modelled transfer."""


@dataclass(frozen=True)
class Measured:
    """What ``bikeco verify`` measured of a design (its record's whole-design figures)."""

    cycles: Mapping[str, int]
    """Measured hardware cycles per primitive."""
    latency_ms: float
    lut: float
    fits: bool
    bit_exact: bool
    bus: tuple[BusTarget, ...]
    """The KEM through the bus (bike-cosim), per target."""
    bus_checked: str
    """What the co-simulation compared, e.g. '10 KAT + 2 random KEMs, 2 tampered ct'."""


@dataclass(frozen=True)
class DesignRow:
    """The design of one part at one level, and its verification if there is one."""

    label: str
    design: Design
    measured: Measured | None
    note: str
    """Why there are no measured figures, or what the record says."""


@dataclass(frozen=True)
class Designs:
    """``bikeco design`` for every part at levels 1, 3 and 5, with the model's quality."""

    error: str | None
    rows: tuple[DesignRow, ...]
    fit: tuple[FitQuality, ...]
    goal: str
    """What the Zynq-7010 goal (288,000 cycles at L1) takes."""
    levels: tuple[str, ...] = ()
    """How good the areas are at each level (:func:`bikeco.hwarea.level_note`)."""


@dataclass(frozen=True)
class ReportData:
    """Everything the report shows."""

    version: str
    profile: SoftwareProfile
    """Software profile of every plan (seed 000's Cortex-A9)."""
    transfer: TransferModel
    """Interconnect of the device and role plans and fronts (bare metal)."""
    interconnects: tuple[TransferModel, ...]
    """The fitted transfer models (bare metal, SDSoC)."""
    seed000: tuple[Seed000Design, ...]
    devices: tuple[DeviceResult, ...]
    roles: tuple[RolePlan, ...]
    software: SoftwareComparison
    hardware: HardwareRecords
    seed004: Seed004Section
    """Seed 004's NTT and co-design tables with our NTT records and ML-KEM co-simulation
    (:mod:`bikeco.report_seed004`)."""
    designs: Designs
    mlkem: MlkemSection
    """ML-KEM's placement per Zynq part and parameter set (:mod:`bikeco.report_mlkem`)."""


def no_progress(_: str) -> None:
    """A progress callback that says nothing."""


def build_report_data(
    inputs: ReportInputs, step: Callable[[str], None] = no_progress
) -> ReportData:
    """Compute the report from its inputs; ``step`` hears the name of each stage."""
    profile = seed000_profile(LEVEL)
    s000 = tuple(seed000_units())
    baremetal = calibrate("baremetal")
    hardware = _hardware(inputs)
    ours = hardware.units

    step("reproducing seed 000 Table II")
    seed000 = _seed000(inputs.catalog, profile, s000, calibrate("none"))

    step("planning every Zynq-7000 and Artix-7 device")
    sources: dict[str, tuple[str, tuple[HwUnit, ...]]] = {"seed000": ("primitive", s000)}
    if ours:
        sources["bikeco"] = ("operation", ours)
        sources["bikeco+seed000"] = ("operation", ours + s000)
    problems = {
        (dev.name, src): Problem(
            dev, LEVEL, "kem", profile, units, baremetal, grain=grain, hw_source=src
        )
        for dev in inputs.catalog.all()
        for src, (grain, units) in sources.items()
    }
    plans = {key: explore(pb, require_fit=False) for key, pb in problems.items()}
    roles = []
    for dev in map(inputs.catalog.get, SEED000_DEVICES):
        for role in ROLES:
            pb = Problem(dev, LEVEL, role, profile, s000, baremetal, hw_source="seed000")
            roles.append(RolePlan(dev, role, explore(pb, require_fit=False)))

    step("tracing Pareto fronts")
    # Each front starts at its device plan (the same problem, no LUT limit): not solved twice.
    fronts = {key: front_below(plan) for key, plan in plans.items() if key[1] in FRONT_SOURCES}
    devices = tuple(
        DeviceResult(
            dev,
            {src: plans[dev.name, src] for src in sources},
            {src: fronts[dev.name, src] for src in sources if src in FRONT_SOURCES},
        )
        for dev in inputs.catalog.all()
    )

    step("designing every part at levels 1, 3 and 5")
    designs = _designs(inputs.hw_dir, tuple(inputs.catalog.all()), calibrate(DESIGN_INTERCONNECT))

    step("software tables")
    return ReportData(
        version=__version__,
        profile=profile,
        transfer=baremetal,
        interconnects=(baremetal, calibrate("sdsoc")),
        seed000=seed000,
        devices=devices,
        roles=tuple(roles),
        software=_software(inputs),
        hardware=hardware,
        seed004=seed004_section(inputs.records, load_cosim(inputs.hw_dir)),
        designs=designs,
        mlkem=mlkem_section(
            inputs.records,
            inputs.catalog,
            baremetal,
            device_reports(inputs.hw_dir) if inputs.hw_dir else [],
        ),
    )


def _unbounded() -> Device:
    big = 10**9
    return Device("unbounded", "none", big, big, big, float(big), "", "no budget")


def _seed000(
    catalog: DeviceCatalog,
    profile: SoftwareProfile,
    units: tuple[HwUnit, ...],
    free: TransferModel,
) -> tuple[Seed000Design, ...]:
    """Seed 000 Table II from its own inputs: Table I final modules, no transfer cost."""
    devices: dict[str, tuple[Device, tuple[HwUnit, ...]]] = {"sw_only": (_unbounded(), ())}
    for name in SEED000_DEVICES:
        dev = catalog.get(name)
        devices[dev.label.lower().replace("-", "")] = (dev, units)
    devices["all_hw"] = (_unbounded(), units)
    published = {r["design"]: r for r in read_table("codesign_000_table2.csv")}
    out = []
    for design, (dev, cands) in devices.items():
        plan = explore(Problem(dev, LEVEL, "kem", profile, cands, free, hw_source="seed000"))
        out.append(
            Seed000Design(design, published[design], plan, _matches(published[design], plan))
        )
    return tuple(out)


def _matches(pub: Mapping[str, str], plan: Plan) -> bool:
    pub_hw = [p for p in PRIMITIVES if pub[f"{p}_in"] == "hw"]
    return (
        pub_hw == plan.hw_items()
        and all(math.isclose(float(pub[k]), plan.used[k]) for k in RESOURCES)
        and all(
            math.isclose(float(pub[f"{p}_ms"]), plan.per_primitive[p]["total_ms"], abs_tol=0.005)
            for p in PRIMITIVES
        )
        and math.isclose(float(pub["total_ms"]), plan.total_ms, abs_tol=0.005)
    )


def _software(inputs: ReportInputs) -> SoftwareComparison:
    """Seed 001 Tables 1 and 2 (published columns at levels 1 and 3) beside the measured."""
    columns = tuple((n, lvl) for n in PUBLISHED for lvl in (1, 3))
    meas = tuple(sorted(inputs.measured, key=lambda p: (p.name, p.level)))
    published_times = read_table("sw_times_001_table1.csv")

    def pub_time(name: str, lvl: int, key: str) -> str:
        platform, impl, _, _ = PUBLISHED[name]
        return next(
            t[f"{key}_ms"]
            for t in published_times
            if t["platform"] == platform and t["implementation"] == impl and int(t["level"]) == lvl
        )

    times = tuple(
        TimeRow(
            key,
            tuple(pub_time(n, lvl, key) for n, lvl in columns),
            tuple(m.total_ms() if key == "total" else m.primitives[key] for m in meas),
        )
        for key in (*PRIMITIVES, "total")
    )
    bd = read_table("sw_breakdown_001_table2.csv")
    pub_keys = [f"{PUBLISHED[n][2]}_sl{lvl}" for n, lvl in columns]
    ops: list[tuple[str, str]] = [(r["primitive"], r["operation"]) for r in bd]
    for m in meas:
        for prim in PRIMITIVES:
            ops += [
                (prim, op) for op in m.breakdown[prim] if op != "other" and (prim, op) not in ops
            ]
    shares = []
    for prim, op in sorted(ops, key=lambda t: PRIMITIVES.index(t[0])):
        pub = next((r for r in bd if r["primitive"] == prim and r["operation"] == op), None)
        measured = [m.breakdown[prim].get(op) for m in meas]
        shares.append(
            ShareRow(
                prim,
                op,
                tuple(pub[k] if pub else None for k in pub_keys),
                tuple(
                    None if ms is None else 100 * ms / m.total_ms()
                    for ms, m in zip(measured, meas, strict=True)
                ),
            )
        )
    return SoftwareComparison(inputs.measured_how, columns, meas, times, tuple(shares))


def _hardware(inputs: ReportInputs) -> HardwareRecords:
    """Our records as units; the level-1 ones and the operation classes they cover."""
    rows = tuple(
        RecordRow(
            file=name,
            core=str(rec["core"]),
            preset=str(rec["preset"]),
            level=int(rec["level"]),
            cycles={op: float(c) for op, c in rec["cycles"].items()},
            verified=HwRecord.from_json(rec, name).verified.passed,
            unit=unit_from_record(rec, name, None),
        )
        for name, rec in inputs.records
    )
    units = tuple(r.unit for r in rows if r.level == LEVEL)
    classes: dict[str, list[str]] = {c: [] for c in OP_CLASS.values() if c != "other"}
    for target, names in coverage(list(units), list(LEAF_TARGETS)).items():
        cls = OP_CLASS[target.split(".")[1]]
        classes[cls] += [n for n in names if n not in classes[cls]]
    return HardwareRecords(inputs.records_error, rows, units, classes)


DESIGN_LEVELS: tuple[int, ...] = (1, 3, 5)
"""The issue's Zynq-7010 goal: 100x seed 000's best Zynq result at 100 MHz."""


@functools.cache
def _designs(hw_dir: Path | None, devices: tuple[Device, ...], transfer: TransferModel) -> Designs:
    """The design of every part at every level (the ``bikeco design`` defaults); computed
    once per process for the same inputs (33 MILPs, about 3 s)."""
    if hw_dir is None:
        return Designs("no hw/ folder with synthesis reports was given", (), (), "")
    try:
        area = default_model(hw_dir)
    except BikecoError as exc:
        return Designs(str(exc), (), (), "")
    rows = []
    goal = ""
    for level in DESIGN_LEVELS:
        profile = ds.profile_for(None, level)
        for dev in devices:
            ctx = ds.Context(
                dev,
                level,
                "kem",
                DEFAULT_CLOCK_MHZ,
                profile,
                transfer,
                area,
                routing_margin=routing_margin_for(area, level),
            )
            d, ev = ds.design(ctx)
            d, measured, note = _verified(d, hw_dir / "results" / "designs" / d.name)
            rows.append(DesignRow(dev.label, d, measured, note))
            if level == 1 and dev.name == "xc7z010":
                goal = gap_text(ctx, ev, GOALS["xc7z010"])
    notes = tuple(level_note(area, lv) for lv in DESIGN_LEVELS)
    return Designs(None, tuple(rows), area.quality, goal, notes)


NOT_VERIFIED = "not verified: no bikeco verify record"
"""The status of a design without a record (the report says why they are missing)."""


def _verified(d: Design, folder: Path) -> tuple[Design, Measured | None, str]:
    """A design with what ``bikeco verify`` measured of it, if a committed record verified
    it: the record's first build has the design's parameters. The row then shows the design
    the record ended with (``design.json``: a refit when the first build did not fit). A
    record of other parameters (made before the model or the sources changed) does not
    count."""
    path = folder / "verify.json"
    if not path.is_file():
        return d, None, NOT_VERIFIED
    try:
        rec = load_verify(path)
        built = load_design(folder / rec.design_file)
    except (RecordError, DesignError) as exc:
        return d, None, f"verify record unusable: {exc}"
    if rec.attempts[0].params != {c.core: c.params for c in d.cores}:
        return d, None, "not verified (the committed record is of other parameters)"
    c = rec.cosim
    m = Measured(
        cycles={p: v["measured"] for p, v in rec.cycles.items()},
        latency_ms=rec.latency_ms["total"]["measured"],
        lut=rec.measured.lut,
        fits=rec.fits,
        bit_exact=rec.bit_exact,
        bus=tuple(BusTarget(t.target, t.run_pl_cycles, t.predicted_pl_cycles) for t in c.targets),
        bus_checked=(
            f"{c.kat_matched}/{c.kat} KAT + {c.random_matched}/{c.random} random KEMs, "
            f"{c.tampered_matched}/{c.tampered} tampered ct"
        ),
    )
    status = "bit-exact" if m.bit_exact else "NOT bit-exact"
    note = f"verified: {status}, {'fits' if m.fits else 'does NOT fit'}"
    if len(rec.attempts) > 1:
        first = rec.attempts[0]
        note += (
            f"; refitted: the first build measured {first.measured_lut:,.0f} LUT against "
            f"{first.predicted_lut:,.0f} predicted and did not fit"
        )
    return built, m, note


# ------------------------------------------------------------------------ canonical JSON


def _plain(value: object) -> object:
    """JSON-ready form: plans as their ``--json`` form, floats to :data:`DIGITS` digits."""
    if isinstance(value, Plan):
        return _plain(value.to_json())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, float):
        return float(f"{value:.{DIGITS}g}") if math.isfinite(value) else str(value)
    return value


def data_json(data: ReportData) -> str:
    """The canonical JSON text of the report's data (sorted keys, rounded floats)."""
    return json.dumps(_plain(data), indent=1, sort_keys=True) + "\n"
