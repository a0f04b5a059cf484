/* SHA3-384 and SHAKE256 on top of Keccak-f[1600]. */
#include <string.h>

#include "bike/ops.h"
#include "common/bytes.h"
#include "common/ct.h"
#include "hash/sha3.h"
#include "native/backend.h"

#define SHA3_384_RATE BIKE_SHA3_384_RATE
#define SHA3_DOMAIN 0x06
#define SHAKE_DOMAIN 0x1F

static void xor_byte(uint64_t s[25], size_t i, uint8_t v) {
  s[i / 8] ^= (uint64_t)v << (8 * (i % 8));
}

static uint8_t get_byte(const uint64_t s[25], size_t i) { return (uint8_t)(s[i / 8] >> (8 * (i % 8))); }

/* XOR one rate block into the state (both rates are whole lanes). */
static void xor_block(uint64_t s[25], size_t rate, const uint8_t *in) {
  for (size_t i = 0; i < rate / 8; i++) {
    s[i] ^= load64_le(in + 8 * i);
  }
}

/* Absorb all of `in` and the padding (domain bits, then pad10*1) into s. */
static void absorb_rest(uint64_t s[25], size_t rate, const uint8_t *in, size_t len,
                        uint8_t domain) {
  while (len >= rate) {
    xor_block(s, rate, in);
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

static void absorb_padded(uint64_t s[25], size_t rate, const uint8_t *in, size_t len,
                          uint8_t domain) {
  memset(s, 0, 25 * sizeof(uint64_t));
  absorb_rest(s, rate, in, len, domain);
}

void bike_sha3_384_start_xn(uint64_t (*s)[25], const uint8_t *const *in, size_t blocks,
                            unsigned n) {
  memset(s, 0, n * sizeof(s[0]));
  for (size_t b = 0; b < blocks; b++) {
    for (unsigned q = 0; q < n; q++) {
      xor_block(s[q], SHA3_384_RATE, in[q] + b * SHA3_384_RATE);
    }
    bike_backend_current()->keccak_xn(s, n);
  }
}

void bike_sha3_384_finish(uint8_t out[BIKE_SHA3_384_BYTES], uint64_t s[25], const uint8_t *in,
                          size_t len) {
  absorb_rest(s, SHA3_384_RATE, in, len, SHA3_DOMAIN);
  for (size_t i = 0; i < BIKE_SHA3_384_BYTES; i++) {
    out[i] = get_byte(s, i);
  }
  bike_wipe(s, 25 * sizeof(uint64_t));
}

void bike_sha3_384(uint8_t out[BIKE_SHA3_384_BYTES], const uint8_t *in, size_t len) {
  uint64_t s[25];
  memset(s, 0, sizeof(s));
  bike_sha3_384_finish(out, s, in, len);
}

void bike_shake256_absorb(bike_shake256_ctx *ctx, const uint8_t *in, size_t len) {
  absorb_padded(ctx->s, BIKE_SHAKE256_RATE, in, len, SHAKE_DOMAIN);
  ctx->pos = 0;
}

void bike_shake256_squeeze(bike_shake256_ctx *ctx, uint8_t *out, size_t len) {
  while (len > 0) {
    if (ctx->pos == BIKE_SHAKE256_RATE) {
      bike_keccak_f1600(ctx->s);
      ctx->pos = 0;
    }
    size_t run = BIKE_SHAKE256_RATE - ctx->pos;
    run = run < len ? run : len;
    size_t i = 0;
    for (; i < run && (ctx->pos + i) % 8 != 0; i++) {
      out[i] = get_byte(ctx->s, ctx->pos + i);
    }
    for (; i + 8 <= run; i += 8) { /* whole lanes */
      store64_le(out + i, ctx->s[(ctx->pos + i) / 8]);
    }
    for (; i < run; i++) {
      out[i] = get_byte(ctx->s, ctx->pos + i);
    }
    ctx->pos += (uint32_t)run;
    out += run;
    len -= run;
  }
}

void bike_shake256_wipe(bike_shake256_ctx *ctx) { bike_wipe(ctx, sizeof(*ctx)); }

void bike_shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen) {
  bike_shake256_ctx ctx;
  bike_shake256_absorb(&ctx, in, inlen);
  bike_shake256_squeeze(&ctx, out, outlen);
  bike_shake256_wipe(&ctx);
}
