/* The number-theoretic transform of FIPS 203 (algorithms 9 to 12) on
 * Z_q[X]/(X^256 + 1), zeta = 17. Coefficients are int16_t; the tables hold
 * powers of zeta times R = 2^16 mod q (Montgomery form), centred. */
#ifndef MLKEM_NTT_H
#define MLKEM_NTT_H

#include <stdint.h>

#include "params.h"

/* zetas[i] = 17^BitRev7(i) R mod q. The base multiplication of pair i
 * (FIPS 203's gamma_i = 17^(2 BitRev7(i) + 1)) uses +zetas[64 + i/2] for
 * even i and -zetas[64 + i/2] for odd i. */
extern const int16_t mlkem_zetas[128];

/* The portable kernels, reference semantics of every back end:
 * ntt: a -> NTT(a), input |a_i| < q, output in [-(q-1)/2, (q-1)/2];
 * invntt: a -> NTT^-1(a) R (the R cancels the R^-1 of basemul_acc), input
 *   |a_i| < 8q, output |.| < q;
 * basemul_acc: r = sum_j a_j o b_j R^-1 over j < k (MultiplyNTTs, summed),
 *   a's values below 2^12 in magnitude, b's at most (q-1)/2 (an NTT's
 *   output), output in [-(q-1)/2, (q-1)/2]. */
void mlkem_ntt_c(int16_t a[MLKEM_N]);
void mlkem_invntt_c(int16_t a[MLKEM_N]);
void mlkem_basemul_acc_c(int16_t r[MLKEM_N], const int16_t (*a)[MLKEM_N],
                         const int16_t (*b)[MLKEM_N], unsigned k);

#if defined(__x86_64__)
/* The AVX2 kernels (x86_64/ntt_avx2.c). */
void mlkem_ntt_avx2(int16_t a[MLKEM_N]);
void mlkem_invntt_avx2(int16_t a[MLKEM_N]);
void mlkem_basemul_acc_avx2(int16_t r[MLKEM_N], const int16_t (*a)[MLKEM_N],
                            const int16_t (*b)[MLKEM_N], unsigned k);
#endif

#endif
