/* bike_acc_offload on fake devices whose cores compute with libbike: the
 * placement's parser, binding, KEM runs byte-identical to software with the
 * operations on the devices, and the error paths (device error, time-out,
 * wrong PARAM, a result with bits above r): BIKE_ERR_ACCEL, outputs wiped,
 * the driver's code kept. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "bike/accel.h"
#include "bike/bike.h"
#include "bike/ops.h"
#include "bike_acc.h"
#include "bike_acc_fake.h"
#include "bike_acc_offload.h"
#include "regs.h"
#include "test_util.h"

static const bike_params *P;
static int corrupt_top; /* the next results get a bit set above r */

static void core_mul(void *ctx, const uint64_t *in, uint64_t *out) {
  (void)ctx;
  bike_gf2x_mul(P, out, in, in + P->r_qwords);
  if (corrupt_top) {
    out[P->r_qwords - 1] |= 1ull << 63;
  }
}

static void core_inv(void *ctx, const uint64_t *in, uint64_t *out) {
  (void)ctx;
  bike_gf2x_inv(P, out, in);
}

typedef struct {
  bike_acc_fake_config cfg;
  bike_acc_dev *dev;
} fake_dev;

static int open_fake(fake_dev *f, uint32_t core, uint32_t timeout_us) {
  memset(&f->cfg, 0, sizeof(f->cfg));
  f->cfg.id = ACC_PUT(ACC_MAGIC, ID, MAGIC) | ACC_PUT(core, ID, CORE);
  f->cfg.param = P->r;
  const int mul = core == ACC_SHELL__ACC_SHELL_CORE_E__GF2X_MUL;
  f->cfg.in_words = (mul ? 2 : 1) * P->r_qwords;
  f->cfg.out_words = P->r_qwords;
  f->cfg.cycles = mul ? 1000 : 20000;
  f->cfg.compute = mul ? core_mul : core_inv;
  bike_acc_options opt = {.core = core, .wait = BIKE_ACC_IRQ, .timeout_us = timeout_us,
                          .platform_config = &f->cfg};
  return bike_acc_open(&f->dev, BIKE_ACC_FAKE, 0, &opt);
}

static void test_parse(void) {
  bike_acc_placement pl;
  unsigned bad = 0;
  const char *good = "# from bikeco plan --device xc7z020\n"
                     "keygen.inversion gf2x_inv_acc medium\n"
                     "\n"
                     "  encaps.multiplication\tgf2x_mul_acc   # a comment\n"
                     "decaps bike_kem_decaps_acc medium";
  CHECK(bike_acc_placement_parse(good, &pl, &bad) == BIKE_ACC_OK, "good placement (line %u)",
        bad);
  CHECK(pl.n == 3, "3 entries, not %zu", pl.n);
  CHECK(pl.entry[0].target == BIKE_ACC_T_KEYGEN_INV && strcmp(pl.entry[0].device,
                                                              "gf2x_inv_acc") == 0 &&
            strcmp(pl.entry[0].preset, "medium") == 0,
        "entry 0");
  CHECK(pl.entry[1].target == BIKE_ACC_T_ENCAPS_MUL && pl.entry[1].preset[0] == '\0',
        "entry 1: no preset");
  CHECK(pl.entry[2].target == BIKE_ACC_T_DECAPS, "entry 2");
  const struct {
    const char *text;
    unsigned line;
  } bad_ones[] = {
      {"keygen.inversion gf2x_inv_acc\nkeygen.sqrt x\n", 2},          /* unknown target */
      {"encaps x\nencaps y\n", 2},                                   /* twice */
      {"decaps\n", 1},                                               /* no device */
      {"decaps dev medium more\n", 1},                               /* a fourth word */
      {"decaps a_device_name_far_longer_than_forty_eight_characters_x\n", 1},
  };
  for (size_t i = 0; i < sizeof(bad_ones) / sizeof(bad_ones[0]); i++) {
    bad = 0;
    CHECK(bike_acc_placement_parse(bad_ones[i].text, &pl, &bad) == BIKE_ACC_ERR_ARG &&
              bad == bad_ones[i].line,
          "bad placement %zu: line %u", i, bad);
  }
  for (int t = 0; t < BIKE_ACC_N_TARGETS; t++) {
    CHECK(bike_acc_target_from_name(bike_acc_target_name((bike_acc_target)t)) == t,
          "target name %d", t);
  }
}

