"""Area (LUT, FF, DSP, BRAM36) of every KEM core and bus device as fitted functions of the
units' parameters.

The fits are weighted least squares (relative error) on what was synthesised: the committed
Yosys reports (``hw/ip/*/syn/reports/*.json``: every unit's presets, the KEM shapes' presets,
the bus devices and the shell alone) and ``data/unit_lut_l1.csv`` (inversions and decoders of
the KEM's word width synthesised alone). A KEM core's LUTs are a base per shape plus the
units it holds, each unit a line in features of its parameters::

    LUT = base(Keygen, Encaps, Decaps)
        + Keygen x inv(1, E, KaratsubaLevels, 3^ParallelLevels - 1)
        + Decaps x dec(1, P, P Prefetch, Tile > 0)
        + keccak(1, RoundsPerCycle)
        + (no Decaps) x sparse(1, SparseP)

with the units' coefficients shared between their own reports and the KEM reports. FF, BRAM36
and DSP are fitted on the KEM reports alone (FF: base + a share of the units' LUTs; BRAM36:
base + decoder copies, decoder accumulators in block RAM, squarer width, sparse slots; DSP: a
base per shape). Above L1 each resource's L1 figure is multiplied by a factor per level: the
mean ratio of the KEM cores synthesised at that level and at L1 with the same parameters (block
RAMs grow in steps as memories pass a block's depth, so no one line in N fits them), or, at a
level without such a core, ``1 + s (N / N1 - 1)`` with ``s`` the least-squares line through every
level's KEM ratios (or the units' when no KEM core was synthesised above L1). :func:`fit`
returns the model and its quality (R^2, largest relative error, per unit and resource),
including the scaled model against every KEM core synthesised above L1; :func:`level_note` says
in a line how good the areas are at a level.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bikeco.data_files import read_table
from bikeco.errors import BikecoError
from bikeco.hwcycles import KEM_W, SHAPES, geometry
from bikeco.hwrecord import RecordError, SynthReport, load_report

RESOURCES: tuple[str, ...] = ("lut", "ff", "dsp", "bram36")
SHELL_LUT = 455
SHELL_FF = 222
"""The accelerator shell synthesised alone (hw/ip/acc_shell/syn/reports/shell.json): the
design counts it per placed accelerator as its bus port."""

Params = Mapping[str, int]
Features = dict[str, float]


# ---- features ---------------------------------------------------------------------------------


def inv_features(p: Params) -> Features:
    return {
        "inv:1": 1.0,
        "inv:E": float(p["E"]),
        "inv:KL": float(p["KaratsubaLevels"]),
        "inv:eng": float(3 ** p["ParallelLevels"] - 1),
    }


def dec_features(p: Params) -> Features:
    return {
        "dec:1": 1.0,
        "dec:P": float(p["P"]),
        "dec:Ppf": float(p["P"] * p.get("Prefetch", 1)),
        "dec:tile": float(p.get("Tile", 0) > 0),
    }


def kec_features(p: Params) -> Features:
    return {"kec:1": 1.0, "kec:rpc": float(p["RoundsPerCycle"])}


def sparse_features(p: Params) -> Features:
    return {"sp:1": 1.0, "sp:P": float(p["P"])}


def kem_units(shape: str, p: Params) -> dict[str, Params]:
    """The units of a KEM core with their own parameter names."""
    kg, _, de = SHAPES[shape]
    out: dict[str, Params] = {
        "keccak": {"RoundsPerCycle": p["RoundsPerCycle"]},
    }
    if kg:
        out["gf2x_inv"] = {
            "E": p["InvE"],
            "KaratsubaLevels": p["InvKaratsubaLevels"],
            "ParallelLevels": p["InvParallelLevels"],
        }
    if de:
        out["bike_decoder"] = {
            "P": p["DecoderP"],
            "Prefetch": p.get("DecoderPrefetch", 1),
            "Tile": p.get("DecoderTile", 0),
        }
    else:
        out["sparse_mul"] = {"P": p["SparseP"]}
    return out


UNIT_FEATURES: dict[str, Callable[[Params], Features]] = {
    "gf2x_inv": inv_features,
    "bike_decoder": dec_features,
    "keccak": kec_features,
    "sparse_mul": sparse_features,
}


def _base(shape: str) -> Features:
    kg, en, de = SHAPES[shape]
    return {"base:1": 1.0, "base:K": float(kg), "base:E": float(en), "base:D": float(de)}


def kem_lut_features(shape: str, p: Params) -> Features:
    f = _base(shape)
    for unit, up in kem_units(shape, p).items():
        f.update(UNIT_FEATURES[unit](up))
    return f


def unit_bram_features(unit: str, p: Params) -> Features:
    """Block RAM of a unit inside a KEM core: the decoder's operand copies (ceil(P/2) per set,
    two sets with prefetch) and its count accumulators (block RAM without tiles), the
    squarer's E-bit-wide memories, the sparse multiplier's slots."""
    if unit == "bike_decoder":
        pf = p.get("Prefetch", 1)
        return {
            "dec:copies": float(-(-p["P"] // 2) * (1 + pf)),
            "dec:acc": float(p.get("Tile", 0) == 0),
        }
    if unit == "gf2x_inv":
        return {"inv:E": float(p["E"])}
    if unit == "sparse_mul":
        return {"sp:P": float(p["P"])}
    return {}


def kem_bram_features(shape: str, p: Params) -> Features:
    f = _base(shape)
    for unit, up in kem_units(shape, p).items():
        f.update(unit_bram_features(unit, up))
    return f


# ---- the data ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    """One synthesised configuration: what it is and its figures at L1 (or L3 for scaling)."""

    kind: str
    """``kem:<shape>``, a unit (gf2x_inv, bike_decoder, keccak, sparse_mul) or an acc core."""
    params: Mapping[str, int]
    level: int
    values: Mapping[str, float]
    source: str


def _report_values(r: SynthReport) -> dict[str, float]:
    return {"lut": r.lut, "ff": r.ff, "dsp": r.dsp, "bram36": r.ramb36 + 0.5 * r.ramb18}


def load_samples(hw: Path) -> list[Sample]:
    """Every committed report the fits use, and the package's unit table."""
    out: list[Sample] = []
    paths = sorted(hw.glob("ip/*/syn/reports/*.json"))
    if not paths:
        raise BikecoError(f"no synthesis reports under {hw}/ip/*/syn/reports (the area fits)")
    # the bus devices synthesised for verified designs: their multipliers' other depths
    paths += sorted(hw.glob("results/designs/*/gf2x_*_acc_L1.json"))
    for path in paths:
        try:
            r = load_report(path)
        except RecordError as exc:
            raise BikecoError(f"the area model cannot read its data: {exc}") from None
        kind = r.core
        if kind.startswith("bike_kem_"):
            kind = "kem:" + kind.removeprefix("bike_kem_")
        params = dict(r.params)
        if r.core in UNIT_FEATURES and params.get("W", KEM_W) != KEM_W:
            continue  # the KEM's units are W = 64; other widths are other circuits
        if r.core == "acc_shell" or r.core.endswith("_acc"):
            kind = f"acc:{r.name}" if "syn" in path.parts else f"acc:design:{r.core}"
        out.append(Sample(kind, params, r.level or 1, _report_values(r), str(path)))
    for row in read_table("unit_lut_l1.csv"):
        params = {k: int(v) for k, v in row.items() if k not in ("unit", "lut") and v}
        out.append(Sample(row["unit"], params, 1, {"lut": float(row["lut"])}, "unit_lut_l1.csv"))
    return out


