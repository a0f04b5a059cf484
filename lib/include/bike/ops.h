/* libbike's individual operations, for tests, benchmarks and the hardware
 * testbenches that use libbike as their golden model.
 *
 * Not a stable API or ABI: functions and the layout of bike_params change
 * with the implementation. The shared library exports them under the symbol
 * version BIKE_OPS_<release> (e.g. BIKE_OPS_0.1.0), so a program linked
 * against them loads only with the exact release it was built with, rather
 * than misbehaving with another one of the same soname.
 *
 * Polynomials of R = GF(2)[x]/(x^r - 1) are arrays of p->r_qwords 64-bit
 * words, bit i of the polynomial in bit i%64 of word i/64; the bits at and
 * above r are zero on input and are kept zero on output. Callers give arrays
 * of at least p->r_qwords words (BIKE_MAX_QWORDS fits every level).
 * Support index lists are uint32_t arrays of positions in [0, r).
 *
 * Everything here is constant time in secret data (indices, polynomials,
 * syndromes); only the level parameters and lengths may steer control flow.
 */
#ifndef BIKE_OPS_H
#define BIKE_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "bike/bike.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- parameters ---------------------------------------------------------- */

#define BIKE_MAX_R 40973u
#define BIKE_MAX_QWORDS ((BIKE_MAX_R + 63u) / 64u)
#define BIKE_MAX_R_BYTES ((BIKE_MAX_R + 7u) / 8u)
#define BIKE_MAX_D 137u
#define BIKE_MAX_T 264u
#define BIKE_M_BYTES 32u       /* message m, seeds, sigma */
#define BIKE_HASH_OUT_BYTES 32 /* L and K are SHA3-384 truncated to 32 bytes */

typedef struct {
  int level;          /* 1, 3 or 5 */
  uint32_t r;         /* block length, prime */
  uint32_t d;         /* row weight of h0 and of h1 */
  uint32_t t;         /* error weight */
  uint32_t r_bytes;   /* ceil(r / 8) */
  uint32_t r_qwords;  /* ceil(r / 64) */
  uint32_t pk_bytes;  /* r_bytes */
  uint32_t ct_bytes;  /* r_bytes + 32 */
  uint32_t sk_bytes;  /* 8 d + 3 r_bytes + 32 */
  /* BGF threshold T(S) = max(floor((th_a + th_b * S) / 10^8), th_min). */
  uint64_t th_a;
  uint64_t th_b;
  uint32_t th_min;
  uint32_t bg_threshold; /* (d + 1) / 2 + 1, for the black and gray steps */
  uint32_t nb_iter;      /* decoder iterations */
  uint32_t tau;          /* gray margin */
} bike_params;

#define BIKE_TH_SCALE 100000000u /* the decimal constants are exact in 10^-8 */

/* Parameters of a level, or NULL if the level is not 1, 3 or 5. */
BIKE_API const bike_params *bike_params_get(int level);

/* ---- hashing ------------------------------------------------------------- */

#define BIKE_SHA3_384_BYTES 48
#define BIKE_SHAKE256_RATE 136

/* Keccak-f[1600] on 25 lanes (lane x + 5 y). */
BIKE_API void bike_keccak_f1600(uint64_t state[25]);

BIKE_API void bike_sha3_384(uint8_t out[BIKE_SHA3_384_BYTES], const uint8_t *in, size_t len);

/* SHAKE256 as a stream: absorb everything with one call, then squeeze any
 * number of bytes in any number of calls. */
typedef struct {
  uint64_t s[25];
  uint32_t pos; /* bytes of the current block already squeezed */
} bike_shake256_ctx;

BIKE_API void bike_shake256_absorb(bike_shake256_ctx *ctx, const uint8_t *in, size_t len);
BIKE_API void bike_shake256_squeeze(bike_shake256_ctx *ctx, uint8_t *out, size_t len);
BIKE_API void bike_shake256_wipe(bike_shake256_ctx *ctx);
BIKE_API void bike_shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);

/* ---- fixed-weight sampling ----------------------------------------------- */

/* Constant-time Fisher-Yates: `count` distinct positions in [0, bound), drawn
 * from 32-bit little-endian words of the SHAKE256 stream. */
BIKE_API void bike_sample_fisher_yates(uint32_t *pos, uint32_t count, uint32_t bound,
                                       bike_shake256_ctx *prf);

