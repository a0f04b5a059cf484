/* libmlkem's accelerator table (mlkem/accel.h) with hooks in software: hooks
 * that compute the portable kernels through another representation (results
 * in [0, q) instead of centred, inputs reduced first) give every set's
 * keygen, encaps and decaps byte-identical to no table, each hook called as
 * often as K-PKE runs its kernel; the batch hooks (a vector of NTTs, a row's
 * base multiplication and inverse NTT) likewise, once per vector and row; a
 * failing hook makes the call return MLKEM_ERR_ACCEL with every output
 * wiped, only where the kernel runs. */
#include <string.h>

#include "mlkem/accel.h"
#include "mlkem/mlkem.h"
#include "ntt.h"
#include "test_util.h"

#define Q 3329

static unsigned calls[5];
static int fail_kernel = -1; /* the hook that fails (-1: none) */

static int16_t canon(int16_t x) { return (int16_t)((x % Q + Q) % Q); }
static int16_t centre(int16_t x) { return (int16_t)(x > Q / 2 ? x - Q : x); }

static int h_ntt(void *ctx, int16_t a[MLKEM_ACCEL_N]) {
  (void)ctx;
  calls[0]++;
  if (fail_kernel == 0) return -1;
  for (unsigned i = 0; i < MLKEM_ACCEL_N; i++) a[i] = canon(a[i]);
  mlkem_ntt_c(a);
  for (unsigned i = 0; i < MLKEM_ACCEL_N; i++) a[i] = centre(canon(a[i]));
  return 0;
}

static int h_invntt(void *ctx, int16_t a[MLKEM_ACCEL_N]) {
  (void)ctx;
  calls[1]++;
  if (fail_kernel == 1) return -1;
  for (unsigned i = 0; i < MLKEM_ACCEL_N; i++) a[i] = canon(a[i]);
  mlkem_invntt_c(a);
  for (unsigned i = 0; i < MLKEM_ACCEL_N; i++) a[i] = canon(a[i]);
  return 0;
}

static int h_basemul(void *ctx, int16_t r[MLKEM_ACCEL_N], const int16_t (*a)[MLKEM_ACCEL_N],
                     const int16_t (*b)[MLKEM_ACCEL_N], unsigned k) {
  (void)ctx;
  calls[2]++;
  if (fail_kernel == 2) return -1;
  mlkem_basemul_acc_c(r, a, b, k);
  for (unsigned i = 0; i < MLKEM_ACCEL_N; i++) r[i] = centre(canon(r[i]));
  return 0;
}

/* the batch hooks: one call per vector and per row */
static int h_ntt_vec(void *ctx, int16_t (*a)[MLKEM_ACCEL_N], unsigned k) {
  (void)ctx;
  calls[3]++;
  if (fail_kernel == 3) return -1;
  for (unsigned j = 0; j < k; j++) {
    for (unsigned i = 0; i < MLKEM_ACCEL_N; i++) a[j][i] = canon(a[j][i]);
    mlkem_ntt_c(a[j]);
    for (unsigned i = 0; i < MLKEM_ACCEL_N; i++) a[j][i] = centre(canon(a[j][i]));
  }
  return 0;
}

static int h_basemul_invntt(void *ctx, int16_t r[MLKEM_ACCEL_N],
                            const int16_t (*a)[MLKEM_ACCEL_N], const int16_t (*b)[MLKEM_ACCEL_N],
                            unsigned k) {
  (void)ctx;
  calls[4]++;
  if (fail_kernel == 4) return -1;
  mlkem_basemul_acc_c(r, a, b, k);
  mlkem_invntt_c(r);
  for (unsigned i = 0; i < MLKEM_ACCEL_N; i++) r[i] = canon(r[i]);
  return 0;
}

typedef struct {
  uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES], ct[MLKEM_MAX_CT_BYTES];
  uint8_t ss_e[MLKEM_SS_BYTES], ss_d[MLKEM_SS_BYTES];
  int rc[3];
} run_out;

static void run_all(int set, unsigned seed, run_out *o) {
  uint8_t d[32], z[32], m[32];
  for (unsigned i = 0; i < 32; i++) {
    d[i] = (uint8_t)(seed + i);
    z[i] = (uint8_t)(seed * 3 + i);
    m[i] = (uint8_t)(seed * 5 + 7 * i);
  }
  memset(o, 0xaa, sizeof(*o));
  o->rc[0] = mlkem_keypair_derand(set, o->ek, mlkem_ek_bytes(set), o->dk, mlkem_dk_bytes(set),
                                  d, z);
  o->rc[1] = mlkem_encaps_derand(set, o->ct, mlkem_ct_bytes(set), o->ss_e, o->ek,
                                 mlkem_ek_bytes(set), m);
  o->rc[2] = mlkem_decaps(set, o->ss_d, o->ct, mlkem_ct_bytes(set), o->dk, mlkem_dk_bytes(set));
}

static int is_zero(const uint8_t *p, size_t n) {
  uint8_t x = 0;
  for (size_t i = 0; i < n; i++) x |= p[i];
  return x == 0;
}

