"""Assemble the explorer's inputs from names given on the command line or by the report."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bikeco.bench import measure
from bikeco.errors import BikecoError
from bikeco.hwmodels import HW_SOURCES, SEED000_STEPS, HwUnit, bikeco_units, seed000_units
from bikeco.profiles import (
    SEED000_PROFILE,
    SoftwareProfile,
    load_bench_file,
    published_profile,
    select_measured,
)


def default_profile_name(level: int) -> str:
    """Seed 000's own Cortex-A9 figures at level 1; seed 001's Cortex-A9 ones otherwise."""
    return SEED000_PROFILE if level == 1 else "a9-ref"


def get_profile(
    spec: str | None, level: int, bike_bin: Path | None = None, runs: int | None = None
) -> SoftwareProfile:
    """A profile from a name, ``measured`` (through the libbike binding, or by running
    ``bike_bin`` when given) or a saved bench JSON file."""
    name = spec or default_profile_name(level)
    if name == "measured":
        _, profiles, _ = measure(bike_bin, level=level, runs=runs)
        return select_measured(profiles, level)
    if name.endswith(".json"):
        return select_measured(load_bench_file(Path(name)), level)
    return published_profile(name, level)


@dataclass(frozen=True)
class HwChoice:
    """Which hardware cost models to use."""

    source: str = "seed000"
    seed000_steps: tuple[str, ...] = ("final_hls_perf_area",)
    results_dir: Path | None = None
    clock_mhz: float | None = None


def get_units(choice: HwChoice, level: int, required: bool = True) -> list[HwUnit]:
    """The units of the chosen source(s) at the level."""
    if choice.source not in HW_SOURCES:
        raise BikecoError(f"unknown hardware source '{choice.source}' ({', '.join(HW_SOURCES)})")
    units: list[HwUnit] = []
    if choice.source in ("seed000", "all"):
        units += seed000_units(choice.seed000_steps, level)
        if choice.clock_mhz:
            for u in units:
                u.clock_mhz = choice.clock_mhz
    if choice.source in ("bikeco", "all"):
        if choice.results_dir is None:
            raise BikecoError("no hardware results folder given")
        units += bikeco_units(
            choice.results_dir,
            level,
            choice.clock_mhz,
            required=required and choice.source == "bikeco",
        )
    return units


def parse_steps(text: str) -> tuple[str, ...]:
    """``final`` (default), ``all`` or a comma-separated list of seed 000 design steps."""
    if text == "final":
        return ("final_hls_perf_area",)
    if text == "all":
        return SEED000_STEPS
    return tuple(s.strip() for s in text.split(",") if s.strip())