# ---- the fits ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FitQuality:
    """How well one fit reproduces its data."""

    what: str
    resource: str
    samples: int
    r2: float
    max_rel_error: float
    max_under: float
    """The largest relative amount by which a sample exceeds its prediction (0 if none):
    what a margin on predicted areas must cover (an over-prediction only costs area)."""


@dataclass(frozen=True)
class AreaModel:
    """Fitted coefficients per resource and the level scaling."""

    coef: Mapping[str, Mapping[str, float]]
    """resource -> feature -> coefficient."""
    level_slope: Mapping[str, float]
    acc_fit: Mapping[str, Mapping[str, float]]
    """The bus devices' offsets over their unit (``gf2x_inv_acc``) or the medium report they are
    scaled from (``gf2x_mul_acc``), per resource."""
    quality: tuple[FitQuality, ...]
    level_factor: Mapping[str, Mapping[int, float]] = field(default_factory=dict)
    """resource -> level -> factor on the L1 figure (levels with a KEM core synthesised)."""

    def _dot(self, resource: str, f: Features) -> float:
        c = self.coef[resource]
        return sum(c.get(k, 0.0) * v for k, v in f.items())

    def scale(self, resource: str, level: int) -> float:
        factor = self.level_factor.get(resource, {}).get(level)
        if factor is not None:
            return factor
        n1, n = geometry(1).n, geometry(level).n
        return 1.0 + self.level_slope[resource] * (n / n1 - 1.0)

    def units_lut(self, shape: str, p: Params) -> float:
        """The KEM core's units' LUTs (no base) at L1."""
        f = kem_lut_features(shape, p)
        return self._dot("lut", {k: v for k, v in f.items() if not k.startswith("base:")})

    def _scaled(self, raw: Mapping[str, float], level: int) -> dict[str, float]:
        return {k: raw[k] * self.scale(k, level) for k in RESOURCES}

    def unit_raw(self, unit: str, p: Params, level: int) -> dict[str, float]:
        """A unit's share of a KEM core at a level (unrounded)."""
        lut = self._dot("lut", UNIT_FEATURES[unit](p))
        raw = {
            "lut": lut,
            "ff": self.coef["ff"]["units_lut"] * lut,
            "dsp": 0.0,
            "bram36": self._dot("bram36", unit_bram_features(unit, p)),
        }
        return self._scaled(raw, level)

    def kem_base_raw(self, shape: str, level: int) -> dict[str, float]:
        """A KEM shape's resources outside its units at a level (unrounded)."""
        base = _base(shape)
        return self._scaled({k: self._dot(k, base) for k in RESOURCES}, level)

    def kem_raw(self, shape: str, p: Params, level: int) -> dict[str, float]:
        """A KEM core's resources at a level (unrounded): base plus units."""
        out = self.kem_base_raw(shape, level)
        for unit, up in kem_units(shape, p).items():
            for k, v in self.unit_raw(unit, up, level).items():
                out[k] += v
        return out

    def kem(self, shape: str, p: Params, level: int) -> dict[str, float]:
        """A KEM core's resources at a level, rounded as synthesis counts them."""
        return self.rounded(self.kem_raw(shape, p, level))

    def acc_raw(self, core: str, p: Params, level: int) -> dict[str, float]:
        """A unit behind the bus shell (gf2x_inv_acc, gf2x_mul_acc, bike_decoder_acc) at a
        level (unrounded)."""
        off = self.acc_fit.get(core)
        if off is None:
            raise BikecoError(f"no area model for the bus device {core}")
        dsp = off.get("dsp", 0.0)
        if core == "bike_decoder_acc":
            unit = {"P": p["P"], "Prefetch": 1, "Tile": 0}
            lut = self._dot("lut", dec_features(unit)) + off["lut"]
            ff = off["ff_per_lut"] * lut
            bram = self._dot("bram36", unit_bram_features("bike_decoder", unit)) + off["bram36"]
        elif core == "gf2x_inv_acc":
            lut = self._dot("lut", inv_features(p)) + off["lut"]
            ff = off["ff_per_lut"] * lut
            bram = self.coef["bram36"].get("inv:E", 0.0) * p["E"] + off["bram36"]
            bram += self.mul_bram(p)
        else:
            ratio = self._mul_lut(p) / self._mul_lut({"KaratsubaLevels": 2, "ParallelLevels": 1})
            lut, ff, bram = off["lut"] * ratio, off["ff"] * ratio, off["bram36"]
            bram += self.mul_bram(p)
        return self._scaled({"lut": lut, "ff": ff, "dsp": dsp, "bram36": bram}, level)

    def mul_bram(self, p: Params) -> float:
        """Block RAM a bus device's multiplier takes beyond the medium preset's (Karatsuba
        levels 2, whose blocks of ceil(N / 4) words are distributed RAM): at fewer levels its
        deeper blocks go to block RAM. Fitted per level count on the bus devices synthesised
        for verified designs (``mul:KL<k>``); none known for a count without one."""
        return self.acc_fit.get("mul_bram", {}).get(f"KL{p['KaratsubaLevels']}", 0.0)

    def acc(self, core: str, p: Params, level: int) -> dict[str, float]:
        return self.rounded(self.acc_raw(core, p, level))

    def _mul_lut(self, p: Params) -> float:
        """The inversion's LUTs without its squarer: the multiplier's share, for scaling."""
        return self._dot("lut", inv_features({**p, "E": 0}))

    @staticmethod
    def rounded(raw: Mapping[str, float]) -> dict[str, float]:
        """Whole LUTs, FFs and DSPs (up), BRAM36 in halves (up)."""
        return {k: _round(k, raw[k]) for k in RESOURCES}


