/* Dense multiplication in R with 512-bit VPCLMULQDQ. Top level (see
 * bike_gf2x_mul_plain_avx512 near the end, the product before the
 * reduction, which mul_sym_avx512.c also uses at half the length): the one
 * or two words above a multiple of 32 handled apart, the rest split three
 * ways (L1, L3) or five ways (L5) by the k-way Karatsuba formula; below
 * that, the Karatsuba recursion of mul_karatsuba.h (additions on 512-bit
 * vectors) down to 32 x 32-word leaves computed in registers.
 *
 * The leaves are built from 8 x 8-word products in which all four 128-bit
 * lanes of a are multiplied by one 128-bit piece of b broadcast to every
 * lane, so that the four lane products of piece j share the word offset 2j;
 * each 128 x 128-bit lane product takes three carry-less multiplications
 * (Karatsuba: a0 b0, a1 b1 and (a0 + a1)(b0 + b1), the last from the
 * operands (a0, a0 + a1) and (b0, b0 + b1) prepared once per vector). The
 * partial products are kept as components that still have to be shifted
 * by 2k or 2k + 1 words; since every step is linear, the 16 x 16 Karatsuba
 * combination adds components, and the shifts are done once per output
 * vector, each shift serving two neighbouring vectors (VALIGNQ). */
#include <immintrin.h>
#include <string.h>

#include "common/ct.h"
#include "native/backend.h"

/* a + b + c by VPTERNLOGQ; in the MemorySanitizer build (the constant-time
 * check) by two XORs, as it does not follow secrets through VPTERNLOGQ. */
static inline __m512i xor3(__m512i a, __m512i b, __m512i c) {
#if defined(BIKE_CT_MSAN)
  return _mm512_xor_si512(_mm512_xor_si512(a, b), c);
#else
  return _mm512_ternarylogic_epi64(a, b, c, 0x96);
#endif
}

/* Per lane, the 256-bit product of lane L of a and piece J of b (that piece
 * broadcast to every lane), at word 2L + 2J: low half x, high half y. */
static inline void piece(__m512i *x, __m512i *y, __m512i a, __m512i bj) {
  const __m512i ll = _mm512_clmulepi64_epi128(a, bj, 0x00);
  const __m512i hh = _mm512_clmulepi64_epi128(a, bj, 0x11);
  const __m512i m = _mm512_xor_si512(_mm512_clmulepi64_epi128(a, bj, 0x01),
                                     _mm512_clmulepi64_epi128(a, bj, 0x10));
  *x = _mm512_xor_si512(ll, _mm512_bslli_epi128(m, 8));
  *y = _mm512_xor_si512(hh, _mm512_bsrli_epi128(m, 8));
}

/* (x0, x0 + x1) in every lane (x0, x1). */
static inline __m512i with_sum(__m512i x) { return _mm512_xor_si512(x, _mm512_bslli_epi128(x, 8)); }

/* Piece j of x in every lane. */
#define PIECE(x, j) _mm512_shuffle_i64x2((x), (x), 0x55 * (j))

/* An 8 x 8-word product as components: the product is the sum over k of
 * e[k] shifted up 2k words and m[k] shifted up 2k + 1 words. */
typedef struct {
  __m512i e[5], m[4];
} comp8;

/* a * b, with b given as its pieces p[j] and the pieces q[j] of
 * with_sum(b). */
static inline __attribute__((always_inline)) void mul8_comp(comp8 *c, __m512i a,
                                                            const __m512i p[4],
                                                            const __m512i q[4]) {
  const __m512i as = with_sum(a);
  __m512i ll[4], hh[4];
  for (int j = 0; j < 4; j++) {
    ll[j] = _mm512_clmulepi64_epi128(a, p[j], 0x00);
    hh[j] = _mm512_clmulepi64_epi128(a, p[j], 0x11);
    /* the middle term (a0 + a1)(b0 + b1) + a0 b0 + a1 b1 */
    c->m[j] = xor3(_mm512_clmulepi64_epi128(as, q[j], 0x11), ll[j], hh[j]);
  }
  c->e[0] = ll[0];
  for (int k = 1; k < 4; k++) {
    c->e[k] = _mm512_xor_si512(ll[k], hh[k - 1]);
  }
  c->e[4] = hh[3];
}

