"""The cycle formulas of bikeco.hwcycles against every committed simulation record."""

from __future__ import annotations

from pathlib import Path

import pytest

from bikeco import hwcycles as hc
from bikeco.hwrecord import load_record

REPO = Path(__file__).resolve().parents[2]
RECORDS = sorted(REPO.glob("hw/results/*.json"))


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_record_cycles_from_formulas(path: Path) -> None:
    rec = load_record(path)
    assert hc.record_cycles_problem(rec.core, rec.level, rec.params, rec.cycles) is None


def test_a_cycle_off_by_one_or_missing_is_a_problem() -> None:
    rec = load_record(REPO / "hw/results/gf2x_mul_small_L1.json")
    cycles = dict(rec.cycles)
    cycles["mul"] += 1
    problem = hc.record_cycles_problem(rec.core, rec.level, rec.params, cycles)
    assert problem and problem.startswith("cycles differ from the formulas: mul ")
    del cycles["mul"]
    assert hc.record_cycles_problem(rec.core, rec.level, rec.params, cycles) == (
        "no simulated cycles for mul"
    )


def test_every_kem_shape_and_level_is_covered() -> None:
    seen = {(load_record(p).core, load_record(p).level) for p in RECORDS}
    assert {f"bike_kem_{s}" for s in hc.SHAPES} <= {c for c, _ in seen}
    assert ("bike_kem_full", 3) in seen


def test_acc_cycles_match_the_shell_doc() -> None:
    # ip/acc_shell/doc: CYCLES of the medium devices at L1 and L3
    g1, g3 = hc.geometry(1), hc.geometry(3)
    mul = {"KaratsubaLevels": 2, "ParallelLevels": 1}
    inv = {"E": 16, **mul}
    assert hc.acc_cycles("gf2x_mul_acc", g1, mul) == 7986
    assert hc.acc_cycles("gf2x_mul_acc", g3, mul) == 29781
    assert hc.acc_cycles("gf2x_inv_acc", g1, inv) == 97142
    assert hc.acc_cycles("gf2x_inv_acc", g3, inv) == 391762
    assert hc.acc_cycles("bike_decoder_acc", g1, {"P": 8}) == 27611
    assert hc.acc_cycles("bike_decoder_acc", g3, {"P": 8}) == 76205


def test_kem_shapes_use_keccak_core() -> None:
    # the lane-serial Keccak inside a KEM core has no record: its cycles are not claimed
    assert not any(load_record(p).params.get("KeccakSerial", 0) for p in RECORDS)
    with pytest.raises(ValueError, match="lane-serial"):
        hc.kem_cycles(1, "full", {"KeccakSerial": 1, "RoundsPerCycle": 1})


def test_mlkem_sampler_cycles_match_its_doc() -> None:
    # hw/ip/mlkem_sampler/doc/mlkem_sampler.md: the table at C = 315 candidates
    assert [hc.mlkem_sample_ntt_cycles(k, 315) for k in (1, 2)] == [378, 342]
    assert [hc.mlkem_cbd_cycles(k, 2) for k in (1, 2)] == [281, 269]
    assert [hc.mlkem_cbd_cycles(k, 3) for k in (1, 2)] == [294, 270]
    # no stall when the buffer outlasts the permutation (K = 4: P = 6 > 5, one cycle)
    assert hc.mlkem_sample_ntt_cycles(4, 113) - hc.mlkem_sample_ntt_cycles(4, 112) == 2
    assert hc.mlkem_sample_ntt_cycles(6, 113) - hc.mlkem_sample_ntt_cycles(6, 112) == 1
