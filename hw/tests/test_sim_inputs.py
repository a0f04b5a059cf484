from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Mapping
from pathlib import Path

import pytest
import yaml

import hwflow.sim as sim
from bikeco import tbcycles
from hwflow.cores import FlowCore, flow_cores
from hwflow.levels import level_values
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


def _hook_args(core: FlowCore) -> tuple[str, dict[str, int]]:
    """The core file's tb_cycles script: its --core and --param values."""
    raw = yaml.safe_load(core.core.path.read_text())
    cmd = [str(x) for x in raw["scripts"]["tb_cycles"]["cmd"]]
    assert cmd[:3] == ["python", "-m", "bikeco.tbcycles"]
    params = dict(
        (k, int(v)) for k, v in (cmd[i + 1].split("=") for i, a in enumerate(cmd) if a == "--param")
    )
    assert cmd[cmd.index("--levels") + 1] == "1"  # the sim targets run at L1
    return cmd[cmd.index("--core") + 1], params


@pytest.mark.parametrize("name", tbcycles.CORES)
def test_sim_target_writes_the_cycles_of_its_parameters(name: str) -> None:
    """The FuseSoC sim target's hook gives the cycles of the parameters it builds with, and
    the testbench reads them."""
    core = flow_cores()[name]
    raw = yaml.safe_load(core.core.path.read_text())
    assert raw["targets"]["sim"]["hooks"]["pre_build"] == ["tb_cycles"]
    hook_core, hook_params = _hook_args(core)
    assert hook_core == name
    built = {**core.core.targets["sim"].params, **level_values(1, core.level_params)}
    assert tbcycles.testbench_cycles(name, 1, hook_params) == tbcycles.testbench_cycles(
        name, 1, built
    )
    assert all('#include "tb_formula.h"' in t.read_text() for t in core.testbench)


def test_no_other_testbench_needs_the_header() -> None:
    """A testbench that includes tb_formula.h is one whose build writes tb_cycles.h."""
    for core in flow_cores().values():
        if any('#include "tb_formula.h"' in t.read_text() for t in core.testbench):
            assert core.name in tbcycles.CORES, core.name


def test_the_cycles_are_part_of_the_build_and_its_hash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A changed formula rebuilds the testbench and changes the hash records cite."""
    core = flow_cores()["gf2x_sqr_k"]
    sc = sim.SimConfig(core, "small", 3)
    header = sim.cycles_header(sc)
    assert header == tbcycles.header("gf2x_sqr_k", [3], sc.params)
    before = (sim.signature(sc), sim.sources_sha256(sc))
    real = tbcycles.testbench_cycles

    def off_by_one(core: str, level: int, params: Mapping[str, int]) -> dict[str, int]:
        return {op: c + 1 for op, c in real(core, level, params).items()}

    monkeypatch.setattr(tbcycles, "testbench_cycles", off_by_one)
    assert sim.signature(sc) != before[0]
    assert sim.sources_sha256(sc) != before[1]
    # a testbench without formulas (the KEM's: constant time only) has no header
    kem = sim.SimConfig(flow_cores()["bike_kem_full"], "medium", 1)
    assert sim.cycles_header(kem) is None


def test_libbike_builds_one_worker_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two workers asking for libbike at once (no prebuilt library) must not run its cmake
    configure and build in the same folder at the same time (they raced: a configure failed)."""
    monkeypatch.setenv("LIBBIKE", str(tmp_path / "none.a"))
    monkeypatch.setenv("HW_BUILD_DIR", str(tmp_path / "build"))
    spans: list[tuple[float, float]] = []

    def slow_run(cmd: list[str], **_: object) -> None:
        start = time.monotonic()
        time.sleep(0.2)
        spans.append((start, time.monotonic()))

    monkeypatch.setattr(sim, "run", slow_run)
    workers = [threading.Thread(target=sim.libbike) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    spans.sort()
    assert len(spans) == 4
    # no two cmake runs overlap: one worker's configure and build, then the other's
    assert all(nxt[0] >= prev[1] for prev, nxt in itertools.pairwise(spans))
