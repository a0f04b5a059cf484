#!/usr/bin/env python3
"""Writes a corpus of malformed BIKE key files, each of which a decoder must
reject with an error (never a crash, never a key): truncations, wrong key
lengths, keys of another level under a level's OID, wrong ASN.1 types,
unexpected parameters, unused bits, trailing data inside the key, garbage.
(Bytes after the outer SEQUENCE are OpenSSL's file reader's business: it
reads one DER object, for every key type alike.)

Usage: malformed_keys.py OUTDIR L1_PUB.der L1_PRIV.der L3_PUB.der L3_PRIV.der
Files are named pub-*.der / priv-*.der (read with or without -pubin) and
*.pem for PEM-armoured ones.
"""

import base64
import sys
from pathlib import Path


def tlv(tag: int, body: bytes) -> bytes:
    n = len(body)
    if n < 0x80:
        length = bytes([n])
    else:
        raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
        length = bytes([0x80 | len(raw)]) + raw
    return bytes([tag]) + length + body


def parse(der: bytes) -> tuple[int, bytes, bytes]:
    """(tag, body, rest) of the first TLV."""
    tag, n, i = der[0], der[1], 2
    if n & 0x80:
        k = n & 0x7F
        n, i = int.from_bytes(der[2 : 2 + k], "big"), 2 + k
    return tag, der[i : i + n], der[i + n :]


def children(body: bytes) -> list[bytes]:
    out = []
    while body:
        _, _, rest = parse(body)
        out.append(body[: len(body) - len(rest)])
        body = rest
    return out


SEQ, OCTET, BITS, NULL, INT = 0x30, 0x04, 0x03, 0x05, 0x02

out = Path(sys.argv[1])
pub1, priv1, pub3, priv3 = (Path(p).read_bytes() for p in sys.argv[2:6])

# SubjectPublicKeyInfo: SEQUENCE { algid, BIT STRING { 0 unused bits, h } }
algid1, bits1 = children(parse(pub1)[1])
h1 = parse(bits1)[1][1:]
h3 = parse(children(parse(pub3)[1])[1])[1][1:]
oid1 = children(parse(algid1)[1])[0]


def spki(algid: bytes, key: bytes, unused: int = 0) -> bytes:
    return tlv(SEQ, algid + tlv(BITS, bytes([unused]) + key))


# PrivateKeyInfo: SEQUENCE { INTEGER 0, algid, OCTET STRING { OCTET STRING sk } }
version, palgid1, outer1 = children(parse(priv1)[1])
sk1 = parse(parse(outer1)[1])[1]
sk3 = parse(parse(children(parse(priv3)[1])[2])[1])[1]


def pki(algid: bytes, inner: bytes) -> bytes:
    return tlv(SEQ, version + algid + tlv(OCTET, inner))


cases = {
    "pub-empty.der": b"",
    "pub-one-byte.der": pub1[:1],
    "pub-header-only.der": pub1[:4],
    "pub-truncated-half.der": pub1[: len(pub1) // 2],
    "pub-truncated-last-byte.der": pub1[:-1],
    "pub-key-short.der": spki(algid1, h1[:-1]),
    "pub-key-long.der": spki(algid1, h1 + b"\x00"),
    "pub-level3-key-under-level1-oid.der": spki(algid1, h3),
    "pub-unused-bits.der": spki(algid1, h1, unused=1),
    "pub-null-parameters.der": spki(tlv(SEQ, oid1 + tlv(NULL, b"")), h1),
    "pub-key-as-octet-string.der": tlv(SEQ, algid1 + tlv(OCTET, h1)),
    "pub-length-overflow.der": b"\x30\x84\xff\xff\xff\xff" + pub1[4:],
    "priv-empty.der": b"",
    "priv-truncated-half.der": priv1[: len(priv1) // 2],
    "priv-truncated-last-byte.der": priv1[:-1],
    "priv-key-short.der": pki(palgid1, tlv(OCTET, sk1[:-1])),
    "priv-key-long.der": pki(palgid1, tlv(OCTET, sk1 + b"\x00")),
    "priv-level3-key-under-level1-oid.der": pki(palgid1, tlv(OCTET, sk3)),
    "priv-inner-not-octet-string.der": pki(palgid1, tlv(BITS, b"\x00" + sk1)),
    "priv-inner-raw-key.der": pki(palgid1, sk1),
    "priv-inner-trailing-byte.der": pki(palgid1, tlv(OCTET, sk1) + b"\x00"),
    "priv-null-parameters.der": pki(tlv(SEQ, oid1 + tlv(NULL, b"")), tlv(OCTET, sk1)),
    "priv-garbage.der": bytes(range(256)) * 8,
    "pub-garbage-body.pem": b"-----BEGIN PUBLIC KEY-----\n!!!!not base64!!!!\n"
    b"-----END PUBLIC KEY-----\n",
    "priv-truncated-base64.pem": b"-----BEGIN PRIVATE KEY-----\n"
    + base64.encodebytes(priv1)[:200]
    + b"\n-----END PRIVATE KEY-----\n",
    "pub-level3-key-under-level1-oid.pem": b"-----BEGIN PUBLIC KEY-----\n"
    + base64.encodebytes(spki(algid1, h3))
    + b"-----END PUBLIC KEY-----\n",
}
out.mkdir(parents=True, exist_ok=True)
for name, data in cases.items():
    (out / name).write_bytes(data)
print(f"malformed_keys: {len(cases)} files in {out}")
