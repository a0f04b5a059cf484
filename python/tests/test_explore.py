from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bikeco.devices import Device, DeviceCatalog
from bikeco.errors import BikecoError, NothingFitsError
from bikeco.explore import Constraints, Problem, explore, front_below, pareto_front
from bikeco.hwmodels import HwUnit, bikeco_units, seed000_units
from bikeco.interconnect import calibrate
from bikeco.profiles import SoftwareProfile, load_bench_file, seed000_profile, select_measured

NONE = calibrate("none")


def _seed000(device: Device, role: str = "kem", **kw: Any) -> Problem:
    """Seed 000's inputs: Table I final modules, Cortex-A9 times, no transfer cost."""
    return Problem(device, 1, role, seed000_profile(1), tuple(seed000_units()), NONE, **kw)


@pytest.mark.parametrize(
    ("device", "in_hw", "total"),
    [
        ("xc7z010", {"keygen"}, 617.31),
        ("xc7z015", {"decaps"}, 482.48),
        ("xc7z020", {"keygen", "decaps"}, 288.18),
    ],
)
def test_reproduces_seed000_table2(device: str, in_hw: set[str], total: float) -> None:
    """Seed 000 inputs (Table I final modules, Cortex-A9 times, Zynq budgets, no transfers)
    give exactly the splits and totals of seed 000 Table II."""
    plan = explore(_seed000(DeviceCatalog().get(device)))
    assert {k for k, v in plan.placement.items() if v == "hw"} == in_hw
    assert set(plan.placement) == {"keygen", "encaps", "decaps"}
    assert round(plan.total_ms, 2) == total
    assert plan.sw_only_ms == pytest.approx(811.61)
    for k in ("lut", "ff", "dsp", "bram36"):
        assert plan.used[k] <= plan.available[k]


def test_unbounded_device_puts_everything_in_hardware() -> None:
    big = Device("big", "x", 10**6, 10**6, 10**6, 10**6)
    plan = explore(_seed000(big))
    assert plan.hw_items() == ["keygen", "encaps", "decaps"]
    assert round(plan.total_ms, 2) == 279.65
    assert plan.used["lut"] == 73987


def test_cap_changes_the_choice() -> None:
    z20 = DeviceCatalog().get("z7020")
    plan = explore(_seed000(z20, constraints=Constraints(cap=0.9)))
    assert plan.hw_items() == ["decaps"]


def test_bus_overhead_counts_per_unit() -> None:
    z10 = DeviceCatalog().get("z7010")
    with pytest.raises(NothingFitsError, match="nothing fits xc7z010"):
        explore(_seed000(z10, constraints=Constraints(bus_overhead={"lut": 5000})))


def test_nothing_fits_small_artix() -> None:
    a12 = DeviceCatalog().get("xc7a12t")
    with pytest.raises(NothingFitsError) as err:
        explore(_seed000(a12))
    assert err.value.exit_code == 3
    plan = explore(_seed000(a12), require_fit=False)
    assert plan.hw_items() == [] and plan.total_ms == pytest.approx(811.61)


def test_roles() -> None:
    z20 = DeviceCatalog().get("z7020")
    server = explore(_seed000(z20, "server"))
    assert server.placement == {"encaps": "hw"}
    assert server.total_ms == pytest.approx(6.33)
    client = explore(_seed000(z20, "client"))
    assert client.placement == {"keygen": "hw", "decaps": "hw"}
    with pytest.raises(BikecoError, match="unknown role"):
        _seed000(z20, "router")


def test_transfer_cost_is_added() -> None:
    z10 = DeviceCatalog().get("z7010")
    bm = calibrate("baremetal")
    plan = explore(replace(_seed000(z10), transfer=bm))
    assert plan.hw_items() == ["keygen"]
    expected = bm.time_ms(1, 64 + 3 * 1541 + 32)
    assert plan.per_primitive["keygen"]["transfer_ms"] == pytest.approx(expected)
    assert plan.total_ms == pytest.approx(617.31 + expected)


def _measured(fixtures: Path) -> SoftwareProfile:
    return select_measured(load_bench_file(fixtures / "bench_l1.json"), 1)


