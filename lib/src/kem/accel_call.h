/* The KEM's calls of the operations an accelerator table may take over
 * (bike/accel.h): each runs the table's hook if it has one, else libbike's
 * function, and returns 0 or 1 (the hook failed). The KEM ORs the results and
 * fails as a whole, so there is one control flow for every placement. */
#ifndef BIKE_KEM_ACCEL_CALL_H
#define BIKE_KEM_ACCEL_CALL_H

#include "bike/accel.h"

int acc_sample_keygen(const bike_accel *t, const bike_params *p, uint32_t *h0_idx,
                      uint32_t *h1_idx, const uint8_t seed[BIKE_M_BYTES]);
int acc_gf2x_inv(const bike_accel *t, const bike_params *p, uint64_t *c, const uint64_t *a);
int acc_gf2x_mul(const bike_accel *t, bike_accel_site site, const bike_params *p, uint64_t *c,
                 const uint64_t *a, const uint64_t *b);
int acc_decode(const bike_accel *t, const bike_params *p, uint64_t *e0, uint64_t *e1,
               uint64_t *ok, const uint64_t *s, const uint32_t *h0_idx, const uint32_t *h1_idx);
int acc_function_h(const bike_accel *t, bike_accel_site site, const bike_params *p, uint64_t *e0,
                   uint64_t *e1, const uint8_t m[BIKE_M_BYTES]);
int acc_function_l(const bike_accel *t, bike_accel_site site, const bike_params *p,
                   uint8_t out[BIKE_HASH_OUT_BYTES], const uint64_t *e0, const uint64_t *e1);
int acc_function_k(const bike_accel *t, bike_accel_site site, const bike_params *p,
                   uint8_t out[BIKE_HASH_OUT_BYTES], const uint8_t m[BIKE_M_BYTES],
                   const uint8_t *ct);

#endif
