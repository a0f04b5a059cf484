"""Design per device: the placement and every unit's parameters of least latency in a budget.

For a part, a level, a role and a clock, :func:`solve` chooses

* at most one KEM core (``bike_kem_<shape>``, a shape whose primitives the role has) with
  its units' parameters: the inversion's E, Karatsuba and parallel levels, the decoder's P,
  prefetch and tile (or the sparse multiplier's slots in shapes without Decaps), the Keccak's
  rounds per cycle. One core: its units serve all its primitives (a full core, not a client
  core beside a server core, which would hold two Keccaks and two sets of memories);
* for the primitives left in software, the bus devices: ``gf2x_inv_acc`` for KeyGen's
  inversion (only when no core holds KeyGen: a core's inversion is not duplicated),
  ``bike_decoder_acc`` for Decaps' decoding (likewise) and ``gf2x_mul_acc`` for the
  multiplications, each with its parameters;

to minimise the role's latency (software time of what stays on the CPU + accelerator cycles
at the clock + bus transfers, primitive after primitive) with every resource, scaled by
``1 + routing_margin`` and with one bus port per accelerator, within ``cap`` x the part.

It is a 0-1 integer linear programme solved with HiGHS (``scipy.optimize.milp``), the solver
of :mod:`bikeco.explore`: a one-hot choice per unit of each shape, linked to the shape's
placement bit; cycles and areas are sums over the units (:mod:`bikeco.hwcycles`,
:mod:`bikeco.hwarea`), so the programme is exact for the model. :func:`brute_force`
enumerates the same space (the tests compare both on small spaces), :func:`evaluate` computes
any selection's figures once, for both and for the design file.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from bikeco import hwcycles as hc
from bikeco.designfile import Constraints, Design, DesignCore, Latency, Prediction
from bikeco.devices import Device
from bikeco.errors import BikecoError, NothingFitsError
from bikeco.hwarea import RESOURCES, SHELL_FF, SHELL_LUT, AreaModel, level_note
from bikeco.inputs import get_profile
from bikeco.interconnect import TransferModel
from bikeco.levels import LEVELS
from bikeco.profiles import SoftwareProfile

ROLE_PRIMS: dict[str, tuple[str, ...]] = {
    "kem": ("keygen", "encaps", "decaps"),
    "client": ("keygen", "decaps"),
    "server": ("encaps",),
}
KEM_FIXED = {"KeccakSerial": 0}
"""Parameters every designed KEM core sets the same way (the lane-serial Keccak's KEM cycles
are not modelled)."""
TIE_LUT_MS = 1e-9
"""Milliseconds per LUT added to the objective: among equally fast designs, the smallest."""


@dataclass(frozen=True)
class Space:
    """The parameter values the designer may choose (each within the synthesised range)."""

    shapes: tuple[str, ...] = tuple(hc.SHAPES)
    rounds_per_cycle: tuple[int, ...] = (1, 2)
    inv: tuple[tuple[int, int, int], ...] = tuple(
        (e, kl, pl) for e in (4, 8, 16, 32, 64) for kl in range(4) for pl in range(min(kl, 2) + 1)
    )
    """(InvE, InvKaratsubaLevels, InvParallelLevels)."""
    decoder: tuple[tuple[int, int, int], ...] = tuple(
        (p, pf, tile)
        for p in (1, 2, 3, 4, 6, 8, 12, 16, 24, 36)
        for pf in (0, 1)
        for tile in (0, 32)
    )
    """(DecoderP, DecoderPrefetch, DecoderTile)."""
    sparse: tuple[int, ...] = (1, 2, 4, 8, 16, 36)
    mul_acc: tuple[tuple[int, int], ...] = tuple(
        (kl, pl) for kl in range(4) for pl in range(min(kl, 2) + 1)
    )
    """(KaratsubaLevels, ParallelLevels) of gf2x_mul_acc."""
    decoder_acc: tuple[int, ...] = (1, 2, 3, 4, 6, 8, 12, 16, 24, 36)
    """P of bike_decoder_acc (its prefetch and tiles at the RTL defaults: on, none)."""
    acc: bool = True
    """Whether the bus devices may be placed."""


@dataclass(frozen=True)
class Context:
    """Everything a design depends on."""

    device: Device
    level: int
    role: str
    clock_mhz: float
    profile: SoftwareProfile
    transfer: TransferModel
    area: AreaModel
    cap: float = 1.0
    routing_margin: float = 0.0
    bus: Mapping[str, float] = field(default_factory=lambda: {"lut": SHELL_LUT, "ff": SHELL_FF})
    space: Space = field(default_factory=Space)
    area_scale: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    """Flow core -> resource -> factor on the model's area (a refit after a synthesis came out
    larger or smaller than predicted: ``bikeco verify``)."""

    def __post_init__(self) -> None:
        if self.role not in ROLE_PRIMS:
            raise BikecoError(f"unknown role '{self.role}' (choose kem, client or server)")
        if not 0 < self.cap <= 1:
            raise BikecoError(f"utilisation cap must be in (0, 1], got {self.cap}")
        if self.routing_margin < 0:
            raise BikecoError(f"routing margin must be >= 0, got {self.routing_margin}")
        if self.clock_mhz <= 0:
            raise BikecoError(f"clock must be positive, got {self.clock_mhz} MHz")
        if self.profile.level != self.level:
            raise BikecoError(f"profile '{self.profile.name}' is not for level {self.level}")

    @property
    def prims(self) -> tuple[str, ...]:
        return ROLE_PRIMS[self.role]

    @property
    def limits(self) -> dict[str, float]:
        """What the predicted area (before the margin) may reach, per resource."""
        return {
            k: self.cap * v / (1.0 + self.routing_margin) for k, v in self.device.budget().items()
        }

    def scaled(self, core: str, res: Mapping[str, float]) -> dict[str, float]:
        """A core's (or one of its parts') modelled area with its :attr:`area_scale`."""
        f = self.area_scale.get(core, {})
        return {k: res[k] * f.get(k, 1.0) for k in RESOURCES}

    def ms(self, cycles: float) -> float:
        return cycles / (self.clock_mhz * 1e3)

    @property
    def dec_accs(self) -> tuple[int, ...]:
        """The decoder device's choices: none without its synthesis report or Decaps."""
        ok = "decaps" in self.prims and "bike_decoder_acc" in self.area.acc_fit
        return self.space.decoder_acc if ok and self.space.acc else ()

    @property
    def mul_prims(self) -> tuple[str, ...]:
        """The role's primitives with a dense multiplication in the software profile."""
        bd = self.profile.breakdown
        return tuple(p for p in self.prims if bd[p].get("multiplication", 0.0) > 0)

    def transfer_ms(self, target: str) -> float:
        return self.transfer.target_ms(target, self.level, self.clock_mhz)


