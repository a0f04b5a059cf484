/* The accelerator table (bike/accel.h): with each hook set alone, a KEM run
 * calls it and gives byte-identical outputs to software; a failing hook
 * makes the call return BIKE_ERR_ACCEL with its outputs wiped. The hooks here
 * are libbike's own functions, counted, with a switch that fails one. */
#include <stdlib.h>

#include "bike/accel.h"
#include "bike/batch.h"
#include "bike/bike.h"
#include "bike/ops.h"
#include "test_util.h"

enum { H_KEYPAIR, H_ENCAPS, H_DECAPS, H_SAMPLE, H_INV, H_MUL, H_DECODE, H_H, H_L, H_K, N_HOOKS };
static const char *const hook_names[N_HOOKS] = {"keypair", "encaps", "decaps", "sample_keygen",
                                                "gf2x_inv", "gf2x_mul", "decode", "function_h",
                                                "function_l", "function_k"};

typedef struct {
  unsigned calls[N_HOOKS];
  unsigned sites[3]; /* calls per site of the hooks that take one */
  int fail;          /* the hook that fails (-1: none) */
} hooks_ctx;

static bike_accel table;

static int outcome(void *ctx, int h) {
  hooks_ctx *c = (hooks_ctx *)ctx;
  c->calls[h]++;
  return c->fail == h ? -1 : 0;
}

static int site_outcome(void *ctx, int h, bike_accel_site site) {
  ((hooks_ctx *)ctx)->sites[site]++;
  return outcome(ctx, h);
}

/* The whole operations run libbike without the table (no recursion). */
static int hk_keypair(void *ctx, const bike_params *p, uint8_t *pk, uint8_t *sk,
                      const uint8_t coins[BIKE_COINS_BYTES]) {
  bike_set_accel(NULL);
  int rc = bike_keypair_derand(p->level, pk, p->pk_bytes, sk, p->sk_bytes, coins);
  bike_set_accel(&table);
  return rc != BIKE_OK ? rc : outcome(ctx, H_KEYPAIR);
}
static int hk_encaps(void *ctx, const bike_params *p, uint8_t *ct, uint8_t *ss, const uint8_t *pk,
                     const uint8_t coins[BIKE_COINS_BYTES]) {
  bike_set_accel(NULL);
  int rc = bike_encaps_derand(p->level, ct, p->ct_bytes, ss, pk, p->pk_bytes, coins);
  bike_set_accel(&table);
  return rc != BIKE_OK ? rc : outcome(ctx, H_ENCAPS);
}
static int hk_decaps(void *ctx, const bike_params *p, uint8_t *ss, const uint8_t *ct,
                     const uint8_t *sk) {
  bike_set_accel(NULL);
  int rc = bike_decaps(p->level, ss, ct, p->ct_bytes, sk, p->sk_bytes);
  bike_set_accel(&table);
  return rc != BIKE_OK ? rc : outcome(ctx, H_DECAPS);
}
static int hk_sample(void *ctx, const bike_params *p, uint32_t *h0, uint32_t *h1,
                     const uint8_t seed[BIKE_M_BYTES]) {
  bike_sample_keygen(p, h0, h1, seed);
  return outcome(ctx, H_SAMPLE);
}
static int hk_inv(void *ctx, const bike_params *p, uint64_t *c, const uint64_t *a) {
  bike_gf2x_inv(p, c, a);
  return outcome(ctx, H_INV);
}
static int hk_mul(void *ctx, bike_accel_site site, const bike_params *p, uint64_t *c,
                  const uint64_t *a, const uint64_t *b) {
  bike_gf2x_mul(p, c, a, b);
  return site_outcome(ctx, H_MUL, site);
}
static int hk_decode(void *ctx, const bike_params *p, uint64_t *e0, uint64_t *e1, uint64_t *ok,
                     const uint64_t *s, const uint32_t *h0, const uint32_t *h1) {
  *ok = bike_decode(p, e0, e1, s, h0, h1);
  return outcome(ctx, H_DECODE);
}
static int hk_h(void *ctx, bike_accel_site site, const bike_params *p, uint64_t *e0, uint64_t *e1,
                const uint8_t m[BIKE_M_BYTES]) {
  bike_function_h(p, e0, e1, NULL, m);
  return site_outcome(ctx, H_H, site);
}
static int hk_l(void *ctx, bike_accel_site site, const bike_params *p, uint8_t out[32],
                const uint64_t *e0, const uint64_t *e1) {
  bike_function_l(p, out, e0, e1);
  return site_outcome(ctx, H_L, site);
}
static int hk_k(void *ctx, bike_accel_site site, const bike_params *p, uint8_t out[32],
                const uint8_t m[BIKE_M_BYTES], const uint8_t *ct) {
  bike_function_k(p, out, m, ct);
  return site_outcome(ctx, H_K, site);
}

