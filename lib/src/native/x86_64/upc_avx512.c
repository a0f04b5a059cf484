/* The decoder's kernels with AVX-512: constant-time rotation, the
 * unsatisfied-parity-check counters, the threshold comparison and the
 * Hamming weight.
 *
 * Rotation by k (c_j = a_(j+k mod r)) is the r-bit window at bit k of a || a,
 * held in 512-bit rows. Write k = 512 A + 64 q + b:
 *  - A (whole rows) by a barrel shifter over rows: every candidate row is
 *    read and blended under a mask made from one bit of A. Bits 0-3 of A
 *    (steps of 1, 2, 4, 8 rows) run as sliding windows in registers, so
 *    that each output row costs one blend per bit; the bits above (16, 32,
 *    64 rows) pick among 2, 4 or 6 loaded rows.
 *  - q and b (the last 512 bits) inside registers: VPERMT2Q picks qwords
 *    q..q+8 of two adjacent rows and VPSHRDVQ shifts by b. Both take the
 *    secret as a data operand (fixed latency); no address, branch or
 *    immediate depends on k.
 * The counters add up to GROUP rotated copies at a time (kept in the
 * counters' work space, which upc_wipe clears): a carry-save tree of full
 * adders (VPTERNLOGQ) compresses them to a 5-bit number per position, which
 * then ripples into the bit-sliced counters. */
#include <assert.h>
#include <immintrin.h>
#include <string.h>

#include "common/ct.h"
#include "native/backend.h"

#define ROW 8 /* qwords in a 512-bit row */
#define MAX_ROWS UPC_ROWS
/* Rotation steps read source rows up to R + 15 + 16 (nc - 1), nc <= 6. */
#define SRC_ROWS (MAX_ROWS + 96)
#define GROUP 24 /* rotated copies per pass of the counters (sums fit 5 bits) */

typedef struct {
  uint32_t rows;     /* R = ceil(r_qwords / 8): output rows */
  uint32_t nc;       /* candidates for A / 16: (r - 1) / 2^13 + 1 = 2, 4 or 6 */
  uint32_t src_used; /* source rows written (and so to wipe) */
  uint64_t *src;     /* SRC_ROWS rows, 64-byte aligned: a || a, zero after */
} rot_ctx;

/* A row load that the compiler may not fold into a blend: a blend with a
 * memory operand becomes a masked load, whose timing might follow the
 * (secret) mask. (MemorySanitizer counts an asm operand as a use of the
 * value, and its build checks data flow, not machine code: no barrier.) */
static inline __m512i ld_row(const uint64_t *x) {
  __m512i v = _mm512_load_si512((const void *)x);
#if !defined(BIKE_CT_MSAN)
  __asm__("" : "+v"(v));
#endif
  return v;
}
static inline __m512i ld(const uint64_t *x) { return _mm512_load_si512((const void *)x); }
static inline void st(uint64_t *x, __m512i v) { _mm512_store_si512((void *)x, v); }

/* All lanes selected if bit is non-zero. */
static inline __mmask8 mask_of(uint32_t bit) { return (__mmask8)ct_mask_nonzero(bit); }

/* m ? b : a, all lanes alike (VPBLENDMQ between registers). */
static inline __m512i sel(__mmask8 m, __m512i a, __m512i b) { return _mm512_mask_blend_epi64(m, a, b); }

static void rot_prepare(const bike_params *p, rot_ctx *c, uint64_t *src, const uint64_t *a) {
  const uint32_t n = p->r_qwords;
  c->src = src;
  c->rows = (n + ROW - 1) / ROW;
  c->nc = ((p->r - 1) >> 13) + 1;
  c->src_used = c->rows + 16 * c->nc;
  bike_doubled(p, c->src, a, c->src_used * ROW);
}

static void rot_wipe(rot_ctx *c) { bike_wipe(c->src, c->src_used * ROW * sizeof(uint64_t)); }

/* Row t + 16 (A / 16) of the source, from the nc candidates 16 rows apart
 * (nc is a constant in each copy of rot_rows_nc). With nc = 6, A / 16 <= 5:
 * bit 6 of A excludes bit 5. */
