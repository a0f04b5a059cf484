/* libFuzzer target over libbike's public KEM calls on arbitrary bytes.
 *
 * Input: a selector byte, a length byte, two length deltas, then the payload
 * that fills the buffers (zeros past its end).
 *   selector bits 0-2: the level, from {1, 3, 5, 1, 3, 5, 2, -1} (two invalid)
 *   selector bits 3-4: 0 decaps with a fuzzed secret key and ciphertext,
 *                      1 decaps of a fuzzed ciphertext with a valid key,
 *                      2 encaps to a fuzzed public key,
 *                      3 encaps to a valid key with fuzzed coins, then decaps
 *   length byte bit 7: if set, the two input buffers get the level's length
 *                      plus the signed deltas (wrong lengths; 0 stays right)
 * Properties: BIKE_ERR_LEVEL for an invalid level; BIKE_ERR_LENGTH, with the
 * outputs untouched, for a wrong length; otherwise decaps succeeds with a
 * valid key (and only fails with BIKE_ERR_KEY on a fuzzed one), encaps only
 * fails with BIKE_ERR_KEY and never when the top byte of the key is zero,
 * and a round trip agrees. Sanitizer reports and crashes are findings too.
 *
 * BIKEFUZZ_SEEDS=DIR makes the start-up write seeds (valid round trips of
 * every level and operation) into DIR.
 */
#include <bike/bike.h>

#include "fuzz_util.h"

static const int levels[8] = {1, 3, 5, 1, 3, 5, 2, -1};
static const int valid_levels[3] = {1, 3, 5};
static uint8_t key_pk[3][BIKE_MAX_PUBLIC_KEY_BYTES];
static uint8_t key_sk[3][BIKE_MAX_SECRET_KEY_BYTES];

static int level_index(int level)
{
    return level == 1 ? 0 : level == 3 ? 1 : 2;
}

