"""The ctypes binding of libbike: the official KATs through the derandomised calls, the ops.h
functions against their definitions, and the checks made before C is called.

Skipped, with the reason, when no shared library or KAT file is found; ``make test-python``
builds the library and sets BIKECO_TESTS_REQUIRED=1, which makes that a failure.
The KAT files hold the DRBG seed of each record, not the coins: the NIST AES-256-CTR DRBG of
PQCgenKAT_kem is re-implemented below over OpenSSL's libcrypto (AES-256 in ECB on one block,
through ctypes too), so the KAT check depends on neither the ``bike`` tool nor its DRBG.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest

from bikeco.bench import BREAKDOWN, bench_with_binding
from bikeco.cli import main as cli_main
from bikeco.libbike import BikeError, Libbike, LibbikeNotFoundError, candidate_paths
from bikeco.paths import repo_root

LEVELS = (1, 3, 5)
KAT_RECORDS = 10


def _missing(reason: str) -> NoReturn:
    """Skip for want of an input; fail instead under ``make test-python``
    (BIKECO_TESTS_REQUIRED=1), which builds and provides everything."""
    if os.environ.get("BIKECO_TESTS_REQUIRED") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def lib() -> Libbike:
    try:
        return Libbike()
    except LibbikeNotFoundError as exc:
        _missing(f"libbike binding tests need the shared library (make build): {exc}")


# ------------------------------------------------------------------ the KAT DRBG


class _Aes256:
    """One-block AES-256 encryption from libcrypto (EVP, ECB, no padding)."""

    def __init__(self) -> None:
        name = ctypes.util.find_library("crypto")
        if name is None:
            pytest.skip("the KAT DRBG needs OpenSSL's libcrypto")
        c = ctypes.CDLL(name)
        c.EVP_CIPHER_CTX_new.restype = ctypes.c_void_p
        c.EVP_CIPHER_CTX_free.argtypes = [ctypes.c_void_p]
        c.EVP_aes_256_ecb.restype = ctypes.c_void_p
        c.EVP_EncryptInit_ex.argtypes = [ctypes.c_void_p] * 5
        c.EVP_CIPHER_CTX_set_padding.argtypes = [ctypes.c_void_p, ctypes.c_int]
        c.EVP_EncryptUpdate.argtypes = [
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_int),
            ctypes.c_char_p,
            ctypes.c_int,
        ]
        self._c = c

    def block(self, key: bytes, data: bytes) -> bytes:
        c = self._c
        ctx = c.EVP_CIPHER_CTX_new()
        out = ctypes.create_string_buffer(32)
        n = ctypes.c_int(0)
        try:
            ok = (
                c.EVP_EncryptInit_ex(ctx, c.EVP_aes_256_ecb(), None, key, None) == 1
                and c.EVP_CIPHER_CTX_set_padding(ctx, 0) == 1
                and c.EVP_EncryptUpdate(ctx, out, ctypes.byref(n), data, 16) == 1
            )
        finally:
            c.EVP_CIPHER_CTX_free(ctx)
        assert ok and n.value == 16, "AES-256 failed in libcrypto"
        return out.raw[:16]


class NistDrbg:
    """AES-256-CTR DRBG of the NIST PQC KAT generator (no derivation function)."""

    def __init__(self, aes: _Aes256, entropy: bytes) -> None:
        self._aes = aes
        self._key = bytes(32)
        self._v = 0
        self._update(entropy)

    def _next_block(self) -> bytes:
        self._v = (self._v + 1) % (1 << 128)
        return self._aes.block(self._key, self._v.to_bytes(16, "big"))

    def _update(self, provided: bytes | None) -> None:
        temp = b"".join(self._next_block() for _ in range(3))
        if provided is not None:
            temp = bytes(a ^ b for a, b in zip(temp, provided, strict=True))
        self._key, self._v = temp[:32], int.from_bytes(temp[32:], "big")

    def generate(self, n: int) -> bytes:
        out = b"".join(self._next_block() for _ in range((n + 15) // 16))[:n]
        self._update(None)
        return out


def kat_dir() -> Path:
    return Path(os.environ.get("BIKE_KAT_DIR", str(repo_root().parent / "shared" / "kat")))


def kat_records(level: int, count: int) -> Iterator[dict[str, bytes]]:
    path = kat_dir() / f"PQCkemKAT_BIKE_L{level}.rsp"
    if not path.is_file():
        _missing(f"KAT file {path} not found (set BIKE_KAT_DIR)")
    rec: dict[str, bytes] = {}
    seen = 0
    for line in path.read_text(encoding="ascii").splitlines():
        key, sep, value = line.partition(" = ")
        if not sep:
            continue
        if key == "count":
            if rec:
                yield rec
                seen += 1
                if seen == count:
                    return
            rec = {}
        else:
            rec[key] = bytes.fromhex(value)
    if rec and seen < count:
        yield rec


# ------------------------------------------------------------------ tests


def test_drbg_reproduces_the_kat_seeds() -> None:
    """The DRBG itself: the master DRBG on entropy 0..47 gives the files' seeds."""
    master = NistDrbg(_Aes256(), bytes(range(48)))
    for rec in kat_records(1, 3):
        assert master.generate(48) == rec["seed"]


