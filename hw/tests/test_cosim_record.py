"""The co-simulation record's schema (hwflow/cosim.py) against its document
and its checker against good and bad records."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from hwflow.cosim import OPERATION, RECORD, check_record, fields_table
from hwflow.paths import REPO

DOC = REPO / "docs" / "cosim-run-json.md"


def _example() -> Any:
    m = re.search(r"```json\n(.*?)```", DOC.read_text(), re.S)
    assert m is not None
    return json.loads(m.group(1))


def test_doc_tables_are_the_schema() -> None:
    text = DOC.read_text()
    assert "<!-- fields: record -->\n" + fields_table(RECORD) in text
    assert "<!-- fields: operation -->\n" + fields_table(OPERATION) in text


def test_example_passes() -> None:
    assert check_record(_example()) == []


def test_bad_records_fail() -> None:
    rec = _example()
    missing = copy.deepcopy(rec)
    del missing["passed"]
    assert check_record(missing) == ["record: missing passed"]
    short = copy.deepcopy(rec)
    short["operations"][0]["run_pl_cycles"] = short["operations"][0]["accelerator_cycles"]
    assert check_record(short) == ["operations[0]: the run is not longer than CYCLES"]
    typed = copy.deepcopy(rec)
    typed["operations"][1]["reg_reads"] = True
    assert check_record(typed) == ["operations[1]: reg_reads is not a int"]
    extra = copy.deepcopy(rec)
    extra["timing"]["cpu_ghz"] = 1
    assert check_record(extra) == [f"record: timing fields {sorted(extra['timing'])}"]
