from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from bikeco.errors import BikecoError
from bikeco.hwmodels import (
    LEAF_TARGETS,
    bikeco_units,
    coverage,
    load_records,
    seed000_units,
    unit_from_record,
)
from bikeco.hwrecord import HwRecord


def test_seed000_final_units() -> None:
    units = {u.core: u for u in seed000_units()}
    assert set(units) == {"hls_keygen", "hls_encaps", "hls_decaps"}
    dec = units["hls_decaps"]
    assert dec.resources == {"lut": 37160, "ff": 38118, "dsp": 35, "bram36": 90}
    assert dec.time_ms("decaps") == pytest.approx(135.48)
    assert units["hls_encaps"].time_ms("encaps") == pytest.approx(6.33)


def test_seed000_all_steps_and_levels() -> None:
    assert len(seed000_units(("baseline_hls", "interm_hls_perf", "final_hls_perf_area"))) == 9
    assert seed000_units(level=3) == []
    with pytest.raises(BikecoError, match="unknown seed 000 design step"):
        seed000_units(("final",))


def test_record_mapping(fixtures: Path) -> None:
    rec = json.loads((fixtures / "hw_results" / "testmul_medium_l1.json").read_text())
    u = unit_from_record(rec, "x", None)
    assert set(u.targets()) == {
        "keygen.multiplication",
        "encaps.multiplication",
        "decaps.multiplication",
    }
    assert u.time_ms("encaps.multiplication") == pytest.approx(0.2)  # 20000 cycles at 100 MHz
    assert any("sqr_k" in n for n in u.notes)
    fast = unit_from_record(rec, "x", 200.0)
    assert fast.time_ms("encaps.multiplication") == pytest.approx(0.1)


def test_record_verified_by_no_vector(fixtures: Path) -> None:
    """verified = {random: 0, kat: 0} is an object (truthy) that verifies nothing."""
    rec = json.loads((fixtures / "hw_results" / "testkeccak_small_l1.json").read_text())
    assert rec["verified"] == {"random": 0, "kat": 0}
    u = unit_from_record(rec, "k", None)
    assert "keygen.prng" in u.targets() and "decaps.k_function" in u.targets()
    assert any("no verification" in n for n in u.notes)
    rec["verified"]["kat"] = 1
    assert not any("no verification" in n for n in unit_from_record(rec, "k", None).notes)


def _good() -> dict[str, Any]:
    return {
        "schema": "bikeco-hw/1",
        "core": "c",
        "preset": "p",
        "level": 1,
        "params": {"W": 64, "ParallelSubproducts": "mixed"},
        "cycles": {"mul": 10},
        "resources": {"lut": 1, "ff": 1, "bram36": 0.5, "dsp": 0, "carry4": 0},
        "lut_depth": None,
        "clock_mhz_assumed": 100,
        "verified": {"random": 1, "kat": 0},
        "tools": {"verilator": "5.48.0", "yosys": "0.70"},
    }


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(schema="bikeco-hw/0"), "schema: must be 'bikeco-hw/1'"),
        (lambda d: d.update(core=""), "core: expected a non-empty string"),
        (lambda d: d.update(level=4), "level: must be one of 1, 3, 5, got 4"),
        (lambda d: d.update(level=1.0), "level: must be one of"),
        (lambda d: d.update(cycles={}), "cycles: must name at least one operation"),
        (lambda d: d.update(cycles={"mul": 0}), "cycles.mul: expected a positive integer"),
        (lambda d: d.update(cycles={"mul": True}), "cycles.mul: expected a positive integer"),
        (lambda d: d["resources"].pop("bram36"), "resources.bram36: missing"),
        (lambda d: d["resources"].update(lut=-1), "resources.lut: expected a non-negative"),
        (lambda d: d["resources"].update(luts=1), "resources.luts: not a field of the schema"),
        (lambda d: d.update(clock_mhz_assumed=0), "clock_mhz_assumed: expected a positive"),
        (lambda d: d.update(verified=True), "verified: expected a JSON object"),
        (lambda d: d["verified"].pop("kat"), "verified.kat: missing"),
        (lambda d: d["tools"].update(yosys=None), "tools.yosys: expected a non-empty string"),
        (lambda d: d["params"].update(W=[64]), "params.W: expected an integer, a boolean"),
        (lambda d: d.update(note="x"), "note: not a field of the schema"),
        (lambda d: d.pop("lut_depth"), "lut_depth: missing"),
    ],
)
def test_malformed_records(mutate: Any, message: str) -> None:
    rec = copy.deepcopy(_good())
    assert HwRecord.from_json(rec, "ok").to_json() == rec
    mutate(rec)
    with pytest.raises(BikecoError, match=re.escape(f"r.json: {message}")):
        HwRecord.from_json(rec, "r.json")


def test_load_records(fixtures: Path, tmp_path: Path) -> None:
    recs = load_records(fixtures / "hw_results")
    assert [p.name for p, _ in recs] == sorted(p.name for p, _ in recs)
    assert len(recs) == 3
    with pytest.raises(BikecoError, match=r"broken.json: resources.bram36: missing"):
        load_records(fixtures / "hw_bad")
    with pytest.raises(BikecoError, match="no hardware results folder"):
        load_records(tmp_path / "missing")
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(BikecoError, match="cannot read a JSON record"):
        load_records(tmp_path)


def test_bikeco_units_levels_and_empty(fixtures: Path, tmp_path: Path) -> None:
    assert len(bikeco_units(fixtures / "hw_results", 1)) == 3
    assert bikeco_units(fixtures / "hw_results", 3) == []
    with pytest.raises(BikecoError, match="no hardware results records"):
        bikeco_units(tmp_path, 1)
    assert bikeco_units(tmp_path / "none", 1, required=False) == []


def test_coverage(fixtures: Path) -> None:
    units = bikeco_units(fixtures / "hw_results", 1) + seed000_units()
    cov = coverage(units, ["keygen.inversion", "decaps.decoding", "encaps.multiplication"])
    assert cov["keygen.inversion"] == ["seed000:hls_keygen:final_hls_perf_area"]
    assert "bikeco:testmul:medium" in cov["encaps.multiplication"]
    ours = coverage(bikeco_units(fixtures / "hw_results", 1), ["decaps.decoding"])
    assert ours["decaps.decoding"] == []


def test_coverage_of_a_primitive_core_stays_in_its_primitive() -> None:
    rec = _good()
    rec.update(core="server", cycles={"encaps": 15077})
    server = unit_from_record(rec, "s", None)
    cov = coverage([server], list(LEAF_TARGETS))
    covered = {t for t, names in cov.items() if names}
    assert covered == {t for t in LEAF_TARGETS if t.startswith("encaps.")}
    assert "encaps.multiplication" in covered and "encaps.l_function" in covered
    assert not any(t.endswith((".inversion", ".decoding")) for t in covered)