/* A table with hook h alone. */
static bike_accel only(int h, hooks_ctx *ctx) {
  bike_accel t = {.ctx = ctx};
  switch (h) {
    case H_KEYPAIR: t.keypair = hk_keypair; break;
    case H_ENCAPS: t.encaps = hk_encaps; break;
    case H_DECAPS: t.decaps = hk_decaps; break;
    case H_SAMPLE: t.sample_keygen = hk_sample; break;
    case H_INV: t.gf2x_inv = hk_inv; break;
    case H_MUL: t.gf2x_mul = hk_mul; break;
    case H_DECODE: t.decode = hk_decode; break;
    case H_H: t.function_h = hk_h; break;
    case H_L: t.function_l = hk_l; break;
    default: t.function_k = hk_k; break;
  }
  return t;
}

typedef struct {
  uint8_t pk[BIKE_MAX_PUBLIC_KEY_BYTES], sk[BIKE_MAX_SECRET_KEY_BYTES];
  uint8_t ct[BIKE_MAX_CIPHERTEXT_BYTES], ss_enc[32], ss_dec[32];
  int rc[3];
} kem_run;

/* keypair, encaps, decaps with the given coins; outputs pre-filled with 0xA5. */
static void run_kem(const bike_params *p, uint8_t coins[2][64], kem_run *r) {
  memset(r, 0xA5, sizeof(*r));
  r->rc[0] = bike_keypair_derand(p->level, r->pk, p->pk_bytes, r->sk, p->sk_bytes, coins[0]);
  r->rc[1] = bike_encaps_derand(p->level, r->ct, p->ct_bytes, r->ss_enc, r->pk, p->pk_bytes,
                                coins[1]);
  r->rc[2] = bike_decaps(p->level, r->ss_dec, r->ct, p->ct_bytes, r->sk, p->sk_bytes);
}

