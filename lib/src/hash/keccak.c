/* Keccak-f[1600] (FIPS 202), lanes indexed x + 5 y. */
#include "bike/ops.h"

#define ROTL64(v, n) (((v) << (n)) | ((v) >> ((64 - (n)) & 63)))

/* Round constants: bit 2^j - 1 of RC[i] is rc(j + 7 i) of the LFSR
 * x^8 + x^6 + x^5 + x^4 + 1 (FIPS 202, algorithm 5); scripts/check_constants.py
 * recomputes them. */
static const uint64_t keccak_rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL, 0x8000000080008000ULL,
    0x000000000000808BULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008AULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL,
    0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800AULL, 0x800000008000000AULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* rho offsets: lane (x, y) reached at step t of (x, y) -> (y, 2x + 3y) from
 * (1, 0) rotates by (t + 1)(t + 2) / 2 mod 64 (FIPS 202, algorithm 2); checked by the same script. */
static const unsigned keccak_rho[25] = {
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
};

void bike_keccak_f1600(uint64_t a[25]) {
  uint64_t b[25];
  uint64_t c[5];
  for (unsigned round = 0; round < 24; round++) {
    for (unsigned x = 0; x < 5; x++) {
      c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    }
    for (unsigned x = 0; x < 5; x++) {
      uint64_t dx = c[(x + 4) % 5] ^ ROTL64(c[(x + 1) % 5], 1);
      for (unsigned y = 0; y < 25; y += 5) {
        a[x + y] ^= dx;
      }
    }
    /* rho and pi: lane (x, y) moves to (y, 2x + 3y). */
    for (unsigned x = 0; x < 5; x++) {
      for (unsigned y = 0; y < 5; y++) {
        unsigned n = keccak_rho[x + 5 * y];
        b[y + 5 * ((2 * x + 3 * y) % 5)] = ROTL64(a[x + 5 * y], n);
      }
    }
    for (unsigned y = 0; y < 25; y += 5) {
      for (unsigned x = 0; x < 5; x++) {
        a[x + y] = b[x + y] ^ (~b[(x + 1) % 5 + y] & b[(x + 2) % 5 + y]);
      }
    }
    a[0] ^= keccak_rc[round];
  }
}
