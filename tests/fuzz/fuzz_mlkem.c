/* libFuzzer target over libmlkem's public KEM calls on arbitrary bytes.
 *
 * Input: a selector byte, a length byte, two length deltas, then the payload
 * that fills the buffers (zeros past its end).
 *   selector bits 0-2: the set, from {512, 768, 1024, 512, 768, 1024, 0, 769}
 *   selector bits 3-4: 0 decaps with a fuzzed dk and ciphertext,
 *                      1 decaps of a fuzzed ciphertext with a valid dk,
 *                      2 encaps to a fuzzed ek,
 *                      3 encaps to a valid ek with a fuzzed m, then decaps
 *   length byte bit 7: if set, the two input buffers get the set's length
 *                      plus the signed deltas (wrong lengths)
 * Properties: MLKEM_ERR_SET for an invalid set, MLKEM_ERR_LENGTH for a wrong
 * length; decaps of any ciphertext with a valid dk succeeds (a fuzzed dk
 * fails only with MLKEM_ERR_KEY); encaps fails with MLKEM_ERR_KEY exactly
 * when a 12-bit coefficient of the fuzzed ek is >= q = 3329 (FIPS 203 section
 * 7.2, checked here independently); a round trip agrees.
 *
 * BIKEFUZZ_SEEDS=DIR makes the start-up write seeds (valid round trips of
 * every set and operation) into DIR.
 */
#include <mlkem/mlkem.h>

#include "fuzz_util.h"

static const int sets[8] = {512, 768, 1024, 512, 768, 1024, 0, 769};
static const int valid_sets[3] = {512, 768, 1024};
static uint8_t key_ek[3][MLKEM_MAX_EK_BYTES];
static uint8_t key_dk[3][MLKEM_MAX_DK_BYTES];

static int set_index(int set)
{
    return set == 512 ? 0 : set == 768 ? 1 : 2;
}

/* FIPS 203's modulus check of ek, written from the standard: every 12-bit
 * coefficient of its first ek_len - 32 bytes is below q. */
static int ek_in_range(const uint8_t *ek, size_t ek_len)
{
    for (size_t i = 0; i + 3 <= ek_len - 32; i += 3) {
        unsigned a = ek[i] | (unsigned)(ek[i + 1] & 0x0F) << 8;
        unsigned b = ek[i + 1] >> 4 | (unsigned)ek[i + 2] << 4;

        if (a >= 3329 || b >= 3329)
            return 0;
    }
    return 1;
}

