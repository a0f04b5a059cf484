"""The 0-1 placement MILP that ``bikeco plan`` (:mod:`bikeco.explore`) and ``bikeco plan --kem``
(:mod:`bikeco.mlkem`) solve: options (a unit running some items instead of software) and units
(a configuration placed on the device), one binary each::

    minimise   sum option_cost x_o + sum unit_cost y_u
    subject to each item done by one chosen option at most,
               x_o <= y_(unit of o)              (an option needs its unit placed),
               one unit of each group at most    (one preset per core),
               sum area_k(u) y_u <= limit_k      per resource k

solved by HiGHS through scipy. Software is the all-zero point, so the problem is always
feasible unless a limit is negative.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp


@dataclass(frozen=True)
class PlacementMilp:
    option_cost: Sequence[float]
    """Each option's change of the objective when chosen (negative: a saving)."""
    option_unit: Sequence[int]
    """The unit each option runs on."""
    unit_cost: Sequence[float]
    """Each unit's cost when placed (a tie-break toward the smaller)."""
    items: Sequence[Sequence[int]]
    """Per item of work, the options that do it: at most one of them is chosen."""
    groups: Sequence[Sequence[int]]
    """Sets of units of which at most one is placed."""
    area: Mapping[str, Sequence[float]]
    """Resource -> each unit's area (with whatever the caller adds per unit)."""
    limits: Mapping[str, float]
    """Resource -> what the placed units may take."""


def solve_placement(m: PlacementMilp) -> tuple[list[int], list[int]] | None:
    """(chosen option indices, placed unit indices), or None when infeasible."""
    n_o, n_u = len(m.option_cost), len(m.unit_cost)
    n = n_o + n_u
    rows: list[np.ndarray] = []
    ub: list[float] = []

    def add(entries: Mapping[int, float], bound: float) -> None:
        row = np.zeros(n)
        for i, v in entries.items():
            row[i] = v
        rows.append(row)
        ub.append(bound)

    for item in m.items:
        if item:
            add({o: 1.0 for o in item}, 1.0)
    for o, u in enumerate(m.option_unit):
        add({o: 1.0, n_o + u: -1.0}, 0.0)
    for group in m.groups:
        if len(group) > 1:
            add({n_o + u: 1.0 for u in group}, 1.0)
    for k, areas in m.area.items():
        add({n_o + u: a for u, a in enumerate(areas)}, m.limits[k] + 1e-9)
    res = milp(
        c=np.array([*m.option_cost, *m.unit_cost], dtype=float),
        integrality=np.ones(n),
        bounds=Bounds(np.zeros(n), np.ones(n)),
        constraints=[LinearConstraint(np.vstack(rows) if rows else np.zeros((0, n)), -np.inf, ub)],
        options={"mip_rel_gap": 1e-12, "presolve": True},
    )
    if res.x is None:
        return None
    x = np.round(res.x).astype(int)
    return [o for o in range(n_o) if x[o]], [u for u in range(n_u) if x[n_o + u]]
