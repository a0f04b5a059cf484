/* Constant-time rotation with AVX2. a || a is built once per syndrome; every
 * rotation is then a barrel shifter over whole vectors (blend of the row S
 * words ahead, S = 64, 128, ..., by a mask from the bits of k / 4096) and
 * one pass that finishes the last 63 words and the k % 64 bits in
 * registers. No branch or address depends on k. Each word stage only
 * computes the rows later stages still need. */
#include <assert.h>
#include <immintrin.h>
#include <string.h>

#include "common/ct.h"
#include "native/backend.h"

/* The doubled input: rows up to first + 2 top + 4 < 4n + 16 are read. The
 * work rows: first < round4(n) + 4 + n / 2 < 2n + 8. */
#define BUF_WORDS (4 * BIKE_MAX_QWORDS + 64)
#define WORK_WORDS (2 * BIKE_MAX_QWORDS + 16)
/* Word steps below 4 NEAR are the final pass's: it finishes the stages of
 * NEAR and 2 NEAR (those left after the first pass) on each row as it
 * reaches it, in place, instead of in passes of their own over memory. */
#define NEAR 64

typedef struct {
  uint32_t n;        /* r_qwords */
  uint32_t top;      /* largest word step: the largest power of 2 below n */
  uint32_t first;    /* rows the first pass computes */
  uint32_t used;     /* words of base written */
  uint64_t *base;    /* a || a as a 2r-bit string, zero after */
} rot_src;

static uint32_t round4(uint32_t x) { return (x + 3u) & ~3u; }

/* base: BUF_WORDS, or the level's src->used words. */
static void rot_prepare(const bike_params *p, rot_src *src, uint64_t *base, const uint64_t *a) {
  const uint32_t n = p->r_qwords;
  uint32_t top = 1;
  while (2 * top < n) {
    top *= 2;
  }
  src->n = n;
  src->top = top;
  /* The first pass covers steps top and top / 2 (every level has at least
   * these two word stages: top >= 2 NEAR); the passes after it read rows
   * below round4(n) + 4 + top / 2. */
  src->first = round4(n) + 4 + top / 2;
  src->used = src->first + 2 * top + 4;
  src->base = base;
  bike_doubled(p, src->base, a, src->used);
}

/* Clear what a rotation wrote: the doubled input and the work rows. */
static void rot_wipe(rot_src *src, uint64_t *w) {
  bike_wipe(w, src->first * sizeof(uint64_t));
  bike_wipe(src->base, src->used * sizeof(uint64_t));
}

static inline __m256i ld(const uint64_t *x) { return _mm256_loadu_si256((const __m256i *)(const void *)x); }
static inline void st(uint64_t *x, __m256i v) { _mm256_storeu_si256((__m256i *)(void *)x, v); }

/* m ? b : a per 64-bit lane, m all-ones or zero in each lane. Every pick
 * of the rotation is one of these, so it is VBLENDVPD (which reads the top
 * bit of each lane) rather than VPBLENDVB: 3 to 4 % less decapsulation
 * time on the Zen 4 core this was measured on. */
static inline __m256i blend64(__m256i a, __m256i b, __m256i m) {
  return _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(a), _mm256_castsi256_pd(b),
                                              _mm256_castsi256_pd(m)));
}

static inline __m256i mask_of(uint32_t bit) {
  return _mm256_set1_epi64x((long long)ct_mask_nonzero(bit));
}

