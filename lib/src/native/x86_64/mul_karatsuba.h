/* The Karatsuba recursion and the reduction shared by the x86-64
 * multiplication kernels. Included by a kernel file after it has defined
 *   static void mul8(uint64_t *c, const uint64_t *a, const uint64_t *b);
 * (c[0..16) = a[0..8) * b[0..8)) and MUL_ENTRY, the name of the kernel; the
 * code is then compiled with that file's instruction-set flags. With
 * MUL_PAIR_ENTRY also defined, and
 *   static void mul8_pair(uint64_t *c, const uint64_t *a0, const uint64_t *b0,
 *                         const uint64_t *a1, const uint64_t *b1);
 * (c[0..16) = a0 b0 + a1 b1), it also defines the mul_pair kernel. */
#ifndef MUL_ENTRY
#error "define MUL_ENTRY and mul8 before including mul_karatsuba.h"
#endif

/* A kernel file may instead define BASE (a multiple of 8 words) and
 * MUL_BASE, its c[0..2 BASE) = a[0..BASE) * b[0..BASE). */
#ifndef BASE
#define BASE 8
#define MUL_BASE mul8
#endif

/* The additions run on the widest vectors the including file may use. */
#if defined(__AVX512F__)
typedef __m512i kvec;
#define KW 8
static inline kvec kld(const uint64_t *x) { return _mm512_loadu_si512(x); }
static inline void kst(uint64_t *x, kvec v) { _mm512_storeu_si512(x, v); }
static inline kvec kxor(kvec a, kvec b) { return _mm512_xor_si512(a, b); }
#elif defined(__AVX2__)
typedef __m256i kvec;
#define KW 4
static inline kvec kld(const uint64_t *x) { return _mm256_loadu_si256((const __m256i *)(const void *)x); }
static inline void kst(uint64_t *x, kvec v) { _mm256_storeu_si256((__m256i *)(void *)x, v); }
static inline kvec kxor(kvec a, kvec b) { return _mm256_xor_si256(a, b); }
#else
typedef __m128i kvec;
#define KW 2
static inline kvec kld(const uint64_t *x) { return _mm_loadu_si128((const __m128i *)(const void *)x); }
static inline void kst(uint64_t *x, kvec v) { _mm_storeu_si128((__m128i *)(void *)x, v); }
static inline kvec kxor(kvec a, kvec b) { return _mm_xor_si128(a, b); }
#endif

static size_t mul_karatsuba(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t n,
                            uint64_t *tmp);

/* dst[0, w) = x + y (w a multiple of 8). */
static inline void part_sum(uint64_t *dst, const uint64_t *x, const uint64_t *y, size_t w) {
  for (size_t i = 0; i < w; i += KW) {
    kst(dst + i, kxor(kld(x + i), kld(y + i)));
  }
}

/* dst[0, w) ^= x[0, w). */
static inline void add_into(uint64_t *dst, const uint64_t *x, size_t w) {
  for (size_t i = 0; i < w; i += KW) {
    kst(dst + i, kxor(kld(dst + i), kld(x + i)));
  }
}

/* The three-way formula's fixed part: c holds P0, P1, P2 as blocks l0 h0 l1
 * h1 l2 h2 (s words each); their share of blocks 1 to 4, every block from
 * the old values. The middle products P_ij then add at block i + j. */
static inline void three_spread(uint64_t *c, size_t s) {
  for (size_t i = 0; i < s; i += KW) {
    const kvec l0 = kld(c + i), h0 = kld(c + s + i), l1 = kld(c + 2 * s + i);
    const kvec h1 = kld(c + 3 * s + i), l2 = kld(c + 4 * s + i), h2 = kld(c + 5 * s + i);
    const kvec h01 = kxor(h0, h1), l12 = kxor(l1, l2);
    kst(c + s + i, kxor(h0, kxor(l0, l1)));
    kst(c + 2 * s + i, kxor(kxor(h01, l0), l12));
    kst(c + 3 * s + i, kxor(kxor(h01, h2), l12));
    kst(c + 4 * s + i, kxor(kxor(h1, h2), l2));
  }
}
static const unsigned char three_pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};

/* The two-way split's operand: sa[0, h) = a[0, h) + a[h, n) (l = n - h
 * words, zero beyond). */
