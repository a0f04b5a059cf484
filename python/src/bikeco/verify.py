"""``bikeco verify <design.json>``: build a design, simulate its cores on KAT records bit-exact
against libbike, synthesise them, co-simulate the whole design through the bus (libbike's KEM
with the design's targets offloaded by the C driver to its co-simulated bus devices, on the KAT
records and random KEMs with tampered ciphertexts), and record the predicted and measured
cycles and area side by side (:mod:`bikeco.verifyrecord`).

The measuring is the hardware flow's (``python -m hwflow measure``, run in ``hw/``): every
core's testbench and Yosys run go to its executor (Dask; cached by their inputs' hash) in one
batch, then bike-cosim runs on the design's bus devices (``hwflow placement --design``). The
record goes to ``hw/results/designs/<name>/verify.json`` beside the design it verified
(``design.json``) and the cores' synthesis reports. A design whose synthesised area (with its
bus ports) exceeds its limits is not reported as fitting: it is refitted, the design solver
called again with each core's measured/predicted area as a correction of its model, and the
new design is built in turn, up to ``attempts`` builds.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bikeco.designfile import (
    Design,
    DesignCore,
    DesignError,
    Prediction,
    dump_design,
    load_design,
)
from bikeco.devices import DeviceCatalog
from bikeco.errors import BikecoError
from bikeco.hwrecord import RecordError, Tools, Verification
from bikeco.interconnect import DESIGN_INTERCONNECT, calibrate, driver_timing, run_cycles
from bikeco.paths import repo_root
from bikeco.tables import Cell, format_table
from bikeco.verifyrecord import (
    AREA_KEYS,
    Area,
    Attempt,
    CoreCheck,
    CosimCheck,
    CosimTarget,
    VerifyRecord,
    dump_verify,
    load_builds,
)

DESIGN_FILE = "design.json"
RECORD_FILE = "verify.json"
Figures = dict[str, Any]
"""What ``python -m hwflow measure`` returns (hw/hwflow/measure.py)."""
Measure = Callable[[Path, Path], Figures]
"""(design file, folder for the synthesis reports) -> the measured figures."""
Correction = dict[str, dict[str, float]]
"""Core -> resource -> measured / predicted."""
Refit = Callable[[Design, Correction], Design | None]
"""A design and the measured corrections -> a new design, or None when there is none."""


class VerifyFailed(BikecoError):
    """The hardware flow failed (a tool, a mismatch against libbike)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, exit_code=1)


@dataclass(frozen=True)
class VerifyOptions:
    design: Path
    random: int = 2
    kat: int = 10
    attempts: int = 3
    out: Path | None = None
    """Folder of the record (default: hw/results/designs/<name>/)."""
    hw: Path | None = None
    """The hw/ folder (default: the repository's)."""
    keep_attempts: bool = False
    """Continue the record in the folder: keep its earlier builds (see earlier_attempts)."""
    executor_args: list[str] = field(default_factory=list)
    """--scheduler, --workers, --no-cache for the flow's executor."""
    devices_files: list[Path] = field(default_factory=list)


def read_design(path: Path, devices_files: list[Path] | None = None) -> Design:
    """The design file, its device known to the catalog; BikecoError otherwise."""
    if not path.is_file():
        raise BikecoError(f"design file not found: {path}")
    try:
        d = load_design(path)
    except DesignError as exc:
        raise BikecoError(f"not a design file: {exc}") from None
    DeviceCatalog(devices_files or []).get(d.device)  # an unknown part is an error
    if not d.cores:
        raise BikecoError(f"{path}: the design places no accelerator: nothing to verify")
    return d


def hwflow_measure(hw: Path, random: int, kat: int, executor_args: list[str]) -> Measure:
    """The flow's `measure` command as a function (its progress on this terminal)."""

    def run(design_file: Path, reports: Path) -> Figures:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "figures.json"
            cmd = [sys.executable, "-m", "hwflow", "measure", "--design", str(design_file)]
            cmd += ["--reports", str(reports), "--random", str(random), "--kat", str(kat)]
            cmd += ["--json", str(out), *executor_args]
            res = subprocess.run(cmd, cwd=hw, check=False)
            if res.returncode != 0 or not out.exists():
                raise VerifyFailed(f"the hardware flow failed on {design_file} (see above)")
            figures: Figures = json.loads(out.read_text())
            return figures

    return run


