/* Keccak-f[1600]'s round constants and rho offsets (keccak.c, where their
 * derivations are), shared with the native lockstep kernels. */
#ifndef BIKE_HASH_KECCAK_H
#define BIKE_HASH_KECCAK_H

#include <stdint.h>

extern const uint64_t bike_keccak_rc[24];
extern const unsigned bike_keccak_rho[25];

#endif
