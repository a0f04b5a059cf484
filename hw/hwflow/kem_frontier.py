"""The KEM cores' cycle model against their records, and what the cheapest full core that
meets a whole-KEM cycle budget takes (why no parameter choice of today's units meets the
Zynq-7010 goal).

    python -m hwflow kem-frontier [--budget CYCLES] [--device PART]   (from hw/)

The model is bikeco's (bikeco.hwcycles: the units' documented formulas, one source for the
designer and the flow; bikeco.hwarea: the fitted areas); this command requires every
committed bike_kem record's cycles from it exactly, then asks `bikeco design`'s solver.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bikeco import design as ds
from bikeco import hwcycles
from bikeco.design_cli import DEFAULT_ROUTING_MARGIN, gap_text
from bikeco.devices import DeviceCatalog
from bikeco.hwarea import default_model
from bikeco.hwrecord import load_record
from bikeco.interconnect import calibrate
from hwflow.paths import HW, RESULTS


def check() -> int:
    """Every bike_kem record's cycles from the model; exits naming the first that differs."""
    n = 0
    for path in sorted(RESULTS.glob("bike_kem_*.json")):
        rec = load_record(path)
        params = {k: v for k, v in rec.params.items() if isinstance(v, int)}
        if params.get("KeccakSerial", 0):
            continue
        got = hwcycles.kem_cycles(rec.level, rec.core.removeprefix("bike_kem_"), params)
        if got != rec.cycles:
            sys.exit(f"model {got} differs from {path.name}: {rec.cycles}")
        n += 1
    return n


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="hwflow kem-frontier", description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=int, default=288000, help="whole-KEM cycles")
    ap.add_argument("--device", default="xc7z010", help="the part (default: Zynq-7010)")
    a = ap.parse_args(argv)
    print(f"model: {check()} KEM core records reproduced exactly")
    ctx = ds.Context(
        DeviceCatalog().get(a.device),
        1,
        "kem",
        100.0,
        ds.profile_for(None, 1),
        calibrate("baremetal"),
        default_model(Path(HW)),
        routing_margin=DEFAULT_ROUTING_MARGIN,
    )
    _, ev = ds.design(ctx)
    print(gap_text(ctx, ev, a.budget))