@dataclass(frozen=True)
class Selection:
    """A point of the design space."""

    shape: str | None = None
    kem: Mapping[str, int] = field(default_factory=dict)
    """The KEM core's parameters (without the level ones)."""
    inv_acc: tuple[int, int, int] | None = None
    dec_acc: int | None = None
    """P of bike_decoder_acc."""
    mul_acc: tuple[int, int] | None = None
    mul_serves: tuple[str, ...] = ()
    """The primitives whose multiplication runs on gf2x_mul_acc."""


def kem_params(
    rpc: int, inv: tuple[int, int, int], dec: tuple[int, int, int], sp: int
) -> dict[str, int]:
    """A KEM core's full parameter set (unused units' parameters at their smallest values)."""
    return {
        "RoundsPerCycle": rpc,
        **KEM_FIXED,
        "InvE": inv[0],
        "InvKaratsubaLevels": inv[1],
        "InvParallelLevels": inv[2],
        "SparseP": sp,
        "DecoderP": dec[0],
        "DecoderPrefetch": dec[1],
        "DecoderTile": dec[2],
    }


_SMALL_INV = (4, 0, 0)
_SMALL_DEC = (1, 0, 0)


def inv_params(c: tuple[int, int, int]) -> dict[str, int]:
    return {"E": c[0], "KaratsubaLevels": c[1], "ParallelLevels": c[2]}


