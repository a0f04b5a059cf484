#include "ntt.h"

#include <string.h>

#include "arith.h"

/* Generated from the definition (17^BitRev7(i) 2^16 mod q, centred);
 * test_mlkem recomputes it. */
const int16_t mlkem_zetas[128] = {
    -1044, -758,  -359,  -1517, 1493,  1422,  287,   202,   -171,  622,   1577,  182,   962,
    -1202, -1474, 1468,  573,   -1325, 264,   383,   -829,  1458,  -1602, -130,  -681,  1017,
    732,   608,   -1542, 411,   -205,  -1571, 1223,  652,   -552,  1015,  -1293, 1491,  -282,
    -1544, 516,   -8,    -320,  -666,  -1618, -1162, 126,   1469,  -853,  -90,   -271,  830,
    107,   -1421, -247,  -951,  -398,  961,   -1508, -725,  448,   -1065, 677,   -1275, -1103,
    430,   555,   843,   -1251, 871,   1550,  105,   422,   587,   177,   -235,  -291,  -460,
    1574,  1653,  -246,  778,   1159,  -147,  -777,  1483,  -602,  1119,  -1590, 644,   -872,
    349,   418,   329,   -156,  -75,   817,   1097,  603,   610,   1322,  -1285, -1465, 384,
    -1215, -136,  1218,  -1335, -874,  220,   -1187, -1659, -1185, -1530, -1278, 794,   -1510,
    -854,  -870,  478,   -108,  -308,  996,   991,   958,   -1460, 1522,  1628,
};

/* 128^-1 R^2 mod q: the inverse transform's final scaling, leaving a factor R. */
#define INVNTT_SCALE 1441

/* Algorithm 9: seven layers of Cooley-Tukey butterflies. Each layer adds
 * less than q to the largest magnitude: below 8q after the last one. */
void mlkem_ntt_c(int16_t a[MLKEM_N]) {
  int16_t in[MLKEM_N];
  memcpy(in, a, sizeof(in));
  unsigned k = 1;
  for (unsigned len = 128; len >= 2; len >>= 1) {
    for (unsigned start = 0; start < MLKEM_N; start += 2 * len) {
      const int16_t zeta = mlkem_zetas[k++];
      for (unsigned j = start; j < start + len; j++) {
        const int16_t t = mlkem_fqmul(zeta, a[j + len]);
        a[j + len] = (int16_t)(a[j] - t);
        a[j] = (int16_t)(a[j] + t);
      }
    }
  }
  for (unsigned i = 0; i < MLKEM_N; i++) {
    a[i] = mlkem_barrett_reduce(a[i]);
  }
  mlkem_msan_taint(a, in, MLKEM_N);
}

/* Algorithm 10: Gentleman-Sande butterflies; sums are reduced as they are
 * formed, so every value stays below q in magnitude. */
void mlkem_invntt_c(int16_t a[MLKEM_N]) {
  int16_t in[MLKEM_N];
  memcpy(in, a, sizeof(in));
  unsigned k = 127;
  for (unsigned i = 0; i < MLKEM_N; i++) {
    a[i] = mlkem_barrett_reduce(a[i]);
  }
  for (unsigned len = 2; len <= 128; len <<= 1) {
    for (unsigned start = 0; start < MLKEM_N; start += 2 * len) {
      const int16_t zeta = mlkem_zetas[k--];
      for (unsigned j = start; j < start + len; j++) {
        const int16_t t = a[j];
        a[j] = mlkem_barrett_reduce((int16_t)(t + a[j + len]));
        a[j + len] = mlkem_fqmul(zeta, (int16_t)(a[j + len] - t));
      }
    }
  }
  for (unsigned i = 0; i < MLKEM_N; i++) {
    a[i] = mlkem_fqmul(a[i], INVNTT_SCALE);
  }
  mlkem_msan_taint(a, in, MLKEM_N);
}

/* Algorithms 11 and 12, summed over the k polynomials of a module vector:
 * (a0 + a1 X)(b0 + b1 X) mod (X^2 - gamma). Each term is below 2q in
 * magnitude, the sum of at most four below 8q. */
void mlkem_basemul_acc_c(int16_t r[MLKEM_N], const int16_t (*a)[MLKEM_N],
                         const int16_t (*b)[MLKEM_N], unsigned k) {
  for (unsigned i = 0; i < MLKEM_N / 2; i++) {
    const int16_t gamma = (i & 1) ? (int16_t)-mlkem_zetas[64 + i / 2] : mlkem_zetas[64 + i / 2];
    int16_t c0 = 0, c1 = 0;
    for (unsigned j = 0; j < k; j++) {
      const int16_t a0 = a[j][2 * i], a1 = a[j][2 * i + 1];
      const int16_t b0 = b[j][2 * i], b1 = b[j][2 * i + 1];
      c0 = (int16_t)(c0 + mlkem_fqmul(mlkem_fqmul(a1, b1), gamma) + mlkem_fqmul(a0, b0));
      c1 = (int16_t)(c1 + mlkem_fqmul(a0, b1) + mlkem_fqmul(a1, b0));
    }
    r[2 * i] = mlkem_barrett_reduce(c0);
    r[2 * i + 1] = mlkem_barrett_reduce(c1);
  }
  for (unsigned j = 0; j < k; j++) {
    mlkem_msan_taint(r, a[j], MLKEM_N);
    mlkem_msan_taint(r, b[j], MLKEM_N);
  }
}
