/* The KAT DRBG's own AES-256 (lib/kat_drbg/aes256.c): the FIPS 197 example
 * (Appendix C.3), and, where the build has OpenSSL, 1000 random keys and
 * blocks against OpenSSL's AES-256. */
#include <string.h>

#include "aes256.h"
#include "test_util.h"

#if defined(BIKE_TEST_OPENSSL)
#include <openssl/evp.h>

static int openssl_block(const uint8_t key[32], const uint8_t in[16], uint8_t out[16]) {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  int len = 0, ok = ctx != NULL && EVP_EncryptInit_ex(ctx, EVP_aes_256_ecb(), NULL, key, NULL) == 1 &&
                    EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 &&
                    EVP_EncryptUpdate(ctx, out, &len, in, 16) == 1 && len == 16;
  EVP_CIPHER_CTX_free(ctx);
  return ok;
}
#endif

int main(void) {
  uint8_t key[32], in[16], out[16], want[16];
  for (int i = 0; i < 32; i++) {
    key[i] = (uint8_t)i;
  }
  for (int i = 0; i < 16; i++) {
    in[i] = (uint8_t)(0x11 * i);
  }
  hex_to_bytes("8ea2b7ca516745bfeafc49904b496089", want, 16);
  aes256_encrypt_block(key, in, out);
  CHECK(memcmp(out, want, 16) == 0, "FIPS 197 C.3");
#if defined(BIKE_TEST_OPENSSL)
  for (int n = 0; n < 1000; n++) {
    test_rand_bytes(key, sizeof(key));
    test_rand_bytes(in, sizeof(in));
    aes256_encrypt_block(key, in, out);
    CHECK(openssl_block(key, in, want) && memcmp(out, want, 16) == 0, "random block %d", n);
  }
#endif
  return test_summary();
}