def mul_params(c: tuple[int, int]) -> dict[str, int]:
    return {"KaratsubaLevels": c[0], "ParallelLevels": c[1]}


L5_PROFILE = "a9-ref-l5x"


def profile_for(spec: str | None, level: int) -> SoftwareProfile:
    """The software profile of a design: as ``bikeco plan`` takes it; at level 5, which no
    published profile covers, by default (or by the name :data:`L5_PROFILE`) seed 001's
    Cortex-A9 level-3 times scaled by (r5 / r3)^2 (the quadratic cost of the dense
    arithmetic; an extrapolation, said so)."""
    if level != 5 or spec not in (None, L5_PROFILE):
        return get_profile(spec, level)
    l3 = get_profile("a9-ref", 3)
    f = (LEVELS[5].r / LEVELS[3].r) ** 2
    return SoftwareProfile(
        L5_PROFILE,
        f"Cortex-A9 reference C at L5 extrapolated: seed 001's L3 times x (r5/r3)^2 = {f:.2f}",
        5,
        {p: v * f for p, v in l3.primitives.items()},
        {p: {op: v * f for op, v in ops.items()} for p, ops in l3.breakdown.items()},
    )


# ---- evaluation -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Evaluated:
    """A selection's figures under the model."""

    selection: Selection
    cores: tuple[tuple[str, dict[str, int], tuple[str, ...], dict[str, int], dict[str, float]], ...]
    """(flow core, parameters, serves, cycles, raw area) per placed accelerator."""
    latency: dict[str, float]
    hw_cycles: dict[str, int]
    area: dict[str, float]
    """Raw (unrounded) area with the bus ports, before the routing margin."""
    solver_ms: float | None = None
    """The MILP's own latency of the selection (software only plus its variables' costs), for
    the tests' check that the programme's linear model equals :func:`evaluate`."""

    @property
    def total_ms(self) -> float:
        return sum(self.latency.values())

    def fits(self, ctx: Context) -> bool:
        return all(self.area[k] <= ctx.limits[k] + 1e-6 for k in RESOURCES)


def evaluate(ctx: Context, sel: Selection) -> Evaluated:
    """The latency and area of a selection."""
    g = hc.geometry(ctx.level)
    prof = ctx.profile
    latency = {p: prof.primitives[p] for p in ctx.prims}
    hw_cycles: dict[str, int] = {}
    cores = []
    area = {k: 0.0 for k in RESOURCES}

    def add(res: Mapping[str, float]) -> None:
        for k in RESOURCES:
            area[k] += res[k] + ctx.bus.get(k, 0.0)

    if sel.shape is not None:
        cyc = hc.kem_cycles(ctx.level, sel.shape, sel.kem)
        serves = hc.shape_prims(sel.shape)
        for p in serves:
            latency[p] = ctx.ms(cyc[p]) + ctx.transfer_ms(p)
            hw_cycles[p] = cyc[p]
        res = ctx.scaled(f"bike_kem_{sel.shape}", ctx.area.kem_raw(sel.shape, sel.kem, ctx.level))
        add(res)
        cores.append((f"bike_kem_{sel.shape}", dict(sel.kem), serves, cyc, res))
    if sel.inv_acc is not None:
        ip = inv_params(sel.inv_acc)
        cyc_i = hc.acc_cycles("gf2x_inv_acc", g, ip)
        latency["keygen"] += (
            ctx.ms(cyc_i)
            + ctx.transfer_ms("keygen.inversion")
            - prof.breakdown["keygen"]["inversion"]
        )
        hw_cycles["keygen"] = hw_cycles.get("keygen", 0) + cyc_i
        res = ctx.scaled("gf2x_inv_acc", ctx.area.acc_raw("gf2x_inv_acc", ip, ctx.level))
        add(res)
        cores.append(("gf2x_inv_acc", ip, ("keygen.inversion",), {"op": cyc_i}, res))
    if sel.dec_acc is not None:
        dp = {"P": sel.dec_acc}
        cyc_d = hc.acc_cycles("bike_decoder_acc", g, dp)
        latency["decaps"] += (
            ctx.ms(cyc_d)
            + ctx.transfer_ms("decaps.decoding")
            - prof.breakdown["decaps"]["decoding"]
        )
        hw_cycles["decaps"] = hw_cycles.get("decaps", 0) + cyc_d
        res = ctx.scaled("bike_decoder_acc", ctx.area.acc_raw("bike_decoder_acc", dp, ctx.level))
        add(res)
        cores.append(("bike_decoder_acc", dp, ("decaps.decoding",), {"op": cyc_d}, res))
    if sel.mul_acc is not None:
        mp = mul_params(sel.mul_acc)
        cyc_m = hc.acc_cycles("gf2x_mul_acc", g, mp)
        for p in sel.mul_serves:
            latency[p] += (
                ctx.ms(cyc_m)
                + ctx.transfer_ms(f"{p}.multiplication")
                - prof.breakdown[p]["multiplication"]
            )
            hw_cycles[p] = hw_cycles.get(p, 0) + cyc_m
        res = ctx.scaled("gf2x_mul_acc", ctx.area.acc_raw("gf2x_mul_acc", mp, ctx.level))
        add(res)
        serves_m = tuple(f"{p}.multiplication" for p in sel.mul_serves)
        cores.append(("gf2x_mul_acc", mp, serves_m, {"op": cyc_m}, res))
    return Evaluated(sel, tuple(cores), latency, hw_cycles, area)


