/* The constant-time Fisher-Yates draw with AVX-512: the scan for an earlier
 * equal position compares sixteen positions at once. Positions not drawn
 * yet hold a value no draw can take, so every scan can start at a whole
 * vector; its bounds depend only on the public step i. */
#include <immintrin.h>

#include "common/bytes.h"
#include "common/ct.h"
#include "native/backend.h"

#define NOT_DRAWN 0xffffffffu /* above every bound */

void bike_fisher_yates_avx512(uint32_t *pos, uint32_t count, uint32_t bound,
                              const uint8_t *words) {
  /* Whole vectors only: a vector load of a just-stored single position
   * would stall on store forwarding at every step. */
  __m512i drawn[(BIKE_MAX_T + 15) / 16];
  if (count == 0) {
    return;
  }
  const uint32_t nv = (count + 15) / 16;
  for (uint32_t v = 0; v < nv; v++) {
    drawn[v] = _mm512_set1_epi32((int)NOT_DRAWN);
  }
  /* The position drawn last is compared in a scalar register and enters
   * the vectors one step late, off the step-to-step critical path. */
  uint32_t last = NOT_DRAWN;
  for (uint32_t i = count; i-- > 0;) {
    const uint64_t scaled = (uint64_t)load32_le(words + 4 * ((size_t)count - 1 - i)) * (bound - i);
    const uint32_t l = i + (uint32_t)(scaled >> 32);
    const __m512i vl = _mm512_set1_epi32((int)l);
    uint32_t hits = 0;
    for (uint32_t v = nv; v-- > (i + 2) / 16;) { /* the vector changed last, last */
      hits |= _mm512_cmpeq_epi32_mask(drawn[v], vl);
    }
    if (i + 1 < count) { /* public: pos[i + 1] exists */
      drawn[(i + 1) / 16] =
          _mm512_mask_set1_epi32(drawn[(i + 1) / 16], (__mmask16)(1u << ((i + 1) % 16)), (int)last);
    }
    const uint64_t dup = ct_mask_nonzero(hits) | ct_mask_eq(l, last);
    last = (uint32_t)ct_select(dup, i, l);
  }
  drawn[0] = _mm512_mask_set1_epi32(drawn[0], 1, (int)last);
  for (uint32_t v = 0; v < nv; v++) {
    const uint32_t left = count - 16 * v;
    _mm512_mask_storeu_epi32(pos + 16 * v, (__mmask16)(left >= 16 ? 0xffff : (1u << left) - 1),
                             drawn[v]);
  }
  bike_wipe(drawn, sizeof(drawn));
  /* MemorySanitizer loses secrets through the mask instructions above. */
  ct_msan_taint(pos, count * sizeof(uint32_t), words, 4 * (size_t)count);
}
