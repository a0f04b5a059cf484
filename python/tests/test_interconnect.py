from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path

import pytest

from bikeco.data_files import read_table
from bikeco.designfile import load_design
from bikeco.errors import BikecoError
from bikeco.hwcycles import PRIMS, kem_acc_stream_cycles
from bikeco.interconnect import (
    DriverTiming,
    calibrate,
    driver_cycles,
    driver_timing,
    poly_bytes,
    run_cycles,
    target_bytes,
)


def test_none_is_free() -> None:
    m = calibrate("none")
    assert m.time_ms(5, 10**6) == 0.0


@pytest.mark.parametrize("kind", ["baremetal", "sdsoc"])
def test_calibration_fits_seed004_table5(kind: str) -> None:
    m = calibrate(kind)
    assert m.fixed_us > 0 and m.us_per_byte > 0
    for r in read_table("transfer_004_table5.csv"):
        pred_us = 1000 * m.time_ms(int(r["calls"]), int(r["bytes_in"]) + int(r["bytes_out"]))
        assert pred_us == pytest.approx(float(r[f"{kind}_us"]), rel=0.2)


def test_sdsoc_slower_than_bare_metal() -> None:
    bm, sd = calibrate("baremetal"), calibrate("sdsoc")
    assert sd.time_ms(1, 8192) > bm.time_ms(1, 8192)
    assert 200 < sd.bandwidth_mb_s < bm.bandwidth_mb_s < 10_000


def test_sizes() -> None:
    assert poly_bytes(1) == 1541
    assert target_bytes("keygen.multiplication", 1) == 3 * 1541
    assert target_bytes("decaps", 3) > target_bytes("decaps", 1)
    with pytest.raises(BikecoError):
        poly_bytes(2)
    with pytest.raises(BikecoError):
        calibrate("pcie")


# ---- the driver's model against the co-simulation -------------------------------------------

REPO = Path(__file__).resolve().parents[2]


def test_driver_timing_is_the_cosim_platforms_default() -> None:
    # driver/src/cosim.cpp: t.<field> = pick(g.<field>, "BIKE_COSIM_<FIELD>", <default>);
    src = (REPO / "driver" / "src" / "cosim.cpp").read_text()
    found = {k.lower(): int(v) for k, v in re.findall(r'"BIKE_COSIM_(\w+)", (\d+)\)', src)}
    t = DriverTiming()
    for f in fields(DriverTiming):
        assert found[f.name] == getattr(t, f.name), f.name
    assert calibrate("driver").fixed_us == driver_cycles(t) / t.pl_mhz


def test_a_timing_without_a_field_is_a_clear_error() -> None:
    t = {f.name: getattr(DriverTiming(), f.name) for f in fields(DriverTiming)}
    assert driver_timing(t) == DriverTiming()
    del t["irq_cycles"]
    with pytest.raises(BikecoError, match="timing has no usable 'irq_cycles'"):
        driver_timing(t)


def test_kem_stream_cycles_are_the_docs() -> None:
    # hw/ip/bike_kem/doc/bike_kem.md: "| KEYGEN | C + 3N + 3D + 31 | 389,054 (core 388,231) |
    # - | 429,575 (core 428,077) |", columns full small L1, decaps medium L1, full medium L3
    doc = (REPO / "hw" / "ip" / "bike_kem" / "doc" / "bike_kem.md").read_text()
    seen = 0
    for op in PRIMS:
        row = re.search(rf"^\| {op.upper()} \| C \+ [^|]+\|(.*)$", doc, re.M)
        assert row is not None, op
        cells = row.group(1).split("|")[:3]
        for level, cell in zip((1, 1, 3), cells, strict=True):
            m = re.match(r"\s*([\d,]+) \(core ([\d,]+)\)", cell)
            if m is None:
                continue
            total, core = (int(g.replace(",", "")) for g in m.groups())
            assert total - core == kem_acc_stream_cycles(level, op), (op, level)
            seen += 1
    assert seen == 7


def _verify_records() -> list[Path]:
    paths = sorted((REPO / "hw" / "results" / "designs").glob("*/verify.json"))
    assert paths, "no committed verify record"
    return paths


@pytest.mark.parametrize("path", _verify_records(), ids=lambda p: p.parent.name)
def test_driver_model_predicts_the_cosimulated_runs(path: Path) -> None:
    # every target's PL cycles per call through the co-simulated driver, predicted from the
    # cycles of the design's core serving it (a KEM core's primitive or a unit device's
    # operation) and the run's timing (the record's prediction is this model's)
    rec = json.loads(path.read_text())
    design = load_design(path.parent / rec["design_file"])
    cosim = rec["cosim"]
    timing = driver_timing(cosim["timing"])
    for t in cosim["targets"]:
        core = next(c for c in design.cores if t["target"] in c.serves)
        cycles = core.predicted.cycles
        device = cycles[t["target"]] if t["target"] in cycles else cycles["op"]
        want = run_cycles(t["target"], rec["level"], device, timing)
        assert abs(want - t["run_pl_cycles"]) <= 1e-3 * t["run_pl_cycles"], t["target"]
        assert t["predicted_pl_cycles"] == want, t["target"]
