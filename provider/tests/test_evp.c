/* EVP-level tests of the bikeco provider, for each of its algorithms:
 * key generation the way libssl does it (with a group name), the encoded
 * public key, a peer key made by parameter generation + set1_encoded_public_key
 * (libssl's server side), encapsulation/decapsulation, implicit rejection of
 * a tampered ciphertext, rejection of wrong lengths, export/import/dup, and
 * the TLS-GROUP capability with a code point overridden from the environment,
 * and the wire format against ciphertexts built outside the provider (own
 * ECDH through the default provider + libbike or libmlkem called directly,
 * laid out in the group's order).
 *
 * Usage: bikeprov_test_evp /path/to/bikeprovider.so
 */
#define _POSIX_C_SOURCE 200112L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#include <bike/bike.h>
#include <mlkem/mlkem.h>

#include "check.h"

typedef struct {
    const char *name;
    unsigned int codepoint;
    int secbits;
    size_t pub, ct, ss;
    size_t classical_pub, classical_ss; /* 0 for a PQ KEM alone */
    int ec;                              /* classical part is an EC point */
    int mlkem;    /* the PQ part: ML-KEM-768 (1) or BIKE of the level of secbits (0) */
    int pq_first; /* the PQ part comes first in key share, ciphertext and secret */
} expect_t;

/* Sizes: BIKE (spec 5.1) pk/ct 1541/1573, 3083/3115, 5122/5154 bytes, 32-byte
 * secret; ML-KEM-768 (FIPS 203, 8) ek/ct 1184/1088 bytes, 32-byte secret;
 * P-256/384/521 points 65/97/133, secrets 32/48/66; X25519 32/32, X448 56/56.
 * Orders and code points of the ML-KEM groups: draft-ietf-tls-ecdhe-mlkem
 * (X25519MLKEM768 0x11EC, ML-KEM first; SecP256r1MLKEM768 0x11EB, P-256
 * first) and draft-ietf-tls-mlkem (MLKEM768 0x0201). */
static const expect_t expects[] = {
    {"bikel1", 0xFE10, 128, 1541, 1573, 32, 0, 0, 0, 0, 0},
    {"p256_bikel1", 0xFE11, 128, 65 + 1541, 65 + 1573, 32 + 32, 65, 32, 1, 0, 0},
    {"x25519_bikel1", 0xFE12, 128, 32 + 1541, 32 + 1573, 32 + 32, 32, 32, 0, 0, 0},
    {"bikel3", 0xFE13, 192, 3083, 3115, 32, 0, 0, 0, 0, 0},
    {"p384_bikel3", 0xFE14, 192, 97 + 3083, 97 + 3115, 48 + 32, 97, 48, 1, 0, 0},
    {"x448_bikel3", 0xFE15, 192, 56 + 3083, 56 + 3115, 56 + 32, 56, 56, 0, 0, 0},
    {"bikel5", 0xFE16, 256, 5122, 5154, 32, 0, 0, 0, 0, 0},
    {"p521_bikel5", 0xFE17, 256, 133 + 5122, 133 + 5154, 66 + 32, 133, 66, 1, 0, 0},
    {"mlkem768", 0x0201, 192, 1184, 1088, 32, 0, 0, 0, 1, 0},
    {"X25519MLKEM768", 0x11EC, 192, 1184 + 32, 1088 + 32, 32 + 32, 32, 32, 0, 1, 1},
    {"SecP256r1MLKEM768", 0x11EB, 192, 65 + 1184, 65 + 1088, 32 + 32, 65, 32, 1, 1, 0},
};

/* Where the parts start in the public key, ciphertext and secret. */
static size_t pq_at(const expect_t *e)
{
    return e->pq_first ? 0 : e->classical_pub;
}

static size_t classical_at(const expect_t *e, size_t total)
{
    return e->pq_first ? total - e->classical_pub : 0;
}

