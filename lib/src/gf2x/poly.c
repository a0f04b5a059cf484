/* Serialisation, weight, and the dense polynomial of a support, in R. */
#include <string.h>

#include "bike/ops.h"
#include "common/bytes.h"
#include "common/ct.h"
#include "native/backend.h"

static uint64_t top_word_mask(const bike_params *p) {
  return ((uint64_t)1 << (p->r % 64)) - 1; /* r is odd, so r % 64 != 0 */
}

uint64_t bike_poly_from_bytes(const bike_params *p, uint64_t *a, const uint8_t *bytes) {
  for (uint32_t w = 0; w < p->r_qwords; w++) {
    a[w] = 0;
  }
  uint32_t i = 0;
  for (; i + 8 <= p->r_bytes; i += 8) {
    a[i / 8] = load64_le(bytes + i);
  }
  for (; i < p->r_bytes; i++) {
    a[i / 8] |= (uint64_t)bytes[i] << (8 * (i % 8));
  }
  uint64_t excess = a[p->r_qwords - 1] & ~top_word_mask(p);
  a[p->r_qwords - 1] &= top_word_mask(p);
  return ~ct_mask_nonzero(excess);
}

void bike_poly_to_bytes(const bike_params *p, uint8_t *bytes, const uint64_t *a) {
  uint32_t i = 0;
  for (; i + 8 <= p->r_bytes; i += 8) {
    store64_le(bytes + i, a[i / 8]);
  }
  for (; i < p->r_bytes; i++) {
    bytes[i] = (uint8_t)(a[i / 8] >> (8 * (i % 8)));
  }
}

/* The portable weight kernel (contract in native/backend.h). */
uint32_t bike_poly_weight_c(const bike_params *p, const uint64_t *a) {
  uint32_t w = 0;
  for (uint32_t i = 0; i < p->r_qwords; i++) {
    w += ct_popcount64(a[i]);
  }
  return w;
}

/* The portable support-to-dense kernel (contract in native/backend.h):
 * every index against every word, the word loop innermost and branch-free so
 * that compilers vectorise it. */
void bike_support_dense_c(const bike_params *p, uint64_t *a, const uint32_t *idx,
                          const uint64_t *take, uint32_t count) {
  const uint32_t n = p->r_qwords;
  memset(a, 0, n * sizeof(uint64_t));
  for (uint32_t i = 0; i < count; i++) {
    const uint32_t w = idx[i] >> 6;
    const uint64_t bit =
        ((uint64_t)1 << (idx[i] & 63)) & (take != NULL ? take[i] : ~(uint64_t)0);
    for (uint32_t j = 0; j < n; j++) {
      /* all-ones where j == w, by arithmetic only (no compare to branch on) */
      uint64_t hit = (uint64_t)0 - (((uint64_t)(j ^ w) - 1) >> 63);
      a[j] ^= bit & hit;
    }
  }
}
