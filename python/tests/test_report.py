from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bikeco.report import ReportOptions, write_report

GOLDEN = Path(__file__).parent / "golden"


def _report(out: Path, fixtures: Path, bench: bool = True, hw: str = "hw_results") -> int:
    return write_report(
        ReportOptions(
            out=out,
            bike_bin=out / "no-bike",
            bench_json=(fixtures / "bench_l1.json") if bench else None,
            run_bench=bench,
            hw_results=fixtures / hw,
            progress=False,
        )
    )


def test_report_files_match_golden(
    tmp_path: Path, fixtures: Path, golden: Callable[[str, str], None], update_golden: bool
) -> None:
    """Every table of the report, report.md and index.html, made from fixed inputs (fixture
    bench JSON and test-only hardware records), equal their golden files. Regenerate on
    purpose with `make -C python golden`."""
    out = tmp_path / "report"
    assert _report(out, fixtures) == 0
    tables = sorted(f.name for f in (out / "tables").glob("*.csv"))
    assert tables, "the report wrote no tables"
    if update_golden:
        for old in GOLDEN.glob("*.csv"):
            old.unlink()
    else:
        assert sorted(f.name for f in GOLDEN.glob("*.csv")) == tables
    for name in tables:
        golden(name, (out / "tables" / name).read_text(encoding="utf-8"))
    golden("report.md", (out / "report.md").read_text(encoding="utf-8"))
    golden("index.html", (out / "index.html").read_text(encoding="utf-8"))
    if update_golden:
        pytest.skip("golden files rewritten")


def test_report_contents(tmp_path: Path, fixtures: Path) -> None:
    out = tmp_path / "r"
    assert _report(out, fixtures) == 0
    md = (out / "report.md").read_text(encoding="utf-8")
    html = (out / "index.html").read_text(encoding="utf-8")
    for name in ("fig2_relative_time.png", "pareto_xc7z010.png", "pareto_xc7a200t.png"):
        assert (out / name).stat().st_size > 1000
        assert name in md and name in html
    table2 = (out / "tables" / "seed000_table2.csv").read_text().splitlines()
    assert all(line.endswith(",yes") for line in table2[1:])
    assert "bikeco+seed000" in (out / "tables" / "plans.csv").read_text()
    assert "measured-portable L1" in md


def test_report_without_bench_or_records(tmp_path: Path, fixtures: Path) -> None:
    out = tmp_path / "r"
    assert _report(out, fixtures, bench=False, hw="does-not-exist") == 0
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "not measured" in md
    assert "No hardware results records exist yet" in md
    assert "bikeco+seed000" not in (out / "tables" / "plans.csv").read_text()


def test_report_missing_binary_says_so(tmp_path: Path, fixtures: Path) -> None:
    out = tmp_path / "r"
    code = write_report(
        ReportOptions(
            out=out, bike_bin=tmp_path / "nobike", hw_results=tmp_path / "x", progress=False
        )
    )
    assert code == 0
    assert "benchmark tool was not found" in (out / "report.md").read_text()


def test_report_malformed_records_exit_nonzero(
    tmp_path: Path, fixtures: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r"
    assert _report(out, fixtures, hw="hw_bad") == 2
    assert "broken.json" in capsys.readouterr().err
    assert "could not be used" in (out / "report.md").read_text()


def test_main_command_completes(tmp_path: Path, fake_bike: Path, fixtures: Path) -> None:
    """The README's main command, as a fresh process: `bikeco report` with the default output
    folder, the benchmark tool found through BIKE_BIN and progress on the terminal."""
    env = dict(os.environ, BIKE_BIN=str(fake_bike), BIKECO_HW_RESULTS=str(tmp_path / "none"))
    exe = Path(sys.executable).with_name("bikeco")
    cmd = [str(exe), "report"] if exe.exists() else [sys.executable, "-m", "bikeco", "report"]
    proc = subprocess.run(
        cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert "[1/7]" in proc.stderr and "[7/7]" in proc.stderr
    assert (tmp_path / "report" / "index.html").is_file()
    assert "measured on this machine" in (tmp_path / "report" / "report.md").read_text()
