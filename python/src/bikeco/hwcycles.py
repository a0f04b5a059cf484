"""Cycle counts of every hardware unit and KEM core from their documented formulas.

One source for the formulas of ``hw/ip/<ip>/doc/<ip>.md``: the designer
(:mod:`bikeco.design`) and the hardware flow (``python -m hwflow kem-frontier``) compute with
them, every testbench build checks its core against them (:mod:`bikeco.tbcycles` writes their
values into its ``tb_cycles.h``), and the tests require them to give every committed results
record's simulated cycles exactly (``python/tests/test_hwcycles.py``): a change of a core's
schedule that its doc and this module miss fails its simulation and there.

A KEM core's primitive = its units' operations (inversion, decoder, products) + sampling and
hashing (the Keccak and sampler formulas) + 2N word loops and a constant of hand-overs
(:func:`kem_rest`). Records exist at L1 and L3; at L5 the same formulas are applied
unsimulated.

Parameters are named as the RTL names them; ``W`` is 64 in every KEM core and accelerator.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bikeco.levels import LEVELS, NB_ITER

KEM_W = 64
"""Word width of the KEM cores' units and of the bus devices."""
PRIMS: tuple[str, ...] = ("keygen", "encaps", "decaps")
KEM_HANDOVER: dict[str, int] = {"keygen": 9, "encaps": 14, "decaps": 18}
"""Cycles of each primitive outside its units, Keccak and 2N word loops: one per command and
a few per step (the readers' first read, the sampler's last toggle); read off the simulated
records, the same at L1 and L3 (the tests check every record)."""
SERIAL_PERMUTATION = 1249
"""keccak_serial's cycles per permutation (ip/keccak/doc, "keccak_serial")."""


