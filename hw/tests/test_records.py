"""Results records and the table."""

from __future__ import annotations

import json
from pathlib import Path

from bikeco.hwrecord import load_record
from hwflow.cores import flow_cores
from hwflow.paths import RESULTS
from hwflow.records import LEVELS, make_record, pending_cores, write_record
from hwflow.tables import TABLE_FILE, table_file

SYN = {"lut": 10, "ff": 5, "ramb36": 1, "ramb18": 3, "dsp": 0, "carry4": 2, "lut_depth": 7}
SIM = {"cycles": {"mul": 100}, "verified": {"random": 4, "kat": 2}}


def test_record_fields(tmp_path: Path) -> None:
    core = flow_cores()["gf2x_mul"]
    rec = make_record(core, "small", 3, SIM, SYN, {"verilator": "v", "yosys": "y"})
    assert rec.params == {
        "W": 32,
        "KaratsubaLevels": 1,
        "ParallelLevels": 0,
        "ParallelSubproducts": False,
    }
    assert rec.resources.bram36 == 2.5
    assert rec.lut_depth == 7
    out = write_record(rec, tmp_path)
    assert out.name == "gf2x_mul_small_L3.json"
    assert json.loads(out.read_text()) == rec.to_json()
    assert load_record(out) == rec


def test_kem_record_shows_the_shape() -> None:
    core = flow_cores()["bike_kem_server"]
    rec = make_record(core, "medium", 1, SIM, SYN, {"verilator": "v", "yosys": "y"})
    assert (rec.params["Keygen"], rec.params["Encaps"]) == (0, 1)
    assert "R" not in rec.params


def test_table_file_is_current() -> None:
    """hw/results/TABLE.md is what `make -C hw table` writes from the records."""
    want = table_file(list(flow_cores().values()), LEVELS)
    assert (RESULTS / TABLE_FILE).read_text() == want


def test_pending_cores_are_those_of_records_that_differ(tmp_path: Path) -> None:
    # regen.sh remakes these cores' records; a preset with an underscore
    # (ntt_mlkem_lut_L1) is named by its record's core field
    cores = list(flow_cores().values())
    names = ["gf2x_mul_small_L1.json", "ntt_mlkem_lut_L1.json", "sparse_mul_small_L1.json"]
    for name in names:
        (tmp_path / name).write_text((RESULTS / name).read_text())
    assert pending_cores(cores, tmp_path) == []
    for name, key in (("gf2x_mul_small_L1.json", "mul"), ("ntt_mlkem_lut_L1.json", "ntt")):
        rec = json.loads((tmp_path / name).read_text())
        rec["cycles"][key] += 1  # a simulation the formulas no longer give
        (tmp_path / name).write_text(json.dumps(rec))
    assert pending_cores(cores, tmp_path) == ["gf2x_mul", "ntt"]
