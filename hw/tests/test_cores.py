"""The core files as the flow reads them."""

from __future__ import annotations

import itertools
import shlex
from pathlib import Path

import pytest

from hwflow.cores import closure, flow_cores, library, parse_core
from hwflow.harness import HARNESS, macros
from hwflow.paths import HW


def test_every_rtl_file_is_listed_by_exactly_one_core_file() -> None:
    owners: dict[Path, list[str]] = {}
    for core in library().values():
        for files, _ in core.filesets.values():
            for f in files:
                owners.setdefault(f.path, []).append(core.vln)
    for sv in sorted(HW.glob("ip/*/rtl/*.sv")):
        assert len(owners.get(sv.resolve(), [])) == 1, (sv, owners.get(sv.resolve()))


def test_every_ip_folder_has_a_core_file() -> None:
    folders = {p.parent.name for p in HW.glob("ip/*/rtl")}
    named = {c.path.parent.name for c in library().values()}
    assert folders <= named


def test_dependencies_list_a_core_once_and_first() -> None:
    inv = flow_cores()["gf2x_inv"]
    assert inv.rtl == [
        "ip/bike_ram/rtl/bike_ram_sdp.sv",
        "ip/bike_ram/rtl/bike_ram_tdp.sv",
        "ip/gf2x_mul/rtl/gf2x_mul_pkg.sv",
        "ip/gf2x_mul/rtl/gf2x_mul_clmul.sv",
        "ip/gf2x_mul/rtl/gf2x_mul.sv",
        "ip/gf2x_sqr_k/rtl/gf2x_sqr_k_pkg.sv",
        "ip/gf2x_sqr_k/rtl/gf2x_sqr_k.sv",
        "ip/gf2x_inv/rtl/gf2x_inv_pkg.sv",
        "ip/gf2x_inv/rtl/gf2x_inv.sv",
    ]
    kem = flow_cores()["bike_kem_full"].rtl
    assert len(kem) == len(set(kem))
    assert kem[-1] == "ip/bike_kem/rtl/bike_kem_axi.sv"
    assert "ip/sampler/rtl/sampler.sv" not in kem  # the KEM shares its keccak_core


def test_presets_variants_and_level_parameters() -> None:
    mul = flow_cores()["gf2x_mul"]
    assert mul.params("small", 3) == {
        "W": 32,
        "KaratsubaLevels": 1,
        "ParallelLevels": 0,
        "R": 24659,
    }
    assert mul.record_params("large")["ParallelSubproducts"] == "mixed"
    kem = flow_cores()["bike_kem_client"]
    p = kem.params("medium", 1)
    assert (p["R"], p["D"], p["T"]) == (12323, 71, 134)
    assert (p["Keygen"], p["Encaps"], p["Decaps"]) == (1, 0, 1)
    assert list(p)[-3:] == ["Keygen", "Encaps", "Decaps"]  # fixed last
    assert flow_cores()["keccak"].level_params == ()
    assert flow_cores()["keccak_serial"].report_prefix == "serial_"
    assert flow_cores()["bike_kem_full"].report_prefix == "full_"
    assert flow_cores()["bike_kem_full"].report_dir == HW / "ip/bike_kem/syn/reports"


def test_kem_devices_repeat_the_kem_presets_and_shapes() -> None:
    """bike_kem_acc.core's presets, sweeps and shapes write out bike_kem.core's:
    they must stay equal."""
    for shape in ("keygen", "server", "decaps", "client", "full"):
        core, dev = flow_cores()[f"bike_kem_{shape}"], flow_cores()[f"bike_kem_{shape}_acc"]
        assert dev.sim_top == "bike_kem_acc"
        assert dev.presets == core.presets and dev.fixed == core.fixed, shape
        assert set(dev.sweeps) <= set(core.sweeps)


def test_every_flow_core_has_a_harness_and_named_macros() -> None:
    assert list(flow_cores()) == list(HARNESS)
    for core in flow_cores().values():
        for config in [*core.presets, *core.sweeps]:
            p = core.params(config, 1)
            assert set(p) <= set(core.core.parameters), (core.name, config)


@pytest.mark.parametrize("vln", sorted(c.vln for c in library().values() if "sim" in c.targets))
def test_sim_target_macros_match_its_parameters(vln: str) -> None:
    """The fusesoc sim target passes the testbench macros by hand (-CFLAGS):
    they must be the ones the flow derives from the same parameters."""
    core = library()[vln]
    sim = core.targets["sim"]
    fc = next(
        f
        for f in flow_cores().values()
        if f.core is core and all(sim.params.get(k) == v for k, v in f.fixed.items())
    )
    raw = parse_raw_options(core.path)
    got = {
        d[2:].split("=")[0]: int(d.split("=")[1])
        for prev, d in itertools.pairwise(raw)
        if prev == "-CFLAGS" and d.startswith("-D")
    }
    assert got == macros(fc.harness, sim.params)


def parse_raw_options(path: Path) -> list[str]:
    import yaml

    raw = yaml.safe_load(path.read_text())
    opts = raw["targets"]["sim"]["tools"]["verilator"]["verilator_options"]
    return [str(o) for o in opts]


def test_parse_rejects_a_file_without_capi2_header(tmp_path: Path) -> None:
    bad = tmp_path / "x.core"
    bad.write_text("name: a:b:c:0.1\n")
    with pytest.raises(ValueError):
        parse_core(bad)


def test_parse_reads_merged_targets_and_appended_parameters(tmp_path: Path) -> None:
    (tmp_path / "rtl").mkdir()
    f = tmp_path / "x.core"
    f.write_text(
        "CAPI=2:\nname: v:ip:x:0.1\n"
        "filesets:\n  files_rtl:\n    files: [rtl/a.sv]\n    file_type: systemVerilogSource\n"
        "parameters:\n  R: {datatype: int, paramtype: vlogparam}\n"
        "targets:\n  default: &d\n    filesets: [files_rtl]\n    toplevel: a\n"
        "  preset_p:\n    <<: *d\n    parameters: [R, W=3]\n    parameters_append: [K=4]\n"
    )
    core = parse_core(f)
    assert core.configs("preset") == {"p": {"W": 3, "K": 4}}
    assert core.targets["preset_p"].toplevel == "a"
    assert [s.path.name for s in closure(core, ("files_rtl",))] == ["a.sv"]


def test_cflags_are_one_define_per_option() -> None:
    for core in library().values():
        if "sim" in core.targets:
            for o in parse_raw_options(core.path):
                assert len(shlex.split(o)) == 1, (core.vln, o)
