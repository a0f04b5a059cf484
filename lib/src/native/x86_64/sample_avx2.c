/* The constant-time Fisher-Yates draw with AVX2: the scan for an earlier
 * equal position compares eight positions at once. Positions not drawn yet
 * hold a value no draw can take, so every scan can start at a whole vector;
 * its bounds and the lane a position enters depend only on the public step.
 * The scan ORs the vector that took a position one step ago last: the others
 * are older, so only one compare and one OR of the scan lie on the chain
 * from one step's draw to the next one's. */
#include <immintrin.h>

#include "common/bytes.h"
#include "common/ct.h"
#include "native/backend.h"

#define NOT_DRAWN 0xffffffffu /* above every bound */

void bike_fisher_yates_avx2(uint32_t *pos, uint32_t count, uint32_t bound, const uint8_t *words) {
  __m256i drawn[(BIKE_MAX_T + 7) / 8];
  if (count == 0) {
    return;
  }
  const uint32_t nv = (count + 7) / 8;
  const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (uint32_t v = 0; v < nv; v++) {
    drawn[v] = _mm256_set1_epi32((int)NOT_DRAWN);
  }
  /* The position drawn last is compared in a scalar register and enters
   * the vectors one step late, off the step-to-step critical path. */
  uint32_t last = NOT_DRAWN;
  for (uint32_t i = count; i-- > 0;) {
    const uint64_t scaled = (uint64_t)load32_le(words + 4 * ((size_t)count - 1 - i)) * (bound - i);
    const uint32_t l = i + (uint32_t)(scaled >> 32);
    const __m256i vl = _mm256_set1_epi32((int)l);
    __m256i hits = _mm256_setzero_si256();
    for (uint32_t v = nv; v-- > (i + 2) / 8;) { /* the vector changed last, last */
      hits = _mm256_or_si256(hits, _mm256_cmpeq_epi32(drawn[v], vl));
    }
    if (i + 1 < count) { /* public: pos[i + 1] exists */
      const uint32_t v = (i + 1) / 8;
      const __m256i at = _mm256_cmpeq_epi32(lanes, _mm256_set1_epi32((int)((i + 1) % 8)));
      drawn[v] = _mm256_blendv_epi8(drawn[v], _mm256_set1_epi32((int)last), at);
    }
    const uint64_t dup = ~ct_mask_nonzero((uint64_t)_mm256_testz_si256(hits, hits)) |
                         ct_mask_eq(l, last);
    last = (uint32_t)ct_select(dup, i, l);
  }
  const __m256i first = _mm256_cmpeq_epi32(lanes, _mm256_setzero_si256());
  drawn[0] = _mm256_blendv_epi8(drawn[0], _mm256_set1_epi32((int)last), first);
  for (uint32_t v = 0; v < nv; v++) {
    uint32_t lane[8];
    _mm256_storeu_si256((__m256i *)(void *)lane, drawn[v]);
    for (uint32_t t = 0; t < 8 && 8 * v + t < count; t++) {
      pos[8 * v + t] = lane[t];
    }
    bike_wipe(lane, sizeof(lane));
  }
  bike_wipe(drawn, sizeof(drawn));
}
