"""The driver's cosim platform: a shell device's Verilated model linked with
the driver (compiled with its cosim platform) and driver/tests/test_cosim.cpp
into one program, run against libbike (driver/README.md, `cosim`)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from bikeco.designfile import Design
from hwflow import design
from hwflow.cores import FlowCore, flow_cores
from hwflow.paths import REPO, build_dir, kat_dir
from hwflow.sim import JOBS, libbike
from hwflow.tools import NO_PCH, gparams, run, tool_env, verilator_pin

DRIVER = REPO / "driver"
REGS = REPO / "hw" / "ip" / "acc_shell" / "sw"
KAT_DRBG = REPO / "lib" / "kat_drbg"
# the driver's C files (the cosim platform is C++), and the KAT generator's
DRIVER_C = ["acc.c", "fake.c", "fake_shell.c", "uio.c", "offload.c"]
DRBG_C = ["drbg.c", "aes256.c"]
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


# The record of a placement's run (docs/cosim-placement-json.md): totals
# over the run's calls of each target.
PLACEMENT_RECORD: Fields = {
    "schema": ("string", str, "`bikeco-cosim-placement/1`"),
    "placement": ("string", str, "the placement file run (its targets on devices built here)"),
    "level": ("integer", int, "BIKE level"),
    "wait": ("string", str, "`irq` or `poll`: how the driver waited for DONE"),
    "timing": ("object of integers", dict, "the timing model's parameters in use"),
    "kat_records": ("integer", int, "KAT records run (keygen, encaps, decaps each)"),
    "kat_matched": ("integer", int, "records whose pk, sk, ct and both ss were bit-exact"),
    "random": ("integer", int, "KEMs from random coins run (`--random`), each with a tampered ct"),
    "random_matched": ("integer", int, "random KEMs bit-exact with libbike's software"),
    "tampered": ("integer", int, "tampered ciphertexts decapsulated (one per random KEM)"),
    "tampered_matched": (
        "integer",
        int,
        "tampered ciphertexts whose implicit-rejection secret was software's",
    ),
    "passed": ("boolean", bool, "every KAT record, random KEM and tampered ciphertext matched"),
    "devices": ("array of objects", list, "`device` and `preset` of each device opened"),
    "targets": ("array of objects", list, "one per placed target (below)"),
    "kem": ("array of objects", list, "keygen, encaps, decaps (below)"),
    "left_in_software": (
        "array of strings",
        list,
        "the placement's targets on devices not built yet, run by libbike",
    ),
}
TARGET: Fields = {
    "target": ("string", str, "the explorer's name, e.g. `keygen.inversion`"),
    "device": ("string", str, "the device it ran on"),
    "calls": ("integer", int, "device operations"),
    "accelerator_cycles": ("integer", int, "the shell's CYCLES, summed over the calls"),
    "transfer_cycles": ("integer", int, "PL cycles with an operand or result stream moving"),
    "run_pl_cycles": ("integer", int, "bike_acc_run from its first register access to its return"),
    "cpu_cycles": ("integer", int, "`run_pl_cycles` in CPU cycles (times cpu_mhz / pl_mhz)"),
    "reg_reads": ("integer", int, "register reads"),
    "reg_writes": ("integer", int, "register writes"),
}
KEM: Fields = {
    "operation": ("string", str, "keygen, encaps or decaps"),
    "calls": ("integer", int, "calls of the libbike function"),
    "host_software_ns": (
        "integer",
        int,
        "time in libbike outside the devices, on the machine that ran the co-simulation",
    ),
}


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


def check_placement_record(rec: Any) -> list[str]:
    """What is wrong with a placement run's record (nothing: [])."""
    errs = _check_fields(rec, PLACEMENT_RECORD, "record")
    if errs:
        return errs
    if rec["schema"] != "bikeco-cosim-placement/1":
        errs.append(f"record: schema {rec['schema']}")
    if sorted(rec["timing"]) != sorted(TIMING):
        errs.append(f"record: timing fields {sorted(rec['timing'])}")
    matched = (
        rec["kat_matched"] == rec["kat_records"]
        and rec["random_matched"] == rec["random"]
        and rec["tampered_matched"] == rec["tampered"]
        and rec["kat_records"] + rec["random"] > 0
    )
    if rec["passed"] != matched:
        errs.append("record: passed disagrees with the records matched")
    for i, t in enumerate(rec["targets"]):
        e = _check_fields(t, TARGET, f"targets[{i}]")
        if not e and t["calls"] > 0 and t["run_pl_cycles"] <= t["accelerator_cycles"]:
            e.append(f"targets[{i}]: the runs are not longer than CYCLES")
        errs += e
    for i, k in enumerate(rec["kem"]):
        errs += _check_fields(k, KEM, f"kem[{i}]")
    return errs