# ---- the space --------------------------------------------------------------------------------


def _shapes(ctx: Context) -> list[str]:
    return [s for s in ctx.space.shapes if set(hc.shape_prims(s)) <= set(ctx.prims)]


def selections(ctx: Context) -> Iterator[Selection]:
    """Every point of the space (for :func:`brute_force`)."""
    sp = ctx.space
    kems: list[Selection] = [Selection()]
    for shape in _shapes(ctx):
        kg, _, de = hc.SHAPES[shape]
        invs = sp.inv if kg else (_SMALL_INV,)
        decs = sp.decoder if de else (_SMALL_DEC,)
        sps = (1,) if de else sp.sparse
        for rpc, inv, dec, s in itertools.product(sp.rounds_per_cycle, invs, decs, sps):
            kems.append(Selection(shape, kem_params(rpc, inv, dec, s)))
    for k in kems:
        left = [p for p in ctx.prims if k.shape is None or p not in hc.shape_prims(k.shape)]
        mul_left = [p for p in left if p in ctx.mul_prims]
        invs_acc: list[tuple[int, int, int] | None] = [None]
        if sp.acc and "keygen" in left:
            invs_acc += list(sp.inv)
        muls: list[tuple[tuple[int, int] | None, tuple[str, ...]]] = [(None, ())]
        if sp.acc and mul_left:
            for n in range(1, len(mul_left) + 1):
                for serves in itertools.combinations(mul_left, n):
                    muls += [(m, serves) for m in sp.mul_acc]
        decs_acc: list[int | None] = [None]
        if "decaps" in left:
            decs_acc += list(ctx.dec_accs)
        for ia, da in itertools.product(invs_acc, decs_acc):
            for ma, serves in muls:
                yield replace(k, inv_acc=ia, dec_acc=da, mul_acc=ma, mul_serves=serves)


def brute_force(ctx: Context) -> Evaluated | None:
    """The fastest fitting selection by enumeration (ties: fewer LUTs); None if nothing fits."""
    best: Evaluated | None = None
    for sel in selections(ctx):
        ev = evaluate(ctx, sel)
        if not ev.fits(ctx):
            continue
        key = ev.total_ms + TIE_LUT_MS * ev.area["lut"]
        if best is None or key < best.total_ms + TIE_LUT_MS * best.area["lut"] - 1e-12:
            best = ev
    return best


# ---- the MILP ---------------------------------------------------------------------------------


@dataclass
class _Var:
    cost: float
    area: dict[str, float]
    sel: dict[str, object]


