/* Key management for all algorithms: what libssl needs (generation,
 * also from a group name; get/set of the encoded public key; security bits;
 * maximum size) plus import/export of the raw public and (BIKE-only)
 * private keys, dup, has and match, and load (keys the decoders made).
 *
 * Parameters:
 *   encoded-pub-key, pub  the public key as sent in TLS (see bikeprov.h)
 *   priv                  the KEM's secret key (libbike's, or the ML-KEM
 *                         decapsulation key; PQ-only algorithms: the hybrids
 *                         do not export their private keys)
 *   bits                  8 * size of the encoded public key
 *   security-bits         128, 192, 256 (the PQ part's category)
 *   max-size              size of a ciphertext, the largest output of an
 *                         encapsulation
 */
#include "bikeprov.h"

#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/proverr.h>

#include <bike/bike.h>

typedef struct {
    bikeprov_ctx *prov;
    const bikeprov_alg *alg;
    int selection;
} bikeprov_genctx;

static bikeprov_key *key_new(void *provctx, const bikeprov_alg *alg)
{
    bikeprov_key *key = OPENSSL_zalloc(sizeof(*key));

    if (key == NULL)
        return NULL;
    key->alg = alg;
    key->prov = provctx;
    return key;
}

static void key_clear_public(bikeprov_key *key)
{
    OPENSSL_free(key->pq_pk);
    key->pq_pk = NULL;
    EVP_PKEY_free(key->classical);
    key->classical = NULL;
}

static void key_clear_private(bikeprov_key *key)
{
    OPENSSL_secure_clear_free(key->pq_sk, key->alg->pq_sk_bytes);
    key->pq_sk = NULL;
    key->has_private = 0;
}

static void key_free(void *vkey)
{
    bikeprov_key *key = vkey;

    if (key == NULL)
        return;
    key_clear_private(key);
    key_clear_public(key);
    OPENSSL_free(key);
}

void bikeprov_key_free(bikeprov_key *key)
{
    key_free(key);
}

bikeprov_key *bikeprov_key_from_bytes(bikeprov_ctx *prov, const bikeprov_alg *alg,
                                      const uint8_t *pk, const uint8_t *sk)
{
    bikeprov_key *key = key_new(prov, alg);

    if (key == NULL || (key->pq_pk = OPENSSL_memdup(pk, alg->pq_pk_bytes)) == NULL)
        goto err;
    if (sk != NULL) {
        if ((key->pq_sk = OPENSSL_secure_malloc(alg->pq_sk_bytes)) == NULL)
            goto err;
        memcpy(key->pq_sk, sk, alg->pq_sk_bytes);
        key->has_private = 1;
    }
    return key;
err:
    key_free(key);
    return NULL;
}

/* A key a decoder made, passed by reference (keycodec.c): taken over. */
static void *key_load(const void *reference, size_t reference_sz)
{
    bikeprov_key *key;

    if (reference == NULL || reference_sz != sizeof(key))
        return NULL;
    key = *(bikeprov_key *const *)reference;
    *(bikeprov_key **)reference = NULL;
    return key;
}

int bikeprov_key_has_public(const bikeprov_key *key)
{
    return key != NULL && key->pq_pk != NULL
           && (key->alg->kind == BIKEPROV_CLASSICAL_NONE || key->classical != NULL);
}

int bikeprov_key_encode_public(const bikeprov_key *key, uint8_t *out, size_t out_len)
{
    const bikeprov_alg *alg = key->alg;

    if (!bikeprov_key_has_public(key) || out_len != bikeprov_pub_bytes(alg))
        return 0;
    if (alg->kind != BIKEPROV_CLASSICAL_NONE
        && !bikeprov_classical_encode(alg, key->classical, out + bikeprov_classical_offset(alg, 0)))
        return 0;
    memcpy(out + bikeprov_pq_offset(alg), key->pq_pk, alg->pq_pk_bytes);
    return 1;
}

/* Replaces the key's material by the public key in its TLS encoding. */
static int key_set_public(bikeprov_key *key, const uint8_t *in, size_t in_len)
{
    const bikeprov_alg *alg = key->alg;
    EVP_PKEY *classical = NULL;
    uint8_t *pk;

    if (in_len != bikeprov_pub_bytes(alg)) {
        ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_KEY_LENGTH,
                       "%s public key: %zu bytes, want %zu",
                       alg->name, in_len, bikeprov_pub_bytes(alg));
        return 0;
    }
    if (alg->kind != BIKEPROV_CLASSICAL_NONE
        && (classical = bikeprov_classical_decode(key->prov->libctx, alg,
                                                  in + bikeprov_classical_offset(alg, 0)))
               == NULL)
        return 0;
    if ((pk = OPENSSL_malloc(alg->pq_pk_bytes)) == NULL) {
        EVP_PKEY_free(classical);
        return 0;
    }
    memcpy(pk, in + bikeprov_pq_offset(alg), alg->pq_pk_bytes);
    key_clear_private(key);
    key_clear_public(key);
    key->pq_pk = pk;
    key->classical = classical;
    return 1;
}