def test_shared_multiplier_counted_once(fixtures: Path) -> None:
    """One multiplier serves the multiplications of all three primitives; its LUTs count once,
    and only one configuration of the core is placed."""
    units = tuple(bikeco_units(fixtures / "hw_results", 1))
    dev = Device("d", "x", 9500, 10**6, 10**6, 10**6)
    plan = explore(Problem(dev, 1, "kem", _measured(fixtures), units, NONE, grain="operation"))
    mults = [k for k, v in plan.placement.items() if k.endswith(".multiplication")]
    assert all(plan.placement[k] == "hw" for k in mults) and len(mults) == 3
    assert [u.name for u in plan.units] == ["bikeco:testmul:large"]
    assert plan.used["lut"] == 9000
    # 3 x (0.25 ms software - 0.06 ms hardware) saved
    assert plan.sw_only_ms - plan.total_ms == pytest.approx(3 * (0.25 - 0.06))


def test_one_configuration_per_core(fixtures: Path) -> None:
    units = tuple(bikeco_units(fixtures / "hw_results", 1))
    big = Device("d", "x", 10**6, 10**6, 10**6, 10**6)
    plan = explore(Problem(big, 1, "kem", _measured(fixtures), units, NONE, grain="operation"))
    names = [u.name for u in plan.units]
    assert "bikeco:testmul:large" in names and "bikeco:testmul:medium" not in names


def test_whole_primitive_unit_covers_its_operations(fixtures: Path) -> None:
    z20 = DeviceCatalog().get("z7020")
    plan = explore(_seed000(z20, grain="operation"))
    assert all(v == "hw" for k, v in plan.placement.items() if k.startswith(("keygen", "decaps")))
    assert all(v == "sw" for k, v in plan.placement.items() if k.startswith("encaps"))
    assert round(plan.total_ms, 2) == 288.18


def test_level_mismatch() -> None:
    z20 = DeviceCatalog().get("z7020")
    with pytest.raises(BikecoError, match="level 1, not 3"):
        Problem(z20, 3, "kem", seed000_profile(1), (), NONE)


def test_pareto_front_is_monotone_and_exact() -> None:
    z20 = DeviceCatalog().get("z7020")
    pts = pareto_front(_seed000(z20))
    assert [(p.lut, round(p.total_ms, 2)) for p in pts] == [
        (0, 811.61),
        (13567, 617.31),
        (36827, 608.78),
        (37160, 482.48),
        (50727, 288.18),
    ]
    for a, b in itertools.pairwise(pts):
        assert a.lut < b.lut and a.total_ms > b.total_ms


def test_front_below_a_plan(fixtures: Path) -> None:
    """Continuing from the unlimited optimum gives the whole front; from a LUT-limited plan,
    the part of the front under that limit."""
    units = tuple(bikeco_units(fixtures / "hw_results", 1)) + tuple(seed000_units())
    z20 = DeviceCatalog().get("z7020")
    pb = Problem(z20, 1, "kem", _measured(fixtures), units, NONE, grain="operation")
    whole = pareto_front(pb)
    assert len(whole) > 3
    assert front_below(explore(pb, require_fit=False)) == whole
    limited = replace(pb, constraints=Constraints(lut_limit=whole[2].lut))
    assert front_below(explore(limited, require_fit=False)) == whole[:3]


def test_units_with_no_use_are_not_placed() -> None:
    useless = HwUnit(
        "t", "x", "y", {"lut": 1, "ff": 1, "dsp": 0, "bram36": 0}, 100.0, {"encaps": 10**9}
    )
    z20 = DeviceCatalog().get("z7020")
    plan = explore(Problem(z20, 1, "server", seed000_profile(1), (useless,), NONE))
    assert plan.units == [] and plan.placement == {"encaps": "sw"}


def test_problem_checks_the_question() -> None:
    """A Problem is valid once built: bad caps and grains are refused, role aliases resolved."""
    z20 = DeviceCatalog().get("z7020")
    assert _seed000(z20, "whole").role == "kem"
    assert _seed000(z20, "client").primitives == ("keygen", "decaps")
    with pytest.raises(BikecoError, match=r"cap must be in \(0, 1\]"):
        _seed000(z20, constraints=Constraints(cap=1.5))
    with pytest.raises(BikecoError, match="unknown grain 'bit'"):
        _seed000(z20, grain="bit")