/* The rotation: the r-bit window of a || a at bit k, with q = k / 64.
 * Word stages move by 64 Q words (Q = q / 64): the first pass and any but
 * the last two in passes over memory, the last two (steps 64 and 128) in
 * the final streaming pass, which also moves by the last q % 64 words and
 * shifts by k % 64 bits. For each row it reaches it finishes those word
 * stages (row x of w), stores it back and makes lo(x) = row x or x + 16 by
 * bit 4 of q, also stored back in place: row v is then lo(v) or lo(v + 32)
 * by bit 5: two blends per row for bits 4 and 5 (four loads and three
 * blends as a pick) and one or three for the NEAR stages, which then need
 * no pass of their own over memory. It rotates the lanes of
 * each vector by q % 4 (vpermd), picks among four vectors by bits 2 and 3
 * of q (blends whose partial results are carried in registers from one
 * output vector to the next), and joins words with per-lane variable
 * shifts (vpsrlvq, vpsllvq). Permute indices and shift counts in vector
 * registers are data, not addresses or branch conditions: fixed latency,
 * and valgrind sees them as such. */
/* Two stages in one pass: steps 2S then S, dst[i] = src[i + 2S b1 + S b0]. */
static inline void stage2(uint64_t *dst, const uint64_t *src, uint32_t rows, uint32_t step,
                          uint32_t q) {
  const __m256i lo = mask_of(q & step), hi = mask_of(q & (2 * step));
  const uint64_t *far = src + 2 * step;
  for (const uint64_t *end = dst + rows; dst < end; dst += 4, src += 4, far += 4) {
    const __m256i x = blend64(ld(src), ld(src + step), lo);
    const __m256i y = blend64(ld(far), ld(far + step), lo);
    st(dst, blend64(x, y, hi));
  }
}

/* The last pass: out[j] = w[j + m] >> b | w[j + m + 1] << (64 - b) for
 * j < n4, m = q % 64, b = k % 64, w after its last `extra` word stages.
 * Write m = 16 M + m' (m' = q % 16): row v is taken as row v + 16 M of w
 * (lo and the b5 pick below), which leaves m' to short_pass. */

/* Where short_pass takes row v from: the rotation's work rows, finishing
 * on each the word stages left (NEAR and 2 NEAR: `extra`, in place) and
 * the 16- and 32-word ones (row v + 48 finished and stored, lo(v + 32) =
 * row v + 32 or v + 48 by b4 stored, then lo(v) or lo(v + 32) by b5), or
 * plain rows of an input (a short rotation). */
typedef struct {
  uint64_t *w;        /* the work rows' next row */
  const uint64_t *in; /* or the input's */
  __m256i b4, b5, b6, b7;
} pass_rows;

/* Row x of w after the last `extra` word stages (steps NEAR, 2 NEAR). */
static inline __attribute__((always_inline)) __m256i stages(const uint64_t *x, const int extra,
                                                          __m256i b6, __m256i b7) {
  if (extra == 0) {
    return ld(x);
  }
  const __m256i lo = blend64(ld(x), ld(x + NEAR), b6);
  if (extra == 1) {
    return lo;
  }
  return blend64(lo, blend64(ld(x + 2 * NEAR), ld(x + 3 * NEAR), b6), b7);
}

static inline __attribute__((always_inline)) __m256i next_row(pass_rows *s, const int work,
                                                            const int extra) {
  if (!work) {
    const __m256i x = ld(s->in);
    s->in += 4;
    return x;
  }
  const __m256i fin = stages(s->w + 48, extra, s->b6, s->b7);
  if (extra) {
    st(s->w + 48, fin);
  }
  const __m256i lo = blend64(ld(s->w + 32), fin, s->b4);
  st(s->w + 32, lo);
  const __m256i x = blend64(ld(s->w), lo, s->b5);
  s->w += 4;
  return x;
}

/* out[0, n4) = words j + m .. of the rows, m = q % 16 (bits of q above 3
 * are ignored), funnel-shifted by b. With r(v) row v rotated down by m % 4
 * lanes, x0 at row j (words j + m .. j + m + 3) is Y(j) in the lanes where
 * lane + m % 4 < 4 and Y(j + 4) in the others, where Y(v) = P(v) or
 * P(v + 8) by bit 3 of m and P(v) = r(v) or r(v + 4) by bit 2. x1 (words
 * one further) is x0 moved down one lane with the next x0's first word on
 * top. Step v takes row v and completes P(v - 4), Y(v - 12), x0 at v - 16
 * and the output at v - 20; the first five steps only fill the pipeline,
 * so rows up to n4 + 16 are taken. The permutation indices, masks and
 * shift counts are vector data: no branch or address depends on q or b. */
