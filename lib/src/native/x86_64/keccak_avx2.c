/* Keccak-f[1600] on two to four independent states at once with AVX2: lane
 * i of the four states in one 256-bit vector (absent states zero), so one
 * vector round serves up to four sponges running in lockstep
 * (encapsulation's L and the first blocks of K). Without three-input logic
 * and vector rotations a vector round costs more than a scalar one, so a
 * single state takes the scalar permutation (built with BMI, keccak_bmi.c). */
#include <immintrin.h>

#include "hash/keccak.h"
#include "native/backend.h"

/* Lane i's rho rotation, with the offset a constant: none for 0, a byte
 * shuffle for 8 and 56, else two immediate shifts. */
static inline __attribute__((always_inline)) __m256i rol(__m256i x, unsigned i) {
  const unsigned n = bike_keccak_rho[i];
  if (n == 0) {
    return x;
  }
  if (n == 8) {
    return _mm256_shuffle_epi8(x, _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14,
                                                   7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14));
  }
  if (n == 56) {
    return _mm256_shuffle_epi8(x, _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8,
                                                   1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8));
  }
  return _mm256_or_si256(_mm256_slli_epi64(x, (int)n), _mm256_srli_epi64(x, (int)(64 - n)));
}

static inline __m256i rol1(__m256i x) {
  return _mm256_or_si256(_mm256_add_epi64(x, x), _mm256_srli_epi64(x, 63));
}

static inline __m256i xor5(__m256i a, __m256i b, __m256i c, __m256i d, __m256i e) {
  return _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, d)), e);
}

static inline __m256i chi(__m256i a, __m256i b, __m256i c) {
  return _mm256_xor_si256(a, _mm256_andnot_si256(b, c));
}

/* Plane o / 5 of the result from the lanes i0..i4 that pi brings there,
 * with theta's d of their columns: rho, then chi along the plane. */
#define PLANE(o, i0, x0, i1, x1, i2, x2, i3, x3, i4, x4)          \
  do {                                                            \
    const __m256i b0 = rol(_mm256_xor_si256(a[i0], x0), i0);   \
    const __m256i b1 = rol(_mm256_xor_si256(a[i1], x1), i1);   \
    const __m256i b2 = rol(_mm256_xor_si256(a[i2], x2), i2);   \
    const __m256i b3 = rol(_mm256_xor_si256(a[i3], x3), i3);   \
    const __m256i b4 = rol(_mm256_xor_si256(a[i4], x4), i4);   \
    e[o] = chi(b0, b1, b2);                                       \
    e[o + 1] = chi(b1, b2, b3);                                   \
    e[o + 2] = chi(b2, b3, b4);                                   \
    e[o + 3] = chi(b3, b4, b0);                                   \
    e[o + 4] = chi(b4, b0, b1);                                   \
  } while (0)

/* One round from a into e, lane for lane the portable round (keccak.c):
 * lane (X, Y) of the result comes from lane ((X + 3 Y) mod 5, X) of a. */
static inline __attribute__((always_inline)) void round4(__m256i e[25], const __m256i a[25],
                                                         uint64_t rc) {
  const __m256i c0 = xor5(a[0], a[5], a[10], a[15], a[20]);
  const __m256i c1 = xor5(a[1], a[6], a[11], a[16], a[21]);
  const __m256i c2 = xor5(a[2], a[7], a[12], a[17], a[22]);
  const __m256i c3 = xor5(a[3], a[8], a[13], a[18], a[23]);
  const __m256i c4 = xor5(a[4], a[9], a[14], a[19], a[24]);
  const __m256i d0 = _mm256_xor_si256(c4, rol1(c1));
  const __m256i d1 = _mm256_xor_si256(c0, rol1(c2));
  const __m256i d2 = _mm256_xor_si256(c1, rol1(c3));
  const __m256i d3 = _mm256_xor_si256(c2, rol1(c4));
  const __m256i d4 = _mm256_xor_si256(c3, rol1(c0));
  PLANE(0, 0, d0, 6, d1, 12, d2, 18, d3, 24, d4);
  PLANE(5, 3, d3, 9, d4, 10, d0, 16, d1, 22, d2);
  PLANE(10, 1, d1, 7, d2, 13, d3, 19, d4, 20, d0);
  PLANE(15, 4, d4, 5, d0, 11, d1, 17, d2, 23, d3);
  PLANE(20, 2, d2, 8, d3, 14, d4, 15, d0, 21, d1);
  e[0] = _mm256_xor_si256(e[0], _mm256_set1_epi64x((long long)rc));
}

/* Four rows (one per state) of four lanes to four vectors of one lane each,
 * and back: the transpose is its own inverse. */
static inline void transpose4(__m256i v[4], const __m256i r[4]) {
  const __m256i t0 = _mm256_unpacklo_epi64(r[0], r[1]), t1 = _mm256_unpackhi_epi64(r[0], r[1]);
  const __m256i t2 = _mm256_unpacklo_epi64(r[2], r[3]), t3 = _mm256_unpackhi_epi64(r[2], r[3]);
  v[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
  v[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
  v[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
  v[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
}

void bike_keccak_xn_avx2(uint64_t (*s)[25], unsigned n) {
  if (n == 1) {
    bike_keccak_f1600_bmi(s[0]);
    return;
  }
  __m256i a[25], e[25];
  for (unsigned g = 0; g < 6; g++) {
    __m256i r[4];
    for (unsigned q = 0; q < 4; q++) {
      r[q] = q < n ? _mm256_loadu_si256((const __m256i *)(const void *)&s[q][4 * g])
                   : _mm256_setzero_si256();
    }
    transpose4(a + 4 * g, r);
  }
  a[24] = _mm256_set_epi64x(n > 3 ? (long long)s[3][24] : 0, n > 2 ? (long long)s[2][24] : 0,
                            (long long)s[1][24], (long long)s[0][24]);
  for (unsigned round = 0; round < 24; round += 2) {
    round4(e, a, bike_keccak_rc[round]);
    round4(a, e, bike_keccak_rc[round + 1]);
  }
  for (unsigned g = 0; g < 6; g++) {
    __m256i r[4];
    transpose4(r, a + 4 * g);
    for (unsigned q = 0; q < n; q++) {
      _mm256_storeu_si256((__m256i *)(void *)&s[q][4 * g], r[q]);
    }
  }
  uint64_t last[4];
  _mm256_storeu_si256((__m256i *)(void *)last, a[24]);
  for (unsigned q = 0; q < n; q++) {
    s[q][24] = last[q];
  }
}
