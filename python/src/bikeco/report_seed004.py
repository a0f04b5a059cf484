"""Seed 004's NTT tables (Table 3: the 1024-point NTT; Table 4: resources per scheme and
level) with our NTT accelerator's records (``hw/results/ntt_<preset>_L1.json``) beside the
published rows, and its co-design tables (Table 5: transfer costs; Table 6: end-to-end
speed-ups) with our ML-KEM co-simulation record (``hw/results/cosim/mlkem_ntt_acc.json``,
``docs/cosim-mlkem-json.md``).

Table 6 is on the seed's basis: its Cortex-A53 software times of Kyber round 2 at the same
level stand for ML-KEM's (the same ring, transform and matrix sizes), the software part left
is the seed's 'Total SW' minus its 'Total SW NTT', and our offloaded part is the modelled
CPU-side time of the NTT hooks through the co-simulated bus (their PL cycles at the record's
PL clock). A speed-up is bounded by Total SW / (Total SW - Total SW NTT), what a
zero-time accelerator would reach.

:func:`seed004_section` computes the section from the report's inputs; the report
(:mod:`bikeco.report_data`, :mod:`bikeco.report_doc`) only carries and lays it out. Our LUTs
are Yosys ``synth_xilinx`` counts, the seed's Vivado post-place-and-route ones (Yosys counts
about 1.22x Vivado's on the same design: ``shared/docs/hw-flow.md``); the comparisons use the
counts as they are.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bikeco.data_files import read_table
from bikeco.errors import BikecoError

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

# ML-KEM's parameter sets beside seed 004's Kyber round 2 rows of the same level
MLKEM_OF: dict[str, int] = {"kyber_r2_1": 512, "kyber_r2_3": 768, "kyber_r2_5": 1024}
GOAL_SET = 768
"""Table 6's goal: ML-KEM-768 encaps and decaps at twice the seed's best Kyber round 2
speed-up."""
COSIM_SCHEMA = "bikeco-cosim-mlkem/2"
COSIM_RECORD = Path("results") / "cosim" / "mlkem_ntt_acc.json"
"""The committed ML-KEM co-simulation record, under hw/."""

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


@dataclass(frozen=True)
class Offload:
    """One KEM operation of one ML-KEM set through the co-simulated ntt_acc, per call."""

    device_runs: float
    bytes_in: float
    bytes_out: float
    transfer_us: float
    """PL cycles with a stream moving, at the PL clock."""
    device_us: float
    """The shell's CYCLES (from START to DONE) at the PL clock."""
    run_us: float
    """The hooks' modelled CPU-side time: PL cycles from their first register access to
    their end, at the PL clock."""


def load_cosim(hw_dir: Path | None) -> dict[str, Any] | None:
    """The committed ML-KEM co-simulation record under ``hw_dir``, or None."""
    path = None if hw_dir is None else hw_dir / COSIM_RECORD
    if path is None or not path.is_file():
        return None
    rec: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return rec


def offloads(cosim: Mapping[str, Any]) -> dict[tuple[int, str], Offload]:
    """Per (set, operation) the figures of a cosim-mlkem record, per KEM call."""
    if cosim.get("schema") != COSIM_SCHEMA or not cosim.get("passed"):
        raise BikecoError(f"not a passed {COSIM_SCHEMA} record")
    mhz = float(cosim["timing"]["pl_mhz"])
    count = float(cosim["count"])
    out: dict[tuple[int, str], Offload] = {}
    for st in cosim["sets"]:
        for kem in st["kem"]:
            ks = kem["kernels"]

            def total(field: str, ks: list[dict[str, Any]] = ks) -> float:
                return sum(float(k[field]) for k in ks) / count

            out[int(st["set"]), str(kem["operation"])] = Offload(
                total("device_runs"),
                8 * total("words_in"),
                8 * total("words_out"),
                total("transfer_cycles") / mhz,
                total("accelerator_cycles") / mhz,
                total("run_pl_cycles") / mhz,
            )
    return out


def _table6_published() -> dict[tuple[str, str], dict[str, str]]:
    return {(r["operation"], r["algorithm"]): r for r in read_table("ntt_codesign_004_table6.csv")}