static void write_seeds(const char *dir)
{
    static uint8_t ct[MLKEM_MAX_CT_BYTES], body[MLKEM_MAX_CT_BYTES + MLKEM_MAX_DK_BYTES];
    uint8_t ss[MLKEM_SS_BYTES], m[MLKEM_SEED_BYTES] = {7};

    for (int i = 0; i < 3; i++) {
        int set = valid_sets[i];
        size_t ekn = mlkem_ek_bytes(set), dkn = mlkem_dk_bytes(set), ctn = mlkem_ct_bytes(set);
        char name[64];

        FUZZ_CHECK(mlkem_encaps_derand(set, ct, ctn, ss, key_ek[i], ekn, m) == MLKEM_OK,
                   "seed encaps for %d", set);
        for (uint8_t op = 0; op < 4; op++) {
            uint8_t head[4] = {(uint8_t)(i | op << 3), 0, 0, 0};
            size_t n;

            if (op == 0 || op == 1) {
                memcpy(body, ct, ctn);
                memcpy(body + ctn, key_dk[i], dkn);
                n = ctn + (op == 0 ? dkn : 0);
            } else if (op == 2) {
                memcpy(body, key_ek[i], ekn);
                n = ekn;
            } else {
                memcpy(body, m, sizeof(m));
                n = sizeof(m);
            }
            snprintf(name, sizeof(name), "mlkem%d-op%u", set, op);
            fuzz_write_seed(dir, name, head, sizeof(head), body, n);
        }
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *seeds = getenv("BIKEFUZZ_SEEDS");
    uint8_t d[MLKEM_SEED_BYTES] = {1}, z[MLKEM_SEED_BYTES] = {2};

    (void)argc;
    (void)argv;
    for (int i = 0; i < 3; i++) {
        int set = valid_sets[i];

        FUZZ_CHECK(mlkem_keypair_derand(set, key_ek[i], mlkem_ek_bytes(set), key_dk[i],
                                        mlkem_dk_bytes(set), d, z) == MLKEM_OK,
                   "keypair for %d", set);
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
    int set = sets[sel & 7], op = (sel >> 3) & 3;
    int valid = set == 512 || set == 768 || set == 1024;
    int vs = valid ? set : 512; /* sizes of a valid set for an invalid one */
    size_t ekn = mlkem_ek_bytes(vs), dkn = mlkem_dk_bytes(vs), ctn = mlkem_ct_bytes(vs);
    uint8_t ss[MLKEM_SS_BYTES], ss2[MLKEM_SS_BYTES], m[MLKEM_SEED_BYTES];
    int rc;

    if ((lenb & 0x80) == 0)
        d0 = d1 = 0;
    if (op == 0 || op == 1) {
        size_t ctl = fuzz_adjust(ctn, d0), dkl = op == 0 ? fuzz_adjust(dkn, d1) : dkn;
        uint8_t *ct = fuzz_alloc(ctl), *dk = fuzz_alloc(dkl);
        int wrong = ctl != ctn || dkl != dkn;

        fuzz_fill(&in, ct, ctl);
        if (op == 0)
            fuzz_fill(&in, dk, dkl);
        else
            memcpy(dk, key_dk[set_index(vs)], dkl);
        rc = mlkem_decaps(set, ss, ct, ctl, dk, dkl);
        if (!valid)
            FUZZ_CHECK(rc == MLKEM_ERR_SET, "decaps for set %d: %d", set, rc);
        else if (wrong)
            FUZZ_CHECK(rc == MLKEM_ERR_LENGTH, "decaps of %zu/%zu bytes for %d: %d", ctl, dkl,
                       set, rc);
        else if (op == 1)
            FUZZ_CHECK(rc == MLKEM_OK, "decaps with a valid dk for %d: %d", set, rc);
        else
            FUZZ_CHECK(rc == MLKEM_OK || rc == MLKEM_ERR_KEY, "decaps for %d: %d", set, rc);
        free(ct);
        free(dk);
    } else if (op == 2) {
        size_t ekl = fuzz_adjust(ekn, d0), ctl = fuzz_adjust(ctn, d1);
        uint8_t *ek = fuzz_alloc(ekl), *ct = fuzz_alloc(ctl);
        int wrong = ekl != ekn || ctl != ctn;

        fuzz_fill(&in, ek, ekl);
        fuzz_fill(&in, m, sizeof(m));
        rc = mlkem_encaps_derand(set, ct, ctl, ss, ek, ekl, m);
        if (!valid)
            FUZZ_CHECK(rc == MLKEM_ERR_SET, "encaps for set %d: %d", set, rc);
        else if (wrong)
            FUZZ_CHECK(rc == MLKEM_ERR_LENGTH, "encaps of %zu/%zu bytes for %d: %d", ekl, ctl,
                       set, rc);
        else
            FUZZ_CHECK(rc == (ek_in_range(ek, ekl) ? MLKEM_OK : MLKEM_ERR_KEY),
                       "encaps for %d: %d, modulus check disagrees", set, rc);
        free(ek);
        free(ct);
    } else {
        uint8_t ct[MLKEM_MAX_CT_BYTES];

        fuzz_fill(&in, m, sizeof(m));
        rc = mlkem_encaps_derand(vs, ct, ctn, ss, key_ek[set_index(vs)], ekn, m);
        FUZZ_CHECK(rc == MLKEM_OK, "encaps to a valid ek for %d: %d", vs, rc);
        rc = mlkem_decaps(vs, ss2, ct, ctn, key_dk[set_index(vs)], dkn);
        FUZZ_CHECK(rc == MLKEM_OK && memcmp(ss, ss2, sizeof(ss)) == 0, "round trip for %d: %d",
                   vs, rc);
    }
    return 0;
}
