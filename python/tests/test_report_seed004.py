"""Seed 004's NTT tables beside our NTT records (bikeco.report_seed004)."""

from __future__ import annotations

from typing import Any

from bikeco.data_files import read_table
from bikeco.report_seed004 import PRESET_OF, TABLE3_CYCLES, TABLE3_LUT, seed004_section


def _record(preset: str, lut: int, cycles: int) -> tuple[str, dict[str, Any]]:
    return (
        f"ntt_{preset}_L1.json",
        {
            "core": "ntt",
            "preset": preset,
            "level": 1,
            "cycles": {"ntt": cycles, "intt": cycles + 100, "basemul": 50},
            "resources": {"lut": lut, "ff": 300, "bram36": 1.5, "dsp": 2, "carry4": 10},
        },
    )


def test_published_rows_are_the_seed_tables_without_records() -> None:
    sec = seed004_section(())
    t3, t4 = sec.tables
    assert [r[0] for r in t3.rows] == [
        f"published: {r['work']}" for r in read_table("ntt1024_004_table3.csv")
    ]
    assert t3.rows[-1][4:6] == [str(TABLE3_LUT), str(TABLE3_CYCLES)]
    assert len(t4.rows) == len(read_table("ntt_resources_004_table4.csv")) == 16
    assert all(r[7] == "-" for r in t4.rows)
    assert any("No record" in n for n in sec.notes)


def test_goal_met_and_missed_from_the_record() -> None:
    met = seed004_section((_record("newhope1024", TABLE3_LUT, TABLE3_CYCLES),))
    assert any("not met" not in n and ": met:" in n for n in met.notes)
    t3 = met.tables[0]
    assert str(t3.rows[-1][0]).startswith("ours") and t3.rows[-1][4:6] == [
        TABLE3_LUT,
        TABLE3_CYCLES,
    ]
    assert t3.rows[-1][1] == "3"  # 1.5 BRAM36 as BRAM18K
    missed = seed004_section((_record("newhope1024", TABLE3_LUT + 1, 100),))
    assert any(": not met:" in n for n in missed.notes)


def test_table4_scales_our_core_by_the_seeds_ntt_units() -> None:
    sec = seed004_section((_record("mlkem", 1000, 483),))
    rows = {(r[0], r[1]): r for r in sec.tables[1].rows}
    r = rows["rtl", "kyber_r2_3"]
    assert r[2] == 3 and r[7] == "mlkem" and r[10] == 3000 and r[12] == 483
    assert r[13] == f"{3000 / 3054:.2f}"
    assert rows["rtl", "newhope5"][7] == "-"  # no newhope1024 record given
    note = next(n for n in sec.notes if n.startswith("Table 4"))
    assert "at most the seed's in 6 of 6 rows." in note  # 1,000 LUT per unit: every row
    # 1,100 per unit: above the RTL rows (2,200 > 2,040; 3,300 > 3,054; 4,400 > 4,055)
    big = seed004_section((_record("mlkem", 1100, 483),))
    note = next(n for n in big.notes if n.startswith("Table 4"))
    assert "in 3 of 6 rows; more in rtl kyber_r2_1 (1.08x), rtl kyber_r2_3 (1.08x)" in note
    assert set(PRESET_OF) == {r["algorithm"] for r in read_table("ntt_resources_004_table4.csv")}
