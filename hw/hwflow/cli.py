"""Commands of the hardware flow (`python -m hwflow <command> --help`)."""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from hwflow import (
    cosim,
    cosim_mlkem,
    depth,
    design,
    kem_frontier,
    measure,
    pnr,
    tdp_check,
    validate,
)
from hwflow.cores import FlowCore, flow_cores
from hwflow.executor import JobError, Options, default_options, local_workers
from hwflow.paths import REPO, RESULTS, build_dir
from hwflow.records import (
    LEVELS,
    check_designs,
    check_reports,
    committed_pnr_reports,
    make_record,
    pending_cores,
    pnr_report_stale,
    record_job,
    update_records,
    write_record,
)
from hwflow.sim import SimConfig, lint_commands, simulate_all, test, test_configs
from hwflow.synth import synth_jobs, synthesise_all
from hwflow.tables import TABLE_FILE, table, table_file
from hwflow.tools import run, verilator_pin, yosys_version


def _cores(names: list[str] | None, design_file: Path | None = None) -> list[FlowCore]:
    if design_file is not None:
        return design.cores(design.read(design_file))
    known = flow_cores()
    if not names:
        return list(known.values())
    bad = [n for n in names if n not in known]
    if bad:
        sys.exit(f"unknown cores {bad} (known: {' '.join(known)})")
    return [known[n] for n in names]


def cmd_lint(a: argparse.Namespace) -> None:
    """The cores' lint runs on a pool of the executor's worker count (each
    run is one single-threaded Verilator); a core is reported once all of its
    runs are clean, the first warning stops the command."""
    cores = _cores(a.cores, a.design)
    with ThreadPoolExecutor(max_workers=local_workers(default_options())) as pool:
        runs = [[pool.submit(run, cmd) for cmd in lint_commands(core)] for core in cores]
        try:
            for core, futures in zip(cores, runs, strict=True):
                for f in futures:
                    f.result()
                print(f"lint {core.name}: clean (-Wall; {len(futures)} configurations)", flush=True)
        except BaseException:
            pool.shutdown(cancel_futures=True)
            raise


def cmd_test(a: argparse.Namespace) -> None:
    configs: list[SimConfig] = []
    if a.design is not None:
        configs = design.sim_configs(design.read(a.design))
    for core in [] if a.design else _cores(a.cores):
        configs += test_configs(core, a.levels, a.presets, a.sweep)
    test(configs, a.random, a.kat, _options(a))


def _options(a: argparse.Namespace) -> Options:
    """The executor's options from --scheduler, --workers, --no-cache (each
    defaulting to $HW_SCHEDULER, $HW_WORKERS, the cache on)."""
    base = default_options()
    return Options(
        scheduler=a.scheduler or base.scheduler,
        workers=a.workers or base.workers,
        cache=not a.no_cache,
    )


def cmd_synth(a: argparse.Namespace) -> None:
    if a.design is not None:
        jobs = design.synth_jobs(design.read(a.design))
    else:
        jobs = [j for core in _cores(a.cores) for j in synth_jobs(core, a.levels, a.presets)]
    synthesise_all(jobs, force=a.force, opts=_options(a))


def _pnr_jobs(
    cores: list[FlowCore], presets: list[str] | None, levels: list[int], part: str
) -> list[pnr.PnrJob]:
    """The P&R jobs of these cores' presets (all routed ones if None) and levels."""
    jobs: list[pnr.PnrJob] = []
    for core in cores:
        for preset in presets or pnr.configs(core):
            for level in levels if core.level_params else levels[:1]:
                try:
                    job = pnr.pnr_job(core, preset, level, part)
                except ValueError as exc:
                    sys.exit(f"pnr: {exc}")
                if job not in jobs:
                    jobs.append(job)
    return jobs


