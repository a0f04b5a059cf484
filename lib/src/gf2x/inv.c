/* Inversion in R by Fermat's little theorem and an Itoh-Tsujii chain.
 *
 * R = GF(2)[x]/(x^r - 1) is GF(2) x GF(2^(r-1)) for the BIKE primes, so a
 * unit a (odd weight) satisfies a^(2^(r-1) - 1) = 1 and
 * a^-1 = a^(2^(r-1) - 2) = (a^(2^(r-2) - 1))^2.
 * With b_n = a^(2^n - 1): b_2n = b_n^(2^n) * b_n and b_(n+1) = b_n^2 * a.
 * Walking the bits of n = r - 2 from the top gives b_(r-2) in
 * floor(log2(r-2)) + popcount(r-2) - 1 multiplications. */
#include <string.h>

#include "bike/ops.h"
#include "common/ct.h"

void bike_gf2x_inv(const bike_params *p, uint64_t *c, const uint64_t *a) {
  uint64_t b[BIKE_MAX_QWORDS];
  uint64_t t[BIKE_MAX_QWORDS];
  const uint32_t n = p->r - 2;
  const size_t bytes = p->r_qwords * sizeof(uint64_t);

  int top = 31;
  while (((n >> top) & 1) == 0) {
    top--;
  }
  memcpy(b, a, bytes); /* b_1 */
  uint32_t e = 1;
  for (int bit = top - 1; bit >= 0; bit--) {
    bike_gf2x_sqr_k(p, t, b, e);
    bike_gf2x_mul(p, b, t, b);
    e *= 2;
    if ((n >> bit) & 1) {
      bike_gf2x_sqr_k(p, t, b, 1);
      bike_gf2x_mul(p, b, t, a);
      e += 1;
    }
  }
  bike_gf2x_sqr_k(p, c, b, 1);
  bike_wipe(b, sizeof(b));
  bike_wipe(t, sizeof(t));
}
