/* The NTT kernels on AVX2 (contract in backend.h and ntt.h): 16
 * coefficients per vector, the same Montgomery and Barrett arithmetic as
 * the portable kernels, so every value equals portable's except in
 * basemul_acc, which sums exact products before one reduction.
 *
 * A polynomial is a 16 x 16 matrix, row r holding coefficients 16 r to
 * 16 r + 15. The layers with len >= 16 pair whole rows under one zeta. For
 * len = 8, 4, 2 the matrix is transposed, so that those pairs become pairs
 * of vectors again, with one zeta per lane (tables built once from
 * mlkem_zetas), and transposed back. */
#include <immintrin.h>
#include <pthread.h>
#include <string.h>

#include "arith.h"
#include "ntt.h"

/* Per-lane zetas of the transposed layers and of the base multiplication:
 * fwd8[r] = zetas[16 + r], fwd4[h][r] = zetas[32 + 2 r + h],
 * fwd2[g][r] = zetas[64 + 4 r + g] (forward, in order of use);
 * inv2[g][r] = zetas[127 - 4 r - g], inv4[h][r] = zetas[63 - 2 r - h],
 * inv8[r] = zetas[31 - r] (inverse); gamma[v] holds pair 8 v + m's gamma
 * (+-zetas[64 + (8 v + m) / 2]) in lane 2 m + 1. */
static struct {
  int16_t fwd8[16], fwd4[2][16], fwd2[4][16];
  int16_t inv8[16], inv4[2][16], inv2[4][16];
  int16_t gamma[16][16];
} tables __attribute__((aligned(32)));
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void) {
  for (unsigned r = 0; r < 16; r++) {
    tables.fwd8[r] = mlkem_zetas[16 + r];
    tables.inv8[r] = mlkem_zetas[31 - r];
    for (unsigned h = 0; h < 2; h++) {
      tables.fwd4[h][r] = mlkem_zetas[32 + 2 * r + h];
      tables.inv4[h][r] = mlkem_zetas[63 - 2 * r - h];
    }
    for (unsigned g = 0; g < 4; g++) {
      tables.fwd2[g][r] = mlkem_zetas[64 + 4 * r + g];
      tables.inv2[g][r] = mlkem_zetas[127 - 4 * r - g];
    }
  }
  for (unsigned i = 0; i < MLKEM_N / 2; i++) {
    const int16_t z = mlkem_zetas[64 + i / 2];
    tables.gamma[i / 8][2 * (i % 8)] = 0;
    tables.gamma[i / 8][2 * (i % 8) + 1] = (i & 1) ? (int16_t)-z : z;
  }
}

