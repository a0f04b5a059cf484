"""bikeco design: the area fits, the MILP against enumeration, the command and its errors."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bikeco import design as ds
from bikeco import hwarea, hwcycles
from bikeco.cli import main
from bikeco.design_cli import DEFAULT_ROUTING_MARGIN, routing_margin_for
from bikeco.designfile import load_design
from bikeco.devices import DeviceCatalog
from bikeco.errors import BikecoError
from bikeco.hwrecord import load_record, load_report
from bikeco.interconnect import calibrate

REPO = Path(__file__).resolve().parents[2]
HW = REPO / "hw"


@pytest.fixture(scope="module")
def area() -> hwarea.AreaModel:
    return hwarea.default_model(HW)


def _ctx(area: hwarea.AreaModel, device: str, **kw: object) -> ds.Context:
    level = int(kw.pop("level", 1))  # type: ignore[call-overload]
    base = ds.Context(
        DeviceCatalog().get(device),
        level,
        "kem",
        100.0,
        ds.profile_for(None, level),
        calibrate("baremetal"),
        area,
    )
    return dataclasses.replace(base, **kw)  # type: ignore[arg-type]


# ---- the area fits ------------------------------------------------------------------------


def test_fit_quality(area: hwarea.AreaModel) -> None:
    q = {(f.what, f.resource): f for f in area.quality}
    assert q["KEM cores", "lut"].r2 > 0.999
    assert q["KEM cores", "lut"].max_rel_error < 0.03
    # the design's default margin covers the KEM cores' largest LUT under-prediction, also
    # for a core left out of the fit (the case of a design the fit has not seen)
    loo = q["KEM cores, each left out", "lut"]
    assert q["KEM cores", "lut"].max_under < loo.max_under < DEFAULT_ROUTING_MARGIN
    assert q["KEM cores", "lut"].max_rel_error < loo.max_rel_error < 0.06
    for unit in ("gf2x_inv", "bike_decoder", "keccak", "sparse_mul"):
        assert q[unit, "lut"].max_rel_error < 0.05, unit
    assert q["KEM cores", "bram36"].max_rel_error < 0.05
    assert q["KEM cores", "ff"].max_rel_error < 0.2
    assert q["KEM cores", "dsp"].max_rel_error < 1e-6


def test_kem_area_against_every_kem_record(area: hwarea.AreaModel) -> None:
    for path in sorted((HW / "results").glob("bike_kem_*.json")):
        rec = load_record(path)
        p = {k: v for k, v in rec.params.items() if isinstance(v, int)}
        got = area.kem(rec.core.removeprefix("bike_kem_"), p, rec.level)
        # LUTs within 3 % at L1 (the fit), 5 % at L3 and 11 % at L5 (one line in N for every
        # shape: server large L3 is 4.2 % over, keygen medium L5 10.3 % over, where its
        # memories move from LUT RAM to block RAM). BRAM36 within 10 % at L1 and 30 % at L3
        # and L5 (keygen medium L5: 46 for 64): one factor per level cannot follow which
        # memories pass a block's depth
        lut_tol = {1: 0.03, 3: 0.05, 5: 0.11}[rec.level]
        bram_tol = 0.1 if rec.level == 1 else 0.30
        assert abs(got["lut"] - rec.resources.lut) <= lut_tol * rec.resources.lut, path.name
        assert abs(got["bram36"] - rec.resources.bram36) <= bram_tol * rec.resources.bram36 + 1


def test_decoder_device_on_a_small_part(area: hwarea.AreaModel) -> None:
    # the A7-25T holds no KEM core that beats the bus devices: the decoder goes alone
    ev = ds.solve(_ctx(area, "xc7a25t"))
    assert ev is not None
    assert "bike_decoder_acc" in [c[0] for c in ev.cores]


def test_acc_area_reproduces_its_report(area: hwarea.AreaModel) -> None:
    # the medium devices, whose reports the bus devices' offsets come from
    medium = {"KaratsubaLevels": 2, "ParallelLevels": 1}
    for core, name, params in (
        ("bike_decoder_acc", "decoder", {"P": 8}),
        ("gf2x_inv_acc", "inv", {"E": 16, **medium}),
        ("gf2x_mul_acc", "mul", medium),
    ):
        rep = load_report(HW / "ip" / "acc_shell" / "syn" / "reports" / f"{name}_medium_L1.json")
        got = area.acc(core, params, 1)
        assert got["lut"] == rep.lut, core
        assert got["bram36"] == rep.ramb36 + 0.5 * rep.ramb18, core


def test_level_scaling_says_how_good_it_is(area: hwarea.AreaModel) -> None:
    p = {"RoundsPerCycle": 1, "InvE": 8, "InvKaratsubaLevels": 2, "InvParallelLevels": 1}
    p |= {"SparseP": 1, "DecoderP": 3, "DecoderPrefetch": 0, "DecoderTile": 32}
    l1, l3, l5 = (area.kem("full", p, lvl)["bram36"] for lvl in (1, 3, 5))
    assert l1 < l3 < l5
    q = {(f.what, f.resource): f for f in area.quality}
    for level in (3, 5):
        reports = sorted((HW / "ip" / "bike_kem" / "syn" / "reports").glob(f"*_L{level}.json"))
        notes = ds.notes_for(_ctx(area, "xc7a200t", level=level))
        what = hwarea.LEVEL_FIT.format(level=level)
        if not reports:  # the L1 fits extrapolated, and said so
            assert (what, "lut") not in q
            assert any("extrapolated" in n for n in notes)
            continue
        # the scaled model against every KEM core synthesised at the level, said in the notes
        assert q[what, "lut"].samples == len(reports)
        # one line in N per level over every shape: LUTs within 11 % (L3: 4.2 %, L5: 10.3 %,
        # an over-prediction; under-predicted by at most 4.2 %), block RAMs within 30 % (their
        # steps depend on the parameters)
        assert q[what, "lut"].max_rel_error < 0.11
        assert q[what, "lut"].max_under < DEFAULT_ROUTING_MARGIN
        assert q[what, "bram36"].max_rel_error < 0.30
        said = "the one KEM core" if len(reports) == 1 else f"{len(reports)} KEM cores"
        assert any(f"{said} synthesised at L{level}" in n for n in notes)


def test_routing_margin_covers_each_levels_lut_under_prediction(area: hwarea.AreaModel) -> None:
    assert routing_margin_for(area, 1) == DEFAULT_ROUTING_MARGIN
    q = {(f.what, f.resource): f for f in area.quality}
    for level in (3, 5):
        under = hwarea.level_lut_under(area, level)
        margin = routing_margin_for(area, level)
        assert margin >= DEFAULT_ROUTING_MARGIN
        assert under is None or under <= margin < under + 0.01 or margin == DEFAULT_ROUTING_MARGIN
        # an over-prediction costs area only: it does not widen the margin
        fit = q.get((hwarea.LEVEL_FIT.format(level=level), "lut"))
        if fit is not None and fit.max_rel_error > max(fit.max_under, DEFAULT_ROUTING_MARGIN):
            assert margin < fit.max_rel_error


def _sample(kind: str, level: int, lut: float) -> hwarea.Sample:
    return hwarea.Sample(kind, {"P": 1}, level, {"lut": lut, "ff": lut, "dsp": 0, "bram36": 1}, "")


def test_level_slope_is_a_line_through_the_kem_cores() -> None:
    x3, x5 = (hwcycles.geometry(lv).n / hwcycles.geometry(1).n - 1 for lv in (3, 5))
    kem = [_sample("kem:full", 1, 1000), _sample("kem:full", 3, 1000 * (1 + 0.2 * x3))]
    kem.append(_sample("kem:full", 5, 1000 * (1 + 0.2 * x5)))
    units = [_sample("keccak", 1, 100), _sample("keccak", 3, 100 * (1 + 0.9 * x3))]
    assert hwarea._level_slopes(kem + units)["lut"] == pytest.approx(0.2)
    assert hwarea._level_slopes(units)["lut"] == pytest.approx(0.9)  # no KEM core above L1


def test_level_factor_per_level_with_the_line_elsewhere() -> None:
    # each level with a KEM core synthesised at it and at L1 gets its own factor (block RAMs
    # grow in steps); a level without one takes the line
    kem = [_sample("kem:full", 1, 1000), _sample("kem:full", 5, 2600)]
    kem.append(dataclasses.replace(_sample("kem:full", 3, 1100), values={"lut": 1100}))
    f = hwarea._level_factors(kem)
    assert f["lut"] == {3: pytest.approx(1.1), 5: pytest.approx(2.6)}
    assert f["bram36"] == {5: pytest.approx(1.0)}  # the L3 sample has no BRAM figure
    m = hwarea.AreaModel({}, {"lut": 0.5, "bram36": 0.25}, {}, (), {"lut": {5: 2.6}})
    assert m.scale("lut", 5) == 2.6
    assert m.scale("lut", 1) == 1.0
    x3 = hwcycles.geometry(3).n / hwcycles.geometry(1).n - 1
    assert m.scale("lut", 3) == pytest.approx(1 + 0.5 * x3)
    assert m.scale("bram36", 5) == pytest.approx(1 + 0.25 * (641 / 193 - 1))


def test_corrupt_report_is_a_clear_error(tmp_path: Path) -> None:
    rep = tmp_path / "ip" / "x" / "syn" / "reports"
    rep.mkdir(parents=True)
    (rep / "a.json").write_text("{")
    with pytest.raises(BikecoError, match=r"area model cannot read its data: .*a\.json"):
        hwarea.load_samples(tmp_path)
    with pytest.raises(BikecoError, match="no synthesis reports"):
        hwarea.load_samples(tmp_path / "nothing")


# ---- the solver ---------------------------------------------------------------------------

SMALL = ds.Space(
    rounds_per_cycle=(1, 2),
    inv=((4, 0, 0), (8, 2, 1), (32, 3, 2)),
    decoder=((1, 0, 0), (3, 0, 32), (16, 1, 0)),
    sparse=(1, 8),
    mul_acc=((0, 0), (2, 1)),
    decoder_acc=(1, 8),
)


@pytest.mark.parametrize(
    ("device", "role", "cap"),
    [
        ("xc7z010", "kem", 1.0),
        ("xc7z010", "kem", 0.6),
        ("xc7z020", "kem", 1.0),
        ("xc7z020", "client", 0.5),
        ("xc7a200t", "kem", 1.0),
        ("xc7a35t", "server", 0.3),
        ("xc7a12t", "kem", 1.0),
        ("xc7a25t", "kem", 1.0),
        ("xc7a50t", "client", 0.4),
    ],
)
def test_milp_equals_brute_force(
    area: hwarea.AreaModel, device: str, role: str, cap: float
) -> None:
    ctx = _ctx(area, device, role=role, cap=cap, space=SMALL)
    milp, brute = ds.solve(ctx), ds.brute_force(ctx)
    assert milp is not None and brute is not None
    assert milp.total_ms == pytest.approx(brute.total_ms, rel=1e-9, abs=1e-9)
    assert milp.fits(ctx)
    # the programme's linear model of its choice equals the evaluation's
    assert milp.solver_ms == pytest.approx(milp.total_ms, rel=1e-12, abs=1e-12)


def test_refit_scales_a_core(area: hwarea.AreaModel) -> None:
    # bikeco verify's refit: a core synthesised 20 % larger than predicted
    scale = {"bike_kem_full": {"lut": 1.2}}
    ctx = _ctx(area, "xc7z020", space=SMALL, area_scale=scale)
    milp, brute = ds.solve(ctx), ds.brute_force(ctx)
    assert milp is not None and brute is not None
    assert milp.total_ms == pytest.approx(brute.total_ms, rel=1e-9, abs=1e-9)
    plain = ds.solve(_ctx(area, "xc7z020", space=SMALL))
    assert plain is not None and plain.area["lut"] > 53_200 / 1.2
    assert milp.area["lut"] <= 53_200 and milp.total_ms > plain.total_ms


def test_no_inversion_beside_a_core_that_holds_one(area: hwarea.AreaModel) -> None:
    for dev in ("xc7z020", "xc7a100t", "xc7a200t"):
        ev = ds.solve(_ctx(area, dev))
        assert ev is not None
        names = [c[0] for c in ev.cores]
        if any(n in names for n in ("bike_kem_full", "bike_kem_client", "bike_kem_keygen")):
            assert "gf2x_inv_acc" not in names
        if any(n in names for n in ("bike_kem_full", "bike_kem_client", "bike_kem_decaps")):
            assert "bike_decoder_acc" not in names
        assert sum(n.startswith("bike_kem_") for n in names) <= 1


def test_z7020_meets_the_goal(area: hwarea.AreaModel) -> None:
    ev = ds.solve(_ctx(area, "xc7z020", routing_margin=DEFAULT_ROUTING_MARGIN))
    assert ev is not None
    assert sum(ev.hw_cycles.values()) < 100_000
    assert ev.area["lut"] * (1 + DEFAULT_ROUTING_MARGIN) <= 53_200


def test_design_cycles_are_the_formulas(area: hwarea.AreaModel) -> None:
    ev = ds.solve(_ctx(area, "xc7z020"))
    assert ev is not None and ev.selection.shape is not None
    assert ev.cores[0][3] == hwcycles.kem_cycles(1, ev.selection.shape, ev.selection.kem)


# ---- the command --------------------------------------------------------------------------


def test_command_writes_a_design(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.json"
    assert main(["design", "--device", "z7020", "--out", str(out), "--hw", str(HW)]) == 0
    d = load_design(out)
    assert d.fits and d.cores[0].core == "bike_kem_full" and d.latency_ms.total < 1.0
    assert "wrote" in capsys.readouterr().out


def test_command_says_what_the_goal_takes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ["design", "--device", "z7010", "--goal-cycles", "288000", "--hw", str(HW)]
    assert main([*args, "--out", str(tmp_path / "d.json")]) == 0
    text = capsys.readouterr().out
    assert "goal 288,000 cycles not met" in text and "more throughput per LUT" in text
    # the project's goals are the defaults for their parts at level 1
    for part, goal in (("z7010", "goal 288,000 cycles not met"), ("z7020", "goal met: ")):
        args = ["design", "--device", part, "--hw", str(HW), "--out", str(tmp_path / "d.json")]
        assert main(args) == 0
        text = capsys.readouterr().out
        assert goal in text
    assert re.search(r"goal met: \d{2},\d{3} cycles <= 100,000", text)
    assert main([*args[:-4], "--level", "3", *args[-4:]]) == 0
    assert "goal" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--device", "xc9z999"], 2, "unknown device 'xc9z999'"),
        (["--device", "z7010", "--cap", "0.1"], 3, "nothing fits xc7z010 at 10% utilisation"),
        (["--device", "z7010", "--cap", "1.5"], 2, r"utilisation cap must be in \(0, 1\]"),
        (["--device", "z7010", "--routing-margin", "-1"], 2, "routing margin must be >= 0"),
    ],
)
def test_bad_inputs(
    args: list[str], code: int, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "d.json"
    assert main(["design", *args, "--out", str(out), "--hw", str(HW)]) == code
    err = capsys.readouterr().err
    assert err.startswith("bikeco: error: ")
    import re

    assert re.search(message, err), err
    assert not out.exists()


def test_a_fast_cpu_gets_a_software_only_design(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # on the A7-12T every accelerator that fits is slower than AVX2 software: not an error
    out = tmp_path / "d.json"
    args = ["design", "--device", "xc7a12t", "--profile", "i5-avx2", "--out", str(out)]
    assert main([*args, "--hw", str(HW)]) == 0
    assert load_design(out).cores == []
    assert "no accelerator that fits xc7a12t is faster than the software profile 'i5-avx2'" in (
        capsys.readouterr().out
    )


def test_corrupt_record_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hw = tmp_path / "hw"
    rep = hw / "ip" / "bike_kem" / "syn" / "reports"
    rep.mkdir(parents=True)
    src = HW / "ip" / "bike_kem" / "syn" / "reports" / "full_small_L1.json"
    data = json.loads(src.read_text())
    data["lut"] = "many"
    (rep / "full_small_L1.json").write_text(json.dumps(data))
    hwarea.default_model.cache_clear()
    assert (
        main(["design", "--device", "z7020", "--hw", str(hw), "--out", str(tmp_path / "d.json")])
        == 2
    )
    assert "full_small_L1.json: lut: expected" in capsys.readouterr().err


# ---- the hardware flow reads it -----------------------------------------------------------


def test_design_round_trips_through_hwflow(tmp_path: Path) -> None:
    out = tmp_path / "d.json"
    assert main(["design", "--device", "z7020", "--out", str(out), "--hw", str(HW)]) == 0
    d = load_design(out)
    res = subprocess.run(
        [sys.executable, "-m", "hwflow", "design-params", str(out)],
        cwd=HW,
        capture_output=True,
        text=True,
        check=True,
    )
    line = next(x for x in res.stdout.splitlines() if x.startswith("bike_kem_full "))
    given = dict(kv.split("=") for kv in line.split(": ", 1)[1].split())
    for k, v in d.cores[0].params.items():
        assert given[k] == str(v)
    assert given["R"] == "12323" and given["Keygen"] == "1"
    bad = tmp_path / "bad.json"
    data = json.loads(out.read_text())
    data["cores"][0]["params"]["Bogus"] = 1
    bad.write_text(json.dumps(data))
    res = subprocess.run(
        [sys.executable, "-m", "hwflow", "design-params", str(bad)],
        cwd=HW,
        capture_output=True,
        text=True,
    )
    assert res.returncode != 0 and "has no parameters ['Bogus']" in res.stderr


def test_l5_profile_is_named_and_extrapolated() -> None:
    p = ds.profile_for(None, 5)
    assert p.name == ds.L5_PROFILE and p.level == 5 and "extrapolated" in p.description
    # a design file names it: reading it back gives the same profile
    assert ds.profile_for(p.name, 5).primitives == p.primitives
    l3 = ds.profile_for(None, 3)
    assert p.primitives["keygen"] > l3.primitives["keygen"]
