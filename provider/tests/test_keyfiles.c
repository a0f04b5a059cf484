/* BIKE keys read from PEM files through OpenSSL's decoders, then used by the
 * EVP KEM API: the public key encapsulates, the private key decapsulates to
 * the same secret, and the two keys match (EVP_PKEY_eq). What a program does
 * with keys that `openssl genpkey` and `openssl pkey -pubout` wrote
 * (provider/tests/keys.sh).
 *
 * With --reject, a malformed DER key must not decode (OSSL_DECODER, as d2i_PUBKEY
 * and d2i_PrivateKey use it), and the provider's error must say WHY.
 *
 * Usage: bikeprov_test_keyfiles MODULE PRIVATE.pem PUBLIC.pem
 *        bikeprov_test_keyfiles MODULE --reject pub|priv FILE.der WHY
 */
#include <stdio.h>
#include <string.h>

#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>

static EVP_PKEY *read_key(OSSL_LIB_CTX *libctx, const char *path, int private)
{
    FILE *f = fopen(path, "r");
    EVP_PKEY *pkey;

    if (f == NULL) {
        perror(path);
        return NULL;
    }
    pkey = private ? PEM_read_PrivateKey_ex(f, NULL, NULL, NULL, libctx, NULL)
                   : PEM_read_PUBKEY_ex(f, NULL, NULL, NULL, libctx, NULL);
    fclose(f);
    if (pkey == NULL)
        fprintf(stderr, "%s: cannot read the %s key\n", path, private ? "private" : "public");
    return pkey;
}

/* 1 if the file does not decode and the error queue mentions why. */
static int rejects(OSSL_LIB_CTX *libctx, const char *kind, const char *path, const char *why)
{
    int priv = strcmp(kind, "priv") == 0;
    unsigned char buf[32768];
    const unsigned char *p = buf;
    size_t len;
    EVP_PKEY *pkey = NULL;
    OSSL_DECODER_CTX *dctx;
    FILE *f = fopen(path, "rb");
    unsigned long e;
    const char *data = NULL;
    int found = 0;

    if (f == NULL) {
        perror(path);
        return 0;
    }
    len = fread(buf, 1, sizeof(buf), f);
    fclose(f);
    dctx = OSSL_DECODER_CTX_new_for_pkey(&pkey, "DER",
                                         priv ? "PrivateKeyInfo" : "SubjectPublicKeyInfo", NULL,
                                         priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, libctx,
                                         NULL);
    if (dctx == NULL || OSSL_DECODER_from_data(dctx, &p, &len) == 1 || pkey != NULL) {
        fprintf(stderr, "FAIL: %s decoded\n", path);
        EVP_PKEY_free(pkey);
        OSSL_DECODER_CTX_free(dctx);
        return 0;
    }
    OSSL_DECODER_CTX_free(dctx);
    while ((e = ERR_get_error_all(NULL, NULL, NULL, &data, NULL)) != 0) {
        if (data != NULL && strstr(data, why) != NULL)
            found = 1;
    }
    if (!found)
        fprintf(stderr, "FAIL: %s: no error saying '%s'\n", path, why);
    return found;
}

int main(int argc, char **argv)
{
    OSSL_LIB_CTX *libctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *bike = NULL, *dflt = NULL;
    EVP_PKEY *priv = NULL, *pub = NULL;
    EVP_PKEY_CTX *ectx = NULL, *dctx = NULL;
    unsigned char ct[8192], ss_a[128], ss_b[128];
    size_t ct_len = sizeof(ct), ss_a_len = sizeof(ss_a), ss_b_len = sizeof(ss_b);
    int ok = 0;

    int reject = argc == 6 && strcmp(argv[2], "--reject") == 0;

    if (argc != 4 && !reject) {
        fprintf(stderr, "usage: %s MODULE PRIVATE.pem PUBLIC.pem\n"
                        "       %s MODULE --reject pub|priv FILE.der WHY\n", argv[0], argv[0]);
        return 2;
    }
    if (libctx == NULL || (bike = OSSL_PROVIDER_load(libctx, argv[1])) == NULL
        || (dflt = OSSL_PROVIDER_load(libctx, "default")) == NULL)
        goto done;
    if (reject) {
        ok = rejects(libctx, argv[3], argv[4], argv[5]);
        if (ok)
            printf("ok %s rejected: %s\n", argv[4], argv[5]);
        goto done;
    }
    if ((priv = read_key(libctx, argv[2], 1)) == NULL
        || (pub = read_key(libctx, argv[3], 0)) == NULL)
        goto done;
    if (EVP_PKEY_eq(priv, pub) != 1) {
        fprintf(stderr, "FAIL: the public key file does not match the private key\n");
        goto done;
    }
    if ((ectx = EVP_PKEY_CTX_new_from_pkey(libctx, pub, NULL)) == NULL
        || EVP_PKEY_encapsulate_init(ectx, NULL) != 1
        || EVP_PKEY_encapsulate(ectx, ct, &ct_len, ss_a, &ss_a_len) != 1) {
        fprintf(stderr, "FAIL: encapsulation to the public key file\n");
        goto done;
    }
    if ((dctx = EVP_PKEY_CTX_new_from_pkey(libctx, priv, NULL)) == NULL
        || EVP_PKEY_decapsulate_init(dctx, NULL) != 1
        || EVP_PKEY_decapsulate(dctx, ss_b, &ss_b_len, ct, ct_len) != 1) {
        fprintf(stderr, "FAIL: decapsulation with the private key file\n");
        goto done;
    }
    if (ss_a_len != ss_b_len || memcmp(ss_a, ss_b, ss_a_len) != 0) {
        fprintf(stderr, "FAIL: the shared secrets differ\n");
        goto done;
    }
    printf("ok %s: %zu-byte ciphertext, %zu-byte secret, keys from %s and %s\n",
           EVP_PKEY_get0_type_name(priv), ct_len, ss_a_len, argv[2], argv[3]);
    ok = 1;
done:
    if (!ok)
        ERR_print_errors_fp(stderr);
    EVP_PKEY_CTX_free(ectx);
    EVP_PKEY_CTX_free(dctx);
    EVP_PKEY_free(priv);
    EVP_PKEY_free(pub);
    OSSL_PROVIDER_unload(dflt);
    OSSL_PROVIDER_unload(bike);
    OSSL_LIB_CTX_free(libctx);
    return ok ? 0 : 1;
}