static inline __attribute__((always_inline)) __m512i pick(const uint64_t *s, uint32_t nc,
                                                           __mmask8 m16, __mmask8 m32,
                                                           __mmask8 m64) {
  const __m512i v = sel(m16, ld_row(s), ld_row(s + 16 * ROW));
  if (nc == 2) {
    return v;
  }
  const __m512i w = sel(m16, ld_row(s + 32 * ROW), ld_row(s + 48 * ROW));
  if (nc == 4) {
    return sel(m32, v, w);
  }
  return sel(m64, sel(m32, v, w), sel(m16, ld_row(s + 64 * ROW), ld_row(s + 80 * ROW)));
}

/* out rows 0..R-1 = the window of a || a at bit k (bits above r not cleared). */
static inline __attribute__((always_inline)) void rot_rows_nc(const rot_ctx *cx, uint64_t *out,
                                                             uint32_t k, const uint32_t nc) {
  const uint32_t rows = cx->rows, A = k >> 9;
  const uint64_t *base = cx->src;
  const __mmask8 m32 = mask_of(A & 32), m64 = mask_of(A & 64);
  const __mmask8 m1 = mask_of(A & 1), m2 = mask_of(A & 2), m4 = mask_of(A & 4);
  const __mmask8 m8 = mask_of(A & 8), m16 = mask_of(A & 16);
  const __m512i q = _mm512_set1_epi64((long long)((k >> 6) & 7));
  const __m512i lo_idx = _mm512_add_epi64(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), q);
  const __m512i hi_idx = _mm512_add_epi64(lo_idx, _mm512_set1_epi64(1));
  const __m512i shift = _mm512_set1_epi64((long long)(k & 63));

  /* Sliding windows over rows: a_t = src[t + 16 (A / 16)], b_t = a_(t + A0),
   * c_t = b_(t + 2 A1), d_t = c_(t + 4 A2), e_t = d_(t + 8 A3). Step t
   * computes a_(t+16), b_(t+15), c_(t+13), d_(t+9), e_(t+1), then out_t from
   * e_t and e_(t+1); the 16 steps before t = 0 fill the windows. Window
   * values are named by their row modulo 2, 4, 8 or 16 and the steps are
   * unrolled 16 times, so that no value moves between registers. */
  const __m512i zero = _mm512_setzero_si512();
  __m512i a0 = zero, a1 = zero, b0 = zero, b1 = zero, b2 = zero, b3 = zero;
  __m512i c0 = zero, c1 = zero, c2 = zero, c3 = zero, c4 = zero, c5 = zero, c6 = zero, c7 = zero;
  __m512i d0 = zero, d1 = zero, d2 = zero, d3 = zero, d4 = zero, d5 = zero, d6 = zero, d7 = zero;
  __m512i d8 = zero, d9 = zero, d10 = zero, d11 = zero, d12 = zero, d13 = zero, d14 = zero,
          d15 = zero, e0 = zero, e1 = zero;
#define ROT_STEP(j, a_old, a_new, b_old, b_new, c_old, c_new, d_old, d_new, e_old, e_new, emit) \
  do {                                                                                      \
    const uint64_t *s_ = base + (t + (j)) * ROW;                                            \
    a_new = pick(s_, nc, m16, m32, m64);                                                    \
    /* In the first 16 steps, values of rows below 0 are skipped. */                        \
    if ((emit) || (j) >= 1) b_new = sel(m1, a_old, a_new);                                  \
    if ((emit) || (j) >= 3) c_new = sel(m2, b_old, b_new);                                  \
    if ((emit) || (j) >= 7) d_new = sel(m4, c_old, c_new);                                  \
    if ((emit) || (j) >= 15) e_new = sel(m8, d_old, d_new);                                 \
    if (emit) {                                                                             \
      const __m512i lo_ = _mm512_permutex2var_epi64(e_old, lo_idx, e_new);                  \
      const __m512i hi_ = _mm512_permutex2var_epi64(e_old, hi_idx, e_new);                  \
      st(out + (t + (j) - 16) * ROW, _mm512_shrdv_epi64(lo_, hi_, shift));                  \
    }                                                                                       \
  } while (0)
