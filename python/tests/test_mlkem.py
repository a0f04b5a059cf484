"""ML-KEM's placement (bikeco.mlkem, ``bikeco plan --kem``)."""

from __future__ import annotations

import itertools
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from bikeco.cli import main
from bikeco.data_files import read_table
from bikeco.devices import RESOURCES, Device
from bikeco.errors import BikecoError
from bikeco.hwcycles import ntt_acc_cycles
from bikeco.interconnect import TransferModel, calibrate
from bikeco.mlkem import (
    KEM_OPS,
    KYBER_R2,
    MLKEM,
    NTT_WORKS,
    WORKS,
    CorePreset,
    Problem,
    SoftwareCosts,
    device_ops,
    hw_cost,
    latency_of,
    plan,
    seed004_a53,
    solve,
    work,
)

HW = Path(__file__).resolve().parents[2] / "hw" / "results"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", list(MLKEM))
def test_work_follows_fips203(name: str) -> None:
    ps = MLKEM[name]
    k = ps.k
    kg, enc, dec = (work(ps, op) for op in KEM_OPS)
    # Decaps = Decrypt (k NTTs, k pairs, 1 inverse NTT) + Encrypt.
    assert dec["ntt"].units == enc["ntt"].units + k
    assert dec["basemul"].units == enc["basemul"].units + k
    assert dec["invntt"].units == enc["invntt"].units + 1
    assert kg["invntt"].units == 0 and enc["invntt"].units == k + 1
    assert kg["basemul"].units == k * k and kg["ntt"].units == 2 * k
    assert all(w["sample_matrix"].units == k * k for w in (kg, enc, dec))
    assert enc["sample_cbd"].units == 2 * k + 1 == dec["sample_cbd"].units
    # ML-KEM-512's eta1 = 3 takes 192 PRF bytes: two SHAKE256 blocks, else one.
    per_poly_kg = kg["sample_cbd"].perms / kg["sample_cbd"].units
    assert per_poly_kg == (2 if ps.eta1 == 3 else 1)
    # H(ek) grows with k; G is one block.
    assert kg["hash"].perms == 1 + -(-(ps.ek_bytes + 1) // 136)


def test_software_fit_reproduces_table6() -> None:
    sw = seed004_a53()
    rows = [r for r in read_table("ntt_codesign_004_table6.csv") if r["algorithm"] in KYBER_R2]
    assert len(rows) == 6
    for r in rows:
        w = work(KYBER_R2[r["algorithm"]], r["operation"])
        ntt = sum(sw.work_us(n, w[n]) for n in NTT_WORKS)
        total = sum(sw.work_us(n, w[n]) for n in WORKS) + sw.rest_us
        assert ntt == pytest.approx(float(r["total_sw_ntt_us"]), rel=0.07)
        assert total == pytest.approx(float(r["total_sw_us"]), rel=0.10)
    assert sw.invntt_us > sw.ntt_us > sw.basemul_us > 0


def test_ntt_acc_cycles_are_the_docs() -> None:
    """acc_shell.md's table, ML-KEM preset (B = 2): 875 k (NTT), 1,009 k (INTT), 841 (one
    BASEMUL), 713 k + 256 (MAC of k > 1), 713 k + 1,011 (MACINTT)."""
    p = {"N": 256, "Q": 3329, "P": 1, "B": 2}
    for k in (1, 2, 3, 4):
        assert ntt_acc_cycles(p, "NTT", k) == 875 * k
        assert ntt_acc_cycles(p, "INTT", k) == 1009 * k
        assert ntt_acc_cycles(p, "MACINTT", k) == 713 * k + 1011
        if k > 1:
            assert ntt_acc_cycles(p, "MAC", k) == 713 * k + 256
    assert ntt_acc_cycles(p, "MAC", 1) == 841


def test_ntt_acc_area_is_the_devices_report(capsys: pytest.CaptureFixture[str]) -> None:
    """The preset of ntt_acc's own parameters (ntt_acc.core) has the area of the device's
    synthesis report (hw/ip/acc_shell/syn/reports), and a plan that places it counts that
    area; the other NTT presets are their record plus the shell."""
    from bikeco.hwarea import SHELL_LUT
    from bikeco.hwrecord import load_report
    from bikeco.mlkem import core_presets

    dev = load_report(HW.parent / "ip" / "acc_shell" / "syn" / "reports" / "ntt_mlkem.json")
    want = {"lut": dev.lut, "ff": dev.ff, "dsp": dev.dsp, "bram36": dev.ramb36 + dev.ramb18 / 2}
    presets = core_presets(HW)
    built = [c for c in presets if c.core == "ntt" and c.params == dev.params]
    assert len(built) == 1, "no NTT core record of ntt_acc's parameters"
    assert built[0].area == want
    others = [c for c in presets if c.core == "ntt" and c not in built]
    assert others and all(c.area["lut"] > SHELL_LUT for c in others)
    pb = Problem(
        Device("big", "zynq7000", 10**6, 10**6, 10**4, 10**4),
        MLKEM["mlkem768"],
        seed004_a53(),
        tuple(built),
        tuple(op for op in device_ops() if op.core == "ntt"),
        TransferModel("bytes", 0.0, 0.0),
    )
    assert plan(pb).used() == want
    code, out, _ = run(capsys, "plan", "--kem", "mlkem768", "--device", "xc7z020", "--json")
    assert code == 0
    listed = {c["name"]: c for c in json.loads(out)["presets"]}
    assert listed[built[0].name]["area"] == want


def test_model_against_the_cosimulation() -> None:
    """ntt_vec and macintt on ntt_acc:mlkem make the device runs and move the words of the
    co-simulated libmlkem (hw/results/cosim/mlkem_ntt_acc.json) for every set and operation;
    its CYCLES exceed the formulas' by the same stall per device run everywhere (the DMA
    starting the stream; the bus model's cost per call)."""
    from bikeco.mlkem import core_presets

    cosim = json.loads((HW / "cosim" / "mlkem_ntt_acc.json").read_text())
    # the preset of the co-simulated device's parameters
    mlkem = next(c for c in core_presets(HW) if c.params == cosim["params"])
    ops = {d.op: d for d in device_ops()}
    free = TransferModel("bytes", 0.0, 1e-3)  # 1 ns per byte: transfer_ms = bytes / 1e6
    groups = {"ntt_vec": ("ntt",), "macintt": ("basemul", "basemul_invntt")}
    stalls: set[float] = set()
    for st in cosim["sets"]:
        ps = MLKEM[f"mlkem{st['set']}"]
        for kem in st["kem"]:
            kernels = {k["kernel"]: k for k in kem["kernels"]}
            for op, names in groups.items():
                cost = hw_cost(ps, ops[op], mlkem, free)
                op_ = kem["operation"]

                def got(
                    field: str, names: tuple[str, ...] = names, ks: dict[str, Any] = kernels
                ) -> float:
                    return sum(float(ks[n][field]) for n in names) / float(cosim["count"])

                assert cost.calls[op_] == got("device_runs"), (st["set"], op_, op)
                nbytes = 8 * (got("words_in") + got("words_out"))
                assert cost.transfer_ms[op_] * 1e6 == pytest.approx(nbytes)
                model = cost.device_ms[op_] * mlkem.clock_mhz * 1e3
                if cost.calls[op_]:
                    stall = (got("accelerator_cycles") - model) / cost.calls[op_]
                    stalls.add(round(stall, 6))
    assert len(stalls) == 1 and 0 <= stalls.pop() < 200


def _synthetic(seed: int) -> Problem:
    rng = random.Random(seed)

    def preset(core: str, i: int) -> CorePreset:
        if core == "ntt":  # cycles from the formulas: B sets them
            params = {"N": 256, "Q": 3329, "P": 1, "B": rng.choice([1, 2, 4])}
            cyc: dict[str, int] = {}
        else:
            cyc, params = {"keccak_f": rng.randint(4, 400)}, {}
        area = {k: float(rng.randint(1, 60)) for k in RESOURCES}
        return CorePreset(core, f"p{i}", params, cyc, 100.0, area, "synthetic")

    presets = tuple(preset(c, i) for i, c in enumerate(["ntt", "ntt", "keccak", "keccak"]))
    budget = {k: rng.randint(20, 110) for k in RESOURCES}
    dev = Device(
        "synthetic", "none", budget["lut"], budget["ff"], budget["dsp"], float(budget["bram36"])
    )
    us = [rng.uniform(1.0, 40.0) for _ in range(4)]
    sw = SoftwareCosts("synthetic", us[0], us[1], us[2], us[3], 5.0, "test")
    tr = TransferModel("t", rng.uniform(0.0, 10.0), rng.uniform(0.0, 0.02))
    ps = MLKEM[rng.choice(list(MLKEM))]
    return Problem(dev, ps, sw, presets, tuple(device_ops()), tr)


def _brute_force(pb: Problem) -> float:
    """The least latency over every set of options that does each work item at most once,
    places one preset per core at most and fits the budget."""
    opts = pb.options()
    lim = pb.limits()
    best = float("inf")
    for r in range(len(WORKS) + 1):
        for combo in itertools.combinations(range(len(opts)), r):
            works = [w for i in combo for w in opts[i].op.works]
            if len(set(works)) < len(works):
                continue
            placed = {pb.presets.index(opts[i].preset) for i in combo}
            if len({pb.presets[j].core for j in placed}) < len(placed):
                continue
            used = {k: sum(pb.preset_area(pb.presets[j])[k] for j in placed) for k in RESOURCES}
            if any(used[k] > lim[k] for k in RESOURCES):
                continue
            best = min(best, latency_of(pb, combo))
    return best


@pytest.mark.parametrize("seed", range(8))
def test_solver_matches_brute_force(seed: int) -> None:
    pb = _synthetic(seed)
    chosen, placed = solve(pb)
    assert latency_of(pb, chosen) == pytest.approx(_brute_force(pb), rel=1e-9, abs=1e-12)
    used = {k: sum(pb.preset_area(pb.presets[j])[k] for j in placed) for k in RESOURCES}
    assert all(used[k] <= pb.limits()[k] + 1e-9 for k in RESOURCES)


@pytest.mark.parametrize("kem", list(MLKEM))
def test_plan_on_zynq(kem: str) -> None:
    from bikeco.devices import DeviceCatalog
    from bikeco.mlkem import core_presets

    presets = tuple(core_presets(HW))
    pb = Problem(
        DeviceCatalog().get("xc7z020"),
        MLKEM[kem],
        seed004_a53(),
        presets,
        tuple(device_ops()),
        calibrate("baremetal"),
    )
    p = plan(pb)
    for op in KEM_OPS:
        assert p.latency_ms(op) <= p.sw_only_ms(op)
    assert any(c.runs_on != "software" for c in p.choices)
    # No core at all: everything in software, the software times.
    p0 = plan(
        Problem(
            pb.device,
            pb.params,
            pb.software,
            tuple(c for c in presets if c.core == "ntt"),
            (),
            pb.transfer,
        )
    )
    assert all(c.runs_on == "software" for c in p0.choices)
    assert p0.latency_ms("encaps") == pytest.approx(p.sw_only_ms("encaps"))


def test_cli_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "plan", "--kem", "ML-KEM-768", "--device", "z7020", "--hw-results", str(HW)
    )
    assert code == 0 and "mlkem768 (k = 3)" in out and "speed-up" in out
    code, out, _ = run(
        capsys,
        "plan",
        "--kem",
        "mlkem1024",
        "--device",
        "xc7z010",
        "--hw-results",
        str(HW),
        "--json",
        "--objective",
        "encaps",
    )
    data = json.loads(out)
    assert code == 0 and data["k"] == 4 and data["objective"] == ["encaps"]
    assert set(data["placement"]) == set(WORKS)
    for r in RESOURCES:
        assert data["used"][r] <= data["available"][r]


