from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bikeco.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_devices(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "devices")
    assert code == 0
    assert "xc7z010" in out and "Z-7010" in out and "134600" in out
    code, out, _ = run(capsys, "devices", "--json")
    assert len(json.loads(out)) == 11


@pytest.mark.parametrize(
    ("device", "hw", "total"),
    [
        ("z7010", ["keygen"], 617.31),
        ("Z-7015", ["decaps"], 482.48),
        ("xc7z020", ["keygen", "decaps"], 288.18),
    ],
)
def test_plan_json_seed000(
    capsys: pytest.CaptureFixture[str], device: str, hw: list[str], total: float
) -> None:
    code, out, _ = run(
        capsys,
        "plan",
        "--device",
        device,
        "--level",
        "1",
        "--role",
        "kem",
        "--hw-source",
        "seed000",
        "--interconnect",
        "none",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert [k for k, v in data["placement"].items() if v == "hw"] == hw
    assert set(data["placement"].values()) <= {"hw", "sw"}
    assert round(data["total_ms"], 2) == total
    assert data["resources"]["left"]["lut"] >= 0
    assert data["speedup"] == pytest.approx(811.61 / total, rel=1e-4)


def test_plan_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "plan", "--device", "z7020")
    assert code == 0
    assert "speed-up 2.82x" in out and "bram36" in out and "transfer ms" in out


def test_plan_bikeco_notes_uncovered(capsys: pytest.CaptureFixture[str], fixtures: Path) -> None:
    code, out, _ = run(
        capsys,
        "plan",
        "--device",
        "z7010",
        "--hw-source",
        "bikeco",
        "--hw-results",
        str(fixtures / "hw_results"),
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["grain"] == "operation"
    assert data["placement"]["keygen.multiplication"] == "hw"
    assert data["placement"]["decaps.decoding"] == "sw"
    assert any(
        "not covered by any bikeco core" in n and "decaps.decoding" in n for n in data["notes"]
    )


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["plan", "--device", "xc9000"], 2, "unknown device 'xc9000'"),
        (["plan", "--device", "z7010", "--level", "3"], 2, "no hardware cost models for level 3"),
        (["plan", "--device", "xc7a12t"], 3, "nothing fits xc7a12t"),
        (["plan", "--device", "z7010", "--cap", "1.5"], 2, "utilisation cap"),
        (["plan", "--device", "z7010", "--role", "peer"], 2, "unknown role"),
        (["plan", "--device", "z7010", "--profile", "vax"], 2, "unknown software profile"),
        (["plan", "--device", "z7010", "--profile", "missing.json"], 2, "profile file not found"),
    ],
)
def test_bad_input_clean_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], code: int, message: str
) -> None:
    got, out, err = run(capsys, *argv)
    assert got == code
    assert message in err and err.startswith("bikeco: error:")
    assert "Traceback" not in err + out


def test_bad_records_and_missing_folder(
    capsys: pytest.CaptureFixture[str], fixtures: Path, tmp_path: Path
) -> None:
    code, _, err = run(
        capsys,
        "plan",
        "--device",
        "z7020",
        "--hw-source",
        "bikeco",
        "--hw-results",
        str(fixtures / "hw_bad"),
    )
    assert code == 2 and "broken.json" in err
    code, _, err = run(
        capsys,
        "plan",
        "--device",
        "z7020",
        "--hw-source",
        "bikeco",
        "--hw-results",
        str(tmp_path / "none"),
    )
    assert code == 2 and "no hardware results folder" in err


def test_profile_with_stand_in(
    capsys: pytest.CaptureFixture[str],
    fake_bike: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log = tmp_path / "args.txt"
    monkeypatch.setenv("FAKE_BIKE_LOG", str(log))
    saved = tmp_path / "bench.json"
    code, out, _ = run(
        capsys,
        "profile",
        "--bike-bin",
        str(fake_bike),
        "--level",
        "1",
        "--runs",
        "5",
        "--out",
        str(saved),
    )
    assert code == 0
    assert log.read_text().split() == ["bench", "--json", "--level", "1", "--runs", "5"]
    assert "measured-portable (level 1)" in out and "decoding 9" in out
    assert json.loads(saved.read_text())["schema"] == "bikeco-bench/1"
    # the saved file is a usable profile
    code, out, _ = run(capsys, "plan", "--device", "z7010", "--profile", str(saved), "--json")
    assert code == 0 and json.loads(out)["profile"] == "measured-portable"


def test_profile_failures(
    capsys: pytest.CaptureFixture[str],
    fake_bike: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, _, err = run(capsys, "profile", "--bike-bin", str(tmp_path / "nobike"))
    assert code == 2 and "not found" in err
    monkeypatch.setenv("FAKE_BIKE_EXIT", "1")
    code, _, err = run(capsys, "profile", "--bike-bin", str(fake_bike))
    assert code == 2 and "simulated failure" in err
    monkeypatch.setenv("FAKE_BIKE_EXIT", "0")
    monkeypatch.setenv("FAKE_BIKE_OUTPUT", "not json")
    code, _, err = run(capsys, "profile", "--bike-bin", str(fake_bike))
    assert code == 2 and "valid JSON" in err
    monkeypatch.setenv("FAKE_BIKE_OUTPUT", '{"schema": "x"}')
    code, _, err = run(capsys, "profile", "--bike-bin", str(fake_bike))
    assert code == 2 and "schema" in err


def test_module_entry_point_exit_code() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bikeco", "plan", "--device", "nope"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "unknown device" in proc.stderr and "Traceback" not in proc.stderr


def test_user_device_file_and_bus_overhead(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = tmp_path / "dev.csv"
    f.write_text(
        "device,family,lut,ff,dsp,bram36,cpu,source\nmyzynq,custom,40000,80000,100,100,A9,test\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "plan", "--device", "myzynq", "--devices-file", str(f), "--json")
    assert code == 0
    assert json.loads(out)["placement"] == {"keygen": "sw", "encaps": "sw", "decaps": "hw"}
    # 3000 LUTs of bus interface per accelerator push Decaps (37160 LUTs) out of 40000
    code, out, _ = run(
        capsys,
        "plan",
        "--device",
        "myzynq",
        "--devices-file",
        str(f),
        "--bus-lut",
        "3000",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["placement"] == {"keygen": "hw", "encaps": "sw", "decaps": "sw"}
    assert data["resources"]["used"]["lut"] == 13567 + 3000
