"""Seed 004's NTT tables (Table 3: the 1024-point NTT; Table 4: resources per scheme and
level) with our NTT accelerator's records (``hw/results/ntt_<preset>_L1.json``) beside the
published rows.

:func:`seed004_section` computes the section from the report's inputs; the report
(:mod:`bikeco.report_data`, :mod:`bikeco.report_doc`) only carries and lays it out. Our LUTs
are Yosys ``synth_xilinx`` counts, the seed's Vivado post-place-and-route ones (Yosys counts
about 1.22x Vivado's on the same design: ``shared/docs/hw-flow.md``); the comparisons use the
counts as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bikeco.data_files import read_table

TABLE3_CYCLES = 4776
"""The seed's 1024-point NTT (BD/HLS, Table 3): cycles and LUTs, the goal's bounds."""
TABLE3_LUT = 1110
# Seed 004's schemes -> our preset of the same ring and transform (hw/ip/ntt/ntt.core)
PRESET_OF: dict[str, str] = {
    "newhope1": "newhope512",
    "newhope5": "newhope1024",
    "kyber_r1_1": "kyber1",
    "kyber_r1_3": "kyber1",
    "kyber_r1_5": "kyber1",
    "kyber_r2_1": "mlkem",
    "kyber_r2_3": "mlkem",
    "kyber_r2_5": "mlkem",
}

Row = list[str | int | float]


@dataclass(frozen=True)
class SeedTable:
    name: str
    header: list[str]
    rows: list[Row]


@dataclass(frozen=True)
class Seed004Section:
    """The section's tables and the sentences that go with them."""

    tables: tuple[SeedTable, ...]
    notes: tuple[str, ...]


def _ntt_records(records: tuple[tuple[str, dict[str, Any]], ...]) -> dict[str, dict[str, Any]]:
    """Our NTT records by preset."""
    return {str(r["preset"]): r for _, r in records if r["core"] == "ntt"}


def _g(x: float) -> str:
    return f"{x:g}"


def _table3(ours: Mapping[str, dict[str, Any]]) -> tuple[SeedTable, list[str]]:
    rows: list[Row] = []
    for r in read_table("ntt1024_004_table3.csv"):
        lut, cyc = int(r["lut"]), int(r["cycles"])
        rows.append(
            [
                f"published: {r['work']}",
                r["bram18k"],
                r["dsp"],
                r["ff"],
                r["lut"],
                r["cycles"],
                r["cycles_relative"],
                lut * cyc,
            ]
        )
    notes = []
    rec = ours.get("newhope1024")
    if rec is None:
        notes.append("No record of our newhope1024 preset: the 1024-point NTT has no figures.")
    else:
        res, cyc = rec["resources"], int(rec["cycles"]["ntt"])
        lut = int(res["lut"])
        rows.append(
            [
                "ours: ntt newhope1024 (B=2, KRED)",
                _g(2 * float(res["bram36"])),
                res["dsp"],
                res["ff"],
                lut,
                cyc,
                f"{cyc / TABLE3_CYCLES:.2f}",
                lut * cyc,
            ]
        )
        met = cyc <= TABLE3_CYCLES and lut <= TABLE3_LUT
        notes.append(
            f"Goal (1024-point NTT in at most {TABLE3_CYCLES:,} cycles at no more than "
            f"{TABLE3_LUT:,} LUT): {'met' if met else 'not met'}: {cyc:,} cycles "
            f"({cyc / TABLE3_CYCLES:.2f}x), {lut:,} Yosys LUT ({lut / TABLE3_LUT:.2f}x); "
            f"LUT x cycles {lut * cyc / (TABLE3_LUT * TABLE3_CYCLES):.2f}x the seed's."
        )
    header = ["work", "BRAM18K", "DSP", "FF", "LUT", "cycles", "cycles rel.", "LUT x cycles"]
    return SeedTable("seed004_table3", header, rows), notes


def _table4(ours: Mapping[str, dict[str, Any]]) -> tuple[SeedTable, list[str]]:
    rows: list[Row] = []
    wins = 0
    losses: list[str] = []
    for r in read_table("ntt_resources_004_table4.csv"):
        units = int(r["ntt_units"])
        rec = ours.get(PRESET_OF[r["algorithm"]])
        pub: Row = [r["flow"], r["algorithm"], units, r["dsp"], r["bram36"], r["lut"], r["ff"]]
        if rec is None:
            rows.append([*pub, "-", "-", "-", "-", "-", "-", "-"])
            continue
        res = rec["resources"]
        lut = units * int(res["lut"])
        ratio = lut / float(r["lut"])
        if ratio <= 1:
            wins += 1
        else:
            losses.append(f"{r['flow']} {r['algorithm']} ({ratio:.2f}x)")
        rows.append(
            [
                *pub,
                str(rec["preset"]),
                units * int(res["dsp"]),
                _g(units * float(res["bram36"])),
                lut,
                units * int(res["ff"]),
                int(rec["cycles"]["ntt"]),
                f"{ratio:.2f}",
            ]
        )
    header = ["flow", "algorithm", "#NTT", "DSP", "BRAM36", "LUT", "FF"]
    header += ["our preset", "our DSP", "our BRAM36", "our LUT", "our FF", "our NTT cycles"]
    header += ["LUT ours/seed"]
    notes = []
    if wins or losses:
        more = f"; more in {', '.join(losses)}" if losses else ""
        notes.append(
            f"Table 4 at equal function (#NTT copies of our core, as the seed instantiates "
            f"#NTT modules): our LUTs at most the seed's in {wins} of {wins + len(losses)} "
            f"rows{more}. Table 4 publishes no cycles, so LUT x cycles cannot be formed for "
            "its rows; our cycles per transform are beside them (Table 3 gives the seed's only "
            "cycle figure)."
        )
    return SeedTable("seed004_table4", header, rows), notes


def seed004_section(records: tuple[tuple[str, dict[str, Any]], ...]) -> Seed004Section:
    """The section from the report's hardware records (those of core ``ntt`` are used)."""
    ours = _ntt_records(records)
    t3, n3 = _table3(ours)
    t4, n4 = _table4(ours)
    common = (
        "Our figures: the NTT accelerator (hw/ip/ntt), Yosys synth_xilinx for xc7 (LUTs about "
        "1.22x Vivado's) and cycles from Verilator, forward transform only; the seed's: Vivado "
        "after place and route on a Zynq UltraScale+. Kyber round 2 rows are set beside our "
        "ML-KEM preset (the same ring and transform)."
    )
    return Seed004Section((t3, t4), (common, *n3, *n4))
