/* Constant-time rotation, the unsatisfied-parity-check counters and their
 * threshold comparison with AVX2. a || a is built once per syndrome; every
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
/* Rotations whose first pass runs together: they read the same rows of
 * a || a, so each load serves all of them. Two ran about 1 % faster than
 * four (fewer work rows in flight) and four 3 % faster than eight. */
#define SHARE 2
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

/* stage2 for SHARE rotations of the same src at once, into dst[t]. */
static inline void stage2_shared(uint64_t *const dst[SHARE], const uint64_t *src, uint32_t rows,
                                 uint32_t step, const uint32_t q[SHARE]) {
  __m256i lo[SHARE], hi[SHARE];
  for (uint32_t t = 0; t < SHARE; t++) {
    lo[t] = mask_of(q[t] & step);
    hi[t] = mask_of(q[t] & (2 * step));
  }
  for (uint32_t i = 0; i < rows; i += 4) {
    const __m256i a = ld(src + i), b = ld(src + i + step);
    const __m256i c = ld(src + i + 2 * step), d = ld(src + i + 3 * step);
    for (uint32_t t = 0; t < SHARE; t++) {
      const __m256i x = blend64(a, b, lo[t]);
      const __m256i y = blend64(c, d, lo[t]);
      st(dst[t] + i, blend64(x, y, hi[t]));
    }
  }
}

/* The last pass: out[j] = w[j + m] >> b | w[j + m + 1] << (64 - b) for
 * j < n4, m = q % 64, b = k % 64, w after its last `extra` word stages.
 * Write m = 16 M + m' (m' = q % 16): row v is taken as row v + 16 M of w,
 * which leaves m'. With r(v) that row
 * rotated
 * down by m % 4 lanes, x0 at row j (words j + m .. j + m + 3) is Y(j) in
 * the lanes where lane + m % 4 < 4 and Y(j + 4) in the others, where
 * Y(v) = r(v + 4 (m / 4)) = P(v) or P(v + 8) by bit 3 of m and P(v) = r(v)
 * or r(v + 4) by bit 2. x1 (words one further) is x0 moved down one lane
 * with the next x0's first word on top. Step v loads row v and completes
 * P(v - 4), Y(v - 12), x0 at v - 16 and the output at v - 20; the first
 * five steps only fill the pipeline. Reads rows below n4 + 20 + 48 of w,
 * below n4 + 68 + 64 (2^extra - 1) of the input, and writes w. */
/* One step: row v + 48 of w finished and stored (fin), lo(v + 32) (lo),
 * rn = r(v), pn = P(v - 4), yn = Y(v - 12), xn = x0 at v - 16, dn = xn
 * moved down, o = the output at v - 20; rp, p12, yp, xp, dp hold r(v - 4),
 * P(v - 12), Y(v - 16), x0 at v - 20 and it moved down. The callers unroll
 * six steps and rotate the variables' roles, so that no value is copied
 * from register to register. */
#define FINAL_STEP(o, rp, rn, p12, pn, yp, yn, xp, xn, dp, dn)                                    \
  do {                                                                                            \
    const __m256i fin = stages(row + 48, extra, b6, b7);                                          \
    if (extra) {                                                                                  \
      st(row + 48, fin);                                                                          \
    }                                                                                             \
    const __m256i lo = blend64(ld(row + 32), fin, b4);                                            \
    st(row + 32, lo);                                                                             \
    rn = _mm256_permutevar8x32_epi32(blend64(ld(row), lo, b5), perm);                             \
    pn = blend64(rp, rn, b2);                                                                     \
    yn = blend64(p12, pn, b3);                                                                    \
    xn = blend64(yp, yn, wrap);                                                                   \
    dn = _mm256_permute4x64_epi64(xn, _MM_SHUFFLE(0, 3, 2, 1));                                   \
    o = _mm256_or_si256(_mm256_srlv_epi64(xp, right),                                             \
                        _mm256_sllv_epi64(_mm256_blend_epi32(dp, dn, 0xC0), left));               \
    row += 4;                                                                                     \
  } while (0)

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