/* r[0..4) = a[0..2) * b[0..2), 16 x 16 words (forced inline, like the
 * other parts of the leaf: GCC keeps them out of line at -O3, and the whole
 * leaf scheduled as one block is about 8 % faster): with L = a0 b0, H = a1 b1
 * and S = L + H + (a0 + a1)(b0 + b1), the product is L + S x^512 + H x^1024
 * (Karatsuba on whole vectors). */
static inline __attribute__((always_inline)) void mul16_zmm(__m512i r[4], const __m512i a[2],
                                                            const __m512i b[2]) {
  __m512i p0[4], p1[4], ps[4], q0[4], q1[4], qs[4];
  const __m512i b0s = with_sum(b[0]), b1s = with_sum(b[1]);
  p0[0] = PIECE(b[0], 0), p0[1] = PIECE(b[0], 1), p0[2] = PIECE(b[0], 2), p0[3] = PIECE(b[0], 3);
  p1[0] = PIECE(b[1], 0), p1[1] = PIECE(b[1], 1), p1[2] = PIECE(b[1], 2), p1[3] = PIECE(b[1], 3);
  q0[0] = PIECE(b0s, 0), q0[1] = PIECE(b0s, 1), q0[2] = PIECE(b0s, 2), q0[3] = PIECE(b0s, 3);
  q1[0] = PIECE(b1s, 0), q1[1] = PIECE(b1s, 1), q1[2] = PIECE(b1s, 2), q1[3] = PIECE(b1s, 3);
  for (int j = 0; j < 4; j++) { /* the pieces of b0 + b1, by linearity */
    ps[j] = _mm512_xor_si512(p0[j], p1[j]);
    qs[j] = _mm512_xor_si512(q0[j], q1[j]);
  }
  comp8 l, h, s;
  mul8_comp(&l, a[0], p0, q0);
  mul8_comp(&h, a[1], p1, q1);
  mul8_comp(&s, _mm512_xor_si512(a[0], a[1]), ps, qs);
  for (int k = 0; k < 5; k++) {
    s.e[k] = xor3(s.e[k], l.e[k], h.e[k]);
  }
  for (int k = 0; k < 4; k++) {
    s.m[k] = xor3(s.m[k], l.m[k], h.m[k]);
  }
  /* The components of output vector v (e[4] of one product is e[0] of the
   * next vector up), then the shifts: VALIGNQ(x_v, x_(v-1), 8 - t) is x
   * shifted up t words across the boundary of vectors v - 1 and v. */
  const __m512i z = _mm512_setzero_si512();
  __m512i e[5][4], m[5][4];
  for (int k = 0; k < 4; k++) {
    e[0][k] = z, e[1][k] = l.e[k], e[2][k] = s.e[k], e[3][k] = h.e[k], e[4][k] = z;
    m[0][k] = z, m[1][k] = l.m[k], m[2][k] = s.m[k], m[3][k] = h.m[k], m[4][k] = z;
  }
  e[2][0] = _mm512_xor_si512(e[2][0], l.e[4]);
  e[3][0] = _mm512_xor_si512(e[3][0], s.e[4]);
  e[4][0] = h.e[4];
  for (int v = 1; v <= 4; v++) { /* row v is output vector v - 1; row 0 is zero */
    __m512i x = xor3(e[v][0], _mm512_alignr_epi64(e[v][1], e[v - 1][1], 6),
                     _mm512_alignr_epi64(e[v][2], e[v - 1][2], 4));
    x = xor3(x, _mm512_alignr_epi64(e[v][3], e[v - 1][3], 2),
             _mm512_alignr_epi64(m[v][0], m[v - 1][0], 7));
    x = xor3(x, _mm512_alignr_epi64(m[v][1], m[v - 1][1], 5),
             _mm512_alignr_epi64(m[v][2], m[v - 1][2], 3));
    r[v - 1] = _mm512_xor_si512(x, _mm512_alignr_epi64(m[v][3], m[v - 1][3], 1));
  }
}

/* r[0..8) = a[0..4) * b[0..4), 32 x 32 words. */
static inline __attribute__((always_inline)) void mul32_zmm(__m512i r[8], const __m512i a[4],
                                                            const __m512i b[4]) {
  __m512i l[4], h[4], m[4];
  const __m512i as[2] = {_mm512_xor_si512(a[0], a[2]), _mm512_xor_si512(a[1], a[3])};
  const __m512i bs[2] = {_mm512_xor_si512(b[0], b[2]), _mm512_xor_si512(b[1], b[3])};
  mul16_zmm(l, a, b);
  mul16_zmm(h, a + 2, b + 2);
  mul16_zmm(m, as, bs);
  for (int i = 0; i < 2; i++) {
    const __m512i t = _mm512_xor_si512(l[2 + i], h[i]);
    r[i] = l[i];
    r[2 + i] = xor3(t, m[i], l[i]);
    r[4 + i] = xor3(t, m[2 + i], h[2 + i]);
    r[6 + i] = h[2 + i];
  }
}

