"""The ML-KEM co-simulation record's schema (hwflow/cosim_mlkem.py) against
its document, and its checker against good and bad records."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from hwflow import cosim_mlkem
from hwflow.cosim import fields_table
from hwflow.cosim_mlkem import KEM, KERNEL, RECORD, SET, check_record
from hwflow.paths import REPO

DOC = REPO / "docs" / "cosim-mlkem-json.md"


def _example() -> Any:
    m = re.search(r"```json\n(.*?)```", DOC.read_text(), re.S)
    assert m is not None
    return json.loads(m.group(1))


def test_doc_tables_are_the_schema() -> None:
    text = DOC.read_text()
    for name, fields in (("record", RECORD), ("set", SET), ("kem", KEM), ("kernel", KERNEL)):
        assert f"<!-- fields: {name} -->\n" + fields_table(fields) in text


def test_example_passes() -> None:
    assert check_record(_example()) == []


def test_bad_records_fail() -> None:
    rec = _example()
    missing = copy.deepcopy(rec)
    del missing["passed"]
    assert check_record(missing) == ["record: missing passed"]
    short = copy.deepcopy(rec)
    kernel = short["sets"][1]["kem"][0]["kernels"][0]
    kernel["run_pl_cycles"] = kernel["accelerator_cycles"]
    assert check_record(short) == [
        "set 768 encaps ntt: run not longer than the accelerator's cycles"
    ]
    typed = copy.deepcopy(rec)
    typed["sets"][1]["kem"][1]["kernels"][1]["calls"] = "4"
    assert check_record(typed) != []
    old = copy.deepcopy(rec)
    old["schema"] = "bikeco-cosim-mlkem/1"
    assert check_record(old) == [
        "record: schema 'bikeco-cosim-mlkem/1', not 'bikeco-cosim-mlkem/2'"
    ]
    idle = copy.deepcopy(rec)
    idle["sets"][1]["kem"][0]["kernels"][1]["device_runs"] = 0
    assert check_record(idle) == ["set 768 encaps basemul_invntt: no device run or no words"]


def test_committed_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """The committed record is current; a record of other sources is stale, one
    that fails its schema mismatched, none missing."""
    assert cosim_mlkem.check_committed()[0] == "current"
    rec = json.loads(cosim_mlkem.COMMITTED.read_text())
    path = REPO / "hw" / "build" / "test_cosim_mlkem_committed.json"
    path.parent.mkdir(exist_ok=True)
    try:
        rec["sources_sha256"] = "0" * 64
        path.write_text(json.dumps(rec))
        assert cosim_mlkem.check_committed(path)[0] == "stale"
        monkeypatch.setattr(cosim_mlkem, "sources_sha256", lambda: "0" * 64)
        assert cosim_mlkem.check_committed(path)[0] == "current"
        rec["passed"] = False
        path.write_text(json.dumps(rec))
        assert cosim_mlkem.check_committed(path)[0] == "mismatch"
    finally:
        path.unlink(missing_ok=True)
    assert cosim_mlkem.check_committed(path)[0] == "missing"
