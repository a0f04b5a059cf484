/* The KEM operation, one implementation for all algorithms (the key says
 * which). For a hybrid, encapsulation makes an ephemeral classical key pair,
 * agrees with the peer's classical key and encapsulates to the PQ key; the
 * ciphertext holds the ephemeral public key and the PQ ciphertext, the secret
 * the classical and the PQ secret, each in the group's order (bikeprov.h).
 *
 * Decapsulation of a BIKE or ML-KEM ciphertext of the right length never
 * fails (both answer a tampered one with the implicit-rejection secret), so in
 * TLS a forged ciphertext shows up as a Finished mismatch. A ciphertext of the
 * wrong length, or a classical part that is not a valid public key, is an
 * error.
 */
#include "bikeprov.h"

#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/proverr.h>

typedef struct {
    bikeprov_ctx *prov;
    bikeprov_key *key;
} bikeprov_kemctx;

static void *kem_newctx(void *provctx)
{
    bikeprov_kemctx *ctx = OPENSSL_zalloc(sizeof(*ctx));

    if (ctx != NULL)
        ctx->prov = provctx;
    return ctx;
}

static void kem_freectx(void *vctx)
{
    /* The key belongs to the EVP_PKEY, which the EVP_PKEY_CTX keeps alive. */
    OPENSSL_free(vctx);
}

static void *kem_dupctx(void *vctx)
{
    bikeprov_kemctx *src = vctx, *dst = OPENSSL_malloc(sizeof(*dst));

    if (dst != NULL)
        *dst = *src;
    return dst;
}

static int kem_init(void *vctx, void *vkey, int need_private)
{
    bikeprov_kemctx *ctx = vctx;
    bikeprov_key *key = vkey;

    if (ctx == NULL || key == NULL) {
        ERR_raise(ERR_LIB_PROV, PROV_R_MISSING_KEY);
        return 0;
    }
    if (need_private ? !key->has_private : !bikeprov_key_has_public(key)) {
        ERR_raise_data(ERR_LIB_PROV, need_private ? PROV_R_NOT_A_PRIVATE_KEY : PROV_R_MISSING_KEY,
                       "%s key", key->alg->name);
        return 0;
    }
    ctx->key = key;
    return 1;
}

static int kem_encaps_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    (void)params;
    return kem_init(vctx, vkey, 0);
}

static int kem_decaps_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    (void)params;
    return kem_init(vctx, vkey, 1);
}

static int kem_encapsulate(void *vctx, unsigned char *ct, size_t *ct_len, unsigned char *secret,
                           size_t *secret_len)
{
    bikeprov_kemctx *ctx = vctx;
    const bikeprov_key *key = ctx->key;
    const bikeprov_alg *alg;
    size_t need_ct, need_ss;
    uint8_t coins[BIKEPROV_MAX_COINS];
    EVP_PKEY *eph = NULL;
    int rc, ok = 0;

    if (key == NULL || ct_len == NULL || secret_len == NULL)
        return 0;
    alg = key->alg;
    need_ct = bikeprov_ct_bytes(alg);
    need_ss = bikeprov_secret_bytes(alg);
    if (ct == NULL || secret == NULL) { /* size query */
        *ct_len = need_ct;
        *secret_len = need_ss;
        return 1;
    }
    if (*ct_len < need_ct || *secret_len < need_ss) {
        ERR_raise(ERR_LIB_PROV, PROV_R_OUTPUT_BUFFER_TOO_SMALL);
        return 0;
    }
    if (alg->kind != BIKEPROV_CLASSICAL_NONE) {
        eph = bikeprov_classical_keygen(ctx->prov->libctx, alg);
        if (eph == NULL
            || !bikeprov_classical_encode(alg, eph, ct + bikeprov_classical_offset(alg, 1))
            || !bikeprov_classical_derive(ctx->prov->libctx, alg, eph, key->classical,
                                          secret + bikeprov_classical_secret_offset(alg)))
            goto done;
    }
    if (!bikeprov_random(ctx->prov, coins, alg->pq->encaps_coins, 0))
        goto done;
    rc = alg->pq->encaps(alg->level, ct + bikeprov_pq_offset(alg), alg->pq_ct_bytes,
                         secret + bikeprov_pq_secret_offset(alg), key->pq_pk, alg->pq_pk_bytes,
                         coins);
    OPENSSL_cleanse(coins, sizeof(coins));
    if (rc != 0) {
        /* A peer's public key that fails the KEM's check: BIKE bits set
         * above r, ML-KEM a coefficient >= q (FIPS 203, 7.2). */
        ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_KEY, "%s encapsulation: %s", alg->name,
                       alg->pq->strerror(rc));
        goto done;
    }
    *ct_len = need_ct;
    *secret_len = need_ss;
    ok = 1;
