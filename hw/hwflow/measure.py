"""What a design file's cores measure: each core's testbench on KAT records
(bit-exact against libbike, cycles per operation) and its Yosys synthesis,
all on the executor in one batch (the simulations run beside the synthesis
runs); then the whole design through the bus: libbike's KEM with every
target the cores serve on their co-simulated bus devices (bike-cosim, the
same KAT records and random KEMs, each with a tampered ciphertext).
`bikeco verify` runs this (`python -m hwflow measure`) and records the
figures beside the design's predictions; `check-records` recomputes the
hashes it returns to tell a current verify record from a stale one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bikeco.designfile import Design
from hwflow import cosim as bus
from hwflow import design
from hwflow.cores import FlowCore
from hwflow.executor import Executor, JobError, Options, fail
from hwflow.records import resources
from hwflow.sim import SimConfig, sim_jobs, sources_sha256
from hwflow.synth import SynthJob, job_sha256, read_report, synth_job, write_report
from hwflow.tools import verilator_pin, yosys_pin


def synth_job_of(fc: FlowCore, level: int, reports: Path) -> SynthJob:
    """The synthesis run of a design's core; its report goes to `reports`."""
    params = fc.params(design.CONFIG, level)
    return SynthJob(fc, f"{fc.name}_L{level}", fc.top, params, level, report_dir=reports)


def measure(
    d: Design,
    reports: Path,
    random: int,
    kat: int,
    opts: Options | None = None,
    cosim: bool = True,
) -> dict[str, Any]:
    """Simulate and synthesise every core of a design, then (with `cosim`)
    co-simulate it through the bus; its figures and the hashes of what they
    were made from. A synthesis report already in `reports` with the same
    inputs is reused."""
    fcs = design.cores(d)
    configs = [SimConfig(fc, design.CONFIG, d.level) for fc in fcs]
    sjobs, groups = sim_jobs(configs, random, kat)
    syn = [synth_job_of(fc, d.level, reports) for fc in fcs]
    digests = [job_sha256(j) for j in syn]
    current = [
        j.report.exists() and read_report(j.report).get("inputs_sha256") == h
        for j, h in zip(syn, digests, strict=True)
    ]
    yjobs = [synth_job(j, h) for j, h, ok in zip(syn, digests, current, strict=True) if not ok]
    try:
        with Executor(opts) as ex:
            # the synthesis runs first: the longest jobs start at once
            results = ex.run(
                [*yjobs, *sjobs],
                on_done=lambda job, res: print(res.get("output", ""), end="", flush=True),
            )
    except JobError as exc:
        fail(exc)
    synth_out = iter(results[: len(yjobs)])
    reps = []
    for j, h, ok in zip(syn, digests, current, strict=True):
        if ok:
            print(f"synth {j.core.name} {j.name}: up to date (inputs unchanged)")
            reps.append(read_report(j.report))
        else:
            reps.append(write_report(j, h, next(synth_out)))
    sims: list[dict[str, Any]] = [{}] * len(configs)
    for idx, res in zip(groups, results[len(yjobs) :], strict=True):
        for i, rec in zip(idx, res["runs"], strict=True):
            sims[i] = rec
    cores = []
    for fc, sc, job, rep, sim in zip(fcs, configs, syn, reps, sims, strict=True):
        cores.append(
            {
                "core": fc.name,
                "cycles": sim["cycles"],
                "verified": sim["verified"],
                "resources": resources(rep),
                "lut_depth": rep["lut_depth"],
                "synth_report": job.report.name,
                "synth_inputs_sha256": rep["inputs_sha256"],
                "sim_sources_sha256": sources_sha256(sc),
            }
        )
    figures: dict[str, Any] = {"cores": cores}
    if cosim:
        rec = json.loads(bus.run_design(d, kat, random).read_text())
        figures["cosim"] = {"record": rec, "sources_sha256": bus.design_sources_sha256(d)}
    figures["tools"] = {"verilator": verilator_pin(), "yosys": yosys_pin()}
    return figures


def main(
    design_file: Path,
    reports: Path,
    random: int,
    kat: int,
    out: Path,
    opts: Options,
    cosim: bool = True,
) -> None:
    figures = measure(design.read(design_file), reports, random, kat, opts, cosim)
    out.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"wrote {out}")
