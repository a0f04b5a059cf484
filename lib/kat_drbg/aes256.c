#include "aes256.h"

#include <string.h>

#define ROUNDS 14

/* Multiplication by x in GF(2^8) mod x^8 + x^4 + x^3 + x + 1. */
static uint8_t xtime(uint8_t a) { return (uint8_t)((a << 1) ^ ((a >> 7) * 0x1bu)); }

static uint8_t gf_mul(uint8_t a, uint8_t b) {
  uint8_t p = 0;
  for (; b != 0; b >>= 1, a = xtime(a)) {
    if (b & 1u) {
      p ^= a;
    }
  }
  return p;
}

static uint8_t rotl8(uint8_t x, unsigned k) { return (uint8_t)((x << k) | (x >> (8 - k))); }

/* The S-box by its definition: the inverse in GF(2^8) (a^254, 0 for 0),
 * then the affine map b ^ rotl(b,1..4) ^ 0x63. */
static uint8_t sbox_of(uint8_t a) {
  uint8_t inv = 1;
  for (int i = 0; i < 254; i++) {
    inv = gf_mul(inv, a);
  }
  return (uint8_t)(inv ^ rotl8(inv, 1) ^ rotl8(inv, 2) ^ rotl8(inv, 3) ^ rotl8(inv, 4) ^ 0x63u);
}

static uint8_t sbox[256];

static void sbox_init(void) {
  if (sbox[0] == 0x63u) { /* S(0) = 0x63: filled */
    return;
  }
  for (int i = 255; i >= 0; i--) { /* entry 0 last: it marks the table as filled */
    sbox[i] = sbox_of((uint8_t)i);
  }
}

/* Round keys: 4 (ROUNDS + 1) words of 4 bytes, word i at rk[4 i]. */
static void expand_key(const uint8_t key[32], uint8_t rk[16 * (ROUNDS + 1)]) {
  memcpy(rk, key, 32);
  uint8_t rcon = 1;
  for (int i = 8; i < 4 * (ROUNDS + 1); i++) {
    uint8_t t[4];
    memcpy(t, rk + 4 * (i - 1), 4);
    if (i % 8 == 0) { /* RotWord, SubWord, Rcon */
      const uint8_t t0 = t[0];
      t[0] = (uint8_t)(sbox[t[1]] ^ rcon);
      t[1] = sbox[t[2]];
      t[2] = sbox[t[3]];
      t[3] = sbox[t0];
      rcon = xtime(rcon);
    } else if (i % 8 == 4) { /* SubWord */
      for (int j = 0; j < 4; j++) {
        t[j] = sbox[t[j]];
      }
    }
    for (int j = 0; j < 4; j++) {
      rk[4 * i + j] = rk[4 * (i - 8) + j] ^ t[j];
    }
  }
}

/* The state as the standard lays it out: byte s[r + 4 c] is row r, column c. */
static void sub_shift(uint8_t s[16]) {
  uint8_t t[16];
  for (int c = 0; c < 4; c++) {
    for (int r = 0; r < 4; r++) {
      t[r + 4 * c] = sbox[s[r + 4 * ((c + r) % 4)]]; /* row r rotated left by r */
    }
  }
  memcpy(s, t, 16);
}

static void mix_columns(uint8_t s[16]) {
  for (int c = 0; c < 4; c++) {
    uint8_t *a = s + 4 * c;
    const uint8_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    a[0] = (uint8_t)(xtime(a0) ^ xtime(a1) ^ a1 ^ a2 ^ a3);
    a[1] = (uint8_t)(a0 ^ xtime(a1) ^ xtime(a2) ^ a2 ^ a3);
    a[2] = (uint8_t)(a0 ^ a1 ^ xtime(a2) ^ xtime(a3) ^ a3);
    a[3] = (uint8_t)(xtime(a0) ^ a0 ^ a1 ^ a2 ^ xtime(a3));
  }
}

static void add_round_key(uint8_t s[16], const uint8_t *k) {
  for (int i = 0; i < 16; i++) {
    s[i] ^= k[i];
  }
}

void aes256_encrypt_block(const uint8_t key[32], const uint8_t in[16], uint8_t out[16]) {
  uint8_t rk[16 * (ROUNDS + 1)], s[16];
  sbox_init();
  expand_key(key, rk);
  memcpy(s, in, 16);
  add_round_key(s, rk);
  for (int round = 1; round <= ROUNDS; round++) {
    sub_shift(s);
    if (round != ROUNDS) {
      mix_columns(s);
    }
    add_round_key(s, rk + 16 * round);
  }
  memcpy(out, s, 16);
}
