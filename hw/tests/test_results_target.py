"""`make results`, the one list of what each results record is simulated with:
it must produce every committed record, and RESULTS_CORES (scripts/regen.sh)
must narrow it to the cores named without dropping any of their records."""

from __future__ import annotations

import json
import shlex
import subprocess

from hwflow.cores import flow_cores
from hwflow.paths import HW, RESULTS

Config = tuple[str, str, int]


def planned(*make_args: str) -> list[list[str]]:
    """The `hwflow results` command lines `make -n results` would run."""
    out = subprocess.run(
        ["make", "-s", "-n", "results", *make_args],
        cwd=HW,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.replace("\\\n", " ")
    lines = [shlex.split(line) for line in out.splitlines()]
    return [w for w in lines if w[1:4] == ["-m", "hwflow", "results"]]


def option(words: list[str], name: str) -> list[str]:
    """The values after --name, up to the next option."""
    if name not in words:
        return []
    rest = words[words.index(name) + 1 :]
    return rest[: next((i for i, w in enumerate(rest) if w.startswith("--")), len(rest))]


def configs(lines: list[list[str]]) -> set[Config]:
    cores = flow_cores()
    out: set[Config] = set()
    for words in lines:
        presets = option(words, "--presets")
        for name in option(words, "--cores"):
            for preset in presets or list(cores[name].presets):
                for level in option(words, "--levels"):
                    out.add((name, preset, int(level)))
    return out


def committed() -> set[Config]:
    recs = (json.loads(p.read_text()) for p in RESULTS.glob("*_L[0-9].json"))
    return {(r["core"], r["preset"], r["level"]) for r in recs}


def test_make_results_produces_every_committed_record() -> None:
    made = configs(planned())
    assert made, "make -n results ran no hwflow results"
    missing = sorted(committed() - made)
    assert not missing, f"records no line of `make results` produces: {missing}"


def test_results_cores_narrows_to_the_named_cores() -> None:
    every = configs(planned())
    names = ("gf2x_inv_divstep", "keccak")
    some = configs(planned(f"RESULTS_CORES={' '.join(names)}"))
    assert {c for c, _, _ in some} == set(names)
    assert some == {cfg for cfg in every if cfg[0] in names}
