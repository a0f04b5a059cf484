/* a^(2^k) in R with AVX2: the bit permutation i -> i 2^k mod r read the
 * other way, output bit j from input bit j 2^-k mod r, eight output bits per
 * gather. Addresses depend only on the public k. Small k: repeated squaring
 * with PCLMULQDQ (the avx2 back end requires both). */
#include <immintrin.h>
#include <string.h>

#include "common/ct.h"
#include "native/backend.h"
#include "native/sym_bits.h"

#define SQUARINGS_MAX 16 /* up to about 20, k squarings beat one permutation */
/* A sigma-invariant input needs half a permutation. */
#define SQUARINGS_MAX_SYM 9

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

static size_t squarings(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t k,
                        uint64_t *scratch) {
  bike_gf2x_sqr_pclmul(p, c, a, scratch);
  for (uint64_t i = 1; i < k; i++) {
    bike_gf2x_sqr_pclmul(p, c, c, scratch);
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