def _round(resource: str, v: float) -> float:
    v = max(v, 0.0)
    if resource == "bram36":
        return math.ceil(2 * v - 1e-9) / 2
    return float(math.ceil(v - 1e-9))


def _lstsq(rows: list[Features], ys: list[float], names: list[str]) -> dict[str, float]:
    """Weighted least squares (each row by 1 / y: relative error)."""
    a = np.array([[r.get(n, 0.0) for n in names] for r in rows])
    y = np.array(ys)
    w = 1.0 / np.maximum(y, 1.0)
    sol, *_ = np.linalg.lstsq(a * w[:, None], y * w, rcond=None)
    return {n: float(v) for n, v in zip(names, sol, strict=True)}


def _quality(what: str, resource: str, pred: list[float], ys: list[float]) -> FitQuality:
    y, p = np.array(ys), np.array(pred)
    ss_tot = float(((y - y.mean()) ** 2).sum())
    ss_res = float(((y - p) ** 2).sum())
    r2 = 1.0 - ss_res / ss_tot if ss_tot > 0 else (1.0 if ss_res == 0 else 0.0)
    scale = np.maximum(np.abs(y), 1.0)
    rel = float(np.max(np.abs(p - y) / scale))
    under = max(0.0, float(np.max((y - p) / scale)))
    # to 9 decimals: below that an exact fit shows only rounding noise, which
    # moves with any unrelated sample and would make the report unstable
    return FitQuality(what, resource, len(ys), round(r2, 9), round(rel, 9), round(under, 9))


