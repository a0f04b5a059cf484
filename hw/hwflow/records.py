"""The results records (hw/results/<core>_<preset>_L<n>.json: bikeco.hwrecord's
HwRecord, docs/hw-results-json.md) and the check that every committed synthesis report
and record matches its sources."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bikeco import hwrecord
from bikeco.designfile import DesignError, load_design
from bikeco.hwcycles import record_cycles_problem
from bikeco.hwrecord import RecordError
from bikeco.verifyrecord import load_verify
from hwflow import pnr
from hwflow.cores import FlowCore, flow_cores
from hwflow.paths import RESULTS
from hwflow.sim import SimConfig, sources_sha256
from hwflow.synth import SynthJob, job_sha256, read_report, synth_jobs

LEVELS = [1, 3, 5]


def record_path(core: str, preset: str, level: int, root: Path = RESULTS) -> Path:
    return root / f"{core}_{preset}_L{level}.json"


def make_record(
    core: FlowCore,
    preset: str,
    level: int,
    sim: dict[str, Any],
    syn: dict[str, Any],
    tools: dict[str, str],
) -> hwrecord.HwRecord:
    """A results record from a simulation summary and a synthesis report, with
    the figures of its place and route report if there is one."""
    return hwrecord.HwRecord(
        core=core.name,
        preset=preset,
        level=level,
        params=core.record_params(preset),
        cycles=sim["cycles"],
        resources=hwrecord.Resources(**resources(syn)),
        lut_depth=syn["lut_depth"],
        clock_mhz_assumed=100,
        verified=hwrecord.Verification(**sim["verified"]),
        tools=hwrecord.Tools(**tools),
        pnr=pnr_figures(core, preset, level),
    )


def pnr_figures(core: FlowCore, preset: str, level: int) -> hwrecord.PnrFigures | None:
    """A record's `pnr` figures: from its P&R report, if one was made."""
    report = pnr.pnr_job(core, preset, level).report
    return pnr.record_figures(pnr.read_report(report)) if report.exists() else None


def update_records(job: pnr.PnrJob, rep: hwrecord.PnrReport, root: Path = RESULTS) -> list[Path]:
    """Set the `pnr` figures of the records a P&R report serves (every level's,
    for a core without level parameters); a configuration without a record
    (the shells) has none to update."""
    out = []
    for level in LEVELS:
        path = record_path(job.core.name, job.preset, level, root)
        if not path.exists() or pnr.pnr_job(job.core, job.preset, level).report != job.report:
            continue
        rec = hwrecord.load_record(path)
        hwrecord.dump(dataclasses.replace(rec, pnr=pnr.record_figures(rep)), path)
        out.append(path)
    return out


def resources(syn: dict[str, Any]) -> dict[str, Any]:
    return {
        "lut": syn["lut"],
        "ff": syn["ff"],
        "bram36": syn["ramb36"] + 0.5 * syn["ramb18"],
        "dsp": syn["dsp"],
        "carry4": syn["carry4"],
    }


def write_record(rec: hwrecord.HwRecord, root: Path = RESULTS) -> Path:
    out = record_path(rec.core, rec.preset, rec.level, root)
    out.parent.mkdir(parents=True, exist_ok=True)
    hwrecord.dump(rec, out)
    return out


def record_job(core: FlowCore, preset: str, level: int, levels: list[int]) -> SynthJob:
    """The synthesis run a record's resources come from (for a core without
    level parameters: the first level's netlist)."""
    lvl = level if core.level_params else levels[0]
    return SynthJob(core, core.report_name(preset, lvl), core.top, core.params(preset, lvl), lvl)


@dataclass
class Check:
    """What `check-records` found: stale (sources changed since), orphan (no
    configuration of the core files makes it), mismatched records."""

    current: list[str]
    stale: list[str]
    orphan: list[str]
    mismatch: list[str]

    @property
    def ok(self) -> bool:
        return not (self.stale or self.orphan or self.mismatch)


