"""scripts/bench_tables.py: the tables of docs/benchmarks.md from `bike bench --json` runs."""

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench_tables.py"
OPS = ("sample_keygen", "gf2x_inv", "gf2x_mul", "function_h", "function_l", "function_k", "decode")
BREAKDOWN = {
    "keygen": {"prng": 0, "inversion": 0, "multiplication": 0},
    "encaps": {"h_function": 0, "multiplication": 0, "l_function": 0, "k_function": 0},
    "decaps": dict.fromkeys(
        ("multiplication", "decoding", "l_function", "h_function", "k_function"), 0
    ),
}


def timing(us: float) -> dict[str, float]:
    return {"median_ns": us * 1000, "p90_ns": us * 1100, "median_ticks": us * 2445}


def result(backend: str, keygen_us: float) -> dict[str, object]:
    return {
        "level": 1,
        "backend": backend,
        "runs": 201,
        "primitives": {
            "keygen": timing(keygen_us),
            "encaps": timing(10.0),
            "decaps": timing(100.0),
        },
        "operations": {op: timing(1.0) for op in OPS},
        "breakdown": BREAKDOWN,
    }


def tables(tmp_path: Path, runs: list[list[dict[str, object]]]) -> str:
    paths = []
    for i, results in enumerate(runs):
        path = tmp_path / f"run{i}.json"
        path.write_text(json.dumps({"results": results}), encoding="utf-8")
        paths.append(str(path))
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *paths], capture_output=True, text=True, check=True
    )
    return done.stdout


def test_lowest_median_of_the_runs_is_kept(tmp_path: Path) -> None:
    out = tables(tmp_path, [[result("avx2", 80.0)], [result("avx2", 70.0)]])
    assert "| L1 | avx2 | 2 | 70.0 (77.0) |" in out


def test_goal_verdicts_only_for_the_goal_back_end(tmp_path: Path) -> None:
    # Reference L1 keygen 62 us, goal 1.5x: 40 us meets it (1.55x), 50 us not (1.24x).
    out = tables(tmp_path, [[result("avx2", 40.0), result("avx512", 40.0)]])
    assert "| L1 | avx512 | 62 / 40.0 us | 1.55x (met) |" in out
    assert "| L1 | avx2 | 62 /" not in out
    out = tables(tmp_path, [[result("avx512", 50.0)]])
    assert "1.24x (not met)" in out


def test_runs_without_the_goal_back_end_say_so(tmp_path: Path) -> None:
    out = tables(tmp_path, [[result("portable", 4000.0), result("avx2-vpclmul", 77.0)]])
    assert "No avx512 rows in these runs" in out
    assert "(met)" not in out and "ref / ours" not in out
