/* Encoders and decoders of BIKE keys (bikel1, bikel3, bikel5) and of the
 * hybrids' keys (p256_bikel1, x25519_bikel1, p384_bikel3, x448_bikel3,
 * p521_bikel5): the standard containers, so that `openssl genpkey`,
 * `openssl pkey` and any program using PEM_read/PEM_write or
 * OSSL_DECODER/OSSL_ENCODER handle them.
 *
 *   public key   SubjectPublicKeyInfo (RFC 5280): AlgorithmIdentifier with the
 *                level's OID and no parameters; subjectPublicKey is the BIT
 *                STRING of the libbike public key h (KAT format)
 *   private key  PrivateKeyInfo (PKCS #8, RFC 5208): the same AlgorithmIdentifier;
 *                privateKey holds the DER OCTET STRING of the libbike secret key
 *                (KAT format, which contains h, so the public key comes with it)
 *   text         the key in hexadecimal (openssl pkey -text)
 * DER and PEM ("PUBLIC KEY", "PRIVATE KEY") of each. Encrypted PKCS #8 is not
 * supported: asking for a cipher is an error, not a silently clear key.
 *
 * Hybrids, in oqs-provider's layout (its KEM hybrids, not "reverse"):
 *   subjectPublicKey  uint32 (big-endian) length of the classical public key
 *                     || classical public key (uncompressed SEC1 point, or
 *                     the raw X25519/X448 key) || BIKE public key
 *   privateKey        the DER OCTET STRING of: uint32 length of the classical
 *                     private key || classical private key (DER ECPrivateKey
 *                     as i2d_PrivateKey writes it, or the raw X25519/X448
 *                     key) || BIKE secret key || BIKE public key
 *
 * OIDs: oqs-provider assigns none to its BIKE KEMs and lets the environment
 * set them (OQS_OID_BIKEL1, ...). We read the same variables, so that both
 * providers agree whenever they are set, and default to the experimental arc
 * 1.3.9999.99.<level>, which oqs-provider does not use; the hybrids likewise
 * (OQS_OID_P256_BIKEL1, ...; default 1.3.9999.99.11 to .15).
 */
#include "bikeprov.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/asn1t.h>
#include <openssl/bio.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/proverr.h>
#include <openssl/x509.h>

/* The secret key's last field (bike.h: ... || h || sigma). */
#define SIGMA_BYTES 32

/* ---- algorithm identifiers ---- */

typedef struct {
    int alg_index; /* into bikeprov_algs */
    const char *env;
    const char *default_oid;
} codec_alg;

static const codec_alg codec_algs[BIKEPROV_NUM_CODEC_ALGS] = {
    {0, "OQS_OID_BIKEL1", "1.3.9999.99.1"},
    {3, "OQS_OID_BIKEL3", "1.3.9999.99.3"},
    {6, "OQS_OID_BIKEL5", "1.3.9999.99.5"},
    {1, "OQS_OID_P256_BIKEL1", "1.3.9999.99.11"},
    {2, "OQS_OID_X25519_BIKEL1", "1.3.9999.99.12"},
    {4, "OQS_OID_P384_BIKEL3", "1.3.9999.99.13"},
    {5, "OQS_OID_X448_BIKEL3", "1.3.9999.99.14"},
    {7, "OQS_OID_P521_BIKEL5", "1.3.9999.99.15"},
};

/* The hybrids' length prefix of the classical part (oqs-provider's). */
#define LEN_PREFIX 4
/* Bound on a DER ECPrivateKey of P-521 (about 223 bytes), with room. */
#define MAX_CLASSICAL_PRIV 512

static void put_u32be(uint8_t *out, size_t v)
{
    out[0] = (uint8_t)(v >> 24);
    out[1] = (uint8_t)(v >> 16);
    out[2] = (uint8_t)(v >> 8);
    out[3] = (uint8_t)v;
}

static size_t get_u32be(const uint8_t *in)
{
    return ((size_t)in[0] << 24) | ((size_t)in[1] << 16) | ((size_t)in[2] << 8) | in[3];
}

static int is_hybrid(const bikeprov_alg *alg)
{
    return alg->kind != BIKEPROV_CLASSICAL_NONE;
}

/* Size of subjectPublicKey's content. */
static size_t spki_key_bytes(const bikeprov_alg *alg)
{
    return is_hybrid(alg) ? LEN_PREFIX + alg->classical_pub_bytes + alg->pq_pk_bytes
                          : alg->pq_pk_bytes;
}