def _names(rows: list[Features]) -> list[str]:
    out: list[str] = []
    for r in rows:
        out += [k for k in r if k not in out]
    return out


def fit(samples: list[Sample]) -> AreaModel:
    """Fit every coefficient on the samples (their L1 figures; L3 for the level scaling)."""
    l1 = [s for s in samples if s.level == 1]
    kems = [s for s in l1 if s.kind.startswith("kem:")]
    if not kems:
        raise BikecoError("no KEM core synthesis reports at L1 to fit the area model on")

    def kem_shape(s: Sample) -> str:
        return s.kind.removeprefix("kem:")

    # LUT: the units' own samples and the KEM cores together
    rows: list[Features] = []
    ys: list[float] = []
    groups: list[str] = []
    for s in l1:
        if s.kind in UNIT_FEATURES:
            rows.append(UNIT_FEATURES[s.kind](s.params))
        elif s.kind.startswith("kem:"):
            rows.append(kem_lut_features(kem_shape(s), s.params))
        else:
            continue
        ys.append(s.values["lut"])
        groups.append(s.kind if s.kind in UNIT_FEATURES else "KEM cores")
    coef: dict[str, dict[str, float]] = {"lut": _lstsq(rows, ys, _names(rows))}
    model = AreaModel(coef, {}, {}, ())
    quality = [
        _quality(g, "lut", *_pairs(model, "lut", rows, ys, groups, g))
        for g in dict.fromkeys(groups)
    ]
    quality.append(_leave_one_out(rows, ys, groups, "KEM cores"))
    # FF: base per shape + a share of the units' LUTs; BRAM36, DSP: KEM features
    ff_rows = [
        {**_base(kem_shape(s)), "units_lut": model.units_lut(kem_shape(s), s.params)} for s in kems
    ]
    bram_rows = [kem_bram_features(kem_shape(s), s.params) for s in kems]
    dsp_rows = [_base(kem_shape(s)) for s in kems]
    for res, rs in (("ff", ff_rows), ("bram36", bram_rows), ("dsp", dsp_rows)):
        ys_k = [s.values[res] for s in kems]
        coef[res] = _lstsq(rs, ys_k, _names(rs))
        pred = [sum(coef[res].get(k, 0.0) * v for k, v in r.items()) for r in rs]
        quality.append(_quality("KEM cores", res, pred, ys_k))
    slope = _level_slopes(samples)
    factor = _level_factors(samples)
    acc = _acc_offsets(AreaModel(coef, slope, {}, (), factor), samples)
    quality += _level_quality(AreaModel(coef, slope, acc, (), factor), samples)
    return AreaModel(coef, slope, acc, tuple(quality), factor)


