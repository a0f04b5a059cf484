"""ML-KEM's operations placed per device, as :mod:`bikeco.explore` places BIKE's.

Each ML-KEM parameter set (FIPS 203: ML-KEM-512, -768, -1024, k = 2, 3, 4) is counted as
*work* per KEM operation (keygen, encaps, decaps): polynomials through the NTT, the inverse
NTT, base multiplications (one per pair of polynomials), polynomials of the matrix A
(SampleNTT, SHAKE128), noise polynomials (PRF and SamplePolyCBD, SHAKE256) and hash calls (H,
G, J), with the Keccak-f[1600] permutations each needs (:func:`work`).

Costs of a work item, per KEM operation:

* software: the Cortex-A53 of seed 004 (:func:`seed004_a53`). The seed publishes per scheme
  and level only the whole encapsulation and decapsulation and their NTT part (Table 6); the
  per-call costs are least-squares fits on its six Kyber round 2 rows, counted with the same
  structure (round 2's hashes differ: :func:`hashes`). Key generation has no published figure:
  it is the fitted costs times its counts.
* hardware: a *device operation* (one row of ``data/mlkem_ops.csv``: which work items, which
  core, which kind of the core's operation, one unit or one of K-PKE's groups a call) on a
  core preset: ntt_acc on the NTT records (``hw/results/ntt_*.json``, ML-KEM's ring; CYCLES
  from :func:`bikeco.hwcycles.ntt_acc_cycles`; area: the device's own synthesis report,
  ``hw/ip/acc_shell/syn/reports/``, for the preset of the device's parameters, else the
  record plus the shell) and the Keccak of keccak_sampler_acc (the
  sampler records' area; cycles per permutation from :func:`bikeco.hwcycles.permutation`).
  A new device operation is one row of that table.
* bus: :class:`bikeco.interconnect.TransferModel` per device call and per byte moved.

:func:`plan` chooses, within the device's budget, at most one preset per core and for each
work item software or one device operation (an operation may do several, as MACINTT does
the base multiplications and inverse NTT of a row), minimising the sum of the KEM operations'
latencies: a 0-1 programme solved with HiGHS (``scipy.optimize.milp``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import nnls

from bikeco.data_files import read_table
from bikeco.devices import RESOURCES, Device
from bikeco.errors import BikecoError, NothingFitsError
from bikeco.hwarea import SHELL_FF, SHELL_LUT
from bikeco.hwcycles import NTT_ACC_KINDS, ntt_acc_cycles, ntt_cycles, permutation
from bikeco.hwmodels import load_records
from bikeco.hwrecord import RecordError, SynthReport, load_report
from bikeco.interconnect import TransferModel
from bikeco.placement_milp import PlacementMilp, solve_placement

KEM_OPS: tuple[str, ...] = ("keygen", "encaps", "decaps")
WORKS: tuple[str, ...] = ("ntt", "invntt", "basemul", "sample_matrix", "sample_cbd", "hash")
"""The work items, in the order plans list them."""
NTT_WORKS: tuple[str, ...] = ("ntt", "invntt", "basemul")
"""What seed 004's 'Total SW NTT' counts (its accelerator's NTT, INTT and MUL modes)."""
KECCAK_WORKS: tuple[str, ...] = ("sample_matrix", "sample_cbd", "hash")

N = 256
Q = 3329
POLY_BYTES = 2 * N
"""A polynomial as the kernels hand it over: int16_t[256]."""
RATE_SHA3_256 = 136
RATE_SHA3_512 = 72
RATE_SHAKE128 = 168
RATE_SHAKE256 = 136
XOF_BLOCKS = 3
"""SHAKE128 blocks SampleNTT squeezes for one polynomial: 256 coefficients accepted with
probability q / 4096 from 3-byte pairs take 472.5 bytes on average, under 3 x 168."""


@dataclass(frozen=True)
class ParamSet:
    """A KEM's sizes (FIPS 203 section 8; Kyber round 2 for the seed's fit)."""

    name: str
    k: int
    eta1: int
    eta2: int
    du: int
    dv: int
    hashing: str
    """``fips203`` or ``kyber_r2``: which hash calls each operation makes."""

    @property
    def ek_bytes(self) -> int:
        return 384 * self.k + 32

    @property
    def ct_bytes(self) -> int:
        return 32 * (self.du * self.k + self.dv)


MLKEM: dict[str, ParamSet] = {
    "mlkem512": ParamSet("mlkem512", 2, 3, 2, 10, 4, "fips203"),
    "mlkem768": ParamSet("mlkem768", 3, 2, 2, 10, 4, "fips203"),
    "mlkem1024": ParamSet("mlkem1024", 4, 2, 2, 11, 5, "fips203"),
}
KYBER_R2: dict[str, ParamSet] = {
    "kyber_r2_1": ParamSet("kyber_r2_1", 2, 2, 2, 10, 3, "kyber_r2"),
    "kyber_r2_3": ParamSet("kyber_r2_3", 3, 2, 2, 10, 4, "kyber_r2"),
    "kyber_r2_5": ParamSet("kyber_r2_5", 4, 2, 2, 11, 5, "kyber_r2"),
}
"""Seed 004's Kyber round 2 rows (Table 6), used to fit the software costs only."""


