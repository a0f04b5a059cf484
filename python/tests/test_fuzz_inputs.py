"""Replays the explorer's fuzz inputs (tests/fuzz_inputs.py): the seeds, and every input in
tests/fuzz_cases/ (each once raised something other than BikecoError; the name says what)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fuzz_inputs import KINDS, check_one, seeds

CASES = sorted((Path(__file__).parent / "fuzz_cases").iterdir())


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fuzz_case_gives_a_clear_error(case: Path, tmp_path: Path) -> None:
    check_one(case.read_bytes(), tmp_path)


def test_seeds_load(tmp_path: Path) -> None:
    found = list(seeds())
    assert {data[0] for _, data in found} == set(range(len(KINDS)))
    for _, data in found:
        check_one(data, tmp_path)