def limits(d: Design) -> Area:
    """What the measured area may reach: cap x the device / (1 + routing margin)."""
    c = d.constraints
    scale = c.cap / (1.0 + c.routing_margin)
    return Area(
        lut=c.device_lut * scale,
        ff=c.device_ff * scale,
        dsp=c.device_dsp * scale,
        bram36=c.device_bram36 * scale,
    )


def _pct(predicted: float, measured: float) -> float:
    return round(100.0 * (predicted - measured) / measured, 2) if measured else 0.0


def core_checks(d: Design, figures: Figures) -> list[CoreCheck]:
    """Each core's predicted and measured figures."""
    by_core = {c["core"]: c for c in figures["cores"]}
    out = []
    for dc in d.cores:
        m = by_core.get(dc.core)
        if m is None:
            raise VerifyFailed(f"the hardware flow measured no core {dc.core}")
        res = m["resources"]
        measured = Prediction(
            cycles={k: int(v) for k, v in m["cycles"].items()},
            lut=int(res["lut"]),
            ff=int(res["ff"]),
            dsp=int(res["dsp"]),
            bram36=float(res["bram36"]),
        )
        p = dc.predicted
        err = {
            f"cycles.{op}": _pct(p.cycles[op], measured.cycles[op])
            for op in p.cycles
            if op in measured.cycles
        }
        for k in ("lut", "ff", "bram36"):
            err[k] = _pct(float(getattr(p, k)), float(getattr(measured, k)))
        out.append(
            CoreCheck(
                core=dc.core,
                params=dict(dc.params),
                predicted=p,
                measured=measured,
                lut_depth=m["lut_depth"],
                verified=Verification(**m["verified"]),
                error_pct=err,
                synth_report=m["synth_report"],
                synth_inputs_sha256=m["synth_inputs_sha256"],
                sim_sources_sha256=m["sim_sources_sha256"],
            )
        )
    return out


def cosim_check(d: Design, figures: Figures) -> CosimCheck:
    """What bike-cosim measured of the design (the flow's `cosim` figures: its placement
    record and the hash of its sources), each target per call beside its prediction: the
    core's cycles plus the driver's transfer model (the one `bikeco design` assumes by
    default) with the run's own timing parameters."""
    fig = figures.get("cosim")
    if fig is None:
        raise VerifyFailed("the hardware flow did not co-simulate the design through the bus")
    rec = fig["record"]
    timing = driver_timing(rec["timing"])
    targets = []
    for t in rec["targets"]:
        n = t["calls"]
        if n == 0:
            raise VerifyFailed(f"bike-cosim ran no {t['target']} on {t['device']}")
        name = t["target"]
        dc = _serving(d, name)
        op = name if name in dc.predicted.cycles else "op"
        hw = dc.predicted.cycles[op]
        predicted = run_cycles(name, d.level, hw, timing)
        run = round(t["run_pl_cycles"] / n)
        targets.append(
            CosimTarget(
                target=name,
                device=t["device"],
                calls=n,
                accelerator_cycles=round(t["accelerator_cycles"] / n),
                transfer_cycles=round(t["transfer_cycles"] / n),
                run_pl_cycles=run,
                predicted_pl_cycles=predicted,
                error_pct=_pct(predicted, run),
            )
        )
    return CosimCheck(
        kat=rec["kat_records"],
        kat_matched=rec["kat_matched"],
        random=rec["random"],
        random_matched=rec["random_matched"],
        tampered=rec["tampered"],
        tampered_matched=rec["tampered_matched"],
        passed=rec["passed"],
        timing=dict(rec["timing"]),
        targets=targets,
        sources_sha256=fig["sources_sha256"],
    )


