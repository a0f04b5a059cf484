/* The dense polynomial of a support with AVX2: every index against every
 * word, four indices per pass over the words. The bit inside the word comes
 * from a per-lane variable shift, so no scalar shift count depends on an
 * index either. The two-polynomial form (H's e0 and e1) shares the
 * compares. */
#include <immintrin.h>
#include <string.h>

#include "common/ct.h"
#include "native/backend.h"

static inline __m256i ld(const uint64_t *x) { return _mm256_loadu_si256((const __m256i *)(const void *)x); }
static inline void st(uint64_t *x, __m256i v) { _mm256_storeu_si256((__m256i *)(void *)x, v); }

/* a1 = the support of the indices with take all-ones (every index if take
 * is NULL); with two, also a0 = that of the others, in the same pass. */
static inline __attribute__((always_inline)) void dense(const bike_params *p, uint64_t *a0,
                                                        uint64_t *a1, const uint32_t *idx,
                                                        const uint64_t *take, uint32_t count,
                                                        const int two) {
  uint64_t acc[2][BIKE_MAX_QWORDS + 4];
  const uint32_t n = p->r_qwords, n4 = (n + 3) & ~3u;
  const __m256i one = _mm256_set1_epi64x(1), sixty3 = _mm256_set1_epi64x(63);
  const __m256i four = _mm256_set1_epi64x(4);
  memset(acc[1], 0, n4 * sizeof(uint64_t));
  if (two) {
    memset(acc[0], 0, n4 * sizeof(uint64_t));
  }
  for (uint32_t i = 0; i < count; i += 4) {
    __m256i w[4], bit1[4], bit0[4];
    for (uint32_t t = 0; t < 4; t++) {
      /* Past the end: no bit, so it adds nothing. */
      const int live = i + t < count;
      const uint64_t x = live ? idx[i + t] : 0;
      const uint64_t m = take != NULL && live ? take[i + t] : ~(uint64_t)0;
      const __m256i bit = _mm256_sllv_epi64(one, _mm256_and_si256(_mm256_set1_epi64x((long long)x), sixty3));
      const __m256i vm = _mm256_set1_epi64x((long long)m);
      const __m256i vlive = _mm256_set1_epi64x(live ? -1 : 0);
      w[t] = _mm256_set1_epi64x((long long)(x >> 6));
      bit1[t] = _mm256_and_si256(_mm256_and_si256(bit, vm), vlive);
      bit0[t] = _mm256_and_si256(_mm256_andnot_si256(vm, bit), vlive);
    }
    __m256i j = _mm256_set_epi64x(3, 2, 1, 0);
    for (uint32_t k = 0; k < n4; k += 4) {
      __m256i v1 = ld(acc[1] + k), v0 = two ? ld(acc[0] + k) : v1;
      for (uint32_t t = 0; t < 4; t++) {
        const __m256i hit = _mm256_cmpeq_epi64(j, w[t]);
        v1 = _mm256_xor_si256(v1, _mm256_and_si256(hit, bit1[t]));
        if (two) {
          v0 = _mm256_xor_si256(v0, _mm256_and_si256(hit, bit0[t]));
        }
      }
      st(acc[1] + k, v1);
      if (two) {
        st(acc[0] + k, v0);
      }
      j = _mm256_add_epi64(j, four);
    }
  }
  memcpy(a1, acc[1], n * sizeof(uint64_t));
  bike_wipe(acc[1], n4 * sizeof(uint64_t));
  if (two) {
    memcpy(a0, acc[0], n * sizeof(uint64_t));
    bike_wipe(acc[0], n4 * sizeof(uint64_t));
  }
}

void bike_support_dense_avx2(const bike_params *p, uint64_t *a, const uint32_t *idx,
                             const uint64_t *take, uint32_t count) {
  dense(p, NULL, a, idx, take, count, 0);
}

void bike_support_dense2_avx2(const bike_params *p, uint64_t *a0, uint64_t *a1,
                              const uint32_t *idx, const uint64_t *take, uint32_t count) {
  dense(p, a0, a1, idx, take, count, 1);
}
