#!/usr/bin/env bash
# BIKE keys through the system openssl with the provider loaded: for each
# level, `genpkey` writes a PKCS #8 PEM key, `pkey -pubout` its
# SubjectPublicKeyInfo, `pkey -text` prints both; re-encoding (PEM and DER,
# private and public) gives the same bytes; the AlgorithmIdentifier carries
# the level's OID; keys read from the files encapsulate and decapsulate
# through the EVP KEM API (bikeprov_test_keyfiles), and keys of different
# levels do not pair. The OID follows OQS_OID_BIKEL<n>. Then a corpus of
# malformed files (malformed_keys.py) must each give an OpenSSL error, not a
# crash and not a key.
# Usage: keys.sh PATH_TO_bikeprov_test_keyfiles
source "$(dirname "$0")/common.sh"
keyfiles=$1
P=(-provider-path "$(dirname "$BIKEPROV_MODULE")" -provider bikeprovider -provider default)
ossl() { OPENSSL_CONF=/dev/null san openssl "$@"; }

for lvl in 1 3 5; do
  k=$WORK/k$lvl.pem p=$WORK/p$lvl.pem
  ossl genpkey "${P[@]}" -algorithm "bikel$lvl" -out "$k" || fail "L$lvl: genpkey"
  head -1 "$k" | grep -q '^-----BEGIN PRIVATE KEY-----$' ||
    fail "L$lvl: genpkey did not write PKCS #8 PEM"
  ossl pkey "${P[@]}" -in "$k" -pubout -out "$p" || fail "L$lvl: pkey -pubout"
  head -1 "$p" | grep -q '^-----BEGIN PUBLIC KEY-----$' || fail "L$lvl: -pubout is not a PUBLIC KEY"
  # (outputs captured first: grep -q would close the pipe early, and pipefail)
  asn=$(ossl asn1parse -in "$p") && grep -q "OBJECT *:1.3.9999.99.$lvl\$" <<<"$asn" ||
    fail "L$lvl: public key OID"
  asn=$(ossl asn1parse -in "$k") && grep -q "OBJECT *:1.3.9999.99.$lvl\$" <<<"$asn" ||
    fail "L$lvl: private key OID"
  text=$(ossl pkey "${P[@]}" -in "$k" -text -noout) || fail "L$lvl: pkey -text"
  grep -q "^BIKE level $lvl Private-Key:\$" <<<"$text" || fail "L$lvl: -text header"
  grep -q '^priv:$' <<<"$text" && grep -q '^pub:$' <<<"$text" || fail "L$lvl: -text fields"
  text=$(ossl pkey "${P[@]}" -pubin -in "$p" -text -noout) || fail "L$lvl: pkey -pubin -text"
  grep -q "^BIKE level $lvl Public-Key:\$" <<<"$text" || fail "L$lvl: -pubin -text header"
  ! grep -q '^priv:$' <<<"$text" || fail "L$lvl: a public key printed a private part"
  ossl pkey "${P[@]}" -in "$k" | cmp -s - "$k" || fail "L$lvl: private PEM does not round-trip"
  ossl pkey "${P[@]}" -pubin -in "$p" | cmp -s - "$p" || fail "L$lvl: public PEM does not round-trip"
  ossl pkey "${P[@]}" -in "$k" -outform DER -out "$WORK/k$lvl.der" || fail "L$lvl: DER"
  ossl pkey "${P[@]}" -pubin -in "$p" -outform DER -out "$WORK/p$lvl.der" || fail "L$lvl: DER pub"
  ossl pkey "${P[@]}" -inform DER -in "$WORK/k$lvl.der" | cmp -s - "$k" ||
    fail "L$lvl: DER private key"
  ossl pkey "${P[@]}" -pubin -inform DER -in "$WORK/p$lvl.der" | cmp -s - "$p" ||
    fail "L$lvl: DER public key"
  san "$keyfiles" "$BIKEPROV_MODULE" "$k" "$p" || fail "L$lvl: EVP KEM with keys from files"
