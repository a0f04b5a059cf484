from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from bikeco.errors import BikecoError
from bikeco.profiles import (
    complete_breakdown,
    load_bench_file,
    parse_bench,
    published_profile,
    seed000_profile,
    select_measured,
)


def test_published_a9_level1() -> None:
    p = published_profile("a9-ref", 1)
    assert p.primitives == {"keygen": 332.34, "encaps": 14.83, "decaps": 464.82}
    # 39 % of the 811.98 ms KEM is inversion, 2 % multiplication and the prng's 0 % is taken
    # as 0.25 %: the rounded shares exceed KeyGen's 332.34 ms, so they are scaled to fit and
    # nothing is left over.
    assert p.breakdown["keygen"]["inversion"] == pytest.approx(332.34 * 39 / 41.25, rel=1e-6)
    assert p.breakdown["keygen"]["prng"] == pytest.approx(332.34 * 0.25 / 41.25, rel=1e-6)
    assert p.breakdown["keygen"]["other"] == 0
    # Decaps: 57 % decoding and three hashes at 0.25 % exceed its 464.82 ms as well
    assert p.breakdown["decaps"]["decoding"] == pytest.approx(464.82 * 57 / 57.75, rel=1e-6)
    for prim, ops in p.breakdown.items():
        assert sum(ops.values()) == pytest.approx(p.primitives[prim])
        # no operation costs nothing (seed 001's whole percent round hashing down to 0)
        assert all(ms > 0 for op, ms in ops.items() if op != "other"), prim


def test_published_avx2_level3() -> None:
    p = published_profile("i5-avx2", 3)
    assert p.total_ms() == pytest.approx(0.57 + 0.09 + 2.55)
    assert p.breakdown["decaps"]["decoding"] == pytest.approx(0.75 * 3.21, rel=1e-6)


def test_rounded_shares_are_scaled_to_fit() -> None:
    out = complete_breakdown({"encaps": 10.0}, {"encaps": {"a": 8.0, "b": 4.0}})
    assert out["encaps"]["other"] == 0
    assert sum(out["encaps"].values()) == pytest.approx(10.0)
    assert out["encaps"]["a"] == pytest.approx(8.0 * 10 / 12)


def test_seed000_profile() -> None:
    p = seed000_profile(1)
    assert p.primitives == {"keygen": 332.14, "encaps": 14.86, "decaps": 464.61}
    assert sum(p.breakdown["decaps"].values()) == pytest.approx(464.61)
    with pytest.raises(BikecoError, match="level 1 only"):
        seed000_profile(3)


def test_unknown_and_missing_level() -> None:
    with pytest.raises(BikecoError, match="unknown software profile"):
        published_profile("z80", 1)
    with pytest.raises(BikecoError, match="no published figures for level 5"):
        published_profile("a9-ref", 5)


def test_parse_bench_fixture(fixtures: Path) -> None:
    profs = load_bench_file(fixtures / "bench_l1.json")
    assert [(p.name, p.level) for p in profs] == [
        ("measured-portable", 1),
        ("measured-portable", 3),
    ]
    p1 = select_measured(profs, 1)
    assert p1.primitives["decaps"] == pytest.approx(10.0)
    assert p1.breakdown["decaps"]["decoding"] == pytest.approx(9.0)
    assert p1.breakdown["keygen"]["other"] == pytest.approx(4.0 - 0.06 - 3.0 - 0.25)
    assert p1.per_call["gf2x_mul"] == pytest.approx(0.25)
    with pytest.raises(BikecoError, match="no results for level 5"):
        select_measured(profs, 5)


def _bench(fixtures: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((fixtures / "bench_l1.json").read_text())
    return data


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(schema="other/1"), "schema"),
        (lambda d: d.update(results=[]), "non-empty list"),
        (lambda d: d["results"][0].update(level=2), "level"),
        (lambda d: d["results"][0]["primitives"].pop("encaps"), "primitives.encaps"),
        (lambda d: d["results"][0]["primitives"]["keygen"].update(median_ns=-1), "non-negative"),
        (lambda d: d["results"][0]["primitives"]["keygen"].update(median_ns="1"), "number"),
        (lambda d: d["results"][0]["breakdown"]["keygen"].update(magic=1), "unknown operation"),
        (lambda d: d["results"][0].pop("breakdown"), "breakdown"),
    ],
)
def test_malformed_bench(fixtures: Path, mutate: Any, message: str) -> None:
    data = copy.deepcopy(_bench(fixtures))
    mutate(data)
    with pytest.raises(BikecoError, match=message):
        parse_bench(data)


def test_bench_file_not_json(tmp_path: Path) -> None:
    f = tmp_path / "b.json"
    f.write_text("{not json", encoding="utf-8")
    with pytest.raises(BikecoError, match="not valid JSON"):
        load_bench_file(f)