@pytest.mark.parametrize(
    ("argv", "code", "says"),
    [
        (["--kem", "mlkem769", "--device", "z7010"], 2, "unknown ML-KEM parameter set"),
        (["--kem", "mlkem512", "--device", "z7099"], 2, "unknown device"),
        (["--kem", "mlkem512", "--device", "z7010", "--cap", "0.01"], 3, "no ML-KEM core fits"),
        (["--kem", "mlkem512", "--device", "z7010", "--objective", "sign"], 2, "--objective"),
        (["--kem", "mlkem512", "--device", "z7010", "--level", "3"], 2, "--level: BIKE's"),
    ],
)
def test_cli_bad_inputs(
    capsys: pytest.CaptureFixture[str], argv: list[str], code: int, says: str
) -> None:
    got, _, err = run(capsys, "plan", *argv, "--hw-results", str(HW))
    assert got == code and says in err


def test_bad_device_op_rows() -> None:
    good = {"op": "x", "works": "basemul+invntt", "core": "ntt", "kind": "MACINTT", "batch": "1"}
    assert device_ops([good])[0].works == ("basemul", "invntt")
    cases = [("works", "fft"), ("works", "ntt+ntt"), ("core", "gpu"), ("kind", "keccak_f")]
    for field, bad in [*cases, ("batch", "k")]:
        with pytest.raises(BikecoError):
            device_ops([{**good, field: bad}])