done
if san "$keyfiles" "$BIKEPROV_MODULE" "$WORK/k1.pem" "$WORK/p3.pem" 2>/dev/null; then
  fail "a level-1 private key paired with a level-3 public key"
fi
echo "ok genpkey, pkey -pubout/-text, PEM and DER round trips, EVP KEM from files (L1, L3, L5)"

# The hybrids' keys (oqs-provider's layout, keycodec.c): the same round trips
# and EVP use, OIDs 1.3.9999.99.11 to .15, and -text with the classical part.
i=11
for alg in p256_bikel1 x25519_bikel1 p384_bikel3 x448_bikel3 p521_bikel5; do
  k=$WORK/$alg.pem p=$WORK/$alg.pub
  ossl genpkey "${P[@]}" -algorithm "$alg" -out "$k" || fail "$alg: genpkey"
  ossl pkey "${P[@]}" -in "$k" -pubout -out "$p" || fail "$alg: pkey -pubout"
  asn=$(ossl asn1parse -in "$p") && grep -q "OBJECT *:1.3.9999.99.$i\$" <<<"$asn" ||
    fail "$alg: public key OID"
  text=$(ossl pkey "${P[@]}" -in "$k" -text -noout) || fail "$alg: pkey -text"
  grep -q "^$alg (.* + BIKE level [135]) Private-Key:\$" <<<"$text" || fail "$alg: -text header"
  grep -q '^classical pub:$' <<<"$text" && grep -q '^priv:$' <<<"$text" ||
    fail "$alg: -text fields"
  ossl pkey "${P[@]}" -in "$k" | cmp -s - "$k" || fail "$alg: private PEM does not round-trip"
  ossl pkey "${P[@]}" -pubin -in "$p" | cmp -s - "$p" || fail "$alg: public PEM does not round-trip"
  ossl pkey "${P[@]}" -in "$k" -outform DER -out "$WORK/$alg.der" || fail "$alg: DER"
  ossl pkey "${P[@]}" -pubin -in "$p" -outform DER -out "$WORK/$alg.pub.der" || fail "$alg: DER pub"
  ossl pkey "${P[@]}" -inform DER -in "$WORK/$alg.der" | cmp -s - "$k" || fail "$alg: DER private"
  san "$keyfiles" "$BIKEPROV_MODULE" "$k" "$p" || fail "$alg: EVP KEM with keys from files"
  i=$((i + 1))
done
if san "$keyfiles" "$BIKEPROV_MODULE" "$WORK/p256_bikel1.pem" "$WORK/x25519_bikel1.pub" 2>/dev/null; then
  fail "a p256_bikel1 private key paired with an x25519_bikel1 public key"
fi
# Malformed hybrids: a wrong classical length, a trailing public key that is
# not the secret key's, an X25519 private key of the wrong size.
python3 - "$WORK" <<'PY'
import sys
from pathlib import Path

w = Path(sys.argv[1])
def patch(src, dst, old, new):
    data = (w / src).read_bytes()
    assert data.count(old) == 1, (src, old)
    (w / dst).write_bytes(data.replace(old, new))
patch("p256_bikel1.pub.der", "bad-hyb-pub-len.der", b"\0\0\0\x41\x04", b"\0\0\0\x42\x04")
data = bytearray((w / "p256_bikel1.der").read_bytes())
data[-1] ^= 1  # the last byte of the trailing BIKE public key
(w / "bad-hyb-priv-pk.der").write_bytes(bytes(data))
data = bytearray((w / "x25519_bikel1.der").read_bytes())
at = data.find(b"\0\0\0\x20")  # the length prefix, first in the OCTET STRING
assert data[at - 4 : at - 2] == b"\x04\x82", at
data[at + 3] = 0x1F
(w / "bad-hyb-priv-x25519.der").write_bytes(bytes(data))
PY
san "$keyfiles" "$BIKEPROV_MODULE" --reject pub "$WORK/bad-hyb-pub-len.der" \
  "p256_bikel1 public key: classical part of 66 bytes, want 65" || fail "hybrid classical length"
