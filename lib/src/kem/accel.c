/* The accelerator table in use (bike/accel.h) and the KEM's calls through it. */
#include <stdatomic.h>
#include <string.h>

#include "bike/accel.h"
#include "kem/accel_call.h"

static _Atomic(const bike_accel *) current;

int bike_set_accel(const bike_accel *table) {
  atomic_store_explicit(&current, table, memory_order_release);
  return BIKE_OK;
}

const bike_accel *bike_get_accel(void) {
  return atomic_load_explicit(&current, memory_order_acquire);
}

int acc_sample_keygen(const bike_accel *t, const bike_params *p, uint32_t *h0_idx,
                      uint32_t *h1_idx, const uint8_t seed[BIKE_M_BYTES]) {
  if (t != NULL && t->sample_keygen != NULL) {
    if (t->sample_keygen(t->ctx, p, h0_idx, h1_idx, seed) == 0) {
      return 0;
    }
    /* the KEM goes on to its end: positions it can use safely */
    memset(h0_idx, 0, p->d * sizeof(*h0_idx));
    memset(h1_idx, 0, p->d * sizeof(*h1_idx));
    return 1;
  }
  bike_sample_keygen(p, h0_idx, h1_idx, seed);
  return 0;
}

int acc_gf2x_inv(const bike_accel *t, const bike_params *p, uint64_t *c, const uint64_t *a) {
  if (t != NULL && t->gf2x_inv != NULL) {
    return t->gf2x_inv(t->ctx, p, c, a) != 0;
  }
  bike_gf2x_inv(p, c, a);
  return 0;
}

int acc_gf2x_mul(const bike_accel *t, bike_accel_site site, const bike_params *p, uint64_t *c,
                 const uint64_t *a, const uint64_t *b) {
  if (t != NULL && t->gf2x_mul != NULL) {
    return t->gf2x_mul(t->ctx, site, p, c, a, b) != 0;
  }
  bike_gf2x_mul(p, c, a, b);
  return 0;
}

int acc_decode(const bike_accel *t, const bike_params *p, uint64_t *e0, uint64_t *e1,
               uint64_t *ok, const uint64_t *s, const uint32_t *h0_idx, const uint32_t *h1_idx) {
  if (t != NULL && t->decode != NULL) {
    *ok = 0;
    return t->decode(t->ctx, p, e0, e1, ok, s, h0_idx, h1_idx) != 0;
  }
  *ok = bike_decode(p, e0, e1, s, h0_idx, h1_idx);
  return 0;
}

int acc_function_h(const bike_accel *t, bike_accel_site site, const bike_params *p, uint64_t *e0,
                   uint64_t *e1, const uint8_t m[BIKE_M_BYTES]) {
  if (t != NULL && t->function_h != NULL) {
    return t->function_h(t->ctx, site, p, e0, e1, m) != 0;
  }
  bike_function_h(p, e0, e1, NULL, m);
  return 0;
}

int acc_function_l(const bike_accel *t, bike_accel_site site, const bike_params *p,
                   uint8_t out[BIKE_HASH_OUT_BYTES], const uint64_t *e0, const uint64_t *e1) {
  if (t != NULL && t->function_l != NULL) {
    return t->function_l(t->ctx, site, p, out, e0, e1) != 0;
  }
  bike_function_l(p, out, e0, e1);
  return 0;
}

int acc_function_k(const bike_accel *t, bike_accel_site site, const bike_params *p,
                   uint8_t out[BIKE_HASH_OUT_BYTES], const uint8_t m[BIKE_M_BYTES],
                   const uint8_t *ct) {
  if (t != NULL && t->function_k != NULL) {
    return t->function_k(t->ctx, site, p, out, m, ct) != 0;
  }
  bike_function_k(p, out, m, ct);
  return 0;
}