/* Leaves of 32 x 32 words, in registers. */
#define LEAF 32
static void mul_leaf(uint64_t *c, const uint64_t *a, const uint64_t *b) {
  __m512i va[4], vb[4], r[8];
  for (int i = 0; i < 4; i++) {
    va[i] = _mm512_loadu_si512(a + 8 * i);
    vb[i] = _mm512_loadu_si512(b + 8 * i);
  }
  mul32_zmm(r, va, vb);
  for (int i = 0; i < 8; i++) {
    _mm512_storeu_si512(c + 8 * i, r[i]);
  }
}

/* The recursion, and (for other lengths) the padded kernel. */
#define BASE LEAF
#define MUL_BASE mul_leaf
#define MUL_ENTRY bike_gf2x_mul_avx512_padded
#include "native/x86_64/mul_karatsuba.h"

/* c (6 s words) = a * b (3 s words each) by the three-way Karatsuba
 * formula: with a = a0 + a1 X + a2 X^2 (X = x^(64 s)), and likewise b,
 * from the six products P_ij = (a_i + a_j)(b_i + b_j) and P_i = a_i b_i:
 * a b = P0 + (P01 + P0 + P1) X + (P02 + P0 + P1 + P2) X^2
 *     + (P12 + P1 + P2) X^3 + P2 X^4.
 * Six products of a third instead of the three of a half that each split
 * again: at 192 = 3 x 64 words 18 leaves instead of 21, at 384 = 3 x 128
 * 54 instead of 63. tmp needs 18 s words plus the recursion's 4 s. */
static void mul_karatsuba3(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t s,
                           uint64_t *tmp) {
  uint64_t *sum = tmp;           /* a0 + a1, a0 + a2, a1 + a2, then the same of b */
  uint64_t *prod = tmp + 6 * s;  /* P0, P1, P2, P01, P02, P12: 2 s words each */
  uint64_t *deeper = tmp + 18 * s;
  for (size_t i = 0; i < s; i += 8) {
    const __m512i a0 = _mm512_loadu_si512(a + i), a1 = _mm512_loadu_si512(a + s + i);
    const __m512i a2 = _mm512_loadu_si512(a + 2 * s + i);
    const __m512i b0 = _mm512_loadu_si512(b + i), b1 = _mm512_loadu_si512(b + s + i);
    const __m512i b2 = _mm512_loadu_si512(b + 2 * s + i);
    _mm512_storeu_si512(sum + i, _mm512_xor_si512(a0, a1));
    _mm512_storeu_si512(sum + s + i, _mm512_xor_si512(a0, a2));
    _mm512_storeu_si512(sum + 2 * s + i, _mm512_xor_si512(a1, a2));
    _mm512_storeu_si512(sum + 3 * s + i, _mm512_xor_si512(b0, b1));
    _mm512_storeu_si512(sum + 4 * s + i, _mm512_xor_si512(b0, b2));
    _mm512_storeu_si512(sum + 5 * s + i, _mm512_xor_si512(b1, b2));
  }
  for (size_t k = 0; k < 3; k++) {
    mul_karatsuba(prod + 2 * s * k, a + s * k, b + s * k, s, deeper);
    mul_karatsuba(prod + 2 * s * (3 + k), sum + s * k, sum + s * (3 + k), s, deeper);
  }
  /* Block j (s words) of the result, from the low (l) and high (h) halves
   * of the products. */
  const uint64_t *p0 = prod, *p1 = prod + 2 * s, *p2 = prod + 4 * s;
  const uint64_t *p01 = prod + 6 * s, *p02 = prod + 8 * s, *p12 = prod + 10 * s;
  for (size_t i = 0; i < s; i += 8) {
#define LD(x, half) _mm512_loadu_si512((x) + (half) * s + i)
    const __m512i p0l = LD(p0, 0), p0h = LD(p0, 1), p1l = LD(p1, 0), p1h = LD(p1, 1);
    const __m512i p2l = LD(p2, 0), p2h = LD(p2, 1);
    const __m512i q1 = xor3(p0h, p0l, p1l);   /* block 1 less P01.l */
    const __m512i q4 = xor3(p1h, p2h, p2l);   /* block 4 less P12.h */
    const __m512i q2 = xor3(p0h, p1h, p1l);   /* with p0l and p2l below */
    const __m512i q3 = xor3(p0h, p1h, p2h);   /* with p1l and p2l below */
    _mm512_storeu_si512(c + i, p0l);
    _mm512_storeu_si512(c + s + i, _mm512_xor_si512(q1, LD(p01, 0)));
    _mm512_storeu_si512(c + 2 * s + i,
                        xor3(xor3(q2, p0l, p2l), LD(p01, 1), LD(p02, 0)));
    _mm512_storeu_si512(c + 3 * s + i,
                        xor3(xor3(q3, p1l, p2l), LD(p02, 1), LD(p12, 0)));
    _mm512_storeu_si512(c + 4 * s + i, _mm512_xor_si512(q4, LD(p12, 1)));
    _mm512_storeu_si512(c + 5 * s + i, p2h);
#undef LD
  }
}