def _serving(d: Design, target: str) -> DesignCore:
    for dc in d.cores:
        if target in dc.serves:
            return dc
    raise VerifyFailed(f"bike-cosim ran {target}, which no core of {d.name} serves")


def measured_area(d: Design, checks: list[CoreCheck]) -> Area:
    """The synthesised cores plus one bus port each (as the design counts them)."""
    c = d.constraints
    bus = {"lut": c.bus_lut, "ff": c.bus_ff, "dsp": 0, "bram36": 0.0}
    tot = {k: sum(float(getattr(ch.measured, k)) + bus[k] for ch in checks) for k in AREA_KEYS}
    return Area(**tot)


def primitive_cycles(d: Design, checks: list[CoreCheck]) -> dict[str, dict[str, int]]:
    """Hardware cycles per primitive, predicted (the design's) and measured: a KEM core's
    cycles of each primitive it serves, a bus device's `op` once per `primitive.operation`."""
    by_core = {ch.core: ch for ch in checks}
    measured: dict[str, int] = {}
    for dc in d.cores:
        cyc = by_core[dc.core].measured.cycles
        for item in dc.serves:
            prim, _, op = item.partition(".")
            measured[prim] = measured.get(prim, 0) + cyc["op" if op else prim]
    return {
        p: {"predicted": d.predicted.cycles[p], "measured": measured.get(p, 0)}
        for p in d.predicted.cycles
    }


def latencies(d: Design, cycles: dict[str, dict[str, int]]) -> dict[str, dict[str, float]]:
    """Predicted latency per primitive and measured: the prediction with the measured hardware
    cycles in place of the predicted ones, at the assumed clock."""
    lat = {p: getattr(d.latency_ms, p) for p in ("keygen", "encaps", "decaps")}
    out: dict[str, dict[str, float]] = {}
    for p, ms in lat.items():
        delta = 0.0
        if p in cycles:
            delta = (cycles[p]["measured"] - cycles[p]["predicted"]) / (d.clock_mhz * 1e3)
        out[p] = {"predicted": ms, "measured": round(ms + delta, 6)}
    out["total"] = {
        "predicted": d.latency_ms.total,
        "measured": round(
            d.latency_ms.total + sum(v["measured"] - v["predicted"] for v in out.values()), 6
        ),
    }
    return out


def fits(area: Area, limit: Area) -> bool:
    return all(area.get(k) <= limit.get(k) + 1e-6 for k in AREA_KEYS)


def correction(d: Design, checks: list[CoreCheck]) -> Correction:
    """Each core's measured / predicted area per resource (1 where nothing was predicted)."""
    out: Correction = {}
    for ch in checks:
        p, m = ch.predicted, ch.measured
        out[ch.core] = {
            k: (float(getattr(m, k)) / float(getattr(p, k))) if getattr(p, k) else 1.0
            for k in AREA_KEYS
        }
    return out


def compound(scale: Correction, corr: Correction) -> Correction:
    """The area scale after one more build: each core's factors times this build's measured /
    predicted, since its prediction already carried the earlier factors. Without it a second
    refit would forget the first build's error and could choose that design again."""
    out = {core: dict(f) for core, f in scale.items()}
    for core, f in corr.items():
        prev = out.get(core, {})
        out[core] = {k: prev.get(k, 1.0) * v for k, v in f.items()}
    return out


def _clear(folder: Path, d: Design) -> None:
    """Drop what an earlier build left in the record's folder (it holds only the flow's),
    except the synthesis reports of the design's cores: the flow reuses one whose inputs are
    unchanged and replaces it otherwise."""
    keep = tuple(f"{c.core}_L{d.level}." for c in d.cores)
    if folder.exists():
        for f in folder.iterdir():
            if f.is_file() and f.suffix in (".json", ".txt", ".ys") and not f.name.startswith(keep):
                f.unlink()