int main(void) {
  static const mlkem_accel table = {NULL, h_ntt, h_invntt, h_basemul, NULL, NULL};
  static const int sets[] = {512, 768, 1024};
  CHECK(mlkem_get_accel() == NULL, "no table by default");
  for (unsigned s = 0; s < 3; s++) {
    static run_out sw, hw;
    const unsigned k = (unsigned)sets[s] / 256;
    mlkem_set_accel(NULL);
    run_all(sets[s], s, &sw);
    memset(calls, 0, sizeof(calls));
    CHECK(mlkem_set_accel(&table) == MLKEM_OK && mlkem_get_accel() == &table, "set the table");
    run_all(sets[s], s, &hw);
    mlkem_set_accel(NULL);
    CHECK(sw.rc[0] == 0 && sw.rc[1] == 0 && sw.rc[2] == 0, "software runs");
    CHECK(memcmp(&sw, &hw, sizeof(sw)) == 0, "ML-KEM-%d through the hooks: byte-identical",
          sets[s]);
    /* keygen 2k NTT; encrypt k NTT, k + 1 INTT, k + 1 base multiplications;
     * decaps: decrypt (k NTT, 1 INTT, 1) and encrypt again */
    CHECK(calls[0] == 2 * k + k + k + k && calls[1] == (k + 1) + 1 + (k + 1) &&
              calls[2] == k + (k + 1) + 1 + (k + 1),
          "ML-KEM-%d: hook calls %u %u %u", sets[s], calls[0], calls[1], calls[2]);
  }
  /* a failing hook: MLKEM_ERR_ACCEL and wiped outputs where its kernel runs */
  static run_out keys;
  run_all(768, 9, &keys);
  for (int f = 0; f < 3; f++) {
    static run_out o;
    fail_kernel = f;
    mlkem_set_accel(&table);
    run_all(768, 9, &o);
    int ek_rc = mlkem_encaps_derand(768, o.ct, MLKEM768_CT_BYTES, o.ss_e, keys.ek,
                                    MLKEM768_EK_BYTES, keys.dk);
    int dk_rc = mlkem_decaps(768, o.ss_d, keys.ct, MLKEM768_CT_BYTES, keys.dk, MLKEM768_DK_BYTES);
    mlkem_set_accel(NULL);
    const int keygen_fails = f != 1; /* key generation runs no inverse NTT */
    CHECK(o.rc[0] == (keygen_fails ? MLKEM_ERR_ACCEL : MLKEM_OK), "keygen with hook %d failing",
          f);
    CHECK(!keygen_fails ||
              (is_zero(o.ek, MLKEM768_EK_BYTES) && is_zero(o.dk, MLKEM768_DK_BYTES)),
          "keygen: ek and dk wiped");
    CHECK(ek_rc == MLKEM_ERR_ACCEL && is_zero(o.ct, MLKEM768_CT_BYTES) && is_zero(o.ss_e, 32),
          "encaps with hook %d failing: MLKEM_ERR_ACCEL, ct and ss wiped", f);
    CHECK(dk_rc == MLKEM_ERR_ACCEL && is_zero(o.ss_d, 32),
          "decaps with hook %d failing: MLKEM_ERR_ACCEL, ss wiped", f);
  }
  fail_kernel = -1;
  /* the batch hooks: byte-identical, one call per vector and per row (keygen
   * one vector of 2k, encrypt one vector and k + 1 rows, decrypt one vector
   * and one row); a failing batch hook fails the call */
  static const mlkem_accel batch = {NULL, h_ntt, h_invntt, h_basemul, h_ntt_vec, h_basemul_invntt};
  for (unsigned s = 0; s < 3; s++) {
    static run_out sw, hw;
    const unsigned k = (unsigned)sets[s] / 256;
    mlkem_set_accel(NULL);
    run_all(sets[s], s + 5, &sw);
    memset(calls, 0, sizeof(calls));
    mlkem_set_accel(&batch);
    run_all(sets[s], s + 5, &hw);
    mlkem_set_accel(NULL);
    CHECK(memcmp(&sw, &hw, sizeof(sw)) == 0, "ML-KEM-%d through the batch hooks: byte-identical",
          sets[s]);
    CHECK(calls[0] == 0 && calls[1] == 0 && calls[2] == k && calls[3] == 1 + 1 + 2 &&
              calls[4] == (k + 1) + 1 + (k + 1),
          "ML-KEM-%d: batch hook calls %u %u %u %u %u", sets[s], calls[0], calls[1], calls[2],
          calls[3], calls[4]);
  }
  for (int f = 3; f < 5; f++) {
    static run_out o;
    fail_kernel = f;
    mlkem_set_accel(&batch);
    run_all(768, 9, &o);
    mlkem_set_accel(NULL);
    CHECK(o.rc[0] == (f == 3 ? MLKEM_ERR_ACCEL : MLKEM_OK) && o.rc[1] == MLKEM_ERR_ACCEL &&
              is_zero(o.ct, MLKEM768_CT_BYTES) && is_zero(o.ss_e, 32),
          "batch hook %d failing: MLKEM_ERR_ACCEL, ct and ss wiped", f);
  }
  fail_kernel = -1;
  CHECK(strcmp(mlkem_strerror(MLKEM_ERR_ACCEL), "unknown error") != 0, "MLKEM_ERR_ACCEL's text");
  return test_summary();
}