static inline void half_sum(uint64_t *sa, const uint64_t *a, size_t h, size_t l) {
  part_sum(sa, a, a + h, l);
  for (size_t i = l; i < h; i += KW) {
    kst(sa + i, kld(a + i));
  }
}

/* The two-way combination in one pass: with P0 = c[0, 2h), P2 = c[2h, 2n)
 * (2l words, zero beyond), c[h, 3h) ^= mid ^ P0 ^ P2. Word i of the low
 * half and h + i of the high half of that window are updated together from
 * their old values. */
static inline void two_combine(uint64_t *c, const uint64_t *mid, size_t h, size_t l) {
  const size_t split = 2 * l - h; /* i < split: P2 has a word at 3h + i */
  for (size_t i = 0; i < split; i += KW) {
    const kvec x0 = kld(c + i), x1 = kld(c + h + i), x2 = kld(c + 2 * h + i);
    const kvec x3 = kld(c + 3 * h + i);
    kst(c + h + i, kxor(kxor(x1, kld(mid + i)), kxor(x0, x2)));
    kst(c + 2 * h + i, kxor(kxor(x2, kld(mid + h + i)), kxor(x1, x3)));
  }
  for (size_t i = split; i < h; i += KW) {
    const kvec x0 = kld(c + i), x1 = kld(c + h + i), x2 = kld(c + 2 * h + i);
    kst(c + h + i, kxor(kxor(x1, kld(mid + i)), kxor(x0, x2)));
    kst(c + 2 * h + i, kxor(x2, kxor(kld(mid + h + i), x1)));
  }
}

/* The last two two-way levels inline (n = 2 BASE, 4 BASE): a call per
 * small product cost more than its additions. tmp: 4 BASE and 12 BASE
 * words. */
static inline __attribute__((always_inline)) size_t mul_base2(uint64_t *c, const uint64_t *a,
                                                              const uint64_t *b, uint64_t *tmp) {
  uint64_t *sa = tmp, *sb = tmp + BASE, *mid = tmp + 2 * BASE;
  MUL_BASE(c, a, b);
  MUL_BASE(c + 2 * BASE, a + BASE, b + BASE);
  part_sum(sa, a, a + BASE, BASE);
  part_sum(sb, b, b + BASE, BASE);
  MUL_BASE(mid, sa, sb);
  two_combine(c, mid, BASE, BASE);
  return 4 * BASE;
}

static __attribute__((noinline)) size_t mul_base2_call(uint64_t *c, const uint64_t *a,
                                                       const uint64_t *b, uint64_t *tmp) {
  return mul_base2(c, a, b, tmp);
}

static __attribute__((noinline)) size_t mul_base4(uint64_t *c, const uint64_t *a,
                                                  const uint64_t *b, uint64_t *tmp) {
  uint64_t *sa = tmp, *sb = tmp + 2 * BASE, *mid = tmp + 4 * BASE, *deeper = tmp + 8 * BASE;
  mul_base2(c, a, b, deeper);
  mul_base2(c + 4 * BASE, a + 2 * BASE, b + 2 * BASE, deeper);
  part_sum(sa, a, a + 2 * BASE, 2 * BASE);
  part_sum(sb, b, b + 2 * BASE, 2 * BASE);
  mul_base2(mid, sa, sb, deeper);
  two_combine(c, mid, 2 * BASE, 2 * BASE);
  return 12 * BASE;
}

/* c (6 s words) = a * b (3 s words each, s a multiple of BASE) by the
 * three-way Karatsuba formula: with a = a0 + a1 X + a2 X^2 (X = x^(64 s)),
 * likewise b, P_i = a_i b_i and P_ij = (a_i + a_j)(b_i + b_j),
 *   a b = P0 + (P01 + P0 + P1) X + (P02 + P0 + P1 + P2) X^2
 *       + (P12 + P1 + P2) X^3 + P2 X^4:
 * six products of a third where two-way splits take seven (24 words: 6
 * leaves, not 7). Returns the words of tmp used (4 s and the deeper
 * levels'). */