#define ROT_STEPS16(emit)                                                                   \
  do {                                                                                      \
    ROT_STEP(0, a1, a0, b1, b3, c1, c5, d1, d9, e0, e1, emit);                              \
    ROT_STEP(1, a0, a1, b2, b0, c2, c6, d2, d10, e1, e0, emit);                             \
    ROT_STEP(2, a1, a0, b3, b1, c3, c7, d3, d11, e0, e1, emit);                             \
    ROT_STEP(3, a0, a1, b0, b2, c4, c0, d4, d12, e1, e0, emit);                             \
    ROT_STEP(4, a1, a0, b1, b3, c5, c1, d5, d13, e0, e1, emit);                             \
    ROT_STEP(5, a0, a1, b2, b0, c6, c2, d6, d14, e1, e0, emit);                             \
    ROT_STEP(6, a1, a0, b3, b1, c7, c3, d7, d15, e0, e1, emit);                             \
    ROT_STEP(7, a0, a1, b0, b2, c0, c4, d8, d0, e1, e0, emit);                              \
    ROT_STEP(8, a1, a0, b1, b3, c1, c5, d9, d1, e0, e1, emit);                              \
    ROT_STEP(9, a0, a1, b2, b0, c2, c6, d10, d2, e1, e0, emit);                             \
    ROT_STEP(10, a1, a0, b3, b1, c3, c7, d11, d3, e0, e1, emit);                            \
    ROT_STEP(11, a0, a1, b0, b2, c4, c0, d12, d4, e1, e0, emit);                            \
    ROT_STEP(12, a1, a0, b1, b3, c5, c1, d13, d5, e0, e1, emit);                            \
    ROT_STEP(13, a0, a1, b2, b0, c6, c2, d14, d6, e1, e0, emit);                            \
    ROT_STEP(14, a1, a0, b3, b1, c7, c3, d15, d7, e0, e1, emit);                            \
    ROT_STEP(15, a0, a1, b0, b2, c0, c4, d0, d8, e1, e0, emit);                             \
  } while (0)
  /* Step t loads row t and writes output row t - 16. The first 16 steps
   * read window values before they are set: those only reach e_0 and below,
   * which no output uses. */
  uint32_t t = 0;
  ROT_STEPS16(0);
  const uint32_t end = rows + 16;
  for (t = 16; t + 16 <= end; t += 16) {
    ROT_STEPS16(1);
  }
  /* The steps left (R % 16 of them). */
  if (t < end) ROT_STEP(0, a1, a0, b1, b3, c1, c5, d1, d9, e0, e1, 1);
  if (t + 1 < end) ROT_STEP(1, a0, a1, b2, b0, c2, c6, d2, d10, e1, e0, 1);
  if (t + 2 < end) ROT_STEP(2, a1, a0, b3, b1, c3, c7, d3, d11, e0, e1, 1);
  if (t + 3 < end) ROT_STEP(3, a0, a1, b0, b2, c4, c0, d4, d12, e1, e0, 1);
  if (t + 4 < end) ROT_STEP(4, a1, a0, b1, b3, c5, c1, d5, d13, e0, e1, 1);
  if (t + 5 < end) ROT_STEP(5, a0, a1, b2, b0, c6, c2, d6, d14, e1, e0, 1);
  if (t + 6 < end) ROT_STEP(6, a1, a0, b3, b1, c7, c3, d7, d15, e0, e1, 1);
  if (t + 7 < end) ROT_STEP(7, a0, a1, b0, b2, c0, c4, d8, d0, e1, e0, 1);
  if (t + 8 < end) ROT_STEP(8, a1, a0, b1, b3, c1, c5, d9, d1, e0, e1, 1);
  if (t + 9 < end) ROT_STEP(9, a0, a1, b2, b0, c2, c6, d10, d2, e1, e0, 1);
  if (t + 10 < end) ROT_STEP(10, a1, a0, b3, b1, c3, c7, d11, d3, e0, e1, 1);
  if (t + 11 < end) ROT_STEP(11, a0, a1, b0, b2, c4, c0, d12, d4, e1, e0, 1);
  if (t + 12 < end) ROT_STEP(12, a1, a0, b1, b3, c5, c1, d13, d5, e0, e1, 1);
  if (t + 13 < end) ROT_STEP(13, a0, a1, b2, b0, c6, c2, d14, d6, e1, e0, 1);
  if (t + 14 < end) ROT_STEP(14, a1, a0, b3, b1, c7, c3, d15, d7, e0, e1, 1);
#undef ROT_STEPS16
#undef ROT_STEP
}

static void rot_rows(const rot_ctx *cx, uint64_t *out, uint32_t k) {
  if (cx->nc == 2) {
    rot_rows_nc(cx, out, k, 2);
  } else if (cx->nc == 4) {
    rot_rows_nc(cx, out, k, 4);
  } else {
    rot_rows_nc(cx, out, k, 6);
  }
}

