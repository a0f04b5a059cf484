/* libFuzzer target over the provider's TLS key-share paths, through EVP as
 * libssl drives them for each of the provider's groups:
 *   server: the peer's key share set as the encoded public key of a key of
 *           the group (EVP_PKEY_set1_encoded_public_key), then
 *           EVP_PKEY_encapsulate to it;
 *   client: EVP_PKEY_decapsulate of the server's share (the ciphertext) with
 *           the client's key.
 * Input: a selector byte (low nibble: the group, modulo the number of groups,
 * BIKE and ML-KEM alike; bit 4: client side), then the key share.
 * Properties: encapsulation that succeeds gives the group's ciphertext and
 * secret lengths; a PQ-only group (BIKE or ML-KEM alone) accepts every share
 * of its ciphertext length (implicit rejection); a wrong-length share is
 * refused. Crashes, sanitizer reports and leaks are findings too.
 *
 * BIKEFUZZ_SEEDS=DIR makes the start-up write seeds into DIR: each group's
 * valid public key and a valid ciphertext to it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "bikeprov.h"

OSSL_provider_init_fn OSSL_provider_init; /* src/provider.c */

static OSSL_LIB_CTX *libctx;
static EVP_PKEY *keys[BIKEPROV_NUM_ALGS]; /* one generated key pair per group */

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "fuzz_keyshare: " __VA_ARGS__);                                \
            fputc('\n', stderr);                                                           \
            ERR_print_errors_fp(stderr);                                                   \
            abort();                                                                       \
        }                                                                                  \
    } while (0)

/* Encapsulates to a peer key whose encoded public key is share; 1 if it
 * succeeded, with the ciphertext (caller frees) and lengths. */
static int server_side(size_t a, const uint8_t *share, size_t len, unsigned char **ct,
                       size_t *ct_len, size_t *ss_len)
{
    EVP_PKEY *peer = EVP_PKEY_dup(keys[a]);
    EVP_PKEY_CTX *ctx = NULL;
    unsigned char *ss = NULL;
    int ok = 0;

    *ct = NULL;
    CHECK(peer != NULL, "dup of a %s key", bikeprov_algs[a].name);
    if (EVP_PKEY_set1_encoded_public_key(peer, share, len) != 1)
        goto done;
    CHECK(len == bikeprov_pub_bytes(&bikeprov_algs[a]), "%s took a %zu-byte share",
          bikeprov_algs[a].name, len);
    if ((ctx = EVP_PKEY_CTX_new_from_pkey(libctx, peer, NULL)) == NULL
        || EVP_PKEY_encapsulate_init(ctx, NULL) != 1
        || EVP_PKEY_encapsulate(ctx, NULL, ct_len, NULL, ss_len) != 1)
        goto done;
    *ct = OPENSSL_malloc(*ct_len);
    ss = OPENSSL_malloc(*ss_len);
    CHECK(*ct != NULL && ss != NULL, "out of memory");
    ok = EVP_PKEY_encapsulate(ctx, *ct, ct_len, ss, ss_len) == 1;
done:
    if (!ok) {
        OPENSSL_free(*ct);
        *ct = NULL;
    }
    OPENSSL_clear_free(ss, *ss_len);
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(peer);
    ERR_clear_error();
    return ok;
}

/* Decapsulates share with the group's key; 1 if it succeeded. */
static int client_side(size_t a, const uint8_t *share, size_t len)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(libctx, keys[a], NULL);
    unsigned char ss[128];
    size_t ss_len = sizeof(ss);
    int ok;

    CHECK(ctx != NULL && EVP_PKEY_decapsulate_init(ctx, NULL) == 1, "decapsulate init");
    ok = EVP_PKEY_decapsulate(ctx, ss, &ss_len, share, len) == 1;
    if (ok)
        CHECK(ss_len == bikeprov_secret_bytes(&bikeprov_algs[a]), "%s secret of %zu bytes",
              bikeprov_algs[a].name, ss_len);
    EVP_PKEY_CTX_free(ctx);
    ERR_clear_error();
    return ok;
}

static void write_seed(const char *dir, const char *name, uint8_t sel, const uint8_t *b,
                       size_t n)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    CHECK((f = fopen(path, "wb")) != NULL, "cannot write seed %s", path);
    fputc(sel, f);
    fwrite(b, 1, n, f);
    fclose(f);
}

static void write_seeds(const char *dir)
{
    for (size_t a = 0; a < BIKEPROV_NUM_ALGS; a++) {
        unsigned char *pub = NULL, *ct;
        size_t pub_len = EVP_PKEY_get1_encoded_public_key(keys[a], &pub), ct_len, ss_len;
        char name[64];

        CHECK(pub_len > 0 && server_side(a, pub, pub_len, &ct, &ct_len, &ss_len),
              "seed for %s", bikeprov_algs[a].name);
        snprintf(name, sizeof(name), "%s-server", bikeprov_algs[a].name);
        write_seed(dir, name, (uint8_t)a, pub, pub_len);
        snprintf(name, sizeof(name), "%s-client", bikeprov_algs[a].name);
        write_seed(dir, name, (uint8_t)(a | 0x10), ct, ct_len);
        OPENSSL_free(pub);
        OPENSSL_free(ct);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *seeds = getenv("BIKEFUZZ_SEEDS");

    (void)argc;
    (void)argv;
    libctx = OSSL_LIB_CTX_new();
    CHECK(libctx != NULL && OSSL_PROVIDER_add_builtin(libctx, "bikefuzz", OSSL_provider_init)
              && OSSL_PROVIDER_load(libctx, "bikefuzz") != NULL
              && OSSL_PROVIDER_load(libctx, "default") != NULL,
          "loading the provider");
    for (size_t a = 0; a < BIKEPROV_NUM_ALGS; a++) {
        EVP_PKEY_CTX *gctx = EVP_PKEY_CTX_new_from_name(libctx, bikeprov_algs[a].name, NULL);

        CHECK(gctx != NULL && EVP_PKEY_keygen_init(gctx) == 1
                  && EVP_PKEY_generate(gctx, &keys[a]) == 1,
              "key generation for %s", bikeprov_algs[a].name);
        EVP_PKEY_CTX_free(gctx);
    }
    if (seeds != NULL)
        write_seeds(seeds);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t a, len;
    const bikeprov_alg *alg;
    const uint8_t *share;

    if (size < 1)
        return 0;
    a = (size_t)(data[0] & 0x0F) % BIKEPROV_NUM_ALGS;
    alg = &bikeprov_algs[a];
    share = data + 1;
    len = size - 1;
    if ((data[0] & 0x10) != 0) {
        int ok = client_side(a, share, len);

        if (len != bikeprov_ct_bytes(alg))
            CHECK(!ok, "%s decapsulated a %zu-byte share", alg->name, len);
        else if (alg->kind == BIKEPROV_CLASSICAL_NONE)
            CHECK(ok, "%s refused a %zu-byte share", alg->name, len);
    } else {
        unsigned char *ct;
        size_t ct_len, ss_len;

        if (server_side(a, share, len, &ct, &ct_len, &ss_len)) {
            CHECK(ct_len == bikeprov_ct_bytes(alg) && ss_len == bikeprov_secret_bytes(alg),
                  "%s encapsulation gave %zu/%zu bytes", alg->name, ct_len, ss_len);
            OPENSSL_free(ct);
        }
    }
    return 0;
}
