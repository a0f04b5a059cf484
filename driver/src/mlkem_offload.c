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
  /* one operation's stream words (the device serves one call at a time) */
  uint64_t in[BIKE_ACC_MLKEM_MAX_COUNT * 2 * WORDS];
  uint64_t res[BIKE_ACC_MLKEM_MAX_COUNT * WORDS];
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

/* One device operation: `code` (kind | (count - 1) << 4) on the polynomials
 * in[0 .. n_in - 1], n_out result polynomials into out (in [0, q)). */
static int run(bike_acc_mlkem *m, uint32_t code, uint16_t (*out)[N], size_t n_out,
               const int16_t *const *in, size_t n_in) {
  uint64_t *words = m->in, *res = m->res;
  uint32_t cycles = 0;
  const unsigned kind = code & 15u;
  for (size_t j = 0; j < n_in; j++) {
    pack(words + j * WORDS, in[j]);
  }
  int rc = bike_acc_run(m->dev, code, words, n_in * WORDS, res, n_out * WORDS, &cycles);
  for (size_t j = 0; j < n_out && rc == BIKE_ACC_OK; j++) {
    rc = unpack(out[j], res + j * WORDS);
  }
  if (rc == BIKE_ACC_OK) {
    m->stats.runs[kind - 1]++;
    m->stats.cycles[kind - 1] += cycles;
    m->stats.words_in[kind - 1] += n_in * WORDS;
    m->stats.words_out[kind - 1] += n_out * WORDS;
  }
  memset(words, 0, n_in * WORDS * sizeof(uint64_t));
  memset(res, 0, n_out * WORDS * sizeof(uint64_t));
  if (rc != BIKE_ACC_OK) {
    m->last_error = rc;
  }
  return rc;
}

static uint32_t opcode(uint32_t kind, unsigned count) { return kind | (uint32_t)(count - 1) << 4; }

/* k NTTs, BIKE_ACC_MLKEM_MAX_COUNT a device operation */
static int hook_ntt_vec(void *ctx, int16_t (*a)[N], unsigned k) {
  uint16_t r[BIKE_ACC_MLKEM_MAX_COUNT][N];
  const int16_t *in[BIKE_ACC_MLKEM_MAX_COUNT];
  int rc = BIKE_ACC_OK;
  for (unsigned j0 = 0; j0 < k; j0 += BIKE_ACC_MLKEM_MAX_COUNT) {
    const unsigned n = k - j0 < BIKE_ACC_MLKEM_MAX_COUNT ? k - j0 : BIKE_ACC_MLKEM_MAX_COUNT;
    for (unsigned j = 0; j < n; j++) {
      in[j] = a[j0 + j];
    }
    if (rc == BIKE_ACC_OK) {
      rc = run(ctx, opcode(BIKE_ACC_MLKEM_OP_NTT, n), r, n, in, n);
    }
    for (unsigned j = 0; j < n; j++) {
      for (unsigned i = 0; i < N; i++) {
        a[j0 + j][i] = rc == BIKE_ACC_OK ? centre(r[j][i]) : 0;
      }
    }
  }
  memset(r, 0, sizeof(r));
  return rc;
}

static int hook_ntt(void *ctx, int16_t a[N]) { return hook_ntt_vec(ctx, (int16_t(*)[N])a, 1); }

static int hook_invntt(void *ctx, int16_t a[N]) {
  uint16_t r[1][N];
  const int16_t *in[1] = {a};
  int rc = run(ctx, BIKE_ACC_MLKEM_OP_INTT, r, 1, in, 1);
  for (unsigned i = 0; i < N; i++) {
    a[i] = rc == BIKE_ACC_OK ? (int16_t)r[0][i] : 0;
  }
  return rc;
}

/* sum_j a_j o b_j in one MAC (k <= BIKE_ACC_MLKEM_MAX_COUNT), then with
 * `intt` the inverse NTT in the same operation (MACINTT) */
static int mac(void *ctx, uint32_t kind, uint16_t r[N], const int16_t (*a)[N],
               const int16_t (*b)[N], unsigned k) {
  const int16_t *in[2 * BIKE_ACC_MLKEM_MAX_COUNT];
  if (k == 0 || k > BIKE_ACC_MLKEM_MAX_COUNT) {
    ((bike_acc_mlkem *)ctx)->last_error = BIKE_ACC_ERR_ARG;
    return BIKE_ACC_ERR_ARG;
  }
  for (unsigned j = 0; j < k; j++) {
    in[2 * j] = a[j];
    in[2 * j + 1] = b[j];
  }
  return run(ctx, opcode(kind, k), (uint16_t(*)[N])r, 1, in, 2 * k);
}

static int hook_basemul(void *ctx, int16_t r[N], const int16_t (*a)[N], const int16_t (*b)[N],
                        unsigned k) {
  uint16_t t[N];
  int rc = mac(ctx, BIKE_ACC_MLKEM_OP_MAC, t, a, b, k);
  for (unsigned i = 0; i < N; i++) {
    r[i] = rc == BIKE_ACC_OK ? centre(t[i]) : 0;
  }
  memset(t, 0, sizeof(t));
  return rc;
}

static int hook_basemul_invntt(void *ctx, int16_t r[N], const int16_t (*a)[N],
                               const int16_t (*b)[N], unsigned k) {
  uint16_t t[N];
  int rc = mac(ctx, BIKE_ACC_MLKEM_OP_MACINTT, t, a, b, k);
  for (unsigned i = 0; i < N; i++) {
    r[i] = rc == BIKE_ACC_OK ? (int16_t)t[i] : 0;
  }
  memset(t, 0, sizeof(t));
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
  o->table.ntt_vec = (placement & BIKE_ACC_MLKEM_NTT) ? hook_ntt_vec : NULL;
  const unsigned both = BIKE_ACC_MLKEM_BASEMUL | BIKE_ACC_MLKEM_INVNTT;
  o->table.basemul_acc_invntt = (placement & both) == both ? hook_basemul_invntt : NULL;
  *m = o;
  return BIKE_ACC_OK;
}

void bike_acc_mlkem_free(bike_acc_mlkem *m) { free(m); }

const mlkem_accel *bike_acc_mlkem_table(bike_acc_mlkem *m) { return &m->table; }

int bike_acc_mlkem_last_error(const bike_acc_mlkem *m) { return m->last_error; }

void bike_acc_mlkem_get_stats(const bike_acc_mlkem *m, bike_acc_mlkem_stats *s) {
  *s = m->stats;
}
