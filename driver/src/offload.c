/* libbike's accelerator table on bike_acc devices (bike_acc_offload.h): the
 * placement's parser, and one adapter per core that packs a target's
 * operands into the device's words (the layouts of hw/ip/acc_shell/doc). */
#define _POSIX_C_SOURCE 200809L
#include "bike_acc_offload.h"

#include <stdlib.h>
#include <string.h>

#include "bike/ops.h"
#include "platform.h"

static const char *const target_names[BIKE_ACC_N_TARGETS] = {
    [BIKE_ACC_T_KEYGEN] = "keygen",
    [BIKE_ACC_T_ENCAPS] = "encaps",
    [BIKE_ACC_T_DECAPS] = "decaps",
    [BIKE_ACC_T_KEYGEN_PRNG] = "keygen.prng",
    [BIKE_ACC_T_KEYGEN_INV] = "keygen.inversion",
    [BIKE_ACC_T_KEYGEN_MUL] = "keygen.multiplication",
    [BIKE_ACC_T_ENCAPS_H] = "encaps.h_function",
    [BIKE_ACC_T_ENCAPS_MUL] = "encaps.multiplication",
    [BIKE_ACC_T_ENCAPS_L] = "encaps.l_function",
    [BIKE_ACC_T_ENCAPS_K] = "encaps.k_function",
    [BIKE_ACC_T_DECAPS_MUL] = "decaps.multiplication",
    [BIKE_ACC_T_DECAPS_DECODE] = "decaps.decoding",
    [BIKE_ACC_T_DECAPS_L] = "decaps.l_function",
    [BIKE_ACC_T_DECAPS_H] = "decaps.h_function",
    [BIKE_ACC_T_DECAPS_K] = "decaps.k_function",
};

const char *bike_acc_target_name(bike_acc_target t) {
  return (unsigned)t < BIKE_ACC_N_TARGETS ? target_names[t] : "?";
}

int bike_acc_target_from_name(const char *name) {
  for (int t = 0; name != NULL && t < BIKE_ACC_N_TARGETS; t++) {
    if (strcmp(name, target_names[t]) == 0) {
      return t;
    }
  }
  return -1;
}

/* Copies word `w` of a line into buf (size n); returns the rest or NULL. */
static const char *word(const char *s, const char *end, char *buf, size_t n, int *too_long) {
  while (s < end && (*s == ' ' || *s == '\t' || *s == '\r')) {
    s++;
  }
  size_t k = 0;
  while (s < end && *s != ' ' && *s != '\t' && *s != '\r') {
    if (k + 1 < n) {
      buf[k++] = *s;
    } else {
      *too_long = 1;
    }
    s++;
  }
  buf[k] = '\0';
  return s;
}

int bike_acc_placement_parse(const char *text, bike_acc_placement *pl, unsigned *bad_line) {
  if (text == NULL || pl == NULL) {
    return BIKE_ACC_ERR_ARG;
  }
  memset(pl, 0, sizeof(*pl));
  unsigned line = 0;
  for (const char *s = text; *s != '\0';) {
    const char *end = strchr(s, '\n');
    if (end == NULL) {
      end = s + strlen(s);
    }
    line++;
    const char *hash = memchr(s, '#', (size_t)(end - s));
    const char *stop = hash != NULL ? hash : end;
    char target[48], device[48], preset[16], extra[8];
    int too_long = 0;
    const char *r = word(s, stop, target, sizeof(target), &too_long);
    r = word(r, stop, device, sizeof(device), &too_long);
    r = word(r, stop, preset, sizeof(preset), &too_long);
    word(r, stop, extra, sizeof(extra), &too_long);
    s = *end != '\0' ? end + 1 : end;
    if (target[0] == '\0') {
      continue; /* blank or comment */
    }
    const int t = bike_acc_target_from_name(target);
    int dup = 0;
    for (size_t i = 0; i < pl->n; i++) {
      dup |= (int)pl->entry[i].target == t;
    }
    if (t < 0 || dup || device[0] == '\0' || extra[0] != '\0' || too_long ||
        pl->n == BIKE_ACC_PLACEMENT_MAX) {
      if (bad_line != NULL) {
        *bad_line = line;
      }
      return BIKE_ACC_ERR_ARG;
    }
    bike_acc_placement_entry *e = &pl->entry[pl->n++];
    e->target = (bike_acc_target)t;
    memcpy(e->device, device, sizeof(e->device));
    memcpy(e->preset, preset, sizeof(e->preset));
  }
  return BIKE_ACC_OK;
}

