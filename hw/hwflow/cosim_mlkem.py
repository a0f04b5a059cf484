"""ML-KEM on the co-simulated ntt_acc: libmlkem's keygen, encaps and decaps
of all three sets with the NTT kernels on the device through the driver's
bike_acc_mlkem, byte-compared with libmlkem's software
(driver/tools/mlkem_cosim.cpp), and the per-kernel figures as a JSON record
(docs/cosim-mlkem-json.md)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from hwflow import cosim
from hwflow.cores import flow_cores
from hwflow.paths import HW, REPO, RESULTS, build_dir
from hwflow.sim import JOBS
from hwflow.tools import run

DEVICE = "ntt_acc"
PRESET = "mlkem"
MAIN = [REPO / "driver" / "tools" / "mlkem_cosim.cpp"]
C_FILES = (REPO / "driver" / "src" / "mlkem_offload.c",)

SCHEMA = "bikeco-cosim-mlkem/2"
# The committed record (make -C hw cosim-mlkem-record): the figures of seed
# 004's Tables 5 and 6 (python/src/bikeco/report_seed004.py)
COMMITTED = RESULTS / "cosim" / "mlkem_ntt_acc.json"
KERNELS = ("ntt", "invntt", "basemul", "basemul_invntt")

# The record (docs/cosim-mlkem-json.md): field -> (JSON type, Python type, meaning).
RECORD: cosim.Fields = {
    "schema": ("string", str, f"`{SCHEMA}`"),
    "device": ("string", str, "the shell device: ntt_acc (mlkem preset)"),
    "params": ("object of integers", dict, "the device's parameters (ntt_acc.core, mlkem)"),
    "sources_sha256": (
        "string",
        str,
        "SHA-256 of the sources the figures come from (`sources_sha256()`)",
    ),
    "wait": ("string", str, "`irq` or `poll`: how the driver waited for each operation's end"),
    "timing": ("object of integers", dict, "the timing model's parameters in use"),
    "count": ("integer", int, "runs per set (keygen, encaps, decaps, a rejected decaps)"),
    "passed": ("boolean", bool, "every output byte-exact with libmlkem's software"),
    "sets": ("array of objects", list, "one per parameter set (below)"),
}
SET: cosim.Fields = {
    "set": ("integer", int, "512, 768 or 1024"),
    "matched": ("integer", int, "runs whose every output matched"),
    "kem": ("array of objects", list, "keygen, encaps, decaps (below)"),
}
KEM: cosim.Fields = {
    "operation": ("string", str, "keygen, encaps or decaps"),
    "kernels": ("array of objects", list, "one per hook (below), summed over the runs"),
}
KERNEL: cosim.Fields = {
    "kernel": ("string", str, "the hook: ntt (one or a vector), invntt, basemul, basemul_invntt"),
    "calls": ("integer", int, "calls of the hook"),
    "device_runs": ("integer", int, "device operations (one START each)"),
    "words_in": ("integer", int, "64-bit stream words of operands sent"),
    "words_out": ("integer", int, "64-bit stream words of results received"),
    "accelerator_cycles": ("integer", int, "the shell's CYCLES, summed"),
    "transfer_cycles": ("integer", int, "PL cycles with an operand or result stream moving"),
    "run_pl_cycles": ("integer", int, "PL cycles from the hook's first register access to its end"),
    "cpu_cycles": ("integer", int, "`run_pl_cycles` in CPU cycles (times cpu_mhz / pl_mhz)"),
}


def check_record(rec: Any) -> list[str]:
    """What is wrong with a record (empty: nothing)."""
    errs = cosim._check_fields(rec, RECORD, "record")
    if errs:
        return errs
    if rec["schema"] != SCHEMA:
        return [f"record: schema {rec['schema']!r}, not {SCHEMA!r}"]
    for s in rec["sets"]:
        errs += cosim._check_fields(s, SET, "set")
        for k in s.get("kem", []):
            errs += cosim._check_fields(k, KEM, "kem")
            for n in k.get("kernels", []):
                errs += cosim._check_fields(n, KERNEL, "kernel")
                if errs or not n["calls"]:
                    continue
                where = f"set {s['set']} {k['operation']} {n['kernel']}"
                if n["run_pl_cycles"] <= n["accelerator_cycles"]:
                    errs.append(f"{where}: run not longer than the accelerator's cycles")
                if n["device_runs"] < 1 or min(n["words_in"], n["words_out"]) < n["device_runs"]:
                    errs.append(f"{where}: no device run or no words")
    return errs


def source_files() -> list[Path]:
    """What a record's figures and outputs come from: the device's RTL, the
    driver, the program and libmlkem."""
    core = flow_cores()[DEVICE]
    files = [HW / f for f in core.vlt + core.rtl]
    for d in (REPO / "driver" / "src", REPO / "driver" / "include"):
        files += sorted(d.glob("*.[ch]")) + sorted(d.glob("*.cpp"))
    files += MAIN
    files += sorted((REPO / "lib" / "mlkem").rglob("*.[ch]"))
    return files


def sources_sha256() -> str:
    """SHA-256 of the source files' names (from the repository) and contents."""
    h = hashlib.sha256()
    for f in source_files():
        h.update(os.path.relpath(f, REPO).encode() + b"\0")
        h.update(f.read_bytes())
    return h.hexdigest()


