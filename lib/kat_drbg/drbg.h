/* The NIST AES-256-CTR DRBG of the PQC KAT generator (PQCgenKAT_kem), for
 * reproducing the official Known Answer Tests: the bike tool's `kat` command
 * and the hardware testbenches draw their KAT coins from it. Its AES-256 is
 * OpenSSL's libcrypto's (which libbike itself never links) with
 * BIKE_DRBG_OPENSSL defined, else its own (aes256.c). */
#ifndef BIKE_KAT_DRBG_H
#define BIKE_KAT_DRBG_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint8_t key[32];
  uint8_t v[16];
} nist_drbg;

/* Returns 0 on success, -1 if AES is unavailable. */
int nist_drbg_init(nist_drbg *d, const uint8_t entropy[48]);
int nist_drbg_generate(nist_drbg *d, uint8_t *out, size_t len);

#endif
