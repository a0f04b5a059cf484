"""Thin wrapper around libbike's ``bike bench --json`` (the measuring tool)."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bikeco.errors import BikecoError
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
