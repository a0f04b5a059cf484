"""The ``bikeco`` command line: devices, profile, plan, design, verify, report."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bikeco import __version__, design_cli, mlkem_cli
from bikeco.bench import measure
from bikeco.devices import RESOURCES, DeviceCatalog
from bikeco.errors import BikecoError
from bikeco.explore import GRAINS, Constraints, Plan, Problem, explore, resolve_role
from bikeco.hwmodels import HW_SOURCES, coverage
from bikeco.inputs import HwChoice, get_profile, get_units, parse_steps
from bikeco.interconnect import INTERCONNECTS, calibrate
from bikeco.levels import LEVELS
from bikeco.paths import default_hw_results, given_bike_bin
from bikeco.placement import placement_text
from bikeco.profiles import PRIMITIVES, SoftwareProfile
from bikeco.tables import Cell, format_table


def _add_device_file(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--devices-file",
        type=Path,
        action="append",
        default=[],
        help="extra devices (CSV with the columns of devices.csv, or JSON list); repeatable",
    )


BIKE_BIN_HELP = "a bike binary to measure (default: $BIKE_BIN, else libbike through the binding)"


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="bikeco", description="Co-design explorer for BIKE on CPU+FPGA systems."
    )
    ap.add_argument("--version", action="version", version=f"bikeco {__version__}")
    sub = ap.add_subparsers(dest="command", required=True)

    d = sub.add_parser("devices", help="list the devices and their resource budgets")
    _add_device_file(d)
    d.add_argument("--json", action="store_true", help="print JSON")

    pr = sub.add_parser("profile", help="measure this machine (libbike's bench record)")
    pr.add_argument("--bike-bin", type=Path, default=None, help=BIKE_BIN_HELP)
    pr.add_argument("--level", type=int, default=None, help="security level (default: the tool's)")
    pr.add_argument("--runs", type=int, default=None, help="runs per measurement")
    pr.add_argument("--out", type=Path, default=None, help="save the raw bench JSON here")
    pr.add_argument("--json", action="store_true", help="print the raw bench JSON")

    pl = sub.add_parser("plan", help="choose what runs in hardware on one device")
    pl.add_argument("--device", required=True, help="e.g. xc7z010, z7010, Z-7010, xc7a35t")
    pl.add_argument(
        "--kem",
        default="bike",
        help="bike (default), or mlkem512, mlkem768, mlkem1024: ML-KEM's operations on seed "
        "004's Cortex-A53 and our NTT and Keccak cores (uses --device, --interconnect, --cap, "
        "--bus-*, --clock-mhz, --hw-results, --json, --objective)",
    )
    pl.add_argument(
        "--objective",
        default="keygen,encaps,decaps",
        help="ML-KEM only: the KEM operations whose summed latency the plan minimises",
    )
    pl.add_argument("--level", type=int, default=1, choices=tuple(LEVELS))
    pl.add_argument("--role", default="kem", help="kem (whole KEM), client or server")
    pl.add_argument("--hw-source", default="seed000", choices=HW_SOURCES)
    pl.add_argument(
        "--grain",
        default="auto",
        choices=("auto", *GRAINS),
        help="auto: primitive for seed000, operation otherwise",
    )
    pl.add_argument(
        "--profile",
        default=None,
        help="software profile: seed000-a9 (default at L1), a9-ref (default at L3), a53-ct, "
        "i5-ct, i5-avx2, measured (measures this machine), or a saved bench JSON file",
    )
    pl.add_argument("--interconnect", default="baremetal", choices=INTERCONNECTS)
    pl.add_argument("--cap", type=float, default=1.0, help="utilisation cap, 0 < cap <= 1")
    for k in RESOURCES:
        pl.add_argument(
            f"--bus-{k}", type=float, default=0.0, help=f"{k} added per placed accelerator"
        )
    pl.add_argument("--clock-mhz", type=float, default=None, help="override accelerator clocks")
    pl.add_argument("--seed000-steps", default="final", help="final (default), all, or a list")
    pl.add_argument("--hw-results", type=Path, default=None, help="default: hw/results")
    pl.add_argument("--bike-bin", type=Path, default=None, help=BIKE_BIN_HELP)
    pl.add_argument("--runs", type=int, default=None, help="bench runs for --profile measured")
    pl.add_argument("--json", action="store_true", help="print the plan as JSON")
    pl.add_argument(
        "--placement-out",
        type=Path,
        default=None,
        help="also write the plan as the driver's placement description (docs/placement.md)",
    )
    _add_device_file(pl)

    design_cli.add_parser(sub)
    vf = sub.add_parser(
        "verify", help="build, simulate (KAT, bit-exact) and synthesise a design; record it"
    )
    vf.add_argument("design", type=Path, help="a design file (bikeco design)")
    vf.add_argument("--random", type=int, default=2, help="random KEMs per core (default 2)")
    vf.add_argument("--kat", type=int, default=10, help="KAT records per core (default 10)")
    vf.add_argument("--attempts", type=int, default=3, help="builds at most, refits included")
    vf.add_argument("--out", type=Path, default=None, help="default: hw/results/designs/<name>/")
    vf.add_argument(
        "--keep-attempts",
        action="store_true",
        help="the design is the one the record in the folder ended with (a refit): keep that "
        "record's earlier builds",
    )
    vf.add_argument("--scheduler", default=None, help="a Dask scheduler for the flow's jobs")
    vf.add_argument("--workers", type=int, default=None, help="local Dask workers (default: cores)")
    vf.add_argument("--no-cache", action="store_true", help="rerun every simulation and synthesis")
    _add_device_file(vf)

    rp = sub.add_parser("report", help="write the co-design report (the main job)")
    rp.add_argument("--out", type=Path, default=Path("report"), help="output folder (report/)")
    rp.add_argument("--bike-bin", type=Path, default=None, help=BIKE_BIN_HELP)
    rp.add_argument("--bench-json", type=Path, default=None, help="use a saved bench JSON")
    rp.add_argument("--no-bench", action="store_true", help="do not measure this machine")
    rp.add_argument("--runs", type=int, default=11, help="bench runs (default 11)")
    rp.add_argument("--hw-results", type=Path, default=None, help="default: hw/results")
    rp.add_argument("--quiet", action="store_true", help="no progress on the terminal")
    return ap


def _cmd_devices(args: argparse.Namespace) -> int:
    cat = DeviceCatalog(args.devices_file)
    devs = cat.all()
    if args.json:
        print(json.dumps([d.__dict__ for d in devs], indent=2))
        return 0
    rows: list[list[Cell]] = [
        [d.name, d.label, d.family, d.lut, d.ff, d.dsp, f"{d.bram36:g}", d.cpu or "-"] for d in devs
    ]
    print(format_table(["device", "label", "family", "LUT", "FF", "DSP", "BRAM36", "CPU"], rows))
    return 0


def _print_profile(prof: SoftwareProfile) -> None:
    print(f"{prof.name} (level {prof.level}): {prof.description}")
    rows = []
    for p in PRIMITIVES:
        parts = ", ".join(f"{op} {ms:.4g}" for op, ms in prof.breakdown[p].items())
        rows.append([p, f"{prof.primitives[p]:.4g}", parts])
    print(format_table(["primitive", "ms", "breakdown (ms)"], rows))


def _cmd_profile(args: argparse.Namespace) -> int:
    raw, profiles, _ = measure(args.bike_bin or given_bike_bin(), args.level, args.runs)
    if args.out:
        args.out.write_text(json.dumps(raw, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(raw, indent=2))
        return 0
    for prof in profiles:
        _print_profile(prof)
        print()
    if args.out:
        print(f"saved to {args.out}")
    return 0


def print_plan(plan: Plan) -> None:
    """Human-readable plan."""
    pb = plan.problem
    d = pb.device
    print(
        f"Plan for {d.name} ({d.label}), BIKE level {pb.level}, role {pb.role}, "
        f"{pb.grain} grain, hardware source {pb.hw_source}"
    )
    print(f"software profile: {pb.profile.name}: {pb.profile.description}")
    ic = pb.transfer
    print(
        f"interconnect: {ic.name}"
        + (
            ""
            if ic.name == "none"
            else f" ({ic.fixed_us:.2f} us/call + {ic.bandwidth_mb_s:.0f} MB/s)"
        )
        + f"; utilisation cap {pb.constraints.cap:.0%}"
    )
    print()
    print(format_table(["item", "runs in"], [[k, v] for k, v in plan.placement.items()]))
    print()
    if plan.units:
        rows = [
            [u.name, f"{u.clock_mhz:g}", *(f"{u.resources[k]:g}" for k in RESOURCES)]
            for u in plan.units
        ]
        print(format_table(["accelerator", "MHz", "LUT", "FF", "DSP", "BRAM36"], rows))
        print()
        rows = [
            [a.target, a.unit, f"{a.sw_ms:.3f}", f"{a.hw_ms:.3f}", f"{a.transfer_ms:.4f}"]
            for a in plan.assignments
        ]
        print(format_table(["target", "on", "sw ms", "hw ms", "transfer ms"], rows))
        print()
    rows = [
        [k, f"{plan.used[k]:g}", f"{plan.available[k]:g}", f"{plan.left[k]:g}"] for k in RESOURCES
    ]
    print(format_table(["resource", "used", "available", "left"], rows))
    print()
    rows = [
        [
            p,
            f"{r['sw_ms']:.3f}",
            f"{r['hw_ms']:.3f}",
            f"{r['transfer_ms']:.4f}",
            f"{r['total_ms']:.3f}",
        ]
        for p, r in plan.per_primitive.items()
    ]
    print(format_table(["primitive", "sw ms", "hw ms", "transfer ms", "total ms"], rows))
    print()
    print(
        f"total {plan.total_ms:.2f} ms; software alone {plan.sw_only_ms:.2f} ms; "
        f"speed-up {plan.speedup:.2f}x"
    )
    for n in plan.notes:
        print(f"note: {n}")


def _cmd_plan(args: argparse.Namespace) -> int:
    if args.kem != "bike":
        return mlkem_cli.run(args)
    cat = DeviceCatalog(args.devices_file)
    device = cat.get(args.device)
    role = resolve_role(args.role)
    grain = args.grain
    if grain == "auto":
        grain = "primitive" if args.hw_source == "seed000" else "operation"
    profile = get_profile(args.profile, args.level, args.bike_bin or given_bike_bin(), args.runs)
    choice = HwChoice(
        source=args.hw_source,
        seed000_steps=parse_steps(args.seed000_steps),
        results_dir=args.hw_results or default_hw_results(),
        clock_mhz=args.clock_mhz,
    )
    units = get_units(choice, args.level)
    if not units:
        raise BikecoError(
            f"no hardware cost models for level {args.level} from source '{args.hw_source}'"
            + (" (seed 000 gives level 1 only)" if args.hw_source == "seed000" else "")
        )
    bus = {k: float(getattr(args, f"bus_{k}")) for k in RESOURCES}
    problem = Problem(
        device=device,
        level=args.level,
        role=role,
        profile=profile,
        units=tuple(units),
        transfer=calibrate(args.interconnect),
        constraints=Constraints(cap=args.cap, bus_overhead=bus),
        grain=grain,
        hw_source=args.hw_source,
    )
    plan = explore(problem)
    if args.hw_source in ("bikeco", "all"):
        cov = coverage([u for u in units if u.source == "bikeco"], list(plan.placement))
        missing = [t for t, us in cov.items() if not us and not t.endswith(".other")]
        if missing:
            plan.notes.append(
                "not covered by any bikeco core yet (stays in software"
                + (" or uses a seed 000 module" if args.hw_source == "all" else "")
                + "): "
                + ", ".join(missing)
            )
    if args.placement_out is not None:
        args.placement_out.write_text(placement_text(plan.to_json()))
    if args.json:
        print(json.dumps(plan.to_json(), indent=2))
    else:
        print_plan(plan)
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    from bikeco.verify import VerifyOptions, print_record, verify

    if args.attempts < 1 or args.random < 0 or args.kat < 0:
        raise BikecoError("--attempts must be at least 1, --random and --kat not negative")
    if args.random + args.kat == 0:
        raise BikecoError("nothing to simulate: give --random or --kat")
    executor = [*(["--scheduler", args.scheduler] if args.scheduler else [])]
    executor += [*(["--workers", str(args.workers)] if args.workers else [])]
    executor += ["--no-cache"] if args.no_cache else []
    rec = verify(
        VerifyOptions(
            design=args.design,
            random=args.random,
            kat=args.kat,
            attempts=args.attempts,
            out=args.out,
            keep_attempts=args.keep_attempts,
            executor_args=executor,
            devices_files=args.devices_file,
        )
    )
    print_record(rec)
    return 0 if rec.fits and rec.bit_exact else 3


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "devices":
            return _cmd_devices(args)
        if args.command == "profile":
            return _cmd_profile(args)
        if args.command == "plan":
            return _cmd_plan(args)
        if args.command == "design":
            return design_cli.run(args)
        if args.command == "verify":
            return _cmd_verify(args)
        from bikeco.report import ReportOptions, write_report

        return write_report(
            ReportOptions(
                out=args.out,
                bike_bin=args.bike_bin or given_bike_bin(),
                bench_json=args.bench_json,
                run_bench=not args.no_bench,
                runs=args.runs,
                hw_results=args.hw_results or default_hw_results(),
                progress=not args.quiet,
            )
        )
    except BikecoError as exc:
        print(f"bikeco: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("bikeco: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
