"""The driver's cosim platform: a shell device's Verilated model linked with
the driver (compiled with its cosim platform) and driver/tests/test_cosim.cpp
into one program, run against libbike (driver/README.md, `cosim`)."""

from __future__ import annotations

import sys
from pathlib import Path

from hwflow.cores import FlowCore
from hwflow.paths import REPO, build_dir, kat_dir
from hwflow.sim import JOBS, libbike
from hwflow.tools import run, verilator_build

DRIVER = REPO / "driver"
# the driver's C files (the cosim platform is C++, compiled by Verilator's make)
DRIVER_C = ["acc.c", "fake.c", "fake_shell.c", "uio.c"]
PRESET = "medium"


def build(core: FlowCore, level: int) -> Path:
    """The co-simulation program of `core` (a shell device) at its medium
    preset and `level`, rebuilt when a source or libbike is newer."""
    mdir = build_dir() / "cosim" / f"{core.name}_L{level}"
    exe = mdir / "cosim"
    lib = libbike()
    incs = [f"-I{d}" for d in [DRIVER / "include", DRIVER / "src", *core.include_dirs]]
    cpp = [DRIVER / "src" / "cosim.cpp", DRIVER / "tests" / "test_cosim.cpp"]
    csrc = [DRIVER / "src" / c for c in DRIVER_C]
    hdrs = [*(DRIVER / "include").glob("*.h"), *(DRIVER / "src").glob("*.h"), *core.headers]
    files = core.vlt + core.rtl
    deps = [REPO / "hw" / f for f in files] + cpp + csrc + hdrs + [lib]
    if exe.exists() and all(d.stat().st_mtime < exe.stat().st_mtime for d in deps):
        return exe
    odir = mdir.parent / f"{mdir.name}_c"
    odir.mkdir(parents=True, exist_ok=True)
    objs: list[str] = []
    for src in csrc:
        obj = odir / (src.stem + ".o")
        cflags = ["-O2", "-std=c11", "-DBIKE_ACC_WITH_COSIM", "-D_FILE_OFFSET_BITS=64"]
        run(["cc", *cflags, "-c", "-o", str(obj), str(src), *incs])
        objs.append(str(obj))
    cmd = verilator_build(
        top=core.top,
        params=core.params(PRESET, level),
        files=[*files, *(str(c) for c in cpp)],
        mdir=mdir,
        cflags=" ".join(["-O2", "-DBIKE_ACC_WITH_COSIM", *incs]),
        ldflags=" ".join([*objs, str(lib)]),
        jobs=JOBS,
        shared_runtime=False,
    )
    cmd[cmd.index("tb")] = "cosim"  # the program's name (-o)
    cmd += ["--prefix", "Vacc"]  # one class name for every device
    run(cmd, log=mdir.with_suffix(".build.log"))
    return exe


def cosim(core: FlowCore, level: int, random: int, kat: int, seed: int = 1) -> None:
    """Build and run the co-simulation test; exits on a failure."""
    exe = build(core, level)
    cmd = [str(exe), "--level", str(level), "--random", str(random), "--kat", str(kat)]
    cmd += ["--seed", str(seed), "--kat-dir", str(kat_dir())]
    res, seconds = run(cmd, check=False)
    sys.stdout.write(res.stdout)
    if res.returncode != 0:
        sys.exit(f"FAILED: cosim {core.name} L{level}")
    print(f"  (cosim {core.name} L{level}: run {seconds:.1f} s)", flush=True)