static size_t pq_ss_at(const expect_t *e)
{
    return e->pq_first ? 0 : e->classical_ss;
}

static size_t classical_ss_at(const expect_t *e)
{
    return e->pq_first ? 32 : 0;
}
#define NALGS (sizeof(expects) / sizeof(expects[0]))

/* The code point of bikel5 is overridden from the environment (below). */
#define OVERRIDE_ENV "BIKE_CODEPOINT_BIKEL5"
#define OVERRIDE_VALUE 0xFEF5u


static OSSL_LIB_CTX *libctx;

static EVP_PKEY *keygen(const char *name)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(libctx, name, NULL);
    EVP_PKEY *pkey = NULL;

    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) <= 0 || EVP_PKEY_CTX_set_group_name(ctx, name) <= 0
        || EVP_PKEY_keygen(ctx, &pkey) <= 0)
        pkey = NULL;
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

/* libssl's server side: an empty key from paramgen, then the peer's share. */
static EVP_PKEY *peer_from_share(const char *name, const unsigned char *pub, size_t len)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(libctx, name, NULL);
    EVP_PKEY *pkey = NULL;

    if (ctx == NULL || EVP_PKEY_paramgen_init(ctx) <= 0
        || EVP_PKEY_CTX_set_group_name(ctx, name) <= 0
        || EVP_PKEY_paramgen(ctx, &pkey) <= 0)
        pkey = NULL;
    EVP_PKEY_CTX_free(ctx);
    if (pkey != NULL && EVP_PKEY_set1_encoded_public_key(pkey, pub, len) <= 0) {
        EVP_PKEY_free(pkey);
        pkey = NULL;
    }
    return pkey;
}

static int encaps(EVP_PKEY *pub, unsigned char *ct, size_t *ct_len, unsigned char *ss,
                  size_t *ss_len)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(libctx, pub, NULL);
    int ok = ctx != NULL && EVP_PKEY_encapsulate_init(ctx, NULL) > 0
             && EVP_PKEY_encapsulate(ctx, ct, ct_len, ss, ss_len) > 0;

    EVP_PKEY_CTX_free(ctx);
    return ok;
}

static int decaps(EVP_PKEY *priv, unsigned char *ss, size_t *ss_len, const unsigned char *ct,
                  size_t ct_len)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(libctx, priv, NULL);
    int ok = ctx != NULL && EVP_PKEY_decapsulate_init(ctx, NULL) > 0
             && EVP_PKEY_decapsulate(ctx, ss, ss_len, ct, ct_len) > 0;

    EVP_PKEY_CTX_free(ctx);
    return ok;
}

