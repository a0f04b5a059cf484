/* a^(2^k) in R with AVX-512. Small k: k squarings, each a 512-bit
 * carry-less square of every word (which spreads its bits apart) and the
 * fold x^r = 1. Large k: the bit permutation i -> i 2^k mod r read the other
 * way, output bit j from input bit j 2^-k mod r (permute_windows() or
 * permute_gather() below). Control flow and addresses depend only on the
 * public r and k. */
#include <immintrin.h>
#include <string.h>

#include "common/ct.h"
#include "native/backend.h"

/* Up to this many 128-byte windows of input, permute_windows() (cost
 * about n times the windows) beats permute_gather() (4 gathers per output
 * word); measured on Zen 4: 2.8 us against 4.6 us at L1 (13 windows),
 * 12 against 10 at L3 (25), 35 against 16 at L5 (41). */
#define WINDOWS_MAX 20

static uint32_t windows(const bike_params *p) { return (p->r_bytes + 127) / 128; }

/* Beyond this many squarings (about n operations each) the permutation is
 * faster: measured 28 at L1 (windows), 58 and 50 at L3 and L5 (gathers). */
static uint64_t squarings_max(const bike_params *p) {
  return windows(p) <= WINDOWS_MAX ? 2 * windows(p) + 2 : 50;
}

#define PAD (BIKE_MAX_QWORDS + 8)

/* c = a^2; c may be a. The product goes through prod, written in whole
 * blocks of 16 words (zero past 2 n) so that the fold reads only words
 * written here. */
static void sqr1(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t *prod) {
  const uint32_t n = p->r_qwords, ws = p->r / 64, bs = p->r % 64;
  /* Words w0..w7 of a block as lanes (w0, w4), (w1, w5), (w2, w6), (w3,
   * w7): the squares of the low words are then the first 16 words of the
   * block's square in order, those of the high words the next 16. */
  const __m512i spread = _mm512_set_epi64(7, 3, 6, 2, 5, 1, 4, 0);
  for (uint32_t i = 0; i < n; i += 8) {
    const __mmask8 live = (__mmask8)(n - i >= 8 ? 0xff : (1u << (n - i)) - 1);
    const __m512i x = _mm512_permutexvar_epi64(spread, _mm512_maskz_loadu_epi64(live, a + i));
    _mm512_storeu_si512(prod + 2 * i, _mm512_clmulepi64_epi128(x, x, 0x00));
    _mm512_storeu_si512(prod + 2 * i + 8, _mm512_clmulepi64_epi128(x, x, 0x11));
  }
  /* c_i = prod_i + (prod >> r)_i for i < n: a funnel shift by bs of the
   * words from ws on. */
  const __m512i vbs = _mm512_set1_epi64(bs);
  for (uint32_t i = 0; i < n; i += 8) {
    const __m512i l = _mm512_loadu_si512(prod + ws + i);
    const __m512i h = _mm512_loadu_si512(prod + ws + i + 1);
    const __m512i v = _mm512_xor_si512(_mm512_loadu_si512(prod + i), _mm512_shrdv_epi64(l, h, vbs));
    const __mmask8 live = (__mmask8)(n - i >= 8 ? 0xff : (1u << (n - i)) - 1);
    _mm512_mask_storeu_epi64(c + i, live, v);
  }
  c[n - 1] &= ((uint64_t)1 << bs) - 1;
}

static uint32_t pow2_mod(uint64_t e, uint32_t r) {
  uint64_t result = 1, base = 2 % r;
  while (e > 0) {
    if (e & 1) {
      result = (result * base) % r;
    }
    base = (base * base) % r;
    e >>= 1;
  }
  return (uint32_t)result;
}

/* Output word w of the permutation: output bit t = 64 w + t comes from
 * input bit P_t = (64 w + t) m mod r, which is bit P_t % 8 of input byte
 * P_t / 8. The 64 bytes are fetched from 128-byte windows of the input
 * with VPERMI2B (each window serving the bytes whose window number it is,
 * by a compare), then VPSHUFBITQMB picks one bit of byte t for output bit
 * t. Positions are 16-bit lanes (r < 2^16 at every level). */