void bike_gf2x_rotr_avx512(const bike_params *p, uint64_t *c, const uint64_t *a, uint32_t k) {
  rot_ctx ctx;
  _Alignas(64) uint64_t src[SRC_ROWS * ROW];
  _Alignas(64) uint64_t out[MAX_ROWS * ROW];
  rot_prepare(p, &ctx, src, a);
  rot_rows(&ctx, out, k);
  memcpy(c, out, p->r_qwords * sizeof(uint64_t));
  c[p->r_qwords - 1] &= ((uint64_t)1 << (p->r % 64)) - 1;
  rot_wipe(&ctx);
  bike_wipe(out, ctx.rows * ROW * sizeof(uint64_t));
}

/* Three-input logic by VPTERNLOGQ; in the MemorySanitizer build by plain
 * operations, as it does not follow secrets through VPTERNLOGQ. */
static inline __m512i xor3(__m512i a, __m512i b, __m512i c) {
#if defined(BIKE_CT_MSAN)
  return _mm512_xor_si512(_mm512_xor_si512(a, b), c);
#else
  return _mm512_ternarylogic_epi64(a, b, c, 0x96);
#endif
}

static inline __m512i maj(__m512i a, __m512i b, __m512i c) {
#if defined(BIKE_CT_MSAN)
  return _mm512_or_si512(_mm512_and_si512(a, b), _mm512_and_si512(c, _mm512_xor_si512(a, b)));
#else
  return _mm512_ternarylogic_epi64(a, b, c, 0xe8);
#endif
}

/* Full adder: sum and carry of three rows. */
#define FA(s, cy, a, b, c)                      \
  do {                                          \
    const __m512i a_ = (a), b_ = (b), c_ = (c); \
    s = xor3(a_, b_, c_);                       \
    cy = maj(a_, b_, c_);                       \
  } while (0)

/* v[0..4] = the 5-bit sum of the rows x_j = row[j * stride] for j < g and
 * zero for g <= j < 24 (g is public): 19 full and 3 half adders, column by
 * column. */
static inline void compress24(__m512i v[5], const uint64_t *row, size_t stride, uint32_t g) {
#define X(j) ((j) < g ? ld(row + (j) * stride) : _mm512_setzero_si512())
  __m512i s1[8], c2[12], s2[4], c4[6], s4[2], c8[3], a, b, e;
  /* Weight 1: 24 -> 8 sums, then 8 -> 2, then the last 2 by a half adder. */
  for (uint32_t i = 0; i < 8; i++) {
    FA(s1[i], c2[i], X(3 * i), X(3 * i + 1), X(3 * i + 2));
  }
#undef X
  FA(a, c2[8], s1[0], s1[1], s1[2]);
  FA(b, c2[9], s1[3], s1[4], s1[5]);
  FA(e, c2[10], s1[6], s1[7], a);
  v[0] = _mm512_xor_si512(b, e);
  c2[11] = _mm512_and_si512(b, e);
  /* Weight 2: 12 -> 4, 4 -> 2, 2 -> 1. */
  for (int i = 0; i < 4; i++) {
    FA(s2[i], c4[i], c2[3 * i], c2[3 * i + 1], c2[3 * i + 2]);
  }
  FA(a, c4[4], s2[0], s2[1], s2[2]);
  v[1] = _mm512_xor_si512(a, s2[3]);
  c4[5] = _mm512_and_si512(a, s2[3]);
  /* Weight 4: 6 -> 2 -> 1; weight 8: 3 -> bits 3 and 4. */
  FA(s4[0], c8[0], c4[0], c4[1], c4[2]);
  FA(s4[1], c8[1], c4[3], c4[4], c4[5]);
  v[2] = _mm512_xor_si512(s4[0], s4[1]);
  c8[2] = _mm512_and_si512(s4[0], s4[1]);
  FA(v[3], v[4], c8[0], c8[1], c8[2]);
}

/* Add the 5-bit numbers v into the counters of row t, slices below live
 * (set them, the first time). */
static inline void add_row(upc_counters *u, uint32_t t, uint32_t live, int first,
                           const __m512i v[5]) {
  if (first) {
    for (uint32_t b = 0; b < 5; b++) {
      st(u->slice[b] + t * ROW, v[b]);
    }
    return;
  }
  __m512i carry = _mm512_setzero_si512();
  for (uint32_t b = 0; b < live; b++) {
    uint64_t *cell = u->slice[b] + t * ROW;
    const __m512i c = ld(cell);
    if (b < 5) {
      st(cell, xor3(c, v[b], carry));
      carry = maj(c, v[b], carry);
    } else {
      st(cell, _mm512_xor_si512(c, carry));
      carry = _mm512_and_si512(c, carry);
    }
  }
}

