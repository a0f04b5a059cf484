"""This machine's software profile: in-process through the libbike binding
(:func:`bench_with_binding`), or by running a given ``bike bench --json`` binary
(:func:`run_bench`). Both give the ``bikeco-bench/1`` record of ``docs/bench-json.md``."""

from __future__ import annotations

import ctypes
import json
import platform
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bikeco.errors import BikecoError
from bikeco.levels import LEVELS
from bikeco.libbike import COINS_BYTES, Libbike
from bikeco.profiles import SoftwareProfile, parse_bench


@dataclass(frozen=True)
class BenchOptions:
    """Options passed to ``bike bench``: all optional; ``None`` leaves the tool's default."""

    binary: Path
    level: int | None = None
    runs: int | None = None
    timeout_s: float = 900.0

    def argv(self) -> list[str]:
        """The command line that runs the benchmark."""
        cmd = [str(self.binary), "bench", "--json"]
        if self.level is not None:
            cmd += ["--level", str(self.level)]
        if self.runs is not None:
            cmd += ["--runs", str(self.runs)]
        return cmd


def run_bench_raw(opts: BenchOptions) -> dict[str, Any]:
    """Run the benchmark and return its parsed JSON (not yet validated)."""
    if not opts.binary.exists():
        raise BikecoError(
            f"libbike benchmark tool not found at {opts.binary} "
            "(build it first, or set BIKE_BIN / --bike-bin)"
        )
    try:
        proc = subprocess.run(
            opts.argv(), capture_output=True, text=True, timeout=opts.timeout_s, check=False
        )
    except OSError as exc:
        raise BikecoError(f"cannot run {opts.binary}: {exc}") from None
    except subprocess.TimeoutExpired:
        raise BikecoError(f"{opts.binary} bench did not finish in {opts.timeout_s:.0f} s") from None
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        raise BikecoError(
            f"'{' '.join(opts.argv())}' failed with exit code {proc.returncode}: "
            + " | ".join(tail)
        )
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        raise BikecoError(f"'{' '.join(opts.argv())}' did not print valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise BikecoError(f"'{' '.join(opts.argv())}' printed JSON that is not an object")
    return data


def run_bench(opts: BenchOptions) -> tuple[dict[str, Any], list[SoftwareProfile]]:
    """Run the benchmark; return the raw record and the validated profiles."""
    raw = run_bench_raw(opts)
    return raw, parse_bench(raw, f"output of {opts.binary} bench --json")


# ------------------------------------------------------------------ through the binding

BREAKDOWN: dict[str, dict[str, str]] = {
    "keygen": {"prng": "sample_keygen", "inversion": "gf2x_inv", "multiplication": "gf2x_mul"},
    "encaps": {
        "h_function": "function_h",
        "multiplication": "gf2x_mul",
        "l_function": "function_l",
        "k_function": "function_k",
    },
    "decaps": {
        "multiplication": "gf2x_mul",
        "decoding": "decode",
        "l_function": "function_l",
        "h_function": "function_h",
        "k_function": "function_k",
    },
}
"""Each primitive's seed 001 Table 2 operations and the measured libbike call standing for it,
as ``bike bench`` reports them (docs/bench-json.md; a test compares with the tool's output)."""

BATCH_SIZES = (1, 4, 16)
"""Keys per call of the ``keygen_batch`` timings, as ``bike bench`` makes them."""


def _timing(call: Callable[[], object], runs: int) -> dict[str, float | None]:
    """Median and 90th percentile of single calls, as ``bike bench`` computes them."""
    for _ in range(runs // 10 + 2):
        call()
    ns: list[int] = []
    for _ in range(runs):
        t0 = time.perf_counter_ns()
        call()
        ns.append(time.perf_counter_ns() - t0)
    ns.sort()
    p90 = min(runs * 9 // 10, runs - 1)
    return {
        "median_ns": float(ns[runs // 2]),
        "p90_ns": float(ns[p90]),
        "median_ticks": None,
        "p90_ticks": None,
    }


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _level_record(lib: Libbike, level: int, runs: int) -> dict[str, Any]:
    """One ``results`` entry: the calls and inputs of ``bike bench`` (a key pair from fixed
    coins, its ciphertext, the syndrome of c0), timed through ctypes with prepared buffers."""
    c = lib.raw
    pp = lib.params_ptr(level)
    p = lib.params(level)
    u8, u32, u64 = ctypes.c_uint8, ctypes.c_uint32, ctypes.c_uint64
    coins = (u8 * COINS_BYTES)(*[(17 * i + 1) % 256 for i in range(COINS_BYTES)])
    pk, sk = (u8 * p.pk_bytes)(), (u8 * p.sk_bytes)()
    ct, ss = (u8 * p.ct_bytes)(), (u8 * 32)()
    digest, stream = (u8 * 48)(), (u8 * 1024)()
    h0, h1 = (u32 * p.d)(), (u32 * p.d)()
    a, b, cc, e0, e1, s = ((u64 * p.r_qwords)() for _ in range(6))
    upc = (u8 * p.r)()
    null_idx = ctypes.POINTER(u32)()

    def keygen() -> object:
        return c.bike_keypair_derand(level, pk, p.pk_bytes, sk, p.sk_bytes, coins)

    def encaps() -> object:
        return c.bike_encaps_derand(level, ct, p.ct_bytes, ss, pk, p.pk_bytes, coins)

    def sample_keygen() -> object:
        c.bike_sample_keygen(pp, h0, h1, coins)
        c.bike_poly_from_indices(pp, a, h0, p.d)
        return c.bike_poly_from_indices(pp, b, h1, p.d)

    def function_h() -> object:
        return c.bike_function_h(pp, e0, e1, null_idx, coins)

    for rc in (keygen(), encaps()):
        if isinstance(rc, int) and rc != 0:
            raise BikecoError(f"libbike failed while preparing the benchmark: {lib.strerror(rc)}")
    sample_keygen()
    c.bike_poly_from_bytes(pp, cc, ct)
    c.bike_gf2x_mul_sparse(pp, s, h0, p.d, cc)
    function_h()

    prims: dict[str, Callable[[], object]] = {
        "keygen": keygen,
        "encaps": encaps,
        "decaps": lambda: c.bike_decaps(level, ss, ct, p.ct_bytes, sk, p.sk_bytes),
    }
    ops: dict[str, Callable[[], object]] = {
        "sha3_384": lambda: c.bike_sha3_384(digest, ct, p.ct_bytes),
        "shake256": lambda: c.bike_shake256(stream, 1024, coins, 32),
        "sample_keygen": sample_keygen,
        "function_h": function_h,
        "function_l": lambda: c.bike_function_l(pp, ss, e0, e1),
        "function_k": lambda: c.bike_function_k(pp, ss, coins, ct),
        "gf2x_mul": lambda: c.bike_gf2x_mul(pp, cc, a, b),
        "gf2x_sqr_k": lambda: c.bike_gf2x_sqr_k(pp, cc, a, 1000),
        "gf2x_inv": lambda: c.bike_gf2x_inv(pp, cc, a),
        "gf2x_mul_sparse": lambda: c.bike_gf2x_mul_sparse(pp, s, h0, p.d, cc),
        "upc": lambda: c.bike_upc(pp, upc, h0, p.d, s),
        "decode": lambda: c.bike_decode(pp, e0, e1, s, h0, h1),
    }
    prim_t = {name: _timing(fn, runs) for name, fn in prims.items()}
    op_t = {name: _timing(fn, runs) for name, fn in ops.items()}
    batch_t = {str(n): _timing(_keygen_batch(lib, level, n), runs) for n in BATCH_SIZES}
    return {
        "level": level,
        "backend": lib.backend_name(),
        "runs": runs,
        "primitives": prim_t,
        "operations": op_t,
        "breakdown": {
            prim: {part: op_t[op]["median_ns"] for part, op in parts.items()}
            for prim, parts in BREAKDOWN.items()
        },
        "keygen_batch": batch_t,
    }


def _keygen_batch(lib: Libbike, level: int, n: int) -> Callable[[], object]:
    """One call making n key pairs (bike/batch.h), with buffers made once."""
    p = lib.params(level)
    u8 = ctypes.c_uint8
    pk, sk = (u8 * (n * p.pk_bytes))(), (u8 * (n * p.sk_bytes))()
    coins = (u8 * (n * COINS_BYTES))(*[(29 * i + 3) % 256 for i in range(n * COINS_BYTES)])

    def call() -> object:
        rc = lib.raw.bike_keypair_batch_derand(
            level, n, pk, n * p.pk_bytes, sk, n * p.sk_bytes, coins, n * COINS_BYTES
        )
        if rc != 0:
            raise BikecoError(f"bike_keypair_batch_derand failed: {lib.strerror(rc)}")
        return rc

    return call


def bench_with_binding(
    lib: Libbike, level: int | None = None, runs: int | None = None
) -> tuple[dict[str, Any], list[SoftwareProfile]]:
    """Measure this machine in-process through the libbike binding: the same
    ``bikeco-bench/1`` record as ``bike bench --json`` on the back end the library picks (not
    pinned to a CPU, no TSC ticks; each timed call includes ctypes' call overhead, well under
    a microsecond, against operations of microseconds to milliseconds)."""
    n = 101 if runs is None else runs
    if n < 1:
        raise BikecoError("runs must be at least 1")
    levels = list(LEVELS) if level is None else [level]
    raw: dict[str, Any] = {
        "schema": "bikeco-bench/1",
        "tool_version": lib.version(),
        "cpu": _cpu_model(),
        "tsc_hz": None,
        "pinned_cpu": -1,
        "results": [_level_record(lib, lv, n) for lv in levels],
    }
    return raw, parse_bench(raw, f"libbike binding ({lib.path})")


def measure(
    bike_bin: Path | None, level: int | None = None, runs: int | None = None
) -> tuple[dict[str, Any], list[SoftwareProfile], str]:
    """This machine's profile: through the binding, or with ``bike_bin`` when one is given (to
    measure that binary). Returns the record, its profiles and a sentence saying how."""
    if bike_bin is not None:
        opts = BenchOptions(bike_bin, level, runs)
        raw, profiles = run_bench(opts)
        return (
            raw,
            profiles,
            f"measured on this machine by '{' '.join(opts.argv()[1:])}' of {bike_bin}",
        )
    lib = Libbike()
    raw, profiles = bench_with_binding(lib, level, runs)
    n = raw["results"][0]["runs"]
    return (
        raw,
        profiles,
        (
            f"measured on this machine through the libbike binding ({Path(lib.path).name}, "
            f"libbike {lib.version()}, {n} runs per item)"
        ),
    )
