/* Dense multiplication in R with PCLMULQDQ: Karatsuba on multiples of four
 * words down to a 4 x 4-word product held in registers (itself two levels of
 * Karatsuba over 64 x 64 -> 128 carry-less products, 9 PCLMULQDQ), then the
 * reduction x^r = 1. Leaves are 8 x 8 words, also in registers. */
#include <assert.h>
#include <immintrin.h>
#include <string.h>

#include "native/backend.h"
#include "native/sym_bits.h"

static inline __m128i ld(const uint64_t *x) { return _mm_loadu_si128((const __m128i *)(const void *)x); }
static inline void st(uint64_t *x, __m128i v) { _mm_storeu_si128((__m128i *)(void *)x, v); }

/* (lo, hi) = x * y for 128-bit x, y: three products. */
static inline void mul2(__m128i *lo, __m128i *hi, __m128i x, __m128i y) {
  const __m128i l = _mm_clmulepi64_si128(x, y, 0x00);
  const __m128i h = _mm_clmulepi64_si128(x, y, 0x11);
  const __m128i xs = _mm_xor_si128(x, _mm_unpackhi_epi64(x, x));
  const __m128i ys = _mm_xor_si128(y, _mm_unpackhi_epi64(y, y));
  const __m128i m = _mm_xor_si128(_mm_clmulepi64_si128(xs, ys, 0x00), _mm_xor_si128(l, h));
  *lo = _mm_xor_si128(l, _mm_slli_si128(m, 8));
  *hi = _mm_xor_si128(h, _mm_srli_si128(m, 8));
}

/* r[0..4) = the 8 words of a[0..4) * b[0..4), as 128-bit pieces; a and b
 * given as 128-bit halves. */
static inline void mul4(__m128i r[4], __m128i a0, __m128i a1, __m128i b0, __m128i b1) {
  __m128i p0, p1, q0, q1, m0, m1;
  mul2(&p0, &p1, a0, b0);
  mul2(&q0, &q1, a1, b1);
  mul2(&m0, &m1, _mm_xor_si128(a0, a1), _mm_xor_si128(b0, b1));
  m0 = _mm_xor_si128(m0, _mm_xor_si128(p0, q0));
  m1 = _mm_xor_si128(m1, _mm_xor_si128(p1, q1));
  r[0] = p0;
  r[1] = _mm_xor_si128(p1, m0);
  r[2] = _mm_xor_si128(q0, m1);
  r[3] = q1;
}

/* The 128-bit pieces of a[0..8) * b[0..8) (one more Karatsuba level, in
 * registers) before they are combined: the low, high and middle 4 x 4-word
 * products. Linear from here on, so two leaves' pieces can be summed. */
static inline void mul8_pieces(__m128i lo[4], __m128i hi[4], __m128i mid[4], const uint64_t *a,
                               const uint64_t *b) {
  const __m128i a0 = ld(a), a1 = ld(a + 2), a2 = ld(a + 4), a3 = ld(a + 6);
  const __m128i b0 = ld(b), b1 = ld(b + 2), b2 = ld(b + 4), b3 = ld(b + 6);
  mul4(lo, a0, a1, b0, b1);
  mul4(hi, a2, a3, b2, b3);
  mul4(mid, _mm_xor_si128(a0, a2), _mm_xor_si128(a1, a3), _mm_xor_si128(b0, b2),
       _mm_xor_si128(b1, b3));
}

/* c[0..16) from the pieces. */
static inline void mul8_store(uint64_t *c, const __m128i lo[4], const __m128i hi[4], __m128i mid[4]) {
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

/* c[0..16) = a[0..8) * b[0..8). */
static void mul8(uint64_t *c, const uint64_t *a, const uint64_t *b) {
  __m128i lo[4], hi[4], mid[4];
  mul8_pieces(lo, hi, mid, a, b);
  mul8_store(c, lo, hi, mid);
}

/* c[0..16) = a0 b0 + a1 b1, the pieces summed before one combination. */
static void mul8_pair(uint64_t *c, const uint64_t *a0, const uint64_t *b0, const uint64_t *a1,
                      const uint64_t *b1) {
  __m128i lo[4], hi[4], mid[4], lo1[4], hi1[4], mid1[4];
  mul8_pieces(lo, hi, mid, a0, b0);
  mul8_pieces(lo1, hi1, mid1, a1, b1);
  for (int i = 0; i < 4; i++) {
    lo[i] = _mm_xor_si128(lo[i], lo1[i]);
    hi[i] = _mm_xor_si128(hi[i], hi1[i]);
    mid[i] = _mm_xor_si128(mid[i], mid1[i]);
  }
  mul8_store(c, lo, hi, mid);
}

#define MUL_ENTRY bike_gf2x_mul_pclmul
#define MUL_SYM_ENTRY bike_gf2x_mul_sym_pclmul
#define MUL_PAIR_ENTRY bike_gf2x_mul_pair_pclmul
#include "native/x86_64/mul_karatsuba.h"
