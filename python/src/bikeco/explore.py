"""Exploration: which primitives or operations run on which accelerator configuration.

The choice is a 0-1 integer linear programme solved with HiGHS (``scipy.optimize.milp``):

* ``y[u]`` = 1 when accelerator configuration ``u`` is placed on the device;
* ``x[o]`` = 1 when option ``o`` = (unit, target) is used: the target (a whole primitive, or
  one operation of a primitive) runs on that unit instead of the CPU;
* each item (primitive at primitive grain, ``primitive.operation`` at operation grain) is
  covered by at most one used option; an option covering a whole primitive covers all of its
  operations;
* ``x[o] <= y[unit(o)]``: a unit serves any number of targets once placed (sharing);
* at most one configuration per core;
* for each resource kind, the placed units plus a per-unit bus overhead stay within
  ``cap * budget``;
* objective: software time of all items plus, for each used option, (accelerator time +
  transfer time - software time it replaces); a tiny weight on LUTs breaks ties toward the
  smaller design.

The Pareto front of latency against LUTs is traced exactly by re-solving with a LUT limit just
below the previous optimum's LUTs until nothing is left in hardware.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bikeco.devices import RESOURCES, Device
from bikeco.errors import BikecoError, NothingFitsError
from bikeco.hwmodels import HwUnit
from bikeco.interconnect import TransferModel
from bikeco.placement_milp import PlacementMilp, solve_placement
from bikeco.profiles import PRIMITIVES, SoftwareProfile

ROLES: dict[str, tuple[str, ...]] = {
    "kem": PRIMITIVES,
    "client": ("keygen", "decaps"),
    "server": ("encaps",),
}
ROLE_ALIASES = {"whole": "kem", "all": "kem"}
GRAINS: tuple[str, ...] = ("primitive", "operation")
LUT_TIE_BREAK_MS = 1e-9


def resolve_role(role: str) -> str:
    """Canonical role name (``kem``, ``client`` or ``server``)."""
    key = ROLE_ALIASES.get(role.lower(), role.lower())
    if key not in ROLES:
        raise BikecoError(f"unknown role '{role}' (choose kem, client or server)")
    return key


@dataclass(frozen=True)
class Constraints:
    """The device budget as the explorer applies it."""

    cap: float = 1.0
    """Fraction of each resource kind the design may use (0 < cap <= 1)."""
    bus_overhead: Mapping[str, float] = field(default_factory=dict)
    """Resources added per placed unit for its bus interface (e.g. AXI), by kind."""
    lut_limit: float = math.inf
    """Extra limit on LUTs (used to trace the Pareto front)."""

    def available(self, device: Device) -> dict[str, float]:
        """Usable amount of each resource kind."""
        return {k: self.cap * v for k, v in device.budget().items()}


@dataclass(frozen=True)
class Problem:
    """What the explorer is asked: which design of least latency runs ``role`` at ``level`` on
    ``device``, given the software times, the candidate accelerator units and the transfer cost.

    Construction checks the question and makes ``role`` canonical, so every :class:`Plan` and
    Pareto front starts from a valid problem.
    """

    device: Device
    level: int
    role: str
    profile: SoftwareProfile
    units: tuple[HwUnit, ...]
    """Candidate accelerator configurations (the plan places a subset)."""
    transfer: TransferModel
    constraints: Constraints = field(default_factory=Constraints)
    grain: str = "primitive"
    hw_source: str = ""
    """Name of where the units come from, for notes and ``--json`` only."""

    def __post_init__(self) -> None:
        if not 0 < self.constraints.cap <= 1:
            raise BikecoError(f"utilisation cap must be in (0, 1], got {self.constraints.cap}")
        object.__setattr__(self, "role", resolve_role(self.role))
        if self.profile.level != self.level:
            raise BikecoError(
                f"profile '{self.profile.name}' is for level {self.profile.level}, not {self.level}"
            )
        if self.grain not in GRAINS:
            raise BikecoError(f"unknown grain '{self.grain}' (choose primitive or operation)")

    @property
    def primitives(self) -> tuple[str, ...]:
        """The primitives of the role."""
        return ROLES[self.role]


@dataclass
class Assignment:
    """One target run on an accelerator."""

    target: str
    unit: str
    sw_ms: float
    hw_ms: float
    transfer_ms: float


@dataclass
class Plan:
    """The explorer's answer to one :class:`Problem`."""

    problem: Problem
    placement: dict[str, str]
    assignments: list[Assignment]
    units: list[HwUnit]
    """The units placed (a subset of ``problem.units``)."""
    used: dict[str, float]
    available: dict[str, float]
    per_primitive: dict[str, dict[str, float]]
    total_ms: float
    sw_only_ms: float
    notes: list[str] = field(default_factory=list)

    @property
    def speedup(self) -> float:
        """Software-only latency over the plan's latency."""
        return self.sw_only_ms / self.total_ms if self.total_ms > 0 else math.inf

    @property
    def left(self) -> dict[str, float]:
        """Resources left under the cap."""
        return {k: self.available[k] - self.used[k] for k in RESOURCES}

    def hw_items(self) -> list[str]:
        """Items placed in hardware, in placement order."""
        return [k for k, v in self.placement.items() if v == "hw"]

    def hw_summary(self) -> str:
        """Short text of what runs in hardware: a primitive's name when all of it does,
        otherwise its operations in hardware (``encaps.multiplication``)."""
        return summarise(self.placement)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` form of the plan."""
        pb = self.problem
        return {
            "device": pb.device.name,
            "level": pb.level,
            "role": pb.role,
            "grain": pb.grain,
            "hw_source": pb.hw_source,
            "profile": pb.profile.name,
            "interconnect": {
                "model": pb.transfer.name,
                "fixed_us": pb.transfer.fixed_us,
                "us_per_byte": pb.transfer.us_per_byte,
            },
            "cap": pb.constraints.cap,
            "placement": self.placement,
            "units": [
                {
                    "name": u.name,
                    "core": u.core,
                    "config": u.config,
                    "clock_mhz": u.clock_mhz,
                    "resources": u.resources,
                    "origin": u.origin,
                }
                for u in self.units
            ],
            "assignments": [a.__dict__ for a in self.assignments],
            "resources": {"used": self.used, "available": self.available, "left": self.left},
            "latency_ms": self.per_primitive,
            "total_ms": round(self.total_ms, 6),
            "sw_only_ms": round(self.sw_only_ms, 6),
            "speedup": round(self.speedup, 6),
            "notes": self.notes,
        }


def summarise(placement: Mapping[str, str]) -> str:
    """See :meth:`Plan.hw_summary`; ``none`` when everything runs in software."""
    parts: list[str] = []
    for prim in PRIMITIVES:
        keys = [k for k in placement if k == prim or k.startswith(prim + ".")]
        hw = [k for k in keys if placement[k] == "hw"]
        if keys and len(hw) == len(keys):
            parts.append(prim)
        else:
            parts += [k for k in hw if not k.endswith(".other")]
    return " + ".join(parts) if parts else "none"


@dataclass
class _Option:
    unit: int
    target: str
    covers: list[int]
    delta_ms: float
    hw_ms: float
    sw_ms: float
    transfer_ms: float


@dataclass(frozen=True)
class _Model:
    """The MILP's view of a problem: the items with their software time, the options that
    move items to units, and the usable budget."""

    items: dict[str, float]
    options: list[_Option]
    available: dict[str, float]


def _items(pb: Problem) -> dict[str, float]:
    if pb.grain == "primitive":
        return {p: pb.profile.primitives[p] for p in pb.primitives}
    return pb.profile.leaves(pb.primitives)


def _options(pb: Problem, items: dict[str, float]) -> list[_Option]:
    names = list(items)
    opts: list[_Option] = []
    for ui, unit in enumerate(pb.units):
        for target in unit.targets():
            if target in PRIMITIVES:
                covers = [
                    i for i, n in enumerate(names) if n == target or n.startswith(target + ".")
                ]
                sw = pb.profile.primitives[target]
            elif pb.grain == "operation" and target in items:
                covers = [names.index(target)]
                sw = items[target]
            else:
                continue
            if not covers:
                continue
            hw = unit.time_ms(target)
            tr = pb.transfer.target_ms(target, pb.level, unit.clock_mhz)
            opts.append(_Option(ui, target, covers, hw + tr - sw, hw, sw, tr))
    return opts


def _model(pb: Problem) -> _Model:
    items = _items(pb)
    return _Model(items, _options(pb, items), pb.constraints.available(pb.device))


def _solve(pb: Problem, model: _Model) -> tuple[list[int], list[int]] | None:
    """Return (used option indices, placed unit indices), or None when infeasible."""
    units, opts, cons = pb.units, model.options, pb.constraints
    cores: dict[str, list[int]] = {}
    for ui, u in enumerate(units):
        cores.setdefault(f"{u.source}:{u.core}", []).append(ui)
    limits = dict(model.available)
    limits["lut"] = min(limits["lut"], cons.lut_limit)
    return solve_placement(
        PlacementMilp(
            option_cost=[o.delta_ms for o in opts],
            option_unit=[o.unit for o in opts],
            unit_cost=[LUT_TIE_BREAK_MS * (u.resources["lut"] + 1.0) for u in units],
            items=[
                [oi for oi, o in enumerate(opts) if ii in o.covers]
                for ii in range(len(model.items))
            ],
            groups=list(cores.values()),
            area={
                k: [u.resources[k] + cons.bus_overhead.get(k, 0.0) for u in units]
                for k in RESOURCES
            },
            limits=limits,
        )
    )


def explore(pb: Problem, require_fit: bool = True) -> Plan:
    """Choose the placement of least latency for the problem.

    With ``require_fit``, raise :class:`NothingFitsError` when no unit that could run part of
    the role fits the device at all (otherwise such a plan is all software, with a note).
    """
    model = _model(pb)
    units, cons, available = pb.units, pb.constraints, model.available
    notes: list[str] = []
    useful_units = sorted({o.unit for o in model.options})
    if not units:
        notes.append(f"no hardware models for level {pb.level} from source '{pb.hw_source}'")
    elif not model.options:
        notes.append(f"no accelerator can run any {pb.grain} of role '{pb.role}'")
    fitting = [
        ui
        for ui in useful_units
        if all(
            units[ui].resources[k] + cons.bus_overhead.get(k, 0.0) <= available[k] + 1e-9
            for k in RESOURCES
        )
    ]
    if useful_units and not fitting:
        smallest = min(useful_units, key=lambda ui: units[ui].resources["lut"])
        u = units[smallest]
        msg = (
            f"nothing fits {pb.device.name} at {cons.cap:.0%} utilisation: the smallest "
            f"accelerator ({u.name}) needs "
            + ", ".join(f"{k} {u.resources[k]:g}" for k in RESOURCES)
            + "; available "
            + ", ".join(f"{k} {available[k]:g}" for k in RESOURCES)
        )
        if require_fit:
            raise NothingFitsError(msg)
        notes.append(msg + "; software only")
    solved = _solve(pb, model) if model.options else ([], [])
    if solved is None:
        raise BikecoError("the MILP solver found no feasible plan (unexpected: software only is)")
    used_opts, placed = solved
    return _build_plan(pb, model, used_opts, placed, notes)


def _build_plan(
    pb: Problem, model: _Model, used_opts: list[int], placed: list[int], notes: list[str]
) -> Plan:
    items, opts = model.items, model.options
    names = list(items)
    placement = {n: "sw" for n in names}
    assignments = []
    per_prim = {
        p: {"sw_ms": 0.0, "hw_ms": 0.0, "transfer_ms": 0.0, "total_ms": 0.0} for p in pb.primitives
    }
    covered: set[int] = set()
    for oi in used_opts:
        o = opts[oi]
        for ii in o.covers:
            placement[names[ii]] = "hw"
            covered.add(ii)
        assignments.append(
            Assignment(o.target, pb.units[o.unit].name, o.sw_ms, o.hw_ms, o.transfer_ms)
        )
        prim = o.target.split(".")[0]
        per_prim[prim]["hw_ms"] += o.hw_ms
        per_prim[prim]["transfer_ms"] += o.transfer_ms
    for ii, n in enumerate(names):
        if ii not in covered:
            per_prim[n.split(".")[0]]["sw_ms"] += items[n]
    for rec in per_prim.values():
        rec["total_ms"] = rec["sw_ms"] + rec["hw_ms"] + rec["transfer_ms"]
    # Units placed but serving nothing cannot occur (they cost LUTs); keep only used ones.
    used_units = sorted({opts[oi].unit for oi in used_opts} | set(placed))
    plan_units = [pb.units[u] for u in used_units]
    used = {
        k: sum(u.resources[k] + pb.constraints.bus_overhead.get(k, 0.0) for u in plan_units)
        for k in RESOURCES
    }
    for u in plan_units:
        notes.extend(f"{u.name}: {n}" for n in u.notes)
    return Plan(
        problem=pb,
        placement=placement,
        assignments=assignments,
        units=plan_units,
        used=used,
        available=model.available,
        per_primitive=per_prim,
        total_ms=sum(r["total_ms"] for r in per_prim.values()),
        sw_only_ms=sum(items.values()),
        notes=notes,
    )


@dataclass(frozen=True)
class ParetoPoint:
    """One point of the latency-LUT front."""

    lut: float
    total_ms: float
    hw_items: tuple[str, ...]
    units: tuple[str, ...]
    summary: str = ""


def pareto_front(pb: Problem, max_points: int = 200) -> list[ParetoPoint]:
    """The exact front of latency against LUTs within the device budget, from the fastest
    design down to software only, sorted by LUTs (``pb``'s own LUT limit is ignored)."""
    unlimited = replace(pb, constraints=replace(pb.constraints, lut_limit=math.inf))
    return front_below(explore(unlimited, require_fit=False), max_points)


def front_below(plan: Plan, max_points: int = 200) -> list[ParetoPoint]:
    """The front from an explored plan down to software only: the plan, then the optimum
    under a LUT limit just below the last one's LUTs until nothing is left in hardware, sorted
    by LUTs. From a plan of :func:`explore` without a LUT limit, this is :func:`pareto_front`
    without solving that plan again."""
    points = [_point(plan)]
    while plan.units and len(points) < max_points:
        pb = plan.problem
        below = replace(pb.constraints, lut_limit=plan.used["lut"] - 0.5)
        plan = explore(replace(pb, constraints=below), require_fit=False)
        points.append(_point(plan))
    return sorted(points, key=lambda p: p.lut)


def _point(plan: Plan) -> ParetoPoint:
    return ParetoPoint(
        plan.used["lut"],
        plan.total_ms,
        tuple(plan.hw_items()),
        tuple(u.name for u in plan.units),
        plan.hw_summary(),
    )
