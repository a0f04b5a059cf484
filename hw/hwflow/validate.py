"""The long validation of the KEM cores against libbike (`make -C hw validate`,
`python -m hwflow validate`): many KEMs per shape, preset and level, each a
KeyGen, Encaps and Decaps with a tampered ciphertext (implicit rejection)
through the core's testbench (ip/bike_kem/dv/tb_bike_kem.cpp), bit-exact
against libbike, written as a validation record
(hw/results/validation/<core>_<preset>_L<n>.json, bikeco.hwrecord's
ValidationRecord) that check-records holds against its sources.

Half the KEMs take their inputs from the NIST KAT generator: its first 100
records are the KAT file's (../shared/kat), the further ones continue the same
DRBG stream (`bike kat --count N`, whose first 100 records are checked equal to
the KAT file); the other half take random coins from the testbench's seeded
generator. The runs are sharded into testbench processes of SHARD KEMs, each a
job on the flow's executor with the hash of its inputs: an interrupted run
continues where it stopped, and a shorter run answers from a longer one's
shards (shards start at multiples of SHARD). A current record can be extended
(`--extend`): a longer run's shards past the record's are run and added to it,
so that a long target can be reached over several sittings.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bikeco import hwrecord
from hwflow.cores import FlowCore, flow_cores
from hwflow.executor import Cache, Executor, Job, JobError, Options, cache_dir, fail
from hwflow.paths import REPO, RESULTS, build_dir, kat_dir
from hwflow.records import Check
from hwflow.sim import SimConfig, build, compiler_version, libbike, sources_sha256
from hwflow.tools import run, verilator_pin

RECORDS = RESULTS / "validation"
SHARD = 50  # KEMs per testbench process (each process also runs the error paths once)
NIST = 100  # records in the NIST KAT file
# KEMs per shape and preset the validation aims at (issue 30); a record with
# fewer runs is a partial one (TABLE.md shows both)
TARGET = {1: 10_000, 3: 1_000, 5: 1_000}
RANDOM_SEED = 100_000  # a random shard's seed: this plus its first index
KINDS = ("kat", "kat_derived", "random")


def is_kem(core: FlowCore) -> bool:
    """The KEM shapes with a results record (not the shapes behind the bus)."""
    return core.name.startswith("bike_kem_") and core.harness.record


@dataclass(frozen=True)
class Shard:
    """One testbench process: `count` KEMs of one kind from index `first` (a KAT
    record's number, or a random shard's offset)."""

    kind: str
    first: int
    count: int

    @property
    def name(self) -> str:
        return f"{self.kind}_{self.first}_{self.count}"

    @property
    def seed(self) -> int:
        return RANDOM_SEED + self.first


def plan(runs: int, shard: int = SHARD) -> list[Shard]:
    """The shards of `runs` KEMs: half (rounded up) from the KAT generator, NIST
    records first, the rest random; KAT and random shards alternate, so that the
    shards done first of an interrupted run are those of a shorter one."""
    kat_runs = (runs + 1) // 2
    kats: list[Shard] = []
    first = 0
    while first < kat_runs:
        end = min(first + shard, kat_runs, NIST if first < NIST else kat_runs)
        kats.append(Shard("kat" if first < NIST else "kat_derived", first, end - first))
        first = end
    rnds = [
        Shard("random", first, min(shard, runs - kat_runs - first))
        for first in range(0, runs - kat_runs, shard)
    ]
    out: list[Shard] = []
    for i in range(max(len(kats), len(rnds))):
        out += kats[i : i + 1] + rnds[i : i + 1]
    return out


# ---- inputs ------------------------------------------------------------------------------


def bike_tool() -> Path:
    """The `bike` tool of the libbike build the testbenches link."""
    tool = libbike().parent.parent / "bin" / "bike"
    if not tool.exists():
        build_root = libbike().parent.parent
        run(["cmake", "--build", str(build_root), "--target", "bike_tool", "-j", "1"])
    return tool


def kat_records(text: str) -> list[str]:
    """The records of a KAT response file, each its text from `count = `."""
    parts = re.split(r"^(?=count = )", text, flags=re.M)
    return [p.strip() + "\n" for p in parts if p.startswith("count = ")]


def generate_kat(level: int, count: int) -> list[str]:
    """The first `count` records of libbike's KAT generator at a level (about
    0.5 ms a record at L1)."""
    if count == 0:
        return []
    cmd = [str(bike_tool()), "kat", "--level", str(level), "--count", str(count)]
    return kat_records(subprocess.run(cmd, check=True, text=True, capture_output=True).stdout)


def kat_outputs_sha256(records: list[str]) -> str:
    return hashlib.sha256("".join(records).encode()).hexdigest()


def kat_stream(level: int, count: int) -> list[str]:
    """The first `count` records of the KAT generator at a level; exits unless
    its first records are the KAT file's."""
    recs = generate_kat(level, max(count, NIST))
    nist = kat_records(nist_kat(level).read_text())
    if recs[:NIST] != nist[:NIST]:
        sys.exit(f"validate: `bike kat --level {level}` differs from {nist_kat(level)}")
    return recs[:count]


