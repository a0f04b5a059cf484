/* Inversion in R by Fermat's little theorem and an addition chain, in the
 * subfield that sigma fixes.
 *
 * R = GF(2)[x]/(x^r - 1) is GF(2) x GF(2^(r-1)) for the BIKE primes (2
 * generates the units mod r). With h = (r - 1) / 2, 2^h = -1 mod r, so
 * a^(2^h) = a(x^-1) =: sigma(a), a bit permutation, and N = a sigma(a)
 * (the norm to the subfield GF(2^h) that sigma fixes) is sigma-invariant.
 * Then a^-1 = sigma(a) N^-1, and in that subfield
 * N^-1 = N^(2^h - 2) = (N^(2^(h-1) - 1))^2.
 * With b_n = N^(2^n - 1): b_(i+j) = b_i^(2^j) * b_j, so an addition chain
 * for h - 1 gives b_(h-1) with one multiplication per step (and one
 * k-squaring, a bit permutation for large k). Walking the bits of n from
 * the top (b_2i and b_(i+1)) takes floor(log2 n) + popcount(n) - 1 steps;
 * for h - 1 = 20485 (L5) a shorter chain is written out below.
 * Every product of the chain has sigma-invariant operands of odd weight,
 * which the back ends' mul_sym multiplies from half their bits: 14, 16 and
 * 16 such products and two general ones at L1, L3 and L5, where the chain
 * for r - 2 over all of R took 16, 18 and 18 general products. */
#include <string.h>

#include "bike/ops.h"
#include "common/ct.h"
#include "native/backend.h"
#include "native/sym_bits.h"

/* slot dst = (slot src)^(2^k) * slot mul: b_i in src and b_k in mul make
 * b_(i+k). Slot 0 is N (b_1), slot 1 the running value (b_1 at first),
 * slot 2 a saved one. */
typedef struct {
  uint8_t dst, src, mul;
  uint16_t k;
} chain_step;

/* n = 20485 = 5 * 2^12 + 5: b_5 from 1, 2, 4, 5; b_10 in slot 2, which
 * doubles eleven times to b_20480 while slot 1 keeps b_5; then b_20480^(2^5)
 * b_5. 16 steps where the bit walk takes 17. */
static const chain_step chain_20485[] = {
    {1, 1, 1, 1},     {1, 1, 1, 2},     {1, 1, 0, 1},     {2, 1, 1, 5},    {2, 2, 2, 10},
    {2, 2, 2, 20},    {2, 2, 2, 40},    {2, 2, 2, 80},    {2, 2, 2, 160},  {2, 2, 2, 320},
    {2, 2, 2, 640},   {2, 2, 2, 1280},  {2, 2, 2, 2560},  {2, 2, 2, 5120}, {2, 2, 2, 10240},
    {1, 2, 1, 5},
};

#define CHAIN_MAX 64

/* c = sigma(a): bit j of c is bit (r - j) mod r of a. With a read as a
 * 64n-bit string and reversed (word i of rev is word n - 1 - i of a, its
 * bits reversed), bit t of rev is bit 64n - 1 - t of a, so bits 1..r - 1
 * of c are rev shifted down by 64n - r - 1, and bit 0 stays. A reversal and
 * a shift by the public r: far cheaper than the k-squaring by h, a general
 * bit permutation. rev needs n + 1 words. */
static void sigma(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t *rev) {
  const size_t n = p->r_qwords;
  for (size_t i = 0; i < n; i++) {
    rev[i] = sym_rev64(a[n - 1 - i]);
  }
  rev[n] = 0;
  sym_window(c, n, rev, (int64_t)(64 * n - p->r - 1));
  c[0] |= a[0] & 1;
  c[n - 1] &= ((uint64_t)1 << (p->r % 64)) - 1;
}

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
  uint64_t t[BIKE_MAX_QWORDS], conj[BIKE_MAX_QWORDS];
  uint64_t scratch[BIKE_SCRATCH_MAX]; /* the kernels', wiped once at the end */
  chain_step walk[CHAIN_MAX];
  const uint32_t h = (p->r - 1) / 2, n = h - 1;
  const size_t bytes = p->r_qwords * sizeof(uint64_t);
  const chain_step *steps = chain_20485;
  size_t len = sizeof(chain_20485) / sizeof(chain_20485[0]);
  if (n != 20485) {
    len = bit_walk(walk, n);
    steps = walk;
  }
  sigma(p, conj, a, scratch);
  bike_gf2x_mul_scratch(p, slot[0], a, conj, scratch);
  memcpy(slot[1], slot[0], bytes);
  for (size_t i = 0; i < len; i++) {
    bike_gf2x_sqr_k_sym_scratch(p, t, slot[steps[i].src], steps[i].k, scratch);
    bike_gf2x_mul_sym_scratch(p, slot[steps[i].dst], t, slot[steps[i].mul], scratch);
  }
  bike_gf2x_sqr_k_sym_scratch(p, t, slot[1], 1, scratch); /* N^-1 */
  bike_gf2x_mul_scratch(p, c, conj, t, scratch);
  bike_wipe(slot, sizeof(slot));
  bike_wipe(t, sizeof(t));
  bike_wipe(conj, sizeof(conj));
  /* Once per inversion, the level's bound (the larger one, sqr_k's). */
  bike_wipe(scratch, bike_sqr_k_scratch_words(p) * sizeof(uint64_t));
}