/* ---- adapters: which core runs which target, with which operation ---- */

typedef struct {
  uint32_t core;    /* acc_shell_core_e */
  uint64_t targets; /* bit t: serves target t */
  uint32_t op;      /* its CTRL.OP */
} adapter;

/* The layouts: N = ceil(r / 64) words of a polynomial, ND = ceil(d / 2)
 * words of d positions (two 32-bit positions a word, low half first), byte
 * strings 8 bytes a word little-endian, each object starting on a word. A
 * core whose identifier the register map (acc_shell_enums.h) does not have
 * yet is compiled in when it has. */
#define T(x) (1ull << BIKE_ACC_T_##x)
static const adapter adapters[] = {
    /* gf2x_mul_acc, 1 MUL: a (N), b (N) -> c = a b (N) */
    {ACC_SHELL__ACC_SHELL_CORE_E__GF2X_MUL, T(KEYGEN_MUL) | T(ENCAPS_MUL) | T(DECAPS_MUL), 1},
    /* gf2x_inv_acc, 1 INV: a (N) -> a^-1 (N) */
    {ACC_SHELL__ACC_SHELL_CORE_E__GF2X_INV, T(KEYGEN_INV), 1},
#ifdef ACC_SHELL__ACC_SHELL_CORE_E__BIKE_DECODER
    /* bike_decoder_acc, 1 DECODE: h0 (ND), h1 (ND), s (N) -> e0 (N), e1 (N), ok (1) */
    {ACC_SHELL__ACC_SHELL_CORE_E__BIKE_DECODER, T(DECAPS_DECODE), 1},
#endif
#ifdef ACC_SHELL__ACC_SHELL_CORE_E__KECCAK_SAMPLER
    /* keccak_sampler_acc: 1 KEYGEN seed (4) -> h0 (ND), h1 (ND); 2 H m (4) ->
     * e0 (N), e1 (N); 3 L e0 (N), e1 (N) -> digest (4); 4 K m || ct (KW) ->
     * digest (4) */
    {ACC_SHELL__ACC_SHELL_CORE_E__KECCAK_SAMPLER, T(KEYGEN_PRNG), 1},
    {ACC_SHELL__ACC_SHELL_CORE_E__KECCAK_SAMPLER, T(ENCAPS_H) | T(DECAPS_H), 2},
    {ACC_SHELL__ACC_SHELL_CORE_E__KECCAK_SAMPLER, T(ENCAPS_L) | T(DECAPS_L), 3},
    {ACC_SHELL__ACC_SHELL_CORE_E__KECCAK_SAMPLER, T(ENCAPS_K) | T(DECAPS_K), 4},
#endif
#ifdef ACC_SHELL__ACC_SHELL_CORE_E__BIKE_KEM
    /* bike_kem_acc (one shape: WORDS 0 for a primitive it lacks):
     * 1 KEYGEN coins (8) -> sk's objects SK_POS (D = d), SK_H0 (N), SK_H1 (N),
     *   PK (N), SIGMA (4);
     * 2 ENCAPS pk (N), coins (8) -> C0 (N), C1 (4), SS (4);
     * 3 DECAPS C0 (N), C1 (4), SK_POS (D), SIGMA (4) -> SS (4) */
    {ACC_SHELL__ACC_SHELL_CORE_E__BIKE_KEM, T(KEYGEN), 1},
    {ACC_SHELL__ACC_SHELL_CORE_E__BIKE_KEM, T(ENCAPS), 2},
    {ACC_SHELL__ACC_SHELL_CORE_E__BIKE_KEM, T(DECAPS), 3},
#endif
};
#undef T

