"""The testbenches' tb_cycles.h (bikeco.tbcycles) against bikeco.hwcycles and the records."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bikeco import hwcycles as hc
from bikeco import tbcycles
from bikeco.hwrecord import load_record

REPO = Path(__file__).resolve().parents[2]
# the records of the cores whose testbenches check tb_cycles.h
RECORDS = [
    p
    for p in sorted(REPO.glob("hw/results/*_L[0-9].json"))
    if load_record(p).core in tbcycles.CORES
]
ENTRY = re.compile(r'^\s*\{(\d), "([a-z0-9_/]+)", (\d+)ull\},$', re.M)


def parsed(text: str) -> dict[tuple[int, str], int]:
    """The header's table, read back as the C++ initialiser gives it."""
    return {(int(lv), op): int(c) for lv, op, c in ENTRY.findall(text)}


def test_header_holds_exactly_the_formulas_values() -> None:
    params = {"W": 64, "KaratsubaLevels": 2, "ParallelLevels": 1}
    text = tbcycles.header("gf2x_mul", [1, 3, 5], params)
    want = {}
    for level in (1, 3, 5):
        g = hc.geometry(level, 64)
        want[(level, "mul")] = hc.mul_cycles(g, 2, 1)
        want[(level, "mul_sym")] = hc.mul_sym_cycles(g, 2, 1)
    assert parsed(text) == want
    assert len(ENTRY.findall(text)) == len(want)  # no entry the pattern missed


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_testbench_cycles_are_the_records(path: Path) -> None:
    # the operations a testbench checks carry the names, and the cycles, of its records
    rec = load_record(path)
    params = {k: v for k, v in rec.params.items() if isinstance(v, int)}
    got = tbcycles.testbench_cycles(rec.core, rec.level, params)
    shared = sorted(set(got) & set(rec.cycles))
    assert shared, "no operation of the record is checked"
    assert [got[op] for op in shared] == [rec.cycles[op] for op in shared]
    if rec.core in tbcycles.KECCAK:  # the record's hash figures, by their lengths
        g = hc.geometry(rec.level)
        longer = max(got[f"sha3_384/{hc.k_bytes(g)}"], got[f"sha3_384/{hc.l_bytes(g)}"])
        assert rec.cycles["sha3_384"] == longer
        assert rec.cycles["shake256_absorb32"] == got["shake256_first/32"]
    if rec.core == "mlkem_sampler":  # the longest SampleNTT seen is one of the table's
        assert rec.cycles["sample_ntt"] in {got[op] for op in got if op.startswith("sample_ntt/")}


def test_the_shell_devices_are_hwcycles_acc_cycles() -> None:
    g = hc.geometry(1)
    for core, params in {
        "gf2x_mul_acc": {"KaratsubaLevels": 2, "ParallelLevels": 1},
        "gf2x_inv_acc": {"E": 16, "KaratsubaLevels": 2, "ParallelLevels": 1},
        "sparse_mul_acc": {"P": 8},
        "bike_decoder_acc": {"P": 8},
    }.items():
        assert tbcycles.testbench_cycles(core, 1, params) == {"op": hc.acc_cycles(core, g, params)}
    # ip/acc_shell/doc: sparse_mul_acc and keccak_sampler_acc, medium, at L1 and L3
    assert hc.acc_cycles("sparse_mul_acc", g, {"P": 8}) == 2209
    assert hc.acc_cycles("sparse_mul_acc", hc.geometry(3), {"P": 8}) == 5912
    doc = {
        1: {"sample_keygen": 5492, "function_h": 10644, "function_l": 753, "function_k": 399},
        3: {"sample_keygen": 11252, "function_h": 22661, "function_l": 1498, "function_k": 772},
    }
    for level, want in doc.items():
        got = tbcycles.testbench_cycles("keccak_sampler_acc", level, {"RoundsPerCycle": 2})
        assert got == want


def test_ntt_acc_has_every_kind_and_count() -> None:
    params = {"N": 256, "B": 4, "P": 1}
    got = tbcycles.testbench_cycles("ntt_acc", 1, params)
    assert len(got) == 4 * 16
    assert got["macinttx3"] == hc.ntt_acc_cycles(params, "MACINTT", 3)
    assert got["macx1"] == hc.ntt_acc_cycles(params, "MAC", 1)


def test_sparse_dual_adds_the_product_to_the_counts() -> None:
    g = hc.geometry(1, 64)
    counts = hc.sparse_cycles(g, g.d, 8)
    dual = tbcycles.testbench_cycles("sparse_dual", 1, {"W": 64, "P": 8, "Counts": 1, "Dual": 1})
    assert dual == {"upc_then_mul_sparse": counts + 9 * (g.n + 1) + 4}
    nopf = {"W": 64, "P": 8, "Counts": 1, "Dual": 1, "Prefetch": 0}
    assert tbcycles.testbench_cycles("sparse_dual", 1, nopf)["upc_then_mul_sparse"] == (
        dual["upc_then_mul_sparse"] + g.n
    )


def test_a_level_parameter_of_another_level_is_refused() -> None:
    with pytest.raises(ValueError, match="R=24659 is not L1"):
        tbcycles.testbench_cycles("gf2x_sqr_k", 1, {"W": 64, "E": 16, "R": 24659})
    with pytest.raises(KeyError, match="bike_kem_full"):
        tbcycles.testbench_cycles("bike_kem_full", 1, {"RoundsPerCycle": 1})


def test_command_writes_the_header(tmp_path: Path) -> None:
    out = tmp_path / "sub" / "tb_cycles.h"
    args = ["--core", "sampler", "--levels", "1", "3", "--param", "RoundsPerCycle=2"]
    assert tbcycles.main([*args, "--out", str(out)]) == 0
    assert out.read_text() == tbcycles.header("sampler", [1, 3], {"RoundsPerCycle": 2})
