"""The plan as the driver's placement description (bikeco.placement): one
line per assignment, with target names the driver knows."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bikeco.cli import main
from bikeco.paths import repo_root
from bikeco.placement import placement_text


def driver_targets() -> set[str]:
    """The target names of the driver's parser (driver/src/offload.c)."""
    src = (repo_root() / "driver" / "src" / "offload.c").read_text()
    table = src.split("target_names[BIKE_ACC_N_TARGETS] = {", 1)[1].split("};", 1)[0]
    return set(re.findall(r'= "([a-z_.]+)"', table))


@pytest.mark.parametrize("device", ["xc7z010", "xc7z015", "xc7z020"])
def test_zynq_plans(device: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "placement.txt"
    args = ["plan", "--device", device, "--hw-source", "bikeco", "--json"]
    assert main([*args, "--placement-out", str(out)]) == 0
    plan = json.loads(capsys.readouterr().out)
    lines = [ln.split() for ln in out.read_text().splitlines() if not ln.startswith("#")]
    assert [ln[0] for ln in lines] == [a["target"] for a in plan["assignments"]]
    assert lines, "a Zynq plan puts something in hardware"
    known = driver_targets()
    # every target the explorer can place, whether placed here or not
    assert {t for t in plan["placement"] if not t.endswith(".other")} <= known
    for target, dev, preset in lines:
        assert target in known, target
        assert dev.endswith("_acc"), dev
        assert preset in ("small", "medium", "large"), preset


def test_device_names() -> None:
    """A core's shell device: gf2x_mul's is gf2x_mul_acc."""
    plan = {"device": "x", "level": 1, "hw_source": "bikeco"}
    targets = driver_targets()
    assert {"keygen", "keygen.inversion", "decaps.decoding", "encaps.k_function"} <= targets
    units = [{"name": "u", "core": "gf2x_mul", "config": "medium"}]
    assignments = [{"target": "encaps.multiplication", "unit": "u"}]
    text = placement_text({**plan, "units": units, "assignments": assignments})
    assert text.splitlines()[1] == "encaps.multiplication gf2x_mul_acc medium"
    units = [{"name": "u", "core": "sampler", "config": "small"}]
    assignments = [{"target": "keygen.prng", "unit": "u"}]
    text = placement_text({**plan, "units": units, "assignments": assignments})
    assert text.splitlines()[1] == "keygen.prng keccak_sampler_acc small"
