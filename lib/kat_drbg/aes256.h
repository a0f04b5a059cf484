/* AES-256 encryption of one block (FIPS 197), the KAT DRBG's own for builds
 * without OpenSSL's libcrypto (the cross builds; CMake option
 * BIKE_DRBG_OPENSSL). Test and tool code only: it encrypts the public KAT
 * seeds, and its S-box look-ups are not constant time. */
#ifndef BIKE_KAT_AES256_H
#define BIKE_KAT_AES256_H

#include <stdint.h>

void aes256_encrypt_block(const uint8_t key[32], const uint8_t in[16], uint8_t out[16]);

#endif