def param_set(name: str) -> ParamSet:
    """An ML-KEM parameter set by name (``mlkem768``, ``ML-KEM-768``, ``768``)."""
    key = name.strip().lower().replace("-", "").replace("_", "")
    key = key if key.startswith("mlkem") else f"mlkem{key}"
    if key not in MLKEM:
        raise BikecoError(f"unknown ML-KEM parameter set '{name}' (known: {', '.join(MLKEM)})")
    return MLKEM[key]


# ---- work per KEM operation (FIPS 203's structure) ---------------------------------------------


@dataclass(frozen=True)
class Work:
    """One work item of one KEM operation: units (polynomials, pairs or hash calls), the
    groups K-PKE hands them over in (vectors of NTTs, keygen's s and e as one; rows of k
    base-multiplication pairs; else one unit each), the Keccak-f permutations they take, and
    the bytes in and out of a device that runs them one unit a call."""

    units: int
    groups: int
    perms: int
    bytes_in: int
    bytes_out: int


def keccak_perms(in_bytes: int, out_bytes: int, rate: int) -> int:
    """Permutations of one sponge call: the padded input's blocks, then one per further output
    block."""
    return -(-(in_bytes + 1) // rate) + max(0, -(-out_bytes // rate) - 1)


def hashes(ps: ParamSet, op: str) -> list[tuple[int, int, int]]:
    """(input bytes, output bytes, rate) of each hash call of ``op``. FIPS 203: KeyGen G(d||k),
    H(ek); Encaps H(ek), G(m||h); Decaps G(m'||h), J(z||c). Kyber round 2 hashes m and the
    ciphertext and derives K with a KDF."""
    ek, ct = ps.ek_bytes, ps.ct_bytes
    g, h, kdf = RATE_SHA3_512, RATE_SHA3_256, RATE_SHAKE256
    if ps.hashing == "fips203":
        table = {
            "keygen": [(33, 64, g), (ek, 32, h)],
            "encaps": [(ek, 32, h), (64, 64, g)],
            "decaps": [(64, 64, g), (32 + ct, 32, kdf)],
        }
    else:
        table = {
            "keygen": [(32, 64, g), (ek, 32, h)],
            "encaps": [(32, 32, h), (ek, 32, h), (64, 64, g), (ct, 32, h), (64, 32, kdf)],
            "decaps": [(64, 64, g), (ct, 32, h), (64, 32, kdf)],
        }
    return table[op]


def work(ps: ParamSet, op: str) -> dict[str, Work]:
    """The work items of one KEM operation. K-PKE.KeyGen: NTT of s and e (2k, one vector), A o s
    (k rows of k pairs), A (k^2), 2k noise polynomials at eta1. K-PKE.Encrypt: NTT of y (k,
    one vector), A^T o y and t^T o y (k + 1 rows), an inverse NTT per row, A, k noise
    polynomials at eta1 and k + 1 at eta2. Decaps: K-PKE.Decrypt (NTT of u: one vector of k,
    s^T o u: one row, one inverse NTT) and Encrypt."""
    if op not in KEM_OPS:
        raise BikecoError(f"unknown KEM operation '{op}' (use {', '.join(KEM_OPS)})")
    k = ps.k
    ntt = {"keygen": 2 * k, "encaps": k, "decaps": 2 * k}[op]
    intt = {"keygen": 0, "encaps": k + 1, "decaps": k + 2}[op]
    pairs = {"keygen": k * k, "encaps": k * k + k, "decaps": k * k + 2 * k}[op]
    etas = [ps.eta1] * (2 * k) if op == "keygen" else [ps.eta1] * k + [ps.eta2] * (k + 1)
    vectors = {"keygen": 1, "encaps": 1, "decaps": 2}[op]
    calls = hashes(ps, op)
    return {
        "ntt": Work(ntt, vectors, 0, ntt * POLY_BYTES, ntt * POLY_BYTES),
        "invntt": Work(intt, intt, 0, intt * POLY_BYTES, intt * POLY_BYTES),
        "basemul": Work(pairs, pairs // k, 0, pairs * 2 * POLY_BYTES, pairs * POLY_BYTES),
        "sample_matrix": Work(k * k, k * k, k * k * XOF_BLOCKS, k * k * 34, k * k * POLY_BYTES),
        "sample_cbd": Work(
            len(etas),
            len(etas),
            sum(keccak_perms(33, 64 * e, RATE_SHAKE256) for e in etas),
            len(etas) * 33,
            len(etas) * POLY_BYTES,
        ),
        "hash": Work(
            len(calls),
            len(calls),
            sum(keccak_perms(i, o, r) for i, o, r in calls),
            sum(i for i, _, _ in calls),
            sum(o for _, o, _ in calls),
        ),
    }


# ---- software on seed 004's Cortex-A53 ---------------------------------------------------------


@dataclass(frozen=True)
class SoftwareCosts:
    """Microseconds per unit of work on one CPU, and what stays in software per operation."""

    name: str
    ntt_us: float
    invntt_us: float
    basemul_us: float
    perm_us: float
    """Per Keccak-f permutation, the sampling's and hashing's arithmetic folded in."""
    rest_us: float
    """Per KEM operation: compression, encoding, additions (never offloaded)."""
    how: str

    def work_us(self, name: str, w: Work) -> float:
        per_unit = {"ntt": self.ntt_us, "invntt": self.invntt_us, "basemul": self.basemul_us}
        if name in per_unit:
            return w.units * per_unit[name]
        return w.perms * self.perm_us


def _fit(rows: list[list[float]], ys: list[float]) -> tuple[np.ndarray, float]:
    a, b = np.array(rows), np.array(ys)
    coef, _ = nnls(a, b)
    return coef, float(np.max(np.abs(a @ coef - b) / b))


def seed004_a53() -> SoftwareCosts:
    """The Cortex-A53 (1.2 GHz) of seed 004, fitted by non-negative least squares on Table 6's
    Kyber round 2 encapsulation and decapsulation rows: 'Total SW NTT' = the NTT, inverse NTT
    and pair counts times their costs; the rest of 'Total SW' = permutations x a cost per
    permutation + a constant per operation."""
    ntt_rows: list[list[float]] = []
    ntt_y: list[float] = []
    rest_rows: list[list[float]] = []
    rest_y: list[float] = []
    for r in read_table("ntt_codesign_004_table6.csv"):
        ps = KYBER_R2.get(r["algorithm"])
        if ps is None:
            continue
        w = work(ps, r["operation"])
        ntt_rows.append([float(w[n].units) for n in NTT_WORKS])
        ntt_y.append(float(r["total_sw_ntt_us"]))
        rest_rows.append([float(sum(w[n].perms for n in KECCAK_WORKS)), 1.0])
        rest_y.append(float(r["total_sw_us"]) - float(r["total_sw_ntt_us"]))
    if len(ntt_y) < 4:
        raise BikecoError("seed 004 Table 6 has too few Kyber round 2 rows to fit")
    c_ntt, e_ntt = _fit(ntt_rows, ntt_y)
    c_rest, e_rest = _fit(rest_rows, rest_y)
    how = (
        f"seed 004 Cortex-A53 at 1.2 GHz: per-call costs fitted on its Table 6 Kyber round 2 "
        f"rows ({len(ntt_y)}; NTT part within {e_ntt:.0%}, the rest within {e_rest:.0%}); "
        "keygen has no published figure and is the fitted costs times its counts"
    )
    return SoftwareCosts(
        "seed004-a53",
        float(c_ntt[0]),
        float(c_ntt[1]),
        float(c_ntt[2]),
        float(c_rest[0]),
        float(c_rest[1]),
        how,
    )


# ---- hardware: device operations and core presets ----------------------------------------------


@dataclass(frozen=True)
class DeviceOp:
    """One row of ``data/mlkem_ops.csv``: a device operation and the work items it does."""

    op: str
    works: tuple[str, ...]
    """The work items it does, in one call (ntt_acc's MACINTT: basemul and invntt)."""
    core: str
    """``ntt`` or ``keccak``: which preset family it runs on."""
    kind: str
    """ntt_acc's operation kind (:data:`bikeco.hwcycles.NTT_ACC_KINDS`) or ``keccak_f`` (the
    Keccak's cycles per permutation)."""
    batch: str
    """``1``: one unit a call; ``group``: one of K-PKE's groups a call (:class:`Work`)."""


CORES: tuple[str, ...] = ("ntt", "keccak")
DEVICE_OF = {"ntt": "ntt_acc", "keccak": "keccak_sampler_acc"}
KINDS = {"ntt": NTT_ACC_KINDS, "keccak": ("keccak_f",)}


def device_ops(rows: Sequence[Mapping[str, str]] | None = None) -> list[DeviceOp]:
    """The device operations (``data/mlkem_ops.csv``, or ``rows`` of the same columns)."""
    out = []
    for i, r in enumerate(rows if rows is not None else read_table("mlkem_ops.csv")):
        where = f"mlkem_ops.csv row {i + 2}"
        f = {k: str(r.get(k, "")).strip() for k in ("op", "works", "core", "kind", "batch")}
        works = tuple(f["works"].split("+"))
        bad = [w for w in works if w not in WORKS]
        if bad or len(set(works)) < len(works):
            raise BikecoError(f"{where}: works must be distinct items of {', '.join(WORKS)}")
        if f["core"] not in CORES:
            raise BikecoError(f"{where}: unknown core '{f['core']}' (use {', '.join(CORES)})")
        if f["kind"] not in KINDS[f["core"]]:
            kinds = ", ".join(KINDS[f["core"]])
            raise BikecoError(f"{where}: core {f['core']} has no kind '{f['kind']}' ({kinds})")
        if f["batch"] not in ("1", "group"):
            raise BikecoError(f"{where}: batch must be 1 or group")
        out.append(DeviceOp(f["op"], works, f["core"], f["kind"], f["batch"]))
    return out


@dataclass(frozen=True)
class CorePreset:
    """One core preset a plan may place: cycles per operation from the formulas, area from
    the device's synthesis report or from its record plus the bus shell (``origin`` says
    which)."""

    core: str
    preset: str
    params: dict[str, int]
    cycles: dict[str, int]
    clock_mhz: float
    area: dict[str, float]
    origin: str

    @property
    def name(self) -> str:
        return f"{DEVICE_OF[self.core]}:{self.preset}"


def core_presets(hw_dir: Path, clock_mhz: float | None = None) -> list[CorePreset]:
    """The presets of the records in ``hw_dir`` (``hw/results``), with ntt_acc's synthesis
    reports beside it (:func:`device_reports`; :func:`presets_of_records`)."""
    records = [(path.name, rec) for path, rec in load_records(hw_dir)]
    return presets_of_records(records, clock_mhz, device_reports(hw_dir.parent))


def device_reports(hw: Path) -> list[tuple[str, SynthReport]]:
    """ntt_acc's synthesis reports of the whole device (top ntt_acc) under ``hw``
    (``hw/ip/acc_shell/syn/reports``), each with its path under ``hw``; none if ``hw`` has no
    such folder."""
    out = []
    for path in sorted((hw / "ip" / "acc_shell" / "syn" / "reports").glob("*.json")):
        try:
            r = load_report(path)
        except RecordError as exc:
            raise BikecoError(f"ntt_acc's area: {exc}") from None
        if r.core == DEVICE_OF["ntt"] and r.top == DEVICE_OF["ntt"]:
            out.append((str(path.relative_to(hw)), r))
    return out


def presets_of_records(
    records: Sequence[tuple[str, Mapping[str, Any]]],
    clock_mhz: float | None = None,
    devices: Sequence[tuple[str, SynthReport]] = (),
) -> list[CorePreset]:
    """The NTT presets of ML-KEM's ring (N = 256, q = 3329, pairwise base multiplication) and
    the Keccak presets (the level-1 sampler records: keccak_core and the sampler that share
    keccak_sampler_acc; cycles per permutation 24 / RoundsPerCycle) among (file name, record)
    pairs. An NTT preset with the parameters of one of ``devices`` ((path, ntt_acc's synthesis
    report) pairs) takes that report's area: the device as built, shell and stream adapter
    included."""
    out = []
    for name, rec in records:
        if rec["core"] not in ("ntt", "sampler"):
            continue
        p = {k: int(v) for k, v in rec["params"].items()}
        if rec["core"] == "ntt" and (p["N"], p["Q"], p["P"]) == (N, Q, 1):
            core, cycles = "ntt", ntt_cycles(p)
        elif rec["core"] == "sampler" and rec["level"] == 1:
            core, cycles = "keccak", {"keccak_f": permutation(p["RoundsPerCycle"])}
        else:
            continue
        res = rec["resources"]
        area = {k: float(res[k]) for k in RESOURCES}
        area["lut"] += SHELL_LUT
        area["ff"] += SHELL_FF
        origin = name
        built = [(path, r) for path, r in devices if core == "ntt" and dict(r.params) == p]
        if built:
            origin, area = built[0][0], _report_area(built[0][1])
        clock = clock_mhz or float(rec["clock_mhz_assumed"])
        out.append(CorePreset(core, str(rec["preset"]), p, cycles, clock, area, origin))
    return out


def _report_area(r: SynthReport) -> dict[str, float]:
    return {"lut": r.lut, "ff": r.ff, "dsp": r.dsp, "bram36": r.ramb36 + 0.5 * r.ramb18}


# ---- the plan ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cost:
    """One way to run one work item, over the KEM operations: ms per operation."""

    device_ms: dict[str, float]
    transfer_ms: dict[str, float]
    calls: dict[str, int]

    def total(self, ops: Sequence[str]) -> float:
        return sum(self.device_ms[o] + self.transfer_ms[o] for o in ops)


def _ntt_acc(
    c: CorePreset, d: DeviceOp, ws: Mapping[str, Work], calls: int
) -> tuple[int, int, int]:
    """Cycles, bytes in and bytes out of ``d``'s calls on ntt_acc for one KEM operation."""
    main = ws[d.works[0]]
    kind = d.kind
    if kind == "MACINTT" and ws["invntt"].units == 0:
        kind = "MAC"  # keygen's rows of A o s: no inverse NTT follows them
    elif kind == "MACINTT" and ws["invntt"].units != calls:
        raise BikecoError(f"{d.op}: one inverse NTT per row, got {ws['invntt'].units}/{calls}")
    if main.units % calls:
        raise BikecoError(f"{d.op}: {main.units} units do not split into {calls} calls")
    cyc = calls * ntt_acc_cycles(c.params, kind, main.units // calls)
    if kind in ("NTT", "INTT"):
        return cyc, main.units * POLY_BYTES, main.units * POLY_BYTES
    return cyc, 2 * main.units * POLY_BYTES, calls * POLY_BYTES  # one sum out per call


def hw_cost(ps: ParamSet, d: DeviceOp, c: CorePreset, transfer: TransferModel) -> Cost:
    """Device time (the shell's CYCLES from the formulas, at the preset's clock) and bus time
    of ``d`` on ``c`` for each KEM operation."""
    dev: dict[str, float] = {}
    bus: dict[str, float] = {}
    calls: dict[str, int] = {}
    for op in KEM_OPS:
        ws = work(ps, op)
        main = ws[d.works[0]]
        n = main.units if d.batch == "1" else main.groups
        if n == 0:
            cyc, nbytes = 0, 0
        elif d.core == "ntt":
            cyc, b_in, b_out = _ntt_acc(c, d, ws, n)
            nbytes = b_in + b_out
        else:
            cyc = main.perms * c.cycles[d.kind]
            nbytes = main.bytes_in + main.bytes_out
        dev[op] = cyc / (c.clock_mhz * 1e3)
        bus[op] = transfer.time_ms(n, nbytes)
        calls[op] = n
    return Cost(dev, bus, calls)


@dataclass(frozen=True)
class Problem:
    device: Device
    params: ParamSet
    software: SoftwareCosts
    presets: tuple[CorePreset, ...]
    ops: tuple[DeviceOp, ...]
    transfer: TransferModel
    cap: float = 1.0
    bus_overhead: Mapping[str, float] = field(default_factory=dict)
    objective: tuple[str, ...] = KEM_OPS
    """The KEM operations whose latencies the plan minimises (summed)."""

    def limits(self) -> dict[str, float]:
        if not 0 < self.cap <= 1:
            raise BikecoError(f"utilisation cap must be in (0, 1], got {self.cap}")
        return {k: v * self.cap for k, v in self.device.budget().items()}

    def preset_area(self, c: CorePreset) -> dict[str, float]:
        return {k: c.area[k] + self.bus_overhead.get(k, 0.0) for k in RESOURCES}

    def fits(self, c: CorePreset) -> bool:
        lim, a = self.limits(), self.preset_area(c)
        return all(a[k] <= lim[k] + 1e-9 for k in RESOURCES)

    def options(self) -> list[Option]:
        """Every (device operation, preset) pairing there is."""
        return [
            Option(d, c, hw_cost(self.params, d, c, self.transfer))
            for d in self.ops
            for c in self.presets
            if c.core == d.core
        ]

    def sw_ms(self, name: str, op: str) -> float:
        return self.software.work_us(name, work(self.params, op)[name]) / 1000.0

    def works_sw_ms(self, works: Sequence[str], ops: Sequence[str]) -> float:
        return sum(self.sw_ms(w, op) for w in works for op in ops)


@dataclass(frozen=True)
class Option:
    """A device operation on a preset, with its cost."""

    op: DeviceOp
    preset: CorePreset
    cost: Cost


@dataclass
class Choice:
    """How work items run: in software (one item), or a device operation on a preset."""

    works: tuple[str, ...]
    runs_on: str
    device_op: str
    per_op: dict[str, dict[str, float]]
    """KEM operation -> units (of the first item), calls, sw_ms, device_ms, transfer_ms,
    total_ms."""


@dataclass
class MlkemPlan:
    problem: Problem
    presets: list[CorePreset]
    choices: list[Choice]
    notes: list[str]

    def latency_ms(self, op: str) -> float:
        rest = self.problem.software.rest_us / 1000.0
        return rest + sum(c.per_op[op]["total_ms"] for c in self.choices)

    def sw_only_ms(self, op: str) -> float:
        rest = self.problem.software.rest_us / 1000.0
        return rest + sum(self.problem.sw_ms(w, op) for w in WORKS)

    def used(self) -> dict[str, float]:
        tot = dict.fromkeys(RESOURCES, 0.0)
        for c in self.presets:
            for k, v in self.problem.preset_area(c).items():
                tot[k] += v
        return tot

    def placement(self) -> dict[str, str]:
        """Work item -> ``software`` or the preset (``ntt_acc:mlkem``) it runs on."""
        return {w: c.runs_on for c in self.choices for w in c.works}

    def to_json(self) -> dict[str, Any]:
        pb = self.problem
        return {
            "kem": pb.params.name,
            "k": pb.params.k,
            "device": pb.device.name,
            "software": {
                "profile": pb.software.name,
                "how": pb.software.how,
                "us_per": {
                    "ntt": pb.software.ntt_us,
                    "invntt": pb.software.invntt_us,
                    "basemul_pair": pb.software.basemul_us,
                    "keccak_f": pb.software.perm_us,
                    "rest_per_op": pb.software.rest_us,
                },
            },
            "interconnect": {
                "name": pb.transfer.name,
                "fixed_us": pb.transfer.fixed_us,
                "us_per_byte": pb.transfer.us_per_byte,
            },
            "cap": pb.cap,
            "objective": list(pb.objective),
            "presets": [
                {"name": c.name, "record": c.origin, "clock_mhz": c.clock_mhz, "area": c.area}
                for c in self.presets
            ],
            "placement": self.placement(),
            "choices": [
                {
                    "works": list(c.works),
                    "runs_on": c.runs_on,
                    "device_op": c.device_op,
                    **c.per_op,
                }
                for c in self.choices
            ],
            "latency_ms": {op: self.latency_ms(op) for op in KEM_OPS},
            "sw_only_ms": {op: self.sw_only_ms(op) for op in KEM_OPS},
            "speedup": {op: self.sw_only_ms(op) / self.latency_ms(op) for op in KEM_OPS},
            "used": self.used(),
            "available": pb.limits(),
            "notes": self.notes,
        }


LUT_TIE_BREAK_NS = 1e-3
"""Among equally fast plans, the one of fewer LUTs."""
SCALE_NS = 1e6
"""The programme's costs are in ns: HiGHS's absolute gap (1e-6) then stays below the LUT
tie-break (ntt_acc's mlkem and mlkem_kred presets take the same cycles)."""


def solve(pb: Problem) -> tuple[list[int], list[int]]:
    """(chosen option indices into :meth:`Problem.options`, placed preset indices)."""
    opts = pb.options()
    presets = pb.presets
    lim = pb.limits()
    got = solve_placement(
        PlacementMilp(
            option_cost=[
                SCALE_NS * (o.cost.total(pb.objective) - pb.works_sw_ms(o.op.works, pb.objective))
                for o in opts
            ],
            option_unit=[presets.index(o.preset) for o in opts],
            unit_cost=[LUT_TIE_BREAK_NS * (pre.area["lut"] + 1.0) for pre in presets],
            items=[[i for i, o in enumerate(opts) if w in o.op.works] for w in WORKS],
            groups=[[j for j, pre in enumerate(presets) if pre.core == c] for c in CORES],
            area={k: [pb.preset_area(c)[k] for c in presets] for k in RESOURCES},
            limits={k: lim[k] for k in RESOURCES},
        )
    )
    if got is None:  # all-software is always feasible
        raise BikecoError("the placement solver failed")
    chosen = got[0]
    placed = sorted({presets.index(opts[i].preset) for i in chosen})
    return chosen, placed


def _software_choice(pb: Problem, w: str) -> Choice:
    per: dict[str, dict[str, float]] = {}
    for op in KEM_OPS:
        sw = pb.sw_ms(w, op)
        units = work(pb.params, op)[w].units
        per[op] = {
            "units": units,
            "calls": 0,
            "sw_ms": sw,
            "device_ms": 0.0,
            "transfer_ms": 0.0,
            "total_ms": sw,
        }
    return Choice((w,), "software", "-", per)


def _device_choice(pb: Problem, o: Option) -> Choice:
    per: dict[str, dict[str, float]] = {}
    c = o.cost
    for op in KEM_OPS:
        per[op] = {
            "units": work(pb.params, op)[o.op.works[0]].units,
            "calls": c.calls[op],
            "sw_ms": pb.works_sw_ms(o.op.works, (op,)),
            "device_ms": c.device_ms[op],
            "transfer_ms": c.transfer_ms[op],
            "total_ms": c.device_ms[op] + c.transfer_ms[op],
        }
    return Choice(o.op.works, o.preset.name, o.op.op, per)


def plan(pb: Problem) -> MlkemPlan:
    """The least-latency placement of ``pb`` within its device's budget."""
    if not pb.presets:
        raise BikecoError("no ML-KEM core presets: no NTT or sampler records in the results")
    if not any(pb.fits(c) for c in pb.presets):
        small = min(pb.presets, key=lambda c: c.area["lut"])
        need = ", ".join(f"{pb.preset_area(small)[k]:g} {k}" for k in RESOURCES)
        have = ", ".join(f"{v:g} {k}" for k, v in pb.limits().items())
        raise NothingFitsError(
            f"no ML-KEM core fits {pb.device.name} at cap {pb.cap:g} (the smallest, "
            f"{small.name}, needs {need}; available {have})"
        )
    chosen, placed = solve(pb)
    opts = pb.options()
    on_device = [opts[i] for i in chosen]
    covered = {w for o in on_device for w in o.op.works}
    choices = [_device_choice(pb, o) for o in on_device]
    choices += [_software_choice(pb, w) for w in WORKS if w not in covered]
    choices.sort(key=lambda c: WORKS.index(c.works[0]))
    notes = []
    if any(o.preset.core == "keccak" for o in on_device):
        notes.append(
            "keccak_sampler_acc has no ML-KEM operation yet: sampling and hashing on it are "
            "projected from keccak_core's cycles per permutation and the sampler records' area"
        )
    return MlkemPlan(pb, [pb.presets[j] for j in placed], choices, notes)


def latency_of(pb: Problem, chosen: Sequence[int]) -> float:
    """The objective's latency (ms, summed over :attr:`Problem.objective`) with the options
    ``chosen`` (indices into :meth:`Problem.options`) on the device and the rest in software;
    for checking :func:`solve`."""
    opts = [pb.options()[i] for i in chosen]
    covered = {w for o in opts for w in o.op.works}
    tot = len(pb.objective) * pb.software.rest_us / 1000.0
    tot += pb.works_sw_ms([w for w in WORKS if w not in covered], pb.objective)
    return tot + sum(o.cost.total(pb.objective) for o in opts)
