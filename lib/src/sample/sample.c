/* Fixed-weight sampling: the constant-time Fisher-Yates draw of spec 5.1. */
#include <string.h>

#include "bike/ops.h"
#include "common/bytes.h"
#include "common/ct.h"
#include "native/backend.h"

/* Step i of the draw, from its stream word. */
static void fisher_yates_step(uint32_t *pos, uint32_t count, uint32_t bound, uint32_t i,
                              uint32_t word) {
  /* l is uniform-ish in [i, bound) without a rejection loop. */
  const uint64_t scaled = (uint64_t)word * (bound - i);
  const uint32_t l = i + (uint32_t)(scaled >> 32);
  /* dup = 1 if l is already drawn: arithmetic only (x | -x has its top
   * bit set unless x = 0), so that compilers vectorise the scan. */
  uint32_t dup = 0;
  for (uint32_t j = i + 1; j < count; j++) {
    const uint32_t x = l ^ pos[j];
    dup |= 1u ^ ((x | (0u - x)) >> 31);
  }
  pos[i] = (uint32_t)ct_select((uint64_t)0 - dup, i, l);
}

/* The portable Fisher-Yates kernel (contract in native/backend.h). */
void bike_fisher_yates_c(uint32_t *pos, uint32_t count, uint32_t bound, const uint8_t *words) {
  for (uint32_t i = count; i-- > 0;) {
    fisher_yates_step(pos, count, bound, i, load32_le(words + 4 * ((size_t)count - 1 - i)));
  }
}

void bike_sample_fisher_yates(uint32_t *pos, uint32_t count, uint32_t bound,
                              bike_shake256_ctx *prf) {
  /* The whole draw's words at once, for the back end's kernel; BIKE's
   * draws (d and t positions) all fit, longer ones take the words one by
   * one (the same stream, the same positions). */
  uint8_t words[4 * BIKE_MAX_T];
  if (count <= BIKE_MAX_T) {
    bike_shake256_squeeze(prf, words, 4 * (size_t)count);
    bike_backend_current()->fisher_yates(pos, count, bound, words);
    bike_wipe(words, 4 * (size_t)count);
    return;
  }
  for (uint32_t i = count; i-- > 0;) {
    bike_shake256_squeeze(prf, words, 4);
    fisher_yates_step(pos, count, bound, i, load32_le(words));
  }
  bike_wipe(words, 4);
}

void bike_sample_keygen(const bike_params *p, uint32_t *h0_idx, uint32_t *h1_idx,
                        const uint8_t seed[BIKE_M_BYTES]) {
  bike_shake256_ctx prf;
  bike_shake256_absorb(&prf, seed, BIKE_M_BYTES);
  bike_sample_fisher_yates(h0_idx, p->d, p->r, &prf);
  bike_sample_fisher_yates(h1_idx, p->d, p->r, &prf);
  bike_shake256_wipe(&prf);
}

/* The back end's support kernel, the one key generation uses. */
void bike_poly_from_indices(const bike_params *p, uint64_t *a, const uint32_t *idx,
                            uint32_t count) {
  bike_support_dense(p, a, idx, NULL, count);
}

void bike_function_h(const bike_params *p, uint64_t *e0, uint64_t *e1, uint32_t *idx_out,
                     const uint8_t m[BIKE_M_BYTES]) {
  uint32_t idx[BIKE_MAX_T];
  uint32_t block_idx[BIKE_MAX_T];
  uint64_t in_e1[BIKE_MAX_T];
  bike_shake256_ctx prf;

  bike_shake256_absorb(&prf, m, BIKE_M_BYTES);
  bike_sample_fisher_yates(idx, p->t, 2 * p->r, &prf);
  bike_shake256_wipe(&prf);

  for (uint32_t i = 0; i < p->t; i++) {
    in_e1[i] = ~ct_mask_lt(idx[i], p->r);
    block_idx[i] = idx[i] - (uint32_t)(p->r & in_e1[i]);
  }
  bike_backend_current()->support_dense2(p, e0, e1, block_idx, in_e1, p->t);

  if (idx_out != NULL) {
    memcpy(idx_out, idx, p->t * sizeof(uint32_t));
  }
  bike_wipe(idx, sizeof(idx));
  bike_wipe(block_idx, sizeof(block_idx));
  bike_wipe(in_e1, sizeof(in_e1));
}

void bike_support_dense2_twice(const bike_params *p, uint64_t *a0, uint64_t *a1,
                               const uint32_t *idx, const uint64_t *take, uint32_t count) {
  uint64_t other[BIKE_MAX_T > BIKE_MAX_D ? BIKE_MAX_T : BIKE_MAX_D];
  for (uint32_t i = 0; i < count; i++) {
    other[i] = ~take[i];
  }
  bike_support_dense(p, a1, idx, take, count);
  bike_support_dense(p, a0, idx, other, count);
  bike_wipe(other, count * sizeof(uint64_t));
}
