"""``bikeco plan --kem mlkem768``: ML-KEM's placement on one device (:mod:`bikeco.mlkem`),
printed as text or JSON."""

from __future__ import annotations

import argparse
import json

from bikeco.devices import RESOURCES, DeviceCatalog
from bikeco.errors import BikecoError
from bikeco.interconnect import calibrate
from bikeco.mlkem import (
    KEM_OPS,
    MlkemPlan,
    Problem,
    core_presets,
    device_ops,
    param_set,
    plan,
    seed004_a53,
)
from bikeco.paths import default_hw_results
from bikeco.tables import Cell, format_table


def parse_objective(text: str) -> tuple[str, ...]:
    ops = tuple(o.strip() for o in text.split(",") if o.strip())
    bad = [o for o in ops if o not in KEM_OPS]
    if not ops or bad:
        raise BikecoError(
            f"--objective takes KEM operations from {', '.join(KEM_OPS)}, got '{text}'"
        )
    return ops


def problem_from_args(args: argparse.Namespace) -> Problem:
    """The ML-KEM problem the ``plan`` options describe."""
    ps = param_set(args.kem)
    device = DeviceCatalog(args.devices_file).get(args.device)
    presets = core_presets(args.hw_results or default_hw_results(), args.clock_mhz)
    return Problem(
        device=device,
        params=ps,
        software=seed004_a53(),
        presets=tuple(presets),
        ops=tuple(device_ops()),
        transfer=calibrate(args.interconnect),
        cap=args.cap,
        bus_overhead={k: float(getattr(args, f"bus_{k}")) for k in RESOURCES},
        objective=parse_objective(args.objective),
    )


def print_plan(p: MlkemPlan) -> None:
    pb = p.problem
    d = pb.device
    print(
        f"ML-KEM plan for {d.name} ({d.label}), {pb.params.name} (k = {pb.params.k}), "
        f"minimising {' + '.join(pb.objective)}"
    )
    print(f"software: {pb.software.how}")
    ic = pb.transfer
    print(
        f"interconnect: {ic.name} ({ic.fixed_us:.2f} us/call + {ic.us_per_byte * 1e3:.3f} "
        f"ns/byte); utilisation cap {pb.cap:.0%}"
    )
    print()
    rows: list[list[Cell]] = [["+".join(c.works), c.runs_on, c.device_op] for c in p.choices]
    print(format_table(["work", "runs on", "device op"], rows))
    print()
    if p.presets:
        rows = [
            [c.name, c.origin, f"{c.clock_mhz:g}", *(f"{c.area[k]:g}" for k in RESOURCES)]
            for c in p.presets
        ]
        print(format_table(["core", "record", "MHz", "LUT", "FF", "DSP", "BRAM36"], rows))
        print()
    rows = []
    for c in p.choices:
        for op in KEM_OPS:
            r = c.per_op[op]
            rows.append(
                [
                    "+".join(c.works),
                    op,
                    f"{r['units']:g}",
                    f"{r['calls']:g}",
                    f"{r['sw_ms'] * 1e3:.1f}",
                    f"{r['device_ms'] * 1e3:.1f}",
                    f"{r['transfer_ms'] * 1e3:.1f}",
                    f"{r['total_ms'] * 1e3:.1f}",
                ]
            )
    header = ["work", "op", "units", "calls", "sw us", "device us", "bus us", "chosen us"]
    print(format_table(header, rows))
    print()
    used, avail = p.used(), pb.limits()
    rows = [[k, f"{used[k]:g}", f"{avail[k]:g}"] for k in RESOURCES]
    print(format_table(["resource", "used", "available"], rows))
    print()
    rows = [
        [
            op,
            f"{p.sw_only_ms(op) * 1e3:.1f}",
            f"{p.latency_ms(op) * 1e3:.1f}",
            f"{p.sw_only_ms(op) / p.latency_ms(op):.2f}x",
        ]
        for op in KEM_OPS
    ]
    print(format_table(["KEM op", "software us", "planned us", "speed-up"], rows))
    print(f"(each op includes {pb.software.rest_us:.1f} us that stays in software)")
    for n in p.notes:
        print(f"note: {n}")


BIKE_ONLY: dict[str, object] = {
    "level": 1,
    "role": "kem",
    "hw_source": "seed000",
    "grain": "auto",
    "profile": None,
    "seed000_steps": "final",
    "placement_out": None,
    "bike_bin": None,
    "runs": None,
}
"""``plan`` options that mean something for BIKE only, with their defaults."""


def run(args: argparse.Namespace) -> int:
    """``bikeco plan --kem mlkem...``."""
    given = [k for k, v in BIKE_ONLY.items() if getattr(args, k) != v]
    if given:
        opts = ", ".join("--" + k.replace("_", "-") for k in given)
        raise BikecoError(f"{opts}: BIKE's options, not for --kem {args.kem}")
    p = plan(problem_from_args(args))
    if args.json:
        print(json.dumps(p.to_json(), indent=2))
    else:
        print_plan(p)
    return 0
