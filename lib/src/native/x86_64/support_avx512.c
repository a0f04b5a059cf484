/* The dense polynomial of a support with AVX-512: every index against every
 * word. Per index, the word number and the bit (from a per-lane variable
 * shift, so no scalar shift count depends on an index) are made once; then
 * for each group of 32 words, one 16-bit compare of the index's word number
 * with the group's tells which of its four 512-bit blocks (if any) takes the
 * bit, by a masked XOR. The two-output form (H's e0 and e1, whose indices
 * share one list) shares the compares. */
#include <immintrin.h>
#include <string.h>

#include "common/ct.h"
#include "native/backend.h"

#define GROUP 32 /* words per pass: four vectors per output kept in registers */
#define MAX_COUNT (BIKE_MAX_T > BIKE_MAX_D ? BIKE_MAX_T : BIKE_MAX_D)

/* acc1 = the sum of x^idx[i] over the i with take[i] all-ones (every i if
 * take is NULL); if two, also acc0 over the others; count <= MAX_COUNT.
 * Writes whole groups of words. */
static inline void dense_chunk(const bike_params *p, uint64_t *acc0, uint64_t *acc1,
                               const uint32_t *idx, const uint64_t *take, uint32_t count,
                               int two) {
  uint64_t word[MAX_COUNT + 8], bit0[MAX_COUNT + 8], bit1[MAX_COUNT + 8];
  const uint32_t n = p->r_qwords;
  const __m512i one = _mm512_set1_epi64(1), sixty3 = _mm512_set1_epi64(63);
  for (uint32_t i = 0; i < count; i += 8) {
    const __mmask8 live = (__mmask8)(count - i >= 8 ? 0xff : (1u << (count - i)) - 1);
    const __m512i x = _mm512_cvtepu32_epi64(_mm256_maskz_loadu_epi32(live, idx + i));
    const __m512i m = take != NULL ? _mm512_maskz_loadu_epi64(live, take + i)
                                   : _mm512_maskz_mov_epi64(live, _mm512_set1_epi64(-1));
    const __m512i b = _mm512_maskz_sllv_epi64(live, one, _mm512_and_si512(x, sixty3));
    _mm512_storeu_si512(word + i, _mm512_srli_epi64(x, 6));
    _mm512_storeu_si512(bit1 + i, _mm512_and_si512(b, m));
    _mm512_storeu_si512(bit0 + i, _mm512_andnot_si512(m, b));
  }
  /* Word numbers of a group as 16-bit lanes; bits 8q..8q+7 of the compare's
   * mask are block q. */
  const __m512i iota = _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
                                        16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  for (uint32_t g = 0; g < n; g += GROUP) {
    __m512i u0 = _mm512_setzero_si512(), u1 = u0, u2 = u0, u3 = u0;
    __m512i v0 = u0, v1 = u0, v2 = u0, v3 = u0;
    const __m512i j = _mm512_add_epi16(_mm512_set1_epi16((short)g), iota);
    for (uint32_t i = 0; i < count; i++) {
      const __mmask32 k = _mm512_cmpeq_epi16_mask(j, _mm512_set1_epi16((short)word[i]));
      const __mmask8 k0 = (__mmask8)k, k1 = (__mmask8)(k >> 8), k2 = (__mmask8)(k >> 16);
      const __mmask8 k3 = (__mmask8)(k >> 24);
      const __m512i b1 = _mm512_set1_epi64((long long)bit1[i]);
      v0 = _mm512_mask_xor_epi64(v0, k0, v0, b1);
      v1 = _mm512_mask_xor_epi64(v1, k1, v1, b1);
      v2 = _mm512_mask_xor_epi64(v2, k2, v2, b1);
      v3 = _mm512_mask_xor_epi64(v3, k3, v3, b1);
      if (two) { /* a compile-time constant */
        const __m512i b0 = _mm512_set1_epi64((long long)bit0[i]);
        u0 = _mm512_mask_xor_epi64(u0, k0, u0, b0);
        u1 = _mm512_mask_xor_epi64(u1, k1, u1, b0);
        u2 = _mm512_mask_xor_epi64(u2, k2, u2, b0);
        u3 = _mm512_mask_xor_epi64(u3, k3, u3, b0);
      }
    }
    _mm512_storeu_si512(acc1 + g, v0);
    _mm512_storeu_si512(acc1 + g + 8, v1);
    _mm512_storeu_si512(acc1 + g + 16, v2);
    _mm512_storeu_si512(acc1 + g + 24, v3);
    if (two) {
      _mm512_storeu_si512(acc0 + g, u0);
      _mm512_storeu_si512(acc0 + g + 8, u1);
      _mm512_storeu_si512(acc0 + g + 16, u2);
      _mm512_storeu_si512(acc0 + g + 24, u3);
    }
  }
  const size_t tables = ((count + 7) & ~7u) * sizeof(uint64_t);
  bike_wipe(word, tables);
  bike_wipe(bit0, tables);
  bike_wipe(bit1, tables);
}

/* a1 (and a0 if two) from any count of indices, MAX_COUNT at a time. */
static inline void dense(const bike_params *p, uint64_t *a0, uint64_t *a1, const uint32_t *idx,
                         const uint64_t *take, uint32_t count, int two) {
  uint64_t acc0[BIKE_MAX_QWORDS + GROUP], acc1[BIKE_MAX_QWORDS + GROUP];
  const uint32_t n = p->r_qwords;
  uint32_t start = 0;
  do {
    const uint32_t c = count - start < MAX_COUNT ? count - start : MAX_COUNT;
    dense_chunk(p, acc0, acc1, idx + start, take != NULL ? take + start : NULL, c, two);
    for (uint32_t w = 0; w < n; w++) { /* the first chunk's result, or the sum */
      a1[w] = (start == 0 ? 0 : a1[w]) ^ acc1[w];
      if (two) {
        a0[w] = (start == 0 ? 0 : a0[w]) ^ acc0[w];
      }
    }
    start += c;
  } while (start < count);
  const size_t written = ((n + GROUP - 1) / GROUP) * GROUP * sizeof(uint64_t);
  bike_wipe(acc1, written);
  if (two) {
    bike_wipe(acc0, written);
  }
}

void bike_support_dense_avx512(const bike_params *p, uint64_t *a, const uint32_t *idx,
                               const uint64_t *take, uint32_t count) {
  dense(p, NULL, a, idx, take, count, 0);
}

void bike_support_dense2_avx512(const bike_params *p, uint64_t *a0, uint64_t *a1,
                                const uint32_t *idx, const uint64_t *take, uint32_t count) {
  dense(p, a0, a1, idx, take, count, 1);
}