/* subjectPublicKey's content into out (spki_key_bytes). */
static int spki_key(const bikeprov_key *key, uint8_t *out)
{
    const bikeprov_alg *alg = key->alg;

    if (!is_hybrid(alg)) {
        memcpy(out, key->pq_pk, alg->pq_pk_bytes);
        return 1;
    }
    put_u32be(out, alg->classical_pub_bytes);
    return bikeprov_key_encode_public(key, out + LEN_PREFIX,
                                      alg->classical_pub_bytes + alg->pq_pk_bytes);
}

/* The private payload inside the PKCS #8 OCTET STRING, in the secure heap
 * (*len bytes), or NULL with an error queued. */
static uint8_t *private_payload(const bikeprov_key *key, size_t *len)
{
    const bikeprov_alg *alg = key->alg;
    uint8_t classical[MAX_CLASSICAL_PRIV], *out, *p = classical;
    size_t clen = sizeof(classical);
    int n;

    if (!is_hybrid(alg)) {
        if ((out = OPENSSL_secure_malloc(alg->pq_sk_bytes)) != NULL)
            memcpy(out, key->pq_sk, alg->pq_sk_bytes);
        *len = alg->pq_sk_bytes;
        return out;
    }
    if (alg->kind == BIKEPROV_CLASSICAL_ECX) {
        if (EVP_PKEY_get_raw_private_key(key->classical, classical, &clen) != 1)
            clen = 0;
    } else if ((n = i2d_PrivateKey(key->classical, NULL)) > 0 && n <= MAX_CLASSICAL_PRIV) {
        clen = (size_t)i2d_PrivateKey(key->classical, &p);
    } else {
        clen = 0;
    }
    if (clen == 0) {
        ERR_raise_data(ERR_LIB_PROV, PROV_R_FAILED_TO_GET_PARAMETER, "%s private key of %s",
                       alg->classical_type, alg->name);
        return NULL;
    }
    *len = LEN_PREFIX + clen + alg->pq_sk_bytes + alg->pq_pk_bytes;
    if ((out = OPENSSL_secure_malloc(*len)) != NULL) {
        put_u32be(out, clen);
        memcpy(out + LEN_PREFIX, classical, clen);
        memcpy(out + LEN_PREFIX + clen, key->pq_sk, alg->pq_sk_bytes);
        memcpy(out + LEN_PREFIX + clen + alg->pq_sk_bytes, key->pq_pk, alg->pq_pk_bytes);
    }
    OPENSSL_cleanse(classical, sizeof(classical));
    return out;
}

/* The OID of an algorithm as an object (caller frees), or NULL with an
 * error queued if the environment gives a malformed one. */
static const char *alg_oid_text(const codec_alg *c)
{
    const char *text = getenv(c->env);

    return text != NULL && *text != '\0' ? text : c->default_oid;
}

static ASN1_OBJECT *alg_oid(const codec_alg *c)
{
    const char *text = alg_oid_text(c);
    ASN1_OBJECT *obj;

    if ((obj = OBJ_txt2obj(text, 1)) == NULL)
        ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_KEY, "%s: bad OID '%s' in %s",
                       bikeprov_algs[c->alg_index].name, text, c->env);
    return obj;
}

void bikeprov_register_oids(void)
{
    /* OpenSSL's own SubjectPublicKeyInfo decoder names the key type by its
     * OID's short name: without one, a public key file would not reach our
     * decoder. An OID or name already known (another provider's) is left. */
    ERR_set_mark();
    for (size_t i = 0; i < BIKEPROV_NUM_CODEC_ALGS; i++) {
        const codec_alg *c = &codec_algs[i];
        const char *name = bikeprov_algs[c->alg_index].name;
        const char *text = alg_oid_text(c);

        if (OBJ_txt2nid(text) == NID_undef && OBJ_sn2nid(name) == NID_undef)
            OBJ_create(text, name, name);
    }
    ERR_pop_to_mark();
}

/* ---- SubjectPublicKeyInfo, parsed without libcrypto's X509_PUBKEY (whose
 * d2i asks the providers to decode the key, which would call us again) ---- */

typedef struct {
    X509_ALGOR *algor;
    ASN1_BIT_STRING *key;
} BIKEPROV_SPKI;

ASN1_SEQUENCE(BIKEPROV_SPKI) = {
    ASN1_SIMPLE(BIKEPROV_SPKI, algor, X509_ALGOR),
    ASN1_SIMPLE(BIKEPROV_SPKI, key, ASN1_BIT_STRING),
} static_ASN1_SEQUENCE_END(BIKEPROV_SPKI)

IMPLEMENT_STATIC_ASN1_ALLOC_FUNCTIONS(BIKEPROV_SPKI)
IMPLEMENT_STATIC_ASN1_ENCODE_FUNCTIONS(BIKEPROV_SPKI)

/* ---- key to DER ---- */

