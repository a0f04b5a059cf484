/* a^(2^k) in R with AVX2: the bit permutation i -> i 2^k mod r read the
 * other way, output bit j from input bit j 2^-k mod r, eight output bits per
 * gather. Addresses depend only on the public k. Small k: repeated squaring,
 * the bits of each word spread apart by nibble lookups in registers. */
#include <immintrin.h>
#include <string.h>

#include "common/ct.h"
#include "native/backend.h"
#include "native/sym_bits.h"

/* One squaring costs about a 58th of a permutation on Zen 4 (143 against
 * 8,242 TSC ticks at L1, 286 against 16,354 at L3). */
#define SQUARINGS_MAX 56
/* A sigma-invariant input needs half a permutation (4,470 ticks at L1). */
#define SQUARINGS_MAX_SYM 30

/* out[0, words) = words 0..words - 1 of a^(2^k) (the last word of R with its
 * bits at and above r cleared when words = n). */
static void permute(const bike_params *p, uint64_t *out, const uint64_t *a, uint64_t k,
                    uint32_t words) {
  const uint32_t r = p->r, n = p->r_qwords;
  const uint32_t m = bike_pow2_inv_mod(k, r);
  const uint32_t m8 = (uint32_t)(((uint64_t)m * 8) % r);
  uint32_t start[8];
  for (uint32_t l = 0; l < 8; l++) {
    start[l] = (uint32_t)(((uint64_t)m * l) % r);
  }
  __m256i idx = _mm256_loadu_si256((const __m256i *)(const void *)start);
  const __m256i vm8 = _mm256_set1_epi32((int)m8);
  const __m256i vr = _mm256_set1_epi32((int)r);
  const __m256i vr1 = _mm256_set1_epi32((int)r - 1);
  const __m256i v31 = _mm256_set1_epi32(31);
  const int *in = (const int *)(const void *)a;
  /* Gather-bound (one 8-lane gather per output byte); independent index
   * chains per byte measured no faster. */
  for (uint32_t w = 0; w < words; w++) {
    uint64_t acc = 0;
    for (uint32_t t = 0; t < 8; t++) {
      __m256i x = _mm256_i32gather_epi32(in, _mm256_srli_epi32(idx, 5), 4);
      x = _mm256_sllv_epi32(x, _mm256_sub_epi32(v31, _mm256_and_si256(idx, v31)));
      acc |= (uint64_t)(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(x)) << (8 * t);
      idx = _mm256_add_epi32(idx, vm8);
      idx = _mm256_sub_epi32(idx, _mm256_and_si256(_mm256_cmpgt_epi32(idx, vr1), vr));
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
  permute(p, out, a, k, n);
  memcpy(c, out, n * sizeof(uint64_t));
  return n;
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
  permute(p, out, a, k, low);
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
  return (size_t)(tmp - scratch) + (n - from);
}