static size_t mul_karatsuba_three(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t s,
                             uint64_t *tmp) {
  uint64_t *sa = tmp, *sb = tmp + s, *mid = tmp + 2 * s, *deeper = tmp + 4 * s;
  size_t used = 0;
  for (size_t k = 0; k < 3; k++) {
    const size_t u = mul_karatsuba(c + 2 * s * k, a + s * k, b + s * k, s, tmp);
    used = u > used ? u : used;
  }
  three_spread(c, s);
  for (size_t q = 0; q < 3; q++) {
    const size_t i = three_pairs[q][0], j = three_pairs[q][1];
    part_sum(sa, a + i * s, a + j * s, s);
    part_sum(sb, b + i * s, b + j * s, s);
    const size_t u = 4 * s + mul_karatsuba(mid, sa, sb, s, deeper);
    used = u > used ? u : used;
    add_into(c + (i + j) * s, mid, 2 * s);
  }
  return used;
}

/* c (2n words) = a * b, n a multiple of BASE: three-way when the number of
 * leaves divides by three, else two-way with a low part of h words (a
 * multiple of BASE, h >= n - h >= h / 2). Returns the words of tmp used
 * (4h per two-way level; under 4 n + 256 in all). */
static size_t mul_karatsuba(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t n,
                            uint64_t *tmp) {
  if (n == BASE) {
    MUL_BASE(c, a, b);
    return 0;
  }
  if (n == 2 * BASE) {
    return mul_base2_call(c, a, b, tmp);
  }
  if (n == 4 * BASE) {
    return mul_base4(c, a, b, tmp);
  }
  if ((n / BASE) % 3 == 0) {
    return mul_karatsuba_three(c, a, b, n / 3, tmp);
  }
  const size_t h = ((n / BASE + 1) / 2) * BASE;
  const size_t l = n - h;
  uint64_t *sa = tmp;
  uint64_t *sb = tmp + h;
  uint64_t *mid = tmp + 2 * h; /* 2h words, then the deeper levels' scratch */

  size_t used = mul_karatsuba(c, a, b, h, tmp);
  const size_t u2 = mul_karatsuba(c + 2 * h, a + h, b + h, l, tmp);
  used = u2 > used ? u2 : used;
  /* Every length here is a multiple of 8 words: whole vectors. */
  half_sum(sa, a, h, l);
  half_sum(sb, b, h, l);
  const size_t u3 = 4 * h + mul_karatsuba(mid, sa, sb, h, tmp + 4 * h);
  used = u3 > used ? u3 : used;
  two_combine(c, mid, h, l);
  return used;
}

/* c[0, m + 1) ^= x * y + u * v for single words x, u and m words y, v
 * (m a multiple of 4): the carry-less products of x and u with each word,
 * those of the even words in place and those of the odd ones a word up. */
#if defined(__VPCLMULQDQ__) && defined(__AVX2__)
static void mul_word_add(uint64_t *c, uint64_t x, const uint64_t *y, uint64_t u,
                         const uint64_t *v, size_t m) {
  const __m256i vx = _mm256_set1_epi64x((long long)x), vu = _mm256_set1_epi64x((long long)u);
  __m256i prev = _mm256_setzero_si256(); /* word 0: the last high half, for word i */
  for (size_t i = 0; i < m; i += 4) {
    const __m256i vy = _mm256_loadu_si256((const __m256i *)(const void *)(y + i));
    const __m256i vv = _mm256_loadu_si256((const __m256i *)(const void *)(v + i));
    /* Per lane, words i + 2L (even) and i + 2L + 1 (odd). */
    const __m256i even = _mm256_xor_si256(_mm256_clmulepi64_epi128(vy, vx, 0x00),
                                          _mm256_clmulepi64_epi128(vv, vu, 0x00));
    const __m256i odd = _mm256_xor_si256(_mm256_clmulepi64_epi128(vy, vx, 0x01),
                                         _mm256_clmulepi64_epi128(vv, vu, 0x01));
    /* The odd products' high halves belong at words i + 2 and i + 4: swap
     * the lanes, and word i takes the previous block's. */
    const __m256i high = _mm256_permute4x64_epi64(_mm256_bsrli_epi128(odd, 8), 0x4e);
    const __m256i t = _mm256_xor_si256(_mm256_xor_si256(even, _mm256_bslli_epi128(odd, 8)),
                                       _mm256_blend_epi32(high, prev, 0x03));
    __m256i *at = (__m256i *)(void *)(c + i);
    _mm256_storeu_si256(at, _mm256_xor_si256(_mm256_loadu_si256(at), t));
    prev = high;
  }
  c[m] ^= (uint64_t)_mm256_extract_epi64(prev, 0);
}
#else
static void mul_word_add(uint64_t *c, uint64_t x, const uint64_t *y, uint64_t u,
                         const uint64_t *v, size_t m) {
  const __m128i vx = _mm_cvtsi64_si128((long long)x), vu = _mm_cvtsi64_si128((long long)u);
  __m128i carry = _mm_setzero_si128();
  for (size_t i = 0; i < m; i += 2) {
    const __m128i vy = _mm_loadu_si128((const __m128i *)(const void *)(y + i));
    const __m128i vv = _mm_loadu_si128((const __m128i *)(const void *)(v + i));
    const __m128i even = _mm_xor_si128(_mm_clmulepi64_si128(vx, vy, 0x00),
                                       _mm_clmulepi64_si128(vu, vv, 0x00));
    const __m128i odd = _mm_xor_si128(_mm_clmulepi64_si128(vx, vy, 0x10),
                                      _mm_clmulepi64_si128(vu, vv, 0x10));
    const __m128i t = _mm_xor_si128(_mm_xor_si128(even, carry), _mm_slli_si128(odd, 8));
    __m128i *at = (__m128i *)(void *)(c + i);
    _mm_storeu_si128(at, _mm_xor_si128(_mm_loadu_si128(at), t));
    carry = _mm_srli_si128(odd, 8);
  }
  c[m] ^= (uint64_t)_mm_cvtsi128_si64(carry);
}
#endif