static void test_level(const bike_params *p) {
  const int L = p->level;
  uint8_t coins[2][64];
  test_rand_bytes(&coins[0][0], sizeof(coins));
  static kem_run sw, acc;
  bike_set_accel(NULL);
  run_kem(p, coins, &sw);
  CHECK(sw.rc[0] == BIKE_OK && sw.rc[1] == BIKE_OK && sw.rc[2] == BIKE_OK, "L%d software", L);
  CHECK(memcmp(sw.ss_enc, sw.ss_dec, 32) == 0, "L%d software round trip", L);

  /* a tampered ciphertext, for the rejection path through the hooks */
  static uint8_t bad_ct[BIKE_MAX_CIPHERTEXT_BYTES];
  uint8_t ss_sw_bad[32], ss_acc_bad[32];
  memcpy(bad_ct, sw.ct, p->ct_bytes);
  bad_ct[3] ^= 0x10;
  CHECK(bike_decaps(L, ss_sw_bad, bad_ct, p->ct_bytes, sw.sk, p->sk_bytes) == BIKE_OK,
        "L%d decaps of a tampered ciphertext", L);

  for (int h = 0; h < N_HOOKS; h++) {
    hooks_ctx ctx = {.fail = -1};
    table = only(h, &ctx);
    bike_set_accel(&table);
    CHECK(bike_get_accel() == &table, "L%d get_accel", L);
    run_kem(p, coins, &acc);
    CHECK(acc.rc[0] == BIKE_OK && acc.rc[1] == BIKE_OK && acc.rc[2] == BIKE_OK,
          "L%d %s: return codes %d %d %d", L, hook_names[h], acc.rc[0], acc.rc[1], acc.rc[2]);
    CHECK(memcmp(&acc, &sw, sizeof(acc)) == 0, "L%d %s: outputs differ from software", L,
          hook_names[h]);
    CHECK(ctx.calls[h] > 0, "L%d %s: the hook was not called", L, hook_names[h]);
    CHECK(bike_decaps(L, ss_acc_bad, bad_ct, p->ct_bytes, sw.sk, p->sk_bytes) == BIKE_OK &&
              memcmp(ss_acc_bad, ss_sw_bad, 32) == 0,
          "L%d %s: implicit rejection differs from software", L, hook_names[h]);

    /* the hook fails: every call that used it returns BIKE_ERR_ACCEL, with
     * its outputs zero; the others are unaffected */
    ctx.fail = h;
    memset(ctx.calls, 0, sizeof(ctx.calls));
    run_kem(p, coins, &acc);
    const int used_by[N_HOOKS][3] = {
        [H_KEYPAIR] = {1, 0, 0}, [H_ENCAPS] = {0, 1, 0}, [H_DECAPS] = {0, 0, 1},
        [H_SAMPLE] = {1, 0, 0},  [H_INV] = {1, 0, 0},    [H_MUL] = {1, 1, 1},
        [H_DECODE] = {0, 0, 1},  [H_H] = {0, 1, 1},      [H_L] = {0, 1, 1},
        [H_K] = {0, 1, 1}};
    for (int op = 0; op < 3; op++) {
      /* a failed keypair leaves a zero key: encaps then fails on its own
       * account only if it uses the failing hook */
      const int want = used_by[h][op] ? BIKE_ERR_ACCEL : BIKE_OK;
      CHECK(acc.rc[op] == want, "L%d %s fails: operation %d returned %d", L, hook_names[h], op,
            acc.rc[op]);
    }
    if (used_by[h][0]) {
      CHECK(all_zero(acc.pk, p->pk_bytes) && all_zero(acc.sk, p->sk_bytes),
            "L%d %s fails: keypair outputs not wiped", L, hook_names[h]);
    }
    if (used_by[h][1]) {
      CHECK(all_zero(acc.ct, p->ct_bytes) && all_zero(acc.ss_enc, 32),
            "L%d %s fails: encaps outputs not wiped", L, hook_names[h]);
    }
    if (used_by[h][2]) {
      CHECK(all_zero(acc.ss_dec, 32), "L%d %s fails: decaps output not wiped", L, hook_names[h]);
    }
  }
  /* the sites: one multiplication in each operation */
  hooks_ctx ctx = {.fail = -1};
  table = only(H_MUL, &ctx);
  bike_set_accel(&table);
  run_kem(p, coins, &acc);
  CHECK(ctx.sites[BIKE_ACCEL_KEYGEN] == 1 && ctx.sites[BIKE_ACCEL_ENCAPS] == 1 &&
            ctx.sites[BIKE_ACCEL_DECAPS] == 1,
        "L%d multiplication sites %u %u %u", L, ctx.sites[0], ctx.sites[1], ctx.sites[2]);
  bike_set_accel(NULL);
  CHECK(bike_get_accel() == NULL, "L%d set_accel(NULL)", L);
}

/* Batches on a device that makes whole key pairs: every key from the keypair
 * hook, the same keys as software's batch; a failing hook wipes them all. */