/* One step: rn = r(v), pn = P(v - 4), yn = Y(v - 12), xn = x0 at v - 16,
 * dn = xn moved down, o = the output at v - 20; rp, p12, yp, xp, dp hold
 * r(v - 4), P(v - 12), Y(v - 16), x0 at v - 20 and it moved down. The
 * loop unrolls six steps and rotates the variables' roles, so that no
 * value is copied from register to register. */
#define SHORT_STEP(o, rp, rn, p12, pn, yp, yn, xp, xn, dp, dn)                                    \
  do {                                                                                            \
    rn = _mm256_permutevar8x32_epi32(next_row(&rows, work, extra), perm);                         \
    pn = blend64(rp, rn, b2);                                                                     \
    yn = blend64(p12, pn, b3);                                                                    \
    xn = blend64(yp, yn, wrap);                                                                   \
    dn = _mm256_permute4x64_epi64(xn, _MM_SHUFFLE(0, 3, 2, 1));                                   \
    o = _mm256_or_si256(_mm256_srlv_epi64(xp, right),                                             \
                        _mm256_sllv_epi64(_mm256_blend_epi32(dp, dn, 0xC0), left));               \
  } while (0)

static inline __attribute__((always_inline)) void short_pass(uint64_t *out, uint32_t n4,
                                                             uint32_t q, uint32_t b,
                                                             pass_rows rows, const int work,
                                                             const int extra) {
  const __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
  const __m256i at = _mm256_add_epi64(lane, _mm256_set1_epi64x((long long)(q & 3)));
  const __m256i lo_dword = _mm256_slli_epi64(_mm256_and_si256(at, _mm256_set1_epi64x(3)), 1);
  const __m256i perm = _mm256_or_si256(
      lo_dword, _mm256_slli_epi64(_mm256_add_epi64(lo_dword, _mm256_set1_epi64x(1)), 32));
  const __m256i wrap = _mm256_cmpgt_epi64(at, _mm256_set1_epi64x(3));
  const __m256i b2 = mask_of(q & 4), b3 = mask_of(q & 8);
  const __m256i right = _mm256_set1_epi64x((long long)b);
  const __m256i left = _mm256_sub_epi64(_mm256_set1_epi64x(64), right);
  const __m256i z = _mm256_setzero_si256();
  __m256i ra = z, rb = z, p0 = z, p1 = z, p2 = z, ya = z, yb = z, xa = z, xb = z, da = z, db = z;
  __m256i o;
  /* Steps 0 to 4 fill the pipeline; step s uses r, y, x, d of parity s % 2
   * and p of s % 3 for its new values. */
  SHORT_STEP(o, rb, ra, p1, p0, yb, ya, xb, xa, db, da);
  SHORT_STEP(o, ra, rb, p2, p1, ya, yb, xa, xb, da, db);
  SHORT_STEP(o, rb, ra, p0, p2, yb, ya, xb, xa, db, da);
  SHORT_STEP(o, ra, rb, p1, p0, ya, yb, xa, xb, da, db);
  SHORT_STEP(o, rb, ra, p2, p1, yb, ya, xb, xa, db, da);
  (void)o;
  for (const uint64_t *end = out + n4;;) {
    SHORT_STEP(o, ra, rb, p0, p2, ya, yb, xa, xb, da, db);
    st(out, o);
    if ((out += 4) == end) {
      break;
    }
    SHORT_STEP(o, rb, ra, p1, p0, yb, ya, xb, xa, db, da);
    st(out, o);
    if ((out += 4) == end) {
      break;
    }
    SHORT_STEP(o, ra, rb, p2, p1, ya, yb, xa, xb, da, db);
    st(out, o);
    if ((out += 4) == end) {
      break;
    }
    SHORT_STEP(o, rb, ra, p0, p2, yb, ya, xb, xa, db, da);
    st(out, o);
    if ((out += 4) == end) {
      break;
    }
    SHORT_STEP(o, ra, rb, p1, p0, ya, yb, xa, xb, da, db);
    st(out, o);
    if ((out += 4) == end) {
      break;
    }
    SHORT_STEP(o, rb, ra, p2, p1, yb, ya, xb, xa, db, da);
    st(out, o);
    if ((out += 4) == end) {
      break;
    }
  }
}
#undef SHORT_STEP