LEVEL_FIT = "KEM cores at L{level} (L1 fit scaled)"
"""The name of the quality entries of the scaled model at a level (:func:`_level_quality`)."""


def _level_quality(model: AreaModel, samples: list[Sample]) -> list[FitQuality]:
    """The scaled model against every KEM core synthesised above L1, per level and resource."""
    out = []
    for level in sorted({s.level for s in samples if s.level > 1}):
        kems = [s for s in samples if s.kind.startswith("kem:") and s.level == level]
        if not kems:
            continue
        for res in ("lut", "ff", "bram36"):
            pred = [model.kem(s.kind.removeprefix("kem:"), s.params, level)[res] for s in kems]
            ys = [s.values[res] for s in kems]
            out.append(_quality(LEVEL_FIT.format(level=level), res, pred, ys))
    return out


def level_lut_under(model: AreaModel, level: int) -> float | None:
    """The scaled model's largest LUT under-prediction of the KEM cores synthesised at
    ``level`` (None at L1 or without one)."""
    what = LEVEL_FIT.format(level=level)
    errs = [q.max_under for q in model.quality if q.what == what and q.resource == "lut"]
    return errs[0] if errs and level > 1 else None


def level_note(model: AreaModel, level: int) -> str:
    """How good the model's areas are at ``level``: the fits' largest LUT error there."""
    if level == 1:
        l1 = ("KEM cores", "KEM cores, each left out")
        worst = max(q.max_rel_error for q in model.quality if q.what in l1 and q.resource == "lut")
        return f"areas at L1: fitted on the KEM cores' reports, LUT error up to {worst:.1%}"
    mine = {q.resource: q for q in model.quality if q.what == LEVEL_FIT.format(level=level)}
    if not mine:
        return (
            f"areas at L{level}: no KEM core synthesised at L{level}; the L1 fits scaled by "
            f"1 + {model.level_slope['lut']:.3f} (N/N1 - 1) in LUT (extrapolated)"
        )
    lut, bram = mine["lut"], mine["bram36"]
    cores = "the one KEM core" if lut.samples == 1 else f"{lut.samples} KEM cores"
    return (
        f"areas at L{level}: the L1 fits times a factor per resource fitted on {cores} "
        f"synthesised at L{level}; against them LUT error up to {lut.max_rel_error:.1%}, "
        f"BRAM36 {bram.max_rel_error:.1%}"
    )


def _pairs(
    model: AreaModel,
    res: str,
    rows: list[Features],
    ys: list[float],
    groups: list[str],
    group: str,
) -> tuple[list[float], list[float]]:
    idx = [i for i, g in enumerate(groups) if g == group]
    return [model._dot(res, rows[i]) for i in idx], [ys[i] for i in idx]


def _leave_one_out(
    rows: list[Features], ys: list[float], groups: list[str], group: str
) -> FitQuality:
    """The LUT fit's error on each sample of ``group`` when that sample is left out of it: how
    well the fit predicts a configuration it has not seen (the in-sample figures flatter it)."""
    pred, want = [], []
    names = _names(rows)
    for i, g in enumerate(groups):
        if g != group:
            continue
        keep = [j for j in range(len(rows)) if j != i]
        c = _lstsq([rows[j] for j in keep], [ys[j] for j in keep], names)
        pred.append(sum(c.get(k, 0.0) * v for k, v in rows[i].items()))
        want.append(ys[i])
    return _quality(f"{group}, each left out", "lut", pred, want)


def _level_slopes(samples: list[Sample]) -> dict[str, float]:
    """``s`` of ``1 + s (N / N1 - 1)`` per resource: the least-squares line through the
    ratios (figure at L / figure at L1 - 1) of the KEM cores reported at L1 and at L3 or L5
    with the same parameters, or of every such unit when no KEM core is."""
    pairs = _level_pairs(samples)
    kem_pairs = _kem_pairs(samples)
    out = {}
    for res in RESOURCES:
        xs, ys = [], []
        for a, b in kem_pairs or pairs:
            if a.values.get(res, 0) > 0:
                xs.append(geometry(b.level).n / geometry(1).n - 1.0)
                ys.append(b.values[res] / a.values[res] - 1.0)
        x, y = np.array(xs), np.array(ys)
        out[res] = float(x @ y / (x @ x)) if xs else 0.0
    return out


