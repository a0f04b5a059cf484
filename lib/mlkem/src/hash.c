#include "hash.h"

#include <string.h>

#include "bike/ops.h"
#include "common/bytes.h"
#include "common/ct.h"
#include "native/backend.h"

#define SHA3_DOMAIN 0x06
#define SHAKE_DOMAIN 0x1F
#define SHA3_256_RATE 136
#define SHA3_512_RATE 72
#define SHAKE256_RATE 136

void mlkem_wipe(void *p, size_t n) { bike_wipe(p, n); }

static void xor_byte(uint64_t s[25], size_t i, uint8_t v) {
  s[i / 8] ^= (uint64_t)v << (8 * (i % 8));
}

/* Absorb `len` bytes from position *pos of the current block. */
static void absorb(uint64_t s[25], size_t rate, size_t *pos, const uint8_t *in, size_t len) {
  while (len > 0) {
    if (*pos == 0 && len >= rate) {
      for (size_t i = 0; i < rate / 8; i++) {
        s[i] ^= load64_le(in + 8 * i);
      }
      bike_keccak_f1600(s);
      in += rate;
      len -= rate;
      continue;
    }
    xor_byte(s, (*pos)++, *in++);
    len--;
    if (*pos == rate) {
      bike_keccak_f1600(s);
      *pos = 0;
    }
  }
}

static void pad(uint64_t s[25], size_t rate, size_t pos, uint8_t domain) {
  xor_byte(s, pos, domain);
  xor_byte(s, rate - 1, 0x80);
  bike_keccak_f1600(s);
}

/* out = the first len bytes of the state (len <= rate). */
static void read_state(uint8_t *out, const uint64_t s[25], size_t len) {
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    store64_le(out + i, s[i / 8]);
  }
  for (; i < len; i++) {
    out[i] = (uint8_t)(s[i / 8] >> (8 * (i % 8)));
  }
}

/* One sponge over a || b, squeezed to out_len bytes. */
static void sponge2(uint8_t *out, size_t out_len, size_t rate, uint8_t domain, const uint8_t *a,
                    size_t a_len, const uint8_t *b, size_t b_len) {
  uint64_t s[25];
  size_t pos = 0;
  memset(s, 0, sizeof(s));
  absorb(s, rate, &pos, a, a_len);
  absorb(s, rate, &pos, b, b_len);
  pad(s, rate, pos, domain);
  while (out_len > rate) {
    read_state(out, s, rate);
    bike_keccak_f1600(s);
    out += rate;
    out_len -= rate;
  }
  read_state(out, s, out_len);
  bike_wipe(s, sizeof(s));
}

void mlkem_hash_h(uint8_t out[32], const uint8_t *in, size_t len) {
  sponge2(out, 32, SHA3_256_RATE, SHA3_DOMAIN, in, len, NULL, 0);
}

void mlkem_hash_g(uint8_t out[64], const uint8_t *a, size_t a_len, const uint8_t *b,
                  size_t b_len) {
  sponge2(out, 64, SHA3_512_RATE, SHA3_DOMAIN, a, a_len, b, b_len);
}

void mlkem_hash_j(uint8_t out[32], const uint8_t *a, size_t a_len, const uint8_t *b,
                  size_t b_len) {
  sponge2(out, 32, SHAKE256_RATE, SHAKE_DOMAIN, a, a_len, b, b_len);
}

void mlkem_prf(uint8_t *out, unsigned eta, const uint8_t s[32], uint8_t b) {
  sponge2(out, 64 * (size_t)eta, SHAKE256_RATE, SHAKE_DOMAIN, s, 32, &b, 1);
}

void mlkem_xof_absorb_xn(uint64_t (*s)[25], const uint8_t rho[32], const uint8_t (*ji)[2],
                         unsigned n) {
  memset(s, 0, n * sizeof(s[0]));
  for (unsigned q = 0; q < n; q++) {
    /* rho || j || i and the padding fit in one block. */
    for (size_t b = 0; b < 32; b++) {
      xor_byte(s[q], b, rho[b]);
    }
    xor_byte(s[q], 32, ji[q][0]);
    xor_byte(s[q], 33, ji[q][1]);
    xor_byte(s[q], 34, SHAKE_DOMAIN);
    xor_byte(s[q], MLKEM_SHAKE128_RATE - 1, 0x80);
  }
  bike_backend_current()->keccak_xn(s, n);
}

void mlkem_xof_next_xn(uint64_t (*s)[25], unsigned n) { bike_backend_current()->keccak_xn(s, n); }

void mlkem_xof_read(uint8_t out[MLKEM_SHAKE128_RATE], const uint64_t s[25]) {
  read_state(out, s, MLKEM_SHAKE128_RATE);
}
