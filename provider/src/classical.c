/* The classical half of the hybrids, computed by whichever provider of the
 * application supplies EC/X25519/X448 (normally OpenSSL's default provider),
 * fetched through the provider's child library context. */
#include "bikeprov.h"

#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/proverr.h>

EVP_PKEY *bikeprov_classical_keygen(OSSL_LIB_CTX *libctx, const bikeprov_alg *alg)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(libctx, alg->classical_type, NULL);
    EVP_PKEY *pkey = NULL;

    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) <= 0)
        goto done;
    if (alg->kind == BIKEPROV_CLASSICAL_EC
        && EVP_PKEY_CTX_set_group_name(ctx, alg->classical_group) <= 0)
        goto done;
    if (EVP_PKEY_keygen(ctx, &pkey) <= 0)
        pkey = NULL;
done:
    EVP_PKEY_CTX_free(ctx);
    if (pkey == NULL)
        ERR_raise_data(ERR_LIB_PROV, PROV_R_FAILED_TO_GENERATE_KEY, "%s key for %s",
                       alg->classical_type, alg->name);
    return pkey;
}

int bikeprov_classical_encode(const bikeprov_alg *alg, const EVP_PKEY *pkey, uint8_t *out)
{
    size_t len = 0;

    /* For EC this is the uncompressed point (OpenSSL's default form), for
     * X25519/X448 the raw key: exactly the TLS 1.3 key-share formats. */
    if (!EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, out,
                                         alg->classical_pub_bytes, &len)
        || len != alg->classical_pub_bytes) {
        ERR_raise_data(ERR_LIB_PROV, PROV_R_FAILED_TO_GET_PARAMETER,
                       "encoded %s public key", alg->classical_type);
        return 0;
    }
    return 1;
}

EVP_PKEY *bikeprov_classical_decode(OSSL_LIB_CTX *libctx, const bikeprov_alg *alg,
                                    const uint8_t *in)
{
    EVP_PKEY *pkey = NULL;

    if (alg->kind == BIKEPROV_CLASSICAL_ECX) {
        pkey = EVP_PKEY_new_raw_public_key_ex(libctx, alg->classical_type, NULL, in,
                                              alg->classical_pub_bytes);
    } else if (in[0] == 0x04) { /* TLS 1.3 allows the uncompressed form only */
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(libctx, "EC", NULL);
        OSSL_PARAM params[3];

        params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
                                                     (char *)alg->classical_group, 0);
        params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)in,
                                                      alg->classical_pub_bytes);
        params[2] = OSSL_PARAM_construct_end();
        /* The import decodes the point and rejects one not on the curve. */
        if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) <= 0
            || EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0)
            pkey = NULL;
        EVP_PKEY_CTX_free(ctx);
    }
    if (pkey == NULL)
        ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_KEY, "%s public key of %s",
                       alg->classical_type, alg->name);
    return pkey;
}

int bikeprov_classical_derive(OSSL_LIB_CTX *libctx, const bikeprov_alg *alg, EVP_PKEY *priv,
                              EVP_PKEY *peer, uint8_t *secret)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(libctx, priv, NULL);
    size_t len = alg->classical_secret_bytes;
    int ok = 0;

    /* The peer key was imported by bikeprov_classical_decode, which checks
     * that an EC point is on the curve (all three curves have cofactor 1, so
     * that is the whole public-key check); the full check of set_peer would
     * repeat it at the cost of a scalar multiplication. X25519 and X448 fail
     * on an all-zero output (a small-order peer point). */
    if (ctx != NULL && EVP_PKEY_derive_init(ctx) > 0
        && EVP_PKEY_derive_set_peer_ex(ctx, peer, 0) > 0
        && EVP_PKEY_derive(ctx, secret, &len) > 0 && len == alg->classical_secret_bytes)
        ok = 1;
    EVP_PKEY_CTX_free(ctx);
    if (!ok) {
        OPENSSL_cleanse(secret, alg->classical_secret_bytes);
        ERR_raise_data(ERR_LIB_PROV, PROV_R_KEY_SETUP_FAILED, "%s key agreement for %s",
                       alg->classical_type, alg->name);
    }
    return ok;
}