def nist_kat(level: int) -> Path:
    return kat_dir() / f"PQCkemKAT_BIKE_L{level}.rsp"


def kat_slice(level: int, shard: Shard, records: list[str]) -> Path:
    """A KAT folder whose file holds the shard's records (the testbench reads the
    first --kat records of PQCkemKAT_BIKE_L<n>.rsp)."""
    folder = build_dir() / "validate" / "kat" / f"L{level}_{shard.first}_{shard.count}"
    folder.mkdir(parents=True, exist_ok=True)
    text = "# BIKE\n\n" + "\n".join(records[shard.first : shard.first + shard.count])
    path = folder / nist_kat(level).name
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return folder


def libbike_sha256(root: Path = REPO) -> str:
    """Hash of libbike's sources (the files git tracks under lib/ but ML-KEM's
    lib/mlkem/, as they are on disk) and of its KAT generator (apps/bike/kat.c)."""
    names = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z", "--", "lib", ":!lib/mlkem", "apps/bike/kat.c"],
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    h = hashlib.sha256()
    for name in sorted(n for n in names if n):
        path = root / name.decode()
        if path.exists():  # a file deleted but not yet staged is gone
            h.update(name + b"\0" + path.read_bytes())
    return h.hexdigest()


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---- the runs ----------------------------------------------------------------------------

SUMMARY = re.compile(r"(\d+) KAT records \+ (\d+) random vectors \((\d+) tampered ciphertexts")


def run_shard(sc: SimConfig, shard: Shard, kats: Path | None) -> dict[str, Any]:
    """One testbench process (a job: runs on a Dask worker): its counts, cycles
    and run time; a failing KEM fails the job with the testbench's output."""
    exe, _ = build(sc, "1")
    out = sc.folder / "validate" / f"{shard.name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.unlink(missing_ok=True)
    kat, rnd = (shard.count, 0) if kats is not None else (0, shard.count)
    cmd = [str(exe), "--level", str(sc.level), "--random", str(rnd), "--kat", str(kat)]
    cmd += ["--seed", str(shard.seed), "--kat-dir", str(kats or kat_dir()), "--json", str(out)]
    res, seconds = run(cmd, check=False)
    label = f"{sc.core.name} {sc.config} L{sc.level} {shard.name}"
    if res.returncode != 0:
        raise JobError(f"{label}\n{res.stdout[-6000:]}")
    m = SUMMARY.search(res.stdout)
    rep = json.loads(out.read_text())
    if m is None or (int(m.group(1)), int(m.group(2))) != (kat, rnd):
        raise JobError(f"{label}: the testbench ran other KEMs than asked\n{res.stdout[-2000:]}")
    if rep["verified"] != {"kat": kat, "random": rnd}:
        raise JobError(f"{label}: verified {rep['verified']}, asked kat {kat} random {rnd}")
    return {
        "kind": shard.kind,
        "runs": shard.count,
        "tampered": int(m.group(3)),
        "cycles": rep["cycles"],
        "seconds": round(seconds, 2),
    }


def shard_key(sc: SimConfig, shard: Shard, kats: Path | None) -> str:
    """Hash of everything a shard's result depends on."""
    h = hashlib.sha256()
    h.update(sources_sha256(sc).encode())
    h.update(libbike().read_bytes())
    h.update(compiler_version().encode())
    if kats is not None:
        h.update((kats / nist_kat(sc.level).name).read_bytes())
    h.update(json.dumps([sc.level, shard.kind, shard.first, shard.count, shard.seed]).encode())
    return h.hexdigest()


def jobs_of(sc: SimConfig, shards: list[Shard], records: list[str]) -> list[Job]:
    """The shards' jobs; records: the KAT generator's records they take."""
    jobs = []
    for s in shards:
        kats = kat_slice(sc.level, s, records) if s.kind != "random" else None
        label = f"validate {sc.core.name} {sc.config} L{sc.level} {s.name}"
        jobs.append(Job("validate", shard_key(sc, s, kats), label, run_shard, (sc, s, kats)))
    return jobs