/* The key-generation sampler: d positions of h0 then d of h1 from one
 * SHAKE256(seed) stream. */
BIKE_API void bike_sample_keygen(const bike_params *p, uint32_t *h0_idx, uint32_t *h1_idx,
                                 const uint8_t seed[BIKE_M_BYTES]);

/* Dense polynomial of the given support, count distinct positions below r
 * (constant time in the positions). */
BIKE_API void bike_poly_from_indices(const bike_params *p, uint64_t *a, const uint32_t *idx,
                                     uint32_t count);

/* ---- H, L, K --------------------------------------------------------------- */

/* H: the error (e0, e1) of weight t from m. If idx is not NULL it receives
 * the t positions in [0, 2r) as drawn. */
BIKE_API void bike_function_h(const bike_params *p, uint64_t *e0, uint64_t *e1, uint32_t *idx,
                              const uint8_t m[BIKE_M_BYTES]);
/* L: SHA3-384(e0 || e1) truncated to 32 bytes. */
BIKE_API void bike_function_l(const bike_params *p, uint8_t out[BIKE_HASH_OUT_BYTES],
                              const uint64_t *e0, const uint64_t *e1);
/* K: SHA3-384(m || c0 || c1) truncated to 32 bytes; ct is c0 || c1 as bytes. */
BIKE_API void bike_function_k(const bike_params *p, uint8_t out[BIKE_HASH_OUT_BYTES],
                              const uint8_t m[BIKE_M_BYTES], const uint8_t *ct);

/* ---- polynomial arithmetic in R -------------------------------------------- */

/* Serialisation: r_bytes little-endian bytes. from_bytes clears the bits
 * above r and returns all-ones if none was set, 0 otherwise. */
BIKE_API uint64_t bike_poly_from_bytes(const bike_params *p, uint64_t *a, const uint8_t *bytes);
BIKE_API void bike_poly_to_bytes(const bike_params *p, uint8_t *bytes, const uint64_t *a);

/* c = a * b mod (x^r - 1), Karatsuba over 64-bit carry-less products. */
BIKE_API void bike_gf2x_mul(const bike_params *p, uint64_t *c, const uint64_t *a,
                            const uint64_t *b);

/* c = a^(2^k) mod (x^r - 1): the permutation bit i -> bit (i * 2^k) mod r. */
BIKE_API void bike_gf2x_sqr_k(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t k);

/* c = a^-1 mod (x^r - 1) for a of odd weight, by Itoh-Tsujii. */
BIKE_API void bike_gf2x_inv(const bike_params *p, uint64_t *c, const uint64_t *a);

/* c = a rotated right by k bits (c_j = a_(j+k mod r)), constant time in k < r. */
BIKE_API void bike_gf2x_rotr(const bike_params *p, uint64_t *c, const uint64_t *a, uint32_t k);

/* Binary sparse-dense product: c = (sum over i of x^idx[i]) * a mod (x^r - 1). */
BIKE_API void bike_gf2x_mul_sparse(const bike_params *p, uint64_t *c, const uint32_t *idx,
                                   uint32_t count, const uint64_t *a);

/* ---- decoding -------------------------------------------------------------- */

/* Integer sparse-dense product (unsatisfied parity-check counts):
 * upc[j] = number of i with bit (j + idx[i]) mod r of s set, for j < r. */
BIKE_API void bike_upc(const bike_params *p, uint8_t *upc, const uint32_t *idx, uint32_t count,
                       const uint64_t *s);

/* Hamming weight of a polynomial. */
BIKE_API uint32_t bike_poly_weight(const bike_params *p, const uint64_t *a);

/* The BGF threshold T(S) for syndrome weight S. */
BIKE_API uint32_t bike_threshold(const bike_params *p, uint32_t syndrome_weight);

/* Black-Gray-Flip decoding of syndrome s (= c0 * h0) with the secret supports.
 * Runs every iteration. Returns all-ones if the final syndrome is zero, 0
 * otherwise. */
BIKE_API uint64_t bike_decode(const bike_params *p, uint64_t *e0, uint64_t *e1, const uint64_t *s,
                              const uint32_t *h0_idx, const uint32_t *h1_idx);

#ifdef __cplusplus
}
#endif

#endif
