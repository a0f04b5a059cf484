/* FIPS 203's hash functions (section 4.1) on libbike's Keccak-f[1600]:
 * G = SHA3-512, H = SHA3-256, J = SHAKE256 to 32 bytes, PRF_eta = SHAKE256
 * to 64 eta bytes, XOF = SHAKE128. */
#ifndef MLKEM_HASH_H
#define MLKEM_HASH_H

#include <stddef.h>
#include <stdint.h>

#define MLKEM_SHAKE128_RATE 168


/* H(in) */
void mlkem_hash_h(uint8_t out[32], const uint8_t *in, size_t len);
/* G(a || b): out[0, 32) and out[32, 64), FIPS 203's (K, r) or (rho, sigma). */
void mlkem_hash_g(uint8_t out[64], const uint8_t *a, size_t a_len, const uint8_t *b,
                  size_t b_len);
/* J(a || b) */
void mlkem_hash_j(uint8_t out[32], const uint8_t *a, size_t a_len, const uint8_t *b,
                  size_t b_len);
/* PRF_eta(s, b): 64 eta bytes. */
void mlkem_prf(uint8_t *out, unsigned eta, const uint8_t s[32], uint8_t b);
/* Up to four XOF sponges in lockstep (libbike's multi-state Keccak):
 * s[q] = XOF.Absorb(rho || ji[q][0] || ji[q][1]), ready to read its first
 * 168-byte block; for q < n <= 4. */
void mlkem_xof_absorb_xn(uint64_t (*s)[25], const uint8_t rho[32], const uint8_t (*ji)[2],
                         unsigned n);
/* The next block of each of the n sponges. */
void mlkem_xof_next_xn(uint64_t (*s)[25], unsigned n);
/* The current block of one sponge. */
void mlkem_xof_read(uint8_t out[MLKEM_SHAKE128_RATE], const uint64_t s[25]);

/* Zero a buffer in a way the compiler may not remove. */
void mlkem_wipe(void *p, size_t n);

#endif
