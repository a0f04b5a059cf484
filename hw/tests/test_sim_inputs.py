from __future__ import annotations

from pathlib import Path

import pytest

import hwflow.sim as sim
from hwflow.cores import flow_cores
from hwflow.paths import REPO


def test_vector_files_exist() -> None:
    """Every file a testbench is declared to read is in the repository."""
    for core in flow_cores().values():
        for name in core.harness.vector_files:
            assert (REPO / name).is_file(), f"{core.name}: {name}"


def test_a_vector_file_is_part_of_the_cache_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Editing the ACVP file mlkem_sampler's testbench reads must rerun its simulations."""
    core = flow_cores()["mlkem_sampler"]
    (name,) = core.harness.vector_files
    repo = tmp_path / "repo"
    vectors = repo / name
    vectors.parent.mkdir(parents=True)
    vectors.write_bytes((REPO / name).read_bytes())
    lib = tmp_path / "libbike.a"
    lib.write_bytes(b"lib")
    monkeypatch.setattr(sim, "REPO", repo)
    monkeypatch.setattr(sim, "libbike", lambda: lib)
    sc = sim.SimConfig(core, "small", 1)
    before = sim.inputs_sha256(sc, 4, 6, 1, False)
    assert sim.inputs_sha256(sc, 4, 6, 1, False) == before
    vectors.write_bytes(vectors.read_bytes() + b"\n")
    assert sim.inputs_sha256(sc, 4, 6, 1, False) != before
