"""The level table's one source (spec/bike_levels.json) and the check of its copies."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bikeco.levels import LEVELS, SEED_BYTES, TH_SCALE

REPO = Path(__file__).resolve().parents[2]
GEN = REPO / "scripts" / "gen_levels.py"
TABLE = "spec/bike_levels.json"


def run_check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(GEN), "--check", "--root", str(root)],
        text=True,
        capture_output=True,
        check=False,
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the files the check reads: the table, its generated forms and the
    hand-written copies."""
    files = [
        TABLE,
        "lib/src/common/params.c",
        "hw/ip/bike_levels/rtl/bike_levels_pkg.sv",
        "python/src/bikeco/levels.py",
        "lib/include/bike/bike.h",
        "lib/include/bike/ops.h",
    ]
    files += [p.relative_to(REPO).as_posix() for p in REPO.glob("hw/ip/*/rtl/*.sv")]
    for rel in files:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / rel, tmp_path / rel)
    return tmp_path


def edit_table(root: Path, level: int, key: str, value: object) -> None:
    path = root / TABLE
    data = json.loads(path.read_text())
    next(lv for lv in data["levels"] if lv["level"] == level)[key] = value
    path.write_text(json.dumps(data, indent=2))


def test_repository_agrees_with_table() -> None:
    res = run_check(REPO)
    assert res.returncode == 0, res.stderr


def test_copy_of_repository_agrees(tree: Path) -> None:
    assert run_check(tree).returncode == 0


def test_changed_table_fails_every_generated_file(tree: Path) -> None:
    edit_table(tree, 3, "th_min", 53)
    res = run_check(tree)
    assert res.returncode == 1
    for rel in ("params.c", "bike_levels_pkg.sv", "levels.py"):
        assert f"{rel} differs from {TABLE}" in res.stderr
    assert "-        .th_min = 52u," in res.stderr
    assert "+        .th_min = 53u," in res.stderr


def test_hand_edited_generated_file_fails(tree: Path) -> None:
    sv = tree / "hw/ip/bike_levels/rtl/bike_levels_pkg.sv"
    sv.write_text(sv.read_text().replace("64'd697220", "64'd697221"))
    res = run_check(tree)
    assert res.returncode == 1
    assert "bike_levels_pkg.sv differs" in res.stderr
    assert "params.c differs" not in res.stderr


def test_hand_written_copies_checked(tree: Path) -> None:
    bike_h = tree / "lib/include/bike/bike.h"
    bike_h.write_text(
        bike_h.read_text().replace("L3_CIPHERTEXT_BYTES 3115", "L3_CIPHERTEXT_BYTES 3116")
    )
    sv = tree / "hw/ip/sampler/rtl/sampler.sv"
    sv.write_text(sv.read_text().replace("T              = 134", "T              = 135"))
    res = run_check(tree)
    assert res.returncode == 1
    assert "BIKE_L3_CIPHERTEXT_BYTES is 3116, spec/bike_levels.json gives 3115" in res.stderr
    assert "hw/ip/sampler/rtl/sampler.sv: default T = 135, level 1 has 134" in res.stderr


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("secret_key_bytes", 5224, "'secret_key_bytes' = 5224, derivation gives 5223"),
        ("th_b", "0.000000001", "'th_b' = 0.000000001 is not exact in 1/100000000"),
        ("th_a", 13.53, "'th_a' must be a decimal written as a string"),
        ("d", 0, "'d' must be a positive integer"),
    ],
)
def test_malformed_table_named(tree: Path, key: str, value: object, message: str) -> None:
    edit_table(tree, 1, key, value)
    res = run_check(tree)
    assert res.returncode == 1
    assert "levels[0]" in res.stderr and message in res.stderr


def test_python_form() -> None:
    l1 = LEVELS[1]
    assert sorted(LEVELS) == [1, 3, 5]
    # bike-spec.md's threshold a = 13.530 for L1, scaled
    assert l1.th_a == 13_530 * TH_SCALE // 1000
    assert (l1.public_key_bytes, l1.ciphertext_bytes) == (1541, 1541 + SEED_BYTES)
    with pytest.raises(AttributeError):
        l1.r = 1  # type: ignore[misc]
