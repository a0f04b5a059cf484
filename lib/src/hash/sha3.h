/* SHA3-384 in pieces, for sponges that run in lockstep: start up to four
 * in one go (whole rate blocks of each, through the back end's
 * multi-state Keccak), then finish each on its own. */
#ifndef BIKE_HASH_SHA3_H
#define BIKE_HASH_SHA3_H

#include <stddef.h>
#include <stdint.h>

#include "bike/ops.h"

#define BIKE_SHA3_384_RATE 104

/* s[q] = the SHA3-384 state after absorbing the first `blocks` rate blocks
 * of in[q], for q < n <= 4. */
void bike_sha3_384_start_xn(uint64_t (*s)[25], const uint8_t *const *in, size_t blocks,
                            unsigned n);

/* Absorb the rest of the message (len bytes from in) into a started state,
 * pad, and write the digest; wipes s. */
void bike_sha3_384_finish(uint8_t out[BIKE_SHA3_384_BYTES], uint64_t s[25], const uint8_t *in,
                          size_t len);

#endif