def cmd_pnr(a: argparse.Namespace) -> None:
    cores = _cores(a.cores)
    if a.stale:  # the committed reports check-records calls stale, whatever their names
        jobs = [j for rep, j in committed_pnr_reports(cores) if j and pnr_report_stale(rep, j)]
        print(f"pnr --stale: {len(jobs)} configuration(s) to route again", flush=True)
    else:
        jobs = _pnr_jobs(cores, a.presets, a.levels, a.part)
    # one run at a time: each nextpnr takes a core and, for a KEM core, gigabytes
    opts = _options(a)
    reps = pnr.place_and_route_all(jobs, force=a.force, opts=Options(opts.scheduler, 1, opts.cache))
    for job, rep in zip(jobs, reps, strict=True):
        for out in update_records(job, rep):
            print(f"updated {out.relative_to(REPO)}", flush=True)


def cmd_tdp_check(a: argparse.Namespace) -> None:
    try:
        n = tdp_check.check_all(_cores(a.cores), a.presets, a.level, a.random, a.kat)
    except JobError as exc:
        sys.exit(str(exc))
    print(f"tdp-check: {n} runs, no cross-port collision in any bike_ram_tdp", flush=True)


def cmd_results(a: argparse.Namespace) -> None:
    tools = {"verilator": verilator_pin(), "yosys": yosys_version()}
    configs = [
        SimConfig(core, preset, level)
        for core in _cores(a.cores)
        if core.harness.record
        for preset in core.presets
        if not a.presets or preset in a.presets
        for level in a.levels
    ]
    opts = _options(a)
    sims = simulate_all(configs, a.random, a.kat, full=True, opts=opts)
    # a core without level parameters: every level's record from the L1 netlist
    jobs = [record_job(sc.core, sc.config, sc.level, LEVELS) for sc in configs]
    syns = synthesise_all(jobs, reuse_unstamped=True, opts=opts)
    for sc, sim, syn in zip(configs, sims, syns, strict=True):
        out = write_record(make_record(sc.core, sc.config, sc.level, sim, syn, tools))
        print(f"wrote {out.relative_to(REPO)}", flush=True)


def cmd_validate(a: argparse.Namespace) -> None:
    validate.validate(_cores(a.cores), a.levels, a.presets, a.runs, _options(a), a.out, a.extend)


def cmd_table(a: argparse.Namespace) -> None:
    if a.write:
        (RESULTS / TABLE_FILE).write_text(table_file(_cores(a.cores), a.levels))
        print(f"wrote {(RESULTS / TABLE_FILE).relative_to(REPO)}")
    else:
        sys.stdout.write(table(_cores(a.cores), a.levels))


def cmd_check_records(a: argparse.Namespace) -> None:
    if a.pending_cores:
        for name in pending_cores(_cores(a.cores)):
            print(name)
        return
    ck = check_reports(_cores(a.cores))
    if not a.cores:
        check_designs(ck)
        kind, what = cosim_mlkem.check_committed()
        {"current": ck.current, "stale": ck.stale}.get(kind, ck.mismatch).append(what)
        validate.check_validations(ck, flow_cores())
    for kind, items in (("stale", ck.stale), ("orphan", ck.orphan), ("mismatch", ck.mismatch)):
        for item in items:
            print(f"{kind}: {item}")
    print(
        f"check-records: {len(ck.current)} current, {len(ck.stale)} stale, "
        f"{len(ck.orphan)} orphan, {len(ck.mismatch)} mismatched"
    )
    if a.strict and not ck.ok:
        sys.exit(1)


def cmd_cosim(a: argparse.Namespace) -> None:
    for core in _cores(a.cores):
        for level in a.levels:
            cosim.cosim(core, level, a.random, a.kat, a.seed)


def cmd_cosim_mlkem(a: argparse.Namespace) -> None:
    cosim_mlkem.cosim_mlkem(a.count, a.seed, a.commit, a.wait)


def cmd_design_params(a: argparse.Namespace) -> None:
    sys.stdout.write(design.params_text(design.read(a.file)))