@pytest.mark.parametrize("level", LEVELS)
def test_kat_records(lib: Libbike, level: int) -> None:
    aes = _Aes256()
    n = 0
    for rec in kat_records(level, KAT_RECORDS):
        drbg = NistDrbg(aes, rec["seed"])
        pk, sk = lib.keypair_derand(level, drbg.generate(64))
        assert pk == rec["pk"], f"L{level} record {n}: pk"
        assert sk == rec["sk"], f"L{level} record {n}: sk"
        ct, ss = lib.encaps_derand(level, pk, drbg.generate(64))
        assert ct == rec["ct"], f"L{level} record {n}: ct"
        assert ss == rec["ss"], f"L{level} record {n}: ss"
        assert lib.decaps(level, ct, sk) == ss
        n += 1
    assert n == KAT_RECORDS


@pytest.mark.parametrize("level", LEVELS)
def test_random_round_trip_and_implicit_rejection(lib: Libbike, level: int) -> None:
    pk, sk = lib.keypair(level)
    assert (len(pk), len(sk)) == (lib.public_key_bytes(level), lib.secret_key_bytes(level))
    ct, ss = lib.encaps(level, pk)
    assert lib.decaps(level, ct, sk) == ss
    bad = bytes([ct[0] ^ 1]) + ct[1:]
    assert lib.decaps(level, bad, sk) != ss


def test_errors_carry_code_and_text(lib: Libbike) -> None:
    with pytest.raises(BikeError) as info:
        lib.keypair(2)
    assert info.value.code == -1
    assert info.value.text == lib.strerror(-1) != ""
    p = lib.params(1)
    bad_pk = b"\xff" * p.pk_bytes  # bits above r set: the library's BIKE_ERR_KEY
    with pytest.raises(BikeError) as info:
        lib.encaps(1, bad_pk)
    assert info.value.code == -3
    assert info.value.text == lib.strerror(-3) and "libbike code -3" in str(info.value)
    with pytest.raises(ValueError, match="1541 bytes"):
        lib.encaps(1, b"\0" * 10)
    with pytest.raises(ValueError, match="64 bytes"):
        lib.keypair_derand(1, b"\0" * 63)
    with pytest.raises(BikeError) as info:
        lib.set_backend("no-such-backend")
    assert info.value.code == -6


def test_version_and_backends(lib: Libbike) -> None:
    header = (repo_root() / "lib" / "include" / "bike" / "bike.h").read_text(encoding="utf-8")
    assert f'#define BIKE_VERSION_STRING "{lib.version()}"' in header
    names = lib.backends()
    assert "portable" in names
    assert lib.backend_supported("portable")
    assert lib.backend_name() in names


