#include "poly.h"

#include "arith.h"
#include "hash.h"

/* Little-endian bit packing of d-bit values, d <= 12. */
void mlkem_byte_encode(uint8_t *out, const mlkem_poly *a, unsigned d) {
  uint32_t acc = 0;
  unsigned bits = 0;
  for (unsigned i = 0; i < MLKEM_N; i++) {
    acc |= (uint32_t)(uint16_t)a->c[i] << bits;
    bits += d;
    while (bits >= 8) {
      *out++ = (uint8_t)acc;
      acc >>= 8;
      bits -= 8;
    }
  }
}

void mlkem_byte_decode(mlkem_poly *a, const uint8_t *in, unsigned d) {
  uint32_t acc = 0;
  unsigned bits = 0;
  const uint32_t mask = ((uint32_t)1 << d) - 1;
  for (unsigned i = 0; i < MLKEM_N; i++) {
    while (bits < d) {
      acc |= (uint32_t)*in++ << bits;
      bits += 8;
    }
    a->c[i] = (int16_t)(acc & mask);
    acc >>= d;
    bits -= d;
  }
}

int mlkem_byte_decode12(mlkem_poly *a, const uint8_t in[MLKEM_POLY_BYTES]) {
  uint32_t bad = 0;
  for (unsigned i = 0; i < MLKEM_N / 2; i++) {
    const uint32_t b0 = in[3 * i], b1 = in[3 * i + 1], b2 = in[3 * i + 2];
    const uint32_t x0 = b0 | ((b1 & 0xF) << 8), x1 = (b1 >> 4) | (b2 << 4);
    /* (q - 1 - x) >> 31 is 1 exactly when x >= q. */
    bad |= ((MLKEM_Q - 1 - x0) | (MLKEM_Q - 1 - x1)) >> 31;
    a->c[2 * i] = (int16_t)x0;
    a->c[2 * i + 1] = (int16_t)x1;
  }
  return -(int)(bad ^ 1u);
}

/* round(2^d x / q) mod 2^d = floor((2^d x + (q - 1) / 2) / q) mod 2^d for
 * odd q. */
void mlkem_compress(mlkem_poly *a, unsigned d) {
  const mlkem_poly in = *a;
  const uint32_t mask = ((uint32_t)1 << d) - 1;
  for (unsigned i = 0; i < MLKEM_N; i++) {
    const uint32_t x = (uint32_t)(uint16_t)a->c[i];
    a->c[i] = (int16_t)(mlkem_div_q((x << d) + (MLKEM_Q - 1) / 2) & mask);
  }
  mlkem_msan_taint(a->c, in.c, MLKEM_N);
}

/* round(q y / 2^d) */
void mlkem_decompress(mlkem_poly *a, unsigned d) {
  const mlkem_poly in = *a;
  for (unsigned i = 0; i < MLKEM_N; i++) {
    const uint32_t y = (uint32_t)(uint16_t)a->c[i];
    a->c[i] = (int16_t)((y * MLKEM_Q + ((uint32_t)1 << (d - 1))) >> d);
  }
  mlkem_msan_taint(a->c, in.c, MLKEM_N);
}

void mlkem_poly_freeze(mlkem_poly *a) {
  const mlkem_poly in = *a;
  for (unsigned i = 0; i < MLKEM_N; i++) {
    a->c[i] = mlkem_freeze(a->c[i]);
  }
  mlkem_msan_taint(a->c, in.c, MLKEM_N);
}

void mlkem_poly_add(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b) {
  for (unsigned i = 0; i < MLKEM_N; i++) {
    r->c[i] = (int16_t)(a->c[i] + b->c[i]);
  }
}

void mlkem_poly_sub(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b) {
  for (unsigned i = 0; i < MLKEM_N; i++) {
    r->c[i] = (int16_t)(a->c[i] - b->c[i]);
  }
}

void mlkem_poly_tomont(mlkem_poly *a) {
  const mlkem_poly in = *a;
  for (unsigned i = 0; i < MLKEM_N; i++) {
    a->c[i] = mlkem_fqmul(a->c[i], MLKEM_R2);
  }
  mlkem_msan_taint(a->c, in.c, MLKEM_N);
}

/* Sum of eta bits minus sum of the next eta bits, for every coefficient:
 * the bit counts are formed in parallel within a word (no table, no branch). */
void mlkem_sample_cbd(mlkem_poly *a, const uint8_t *bytes, unsigned eta) {
  if (eta == 2) {
    /* 8 coefficients from each 32-bit word, 4 bits each. */
    for (unsigned w = 0; w < MLKEM_N / 8; w++) {
      const uint32_t t = (uint32_t)bytes[4 * w] | ((uint32_t)bytes[4 * w + 1] << 8) |
                         ((uint32_t)bytes[4 * w + 2] << 16) | ((uint32_t)bytes[4 * w + 3] << 24);
      const uint32_t s = (t & 0x55555555u) + ((t >> 1) & 0x55555555u);
      for (unsigned j = 0; j < 8; j++) {
        const int16_t x = (int16_t)((s >> (4 * j)) & 3), y = (int16_t)((s >> (4 * j + 2)) & 3);
        a->c[8 * w + j] = (int16_t)(x - y);
      }
    }
  } else {
    /* 4 coefficients from each 24-bit group, 6 bits each. */
    for (unsigned w = 0; w < MLKEM_N / 4; w++) {
      const uint32_t t = (uint32_t)bytes[3 * w] | ((uint32_t)bytes[3 * w + 1] << 8) |
                         ((uint32_t)bytes[3 * w + 2] << 16);
      const uint32_t s = (t & 0x249249u) + ((t >> 1) & 0x249249u) + ((t >> 2) & 0x249249u);
      for (unsigned j = 0; j < 4; j++) {
        const int16_t x = (int16_t)((s >> (6 * j)) & 7), y = (int16_t)((s >> (6 * j + 3)) & 7);
        a->c[4 * w + j] = (int16_t)(x - y);
      }
    }
  }
}

/* Accept the 12-bit values below q of one XOF block; returns the new count. */
static unsigned parse_block(mlkem_poly *a, unsigned n, const uint8_t buf[MLKEM_SHAKE128_RATE]) {
  for (unsigned b = 0; b < MLKEM_SHAKE128_RATE && n < MLKEM_N; b += 3) {
    const uint16_t d1 = (uint16_t)(buf[b] | ((buf[b + 1] & 0xF) << 8));
    const uint16_t d2 = (uint16_t)((buf[b + 1] >> 4) | (buf[b + 2] << 4));
    if (d1 < MLKEM_Q) {
      a->c[n++] = (int16_t)d1;
    }
    if (d2 < MLKEM_Q && n < MLKEM_N) {
      a->c[n++] = (int16_t)d2;
    }
  }
  return n;
}

void mlkem_sample_ntt_xn(mlkem_poly *a, const uint8_t rho[32], const uint8_t (*ji)[2],
                         unsigned n) {
  uint64_t s[4][25];
  unsigned count[4] = {0, 0, 0, 0};
  uint8_t buf[MLKEM_SHAKE128_RATE];
  mlkem_xof_absorb_xn(s, rho, ji, n);
  for (;;) {
    int done = 1;
    for (unsigned q = 0; q < n; q++) {
      if (count[q] < MLKEM_N) {
        mlkem_xof_read(buf, s[q]);
        count[q] = parse_block(&a[q], count[q], buf);
        done &= count[q] == MLKEM_N;
      }
    }
    if (done) {
      return;
    }
    mlkem_xof_next_xn(s, n);
  }
}
