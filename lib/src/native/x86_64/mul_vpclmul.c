/* Dense multiplication in R with 256-bit VPCLMULQDQ (AVX2 encoding): the
 * Karatsuba recursion of mul_karatsuba.h over 8 x 8-word leaves, each leaf
 * being three levels of Karatsuba whose 2 x 2-word products run two at a
 * time, one per 128-bit lane, and the ninth schoolbook across the lanes: 14
 * carry-less multiply instructions per leaf instead of 27. On Zen 4 a leaf
 * takes about 26 TSC ticks, bound by those instructions (1.9 ticks each);
 * the additions and calls of the recursion above the leaves took about a
 * third of a product, hence the last two two-way levels inline and sums of
 * two products (mul8_pair, mul_pair) combined once (mul_karatsuba.h). */
#include <assert.h>
#include <immintrin.h>
#include <string.h>

#include "native/backend.h"
#include "native/sym_bits.h"

static inline __m128i ld(const uint64_t *x) { return _mm_loadu_si128((const __m128i *)(const void *)x); }
static inline void st(uint64_t *x, __m128i v) { _mm_storeu_si128((__m128i *)(void *)x, v); }
static inline __m256i ld2(const uint64_t *x) { return _mm256_loadu_si256((const __m256i *)(const void *)x); }

/* Per lane, x * y (128 x 128 -> 256 bits) as its three carry-less
 * products before they are combined: t = (x0 y0, x1 y1, (x0 + x1)(y0 + y1)).
 * Everything after the products is linear, so the terms of several
 * products can be summed first and combined once (mul8_sum). */
static inline void mul2x_terms(__m256i t[3], __m256i x, __m256i y) {
  const __m256i xs = _mm256_xor_si256(x, _mm256_unpackhi_epi64(x, x));
  const __m256i ys = _mm256_xor_si256(y, _mm256_unpackhi_epi64(y, y));
  t[0] = _mm256_clmulepi64_epi128(x, y, 0x00);
  t[1] = _mm256_clmulepi64_epi128(x, y, 0x11);
  t[2] = _mm256_clmulepi64_epi128(xs, ys, 0x00);
}

/* (lo, hi) per lane from the (summed) terms of mul2x_terms. */
static inline void mul2x_finish(__m256i *lo, __m256i *hi, const __m256i t[3]) {
  const __m256i m = _mm256_xor_si256(t[2], _mm256_xor_si256(t[0], t[1]));
  *lo = _mm256_xor_si256(t[0], _mm256_bslli_epi128(m, 8));
  *hi = _mm256_xor_si256(t[1], _mm256_bsrli_epi128(m, 8));
}

/* x * y for a single 128-bit pair, schoolbook across the two lanes: x in
 * both, y and y with its words swapped, so that two instructions make
 * t = (x0 y0 | x0 y1, x1 y1 | x1 y0) (Karatsuba would take three, each with
 * a lane idle); mul2_finish combines them. */
static inline void mul2_terms(__m256i t[2], __m128i x, __m128i y) {
  const __m256i xx = _mm256_broadcastsi128_si256(x);
  const __m256i yy = _mm256_set_m128i(_mm_shuffle_epi32(y, 0x4e), y);
  t[0] = _mm256_clmulepi64_epi128(xx, yy, 0x00);
  t[1] = _mm256_clmulepi64_epi128(xx, yy, 0x11);
}

static inline void mul2_finish(__m128i *lo, __m128i *hi, const __m256i t[2]) {
  const __m128i m = _mm_xor_si128(_mm256_extracti128_si256(t[0], 1), _mm256_extracti128_si256(t[1], 1));
  *lo = _mm_xor_si128(_mm256_castsi256_si128(t[0]), _mm_slli_si128(m, 8));
  *hi = _mm_xor_si128(_mm256_castsi256_si128(t[1]), _mm_srli_si128(m, 8));
}

static inline __m128i lane0(__m256i v) { return _mm256_castsi256_si128(v); }
static inline __m128i lane1(__m256i v) { return _mm256_extracti128_si256(v, 1); }
static inline __m128i fold(__m256i v) { return _mm_xor_si128(lane0(v), lane1(v)); }

/* r[0..4) = the 8 words of x * y for 4-word x = [x0 | x1], given the lane
 * products (plo, phi) = [x0 y0 | x1 y1] and the middle product (mlo, mhi) =
 * (x0 + x1)(y0 + y1). */
