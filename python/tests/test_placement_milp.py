"""The shared placement MILP against enumeration on small random instances."""

from __future__ import annotations

import itertools
import random

import pytest

from bikeco.placement_milp import PlacementMilp, solve_placement


def _instance(seed: int) -> PlacementMilp:
    rng = random.Random(seed)
    n_u, n_o, n_items = rng.randint(2, 4), rng.randint(2, 7), rng.randint(2, 5)
    option_unit = [rng.randrange(n_u) for _ in range(n_o)]
    items = [[o for o in range(n_o) if rng.random() < 0.3] for _ in range(n_items)]
    group = rng.sample(range(n_u), 2)
    groups = [group, [u for u in range(n_u) if u not in group]]
    return PlacementMilp(
        option_cost=[rng.uniform(-10, 2) for _ in range(n_o)],
        option_unit=option_unit,
        unit_cost=[rng.uniform(0, 0.5) for _ in range(n_u)],
        items=items,
        groups=groups,
        area={"lut": [rng.uniform(1, 10) for _ in range(n_u)]},
        limits={"lut": rng.uniform(5, 30)},
    )


def _cost(m: PlacementMilp, opts: list[int], units: list[int]) -> float:
    return sum(m.option_cost[o] for o in opts) + sum(m.unit_cost[u] for u in units)


def _feasible(m: PlacementMilp, opts: set[int], units: set[int]) -> bool:
    return (
        all(len(opts & set(item)) <= 1 for item in m.items)
        and all(m.option_unit[o] in units for o in opts)
        and all(len(units & set(g)) <= 1 for g in m.groups)
        and all(sum(a[u] for u in units) <= m.limits[k] for k, a in m.area.items())
    )


def _brute_force(m: PlacementMilp) -> float:
    n_o, n_u = len(m.option_cost), len(m.unit_cost)
    best = 0.0  # nothing placed
    for bits in itertools.product((0, 1), repeat=n_o + n_u):
        opts = [o for o in range(n_o) if bits[o]]
        units = [u for u in range(n_u) if bits[n_o + u]]
        if _feasible(m, set(opts), set(units)):
            best = min(best, _cost(m, opts, units))
    return best


@pytest.mark.parametrize("seed", range(40))
def test_solver_matches_enumeration(seed: int) -> None:
    m = _instance(seed)
    got = solve_placement(m)
    assert got is not None
    opts, units = got
    assert _feasible(m, set(opts), set(units))
    assert _cost(m, opts, units) == pytest.approx(_brute_force(m), abs=1e-6)


def test_a_negative_limit_is_infeasible() -> None:
    m = PlacementMilp([-1.0], [0], [0.1], [[0]], [], {"lut": [1.0]}, {"lut": -1.0})
    assert solve_placement(m) is None