/* DER of the SubjectPublicKeyInfo of key (*der OPENSSL_malloc'd), or -1. */
static int spki_der(const codec_alg *c, const bikeprov_key *key, unsigned char **der)
{
    BIKEPROV_SPKI *spki = BIKEPROV_SPKI_new();
    ASN1_OBJECT *oid = alg_oid(c);
    size_t n = spki_key_bytes(key->alg);
    uint8_t *content = OPENSSL_malloc(n);
    int len = -1;

    *der = NULL;
    if (spki == NULL || oid == NULL || content == NULL || !spki_key(key, content))
        goto done;
    if (!X509_ALGOR_set0(spki->algor, oid, V_ASN1_UNDEF, NULL))
        goto done;
    oid = NULL;
    if (!ASN1_BIT_STRING_set(spki->key, content, (int)n))
        goto done;
    /* Whole bytes: no trailing zero bytes dropped, 0 unused bits. */
    spki->key->flags &= ~(ASN1_STRING_FLAG_BITS_LEFT | 0x07);
    spki->key->flags |= ASN1_STRING_FLAG_BITS_LEFT;
    len = i2d_BIKEPROV_SPKI(spki, der);
done:
    OPENSSL_free(content);
    ASN1_OBJECT_free(oid);
    BIKEPROV_SPKI_free(spki);
    return len;
}

/* DER of the PrivateKeyInfo of key (*der in the secure heap), or -1. */
static int pki_der(const codec_alg *c, const bikeprov_key *key, unsigned char **der,
                   size_t *der_alloc)
{
    PKCS8_PRIV_KEY_INFO *p8 = PKCS8_PRIV_KEY_INFO_new();
    ASN1_OCTET_STRING *inner = ASN1_OCTET_STRING_new();
    ASN1_OBJECT *oid = alg_oid(c);
    unsigned char *inner_der = NULL, *p;
    size_t payload_len = 0;
    uint8_t *payload = private_payload(key, &payload_len);
    int inner_len, len = -1;

    *der = NULL;
    if (p8 == NULL || inner == NULL || oid == NULL || payload == NULL
        || !ASN1_OCTET_STRING_set(inner, payload, (int)payload_len))
        goto done;
    if ((inner_len = i2d_ASN1_OCTET_STRING(inner, &inner_der)) <= 0)
        goto done;
    /* p8 owns oid and inner_der from here (and clears the key on free). */
    if (!PKCS8_pkey_set0(p8, oid, 0, V_ASN1_UNDEF, NULL, inner_der, inner_len))
        goto done;
    oid = NULL;
    inner_der = NULL;
    if ((len = i2d_PKCS8_PRIV_KEY_INFO(p8, NULL)) <= 0
        || (*der = OPENSSL_secure_malloc((size_t)len)) == NULL) {
        len = -1;
        goto done;
    }
    *der_alloc = (size_t)len;
    p = *der;
    if (i2d_PKCS8_PRIV_KEY_INFO(p8, &p) != len) {
        OPENSSL_secure_clear_free(*der, *der_alloc);
        *der = NULL;
        len = -1;
    }
done:
    OPENSSL_secure_clear_free(payload, payload_len);
    if (inner_der != NULL)
        OPENSSL_clear_free(inner_der, (size_t)inner_len);
    ASN1_OBJECT_free(oid);
    ASN1_STRING_clear_free(inner);
    PKCS8_PRIV_KEY_INFO_free(p8);
    return len;
}

/* ---- encoders ---- */

typedef struct {
    bikeprov_ctx *prov;
    int cipher_requested;
} encoder_ctx;

static void *encoder_newctx(void *provctx)
{
    encoder_ctx *ctx = OPENSSL_zalloc(sizeof(*ctx));

    if (ctx != NULL)
        ctx->prov = provctx;
    return ctx;
}

static void encoder_freectx(void *ctx)
{
    OPENSSL_free(ctx);
}

static const OSSL_PARAM encoder_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_CIPHER, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_PROPERTIES, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *encoder_settable_ctx_params(void *provctx)
{
    (void)provctx;
    return encoder_settable;
}

static int encoder_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    encoder_ctx *ctx = vctx;
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_ENCODER_PARAM_CIPHER);
    const char *name = NULL;

    if (p != NULL) {
        if (!OSSL_PARAM_get_utf8_string_ptr(p, &name))
            return 0;
        ctx->cipher_requested = name != NULL && *name != '\0';
    }
    return 1;
}

enum { OUT_DER, OUT_PEM };

static int write_der(BIO *out, int form, const char *pem_name, const unsigned char *der, int len)
{
    if (form == OUT_PEM)
        return PEM_write_bio(out, pem_name, "", der, len) > 0;
    return BIO_write(out, der, len) == len;
}

