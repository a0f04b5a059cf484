"""The ECP5 flow's memory variant, checked in simulation. The ECP5 flow reads
ip/bike_ram/rtl/ecp5/bike_ram_tdp.sv in place of the portable true dual-port
memory (pnr.ECP5_VARIANTS): it returns undefined data where the portable one
returns the old contents, when a port reads an address the other port writes
in the same cycle. For a core that never does so, both are the same function.

`hwflow tdp-check` runs the cores' own testbenches on the ECP5 sources, with a
checker (ip/bike_ram/dv/bike_ram_tdp_collisions.sv) bound into every
bike_ram_tdp that stops the simulation at the first such collision. Builds go
to build/tdp_check/, apart from the testbenches the records cite."""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

from hwflow.cores import FlowCore
from hwflow.executor import JobError
from hwflow.paths import build_dir
from hwflow.pnr import ecp5_sources
from hwflow.sim import SimConfig, simulate

TDP_RAM = "ip/bike_ram/rtl/bike_ram_tdp.sv"
CHECKER = "ip/bike_ram/dv/bike_ram_tdp_collisions.sv"


@dataclass(frozen=True)
class CheckedCore(FlowCore):
    """A flow core on the ECP5 sources, its testbench with the collision checker."""

    @property
    def rtl(self) -> list[str]:
        return ecp5_sources(super().rtl)

    @property
    def dv_rtl(self) -> list[str]:
        return [*super().dv_rtl, CHECKER]


@dataclass(frozen=True)
class CheckedSim(SimConfig):
    @property
    def folder(self) -> Path:
        return build_dir() / "tdp_check" / f"{self.core.name}_{self.config}_L{self.level}"


def checked(core: FlowCore) -> CheckedCore:
    return CheckedCore(**{f.name: getattr(core, f.name) for f in fields(core)})


def users(cores: list[FlowCore]) -> list[FlowCore]:
    """The cores built from bike_ram_tdp, but for the memory's own testbench
    (it collides on purpose: bike_ram.md)."""
    return [c for c in cores if TDP_RAM in c.rtl and c.name != "bike_ram"]


def check(core: FlowCore, preset: str, level: int, random: int, kat: int) -> str:
    """One testbench run with the checker; JobError naming the memory and the
    address at the first collision."""
    _, text = simulate(CheckedSim(checked(core), preset, level), random, kat)
    return text


def check_all(
    cores: list[FlowCore], presets: list[str] | None, level: int, random: int, kat: int
) -> int:
    """Every preset (or the named ones) of every user at one level; the
    number of runs, each of which passed."""
    n = 0
    for core in users(cores):
        for preset in presets or list(core.presets):
            if preset not in core.presets:
                continue
            try:
                check(core, preset, level, random, kat)
            except JobError as exc:
                raise JobError(f"tdp-check {core.name} {preset} L{level}: {exc}") from exc
            print(f"tdp-check {core.name} {preset} L{level}: no cross-port collision", flush=True)
            n += 1
    return n
