"""The documented FuseSoC runs (README.md), from hw/ with scripts/env.sh."""

from __future__ import annotations

import re
import subprocess

import pytest

from hwflow.cores import library
from hwflow.paths import HW


def fusesoc(args: str) -> str:
    res = subprocess.run(
        ["bash", "-c", f". scripts/env.sh && fusesoc {args}"],
        cwd=HW,
        text=True,
        capture_output=True,
    )
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return res.stdout + res.stderr


def test_core_list_names_every_core_file() -> None:
    out = fusesoc("core list")
    listed = set(re.findall(r"^(bikeco:\S+):0\.1", out, re.M))
    assert listed == set(library())


@pytest.mark.parametrize("core", ["gf2x_mul", "bike_kem"])
def test_lint(core: str) -> None:
    fusesoc(f"run --target=lint bikeco:ip:{core}")


def test_sim_gf2x_mul() -> None:
    out = fusesoc("run --target=sim bikeco:ip:gf2x_mul")
    assert re.search(r"20 random \+ 0 KAT products .*, 0 failures", out), out[-2000:]