static int encode_public(encoder_ctx *ctx, const codec_alg *c, OSSL_CORE_BIO *cout,
                         const bikeprov_key *key, int form)
{
    BIO *out = BIO_new_from_core_bio(ctx->prov->libctx, cout);
    unsigned char *der = NULL;
    int len, ok = 0;

    if (out != NULL && key != NULL && bikeprov_key_has_public(key)
        && (len = spki_der(c, key, &der)) > 0)
        ok = write_der(out, form, PEM_STRING_PUBLIC, der, len);
    OPENSSL_free(der);
    BIO_free(out);
    return ok;
}

static int encode_private(encoder_ctx *ctx, const codec_alg *c, OSSL_CORE_BIO *cout,
                          const bikeprov_key *key, int form)
{
    BIO *out;
    unsigned char *der = NULL;
    size_t alloc = 0;
    int len, ok = 0;

    if (ctx->cipher_requested) {
        ERR_raise_data(ERR_LIB_PROV, PROV_R_NOT_SUPPORTED,
                       "%s: encrypted private keys are not supported",
                       bikeprov_algs[c->alg_index].name);
        return 0;
    }
    if (key == NULL || !key->has_private) {
        ERR_raise(ERR_LIB_PROV, PROV_R_NOT_A_PRIVATE_KEY);
        return 0;
    }
    if ((out = BIO_new_from_core_bio(ctx->prov->libctx, cout)) != NULL
        && (len = pki_der(c, key, &der, &alloc)) > 0)
        ok = write_der(out, form, PEM_STRING_PKCS8INF, der, len);
    OPENSSL_secure_clear_free(der, alloc);
    BIO_free(out);
    return ok;
}

/* Hexadecimal, 15 bytes a line, as OpenSSL prints raw keys. */
static int print_hex(BIO *out, const char *label, const uint8_t *buf, size_t len)
{
    if (BIO_printf(out, "%s:", label) <= 0)
        return 0;
    for (size_t i = 0; i < len; i++) {
        if (i % 15 == 0 && BIO_printf(out, "\n    ") <= 0)
            return 0;
        if (BIO_printf(out, "%02x%s", buf[i], i + 1 < len ? ":" : "") <= 0)
            return 0;
    }
    return BIO_printf(out, "\n") > 0;
}

static int encode_text(encoder_ctx *ctx, OSSL_CORE_BIO *cout, const bikeprov_key *key,
                       int selection)
{
    BIO *out = BIO_new_from_core_bio(ctx->prov->libctx, cout);
    const bikeprov_alg *alg = key->alg;
    int priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    int ok = 0;

    if (out == NULL)
        return 0;
    if (priv && !key->has_private) {
        ERR_raise(ERR_LIB_PROV, PROV_R_NOT_A_PRIVATE_KEY);
        goto done;
    }
    if (!bikeprov_key_has_public(key)) {
        ERR_raise(ERR_LIB_PROV, PROV_R_NOT_A_PUBLIC_KEY);
        goto done;
    }
    if (is_hybrid(alg)) {
        uint8_t classical[256]; /* an uncompressed P-521 point is 133 bytes */

        if (BIO_printf(out, "%s (%s + BIKE level %d) %s-Key:\n", alg->name,
                       alg->classical_group != NULL ? alg->classical_group : alg->classical_type,
                       alg->level, priv ? "Private" : "Public") <= 0
            || !bikeprov_classical_encode(alg, key->classical, classical)
            || !print_hex(out, "classical pub", classical, alg->classical_pub_bytes))
            goto done;
    } else if (BIO_printf(out, "BIKE level %d %s-Key:\n", alg->level,
                          priv ? "Private" : "Public") <= 0) {
        goto done;
    }
    if (priv && !print_hex(out, "priv", key->pq_sk, alg->pq_sk_bytes))
        goto done;
    ok = print_hex(out, "pub", key->pq_pk, alg->pq_pk_bytes);
done:
    BIO_free(out);
    return ok;
}