/* The PQ key pair from fresh coins, alone. */
static int pq_keypair(bikeprov_key *key)
{
    const bikeprov_alg *alg = key->alg;
    uint8_t coins[BIKEPROV_MAX_COINS];
    int rc;

    if (!bikeprov_random(key->prov, coins, alg->pq->keygen_coins, 1))
        return 0;
    rc = alg->pq->keypair(alg->level, key->pq_pk, alg->pq_pk_bytes, key->pq_sk, alg->pq_sk_bytes,
                          coins);
    OPENSSL_cleanse(coins, sizeof(coins));
    if (rc != 0) {
        ERR_raise_data(ERR_LIB_PROV, PROV_R_FAILED_TO_GENERATE_KEY, "%s: %s", alg->pq->name,
                       alg->pq->strerror(rc));
        return 0;
    }
    return 1;
}

static int key_generate(bikeprov_key *key)
{
    const bikeprov_alg *alg = key->alg;
    const int pooled = alg->pq->keypair_batch != NULL && key->prov->keypool != NULL;

    key->pq_pk = OPENSSL_malloc(alg->pq_pk_bytes);
    key->pq_sk = OPENSSL_secure_malloc(alg->pq_sk_bytes);
    if (key->pq_pk == NULL || key->pq_sk == NULL)
        return 0;
    if (pooled ? !bikeprov_keypool_take(key->prov, alg, key->pq_pk, key->pq_sk)
               : !pq_keypair(key))
        return 0;
    if (alg->kind != BIKEPROV_CLASSICAL_NONE
        && (key->classical = bikeprov_classical_keygen(key->prov->libctx, alg)) == NULL)
        return 0;
    key->has_private = 1;
    return 1;
}

/* ---- has / match / dup ---- */

static int key_has(const void *vkey, int selection)
{
    const bikeprov_key *key = vkey;

    if (key == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && !bikeprov_key_has_public(key))
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && !key->has_private)
        return 0;
    return 1; /* no domain parameters: the algorithm fixes them */
}

static int key_match(const void *va, const void *vb, int selection)
{
    const bikeprov_key *a = va, *b = vb;

    if (a == NULL || b == NULL || a->alg != b->alg)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if (bikeprov_key_has_public(a) && bikeprov_key_has_public(b)) {
        if (CRYPTO_memcmp(a->pq_pk, b->pq_pk, a->alg->pq_pk_bytes) != 0)
            return 0;
        return a->alg->kind == BIKEPROV_CLASSICAL_NONE
               || EVP_PKEY_eq(a->classical, b->classical) == 1;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && a->has_private && b->has_private)
        return CRYPTO_memcmp(a->pq_sk, b->pq_sk, a->alg->pq_sk_bytes) == 0;
    return 0;
}

static void *key_dup(const void *vsrc, int selection)
{
    const bikeprov_key *src = vsrc;
    bikeprov_key *dst = key_new(src->prov, src->alg);
    const bikeprov_alg *alg = src->alg;
    int want_priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && src->has_private;

    if (dst == NULL)
        return NULL;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0 || !bikeprov_key_has_public(src))
        return dst;
    if ((dst->pq_pk = OPENSSL_memdup(src->pq_pk, alg->pq_pk_bytes)) == NULL)
        goto err;
    if (src->classical != NULL) {
        if (want_priv) {
            dst->classical = EVP_PKEY_dup(src->classical);
        } else {
            uint8_t buf[160];

            if (!bikeprov_classical_encode(alg, src->classical, buf))
                goto err;
            dst->classical = bikeprov_classical_decode(src->prov->libctx, alg, buf);
        }
        if (dst->classical == NULL)
            goto err;
    }
    if (want_priv) {
        if ((dst->pq_sk = OPENSSL_secure_malloc(alg->pq_sk_bytes)) == NULL)
            goto err;
        memcpy(dst->pq_sk, src->pq_sk, alg->pq_sk_bytes);
        dst->has_private = 1;
    }
    return dst;
err:
    key_free(dst);
    return NULL;
}

/* ---- parameters ---- */