static void permute_windows(const bike_params *p, uint64_t *out, const uint64_t *a, uint32_t m) {
  uint8_t src[PAD * 8 + 128];
  const uint32_t r = p->r, n = p->r_qwords, nwin = windows(p);
  memcpy(src, a, p->r_bytes);
  memset(src + p->r_bytes, 0, nwin * 128 - p->r_bytes);
  uint16_t start[64];
  for (uint32_t t = 0; t < 64; t++) {
    start[t] = (uint16_t)(((uint64_t)m * t) % r);
  }
  __m512i pos0 = _mm512_loadu_si512(start), pos1 = _mm512_loadu_si512(start + 32);
  const uint32_t step = (uint32_t)(((uint64_t)m * 64) % r);
  const __m512i vstep = _mm512_set1_epi16((short)step);
  const __m512i vwrap = _mm512_set1_epi16((short)(r - step));
  const __m512i seven = _mm512_set1_epi8(7);
  /* 8 (t % 8) in byte t: the byte's place in its 64-bit lane. */
  const __m512i lane_bit = _mm512_set1_epi64(0x3830282018100800LL);
  for (uint32_t w = 0; w < n; w++) {
    const __m512i byte0 = _mm512_srli_epi16(pos0, 3), byte1 = _mm512_srli_epi16(pos1, 3);
    const __m512i idx = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi16_epi8(byte0)),
                                           _mm512_cvtepi16_epi8(byte1), 1);
    const __m512i win = _mm512_inserti64x4(
        _mm512_castsi256_si512(_mm512_cvtepi16_epi8(_mm512_srli_epi16(byte0, 7))),
        _mm512_cvtepi16_epi8(_mm512_srli_epi16(byte1, 7)), 1);
    const __m512i bit = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi16_epi8(pos0)),
                                           _mm512_cvtepi16_epi8(pos1), 1);
    /* Each byte lane holds its index (low 7 bits) until its window
     * replaces it with the byte: the other windows leave it alone. */
    __m512i bytes = idx;
    for (uint32_t j = 0; j < nwin; j++) {
      const __mmask64 here = _mm512_cmpeq_epi8_mask(win, _mm512_set1_epi8((char)j));
      const __m512i lo = _mm512_loadu_si512(src + 128 * j);
      const __m512i hi = _mm512_loadu_si512(src + 128 * j + 64);
      bytes = _mm512_mask2_permutex2var_epi8(lo, bytes, here, hi);
    }
    const __m512i ctrl = _mm512_or_si512(_mm512_and_si512(bit, seven), lane_bit);
    out[w] = _mm512_bitshuffle_epi64_mask(bytes, ctrl);
    /* pos += step mod r, without leaving 16 bits */
    const __mmask32 wrap0 = _mm512_cmpge_epu16_mask(pos0, vwrap);
    const __mmask32 wrap1 = _mm512_cmpge_epu16_mask(pos1, vwrap);
    pos0 = _mm512_mask_sub_epi16(_mm512_add_epi16(pos0, vstep), wrap0, pos0, vwrap);
    pos1 = _mm512_mask_sub_epi16(_mm512_add_epi16(pos1, vstep), wrap1, pos1, vwrap);
  }
  bike_wipe(src, sizeof(src));
}

/* The same permutation, sixteen output bits per gather of the 32-bit
 * words holding their input bits. */
static void permute_gather(const bike_params *p, uint64_t *out, const uint64_t *a, uint32_t m) {
  const uint32_t r = p->r, n = p->r_qwords;
  const uint32_t m16 = (uint32_t)(((uint64_t)m * 16) % r);
  uint32_t start[16];
  for (uint32_t l = 0; l < 16; l++) {
    start[l] = (uint32_t)(((uint64_t)m * l) % r);
  }
  __m512i idx = _mm512_loadu_si512(start);
  const __m512i vm16 = _mm512_set1_epi32((int)m16), vr = _mm512_set1_epi32((int)r);
  const __m512i v31 = _mm512_set1_epi32(31), one = _mm512_set1_epi32(1);
  const int *words = (const int *)(const void *)a;
  for (uint32_t w = 0; w < n; w++) {
    uint64_t acc = 0;
    for (uint32_t t = 0; t < 4; t++) {
      __m512i x = _mm512_i32gather_epi32(_mm512_srli_epi32(idx, 5), words, 4);
      x = _mm512_srlv_epi32(x, _mm512_and_si512(idx, v31));
      acc |= (uint64_t)_mm512_test_epi32_mask(x, one) << (16 * t);
      idx = _mm512_add_epi32(idx, vm16);
      idx = _mm512_mask_sub_epi32(idx, _mm512_cmpge_epu32_mask(idx, vr), idx, vr);
    }
    out[w] = acc;
  }
}

void bike_gf2x_sqr_k_avx512(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t k) {
  const uint32_t r = p->r, n = p->r_qwords;
  if (k == 0) {
    memmove(c, a, n * sizeof(uint64_t));
    return;
  }
  if (k <= squarings_max(p)) {
    uint64_t prod[2 * PAD];
    sqr1(p, c, a, prod);
    for (uint64_t i = 1; i < k; i++) {
      sqr1(p, c, c, prod);
    }
    bike_wipe(prod, 2 * n * sizeof(uint64_t));
    return;
  }
  uint64_t out[PAD];
  /* 2 has order dividing r - 1 modulo the prime r. */
  const uint32_t m = pow2_mod((r - 1) - (uint32_t)(k % (r - 1)), r);
#if defined(BIKE_CT_MSAN)
  /* MemorySanitizer reports secret operands of VPERMI2B and VPSHUFBITQMB
   * as uses, and loses them through gathers: its build takes the gathers
   * and marks the output secret wherever the input was. Both permutations
   * address memory by the public m only. */
  permute_gather(p, out, a, m);
#else
  if (windows(p) <= WINDOWS_MAX) {
    permute_windows(p, out, a, m);
  } else {
    permute_gather(p, out, a, m);
  }
#endif
  ct_msan_taint(out, n * sizeof(uint64_t), a, n * sizeof(uint64_t));
  out[n - 1] &= ((uint64_t)1 << (r % 64)) - 1;
  memcpy(c, out, n * sizeof(uint64_t));
  bike_wipe(out, n * sizeof(uint64_t));
}