class _Builder:
    def __init__(self) -> None:
        self.vars: list[_Var] = []
        self.eq: list[tuple[dict[int, float], float]] = []
        self.le: list[tuple[dict[int, float], float]] = []

    def var(self, cost: float, area: Mapping[str, float], **sel: object) -> int:
        self.vars.append(_Var(cost, dict(area), dict(sel)))
        return len(self.vars) - 1


_Opt = tuple[float, Mapping[str, float], dict[str, object]]


def _kem_option_vars(ctx: Context, b: _Builder, shape: str) -> int:
    """The shape's placement bit and its one-hot unit choices; returns the bit's index."""
    g = hc.geometry(ctx.level)
    serves = hc.shape_prims(shape)
    kg, _, de = hc.SHAPES[shape]
    am, lvl = ctx.area, ctx.level
    core = f"bike_kem_{shape}"
    base_res = ctx.scaled(core, am.kem_base_raw(shape, lvl))
    rest = hc.kem_rest(g)
    base_cost = sum(
        ctx.ms(rest[p]) + ctx.transfer_ms(p) - ctx.profile.primitives[p] for p in serves
    )
    y = b.var(base_cost, _with_bus(ctx, base_res), shape=shape)
    groups: list[list[int]] = []

    def group(options: Sequence[_Opt]) -> None:
        ids = [b.var(c, a, **s) for c, a, s in options]
        groups.append(ids)

    # Keccak: sampling and hashing of each primitive
    kec: list[_Opt] = [
        (
            sum(ctx.ms(hc.kem_keccak(g, rpc)[p]) for p in serves),
            ctx.scaled(core, am.unit_raw("keccak", {"RoundsPerCycle": rpc}, lvl)),
            {"rpc": rpc},
        )
        for rpc in ctx.space.rounds_per_cycle
    ]
    group(kec)
    if kg:
        inv_opts: list[_Opt] = [
            (
                ctx.ms(hc.inv_cycles(g, *inv)),
                ctx.scaled(core, am.unit_raw("gf2x_inv", inv_params(inv), lvl)),
                {"inv": inv},
            )
            for inv in ctx.space.inv
        ]
        group(inv_opts)
    opts: list[_Opt] = []
    if de:
        for dec in ctx.space.decoder:
            p, pf, tile = dec
            cyc = hc.decode_cycles(g, p, pf, tile) + hc.decoder_product_cycles(g, g.d, p, tile)
            if kg:
                cyc += hc.decoder_product_cycles(g, g.d, p, tile)
            if "encaps" in serves:
                cyc += hc.decoder_product_cycles(g, g.t, p, tile)
            unit = {"P": p, "Prefetch": pf, "Tile": tile}
            area = ctx.scaled(core, am.unit_raw("bike_decoder", unit, lvl))
            opts.append((ctx.ms(cyc), area, {"dec": dec}))
        group(opts)
    else:
        for s in ctx.space.sparse:
            cyc = (hc.sparse_cycles(g, g.d, s) if kg else 0) + (
                hc.sparse_cycles(g, g.t, s) if "encaps" in serves else 0
            )
            area = ctx.scaled(core, am.unit_raw("sparse_mul", {"P": s}, lvl))
            opts.append((ctx.ms(cyc), area, {"sp": s}))
        group(opts)
    for ids in groups:
        b.eq.append(({**{i: 1.0 for i in ids}, y: -1.0}, 0.0))
    return y


def _with_bus(ctx: Context, res: Mapping[str, float]) -> dict[str, float]:
    return {k: res[k] + ctx.bus.get(k, 0.0) for k in RESOURCES}