def check_reports(cores: list[FlowCore]) -> Check:
    """Every committed synthesis report against its inputs' hash, every
    results record against its core's parameters and report."""
    ck = Check([], [], [], [])
    jobs: dict[Path, SynthJob] = {}
    for c in cores:
        for j in synth_jobs(c, LEVELS):
            jobs[j.report] = j
    dirs = {core.report_dir for core in cores}
    for d in sorted(dirs):
        for rep in sorted(d.glob("*.json")):
            found = jobs.get(rep)
            label = str(rep.relative_to(rep.parents[3]))
            if found is None:
                ck.orphan.append(label)
                continue
            stored = read_report(rep)
            script = rep.with_suffix(".ys")
            if stored.get("inputs_sha256") != job_sha256(found) or (
                script.exists() and script.read_text() != found.script
            ):
                ck.stale.append(label)
            else:
                ck.current.append(label)
    check_pnr_reports(cores, ck)
    for path, rc, rec in results_records(cores):
        if rc is None:
            ck.orphan.append(f"results/{path.name}")
            continue
        problems = record_problems(rc, rec)
        if problems:
            ck.mismatch.append(f"results/{path.name}: " + "; ".join(problems))
        else:
            ck.current.append(f"results/{path.name}")
    return ck


def results_records(
    cores: list[FlowCore], root: Path = RESULTS
) -> list[tuple[Path, FlowCore | None, dict[str, Any]]]:
    """Every results record with the core that makes it (None: none of these)."""
    by_name = {c.name: c for c in cores}
    out: list[tuple[Path, FlowCore | None, dict[str, Any]]] = []
    for path in sorted(root.glob("*_L[0-9].json")):
        rec = json.loads(path.read_text())
        rc = by_name.get(rec["core"])
        if rc is None or rec["preset"] not in rc.presets or not rc.harness.record:
            rc = None
        out.append((path, rc, rec))
    return out


def record_problems(rc: FlowCore, rec: dict[str, Any]) -> list[str]:
    """How a results record differs from its core file's preset, its synthesis and
    P&R reports and the cycle formulas (empty: it is current)."""
    job = record_job(rc, rec["preset"], rec["level"], [1, 3])
    problems = []
    if rec["params"] != rc.record_params(rec["preset"]):
        problems.append("params differ from the core file's preset")
    if job.report.exists():
        syn = read_report(job.report)
        if rec["resources"] != resources(syn) or rec["lut_depth"] != syn["lut_depth"]:
            problems.append(f"resources differ from {job.report.name}")
    else:
        problems.append(f"no report {job.report.name}")
    problems += pnr_problems(rc, rec)
    cycles = record_cycles_problem(rec["core"], rec["level"], rec["params"], rec["cycles"])
    if cycles:
        problems.append(cycles)
    return problems


def pending_cores(cores: list[FlowCore], root: Path = RESULTS) -> list[str]:
    """The cores with a results record to make again (`make results`): those
    whose record differs from its sources (record_problems)."""
    return sorted(
        {rc.name for _, rc, rec in results_records(cores, root) if rc and record_problems(rc, rec)}
    )


def committed_pnr_reports(cores: list[FlowCore]) -> list[tuple[Path, pnr.PnrJob | None]]:
    """Every committed P&R report (hw/ip/<ip>/syn/pnr/) with the job that makes it
    (None: no configuration of these cores does)."""
    jobs: dict[Path, pnr.PnrJob] = {}
    for c in cores:
        if not c.harness.synth:
            continue
        for preset in pnr.configs(c):
            for level in LEVELS:
                j = pnr.pnr_job(c, preset, level)
                jobs[j.report] = j
    return [
        (rep, jobs.get(rep))
        for d in sorted({c.report_dir.parent / "pnr" for c in cores})
        for rep in sorted(d.glob("*.json"))
    ]