/* c (2 k s words) = a * b (k s words each, k parts of s words) by the
 * k-way Karatsuba formula: with P_i = a_i b_i and P_ij = (a_i + a_j)(b_i +
 * b_j), a b = sum_i P_i X^(2i) + sum_(i<j) (P_ij + P_i + P_j) X^(i+j).
 * k (k + 1) / 2 products of s words; at 640 = 5 x 128 words 135 leaves
 * instead of 153. Each product is added where it belongs as soon as it is
 * made, so tmp needs only 8 s words. */
static void xor_into(uint64_t *c, const uint64_t *x, size_t words) {
  for (size_t i = 0; i < words; i += 8) {
    const __m512i v = _mm512_xor_si512(_mm512_loadu_si512(c + i), _mm512_loadu_si512(x + i));
    _mm512_storeu_si512(c + i, v);
  }
}

static void mul_karatsuba_k(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t s,
                            size_t k, uint64_t *tmp) {
  uint64_t *sa = tmp, *sb = tmp + s, *prod = tmp + 2 * s, *deeper = tmp + 4 * s;
  memset(c, 0, 2 * k * s * sizeof(uint64_t));
  for (size_t i = 0; i < k; i++) {
    mul_karatsuba(prod, a + i * s, b + i * s, s, deeper);
    for (size_t j = 0; j < k; j++) { /* at X^(2i), and for every pair (i, j) */
      xor_into(c + (i + j) * s, prod, 2 * s);
    }
  }
  for (size_t i = 0; i < k; i++) {
    for (size_t j = i + 1; j < k; j++) {
      for (size_t w = 0; w < s; w += 8) {
        _mm512_storeu_si512(sa + w, _mm512_xor_si512(_mm512_loadu_si512(a + i * s + w),
                                                     _mm512_loadu_si512(a + j * s + w)));
        _mm512_storeu_si512(sb + w, _mm512_xor_si512(_mm512_loadu_si512(b + i * s + w),
                                                     _mm512_loadu_si512(b + j * s + w)));
      }
      mul_karatsuba(prod, sa, sb, s, deeper);
      xor_into(c + (i + j) * s, prod, 2 * s);
    }
  }
}

/* prod[0, 2 n + 16) = a * b, not reduced (zero from word 2 n on), for n = 32
 * u + e words, u >= 1, e <= 2; returns the words of tmp used.
 * At every level n = 32 u + e with e <= 2 (193 = 192 + 1, 386 = 384 + 2,
 * 641 = 640 + 1; the halves that mul_sym_avx512.c multiplies are 97, 193
 * and 321 words): rather than pad n up to a multiple of 32 (one more leaf
 * per 32 words at each recursion level), write a = A + a_e X and b = B +
 * b_e X with X = x^(64 m), m = 32 u, so that a b = A B + (a_e B + b_e A) X +
 * a_e b_e X^2, where a_e and b_e are single 128-bit pieces. */