static inline __attribute__((always_inline)) void rot_final(uint64_t *w, uint64_t *out,
                                                            uint32_t n4, uint32_t k,
                                                            const int extra) {
  const uint32_t q = k >> 6;
  const __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
  const __m256i at = _mm256_add_epi64(lane, _mm256_set1_epi64x((long long)(q & 3)));
  const __m256i lo_dword = _mm256_slli_epi64(_mm256_and_si256(at, _mm256_set1_epi64x(3)), 1);
  const __m256i perm = _mm256_or_si256(
      lo_dword, _mm256_slli_epi64(_mm256_add_epi64(lo_dword, _mm256_set1_epi64x(1)), 32));
  const __m256i wrap = _mm256_cmpgt_epi64(at, _mm256_set1_epi64x(3));
  const __m256i b2 = mask_of(q & 4), b3 = mask_of(q & 8), b4 = mask_of(q & 16), b5 = mask_of(q & 32);
  const __m256i b6 = mask_of(q & NEAR), b7 = mask_of(q & (2 * NEAR));
  /* In place: rows 0 to 47 of w after the extra stages, then rows 0 to 31
   * as lo(x) = row x + 16 b4. Step v then finishes row v + 48, lo(v + 32)
   * and r(v) = lo(v) or lo(v + 32) by b5. */
  if (extra) {
    for (uint32_t x = 0; x < 48; x += 4) {
      st(w + x, stages(w + x, extra, b6, b7));
    }
  }
  for (uint32_t x = 0; x < 32; x += 4) {
    st(w + x, blend64(ld(w + x), ld(w + x + 16), b4));
  }
  const __m256i right = _mm256_set1_epi64x((long long)(k & 63));
  const __m256i left = _mm256_sub_epi64(_mm256_set1_epi64x(64), right);
  const __m256i z = _mm256_setzero_si256();
  __m256i ra = z, rb = z, p0 = z, p1 = z, p2 = z, ya = z, yb = z, xa = z, xb = z, da = z, db = z;
  __m256i o;
  uint64_t *row = w;
  /* Steps 0 to 4 fill the pipeline; step s uses r, y, x, d of parity s % 2
   * and p of s % 3 for its new values. */
  FINAL_STEP(o, rb, ra, p1, p0, yb, ya, xb, xa, db, da);
  FINAL_STEP(o, ra, rb, p2, p1, ya, yb, xa, xb, da, db);
  FINAL_STEP(o, rb, ra, p0, p2, yb, ya, xb, xa, db, da);
  FINAL_STEP(o, ra, rb, p1, p0, ya, yb, xa, xb, da, db);
  FINAL_STEP(o, rb, ra, p2, p1, yb, ya, xb, xa, db, da);
  (void)o;
  for (const uint64_t *end = out + n4;;) {
    FINAL_STEP(o, ra, rb, p0, p2, ya, yb, xa, xb, da, db);
    st(out, o);
    if ((out += 4) == end) {
      break;
    }
    FINAL_STEP(o, rb, ra, p1, p0, yb, ya, xb, xa, db, da);
    st(out, o);
    if ((out += 4) == end) {
      break;
    }
    FINAL_STEP(o, ra, rb, p2, p1, ya, yb, xa, xb, da, db);
    st(out, o);
    if ((out += 4) == end) {
      break;
    }
    FINAL_STEP(o, rb, ra, p0, p2, yb, ya, xb, xa, db, da);
    st(out, o);
    if ((out += 4) == end) {
      break;
    }
    FINAL_STEP(o, ra, rb, p1, p0, ya, yb, xa, xb, da, db);
    st(out, o);
    if ((out += 4) == end) {
      break;
    }
    FINAL_STEP(o, rb, ra, p2, p1, yb, ya, xb, xa, db, da);
    st(out, o);
    if ((out += 4) == end) {
      break;
    }
  }
}
#undef FINAL_STEP

/* A rotation after its first pass (steps top and top / 2, from a || a into
 * w): the word stages above 2 NEAR in place in w, two per pass (a pass
 * ending with step S computes the n4 + 4 + S rows later passes read), then
 * the final pass, with the stages of 2 NEAR and NEAR left (none at L1, one
 * at L3, two at L5), into out[0..round4(n)), bits above r not cleared. */