def test_report_section_is_the_plans(tmp_path: Path) -> None:
    """The report's rows are ``bikeco plan --kem``'s plans for each Zynq part and set; a part
    nothing fits is a note, not a row."""
    from bikeco.devices import DeviceCatalog
    from bikeco.hwmodels import load_records
    from bikeco.mlkem import MlkemPlan, core_presets, device_reports
    from bikeco.report_mlkem import DEVICES, mlkem_section

    records = tuple((p.name, r) for p, r in load_records(HW))
    cat = DeviceCatalog()
    bm = calibrate("baremetal")
    sec = mlkem_section(records, cat, bm, device_reports(HW.parent))
    assert len(sec.rows) == len(DEVICES) * len(MLKEM)
    presets, sw = tuple(core_presets(HW)), seed004_a53()
    for row in sec.rows:
        dev = next(cat.get(d) for d in DEVICES if cat.get(d).label == row[0])
        p: MlkemPlan = plan(Problem(dev, MLKEM[str(row[1])], sw, presets, tuple(device_ops()), bm))
        assert row[4] == f"{p.used()['lut']:g}"
        assert row[-2] == (
            f"{p.latency_ms('encaps') * 1e3:.0f} "
            f"({p.sw_only_ms('encaps') / p.latency_ms('encaps'):.2f}x)"
        )
    tiny = tmp_path / "tiny.csv"
    tiny.write_text("device,family,lut,ff,dsp,bram36\nxc7z010,zynq7000,500,500,1,1\n")
    sec = mlkem_section(records, DeviceCatalog([tiny]), bm)
    assert len(sec.rows) == 2 * len(MLKEM)
    assert sum("Z-7010" in n and "no ML-KEM core fits" in n for n in sec.notes) == len(MLKEM)