static void write_seeds(const char *dir)
{
    static uint8_t ct[BIKE_MAX_CIPHERTEXT_BYTES], ss[BIKE_SHARED_SECRET_BYTES];
    uint8_t coins[BIKE_COINS_BYTES] = {7};

    for (int i = 0; i < 3; i++) {
        int lv = valid_levels[i];
        size_t pkn = bike_public_key_bytes(lv), skn = bike_secret_key_bytes(lv);
        size_t ctn = bike_ciphertext_bytes(lv);
        char name[64];

        FUZZ_CHECK(bike_encaps_derand(lv, ct, ctn, ss, key_pk[i], pkn, coins) == BIKE_OK,
                   "seed encaps at level %d", lv);
        for (uint8_t op = 0; op < 4; op++) {
            uint8_t head[4] = {(uint8_t)(i | op << 3), 0, 0, 0};
            static uint8_t body[BIKE_MAX_CIPHERTEXT_BYTES + BIKE_MAX_SECRET_KEY_BYTES];
            size_t n = 0;

            if (op == 0 || op == 1) { /* ciphertext, then secret key */
                memcpy(body, ct, ctn);
                memcpy(body + ctn, key_sk[i], skn);
                n = ctn + (op == 0 ? skn : 0);
            } else if (op == 2) {
                memcpy(body, key_pk[i], pkn);
                n = pkn;
            } else {
                memcpy(body, coins, sizeof(coins));
                n = sizeof(coins);
            }
            snprintf(name, sizeof(name), "l%d-op%u", lv, op);
            fuzz_write_seed(dir, name, head, sizeof(head), body, n);
        }
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *seeds = getenv("BIKEFUZZ_SEEDS");
    uint8_t coins[BIKE_COINS_BYTES] = {1};

    (void)argc;
    (void)argv;
    for (int i = 0; i < 3; i++) {
        int lv = valid_levels[i];

        FUZZ_CHECK(bike_keypair_derand(lv, key_pk[i], bike_public_key_bytes(lv), key_sk[i],
                                       bike_secret_key_bytes(lv), coins) == BIKE_OK,
                   "keypair at level %d", lv);
    }
    if (seeds != NULL)
        write_seeds(seeds);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    uint8_t sel = fuzz_byte(&in), lenb = fuzz_byte(&in);
    int8_t d0 = (int8_t)fuzz_byte(&in), d1 = (int8_t)fuzz_byte(&in);
    int level = levels[sel & 7], op = (sel >> 3) & 3;
    int valid = level == 1 || level == 3 || level == 5;
    int lv = valid ? level : 1; /* sizes of a valid level for an invalid one */
    size_t pkn = bike_public_key_bytes(lv), skn = bike_secret_key_bytes(lv);
    size_t ctn = bike_ciphertext_bytes(lv);
    int wrong;
    uint8_t ss[BIKE_SHARED_SECRET_BYTES], ss2[BIKE_SHARED_SECRET_BYTES];
    uint8_t coins[BIKE_COINS_BYTES];
    int rc;

    if ((lenb & 0x80) == 0)
        d0 = d1 = 0;
    memset(ss, 0xA5, sizeof(ss));

    if (op == 0 || op == 1) {
        size_t ctl = fuzz_adjust(ctn, d0), skl = op == 0 ? fuzz_adjust(skn, d1) : skn;
        uint8_t *ct = fuzz_alloc(ctl), *sk = fuzz_alloc(skl);

        wrong = ctl != ctn || skl != skn;
        fuzz_fill(&in, ct, ctl);
        if (op == 0)
            fuzz_fill(&in, sk, skl);
        else
            memcpy(sk, key_sk[level_index(lv)], skl);
        rc = bike_decaps(level, ss, ct, ctl, sk, skl);
        if (!valid)
            FUZZ_CHECK(rc == BIKE_ERR_LEVEL, "decaps at level %d: %d", level, rc);
        else if (wrong)
            FUZZ_CHECK(rc == BIKE_ERR_LENGTH, "decaps of %zu/%zu bytes at level %d: %d", ctl,
                       skl, level, rc);
        else if (op == 1)
            FUZZ_CHECK(rc == BIKE_OK, "decaps with a valid key at level %d: %d", level, rc);
        else
            FUZZ_CHECK(rc == BIKE_OK || rc == BIKE_ERR_KEY, "decaps at level %d: %d", level, rc);
        free(ct);
        free(sk);
    } else if (op == 2) {
        size_t pkl = fuzz_adjust(pkn, d0), ctl = fuzz_adjust(ctn, d1);
        uint8_t *pk = fuzz_alloc(pkl), *ct = fuzz_alloc(ctl);

        wrong = pkl != pkn || ctl != ctn;
        fuzz_fill(&in, pk, pkl);
        fuzz_fill(&in, coins, sizeof(coins));
        memset(ct, 0x5A, ctl);
        rc = bike_encaps_derand(level, ct, ctl, ss, pk, pkl, coins);
        if (!valid)
            FUZZ_CHECK(rc == BIKE_ERR_LEVEL, "encaps at level %d: %d", level, rc);
        else if (wrong)
            FUZZ_CHECK(rc == BIKE_ERR_LENGTH, "encaps of %zu/%zu bytes at level %d: %d", pkl,
                       ctl, level, rc);
        else if (pk[pkn - 1] == 0)
            FUZZ_CHECK(rc == BIKE_OK, "encaps to a key with no bit above r at level %d: %d",
                       level, rc);
        else
            FUZZ_CHECK(rc == BIKE_OK || rc == BIKE_ERR_KEY, "encaps at level %d: %d", level, rc);
        if (rc != BIKE_OK)
            for (size_t i = 0; i < ctl; i++)
                FUZZ_CHECK(ct[i] == 0x5A, "failed encaps wrote its ciphertext");
        free(pk);
        free(ct);
    } else {
        uint8_t ct[BIKE_MAX_CIPHERTEXT_BYTES];

        fuzz_fill(&in, coins, sizeof(coins));
        rc = bike_encaps_derand(lv, ct, ctn, ss, key_pk[level_index(lv)], pkn, coins);
        FUZZ_CHECK(rc == BIKE_OK, "encaps to a valid key at level %d: %d", lv, rc);
        rc = bike_decaps(lv, ss2, ct, ctn, key_sk[level_index(lv)], skn);
        FUZZ_CHECK(rc == BIKE_OK && memcmp(ss, ss2, sizeof(ss)) == 0,
                   "round trip at level %d: %d", lv, rc);
        return 0;
    }
    if (rc != BIKE_OK)
        for (size_t i = 0; i < sizeof(ss); i++)
            FUZZ_CHECK(ss[i] == 0xA5, "failed call wrote its shared secret");
    return 0;
}
