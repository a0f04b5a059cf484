/* Dense multiplication in R = GF(2)[x]/(x^r - 1): Karatsuba over 64-bit
 * carry-less products, then the reduction x^r = 1. */
#include <string.h>

#include "bike/ops.h"
#include "native/backend.h"

/* Carry-less 32 x 32 -> 64 with integer multiplications: split each operand
 * into four classes of bits (positions i mod 4) so that a column of one
 * integer product sums at most 8 ones and its carries stay inside the gap
 * before the next bit of the same class. */
static uint64_t clmul32(uint32_t x, uint32_t y) {
  const uint64_t m0 = 0x1111111111111111ULL;
  uint64_t x0 = x & (uint32_t)m0, x1 = x & (uint32_t)(m0 << 1);
  uint64_t x2 = x & (uint32_t)(m0 << 2), x3 = x & (uint32_t)(m0 << 3);
  uint64_t y0 = y & (uint32_t)m0, y1 = y & (uint32_t)(m0 << 1);
  uint64_t y2 = y & (uint32_t)(m0 << 2), y3 = y & (uint32_t)(m0 << 3);
  uint64_t z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
  uint64_t z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
  uint64_t z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
  uint64_t z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
  return (z0 & m0) | (z1 & (m0 << 1)) | (z2 & (m0 << 2)) | (z3 & (m0 << 3));
}

/* 64 x 64 -> 128 by one Karatsuba step on 32-bit halves. */
static void clmul64(uint64_t out[2], uint64_t a, uint64_t b) {
  uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
  uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
  uint64_t lo = clmul32(a0, b0);
  uint64_t hi = clmul32(a1, b1);
  uint64_t mid = clmul32(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
  out[0] = lo ^ (mid << 32);
  out[1] = hi ^ (mid >> 32);
}

#define SCHOOLBOOK_WORDS 8

static void mul_schoolbook(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t n) {
  memset(c, 0, 2 * n * sizeof(uint64_t));
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < n; j++) {
      uint64_t t[2];
      clmul64(t, a[i], b[j]);
      c[i + j] ^= t[0];
      c[i + j + 1] ^= t[1];
    }
  }
}

/* c (2n words) = a * b (n words each). The low half has h = ceil(n/2) words,
 * the high half l = n - h; tmp needs scratch_words(n) words. */
static void mul_karatsuba(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t n,
                          uint64_t *tmp) {
  if (n <= SCHOOLBOOK_WORDS) {
    mul_schoolbook(c, a, b, n);
    return;
  }
  size_t h = (n + 1) / 2;
  size_t l = n - h;
  uint64_t *sa = tmp;
  uint64_t *sb = tmp + h;
  uint64_t *mid = tmp + 2 * h;

  mul_karatsuba(c, a, b, h, tmp);
  mul_karatsuba(c + 2 * h, a + h, b + h, l, tmp);
  for (size_t i = 0; i < h; i++) {
    sa[i] = a[i] ^ (i < l ? a[h + i] : 0);
    sb[i] = b[i] ^ (i < l ? b[h + i] : 0);
  }
  mul_karatsuba(mid, sa, sb, h, tmp + 4 * h);
  for (size_t i = 0; i < 2 * h; i++) {
    mid[i] ^= c[i] ^ (i < 2 * l ? c[2 * h + i] : 0);
  }
  for (size_t i = 0; i < 2 * h; i++) {
    c[h + i] ^= mid[i];
  }
}

size_t bike_gf2x_mul_c(const bike_params *p, uint64_t *c, const uint64_t *a, const uint64_t *b,
                       uint64_t *scratch) {
  const size_t n = p->r_qwords;
  uint64_t *prod = scratch;        /* 2n words */
  uint64_t *tmp = scratch + 2 * n; /* the recursion's 4h words per level: under 4n + 64 */
  mul_karatsuba(prod, a, b, n, tmp);

  /* c_i = prod_i + prod_(i+r): fold the high part down by r bits. */
  const uint32_t ws = p->r / 64, bs = p->r % 64;
  for (size_t i = 0; i < n; i++) {
    uint64_t high = (prod[i + ws] >> bs) | (prod[i + ws + 1] << (64 - bs));
    c[i] = prod[i] ^ high;
  }
  c[n - 1] &= ((uint64_t)1 << bs) - 1;
  return 6 * n + 64;
}