static void test_alg(const expect_t *e)
{
    EVP_PKEY *kp = keygen(e->name), *peer = NULL, *dup = NULL;
    unsigned char *pub = NULL, *ct = NULL, *bad = NULL;
    unsigned char ss1[128], ss2[128], ss3[128];
    size_t pub_len = 0, ct_len = 0, ss1_len = 0, ss2_len, ss3_len;
    int secbits = 0, size = 0;

    CHECK(kp != NULL, "%s: keygen", e->name);
    if (kp == NULL)
        return;
    CHECK(EVP_PKEY_is_a(kp, e->name), "%s: is_a", e->name);
    secbits = EVP_PKEY_get_security_bits(kp);
    size = EVP_PKEY_get_size(kp);
    CHECK(secbits == e->secbits, "%s: security bits %d", e->name, secbits);
    CHECK(size == (int)e->ct, "%s: max size %d", e->name, size);

    pub_len = EVP_PKEY_get1_encoded_public_key(kp, &pub);
    CHECK(pub_len == e->pub, "%s: encoded public key is %zu bytes, want %zu", e->name, pub_len,
          e->pub);
    if (pub_len != e->pub)
        goto done;
    if (e->ec)
        CHECK(pub[classical_at(e, pub_len)] == 0x04,
              "%s: classical share is not an uncompressed point", e->name);

    peer = peer_from_share(e->name, pub, pub_len);
    CHECK(peer != NULL, "%s: set1_encoded_public_key", e->name);
    if (peer == NULL)
        goto done;
    CHECK(EVP_PKEY_eq(kp, peer) == 1, "%s: peer key differs from the generated one", e->name);

    /* size query, then the real call */
    CHECK(encaps(peer, NULL, &ct_len, NULL, &ss1_len) && ct_len == e->ct && ss1_len == e->ss,
          "%s: encapsulate size query %zu/%zu", e->name, ct_len, ss1_len);
    ct = OPENSSL_malloc(e->ct + 1);
    bad = OPENSSL_malloc((e->ct > e->pub ? e->ct : e->pub) + 1); /* ciphertexts and keys */
    if (ct == NULL || bad == NULL)
        goto done;
    ct_len = e->ct;
    ss1_len = sizeof(ss1);
    CHECK(encaps(peer, ct, &ct_len, ss1, &ss1_len) && ct_len == e->ct && ss1_len == e->ss,
          "%s: encapsulate", e->name);
    ss2_len = sizeof(ss2);
    CHECK(decaps(kp, ss2, &ss2_len, ct, ct_len) && ss2_len == e->ss, "%s: decapsulate", e->name);
    CHECK(memcmp(ss1, ss2, e->ss) == 0, "%s: shared secrets differ", e->name);

    /* A public key cannot decapsulate. */
    ss3_len = sizeof(ss3);
    ERR_set_mark();
    CHECK(!decaps(peer, ss3, &ss3_len, ct, ct_len), "%s: decapsulated with a public key", e->name);
    ERR_pop_to_mark();

    /* Tampered PQ part: implicit rejection, a different secret, no error;
     * the classical part of the secret is unchanged. */
    for (int pos = 0; pos < 2; pos++) { /* first and last parts (BIKE c0/c1, ML-KEM c1/c2) */
        size_t pq_ct = e->ct - e->classical_pub;
        size_t at = pq_at(e) + (pos == 0 ? 0 : pq_ct - 16);

        memcpy(bad, ct, ct_len);
        bad[at] ^= 0x01;
        ss3_len = sizeof(ss3);
        CHECK(decaps(kp, ss3, &ss3_len, bad, ct_len) && ss3_len == e->ss,
              "%s: decapsulation of a tampered ciphertext failed", e->name);
        CHECK(memcmp(ss3 + pq_ss_at(e), ss1 + pq_ss_at(e), 32) != 0,
              "%s: tampered ciphertext gave the same PQ secret", e->name);
        CHECK(memcmp(ss3 + classical_ss_at(e), ss1 + classical_ss_at(e), e->classical_ss) == 0,
              "%s: classical secret changed", e->name);
    }

    /* Tampered classical part: an error (point not on the curve) or a
     * different classical secret, never the same secret and never a crash. */
    if (e->classical_pub > 0) {
        memcpy(bad, ct, ct_len);
        bad[classical_at(e, ct_len) + e->classical_pub / 2] ^= 0x01;
        ss3_len = sizeof(ss3);
        ERR_set_mark();
        if (decaps(kp, ss3, &ss3_len, bad, ct_len))
            CHECK(!e->ec
                      && memcmp(ss3 + classical_ss_at(e), ss1 + classical_ss_at(e),
                                e->classical_ss)
                             != 0,
                  "%s: tampered classical part accepted", e->name);
        ERR_pop_to_mark();
    }

    /* Wrong ciphertext lengths and random ciphertexts. */
    ERR_set_mark();
    ss3_len = sizeof(ss3);
    CHECK(!decaps(kp, ss3, &ss3_len, ct, ct_len - 1), "%s: short ciphertext accepted", e->name);
    memcpy(bad, ct, ct_len);
    bad[ct_len] = 0;
    ss3_len = sizeof(ss3);
    CHECK(!decaps(kp, ss3, &ss3_len, bad, ct_len + 1), "%s: long ciphertext accepted", e->name);
    for (int i = 0; i < 2; i++) {
        RAND_bytes(bad, (int)ct_len);
        ss3_len = sizeof(ss3);
        (void)decaps(kp, ss3, &ss3_len, bad, ct_len); /* must not crash */
    }
    ERR_pop_to_mark();

    /* Public keys of the wrong length are refused; a BIKE public key with
     * bits set above r (its last bytes), or an ML-KEM one with a coefficient
     * >= q (its first 12 bits), is refused at encapsulation at the latest. */
    ERR_set_mark();
    {
        EVP_PKEY *p = peer_from_share(e->name, pub, pub_len - 1);

        CHECK(p == NULL, "%s: short public key accepted", e->name);
        EVP_PKEY_free(p);
        memcpy(bad, pub, pub_len);
        memset(bad + (e->mlkem ? pq_at(e) : pq_at(e) + (pub_len - e->classical_pub) - 8), 0xFF,
               8);
        p = peer_from_share(e->name, bad, pub_len);
        if (p != NULL) {
            size_t l1 = e->ct, l2 = sizeof(ss3);

            CHECK(!encaps(p, ct, &l1, ss3, &l2), "%s: public key out of range accepted",
                  e->name);
        }
        EVP_PKEY_free(p);
    }
    ERR_pop_to_mark();

    /* dup keeps the key pair usable; export/import of the public key. */
    dup = EVP_PKEY_dup(kp);
    CHECK(dup != NULL && EVP_PKEY_eq(dup, kp) == 1, "%s: dup", e->name);
    if (dup != NULL) {
        ct_len = e->ct;
        ss1_len = sizeof(ss1);
        ss2_len = sizeof(ss2);
        CHECK(encaps(kp, ct, &ct_len, ss1, &ss1_len) && decaps(dup, ss2, &ss2_len, ct, ct_len)
                  && memcmp(ss1, ss2, e->ss) == 0,
              "%s: duplicated key does not decapsulate", e->name);
    }
    {
        OSSL_PARAM *params = NULL;
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(libctx, e->name, NULL);
        EVP_PKEY *imp = NULL;
        int sel = e->classical_pub == 0 ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;

        CHECK(EVP_PKEY_todata(kp, sel, &params) > 0, "%s: todata", e->name);
        CHECK(ctx != NULL && EVP_PKEY_fromdata_init(ctx) > 0
                  && EVP_PKEY_fromdata(ctx, &imp, sel, params) > 0 && EVP_PKEY_eq(imp, kp) == 1,
              "%s: fromdata", e->name);
        if (imp != NULL && sel == EVP_PKEY_KEYPAIR) {
            ct_len = e->ct;
            ss1_len = sizeof(ss1);
            ss2_len = sizeof(ss2);
            CHECK(encaps(kp, ct, &ct_len, ss1, &ss1_len) && decaps(imp, ss2, &ss2_len, ct, ct_len)
                      && memcmp(ss1, ss2, e->ss) == 0,
                  "%s: imported private key does not decapsulate", e->name);
        }
        OSSL_PARAM_free(params);
        EVP_PKEY_free(imp);
        EVP_PKEY_CTX_free(ctx);
    }
    printf("ok %s: pk %zu, ct %zu, secret %zu bytes, %d security bits\n", e->name, e->pub, e->ct,
           e->ss, secbits);
done:
    OPENSSL_free(pub);
    OPENSSL_free(ct);
    OPENSSL_free(bad);
    EVP_PKEY_free(dup);
    EVP_PKEY_free(peer);
    EVP_PKEY_free(kp);
}