def test_packaged_seed_tables_are_the_shared_ones() -> None:
    """Package copies of the shared seed tables (data/README.md) equal them byte for byte."""
    from importlib import resources

    root = os.environ.get("BIKECO_SHARED_DIR") or Path(__file__).resolve().parents[3] / "shared"
    shared = Path(root) / "data" / "seed-tables"
    if not shared.is_dir():
        pytest.skip(f"no shared seed tables at {shared}")
    data = resources.files("bikeco").joinpath("data")
    copies = [f for f in data.iterdir() if f.name.endswith(".csv") and (shared / f.name).is_file()]
    assert "ntt_codesign_004_table6.csv" in {f.name for f in copies}
    for f in copies:
        assert f.read_bytes() == (shared / f.name).read_bytes(), f.name


@pytest.mark.parametrize("device", ["xc7z010", "xc7z015", "xc7z020"])
def test_equal_speed_presets_tie_to_fewer_luts(device: str) -> None:
    """ntt_acc's mlkem and mlkem_kred presets take the same cycles: the plan places the one
    of fewer LUTs, whatever the part (among the two-butterfly presets: the faster four-unit
    one would win outright)."""
    from bikeco.devices import DeviceCatalog
    from bikeco.hwcycles import ntt_cycles
    from bikeco.mlkem import core_presets

    presets = tuple(c for c in core_presets(HW) if c.core != "ntt" or c.params["B"] == 2)
    for ps in MLKEM.values():
        pb = Problem(
            DeviceCatalog().get(device),
            ps,
            seed004_a53(),
            presets,
            tuple(device_ops()),
            calibrate("baremetal"),
        )
        ntt = [c for c in plan(pb).presets if c.core == "ntt"]
        assert len(ntt) == 1
        same = [
            c
            for c in presets
            if c.core == "ntt" and ntt_cycles(c.params) == ntt_cycles(ntt[0].params)
        ]
        assert len(same) > 1 and ntt[0].area["lut"] == min(c.area["lut"] for c in same)
