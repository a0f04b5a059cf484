/* SHA3-384 and SHAKE256 on top of Keccak-f[1600]. */
#include <string.h>

#include "bike/ops.h"
#include "common/bytes.h"
#include "common/ct.h"

#define SHA3_384_RATE 104
#define SHA3_DOMAIN 0x06
#define SHAKE_DOMAIN 0x1F

static void xor_byte(uint64_t s[25], size_t i, uint8_t v) {
  s[i / 8] ^= (uint64_t)v << (8 * (i % 8));
}

static uint8_t get_byte(const uint64_t s[25], size_t i) { return (uint8_t)(s[i / 8] >> (8 * (i % 8))); }

/* Absorb all of `in` and the padding (domain bits, then pad10*1). */
static void absorb_padded(uint64_t s[25], size_t rate, const uint8_t *in, size_t len,
                          uint8_t domain) {
  memset(s, 0, 25 * sizeof(uint64_t));
  while (len >= rate) {
    for (size_t i = 0; i < rate / 8; i++) { /* both rates are whole lanes */
      s[i] ^= load64_le(in + 8 * i);
    }
    bike_keccak_f1600(s);
    in += rate;
    len -= rate;
  }
  for (size_t i = 0; i < len; i++) {
    xor_byte(s, i, in[i]);
  }
  xor_byte(s, len, domain);
  xor_byte(s, rate - 1, 0x80);
  bike_keccak_f1600(s);
}

void bike_sha3_384(uint8_t out[BIKE_SHA3_384_BYTES], const uint8_t *in, size_t len) {
  uint64_t s[25];
  absorb_padded(s, SHA3_384_RATE, in, len, SHA3_DOMAIN);
  for (size_t i = 0; i < BIKE_SHA3_384_BYTES; i++) {
    out[i] = get_byte(s, i);
  }
  bike_wipe(s, sizeof(s));
}

void bike_shake256_absorb(bike_shake256_ctx *ctx, const uint8_t *in, size_t len) {
  absorb_padded(ctx->s, BIKE_SHAKE256_RATE, in, len, SHAKE_DOMAIN);
  ctx->pos = 0;
}

void bike_shake256_squeeze(bike_shake256_ctx *ctx, uint8_t *out, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (ctx->pos == BIKE_SHAKE256_RATE) {
      bike_keccak_f1600(ctx->s);
      ctx->pos = 0;
    }
    out[i] = get_byte(ctx->s, ctx->pos++);
  }
}

void bike_shake256_wipe(bike_shake256_ctx *ctx) { bike_wipe(ctx, sizeof(*ctx)); }

void bike_shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen) {
  bike_shake256_ctx ctx;
  bike_shake256_absorb(&ctx, in, inlen);
  bike_shake256_squeeze(&ctx, out, outlen);
  bike_shake256_wipe(&ctx);
}
