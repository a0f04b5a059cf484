/* Polynomials of Z_q[X]/(X^256 + 1): FIPS 203's byte encodings, compression
 * and samplers (sections 4.2.1 and 4.2.2). */
#ifndef MLKEM_POLY_H
#define MLKEM_POLY_H

#include <stdint.h>

#include "params.h"

typedef struct {
  int16_t c[MLKEM_N];
} mlkem_poly;

/* ByteEncode_d(a) into 32 d bytes; a_i in [0, 2^d) (d = 12: [0, q)). */
void mlkem_byte_encode(uint8_t *out, const mlkem_poly *a, unsigned d);
/* ByteDecode_d from 32 d bytes, for d < 12: every value is taken. */
void mlkem_byte_decode(mlkem_poly *a, const uint8_t *in, unsigned d);
/* ByteDecode_12 without the reduction mod q; returns all-ones (as int) if
 * every value is below q (the encapsulation key check of section 7.2),
 * else 0. Values >= q are kept: arithmetic mod q does not mind. */
int mlkem_byte_decode12(mlkem_poly *a, const uint8_t in[MLKEM_POLY_BYTES]);

/* a_i = Compress_d(a_i), for a_i in [0, q). */
void mlkem_compress(mlkem_poly *a, unsigned d);
/* a_i = Decompress_d(a_i), for a_i in [0, 2^d). */
void mlkem_decompress(mlkem_poly *a, unsigned d);

/* a_i in [0, q) from any int16_t. */
void mlkem_poly_freeze(mlkem_poly *a);
/* r = a + b, r = a - b (no reduction). */
void mlkem_poly_add(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b);
void mlkem_poly_sub(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b);
/* a_i = a_i R mod q (undoes basemul_acc's R^-1). */
void mlkem_poly_tomont(mlkem_poly *a);

/* SamplePolyCBD_eta (algorithm 8) from 64 eta bytes, eta in {2, 3}. */
void mlkem_sample_cbd(mlkem_poly *a, const uint8_t *bytes, unsigned eta);
/* SampleNTT (algorithm 7): a[q] from XOF(rho || ji[q][0] || ji[q][1]) for
 * q < n <= 4, the sponges in lockstep. Rejection sampling, whose time
 * depends on rho only (public). */
void mlkem_sample_ntt_xn(mlkem_poly *a, const uint8_t rho[32], const uint8_t (*ji)[2],
                         unsigned n);

#endif
