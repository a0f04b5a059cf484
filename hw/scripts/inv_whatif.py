#!/usr/bin/env python3
"""What the inversion by divsteps (ip/gf2x_inv_divstep) would buy the Z-7010 goal.

Two Markdown tables from the committed records and bikeco's models:

1. every L1 record of gf2x_inv and gf2x_inv_divstep: cycles, LUT, FF, BRAM36, LUT depth and
   LUT x cycles;
2. the full KEM core at L1 (bikeco.hwcycles for the cycles, bikeco.hwarea for the area, the
   shell's bus port added): the design of fewest LUTs whose KeyGen + Encaps + Decaps cycles
   stay within the goal, with the KeyGen inversion either gf2x_inv (every parameter choice of
   `bikeco design`) or a gf2x_inv_divstep record at the KEM's word width (its unit-alone
   LUTs and cycles in place of gf2x_inv's). The device's LUTs are compared after the
   designer's default 5 % routing margin.

A what-if, not a design: bike_kem cannot instantiate gf2x_inv_divstep yet
(ip/gf2x_inv_divstep/doc, "Using it in bike_kem").

    ../.venv/bin/python scripts/inv_whatif.py [--goal 288000] [--device-lut 17600]
"""

import argparse
import itertools
from pathlib import Path

from bikeco import hwarea
from bikeco import hwcycles as hc
from bikeco.design import Space, kem_params
from bikeco.hwrecord import HwRecord, load_record

HW = Path(__file__).resolve().parent.parent
MARGIN = 0.05  # bikeco design's default routing margin


def records(core: str) -> list[HwRecord]:
    recs = (load_record(p) for p in sorted((HW / "results").glob(f"{core}_*_L1.json")))
    return [r for r in recs if r.core == core]


def unit_table() -> str:
    lines = [
        "| core | preset | parameters | cycles | LUT | FF | BRAM36 | LUT depth | LUT x cycles |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for core in ("gf2x_inv", "gf2x_inv_divstep"):
        for r in records(core):
            cyc, res = r.cycles["inv"], r.resources
            params = " ".join(f"{k}={v}" for k, v in r.params.items())
            lines.append(
                f"| {core} | {r.preset} | {params} | {cyc:,} | {res.lut:,} | {res.ff:,} | "
                f"{res.bram36:g} | {r.lut_depth} | {cyc * res.lut / 1e9:.2f} x 10^9 |"
            )
    return "\n".join(lines)


def kem_table(goal: int, device_lut: int) -> str:
    model = hwarea.default_model(HW)
    g = hc.geometry(1)
    sp = Space()
    alts: dict[str, tuple[float, int] | None] = {"gf2x_inv (chosen by the model)": None}
    for r in records("gf2x_inv_divstep"):
        if r.params.get("W") == hc.KEM_W:
            label = f"gf2x_inv_divstep {r.preset} ({r.params['K']}/{r.params['S']})"
            alts[label] = (float(r.resources.lut), r.cycles["inv"])
    lines = [
        f"| KeyGen inversion | inversion LUT | inversion cycles | KEM cycles | LUT with bus "
        f"(+{MARGIN:.0%}) | fits {device_lut:,} |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for label, alt in alts.items():
        best: tuple[float, float, int, int] | None = None
        for rpc, inv, dec in itertools.product(sp.rounds_per_cycle, sp.inv, sp.decoder):
            p = kem_params(rpc, inv, dec, 1)
            units = hwarea.kem_units("full", p)
            lut = {u: model.unit_raw(u, up, 1)["lut"] for u, up in units.items()}
            inv_lut, inv_cyc = lut["gf2x_inv"], hc.inv_cycles(g, *inv)
            if alt is not None:
                if inv != sp.inv[0]:
                    continue  # the inversion's parameters do not matter
                inv_lut, inv_cyc = alt
            cycles = sum(hc.kem_cycles(1, "full", p).values()) - hc.inv_cycles(g, *inv) + inv_cyc
            if cycles > goal:
                continue
            total = model.kem_base_raw("full", 1)["lut"] + hwarea.SHELL_LUT
            total += sum(v for u, v in lut.items() if u != "gf2x_inv") + inv_lut
            if best is None or total < best[0]:
                best = (total, inv_lut, inv_cyc, cycles)
        if best is None:
            lines.append(f"| {label} | - | - | none within {goal:,} | - | - |")
            continue
        total, inv_lut, inv_cyc, cycles = best
        with_margin = total * (1 + MARGIN)
        fits = "yes" if with_margin <= device_lut else f"no ({with_margin / device_lut:.2f}x)"
        lines.append(
            f"| {label} | {inv_lut:,.0f} | {inv_cyc:,} | {cycles:,} | {with_margin:,.0f} | {fits} |"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--goal", type=int, default=288_000, help="whole-KEM cycles at L1")
    ap.add_argument("--device-lut", type=int, default=17_600, help="the device's LUTs")
    a = ap.parse_args()
    print(unit_table())
    print()
    print(kem_table(a.goal, a.device_lut))


if __name__ == "__main__":
    main()
