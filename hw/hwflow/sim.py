"""Verilator lint and the C++ testbenches' builds and runs against libbike."""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bikeco import tbcycles
from bikeco.levels import LEVELS
from hwflow.cores import FlowCore
from hwflow.executor import Executor, Job, JobError, Options, fail
from hwflow.harness import macros
from hwflow.paths import HW, REPO, build_dir, kat_dir
from hwflow.tools import run, tool_env, verilator_build, verilator_lint, verilator_pin

JOBS = os.environ.get("HW_JOBS", "2")


def lint_commands(core: FlowCore) -> list[list[str]]:
    """Verilator -Wall on the simulation top (with its testbench wrapper) at
    every preset, sweep and lint-only configuration and lint level, and on
    every module synthesised on its own with its synthesis parameters."""
    cmds = []
    configs = [*core.presets, *core.sweeps, *core.lint_only]
    levels = core.harness.lint_levels if core.level_params else (1,)
    for config in configs:
        for level in levels:
            files = core.vlt + core.rtl + core.dv_rtl
            cmds.append(verilator_lint(core.sim_top, core.params(config, level), files))
    for top, params in core.synth_units.values():
        cmds.append(verilator_lint(top, params, core.vlt + core.rtl))
    return cmds


@dataclass(frozen=True)
class SimConfig:
    core: FlowCore
    config: str
    level: int

    @property
    def params(self) -> dict[str, int]:
        return self.core.params(self.config, self.level)

    @property
    def folder(self) -> Path:
        if not self.core.level_params:  # one build serves every level
            return build_dir() / "sim" / f"{self.core.name}_{self.config}"
        return build_dir() / "sim" / f"{self.core.name}_{self.config}_L{self.level}"

    @property
    def best(self) -> Path:
        """The run with the most vectors of the current executable."""
        return self.folder / f"best_L{self.level}.json"