static inline void combine4(__m128i r[4], __m256i plo, __m256i phi, __m128i mlo, __m128i mhi) {
  const __m128i p0 = lane0(plo), p1 = lane0(phi), q0 = lane1(plo), q1 = lane1(phi);
  mlo = _mm_xor_si128(mlo, _mm_xor_si128(p0, q0));
  mhi = _mm_xor_si128(mhi, _mm_xor_si128(p1, q1));
  r[0] = p0;
  r[1] = _mm_xor_si128(p1, mlo);
  r[2] = _mm_xor_si128(q0, mhi);
  r[3] = q1;
}

static inline void add_terms(__m256i *t, const __m256i *u, int k) {
  for (int i = 0; i < k; i++) {
    t[i] = _mm256_xor_si256(t[i], u[i]);
  }
}

/* c[0..16) = the sum of a[j] * b[j] over j < np (8 words each; np = 1 or
 * 2): the carry-less products of every pair, their terms summed, then one
 * combination. */
static inline __attribute__((always_inline)) void mul8_sum(uint64_t *c, const uint64_t *const *a,
                                                          const uint64_t *const *b, const int np) {
  __m256i tl[3], th[3], tm[3], tx[3], tz[2], u[3];
  for (int j = 0; j < np; j++) {
    const __m256i al = ld2(a[j]), ah = ld2(a[j] + 4), bl = ld2(b[j]), bh = ld2(b[j] + 4);
    const __m256i am = _mm256_xor_si256(al, ah), bm = _mm256_xor_si256(bl, bh);
    /* The lanes of the low 4 x 4 product, of the high one, of the middle
     * one; the middle 2 x 2 products of the low and high 4 x 4 products
     * together, the middle one's alone. */
    mul2x_terms(j ? u : tl, al, bl);
    if (j) add_terms(tl, u, 3);
    mul2x_terms(j ? u : th, ah, bh);
    if (j) add_terms(th, u, 3);
    mul2x_terms(j ? u : tm, am, bm);
    if (j) add_terms(tm, u, 3);
    mul2x_terms(j ? u : tx, _mm256_set_m128i(fold(ah), fold(al)), _mm256_set_m128i(fold(bh), fold(bl)));
    if (j) add_terms(tx, u, 3);
    mul2_terms(j ? u : tz, fold(am), fold(bm));
    if (j) add_terms(tz, u, 2);
  }
  __m256i llo, lhi, hlo, hhi, mlo, mhi, xlo, xhi;
  mul2x_finish(&llo, &lhi, tl);
  mul2x_finish(&hlo, &hhi, th);
  mul2x_finish(&mlo, &mhi, tm);
  mul2x_finish(&xlo, &xhi, tx);
  __m128i zlo, zhi;
  mul2_finish(&zlo, &zhi, tz);
  __m128i lo[4], hi[4], mid[4];
  combine4(lo, llo, lhi, lane0(xlo), lane0(xhi));
  combine4(hi, hlo, hhi, lane1(xlo), lane1(xhi));
  combine4(mid, mlo, mhi, zlo, zhi);
  for (int i = 0; i < 4; i++) {
    mid[i] = _mm_xor_si128(mid[i], _mm_xor_si128(lo[i], hi[i]));
  }
  st(c, lo[0]);
  st(c + 2, lo[1]);
  st(c + 4, _mm_xor_si128(lo[2], mid[0]));
  st(c + 6, _mm_xor_si128(lo[3], mid[1]));
  st(c + 8, _mm_xor_si128(hi[0], mid[2]));
  st(c + 10, _mm_xor_si128(hi[1], mid[3]));
  st(c + 12, hi[2]);
  st(c + 14, hi[3]);
}

static void mul8(uint64_t *c, const uint64_t *a, const uint64_t *b) { mul8_sum(c, &a, &b, 1); }

static void mul8_pair(uint64_t *c, const uint64_t *a0, const uint64_t *b0, const uint64_t *a1,
                      const uint64_t *b1) {
  const uint64_t *const a[2] = {a0, a1}, *const b[2] = {b0, b1};
  mul8_sum(c, a, b, 2);
}

#define MUL_ENTRY bike_gf2x_mul_vpclmul
#define MUL_SYM_ENTRY bike_gf2x_mul_sym_vpclmul
#define MUL_PAIR_ENTRY bike_gf2x_mul_pair_vpclmul
#include "native/x86_64/mul_karatsuba.h"
