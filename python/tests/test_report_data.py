"""The report's data object: its golden JSON, its shared inputs computed once, and renderers
that only read it."""

from __future__ import annotations

import collections
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import bikeco.data_files
import bikeco.explore
import bikeco.hwmodels
import bikeco.interconnect
import bikeco.profiles
import bikeco.report_data
import bikeco.report_doc
import bikeco.report_plots
from bikeco.report import ReportOptions, gather_inputs
from bikeco.report_data import NOT_VERIFIED, ReportData, build_report_data, data_json
from bikeco.report_doc import csv_tables, html, markdown
from bikeco.report_plots import plots


def _data(tmp_path: Path, fixtures: Path) -> ReportData:
    opts = ReportOptions(
        out=tmp_path,
        bike_bin=tmp_path / "no-bike",
        bench_json=fixtures / "bench_l1.json",
        hw_results=fixtures / "hw_results",
        hw_dir=fixtures / "hw_synth",
        progress=False,
    )
    return build_report_data(gather_inputs(opts))


def test_data_matches_golden(
    tmp_path: Path, fixtures: Path, golden: Callable[[str, str], None], update_golden: bool
) -> None:
    """The data object from the fixture inputs, as canonical JSON, equals its golden file."""
    golden("report_data.json", data_json(_data(tmp_path, fixtures)))
    if update_golden:
        pytest.skip("golden file rewritten")


def test_shared_inputs_computed_once(
    tmp_path: Path, fixtures: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Building the report computes the seed 000 profile and units, each transfer model and
    each record's unit once."""
    calls: collections.Counter[str] = collections.Counter()

    def counting(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[f"{name}({args[0]})" if name == "calibrate" else name] += 1
            return real(*args, **kwargs)

        return wrapper

    for name in ("calibrate", "seed000_profile", "seed000_units", "unit_from_record"):
        real = getattr(bikeco.report_data, name)
        monkeypatch.setattr(bikeco.report_data, name, counting(name, real))
    data = _data(tmp_path, fixtures)
    assert dict(calls) == {
        "calibrate(none)": 1,
        "calibrate(baremetal)": 1,
        "calibrate(sdsoc)": 1,
        "calibrate(driver)": 1,
        "seed000_profile": 1,
        "seed000_units": 1,
        "unit_from_record": len(data.hardware.records),
    }
    assert len(data.hardware.records) == 3


def test_renderers_only_read_the_data(
    tmp_path: Path, fixtures: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the explorer and every input reader made to fail, the renderers still give the
    same text and tables, and every plot, from the data object."""
    data = _data(tmp_path, fixtures)
    before = (markdown(data), html(data), csv_tables(data))

    def fail(*_: Any, **__: Any) -> Any:
        raise AssertionError("a renderer computed instead of reading the data")

    names = (
        "explore",
        "pareto_front",
        "front_below",
        "_solve",
        "calibrate",
        "seed000_profile",
        "seed000_units",
        "published_profile",
        "unit_from_record",
        "load_records",
        "read_table",
    )
    modules = (
        bikeco.data_files,
        bikeco.explore,
        bikeco.hwmodels,
        bikeco.interconnect,
        bikeco.profiles,
        bikeco.report_data,
        bikeco.report_doc,
        bikeco.report_plots,
    )
    for mod in modules:
        for name in names:
            if hasattr(mod, name):
                monkeypatch.setattr(mod, name, fail)
    assert (markdown(data), html(data), csv_tables(data)) == before
    pngs = plots(data)
    assert set(pngs) == {"fig2_relative_time.png"} | {
        f"pareto_{d.device.name}.png" for d in data.devices
    }
    assert all(png.startswith(b"\x89PNG") for png in pngs.values())


def test_verify_records_read(tmp_path: Path, fixtures: Path) -> None:
    import shutil

    from bikeco.designfile import load_design
    from bikeco.report_data import _verified

    folder = fixtures / "hw_synth" / "results" / "designs" / "xc7z020_L1_kem"
    d = load_design(folder / "design.json")
    got, m, note = _verified(d, folder)
    assert m is not None and m.lut == 50000 and note == "verified: bit-exact, fits"
    assert got == d
    assert _verified(d, tmp_path) == (d, None, NOT_VERIFIED)
    # a record of other parameters does not verify this design
    other = dataclasses.replace(
        d, cores=[dataclasses.replace(d.cores[0], params={**d.cores[0].params, "InvE": 8})]
    )
    assert _verified(other, folder)[1:] == (
        None,
        "not verified (the committed record is of other parameters)",
    )
    shutil.copy(folder / "design.json", tmp_path / "design.json")
    (tmp_path / "verify.json").write_text('{"schema": "bikeco-verify/2"}')
    _, m, note = _verified(d, tmp_path)
    assert m is None and note.startswith("verify record unusable:")
    assert "verify.json: cores: missing" in note
