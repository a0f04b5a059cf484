"""The long validation (hwflow validate): its plan of shards, its records and
their check against the sources (check-records), with the testbench runs
replaced by their results."""

from __future__ import annotations

import dataclasses
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bikeco.hwrecord import RecordError, dump, load_validation
from hwflow import validate as vd
from hwflow.cores import flow_cores
from hwflow.executor import default_options
from hwflow.records import Check
from hwflow.sim import SimConfig
from hwflow.tables import validation_table

CYCLES = {"decaps": 215678, "encaps": 24848, "keygen": 388231}


def test_plan_halves_the_runs_into_kat_and_random_shards() -> None:
    shards = vd.plan(1000)
    by_kind = {k: sum(s.count for s in shards if s.kind == k) for k in vd.KINDS}
    assert by_kind == {"kat": 100, "kat_derived": 400, "random": 500}
    assert max(s.count for s in shards) == vd.SHARD
    assert [s.name for s in vd.plan(2)] == ["kat_0_1", "random_0_1"]
    # a shard never mixes NIST records with derived ones
    assert all(s.first + s.count <= vd.NIST for s in vd.plan(330, 70) if s.kind == "kat")


def test_a_shorter_run_is_answered_by_a_longer_ones_first_shards() -> None:
    long = vd.plan(10_000)
    for runs in (100, 600, 1000):
        short = vd.plan(runs)
        assert short == long[: len(short)]
    assert len({s.seed for s in long if s.kind == "random"}) == 100


def test_kat_records_split_a_response_file() -> None:
    text = "# BIKE\n\ncount = 0\nseed = AA\n\ncount = 1\nseed = BB\n"
    assert vd.kat_records(text) == ["count = 0\nseed = AA\n", "count = 1\nseed = BB\n"]


def result(kind: str, runs: int, cycles: dict[str, int] = CYCLES) -> dict[str, Any]:
    return {"kind": kind, "runs": runs, "tampered": runs + 3, "cycles": cycles, "seconds": 2.0}


