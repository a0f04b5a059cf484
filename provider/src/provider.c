/* Provider entry point, algorithm tables, provider parameters and the
 * TLS-GROUP capability.
 *
 * Load it by path or by name (bikeprovider, from OPENSSL_MODULES or
 * -provider-path) together with the default provider, which supplies the
 * classical halves of the hybrids and everything else TLS needs.
 */
#include "bikeprov.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/proverr.h>
#include <openssl/rand.h>
#include <openssl/ssl.h> /* TLS1_3_VERSION */

#include <bike/bike.h>
#include <mlkem/mlkem.h>

/* ---- TLS groups ---- */

/* Code points in effect, read once from the environment at the first load
 * (a provider may be loaded several times, in several library contexts; the
 * environment is the same for all of them). */
static unsigned int group_ids[BIKEPROV_NUM_ALGS];
static unsigned int group_security_bits[BIKEPROV_NUM_ALGS];
static int group_is_kem = 1;
static int group_min_tls = TLS1_3_VERSION;
static int group_max_tls = 0;  /* no maximum */
static int group_min_dtls = -1; /* not for DTLS */
static int group_max_dtls = -1;
static OSSL_PARAM group_params[BIKEPROV_NUM_ALGS][11];
static CRYPTO_ONCE group_once = CRYPTO_ONCE_STATIC_INIT;

static unsigned int codepoint_from_env(const bikeprov_alg *alg)
{
    const char *s = getenv(alg->env_codepoint);
    char *end = NULL;
    unsigned long v;

    if (s == NULL || *s == '\0')
        return alg->default_codepoint;
    errno = 0;
    v = strtoul(s, &end, 0);
    if (errno != 0 || end == s || *end != '\0' || v == 0 || v > 0xFFFF)
        return alg->default_codepoint; /* ignore a malformed override */
    return (unsigned int)v;
}

static void groups_init(void)
{
    for (size_t i = 0; i < BIKEPROV_NUM_ALGS; i++) {
        const bikeprov_alg *alg = &bikeprov_algs[i];
        OSSL_PARAM *p = group_params[i];
        char *name = (char *)alg->name;

        group_ids[i] = codepoint_from_env(alg);
        group_security_bits[i] = (unsigned int)alg->security_bits;
        /* The group name, internal name and key-management name are all the
         * algorithm name. */
        p[0] = OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME, name, 0);
        p[1] = OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME_INTERNAL, name, 0);
        p[2] = OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_GROUP_ALG, name, 0);
        p[3] = OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_GROUP_ID, &group_ids[i]);
        p[4] = OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_GROUP_SECURITY_BITS,
                                         &group_security_bits[i]);
        p[5] = OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_IS_KEM, &group_is_kem);
        p[6] = OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MIN_TLS, &group_min_tls);
        p[7] = OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MAX_TLS, &group_max_tls);
        p[8] = OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MIN_DTLS, &group_min_dtls);
        p[9] = OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MAX_DTLS, &group_max_dtls);
        p[10] = OSSL_PARAM_construct_end();
    }
}

static int bikeprov_get_capabilities(void *provctx, const char *capability, OSSL_CALLBACK *cb,
                                     void *arg)
{
    (void)provctx;
    if (capability == NULL || !bikeprov_name_eq(capability, "TLS-GROUP"))
        return 0;
    if (!CRYPTO_THREAD_run_once(&group_once, groups_init))
        return 0;
    for (size_t i = 0; i < BIKEPROV_NUM_ALGS; i++)
        if (!cb(group_params[i], arg))
            return 0;
    return 1;
}

/* ---- algorithms ---- */

static OSSL_ALGORITHM keymgmt_algs[BIKEPROV_NUM_ALGS + 1];
static OSSL_ALGORITHM kem_algs[BIKEPROV_NUM_ALGS + 1];
static CRYPTO_ONCE algs_once = CRYPTO_ONCE_STATIC_INIT;

static void algs_init(void)
{
    for (size_t i = 0; i < BIKEPROV_NUM_ALGS; i++) {
        keymgmt_algs[i].algorithm_names = bikeprov_algs[i].name;
        keymgmt_algs[i].property_definition = BIKEPROV_PROPERTIES;
        keymgmt_algs[i].implementation = bikeprov_keymgmt_dispatch[i];
        keymgmt_algs[i].algorithm_description = "BIKE/ML-KEM key management (bikeco)";
        kem_algs[i].algorithm_names = bikeprov_algs[i].name;
        kem_algs[i].property_definition = BIKEPROV_PROPERTIES;
        kem_algs[i].implementation = bikeprov_kem_functions;
        kem_algs[i].algorithm_description = "BIKE/ML-KEM KEM (bikeco)";
    }
    /* entries [BIKEPROV_NUM_ALGS] stay zero: the terminators */
}

static const OSSL_ALGORITHM *bikeprov_query(void *provctx, int operation_id, int *no_cache)
{
    (void)provctx;
    *no_cache = 0;
    if (!CRYPTO_THREAD_run_once(&algs_once, algs_init))
        return NULL;
    switch (operation_id) {
    case OSSL_OP_KEYMGMT:
        return keymgmt_algs;
    case OSSL_OP_KEM:
        return kem_algs;
    case OSSL_OP_ENCODER:
        return bikeprov_encoder_algs;
    case OSSL_OP_DECODER:
        return bikeprov_decoder_algs;
    default:
        return NULL;
    }
}

/* ---- provider parameters ---- */

static const OSSL_PARAM bikeprov_param_types[] = {
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, NULL, 0),
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, NULL, 0),
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, NULL, 0),
    OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, NULL),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *bikeprov_gettable_params(void *provctx)
{
    (void)provctx;
    return bikeprov_param_types;
}