def cmd_placement(a: argparse.Namespace) -> None:
    if a.design is not None:  # the design's level and parameters
        cosim.run_design(design.read(a.design), a.kat, a.random, a.wait)
        return
    for level in a.levels:
        if a.placement is not None:
            placement = a.placement
        else:
            out = build_dir() / "cosim" / "placements" / f"{a.device}.txt"
            placement = cosim.plan_placement(a.device, level, out)
        cosim.run_placement(placement, level, a.kat, a.wait)


def cmd_measure(a: argparse.Namespace) -> None:
    measure.main(a.design, a.reports, a.random, a.kat, a.json, _options(a), cosim=not a.no_cosim)


def cmd_depth(a: argparse.Namespace) -> None:
    for core in _cores(a.cores):
        for job in synth_jobs(core, a.levels, a.presets):
            out = build_dir() / "depth" / f"{core.name}_{job.name}.txt"
            print(f"{core.name} {job.name}: {out}", flush=True)
            print(depth.write(job, out, a.limit, a.paths), flush=True)


def cmd_list(a: argparse.Namespace) -> None:
    for core in _cores(a.cores):
        configs = [*core.presets, *(f"sweep:{s}" for s in core.sweeps)]
        print(f"{core.name} ({core.core.vlnv}): {' '.join(configs)}")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="hwflow", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)

    def command(name: str, fn: object, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help)
        p.set_defaults(fn=fn)
        p.add_argument("--cores", nargs="+", default=None, help="flow cores (default: all)")
        return p

    def executor_options(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--scheduler",
            default=None,
            help="a Dask scheduler's address (default: $HW_SCHEDULER, else a local cluster)",
        )
        p.add_argument(
            "--workers",
            type=int,
            default=None,
            help="local workers (default: $HW_WORKERS, else the number of cores)",
        )
        p.add_argument(
            "--no-cache", action="store_true", help="run every job, even if its inputs ran before"
        )

    def with_design(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--design", type=Path, default=None, help="a bikeco design file's cores")
        return p

    command("list", cmd_list, "flow cores and their configurations")
    with_design(command("lint", cmd_lint, "Verilator -Wall on every configuration"))
    p = with_design(command("test", cmd_test, "simulate against libbike"))
    p.add_argument("--levels", nargs="+", type=int, default=[1, 3])
    p.add_argument("--random", type=int, default=100)
    p.add_argument("--kat", type=int, default=100)
    p.add_argument("--sweep", action="store_true", help="also the sweep configurations")
    p.add_argument("--presets", nargs="+", default=None, help="only these presets or sweeps")
    executor_options(p)
    p = with_design(command("synth", cmd_synth, "Yosys runs whose inputs changed"))
    p.add_argument("--levels", nargs="+", type=int, default=[1, 3])
    p.add_argument("--presets", nargs="+", default=None)
    p.add_argument("--force", action="store_true", help="rerun even if up to date")
    executor_options(p)
    p = command("depth", cmd_depth, "xc7 logic depth per register, worst paths (no record)")
    p.add_argument("--levels", nargs="+", type=int, default=[1])
    p.add_argument("--presets", nargs="+", default=None)
    p.add_argument("--limit", type=int, default=8, help="list endpoints deeper than this")
    p.add_argument("--paths", type=int, default=6, help="print the worst paths of this many")
    p = command("pnr", cmd_pnr, "ECP5 place and route; reports and records' pnr figures")
    p.add_argument("--levels", nargs="+", type=int, default=[1])
    p.add_argument("--presets", nargs="+", default=None)
    p.add_argument("--part", default=pnr.PART, help=f"an ECP5 part (default {pnr.PART})")
    p.add_argument("--force", action="store_true", help="rerun even if up to date")
    p.add_argument(
        "--stale", action="store_true", help="only the committed reports whose inputs changed"
    )
    executor_options(p)
    p = command(
        "tdp-check", cmd_tdp_check, "the bike_ram_tdp users' testbenches with a collision checker"
    )
    p.add_argument("--level", type=int, default=1)
    p.add_argument("--random", type=int, default=2)
    p.add_argument("--kat", type=int, default=2)
    p.add_argument("--presets", nargs="+", default=None)
    p = command("results", cmd_results, "write hw/results/*.json")
    p.add_argument("--levels", nargs="+", type=int, default=[1, 3])
    p.add_argument("--random", type=int, default=1000)
    p.add_argument("--kat", type=int, default=100)
    p.add_argument("--presets", nargs="+", default=None)
    executor_options(p)
    p = command("validate", cmd_validate, "many KEMs per KEM shape against libbike; records")
    p.add_argument("--levels", nargs="+", type=int, default=[1])
    p.add_argument("--presets", nargs="+", default=None)
    p.add_argument(
        "--runs",
        type=int,
        default=None,
        help="KEMs per configuration (default: "
        + ", ".join(f"{n:,} at L{lv}" for lv, n in validate.TARGET.items())
        + ")",
    )
    p.add_argument(
        "--out", type=Path, default=validate.RECORDS, help="folder of the records written"
    )
    p.add_argument(
        "--extend",
        action="store_true",
        help="add the KEMs past a current record's to it (its runs must be a shorter run's)",
    )
    executor_options(p)
    p = command("table", cmd_table, "the results table (Markdown)")
    p.add_argument("--levels", nargs="+", type=int, default=LEVELS)
    p.add_argument("--write", action="store_true", help=f"into hw/results/{TABLE_FILE}")
    p = command("check-records", cmd_check_records, "reports and records against sources")
    p.add_argument("--strict", action="store_true", help="fail on anything not current")
    p.add_argument(
        "--pending-cores",
        action="store_true",
        help="only list the cores whose results records differ from their sources",
    )
    p = command("cosim", cmd_cosim, "the driver's cosim platform on a shell device")
    p.add_argument("--levels", nargs="+", type=int, default=[1])
    p.add_argument("--random", type=int, default=4)
    p.add_argument("--kat", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p = command("cosim-mlkem", cmd_cosim_mlkem, "ML-KEM with its NTT kernels on ntt_acc")
    p.add_argument("--count", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--commit", action="store_true", help="also write results/cosim/ (committed)")
    p.add_argument("--wait", choices=["irq", "poll"], default="irq")
    dp = sub.add_parser("design-params", help="a bikeco design file's cores and parameters")
    dp.add_argument("file", type=Path)
    dp.set_defaults(fn=cmd_design_params)
    p = command("placement", cmd_placement, "libbike's KEM on a placement's devices")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--device", help="the placement bikeco plan chooses for this part")
    src.add_argument("--placement", type=Path, help="a placement file (docs/placement.md)")
    src.add_argument(
        "--design", type=Path, help="a bikeco design file: its cores' bus devices, its level"
    )
    p.add_argument("--levels", nargs="+", type=int, default=[1])
    p.add_argument("--kat", type=int, default=10)
    p.add_argument(
        "--random", type=int, default=0, help="random KEMs, each with a tampered ciphertext"
    )
    p.add_argument("--wait", choices=("irq", "poll"), default="irq")
    p = sub.add_parser("measure", help="simulate and synthesise a design file's cores")
    p.set_defaults(fn=cmd_measure)
    p.add_argument("--design", type=Path, required=True, help="a bikeco design file")
    p.add_argument("--reports", type=Path, required=True, help="folder of the synthesis reports")
    p.add_argument("--random", type=int, default=2)
    p.add_argument("--kat", type=int, default=10)
    p.add_argument("--json", type=Path, required=True, help="write the figures here")
    p.add_argument(
        "--no-cosim", action="store_true", help="no co-simulation through the bus (bike-cosim)"
    )
    executor_options(p)
    kf = sub.add_parser("kem-frontier", help="the full KEM's cycle model and frontier")
    kf.set_defaults(fn=None)
    return ap


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["kem-frontier"]:
        kem_frontier.main(args[1:])
        return
    a = parser().parse_args(args)
    a.fn(a)