typedef struct {
  uint8_t pk[BIKE_MAX_PUBLIC_KEY_BYTES], sk[BIKE_MAX_SECRET_KEY_BYTES];
  uint8_t ct[BIKE_MAX_CIPHERTEXT_BYTES], ss_enc[32], ss_dec[32];
  int rc[3];
} kem_run;

static uint8_t coins[2][64];

static void run_kem(kem_run *r) {
  memset(r, 0xA5, sizeof(*r));
  const int L = P->level;
  r->rc[0] = bike_keypair_derand(L, r->pk, P->pk_bytes, r->sk, P->sk_bytes, coins[0]);
  r->rc[1] = bike_encaps_derand(L, r->ct, P->ct_bytes, r->ss_enc, r->pk, P->pk_bytes, coins[1]);
  r->rc[2] = bike_decaps(L, r->ss_dec, r->ct, P->ct_bytes, r->sk, P->sk_bytes);
}

static int zero(const uint8_t *b, size_t n) {
  uint8_t acc = 0;
  for (size_t i = 0; i < n; i++) {
    acc |= b[i];
  }
  return acc == 0;
}

static kem_run sw, got;

static void test_level(int level) {
  P = bike_params_get(level);
  test_rand_bytes(&coins[0][0], sizeof(coins));
  bike_set_accel(NULL);
  run_kem(&sw);
  CHECK(sw.rc[0] == 0 && sw.rc[1] == 0 && sw.rc[2] == 0, "L%d software", level);

  fake_dev mul, inv;
  CHECK(open_fake(&mul, ACC_SHELL__ACC_SHELL_CORE_E__GF2X_MUL, 0) == BIKE_ACC_OK, "open mul");
  CHECK(open_fake(&inv, ACC_SHELL__ACC_SHELL_CORE_E__GF2X_INV, 0) == BIKE_ACC_OK, "open inv");
  bike_acc_offload *o;
  CHECK(bike_acc_offload_new(&o) == BIKE_ACC_OK, "new");
  CHECK(bike_acc_offload_bind(o, BIKE_ACC_T_KEYGEN_INV, mul.dev) == BIKE_ACC_ERR_CORE,
        "a multiplier cannot invert");
  CHECK(bike_acc_offload_bind(o, BIKE_ACC_T_DECAPS, mul.dev) == BIKE_ACC_ERR_CORE,
        "a multiplier cannot decapsulate");
  CHECK(bike_acc_offload_bind(o, BIKE_ACC_T_ENCAPS_MUL, mul.dev) == BIKE_ACC_OK, "bind encaps");

  /* only encapsulation's multiplication on the device */
  bike_set_accel(bike_acc_offload_table(o));
  run_kem(&got);
  CHECK(memcmp(&got, &sw, sizeof(got)) == 0, "L%d encaps.multiplication: differs", level);
  bike_acc_offload_stats st;
  bike_acc_offload_get_stats(o, BIKE_ACC_T_ENCAPS_MUL, &st);
  CHECK(st.calls == 1 && st.failures == 0 && st.accelerator_cycles == 1000, "L%d stats %llu",
        level, (unsigned long long)st.calls);
  bike_acc_offload_get_stats(o, BIKE_ACC_T_KEYGEN_MUL, &st);
  CHECK(st.calls == 0, "L%d keygen's multiplication stayed in software", level);

  /* the whole Z-7020 split that these cores serve */
  CHECK(bike_acc_offload_bind(o, BIKE_ACC_T_KEYGEN_INV, inv.dev) == BIKE_ACC_OK, "bind inv");
  CHECK(bike_acc_offload_bind(o, BIKE_ACC_T_KEYGEN_MUL, mul.dev) == BIKE_ACC_OK, "bind mul");
  CHECK(bike_acc_offload_bind(o, BIKE_ACC_T_DECAPS_MUL, mul.dev) == BIKE_ACC_OK, "bind mul");
  run_kem(&got);
  CHECK(memcmp(&got, &sw, sizeof(got)) == 0, "L%d mul + inv: differs", level);
  bike_acc_offload_get_stats(o, BIKE_ACC_T_KEYGEN_INV, &st);
  CHECK(st.calls == 1 && st.accelerator_cycles == 20000, "L%d inversion on the device", level);
  bike_acc_offload_get_stats(o, BIKE_ACC_T_DECAPS_MUL, &st);
  CHECK(st.calls == 1, "L%d syndrome on the device", level);
  CHECK(bike_acc_offload_last_error(o) == 0, "L%d no error", level);

  /* the inversion's core fails: keygen returns BIKE_ERR_ACCEL, pk and sk zero */
  bike_acc_close(inv.dev);
  CHECK(open_fake(&inv, ACC_SHELL__ACC_SHELL_CORE_E__GF2X_INV, 0) == BIKE_ACC_OK, "reopen");
  inv.cfg.core_error = 1;
  bike_acc_close(inv.dev);
  bike_acc_options opt = {.wait = BIKE_ACC_POLL, .platform_config = &inv.cfg};
  CHECK(bike_acc_open(&inv.dev, BIKE_ACC_FAKE, 0, &opt) == BIKE_ACC_OK, "open failing inv");
  CHECK(bike_acc_offload_bind(o, BIKE_ACC_T_KEYGEN_INV, inv.dev) == BIKE_ACC_OK, "rebind");
  run_kem(&got);
  CHECK(got.rc[0] == BIKE_ERR_ACCEL, "L%d device error: keypair returned %d", level, got.rc[0]);
  CHECK(zero(got.pk, P->pk_bytes) && zero(got.sk, P->sk_bytes), "L%d keypair not wiped", level);
  CHECK(bike_acc_offload_last_error(o) == BIKE_ACC_ERR_DEV(CORE), "L%d last error %d", level,
        bike_acc_offload_last_error(o));
  bike_acc_close(inv.dev);

  /* a core that never ends: time-out */
  inv.cfg.core_error = 0;
  inv.cfg.never_done = 1;
  opt.timeout_us = 2000;
  CHECK(bike_acc_open(&inv.dev, BIKE_ACC_FAKE, 0, &opt) == BIKE_ACC_OK, "open stuck inv");
  bike_acc_offload_bind(o, BIKE_ACC_T_KEYGEN_INV, inv.dev);
  run_kem(&got);
  CHECK(got.rc[0] == BIKE_ERR_ACCEL && zero(got.sk, P->sk_bytes), "L%d time-out", level);
  CHECK(bike_acc_offload_last_error(o) == BIKE_ACC_ERR_TIMEOUT, "L%d timeout code %d", level,
        bike_acc_offload_last_error(o));
  bike_acc_close(inv.dev);

  /* a device built for another level */
  inv.cfg.never_done = 0;
  inv.cfg.param = P->r + 2;
  CHECK(bike_acc_open(&inv.dev, BIKE_ACC_FAKE, 0, &opt) == BIKE_ACC_OK, "open other-level inv");
  bike_acc_offload_bind(o, BIKE_ACC_T_KEYGEN_INV, inv.dev);
  run_kem(&got);
  CHECK(got.rc[0] == BIKE_ERR_ACCEL && zero(got.pk, P->pk_bytes), "L%d wrong PARAM", level);
  CHECK(bike_acc_offload_last_error(o) == BIKE_ACC_ERR_PARAM, "L%d PARAM code", level);
  bike_acc_close(inv.dev);
  CHECK(open_fake(&inv, ACC_SHELL__ACC_SHELL_CORE_E__GF2X_INV, 0) == BIKE_ACC_OK, "reopen");
  bike_acc_offload_bind(o, BIKE_ACC_T_KEYGEN_INV, inv.dev);

  /* a multiplier giving bits above r: every operation that used it fails */
  corrupt_top = 1;
  run_kem(&got);
  corrupt_top = 0;
  CHECK(got.rc[0] == BIKE_ERR_ACCEL && got.rc[1] == BIKE_ERR_ACCEL && got.rc[2] == BIKE_ERR_ACCEL,
        "L%d bad result: %d %d %d", level, got.rc[0], got.rc[1], got.rc[2]);
  CHECK(zero(got.ct, P->ct_bytes) && zero(got.ss_enc, 32) && zero(got.ss_dec, 32),
        "L%d bad result: outputs not wiped", level);
  CHECK(bike_acc_offload_last_error(o) == BIKE_ACC_ERR_RESULT, "L%d RESULT code", level);

  /* and the devices work again */
  run_kem(&got);
  CHECK(memcmp(&got, &sw, sizeof(got)) == 0, "L%d after the errors: differs", level);

  bike_set_accel(NULL);
  bike_acc_offload_free(o);
  bike_acc_close(mul.dev);
  bike_acc_close(inv.dev);
}