def earlier_attempts(folder: Path, design: Path) -> list[Attempt]:
    """The builds before the last one of the record in ``folder``, whose last build must be
    ``design`` (a refitted design verified again keeps the builds that led to it)."""
    path = folder / RECORD_FILE
    try:
        digest, builds = load_builds(path)
    except RecordError as exc:
        raise BikecoError(f"--keep-attempts: no usable record to continue: {exc}") from None
    if hashlib.sha256(design.read_bytes()).hexdigest() != digest:
        raise BikecoError(f"--keep-attempts: {path} did not end with the design {design}")
    return builds[:-1]


def verify(
    opts: VerifyOptions,
    measure: Measure | None = None,
    refit: Refit | None = None,
    say: Callable[[str], None] = print,
) -> VerifyRecord:
    """Build, simulate and synthesise the design, refitting while it does not fit; write and
    return the record of the last build."""
    t0 = time.monotonic()
    d = read_design(opts.design, opts.devices_files)
    hw = opts.hw or repo_root() / "hw"
    folder = opts.out or hw / "results" / "designs" / d.name
    measure = measure or hwflow_measure(hw, opts.random, opts.kat, opts.executor_args)
    refit = refit or (lambda design, corr: solver_refit(design, corr, hw))
    attempts = earlier_attempts(folder, opts.design) if opts.keep_attempts else []
    first = len(attempts)
    limit = limits(d)
    scale: Correction = {}
    while True:
        say(f"verify {d.name}: build {len(attempts) - first + 1} of at most {opts.attempts}")
        _clear(folder, d)
        folder.mkdir(parents=True, exist_ok=True)
        dump_design(d, folder / DESIGN_FILE)
        figures = measure(folder / DESIGN_FILE, folder)
        checks = core_checks(d, figures)
        bus = cosim_check(d, figures)
        area = measured_area(d, checks)
        ok = fits(area, limit)
        attempts.append(
            Attempt(
                params={ch.core: ch.params for ch in checks},
                predicted_lut=float(d.predicted.lut),
                measured_lut=area.lut,
                fits=ok,
            )
        )
        say(
            f"verify {d.name}: {area.lut:,.0f} LUT measured with bus ports "
            f"(predicted {d.predicted.lut:,}; limit {limit.lut:,.0f}): "
            + ("fits" if ok else "does NOT fit")
        )
        if ok or len(attempts) - first >= opts.attempts:
            break
        scale = compound(scale, correction(d, checks))
        new = refit(d, scale)
        if new is None or {c.core: c.params for c in new.cores} in [a.params for a in attempts]:
            say(f"verify {d.name}: the refit found no design that fits and was not built")
            break
        if new.name != d.name:  # keep the record's folder
            raise BikecoError(f"refit renamed the design {d.name} to {new.name}")
        d = new
        say(f"verify {d.name}: refitted with the measured areas; building the new design")
    cycles = primitive_cycles(d, checks)
    design_bytes = (folder / DESIGN_FILE).read_bytes()
    rec = VerifyRecord(
        design=d.name,
        design_file=DESIGN_FILE,
        design_sha256=hashlib.sha256(design_bytes).hexdigest(),
        device=d.device,
        level=d.level,
        role=d.role,
        clock_mhz_assumed=d.clock_mhz,
        cores=checks,
        cycles=cycles,
        latency_ms=latencies(d, cycles),
        predicted=Area(
            lut=d.predicted.lut,
            ff=d.predicted.ff,
            dsp=d.predicted.dsp,
            bram36=d.predicted.bram36,
        ),
        measured=area,
        limits=limit,
        fits=attempts[-1].fits,
        bit_exact=all(ch.verified.passed for ch in checks) and bus.passed,
        cosim=bus,
        attempts=attempts,
        tools=Tools(**figures["tools"]),
        seconds=round(time.monotonic() - t0, 1),
    )
    dump_verify(rec, folder / RECORD_FILE)
    return rec