san "$keyfiles" "$BIKEPROV_MODULE" --reject priv "$WORK/bad-hyb-priv-pk.der" \
  "p256_bikel1 private key: public key does not match" || fail "hybrid trailing public key"
san "$keyfiles" "$BIKEPROV_MODULE" --reject priv "$WORK/bad-hyb-priv-x25519.der" \
  "x25519_bikel1 private key: 6800 bytes do not hold" || fail "hybrid X25519 private key size"
echo "ok hybrids: genpkey, pkey -pubout/-text, PEM and DER round trips, EVP KEM, 3 malformed"

# Encrypted PKCS #8 is not supported: asking for it fails, and no clear key
# is written in its place.
if ossl genpkey "${P[@]}" -algorithm bikel1 -aes256 -pass pass:x -out "$WORK/enc.pem" 2>/dev/null; then
  fail "genpkey -aes256 succeeded"
fi
! grep -q "PRIVATE KEY" "$WORK/enc.pem" 2>/dev/null || fail "genpkey -aes256 wrote a key"
echo "ok an encrypted private key is refused"

# OQS_OID_BIKEL1 chooses the OID (as for oqs-provider); a file with it is not
# a bikel1 key without it.
oid=1.3.6.1.4.1.55555.1
OQS_OID_BIKEL1=$oid ossl genpkey "${P[@]}" -algorithm bikel1 -out "$WORK/oid.pem" ||
  fail "genpkey with OQS_OID_BIKEL1"
asn=$(ossl asn1parse -in "$WORK/oid.pem") && grep -q "OBJECT *:$oid\$" <<<"$asn" ||
  fail "OQS_OID_BIKEL1 not used"
OQS_OID_BIKEL1=$oid ossl pkey "${P[@]}" -in "$WORK/oid.pem" -noout ||
  fail "key with OQS_OID_BIKEL1 not read back"
if ossl pkey "${P[@]}" -in "$WORK/oid.pem" -noout 2>/dev/null; then
  fail "a key with another OID was read as bikel1"
fi
echo "ok OQS_OID_BIKEL1=$oid"

python3 "$(dirname "$0")/malformed_keys.py" "$WORK/bad" "$WORK/p1.der" "$WORK/k1.der" \
  "$WORK/p3.der" "$WORK/k3.der"
n=0
for f in "$WORK"/bad/*; do
  name=$(basename "$f")
  args=(-in "$f" -noout)
  [[ $name == pub-* ]] && args+=(-pubin)
  [[ $name == *.der ]] && args+=(-inform DER)
  rc=0
  ossl pkey "${P[@]}" "${args[@]}" >"$WORK/out" 2>"$WORK/err" || rc=$?
  [[ $rc -eq 1 ]] || { cat "$WORK/err" >&2; fail "$name: openssl pkey exited with $rc, not 1"; }
  grep -qi "error\|could not\|unable" "$WORK/err" || fail "$name: no error message"
  n=$((n + 1))
done
(( n >= 20 )) || fail "only $n malformed files"
# openssl pkey reports a generic failure (its file reader drops decoders'
# errors); a program decoding DER gets the provider's reason.
san "$keyfiles" "$BIKEPROV_MODULE" --reject pub "$WORK/bad/pub-level3-key-under-level1-oid.der" \
  "bikel1 public key: 3083 bytes, want 1541" || fail "wrong-level public key"
san "$keyfiles" "$BIKEPROV_MODULE" --reject priv "$WORK/bad/priv-level3-key-under-level1-oid.der" \
  "bikel1 private key: want an OCTET STRING of 5223 bytes" || fail "wrong-level private key"
san "$keyfiles" "$BIKEPROV_MODULE" --reject pub "$WORK/bad/pub-null-parameters.der" \
  "unexpected algorithm parameters" || fail "public key with parameters"
echo "ok $n malformed key files rejected with an error"