def solve(ctx: Context) -> Evaluated | None:
    """The fastest fitting selection by the MILP; None if nothing fits (not even software
    only, which always fits: so never None unless the space is empty)."""
    b = _Builder()
    prof, g, lvl = ctx.profile, hc.geometry(ctx.level), ctx.level
    shape_bits = {s: _kem_option_vars(ctx, b, s) for s in _shapes(ctx)}
    b.le.append(({y: 1.0 for y in shape_bits.values()}, 1.0))

    def covering(prim: str) -> dict[int, float]:
        return {y: 1.0 for s, y in shape_bits.items() if prim in hc.shape_prims(s)}

    if ctx.space.acc and "keygen" in ctx.prims:
        ids = []
        for inv in ctx.space.inv:
            ip = inv_params(inv)
            cost = (
                ctx.ms(hc.acc_cycles("gf2x_inv_acc", g, ip))
                + ctx.transfer_ms("keygen.inversion")
                - prof.breakdown["keygen"]["inversion"]
            )
            raw = ctx.scaled("gf2x_inv_acc", ctx.area.acc_raw("gf2x_inv_acc", ip, lvl))
            area = _with_bus(ctx, raw)
            ids.append(b.var(cost, area, inv_acc=inv))
        # one inversion device at most, and none beside a core that holds KeyGen's inversion
        b.le.append(({**{i: 1.0 for i in ids}, **covering("keygen")}, 1.0))
    if ctx.dec_accs:
        ids = []
        for dp in ctx.dec_accs:
            cost = (
                ctx.ms(hc.acc_cycles("bike_decoder_acc", g, {"P": dp}))
                + ctx.transfer_ms("decaps.decoding")
                - prof.breakdown["decaps"]["decoding"]
            )
            raw = ctx.scaled(
                "bike_decoder_acc", ctx.area.acc_raw("bike_decoder_acc", {"P": dp}, lvl)
            )
            ids.append(b.var(cost, _with_bus(ctx, raw), dec_acc=dp))
        # one decoder device at most, and none beside a core that holds a decoder
        b.le.append(({**{i: 1.0 for i in ids}, **covering("decaps")}, 1.0))
    if ctx.space.acc:
        place = {}
        for m in ctx.space.mul_acc:
            raw = ctx.scaled("gf2x_mul_acc", ctx.area.acc_raw("gf2x_mul_acc", mul_params(m), lvl))
            place[m] = b.var(0.0, _with_bus(ctx, raw), mul_acc=m)
        b.le.append(({i: 1.0 for i in place.values()}, 1.0))
        for p in ctx.mul_prims:
            serve_ids = []
            for m, zi in place.items():
                cost = (
                    ctx.ms(hc.acc_cycles("gf2x_mul_acc", g, mul_params(m)))
                    + ctx.transfer_ms(f"{p}.multiplication")
                    - prof.breakdown[p]["multiplication"]
                )
                v = b.var(cost, {}, mul_serves=(m, p))
                serve_ids.append(v)
                b.le.append(({v: 1.0, zi: -1.0}, 0.0))
            b.le.append(({**{i: 1.0 for i in serve_ids}, **covering(p)}, 1.0))
    n = len(b.vars)
    objective = np.array([v.cost + TIE_LUT_MS * v.area.get("lut", 0.0) for v in b.vars])
    rows, lo, hi = [], [], []
    for coefs, rhs in b.eq:
        rows.append(_row(n, coefs))
        lo.append(rhs)
        hi.append(rhs)
    for coefs, rhs in b.le:
        rows.append(_row(n, coefs))
        lo.append(-np.inf)
        hi.append(rhs)
    for k in RESOURCES:
        rows.append(np.array([v.area.get(k, 0.0) for v in b.vars]))
        lo.append(-np.inf)
        hi.append(ctx.limits[k] + 1e-6)
    res = milp(
        c=objective,
        integrality=np.ones(n),
        bounds=Bounds(np.zeros(n), np.ones(n)),
        constraints=[LinearConstraint(np.vstack(rows), np.array(lo), np.array(hi))],
        options={"mip_rel_gap": 1e-9, "presolve": True},
    )
    if res.x is None:
        return None
    chosen = [b.vars[i].sel for i in range(n) if res.x[i] > 0.5]
    picked = [i for i in range(n) if res.x[i] > 0.5]
    own = sum(prof.primitives[p] for p in ctx.prims) + sum(b.vars[i].cost for i in picked)
    return replace(evaluate(ctx, _selection(chosen)), solver_ms=own)


