/* The eleven algorithms of the provider and their sizes.
 *
 * Code points. BIKE: those of oqs-provider (ALGORITHMS.md, 0.8.0 and later)
 * in the private-use range 0xFE10..0xFE17; BIKE has no IANA code point.
 * ML-KEM: IANA's TLS Supported Groups registry, MLKEM768 0x0201
 * (draft-ietf-tls-mlkem), SecP256r1MLKEM768 0x11EB and X25519MLKEM768 0x11EC
 * (draft-ietf-tls-ecdhe-mlkem). Each can be overridden with the environment
 * variable named in the table (decimal or 0x-prefixed hexadecimal), read once
 * when the provider is loaded.
 *
 * Classical sizes: an uncompressed SEC1 point is 1 + 2 * ceil(bits / 8) bytes
 * (P-256: 65, P-384: 97, P-521: 133) and the ECDH secret is the x-coordinate,
 * ceil(bits / 8) bytes (32, 48, 66); X25519 keys and secrets are 32 bytes,
 * X448 ones 56 bytes (RFC 7748).
 *
 * Security bits: the NIST category of the PQ part (BIKE level 1, 3, 5: 128,
 * 192, 256; ML-KEM-768: category 3, 192), as OpenSSL 3.5 gives its own
 * ML-KEM-768 groups.
 */
#include "bikeprov.h"

#include <bike/bike.h>
#include <mlkem/mlkem.h>

#define BIKE_ONLY(nm, env, cp, lvl, sec)                                                   \
    {nm, env, cp, &bikeprov_pq_bike, lvl, sec, 0, BIKEPROV_CLASSICAL_NONE, NULL, NULL, 0,  \
     0, BIKE_L##lvl##_PUBLIC_KEY_BYTES, BIKE_L##lvl##_SECRET_KEY_BYTES,                     \
     BIKE_L##lvl##_CIPHERTEXT_BYTES}
#define HYBRID(nm, env, cp, lvl, sec, kind, type, group, pub, ss)                          \
    {nm, env, cp, &bikeprov_pq_bike, lvl, sec, 0, kind, type, group, pub, ss,              \
     BIKE_L##lvl##_PUBLIC_KEY_BYTES, BIKE_L##lvl##_SECRET_KEY_BYTES,                        \
     BIKE_L##lvl##_CIPHERTEXT_BYTES}
#define MLKEM(nm, env, cp, set, sec, first, kind, type, group, pub, ss)                    \
    {nm, env, cp, &bikeprov_pq_mlkem, set, sec, first, kind, type, group, pub, ss,         \
     MLKEM##set##_EK_BYTES, MLKEM##set##_DK_BYTES, MLKEM##set##_CT_BYTES}

const bikeprov_alg bikeprov_algs[BIKEPROV_NUM_ALGS] = {
    BIKE_ONLY("bikel1", "BIKE_CODEPOINT_BIKEL1", 0xFE10, 1, 128),
    HYBRID("p256_bikel1", "BIKE_CODEPOINT_P256_BIKEL1", 0xFE11, 1, 128,
           BIKEPROV_CLASSICAL_EC, "EC", "P-256", 65, 32),
    HYBRID("x25519_bikel1", "BIKE_CODEPOINT_X25519_BIKEL1", 0xFE12, 1, 128,
           BIKEPROV_CLASSICAL_ECX, "X25519", NULL, 32, 32),
    BIKE_ONLY("bikel3", "BIKE_CODEPOINT_BIKEL3", 0xFE13, 3, 192),
    HYBRID("p384_bikel3", "BIKE_CODEPOINT_P384_BIKEL3", 0xFE14, 3, 192,
           BIKEPROV_CLASSICAL_EC, "EC", "P-384", 97, 48),
    HYBRID("x448_bikel3", "BIKE_CODEPOINT_X448_BIKEL3", 0xFE15, 3, 192,
           BIKEPROV_CLASSICAL_ECX, "X448", NULL, 56, 56),
    BIKE_ONLY("bikel5", "BIKE_CODEPOINT_BIKEL5", 0xFE16, 5, 256),
    HYBRID("p521_bikel5", "BIKE_CODEPOINT_P521_BIKEL5", 0xFE17, 5, 256,
           BIKEPROV_CLASSICAL_EC, "EC", "P-521", 133, 66),
    MLKEM("mlkem768", "BIKE_CODEPOINT_MLKEM768", 0x0201, 768, 192, 0,
          BIKEPROV_CLASSICAL_NONE, NULL, NULL, 0, 0),
    MLKEM("X25519MLKEM768", "BIKE_CODEPOINT_X25519MLKEM768", 0x11EC, 768, 192, 1,
          BIKEPROV_CLASSICAL_ECX, "X25519", NULL, 32, 32),
    MLKEM("SecP256r1MLKEM768", "BIKE_CODEPOINT_SECP256R1MLKEM768", 0x11EB, 768, 192, 0,
          BIKEPROV_CLASSICAL_EC, "EC", "P-256", 65, 32),
};

size_t bikeprov_pub_bytes(const bikeprov_alg *alg)
{
    return alg->classical_pub_bytes + alg->pq_pk_bytes;
}

size_t bikeprov_ct_bytes(const bikeprov_alg *alg)
{
    return alg->classical_pub_bytes + alg->pq_ct_bytes;
}

size_t bikeprov_secret_bytes(const bikeprov_alg *alg)
{
    return alg->classical_secret_bytes + BIKEPROV_PQ_SECRET_BYTES;
}

size_t bikeprov_classical_offset(const bikeprov_alg *alg, int ct)
{
    if (!alg->pq_first)
        return 0;
    return ct ? alg->pq_ct_bytes : alg->pq_pk_bytes;
}

size_t bikeprov_pq_offset(const bikeprov_alg *alg)
{
    return alg->pq_first ? 0 : alg->classical_pub_bytes;
}

size_t bikeprov_classical_secret_offset(const bikeprov_alg *alg)
{
    return alg->pq_first ? BIKEPROV_PQ_SECRET_BYTES : 0;
}

size_t bikeprov_pq_secret_offset(const bikeprov_alg *alg)
{
    return alg->pq_first ? 0 : alg->classical_secret_bytes;
}

static int lower(int c)
{
    return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

int bikeprov_name_eq(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        return 0;
    while (*a != '\0' && lower((unsigned char)*a) == lower((unsigned char)*b)) {
        a++;
        b++;
    }
    return *a == '\0' && *b == '\0';
}