static const adapter *adapter_for(uint32_t core, bike_acc_target t) {
  for (size_t i = 0; i < sizeof(adapters) / sizeof(adapters[0]); i++) {
    if (adapters[i].core == core && (adapters[i].targets >> t & 1u)) {
      return &adapters[i];
    }
  }
  return NULL;
}

int bike_acc_core_serves(uint32_t core, bike_acc_target t) {
  return (unsigned)t < BIKE_ACC_N_TARGETS && adapter_for(core, t) != NULL;
}

struct bike_acc_offload {
  bike_accel table;
  bike_acc_dev *dev[BIKE_ACC_N_TARGETS];
  uint32_t op[BIKE_ACC_N_TARGETS];
  bike_acc_offload_stats stats[BIKE_ACC_N_TARGETS];
  int last_error;
  bike_acc_offload_trace_fn trace;
  void *trace_ctx;
};

static void wipe(void *p, size_t n) {
  volatile uint8_t *v = (volatile uint8_t *)p;
  while (n--) {
    *v++ = 0;
  }
}

/* One device operation for target t; 0, or -1 with `out` zeroed. The
 * device's PARAM must be the level's r (its words are built for one r). */
static int device_op(bike_acc_offload *o, bike_acc_target t, const bike_params *p,
                     const uint64_t *in, size_t in_words, uint64_t *out, size_t out_words) {
  bike_acc_dev *dev = o->dev[t];
  bike_acc_info info;
  int rc = bike_acc_get_info(dev, &info);
  uint32_t cycles = 0;
  if (rc == BIKE_ACC_OK && info.param != p->r) {
    rc = BIKE_ACC_ERR_PARAM;
  }
  if (rc == BIKE_ACC_OK) {
    if (o->trace != NULL) {
      o->trace(o->trace_ctx, t, dev, 0, 0, 0);
    }
    const uint64_t t0 = bike_acc_now_ns();
    rc = bike_acc_run(dev, o->op[t], in, in_words, out, out_words, &cycles);
    o->stats[t].host_ns += bike_acc_now_ns() - t0;
    if (o->trace != NULL) {
      o->trace(o->trace_ctx, t, dev, 1, rc, cycles);
    }
  }
  o->stats[t].calls++;
  o->stats[t].accelerator_cycles += cycles;
  if (rc != BIKE_ACC_OK) {
    o->stats[t].failures++;
    o->last_error = rc;
    wipe(out, out_words * sizeof(*out));
    return -1;
  }
  return 0;
}

/* A polynomial result must have no bit at or above r. */
static int poly_ok(bike_acc_offload *o, bike_acc_target t, const bike_params *p, uint64_t *c) {
  const uint32_t top = p->r % 64;
  if (top != 0 && (c[p->r_qwords - 1] >> top) != 0) {
    o->stats[t].failures++;
    o->last_error = BIKE_ACC_ERR_RESULT;
    wipe(c, p->r_qwords * sizeof(*c));
    return -1;
  }
  return 0;
}

/* ---- packing ---- */

/* n bytes into words, little-endian, the last word padded with zeros */
static void bytes_to_words(uint64_t *w, const uint8_t *b, size_t n) {
  for (size_t i = 0; i < (n + 7) / 8; i++) {
    uint64_t v = 0;
    for (size_t k = 0; k < 8 && 8 * i + k < n; k++) {
      v |= (uint64_t)b[8 * i + k] << (8 * k);
    }
    w[i] = v;
  }
}

