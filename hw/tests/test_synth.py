"""Synthesis scripts, the reports' input hash and their figures."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from hwflow.cores import flow_cores
from hwflow.records import check_reports
from hwflow.synth import SynthJob, inputs_sha256, summarise, synth_jobs
from hwflow.tools import yosys_script

STAT = """
   Number of cells:               1234
     CARRY4                         85
     FDRE                          500
     FDSE                           13
     INV                             2
     LUT2                          300
     LUT6                          400
     RAM64M                          3
     RAMB18E1                        4
     RAMB36E1                        4
"""
LTP = "Longest topological path in gf2x_mul (length=8):\n"


def test_summary_counts_luts_ram_and_depth() -> None:
    s = summarise(STAT, LTP)
    assert s["lut_logic"] == 702
    assert s["lut_ram"] == 12
    assert s["lut"] == 714
    assert s["ff"] == 513
    assert (s["ramb36"], s["ramb18"], s["carry4"], s["lut_depth"]) == (4, 4, 85, 8)


def test_script_text() -> None:
    script = yosys_script("top", {"W": 32, "R": 12323}, ["a.sv", "b.sv"])
    assert script.splitlines()[0] == "read_slang -j 1 -G W=32 -G R=12323 --top top a.sv b.sv"
    assert "synth_xilinx -family xc7 -top top -flatten -noiopad -noclkbuf" in script


def test_hash_covers_script_names_contents_and_yosys(tmp_path: Path) -> None:
    (tmp_path / "a.sv").write_text("module a; endmodule\n")
    h = hashlib.sha256()
    h.update(b"S")
    h.update(b"a.sv\0module a; endmodule\n")
    h.update(b"0.70")
    assert inputs_sha256("S", ["a.sv"], "0.70", tmp_path) == h.hexdigest()
    base = inputs_sha256("S", ["a.sv"], "0.70", tmp_path)
    assert inputs_sha256("S2", ["a.sv"], "0.70", tmp_path) != base
    assert inputs_sha256("S", ["a.sv"], "0.71", tmp_path) != base
    (tmp_path / "a.sv").write_text("module a; wire x; endmodule\n")
    assert inputs_sha256("S", ["a.sv"], "0.70", tmp_path) != base


def test_committed_report_script_is_rebuilt_exactly() -> None:
    job = next(j for j in synth_jobs(flow_cores()["gf2x_mul"], [1, 3]) if j.name == "small_L1")
    assert job.report.with_suffix(".ys").read_text() == job.script


def test_synth_jobs_of_a_core_without_level_parameters_use_one_level() -> None:
    names = [j.name for j in synth_jobs(flow_cores()["keccak"], [1, 3])]
    assert names == ["small_L1", "medium_L1", "large_L1"]
    kem = [j.name for j in synth_jobs(flow_cores()["bike_kem_full"], [3], ["medium"])]
    assert kem == ["full_medium_L3"]
    units = synth_jobs(flow_cores()["bike_ram"], [1, 3])
    assert isinstance(units[0], SynthJob) and units[0].top == "bike_ram_sdp"
    assert synth_jobs(flow_cores()["sparse_dual"], [1]) == []


def test_every_committed_report_and_record_matches_its_sources() -> None:
    """No report or record without a configuration, every record equal to its
    core file's preset and its report, and none stale (sources changed since
    its run: an RTL edit lands with its regenerated reports)."""
    ck = check_reports(list(flow_cores().values()))
    assert ck.current
    assert not ck.stale, ck.stale
    assert not ck.orphan and not ck.mismatch, (ck.orphan, ck.mismatch)


def test_check_finds_a_stale_report(monkeypatch: pytest.MonkeyPatch) -> None:
    core = flow_cores()["gf2x_mul"]
    assert "gf2x_mul/syn/reports/small_L1.json" in check_reports([core]).current
    monkeypatch.setattr("hwflow.synth.yosys_pin", lambda: "0.0")  # an input changed
    ck = check_reports([core])
    assert "gf2x_mul/syn/reports/small_L1.json" in ck.stale
    assert not [c for c in ck.current if "/syn/reports/" in c]
