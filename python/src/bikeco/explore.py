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
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from bikeco.devices import RESOURCES, Device
from bikeco.errors import BikecoError, NothingFitsError
from bikeco.hwmodels import HwUnit
from bikeco.interconnect import TransferModel, target_bytes
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
    """The explorer's answer for one device, level, role and set of inputs."""

    device: Device
    level: int
    role: str
    grain: str
    hw_source: str
    profile: SoftwareProfile
    interconnect: TransferModel
    constraints: Constraints
    placement: dict[str, str]
    assignments: list[Assignment]
    units: list[HwUnit]
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
        return {
            "device": self.device.name,
            "level": self.level,
            "role": self.role,
            "grain": self.grain,
            "hw_source": self.hw_source,
            "profile": self.profile.name,
            "interconnect": {
                "model": self.interconnect.name,
                "fixed_us": self.interconnect.fixed_us,
                "us_per_byte": self.interconnect.us_per_byte,
            },
            "cap": self.constraints.cap,
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


def _items(profile: SoftwareProfile, primitives: tuple[str, ...], grain: str) -> dict[str, float]:
    if grain == "primitive":
        return {p: profile.primitives[p] for p in primitives}
    if grain == "operation":
        return profile.leaves(primitives)
    raise BikecoError(f"unknown grain '{grain}' (choose primitive or operation)")


def _options(
    items: dict[str, float],
    units: list[HwUnit],
    profile: SoftwareProfile,
    transfer: TransferModel,
    level: int,
    grain: str,
) -> list[_Option]:
    names = list(items)
    opts: list[_Option] = []
    for ui, unit in enumerate(units):
        for target in unit.targets():
            if target in PRIMITIVES:
                covers = [
                    i for i, n in enumerate(names) if n == target or n.startswith(target + ".")
                ]
                sw = profile.primitives[target]
            elif grain == "operation" and target in items:
                covers = [names.index(target)]
                sw = items[target]
            else:
                continue
            if not covers:
                continue
            hw = unit.time_ms(target)
            tr = transfer.time_ms(1, target_bytes(target, level))
            opts.append(_Option(ui, target, covers, hw + tr - sw, hw, sw, tr))
    return opts


def _solve(
    items: dict[str, float],
    units: list[HwUnit],
    opts: list[_Option],
    available: dict[str, float],
    constraints: Constraints,
) -> tuple[list[int], list[int]] | None:
    """Return (used option indices, placed unit indices), or None when infeasible."""
    n_o, n_u = len(opts), len(units)
    n = n_o + n_u
    cost = np.zeros(n)
    for oi, o in enumerate(opts):
        cost[oi] = o.delta_ms
    for ui, u in enumerate(units):
        cost[n_o + ui] = LUT_TIE_BREAK_MS * (u.resources["lut"] + 1.0)
    rows: list[np.ndarray] = []
    ub: list[float] = []
    for ii in range(len(items)):
        row = np.zeros(n)
        for oi, o in enumerate(opts):
            if ii in o.covers:
                row[oi] = 1.0
        if row.any():
            rows.append(row)
            ub.append(1.0)
    for oi, o in enumerate(opts):
        row = np.zeros(n)
        row[oi] = 1.0
        row[n_o + o.unit] = -1.0
        rows.append(row)
        ub.append(0.0)
    cores: dict[str, list[int]] = {}
    for ui, u in enumerate(units):
        cores.setdefault(f"{u.source}:{u.core}", []).append(ui)
    for members in cores.values():
        if len(members) > 1:
            row = np.zeros(n)
            row[[n_o + m for m in members]] = 1.0
            rows.append(row)
            ub.append(1.0)
    limits = dict(available)
    limits["lut"] = min(limits["lut"], constraints.lut_limit)
    for k in RESOURCES:
        row = np.zeros(n)
        for ui, u in enumerate(units):
            row[n_o + ui] = u.resources[k] + constraints.bus_overhead.get(k, 0.0)
        rows.append(row)
        ub.append(limits[k] + 1e-9)
    a = np.vstack(rows) if rows else np.zeros((0, n))
    res = milp(
        c=cost,
        integrality=np.ones(n),
        bounds=Bounds(np.zeros(n), np.ones(n)),
        constraints=[LinearConstraint(a, -np.inf, np.array(ub))],
        options={"mip_rel_gap": 1e-12, "presolve": True},
    )
    if res.x is None:
        return None
    x = np.round(res.x).astype(int)
    return [i for i in range(n_o) if x[i]], [u for u in range(n_u) if x[n_o + u]]


def explore(
    device: Device,
    level: int,
    role: str,
    profile: SoftwareProfile,
    units: list[HwUnit],
    transfer: TransferModel,
    constraints: Constraints | None = None,
    grain: str = "primitive",
    hw_source: str = "",
    require_fit: bool = True,
) -> Plan:
    """Choose the placement of least latency for the device.

    With ``require_fit``, raise :class:`NothingFitsError` when no unit that could run part of
    the role fits the device at all (otherwise such a plan is all software, with a note).
    """
    cons = constraints or Constraints()
    if not 0 < cons.cap <= 1:
        raise BikecoError(f"utilisation cap must be in (0, 1], got {cons.cap}")
    role = resolve_role(role)
    prims = ROLES[role]
    if profile.level != level:
        raise BikecoError(f"profile '{profile.name}' is for level {profile.level}, not {level}")
    items = _items(profile, prims, grain)
    available = cons.available(device)
    notes: list[str] = []
    opts = _options(items, units, profile, transfer, level, grain)
    useful_units = sorted({o.unit for o in opts})
    if not units:
        notes.append(f"no hardware models for level {level} from source '{hw_source}'")
    elif not opts:
        notes.append(f"no accelerator can run any {grain} of role '{role}'")
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
            f"nothing fits {device.name} at {cons.cap:.0%} utilisation: the smallest accelerator "
            f"({u.name}) needs "
            + ", ".join(f"{k} {u.resources[k]:g}" for k in RESOURCES)
            + "; available "
            + ", ".join(f"{k} {available[k]:g}" for k in RESOURCES)
        )
        if require_fit:
            raise NothingFitsError(msg)
        notes.append(msg + "; software only")
    solved = _solve(items, units, opts, available, cons) if opts else ([], [])
    if solved is None:
        raise BikecoError("the MILP solver found no feasible plan (unexpected: software only is)")
    used_opts, placed = solved
    return _build_plan(
        device,
        level,
        role,
        grain,
        hw_source,
        profile,
        transfer,
        cons,
        items,
        units,
        opts,
        used_opts,
        placed,
        available,
        notes,
    )


