/* Keccak-f[1600] on up to four independent states at once: lane i of every
 * state in one 256-bit vector, with AVX-512VL's rotations and three-input
 * logic (chi and the column parities in one instruction each). A whole
 * round costs about what one state's scalar round does, so sponges that
 * can run in lockstep (encapsulation's L and the start of K) share it. */
#include <immintrin.h>
#include <string.h>

#include "common/ct.h"
#include "hash/keccak.h"
#include "native/backend.h"

/* Three-input logic by VPTERNLOGQ; in the MemorySanitizer build (the
 * constant-time check) by plain operations, as it does not follow secrets
 * through VPTERNLOGQ. */
static inline __m256i xor5(__m256i a, __m256i b, __m256i c, __m256i d, __m256i e) {
#if defined(BIKE_CT_MSAN)
  return _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, d)), e);
#else
  return _mm256_ternarylogic_epi64(_mm256_ternarylogic_epi64(a, b, c, 0x96), d, e, 0x96);
#endif
}

/* A rotation by a constant (a variable-count instruction on a constant
 * vector, which needs no immediate at any optimisation level). */
static inline __m256i rol(__m256i x, unsigned n) {
  return _mm256_rolv_epi64(x, _mm256_set1_epi64x((long long)n));
}

/* a ^ (~b & c) */
static inline __m256i chi(__m256i a, __m256i b, __m256i c) {
#if defined(BIKE_CT_MSAN)
  return _mm256_xor_si256(a, _mm256_andnot_si256(b, c));
#else
  return _mm256_ternarylogic_epi64(a, b, c, 0xd2);
#endif
}

/* One round from a into e: the portable round (keccak.c) lane for lane.
 * (Adding theta's two terms to each lane with one three-input XOR instead
 * measured slower on Zen 4.) */
