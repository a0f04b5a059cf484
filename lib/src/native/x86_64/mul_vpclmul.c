/* Dense multiplication in R with 256-bit VPCLMULQDQ (AVX2 encoding): the
 * Karatsuba recursion of mul_karatsuba.h over 8 x 8-word leaves, each leaf
 * being three levels of Karatsuba whose 2 x 2-word products run two at a
 * time, one per 128-bit lane, and the ninth schoolbook across the lanes: 14
 * carry-less multiply instructions per leaf instead of 27. On Zen 4 these
 * instructions bound the product (about 2.7 TSC ticks each), not the
 * additions. */
#include <immintrin.h>
#include <string.h>

#include "native/backend.h"
#include "native/sym_bits.h"

static inline __m128i ld(const uint64_t *x) { return _mm_loadu_si128((const __m128i *)(const void *)x); }
static inline void st(uint64_t *x, __m128i v) { _mm_storeu_si128((__m128i *)(void *)x, v); }
static inline __m256i ld2(const uint64_t *x) { return _mm256_loadu_si256((const __m256i *)(const void *)x); }

/* Per lane: (lo, hi) = x * y, 128 x 128 -> 256 bits, three products. */
static inline void mul2x(__m256i *lo, __m256i *hi, __m256i x, __m256i y) {
  const __m256i l = _mm256_clmulepi64_epi128(x, y, 0x00);
  const __m256i h = _mm256_clmulepi64_epi128(x, y, 0x11);
  const __m256i xs = _mm256_xor_si256(x, _mm256_unpackhi_epi64(x, x));
  const __m256i ys = _mm256_xor_si256(y, _mm256_unpackhi_epi64(y, y));
  const __m256i m = _mm256_xor_si256(_mm256_clmulepi64_epi128(xs, ys, 0x00), _mm256_xor_si256(l, h));
  *lo = _mm256_xor_si256(l, _mm256_bslli_epi128(m, 8));
  *hi = _mm256_xor_si256(h, _mm256_bsrli_epi128(m, 8));
}

/* (lo, hi) = x * y for a single 128-bit pair, schoolbook across the two
 * lanes: x in both, y and y with its words swapped, so that two
 * instructions make x0 y0 | x0 y1 and x1 y1 | x1 y0 (Karatsuba would take
 * three, each with a lane idle). */
static inline void mul2(__m128i *lo, __m128i *hi, __m128i x, __m128i y) {
  const __m256i xx = _mm256_broadcastsi128_si256(x);
  const __m256i yy = _mm256_set_m128i(_mm_shuffle_epi32(y, 0x4e), y);
  const __m256i p0 = _mm256_clmulepi64_epi128(xx, yy, 0x00);
  const __m256i p1 = _mm256_clmulepi64_epi128(xx, yy, 0x11);
  const __m128i m = _mm_xor_si128(_mm256_extracti128_si256(p0, 1), _mm256_extracti128_si256(p1, 1));
  *lo = _mm_xor_si128(_mm256_castsi256_si128(p0), _mm_slli_si128(m, 8));
  *hi = _mm_xor_si128(_mm256_castsi256_si128(p1), _mm_srli_si128(m, 8));
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

static void mul8(uint64_t *c, const uint64_t *a, const uint64_t *b) {
  const __m256i al = ld2(a), ah = ld2(a + 4), bl = ld2(b), bh = ld2(b + 4);
  const __m256i am = _mm256_xor_si256(al, ah), bm = _mm256_xor_si256(bl, bh);
  __m256i llo, lhi, hlo, hhi, mlo, mhi, xlo, xhi;
  mul2x(&llo, &lhi, al, bl); /* lanes of the low 4 x 4 product */
  mul2x(&hlo, &hhi, ah, bh); /* of the high one */
  mul2x(&mlo, &mhi, am, bm); /* of the middle one */
  /* The middle 2 x 2 products of the low and high 4 x 4 products together,
   * the middle one's alone. */
  mul2x(&xlo, &xhi, _mm256_set_m128i(fold(ah), fold(al)), _mm256_set_m128i(fold(bh), fold(bl)));
  __m128i zlo, zhi;
  mul2(&zlo, &zhi, fold(am), fold(bm));
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

#define MUL_ENTRY bike_gf2x_mul_vpclmul
#define MUL_SYM_ENTRY bike_gf2x_mul_sym_vpclmul
#include "native/x86_64/mul_karatsuba.h"