/* The widest edge the split below takes: n = m + e with m a multiple of
 * BASE and e <= EDGE_MAX (193 = 192 + 1, 386 = 384 + 2, 641 = 640 + 1 words
 * at L1, L3 and L5, and 97, 193, 321 for the halves of mul_sym). */
#define EDGE_MAX 2

/* prod[m, 2 n) += the edge terms of a * b, (a_e B + b_e A) X + a_e b_e X^2
 * in mul_plain's notation (n = m + e). */
static void edge_add(uint64_t *prod, const uint64_t *a, const uint64_t *b, size_t m, size_t e) {
  for (size_t j = 0; j < e; j++) {
    mul_word_add(prod + m + j, a[m + j], b, b[m + j], a, m);
    for (size_t k = 0; k < e; k++) {
      const __m128i x = _mm_cvtsi64_si128((long long)a[m + j]);
      const __m128i y = _mm_cvtsi64_si128((long long)b[m + k]);
      __m128i *at = (__m128i *)(void *)(prod + 2 * m + j + k);
      _mm_storeu_si128(at, _mm_xor_si128(_mm_loadu_si128(at), _mm_clmulepi64_si128(x, y, 0x00)));
    }
  }
}

/* prod[0, 2n) = a * b (n words each, not reduced). For n = m + e as above,
 * a = A + a_e X and b = B + b_e X with X = x^(64 m): a b = A B + (a_e B +
 * b_e A) X + a_e b_e X^2, the e-word edges costing 2 e m word products
 * where padding to the next multiple of BASE would add a leaf per BASE
 * words at every level. Other n are padded. Returns the words of tmp used. */
static size_t mul_plain(uint64_t *prod, const uint64_t *a, const uint64_t *b, size_t n,
                        uint64_t *tmp) {
  const size_t m = n / BASE * BASE, e = n - m;
  if (m == 0 || e > EDGE_MAX) {
    const size_t np = m + (e > 0 ? BASE : 0);
    uint64_t *pa = tmp, *pb = tmp + np, *pp = tmp + 2 * np;
    memcpy(pa, a, n * sizeof(uint64_t));
    memcpy(pb, b, n * sizeof(uint64_t));
    memset(pa + n, 0, (np - n) * sizeof(uint64_t));
    memset(pb + n, 0, (np - n) * sizeof(uint64_t));
    const size_t used = 4 * np + mul_karatsuba(pp, pa, pb, np, tmp + 4 * np);
    memcpy(prod, pp, 2 * n * sizeof(uint64_t));
    return used;
  }
  const size_t used = mul_karatsuba(prod, a, b, m, tmp);
  memset(prod + 2 * m, 0, 2 * e * sizeof(uint64_t));
  edge_add(prod, a, b, m, e);
  return used;
}