def fields_table(fields: Fields) -> str:
    """A field table of docs/cosim-run-json.md."""
    rows = [f"| `{k}` | {t} | {m} |" for k, (t, _, m) in fields.items()]
    return "\n".join(["| field | type | meaning |", "|---|---|---|", *rows]) + "\n"


def _newer(out: Path, deps: list[Path]) -> bool:
    return out.exists() and all(d.stat().st_mtime < out.stat().st_mtime for d in deps)


def model(core: FlowCore, preset: str, level: int) -> tuple[Path, str]:
    """The Verilated model of shell device `core` at `preset` and `level`, as
    the library lib<prefix>.a in its own folder; its class is V<core name>
    (Verilator's --prefix), so that several devices link into one program.
    Returns (folder, prefix)."""
    prefix = f"V{core.name}"
    mdir = build_dir() / "cosim" / "models" / f"{core.name}_{preset}_L{level}"
    lib = mdir / f"lib{prefix}.a"
    files = core.vlt + core.rtl + core.dv_rtl  # a KEM shape's device is its sim top
    if _newer(lib, [REPO / "hw" / f for f in files]):
        return mdir, prefix
    mdir.mkdir(parents=True, exist_ok=True)
    cmd = ["verilator", "--cc", "-O3", "--Mdir", str(mdir), "--prefix", prefix]
    cmd += ["--top-module", core.sim_top, *gparams(core.params(preset, level)), *files]
    run(cmd, log=mdir.with_suffix(".verilate.log"))
    make = ["make", "-C", str(mdir), "-f", f"{prefix}.mk", "-j", JOBS]
    run([*make, f"lib{prefix}.a", NO_PCH], log=mdir.with_suffix(".log"))
    return mdir, prefix


def runtime(mdir: Path, prefix: str) -> Path:
    """Verilator's run-time library, compiled once for every program."""
    lib = build_dir() / "cosim" / "libverilated.a"
    src = Path(tool_env()["VERILATOR_ROOT"]) / "include" / "verilated.cpp"
    if _newer(lib, [src]):
        return lib
    make = ["make", "-C", str(mdir), "-f", f"{prefix}.mk", "-j", JOBS]
    run([*make, "libverilated.a", NO_PCH])
    shutil.copy(mdir / "libverilated.a", lib)
    return lib


def _cxxflags(includes: list[Path]) -> list[str]:
    """Flags of a C++ file that includes Verilated models (verilated.mk's)."""
    root = Path(tool_env()["VERILATOR_ROOT"]) / "include"
    defs = ["VERILATOR=1", "VM_COVERAGE=0", "VM_SC=0", "VM_TIMING=0", "VM_TRACE=0"]
    defs += ["VM_TRACE_FST=0", "VM_TRACE_VCD=0", "VM_TRACE_SAIF=0", "BIKE_ACC_WITH_COSIM"]
    flags = ["-O2", "-std=c++17", f"-I{root}", f"-I{root / 'vltstd'}"]
    return flags + [f"-D{d}" for d in defs] + [f"-I{d}" for d in includes]


def program(
    name: str,
    devices: list[tuple[FlowCore, str]],
    level: int,
    main: list[Path],
    c_files: tuple[Path, ...] = (),
    libs: tuple[Path, ...] = (),
) -> Path:
    """A co-simulation program: the driver with its cosim platform, libbike,
    the `main` C++ sources, and one Verilated model per device (core,
    preset) at `level`, each registered by a two-line file (cosim_device.h);
    `c_files` and `libs` (linked before libbike) for what else `main` uses.
    Rebuilt when a source, a model or a library is newer."""
    odir = build_dir() / "cosim" / name
    odir.mkdir(parents=True, exist_ok=True)
    exe = odir / name
    models = [(core, *model(core, preset, level)) for core, preset in devices]
    # the run-time library comes out of any model's make file
    any_model = models[0][1:] if models else model(flow_cores()["gf2x_mul_acc"], PRESET, level)
    rt = runtime(*any_model)
    lib = libbike()
    incs = [DRIVER / "include", DRIVER / "src", REGS, REPO / "lib" / "include"]
    incs += [KAT_DRBG, REPO / "hw" / "dv" / "common", REPO / "lib" / "mlkem" / "include"]
    units = []
    for core, _, prefix in models:
        unit = odir / f"device_{core.name}.cpp"
        text = f'#include "{prefix}.h"\n#include "cosim_device.h"\n'
        text += f'BIKE_COSIM_DEVICE({prefix}, "{core.name}")\n'
        if not unit.exists() or unit.read_text() != text:
            unit.write_text(text)
        units.append(unit)
    csrc = [DRIVER / "src" / c for c in DRIVER_C] + [KAT_DRBG / c for c in DRBG_C] + list(c_files)
    cpp = [DRIVER / "src" / "cosim.cpp", *main, *units]
    hdrs = [*(DRIVER / "include").glob("*.h"), *(DRIVER / "src").glob("*.h")]
    archives = [mdir / f"lib{prefix}.a" for _, mdir, prefix in models]
    if _newer(exe, [*csrc, *cpp, *hdrs, *archives, rt, *libs, lib]):
        return exe
    objs: list[str] = []
    for src in csrc:
        obj = odir / (src.stem + ".o")
        cflags = ["-O2", "-std=c11", "-DBIKE_ACC_WITH_COSIM", "-D_FILE_OFFSET_BITS=64"]
        run(["cc", *cflags, "-c", "-o", str(obj), str(src), *(f"-I{d}" for d in incs)])
        objs.append(str(obj))
    for src in cpp:
        obj = odir / (src.stem + ".o")
        mdirs = [mdir for _, mdir, _ in models]
        run(["g++", *_cxxflags(incs + mdirs), "-c", "-o", str(obj), str(src)])
        objs.append(str(obj))
    link = ["g++", "-o", str(exe), *objs, *(str(a) for a in archives), str(rt)]
    link += [*(str(x) for x in libs), str(lib)]
    run([*link, "-pthread"], log=odir / "link.log")
    return exe