def test_library_search(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An explicit path or $BIKE_LIB that does not load is an error, not silently replaced."""
    missing = tmp_path / "libbike.so.0"
    assert candidate_paths(missing) == [str(missing)]
    with pytest.raises(LibbikeNotFoundError, match=str(missing)):
        Libbike(missing)
    monkeypatch.setenv("BIKE_LIB", str(missing))
    assert candidate_paths()[0] == str(missing)
    with pytest.raises(LibbikeNotFoundError, match="BIKE_LIB"):
        Libbike()


def _bits(level: int, lib: Libbike, positions: set[int]) -> bytes:
    p = lib.params(level)
    return sum(1 << i for i in positions).to_bytes(p.r_bytes, "little")


def _positions(data: bytes) -> set[int]:
    v = int.from_bytes(data, "little")
    return {i for i in range(v.bit_length()) if v >> i & 1}


def _mul_ref(r: int, a: bytes, b: bytes) -> set[int]:
    out: set[int] = set()
    for i in _positions(a):
        for j in _positions(b):
            out ^= {(i + j) % r}
    return out


def test_hashes(lib: Libbike) -> None:
    data = bytes(range(200))
    assert lib.sha3_384(data) == hashlib.sha3_384(data).digest()
    assert lib.shake256(data, 300) == hashlib.shake_256(data).digest(300)
    state = lib.keccak_f1600([0] * 25)
    # Keccak-f[1600] of the zero state, lane 0 (the reference's test vector).
    assert state[0] == 0xF1258F7940E1DDE7


@pytest.mark.parametrize("level", LEVELS)
def test_polynomial_ops(lib: Libbike, level: int) -> None:
    p = lib.params(level)
    r = p.r
    a = _bits(level, lib, {0, 5, r - 1, 123})
    b = _bits(level, lib, {1, r - 2, 77})
    assert _positions(lib.gf2x_mul(level, a, b)) == _mul_ref(r, a, b)
    assert _positions(lib.gf2x_mul_sparse(level, [1, r - 2, 77], a)) == _mul_ref(r, a, b)
    assert lib.poly_weight(level, a) == 4
    assert _positions(lib.gf2x_rotr(level, a, 5)) == {(i - 5) % r for i in _positions(a)}
    assert _positions(lib.gf2x_sqr_k(level, a, 3)) == {(i * 8) % r for i in _positions(a)}
    odd = _bits(level, lib, {0, 3, 9})
    inv = lib.gf2x_inv(level, odd)
    assert _positions(lib.gf2x_mul(level, odd, inv)) == {0}
    assert lib.poly_from_indices(level, [3, 0, 9]) == odd
    with pytest.raises(ValueError, match="odd weight"):
        lib.gf2x_inv(level, a)
    with pytest.raises(ValueError, match=f"must be {p.r_bytes} bytes"):
        lib.gf2x_mul(level, a[:-1], b)
    with pytest.raises(ValueError, match="bits set at or above r"):
        lib.gf2x_mul(level, b"\xff" * p.r_bytes, b)
    with pytest.raises(ValueError, match=r"not in \[0, "):
        lib.gf2x_mul_sparse(level, [r], a)


@pytest.mark.parametrize("level", LEVELS)
def test_kem_pieces_compose(lib: Libbike, level: int) -> None:
    """Keygen, H, L, K and the decoder, called one by one, agree with the KEM calls."""
    p = lib.params(level)
    coins = bytes(range(64))
    pk, _sk = lib.keypair_derand(level, coins)
    h0_idx, h1_idx = lib.sample_keygen(level, coins[:32])
    assert len(h0_idx) == len(h1_idx) == p.d
    h0, h1 = lib.poly_from_indices(level, h0_idx), lib.poly_from_indices(level, h1_idx)
    assert lib.gf2x_mul(level, h1, lib.gf2x_inv(level, h0)) == pk
    m = bytes(range(100, 132))
    e0, e1, e_idx = lib.function_h(level, m)
    assert lib.poly_weight(level, e0) + lib.poly_weight(level, e1) == p.t == len(e_idx)
    ct, ss = lib.encaps_derand(level, pk, m + bytes(32))
    assert lib.function_k(level, m, ct) == ss
    c0 = ct[: p.r_bytes]
    assert int.from_bytes(c0, "little") ^ int.from_bytes(
        lib.gf2x_mul(level, e1, pk), "little"
    ) == int.from_bytes(e0, "little")
    s = lib.gf2x_mul(level, c0, h0)
    ok, d0, d1 = lib.decode(level, s, h0_idx, h1_idx)
    assert ok and (d0, d1) == (e0, e1)
    l_bytes = lib.function_l(level, e0, e1)
    assert bytes(a ^ b for a, b in zip(ct[p.r_bytes :], l_bytes, strict=True)) == m
    upc = lib.upc(level, h0_idx, s)
    assert len(upc) == p.r and max(upc) <= p.d
    assert lib.threshold(level, 0) == p.th_min


def test_bench_through_the_binding_matches_the_tool(lib: Libbike) -> None:
    """The in-process benchmark gives the record ``bike bench --json`` gives: the same items,
    and breakdowns made of the same operations (checked on the tool's own output when built)."""
    raw, profiles = bench_with_binding(lib, level=1, runs=3)
    (entry,) = raw["results"]
    assert entry["backend"] == lib.backend_name()
    for prim, parts in BREAKDOWN.items():
        for part, op in parts.items():
            assert entry["breakdown"][prim][part] == entry["operations"][op]["median_ns"] > 0
    assert profiles[0].level == 1 and profiles[0].primitives["decaps"] > 0
    batch = entry["keygen_batch"]
    assert list(batch) == ["1", "4", "16"] and all(t["median_ns"] > 0 for t in batch.values())
    tool = repo_root() / "build" / "bin" / "bike"
    if not tool.exists():
        pytest.skip(f"{tool} not built: the comparison with the tool's record was not made")
    ref = json.loads(
        subprocess.run(
            [str(tool), "bench", "--json", "--level", "1", "--runs", "3"],
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout
    )
    (ref_entry,) = ref["results"]
    assert set(ref) == set(raw)
    assert list(ref_entry) == list(entry)
    for key in ("primitives", "operations", "keygen_batch"):
        assert list(ref_entry[key]) == list(entry[key])
        assert all(set(t) == set(entry[key][n]) for n, t in ref_entry[key].items())
    for prim, parts in BREAKDOWN.items():
        assert list(ref_entry["breakdown"][prim]) == list(parts)
        for part, op in parts.items():
            assert ref_entry["breakdown"][prim][part] == ref_entry["operations"][op]["median_ns"]


def test_profile_command_uses_the_binding(
    lib: Libbike, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --bike-bin or $BIKE_BIN, `bikeco profile` measures in-process."""
    monkeypatch.delenv("BIKE_BIN", raising=False)
    assert cli_main(["profile", "--level", "3", "--runs", "3", "--json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["results"]
    assert (entry["level"], entry["backend"], entry["runs"]) == (3, lib.backend_name(), 3)
