/* libbike's accelerator table: hooks through which the KEM hands operations
 * to hardware (or any other implementation), chosen at run time.
 *
 * The KEM code (kem.c) has one control flow. At each operation below it
 * calls the table's hook if the table in use has one, else libbike's own
 * function. A hook computes exactly what the function named beside it
 * computes (same inputs, byte-identical outputs, bits at and above r zero)
 * and returns 0, or anything else if it could not (a device error, a
 * time-out). On a failure the KEM call wipes its outputs (pk and sk, ct and
 * ss, ss) and returns BIKE_ERR_ACCEL: a caller never sees a secret computed
 * from a failed operation.
 *
 * Which hooks are set (the placement) is public: libbike branches on it. The
 * data given to a hook is secret wherever the operation's is; what the hook
 * does with it is the hook's business (a device sees the operands, as it
 * must). libbike links no driver: a driver fills a table (driver/
 * bike_acc_offload.h does, for the accelerators behind acc_shell).
 *
 * Like ops.h, not a stable API: exported under BIKE_OPS_<release>.
 */
#ifndef BIKE_ACCEL_H
#define BIKE_ACCEL_H

#include <stdint.h>

#include "bike/ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The KEM operation a hook is called from: one operation (a multiplication,
 * say) may be placed in hardware for one of them and not for another. */
typedef enum {
  BIKE_ACCEL_KEYGEN = 0,
  BIKE_ACCEL_ENCAPS = 1,
  BIKE_ACCEL_DECAPS = 2,
} bike_accel_site;

typedef struct bike_accel {
  void *ctx; /* the first argument of every hook */

  /* ---- whole KEM operations (after libbike's argument and key checks) ---- */
  /* bike_keypair_derand */
  int (*keypair)(void *ctx, const bike_params *p, uint8_t *pk, uint8_t *sk,
                 const uint8_t coins[BIKE_COINS_BYTES]);
  /* bike_encaps_derand, with a public key that has no bit set above r */
  int (*encaps)(void *ctx, const bike_params *p, uint8_t *ct,
                uint8_t ss[BIKE_SHARED_SECRET_BYTES], const uint8_t *pk,
                const uint8_t coins[BIKE_COINS_BYTES]);
  /* bike_decaps, with a secret key whose indices are below r */
  int (*decaps)(void *ctx, const bike_params *p, uint8_t ss[BIKE_SHARED_SECRET_BYTES],
                const uint8_t *ct, const uint8_t *sk);

  /* ---- operations inside them ---- */
  /* bike_sample_keygen (keygen) */
  int (*sample_keygen)(void *ctx, const bike_params *p, uint32_t *h0_idx, uint32_t *h1_idx,
                       const uint8_t seed[BIKE_M_BYTES]);
  /* bike_gf2x_inv (keygen) */
  int (*gf2x_inv)(void *ctx, const bike_params *p, uint64_t *c, const uint64_t *a);
  /* bike_gf2x_mul (keygen h1 h0^-1, encaps e1 h, decaps c0 h0) */
  int (*gf2x_mul)(void *ctx, bike_accel_site site, const bike_params *p, uint64_t *c,
                  const uint64_t *a, const uint64_t *b);
  /* bike_decode (decaps); *ok receives its return value */
  int (*decode)(void *ctx, const bike_params *p, uint64_t *e0, uint64_t *e1, uint64_t *ok,
                const uint64_t *s, const uint32_t *h0_idx, const uint32_t *h1_idx);
  /* bike_function_h, bike_function_l, bike_function_k (encaps, decaps) */
  int (*function_h)(void *ctx, bike_accel_site site, const bike_params *p, uint64_t *e0,
                    uint64_t *e1, const uint8_t m[BIKE_M_BYTES]);
  int (*function_l)(void *ctx, bike_accel_site site, const bike_params *p,
                    uint8_t out[BIKE_HASH_OUT_BYTES], const uint64_t *e0, const uint64_t *e1);
  int (*function_k)(void *ctx, bike_accel_site site, const bike_params *p,
                    uint8_t out[BIKE_HASH_OUT_BYTES], const uint8_t m[BIKE_M_BYTES],
                    const uint8_t *ct);
} bike_accel;

/* Use `table` (NULL: software only, the default) from now on, in every
 * thread; the table must outlive its use. Not meant to be called while other
 * threads are inside the library. Returns BIKE_OK. */
BIKE_API int bike_set_accel(const bike_accel *table);

/* The table in use, or NULL. */
BIKE_API const bike_accel *bike_get_accel(void);

#ifdef __cplusplus
}
#endif

#endif