static int does_public(void *ctx, int selection)
{
    (void)ctx;
    return selection == 0 || (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0;
}

static int does_private(void *ctx, int selection)
{
    (void)ctx;
    return selection == 0 || (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
}

static int does_keypair(void *ctx, int selection)
{
    (void)ctx;
    return selection == 0 || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0;
}

#define FN(id, f) {id, (void (*)(void))(f)}

#define ENCODER(idx, tag, kind, form, does)                                                 \
    static int tag##_encode(void *ctx, OSSL_CORE_BIO *cout, const void *key,                \
                            const OSSL_PARAM key_abstract[], int selection,                 \
                            OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)                      \
    {                                                                                       \
        (void)key_abstract;                                                                 \
        (void)selection;                                                                    \
        (void)cb;                                                                           \
        (void)cbarg;                                                                        \
        return encode_##kind(ctx, &codec_algs[idx], cout, key, form);                       \
    }                                                                                       \
    static const OSSL_DISPATCH tag##_encoder[] = {                                          \
        FN(OSSL_FUNC_ENCODER_NEWCTX, encoder_newctx),                                       \
        FN(OSSL_FUNC_ENCODER_FREECTX, encoder_freectx),                                     \
        FN(OSSL_FUNC_ENCODER_SET_CTX_PARAMS, encoder_set_ctx_params),                       \
        FN(OSSL_FUNC_ENCODER_SETTABLE_CTX_PARAMS, encoder_settable_ctx_params),             \
        FN(OSSL_FUNC_ENCODER_DOES_SELECTION, does),                                         \
        FN(OSSL_FUNC_ENCODER_ENCODE, tag##_encode),                                         \
        {0, NULL}};

#define ENCODERS(idx, tag)                                                                  \
    ENCODER(idx, tag##_spki_der, public, OUT_DER, does_public)                              \
    ENCODER(idx, tag##_spki_pem, public, OUT_PEM, does_public)                              \
    ENCODER(idx, tag##_pki_der, private, OUT_DER, does_private)                             \
    ENCODER(idx, tag##_pki_pem, private, OUT_PEM, does_private)

ENCODERS(0, bikel1)
ENCODERS(1, bikel3)
ENCODERS(2, bikel5)
ENCODERS(3, p256_bikel1)
ENCODERS(4, x25519_bikel1)
ENCODERS(5, p384_bikel3)
ENCODERS(6, x448_bikel3)
ENCODERS(7, p521_bikel5)

static int text_encode(void *ctx, OSSL_CORE_BIO *cout, const void *key,
                       const OSSL_PARAM key_abstract[], int selection,
                       OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)
{
    (void)key_abstract;
    (void)cb;
    (void)cbarg;
    return encode_text(ctx, cout, key, selection);
}

static const OSSL_DISPATCH text_encoder[] = {
    FN(OSSL_FUNC_ENCODER_NEWCTX, encoder_newctx),
    FN(OSSL_FUNC_ENCODER_FREECTX, encoder_freectx),
    FN(OSSL_FUNC_ENCODER_DOES_SELECTION, does_keypair),
    FN(OSSL_FUNC_ENCODER_ENCODE, text_encode),
    {0, NULL}};

/* ---- decoders ---- */

/* The whole input, at most `max` bytes (*buf OPENSSL_malloc'd). */
static int read_all(bikeprov_ctx *prov, OSSL_CORE_BIO *cin, size_t max, unsigned char **buf,
                    size_t *len)
{
    BIO *in = BIO_new_from_core_bio(prov->libctx, cin);
    unsigned char *data = OPENSSL_malloc(max);
    size_t used = 0;
    int n, ok = 0;

    *buf = NULL;
    *len = 0;
    if (in == NULL || data == NULL)
        goto done;
    while (used < max && (n = BIO_read(in, data + used, (int)(max - used))) > 0)
        used += (size_t)n;
    if (used == max) /* no BIKE key container is this large */
        goto done;
    *buf = data;
    *len = used;
    data = NULL;
    ok = 1;
done:
    OPENSSL_clear_free(data, max);
    BIO_free(in);
    return ok;
}

/* 1 if the AlgorithmIdentifier is the algorithm's (and *mine set), with
 * absent parameters; 0 otherwise (an error queued if it is the algorithm's). */
static int algor_is(const codec_alg *c, const X509_ALGOR *algor, int *mine)
{
    const ASN1_OBJECT *obj;
    int ptype;
    ASN1_OBJECT *want = alg_oid(c);
    int match;

    if (want == NULL)
        return 0;
    X509_ALGOR_get0(&obj, &ptype, NULL, algor);
    match = OBJ_cmp(obj, want) == 0;
    ASN1_OBJECT_free(want);
    *mine = match;
    if (match && ptype != V_ASN1_UNDEF) {
        ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_KEY, "%s: unexpected algorithm parameters",
                       bikeprov_algs[c->alg_index].name);
        return 0;
    }
    return match;
}

/* A key of algorithm c from a DER SubjectPublicKeyInfo, or NULL; *mine is
 * set if the DER names this algorithm (then an error is queued on failure). */
static bikeprov_key *decode_spki(bikeprov_ctx *prov, const codec_alg *c,
                                 const unsigned char *der, size_t len, int *mine)
{
    const bikeprov_alg *alg = &bikeprov_algs[c->alg_index];
    const unsigned char *p = der, *content;
    BIKEPROV_SPKI *spki = d2i_BIKEPROV_SPKI(NULL, &p, (long)len);
    bikeprov_key *key = NULL;
    EVP_PKEY *classical = NULL;
    size_t off = 0;

    if (spki == NULL || p != der + len || !algor_is(c, spki->algor, mine))
        goto done;
    content = ASN1_STRING_get0_data(spki->key);
    if ((size_t)ASN1_STRING_length(spki->key) != spki_key_bytes(alg)
        || (spki->key->flags & 0x07) != 0) {
        ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_KEY_LENGTH,
                       "%s public key: %d bytes, want %zu", alg->name,
                       ASN1_STRING_length(spki->key), spki_key_bytes(alg));
        goto done;
    }
    if (is_hybrid(alg)) {
        if (get_u32be(content) != alg->classical_pub_bytes) {
            ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_KEY_LENGTH,
                           "%s public key: classical part of %zu bytes, want %zu", alg->name,
                           get_u32be(content), alg->classical_pub_bytes);
            goto done;
        }
        if ((classical = bikeprov_classical_decode(prov->libctx, alg, content + LEN_PREFIX))
            == NULL)
            goto done;
        off = LEN_PREFIX + alg->classical_pub_bytes;
    }
    if ((key = bikeprov_key_from_bytes(prov, alg, content + off, NULL)) != NULL) {
        key->classical = classical;
        classical = NULL;
    }
done:
    EVP_PKEY_free(classical);
    BIKEPROV_SPKI_free(spki);
    return key;
}

/* The classical private key of a hybrid from its file form, checked to be of
 * the algorithm's type and curve and to carry its public key; NULL with an
 * error queued otherwise. */
static EVP_PKEY *classical_private(bikeprov_ctx *prov, const bikeprov_alg *alg,
                                   const uint8_t *in, size_t len)
{
    EVP_PKEY *pkey = NULL;
    uint8_t pub[256];
    char group[64];
    const unsigned char *p = in;

    if (alg->kind == BIKEPROV_CLASSICAL_ECX) {
        /* An X25519/X448 private key has the size of its public key. */
        if (len == alg->classical_pub_bytes)
            pkey = EVP_PKEY_new_raw_private_key_ex(prov->libctx, alg->classical_type, NULL, in,
                                                   len);
    } else if ((pkey = d2i_PrivateKey_ex(EVP_PKEY_EC, NULL, &p, (long)len, prov->libctx, NULL))
               != NULL) {
        uint8_t again[MAX_CLASSICAL_PRIV], *q = again;

        /* Only the form i2d_PrivateKey writes (curve and public point
         * present), so that a key file re-encodes to the same bytes. */
        if (p != in + len
            || !EVP_PKEY_get_utf8_string_param(pkey, OSSL_PKEY_PARAM_GROUP_NAME, group,
                                               sizeof(group), NULL)
            || OBJ_txt2nid(group) != EC_curve_nist2nid(alg->classical_group)
            || i2d_PrivateKey(pkey, NULL) != (int)len || i2d_PrivateKey(pkey, &q) != (int)len
            || CRYPTO_memcmp(again, in, len) != 0) {
            EVP_PKEY_free(pkey);
            pkey = NULL;
        }
        OPENSSL_cleanse(again, sizeof(again));
    }
    ERR_set_mark();
    if (pkey != NULL && !bikeprov_classical_encode(alg, pkey, pub)) {
        EVP_PKEY_free(pkey);
        pkey = NULL;
    }
    ERR_pop_to_mark();
    if (pkey == NULL)
        ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_KEY, "%s private key: bad %s key",
                       alg->name, alg->classical_group != NULL ? alg->classical_group
                                                               : alg->classical_type);
    return pkey;
}

/* As decode_spki, from a DER PrivateKeyInfo. */
static bikeprov_key *decode_pki(bikeprov_ctx *prov, const codec_alg *c,
                                const unsigned char *der, size_t len, int *mine)
{
    const bikeprov_alg *alg = &bikeprov_algs[c->alg_index];
    const unsigned char *p = der, *inner_der, *data;
    PKCS8_PRIV_KEY_INFO *p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &p, (long)len);
    const X509_ALGOR *algor;
    ASN1_OCTET_STRING *inner = NULL;
    bikeprov_key *key = NULL;
    EVP_PKEY *classical = NULL;
    size_t n, clen = 0, off = 0;
    int inner_len;

    if (p8 == NULL || p != der + len || !PKCS8_pkey_get0(NULL, &inner_der, &inner_len, &algor, p8)
        || !algor_is(c, algor, mine))
        goto done;
    p = inner_der;
    inner = d2i_ASN1_OCTET_STRING(NULL, &p, inner_len);
    if (inner == NULL || p != inner_der + inner_len) {
        ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_KEY, "%s private key: want an OCTET STRING",
                       alg->name);
        goto done;
    }
    data = ASN1_STRING_get0_data(inner);
    n = (size_t)ASN1_STRING_length(inner);
    if (is_hybrid(alg)) {
        /* length || classical || BIKE secret key || BIKE public key */
        if (n >= LEN_PREFIX)
            clen = get_u32be(data);
        if (n < LEN_PREFIX || clen == 0 || clen > MAX_CLASSICAL_PRIV
            || n != LEN_PREFIX + clen + alg->pq_sk_bytes + alg->pq_pk_bytes) {
            ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_KEY_LENGTH,
                           "%s private key: %zu bytes do not hold a classical key, %zu and %zu",
                           alg->name, n, alg->pq_sk_bytes, alg->pq_pk_bytes);
            goto done;
        }
        if ((classical = classical_private(prov, alg, data + LEN_PREFIX, clen)) == NULL)
            goto done;
        off = LEN_PREFIX + clen;
        /* The trailing public key repeats h, the secret key's public part. */
        if (CRYPTO_memcmp(data + off + alg->pq_sk_bytes,
                          data + off + alg->pq_sk_bytes - SIGMA_BYTES - alg->pq_pk_bytes,
                          alg->pq_pk_bytes) != 0) {
            ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_KEY,
                           "%s private key: public key does not match", alg->name);
            goto done;
        }
    } else if (n != alg->pq_sk_bytes) {
        ERR_raise_data(ERR_LIB_PROV, PROV_R_INVALID_KEY_LENGTH,
                       "%s private key: want an OCTET STRING of %zu bytes", alg->name,
                       alg->pq_sk_bytes);
        goto done;
    }
    /* The secret key ends with h || sigma: h is the public key. */
    key = bikeprov_key_from_bytes(prov, alg,
                                  data + off + alg->pq_sk_bytes - SIGMA_BYTES
                                      - alg->pq_pk_bytes,
                                  data + off);
    if (key != NULL) {
        key->classical = classical;
        classical = NULL;
    }