/* c = prod mod x^r - 1 (prod: 2 n words). */
static void reduce(const bike_params *p, uint64_t *c, const uint64_t *prod) {
  const size_t n = p->r_qwords;
  const uint32_t ws = p->r / 64, bs = p->r % 64;
  for (size_t i = 0; i < n; i++) {
    uint64_t high = (prod[i + ws] >> bs) | (prod[i + ws + 1] << (64 - bs));
    c[i] = prod[i] ^ high;
  }
  c[n - 1] &= ((uint64_t)1 << bs) - 1;
}

/* Scratch: the product (2 n words) and mul_plain's. */
size_t MUL_ENTRY(const bike_params *p, uint64_t *c, const uint64_t *a, const uint64_t *b,
                 uint64_t *scratch) {
  const size_t n = p->r_qwords;
  uint64_t *prod = scratch;
  const size_t used = 2 * n + mul_plain(prod, a, b, n, scratch + 2 * n);
  reduce(p, c, prod);
  return used;
}

#ifdef MUL_SYM_ENTRY
/* The product of two sigma-invariant polynomials of odd weight from two
 * products of half the length (the inversion's chain, gf2x/inv.c). With
 * h = (r - 1) / 2, F = 1 + A + sigma(A) and G = 1 + B + sigma(B) (A, B their
 * bits 1..h): F G = 1 + S + sigma(S) with S = A + B + A B + A sigma(B). So
 * with the h-bit strings Ah = F >> 1, Bh = G >> 1, Bb = G >> (h + 1) (bits
 * h..1 of G reversed) and the plain products P = Ah Bh, Q = Ah Bb:
 *   T = (P << 1) + (Q >> h) + Ah + Bh,   V = (P >> (h - 1)) + (Q << 1)
 * (h bits each), bits 1..h of F G are T + rev(V) and bits h + 1..2h are
 * V + rev(T). Every string has a zero guard word on each side, so that
 * the shifts by public amounts need no bounds checks. Scratch: eight
 * strings of np + 2 words, the two products (2 np + 2 each) and the
 * recursion's (under 4 np + 256): 16 np + 276 words, np about n / 2. */
size_t MUL_SYM_ENTRY(const bike_params *p, uint64_t *c, const uint64_t *a, const uint64_t *b,
                     uint64_t *scratch) {
  const size_t n = p->r_qwords, h = (p->r - 1) / 2, nh = (h + 63) / 64;
  const size_t np = (nh + BASE - 1) / BASE * BASE, str = np + 2;
  uint64_t *ah = scratch + 1, *bh = ah + str, *bb = bh + str, *t = bb + str, *v = t + str;
  uint64_t *w1 = v + str, *w2 = w1 + str, *w3 = w2 + str;
  uint64_t *pp = w3 + str, *qq = pp + 2 * np + 2, *tmp = qq + 2 * np + 1;
  for (size_t i = 0; i < 8; i++) { /* the guards of the eight strings */
    (ah - 1)[i * str] = ah[i * str + np] = 0;
  }
  pp[-1] = pp[2 * np] = qq[-1] = qq[2 * np] = 0;
  sym_extract(ah, np, a, n, 1, h);
  sym_extract(bh, np, b, n, 1, h);
  sym_extract(bb, np, b, n, (int64_t)h + 1, h);
  /* The strings are zero from bit h on: products of nh words. */
  size_t used = mul_plain(pp, ah, bh, nh, tmp);
  const size_t u2 = mul_plain(qq, ah, bb, nh, tmp);
  used = u2 > used ? u2 : used;
  memset(pp + 2 * nh, 0, 2 * (np - nh) * sizeof(uint64_t));
  memset(qq + 2 * nh, 0, 2 * (np - nh) * sizeof(uint64_t));
  sym_window(w1, nh, pp, -1);
  sym_window(w2, nh, qq, (int64_t)h);
  for (size_t i = 0; i < nh; i++) {
    t[i] = w1[i] ^ w2[i] ^ ah[i] ^ bh[i];
  }
  sym_window(w1, nh, pp, (int64_t)h - 1);
  sym_window(w2, nh, qq, -1);
  for (size_t i = 0; i < nh; i++) {
    v[i] = w1[i] ^ w2[i];
  }
  sym_clear_beyond(t, np, h);
  sym_clear_beyond(v, np, h);
  /* ah and bh become bits 1..h and h + 1..2h of the result (zero beyond). */
  sym_reverse(w1, nh, v, h, w3);
  sym_reverse(w2, nh, t, h, w3);
  for (size_t i = 0; i < nh; i++) {
    ah[i] = t[i] ^ w1[i];
    bh[i] = v[i] ^ w2[i];
  }
  /* c = 1 + (ah << 1) + (bh << (h + 1)): ah fills words 0..nh - 1, bh
   * words from (h + 1) / 64 on. */
  const size_t from = (h + 1) / 64;
  sym_window(c, nh, ah, -1);
  for (size_t i = nh; i < n; i++) {
    c[i] = 0;
  }
  sym_window(w1, n - from, bh, 64 * (int64_t)from - (int64_t)h - 1);
  for (size_t i = from; i < n; i++) {
    c[i] ^= w1[i - from];
  }
  c[0] |= 1;
  return (size_t)(tmp - scratch) + used;
}
#endif