def _left_us(r: Mapping[str, str]) -> float:
    """The seed's software part left after offloading its NTT."""
    return float(r["total_sw_us"]) - float(r["total_sw_ntt_us"])


def _table5(ours: Mapping[tuple[int, str], Offload]) -> SeedTable:
    t6 = _table6_published()
    rows: list[Row] = []
    for r in read_table("transfer_004_table5.csv"):
        swhw = t6[r["operation"], r["algorithm"]]
        bm, sd = float(r["baremetal_us"]), float(r["sdsoc_us"])
        rows.append(
            [
                r["operation"],
                f"published: {r['algorithm']}",
                int(r["bytes_in"]),
                int(r["bytes_out"]),
                int(r["calls"]),
                _g(bm),
                _g(sd),
                f"{sd / bm:.2f}",
                f"{100 * bm / float(swhw['total_swhw_baremetal_us']):.2f}",
                f"{100 * sd / float(swhw['total_swhw_sdsoc_us']):.2f}",
            ]
        )
        o = ours.get((MLKEM_OF.get(r["algorithm"], 0), r["operation"]))
        if o is not None:
            swhw_us = _left_us(swhw) + o.run_us
            rows.append(
                [
                    r["operation"],
                    f"ours: ML-KEM-{MLKEM_OF[r['algorithm']]} (co-simulated ntt_acc)",
                    round(o.bytes_in),
                    round(o.bytes_out),
                    _g(o.device_runs),
                    f"{o.transfer_us:.2f}",
                    "-",
                    "-",
                    f"{100 * o.transfer_us / swhw_us:.2f}",
                    "-",
                ]
            )
    header = ["operation", "algorithm", "bytes in", "bytes out", "transfers"]
    header += ["bare metal us", "SDSoC us", "SDSoC/BM", "overhead BM %", "overhead SDSoC %"]
    return SeedTable("seed004_table5", header, rows)


def _table6(
    ours: Mapping[tuple[int, str], Offload],
) -> tuple[SeedTable, dict[str, tuple[float, float, Offload, Mapping[str, str]]]]:
    rows: list[Row] = []
    goal: dict[str, tuple[float, float, Offload, Mapping[str, str]]] = {}
    for r in read_table("ntt_codesign_004_table6.csv"):
        sw, left = float(r["total_sw_us"]), _left_us(r)
        bm = float(r["total_swhw_baremetal_us"])
        rows.append(
            [
                r["operation"],
                f"published: {r['algorithm']}",
                r["total_sw_us"],
                r["total_sw_ntt_us"],
                r["sw_ntt_pct"],
                r["total_swhw_baremetal_us"],
                r["total_swhw_sdsoc_us"],
                r["speedup_baremetal"],
                r["speedup_sdsoc"],
                f"{bm - left:.1f}",
                f"{sw / left:.2f}",
            ]
        )
        ps = MLKEM_OF.get(r["algorithm"])
        o = ours.get((ps or 0, r["operation"]))
        if ps is None or o is None:
            continue
        swhw = left + o.run_us
        rows.append(
            [
                r["operation"],
                f"ours: ML-KEM-{ps} (seed's A53 software, co-simulated ntt_acc)",
                r["total_sw_us"],
                r["total_sw_ntt_us"],
                r["sw_ntt_pct"],
                f"{swhw:.1f}",
                "-",
                f"{sw / swhw:.2f}",
                "-",
                f"{o.run_us:.1f}",
                f"{sw / left:.2f}",
            ]
        )
        if ps == GOAL_SET:
            goal[r["operation"]] = (sw / swhw, sw / left, o, r)
    header = ["operation", "algorithm", "total SW us", "SW NTT us", "% SW NTT"]
    header += ["total SW/HW us (BM)", "total SW/HW us (SDSoC)", "speed-up BM", "speed-up SDSoC"]
    header += ["offloaded part us", "bound (offloaded part 0)"]
    return SeedTable("seed004_table6", header, rows), goal