def solver_refit(d: Design, corr: Correction, hw: Path | None = None) -> Design | None:
    """The design solver's choice (:mod:`bikeco.design`) for the design's part, level, role,
    clock, profile and budget with every placed core's modelled area scaled by its measured /
    predicted ratio (the solver's ``area_scale``); None when no accelerator fits then. The
    transfers are the default (driver) model's, as `bikeco design` assumes without
    --interconnect."""
    from bikeco import design as ds
    from bikeco.hwarea import default_model

    c = d.constraints
    device = replace(
        DeviceCatalog([]).get(d.device),
        lut=c.device_lut,
        ff=c.device_ff,
        dsp=c.device_dsp,
        bram36=c.device_bram36,
    )
    ctx = ds.Context(
        device=device,
        level=d.level,
        role=d.role,
        clock_mhz=d.clock_mhz,
        profile=ds.profile_for(d.profile, d.level),
        transfer=calibrate(DESIGN_INTERCONNECT),
        area=default_model(hw or repo_root() / "hw"),
        cap=c.cap,
        routing_margin=c.routing_margin,
        bus={"lut": c.bus_lut, "ff": c.bus_ff},
        area_scale=corr,
    )
    new, ev = ds.design(ctx)
    if not ev.cores:
        return None
    return replace(new, name=d.name, notes=[*new.notes, refit_note(corr)])


def refit_note(corr: Correction) -> str:
    parts = ", ".join(
        f"{core} " + " ".join(f"{k} x{v:.3f}" for k, v in f.items() if k in ("lut", "ff"))
        for core, f in corr.items()
    )
    return f"refitted: area model scaled by measured / predicted ({parts})"


def print_record(rec: VerifyRecord) -> None:
    """Predicted and measured side by side."""
    print(f"Verification of {rec.design}: {rec.device}, level {rec.level}, role {rec.role}")
    rows: list[list[Cell]] = []
    for ch in rec.cores:
        for op, n in ch.predicted.cycles.items():
            got = ch.measured.cycles.get(op)
            err = ch.error_pct.get(f"cycles.{op}")
            rows.append([ch.core, f"{op} cycles", f"{n:,}", _num(got), _err(err)])
        for k in ("lut", "ff", "bram36"):
            rows.append(
                [
                    ch.core,
                    k.upper() if k != "bram36" else "BRAM36",
                    f"{getattr(ch.predicted, k):,}",
                    f"{getattr(ch.measured, k):,}",
                    _err(ch.error_pct.get(k)),
                ]
            )
    print(format_table(["core", "figure", "predicted", "measured", "error %"], rows))
    lat = rec.latency_ms["total"]
    print(
        f"whole design with bus ports: {rec.measured.lut:,.0f} LUT measured, "
        f"{rec.predicted.lut:,.0f} predicted, limit {rec.limits.lut:,.0f}: "
        + ("fits" if rec.fits else "does NOT fit")
    )
    print(
        f"latency at {rec.clock_mhz_assumed:g} MHz (assumed): {lat['measured']:.4f} ms "
        f"measured, {lat['predicted']:.4f} ms predicted"
    )
    verified = ", ".join(
        f"{ch.core} {ch.verified.random} random + {ch.verified.kat} KAT" for ch in rec.cores
    )
    print(f"bit-exact against libbike: {verified}")
    c = rec.cosim
    print(
        f"through the bus (bike-cosim): {c.kat_matched} of {c.kat} KAT records, "
        f"{c.random_matched} of {c.random} random KEMs, {c.tampered_matched} of {c.tampered} "
        "tampered ciphertexts bit-exact: " + ("ok" if c.passed else "FAILED")
    )
    rows = [
        [
            t.target,
            t.device,
            f"{t.accelerator_cycles:,}",
            f"{t.transfer_cycles:,}",
            f"{t.run_pl_cycles:,}",
            f"{t.predicted_pl_cycles:,}",
            _err(t.error_pct),
        ]
        for t in c.targets
    ]
    header = ["target", "device", "CYCLES", "transfer", "driver run", "predicted", "error %"]
    print(format_table(header, rows))
    print(f"{len(rec.attempts)} build(s), {rec.seconds:.0f} s")


def _num(v: int | None) -> str:
    return "-" if v is None else f"{v:,}"


def _err(v: float | None) -> str:
    return "-" if v is None else f"{v:+.1f}"