@pytest.fixture
def kats(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "kat"
    folder.mkdir()
    (folder / "PQCkemKAT_BIKE_L1.rsp").write_text("# BIKE\n\ncount = 0\n")
    monkeypatch.setenv("BIKE_KAT_DIR", str(folder))
    return folder


def fake_kat(level: int, count: int) -> list[str]:
    """libbike's KAT generator records, as far as the check sees them."""
    return [f"count = {i}\nss = {level:02X}{i:04X}\n" for i in range(count)]


@pytest.fixture
def records(tmp_path: Path, kats: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A validation record of the full small core at L1, as `validate` writes it."""
    monkeypatch.setattr(vd, "generate_kat", fake_kat)
    sc = SimConfig(flow_cores()["bike_kem_full"], "small", 1)
    shards = [result("kat", 50), result("kat_derived", 50), result("random", 1)]
    rec = vd.make_validation(sc, shards, vd.Sources.now(sc, fake_kat(1, 100)))
    out = tmp_path / "validation"
    out.mkdir()
    dump(rec, out / "bike_kem_full_small_L1.json")
    return out


def checked(root: Path) -> Check:
    ck = Check([], [], [], [])
    vd.check_validations(ck, flow_cores(), root)
    return ck


def edit(path: Path, **fields: Any) -> None:
    data = json.loads(path.read_text())
    data.update(fields)
    path.write_text(json.dumps(data))


def test_a_record_counts_its_shards(records: Path) -> None:
    rec = load_validation(records / "bike_kem_full_small_L1.json")
    assert (rec.runs, rec.counts.kat, rec.counts.kat_derived, rec.counts.random) == (101, 50, 50, 1)
    assert rec.counts.tampered == 110 and rec.processes == 3 and rec.failures == 0
    assert rec.cycles == CYCLES and rec.seconds_per_kem == pytest.approx(6.0 / 101)


def test_a_current_record_passes(records: Path) -> None:
    ck = checked(records)
    assert ck.ok and ck.current == ["results/validation/bike_kem_full_small_L1.json"]


def test_changed_rtl_or_testbench_makes_the_record_stale(records: Path) -> None:
    path = records / "bike_kem_full_small_L1.json"
    edit(path, sources_sha256="0" * 64)  # as if the RTL or testbench changed since
    ck = checked(records)
    assert not ck.current and "RTL, testbench or parameters changed since" in ck.stale[0]


def test_changed_libbike_outputs_make_the_record_stale(
    records: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def other(level: int, count: int) -> list[str]:
        recs = fake_kat(level, count)
        return [*recs[:-1], "count = 99\nss = 00\n"]  # the last record's ss changed

    monkeypatch.setattr(vd, "generate_kat", other)
    ck = checked(records)
    assert not ck.current and "libbike's KAT outputs changed since" in ck.stale[0]


def test_changed_libbike_sources_with_the_same_outputs_keep_the_record(
    records: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vd, "libbike_sha256", lambda: "1" * 64)
    assert checked(records).ok


def test_a_changed_kat_file_makes_the_record_stale(records: Path, kats: Path) -> None:
    (kats / "PQCkemKAT_BIKE_L1.rsp").write_text("# BIKE\n\ncount = 1\n")
    assert "PQCkemKAT_BIKE_L1.rsp changed since" in checked(records).stale[0]


def test_the_libbike_hash_covers_tracked_sources_only(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "kem.c").write_text("int x;\n")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "add", "lib"], check=True)
    before = vd.libbike_sha256(tmp_path)
    (tmp_path / "lib" / "scratch.c").write_text("untracked\n")
    assert vd.libbike_sha256(tmp_path) == before
    (tmp_path / "lib" / "mlkem").mkdir()
    (tmp_path / "lib" / "mlkem" / "ntt.c").write_text("int n;\n")
    subprocess.run(["git", "-C", str(tmp_path), "add", "lib/mlkem"], check=True)
    assert vd.libbike_sha256(tmp_path) == before  # ML-KEM is not libbike
    (tmp_path / "lib" / "kem.c").write_text("int y;\n")
    assert vd.libbike_sha256(tmp_path) != before


def test_failures_a_wrong_name_or_an_unknown_core_are_flagged(records: Path) -> None:
    path = records / "bike_kem_full_small_L1.json"
    edit(path, failures=1)
    assert "1 failures" in checked(records).mismatch[0]
    edit(path, failures=0, level=3)
    assert "named after another configuration" in checked(records).mismatch[0]
    edit(path, level=1, core="gf2x_mul")
    assert checked(records).orphan == ["results/validation/bike_kem_full_small_L1.json"]


def test_counts_must_add_up(records: Path) -> None:
    path = records / "bike_kem_full_small_L1.json"
    edit(path, runs=102)
    with pytest.raises(RecordError, match="runs: 102 is not kat"):
        load_validation(path)
    assert "runs: 102 is not kat" in checked(records).mismatch[0]


def test_shards_with_other_cycles_stop_the_record(kats: Path) -> None:
    sc = SimConfig(flow_cores()["bike_kem_full"], "small", 1)
    with pytest.raises(SystemExit, match="cycles differ"):
        shards = [result("kat", 1), result("random", 1, {**CYCLES, "decaps": 1})]
        vd.make_validation(sc, shards, vd.Sources.now(sc, fake_kat(1, 1)))


def test_the_table_shows_the_runs_against_the_target(records: Path) -> None:
    text = validation_table([flow_cores()["bike_kem_full"]], records)
    row = "| bike_kem_full | small | L1 | 101 of 10,000 | 50 + 50 + 1 | 110 | 0 |"
    assert row in text


def run_of(sc: SimConfig, runs: int, libbike: str = "2" * 64) -> Any:
    """The record `validate` writes for the shards of a run of `runs` KEMs."""
    shards = [result(s.kind, s.count) for s in vd.plan(runs)]
    kat_runs = sum(s.count for s in vd.plan(runs) if s.kind != "random")
    sources = vd.Sources.now(sc, fake_kat(1, kat_runs))
    return vd.make_validation(sc, shards, dataclasses.replace(sources, libbike=libbike))


def test_an_extension_adds_its_kems_and_keeps_the_first_runs_sources(
    tmp_path: Path, kats: Path
) -> None:
    sc = SimConfig(flow_cores()["bike_kem_full"], "small", 1)
    first = run_of(sc, 200, libbike="1" * 64)
    later = vd.make_validation(
        sc,
        [result(s.kind, s.count) for s in vd.plan(300)[len(vd.plan(200)) :]],
        vd.Sources.now(sc, fake_kat(1, 150)),
    )
    rec = vd.extended(first, later)
    assert (rec.runs, rec.counts.kat, rec.counts.kat_derived, rec.counts.random) == (
        300,
        100,
        50,
        150,
    )
    assert rec.processes == 6 and rec.counts.tampered == 300 + 6 * 3
    assert rec.libbike_sha256 == "1" * 64  # the first run's
    assert rec.kat_outputs_sha256 == vd.kat_outputs_sha256(fake_kat(1, 150))
    assert [(e.runs, e.processes, e.libbike_sha256) for e in rec.extensions] == [
        (100, 2, later.libbike_sha256)
    ]
    assert vd.extended(rec, later).extensions[-1].runs == 100  # extended twice: both listed
    path = tmp_path / "bike_kem_full_small_L1.json"
    dump(rec, path)  # written as validate writes it, and read back unchanged
    assert load_validation(path) == rec
    with pytest.raises(SystemExit, match="cycles"):
        vd.extended(first, dataclasses.replace(later, cycles={**CYCLES, "decaps": 1}))


def test_only_a_current_record_of_a_shorter_run_is_extended(
    tmp_path: Path, kats: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vd, "generate_kat", fake_kat)
    sc = SimConfig(flow_cores()["bike_kem_full"], "small", 1)
    path = tmp_path / "bike_kem_full_small_L1.json"
    with pytest.raises(SystemExit, match="no record"):
        vd.extendable(sc, path, 300)
    dump(run_of(sc, 200), path)
    assert vd.extendable(sc, path, 300).runs == 200
    with pytest.raises(SystemExit, match="has 200 KEMs already"):
        vd.extendable(sc, path, 200)
    dump(run_of(sc, 150), path)  # 75 + 75: its last shards are not a longer run's
    with pytest.raises(SystemExit, match="not the first shards of 300"):
        vd.extendable(sc, path, 300)
    dump(dataclasses.replace(run_of(sc, 200), sources_sha256="0" * 64), path)
    with pytest.raises(SystemExit, match=r"stale \(RTL, testbench or parameters"):
        vd.extendable(sc, path, 300)


def test_extensions_must_leave_a_first_run(records: Path) -> None:
    path = records / "bike_kem_full_small_L1.json"
    ext = {"runs": 101, "processes": 1, "sim_seconds": 1.0, "libbike_sha256": "1", "compiler": "c"}
    edit(path, extensions=[ext])
    with pytest.raises(RecordError, match="extensions: add up to the whole record"):
        load_validation(path)
    edit(path, extensions=[{**ext, "runs": 1}])
    assert load_validation(path).extensions[0].runs == 1
    edit(path, extensions=[])
    with pytest.raises(RecordError, match="expected a non-empty array"):
        load_validation(path)


def test_validating_one_shape_leaves_the_others_records_alone(
    records: Path, kats: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the folder holds the full core's record; the server shape is validated
    sc = SimConfig(flow_cores()["bike_kem_server"], "small", 1)

    def fake_config(sc: SimConfig, runs: int, opts: Any, out: Path, extend: bool) -> Path:
        rec = vd.make_validation(
            sc, [result("kat", runs, {"encaps": 1})], vd.Sources.now(sc, fake_kat(1, runs))
        )
        path = out / f"{sc.core.name}_{sc.config}_L{sc.level}.json"
        dump(dataclasses.replace(rec, counts=dataclasses.replace(rec.counts, tampered=0)), path)
        return path

    monkeypatch.setattr(vd, "validate_config", fake_config)
    edit(records / "bike_kem_full_small_L1.json", sources_sha256="0" * 64)  # stale, not ours
    paths = vd.validate([sc.core], [1], ["small"], 4, default_options(), records)
    assert [p.name for p in paths] == ["bike_kem_server_small_L1.json"]
    assert checked(records).stale  # the other record is still reported by check-records
