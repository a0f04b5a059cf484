"""The driver's cosim platform: a shell device's Verilated model linked with
the driver (compiled with its cosim platform) and driver/tests/test_cosim.cpp
into one program, run against libbike (driver/README.md, `cosim`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from hwflow.cores import FlowCore
from hwflow.paths import REPO, build_dir, kat_dir
from hwflow.sim import JOBS, libbike
from hwflow.tools import run, verilator_build

DRIVER = REPO / "driver"
# the driver's C files (the cosim platform is C++, compiled by Verilator's make)
DRIVER_C = ["acc.c", "fake.c", "fake_shell.c", "uio.c"]
PRESET = "medium"

# The run's JSON record (docs/cosim-run-json.md, whose field tables are
# fields_table()'s output): field -> (JSON type, Python type, meaning).
Fields = dict[str, tuple[str, type, str]]
RECORD: Fields = {
    "schema": ("string", str, "`bikeco-cosim/1`"),
    "device": ("string", str, "the shell device: gf2x_mul_acc or gf2x_inv_acc (medium preset)"),
    "level": ("integer", int, "BIKE level"),
    "timing": (
        "object of integers",
        dict,
        "the timing model's parameters in use (driver/README.md)",
    ),
    "verified": ("object of integers", dict, "`random` and `kat`: operand sets asked for"),
    "passed": ("boolean", bool, "every result bit-exact and every error path as expected"),
    "operations": ("array of objects", list, "one per operation, in order (below)"),
}
OPERATION: Fields = {
    "what": ("string", str, "random, kat ..., after (the run after a failed one), polled"),
    "index": ("integer", int, "the operand set's number within `what`"),
    "wait": ("string", str, "`irq` or `poll`: how the driver waited for DONE"),
    "accelerator_cycles": ("integer", int, "the shell's CYCLES register"),
    "transfer_cycles": ("integer", int, "PL cycles with an operand or result stream moving"),
    "run_pl_cycles": ("integer", int, "bike_acc_run from its first register access to its return"),
    "reg_reads": ("integer", int, "register reads of the run"),
    "reg_writes": ("integer", int, "register writes of the run"),
}
TIMING = [
    "pl_mhz",
    "cpu_mhz",
    "read_cycles",
    "write_cycles",
    "dma_setup_cycles",
    "dma_bytes_per_cycle",
    "irq_cycles",
]


def _check_fields(obj: Any, fields: Fields, where: str) -> list[str]:
    if not isinstance(obj, dict):
        return [f"{where}: not an object"]
    errs = [f"{where}: missing {k}" for k in fields if k not in obj]
    errs += [f"{where}: unknown {k}" for k in obj if k not in fields]
    for k, (_, typ, _) in fields.items():
        v = obj.get(k)
        ok = isinstance(v, typ) and (typ is bool or not isinstance(v, bool))
        if k in obj and not ok:
            errs.append(f"{where}: {k} is not a {typ.__name__}")
    return errs


def check_record(rec: Any) -> list[str]:
    """What is wrong with a run's record (nothing: [])."""
    errs = _check_fields(rec, RECORD, "record")
    if errs:
        return errs
    if rec["schema"] != "bikeco-cosim/1":
        errs.append(f"record: schema {rec['schema']}")
    if sorted(rec["timing"]) != sorted(TIMING):
        errs.append(f"record: timing fields {sorted(rec['timing'])}")
    for i, op in enumerate(rec["operations"]):
        e = _check_fields(op, OPERATION, f"operations[{i}]")
        if not e and op["run_pl_cycles"] <= op["accelerator_cycles"]:
            e.append(f"operations[{i}]: the run is not longer than CYCLES")
        errs += e
    return errs


def fields_table(fields: Fields) -> str:
    """A field table of docs/cosim-run-json.md."""
    rows = [f"| `{k}` | {t} | {m} |" for k, (t, _, m) in fields.items()]
    return "\n".join(["| field | type | meaning |", "|---|---|---|", *rows]) + "\n"


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


def cosim(core: FlowCore, level: int, random: int, kat: int, seed: int = 1) -> Path:
    """Build and run the co-simulation test; exits on a failure. Returns the
    run's JSON record (checked against the schema)."""
    exe = build(core, level)
    out = exe.parent.with_name(f"{exe.parent.name}.json")
    out.unlink(missing_ok=True)
    cmd = [str(exe), "--level", str(level), "--random", str(random), "--kat", str(kat)]
    cmd += ["--seed", str(seed), "--kat-dir", str(kat_dir()), "--json", str(out)]
    res, seconds = run(cmd, check=False)
    sys.stdout.write(res.stdout)
    if res.returncode != 0:
        sys.exit(f"FAILED: cosim {core.name} L{level}")
    errs = check_record(json.loads(out.read_text()))
    if errs:
        sys.exit(f"FAILED: cosim {core.name} L{level}: record {out}: " + "; ".join(errs))
    print(f"  (cosim {core.name} L{level}: run {seconds:.1f} s; record {out})", flush=True)
    return out
