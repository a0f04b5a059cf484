/* Exponentiation by 2^k in R: since squaring is linear over GF(2) and
 * x^(i 2^k) = x^(i 2^k mod r), a^(2^k) moves bit i to bit (i * 2^k) mod r.
 * The permutation depends only on the public k. */
#include <string.h>

#include "bike/ops.h"
#include "native/backend.h"

size_t bike_gf2x_sqr_k_c(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t k,
                         uint64_t *scratch) {
  uint64_t *out = scratch; /* n words: c may be a */
  const uint32_t r = p->r;
  const uint32_t step = bike_pow2_mod(k, r);
  memset(out, 0, p->r_qwords * sizeof(uint64_t));
  uint32_t j = 0; /* j = i * step mod r */
  for (uint32_t i = 0; i < r; i++) {
    uint64_t bit = (a[i / 64] >> (i % 64)) & 1;
    out[j / 64] |= bit << (j % 64);
    j += step;
    if (j >= r) {
      j -= r;
    }
  }
  memcpy(c, out, p->r_qwords * sizeof(uint64_t));
  return p->r_qwords;
}
