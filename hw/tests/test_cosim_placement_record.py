"""The placement run's record schema (hwflow/cosim.py) against its document
and its checker against good and bad records."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from hwflow.cosim import (
    KEM,
    PLACEMENT_RECORD,
    TARGET,
    check_placement_record,
    fields_table,
    read_placement,
)
from hwflow.paths import REPO

DOC = REPO / "docs" / "cosim-placement-json.md"


def _example() -> Any:
    m = re.search(r"```json\n(.*?)```", DOC.read_text(), re.S)
    assert m is not None
    return json.loads(m.group(1))


def test_doc_tables_are_the_schema() -> None:
    text = DOC.read_text()
    assert "<!-- fields: record -->\n" + fields_table(PLACEMENT_RECORD) in text
    assert "<!-- fields: target -->\n" + fields_table(TARGET) in text
    assert "<!-- fields: kem -->\n" + fields_table(KEM) in text


def test_example_passes() -> None:
    assert check_placement_record(_example()) == []


def test_bad_records_fail() -> None:
    rec = _example()
    missing = copy.deepcopy(rec)
    del missing["left_in_software"]
    assert check_placement_record(missing) == ["record: missing left_in_software"]
    short = copy.deepcopy(rec)
    short["targets"][0]["run_pl_cycles"] = short["targets"][0]["accelerator_cycles"]
    assert check_placement_record(short) == ["targets[0]: the runs are not longer than CYCLES"]
    lied = copy.deepcopy(rec)
    lied["kat_matched"] = 1
    assert check_placement_record(lied) == ["record: passed disagrees with the records matched"]
    tampered = copy.deepcopy(rec)
    tampered["random"] = tampered["random_matched"] = tampered["tampered"] = 2
    tampered["tampered_matched"] = 1  # one rejection secret differed from software's
    assert check_placement_record(tampered) == ["record: passed disagrees with the records matched"]
    tampered["tampered_matched"] = 2
    assert check_placement_record(tampered) == []
    typed = copy.deepcopy(rec)
    typed["kem"][1]["calls"] = "2"
    assert check_placement_record(typed) == ["kem[1]: calls is not a int"]


def test_read_placement() -> None:
    text = "# a plan\nkeygen.inversion gf2x_inv_acc small  # why\n\nencaps.multiplication m\n"
    assert read_placement(text) == [
        ("keygen.inversion", "gf2x_inv_acc", "small"),
        ("encaps.multiplication", "m", "medium"),
    ]
