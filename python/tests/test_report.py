from __future__ import annotations

import csv
import dataclasses
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bikeco.report import ReportOptions, write_report
from bikeco.report_data import NOT_VERIFIED

GOLDEN = Path(__file__).parent / "golden"


def _report(out: Path, fixtures: Path, bench: bool = True, hw: str = "hw_results") -> int:
    return write_report(
        ReportOptions(
            out=out,
            bike_bin=out / "no-bike",
            bench_json=(fixtures / "bench_l1.json") if bench else None,
            run_bench=bench,
            hw_results=fixtures / hw,
            hw_dir=fixtures / "hw_synth",
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
    assert "[1/8]" in proc.stderr and "[8/8]" in proc.stderr
    assert (tmp_path / "report" / "index.html").is_file()
    assert "measured on this machine" in (tmp_path / "report" / "report.md").read_text()


def test_report_designs(tmp_path: Path, fixtures: Path) -> None:
    """Every part has a design at L1, L3 and L5; the one with a verify record shows its
    measured figures, the others say 'not verified'."""
    out = tmp_path / "r"
    assert _report(out, fixtures) == 0
    with (out / "tables" / "designs.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 3 * 11
    z7020 = next(r for r in rows if r["device"] == "xc7z020" and r["level"] == "1")
    assert z7020["status"] == "verified: bit-exact, fits" and z7020["LUT (meas.)"] == "50,000"
    assert z7020["LUT err %"] == "-1.7"
    assert sum(r["status"] == NOT_VERIFIED for r in rows) == len(rows) - 1
    md = (out / "report.md").read_text()
    assert (
        "Zynq-7010 goal (whole KEM under 288,000 cycles at L1): goal 288,000 cycles not met" in md
    )
    fit = (out / "tables" / "model_fit.csv").read_text()
    assert "KEM cores,LUT,11," in fit
    with (out / "tables" / "zynq_designs.csv").open() as f:
        zynq = {r["part"]: r for r in csv.DictReader(f)}
    assert list(zynq) == ["Z-7010 (xc7z010)", "Z-7015 (xc7z015)", "Z-7020 (xc7z020)"]
    z = zynq["Z-7020 (xc7z020)"]
    # the fixture's driver saw 87,928 cycles predicted, 89,566 run; 49,162 against 50,000 LUT
    assert (z["driver pred."], z["driver meas."], z["LUT err %"]) == ("87,928", "89,566", "-1.7")
    assert z["through the bus, bit-exact"] == "10/10 KAT + 2/2 random KEMs, 2/2 tampered ct"
    assert zynq["Z-7010 (xc7z010)"]["cycles meas."] == "-"
    assert "Z-7020 (xc7z020): bit-exact, fits, 0.879 ms measured; the model meets its goal" in md
    assert f"Z-7015 (xc7z015): {NOT_VERIFIED}: no measured figures" in md


def test_a_missed_model_goal_is_said_with_why() -> None:
    from bikeco.report_data import Measured
    from bikeco.report_doc import _goal_text

    m = Measured({}, 1.0, 100.0, True, True, (), "")
    ok = _goal_text({"cycles (core testbenches)": 0.0, "LUT": -9.9}, m)
    assert "meets its goal" in ok and "NOT" not in ok
    text = _goal_text({"cycles seen by the driver": -5.2, "LUT": 12.0}, m)
    assert "goal is NOT met: cycles seen by the driver -5.2 % (goal 5 %): the driver" in text
    assert "LUT +12.0 % (goal 10 %): the area fit misses" in text


def test_report_without_hw_folder_has_no_designs(tmp_path: Path, fixtures: Path) -> None:
    out = tmp_path / "r"
    opts = ReportOptions(out=out, bike_bin=out / "x", run_bench=False, hw_results=tmp_path / "x")
    assert write_report(dataclasses.replace(opts, progress=False)) == 0
    assert "No designs: no hw/ folder" in (out / "report.md").read_text()
