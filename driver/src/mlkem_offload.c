/* libmlkem's accelerator table on an ntt_acc device (bike_acc_mlkem.h). */
#include <stdlib.h>
#include <string.h>

#include "bike_acc_mlkem.h"

#define N MLKEM_ACCEL_N
#define Q ((int32_t)BIKE_ACC_MLKEM_Q)
#define WORDS (N / 4) /* four 16-bit coefficients a stream word */

struct bike_acc_mlkem {
  bike_acc_dev *dev;
  mlkem_accel table;
  int last_error;
  bike_acc_mlkem_stats stats;
};

/* x mod q in [0, q) for |x| < 8q, without a branch on x */
static uint16_t canon(int16_t x) { return (uint16_t)(((int32_t)x + 8 * Q) % Q); }

/* x in [0, q) to [-(q-1)/2, (q-1)/2], without a branch on x */
static int16_t centre(uint16_t x) {
  int32_t v = (int32_t)x;
  int32_t above = ((Q - 1) / 2 - v) >> 31; /* -1 if v > (q-1)/2 */
  return (int16_t)(v - (Q & above));
}

static void pack(uint64_t *w, const int16_t *a) {
  for (unsigned i = 0; i < WORDS; i++) {
    w[i] = 0;
    for (unsigned j = 0; j < 4; j++) {
      w[i] |= (uint64_t)canon(a[4 * i + j]) << (16 * j);
    }
  }
}

/* the result words to coefficients in [0, q); BIKE_ACC_ERR_RESULT if one is not */
static int unpack(uint16_t *a, const uint64_t *w) {
  uint32_t bad = 0;
  for (unsigned i = 0; i < WORDS; i++) {
    for (unsigned j = 0; j < 4; j++) {
      uint16_t x = (uint16_t)(w[i] >> (16 * j));
      bad |= (uint32_t)((int32_t)(Q - 1 - (int32_t)x) >> 31);
      a[4 * i + j] = x;
    }
  }
  return bad ? BIKE_ACC_ERR_RESULT : BIKE_ACC_OK;
}

/* one device operation: in_polys polynomials in, one out (in [0, q)) */
static int run(bike_acc_mlkem *m, uint32_t op, uint16_t out[N], const int16_t *a,
               const int16_t *b) {
  uint64_t in[2 * WORDS], res[WORDS];
  size_t in_words = WORDS;
  uint32_t cycles = 0;
  pack(in, a);
  if (b != NULL) {
    pack(in + WORDS, b);
    in_words = 2 * WORDS;
  }
  int rc = bike_acc_run(m->dev, op, in, in_words, res, WORDS, &cycles);
  if (rc == BIKE_ACC_OK) {
    rc = unpack(out, res);
    m->stats.runs[op - 1]++;
    m->stats.cycles[op - 1] += cycles;
  }
  memset(in, 0, sizeof(in));
  memset(res, 0, sizeof(res));
  if (rc != BIKE_ACC_OK) {
    m->last_error = rc;
  }
  return rc;
}

static int hook_ntt(void *ctx, int16_t a[N]) {
  uint16_t r[N];
  int rc = run(ctx, BIKE_ACC_MLKEM_OP_NTT, r, a, NULL);
  for (unsigned i = 0; i < N; i++) {
    a[i] = rc == BIKE_ACC_OK ? centre(r[i]) : 0;
  }
  return rc;
}

static int hook_invntt(void *ctx, int16_t a[N]) {
  uint16_t r[N];
  int rc = run(ctx, BIKE_ACC_MLKEM_OP_INTT, r, a, NULL);
  for (unsigned i = 0; i < N; i++) {
    a[i] = rc == BIKE_ACC_OK ? (int16_t)r[i] : 0;
  }
  return rc;
}

/* k BASEMULs, summed mod q here */
static int hook_basemul(void *ctx, int16_t r[N], const int16_t (*a)[N], const int16_t (*b)[N],
                        unsigned k) {
  uint16_t t[N];
  int32_t acc[N] = {0};
  int rc = BIKE_ACC_OK;
  for (unsigned j = 0; j < k && rc == BIKE_ACC_OK; j++) {
    rc = run(ctx, BIKE_ACC_MLKEM_OP_BASEMUL, t, a[j], b[j]);
    for (unsigned i = 0; i < N; i++) {
      acc[i] += t[i];
    }
  }
  for (unsigned i = 0; i < N; i++) {
    r[i] = rc == BIKE_ACC_OK ? centre((uint16_t)(acc[i] % Q)) : 0;
  }
  memset(t, 0, sizeof(t));
  memset(acc, 0, sizeof(acc));
  return rc;
}

int bike_acc_mlkem_new(bike_acc_mlkem **m, bike_acc_dev *dev, unsigned placement) {
  if (m == NULL || dev == NULL || (placement & ~BIKE_ACC_MLKEM_ALL) != 0) {
    return BIKE_ACC_ERR_ARG;
  }
  *m = NULL;
  bike_acc_info info;
  int rc = bike_acc_get_info(dev, &info);
  if (rc != BIKE_ACC_OK) {
    return rc;
  }
  if (info.core != ACC_SHELL__ACC_SHELL_CORE_E__NTT) {
    return BIKE_ACC_ERR_CORE;
  }
  if (info.param != BIKE_ACC_MLKEM_Q) {
    return BIKE_ACC_ERR_PARAM;
  }
  bike_acc_mlkem *o = calloc(1, sizeof(*o));
  if (o == NULL) {
    return BIKE_ACC_ERR_NOMEM;
  }
  o->dev = dev;
  o->table.ctx = o;
  o->table.ntt = (placement & BIKE_ACC_MLKEM_NTT) ? hook_ntt : NULL;
  o->table.invntt = (placement & BIKE_ACC_MLKEM_INVNTT) ? hook_invntt : NULL;
  o->table.basemul_acc = (placement & BIKE_ACC_MLKEM_BASEMUL) ? hook_basemul : NULL;
  *m = o;
  return BIKE_ACC_OK;
}

void bike_acc_mlkem_free(bike_acc_mlkem *m) { free(m); }

const mlkem_accel *bike_acc_mlkem_table(bike_acc_mlkem *m) { return &m->table; }

int bike_acc_mlkem_last_error(const bike_acc_mlkem *m) { return m->last_error; }

void bike_acc_mlkem_get_stats(const bike_acc_mlkem *m, bike_acc_mlkem_stats *s) {
  *s = m->stats;
}
