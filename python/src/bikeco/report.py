"""The report (``bikeco report``): a folder with index.html, report.md, tables/*.csv and PNGs.

Three stages: :func:`gather_inputs` reads what the report depends on (this machine's
benchmark, our cores' records); :func:`bikeco.report_data.build_report_data` computes every
plan, front and table once; the renderers (:mod:`bikeco.report_doc`,
:mod:`bikeco.report_plots`) turn that data into text and PNGs, which :func:`write_report`
writes.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bikeco.bench import measure
from bikeco.devices import DeviceCatalog
from bikeco.errors import BikecoError
from bikeco.hwmodels import load_records
from bikeco.profiles import SoftwareProfile, load_bench_file
from bikeco.report_data import ReportInputs, build_report_data, no_progress
from bikeco.report_doc import csv_tables, html, markdown
from bikeco.report_plots import plots

N_STEPS = 8


@dataclass(frozen=True)
class ReportOptions:
    """What the report reads and where it writes."""

    out: Path
    bike_bin: Path | None = None
    """A ``bike`` binary to measure; ``None``: the library, through the binding."""
    bench_json: Path | None = None
    run_bench: bool = True
    runs: int | None = 11
    hw_results: Path = Path("hw/results")
    hw_dir: Path | None = None
    """The hw/ folder of the designs' area model and verify records; None: the parent of
    ``hw_results`` when it holds the IP blocks (``ip/``), else no designs."""
    progress: bool = True


class _Progress:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.n = 0
        self.t0 = time.monotonic()

    def step(self, text: str) -> None:
        self.n += 1
        if self.enabled:
            dt = time.monotonic() - self.t0
            print(f"[{self.n}/{N_STEPS}] {text} ({dt:.1f} s)", file=sys.stderr, flush=True)


def _measure(opts: ReportOptions) -> tuple[list[SoftwareProfile], str]:
    """Measured profiles and a sentence saying where they come from (or why there are none)."""
    if opts.bench_json is not None:
        return load_bench_file(
            opts.bench_json
        ), f"read from the saved benchmark {opts.bench_json.name}"
    if not opts.run_bench:
        return [], "not measured: the benchmark was switched off (--no-bench)"
    if opts.bike_bin is not None and not opts.bike_bin.exists():
        return [], (
            f"not measured: libbike's benchmark tool was not found at {opts.bike_bin} "
            "(build the C library and tool first; 'make report' does)"
        )
    try:
        _, profiles, how = measure(opts.bike_bin, runs=opts.runs)
    except BikecoError as exc:
        return [], f"not measured: {exc} ('make report' builds the library first)"
    return profiles, how


def _hw(opts: ReportOptions) -> tuple[list[tuple[str, dict[str, Any]]], str | None]:
    """The hardware results records (file name, record), or an error text."""
    if not opts.hw_results.is_dir():
        return [], None
    try:
        recs = load_records(opts.hw_results)
    except BikecoError as exc:
        return [], str(exc)
    return [(p.name, r) for p, r in recs], None


def gather_inputs(opts: ReportOptions, step: Callable[[str], None] = no_progress) -> ReportInputs:
    """Measure this machine (or read a saved benchmark) and read our cores' records."""
    step("measuring this machine's software profile")
    measured, how = _measure(opts)
    step("reading hardware results records")
    records, error = _hw(opts)
    hw_dir = opts.hw_dir
    if hw_dir is None and (opts.hw_results.parent / "ip").is_dir():
        hw_dir = opts.hw_results.parent
    return ReportInputs(DeviceCatalog(), tuple(measured), how, tuple(records), error, hw_dir)


def write_report(opts: ReportOptions) -> int:
    """Write the report; return the exit code (2 when hardware records are malformed)."""
    prog = _Progress(opts.progress)
    out = opts.out
    try:
        (out / "tables").mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BikecoError(f"cannot create the report folder {out}: {exc}") from None
    data = build_report_data(gather_inputs(opts, prog.step), prog.step)
    prog.step("writing report.md and index.html")
    for name, text in csv_tables(data).items():
        (out / "tables" / f"{name}.csv").write_text(text, encoding="utf-8")
    for name, png in plots(data).items():
        (out / name).write_bytes(png)
    (out / "report.md").write_text(markdown(data), encoding="utf-8")
    (out / "index.html").write_text(html(data), encoding="utf-8")
    if opts.progress:
        print(f"report written to {out}/index.html and {out}/report.md", file=sys.stderr)
    if data.hardware.error:
        print(f"bikeco: error: hardware results records: {data.hardware.error}", file=sys.stderr)
        return 2
    return 0