def check_committed(path: Path = COMMITTED) -> tuple[str, str]:
    """The committed record against its schema and sources: ("current" |
    "stale" | "mismatch" | "missing", what)."""
    label = str(path.relative_to(REPO / "hw"))
    if not path.exists():
        return "missing", f"{label}: no record (make -C hw cosim-mlkem-record)"
    rec = json.loads(path.read_text())
    errs = check_record(rec)
    if errs or not rec["passed"]:
        return "mismatch", f"{label}: " + ("; ".join(errs) or "not passed")
    if rec["sources_sha256"] != sources_sha256():
        return "stale", f"{label} (sources changed since: make -C hw cosim-mlkem-record)"
    return "current", label


def libmlkem() -> Path:
    """$LIBMLKEM, else ../build/lib/libmlkem.a, else libmlkem built alone here."""
    lib = Path(os.environ.get("LIBMLKEM", str(REPO / "build" / "lib" / "libmlkem.a")))
    if lib.exists():
        return lib
    own = build_dir() / "libbike"
    run(["cmake", "-S", str(REPO), "-B", str(own), "-G", "Ninja", "-DBIKE_PROVIDER=OFF"])
    run(["cmake", "--build", str(own), "--target", "mlkem", "bike", "-j", JOBS])
    return own / "lib" / "libmlkem.a"


def cosim_mlkem(count: int, seed: int = 1, commit: bool = False, wait: str = "irq") -> Path:
    """Build and run the program; exits on a failure. Returns the record
    (with `commit`, also written to COMMITTED)."""
    core = flow_cores()[DEVICE]
    exe = cosim.program("mlkem_cosim", [(core, PRESET)], 1, MAIN, C_FILES, (libmlkem(),))
    out = build_dir() / "cosim" / "mlkem_ntt_acc.json"
    out.unlink(missing_ok=True)
    cmd = [str(exe), "--count", str(count), "--seed", str(seed), "--wait", wait]
    cmd += ["--json", str(out)]
    res, seconds = run(cmd, check=False)
    sys.stdout.write(res.stdout)
    if res.returncode != 0:
        sys.exit(f"FAILED: cosim-mlkem\n{res.stdout[-3000:]}")
    rec = json.loads(out.read_text())
    head = {k: rec.pop(k) for k in ("schema", "device")}
    params = dict(core.presets[PRESET])
    rec = {**head, "params": params, "sources_sha256": sources_sha256(), **rec}
    out.write_text(json.dumps(rec, indent=1) + "\n")
    errs = check_record(rec)
    if errs:
        sys.exit(f"FAILED: cosim-mlkem: record {out}: " + "; ".join(errs))
    print(f"  (cosim-mlkem: run {seconds:.1f} s; record {out})", flush=True)
    if commit:
        COMMITTED.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(out, COMMITTED)
        print(f"wrote {COMMITTED.relative_to(REPO)}", flush=True)
    return out
