#!/usr/bin/env python3
"""Write the ML-KEM test vectors of tests/mlkem/vectors/ from kyber-py.

kyber-py (PyPI, `pip install -r tests/mlkem/requirements.txt`) is an
independent pure-Python implementation of FIPS 203. The inputs are
deterministic: d, z and m of record i are SHAKE256("bikeco mlkem <set> <i>")
split in three. One line per record, space-separated hex fields:

    d z m H(ek) H(dk) H(ct) K pos K_reject

where H is SHA3-256 (hashlib), K the shared secret of encapsulation and of
decapsulation, and K_reject the key that decapsulating ct with bit 0 of byte
pos flipped gives: FIPS 203's implicit rejection, checked here to equal
J(z || tampered ct) = SHAKE256(z || ct', 32).

Run from the repository root: python3 tests/mlkem/gen_vectors.py
"""

import hashlib
from pathlib import Path

from kyber_py.ml_kem import ML_KEM_512, ML_KEM_768, ML_KEM_1024
from kyber_py.ml_kem.ml_kem import ML_KEM

RECORDS = 25
SETS = {512: ML_KEM_512, 768: ML_KEM_768, 1024: ML_KEM_1024}
OUT = Path(__file__).resolve().parent / "vectors"


def sha3(b: bytes) -> str:
    return hashlib.sha3_256(b).hexdigest()


def record(kem: ML_KEM, set_: int, i: int) -> str:
    seed = hashlib.shake_256(f"bikeco mlkem {set_} {i}".encode()).digest(96)
    d, z, m = seed[:32], seed[32:64], seed[64:]
    ek, dk = kem._keygen_internal(d, z)
    k, ct = kem._encaps_internal(ek, m)
    assert kem.decaps(dk, ct) == k
    pos = int.from_bytes(hashlib.sha3_256(seed).digest()[:4], "little") % len(ct)
    bad = bytearray(ct)
    bad[pos] ^= 1
    k_reject = kem.decaps(dk, bytes(bad))
    assert k_reject == hashlib.shake_256(z + bytes(bad)).digest(32)
    return " ".join(
        [d.hex(), z.hex(), m.hex(), sha3(ek), sha3(dk), sha3(ct), k.hex(), str(pos), k_reject.hex()]
    )


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for set_, kem in SETS.items():
        lines = [record(kem, set_, i) for i in range(RECORDS)]
        (OUT / f"mlkem{set_}.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