class Progress:
    """Running totals of one configuration's shards as they finish."""

    def __init__(self, sc: SimConfig, runs: int, before: int = 0) -> None:
        self.label = f"{sc.core.name} {sc.config} L{sc.level}"
        self.runs = runs - before  # the KEMs of this run (past an extended record's)
        self.done = {k: 0 for k in KINDS}
        self.tampered = 0
        self.t0 = time.monotonic()
        self.fresh = 0  # KEMs run now (not from the cache)

    def __call__(self, job: Job, res: dict[str, Any]) -> None:
        self.done[res["kind"]] += res["runs"]
        self.tampered += res["tampered"]
        if "key" not in res:  # run now, not answered from the cache
            self.fresh += res["runs"]
        n = sum(self.done.values())
        kinds = ", ".join(f"{k} {v}" for k, v in self.done.items())
        line = f"validate {self.label}: {n}/{self.runs} KEMs ({kinds}; {self.tampered} tampered)"
        elapsed = time.monotonic() - self.t0
        if self.fresh and n < self.runs:
            left = elapsed / self.fresh * (self.runs - n)
            line += f", about {left / 60:.0f} min left"
        print(line, flush=True)


def extendable(sc: SimConfig, path: Path, runs: int) -> hwrecord.ValidationRecord:
    """The committed record at path, if `runs` KEMs can extend it: it is current
    and its shards are the first of a run of `runs`; else exit saying why."""
    if not path.exists():
        sys.exit(f"validate --extend: no record {path} to extend")
    rec = hwrecord.load_validation(path)
    changed = stale_reasons(rec, sc.core)
    if changed:
        sys.exit(f"validate --extend: {path.name} is stale ({', '.join(changed)} changed since)")
    if runs <= rec.runs:
        sys.exit(f"validate --extend: {path.name} has {rec.runs} KEMs already, asked {runs}")
    done = plan(rec.runs)
    if plan(runs)[: len(done)] != done:
        sys.exit(f"validate --extend: {rec.runs} KEMs are not the first shards of {runs}")
    return rec


def validate_config(
    sc: SimConfig, runs: int, opts: Options, out: Path, extend: bool = False
) -> Path:
    """Run (or answer from the cache) every shard of one configuration, then
    write its validation record; extend: only the shards past the committed
    record's, added to it."""
    path = out / f"{sc.core.name}_{sc.config}_L{sc.level}.json"
    old = extendable(sc, path, runs) if extend else None
    full = plan(runs)
    shards = full[len(plan(old.runs)) :] if old else full
    kat_runs = sum(s.count for s in full if s.kind != "random")
    records = kat_stream(sc.level, kat_runs)
    sources = Sources.now(sc, records)  # before the runs: what they are made from
    jobs = jobs_of(sc, shards, records)
    if not opts.cache or any(Cache(cache_dir()).get(j.kind, j.key) is None for j in jobs):
        build(sc, "1")  # once here, not by every worker at the same time
    progress = Progress(sc, runs, old.runs if old else 0)
    try:
        with Executor(opts) as ex:
            results = ex.run(jobs, on_done=progress)
    except JobError as exc:
        fail(exc)
    rec = make_validation(sc, results, sources)
    if old:
        rec = extended(old, rec)
    out.mkdir(parents=True, exist_ok=True)
    hwrecord.dump(rec, path)
    print(
        f"wrote {path}: {rec.runs} KEMs, {rec.counts.tampered} tampered, 0 failures, "
        f"{rec.seconds_per_kem:.2f} s per KEM",
        flush=True,
    )
    return path


@dataclass(frozen=True)
class Sources:
    """The hashes a validation record holds its runs' sources by."""

    sim: str
    libbike: str
    kat_outputs: str
    kat: str

    @classmethod
    def now(cls, sc: SimConfig, records: list[str]) -> Sources:
        """The hashes of the current sources; records: the KAT generator's the run takes."""
        return cls(
            sources_sha256(sc),
            libbike_sha256(),
            kat_outputs_sha256(records),
            file_sha256(nist_kat(sc.level)),
        )


def make_validation(
    sc: SimConfig, results: Sequence[dict[str, Any]], sources: Sources
) -> hwrecord.ValidationRecord:
    """The record of a configuration's shard results (every one passed)."""
    counts = {k: sum(r["runs"] for r in results if r["kind"] == k) for k in KINDS}
    cycles = results[0]["cycles"]
    if any(r["cycles"] != cycles for r in results):
        sys.exit(f"validate: cycles differ between runs: {[r['cycles'] for r in results]}")
    return hwrecord.ValidationRecord(
        core=sc.core.name,
        preset=sc.config,
        level=sc.level,
        runs=sum(counts.values()),
        counts=hwrecord.ValidationCounts(**counts, tampered=sum(r["tampered"] for r in results)),
        failures=0,
        cycles=cycles,
        processes=len(results),
        sim_seconds=round(sum(r["seconds"] for r in results), 1),
        sources_sha256=sources.sim,
        libbike_sha256=sources.libbike,
        kat_outputs_sha256=sources.kat_outputs,
        kat_sha256=sources.kat,
        tools=hwrecord.ValidationTools(verilator=verilator_pin(), compiler=compiler_version()),
    )


