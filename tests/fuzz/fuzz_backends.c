/* libFuzzer differential target: every back end this CPU runs gives the
 * same bytes as the portable one.
 *
 * Input: a selector byte, then the operation's inputs (zeros past the
 * input's end).
 *   selector bits 0-1: the level, from {1, 3, 5, 1}
 *   selector bits 2-3: 0 keypair_derand from 64 fuzzed coins,
 *                      1 encaps_derand to a valid key with 64 fuzzed coins,
 *                      2 encaps_derand to a fuzzed public key (then coins),
 *                      3 decaps of a fuzzed ciphertext with a valid key, or
 *                        with bit 4 set, with a fuzzed secret key (after it)
 * Each back end runs the operation; its return code and every output byte
 * must equal the portable back end's (outputs start zeroed).
 *
 * BIKEFUZZ_SEEDS=DIR makes the start-up write seeds into DIR (valid inputs
 * of each level and operation).
 */
#include <bike/bike.h>

#include "fuzz_util.h"

#define MAX_BACKENDS 8

static const char *backends[MAX_BACKENDS]; /* [0] is "portable" */
static size_t num_backends;
static const int levels[4] = {1, 3, 5, 1};
static uint8_t key_pk[3][BIKE_MAX_PUBLIC_KEY_BYTES], key_sk[3][BIKE_MAX_SECRET_KEY_BYTES];

typedef struct {
    int rc;
    uint8_t a[BIKE_MAX_SECRET_KEY_BYTES]; /* pk, ct or ss */
    uint8_t b[BIKE_MAX_SECRET_KEY_BYTES]; /* sk or ss */
} outputs;

static outputs results[MAX_BACKENDS];

static void write_seeds(const char *dir)
{
    static uint8_t body[BIKE_MAX_CIPHERTEXT_BYTES + BIKE_MAX_SECRET_KEY_BYTES];

    for (uint8_t i = 0; i < 3; i++) {
        int lv = levels[i];
        size_t pkn = bike_public_key_bytes(lv), skn = bike_secret_key_bytes(lv);
        size_t ctn = bike_ciphertext_bytes(lv);
        uint8_t coins[BIKE_COINS_BYTES] = {(uint8_t)(i + 3)}, ss[BIKE_SHARED_SECRET_BYTES];
        char name[32];

        for (uint8_t op = 0; op < 5; op++) {
            uint8_t sel = (uint8_t)(i | (op < 4 ? op : 3) << 2 | (op == 4) << 4);
            size_t n = sizeof(coins);

            memcpy(body, coins, sizeof(coins));
            if (op == 2) {
                memcpy(body, key_pk[i], pkn);
                memcpy(body + pkn, coins, sizeof(coins));
                n = pkn + sizeof(coins);
            } else if (op >= 3) {
                FUZZ_CHECK(bike_encaps_derand(lv, body, ctn, ss, key_pk[i], pkn, coins)
                               == BIKE_OK,
                           "seed encaps");
                memcpy(body + ctn, key_sk[i], skn);
                n = ctn + (op == 4 ? skn : 0);
            }
            snprintf(name, sizeof(name), "l%d-op%u", lv, op);
            fuzz_write_seed(dir, name, &sel, 1, body, n);
        }
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *seeds = getenv("BIKEFUZZ_SEEDS");
    const char *name;
    uint8_t coins[BIKE_COINS_BYTES] = {1};

    (void)argc;
    (void)argv;
    backends[num_backends++] = "portable";
    for (size_t i = 0; (name = bike_backend_at(i)) != NULL && num_backends < MAX_BACKENDS; i++)
        if (strcmp(name, "portable") != 0 && bike_backend_supported(name))
            backends[num_backends++] = name;
    fprintf(stderr, "fuzz_backends: portable against");
    for (size_t i = 1; i < num_backends; i++)
        fprintf(stderr, " %s", backends[i]);
    fprintf(stderr, "%s\n", num_backends == 1 ? " nothing (no other back end runs here)" : "");
    FUZZ_CHECK(bike_set_backend("portable") == BIKE_OK, "set back end portable");
    for (int i = 0; i < 3; i++)
        FUZZ_CHECK(bike_keypair_derand(levels[i], key_pk[i], bike_public_key_bytes(levels[i]),
                                       key_sk[i], bike_secret_key_bytes(levels[i]), coins)
                       == BIKE_OK,
                   "keypair at level %d", levels[i]);
    if (seeds != NULL)
        write_seeds(seeds);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    uint8_t sel = fuzz_byte(&in);
    int li = (sel & 3) % 3, level = levels[li], op = (sel >> 2) & 3;
    size_t pkn = bike_public_key_bytes(level), skn = bike_secret_key_bytes(level);
    size_t ctn = bike_ciphertext_bytes(level);
    static uint8_t x[BIKE_MAX_SECRET_KEY_BYTES], coins[BIKE_COINS_BYTES];
    const uint8_t *sk = key_sk[li];

    if (op == 0 || op == 1) {
        fuzz_fill(&in, coins, sizeof(coins));
    } else if (op == 2) {
        fuzz_fill(&in, x, pkn);
        fuzz_fill(&in, coins, sizeof(coins));
    } else {
        fuzz_fill(&in, x, ctn);
        if ((sel & 0x10) != 0) {
            static uint8_t sk_in[BIKE_MAX_SECRET_KEY_BYTES];

            fuzz_fill(&in, sk_in, skn);
            sk = sk_in;
        }
    }
    for (size_t b = 0; b < num_backends; b++) {
        outputs *o = &results[b];

        memset(o, 0, sizeof(*o));
        FUZZ_CHECK(bike_set_backend(backends[b]) == BIKE_OK, "set back end %s", backends[b]);
        if (op == 0)
            o->rc = bike_keypair_derand(level, o->a, pkn, o->b, skn, coins);
        else if (op == 1)
            o->rc = bike_encaps_derand(level, o->a, ctn, o->b, key_pk[li], pkn, coins);
        else if (op == 2)
            o->rc = bike_encaps_derand(level, o->a, ctn, o->b, x, pkn, coins);
        else
            o->rc = bike_decaps(level, o->a, x, ctn, sk, skn);
        if (b > 0)
            FUZZ_CHECK(memcmp(o, &results[0], sizeof(*o)) == 0,
                       "%s differs from portable: level %d, operation %d, rc %d against %d",
                       backends[b], level, op, o->rc, results[0].rc);
    }
    return 0;
}
