/* The provider's key pool (keygen-batch, src/keypool.c), through EVP with
 * the provider loaded from a configuration file as applications load it:
 * every key handed out is distinct and works, BIKE alone and in a hybrid
 * sharing one pool; a forked child never gets a key its parent also gets;
 * keygen-batch = 1 (no pool) works; a malformed keygen-batch keeps the
 * provider from loading and says so on stderr (OpenSSL 3.0's configuration
 * loader drops a provider's load errors).
 *
 * Usage: bikeprov_test_keypool /path/to/bikeprovider.so
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "check.h"

#define KEYS 12
#define PK_MAX 1600 /* a bikel1 or x25519_bikel1 key share */


static const char *module;

/* A library context configured from a file whose provider section holds
 * `setting` (NULL: none); NULL if loading the configuration failed. */
static OSSL_LIB_CTX *load(const char *setting)
{
    char path[] = "/tmp/bikeprov-keypool-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    int ok;

    if (f == NULL || ctx == NULL) {
        fprintf(stderr, "FAIL: cannot write %s\n", path);
        exit(1);
    }
    fprintf(f,
            "openssl_conf = init\n[init]\nproviders = provs\n"
            "[provs]\ndefault = default_sect\nbike = bike_sect\n"
            "[default_sect]\nactivate = 1\n"
            "[bike_sect]\nmodule = %s\n%s\nactivate = 1\n",
            module, setting != NULL ? setting : "");
    fclose(f);
    ok = OSSL_LIB_CTX_load_config(ctx, path);
    unlink(path);
    if (!ok) {
        OSSL_LIB_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

static EVP_PKEY *keygen(OSSL_LIB_CTX *ctx, const char *name)
{
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(ctx, name, NULL);
    EVP_PKEY *pkey = NULL;

    if (pctx == NULL || EVP_PKEY_keygen_init(pctx) <= 0 || EVP_PKEY_keygen(pctx, &pkey) <= 0)
        pkey = NULL;
    EVP_PKEY_CTX_free(pctx);
    return pkey;
}

/* The key's encoded public key into out (PK_MAX bytes); its length, 0 on failure. */
static size_t public_key(EVP_PKEY *k, unsigned char *out)
{
    unsigned char *pub = NULL;
    size_t n = k == NULL ? 0 : EVP_PKEY_get1_encoded_public_key(k, &pub);

    if (n == 0 || n > PK_MAX)
        n = 0;
    else
        memcpy(out, pub, n);
    OPENSSL_free(pub);
    return n;
}

/* The key decapsulates what its public half encapsulates. */
static int works(OSSL_LIB_CTX *ctx, EVP_PKEY *k)
{
    EVP_PKEY_CTX *e = EVP_PKEY_CTX_new_from_pkey(ctx, k, NULL);
    EVP_PKEY_CTX *d = EVP_PKEY_CTX_new_from_pkey(ctx, k, NULL);
    unsigned char ct[2000], s1[128], s2[128];
    size_t ct_len = sizeof(ct), l1 = sizeof(s1), l2 = sizeof(s2);
    int ok = e != NULL && d != NULL && EVP_PKEY_encapsulate_init(e, NULL) > 0
             && EVP_PKEY_encapsulate(e, ct, &ct_len, s1, &l1) > 0
             && EVP_PKEY_decapsulate_init(d, NULL) > 0
             && EVP_PKEY_decapsulate(d, s2, &l2, ct, ct_len) > 0 && l1 == l2
             && memcmp(s1, s2, l1) == 0;

    EVP_PKEY_CTX_free(e);
    EVP_PKEY_CTX_free(d);
    return ok;
}

/* KEYS keys of each group, alternating (one pool serves both: the same
 * BIKE level), all distinct and working. */
static void test_distinct(const char *setting)
{
    static const char *groups[2] = {"bikel1", "x25519_bikel1"};
    static unsigned char pk[2][KEYS][PK_MAX];
    size_t len[2][KEYS];
    OSSL_LIB_CTX *ctx = load(setting);
    const int failures_before = failures;

    CHECK(ctx != NULL, "%s: the configuration does not load", setting);
    if (ctx == NULL)
        return;
    for (int i = 0; i < KEYS; i++) {
        for (int g = 0; g < 2; g++) {
            EVP_PKEY *k = keygen(ctx, groups[g]);

            len[g][i] = public_key(k, pk[g][i]);
            CHECK(len[g][i] != 0 && works(ctx, k), "%s: %s key %d", setting, groups[g], i);
            for (int j = 0; j < i; j++)
                CHECK(len[g][i] != len[g][j] || memcmp(pk[g][i], pk[g][j], len[g][i]) != 0,
                      "%s: %s keys %d and %d equal", setting, groups[g], j, i);
            EVP_PKEY_free(k);
        }
    }
    OSSL_LIB_CTX_free(ctx);
    if (failures == failures_before)
        printf("ok %s: %d distinct working keys of bikel1 and of x25519_bikel1\n", setting, KEYS);
}

/* Two keys (batches of 1 and 2: one key left in the pool), then fork:
 * parent and child each make keys; none of the child's may be one of the
 * parent's. */
static void test_fork(void)
{
    unsigned char before[PK_MAX], parent[4][PK_MAX], child[4][PK_MAX];
    OSSL_LIB_CTX *ctx = load("keygen-batch = 16");
    const int failures_before = failures;
    int fds[2], status = 0;
    pid_t pid;

    CHECK(ctx != NULL, "fork: the configuration does not load");
    if (ctx == NULL || pipe(fds) != 0)
        return;
    for (int i = 0; i < 2; i++) {
        EVP_PKEY *k = keygen(ctx, "bikel1");

        CHECK(public_key(k, before) != 0, "fork: key before fork");
        EVP_PKEY_free(k);
    }
    if ((pid = fork()) == 0) {
        int ok = 1;

        for (int i = 0; i < 4; i++) {
            EVP_PKEY *k = keygen(ctx, "bikel1");

            ok &= public_key(k, child[i]) != 0 && works(ctx, k);
            EVP_PKEY_free(k);
        }
        ok &= write(fds[1], child, sizeof(child)) == (ssize_t)sizeof(child);
        _exit(ok ? 0 : 1);
    }
    for (int i = 0; i < 4; i++) {
        EVP_PKEY *k = keygen(ctx, "bikel1");

        CHECK(public_key(k, parent[i]) != 0, "fork: parent key %d", i);
        EVP_PKEY_free(k);
    }
    CHECK(pid > 0 && read(fds[0], child, sizeof(child)) == (ssize_t)sizeof(child),
          "fork: the child's keys");
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status)
              && WEXITSTATUS(status) == 0,
          "fork: the child failed to make working keys");
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            CHECK(memcmp(parent[i], child[j], 1541) != 0,
                  "fork: parent key %d is child key %d", i, j);
    close(fds[0]);
    close(fds[1]);
    OSSL_LIB_CTX_free(ctx);
    if (failures == failures_before)
        printf("ok fork: the child's keys are not its parent's\n");
}