static inline void round4(__m256i e[25], const __m256i a[25], uint64_t rc) {
  __m256i b0, b1, b2, b3, b4;
  const __m256i c0 = xor5(a[0], a[5], a[10], a[15], a[20]);
  const __m256i c1 = xor5(a[1], a[6], a[11], a[16], a[21]);
  const __m256i c2 = xor5(a[2], a[7], a[12], a[17], a[22]);
  const __m256i c3 = xor5(a[3], a[8], a[13], a[18], a[23]);
  const __m256i c4 = xor5(a[4], a[9], a[14], a[19], a[24]);
  const __m256i d0 = _mm256_xor_si256(c4, rol(c1, 1));
  const __m256i d1 = _mm256_xor_si256(c0, rol(c2, 1));
  const __m256i d2 = _mm256_xor_si256(c1, rol(c3, 1));
  const __m256i d3 = _mm256_xor_si256(c2, rol(c4, 1));
  const __m256i d4 = _mm256_xor_si256(c3, rol(c0, 1));
  b0 = _mm256_xor_si256(a[0], d0);
  b1 = rol(_mm256_xor_si256(a[6], d1), bike_keccak_rho[6]);
  b2 = rol(_mm256_xor_si256(a[12], d2), bike_keccak_rho[12]);
  b3 = rol(_mm256_xor_si256(a[18], d3), bike_keccak_rho[18]);
  b4 = rol(_mm256_xor_si256(a[24], d4), bike_keccak_rho[24]);
  e[0] = chi(b0, b1, b2);
  e[1] = chi(b1, b2, b3);
  e[2] = chi(b2, b3, b4);
  e[3] = chi(b3, b4, b0);
  e[4] = chi(b4, b0, b1);
  b0 = rol(_mm256_xor_si256(a[3], d3), bike_keccak_rho[3]);
  b1 = rol(_mm256_xor_si256(a[9], d4), bike_keccak_rho[9]);
  b2 = rol(_mm256_xor_si256(a[10], d0), bike_keccak_rho[10]);
  b3 = rol(_mm256_xor_si256(a[16], d1), bike_keccak_rho[16]);
  b4 = rol(_mm256_xor_si256(a[22], d2), bike_keccak_rho[22]);
  e[5] = chi(b0, b1, b2);
  e[6] = chi(b1, b2, b3);
  e[7] = chi(b2, b3, b4);
  e[8] = chi(b3, b4, b0);
  e[9] = chi(b4, b0, b1);
  b0 = rol(_mm256_xor_si256(a[1], d1), bike_keccak_rho[1]);
  b1 = rol(_mm256_xor_si256(a[7], d2), bike_keccak_rho[7]);
  b2 = rol(_mm256_xor_si256(a[13], d3), bike_keccak_rho[13]);
  b3 = rol(_mm256_xor_si256(a[19], d4), bike_keccak_rho[19]);
  b4 = rol(_mm256_xor_si256(a[20], d0), bike_keccak_rho[20]);
  e[10] = chi(b0, b1, b2);
  e[11] = chi(b1, b2, b3);
  e[12] = chi(b2, b3, b4);
  e[13] = chi(b3, b4, b0);
  e[14] = chi(b4, b0, b1);
  b0 = rol(_mm256_xor_si256(a[4], d4), bike_keccak_rho[4]);
  b1 = rol(_mm256_xor_si256(a[5], d0), bike_keccak_rho[5]);
  b2 = rol(_mm256_xor_si256(a[11], d1), bike_keccak_rho[11]);
  b3 = rol(_mm256_xor_si256(a[17], d2), bike_keccak_rho[17]);
  b4 = rol(_mm256_xor_si256(a[23], d3), bike_keccak_rho[23]);
  e[15] = chi(b0, b1, b2);
  e[16] = chi(b1, b2, b3);
  e[17] = chi(b2, b3, b4);
  e[18] = chi(b3, b4, b0);
  e[19] = chi(b4, b0, b1);
  b0 = rol(_mm256_xor_si256(a[2], d2), bike_keccak_rho[2]);
  b1 = rol(_mm256_xor_si256(a[8], d3), bike_keccak_rho[8]);
  b2 = rol(_mm256_xor_si256(a[14], d4), bike_keccak_rho[14]);
  b3 = rol(_mm256_xor_si256(a[15], d0), bike_keccak_rho[15]);
  b4 = rol(_mm256_xor_si256(a[21], d1), bike_keccak_rho[21]);
  e[20] = chi(b0, b1, b2);
  e[21] = chi(b1, b2, b3);
  e[22] = chi(b2, b3, b4);
  e[23] = chi(b3, b4, b0);
  e[24] = chi(b4, b0, b1);
  e[0] = _mm256_xor_si256(e[0], _mm256_set1_epi64x((long long)rc));
}
/* Lanes 4g..4g+3 of four states, transposed: v[j] holds lane 4g + j. */
static inline void transpose4(__m256i v[4], const __m256i r[4]) {
  const __m256i t0 = _mm256_unpacklo_epi64(r[0], r[1]), t1 = _mm256_unpackhi_epi64(r[0], r[1]);
  const __m256i t2 = _mm256_unpacklo_epi64(r[2], r[3]), t3 = _mm256_unpackhi_epi64(r[2], r[3]);
  v[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
  v[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
  v[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
  v[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
}

static void permute(__m256i a[25]) {
  __m256i e[25];
  for (unsigned round = 0; round < 24; round += 2) {
    round4(e, a, bike_keccak_rc[round]);
    round4(a, e, bike_keccak_rc[round + 1]);
  }
}

void bike_keccak_xn_avx512(uint64_t (*s)[25], unsigned n) {
  if (n == 1) { /* one state in every lane: no transposes */
    __m256i a[25];
    for (unsigned j = 0; j < 25; j++) {
      a[j] = _mm256_set1_epi64x((long long)s[0][j]);
    }
    permute(a);
    for (unsigned j = 0; j < 25; j++) {
      s[0][j] = (uint64_t)_mm256_extract_epi64(a[j], 0);
    }
    return;
  }
  /* Four states of 28 lanes (three of padding); the absent ones zero. */
  uint64_t st[4][28];
  __m256i a[28];
  memset(st, 0, sizeof(st));
  for (unsigned q = 0; q < n; q++) {
    memcpy(st[q], s[q], sizeof(s[q]));
  }
  for (unsigned g = 0; g < 7; g++) {
    __m256i r[4];
    for (unsigned q = 0; q < 4; q++) {
      r[q] = _mm256_loadu_si256((const __m256i *)(const void *)&st[q][4 * g]);
    }
    transpose4(a + 4 * g, r);
  }
  permute(a);
  for (unsigned g = 0; g < 7; g++) {
    __m256i r[4];
    transpose4(r, a + 4 * g); /* the transpose is its own inverse */
    for (unsigned q = 0; q < 4; q++) {
      _mm256_storeu_si256((__m256i *)(void *)&st[q][4 * g], r[q]);
    }
  }
  for (unsigned q = 0; q < n; q++) {
    memcpy(s[q], st[q], sizeof(s[q]));
  }
  bike_wipe(st, sizeof(st));
}