def _row(n: int, coefs: Mapping[int, float]) -> np.ndarray:
    row = np.zeros(n)
    for i, c in coefs.items():
        row[i] = c
    return row


def _selection(chosen: list[dict[str, object]]) -> Selection:
    got: dict[str, object] = {}
    serves: list[str] = []
    for s in chosen:
        if "mul_serves" in s:
            pair = s["mul_serves"]
            assert isinstance(pair, tuple)
            serves.append(str(pair[1]))
        else:
            got.update(s)
    shape = got.get("shape")
    sel = Selection()
    if isinstance(shape, str):
        inv = got.get("inv", _SMALL_INV)
        dec = got.get("dec", _SMALL_DEC)
        sp = got.get("sp", 1)
        rpc = got["rpc"]
        assert isinstance(rpc, int) and isinstance(sp, int)
        sel = Selection(shape, kem_params(rpc, inv, dec, sp))  # type: ignore[arg-type]
    ia = got.get("inv_acc")
    da = got.get("dec_acc")
    ma = got.get("mul_acc")
    order = ("keygen", "encaps", "decaps")
    return replace(
        sel,
        inv_acc=ia,  # type: ignore[arg-type]
        dec_acc=da,  # type: ignore[arg-type]
        mul_acc=ma if serves else None,  # type: ignore[arg-type]
        mul_serves=tuple(p for p in order if p in serves),
    )


# ---- the design file --------------------------------------------------------------------------


def to_design(ctx: Context, ev: Evaluated, notes: list[str]) -> Design:
    """The design file of an evaluated selection (areas rounded as synthesis counts them)."""
    cores = []
    for core, params, serves, cycles, raw in ev.cores:
        rounded = ctx.area.rounded(raw)
        cores.append(
            DesignCore(
                core=core,
                params=params,
                serves=list(serves),
                predicted=Prediction(
                    cycles=dict(cycles),
                    lut=int(rounded["lut"]),
                    ff=int(rounded["ff"]),
                    dsp=int(rounded["dsp"]),
                    bram36=rounded["bram36"],
                ),
            )
        )
    whole = {k: sum(c.predicted.__dict__[k] + ctx.bus.get(k, 0) for c in cores) for k in RESOURCES}
    placement = {p: "sw" for p in ctx.prims}
    for c in cores:
        for t in c.serves:
            placement[t] = c.core
    lat = {p: ev.latency.get(p, 0.0) for p in ("keygen", "encaps", "decaps")}
    d = ctx.device
    return Design(
        name=f"{d.name}_L{ctx.level}_{ctx.role}",
        device=d.name,
        level=ctx.level,
        role=ctx.role,
        clock_mhz=ctx.clock_mhz,
        profile=ctx.profile.name,
        constraints=Constraints(
            device_lut=d.lut,
            device_ff=d.ff,
            device_dsp=d.dsp,
            device_bram36=d.bram36,
            cap=ctx.cap,
            routing_margin=ctx.routing_margin,
            bus_lut=int(ctx.bus.get("lut", 0)),
            bus_ff=int(ctx.bus.get("ff", 0)),
        ),
        cores=cores,
        placement=placement,
        predicted=Prediction(
            cycles=dict(ev.hw_cycles),
            lut=int(whole["lut"]),
            ff=int(whole["ff"]),
            dsp=int(whole["dsp"]),
            bram36=float(whole["bram36"]),
        ),
        latency_ms=Latency(**{k: round(v, 6) for k, v in lat.items()}, total=round(ev.total_ms, 6)),
        fits=ev.fits(ctx),
        notes=notes,
    )


def notes_for(ctx: Context) -> list[str]:
    """What the design assumed."""
    out = [
        f"accelerator cycles at {ctx.clock_mhz:g} MHz (assumed: no place and route)",
        f"software: {ctx.profile.description}",
        f"transfers: {ctx.transfer.name} model",
        f"one bus port per accelerator: {ctx.bus.get('lut', 0):g} LUT, "
        f"{ctx.bus.get('ff', 0):g} FF (the accelerator shell alone)",
    ]
    if ctx.level == 5:
        out.append("level 5: cycles are the formulas at L5 (no KEM core simulated there)")
    if ctx.level > 1:
        out.append(level_note(ctx.area, ctx.level))
    return out