static char buildinfo_text[192];

static void buildinfo_init(void)
{
    /* The back ends the libraries chose for this CPU (or BIKE_BACKEND=...,
     * MLKEM_BACKEND=...). */
    snprintf(buildinfo_text, sizeof(buildinfo_text),
             "libbike %s, back end %s; libmlkem back end %s; built against %s", bike_version(),
             bike_backend_name(), mlkem_backend_name(), OPENSSL_VERSION_TEXT);
}

static const char *buildinfo(void)
{
    static CRYPTO_ONCE once = CRYPTO_ONCE_STATIC_INIT;

    if (!CRYPTO_THREAD_run_once(&once, buildinfo_init))
        return "libbike";
    return buildinfo_text;
}

static int bikeprov_get_params(void *provctx, OSSL_PARAM params[])
{
    OSSL_PARAM *p;

    (void)provctx;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) != NULL
        && !OSSL_PARAM_set_utf8_ptr(p, BIKEPROV_NAME))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) != NULL
        && !OSSL_PARAM_set_utf8_ptr(p, BIKEPROV_VERSION))
        return 0;
    /* e.g. "libbike 0.1.0, back end avx2; libmlkem back end avx2; built against OpenSSL
     * 3.0.19 27 Jan 2026" */
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) != NULL
        && !OSSL_PARAM_set_utf8_ptr(p, buildinfo()))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) != NULL
        && !OSSL_PARAM_set_int(p, 1))
        return 0;
    return 1;
}

/* ---- randomness ---- */

int bikeprov_random(bikeprov_ctx *prov, uint8_t *out, size_t len, int private_use)
{
    /* The application's DRBG (through the child library context), so that
     * the provider follows whatever RAND set-up the application has. */
    int ok = private_use ? RAND_priv_bytes_ex(prov->libctx, out, len, 0)
                         : RAND_bytes_ex(prov->libctx, out, len, 0);
    return ok > 0;
}

/* ---- entry point ---- */

static void bikeprov_teardown(void *vprov)
{
    bikeprov_ctx *prov = vprov;

    if (prov == NULL)
        return;
    bikeprov_keypool_free(prov->keypool);
    OSSL_LIB_CTX_free(prov->libctx);
    OPENSSL_free(prov);
}

/* keygen-batch from the provider's configuration section: the most key
 * pairs one refill of the pool makes (1: no pool). Anything but a whole
 * number from 1 to BIKEPROV_KEYGEN_BATCH_MAX fails the load, said why. */
static int keygen_batch_setting(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                                size_t *batch)
{
    OSSL_FUNC_core_get_params_fn *get_params = NULL;
    const char *value = NULL;
    char *end = NULL;
    unsigned long v;

    *batch = BIKEPROV_KEYGEN_BATCH_DEFAULT;
    for (; in->function_id != 0; in++)
        if (in->function_id == OSSL_FUNC_CORE_GET_PARAMS)
            get_params = OSSL_FUNC_core_get_params(in);
    if (get_params == NULL)
        return 1;
    OSSL_PARAM params[] = {OSSL_PARAM_utf8_ptr("keygen-batch", (char **)&value, 0),
                           OSSL_PARAM_END};
    if (!get_params(handle, params) || value == NULL)
        return 1; /* not set */
    errno = 0;
    v = strtoul(value, &end, 10);
    if (errno != 0 || end == value || *end != '\0' || value[0] == '-' || v < 1
        || v > BIKEPROV_KEYGEN_BATCH_MAX) {
        /* OpenSSL 3.0's configuration loader drops a provider's load
         * errors: stderr is where the user will see it. */
        fprintf(stderr,
                "bikeprovider: keygen-batch = \"%s\": want a whole number from 1 to %d; "
                "not loaded\n",
                value, BIKEPROV_KEYGEN_BATCH_MAX);
        ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_CONFIG_DATA,
                       "keygen-batch = \"%s\": want a whole number from 1 to %d", value,
                       BIKEPROV_KEYGEN_BATCH_MAX);
        return 0;
    }
    *batch = v;
    return 1;
}

#define FN(id, f) {id, (void (*)(void))(f)}

static const OSSL_DISPATCH bikeprov_dispatch[] = {
    FN(OSSL_FUNC_PROVIDER_TEARDOWN, bikeprov_teardown),
    FN(OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, bikeprov_gettable_params),
    FN(OSSL_FUNC_PROVIDER_GET_PARAMS, bikeprov_get_params),
    FN(OSSL_FUNC_PROVIDER_QUERY_OPERATION, bikeprov_query),
    FN(OSSL_FUNC_PROVIDER_GET_CAPABILITIES, bikeprov_get_capabilities),
    {0, NULL},
};

/* The only exported symbol (the module is built with hidden visibility). */
__attribute__((visibility("default"))) OSSL_provider_init_fn OSSL_provider_init;

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx)
{
    bikeprov_ctx *prov = OPENSSL_zalloc(sizeof(*prov));
    size_t batch;

    if (prov == NULL)
        return 0;
    prov->handle = handle;
    /* A child library context sees the providers of the application's
     * context (the default provider for EC/X25519/X448 and the DRBG). */
    prov->libctx = OSSL_LIB_CTX_new_child(handle, in);
    if (prov->libctx == NULL || !CRYPTO_THREAD_run_once(&group_once, groups_init)
        || !keygen_batch_setting(handle, in, &batch)
        || (batch > 1 && (prov->keypool = bikeprov_keypool_new(batch)) == NULL)) {
        bikeprov_teardown(prov);
        return 0;
    }
    bikeprov_register_oids();
    *out = bikeprov_dispatch;
    *provctx = prov;
    return 1;
}