static void test_bad_setting(const char *setting)
{
    char path[] = "/tmp/bikeprov-keypool-err-XXXXXX", said[512] = "";
    int fd = mkstemp(path), saved = dup(2);
    OSSL_LIB_CTX *ctx;
    ssize_t n;

    if (fd < 0 || saved < 0) {
        fprintf(stderr, "FAIL: cannot redirect stderr\n");
        exit(1);
    }
    fflush(stderr);
    dup2(fd, 2);
    ctx = load(setting);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    n = pread(fd, said, sizeof(said) - 1, 0);
    said[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
    CHECK(ctx == NULL || !OSSL_PROVIDER_available(ctx, "bike"), "%s: the provider loaded", setting);
    CHECK(strstr(said, "keygen-batch") != NULL, "%s: stderr does not name keygen-batch: \"%s\"",
          setting, said);
    OSSL_LIB_CTX_free(ctx);
    printf("ok %s: not loaded; said: %s", setting, said);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s /path/to/bikeprovider.so\n", argv[0]);
        return 2;
    }
    module = argv[1];
    test_distinct("keygen-batch = 4");
    test_distinct("keygen-batch = 1");
    test_distinct("# keygen-batch at its default");
    test_fork();
    test_bad_setting("keygen-batch = 0");
    test_bad_setting("keygen-batch = 65");
    test_bad_setting("keygen-batch = 4x");
    test_bad_setting("keygen-batch = -3");
    if (failures != 0) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("all key pool tests passed\n");
    return 0;
}
