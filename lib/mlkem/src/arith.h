/* Arithmetic mod q = 3329 on int16_t coefficients, without branches or
 * divisions. R = 2^16 is the Montgomery radix. */
#ifndef MLKEM_ARITH_H
#define MLKEM_ARITH_H

#include <stdint.h>

#include "common/ct.h"
#include "params.h"

#define MLKEM_QINV 62209u    /* q^-1 mod 2^16 */
#define MLKEM_BARRETT_V 20159 /* round(2^26 / q) */
#define MLKEM_R2 1353         /* R^2 mod q: fqmul by it multiplies by R */

/* a R^-1 mod q, in (-q, q), for |a| < q 2^15. */
static inline int16_t mlkem_montgomery_reduce(int32_t a) {
  /* t = a q^-1 mod 2^16, taken as signed; a - t q is then a multiple of 2^16. */
  const int16_t t = (int16_t)(uint16_t)((uint32_t)a * MLKEM_QINV);
  return (int16_t)((a - (int32_t)t * MLKEM_Q) >> 16);
}

/* a b R^-1 mod q, in (-q, q). */
static inline int16_t mlkem_fqmul(int16_t a, int16_t b) {
  return mlkem_montgomery_reduce((int32_t)a * b);
}

/* a mod q, centred: in [-(q-1)/2, (q-1)/2] for every int16_t a. */
static inline int16_t mlkem_barrett_reduce(int16_t a) {
  const int16_t t = (int16_t)(((int32_t)MLKEM_BARRETT_V * a + (1 << 25)) >> 26);
  return (int16_t)(a - t * MLKEM_Q);
}

/* a mod q in [0, q) for every int16_t a. */
static inline int16_t mlkem_freeze(int16_t a) {
  const int16_t r = mlkem_barrett_reduce(a);
  return (int16_t)(r + ((r >> 15) & MLKEM_Q));
}

/* floor(y / q) for y < 2^23: a multiplication, not a division (whose time
 * may depend on its operands). 2^36 / q rounded up is exact over that range. */
static inline uint32_t mlkem_div_q(uint32_t y) {
  return (uint32_t)(((uint64_t)y * 20642679u) >> 36);
}

/* MemorySanitizer treats a product by an odd constant as carrying only its
 * operand's poisoned bits, which the shifts of Barrett reduction and of
 * mlkem_div_q then drop: it would lose secrets that valgrind follows. So
 * in the MSan check build every function of polynomials ends with this:
 * its output is secret wherever an input was (ct.h's ct_msan_taint;
 * test_ct's ML-KEM canary proves the taint reaches the shared key). */
static inline void mlkem_msan_taint(int16_t *out, const int16_t *in, size_t n) {
  ct_msan_taint(out, n * sizeof(int16_t), in, n * sizeof(int16_t));
}

#endif