/* Reads rows below n4 + 20 + 48 of w, below n4 + 68 + 64 (2^extra - 1) of
 * the input, and writes w. */
static inline __attribute__((always_inline)) void rot_final(uint64_t *w, uint64_t *out,
                                                            uint32_t n4, uint32_t k,
                                                            const int extra) {
  const uint32_t q = k >> 6;
  const pass_rows rows = {w, NULL, mask_of(q & 16), mask_of(q & 32), mask_of(q & NEAR),
                          mask_of(q & (2 * NEAR))};
  /* In place: rows 0 to 47 of w after the extra stages, then rows 0 to 31
   * as lo(x) = row x + 16 b4. Step v then finishes row v + 48, lo(v + 32)
   * and r(v) = lo(v) or lo(v + 32) by b5. */
  if (extra) {
    for (uint32_t x = 0; x < 48; x += 4) {
      st(w + x, stages(w + x, extra, rows.b6, rows.b7));
    }
  }
  for (uint32_t x = 0; x < 32; x += 4) {
    st(w + x, blend64(ld(w + x), ld(w + x + 16), rows.b4));
  }
  short_pass(out, n4, q, k & 63, rows, 1, extra);
}

void bike_rotr_short_avx2(uint64_t *out, const uint64_t *in, uint32_t n4, uint32_t shift) {
  const __m256i z = _mm256_setzero_si256();
  const pass_rows rows = {NULL, in, z, z, z, z};
  short_pass(out, n4, shift >> 6, shift & 63, rows, 0, 0);
}

/* One rotation, w being scratch of src->first words: the first pass
 * (steps top and top / 2, from a || a into w), the word stages above
 * 2 NEAR in place in w, two per pass (a pass ending with step S computes
 * the n4 + 4 + S rows later passes read), then the final pass, with the
 * stages of 2 NEAR and NEAR left (none at L1, one at L3, two at L5), into
 * out[0..round4(n)), bits above r not cleared. */
static void rot_apply(const rot_src *src, uint64_t *w, uint64_t *out, uint32_t k) {
  const uint32_t n4 = round4(src->n), q = k >> 6;
  stage2(w, src->base, src->first, src->top >> 1, q);
  uint32_t step = src->top >> 2;
  for (; step >= 4 * NEAR; step >>= 2) {
    stage2(w, w, n4 + 4 + (step >> 1), step >> 1, q);
  }
  if (step == 2 * NEAR) {
    rot_final(w, out, n4, k, 2);
  } else if (step == NEAR) {
    rot_final(w, out, n4, k, 1);
  } else {
    rot_final(w, out, n4, k, 0);
  }
}

void bike_gf2x_rotr_avx2(const bike_params *p, uint64_t *c, const uint64_t *a, uint32_t k) {
  rot_src src;
  uint64_t base[BUF_WORDS];
  uint64_t w[WORK_WORDS];
  uint64_t out[BIKE_MAX_QWORDS + 4];
  rot_prepare(p, &src, base, a);
  rot_apply(&src, w, out, k);
  memcpy(c, out, p->r_qwords * sizeof(uint64_t));
  c[p->r_qwords - 1] &= ((uint64_t)1 << (p->r % 64)) - 1;
  rot_wipe(&src, w);
  bike_wipe(out, round4(p->r_qwords) * sizeof(uint64_t));
}
