"""Python binding of libbike (``bike.h`` and ``ops.h``) over its shared library, with ctypes.

ctypes because it is in the standard library: nothing to install or compile, and the C API is
small and flat (integers, byte buffers, one struct). Every call checks its buffer lengths and
index ranges before reaching C, and a non-zero return code becomes :class:`BikeError`.

Usage::

    from bikeco.libbike import Libbike
    lib = Libbike()                       # or Libbike("/opt/bike/lib/libbike.so.0")
    pk, sk = lib.keypair(1)
    ct, ss = lib.encaps(1, pk)
    assert lib.decaps(1, ct, sk) == ss

Polynomials of R = GF(2)[x]/(x^r - 1) are ``bytes`` of ``r_bytes`` (little-endian bits, the
public-key format) with the bits at and above r clear; support lists are lists of ``int``.
The ops.h functions are bound to the exact libbike release (its symbol version), like C callers.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from bikeco.errors import BikecoError
from bikeco.paths import repo_root

SHARED_SECRET_BYTES = 32
COINS_BYTES = 64
M_BYTES = 32
HASH_OUT_BYTES = 32
SHA3_384_BYTES = 48

_u8p = ctypes.POINTER(ctypes.c_uint8)
_u32p = ctypes.POINTER(ctypes.c_uint32)
_u64p = ctypes.POINTER(ctypes.c_uint64)
_size = ctypes.c_size_t
_int = ctypes.c_int


class BikeError(BikecoError):
    """libbike returned an error: ``code`` is its return code (BIKE_ERR_*), the message its
    ``bike_strerror`` text."""

    def __init__(self, function: str, code: int, text: str) -> None:
        super().__init__(f"{function}: {text} (libbike code {code})")
        self.function = function
        self.code = code
        self.text = text


class LibbikeNotFoundError(BikecoError):
    """No libbike shared library could be loaded."""


class _Params(ctypes.Structure):
    _fields_ = [
        ("level", ctypes.c_int),
        ("r", ctypes.c_uint32),
        ("d", ctypes.c_uint32),
        ("t", ctypes.c_uint32),
        ("r_bytes", ctypes.c_uint32),
        ("r_qwords", ctypes.c_uint32),
        ("pk_bytes", ctypes.c_uint32),
        ("ct_bytes", ctypes.c_uint32),
        ("sk_bytes", ctypes.c_uint32),
        ("th_a", ctypes.c_uint64),
        ("th_b", ctypes.c_uint64),
        ("th_min", ctypes.c_uint32),
        ("bg_threshold", ctypes.c_uint32),
        ("nb_iter", ctypes.c_uint32),
        ("tau", ctypes.c_uint32),
    ]


@dataclass(frozen=True)
class Params:
    """The parameters of a level (``bike_params`` of ops.h)."""

    level: int
    r: int
    d: int
    t: int
    r_bytes: int
    r_qwords: int
    pk_bytes: int
    ct_bytes: int
    sk_bytes: int
    th_a: int
    th_b: int
    th_min: int
    bg_threshold: int
    nb_iter: int
    tau: int


def candidate_paths(path: str | os.PathLike[str] | None = None) -> list[str]:
    """Where :class:`Libbike` looks, in order: ``path``, ``$BIKE_LIB``, the repository's
    ``build/lib/libbike.so``, then the system loader's ``libbike.so.0`` (e.g. after
    ``cmake --install`` into a prefix on the loader's path or ``LD_LIBRARY_PATH``)."""
    if path is not None:
        return [os.fspath(path)]
    out: list[str] = []
    env = os.environ.get("BIKE_LIB")
    if env:
        out.append(env)
    built = repo_root() / "build" / "lib" / "libbike.so"
    if built.exists():
        out.append(str(built))
    out.append("libbike.so.0")
    found = ctypes.util.find_library("bike")
    if found and found not in out:
        out.append(found)
    return out


def _load(path: str | os.PathLike[str] | None) -> tuple[ctypes.CDLL, str]:
    tried: list[str] = []
    for cand in candidate_paths(path):
        try:
            return ctypes.CDLL(cand), cand
        except OSError as exc:
            tried.append(f"{cand} ({exc})")
            if path is not None or cand == os.environ.get("BIKE_LIB"):
                break  # an explicit choice that fails is not silently replaced
    raise LibbikeNotFoundError(
        "cannot load libbike: tried " + "; ".join(tried) + ". Build it (make build), "
        "pass its path, or set BIKE_LIB=/path/to/libbike.so.0"
    )