#ifdef MUL_PAIR_ENTRY
/* Sums of two products, a0 b0 + a1 b1 (the decoder's syndromes h0 e0 +
 * h1 e1), by the same recursion: Karatsuba is linear in its leaf products,
 * so each leaf sums its two pairs' carry-less products (mul8_pair, which the
 * kernel file defines) and every combination above the leaves, the edge
 * words' additions and the reduction run once instead of twice. The
 * operand sums of both pairs sit side by side in tmp. */
static size_t mul_karatsuba_pair(uint64_t *c, const uint64_t *a0, const uint64_t *b0,
                                 const uint64_t *a1, const uint64_t *b1, size_t n, uint64_t *tmp);

/* mul_base2 and mul_base4 for a sum of two products; tmp: 6 BASE and
 * 18 BASE words. */
static inline __attribute__((always_inline)) size_t
mul_base2_pair(uint64_t *c, const uint64_t *a0, const uint64_t *b0, const uint64_t *a1,
               const uint64_t *b1, uint64_t *tmp) {
  uint64_t *sa0 = tmp, *sb0 = tmp + BASE, *sa1 = tmp + 2 * BASE, *sb1 = tmp + 3 * BASE;
  uint64_t *mid = tmp + 4 * BASE;
  mul8_pair(c, a0, b0, a1, b1);
  mul8_pair(c + 2 * BASE, a0 + BASE, b0 + BASE, a1 + BASE, b1 + BASE);
  part_sum(sa0, a0, a0 + BASE, BASE);
  part_sum(sb0, b0, b0 + BASE, BASE);
  part_sum(sa1, a1, a1 + BASE, BASE);
  part_sum(sb1, b1, b1 + BASE, BASE);
  mul8_pair(mid, sa0, sb0, sa1, sb1);
  two_combine(c, mid, BASE, BASE);
  return 6 * BASE;
}

static __attribute__((noinline)) size_t
mul_base2_pair_call(uint64_t *c, const uint64_t *a0, const uint64_t *b0, const uint64_t *a1,
                    const uint64_t *b1, uint64_t *tmp) {
  return mul_base2_pair(c, a0, b0, a1, b1, tmp);
}

static __attribute__((noinline)) size_t
mul_base4_pair(uint64_t *c, const uint64_t *a0, const uint64_t *b0, const uint64_t *a1,
               const uint64_t *b1, uint64_t *tmp) {
  const size_t h = 2 * BASE;
  uint64_t *sa0 = tmp, *sb0 = tmp + h, *sa1 = tmp + 2 * h, *sb1 = tmp + 3 * h;
  uint64_t *mid = tmp + 4 * h, *deeper = tmp + 6 * h;
  mul_base2_pair(c, a0, b0, a1, b1, deeper);
  mul_base2_pair(c + 2 * h, a0 + h, b0 + h, a1 + h, b1 + h, deeper);
  part_sum(sa0, a0, a0 + h, h);
  part_sum(sb0, b0, b0 + h, h);
  part_sum(sa1, a1, a1 + h, h);
  part_sum(sb1, b1, b1 + h, h);
  mul_base2_pair(mid, sa0, sb0, sa1, sb1, deeper);
  two_combine(c, mid, h, h);
  return 18 * BASE;
}

/* mul_karatsuba_three for a sum of two products; 6 s words of tmp and the
 * deeper levels'. */