def design(ctx: Context) -> tuple[Design, Evaluated]:
    """The design of least latency that fits (software only, with no cores, when no
    accelerator helps: :func:`software_only_reason` says why)."""
    ev = solve(ctx)
    if ev is None:
        raise BikecoError("the MILP found no feasible design (software only always is)")
    return to_design(ctx, ev, notes_for(ctx)), ev


def software_only_reason(ctx: Context) -> str:
    """Why the design of least latency places no accelerator: raise :class:`NothingFitsError`
    saying what it would take when none fits; else every one that fits is slower than the
    software it would replace (a fast CPU), which the returned line says."""
    smallest = _smallest(ctx)
    if all(smallest.area[k] <= ctx.limits[k] + 1e-6 for k in RESOURCES):
        return (
            f"software only: no accelerator that fits {ctx.device.name} is faster than the "
            f"software profile '{ctx.profile.name}' with its transfers"
        )
    need = ", ".join(f"{k} {smallest.area[k]:.0f}" for k in ("lut", "ff", "bram36"))
    have = ", ".join(f"{k} {ctx.limits[k]:.0f}" for k in ("lut", "ff", "bram36"))
    raise NothingFitsError(
        f"nothing fits {ctx.device.name} at {ctx.cap:.0%} utilisation with a routing margin "
        f"of {ctx.routing_margin:.0%}: the smallest accelerator "
        f"({smallest.cores[0][0]}) needs {need} with its bus port; usable {have}"
    )


def _smallest(ctx: Context) -> Evaluated:
    big = replace(ctx.device, lut=10**9, ff=10**9, dsp=10**9, bram36=1e9)
    unbounded = replace(ctx, device=big, cap=1.0, routing_margin=0.0)
    best: Evaluated | None = None
    for sel in _single_accelerators(unbounded):
        ev = evaluate(unbounded, sel)
        if best is None or ev.area["lut"] < best.area["lut"]:
            best = ev
    assert best is not None
    return best


def _single_accelerators(ctx: Context) -> Iterator[Selection]:
    sp = ctx.space
    for shape in _shapes(ctx):
        yield Selection(shape, kem_params(1, _SMALL_INV, _SMALL_DEC, 1))
    if sp.acc and "keygen" in ctx.prims:
        yield Selection(inv_acc=_SMALL_INV)
    if ctx.dec_accs:
        yield Selection(dec_acc=ctx.dec_accs[0])
    if sp.acc and ctx.mul_prims:
        yield Selection(mul_acc=(0, 0), mul_serves=ctx.mul_prims[:1])


# ---- what it would take -----------------------------------------------------------------------


def cheapest_meeting(ctx: Context, goal_cycles: int) -> Evaluated | None:
    """The design of fewest LUTs whose whole-role hardware cycles are at most ``goal_cycles``
    (every primitive in a core), by enumeration of the KEM core's space."""
    best: Evaluated | None = None
    big = replace(ctx.device, lut=10**9, ff=10**9, dsp=10**9, bram36=1e9)
    free = replace(ctx, device=big, cap=1.0, routing_margin=0.0)
    sp = ctx.space
    for shape in _shapes(ctx):
        if set(hc.shape_prims(shape)) != set(ctx.prims):
            continue
        kg, _, de = hc.SHAPES[shape]
        for rpc, inv, dec, s in itertools.product(
            sp.rounds_per_cycle,
            sp.inv if kg else (_SMALL_INV,),
            sp.decoder if de else (_SMALL_DEC,),
            (1,) if de else sp.sparse,
        ):
            sel = Selection(shape, kem_params(rpc, inv, dec, s))
            cyc = hc.kem_cycles(ctx.level, shape, sel.kem)
            if sum(cyc.values()) > goal_cycles:
                continue
            ev = evaluate(free, sel)
            if best is None or ev.area["lut"] < best.area["lut"]:
                best = ev
    return best