def pnr_report_stale(rep: Path, job: pnr.PnrJob) -> bool:
    """A committed P&R report whose job's inputs or script changed since it ran."""
    script = rep.with_suffix(".ys")
    return pnr.read_report(rep).inputs_sha256 != pnr.job_sha256(job) or (
        script.exists() and script.read_text() != job.script
    )


def check_pnr_reports(cores: list[FlowCore], ck: Check) -> None:
    """Every committed P&R report against its inputs' hash."""
    for rep, job in committed_pnr_reports(cores):
        label = str(rep.relative_to(rep.parents[3]))
        if job is None:
            ck.orphan.append(label)
        elif pnr_report_stale(rep, job):
            ck.stale.append(label)
        else:
            ck.current.append(label)


def pnr_problems(core: FlowCore, rec: dict[str, Any]) -> list[str]:
    """A record's `pnr` figures against its P&R report (both or neither)."""
    report = pnr.pnr_job(core, rec["preset"], rec["level"]).report
    got = rec.get("pnr")
    if not report.exists():
        return [f"pnr figures without a report pnr/{report.name}"] if got is not None else []
    want = dataclasses.asdict(pnr.record_figures(pnr.read_report(report)))
    if got != want:
        return [f"pnr figures differ from pnr/{report.name}"]
    return []


DESIGNS = RESULTS / "designs"


def check_designs(ck: Check, root: Path = DESIGNS) -> None:
    """Every verify record (bikeco.verifyrecord, `bikeco verify`) against the
    design file beside it (its hash), and each core's synthesis report and
    testbench against the current sources, and its co-simulation through the
    bus against the bus devices' and the driver's sources: a record whose
    cores' RTL, testbench, parameters, driver or tool pins changed since is
    stale."""
    from hwflow import design as designs
    from hwflow.cosim import design_sources_sha256
    from hwflow.measure import synth_job_of

    for path in sorted(root.glob("*/verify.json")):
        label = str(path.relative_to(root.parent.parent))
        try:
            rec = load_verify(path)
            d = load_design(path.parent / rec.design_file)
        except (RecordError, DesignError) as exc:
            ck.mismatch.append(f"{label}: {exc}")
            continue
        problems = []
        digest = hashlib.sha256((path.parent / rec.design_file).read_bytes()).hexdigest()
        if digest != rec.design_sha256:
            problems.append(f"{rec.design_file} is not the design verified")
        stale = []
        fcs = {fc.name: fc for fc in designs.cores(d)}
        for core in rec.cores:
            fc = fcs.get(core.core)
            if fc is None:
                problems.append(f"{core.core} is not a core of {rec.design_file}")
                continue
            job = synth_job_of(fc, d.level, path.parent)
            if not job.report.exists():
                problems.append(f"no report {job.report.name}")
                continue
            syn = read_report(job.report)
            measured = core.measured
            got = resources(syn)
            if (measured.lut, measured.ff, measured.dsp, measured.bram36) != (
                got["lut"],
                got["ff"],
                got["dsp"],
                got["bram36"],
            ) or syn["inputs_sha256"] != core.synth_inputs_sha256:
                problems.append(f"{core.core}: measured area differs from {job.report.name}")
            if job_sha256(job) != core.synth_inputs_sha256:
                stale.append(f"{core.core} synthesis")
            if sources_sha256(SimConfig(fc, designs.CONFIG, d.level)) != core.sim_sources_sha256:
                stale.append(f"{core.core} simulation")
        if not problems and design_sources_sha256(d) != rec.cosim.sources_sha256:
            stale.append("co-simulation through the bus")
        if problems:
            ck.mismatch.append(f"{label}: " + "; ".join(problems))
        elif stale:
            ck.stale.append(f"{label} ({', '.join(stale)}: sources changed since)")
        else:
            ck.current.append(label)


def all_cores() -> list[FlowCore]:
    return list(flow_cores().values())