def build(core: FlowCore, level: int) -> Path:
    """The cosim platform's test program on `core` (a shell device) at its
    medium preset and `level`."""
    main = [DRIVER / "tests" / "test_cosim.cpp"]
    return program(f"test_{core.name}_L{level}", [(core, PRESET)], level, main)


def cosim(core: FlowCore, level: int, random: int, kat: int, seed: int = 1) -> Path:
    """Build and run the co-simulation test; exits on a failure. Returns the
    run's JSON record (checked against the schema)."""
    exe = build(core, level)
    out = build_dir() / "cosim" / f"{core.name}_L{level}.json"
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


# ---- placements: libbike's KEM with targets on co-simulated devices ----

PLACEMENT_MAIN = [DRIVER / "tools" / "bike_cosim.cpp"]


def shell_devices() -> dict[str, FlowCore]:
    """The devices a placement can name that this flow builds: the flow cores
    simulated as an acc_shell device (<name>_acc, or a KEM shape on
    bike_kem_acc). A placement's target on another device is left in
    software, and its record says so."""
    return {n: c for n, c in flow_cores().items() if c.sim_top.endswith("_acc")}


def read_placement(text: str) -> list[tuple[str, str, str]]:
    """(target, device, preset) of each line; the C parser
    (bike_acc_placement_parse) checks the targets."""
    out = []
    for line in text.splitlines():
        words = line.split("#", 1)[0].split()
        if words:
            out.append((words[0], words[1], words[2] if len(words) > 2 else PRESET))
    return out


def plan_placement(device: str, level: int, out: Path) -> Path:
    """The placement `bikeco plan --device <device> --hw-source bikeco` chooses
    (and the plan, beside it as <name>.plan.json, for the comparison)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "bikeco", "plan", "--device", device, "--level", str(level)]
    cmd += ["--hw-source", "bikeco", "--json", "--placement-out", str(out)]
    res, _ = run(cmd, cwd=REPO / "python")
    out.with_suffix(".plan.json").write_text(res.stdout[res.stdout.index("{") :])
    return out


def compare_with_plan(rec: dict[str, Any], plan: dict[str, Any]) -> None:
    """Prints each target's measured cycles per call beside the plan's."""
    mhz = rec["timing"]["pl_mhz"]
    predicted = {a["target"]: a for a in plan["assignments"]}
    print(
        f"  {'per call, PL cycles':24} {'accelerator':>11} {'transfer':>9} {'run':>9}"
        f"   {'plan: hardware':>14} {'transfer':>9}"
    )
    for t in rec["targets"]:
        a = predicted.get(t["target"])
        if a is None or t["calls"] == 0:
            continue
        n = t["calls"]
        hw, tr = a["hw_ms"] * 1000 * mhz, a["transfer_ms"] * 1000 * mhz
        print(
            f"  {t['target']:24} {t['accelerator_cycles'] / n:11.0f} "
            f"{t['transfer_cycles'] / n:9.0f} {t['run_pl_cycles'] / n:9.0f}   {hw:14.0f} {tr:9.0f}"
        )


def run_placement(placement: Path, level: int, kat: int, wait: str = "irq") -> Path:
    """Build and run bike-cosim on a placement at `level` over `kat` KAT
    records; exits on a failure. Returns the run's JSON record (checked)."""
    cores = shell_devices()
    entries = read_placement(placement.read_text())
    left = [e[0] for e in entries if e[1] not in cores]
    first = {d: p for _, d, p in reversed(entries) if d in cores}  # its first line's preset
    for d, p in first.items():
        if p not in cores[d].presets:  # the device is built at another preset
            print(f"  {d} has no preset {p}: {PRESET}")
            first[d] = PRESET
    kept = [(t, d, first[d]) for t, d, _ in entries if d in cores]
    devices = [(cores[d], p) for d, p in sorted(first.items())]
    out = run_bike_cosim(placement, kept, devices, level, kat, 0, wait, left)
    plan = placement.with_suffix(".plan.json")
    if plan.exists():
        compare_with_plan(json.loads(out.read_text()), json.loads(plan.read_text()))
    return out