done:
    EVP_PKEY_free(classical);
    ASN1_STRING_clear_free(inner);
    PKCS8_PRIV_KEY_INFO_free(p8);
    return key;
}

/* Hands the key to OpenSSL by reference (the key management's load takes it). */
static int pass_key(bikeprov_key *key, OSSL_CALLBACK *data_cb, void *data_cbarg)
{
    int type = OSSL_OBJECT_PKEY;
    OSSL_PARAM params[4];
    int ok;

    params[0] = OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE, &type);
    params[1] = OSSL_PARAM_construct_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE,
                                                 (char *)key->alg->name, 0);
    params[2] = OSSL_PARAM_construct_octet_string(OSSL_OBJECT_PARAM_REFERENCE, &key,
                                                  sizeof(key));
    params[3] = OSSL_PARAM_construct_end();
    ok = data_cb(params, data_cbarg);
    bikeprov_key_free(key); /* NULL if loaded */
    return ok;
}

enum { IN_SPKI, IN_PKI };

/* The largest container: a p521_bikel5 PrivateKeyInfo, with room to spare. */
#define MAX_DER (BIKE_L5_SECRET_KEY_BYTES + BIKE_L5_PUBLIC_KEY_BYTES + MAX_CLASSICAL_PRIV + 256)

static int decode(bikeprov_ctx *prov, const codec_alg *c, int structure, OSSL_CORE_BIO *cin,
                  int selection, OSSL_CALLBACK *data_cb, void *data_cbarg)
{
    unsigned char *der = NULL;
    size_t len = 0;
    bikeprov_key *key;
    int mine = 0;

    if (structure == IN_SPKI && selection != 0
        && (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) == 0)
        return 1;
    if (structure == IN_PKI && selection != 0
        && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) == 0)
        return 1;
    if (!read_all(prov, cin, MAX_DER, &der, &len))
        return 1;
    ERR_set_mark();
    key = structure == IN_SPKI ? decode_spki(prov, c, der, len, &mine)
                               : decode_pki(prov, c, der, len, &mine);
    OPENSSL_clear_free(der, len);
    if (key == NULL && mine) {
        /* This algorithm's key, malformed: stop, with our error. */
        ERR_clear_last_mark();
        return 0;
    }
    /* Not ours (or not DER at all): no object and no error, so that OpenSSL
     * tries its other decoders. */
    ERR_pop_to_mark();
    return key == NULL ? 1 : pass_key(key, data_cb, data_cbarg);
}