/* ---- wire format, checked independently of the provider ----
 * A ciphertext built here by hand, as a peer implementation would (its own
 * ECDH/X25519/X448 ephemeral key through the default provider, then libbike
 * or libmlkem called directly on the PQ part of the public key), laid out in
 * the group's order, must decapsulate through the provider to the two
 * secrets in that order. For the PQ-only algorithms the provider's
 * ciphertext must also decapsulate with the library directly (exported key). */
static int pq_encaps(const expect_t *e, int level, uint8_t *ct, uint8_t *ss, const uint8_t *pk)
{
    size_t ct_len = e->ct - e->classical_pub, pk_len = e->pub - e->classical_pub;

    if (e->mlkem)
        return mlkem_encaps(768, ct, ct_len, ss, pk, pk_len) == MLKEM_OK;
    return bike_encaps(level, ct, ct_len, ss, pk, pk_len) == BIKE_OK;
}

static int pq_decaps(const expect_t *e, int level, uint8_t *ss, const uint8_t *ct, size_t ct_len,
                     const uint8_t *sk, size_t sk_len)
{
    if (e->mlkem)
        return mlkem_decaps(768, ss, ct, ct_len, sk, sk_len) == MLKEM_OK;
    return bike_decaps(level, ss, ct, ct_len, sk, sk_len) == BIKE_OK;
}