def _level_factors(samples: list[Sample]) -> dict[str, dict[int, float]]:
    """resource -> level -> the mean ratio (figure at the level / figure at L1) of the KEM cores
    synthesised at both with the same parameters."""
    ratios: dict[str, dict[int, list[float]]] = {res: {} for res in RESOURCES}
    for a, b in _kem_pairs(samples):
        for res in RESOURCES:
            if a.values.get(res, 0) > 0 and res in b.values:
                ratios[res].setdefault(b.level, []).append(b.values[res] / a.values[res])
    return {res: {lv: float(np.mean(r)) for lv, r in by.items()} for res, by in ratios.items()}


def _kem_pairs(samples: list[Sample]) -> list[tuple[Sample, Sample]]:
    """(L1, higher level) pairs of KEM cores synthesised with the same parameters."""
    return [(a, b) for a, b in _level_pairs(samples) if a.kind.startswith("kem:")]


def _level_pairs(samples: list[Sample]) -> list[tuple[Sample, Sample]]:
    """(L1, higher level) pairs of the same configuration (the level's R, D, T aside)."""
    by_key: dict[tuple[str, tuple[tuple[str, int], ...]], dict[int, Sample]] = {}
    for s in samples:
        key = (s.kind, tuple(sorted((k, v) for k, v in s.params.items() if k not in "RDT")))
        by_key.setdefault(key, {})[s.level] = s
    return [(at[1], at[lv]) for at in by_key.values() if 1 in at for lv in sorted(at) if lv > 1]


def _acc_offsets(model: AreaModel, samples: list[Sample]) -> dict[str, dict[str, float]]:
    """The bus devices from their medium reports: the inversion and decoder devices as the
    fitted unit plus the shell's share; the multiplier device as its report, scaled by the
    multiplier's share of the inversion fit for other parameters. The decoder device is
    modelled only when its report exists."""
    acc = {s.kind: s for s in samples if s.kind.startswith("acc:")}
    try:
        inv, mul = acc["acc:inv_medium_L1"], acc["acc:mul_medium_L1"]
    except KeyError as exc:
        raise BikecoError(f"no synthesis report of the bus device {exc}") from None
    inv_lut = model._dot("lut", inv_features(inv.params))
    out: dict[str, dict[str, float]] = {}
    dec = acc.get("acc:decoder_medium_L1")
    if dec is not None:
        unit = {"P": dec.params["P"], "Prefetch": 1, "Tile": 0}
        out["bike_decoder_acc"] = {
            "lut": dec.values["lut"] - model._dot("lut", dec_features(unit)),
            "ff_per_lut": dec.values["ff"] / dec.values["lut"],
            "bram36": dec.values["bram36"]
            - model._dot("bram36", unit_bram_features("bike_decoder", unit)),
            "dsp": dec.values["dsp"],
        }
    out["mul_bram"] = _mul_bram(model, samples, inv, mul)
    return out | {
        "gf2x_inv_acc": {
            "lut": inv.values["lut"] - inv_lut,
            "ff_per_lut": inv.values["ff"] / inv.values["lut"],
            "bram36": inv.values["bram36"]
            - model.coef["bram36"].get("inv:E", 0.0) * inv.params["E"],
        },
        "gf2x_mul_acc": {k: float(mul.values[k]) for k in ("lut", "ff", "bram36")},
    }


def _mul_bram(
    model: AreaModel, samples: list[Sample], inv: Sample, mul: Sample
) -> dict[str, float]:
    """The multiplier's block RAM per Karatsuba level count beyond the medium devices': the
    mean over the design-synthesised devices of their BRAM36 less the medium-fitted
    prediction (the inversion device's E share and offset, or the multiplier device's
    report)."""
    inv_off = inv.values["bram36"] - model.coef["bram36"].get("inv:E", 0.0) * inv.params["E"]
    extra: dict[str, list[float]] = {}
    for s in samples:
        if not s.kind.startswith("acc:design:"):
            continue
        if s.kind == "acc:design:gf2x_inv_acc":
            base = model.coef["bram36"].get("inv:E", 0.0) * s.params["E"] + inv_off
        else:
            base = mul.values["bram36"]
        extra.setdefault(f"KL{s.params['KaratsubaLevels']}", []).append(s.values["bram36"] - base)
    return {k: sum(v) / len(v) for k, v in extra.items()}


@functools.cache
def default_model(hw: Path) -> AreaModel:
    """The model fitted on the committed reports under ``hw`` (computed once per run)."""
    return fit(load_samples(hw))