static void *decoder_newctx(void *provctx)
{
    return provctx; /* no state beyond the provider's */
}

static void decoder_freectx(void *ctx)
{
    (void)ctx;
}

static int decoder_export_object(void *ctx, const void *reference, size_t reference_sz,
                                 OSSL_CALLBACK *export_cb, void *export_cbarg)
{
    (void)ctx;
    if (reference_sz != sizeof(bikeprov_key *))
        return 0;
    return bikeprov_key_export(*(bikeprov_key *const *)reference, OSSL_KEYMGMT_SELECT_ALL,
                               export_cb, export_cbarg);
}

#define DECODER(idx, tag, structure, does)                                                  \
    static int tag##_decode(void *ctx, OSSL_CORE_BIO *cin, int selection,                   \
                            OSSL_CALLBACK *data_cb, void *data_cbarg,                       \
                            OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg)                \
    {                                                                                       \
        (void)pw_cb;                                                                        \
        (void)pw_cbarg;                                                                     \
        return decode(ctx, &codec_algs[idx], structure, cin, selection, data_cb,            \
                      data_cbarg);                                                          \
    }                                                                                       \
    static const OSSL_DISPATCH tag##_decoder[] = {                                          \
        FN(OSSL_FUNC_DECODER_NEWCTX, decoder_newctx),                                       \
        FN(OSSL_FUNC_DECODER_FREECTX, decoder_freectx),                                     \
        FN(OSSL_FUNC_DECODER_DOES_SELECTION, does),                                         \
        FN(OSSL_FUNC_DECODER_DECODE, tag##_decode),                                         \
        FN(OSSL_FUNC_DECODER_EXPORT_OBJECT, decoder_export_object),                         \
        {0, NULL}};

