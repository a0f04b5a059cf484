/* The dense polynomial of a support with AVX2: every index against every
 * word, four indices per pass over the words. The bit inside the word comes
 * from a per-lane variable shift, so no scalar shift count depends on an
 * index either. */
#include <immintrin.h>
#include <string.h>

#include "common/ct.h"
#include "native/backend.h"

static inline __m256i ld(const uint64_t *x) { return _mm256_loadu_si256((const __m256i *)(const void *)x); }
static inline void st(uint64_t *x, __m256i v) { _mm256_storeu_si256((__m256i *)(void *)x, v); }

void bike_support_dense_avx2(const bike_params *p, uint64_t *a, const uint32_t *idx,
                             const uint64_t *take, uint32_t count) {
  uint64_t acc[BIKE_MAX_QWORDS + 4];
  const uint32_t n = p->r_qwords, n4 = (n + 3) & ~3u;
  const __m256i one = _mm256_set1_epi64x(1), sixty3 = _mm256_set1_epi64x(63);
  const __m256i four = _mm256_set1_epi64x(4);
  memset(acc, 0, n4 * sizeof(uint64_t));
  for (uint32_t i = 0; i < count; i += 4) {
    __m256i w[4], bit[4];
    for (uint32_t t = 0; t < 4; t++) {
      /* Past the end: an index of word 2^32 - 1 and no bit, matching nothing. */
      const int live = i + t < count;
      const uint64_t x = live ? idx[i + t] : 0;
      const uint64_t m = live ? (take != NULL ? take[i + t] : ~(uint64_t)0) : 0;
      w[t] = _mm256_set1_epi64x((long long)(x >> 6));
      bit[t] = _mm256_and_si256(_mm256_sllv_epi64(one, _mm256_and_si256(_mm256_set1_epi64x((long long)x), sixty3)),
                                _mm256_set1_epi64x((long long)m));
    }
    __m256i j = _mm256_set_epi64x(3, 2, 1, 0);
    for (uint32_t k = 0; k < n4; k += 4) {
      __m256i v = ld(acc + k);
      for (uint32_t t = 0; t < 4; t++) {
        v = _mm256_xor_si256(v, _mm256_and_si256(_mm256_cmpeq_epi64(j, w[t]), bit[t]));
      }
      st(acc + k, v);
      j = _mm256_add_epi64(j, four);
    }
  }
  memcpy(a, acc, n * sizeof(uint64_t));
  bike_wipe(acc, n4 * sizeof(uint64_t));
}
