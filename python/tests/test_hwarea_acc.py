"""The bus devices' block RAM in the area model against the verified designs' synthesis."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bikeco import hwarea

HW = Path(__file__).resolve().parents[2] / "hw"
DEVICES = [
    (path.parent.name, core)
    for path in sorted(HW.glob("results/designs/*/verify.json"))
    for core in json.loads(path.read_text())["cores"]
    if core["core"].endswith("_acc")
]


@pytest.mark.parametrize("device", DEVICES, ids=lambda d: f"{d[0]}-{d[1]['core']}")
def test_bus_device_bram_is_the_measured(device: tuple[str, dict[str, object]]) -> None:
    # a multiplier of fewer Karatsuba levels than the medium devices keeps its deeper blocks
    # in block RAM: 4 to 5 BRAM36 the medium-fitted model missed
    _, core = device
    params = core["params"]
    measured = core["measured"]
    assert isinstance(params, dict) and isinstance(measured, dict)
    got = hwarea.default_model(HW).acc(str(core["core"]), params, 1)["bram36"]
    assert abs(got - measured["bram36"]) <= 0.5


def test_the_medium_devices_keep_their_reports_bram() -> None:
    model = hwarea.default_model(HW)
    medium = {"E": 16, "KaratsubaLevels": 2, "ParallelLevels": 1}
    assert model.acc("gf2x_inv_acc", medium, 1)["bram36"] == 11.0  # inv_medium_L1: 11 RAMB36
    assert model.acc("gf2x_mul_acc", medium, 1)["bram36"] == 1.0  # mul_medium_L1: 1 RAMB36
    assert set(model.acc_fit["mul_bram"]) == {"KL0", "KL1"}
