/* a^(2^k) in R with AVX2: the bit permutation i -> i 2^k mod r read the
 * other way, output bit j from input bit j 2^-k mod r, eight output bits per
 * read of an interleaved map of the input (permute). Addresses depend only
 * on the public k. Small k: repeated squaring, the bits of each word spread
 * apart by nibble lookups in registers. */
#include <immintrin.h>
#include <string.h>

#include "common/ct.h"
#include "native/backend.h"
#include "native/sym_bits.h"

/* One squaring costs about a 31st of a permutation on Zen 4 (143 against
 * 4,500 TSC ticks at L1, 286 against 8,840 at L3, 487 against 15,130 at
 * L5). */
#define SQUARINGS_MAX 31
/* A sigma-invariant input needs half the map's reads (3,220 ticks at L1,
 * 6,400 at L3, 10,580 at L5). */
#define SQUARINGS_MAX_SYM 22

/* 8 x 8 transposes of bytes in each 64-bit lane of x[0..7]: byte k of x[b]
 * moves to byte b of x[k]. Each stage swaps the off-diagonal blocks of
 * 2 x 2 blocks by shifts and masks. */
static inline void swap_blocks(__m256i *lo, __m256i *hi, int d, __m256i mask) {
  const __m256i t = _mm256_and_si256(_mm256_xor_si256(_mm256_srli_epi64(*lo, 8 * d), *hi), mask);
  *hi = _mm256_xor_si256(*hi, t);
  *lo = _mm256_xor_si256(*lo, _mm256_slli_epi64(t, 8 * d));
}

static inline void transpose_bytes(__m256i x[8]) {
  const __m256i m1 = _mm256_set1_epi64x(0x00ff00ff00ff00ffLL);
  const __m256i m2 = _mm256_set1_epi64x(0x0000ffff0000ffffLL);
  const __m256i m4 = _mm256_set1_epi64x(0x00000000ffffffffLL);
  for (int i = 0; i < 8; i += 2) {
    swap_blocks(&x[i], &x[i + 1], 1, m1);
  }
  for (int i = 0; i < 8; i += 4) {
    swap_blocks(&x[i], &x[i + 2], 2, m2);
    swap_blocks(&x[i + 1], &x[i + 3], 2, m2);
  }
  for (int i = 0; i < 4; i++) {
    swap_blocks(&x[i], &x[i + 4], 4, m4);
  }
}

/* Scratch words of permute beyond out: the doubled input and the byte map. */
static size_t permute_words(const bike_params *p) {
  return (2 * (size_t)p->r_qwords + 8) + ((size_t)p->r + 255) / 256 * 32;
}

/* out[0, words) = words 0..words - 1 of a^(2^k) (the last word of R with
 * its bits at and above r cleared when words = n): output bit j is input
 * bit j m mod r, m = 2^-k mod r. Through an interleaved map: with plane l
 * the input rotated by l m (input bit u + l m mod r at position u), byte l
 * of the map's word u / 8 is plane l's byte u / 8, so bit u % 8 of the
 * eight bytes of that word are the input bits u + l m, l < 8: output byte
 * t, from u = 8 t m mod r, is one word's bit u % 8 of each byte, gathered
 * into a byte by a multiplication. The map is built 256 positions at a
 * time from eight windows of a || a (shifts by public amounts) and 8 x 8
 * byte transposes, then read a word at a time at offsets that depend only
 * on k. work: permute_words. */