def _bytes_in(name: str, data: bytes, length: int) -> ctypes.Array[ctypes.c_uint8]:
    if len(data) != length:
        raise ValueError(f"{name} must be {length} bytes, got {len(data)}")
    return (ctypes.c_uint8 * length).from_buffer_copy(data)


def _u8(n: int) -> ctypes.Array[ctypes.c_uint8]:
    return (ctypes.c_uint8 * n)()


class Libbike:
    """The loaded libbike shared library."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        if sys.byteorder != "little":
            raise LibbikeNotFoundError("the binding's polynomial layout needs a little-endian host")
        self._lib, self.path = _load(path)
        self._declare()

    @property
    def raw(self) -> ctypes.CDLL:
        """The library with every function's C signature declared, for callers that prepare
        their own ctypes arguments and want no checks between them and C (the benchmark)."""
        return self._lib

    def params_ptr(self, level: int) -> ctypes._Pointer[_Params]:
        """The library's ``const bike_params *`` of a level, for :attr:`raw` calls."""
        return self._p(level)

    # ------------------------------------------------------------------ declarations
    def _fn(self, name: str, res: object, *args: object) -> None:
        try:
            fn = getattr(self._lib, name)
        except AttributeError:
            raise LibbikeNotFoundError(f"{self.path} does not export {name}") from None
        fn.restype = res
        fn.argtypes = list(args)

    def _declare(self) -> None:
        f = self._fn
        cp = ctypes.c_char_p
        f("bike_version", cp)
        for n in ("bike_public_key_bytes", "bike_secret_key_bytes", "bike_ciphertext_bytes"):
            f(n, _size, _int)
        f("bike_keypair", _int, _int, _u8p, _size, _u8p, _size)
        f("bike_keypair_derand", _int, _int, _u8p, _size, _u8p, _size, _u8p)
        f("bike_keypair_batch_derand", _int, _int, _size, _u8p, _size, _u8p, _size, _u8p, _size)
        f("bike_encaps", _int, _int, _u8p, _size, _u8p, _u8p, _size)
        f("bike_encaps_derand", _int, _int, _u8p, _size, _u8p, _u8p, _size, _u8p)
        f("bike_decaps", _int, _int, _u8p, _u8p, _size, _u8p, _size)
        f("bike_strerror", cp, _int)
        f("bike_set_backend", _int, cp)
        f("bike_backend_name", cp)
        f("bike_backend_at", cp, _size)
        f("bike_backend_supported", _int, cp)
        f("bike_cpu_features", cp)
        pp = ctypes.POINTER(_Params)
        f("bike_params_get", pp, _int)
        f("bike_keccak_f1600", None, _u64p)
        f("bike_sha3_384", None, _u8p, _u8p, _size)
        f("bike_shake256", None, _u8p, _size, _u8p, _size)
        f("bike_sample_keygen", None, pp, _u32p, _u32p, _u8p)
        f("bike_poly_from_indices", None, pp, _u64p, _u32p, ctypes.c_uint32)
        f("bike_function_h", None, pp, _u64p, _u64p, _u32p, _u8p)
        f("bike_function_l", None, pp, _u8p, _u64p, _u64p)
        f("bike_function_k", None, pp, _u8p, _u8p, _u8p)
        f("bike_gf2x_mul", None, pp, _u64p, _u64p, _u64p)
        f("bike_gf2x_sqr_k", None, pp, _u64p, _u64p, ctypes.c_uint64)
        f("bike_gf2x_inv", None, pp, _u64p, _u64p)
        f("bike_gf2x_rotr", None, pp, _u64p, _u64p, ctypes.c_uint32)
        f("bike_gf2x_mul_sparse", None, pp, _u64p, _u32p, ctypes.c_uint32, _u64p)
        f("bike_upc", None, pp, _u8p, _u32p, ctypes.c_uint32, _u64p)
        f("bike_poly_weight", ctypes.c_uint32, pp, _u64p)
        f("bike_threshold", ctypes.c_uint32, pp, ctypes.c_uint32)
        f("bike_decode", ctypes.c_uint64, pp, _u64p, _u64p, _u64p, _u32p, _u32p)

    def _check(self, function: str, rc: int) -> None:
        if rc != 0:
            raise BikeError(function, rc, self.strerror(rc))

    # ------------------------------------------------------------------ bike.h
    def version(self) -> str:
        """The loaded library's release, e.g. ``"0.1.0"``."""
        return str(self._lib.bike_version().decode())

    def strerror(self, rc: int) -> str:
        """libbike's description of a return code."""
        return str(self._lib.bike_strerror(rc).decode())

    def _sizes(self, level: int) -> tuple[int, int, int]:
        sizes = (
            int(self._lib.bike_public_key_bytes(level)),
            int(self._lib.bike_secret_key_bytes(level)),
            int(self._lib.bike_ciphertext_bytes(level)),
        )
        if 0 in sizes:
            raise BikeError("level", -1, self.strerror(-1))
        return sizes

    def public_key_bytes(self, level: int) -> int:
        return self._sizes(level)[0]

    def secret_key_bytes(self, level: int) -> int:
        return self._sizes(level)[1]

    def ciphertext_bytes(self, level: int) -> int:
        return self._sizes(level)[2]

    def keypair(self, level: int) -> tuple[bytes, bytes]:
        """A fresh key pair ``(pk, sk)`` from the operating system's randomness."""
        pk_n, sk_n, _ = self._sizes(level)
        pk, sk = _u8(pk_n), _u8(sk_n)
        self._check("bike_keypair", self._lib.bike_keypair(level, pk, pk_n, sk, sk_n))
        return bytes(pk), bytes(sk)

    def keypair_derand(self, level: int, coins: bytes) -> tuple[bytes, bytes]:
        """The key pair of 64 bytes of coins (seed of h0, h1 || sigma)."""
        pk_n, sk_n, _ = self._sizes(level)
        c = _bytes_in("coins", coins, COINS_BYTES)
        pk, sk = _u8(pk_n), _u8(sk_n)
        self._check(
            "bike_keypair_derand", self._lib.bike_keypair_derand(level, pk, pk_n, sk, sk_n, c)
        )
        return bytes(pk), bytes(sk)

    def encaps(self, level: int, pk: bytes) -> tuple[bytes, bytes]:
        """``(ciphertext, shared secret)`` for public key ``pk``."""
        pk_n, _, ct_n = self._sizes(level)
        p = _bytes_in("public key", pk, pk_n)
        ct, ss = _u8(ct_n), _u8(SHARED_SECRET_BYTES)
        self._check("bike_encaps", self._lib.bike_encaps(level, ct, ct_n, ss, p, pk_n))
        return bytes(ct), bytes(ss)

    def encaps_derand(self, level: int, pk: bytes, coins: bytes) -> tuple[bytes, bytes]:
        """Encapsulation with message m = the first 32 of 64 bytes of coins."""
        pk_n, _, ct_n = self._sizes(level)
        p = _bytes_in("public key", pk, pk_n)
        c = _bytes_in("coins", coins, COINS_BYTES)
        ct, ss = _u8(ct_n), _u8(SHARED_SECRET_BYTES)
        self._check(
            "bike_encaps_derand", self._lib.bike_encaps_derand(level, ct, ct_n, ss, p, pk_n, c)
        )
        return bytes(ct), bytes(ss)

    def decaps(self, level: int, ct: bytes, sk: bytes) -> bytes:
        """The shared secret of ``ct`` (implicit rejection for a bad ciphertext)."""
        _, sk_n, ct_n = self._sizes(level)
        c = _bytes_in("ciphertext", ct, ct_n)
        s = _bytes_in("secret key", sk, sk_n)
        ss = _u8(SHARED_SECRET_BYTES)
        self._check("bike_decaps", self._lib.bike_decaps(level, ss, c, ct_n, s, sk_n))
        return bytes(ss)

    def backends(self) -> list[str]:
        """The back ends compiled in, slowest first."""
        out: list[str] = []
        while (name := self._lib.bike_backend_at(len(out))) is not None:
            out.append(name.decode())
        return out

    def backend_name(self) -> str:
        return str(self._lib.bike_backend_name().decode())

    def backend_supported(self, name: str) -> bool:
        return bool(self._lib.bike_backend_supported(name.encode()))

    def set_backend(self, name: str | None) -> None:
        """Use back end ``name`` (``None`` or ``"auto"``: the automatic choice)."""
        arg = None if name is None else name.encode()
        self._check("bike_set_backend", self._lib.bike_set_backend(arg))

    def cpu_features(self) -> list[str]:
        return str(self._lib.bike_cpu_features().decode()).split()

    # ------------------------------------------------------------------ ops.h
    def _p(self, level: int) -> ctypes._Pointer[_Params]:
        p = self._lib.bike_params_get(level)
        if not p:
            raise BikeError("bike_params_get", -1, self.strerror(-1))
        return p  # type: ignore[no-any-return]

    def params(self, level: int) -> Params:
        """The parameters of a level."""
        c = self._p(level).contents
        return Params(**{f[0]: int(getattr(c, f[0])) for f in _Params._fields_})

    def poly_in(
        self, level: int, data: bytes, name: str = "polynomial"
    ) -> ctypes.Array[ctypes.c_uint64]:
        """A polynomial's bytes as the library's word array (checked: length, bits above r)."""
        p = self._p(level).contents
        if len(data) != p.r_bytes:
            raise ValueError(f"{name} must be {p.r_bytes} bytes, got {len(data)}")
        if int.from_bytes(data, "little") >> p.r:
            raise ValueError(f"{name} has bits set at or above r = {p.r}")
        n = int(p.r_qwords)
        return (ctypes.c_uint64 * n).from_buffer_copy(data.ljust(8 * n, b"\0"))

    def poly_out(self, level: int, words: ctypes.Array[ctypes.c_uint64]) -> bytes:
        """A word array as the polynomial's ``r_bytes`` bytes."""
        return bytes(words)[: self._p(level).contents.r_bytes]

    def _poly_new(self, level: int) -> ctypes.Array[ctypes.c_uint64]:
        return (ctypes.c_uint64 * int(self._p(level).contents.r_qwords))()

    def indices_in(
        self, level: int, idx: Sequence[int], bound: int | None = None
    ) -> ctypes.Array[ctypes.c_uint32]:
        """A support list as a uint32 array, every position checked to be below ``bound``
        (default r)."""
        top = self._p(level).contents.r if bound is None else bound
        for i in idx:
            if not 0 <= i < top:
                raise ValueError(f"index {i} is not in [0, {top})")
        return (ctypes.c_uint32 * max(1, len(idx)))(*idx)

    def keccak_f1600(self, state: Sequence[int]) -> list[int]:
        """Keccak-f[1600] of 25 64-bit lanes."""
        if len(state) != 25:
            raise ValueError(f"the Keccak state has 25 lanes, got {len(state)}")
        s = (ctypes.c_uint64 * 25)(*state)
        self._lib.bike_keccak_f1600(s)
        return list(s)

    def sha3_384(self, data: bytes) -> bytes:
        out = _u8(SHA3_384_BYTES)
        self._lib.bike_sha3_384(out, _bytes_in("input", data, len(data)), len(data))
        return bytes(out)

    def shake256(self, data: bytes, outlen: int) -> bytes:
        if outlen < 0:
            raise ValueError("outlen must be >= 0")
        out = _u8(outlen)
        self._lib.bike_shake256(out, outlen, _bytes_in("input", data, len(data)), len(data))
        return bytes(out)

    def sample_keygen(self, level: int, seed: bytes) -> tuple[list[int], list[int]]:
        """The supports of h0 and h1 (d positions each) drawn from a 32-byte seed."""
        d = self._p(level).contents.d
        h0, h1 = (ctypes.c_uint32 * d)(), (ctypes.c_uint32 * d)()
        self._lib.bike_sample_keygen(self._p(level), h0, h1, _bytes_in("seed", seed, M_BYTES))
        return list(h0), list(h1)

    def poly_from_indices(self, level: int, idx: Sequence[int]) -> bytes:
        """The polynomial of a support of distinct positions below r."""
        if len(set(idx)) != len(idx):
            raise ValueError("the positions must be distinct")
        a = self._poly_new(level)
        self._lib.bike_poly_from_indices(self._p(level), a, self.indices_in(level, idx), len(idx))
        return self.poly_out(level, a)

    def function_h(self, level: int, m: bytes) -> tuple[bytes, bytes, list[int]]:
        """H(m): the error ``(e0, e1)`` of weight t and its positions in [0, 2r) as drawn."""
        t = self._p(level).contents.t
        e0, e1 = self._poly_new(level), self._poly_new(level)
        idx = (ctypes.c_uint32 * t)()
        self._lib.bike_function_h(self._p(level), e0, e1, idx, _bytes_in("m", m, M_BYTES))
        return self.poly_out(level, e0), self.poly_out(level, e1), list(idx)

    def function_l(self, level: int, e0: bytes, e1: bytes) -> bytes:
        out = _u8(HASH_OUT_BYTES)
        a, b = self.poly_in(level, e0, "e0"), self.poly_in(level, e1, "e1")
        self._lib.bike_function_l(self._p(level), out, a, b)
        return bytes(out)

    def function_k(self, level: int, m: bytes, ct: bytes) -> bytes:
        out = _u8(HASH_OUT_BYTES)
        c = _bytes_in("ciphertext", ct, self._p(level).contents.ct_bytes)
        self._lib.bike_function_k(self._p(level), out, _bytes_in("m", m, M_BYTES), c)
        return bytes(out)

    def gf2x_mul(self, level: int, a: bytes, b: bytes) -> bytes:
        """a * b mod (x^r - 1)."""
        c = self._poly_new(level)
        self._lib.bike_gf2x_mul(self._p(level), c, self.poly_in(level, a), self.poly_in(level, b))
        return self.poly_out(level, c)

    def gf2x_sqr_k(self, level: int, a: bytes, k: int) -> bytes:
        """a^(2^k) mod (x^r - 1)."""
        if not 0 <= k < 1 << 64:
            raise ValueError("k must fit in 64 bits")
        c = self._poly_new(level)
        self._lib.bike_gf2x_sqr_k(self._p(level), c, self.poly_in(level, a), k)
        return self.poly_out(level, c)

    def gf2x_inv(self, level: int, a: bytes) -> bytes:
        """a^-1 mod (x^r - 1); a must have odd weight."""
        aw = self.poly_in(level, a)
        if self._lib.bike_poly_weight(self._p(level), aw) % 2 == 0:
            raise ValueError("only a polynomial of odd weight is invertible")
        c = self._poly_new(level)
        self._lib.bike_gf2x_inv(self._p(level), c, aw)
        return self.poly_out(level, c)

    def gf2x_rotr(self, level: int, a: bytes, k: int) -> bytes:
        """a rotated right by k < r bits."""
        self.indices_in(level, [k])
        c = self._poly_new(level)
        self._lib.bike_gf2x_rotr(self._p(level), c, self.poly_in(level, a), k)
        return self.poly_out(level, c)

    def gf2x_mul_sparse(self, level: int, idx: Sequence[int], a: bytes) -> bytes:
        """(sum of x^i for i in idx) * a mod (x^r - 1)."""
        c = self._poly_new(level)
        i = self.indices_in(level, idx)
        self._lib.bike_gf2x_mul_sparse(self._p(level), c, i, len(idx), self.poly_in(level, a))
        return self.poly_out(level, c)

    def upc(self, level: int, idx: Sequence[int], s: bytes) -> list[int]:
        """Unsatisfied parity-check counts of syndrome s against the support idx."""
        if len(idx) > 255:
            raise ValueError("at most 255 positions (the counters are 8-bit)")
        r = self._p(level).contents.r
        out = _u8(r)
        i = self.indices_in(level, idx)
        self._lib.bike_upc(self._p(level), out, i, len(idx), self.poly_in(level, s, "s"))
        return list(out)

    def poly_weight(self, level: int, a: bytes) -> int:
        return int(self._lib.bike_poly_weight(self._p(level), self.poly_in(level, a)))

    def threshold(self, level: int, syndrome_weight: int) -> int:
        """The BGF threshold T(S)."""
        if not 0 <= syndrome_weight < 1 << 32:
            raise ValueError("the syndrome weight must fit in 32 bits")
        return int(self._lib.bike_threshold(self._p(level), syndrome_weight))

    def decode(
        self, level: int, s: bytes, h0_idx: Sequence[int], h1_idx: Sequence[int]
    ) -> tuple[bool, bytes, bytes]:
        """Black-Gray-Flip decoding: ``(success, e0, e1)``."""
        d = self._p(level).contents.d
        if len(h0_idx) != d or len(h1_idx) != d:
            raise ValueError(f"each support has d = {d} positions")
        e0, e1 = self._poly_new(level), self._poly_new(level)
        ok = self._lib.bike_decode(
            self._p(level),
            e0,
            e1,
            self.poly_in(level, s, "s"),
            self.indices_in(level, h0_idx),
            self.indices_in(level, h1_idx),
        )
        return bool(ok), self.poly_out(level, e0), self.poly_out(level, e1)


_DEFAULT: Libbike | None = None


def default() -> Libbike:
    """One shared :class:`Libbike` from the default search (see :func:`candidate_paths`)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Libbike()
    return _DEFAULT
