/* Keccak-f[1600]'s round constants and rho offsets, shared by the portable
 * permutation and the native kernels (static, so that every file that
 * rotates by them sees constants). */
#ifndef BIKE_HASH_KECCAK_H
#define BIKE_HASH_KECCAK_H

#include <stdint.h>

/* Round constants: bit 2^j - 1 of RC[i] is rc(j + 7 i) of the LFSR
 * x^8 + x^6 + x^5 + x^4 + 1 (FIPS 202, algorithm 5); scripts/check_constants.py
 * recomputes them. */
static const uint64_t bike_keccak_rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL, 0x8000000080008000ULL,
    0x000000000000808BULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008AULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL,
    0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800AULL, 0x800000008000000AULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* rho offsets: lane (x, y) reached at step t of (x, y) -> (y, 2x + 3y) from
 * (1, 0) rotates by (t + 1)(t + 2) / 2 mod 64 (FIPS 202, algorithm 2); checked by the same script. */
static const unsigned bike_keccak_rho[25] = {
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
};

#endif
