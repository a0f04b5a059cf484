/* One Keccak-f[1600] permutation written out as C, included by the files
 * that compile it: the portable kernel (hash/keccak.c) and the native copy
 * built with BMI (native/x86_64/keccak_bmi.c), whose three-operand ANDN
 * serves chi. */
#ifndef BIKE_HASH_KECCAK_ROUNDS_H
#define BIKE_HASH_KECCAK_ROUNDS_H

#include <stdint.h>

#include "hash/keccak.h"

#define ROTL64(v, n) (((v) << (n)) | ((v) >> ((64 - (n)) & 63)))

/* One round from state a into state e (theta, rho, pi, chi, iota), written
 * out lane by lane so that every index and rotation is a constant. Lane
 * (X, Y) of the result comes through pi from lane (x, y) = ((X + 3 Y) mod 5,
 * X) of a; the rho offsets are read from the checked table above. */
static inline __attribute__((always_inline)) void keccak_round(uint64_t e[25], const uint64_t a[25], uint64_t rc) {
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

/* The 24 rounds, two per step so that no state copy is needed. */
static inline __attribute__((always_inline)) void keccak_f1600_rounds(uint64_t a[25]) {
  uint64_t e[25];
  for (unsigned round = 0; round < 24; round += 2) {
    keccak_round(e, a, bike_keccak_rc[round]);
    keccak_round(a, e, bike_keccak_rc[round + 1]);
  }
}

#endif