static void test_batch(const bike_params *p) {
  enum { N = 3 };
  const int L = p->level;
  const size_t pk_len = N * p->pk_bytes, sk_len = N * p->sk_bytes;
  static uint8_t coins[N * BIKE_COINS_BYTES];
  static uint8_t pk_sw[N * BIKE_MAX_PUBLIC_KEY_BYTES], sk_sw[N * BIKE_MAX_SECRET_KEY_BYTES];
  static uint8_t pk[N * BIKE_MAX_PUBLIC_KEY_BYTES], sk[N * BIKE_MAX_SECRET_KEY_BYTES];
  test_rand_bytes(coins, sizeof(coins));
  bike_set_accel(NULL);
  CHECK(bike_keypair_batch_derand(L, N, pk_sw, pk_len, sk_sw, sk_len, coins, sizeof(coins)) ==
            BIKE_OK,
        "L%d software batch", L);
  hooks_ctx ctx = {.fail = -1};
  table = only(H_KEYPAIR, &ctx);
  bike_set_accel(&table);
  memset(pk, 0xA5, sizeof(pk));
  memset(sk, 0xA5, sizeof(sk));
  CHECK(bike_keypair_batch_derand(L, N, pk, pk_len, sk, sk_len, coins, sizeof(coins)) == BIKE_OK &&
            ctx.calls[H_KEYPAIR] == N,
        "L%d batch on the keypair hook: %u calls", L, ctx.calls[H_KEYPAIR]);
  CHECK(memcmp(pk, pk_sw, pk_len) == 0 && memcmp(sk, sk_sw, sk_len) == 0,
        "L%d batch on the keypair hook: keys differ from software's", L);
  ctx.calls[H_KEYPAIR] = 0;
  CHECK(bike_keypair_batch(L, N, pk, pk_len, sk, sk_len) == BIKE_OK && ctx.calls[H_KEYPAIR] == N,
        "L%d random batch on the keypair hook: %u calls", L, ctx.calls[H_KEYPAIR]);
  uint8_t ct[BIKE_MAX_CIPHERTEXT_BYTES], ss_enc[32], ss_dec[32];
  const size_t last_pk = (N - 1) * p->pk_bytes, last_sk = (N - 1) * p->sk_bytes;
  CHECK(bike_encaps(L, ct, p->ct_bytes, ss_enc, pk + last_pk, p->pk_bytes) == BIKE_OK &&
            bike_decaps(L, ss_dec, ct, p->ct_bytes, sk + last_sk, p->sk_bytes) == BIKE_OK &&
            memcmp(ss_enc, ss_dec, sizeof(ss_enc)) == 0,
        "L%d random batch on the keypair hook: its last key fails a round trip", L);
  ctx.fail = H_KEYPAIR;
  for (int derand = 0; derand < 2; derand++) {
    memset(pk, 0xA5, sizeof(pk));
    memset(sk, 0xA5, sizeof(sk));
    const int rc = derand ? bike_keypair_batch_derand(L, N, pk, pk_len, sk, sk_len, coins,
                                                      sizeof(coins))
                          : bike_keypair_batch(L, N, pk, pk_len, sk, sk_len);
    CHECK(rc == BIKE_ERR_ACCEL, "L%d failing keypair hook: batch%s returned %d", L,
          derand ? "_derand" : "", rc);
    CHECK(all_zero(pk, pk_len) && all_zero(sk, sk_len),
          "L%d failing keypair hook: batch%s keys not wiped", L, derand ? "_derand" : "");
  }
  bike_set_accel(NULL);
}

/* Arguments: the levels to run (default 1 3 5). */
int main(int argc, char **argv) {
  CHECK(strcmp(bike_strerror(BIKE_ERR_ACCEL), bike_strerror(-1000)) != 0,
        "BIKE_ERR_ACCEL has its own text");
  for (int level = 1; level <= 5; level += 2) {
    int run = argc == 1;
    for (int i = 1; i < argc; i++) {
      run |= atoi(argv[i]) == level;
    }
    if (run) {
      test_level(bike_params_get(level));
      test_batch(bike_params_get(level));
    }
  }
  return test_summary();
}
