/* The Karatsuba recursion and the reduction shared by the x86-64
 * multiplication kernels. Included by a kernel file after it has defined
 *   static void mul8(uint64_t *c, const uint64_t *a, const uint64_t *b);
 * (c[0..16) = a[0..8) * b[0..8)) and MUL_ENTRY, the name of the kernel; the
 * code is then compiled with that file's instruction-set flags. */
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
  /* c holds P0, P1, P2 as blocks l0 h0 l1 h1 l2 h2 (s words each); their
   * share of blocks 1 to 4, every block from the old values. */
  for (size_t i = 0; i < s; i += KW) {
    const kvec l0 = kld(c + i), h0 = kld(c + s + i), l1 = kld(c + 2 * s + i);
    const kvec h1 = kld(c + 3 * s + i), l2 = kld(c + 4 * s + i), h2 = kld(c + 5 * s + i);
    const kvec h01 = kxor(h0, h1), l12 = kxor(l1, l2);
    kst(c + s + i, kxor(h0, kxor(l0, l1)));
    kst(c + 2 * s + i, kxor(kxor(h01, l0), l12));
    kst(c + 3 * s + i, kxor(kxor(h01, h2), l12));
    kst(c + 4 * s + i, kxor(kxor(h1, h2), l2));
  }
  static const unsigned char pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (size_t q = 0; q < 3; q++) {
    const size_t i = pairs[q][0], j = pairs[q][1];
    for (size_t w = 0; w < s; w += KW) {
      kst(sa + w, kxor(kld(a + i * s + w), kld(a + j * s + w)));
      kst(sb + w, kxor(kld(b + i * s + w), kld(b + j * s + w)));
    }
    const size_t u = 4 * s + mul_karatsuba(mid, sa, sb, s, deeper);
    used = u > used ? u : used;
    uint64_t *at = c + (i + j) * s;
    for (size_t w = 0; w < 2 * s; w += KW) {
      kst(at + w, kxor(kld(at + w), kld(mid + w)));
    }
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
  for (size_t i = 0; i < l; i += KW) {
    kst(sa + i, kxor(kld(a + i), kld(a + h + i)));
    kst(sb + i, kxor(kld(b + i), kld(b + h + i)));
  }
  for (size_t i = l; i < h; i += KW) {
    kst(sa + i, kld(a + i));
    kst(sb + i, kld(b + i));
  }
  const size_t u3 = 4 * h + mul_karatsuba(mid, sa, sb, h, tmp + 4 * h);
  used = u3 > used ? u3 : used;
  /* One pass: with P0 = c[0, 2h), P2 = c[2h, 2n) (2l words, zero beyond),
   * c[h, 3h) ^= mid ^ P0 ^ P2. Word i of the low half and h + i of the high
   * half of that window are updated together from their old values. */
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
  for (size_t j = 0; j < e; j++) {
    mul_word_add(prod + m + j, a[m + j], b, b[m + j], a, m);
    for (size_t k = 0; k < e; k++) {
      const __m128i x = _mm_cvtsi64_si128((long long)a[m + j]);
      const __m128i y = _mm_cvtsi64_si128((long long)b[m + k]);
      __m128i *at = (__m128i *)(void *)(prod + 2 * m + j + k);
      _mm_storeu_si128(at, _mm_xor_si128(_mm_loadu_si128(at), _mm_clmulepi64_si128(x, y, 0x00)));
    }
  }
  return used;
}

/* Scratch: the product (2 n words) and mul_plain's. */
size_t MUL_ENTRY(const bike_params *p, uint64_t *c, const uint64_t *a, const uint64_t *b,
                 uint64_t *scratch) {
  const size_t n = p->r_qwords;
  uint64_t *prod = scratch;
  const size_t used = 2 * n + mul_plain(prod, a, b, n, scratch + 2 * n);
  const uint32_t ws = p->r / 64, bs = p->r % 64;
  for (size_t i = 0; i < n; i++) {
    uint64_t high = (prod[i + ws] >> bs) | (prod[i + ws + 1] << (64 - bs));
    c[i] = prod[i] ^ high;
  }
  c[n - 1] &= ((uint64_t)1 << bs) - 1;
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