#define DECODERS(idx, tag)                                                                  \
    DECODER(idx, tag##_spki, IN_SPKI, does_public)                                          \
    DECODER(idx, tag##_pki, IN_PKI, does_private)

DECODERS(0, bikel1)
DECODERS(1, bikel3)
DECODERS(2, bikel5)
DECODERS(3, p256_bikel1)
DECODERS(4, x25519_bikel1)
DECODERS(5, p384_bikel3)
DECODERS(6, x448_bikel3)
DECODERS(7, p521_bikel5)

/* ---- algorithm tables ---- */

#define ENC_PROPS(output, structure) BIKEPROV_PROPERTIES ",output=" output ",structure=" structure
#define DEC_PROPS(structure) BIKEPROV_PROPERTIES ",input=der,structure=" structure

#define ENCODER_ALGS(name, tag)                                                             \
    {name, ENC_PROPS("der", "SubjectPublicKeyInfo"), tag##_spki_der_encoder,                \
     "BIKE public key to DER SubjectPublicKeyInfo"},                                        \
    {name, ENC_PROPS("pem", "SubjectPublicKeyInfo"), tag##_spki_pem_encoder,                \
     "BIKE public key to PEM SubjectPublicKeyInfo"},                                        \
    {name, ENC_PROPS("der", "PrivateKeyInfo"), tag##_pki_der_encoder,                       \
     "BIKE private key to DER PrivateKeyInfo"},                                             \
    {name, ENC_PROPS("pem", "PrivateKeyInfo"), tag##_pki_pem_encoder,                       \
     "BIKE private key to PEM PrivateKeyInfo"},                                             \
    {name, BIKEPROV_PROPERTIES ",output=text", text_encoder, "BIKE key to text"}

const OSSL_ALGORITHM bikeprov_encoder_algs[] = {
    ENCODER_ALGS("bikel1", bikel1),
    ENCODER_ALGS("bikel3", bikel3),
    ENCODER_ALGS("bikel5", bikel5),
    ENCODER_ALGS("p256_bikel1", p256_bikel1),
    ENCODER_ALGS("x25519_bikel1", x25519_bikel1),
    ENCODER_ALGS("p384_bikel3", p384_bikel3),
    ENCODER_ALGS("x448_bikel3", x448_bikel3),
    ENCODER_ALGS("p521_bikel5", p521_bikel5),
    {NULL, NULL, NULL, NULL}};

#define DECODER_ALGS(name, tag)                                                             \
    {name, DEC_PROPS("SubjectPublicKeyInfo"), tag##_spki_decoder,                           \
     "BIKE public key from DER SubjectPublicKeyInfo"},                                      \
    {name, DEC_PROPS("PrivateKeyInfo"), tag##_pki_decoder,                                  \
     "BIKE private key from DER PrivateKeyInfo"}

const OSSL_ALGORITHM bikeprov_decoder_algs[] = {
    DECODER_ALGS("bikel1", bikel1),
    DECODER_ALGS("bikel3", bikel3),
    DECODER_ALGS("bikel5", bikel5),
    DECODER_ALGS("p256_bikel1", p256_bikel1),
    DECODER_ALGS("x25519_bikel1", x25519_bikel1),
    DECODER_ALGS("p384_bikel3", p384_bikel3),
    DECODER_ALGS("x448_bikel3", x448_bikel3),
    DECODER_ALGS("p521_bikel5", p521_bikel5),
    {NULL, NULL, NULL, NULL}};
