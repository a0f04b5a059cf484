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
    t3, t4 = sec.tables[:2]
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


def _cosim(run_pl: int, pl_mhz: int = 100) -> dict[str, Any]:
    """A cosim-mlkem record whose ML-KEM-768 encaps takes `run_pl` PL cycles a call in two
    hooks (count 2), decaps twice that."""

    def kernels(scale: int) -> list[dict[str, Any]]:
        half = scale * run_pl  # two hooks, two runs: half of the sum each
        return [
            {
                "kernel": name,
                "calls": 2,
                "device_runs": 2,
                "words_in": 64 * scale,
                "words_out": 32 * scale,
                "accelerator_cycles": half // 2,
                "transfer_cycles": half // 4,
                "run_pl_cycles": half,
                "cpu_cycles": half * 667 // pl_mhz,
            }
            for name in ("ntt", "basemul_invntt")
        ]

    return {
        "schema": "bikeco-cosim-mlkem/2",
        "passed": True,
        "count": 2,
        "timing": {
            "pl_mhz": pl_mhz,
            "read_cycles": 20,
            "write_cycles": 12,
            "dma_setup_cycles": 100,
            "irq_cycles": 700,
        },
        "sets": [
            {
                "set": 768,
                "kem": [
                    {"operation": "encaps", "kernels": kernels(1)},
                    {"operation": "decaps", "kernels": kernels(2)},
                ],
            }
        ],
    }


def test_tables_5_and_6_published_without_a_cosim_record() -> None:
    sec = seed004_section(())
    t5, t6 = sec.tables[2:]
    assert len(t5.rows) == len(read_table("transfer_004_table5.csv")) == 16
    assert len(t6.rows) == len(read_table("ntt_codesign_004_table6.csv")) == 16
    assert any("No ML-KEM co-simulation record" in n for n in sec.notes)
    # the overhead columns derive from Tables 5 and 6 as the seed's do (NewHope 1 encaps:
    # 7.91 / 175.2 and 12.64 / 180.3)
    assert t5.rows[0][8:10] == ["4.51", "7.01"]
    # Kyber round 2 level 3 encaps: 201.5 - (533.9 - 343.0) us offloaded, bound 533.9 / 190.9
    r = next(r for r in t6.rows if r[:2] == ["encaps", "published: kyber_r2_3"])
    assert r[9:11] == ["10.6", "2.80"]


def test_tables_5_and_6_with_the_cosim_record() -> None:
    sec = seed004_section((), _cosim(20_000))  # 200 us an encaps at 100 MHz
    t5, t6 = sec.tables[2:]
    ours5 = next(
        r for r in t5.rows if r[:2] == ["encaps", "ours: ML-KEM-768 (co-simulated ntt_acc)"]
    )
    # per call: 2 hooks x 32 words in, 16 out; 2 device runs; 2 x 2,500 cycles moving
    assert ours5[2:6] == [512, 256, "2", "50.00"]
    ours6 = [r for r in t6.rows if str(r[1]).startswith("ours")]
    assert [r[0] for r in ours6] == ["encaps", "decaps"]  # only the sets in the record
    enc = ours6[0]
    left = 533.9 - 343.0
    assert enc[5] == f"{left + 200:.1f}" and enc[9] == "200.0"
    assert enc[7] == f"{533.9 / (left + 200):.2f}"
    assert ours5[8] == f"{100 * 50 / (left + 200):.2f}"
    goal = next(n for n in sec.notes if n.startswith("Goal (ML-KEM-768"))
    assert "i.e. 6.50x" in goal and "encaps 1.37x (not met)" in goal
    assert "bounds it at 2.80x" in goal and "bounds it at 3.50x" in goal
    # a free accelerator reaches the bound, still short of twice the seed's best
    free = seed004_section((), _cosim(0))
    goal = next(n for n in free.notes if n.startswith("Goal (ML-KEM-768"))
    assert "encaps 2.80x (not met)" in goal and "decaps 3.50x (not met)" in goal


def test_a_bad_cosim_record_is_named_not_used() -> None:
    bad = _cosim(10_000)
    bad["passed"] = False
    sec = seed004_section((), bad)
    assert any("unusable" in n for n in sec.notes)
    assert not any(str(r[1]).startswith("ours") for t in sec.tables[2:] for r in t.rows)
