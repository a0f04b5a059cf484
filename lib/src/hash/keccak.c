/* Keccak-f[1600] (FIPS 202), lanes indexed x + 5 y. */
#include "bike/ops.h"
#include "hash/keccak.h"
#include "native/backend.h"

#define ROTL64(v, n) (((v) << (n)) | ((v) >> ((64 - (n)) & 63)))

/* Round constants: bit 2^j - 1 of RC[i] is rc(j + 7 i) of the LFSR
 * x^8 + x^6 + x^5 + x^4 + 1 (FIPS 202, algorithm 5); scripts/check_constants.py
 * recomputes them. */
const uint64_t bike_keccak_rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL, 0x8000000080008000ULL,
    0x000000000000808BULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008AULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL,
    0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800AULL, 0x800000008000000AULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* rho offsets: lane (x, y) reached at step t of (x, y) -> (y, 2x + 3y) from
 * (1, 0) rotates by (t + 1)(t + 2) / 2 mod 64 (FIPS 202, algorithm 2); checked by the same script. */
const unsigned bike_keccak_rho[25] = {
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
};

/* One round from state a into state e (theta, rho, pi, chi, iota), written
 * out lane by lane so that every index and rotation is a constant. Lane
 * (X, Y) of the result comes through pi from lane (x, y) = ((X + 3 Y) mod 5,
 * X) of a; the rho offsets are read from the checked table above. */
static inline void keccak_round(uint64_t e[25], const uint64_t a[25], uint64_t rc) {
  uint64_t b0, b1, b2, b3, b4;
  const uint64_t c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
  const uint64_t c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
  const uint64_t c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
  const uint64_t c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
  const uint64_t c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
  const uint64_t d0 = c4 ^ ROTL64(c1, 1);
  const uint64_t d1 = c0 ^ ROTL64(c2, 1);
  const uint64_t d2 = c1 ^ ROTL64(c3, 1);
  const uint64_t d3 = c2 ^ ROTL64(c4, 1);
  const uint64_t d4 = c3 ^ ROTL64(c0, 1);
  b0 = a[0] ^ d0;
  b1 = ROTL64(a[6] ^ d1, bike_keccak_rho[6]);
  b2 = ROTL64(a[12] ^ d2, bike_keccak_rho[12]);
  b3 = ROTL64(a[18] ^ d3, bike_keccak_rho[18]);
  b4 = ROTL64(a[24] ^ d4, bike_keccak_rho[24]);
  e[0] = b0 ^ (~b1 & b2);
  e[1] = b1 ^ (~b2 & b3);
  e[2] = b2 ^ (~b3 & b4);
  e[3] = b3 ^ (~b4 & b0);
  e[4] = b4 ^ (~b0 & b1);
  b0 = ROTL64(a[3] ^ d3, bike_keccak_rho[3]);
  b1 = ROTL64(a[9] ^ d4, bike_keccak_rho[9]);
  b2 = ROTL64(a[10] ^ d0, bike_keccak_rho[10]);
  b3 = ROTL64(a[16] ^ d1, bike_keccak_rho[16]);
  b4 = ROTL64(a[22] ^ d2, bike_keccak_rho[22]);
  e[5] = b0 ^ (~b1 & b2);
  e[6] = b1 ^ (~b2 & b3);
  e[7] = b2 ^ (~b3 & b4);
  e[8] = b3 ^ (~b4 & b0);
  e[9] = b4 ^ (~b0 & b1);
  b0 = ROTL64(a[1] ^ d1, bike_keccak_rho[1]);
  b1 = ROTL64(a[7] ^ d2, bike_keccak_rho[7]);
  b2 = ROTL64(a[13] ^ d3, bike_keccak_rho[13]);
  b3 = ROTL64(a[19] ^ d4, bike_keccak_rho[19]);
  b4 = ROTL64(a[20] ^ d0, bike_keccak_rho[20]);
  e[10] = b0 ^ (~b1 & b2);
  e[11] = b1 ^ (~b2 & b3);
  e[12] = b2 ^ (~b3 & b4);
  e[13] = b3 ^ (~b4 & b0);
  e[14] = b4 ^ (~b0 & b1);
  b0 = ROTL64(a[4] ^ d4, bike_keccak_rho[4]);
  b1 = ROTL64(a[5] ^ d0, bike_keccak_rho[5]);
  b2 = ROTL64(a[11] ^ d1, bike_keccak_rho[11]);
  b3 = ROTL64(a[17] ^ d2, bike_keccak_rho[17]);
  b4 = ROTL64(a[23] ^ d3, bike_keccak_rho[23]);
  e[15] = b0 ^ (~b1 & b2);
  e[16] = b1 ^ (~b2 & b3);
  e[17] = b2 ^ (~b3 & b4);
  e[18] = b3 ^ (~b4 & b0);
  e[19] = b4 ^ (~b0 & b1);
  b0 = ROTL64(a[2] ^ d2, bike_keccak_rho[2]);
  b1 = ROTL64(a[8] ^ d3, bike_keccak_rho[8]);
  b2 = ROTL64(a[14] ^ d4, bike_keccak_rho[14]);
  b3 = ROTL64(a[15] ^ d0, bike_keccak_rho[15]);
  b4 = ROTL64(a[21] ^ d1, bike_keccak_rho[21]);
  e[20] = b0 ^ (~b1 & b2);
  e[21] = b1 ^ (~b2 & b3);
  e[22] = b2 ^ (~b3 & b4);
  e[23] = b3 ^ (~b4 & b0);
  e[24] = b4 ^ (~b0 & b1);
  e[0] ^= rc;
}

void bike_keccak_f1600_c(uint64_t a[25]) {
  uint64_t e[25];
  for (unsigned round = 0; round < 24; round += 2) {
    keccak_round(e, a, bike_keccak_rc[round]);
    keccak_round(a, e, bike_keccak_rc[round + 1]);
  }
}

/* The portable lockstep kernel (contract in native/backend.h). */
void bike_keccak_xn_c(uint64_t (*s)[25], unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    bike_keccak_f1600_c(s[i]);
  }
}

/* Through the table: a native multi-state kernel can beat the scalar
 * permutation even on one state. */
void bike_keccak_f1600(uint64_t a[25]) {
  bike_backend_current()->keccak_xn((uint64_t(*)[25])a, 1);
}