static inline __m256i load(const int16_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void store(int16_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }

/* a z R^-1 mod q per lane, as mlkem_fqmul: the low halves of a z and t q
 * agree, so the difference of the high halves is exact. */
static inline __m256i fqmul(__m256i a, __m256i z) {
  const __m256i zq = _mm256_mullo_epi16(z, _mm256_set1_epi16((int16_t)MLKEM_QINV));
  const __m256i t = _mm256_mullo_epi16(a, zq);
  return _mm256_sub_epi16(_mm256_mulhi_epi16(a, z),
                          _mm256_mulhi_epi16(t, _mm256_set1_epi16(MLKEM_Q)));
}

/* As mlkem_barrett_reduce: floor((floor(a v / 2^16) + 2^9) / 2^10) equals
 * floor((a v + 2^25) / 2^26). */
static inline __m256i barrett(__m256i a) {
  __m256i t = _mm256_mulhi_epi16(a, _mm256_set1_epi16(MLKEM_BARRETT_V));
  t = _mm256_srai_epi16(_mm256_add_epi16(t, _mm256_set1_epi16(1 << 9)), 10);
  return _mm256_sub_epi16(a, _mm256_mullo_epi16(t, _mm256_set1_epi16(MLKEM_Q)));
}

/* x R^-1 mod q for 32-bit lanes, as mlkem_montgomery_reduce. */
static inline __m256i montgomery32(__m256i x) {
  __m256i t = _mm256_mullo_epi32(x, _mm256_set1_epi32((int32_t)MLKEM_QINV));
  t = _mm256_srai_epi32(_mm256_slli_epi32(t, 16), 16);
  return _mm256_srai_epi32(_mm256_sub_epi32(x, _mm256_mullo_epi32(t, _mm256_set1_epi32(MLKEM_Q))),
                           16);
}

/* Transpose of two 8 x 8 blocks at once (one per 128-bit lane): out[c]
 * holds column c of the rows in[0..7] (column 8 + c in the upper lane). */
static inline void transpose8(__m256i out[8], const __m256i in[8]) {
  __m256i t[8], u[8];
  for (unsigned i = 0; i < 4; i++) {
    t[2 * i] = _mm256_unpacklo_epi16(in[2 * i], in[2 * i + 1]);
    t[2 * i + 1] = _mm256_unpackhi_epi16(in[2 * i], in[2 * i + 1]);
  }
  u[0] = _mm256_unpacklo_epi32(t[0], t[2]);
  u[1] = _mm256_unpackhi_epi32(t[0], t[2]);
  u[2] = _mm256_unpacklo_epi32(t[1], t[3]);
  u[3] = _mm256_unpackhi_epi32(t[1], t[3]);
  u[4] = _mm256_unpacklo_epi32(t[4], t[6]);
  u[5] = _mm256_unpackhi_epi32(t[4], t[6]);
  u[6] = _mm256_unpacklo_epi32(t[5], t[7]);
  u[7] = _mm256_unpackhi_epi32(t[5], t[7]);
  for (unsigned i = 0; i < 4; i++) {
    out[2 * i] = _mm256_unpacklo_epi64(u[i], u[i + 4]);
    out[2 * i + 1] = _mm256_unpackhi_epi64(u[i], u[i + 4]);
  }
}

/* The 16 x 16 transpose: an involution. */
static void transpose(__m256i v[16]) {
  __m256i x[8], y[8];
  transpose8(x, v);
  transpose8(y, v + 8);
  for (unsigned c = 0; c < 8; c++) {
    v[c] = _mm256_permute2x128_si256(x[c], y[c], 0x20);
    v[c + 8] = _mm256_permute2x128_si256(x[c], y[c], 0x31);
  }
}

static inline void ct_butterfly(__m256i *lo, __m256i *hi, __m256i z) {
  const __m256i t = fqmul(z, *hi);
  *hi = _mm256_sub_epi16(*lo, t);
  *lo = _mm256_add_epi16(*lo, t);
}

static inline void gs_butterfly(__m256i *lo, __m256i *hi, __m256i z) {
  const __m256i t = *lo;
  *lo = barrett(_mm256_add_epi16(t, *hi));
  *hi = fqmul(z, _mm256_sub_epi16(*hi, t));
}

void mlkem_ntt_avx2(int16_t a[MLKEM_N]) {
  int16_t in[MLKEM_N]; /* for the MSan build only (arith.h) */
  memcpy(in, a, sizeof(in));
  pthread_once(&tables_once, build_tables);
  __m256i v[16];
  for (unsigned r = 0; r < 16; r++) {
    v[r] = load(a + 16 * r);
  }
  unsigned k = 1;
  for (unsigned rows = 8; rows >= 1; rows >>= 1) { /* len = 16 rows */
    for (unsigned start = 0; start < 16; start += 2 * rows) {
      const __m256i z = _mm256_set1_epi16(mlkem_zetas[k++]);
      for (unsigned r = start; r < start + rows; r++) {
        ct_butterfly(&v[r], &v[r + rows], z);
      }
    }
  }
  transpose(v); /* v[c] lane r = coefficient 16 r + c */
  const __m256i z8 = load(tables.fwd8);
  for (unsigned c = 0; c < 8; c++) {
    ct_butterfly(&v[c], &v[c + 8], z8);
  }
  for (unsigned h = 0; h < 2; h++) {
    const __m256i z4 = load(tables.fwd4[h]);
    for (unsigned c = 8 * h; c < 8 * h + 4; c++) {
      ct_butterfly(&v[c], &v[c + 4], z4);
    }
  }
  for (unsigned g = 0; g < 4; g++) {
    const __m256i z2 = load(tables.fwd2[g]);
    for (unsigned c = 4 * g; c < 4 * g + 2; c++) {
      ct_butterfly(&v[c], &v[c + 2], z2);
    }
  }
  transpose(v);
  for (unsigned r = 0; r < 16; r++) {
    store(a + 16 * r, barrett(v[r]));
  }
  mlkem_msan_taint(a, in, MLKEM_N);
}

void mlkem_invntt_avx2(int16_t a[MLKEM_N]) {
  int16_t in[MLKEM_N]; /* for the MSan build only (arith.h) */
  memcpy(in, a, sizeof(in));
  pthread_once(&tables_once, build_tables);
  __m256i v[16];
  for (unsigned r = 0; r < 16; r++) {
    v[r] = barrett(load(a + 16 * r));
  }
  transpose(v);
  for (unsigned g = 0; g < 4; g++) {
    const __m256i z2 = load(tables.inv2[g]);
    for (unsigned c = 4 * g; c < 4 * g + 2; c++) {
      gs_butterfly(&v[c], &v[c + 2], z2);
    }
  }
  for (unsigned h = 0; h < 2; h++) {
    const __m256i z4 = load(tables.inv4[h]);
    for (unsigned c = 8 * h; c < 8 * h + 4; c++) {
      gs_butterfly(&v[c], &v[c + 4], z4);
    }
  }
  const __m256i z8 = load(tables.inv8);
  for (unsigned c = 0; c < 8; c++) {
    gs_butterfly(&v[c], &v[c + 8], z8);
  }
  transpose(v);
  unsigned k = 15;
  for (unsigned rows = 1; rows <= 8; rows <<= 1) {
    for (unsigned start = 0; start < 16; start += 2 * rows) {
      const __m256i z = _mm256_set1_epi16(mlkem_zetas[k--]);
      for (unsigned r = start; r < start + rows; r++) {
        gs_butterfly(&v[r], &v[r + rows], z);
      }
    }
  }
  const __m256i scale = _mm256_set1_epi16(1441); /* 128^-1 R^2 mod q, as ntt.c */
  for (unsigned r = 0; r < 16; r++) {
    store(a + 16 * r, fqmul(v[r], scale));
  }
  mlkem_msan_taint(a, in, MLKEM_N);
}

/* Pair (a0 + a1 X)(b0 + b1 X) mod (X^2 - gamma) with 16-bit products summed
 * exactly in 32 bits (madd): c0 = a0 b0 + a1 (b1 gamma mod q),
 * c1 = a0 b1 + a1 b0, then one Montgomery reduction. With one operand below
 * 2^12 and the other's products below 2^12 q, the sum of k <= 4 terms stays
 * below q 2^15 as the reduction needs. */
void mlkem_basemul_acc_avx2(int16_t r[MLKEM_N], const int16_t (*a)[MLKEM_N],
                            const int16_t (*b)[MLKEM_N], unsigned k) {
  pthread_once(&tables_once, build_tables);
  for (unsigned v = 0; v < 16; v++) {
    const __m256i gamma = load(tables.gamma[v]);
    __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
    for (unsigned j = 0; j < k; j++) {
      const __m256i x = load(a[j] + 16 * v), y = load(b[j] + 16 * v);
      const __m256i y_gamma = _mm256_blend_epi16(y, fqmul(y, gamma), 0xAA);
      const __m256i y_swap = _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(y, 0xB1), 0xB1);
      acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(x, y_gamma));
      acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(x, y_swap));
    }
    const __m256i c = _mm256_blend_epi16(montgomery32(acc0),
                                         _mm256_slli_epi32(montgomery32(acc1), 16), 0xAA);
    store(r + 16 * v, barrett(c));
  }
  for (unsigned j = 0; j < k; j++) {
    mlkem_msan_taint(r, a[j], MLKEM_N);
    mlkem_msan_taint(r, b[j], MLKEM_N);
  }
}
