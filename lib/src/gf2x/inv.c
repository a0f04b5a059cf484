/* Inversion in R by Fermat's little theorem and an addition chain.
 *
 * R = GF(2)[x]/(x^r - 1) is GF(2) x GF(2^(r-1)) for the BIKE primes, so a
 * unit a (odd weight) satisfies a^(2^(r-1) - 1) = 1 and
 * a^-1 = a^(2^(r-1) - 2) = (a^(2^(r-2) - 1))^2.
 * With b_n = a^(2^n - 1): b_(i+j) = b_i^(2^j) * b_j, so an addition chain
 * for n = r - 2 gives b_(r-2) with one multiplication per step (and one
 * k-squaring, a bit permutation for large k). Walking the bits of n from
 * the top (b_2i and b_(i+1)) takes floor(log2 n) + popcount(n) - 1 steps;
 * for r = 40973 (L5) a shorter chain is written out below. */
#include <string.h>

#include "bike/ops.h"
#include "common/ct.h"
#include "native/backend.h"

/* slot dst = (slot src)^(2^k) * slot mul: b_i in src and b_k in mul make
 * b_(i+k). Slot 0 is a (b_1), slot 1 the running value (b_1 at first),
 * slot 2 a saved one. */
typedef struct {
  uint8_t dst, src, mul;
  uint16_t k;
} chain_step;

/* n = 40971 = 10 * 2^12 + 11: b_5 from 1, 2, 4, 5; b_10, and b_11 = b_10^2
 * a saved; twelve doublings to b_40960 and b_40960^(2^11) b_11. 18 steps
 * where the bit walk takes 19. */
static const chain_step chain_40971[] = {
    {1, 1, 1, 1},     {1, 1, 1, 2},     {1, 1, 0, 1},     {1, 1, 1, 5},    {2, 1, 0, 1},
    {1, 1, 1, 10},    {1, 1, 1, 20},    {1, 1, 1, 40},    {1, 1, 1, 80},   {1, 1, 1, 160},
    {1, 1, 1, 320},   {1, 1, 1, 640},   {1, 1, 1, 1280},  {1, 1, 1, 2560}, {1, 1, 1, 5120},
    {1, 1, 1, 10240}, {1, 1, 1, 20480}, {1, 1, 2, 11},
};

#define CHAIN_MAX 64

/* The bit walk of n as steps; returns their number. */
static size_t bit_walk(chain_step *s, uint32_t n) {
  size_t len = 0;
  int top = 31;
  while (((n >> top) & 1) == 0) {
    top--;
  }
  uint32_t e = 1;
  for (int bit = top - 1; bit >= 0; bit--) {
    s[len++] = (chain_step){1, 1, 1, (uint16_t)e}; /* b_2e */
    e *= 2;
    if ((n >> bit) & 1) {
      s[len++] = (chain_step){1, 1, 0, 1}; /* b_(e+1) */
      e += 1;
    }
  }
  return len;
}

void bike_gf2x_inv(const bike_params *p, uint64_t *c, const uint64_t *a) {
  uint64_t slot[3][BIKE_MAX_QWORDS];
  uint64_t t[BIKE_MAX_QWORDS];
  uint64_t scratch[BIKE_SCRATCH_MAX]; /* the kernels', wiped once at the end */
  chain_step walk[CHAIN_MAX];
  const uint32_t n = p->r - 2;
  const size_t bytes = p->r_qwords * sizeof(uint64_t);
  const chain_step *steps = chain_40971;
  size_t len = sizeof(chain_40971) / sizeof(chain_40971[0]);
  if (n != 40971) {
    len = bit_walk(walk, n);
    steps = walk;
  }
  memcpy(slot[0], a, bytes);
  memcpy(slot[1], a, bytes);
  for (size_t i = 0; i < len; i++) {
    bike_gf2x_sqr_k_scratch(p, t, slot[steps[i].src], steps[i].k, scratch);
    bike_gf2x_mul_scratch(p, slot[steps[i].dst], t, slot[steps[i].mul], scratch);
  }
  bike_gf2x_sqr_k_scratch(p, c, slot[1], 1, scratch);
  bike_wipe(slot, sizeof(slot));
  bike_wipe(t, sizeof(t));
  /* Once per inversion, the level's bound (the larger one, sqr_k's). */
  bike_wipe(scratch, bike_sqr_k_scratch_words(p) * sizeof(uint64_t));
}
