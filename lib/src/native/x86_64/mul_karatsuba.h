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

/* c (2n words) = a * b, n a multiple of BASE; the low part has h words (a
 * multiple of BASE, h >= n - h >= h / 2); tmp needs 4h words per level. */
static void mul_karatsuba(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t n,
                          uint64_t *tmp) {
  if (n == BASE) {
    MUL_BASE(c, a, b);
    return;
  }
  const size_t h = ((n / BASE + 1) / 2) * BASE;
  const size_t l = n - h;
  uint64_t *sa = tmp;
  uint64_t *sb = tmp + h;
  uint64_t *mid = tmp + 2 * h; /* 2h words, then the deeper levels' scratch */

  mul_karatsuba(c, a, b, h, tmp);
  mul_karatsuba(c + 2 * h, a + h, b + h, l, tmp);
  /* Every length here is a multiple of 8 words: whole vectors. */
  for (size_t i = 0; i < l; i += KW) {
    kst(sa + i, kxor(kld(a + i), kld(a + h + i)));
    kst(sb + i, kxor(kld(b + i), kld(b + h + i)));
  }
  for (size_t i = l; i < h; i += KW) {
    kst(sa + i, kld(a + i));
    kst(sb + i, kld(b + i));
  }
  mul_karatsuba(mid, sa, sb, h, tmp + 4 * h);
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
}

/* Scratch: both operands padded to np words, their product (2 np) and the
 * recursion's 4h words per level (under 4 np + 256): at most 8 n + 504
 * words with BASE <= 32. */
size_t MUL_ENTRY(const bike_params *p, uint64_t *c, const uint64_t *a, const uint64_t *b,
                 uint64_t *scratch) {
  const size_t n = p->r_qwords, np = (n + BASE - 1) / BASE * BASE;
  uint64_t *pa = scratch, *pb = scratch + np, *prod = scratch + 2 * np, *tmp = scratch + 4 * np;
  memcpy(pa, a, n * sizeof(uint64_t));
  memcpy(pb, b, n * sizeof(uint64_t));
  memset(pa + n, 0, (np - n) * sizeof(uint64_t));
  memset(pb + n, 0, (np - n) * sizeof(uint64_t));
  mul_karatsuba(prod, pa, pb, np, tmp);
  const uint32_t ws = p->r / 64, bs = p->r % 64;
  for (size_t i = 0; i < n; i++) {
    uint64_t high = (prod[i + ws] >> bs) | (prod[i + ws + 1] << (64 - bs));
    c[i] = prod[i] ^ high;
  }
  c[n - 1] &= ((uint64_t)1 << bs) - 1;
  return 8 * np + 256;
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
  mul_karatsuba(pp, ah, bh, np, tmp);
  mul_karatsuba(qq, ah, bb, np, tmp);
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
  return (size_t)(tmp - scratch) + 4 * np + 256;
}
#endif