def extended(
    old: hwrecord.ValidationRecord, new: hwrecord.ValidationRecord
) -> hwrecord.ValidationRecord:
    """old with the KEMs of new (a run of the shards after old's) added: the
    totals of both, the first run's libbike and tools, new as the last extension."""
    if new.cycles != old.cycles:
        sys.exit(f"validate --extend: cycles {new.cycles} differ from the record's {old.cycles}")
    if new.sources_sha256 != old.sources_sha256 or new.tools.verilator != old.tools.verilator:
        sys.exit("validate --extend: the sources changed during the run")
    a, b = old.counts, new.counts
    part = hwrecord.ValidationExtension(
        runs=new.runs,
        processes=new.processes,
        sim_seconds=new.sim_seconds,
        libbike_sha256=new.libbike_sha256,
        compiler=new.tools.compiler,
    )
    return dataclasses.replace(
        old,
        runs=old.runs + new.runs,
        counts=hwrecord.ValidationCounts(
            kat=a.kat + b.kat,
            kat_derived=a.kat_derived + b.kat_derived,
            random=a.random + b.random,
            tampered=a.tampered + b.tampered,
        ),
        processes=old.processes + new.processes,
        sim_seconds=round(old.sim_seconds + new.sim_seconds, 1),
        kat_outputs_sha256=new.kat_outputs_sha256,  # the records of both runs
        extensions=(*old.extensions, part),
    )


def validate(
    cores: list[FlowCore],
    levels: list[int],
    presets: list[str] | None,
    runs: int | None,
    opts: Options,
    out: Path = RECORDS,
    extend: bool = False,
) -> list[Path]:
    """Every KEM shape's presets at these levels, one configuration after the
    other (each record is written once its shards are done); runs: KEMs per
    configuration (default TARGET of the level); extend: add to the committed
    records (validate_config)."""
    paths = []
    for core in cores:
        if not is_kem(core):
            sys.exit(f"validate: {core.name} is not a KEM shape with records")
        for preset in presets or list(core.presets):
            if preset not in core.presets:
                sys.exit(f"validate: {core.name} has no preset {preset}")
            for level in levels:
                sc = SimConfig(core, preset, level)
                paths.append(validate_config(sc, runs or TARGET[level], opts, out, extend))
    # the records just written, as check-records will see them (beside the
    # other shapes' records of the folder)
    ck = Check([], [], [], [])
    check_validations(ck, flow_cores(), out, paths)
    bad = [*ck.stale, *ck.orphan, *ck.mismatch]
    if bad or len(ck.current) < len(paths):
        sys.exit("validate: records not current: " + "; ".join(bad))
    return paths


# ---- check-records ---------------------------------------------------------------------------


def stale_reasons(rec: hwrecord.ValidationRecord, core: FlowCore) -> list[str]:
    """What changed since the record's run (nothing: it is current)."""
    changed = []
    if sources_sha256(SimConfig(core, rec.preset, rec.level)) != rec.sources_sha256:
        changed.append("RTL, testbench or parameters")
    records = generate_kat(rec.level, rec.counts.kat + rec.counts.kat_derived)
    if kat_outputs_sha256(records) != rec.kat_outputs_sha256:
        changed.append("libbike's KAT outputs")
    kat = nist_kat(rec.level)
    if kat.exists() and file_sha256(kat) != rec.kat_sha256:
        changed.append(f"{kat.name}")
    return changed


def check_validations(
    ck: Check, cores: dict[str, FlowCore], root: Path = RECORDS, paths: list[Path] | None = None
) -> None:
    """Every validation record against the current sources: stale once the RTL,
    testbench, parameters or Verilator pin changed since, or libbike's KAT
    generator records of the run (its outputs: regenerated here) or the KAT
    file; a mismatch if it counts failures or does not follow the schema. A
    libbike change that keeps its outputs keeps the record current (its
    `libbike_sha256` tells which sources ran). paths: these records of root
    only (default: every one)."""
    for path in sorted(root.glob("*.json")) if paths is None else paths:
        label = f"results/{root.name}/{path.name}"
        try:
            rec = hwrecord.load_validation(path)
        except hwrecord.RecordError as exc:
            ck.mismatch.append(f"{label}: {exc}")
            continue
        core = cores.get(rec.core)
        if core is None or not is_kem(core) or rec.preset not in core.presets:
            ck.orphan.append(label)
            continue
        if path.name != f"{rec.core}_{rec.preset}_L{rec.level}.json":
            ck.mismatch.append(f"{label}: named after another configuration")
            continue
        if rec.failures:
            ck.mismatch.append(f"{label}: {rec.failures} failures")
            continue
        changed = stale_reasons(rec, core)
        if changed:
            ck.stale.append(f"{label} ({', '.join(changed)} changed since)")
        else:
            ck.current.append(label)