def run_bike_cosim(
    placement: Path,
    kept: list[tuple[str, str, str]],
    devices: list[tuple[FlowCore, str]],
    level: int,
    kat: int,
    random: int,
    wait: str = "irq",
    left: list[str] | None = None,
    seed: int = 1,
) -> Path:
    """bike-cosim on the (target, device, preset) lines `kept` of `placement`,
    with `devices` (flow core, preset) linked in: `kat` KAT records and
    `random` random KEMs, each with a tampered ciphertext; exits on a
    failure. `left`: the placement's targets left in software. Returns the
    run's JSON record (checked), hw/build/cosim/placements/<stem>_L<level>.json."""
    left = left or []
    tag = "+".join(f"{c.name}-{p}" for c, p in devices) or "software"
    odir = build_dir() / "cosim" / "placements"
    odir.mkdir(parents=True, exist_ok=True)
    runnable = odir / f"{placement.stem}_L{level}.txt"
    lines = [f"# {placement.name}, the targets on devices this flow builds"]
    runnable.write_text("\n".join(lines + [" ".join(e) for e in kept]) + "\n")
    exe = program(f"bike_cosim_{tag}_L{level}", devices, level, PLACEMENT_MAIN)
    out = odir / f"{placement.stem}_L{level}.json"
    out.unlink(missing_ok=True)
    cmd = [str(exe), "--placement", str(runnable), "--level", str(level), "--kat", str(kat)]
    cmd += ["--random", str(random), "--seed", str(seed)]
    cmd += ["--kat-dir", str(kat_dir()), "--wait", wait, "--json", str(out)]
    res, seconds = run(cmd, check=False)
    sys.stdout.write(res.stdout)
    if left:
        print(f"  left in software (no device built for them yet): {' '.join(left)}")
    if res.returncode != 0:
        sys.exit(f"FAILED: bike-cosim {placement.name} L{level}")
    rec = json.loads(out.read_text())
    rec["left_in_software"] = left
    out.write_text(json.dumps(rec, indent=1) + "\n")
    errs = check_placement_record(rec)
    if errs:
        sys.exit(f"FAILED: bike-cosim {placement.name} L{level}: record {out}: " + "; ".join(errs))
    print(f"  (bike-cosim {placement.name} L{level}: run {seconds:.1f} s; record {out})")
    return out


# what bike-cosim's figures on a device depend on besides the device's RTL:
# the driver's operation sequence, its adapters, the cosim platform, the tool
BUS_SOURCES = [
    DRIVER / "src" / "acc.c",
    DRIVER / "src" / "offload.c",
    DRIVER / "src" / "cosim.cpp",
    DRIVER / "src" / "cosim_device.h",
    DRIVER / "src" / "platform.h",
    DRIVER / "src" / "regs.h",
    DRIVER / "include" / "bike_acc.h",
    DRIVER / "include" / "bike_acc_cosim.h",
    DRIVER / "include" / "bike_acc_offload.h",
    *PLACEMENT_MAIN,
]


def run_design(d: Design, kat: int, random: int, wait: str = "irq") -> Path:
    """bike-cosim on a design (`bikeco design`): every target its cores serve on the
    cores' bus devices with the design's parameters (hwflow.design.bus_devices)."""
    devices = [(dev, config) for dev, config, _ in design.bus_devices(d)]
    placement = build_dir() / "cosim" / "placements" / f"{d.name}.txt"
    return run_bike_cosim(placement, design.placement_lines(d), devices, d.level, kat, random, wait)


def design_sources_sha256(d: Design) -> str:
    """Hash of what a design's co-simulation is made from: each bus device's sources (RTL,
    waivers, top), parameters at the level, the driver's files it runs (BUS_SOURCES) and the
    Verilator pin; `check-records` tells a stale verify record by it."""
    h = hashlib.sha256()
    for dev, config, serves in design.bus_devices(d):
        files = [REPO / "hw" / f for f in dev.vlt + dev.rtl + dev.dv_rtl] + BUS_SOURCES
        for f in files:
            h.update(os.path.relpath(f, REPO).encode() + b"\0")
            h.update(f.read_bytes())
        h.update(json.dumps([dev.name, dev.sim_top, dev.params(config, d.level), serves]).encode())
    h.update(verilator_pin().encode())
    return h.hexdigest()