def libbike() -> Path:
    """$LIBBIKE, else ../build/lib/libbike.a, else libbike built alone here.
    The executor's workers each call this: the build holds a file lock, so
    they do not configure and build the same folder at once (the first
    builds, the others find it up to date)."""
    lib = Path(os.environ.get("LIBBIKE", str(REPO / "build" / "lib" / "libbike.a")))
    if lib.exists():
        return lib
    own = build_dir() / "libbike"
    own.parent.mkdir(parents=True, exist_ok=True)
    with open(own.parent / "libbike.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        run(["cmake", "-S", str(REPO), "-B", str(own), "-G", "Ninja", "-DBIKE_PROVIDER=OFF"])
        run(["cmake", "--build", str(own), "--target", "bike", "-j", JOBS])
    return own / "lib" / "libbike.a"


_RUNTIME = ("verilated.o", "verilated_threads.o")


def shared_runtime() -> list[Path] | None:
    """Verilator's run-time objects, compiled once per Verilator install and
    linked into every testbench (about 8 s of each build). None until a first
    build made them."""
    d = build_dir() / "sim" / "_vlrt"
    objs = [d / o for o in _RUNTIME]
    src = Path(tool_env()["VERILATOR_ROOT"]) / "include" / "verilated.cpp"
    if all(o.exists() and o.stat().st_mtime > src.stat().st_mtime for o in objs):
        return objs
    return None


def keep_runtime(mdir: Path) -> None:
    d = build_dir() / "sim" / "_vlrt"
    d.mkdir(parents=True, exist_ok=True)
    for o in _RUNTIME:
        if (mdir / o).exists():  # atomic: a parallel build links a whole file or none
            tmp = d / f"{o}.{os.getpid()}.{threading.get_ident()}"
            shutil.copy(mdir / o, tmp)
            os.replace(tmp, d / o)


def cycles_header(sc: SimConfig) -> str | None:
    """The testbench's tb_cycles.h (bikeco.tbcycles: the cycles bikeco.hwcycles' formulas
    give its operations with these parameters, at its level or, for a build serving every
    level, at each), or None for a testbench without one."""
    if sc.core.name not in tbcycles.CORES:
        return None
    levels = [sc.level] if sc.core.level_params else list(LEVELS)
    return tbcycles.header(sc.core.name, levels, sc.params)


def signature(sc: SimConfig) -> str:
    """What a build depends on beyond its files' times: parameters, macros and the cycles its
    testbench requires (tb_cycles.h)."""
    sig: dict[str, Any] = {"params": sc.params, "macros": macros(sc.core.harness, sc.params)}
    header = cycles_header(sc)
    if header is not None:
        sig["cycles"] = header
    return json.dumps(sig, sort_keys=True)


def build(sc: SimConfig, jobs: str = JOBS) -> tuple[Path, float]:
    """The testbench executable, rebuilt when a source, libbike, the parameters
    or the macros changed. Returns it and the build time (0 if reused)."""
    core, mdir = sc.core, sc.folder
    mdir.parent.mkdir(parents=True, exist_ok=True)
    exe = mdir / "tb"
    lib = libbike()
    files = core.vlt + core.rtl + core.dv_rtl + [os.path.relpath(t, HW) for t in core.testbench]
    deps = [HW / f for f in files] + core.headers + core.c_sources + [lib]
    sig_file = mdir.with_suffix(".sig")
    sig = signature(sc)
    fresh = exe.exists() and all(d.stat().st_mtime < exe.stat().st_mtime for d in deps)
    if fresh and sig_file.exists() and sig_file.read_text() == sig:
        return exe, 0.0
    header = cycles_header(sc)
    if header is not None:  # found by the model's compile, which runs in mdir
        mdir.mkdir(parents=True, exist_ok=True)
        (mdir / "tb_cycles.h").write_text(header)
    incs = [f"-I{d}" for d in core.include_dirs]
    defs = [f"-D{k}={v}" for k, v in macros(core.harness, sc.params).items()]
    cflags = " ".join(["-O2", *incs, *defs])
    # C sources of the testbench (the KAT DRBG): compiled with cc (Verilator's
    # make rules are C++ only) and linked as objects
    objs: list[str] = []
    for src in core.c_sources:
        odir = Path(str(mdir) + "_extra")
        odir.mkdir(parents=True, exist_ok=True)
        obj = odir / (src.stem + ".o")
        run(["cc", "-O2", "-c", "-o", str(obj), str(src), *incs])
        objs.append(str(obj))
    rt = shared_runtime()
    # objects before the archive: their calls into libbike (libmlkem's hashes
    # on its Keccak) are resolved from it
    ldflags = " ".join([*objs, str(lib), *core.link_flags, *[str(o) for o in rt or []]])
    cmd = verilator_build(
        top=core.sim_top,
        params=sc.params,
        files=files,
        mdir=mdir,
        cflags=cflags,
        ldflags=ldflags,
        jobs=jobs,
        shared_runtime=rt is not None,
    )
    _, seconds = run(cmd, log=Path(str(mdir) + ".build.log"))
    if rt is None:
        keep_runtime(mdir)
    sig_file.write_text(sig)
    return exe, seconds


def simulate(
    sc: SimConfig, random: int, kat: int, seed: int = 1, make_jobs: str = "1"
) -> tuple[dict[str, Any], str]:
    """One testbench run (built first if needed): its summary (cycles, verified
    counts) with what was asked for, and its output. The run with the most
    vectors is kept as `best`."""
    exe, bt = build(sc, make_jobs)
    out = sc.folder / f"run_L{sc.level}_r{random}_k{kat}.json"
    out.unlink(missing_ok=True)
    cmd = [str(exe), "--level", str(sc.level), "--random", str(random), "--kat", str(kat)]
    cmd += ["--seed", str(seed), "--kat-dir", str(kat_dir()), "--json", str(out)]
    res, seconds = run(cmd, check=False)
    label = f"{sc.core.name} {sc.config} L{sc.level}"
    if res.returncode != 0:
        raise JobError(f"{label}\n{res.stdout[-6000:]}")
    text = res.stdout + f"  ({label}: build {bt:.1f} s, run {seconds:.1f} s)\n"
    rec: dict[str, Any] = json.loads(out.read_text())
    # the testbenches count vectors in their own units (keccak two operations
    # per random message, gf2x_mul two products per KAT record): what was
    # asked for tells a CI run from a full one
    rec["requested"] = {"random": random, "kat": kat, "seed": seed}
    out.write_text(json.dumps(rec))
    if sc.best.exists():
        old: dict[str, Any] = json.loads(sc.best.read_text())
        if (
            sc.best.stat().st_mtime > exe.stat().st_mtime
            and "requested" in old
            and sum(old["verified"].values()) > sum(rec["verified"].values())
        ):
            return rec, text
    shutil.copy(out, sc.best)
    return rec, text


def test_configs(
    core: FlowCore, levels: list[int], presets: list[str] | None, sweep: bool
) -> list[SimConfig]:
    """The configurations `test` simulates: every preset (and with sweep,
    every sweep point), or the named ones; the memories at one level."""
    known = [*core.presets, *core.sweeps]
    if presets:
        bad = [p for p in presets if p not in known]
        if bad:
            sys.exit(f"{core.name}: unknown presets {bad} (known: {' '.join(known)})")
        names = presets
    else:
        names = [*core.presets, *(core.sweeps if sweep else [])]
    lv = levels[:1] if core.harness.level_free else levels
    return [SimConfig(core, n, level) for n in names for level in lv]


def full_run(
    sc: SimConfig, random: int, kat: int, make_jobs: str = "1"
) -> tuple[dict[str, Any], str]:
    """The simulation a results record cites: the best run of the current
    executable with at least `random` and `kat` vectors; simulated now if none."""
    exe, _ = build(sc, make_jobs)
    if sc.best.exists() and sc.best.stat().st_mtime > exe.stat().st_mtime:
        rec: dict[str, Any] = json.loads(sc.best.read_text())
        req = rec.get("requested", {})
        if req.get("random", 0) >= random and req.get("kat", 0) >= kat:
            return rec, f"  ({sc.core.name} {sc.config} L{sc.level}: best run reused)\n"
    return simulate(sc, random, kat, make_jobs=make_jobs)


@functools.cache
def compiler_version() -> str:
    """The C++ compiler's first line of `--version` (it builds every testbench)."""
    res = subprocess.run(["c++", "--version"], text=True, capture_output=True, check=False)
    return res.stdout.splitlines()[0] if res.stdout else "unknown"


def sources_sha256(sc: SimConfig) -> str:
    """Hash of a testbench's sources (names and contents: RTL, testbench,
    headers, C files), its parameters and macros, and the Verilator pin."""
    core = sc.core
    files = [HW / f for f in core.vlt + core.rtl + core.dv_rtl]
    files += core.testbench + core.headers + core.c_sources
    h = hashlib.sha256()
    for f in files:
        h.update(os.path.relpath(f, REPO).encode() + b"\0")
        h.update(f.read_bytes())
    h.update(signature(sc).encode())
    h.update(json.dumps([core.sim_top, core.link_flags, verilator_pin()]).encode())
    return h.hexdigest()


def inputs_sha256(sc: SimConfig, random: int, kat: int, seed: int, full: bool) -> str:
    """Hash of everything a simulation's result depends on: its sources
    (sources_sha256), libbike, the compiler, the KAT file and other vector
    files it reads and its command (level, vector counts, seed, and whether a
    longer earlier run may answer it)."""
    h = hashlib.sha256()
    h.update(sources_sha256(sc).encode())
    h.update(libbike().read_bytes())
    h.update(compiler_version().encode())
    kat_file = kat_dir() / f"PQCkemKAT_BIKE_L{sc.level}.rsp"
    if kat and kat_file.exists():
        h.update(kat_file.read_bytes())
    for name in sc.core.harness.vector_files:
        h.update(name.encode() + b"\0" + (REPO / name).read_bytes())
    h.update(json.dumps([sc.level, random, kat, seed, full]).encode())
    return h.hexdigest()


def sim_group(
    configs: list[SimConfig], random: int, kat: int, seed: int, full: bool, make_jobs: str
) -> dict[str, Any]:
    """Simulations sharing one build folder, in order (a job: runs on a Dask
    worker). full: a results record's run (full_run). Returns each run's
    summary and their output."""
    runs, text = [], ""
    for sc in configs:
        if full:
            rec, out = full_run(sc, random, kat, make_jobs)
        else:
            rec, out = simulate(sc, random, kat, seed, make_jobs)
        runs.append(rec)
        text += out
    return {"runs": runs, "output": text}


def sim_jobs(
    configs: list[SimConfig], random: int, kat: int, seed: int = 1, full: bool = False
) -> tuple[list[Job], list[list[int]]]:
    """The executor's jobs of these simulations: one per build folder (the
    configurations of a core without level parameters share one executable),
    with the configurations' indices each job runs."""
    groups: dict[Path, list[int]] = {}
    for i, sc in enumerate(configs):
        groups.setdefault(sc.folder, []).append(i)
    libbike()  # built once here, not by every worker at the same time
    # one job alone builds with make -j $HW_JOBS, several with -j1 each
    make_jobs = JOBS if len(groups) == 1 else "1"
    jobs = []
    for idx in groups.values():
        scs = [configs[i] for i in idx]
        h = hashlib.sha256()
        for sc in scs:
            h.update(inputs_sha256(sc, random, kat, seed, full).encode())
        levels = " ".join(f"L{sc.level}" for sc in scs)
        label = f"sim {scs[0].core.name} {scs[0].config} {levels}"
        jobs.append(
            Job("sim", h.hexdigest(), label, sim_group, (scs, random, kat, seed, full, make_jobs))
        )
    return jobs, list(groups.values())


def simulate_all(
    configs: list[SimConfig],
    random: int,
    kat: int,
    seed: int = 1,
    full: bool = False,
    opts: Options | None = None,
) -> list[dict[str, Any]]:
    """Build and simulate every configuration on the executor (answered from
    its cache when the same inputs ran before); each job's output is printed
    once it is done. Returns the summaries in the configurations' order."""
    jobs, groups = sim_jobs(configs, random, kat, seed, full)
    try:
        with Executor(opts) as ex:
            results = ex.run(jobs, on_done=lambda _job, res: print(res["output"], end=""))
    except JobError as exc:
        fail(exc)
    out: list[dict[str, Any] | None] = [None] * len(configs)
    for idx, res in zip(groups, results, strict=True):
        for i, rec in zip(idx, res["runs"], strict=True):
            out[i] = rec
    return [r for r in out if r is not None]


def test(configs: list[SimConfig], random: int, kat: int, opts: Options | None = None) -> None:
    """Build and simulate every configuration: one job per build folder on
    the executor (a worker per core; each build with make -j1)."""
    simulate_all(configs, random, kat, opts=opts)