size_t bike_gf2x_mul_plain_avx512(uint64_t *prod, const uint64_t *a, const uint64_t *b,
                                  size_t n, uint64_t *tmp) {
  const size_t m = n / LEAF * LEAF, e = n - m;
  /* tmp: the Karatsuba levels' 22 m / 3, 8 m / 5 or 4 m + 256 words. */
  const int three = m % (3 * LEAF) == 0, five = m % (5 * 2 * LEAF) == 0;
  if (three) { /* L1 and L3, and the halves of L1 and L3 */
    mul_karatsuba3(prod, a, b, m / 3, tmp);
  } else if (five) { /* L5 and its half */
    mul_karatsuba_k(prod, a, b, m / 5, 5, tmp);
  } else {
    mul_karatsuba(prod, a, b, m, tmp);
  }
  memset(prod + 2 * m, 0, (2 * n + 16 - 2 * m) * sizeof(uint64_t));
  /* a_e B + b_e A, a block of 8 words at a time: each block's lane products
   * (piece()) leave their high halves one lane up, into the next block. */
  const long long a0 = e > 0 ? (long long)a[m] : 0, b0 = e > 0 ? (long long)b[m] : 0;
  const long long a1 = e > 1 ? (long long)a[m + 1] : 0, b1 = e > 1 ? (long long)b[m + 1] : 0;
  const __m512i ae = _mm512_broadcast_i32x4(_mm_set_epi64x(a1, a0));
  const __m512i be = _mm512_broadcast_i32x4(_mm_set_epi64x(b1, b0));
  __m512i carry = _mm512_setzero_si512();
  for (size_t i = 0; i < m; i += 8) {
    const __m512i va = _mm512_loadu_si512(a + i), vb = _mm512_loadu_si512(b + i);
    __m512i x, y;
    if (e == 1) { /* single words: the products of the even and odd words */
      const __m512i even = _mm512_xor_si512(_mm512_clmulepi64_epi128(vb, ae, 0x00),
                                            _mm512_clmulepi64_epi128(va, be, 0x00));
      const __m512i odd = _mm512_xor_si512(_mm512_clmulepi64_epi128(vb, ae, 0x01),
                                           _mm512_clmulepi64_epi128(va, be, 0x01));
      x = _mm512_xor_si512(even, _mm512_bslli_epi128(odd, 8));
      y = _mm512_bsrli_epi128(odd, 8);
    } else {
      __m512i x0, y0, x1, y1;
      piece(&x0, &y0, vb, ae);
      piece(&x1, &y1, va, be);
      x = _mm512_xor_si512(x0, x1);
      y = _mm512_xor_si512(y0, y1);
    }
    const __m512i t = _mm512_xor_si512(x, _mm512_alignr_epi64(y, carry, 6));
    _mm512_storeu_si512(prod + m + i, _mm512_xor_si512(_mm512_loadu_si512(prod + m + i), t));
    carry = y;
  }
  /* The last carry (two words) and a_e b_e, both from word 2 m on. */
  __m512i x2, y2;
  piece(&x2, &y2, _mm512_zextsi128_si512(_mm512_castsi512_si128(ae)), be);
  const __m512i zero = _mm512_setzero_si512();
  const __m512i top =
      xor3(_mm512_alignr_epi64(zero, carry, 6), x2, _mm512_alignr_epi64(y2, zero, 6));
  _mm512_storeu_si512(prod + 2 * m, _mm512_xor_si512(_mm512_loadu_si512(prod + 2 * m), top));
  return three ? 22 * (m / 3) : five ? 8 * (m / 5) : 4 * m + 256;
}

size_t bike_gf2x_mul_avx512(const bike_params *p, uint64_t *c, const uint64_t *a,
                            const uint64_t *b, uint64_t *scratch) {
  const size_t n = p->r_qwords;
  if (!bike_gf2x_mul_plain_avx512_takes(n)) {
    return bike_gf2x_mul_avx512_padded(p, c, a, b, scratch);
  }
  uint64_t *prod = scratch;
  const size_t used = bike_gf2x_mul_plain_avx512(prod, a, b, n, scratch + 2 * n + 16);
  /* c_i = prod_i + (prod >> r)_i: a funnel shift by r % 64 of the words
   * from r / 64 on. */
  const uint32_t ws = p->r / 64, bs = p->r % 64;
  const __m512i vbs = _mm512_set1_epi64(bs);
  for (size_t i = 0; i < n; i += 8) {
    const __m512i lo = _mm512_loadu_si512(prod + ws + i);
    const __m512i hi = _mm512_loadu_si512(prod + ws + i + 1);
    const __m512i v =
        _mm512_xor_si512(_mm512_loadu_si512(prod + i), _mm512_shrdv_epi64(lo, hi, vbs));
    const __mmask8 live = (__mmask8)(n - i >= 8 ? 0xff : (1u << (n - i)) - 1);
    _mm512_mask_storeu_epi64(c + i, live, v);
  }
  c[n - 1] &= ((uint64_t)1 << bs) - 1;
  return 2 * n + 16 + used;
}
