/* Constant-time rotation and the binary sparse-dense product. */
#include <string.h>

#include "bike/ops.h"
#include "native/backend.h"
#include "common/ct.h"

void bike_gf2x_rotr_c(const bike_params *p, uint64_t *c, const uint64_t *a, uint32_t k) {
  /* buf holds a || a as a 2r-bit string; the rotation is the r-bit window
   * starting at bit k, moved down by a barrel shifter on whole words (every
   * stage touches every word). */
  uint64_t buf[2 * BIKE_MAX_QWORDS + 1];
  const uint32_t n = p->r_qwords;
  const uint32_t len = 2 * n + 1;
  bike_doubled(p, buf, a, len);

  const uint64_t q = k >> 6;
  uint32_t step = 1;
  while (2 * step < n) {
    step *= 2;
  }
  for (; step > 0; step >>= 1) {
    uint64_t take = ct_mask_nonzero(q & step);
    for (uint32_t i = 0; i + step < len; i++) {
      buf[i] = ct_select(take, buf[i + step], buf[i]);
    }
  }

  /* Then k % 64 bits, again in fixed stages of 32, 16, ..., 1 bits selected
   * by masks: no shift amount depends on k (valgrind rejects vector shifts
   * by secret amounts, and this keeps every back end uniform). */
  for (uint32_t b = 32; b > 0; b >>= 1) {
    uint64_t take = ct_mask_nonzero(k & b);
    for (uint32_t i = 0; i <= n; i++) {
      uint64_t shifted = (buf[i] >> b) | (buf[i + 1] << (64 - b));
      buf[i] = ct_select(take, shifted, buf[i]);
    }
  }
  memcpy(c, buf, n * sizeof(uint64_t));
  c[n - 1] &= ((uint64_t)1 << (p->r % 64)) - 1;
  bike_wipe(buf, len * sizeof(uint64_t));
}

void bike_gf2x_mul_sparse(const bike_params *p, uint64_t *c, const uint32_t *idx, uint32_t count,
                          const uint64_t *a) {
  uint64_t acc[BIKE_MAX_QWORDS];
  uint64_t rot[BIKE_MAX_QWORDS];
  memset(acc, 0, p->r_qwords * sizeof(uint64_t));
  for (uint32_t i = 0; i < count; i++) {
    /* x^k a is a rotated left by k, that is right by (r - k) mod r. */
    uint32_t k = idx[i];
    uint32_t right = (uint32_t)ct_select(ct_mask_eq(k, 0), 0, p->r - k);
    bike_gf2x_rotr(p, rot, a, right);
    for (uint32_t w = 0; w < p->r_qwords; w++) {
      acc[w] ^= rot[w];
    }
  }
  memcpy(c, acc, p->r_qwords * sizeof(uint64_t));
  bike_wipe(acc, sizeof(acc));
  bike_wipe(rot, sizeof(rot));
}
