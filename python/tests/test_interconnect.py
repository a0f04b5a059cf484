from __future__ import annotations

import pytest

from bikeco.data_files import read_table
from bikeco.errors import BikecoError
from bikeco.interconnect import calibrate, poly_bytes, target_bytes


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