static void words_to_bytes(uint8_t *b, const uint64_t *w, size_t n) {
  for (size_t i = 0; i < n; i++) {
    b[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
  }
}

static size_t nd_words(const bike_params *p) { return (p->d + 1) / 2; }

static void positions_to_words(uint64_t *w, const uint32_t *idx, uint32_t d) {
  for (uint32_t j = 0; j < (d + 1) / 2; j++) {
    const uint64_t hi = 2 * j + 1 < d ? idx[2 * j + 1] : 0;
    w[j] = (uint64_t)idx[2 * j] | hi << 32;
  }
}

/* The positions of words; 0 if every one is below r (else a wrong device
 * result: positions index memory). */
static int words_to_positions(uint32_t *idx, const uint64_t *w, uint32_t d, uint32_t r) {
  int bad = 0;
  for (uint32_t i = 0; i < d; i++) {
    idx[i] = (uint32_t)(w[i / 2] >> (32 * (i % 2)));
    bad |= idx[i] >= r;
  }
  return bad;
}

/* A device result that is not a valid value: the target fails. */
static int bad_result(bike_acc_offload *o, bike_acc_target t, void *out, size_t len) {
  o->stats[t].failures++;
  o->last_error = BIKE_ACC_ERR_RESULT;
  wipe(out, len);
  return -1;
}

/* Words of the bits at and above r of polynomial c: 0 if none is set. */
static uint64_t above_r(const bike_params *p, const uint64_t *c) {
  const uint32_t top = p->r % 64;
  return top != 0 ? c[p->r_qwords - 1] >> top : 0;
}

/* Scratch of the adapters: the largest stream (decoder in, KEM keygen out) */
#define WORDS_MAX (4 * BIKE_MAX_QWORDS + 2 * BIKE_MAX_D + 16)

static const bike_acc_target mul_target[3] = {
    [BIKE_ACCEL_KEYGEN] = BIKE_ACC_T_KEYGEN_MUL,
    [BIKE_ACCEL_ENCAPS] = BIKE_ACC_T_ENCAPS_MUL,
    [BIKE_ACCEL_DECAPS] = BIKE_ACC_T_DECAPS_MUL,
};

static int hook_mul(void *ctx, bike_accel_site site, const bike_params *p, uint64_t *c,
                    const uint64_t *a, const uint64_t *b) {
  bike_acc_offload *o = ctx;
  const bike_acc_target t = mul_target[site];
  if (o->dev[t] == NULL) { /* this site's multiplication is software's */
    bike_gf2x_mul(p, c, a, b);
    return 0;
  }
  uint64_t in[2 * BIKE_MAX_QWORDS];
  const size_t n = p->r_qwords;
  memcpy(in, a, n * sizeof(*in));
  memcpy(in + n, b, n * sizeof(*in));
  int rc = device_op(o, t, p, in, 2 * n, c, n);
  wipe(in, sizeof(in));
  return rc != 0 ? rc : poly_ok(o, t, p, c);
}

static int hook_inv(void *ctx, const bike_params *p, uint64_t *c, const uint64_t *a) {
  bike_acc_offload *o = ctx;
  const bike_acc_target t = BIKE_ACC_T_KEYGEN_INV;
  const int rc = device_op(o, t, p, a, p->r_qwords, c, p->r_qwords);
  return rc != 0 ? rc : poly_ok(o, t, p, c);
}

static int hook_decode(void *ctx, const bike_params *p, uint64_t *e0, uint64_t *e1, uint64_t *ok,
                       const uint64_t *s, const uint32_t *h0_idx, const uint32_t *h1_idx) {
  bike_acc_offload *o = ctx;
  const bike_acc_target t = BIKE_ACC_T_DECAPS_DECODE;
  const size_t n = p->r_qwords, nd = nd_words(p);
  uint64_t in[2 * BIKE_MAX_D + BIKE_MAX_QWORDS], out[2 * BIKE_MAX_QWORDS + 1];
  positions_to_words(in, h0_idx, p->d);
  positions_to_words(in + nd, h1_idx, p->d);
  memcpy(in + 2 * nd, s, n * sizeof(*s));
  int rc = device_op(o, t, p, in, 2 * nd + n, out, 2 * n + 1);
  wipe(in, sizeof(in));
  if (rc == 0) {
    memcpy(e0, out, n * sizeof(*e0));
    memcpy(e1, out + n, n * sizeof(*e1));
    *ok = out[2 * n];
    /* ok must be all ones or zero: the same outcome for either, so the
     * check tells nothing of which */
    const int ok_valid = (*ok + (*ok & 1)) == 0;
    if ((above_r(p, e0) | above_r(p, e1)) != 0 || !ok_valid) {
      rc = bad_result(o, t, e0, n * sizeof(*e0));
      wipe(e1, n * sizeof(*e1));
    }
  }
  wipe(out, sizeof(out));
  return rc;
}

static int hook_sample_keygen(void *ctx, const bike_params *p, uint32_t *h0_idx, uint32_t *h1_idx,
                              const uint8_t seed[BIKE_M_BYTES]) {
  bike_acc_offload *o = ctx;
  const bike_acc_target t = BIKE_ACC_T_KEYGEN_PRNG;
  const size_t nd = nd_words(p);
  uint64_t in[4], out[2 * BIKE_MAX_D];
  bytes_to_words(in, seed, BIKE_M_BYTES);
  int rc = device_op(o, t, p, in, 4, out, 2 * nd);
  if (rc == 0 && (words_to_positions(h0_idx, out, p->d, p->r) |
                  words_to_positions(h1_idx, out + nd, p->d, p->r))) {
    rc = bad_result(o, t, h0_idx, p->d * sizeof(*h0_idx));
    wipe(h1_idx, p->d * sizeof(*h1_idx));
  }
  wipe(in, sizeof(in));
  wipe(out, sizeof(out));
  return rc;
}

static bike_acc_target site_target(bike_accel_site site, bike_acc_target encaps,
                                   bike_acc_target decaps) {
  return site == BIKE_ACCEL_ENCAPS ? encaps : decaps;
}

static int hook_h(void *ctx, bike_accel_site site, const bike_params *p, uint64_t *e0,
                  uint64_t *e1, const uint8_t m[BIKE_M_BYTES]) {
  bike_acc_offload *o = ctx;
  const bike_acc_target t = site_target(site, BIKE_ACC_T_ENCAPS_H, BIKE_ACC_T_DECAPS_H);
  if (o->dev[t] == NULL) {
    bike_function_h(p, e0, e1, NULL, m);
    return 0;
  }
  const size_t n = p->r_qwords;
  uint64_t in[4], out[2 * BIKE_MAX_QWORDS];
  bytes_to_words(in, m, BIKE_M_BYTES);
  int rc = device_op(o, t, p, in, 4, out, 2 * n);
  if (rc == 0) {
    memcpy(e0, out, n * sizeof(*e0));
    memcpy(e1, out + n, n * sizeof(*e1));
    if ((above_r(p, e0) | above_r(p, e1)) != 0) {
      rc = bad_result(o, t, e0, n * sizeof(*e0));
      wipe(e1, n * sizeof(*e1));
    }
  }
  wipe(in, sizeof(in));
  wipe(out, sizeof(out));
  return rc;
}

static int hook_l(void *ctx, bike_accel_site site, const bike_params *p,
                  uint8_t out[BIKE_HASH_OUT_BYTES], const uint64_t *e0, const uint64_t *e1) {
  bike_acc_offload *o = ctx;
  const bike_acc_target t = site_target(site, BIKE_ACC_T_ENCAPS_L, BIKE_ACC_T_DECAPS_L);
  if (o->dev[t] == NULL) {
    bike_function_l(p, out, e0, e1);
    return 0;
  }
  const size_t n = p->r_qwords;
  uint64_t in[2 * BIKE_MAX_QWORDS], digest[4];
  memcpy(in, e0, n * sizeof(*in));
  memcpy(in + n, e1, n * sizeof(*in));
  const int rc = device_op(o, t, p, in, 2 * n, digest, 4);
  words_to_bytes(out, digest, BIKE_HASH_OUT_BYTES);
  wipe(in, sizeof(in));
  wipe(digest, sizeof(digest));
  return rc;
}

static int hook_k(void *ctx, bike_accel_site site, const bike_params *p,
                  uint8_t out[BIKE_HASH_OUT_BYTES], const uint8_t m[BIKE_M_BYTES],
                  const uint8_t *ct) {
  bike_acc_offload *o = ctx;
  const bike_acc_target t = site_target(site, BIKE_ACC_T_ENCAPS_K, BIKE_ACC_T_DECAPS_K);
  if (o->dev[t] == NULL) {
    bike_function_k(p, out, m, ct);
    return 0;
  }
  uint8_t msg[BIKE_M_BYTES + BIKE_MAX_CIPHERTEXT_BYTES];
  uint64_t in[(BIKE_M_BYTES + BIKE_MAX_CIPHERTEXT_BYTES + 7) / 8], digest[4];
  const size_t len = BIKE_M_BYTES + (size_t)p->ct_bytes;
  memcpy(msg, m, BIKE_M_BYTES);
  memcpy(msg + BIKE_M_BYTES, ct, p->ct_bytes);
  bytes_to_words(in, msg, len);
  const int rc = device_op(o, t, p, in, (len + 7) / 8, digest, 4);
  words_to_bytes(out, digest, BIKE_HASH_OUT_BYTES);
  wipe(msg, sizeof(msg));
  wipe(in, sizeof(in));
  wipe(digest, sizeof(digest));
  return rc;
}

/* The KEM device's objects: polynomials and 32-byte strings as words. */
static int hook_keypair(void *ctx, const bike_params *p, uint8_t *pk, uint8_t *sk,
                        const uint8_t coins[BIKE_COINS_BYTES]) {
  bike_acc_offload *o = ctx;
  const bike_acc_target t = BIKE_ACC_T_KEYGEN;
  const size_t n = p->r_qwords, dw = p->d, rb = p->r_bytes;
  uint64_t in[8], out[BIKE_MAX_D + 3 * BIKE_MAX_QWORDS + 4];
  bytes_to_words(in, coins, BIKE_COINS_BYTES);
  int rc = device_op(o, t, p, in, 8, out, dw + 3 * n + 4);
  if (rc == 0) {
    uint32_t idx[2 * BIKE_MAX_D];
    const int bad = words_to_positions(idx, out, 2 * p->d, p->r) != 0 ||
                    (above_r(p, out + dw) | above_r(p, out + dw + n) |
                     above_r(p, out + dw + 2 * n)) != 0;
    words_to_bytes(sk, out, 8 * (size_t)p->d);
    words_to_bytes(sk + 8 * (size_t)p->d, out + dw, rb);
    words_to_bytes(sk + 8 * (size_t)p->d + rb, out + dw + n, rb);
    words_to_bytes(sk + 8 * (size_t)p->d + 2 * rb, out + dw + 2 * n, rb);
    words_to_bytes(sk + 8 * (size_t)p->d + 3 * rb, out + dw + 3 * n, BIKE_M_BYTES);
    words_to_bytes(pk, out + dw + 2 * n, rb);
    wipe(idx, sizeof(idx));
    if (bad) {
      rc = bad_result(o, t, sk, p->sk_bytes);
    }
  }
  wipe(in, sizeof(in));
  wipe(out, sizeof(out));
  return rc;
}

static int hook_encaps(void *ctx, const bike_params *p, uint8_t *ct,
                       uint8_t ss[BIKE_SHARED_SECRET_BYTES], const uint8_t *pk,
                       const uint8_t coins[BIKE_COINS_BYTES]) {
  bike_acc_offload *o = ctx;
  const bike_acc_target t = BIKE_ACC_T_ENCAPS;
  const size_t n = p->r_qwords;
  uint64_t in[BIKE_MAX_QWORDS + 8], out[BIKE_MAX_QWORDS + 8];
  bytes_to_words(in, pk, p->r_bytes);
  bytes_to_words(in + n, coins, BIKE_COINS_BYTES);
  int rc = device_op(o, t, p, in, n + 8, out, n + 8);
  if (rc == 0) {
    words_to_bytes(ct, out, p->r_bytes);
    words_to_bytes(ct + p->r_bytes, out + n, BIKE_M_BYTES);
    words_to_bytes(ss, out + n + 4, BIKE_SHARED_SECRET_BYTES);
    if (above_r(p, out) != 0) {
      rc = bad_result(o, t, ct, p->ct_bytes);
    }
  }
  wipe(in, sizeof(in));
  wipe(out, sizeof(out));
  return rc;
}

static int hook_decaps(void *ctx, const bike_params *p, uint8_t ss[BIKE_SHARED_SECRET_BYTES],
                       const uint8_t *ct, const uint8_t *sk) {
  bike_acc_offload *o = ctx;
  const bike_acc_target t = BIKE_ACC_T_DECAPS;
  const size_t n = p->r_qwords, dw = p->d;
  uint64_t in[BIKE_MAX_QWORDS + BIKE_MAX_D + 8], out[4];
  bytes_to_words(in, ct, p->r_bytes);
  bytes_to_words(in + n, ct + p->r_bytes, BIKE_M_BYTES);
  bytes_to_words(in + n + 4, sk, 8 * (size_t)p->d);
  bytes_to_words(in + n + 4 + dw, sk + p->sk_bytes - BIKE_M_BYTES, BIKE_M_BYTES);
  const int rc = device_op(o, t, p, in, n + 8 + dw, out, 4);
  words_to_bytes(ss, out, BIKE_SHARED_SECRET_BYTES);
  wipe(in, sizeof(in));
  wipe(out, sizeof(out));
  return rc;
}

int bike_acc_offload_new(bike_acc_offload **o) {
  if (o == NULL) {
    return BIKE_ACC_ERR_ARG;
  }
  *o = calloc(1, sizeof(**o));
  if (*o == NULL) {
    return BIKE_ACC_ERR_NOMEM;
  }
  (*o)->table.ctx = *o;
  return BIKE_ACC_OK;
}

void bike_acc_offload_free(bike_acc_offload *o) { free(o); }

int bike_acc_offload_bind(bike_acc_offload *o, bike_acc_target t, bike_acc_dev *dev) {
  bike_acc_info info;
  if (o == NULL || dev == NULL || (unsigned)t >= BIKE_ACC_N_TARGETS ||
      bike_acc_get_info(dev, &info) != BIKE_ACC_OK) {
    return BIKE_ACC_ERR_ARG;
  }
  const adapter *a = adapter_for(info.core, t);
  if (a == NULL) {
    return BIKE_ACC_ERR_CORE;
  }
  size_t in_words, out_words; /* a KEM shape lacks some primitives */
  const int rc = bike_acc_words(dev, a->op, &in_words, &out_words);
  if (rc != BIKE_ACC_OK) {
    return rc;
  }
  bike_accel *tb = &o->table;
  switch (t) {
    case BIKE_ACC_T_KEYGEN: tb->keypair = hook_keypair; break;
    case BIKE_ACC_T_ENCAPS: tb->encaps = hook_encaps; break;
    case BIKE_ACC_T_DECAPS: tb->decaps = hook_decaps; break;
    case BIKE_ACC_T_KEYGEN_PRNG: tb->sample_keygen = hook_sample_keygen; break;
    case BIKE_ACC_T_KEYGEN_INV: tb->gf2x_inv = hook_inv; break;
    case BIKE_ACC_T_KEYGEN_MUL:
    case BIKE_ACC_T_ENCAPS_MUL:
    case BIKE_ACC_T_DECAPS_MUL: tb->gf2x_mul = hook_mul; break;
    case BIKE_ACC_T_ENCAPS_H:
    case BIKE_ACC_T_DECAPS_H: tb->function_h = hook_h; break;
    case BIKE_ACC_T_ENCAPS_L:
    case BIKE_ACC_T_DECAPS_L: tb->function_l = hook_l; break;
    case BIKE_ACC_T_ENCAPS_K:
    case BIKE_ACC_T_DECAPS_K: tb->function_k = hook_k; break;
    case BIKE_ACC_T_DECAPS_DECODE: tb->decode = hook_decode; break;
    default: return BIKE_ACC_ERR_ARG;
  }
  o->dev[t] = dev;
  o->op[t] = a->op;
  return BIKE_ACC_OK;
}

const bike_accel *bike_acc_offload_table(bike_acc_offload *o) {
  return o != NULL ? &o->table : NULL;
}

int bike_acc_offload_last_error(const bike_acc_offload *o) { return o->last_error; }

void bike_acc_offload_get_stats(const bike_acc_offload *o, bike_acc_target t,
                                bike_acc_offload_stats *s) {
  memset(s, 0, sizeof(*s));
  if ((unsigned)t < BIKE_ACC_N_TARGETS) {
    *s = o->stats[t];
  }
}

void bike_acc_offload_set_trace(bike_acc_offload *o, bike_acc_offload_trace_fn fn, void *ctx) {
  o->trace = fn;
  o->trace_ctx = ctx;
}