static void test_format(const expect_t *e, int level)
{
    EVP_PKEY *kp = keygen(e->name), *peer = NULL, *eph = NULL;
    EVP_PKEY_CTX *dctx = NULL;
    unsigned char *pub = NULL, *ct = OPENSSL_malloc(e->ct);
    unsigned char want[128], got[128];
    size_t pub_len = 0, got_len = sizeof(got), len;
    const char *group = e->classical_pub == 65 ? "P-256" : e->classical_pub == 97 ? "P-384"
                                                                                   : "P-521";
    const char *type = e->classical_pub == 32 ? "X25519" : e->classical_pub == 56 ? "X448" : "EC";
    int ok = 0;

    if (kp == NULL || ct == NULL)
        goto done;
    if ((pub_len = EVP_PKEY_get1_encoded_public_key(kp, &pub)) != e->pub)
        goto done;
    if (e->classical_pub > 0) {
        if (e->ec) {
            OSSL_PARAM params[3];
            EVP_PKEY_CTX *ictx = EVP_PKEY_CTX_new_from_name(libctx, "EC", "provider=default");

            params[0] = OSSL_PARAM_construct_utf8_string("group", (char *)group, 0);
            params[1] = OSSL_PARAM_construct_octet_string("pub", pub + classical_at(e, pub_len),
                                                          e->classical_pub);
            params[2] = OSSL_PARAM_construct_end();
            if (ictx == NULL || EVP_PKEY_fromdata_init(ictx) <= 0
                || EVP_PKEY_fromdata(ictx, &peer, EVP_PKEY_PUBLIC_KEY, params) <= 0)
                peer = NULL;
            EVP_PKEY_CTX_free(ictx);
            eph = EVP_PKEY_Q_keygen(libctx, "provider=default", "EC", group);
        } else {
            peer = EVP_PKEY_new_raw_public_key_ex(libctx, type, "provider=default",
                                                  pub + classical_at(e, pub_len), e->classical_pub);
            eph = EVP_PKEY_Q_keygen(libctx, "provider=default", type);
        }
        len = e->classical_ss;
        dctx = EVP_PKEY_CTX_new_from_pkey(libctx, eph, "provider=default");
        if (peer == NULL || eph == NULL || dctx == NULL || EVP_PKEY_derive_init(dctx) <= 0
            || EVP_PKEY_derive_set_peer(dctx, peer) <= 0
            || EVP_PKEY_derive(dctx, want + classical_ss_at(e), &len) <= 0
            || len != e->classical_ss
            || EVP_PKEY_get_octet_string_param(eph, "encoded-pub-key", ct + classical_at(e, e->ct),
                                               e->classical_pub, &len)
                   <= 0
            || len != e->classical_pub)
            goto done;
    }
    if (!pq_encaps(e, level, ct + pq_at(e), want + pq_ss_at(e), pub + pq_at(e)))
        goto done;
    if (!decaps(kp, got, &got_len, ct, e->ct) || got_len != e->ss || memcmp(got, want, e->ss) != 0)
        goto done;

    if (e->classical_pub == 0) { /* provider encapsulates, the library decapsulates */
        OSSL_PARAM *params = NULL;
        const OSSL_PARAM *p;
        size_t ct_len = e->ct, ss_len = sizeof(want);
        uint8_t ss[32];

        if (!encaps(kp, ct, &ct_len, want, &ss_len)
            || EVP_PKEY_todata(kp, EVP_PKEY_KEYPAIR, &params) <= 0
            || (p = OSSL_PARAM_locate_const(params, "priv")) == NULL
            || !pq_decaps(e, level, ss, ct, ct_len, p->data, p->data_size)
            || memcmp(ss, want, sizeof(ss)) != 0) {
            OSSL_PARAM_free(params);
            goto done;
        }
        OSSL_PARAM_free(params);
    }
    ok = 1;
done:
    CHECK(ok, "%s: wire format (%s, the libraries' byte formats) not as specified", e->name,
          e->pq_first ? "PQ || classical" : "classical || PQ");
    if (ok)
        printf("ok %s: ciphertext built outside the provider decapsulates to the expected "
               "secret\n",
               e->name);
    EVP_PKEY_CTX_free(dctx);
    EVP_PKEY_free(eph);
    EVP_PKEY_free(peer);
    EVP_PKEY_free(kp);
    OPENSSL_free(pub);
    OPENSSL_free(ct);
}

