"""The BIKE level constants the cores are sized by, from bikeco.levels (the
form generated from spec/bike_levels.json)."""

from __future__ import annotations

from bikeco.levels import LEVELS

# the RTL parameter names of r, d and t, in this order
LEVEL_PARAMS = ("R", "D", "T")


def rdt(level: int) -> tuple[int, int, int]:
    lv = LEVELS[level]
    return lv.r, lv.d, lv.t


def level_values(level: int, names: tuple[str, ...]) -> dict[str, int]:
    """The level parameters a core declares (a subset of R, D, T), in order."""
    values = dict(zip(LEVEL_PARAMS, rdt(level), strict=True))
    return {n: values[n] for n in LEVEL_PARAMS if n in names}