static void permute(const bike_params *p, uint64_t *out, const uint64_t *a, uint64_t k,
                    uint32_t words, uint64_t *work) {
  const uint32_t r = p->r, n = p->r_qwords;
  const uint32_t m = bike_pow2_inv_mod(k, r);
  uint64_t *aa = work;
  uint8_t *map = (uint8_t *)(void *)(work + 2 * n + 8);
  bike_doubled(p, aa, a, 2 * (size_t)n + 8);
  uint32_t off[8]; /* l m mod r */
  for (uint32_t l = 0; l < 8; l++) {
    off[l] = (uint32_t)(((uint64_t)m * l) % r);
  }
  for (uint32_t blk = 0; blk * 64 < r; blk += 4) {
    __m256i x[8];
    for (uint32_t l = 0; l < 8; l++) {
      const uint64_t *at = aa + blk + off[l] / 64;
      const __m128i right = _mm_cvtsi32_si128((int)(off[l] % 64));
      const __m128i left = _mm_cvtsi32_si128(64 - (int)(off[l] % 64));
      x[l] = _mm256_or_si256(
          _mm256_srl_epi64(_mm256_loadu_si256((const __m256i *)(const void *)at), right),
          _mm256_sll_epi64(_mm256_loadu_si256((const __m256i *)(const void *)(at + 1)), left));
    }
    transpose_bytes(x);
    /* Lane j of x[i] is bytes 8 i..8 i + 7 of block blk + j. */
    for (int h = 0; h < 8; h += 4) {
      const __m256i t0 = _mm256_unpacklo_epi64(x[h], x[h + 1]), t1 = _mm256_unpackhi_epi64(x[h], x[h + 1]);
      const __m256i t2 = _mm256_unpacklo_epi64(x[h + 2], x[h + 3]), t3 = _mm256_unpackhi_epi64(x[h + 2], x[h + 3]);
      uint8_t *dst = map + 64 * (size_t)blk + 8 * (size_t)h;
      _mm256_storeu_si256((__m256i *)(void *)dst, _mm256_permute2x128_si256(t0, t2, 0x20));
      _mm256_storeu_si256((__m256i *)(void *)(dst + 64), _mm256_permute2x128_si256(t1, t3, 0x20));
      _mm256_storeu_si256((__m256i *)(void *)(dst + 128), _mm256_permute2x128_si256(t0, t2, 0x31));
      _mm256_storeu_si256((__m256i *)(void *)(dst + 192), _mm256_permute2x128_si256(t1, t3, 0x31));
    }
  }
  /* Byte t of every word from its own chain of offsets (8 independent
   * chains, not one long one): u = 8 (8 w + t) m mod r. */
  const uint32_t m64 = (uint32_t)(((uint64_t)m * 64) % r);
  uint32_t pos[8];
  for (uint32_t t = 0; t < 8; t++) {
    pos[t] = (uint32_t)(((uint64_t)m * 8 * t) % r);
  }
  for (uint32_t w = 0; w < words; w++) {
    uint64_t acc = 0;
    for (uint32_t t = 0; t < 8; t++) {
      uint64_t q;
      memcpy(&q, map + (pos[t] & ~7u), sizeof(q));
      /* Bit 0 of byte l to bit 56 + l: the shifted copies never meet. */
      q = ((q >> (pos[t] & 7)) & 0x0101010101010101ULL) * 0x0102040810204080ULL;
      acc |= (q >> 56) << (8 * t);
      pos[t] += m64;
      pos[t] -= pos[t] >= r ? r : 0; /* public: k alone decides it */
    }
    out[w] = acc;
  }
  if (words == n) {
    out[n - 1] &= ((uint64_t)1 << (r % 64)) - 1;
  }
  ct_msan_taint(out, words * sizeof(uint64_t), a, n * sizeof(uint64_t));
}

/* Four words' squares: each nibble spread to a byte by a table lookup
 * (VPSHUFB, the nibble in a register, not an address), the bytes of the
 * low and high nibbles interleaved. sq[0..8) = the squares of x[0..4). */
static inline void sqr4(uint64_t *sq, __m256i x) {
  const __m256i spread = _mm256_setr_epi8(0x00, 0x01, 0x04, 0x05, 0x10, 0x11, 0x14, 0x15, 0x40,
                                          0x41, 0x44, 0x45, 0x50, 0x51, 0x54, 0x55, 0x00, 0x01,
                                          0x04, 0x05, 0x10, 0x11, 0x14, 0x15, 0x40, 0x41, 0x44,
                                          0x45, 0x50, 0x51, 0x54, 0x55);
  const __m256i nib = _mm256_set1_epi8(0x0f);
  const __m256i lo = _mm256_shuffle_epi8(spread, _mm256_and_si256(x, nib));
  const __m256i hi = _mm256_shuffle_epi8(spread, _mm256_and_si256(_mm256_srli_epi64(x, 4), nib));
  const __m256i w02 = _mm256_unpacklo_epi8(lo, hi); /* squares of words 0 and 2 */
  const __m256i w13 = _mm256_unpackhi_epi8(lo, hi); /* of words 1 and 3 */
  _mm256_storeu_si256((__m256i *)(void *)sq, _mm256_permute2x128_si256(w02, w13, 0x20));
  _mm256_storeu_si256((__m256i *)(void *)(sq + 4), _mm256_permute2x128_si256(w02, w13, 0x31));
}