/* ---- the cores of several operations, as fakes computing with libbike
 * in the layouts of their documentation (hw/ip/acc_shell/doc/acc_shell.md,
 * hw/ip/bike_kem/doc/bike_kem.md); compiled in when the register map has
 * their identifiers, as the adapters are ---- */

static size_t nd(void) { return (P->d + 1) / 2; }

static void to_bytes(uint8_t *b, const uint64_t *w, size_t n) {
  for (size_t i = 0; i < n; i++) b[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
}

static void to_words(uint64_t *w, const uint8_t *b, size_t n) {
  memset(w, 0, (n + 7) / 8 * 8);
  for (size_t i = 0; i < n; i++) w[i / 8] |= (uint64_t)b[i] << (8 * (i % 8));
}

static void idx_words(uint64_t *w, const uint32_t *idx) {
  uint8_t b[4 * BIKE_MAX_D + 4] = {0};
  for (uint32_t i = 0; i < P->d; i++)
    for (int k = 0; k < 4; k++) b[4 * i + k] = (uint8_t)(idx[i] >> (8 * k));
  to_words(w, b, 8 * nd());
}

static void words_idx(uint32_t *idx, const uint64_t *w) {
  for (uint32_t i = 0; i < P->d; i++) idx[i] = (uint32_t)(w[i / 2] >> (32 * (i % 2)));
}

static int sampler_words(void *ctx, uint32_t op, uint32_t *in, uint32_t *out) {
  (void)ctx;
  const uint32_t n = P->r_qwords, kw = (32 + P->ct_bytes + 7) / 8;
  const uint32_t ins[5] = {0, 4, 4, 2 * n, kw}, outs[5] = {0, 2 * (uint32_t)nd(), 2 * n, 4, 4};
  if (op < 1 || op > 4) return 0;
  *in = ins[op];
  *out = outs[op];
  return 1;
}

static void sampler_op(void *ctx, uint32_t op, const uint64_t *in, uint64_t *out) {
  (void)ctx;
  uint8_t b[32 + BIKE_MAX_CIPHERTEXT_BYTES], digest[32];
  uint32_t h0[BIKE_MAX_D], h1[BIKE_MAX_D];
  to_bytes(b, in, op == 4 ? 32 + P->ct_bytes : 32);
  if (op == 1) {
    bike_sample_keygen(P, h0, h1, b);
    idx_words(out, h0);
    idx_words(out + nd(), h1);
  } else if (op == 2) {
    bike_function_h(P, out, out + P->r_qwords, NULL, b);
  } else if (op == 3) {
    bike_function_l(P, digest, in, in + P->r_qwords);
    to_words(out, digest, 32);
  } else {
    bike_function_k(P, digest, b, b + 32);
    to_words(out, digest, 32);
  }
}

static void decoder_op(void *ctx, const uint64_t *in, uint64_t *out) {
  (void)ctx;
  uint32_t h0[BIKE_MAX_D], h1[BIKE_MAX_D];
  words_idx(h0, in);
  words_idx(h1, in + nd());
  out[2 * P->r_qwords] = bike_decode(P, out, out + P->r_qwords, in + 2 * nd(), h0, h1);
}

static int kem_words(void *ctx, uint32_t op, uint32_t *in, uint32_t *out) {
  (void)ctx;
  const uint32_t n = P->r_qwords, d = P->d;
  const uint32_t ins[4] = {0, 8, n + 8, n + 8 + d}, outs[4] = {0, d + 3 * n + 4, n + 8, 4};
  if (op < 1 || op > 3) return 0;
  *in = ins[op];
  *out = outs[op];
  return 1;
}

/* libbike's KEM without the table (the fake must not call itself) */
static void kem_op(void *ctx, uint32_t op, const uint64_t *in, uint64_t *out) {
  (void)ctx;
  const bike_accel *table = bike_get_accel();
  bike_set_accel(NULL);
  const size_t n = P->r_qwords, d = P->d, rb = P->r_bytes;
  uint8_t coins[64], pk[BIKE_MAX_PUBLIC_KEY_BYTES], sk[BIKE_MAX_SECRET_KEY_BYTES];
  uint8_t ct[BIKE_MAX_CIPHERTEXT_BYTES], ss[32];
  memset(sk, 0, sizeof(sk));
  if (op == 1) {
    to_bytes(coins, in, 64);
    bike_keypair_derand(P->level, pk, P->pk_bytes, sk, P->sk_bytes, coins);
    to_words(out, sk, 8 * d);
    to_words(out + d, sk + 8 * d, rb);
    to_words(out + d + n, sk + 8 * d + rb, rb);
    to_words(out + d + 2 * n, sk + 8 * d + 2 * rb, rb);
    to_words(out + d + 3 * n, sk + 8 * d + 3 * rb, 32);
  } else if (op == 2) {
    to_bytes(pk, in, rb);
    to_bytes(coins, in + n, 64);
    bike_encaps_derand(P->level, ct, P->ct_bytes, ss, pk, P->pk_bytes, coins);
    to_words(out, ct, rb);
    to_words(out + n, ct + rb, 32);
    to_words(out + n + 4, ss, 32);
  } else {
    to_bytes(ct, in, rb);
    to_bytes(ct + rb, in + n, 32);
    to_bytes(sk, in + n + 4, 8 * d);
    to_bytes(sk + P->sk_bytes - 32, in + n + 4 + d, 32);
    bike_decaps(P->level, ss, ct, P->ct_bytes, sk, P->sk_bytes);
    to_words(out, ss, 32);
  }
  bike_set_accel(table);
}

typedef struct {
  uint32_t core;
  const bike_acc_target *targets;
  size_t n_targets;
} placed_core;

/* A fake of `core` (max stream lengths), the targets bound to it alone:
 * the KEM byte-identical to software, each target called. */
static void test_core(int level, uint32_t core, const bike_acc_target *targets, size_t n) {
  P = bike_params_get(level);
  test_rand_bytes(&coins[0][0], sizeof(coins));
  bike_set_accel(NULL);
  run_kem(&sw);
  bike_acc_fake_config cfg;
  memset(&cfg, 0, sizeof(cfg));
  cfg.id = ACC_PUT(ACC_MAGIC, ID, MAGIC) | ACC_PUT(core, ID, CORE);
  cfg.param = P->r;
  cfg.in_words = cfg.out_words = 4 * P->r_qwords + 2 * P->d + 16;
  cfg.cycles = 100;
  (void)sampler_words, (void)sampler_op, (void)decoder_op, (void)kem_words, (void)kem_op;
#ifdef ACC_SHELL__ACC_SHELL_CORE_E__KECCAK_SAMPLER
  if (core == ACC_SHELL__ACC_SHELL_CORE_E__KECCAK_SAMPLER) {
    cfg.op_words = sampler_words;
    cfg.compute_op = sampler_op;
  }
#endif
#ifdef ACC_SHELL__ACC_SHELL_CORE_E__BIKE_DECODER
  if (core == ACC_SHELL__ACC_SHELL_CORE_E__BIKE_DECODER) {
    cfg.in_words = 2 * (uint32_t)nd() + P->r_qwords;
    cfg.out_words = 2 * P->r_qwords + 1;
    cfg.compute = decoder_op;
  }
#endif
#ifdef ACC_SHELL__ACC_SHELL_CORE_E__BIKE_KEM
  if (core == ACC_SHELL__ACC_SHELL_CORE_E__BIKE_KEM) {
    cfg.op_words = kem_words;
    cfg.compute_op = kem_op;
  }
#endif
  bike_acc_options opt = {.core = core, .wait = BIKE_ACC_IRQ, .platform_config = &cfg};
  bike_acc_dev *dev;
  CHECK(bike_acc_open(&dev, BIKE_ACC_FAKE, 0, &opt) == BIKE_ACC_OK, "open core %u", core);
  bike_acc_offload *o;
  bike_acc_offload_new(&o);
  for (size_t i = 0; i < n; i++) {
    const int rc = bike_acc_offload_bind(o, targets[i], dev);
    CHECK(rc == BIKE_ACC_OK, "bind %s: %s", bike_acc_target_name(targets[i]),
          bike_acc_strerror(rc));
  }
  bike_set_accel(bike_acc_offload_table(o));
  run_kem(&got);
  CHECK(memcmp(&got, &sw, sizeof(got)) == 0, "L%d core %u: differs from software", level, core);
  for (size_t i = 0; i < n; i++) {
    bike_acc_offload_stats st;
    bike_acc_offload_get_stats(o, targets[i], &st);
    CHECK(st.calls == 1 && st.failures == 0, "L%d %s: %llu calls", level,
          bike_acc_target_name(targets[i]), (unsigned long long)st.calls);
  }
  /* implicit rejection: a tampered ciphertext gives software's K(sigma, ct) */
  static uint8_t bad_ct[BIKE_MAX_CIPHERTEXT_BYTES];
  uint8_t ss_acc[32], ss_sw[32];
  memcpy(bad_ct, sw.ct, P->ct_bytes);
  bad_ct[5] ^= 0x21;
  CHECK(bike_decaps(level, ss_acc, bad_ct, P->ct_bytes, sw.sk, P->sk_bytes) == BIKE_OK,
        "L%d core %u: tampered decaps", level, core);
  bike_set_accel(NULL);
  bike_decaps(level, ss_sw, bad_ct, P->ct_bytes, sw.sk, P->sk_bytes);
  bike_set_accel(bike_acc_offload_table(o));
  CHECK(memcmp(ss_acc, ss_sw, 32) == 0, "L%d core %u: implicit rejection differs", level, core);
  /* the core fails: every KEM call that used it returns BIKE_ERR_ACCEL, wiped */
  bike_acc_close(dev);
  cfg.core_error = 1;
  CHECK(bike_acc_open(&dev, BIKE_ACC_FAKE, 0, &opt) == BIKE_ACC_OK, "reopen core %u", core);
  for (size_t i = 0; i < n; i++) bike_acc_offload_bind(o, targets[i], dev);
  run_kem(&got);
  CHECK(got.rc[0] == BIKE_ERR_ACCEL || got.rc[1] == BIKE_ERR_ACCEL || got.rc[2] == BIKE_ERR_ACCEL,
        "L%d core %u fails: no BIKE_ERR_ACCEL", level, core);
  CHECK((got.rc[0] == 0 || (zero(got.pk, P->pk_bytes) && zero(got.sk, P->sk_bytes))) &&
            (got.rc[1] == 0 || (zero(got.ct, P->ct_bytes) && zero(got.ss_enc, 32))) &&
            (got.rc[2] == 0 || zero(got.ss_dec, 32)),
        "L%d core %u fails: outputs not wiped", level, core);
  bike_set_accel(NULL);
  bike_acc_offload_free(o);
  bike_acc_close(dev);
}

static void test_more_cores(void) {
  unsigned ran = 0;
  (void)test_core;
  for (int level = 1; level <= 3; level += 2) {
#ifdef ACC_SHELL__ACC_SHELL_CORE_E__KECCAK_SAMPLER
    const bike_acc_target hashing[] = {BIKE_ACC_T_KEYGEN_PRNG, BIKE_ACC_T_ENCAPS_H,
                                       BIKE_ACC_T_ENCAPS_L,    BIKE_ACC_T_ENCAPS_K,
                                       BIKE_ACC_T_DECAPS_L,    BIKE_ACC_T_DECAPS_H,
                                       BIKE_ACC_T_DECAPS_K};
    test_core(level, ACC_SHELL__ACC_SHELL_CORE_E__KECCAK_SAMPLER, hashing, 7);
    ran++;
#endif
#ifdef ACC_SHELL__ACC_SHELL_CORE_E__BIKE_DECODER
    const bike_acc_target decoding[] = {BIKE_ACC_T_DECAPS_DECODE};
    test_core(level, ACC_SHELL__ACC_SHELL_CORE_E__BIKE_DECODER, decoding, 1);
    ran++;
#endif
#ifdef ACC_SHELL__ACC_SHELL_CORE_E__BIKE_KEM
    const bike_acc_target kem[] = {BIKE_ACC_T_KEYGEN, BIKE_ACC_T_ENCAPS, BIKE_ACC_T_DECAPS};
    test_core(level, ACC_SHELL__ACC_SHELL_CORE_E__BIKE_KEM, kem, 3);
    ran++;
#endif
  }
  printf("test_offload: %u runs of the decoder, Keccak/sampler and KEM cores the register "
         "map has (of 6)\n", ran);
}

int main(void) {
  test_parse();
  test_level(1);
  test_level(3);
  test_more_cores();
  return test_summary();
}
