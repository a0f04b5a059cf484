/* libFuzzer target over the provider's key decoders (src/keycodec.c).
 *
 * The provider is built into this program and registered as a built-in
 * provider next to OpenSSL's default one, so libFuzzer sees its coverage.
 * An input is one selector byte (even: SubjectPublicKeyInfo, odd:
 * PrivateKeyInfo) and the DER given to OSSL_DECODER, as d2i_PUBKEY and
 * d2i_PrivateKey use it. A key that decodes is encoded again and must decode
 * to an equal key. Crashes, sanitizer reports, leaks and a failed re-decode
 * are findings.
 *
 * BIKEFUZZ_SEEDS=DIR makes the start-up write one valid input per level and
 * structure into DIR (the seed corpus; run with DIR as the corpus folder).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

OSSL_provider_init_fn OSSL_provider_init; /* src/provider.c */

static OSSL_LIB_CTX *libctx;

static const char *const structures[2] = {"SubjectPublicKeyInfo", "PrivateKeyInfo"};
static const int selections[2] = {EVP_PKEY_PUBLIC_KEY, EVP_PKEY_KEYPAIR};

static EVP_PKEY *decode(int which, const unsigned char *der, size_t len)
{
    EVP_PKEY *pkey = NULL;
    OSSL_DECODER_CTX *dctx = OSSL_DECODER_CTX_new_for_pkey(
        &pkey, "DER", structures[which], NULL, selections[which], libctx, NULL);

    if (dctx != NULL)
        (void)OSSL_DECODER_from_data(dctx, &der, &len);
    OSSL_DECODER_CTX_free(dctx);
    ERR_clear_error();
    return pkey;
}

/* DER of pkey in the structure (caller frees), or NULL. */
static unsigned char *encode(int which, const EVP_PKEY *pkey, size_t *len)
{
    unsigned char *der = NULL;
    OSSL_ENCODER_CTX *ectx = OSSL_ENCODER_CTX_new_for_pkey(pkey, selections[which], "DER",
                                                           structures[which], NULL);

    if (ectx == NULL || OSSL_ENCODER_to_data(ectx, &der, len) != 1)
        der = NULL;
    OSSL_ENCODER_CTX_free(ectx);
    return der;
}

static void write_seeds(const char *dir)
{
    static const char *const algs[] = {"bikel1",      "bikel3",        "bikel5",
                                       "p256_bikel1", "x25519_bikel1", "p384_bikel3",
                                       "x448_bikel3", "p521_bikel5"};

    for (size_t a = 0; a < sizeof(algs) / sizeof(algs[0]); a++) {
        EVP_PKEY_CTX *gctx = EVP_PKEY_CTX_new_from_name(libctx, algs[a], NULL);
        EVP_PKEY *pkey = NULL;

        if (gctx == NULL || EVP_PKEY_keygen_init(gctx) != 1 || EVP_PKEY_generate(gctx, &pkey) != 1)
            pkey = NULL;
        EVP_PKEY_CTX_free(gctx);

        for (int which = 0; which < 2 && pkey != NULL; which++) {
            size_t len = 0;
            unsigned char *der = encode(which, pkey, &len);
            char path[4096];
            FILE *f;

            snprintf(path, sizeof(path), "%s/%s-%s.bin", dir, algs[a], structures[which]);
            if (der == NULL || (f = fopen(path, "wb")) == NULL) {
                fprintf(stderr, "fuzz_decoders: cannot write seed %s\n", path);
                abort();
            }
            fputc(which, f);
            fwrite(der, 1, len, f);
            fclose(f);
            OPENSSL_free(der);
        }
        if (pkey == NULL) {
            fprintf(stderr, "fuzz_decoders: no %s key\n", algs[a]);
            ERR_print_errors_fp(stderr);
            abort();
        }
        EVP_PKEY_free(pkey);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *seeds = getenv("BIKEFUZZ_SEEDS");

    (void)argc;
    (void)argv;
    libctx = OSSL_LIB_CTX_new();
    if (libctx == NULL || !OSSL_PROVIDER_add_builtin(libctx, "bikefuzz", OSSL_provider_init)
        || OSSL_PROVIDER_load(libctx, "bikefuzz") == NULL
        || OSSL_PROVIDER_load(libctx, "default") == NULL) {
        ERR_print_errors_fp(stderr);
        abort();
    }
    if (seeds != NULL)
        write_seeds(seeds);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int which;
    EVP_PKEY *pkey, *again;
    unsigned char *der;
    size_t len = 0;

    if (size < 1)
        return 0;
    which = data[0] & 1;
    if ((pkey = decode(which, data + 1, size - 1)) == NULL)
        return 0;
    /* What decoded must encode, and decode back to the same key. Asked for a
     * PrivateKeyInfo, OpenSSL 3.0's decoder chain also returns the key of a
     * SubjectPublicKeyInfo (KEYPAIR includes the public selection): such a
     * public key is re-encoded as what it is. */
    if (which == 1 && (der = encode(1, pkey, &len)) == NULL)
        which = 0;
    else if (which == 1)
        OPENSSL_free(der);
    if ((der = encode(which, pkey, &len)) == NULL || (again = decode(which, der, len)) == NULL
        || EVP_PKEY_eq(pkey, again) != 1) {
        fprintf(stderr, "fuzz_decoders: a decoded %s does not round-trip\n", structures[which]);
        abort();
    }
    EVP_PKEY_free(again);
    OPENSSL_free(der);
    EVP_PKEY_free(pkey);
    return 0;
}