static const OSSL_PARAM key_gettable[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *key_gettable_params(void *provctx)
{
    (void)provctx;
    return key_gettable;
}

static int set_public_param(const bikeprov_key *key, OSSL_PARAM *p)
{
    size_t len = bikeprov_pub_bytes(key->alg);

    if (!bikeprov_key_has_public(key))
        return 0;
    p->return_size = len;
    if (p->data == NULL) /* size query */
        return 1;
    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size < len)
        return 0;
    return bikeprov_key_encode_public(key, p->data, len);
}

static int key_get_params(void *vkey, OSSL_PARAM params[])
{
    bikeprov_key *key = vkey;
    const bikeprov_alg *alg = key->alg;
    OSSL_PARAM *p;

    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) != NULL
        && !OSSL_PARAM_set_int(p, (int)(8 * bikeprov_pub_bytes(alg))))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) != NULL
        && !OSSL_PARAM_set_int(p, alg->security_bits))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) != NULL
        && !OSSL_PARAM_set_int(p, (int)bikeprov_ct_bytes(alg)))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY)) != NULL
        && !set_public_param(key, p))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PUB_KEY)) != NULL
        && !set_public_param(key, p))
        return 0;
    return 1;
}

static const OSSL_PARAM key_settable[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *key_settable_params(void *provctx)
{
    (void)provctx;
    return key_settable;
}

static int key_set_params(void *vkey, const OSSL_PARAM params[])
{
    bikeprov_key *key = vkey;
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);

    if (p == NULL)
        return 1;
    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL)
        return 0;
    return key_set_public(key, p->data, p->data_size);
}

/* ---- import / export ---- */

static const OSSL_PARAM key_io_types[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *key_io_types_fn(int selection)
{
    return (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0 ? key_io_types : NULL;
}

static int key_import(void *vkey, int selection, const OSSL_PARAM params[])
{
    bikeprov_key *key = vkey;
    const bikeprov_alg *alg = key->alg;
    const OSSL_PARAM *pub = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
    const OSSL_PARAM *priv = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);

    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if (pub == NULL || pub->data_type != OSSL_PARAM_OCTET_STRING
        || !key_set_public(key, pub->data, pub->data_size))
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) == 0 || priv == NULL)
        return 1;
    /* Private keys: PQ-only algorithms, in the KEM's format. */
    if (alg->kind != BIKEPROV_CLASSICAL_NONE || priv->data_type != OSSL_PARAM_OCTET_STRING
        || priv->data_size != alg->pq_sk_bytes) {
        ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_KEY, "%s private key", alg->name);
        return 0;
    }
    if ((key->pq_sk = OPENSSL_secure_malloc(alg->pq_sk_bytes)) == NULL)
        return 0;
    memcpy(key->pq_sk, priv->data, alg->pq_sk_bytes);
    key->has_private = 1;
    return 1;
}

int bikeprov_key_export(const bikeprov_key *key, int selection, OSSL_CALLBACK *cb, void *cbarg)
{
    const bikeprov_alg *alg = key->alg;
    OSSL_PARAM params[3];
    uint8_t *pub = NULL;
    size_t n = 0;
    int ok = 0;

    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if (!bikeprov_key_has_public(key))
        return 0;
    if ((pub = OPENSSL_malloc(bikeprov_pub_bytes(alg))) == NULL
        || !bikeprov_key_encode_public(key, pub, bikeprov_pub_bytes(alg)))
        goto done;
    params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, pub,
                                                    bikeprov_pub_bytes(alg));
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && key->has_private) {
        if (alg->kind != BIKEPROV_CLASSICAL_NONE)
            goto done;
        params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, key->pq_sk,
                                                        alg->pq_sk_bytes);
    }
    params[n] = OSSL_PARAM_construct_end();
    ok = cb(params, cbarg);
done:
    OPENSSL_free(pub);
    return ok;
}

static int key_export(void *vkey, int selection, OSSL_CALLBACK *cb, void *cbarg)
{
    return bikeprov_key_export(vkey, selection, cb, cbarg);
}

/* ---- generation ---- */

static void *gen_init(void *provctx, const bikeprov_alg *alg, int selection)
{
    bikeprov_genctx *gctx = OPENSSL_zalloc(sizeof(*gctx));

    if (gctx == NULL)
        return NULL;
    gctx->prov = provctx;
    gctx->alg = alg;
    gctx->selection = selection;
    return gctx;
}

static int gen_set_params(void *vgctx, const OSSL_PARAM params[])
{
    bikeprov_genctx *gctx = vgctx;
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME);

    /* The group of a key-management is its own name: accept it (libssl sets
     * it) and reject any other. */
    if (p != NULL) {
        const char *name = NULL;

        if (!OSSL_PARAM_get_utf8_string_ptr(p, &name) || !bikeprov_name_eq(name, gctx->alg->name)) {
            ERR_raise_data(ERR_LIB_PROV, PROV_R_FAILED_TO_SET_PARAMETER, "group for %s",
                           gctx->alg->name);
            return 0;
        }
    }
    return 1;
}

