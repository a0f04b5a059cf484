/* libbike: key pairs generated many at a time.
 *
 * Key generation is dominated by one inversion in GF(2)[x]/(x^r - 1) (about
 * nine tenths of it on the vector back ends). Montgomery's trick shares one
 * inversion among n keys: the products h0_1, h0_1 h0_2, ..., one inversion
 * of the last, then two products per key back to every h0_i^-1, so n keys
 * cost one inversion and 4n - 3 products instead of n of each. The keys are
 * byte-identical to n calls of bike_keypair_derand with the same coins; the
 * calls are constant-time like those. What this buys a TLS client that
 * keeps a few keys ready is in docs/tls.md.
 *
 * Same conventions as bike.h: lengths must match, nothing is allocated on
 * the heap, no mutable global state. Outputs are wiped on failure.
 */
#ifndef BIKE_BATCH_H
#define BIKE_BATCH_H

#include "bike/bike.h"

#ifdef __cplusplus
extern "C" {
#endif

/* count key pairs (count >= 1): key i's public key at pk + i * PK, its
 * secret key at sk + i * SK, from coins + i * BIKE_COINS_BYTES, where PK
 * and SK are the level's sizes; pk_len must be count * PK, sk_len count *
 * SK, coins_len count * BIKE_COINS_BYTES (else BIKE_ERR_LENGTH). */
BIKE_API int bike_keypair_batch_derand(int level, size_t count, uint8_t *pk, size_t pk_len,
                                       uint8_t *sk, size_t sk_len, const uint8_t *coins,
                                       size_t coins_len);

/* The same with coins from getrandom(). */
BIKE_API int bike_keypair_batch(int level, size_t count, uint8_t *pk, size_t pk_len, uint8_t *sk,
                                size_t sk_len);

#ifdef __cplusplus
}
#endif

#endif