/* ---- threads ----
 * Several threads run full exchanges at once in one library context (as in
 * a threaded TLS server); each must agree on its own secret. */
#define THREADS 4
#define ROUNDS 3

static int thread_main(void *arg)
{
    const expect_t *e = arg;
    int bad = 0;

    for (int r = 0; r < ROUNDS; r++) {
        EVP_PKEY *kp = keygen(e->name), *peer = NULL;
        unsigned char *pub = NULL, ct[6000], ss1[128], ss2[128];
        size_t pub_len, ct_len = sizeof(ct), l1 = sizeof(ss1), l2 = sizeof(ss2);

        if (kp == NULL || (pub_len = EVP_PKEY_get1_encoded_public_key(kp, &pub)) == 0
            || (peer = peer_from_share(e->name, pub, pub_len)) == NULL
            || !encaps(peer, ct, &ct_len, ss1, &l1) || !decaps(kp, ss2, &l2, ct, ct_len)
            || l1 != l2 || memcmp(ss1, ss2, l1) != 0)
            bad++;
        OPENSSL_free(pub);
        EVP_PKEY_free(peer);
        EVP_PKEY_free(kp);
    }
    return bad;
}

static void test_threads(void)
{
    thrd_t t[THREADS];
    int bad = 0;

    for (int i = 0; i < THREADS; i++) /* a BIKE hybrid, BIKE alone, an ML-KEM hybrid */
        CHECK(thrd_create(&t[i], thread_main, (void *)&expects[i % 3 == 0 ? 2 : i % 3 == 1 ? 0 : 9])
                  == thrd_success,
              "thrd_create");
    for (int i = 0; i < THREADS; i++) {
        int rc = 1;

        thrd_join(t[i], &rc);
        bad += rc;
    }
    CHECK(bad == 0, "threads: %d exchange(s) failed", bad);
    printf("ok %d threads x %d exchanges (x25519_bikel1, bikel1, X25519MLKEM768) in one library "
           "context\n",
           THREADS, ROUNDS);
}

/* ---- TLS-GROUP capability ---- */

static unsigned int seen_ids[NALGS];
static int seen_count, seen_bad;

