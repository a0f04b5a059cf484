"""The designs of `bikeco design` through the flow: the RTL takes the parameters it chose."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bikeco.cli import main
from bikeco.designfile import load_design
from hwflow.paths import HW


@pytest.mark.parametrize("device", ["xc7z010", "xc7z020", "xc7a200t"])
def test_designed_kem_core_lints(device: str, tmp_path: Path) -> None:
    out = tmp_path / "d.json"
    assert main(["design", "--device", device, "--out", str(out), "--hw", str(HW)]) == 0
    d = load_design(out)
    assert d.cores and d.cores[0].core.startswith("bike_kem_")
    res = subprocess.run(
        [sys.executable, "-m", "hwflow", "lint", "--design", str(out)],
        cwd=HW,
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert f"lint {d.cores[0].core}: clean" in res.stdout
