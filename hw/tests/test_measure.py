"""A design's measurement (hwflow measure) and the check of its verify record
against the sources (check-records), with the tools replaced by fakes."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from bikeco import verify as vf
from bikeco.designfile import load_design
from hwflow import cosim, design, measure, sim, synth
from hwflow.executor import Options
from hwflow.records import Check, check_designs
from hwflow.sim import SimConfig

DESIGN = Path(__file__).resolve().parents[2] / "python/tests/fixtures/designs/tiny_mul_acc.json"
STAT = "   Number of cells: 9\n     FDRE 2100\n     LUT6 4321\n     RAMB36E1 6\n     RAMB18E1 1\n"
LTP = "Longest topological path in gf2x_mul_acc (length=9):\n"


def fake_yosys(name: str, script: str, sources: dict[str, bytes]) -> dict[str, Any]:
    assert "-G KaratsubaLevels=0" in script and "-G R=12323" in script
    return {"stat": STAT, "ltp": LTP, "seconds": 1.0}


def fake_sims(
    configs: list[SimConfig], random: int, kat: int, seed: int, full: bool, make_jobs: str
) -> dict[str, Any]:
    runs = [{"cycles": {"op": 38027}, "verified": {"random": random, "kat": 2 * kat}}]
    return {"runs": runs * len(configs), "output": ""}


def fake_bus(tmp_path: Path) -> Any:
    """bike-cosim's run on the design's bus devices, as its record."""

    def run(d: Any, kat: int, random: int, wait: str = "irq") -> Path:
        (t,) = [(t, dev, cfg) for t, dev, cfg in design.placement_lines(d)]
        rec = {
            "kat_records": kat,
            "kat_matched": kat,
            "random": random,
            "random_matched": random,
            "tampered": random,
            "tampered_matched": random,
            "passed": True,
            "timing": {
                "pl_mhz": 100,
                "cpu_mhz": 667,
                "read_cycles": 20,
                "write_cycles": 12,
                "dma_setup_cycles": 100,
                "dma_bytes_per_cycle": 8,
                "irq_cycles": 700,
            },
            "targets": [
                {
                    "target": t[0],
                    "device": t[1],
                    "calls": 4,
                    "accelerator_cycles": 4 * 38100,
                    "transfer_cycles": 4 * 579,
                    "run_pl_cycles": 4 * 38963,
                }
            ],
        }
        out = tmp_path / "bus.json"
        out.write_text(json.dumps(rec))
        return out

    return run


@pytest.fixture
def record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A verify record of the fixture design made through the flow's measure."""
    monkeypatch.setenv("HW_BUILD_DIR", str(tmp_path / "build"))
    monkeypatch.setenv("HW_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(synth, "yosys_run", fake_yosys)
    monkeypatch.setattr(sim, "sim_group", fake_sims)
    monkeypatch.setattr(cosim, "run_design", fake_bus(tmp_path))

    def flow(design_file: Path, reports: Path) -> dict[str, Any]:
        return measure.measure(load_design(design_file), reports, 2, 2, Options(workers=1))

    out = tmp_path / "designs" / "tiny_mul_acc"
    vf.verify(vf.VerifyOptions(design=DESIGN, out=out), measure=flow, say=lambda _: None)
    return out


def checked(record: Path) -> Check:
    ck = Check([], [], [], [])
    check_designs(ck, record.parent)
    return ck


def test_measure_reports_the_design_core_and_its_hashes(record: Path) -> None:
    rec = json.loads((record / "verify.json").read_text())
    (core,) = rec["cores"]
    assert core["measured"]["lut"] == 4321 and core["measured"]["bram36"] == 6.5
    assert core["measured"]["cycles"] == {"op": 38027}
    assert core["verified"] == {"random": 2, "kat": 4}
    report = json.loads((record / core["synth_report"]).read_text())
    assert report["params"]["KaratsubaLevels"] == 0 and report["params"]["R"] == 12323
    assert report["inputs_sha256"] == core["synth_inputs_sha256"]
    assert (record / "gf2x_mul_acc_L1.stat.txt").read_text() == STAT


def test_a_current_record_passes(record: Path) -> None:
    ck = checked(record)
    assert ck.ok and len(ck.current) == 1
    assert ck.current[0].endswith("/designs/tiny_mul_acc/verify.json")


def test_changed_sources_make_the_record_stale(record: Path) -> None:
    path = record / "verify.json"
    rec = json.loads(path.read_text())
    rec["cores"][0]["sim_sources_sha256"] = "0" * 64  # as if the testbench changed since
    path.write_text(json.dumps(rec))
    ck = checked(record)
    assert ck.stale and "gf2x_mul_acc simulation" in ck.stale[0] and not ck.current


def test_a_changed_bus_device_or_driver_makes_the_record_stale(record: Path) -> None:
    path = record / "verify.json"
    rec = json.loads(path.read_text())
    assert rec["cosim"]["targets"][0]["device"] == "gf2x_mul_acc"
    rec["cosim"]["sources_sha256"] = "0" * 64  # as if the driver or the shell changed since
    path.write_text(json.dumps(rec))
    ck = checked(record)
    assert ck.stale and "co-simulation through the bus" in ck.stale[0] and not ck.current


def test_a_design_core_becomes_its_bus_device_with_its_parameters() -> None:
    d = load_design(DESIGN)
    ((dev, config, serves),) = design.bus_devices(d)
    assert (dev.name, serves) == ("gf2x_mul_acc", ["encaps.multiplication"])
    params = dev.params(config, 1)
    assert (params["KaratsubaLevels"], params["ParallelLevels"], params["R"]) == (0, 0, 12323)
    # the configuration names the parameters: another set, another Verilated model
    assert config != design.device_config({"KaratsubaLevels": 1, "ParallelLevels": 0})
    assert design.placement_lines(d) == [("encaps.multiplication", "gf2x_mul_acc", config)]
    kem = dataclasses.replace(
        d, cores=[dataclasses.replace(d.cores[0], core="bike_kem_full", params={"InvE": 8})]
    )
    ((dev, config, _),) = design.bus_devices(kem)
    assert dev.name == "bike_kem_full_acc" and dev.params(config, 1)["InvE"] == 8


def test_an_edited_design_or_report_is_a_mismatch(record: Path) -> None:
    design = record / "design.json"
    design.write_text(design.read_text().replace('"KaratsubaLevels": 0', '"KaratsubaLevels": 1'))
    ck = checked(record)
    assert "design.json is not the design verified" in ck.mismatch[0]


def test_a_report_that_differs_from_the_record_is_a_mismatch(record: Path) -> None:
    rep = record / "gf2x_mul_acc_L1.json"
    data = json.loads(rep.read_text())
    data["lut"] += 1
    data["lut_logic"] += 1
    rep.write_text(json.dumps(data))
    ck = checked(record)
    assert "measured area differs" in ck.mismatch[0]


def test_a_corrupt_record_is_a_mismatch(record: Path) -> None:
    (record / "verify.json").write_text("{")
    ck = checked(record)
    assert "cannot read a verify record" in ck.mismatch[0]
