/* Serialisation and weight of polynomials in R. */
#include "bike/ops.h"
#include "common/ct.h"

static uint64_t top_word_mask(const bike_params *p) {
  return ((uint64_t)1 << (p->r % 64)) - 1; /* r is odd, so r % 64 != 0 */
}

uint64_t bike_poly_from_bytes(const bike_params *p, uint64_t *a, const uint8_t *bytes) {
  for (uint32_t w = 0; w < p->r_qwords; w++) {
    a[w] = 0;
  }
  for (uint32_t i = 0; i < p->r_bytes; i++) {
    a[i / 8] |= (uint64_t)bytes[i] << (8 * (i % 8));
  }
  uint64_t excess = a[p->r_qwords - 1] & ~top_word_mask(p);
  a[p->r_qwords - 1] &= top_word_mask(p);
  return ~ct_mask_nonzero(excess);
}

void bike_poly_to_bytes(const bike_params *p, uint8_t *bytes, const uint64_t *a) {
  for (uint32_t i = 0; i < p->r_bytes; i++) {
    bytes[i] = (uint8_t)(a[i / 8] >> (8 * (i % 8)));
  }
}

uint32_t bike_poly_weight(const bike_params *p, const uint64_t *a) {
  uint32_t w = 0;
  for (uint32_t i = 0; i < p->r_qwords; i++) {
    w += ct_popcount64(a[i]);
  }
  return w;
}