done:
    EVP_PKEY_free(eph);
    if (!ok)
        OPENSSL_cleanse(secret, need_ss);
    return ok;
}

static int kem_decapsulate(void *vctx, unsigned char *secret, size_t *secret_len,
                           const unsigned char *ct, size_t ct_len)
{
    bikeprov_kemctx *ctx = vctx;
    const bikeprov_key *key = ctx->key;
    const bikeprov_alg *alg;
    size_t need_ss;
    EVP_PKEY *peer = NULL;
    int rc, ok = 0;

    if (key == NULL || secret_len == NULL)
        return 0;
    alg = key->alg;
    need_ss = bikeprov_secret_bytes(alg);
    if (secret == NULL) { /* size query */
        *secret_len = need_ss;
        return 1;
    }
    if (*secret_len < need_ss) {
        ERR_raise(ERR_LIB_PROV, PROV_R_OUTPUT_BUFFER_TOO_SMALL);
        return 0;
    }
    if (ct == NULL || ct_len != bikeprov_ct_bytes(alg)) {
        ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_INPUT_LENGTH,
                       "%s ciphertext: %zu bytes, want %zu",
                       alg->name, ct_len, bikeprov_ct_bytes(alg));
        return 0;
    }
    if (alg->kind != BIKEPROV_CLASSICAL_NONE) {
        peer = bikeprov_classical_decode(ctx->prov->libctx, alg,
                                         ct + bikeprov_classical_offset(alg, 1));
        if (peer == NULL
            || !bikeprov_classical_derive(ctx->prov->libctx, alg, key->classical, peer,
                                          secret + bikeprov_classical_secret_offset(alg)))
            goto done;
    }
    rc = alg->pq->decaps(alg->level, secret + bikeprov_pq_secret_offset(alg),
                         ct + bikeprov_pq_offset(alg), alg->pq_ct_bytes, key->pq_sk,
                         alg->pq_sk_bytes);
    if (rc != 0) {
        ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_KEY, "%s decapsulation: %s", alg->name,
                       alg->pq->strerror(rc));
        goto done;
    }
    *secret_len = need_ss;
    ok = 1;
done:
    EVP_PKEY_free(peer);
    if (!ok)
        OPENSSL_cleanse(secret, need_ss);
    return ok;
}

#define FN(id, f) {id, (void (*)(void))(f)}

const OSSL_DISPATCH bikeprov_kem_functions[] = {
    FN(OSSL_FUNC_KEM_NEWCTX, kem_newctx),
    FN(OSSL_FUNC_KEM_FREECTX, kem_freectx),
    FN(OSSL_FUNC_KEM_DUPCTX, kem_dupctx),
    FN(OSSL_FUNC_KEM_ENCAPSULATE_INIT, kem_encaps_init),
    FN(OSSL_FUNC_KEM_ENCAPSULATE, kem_encapsulate),
    FN(OSSL_FUNC_KEM_DECAPSULATE_INIT, kem_decaps_init),
    FN(OSSL_FUNC_KEM_DECAPSULATE, kem_decapsulate),
    {0, NULL},
};