def _codesign(cosim: Mapping[str, Any] | None) -> tuple[tuple[SeedTable, ...], list[str]]:
    """Tables 5 and 6 and their notes."""
    ours: dict[tuple[int, str], Offload] = {}
    notes: list[str] = []
    if cosim is None:
        notes.append("No ML-KEM co-simulation record: Tables 5 and 6 show the seed's rows only.")
    else:
        try:
            ours = offloads(cosim)
        except (BikecoError, KeyError, TypeError, ValueError) as exc:
            notes.append(f"The ML-KEM co-simulation record is unusable ({exc}).")
    t5 = _table5(ours)
    t6, goal = _table6(ours)
    best = max(
        float(r["speedup_baremetal"])
        for r in read_table("ntt_codesign_004_table6.csv")
        if r["algorithm"] in MLKEM_OF
    )
    if cosim is not None and ours:
        t = cosim["timing"]
        notes.append(
            "Tables 5 and 6, ours: ML-KEM through libmlkem's batch hooks on the co-simulated "
            f"ntt_acc (B = {cosim.get('params', {}).get('B', '?')} butterfly units; "
            f"hw/results/cosim/mlkem_ntt_acc.json, {cosim['count']} runs a set, "
            "byte-exact with software): one device operation per vector of NTTs and per row "
            "of the matrix product (MAC, MACINTT), the driver "
            + (
                "polling STATUS (as the seed's bare metal)"
                if cosim.get("wait") == "poll"
                else f"waiting on the interrupt ({t['irq_cycles']} PL cycles to wake)"
            )
            + ". Times on the driver's timing model: PL at "
            f"{t['pl_mhz']} MHz, register reads {t['read_cycles']} and writes "
            f"{t['write_cycles']} PL cycles, DMA set-up {t['dma_setup_cycles']} "
            "(driver/README.md). Transfer time = PL cycles with a stream "
            "moving; our Table 6 'total SW/HW' = the seed's software part left (Total SW - "
            "Total SW NTT, Cortex-A53 at 1.2 GHz, Kyber round 2 of the same level) + our "
            "offloaded part (the hooks' modelled CPU-side time)."
        )
    if goal:
        want = 2 * best
        parts = []
        for op in ("encaps", "decaps"):
            if op not in goal:
                continue
            got, bound, o, r = goal[op]
            parts.append(
                f"{op} {got:.2f}x ({'met' if got >= want else 'not met'}): the software part "
                f"left ({_left_us(r):.1f} us of {float(r['total_sw_us']):.1f}) bounds it at "
                f"{bound:.2f}x even with a zero-time accelerator; our offloaded part takes "
                f"{o.run_us:.1f} us in {o.device_runs:g} device operations: "
                f"{o.device_us:.1f} us of device CYCLES (of which {o.transfer_us:.1f} us with "
                f"a stream moving) and {o.run_us - o.device_us:.1f} us of register accesses "
                "and DMA set-up around them"
            )
        notes.append(
            f"Goal (ML-KEM-{GOAL_SET} encaps and decaps speed-up at least twice the seed's best "
            f"Kyber round 2 figure, {best:.2f}x, i.e. {want:.2f}x): " + "; ".join(parts) + ". "
            f"{want:.2f}x needs the software left at most Total SW / {want:.2f}: the hashing "
            "and sampling (Keccak) must leave the CPU too, not the NTT alone."
        )
    return (t5, t6), notes


def seed004_section(
    records: tuple[tuple[str, dict[str, Any]], ...], cosim: Mapping[str, Any] | None = None
) -> Seed004Section:
    """The section from the report's hardware records (those of core ``ntt`` are used) and the
    ML-KEM co-simulation record (``cosim``, None if absent)."""
    ours = _ntt_records(records)
    t3, n3 = _table3(ours)
    t4, n4 = _table4(ours)
    codesign, n56 = _codesign(cosim)
    common = (
        "Our figures: the NTT accelerator (hw/ip/ntt), Yosys synth_xilinx for xc7 (LUTs about "
        "1.22x Vivado's) and cycles from Verilator, forward transform only; the seed's: Vivado "
        "after place and route on a Zynq UltraScale+. Kyber round 2 rows are set beside our "
        "ML-KEM preset (the same ring and transform)."
    )
    return Seed004Section((t3, t4, *codesign), (common, *n3, *n4, *n56))