static void rot_rest(const rot_src *src, uint64_t *w, uint64_t *out, uint32_t k) {
  const uint32_t n4 = round4(src->n), q = k >> 6;
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

/* One rotation; w is scratch of src->first words. */
static void rot_apply(const rot_src *src, uint64_t *w, uint64_t *out, uint32_t k) {
  stage2(w, src->base, src->first, src->top >> 1, k >> 6);
  rot_rest(src, w, out, k);
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

/* The counters add up to GROUP rotated copies at a time, kept in the
 * counters' work space (which upc_wipe clears): a carry-save tree of full
 * adders compresses the bits of a position to a 5-bit sum (v4 .. v0),
 * which enters slices 0 to 4 with full adders; one carry then ripples
 * through the rest. Sixteen rather than eight per group: one pass over the
 * counters per sixteen copies, and fewer half adders per copy. The first
 * group's sum is the count so far: it is stored, not added (fresh). */
#define GROUP 16
#define XOR3(a, b, c) _mm256_xor_si256(_mm256_xor_si256(a, b), c)
#define MAJ(a, b, c) _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(c, _mm256_xor_si256(a, b)))
/* Full adder: a + b + c = s + 2 cy. */
#define FA(s, cy, a, b, c)                      \
  do {                                          \
    const __m256i a_ = (a), b_ = (b), c_ = (c); \
    s = XOR3(a_, b_, c_);                       \
    cy = MAJ(a_, b_, c_);                       \
  } while (0)

static inline void add16(upc_counters *u, uint32_t j, uint32_t live, const uint64_t *rows,
                         size_t stride, int fresh) {
#define X(t) ld(rows + (t) * stride + j)
  __m256i s0, s1, s2, s3, s4, t0, t1, c0, c1, c2, c3, c4, c5, c6, c7;
  __m256i u0, u1, u2, d0, d1, d2, d3, w0, e0, e1, v[5];
  /* 11 full and 4 half adders. Weight 1: 16 bits to 6, to 2, to v0. */
  FA(s0, c0, X(0), X(1), X(2));
  FA(s1, c1, X(3), X(4), X(5));
  FA(s2, c2, X(6), X(7), X(8));
  FA(s3, c3, X(9), X(10), X(11));
  FA(s4, c4, X(12), X(13), X(14));
  FA(t0, c5, s0, s1, s2);
  FA(t1, c6, s3, s4, X(15));
#undef X
  v[0] = _mm256_xor_si256(t0, t1);
  c7 = _mm256_and_si256(t0, t1);
  /* Weight 2: c0 .. c7 to v1; weight 4: d0 .. d3 to v2; weight 8: e0, e1
   * to v3 and v4. */
  FA(u0, d0, c0, c1, c2);
  FA(u1, d1, c3, c4, c5);
  FA(u2, d2, c6, c7, u0);
  v[1] = _mm256_xor_si256(u1, u2);
  d3 = _mm256_and_si256(u1, u2);
  FA(w0, e0, d0, d1, d2);
  v[2] = _mm256_xor_si256(w0, d3);
  e1 = _mm256_and_si256(w0, d3);
  v[3] = _mm256_xor_si256(e0, e1);
  v[4] = _mm256_and_si256(e0, e1);
  if (fresh) {
    for (uint32_t b = 0; b < 5; b++) {
      st(u->slice[b] + j, v[b]);
    }
    return;
  }
  const __m256i x0 = ld(u->slice[0] + j);
  st(u->slice[0] + j, _mm256_xor_si256(x0, v[0]));
  __m256i carry = _mm256_and_si256(x0, v[0]);
  for (uint32_t b = 1; b < 5; b++) {
    const __m256i x = ld(u->slice[b] + j);
    st(u->slice[b] + j, XOR3(x, v[b], carry));
    carry = MAJ(x, v[b], carry);
  }
  for (uint32_t b = 5; b < live; b++) {
    const __m256i x = ld(u->slice[b] + j);
    st(u->slice[b] + j, _mm256_xor_si256(x, carry));
    carry = _mm256_and_si256(x, carry);
  }
}

void upc_count_avx2(const bike_params *p, upc_counters *u, const uint32_t *idx, uint32_t count,
                    const uint64_t *s) {
  rot_src src;
  const uint32_t n = p->r_qwords, n4 = round4(n);
  /* The work space that upc_wipe clears (25 R + 96 rows of 8 words for the
   * level's R) holds GROUP copies of R rows, then a || a, then the SHARE
   * rotations' work rows: with top < n <= 8 R, at most 3.5 R + 2 rows for
   * a || a and SHARE (1.5 R + 2) for the work, at most 22.5 R + 6. So
   * nothing of a count is left on the stack and all of it is wiped once, by
   * upc_wipe at the end of decoding. */
  const size_t stride = (size_t)(n + 7) / 8 * 8;
  uint64_t *const rows = u->scratch;
  rot_prepare(p, &src, rows + GROUP * stride, s);
  uint64_t *w[SHARE];
  for (uint32_t t = 0; t < SHARE; t++) {
    w[t] = src.base + src.used + t * src.first;
  }
  assert(src.base + src.used + SHARE * src.first <= u->scratch + UPC_SCRATCH_ROWS(stride / 8) * 8);
  static_assert(GROUP % SHARE == 0, "a group is whole shares");
  /* Words n to n4 - 1 of the counters: defined, unused. The first group
   * writes slices 0 to 4. */
  for (uint32_t b = count == 0 ? 0 : 5; b < UPC_SLICES; b++) {
    memset(u->slice[b], 0, n4 * sizeof(uint64_t));
  }
  /* Groups of whole shares, as equal in size as can be (71 copies are
   * 16 + 4 x 14, not 4 x 16 + 7): a group costs its copies' rotations and
   * GROUP rows of additions, whatever it holds. */
  const uint32_t shares = (count + SHARE - 1) / SHARE;
  const uint32_t groups = (shares + GROUP / SHARE - 1) / (GROUP / SHARE);
  uint32_t written = GROUP; /* rows that may hold data (an earlier call's) */
  for (uint32_t gi = 0, i = 0; gi < groups; gi++) {
    const uint32_t size = SHARE * (shares / groups + (gi < shares % groups ? 1 : 0));
    for (uint32_t t0 = 0; t0 < size; t0 += SHARE) {
      uint32_t q[SHARE]; /* copies past count rotate by 0, then are cleared */
      for (uint32_t t = 0; t < SHARE; t++) {
        q[t] = i + t0 + t < count ? idx[i + t0 + t] >> 6 : 0;
      }
      stage2_shared(w, src.base, src.first, src.top >> 1, q);
      for (uint32_t t = 0; t < SHARE; t++) {
        uint64_t *row = rows + (t0 + t) * stride;
        if (i + t0 + t < count) {
          /* Bits from r on are left as they come: they only reach
           * counters of positions from r on, which no reader uses. */
          rot_rest(&src, w[t], row, idx[i + t0 + t]);
        } else {
          memset(row, 0, n4 * sizeof(uint64_t));
        }
      }
    }
    /* Rows from size on add zero: clear those an earlier group wrote. */
    for (uint32_t t = size; t < written; t++) {
      memset(rows + t * stride, 0, n4 * sizeof(uint64_t));
    }
    written = size;
    i += size;
    uint32_t live = 5; /* slices that can be non-zero after this group */
    while (live < UPC_SLICES && ((i < count ? i : count) >> live) != 0) {
      live++;
    }
    if (gi == 0) {
      for (uint32_t j = 0; j < n4; j += 4) {
        add16(u, j, live, rows, stride, 1);
      }
    } else {
      for (uint32_t j = 0; j < n4; j += 4) {
        add16(u, j, live, rows, stride, 0);
      }
    }
  }
}

/* mask = (count >= th): the borrow out of count - th, slice by slice, is
 * set exactly where count < th. */
static inline uint64_t borrow64(uint64_t x, uint64_t t, uint64_t borrow) {
  return (~x & (t | borrow)) | (t & borrow);
}

void upc_at_least_avx2(const bike_params *p, uint64_t *mask, const upc_counters *u,
                       uint32_t th) {
  const uint32_t n = p->r_qwords, nv = n & ~3u;
  uint64_t th_bit[UPC_SLICES];
  __m256i t[UPC_SLICES];
  for (uint32_t b = 0; b < UPC_SLICES; b++) {
    th_bit[b] = (uint64_t)0 - ((th >> b) & 1);
    t[b] = _mm256_set1_epi64x((long long)th_bit[b]);
  }
  for (uint32_t j = 0; j < nv; j += 4) {
    __m256i borrow = _mm256_setzero_si256();
    for (uint32_t b = 0; b < UPC_SLICES; b++) {
      const __m256i x = ld(u->slice[b] + j);
      borrow = _mm256_or_si256(_mm256_andnot_si256(x, _mm256_or_si256(t[b], borrow)),
                               _mm256_and_si256(t[b], borrow));
    }
    st(mask + j, _mm256_xor_si256(borrow, _mm256_set1_epi64x(-1)));
  }
  for (uint32_t j = nv; j < n; j++) {
    uint64_t borrow = 0;
    for (uint32_t b = 0; b < UPC_SLICES; b++) {
      borrow = borrow64(u->slice[b][j], th_bit[b], borrow);
    }
    mask[j] = ~borrow;
  }
  mask[n - 1] &= ((uint64_t)1 << (p->r % 64)) - 1;
  bike_wipe(th_bit, sizeof(th_bit));
  bike_wipe(t, sizeof(t));
}
