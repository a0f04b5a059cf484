"""ML-KEM on the co-simulated ntt_acc: libmlkem's keygen, encaps and decaps
of all three sets with the NTT kernels on the device through the driver's
bike_acc_mlkem, byte-compared with libmlkem's software
(driver/tools/mlkem_cosim.cpp), and the per-kernel figures as a JSON record
(docs/cosim-mlkem-json.md)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from hwflow import cosim
from hwflow.cores import flow_cores
from hwflow.paths import REPO, build_dir
from hwflow.sim import JOBS
from hwflow.tools import run

DEVICE = "ntt_acc"
PRESET = "mlkem"
MAIN = [REPO / "driver" / "tools" / "mlkem_cosim.cpp"]
C_FILES = (REPO / "driver" / "src" / "mlkem_offload.c",)

# The record (docs/cosim-mlkem-json.md): field -> (JSON type, Python type, meaning).
RECORD: cosim.Fields = {
    "schema": ("string", str, "`bikeco-cosim-mlkem/1`"),
    "device": ("string", str, "the shell device: ntt_acc (mlkem preset)"),
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
    "kernels": ("array of objects", list, "ntt, invntt, basemul (below), summed over the runs"),
}
KERNEL: cosim.Fields = {
    "kernel": ("string", str, "ntt, invntt or basemul (k pairs: k device runs)"),
    "calls": ("integer", int, "calls of the kernel"),
    "accelerator_cycles": ("integer", int, "the shell's CYCLES, summed"),
    "transfer_cycles": ("integer", int, "PL cycles with an operand or result stream moving"),
    "run_pl_cycles": ("integer", int, "PL cycles from the hook's first register access to its end"),
}


def check_record(rec: Any) -> list[str]:
    """What is wrong with a record (empty: nothing)."""
    errs = cosim._check_fields(rec, RECORD, "record")
    if errs:
        return errs
    for s in rec["sets"]:
        errs += cosim._check_fields(s, SET, "set")
        for k in s.get("kem", []):
            errs += cosim._check_fields(k, KEM, "kem")
            for n in k.get("kernels", []):
                errs += cosim._check_fields(n, KERNEL, "kernel")
                if not errs and n["calls"] and n["run_pl_cycles"] <= n["accelerator_cycles"]:
                    errs.append(
                        f"set {s['set']} {k['operation']} {n['kernel']}: run not longer "
                        "than the accelerator's cycles"
                    )
    return errs


def libmlkem() -> Path:
    """$LIBMLKEM, else ../build/lib/libmlkem.a, else libmlkem built alone here."""
    lib = Path(os.environ.get("LIBMLKEM", str(REPO / "build" / "lib" / "libmlkem.a")))
    if lib.exists():
        return lib
    own = build_dir() / "libbike"
    run(["cmake", "-S", str(REPO), "-B", str(own), "-G", "Ninja", "-DBIKE_PROVIDER=OFF"])
    run(["cmake", "--build", str(own), "--target", "mlkem", "bike", "-j", JOBS])
    return own / "lib" / "libmlkem.a"


def cosim_mlkem(count: int, seed: int = 1) -> Path:
    """Build and run the program; exits on a failure. Returns the record."""
    core = flow_cores()[DEVICE]
    exe = cosim.program("mlkem_cosim", [(core, PRESET)], 1, MAIN, C_FILES, (libmlkem(),))
    out = build_dir() / "cosim" / "mlkem_ntt_acc.json"
    out.unlink(missing_ok=True)
    cmd = [str(exe), "--count", str(count), "--seed", str(seed), "--json", str(out)]
    res, seconds = run(cmd, check=False)
    sys.stdout.write(res.stdout)
    if res.returncode != 0:
        sys.exit(f"FAILED: cosim-mlkem\n{res.stdout[-3000:]}")
    errs = check_record(json.loads(out.read_text()))
    if errs:
        sys.exit(f"FAILED: cosim-mlkem: record {out}: " + "; ".join(errs))
    print(f"  (cosim-mlkem: run {seconds:.1f} s; record {out})", flush=True)
    return out
