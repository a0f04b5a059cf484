"""Results records and the table."""

from __future__ import annotations

import json
from pathlib import Path

from bikeco.hwrecord import load_record
from hwflow.cores import flow_cores
from hwflow.paths import RESULTS
from hwflow.records import LEVELS, make_record, write_record
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
