"""Whole-KEM cycles of bike_kem's full core at L1 from its units' cycle
formulas, checked against the simulated records, and the cheapest
inversion + decoder pairs that bring the whole KEM under a cycle budget
(why no parameter choice of these units meets the Zynq-7010 goal).

    python -m hwflow kem-frontier [--budget CYCLES] [--lut LUT]   (from hw/)

Formulas: ip/gf2x_inv/doc/gf2x_inv.md, ip/bike_decoder/doc/bike_decoder.md
(W = 64, Keccak one round per cycle). The terms outside the units (sampling,
hashing, transfers) are measured once, from the small record; the check
then requires the medium record to come out exactly too.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import sys

from hwflow.levels import rdt
from hwflow.records import record_path

R, D, T = rdt(1)
W = 64
N = math.ceil(R / W)
H = (R - 1) // 2
HA = H // W + 1  # words of a symmetric product's half operand
# symmetric products of the chain over H - 1 (as tbw::chain_bits): one per
# bit below the top, one more where the bit is set
MS = sum(1 + int(b) for b in bin(H - 1)[3:])

# LUTs of each unit synthesised alone with the full core's parameters (Yosys
# 0.70 synth_xilinx, L1), and of the rest of the small full core
# (Keccak round, sequencer, memories' ports, packer, bus registers: its
# record's LUT less its inversion and decoder, see rest_lut).
INV_LUT = {  # (E, L, P): LUT
    (4, 0, 0): 3598,
    (4, 2, 0): 6778,
    (4, 3, 0): 8569,
    (4, 1, 1): 8539,
    (4, 2, 1): 10762,
    (8, 2, 1): 11117,
}
DEC_LUT = {1: 5253, 2: 6281, 4: 8181}  # P, no prefetch, no tiles


def inv_cycles(e: int, levels: int, par: int) -> int:
    m = math.ceil(N / (1 << levels))
    np_ = m << levels
    batches = int(3 ** (levels - par))
    c = batches * (m * m + 1)
    # with L = 0 the Comba rows stop at HA; with levels, 2 of 3 leaves survive
    leaves = math.ceil(2 * batches / 3) if levels else 0
    c_sym = HA * m + 1 if levels == 0 else leaves * (m * m + 1)
    s = N * W // e
    s_h = HA * W // e + N - HA
    t_pair = s + np_ + c + 8
    t_sym = s_h + np_ + c_sym + N + 10
    return N + 2 * t_pair + MS * t_sym + s + 1


def decode_cycles(p: int, nt: int = 1) -> int:
    g = math.ceil(D / p)
    step = 10 + g * p + N + 2 * g * (N + nt) + 11 + N  # no prefetch
    return 2 * D + N + 7 * step + 2 * N


def product_cycles(m: int, p: int, nt: int = 1) -> int:
    g = math.ceil(D / p)
    gm = math.ceil(math.ceil(m / 2) / p)
    return m + 1 + g * p + N + 1 + gm * (N + nt) + 3


def unit_cycles(inv: int, p: int, nt: int = 1) -> tuple[int, int, int]:
    """KeyGen, Encaps, Decaps without the terms outside the units."""
    return (
        inv + product_cycles(D, p, nt),
        product_cycles(T, p, nt),
        decode_cycles(p, nt) + product_cycles(D, p, nt),
    )


def record(preset: str) -> dict[str, int]:
    rec = json.loads(record_path("bike_kem_full", preset, 1).read_text())
    return {k: int(v) for k, v in rec["cycles"].items()}


@functools.cache
def rest_lut() -> int:
    rec = json.loads(record_path("bike_kem_full", "small", 1).read_text())
    return int(rec["resources"]["lut"]) - INV_LUT[(4, 0, 0)] - DEC_LUT[1]


@functools.cache
def fixed_terms() -> tuple[int, int, int]:
    small = record("small")
    kg, en, de = unit_cycles(inv_cycles(4, 0, 0), 1)
    return small["keygen"] - kg, small["encaps"] - en, small["decaps"] - de


def kem(inv: int, p: int, nt: int = 1) -> tuple[int, int, int]:
    fk, fe, fd = fixed_terms()
    kg, en, de = unit_cycles(inv, p, nt)
    return kg + fk, en + fe, de + fd


def check() -> None:
    """The medium record (InvE 8, 2 levels, 3 engines; decoder P = 3 in tiles
    of 32 words) from the formulas and the small record's fixed terms."""
    got = kem(inv_cycles(8, 2, 1), 3, nt=math.ceil(N / 32))
    want = record("medium")
    if got != (want["keygen"], want["encaps"], want["decaps"]):
        sys.exit(f"model {got} differs from the medium record {want}")


def dec_lut(p: int) -> float:
    if p in DEC_LUT:
        return float(DEC_LUT[p])
    return DEC_LUT[1] + (DEC_LUT[4] - DEC_LUT[1]) * (p - 1) / 3  # interpolated


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="hwflow kem-frontier", description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=int, default=288000, help="whole-KEM cycles")
    ap.add_argument("--lut", type=int, default=17600, help="device LUTs (Zynq-7010)")
    a = ap.parse_args(argv)
    check()
    print(f"model: small and medium records reproduced; rest of the core {rest_lut()} LUT")
    print(f"cheapest decoder per inversion for under {a.budget:,} cycles:")
    for (e, lv, par), lut in INV_LUT.items():
        ic = inv_cycles(e, lv, par)
        for p in range(1, D + 1):
            if sum(kem(ic, p)) <= a.budget:
                total = rest_lut() + lut + dec_lut(p)
                print(
                    f"  inv E={e} L={lv} P={par}: {lut} LUT, {ic} cycles; decoder P={p}: "
                    f"whole KEM {sum(kem(ic, p)):,}, about {total:,.0f} LUT"
                )
                break
        else:
            print(f"  inv E={e} L={lv} P={par}: {lut} LUT, {ic} cycles; no decoder is enough")
    print(f"fastest within {a.lut:,} LUT (no room for the bus):")
    fits = [
        (sum(kem(inv_cycles(*k), p)), rest_lut() + lut + dec_lut(p), k, p)
        for k, lut in INV_LUT.items()
        for p in range(1, 9)
        if rest_lut() + lut + dec_lut(p) <= a.lut
    ]
    for cyc, total, k, p in sorted(fits)[:3]:
        print(f"  inv E,L,P={k} decoder P={p}: whole KEM {cyc:,} cycles, about {total:,.0f} LUT")