/* c = a^2 in R (c may be a): the squares of the words into prod (2 n
 * words), then x^r = 1 folds the top half down, prod_i + (prod >> r)_i. */
static void sqr1(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t *prod) {
  const uint32_t n = p->r_qwords, ws = p->r / 64, bs = p->r % 64, whole = n / 4 * 4;
  for (uint32_t i = 0; i < whole; i += 4) {
    sqr4(prod + 2 * i, _mm256_loadu_si256((const __m256i *)(const void *)(a + i)));
  }
  if (whole < n) { /* the last one to three words, through a zero-padded copy */
    uint64_t last[4] = {0, 0, 0, 0}, sq[8];
    memcpy(last, a + whole, (n - whole) * sizeof(uint64_t));
    sqr4(sq, _mm256_loadu_si256((const __m256i *)(void *)last));
    memcpy(prod + 2 * whole, sq, 2 * (n - whole) * sizeof(uint64_t));
  }
  const __m128i right = _mm_cvtsi32_si128((int)bs), left = _mm_cvtsi32_si128(64 - (int)bs);
  uint32_t i = 0;
  for (; i + 4 <= n; i += 4) { /* reads prod up to word i + ws + 4 <= 2 n - 1 */
    const __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)(prod + ws + i));
    const __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(prod + ws + i + 1));
    const __m256i high = _mm256_or_si256(_mm256_srl_epi64(lo, right), _mm256_sll_epi64(hi, left));
    const __m256i v = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(prod + i)), high);
    _mm256_storeu_si256((__m256i *)(void *)(c + i), v);
  }
  for (; i < n; i++) {
    c[i] = prod[i] ^ (prod[i + ws] >> bs) ^ (prod[i + ws + 1] << (64 - bs));
  }
  c[n - 1] &= ((uint64_t)1 << bs) - 1;
}

static size_t squarings(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t k,
                        uint64_t *scratch) {
  sqr1(p, c, a, scratch);
  for (uint64_t i = 1; i < k; i++) {
    sqr1(p, c, c, scratch);
  }
  return 2 * (size_t)p->r_qwords;
}

size_t bike_gf2x_sqr_k_avx2(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t k,
                            uint64_t *scratch) {
  const uint32_t n = p->r_qwords;
  if (k == 0) {
    memmove(c, a, n * sizeof(uint64_t));
    return 0;
  }
  if (k <= SQUARINGS_MAX) {
    return squarings(p, c, a, k, scratch);
  }
  uint64_t *out = scratch; /* n words: c may be a */
  permute(p, out, a, k, n, scratch + n);
  memcpy(c, out, n * sizeof(uint64_t));
  return n + permute_words(p);
}

/* For a sigma-invariant input the output is sigma-invariant too (sigma is
 * itself a power of the Frobenius): gather bits 0..h only and mirror bits
 * h..1 into h + 1..2h, half the gathers. */
size_t bike_gf2x_sqr_k_sym_avx2(const bike_params *p, uint64_t *c, const uint64_t *a,
                                uint64_t k, uint64_t *scratch) {
  const uint32_t n = p->r_qwords, h = (p->r - 1) / 2, low = h / 64 + 1, nh = (h + 63) / 64;
  if (k <= SQUARINGS_MAX_SYM) {
    return bike_gf2x_sqr_k_avx2(p, c, a, k, scratch);
  }
  /* out: n words; mid (with a zero guard word before it): bits 1..h of
   * out; rev: those reversed, then shifted into place; tmp: nh words. */
  uint64_t *out = scratch, *mid = out + n + 1, *rev = mid + nh + 1, *tmp = rev + nh + 1;
  permute(p, out, a, k, low, scratch + n);
  sym_clear_beyond(out, low, (size_t)h + 1);
  mid[-1] = 0;
  sym_extract(mid, nh, out, low, 1, h);
  rev[-1] = rev[nh] = 0;
  sym_reverse(rev, nh, mid, h, tmp);
  for (uint32_t w = low; w < n; w++) {
    out[w] = 0;
  }
  const uint32_t from = (h + 1) / 64;
  sym_window(tmp, n - from, rev, 64 * (int64_t)from - (int64_t)h - 1);
  for (uint32_t w = from; w < n; w++) {
    out[w] ^= tmp[w - from];
  }
  memcpy(c, out, n * sizeof(uint64_t));
  const size_t used = (size_t)(tmp - scratch) + (n - from), perm = n + permute_words(p);
  return used > perm ? used : perm;
}