@dataclass(frozen=True)
class Geometry:
    """The sizes the formulas use at one level and word width."""

    r: int
    d: int
    t: int
    w: int

    @property
    def n(self) -> int:
        """Words per polynomial, ceil(r / W)."""
        return -(-self.r // self.w)

    @property
    def h(self) -> int:
        """H = (r - 1) / 2, the exponent of the inversion's subfield."""
        return (self.r - 1) // 2

    @property
    def ha(self) -> int:
        """Words holding bits 0..H (the symmetric product's half operand)."""
        return self.h // self.w + 1

    @property
    def ms(self) -> int:
        """Symmetric products of the Itoh-Tsujii chain over H - 1: one per bit below the top,
        one more where the bit is set."""
        return sum(1 + int(b) for b in bin(self.h - 1)[3:])

    @property
    def r_bytes(self) -> int:
        return -(-self.r // 8)


def geometry(level: int, w: int = KEM_W) -> Geometry:
    lv = LEVELS[level]
    return Geometry(lv.r, lv.d, lv.t, w)


# ---- units ------------------------------------------------------------------------------------


def mul_terms(g: Geometry, kl: int, pl: int) -> tuple[int, int, int]:
    """gf2x_mul's padded words Np, general compute phase C and symmetric C_sym
    (ip/gf2x_mul/doc)."""
    m = -(-g.n // (1 << kl))
    c = 3 ** (kl - pl) * (m * m + 1)
    c_sym = g.ha * m + 1 if kl == 0 else -(-2 * 3 ** (kl - 1) // 3**pl) * (m * m + 1)
    return m << kl, c, c_sym


def mul_cycles(g: Geometry, kl: int, pl: int) -> int:
    """cycles(mul) = Np + 3^(L-P) (M^2 + 1) + N + 4."""
    np_, c, _ = mul_terms(g, kl, pl)
    return np_ + c + g.n + 4


def mul_sym_cycles(g: Geometry, kl: int, pl: int) -> int:
    """cycles(mul, sym) = Np + C_sym + 2N + 6."""
    np_, _, c_sym = mul_terms(g, kl, pl)
    return np_ + c_sym + 2 * g.n + 6


def sqr_steps(g: Geometry, e: int, half: bool = False) -> int:
    """gf2x_sqr_k's permutation steps: S = N W / E; half mode Ha W / E + N - Ha."""
    return g.ha * g.w // e + g.n - g.ha if half else g.n * g.w // e


def sqr_k_cycles(g: Geometry, e: int, half: bool = False) -> int:
    """cycles(sqr_k) = N + S + 1."""
    return g.n + sqr_steps(g, e, half) + 1


def inv_cycles(g: Geometry, e: int, kl: int, pl: int) -> int:
    """cycles(inv) = N + 2 T_pair + MS T_sym + S + 1 (ip/gf2x_inv/doc)."""
    np_, c, c_sym = mul_terms(g, kl, pl)
    s, s_h = sqr_steps(g, e), sqr_steps(g, e, half=True)
    t_pair = s + np_ + c + 8
    t_sym = s_h + np_ + c_sym + g.n + 10
    return g.n + 2 * t_pair + g.ms * t_sym + s + 1


def inv_divstep_cycles(g: Geometry, k: int, s: int) -> int:
    """cycles(inv) = N + B (K / S + N + 1) + N + 1 with B = ceil((2r - 1) / K) batches of K
    divsteps (ip/gf2x_inv_divstep/doc)."""
    b = -(-(2 * g.r - 1) // k)
    return g.n + b * (k // s + g.n + 1) + g.n + 1


def tiles(g: Geometry, tile: int) -> int:
    """NT = ceil(N / Tile), 1 for Tile = 0."""
    return 1 if tile == 0 else -(-g.n // tile)


def sparse_cycles(g: Geometry, m: int, p: int, tile: int = 0) -> int:
    """sparse_mul of m positions on P slots: G P + N + 1 + G (N + NT) + 3, G = ceil(m / P)."""
    gg = -(-m // p)
    return gg * p + g.n + 1 + gg * (g.n + tiles(g, tile)) + 3


def sparse_dual_cycles(g: Geometry, p: int, prefetch: int = 1, tile: int = 0) -> int:
    """A Dual unit's counts then product of the D positions (ip/sparse_mul/doc): the counts'
    cycles + G (N + NT) + 4 to the product's last word, + N without Prefetch."""
    gg = -(-g.d // p)
    dual = gg * (g.n + tiles(g, tile)) + 4 + (0 if prefetch else g.n)
    return sparse_cycles(g, g.d, p, tile) + dual


def decode_cycles(g: Geometry, p: int, prefetch: int, tile: int) -> int:
    """cycles(decode) = 2D + N + (NbIter + 2) T_step + 2N (ip/bike_decoder/doc)."""
    gg = -(-g.d // p)
    nt = tiles(g, tile)
    step = 16 + gg * p + g.n + 2 * gg * (g.n + nt) + 13 + (0 if prefetch else g.n)
    return 2 * g.d + g.n + (NB_ITER + 2) * step + 2 * g.n


def decoder_product_cycles(g: Geometry, m: int, p: int, tile: int) -> int:
    """A product of m positions on the decoder's two units:
    m + 1 + G P + N + 1 + G_m (N + NT) + 4, G = ceil(D / P), G_m = ceil(ceil(m / 2) / P)."""
    gg = -(-g.d // p)
    half = (m + 1) // 2
    gm = -(-half // p)
    return m + 1 + gg * p + g.n + 1 + gm * (g.n + tiles(g, tile)) + 4


def permutation(rounds_per_cycle: int, serial: bool = False) -> int:
    """Cycles of one Keccak-f[1600]: 24 / K for keccak_core, 1,249 for keccak_serial."""
    return SERIAL_PERMUTATION if serial else 24 // rounds_per_cycle


def sha3_384_cycles(length: int, rounds_per_cycle: int, serial: bool = False) -> int:
    """keccak_core: lanes(len) + (floor(len / 104) + 1) P + 6, lanes = floor(len / 8) + 1;
    keccak_serial adds pad(len, 13): one cycle unless the domain byte falls in the last rate
    lane."""
    lanes = length // 8 + 1
    pad = int(serial and (length // 8) % 13 != 12)
    return lanes + pad + (length // 104 + 1) * permutation(rounds_per_cycle, serial) + 6


def shake256_first_lane_cycles(length: int, rounds_per_cycle: int, serial: bool = False) -> int:
    """The cycle (from the start edge) that gives SHAKE256's first output lane: lanes(len) +
    (floor(len / 136) + 1) P + 1, lanes = floor(len / 8) + 1; keccak_serial adds pad(len, 17)
    (ip/keccak/doc)."""
    lanes = length // 8 + 1
    pad = int(serial and (length // 8) % 17 != 16)
    return lanes + pad + (length // 136 + 1) * permutation(rounds_per_cycle, serial) + 1


def shake256_block_cycles(rounds_per_cycle: int, serial: bool = False) -> int:
    """Cycles between SHAKE256 output blocks: its 17 lanes and a permutation."""
    return 17 + permutation(rounds_per_cycle, serial)


def fisher_yates(c: int) -> int:
    """S(c) = 3c + c (c - 1) / 2 (ip/sampler/doc)."""
    return 3 * c + c * (c - 1) // 2


def function_h_cycles(g: Geometry, rounds_per_cycle: int) -> int:
    """function_h = 7 + P + S(t)."""
    return 7 + permutation(rounds_per_cycle) + fisher_yates(g.t)


def sample_keygen_cycles(g: Geometry, rounds_per_cycle: int) -> int:
    """sample_keygen = 8 + P + 2 S(d)."""
    return 8 + permutation(rounds_per_cycle) + 2 * fisher_yates(g.d)


def l_bytes(g: Geometry) -> int:
    """L hashes e0 || e1."""
    return 2 * g.r_bytes


def k_bytes(g: Geometry) -> int:
    """K hashes m || c0 || c1."""
    return 32 + g.r_bytes + 32


def acc_cycles(core: str, g: Geometry, params: Mapping[str, int]) -> int:
    """CYCLES of one operation of a unit behind the bus shell (ip/acc_shell/doc):
    gf2x_mul_acc: mul + N (a's words) + N + 1 (the result out); gf2x_inv_acc: inv + N + 1;
    bike_decoder_acc: decode (prefetch, no tiles) + 2N + 2; sparse_mul_acc: mul_sparse of the D
    positions + N + 1."""
    if core == "bike_decoder_acc":
        return decode_cycles(g, params["P"], 1, 0) + 2 * g.n + 2
    if core == "sparse_mul_acc":
        return sparse_cycles(g, g.d, params["P"]) + g.n + 1
    kl, pl = params["KaratsubaLevels"], params["ParallelLevels"]
    if core == "gf2x_mul_acc":
        return mul_cycles(g, kl, pl) + 2 * g.n + 1
    if core == "gf2x_inv_acc":
        return inv_cycles(g, params["E"], kl, pl) + g.n + 1
    raise KeyError(f"no cycle formula for the bus device {core}")


def keccak_sampler_acc_cycles(g: Geometry, rounds_per_cycle: int) -> dict[str, int]:
    """CYCLES of keccak_sampler_acc's operations (ip/acc_shell/doc): the sampler's and
    keccak_core's cycles plus the device's words: KEYGEN + 4 + 2 ceil(D / 2) (h0's and h1's
    packed positions out), H + 4 + 4N + 4T, L + 1, K."""
    return {
        "sample_keygen": sample_keygen_cycles(g, rounds_per_cycle) + 4 + 2 * ((g.d + 1) // 2),
        "function_h": function_h_cycles(g, rounds_per_cycle) + 4 + 4 * g.n + 4 * g.t,
        "function_l": sha3_384_cycles(l_bytes(g), rounds_per_cycle) + 1,
        "function_k": sha3_384_cycles(k_bytes(g), rounds_per_cycle),
    }


# ---- KEM cores --------------------------------------------------------------------------------

SHAPES: dict[str, tuple[int, int, int]] = {
    "full": (1, 1, 1),
    "client": (1, 0, 1),
    "server": (0, 1, 0),
    "keygen": (1, 0, 0),
    "decaps": (0, 0, 1),
}
"""bike_kem's shapes: (Keygen, Encaps, Decaps); the flow core is ``bike_kem_<shape>``."""


def kem_acc_stream_cycles(level: int, prim: str) -> int:
    """What a KEM core's bus device (bike_kem_acc) adds to the primitive's cycles in its CYCLES
    (ip/bike_kem/doc, "CYCLES"): each LOAD and STORE its words' cycles plus two, the primitive
    one more. KEYGEN C + 3N + 3D + 31, ENCAPS C + 2N + 29, DECAPS C + N + 2D + 23."""
    g = geometry(level)
    terms = {
        "keygen": 3 * g.n + 3 * g.d + 31,
        "encaps": 2 * g.n + 29,
        "decaps": g.n + 2 * g.d + 23,
    }
    return terms[prim]


def shape_prims(shape: str) -> tuple[str, ...]:
    return tuple(p for p, bit in zip(PRIMS, SHAPES[shape], strict=True) if bit)


def kem_units(g: Geometry, shape: str, p: Mapping[str, int]) -> dict[str, int]:
    """The units' part of each primitive of a shape: KeyGen's inversion and product, Encaps'
    product, Decaps' product and decode. A shape with Decaps computes every product on the
    decoder's units; the others on a sparse_mul of SparseP slots."""
    _, _, decaps = SHAPES[shape]
    tile = p.get("DecoderTile", 0)

    def product(m: int) -> int:
        if decaps:
            return decoder_product_cycles(g, m, p["DecoderP"], tile)
        return sparse_cycles(g, m, p["SparseP"])

    out = {}
    prims = shape_prims(shape)
    if "keygen" in prims:
        out["keygen"] = inv_cycles(g, p["InvE"], p["InvKaratsubaLevels"], p["InvParallelLevels"])
        out["keygen"] += product(g.d)
    if "encaps" in prims:
        out["encaps"] = product(g.t)
    if "decaps" in prims:
        dec = decode_cycles(g, p["DecoderP"], p.get("DecoderPrefetch", 1), tile)
        out["decaps"] = dec + product(g.d)
    return out


def kem_keccak(g: Geometry, rounds_per_cycle: int) -> dict[str, int]:
    """The Keccak-dependent terms outside the units: KeyGen samples h0, h1; Encaps and Decaps
    run function H and hash L and K."""
    hashes = sha3_384_cycles(l_bytes(g), rounds_per_cycle)
    hashes += sha3_384_cycles(k_bytes(g), rounds_per_cycle)
    h = function_h_cycles(g, rounds_per_cycle)
    return {
        "keygen": sample_keygen_cycles(g, rounds_per_cycle),
        "encaps": h + hashes,
        "decaps": h + hashes,
    }


def kem_rest(g: Geometry) -> dict[str, int]:
    """The terms outside the units and Keccak: 2N (KeyGen's clear and wipe, Encaps' clear and
    wipe, Decaps' zero test and wipe, N words each) plus the command's and the steps'
    hand-over cycles (:data:`KEM_HANDOVER`)."""
    return {op: 2 * g.n + c for op, c in KEM_HANDOVER.items()}


def kem_cycles(level: int, shape: str, params: Mapping[str, int]) -> dict[str, int]:
    """Cycles of each primitive of a KEM core (as its testbench names them)."""
    if params.get("KeccakSerial", 0):
        raise ValueError("the lane-serial Keccak's KEM cycles are not modelled")
    g = geometry(level)
    units = kem_units(g, shape, params)
    kec = kem_keccak(g, params["RoundsPerCycle"])
    rest = kem_rest(g)
    return {op: units[op] + kec[op] + rest[op] for op in units}


def mlkem_sample_ntt_cycles(rounds_per_cycle: int, candidates: int) -> int:
    """mlkem_sampler's SampleNTT (hw/ip/mlkem_sampler/doc): P + 1 + C + max(0, P - 5)
    floor((C - 1) / 112), C the 12-bit candidates read up to the 256th accepted one (about
    315; it depends on the public rho, i and j only)."""
    p = permutation(rounds_per_cycle)
    return p + 1 + candidates + max(0, p - 5) * ((candidates - 1) // 112)


def mlkem_cbd_cycles(rounds_per_cycle: int, eta: int) -> int:
    """mlkem_sampler's SamplePolyCBD_eta: P + 1 + 256, and for eta = 3 the stall
    max(0, P - 11) at its one SHAKE256 block boundary."""
    p = permutation(rounds_per_cycle)
    return p + 1 + 256 + (max(0, p - 11) if eta == 3 else 0)


# ---- the records' operations ------------------------------------------------------------------


def ntt_cycles(params: Mapping[str, int]) -> dict[str, int]:
    """The NTT accelerator (hw/ip/ntt/doc/ntt.md), its butterfly's latency D = 5 with DSPs
    and 7 in LUTs (UseDsp = 0; ntt_pkg::bfu_lat): L = log2 N - P layers of C = N / 2B issue
    cycles and D + 1 of drain; the inverse's scaling pass N / B + D + 1; the base
    multiplication's C slots of S = D cycles (pairwise) or 3 (coefficient-wise) and its
    drain W - S + 1, W its write delay (ntt_ctrl: R = D + 3 + (S - 1 pairwise, 1
    coefficient-wise), or R + 1 where R is a multiple of S)."""
    n, b, p = params["N"], params["B"], params["P"]
    d = 5 if params.get("UseDsp", 1) else 7
    c = n // (2 * b)
    s = d if p else 3
    ready = d + 3 + (s - 1 if p else 1)
    write = ready + (ready % s == 0)
    ntt = (n.bit_length() - 1 - p) * (c + d + 1)
    return {"ntt": ntt, "intt": ntt + n // b + d + 1, "basemul": s * c + write - s + 1}


NTT_ACC_KINDS: tuple[str, ...] = ("NTT", "INTT", "MAC", "MACINTT")
"""ntt_acc's operation kinds (ip/acc_shell/doc, "ntt behind the shell")."""


def ntt_acc_cycles(params: Mapping[str, int], kind: str, count: int) -> int:
    """CYCLES of one ntt_acc operation on ``count`` polynomials (NTT, INTT) or pairs (MAC,
    MACINTT), ip/acc_shell/doc: S = N/4 words per polynomial, K = 4/B host cycles per word
    in, K + 2 per word out; NTT, INTT: k (K S + c + 1 + (K + 2) S); MAC of one pair: 2 K S +
    c_mul + 1 + (K + 2) S; of k > 1: k (2 K S + c_mul + 1 + N/B) + (K + 2) S; MACINTT: k (2 K S
    + c_mul + 1 + N/B) + N/B + 2 + c_intt + 1 + (K + 2) S."""
    c = ntt_cycles(params)
    n, b = params["N"], params["B"]
    s, k = n // 4, 4 // b
    out = (k + 2) * s
    if kind in ("NTT", "INTT"):
        return count * (k * s + c[kind.lower()] + 1 + out)
    if kind == "MAC" and count == 1:
        return 2 * k * s + c["basemul"] + 1 + out
    pairs = count * (2 * k * s + c["basemul"] + 1 + n // b)
    if kind == "MAC":
        return pairs + out
    if kind == "MACINTT":
        return pairs + n // b + 2 + c["intt"] + 1 + out
    raise KeyError(f"no ntt_acc operation {kind} (use {', '.join(NTT_ACC_KINDS)})")


def unit_record_cycles(core: str, level: int, params: Mapping[str, int]) -> dict[str, int]:
    """Every operation a unit's results record gives, from the formulas (the decoder's and
    sparse units' Prefetch and Tile at the RTL defaults 1 and 0 when not given)."""
    if core == "ntt":  # no BIKE level
        return ntt_cycles(params)
    if core == "mlkem_sampler":  # no BIKE level; the record's sample_ntt is the maximum over
        # its vectors (data-dependent: mlkem_sample_ntt_cycles)
        rpc = params["RoundsPerCycle"]
        return {"cbd2": mlkem_cbd_cycles(rpc, 2), "cbd3": mlkem_cbd_cycles(rpc, 3)}
    w = params.get("W", KEM_W)
    g = geometry(level, w)
    if core == "gf2x_mul":
        kl, pl = params["KaratsubaLevels"], params["ParallelLevels"]
        return {"mul": mul_cycles(g, kl, pl), "mul_sym": mul_sym_cycles(g, kl, pl)}
    if core == "gf2x_sqr_k":
        e = params["E"]
        return {"sqr_k": sqr_k_cycles(g, e), "sqr_k_half": sqr_k_cycles(g, e, half=True)}
    if core == "gf2x_inv":
        kl, pl = params["KaratsubaLevels"], params["ParallelLevels"]
        return {"inv": inv_cycles(g, params["E"], kl, pl)}
    if core == "gf2x_inv_divstep":
        return {"inv": inv_divstep_cycles(g, params["K"], params["S"])}
    if core in ("sparse_mul", "sparse_upc"):
        op = "upc" if core == "sparse_upc" else "mul_sparse"
        return {op: sparse_cycles(g, g.d, params["P"], params.get("Tile", 0))}
    if core == "bike_decoder":
        p, tile = params["P"], params.get("Tile", 0)
        return {
            "decode": decode_cycles(g, p, params.get("Prefetch", 1), tile),
            "mul_d": decoder_product_cycles(g, g.d, p, tile),
            "mul_t": decoder_product_cycles(g, g.t, p, tile),
        }
    if core == "keccak":
        rpc = params["RoundsPerCycle"]
        return {"keccak_f": permutation(rpc), "sha3_384": sha3_384_cycles(l_bytes(g), rpc)}
    if core == "keccak_serial":
        return {
            "keccak_f": permutation(1, serial=True),
            "sha3_384": sha3_384_cycles(l_bytes(g), 1, serial=True),
        }
    if core == "sampler":
        rpc = params["RoundsPerCycle"]
        return {
            "function_h": function_h_cycles(g, rpc),
            "sample_keygen": sample_keygen_cycles(g, rpc),
        }
    raise KeyError(f"no cycle formula for {core}")


def record_cycles_problem(
    core: str, level: int, params: Mapping[str, object], cycles: Mapping[str, int]
) -> str | None:
    """How a results record's simulated cycles differ from the formulas (None: they
    agree); the record's integer parameters feed them. A record may give more
    operations than the formulas cover, not fewer."""
    p = {k: v for k, v in params.items() if isinstance(v, int) and not isinstance(v, bool)}
    if core.startswith("bike_kem_"):
        got = kem_cycles(level, core.removeprefix("bike_kem_"), p)
    else:
        got = unit_record_cycles(core, level, p)
    missing = sorted(set(got) - set(cycles))
    if missing:
        return f"no simulated cycles for {', '.join(missing)}"
    wrong = {op: (cycles[op], c) for op, c in got.items() if cycles[op] != c}
    if wrong:
        return "cycles differ from the formulas: " + ", ".join(
            f"{op} {sim:,} simulated, {want:,} by formula" for op, (sim, want) in wrong.items()
        )
    return None