void upc_count_avx512(const bike_params *p, upc_counters *u, const upc_plan *plan,
                      const uint64_t *s) {
  const uint32_t *const idx = plan->idx;
  const uint32_t count = plan->count;
  static_assert(UPC_SCRATCH_ROWS(MAX_ROWS) >= GROUP * MAX_ROWS + SRC_ROWS, "work space");
  rot_ctx ctx;
  const uint32_t R = (p->r_qwords + ROW - 1) / ROW;
  /* In the work space: GROUP rotations (row t of rotation j at j R + t),
   * then the doubled syndrome. Both stay there until upc_wipe. */
  uint64_t *const rows = u->scratch;
  rot_prepare(p, &ctx, u->scratch + GROUP * R * ROW, s);
  /* The first group sets slices 0-4 (if there is a group at all). */
  for (uint32_t b = count == 0 ? 0 : 5; b < UPC_SLICES; b++) {
    memset(u->slice[b], 0, R * ROW * sizeof(uint64_t));
  }
  /* Groups of equal size (within one) cost the same as full ones. */
  const uint32_t groups = (count + GROUP - 1) / GROUP;
  for (uint32_t gi = 0, i = 0; gi < groups; gi++) {
    const uint32_t g = count / groups + (gi < count % groups ? 1 : 0);
    for (uint32_t j = 0; j < g; j++) {
      rot_rows(&ctx, rows + j * R * ROW, idx[i + j]);
    }
    i += g;
    const uint32_t live = upc_live_slices(i);
    for (uint32_t t = 0; t < R; t++) {
      __m512i v[5];
      compress24(v, rows + t * ROW, R * ROW, g);
      add_row(u, t, live, gi == 0, v);
    }
  }
  /* Positions at and above r count nothing. */
  const uint64_t top = ((uint64_t)1 << (p->r % 64)) - 1;
  for (uint32_t b = 0; b < UPC_SLICES; b++) {
    u->slice[b][p->r_qwords - 1] &= top;
    memset(u->slice[b] + p->r_qwords, 0, (R * ROW - p->r_qwords) * sizeof(uint64_t));
  }
}

void upc_at_least_avx512(const bike_params *p, uint64_t *mask, const upc_counters *u,
                         uint32_t th) {
  __m512i th_bit[UPC_SLICES];
  for (uint32_t b = 0; b < UPC_SLICES; b++) {
    th_bit[b] = _mm512_set1_epi64((long long)((uint64_t)0 - ((th >> b) & 1)));
  }
  const uint32_t n = p->r_qwords, full = n / ROW;
  for (uint32_t t = 0; t < (n + ROW - 1) / ROW; t++) {
    /* The borrow out of count - th is set exactly where count < th:
     * borrow' = majority(~x, th, borrow). */
    __m512i borrow = _mm512_setzero_si512();
    for (uint32_t b = 0; b < UPC_SLICES; b++) {
      const __m512i not_x = _mm512_xor_si512(ld(u->slice[b] + t * ROW), _mm512_set1_epi64(-1));
      borrow = maj(not_x, th_bit[b], borrow);
    }
    const __mmask8 keep = t < full ? (__mmask8)0xff : (__mmask8)((1u << (n % ROW)) - 1);
    _mm512_mask_storeu_epi64(mask + t * ROW, keep, _mm512_xor_si512(borrow, _mm512_set1_epi64(-1)));
  }
  mask[n - 1] &= ((uint64_t)1 << (p->r % 64)) - 1;
}

uint32_t bike_poly_weight_avx512(const bike_params *p, const uint64_t *a) {
  const uint32_t n = p->r_qwords, full = n / ROW;
  __m512i acc = _mm512_setzero_si512();
  for (uint32_t t = 0; t < full; t++) {
    acc = _mm512_add_epi64(acc, _mm512_popcnt_epi64(_mm512_loadu_si512((const void *)(a + t * ROW))));
  }
  const __mmask8 tail = (__mmask8)((1u << (n % ROW)) - 1);
  acc = _mm512_add_epi64(acc, _mm512_popcnt_epi64(_mm512_maskz_loadu_epi64(tail, a + full * ROW)));
  return (uint32_t)_mm512_reduce_add_epi64(acc);
}
