/* The hash functions L and K of spec 5.1 (H is in sample/sample.c). */
#include <string.h>

#include "bike/ops.h"
#include "common/ct.h"

void bike_function_l(const bike_params *p, uint8_t out[BIKE_HASH_OUT_BYTES], const uint64_t *e0,
                     const uint64_t *e1) {
  uint8_t buf[2 * BIKE_MAX_R_BYTES];
  uint8_t digest[BIKE_SHA3_384_BYTES];
  bike_poly_to_bytes(p, buf, e0);
  bike_poly_to_bytes(p, buf + p->r_bytes, e1);
  bike_sha3_384(digest, buf, 2 * (size_t)p->r_bytes);
  memcpy(out, digest, BIKE_HASH_OUT_BYTES);
  bike_wipe(buf, 2 * (size_t)p->r_bytes);
  bike_wipe(digest, sizeof(digest));
}

void bike_function_k(const bike_params *p, uint8_t out[BIKE_HASH_OUT_BYTES],
                     const uint8_t m[BIKE_M_BYTES], const uint8_t *ct) {
  uint8_t buf[BIKE_M_BYTES + BIKE_MAX_R_BYTES + BIKE_M_BYTES];
  uint8_t digest[BIKE_SHA3_384_BYTES];
  memcpy(buf, m, BIKE_M_BYTES);
  memcpy(buf + BIKE_M_BYTES, ct, p->ct_bytes);
  bike_sha3_384(digest, buf, BIKE_M_BYTES + (size_t)p->ct_bytes);
  memcpy(out, digest, BIKE_HASH_OUT_BYTES);
  bike_wipe(buf, BIKE_M_BYTES);
  bike_wipe(digest, sizeof(digest));
}