static int group_cb(const OSSL_PARAM params[], void *arg)
{
    const OSSL_PARAM *p;
    const char *name = NULL, *alg = NULL;
    unsigned int id = 0, secbits = 0;
    int is_kem = 0, min_tls = 0, min_dtls = 0;

    (void)arg;
    if ((p = OSSL_PARAM_locate_const(params, "tls-group-name")) == NULL
        || !OSSL_PARAM_get_utf8_string_ptr(p, &name)
        || (p = OSSL_PARAM_locate_const(params, "tls-group-alg")) == NULL
        || !OSSL_PARAM_get_utf8_string_ptr(p, &alg)
        || (p = OSSL_PARAM_locate_const(params, "tls-group-id")) == NULL
        || !OSSL_PARAM_get_uint(p, &id)
        || (p = OSSL_PARAM_locate_const(params, "tls-group-sec-bits")) == NULL
        || !OSSL_PARAM_get_uint(p, &secbits)
        || (p = OSSL_PARAM_locate_const(params, "tls-group-is-kem")) == NULL
        || !OSSL_PARAM_get_int(p, &is_kem)
        || (p = OSSL_PARAM_locate_const(params, "tls-min-tls")) == NULL
        || !OSSL_PARAM_get_int(p, &min_tls)
        || (p = OSSL_PARAM_locate_const(params, "tls-min-dtls")) == NULL
        || !OSSL_PARAM_get_int(p, &min_dtls)) {
        seen_bad++;
        return 1;
    }
    for (size_t i = 0; i < NALGS; i++) {
        if (strcmp(expects[i].name, name) != 0)
            continue;
        CHECK(strcmp(alg, name) == 0, "group %s: algorithm %s", name, alg);
        CHECK(secbits == (unsigned int)expects[i].secbits, "group %s: sec bits %u", name, secbits);
        CHECK(is_kem == 1 && min_tls == 0x0304 && min_dtls == -1, "group %s: kem/version", name);
        seen_ids[i] = id;
        seen_count++;
        return 1;
    }
    seen_bad++;
    return 1;
}

static void test_groups(OSSL_PROVIDER *prov)
{
    CHECK(OSSL_PROVIDER_get_capabilities(prov, "TLS-GROUP", group_cb, NULL) == 1,
          "get_capabilities");
    CHECK(seen_count == (int)NALGS && seen_bad == 0, "groups: %d seen, %d malformed", seen_count,
          seen_bad);
    for (size_t i = 0; i < NALGS; i++) {
        unsigned int want = strcmp(expects[i].name, "bikel5") == 0 ? OVERRIDE_VALUE
                                                                  : expects[i].codepoint;

        CHECK(seen_ids[i] == want, "group %s: code point 0x%04X, want 0x%04X", expects[i].name,
              seen_ids[i], want);
    }
    printf("ok TLS-GROUP: %d groups, %s override honoured\n", seen_count, OVERRIDE_ENV);
}

int main(int argc, char **argv)
{
    OSSL_PROVIDER *bike, *deflt;

    if (argc != 2) {
        fprintf(stderr, "usage: %s /path/to/bikeprovider.so\n", argv[0]);
        return 2;
    }
    /* Read by the provider when it is first loaded. */
    setenv(OVERRIDE_ENV, "0xFEF5", 1);
    libctx = OSSL_LIB_CTX_new();
    deflt = OSSL_PROVIDER_load(libctx, "default");
    bike = OSSL_PROVIDER_load(libctx, argv[1]);
    if (libctx == NULL || deflt == NULL || bike == NULL) {
        fprintf(stderr, "FAIL: cannot load the providers\n");
        ERR_print_errors_fp(stderr);
        return 1;
    }
    for (size_t i = 0; i < NALGS; i++) {
        test_alg(&expects[i]);
        test_format(&expects[i], expects[i].secbits == 128 ? 1 : expects[i].secbits == 192 ? 3 : 5);
    }
    test_threads();
    test_groups(bike);
    OSSL_PROVIDER_unload(bike);
    OSSL_PROVIDER_unload(deflt);
    OSSL_LIB_CTX_free(libctx);
    if (failures != 0) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("all provider EVP tests passed\n");
    return 0;
}