static const OSSL_PARAM gen_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *gen_settable_params(void *vgctx, void *provctx)
{
    (void)vgctx;
    (void)provctx;
    return gen_settable;
}

static void *gen(void *vgctx, OSSL_CALLBACK *cb, void *cbarg)
{
    bikeprov_genctx *gctx = vgctx;
    bikeprov_key *key = key_new(gctx->prov, gctx->alg);

    (void)cb;
    (void)cbarg;
    if (key == NULL)
        return NULL;
    /* A parameter generation (libssl's server side) makes an empty key that
     * the peer's key share then fills in through encoded-pub-key. */
    if ((gctx->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0 && !key_generate(key)) {
        key_free(key);
        return NULL;
    }
    return key;
}

static void gen_cleanup(void *vgctx)
{
    OPENSSL_free(vgctx);
}

/* ---- one dispatch table per algorithm ---- */

#define FN(id, f) {id, (void (*)(void))(f)}

#define KEYMGMT(idx, tag)                                                                  \
    static void *tag##_new(void *provctx)                                                  \
    {                                                                                      \
        return key_new(provctx, &bikeprov_algs[idx]);                                      \
    }                                                                                      \
    static void *tag##_gen_init(void *provctx, int selection, const OSSL_PARAM params[])   \
    {                                                                                      \
        void *gctx = gen_init(provctx, &bikeprov_algs[idx], selection);                    \
        if (gctx != NULL && !gen_set_params(gctx, params)) {                               \
            gen_cleanup(gctx);                                                             \
            return NULL;                                                                   \
        }                                                                                  \
        return gctx;                                                                       \
    }                                                                                      \
    static const OSSL_DISPATCH tag##_keymgmt[] = {                                         \
        FN(OSSL_FUNC_KEYMGMT_NEW, tag##_new),                                              \
        FN(OSSL_FUNC_KEYMGMT_FREE, key_free),                                              \
        FN(OSSL_FUNC_KEYMGMT_DUP, key_dup),                                                \
        FN(OSSL_FUNC_KEYMGMT_HAS, key_has),                                                \
        FN(OSSL_FUNC_KEYMGMT_MATCH, key_match),                                            \
        FN(OSSL_FUNC_KEYMGMT_GET_PARAMS, key_get_params),                                  \
        FN(OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, key_gettable_params),                        \
        FN(OSSL_FUNC_KEYMGMT_SET_PARAMS, key_set_params),                                  \
        FN(OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, key_settable_params),                        \
        FN(OSSL_FUNC_KEYMGMT_IMPORT, key_import),                                          \
        FN(OSSL_FUNC_KEYMGMT_IMPORT_TYPES, key_io_types_fn),                               \
        FN(OSSL_FUNC_KEYMGMT_EXPORT, key_export),                                          \
        FN(OSSL_FUNC_KEYMGMT_LOAD, key_load),                                              \
        FN(OSSL_FUNC_KEYMGMT_EXPORT_TYPES, key_io_types_fn),                               \
        FN(OSSL_FUNC_KEYMGMT_GEN_INIT, tag##_gen_init),                                    \
        FN(OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, gen_set_params),                              \
        FN(OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, gen_settable_params),                    \
        FN(OSSL_FUNC_KEYMGMT_GEN, gen),                                                    \
        FN(OSSL_FUNC_KEYMGMT_GEN_CLEANUP, gen_cleanup),                                    \
        {0, NULL}};

KEYMGMT(0, bikel1)
KEYMGMT(1, p256_bikel1)
KEYMGMT(2, x25519_bikel1)
KEYMGMT(3, bikel3)
KEYMGMT(4, p384_bikel3)
KEYMGMT(5, x448_bikel3)
KEYMGMT(6, bikel5)
KEYMGMT(7, p521_bikel5)
KEYMGMT(8, mlkem768)
KEYMGMT(9, x25519mlkem768)
KEYMGMT(10, secp256r1mlkem768)

const OSSL_DISPATCH *const bikeprov_keymgmt_dispatch[BIKEPROV_NUM_ALGS] = {
    bikel1_keymgmt, p256_bikel1_keymgmt, x25519_bikel1_keymgmt, bikel3_keymgmt,
    p384_bikel3_keymgmt, x448_bikel3_keymgmt, bikel5_keymgmt, p521_bikel5_keymgmt,
    mlkem768_keymgmt, x25519mlkem768_keymgmt, secp256r1mlkem768_keymgmt,
};