def _build_plan(
    device: Device,
    level: int,
    role: str,
    grain: str,
    hw_source: str,
    profile: SoftwareProfile,
    transfer: TransferModel,
    cons: Constraints,
    items: dict[str, float],
    units: list[HwUnit],
    opts: list[_Option],
    used_opts: list[int],
    placed: list[int],
    available: dict[str, float],
    notes: list[str],
) -> Plan:
    names = list(items)
    placement = {n: "sw" for n in names}
    assignments = []
    per_prim = {
        p: {"sw_ms": 0.0, "hw_ms": 0.0, "transfer_ms": 0.0, "total_ms": 0.0} for p in ROLES[role]
    }
    covered: set[int] = set()
    for oi in used_opts:
        o = opts[oi]
        for ii in o.covers:
            placement[names[ii]] = "hw"
            covered.add(ii)
        assignments.append(
            Assignment(o.target, units[o.unit].name, o.sw_ms, o.hw_ms, o.transfer_ms)
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
    plan_units = [units[u] for u in used_units]
    used = {
        k: sum(u.resources[k] + cons.bus_overhead.get(k, 0.0) for u in plan_units)
        for k in RESOURCES
    }
    for u in plan_units:
        notes.extend(f"{u.name}: {n}" for n in u.notes)
    total = sum(r["total_ms"] for r in per_prim.values())
    return Plan(
        device=device,
        level=level,
        role=role,
        grain=grain,
        hw_source=hw_source,
        profile=profile,
        interconnect=transfer,
        constraints=cons,
        placement=placement,
        assignments=assignments,
        units=plan_units,
        used=used,
        available=available,
        per_primitive=per_prim,
        total_ms=total,
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


def pareto_front(
    device: Device,
    level: int,
    role: str,
    profile: SoftwareProfile,
    units: list[HwUnit],
    transfer: TransferModel,
    constraints: Constraints | None = None,
    grain: str = "primitive",
    max_points: int = 200,
) -> list[ParetoPoint]:
    """The exact front of latency against LUTs within the device budget, from the fastest
    design down to software only, sorted by LUTs."""
    cons = constraints or Constraints()
    points: list[ParetoPoint] = []
    limit = math.inf
    for _ in range(max_points):
        c = Constraints(cons.cap, cons.bus_overhead, limit)
        plan = explore(device, level, role, profile, units, transfer, c, grain, require_fit=False)
        points.append(
            ParetoPoint(
                plan.used["lut"],
                plan.total_ms,
                tuple(plan.hw_items()),
                tuple(u.name for u in plan.units),
                plan.hw_summary(),
            )
        )
        if not plan.units:
            break
        limit = plan.used["lut"] - 0.5
    return sorted(points, key=lambda p: p.lut)
