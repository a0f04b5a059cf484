#include "drbg.h"

#include <string.h>

#if defined(BIKE_DRBG_OPENSSL)
#include <openssl/evp.h>

static int aes256_block(const uint8_t key[32], const uint8_t in[16], uint8_t out[16]) {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  int len = 0, ok = ctx != NULL && EVP_EncryptInit_ex(ctx, EVP_aes_256_ecb(), NULL, key, NULL) == 1 &&
                    EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 &&
                    EVP_EncryptUpdate(ctx, out, &len, in, 16) == 1 && len == 16;
  EVP_CIPHER_CTX_free(ctx);
  return ok ? 0 : -1;
}
#else
#include "aes256.h"

static int aes256_block(const uint8_t key[32], const uint8_t in[16], uint8_t out[16]) {
  aes256_encrypt_block(key, in, out);
  return 0;
}
#endif

/* V is a 128-bit big-endian counter. */
static void increment_v(uint8_t v[16]) {
  for (int i = 15; i >= 0; i--) {
    if (++v[i] != 0) {
      break;
    }
  }
}

static int drbg_update(nist_drbg *d, const uint8_t *provided) {
  uint8_t temp[48];
  for (int i = 0; i < 3; i++) {
    increment_v(d->v);
    if (aes256_block(d->key, d->v, temp + 16 * i) != 0) {
      return -1;
    }
  }
  if (provided != NULL) {
    for (int i = 0; i < 48; i++) {
      temp[i] ^= provided[i];
    }
  }
  memcpy(d->key, temp, 32);
  memcpy(d->v, temp + 32, 16);
  return 0;
}

int nist_drbg_init(nist_drbg *d, const uint8_t entropy[48]) {
  memset(d, 0, sizeof(*d));
  return drbg_update(d, entropy);
}

int nist_drbg_generate(nist_drbg *d, uint8_t *out, size_t len) {
  uint8_t block[16];
  while (len > 0) {
    increment_v(d->v);
    if (aes256_block(d->key, d->v, block) != 0) {
      return -1;
    }
    size_t n = len < 16 ? len : 16;
    memcpy(out, block, n);
    out += n;
    len -= n;
  }
  return drbg_update(d, NULL);
}