static size_t mul_karatsuba_three_pair(uint64_t *c, const uint64_t *a0, const uint64_t *b0,
                                       const uint64_t *a1, const uint64_t *b1, size_t s,
                                       uint64_t *tmp) {
  uint64_t *sa0 = tmp, *sb0 = tmp + s, *sa1 = tmp + 2 * s, *sb1 = tmp + 3 * s;
  uint64_t *mid = tmp + 4 * s, *deeper = tmp + 6 * s;
  size_t used = 0;
  for (size_t k = 0; k < 3; k++) {
    const size_t u = mul_karatsuba_pair(c + 2 * s * k, a0 + s * k, b0 + s * k, a1 + s * k,
                                        b1 + s * k, s, tmp);
    used = u > used ? u : used;
  }
  three_spread(c, s);
  for (size_t q = 0; q < 3; q++) {
    const size_t i = three_pairs[q][0], j = three_pairs[q][1];
    part_sum(sa0, a0 + i * s, a0 + j * s, s);
    part_sum(sb0, b0 + i * s, b0 + j * s, s);
    part_sum(sa1, a1 + i * s, a1 + j * s, s);
    part_sum(sb1, b1 + i * s, b1 + j * s, s);
    const size_t u = 6 * s + mul_karatsuba_pair(mid, sa0, sb0, sa1, sb1, s, deeper);
    used = u > used ? u : used;
    add_into(c + (i + j) * s, mid, 2 * s);
  }
  return used;
}

/* mul_karatsuba for a sum of two products; 6h words of tmp per two-way
 * level (under 6 n + 384 in all). */
static size_t mul_karatsuba_pair(uint64_t *c, const uint64_t *a0, const uint64_t *b0,
                                 const uint64_t *a1, const uint64_t *b1, size_t n, uint64_t *tmp) {
  if (n == BASE) {
    mul8_pair(c, a0, b0, a1, b1);
    return 0;
  }
  if (n == 2 * BASE) {
    return mul_base2_pair_call(c, a0, b0, a1, b1, tmp);
  }
  if (n == 4 * BASE) {
    return mul_base4_pair(c, a0, b0, a1, b1, tmp);
  }
  if ((n / BASE) % 3 == 0) {
    return mul_karatsuba_three_pair(c, a0, b0, a1, b1, n / 3, tmp);
  }
  const size_t h = ((n / BASE + 1) / 2) * BASE;
  const size_t l = n - h;
  uint64_t *sa0 = tmp, *sb0 = tmp + h, *sa1 = tmp + 2 * h, *sb1 = tmp + 3 * h;
  uint64_t *mid = tmp + 4 * h;
  size_t used = mul_karatsuba_pair(c, a0, b0, a1, b1, h, tmp);
  const size_t u2 = mul_karatsuba_pair(c + 2 * h, a0 + h, b0 + h, a1 + h, b1 + h, l, tmp);
  used = u2 > used ? u2 : used;
  half_sum(sa0, a0, h, l);
  half_sum(sb0, b0, h, l);
  half_sum(sa1, a1, h, l);
  half_sum(sb1, b1, h, l);
  const size_t u3 = 6 * h + mul_karatsuba_pair(mid, sa0, sb0, sa1, sb1, h, tmp + 6 * h);
  used = u3 > used ? u3 : used;
  two_combine(c, mid, h, l);
  return used;
}

/* c = a0 b0 + a1 b1 in R (c apart from the inputs). Every level's r_qwords
 * is m + e with m a multiple of BASE and 1 <= e <= EDGE_MAX (mul_plain's
 * unpadded case). Scratch: the product (2 n words) and the recursion's. */
size_t MUL_PAIR_ENTRY(const bike_params *p, uint64_t *c, const uint64_t *a0, const uint64_t *b0,
                      const uint64_t *a1, const uint64_t *b1, uint64_t *scratch) {
  const size_t n = p->r_qwords, m = n / BASE * BASE, e = n - m;
  assert(m > 0 && e <= EDGE_MAX);
  uint64_t *prod = scratch;
  const size_t used = 2 * n + mul_karatsuba_pair(prod, a0, b0, a1, b1, m, scratch + 2 * n);
  memset(prod + 2 * m, 0, 2 * e * sizeof(uint64_t));
  edge_add(prod, a0, b0, m, e);
  edge_add(prod, a1, b1, m, e);
  reduce(p, c, prod);
  return used;
}
#endif
