/* Shifts and reversals of multiword polynomials by public bit counts, with
 * AVX-512 (VBMI2 funnel shifts, VBMI byte permutes, GFNI): the halves and
 * mirror images of sigma-invariant polynomials (mul_sym_avx512.c,
 * sqr_k_avx512.c). Included by files compiled with the avx512 flags. */
#ifndef BIKE_NATIVE_X86_64_BITS_AVX512_H
#define BIKE_NATIVE_X86_64_BITS_AVX512_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "common/ct.h" /* BIKE_CT_MSAN */

/* Zero words kept before a buffer, read by the left shifts. */
#define BITS_GUARD 8

static inline __mmask8 bits_live(size_t n, size_t q) {
  return (__mmask8)(q >= n ? 0 : n - q >= 8 ? 0xff : (1u << (n - q)) - 1);
}

/* Words w..w+8 of x >> s, x readable up to word w + s / 64 + 8. */
static inline __m512i bits_shr_at(const uint64_t *x, size_t w, size_t s) {
  const uint64_t *q = x + w + s / 64;
  return _mm512_shrdv_epi64(_mm512_loadu_si512(q), _mm512_loadu_si512(q + 1),
                            _mm512_set1_epi64((long long)(s % 64)));
}

/* The same from an input of n words, not read past its end. */
static inline __m512i bits_shr_in(const uint64_t *x, size_t n, size_t w, size_t s) {
  const size_t q = w + s / 64;
  return _mm512_shrdv_epi64(_mm512_maskz_loadu_epi64(bits_live(n, q), x + q),
                            _mm512_maskz_loadu_epi64(bits_live(n, q + 1), x + q + 1),
                            _mm512_set1_epi64((long long)(s % 64)));
}

/* Words w..w+8 of x << s, x readable from word w - s / 64 - 1. */
static inline __m512i bits_shl_at(const uint64_t *x, size_t w, size_t s) {
  const uint64_t *q = x + w - s / 64;
  return _mm512_shldv_epi64(_mm512_loadu_si512(q), _mm512_loadu_si512(q - 1),
                            _mm512_set1_epi64((long long)(s % 64)));
}

/* The bits of every byte reversed. MemorySanitizer does not follow
 * GF2P8AFFINEQB, so its build swaps bits with shifts and masks. */
static inline __m512i bits_reverse_in_bytes(__m512i x) {
#if defined(BIKE_CT_MSAN)
  const __m512i m1 = _mm512_set1_epi8(0x55), m2 = _mm512_set1_epi8(0x33);
  const __m512i m4 = _mm512_set1_epi8(0x0f);
  x = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi64(x, 1), m1),
                      _mm512_slli_epi64(_mm512_and_si512(x, m1), 1));
  x = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi64(x, 2), m2),
                      _mm512_slli_epi64(_mm512_and_si512(x, m2), 2));
  return _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi64(x, 4), m4),
                         _mm512_slli_epi64(_mm512_and_si512(x, m4), 4));
#else
  return _mm512_gf2p8affine_epi64_epi8(x, _mm512_set1_epi64((long long)0x8040201008040201ULL), 0);
#endif
}

/* x (nv words, whole vectors) holds `bits` bits, zero above: GUARD zero
 * words before it, the bits from `bits` on cleared up to 16 words past nv. */
static inline void bits_clear_beyond(uint64_t *x, size_t bits, size_t nv) {
  memset(x - BITS_GUARD, 0, BITS_GUARD * sizeof(uint64_t));
  if (bits % 64 != 0) {
    x[bits / 64] &= ((uint64_t)1 << (bits % 64)) - 1;
  }
  const size_t used = (bits + 63) / 64;
  memset(x + used, 0, (nv + 16 - used) * sizeof(uint64_t));
}

/* out (nv + 16 words) = the nv words of x in reverse bit order, zero past
 * nv: bit i of out is bit 64 nv - 1 - i of x. So the `bits` low bits of x
 * reversed are out >> (64 nv - bits). */
static inline void bits_reverse_words(uint64_t *out, const uint64_t *x, size_t nv) {
  const __m512i bytes_down = _mm512_set_epi8(
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
      26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
      49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63);
  for (size_t w = 0; w < nv; w += 8) {
    const __m512i v = _mm512_loadu_si512(x + nv - 8 - w);
    _mm512_storeu_si512(out + w, bits_reverse_in_bytes(_mm512_permutexvar_epi8(bytes_down, v)));
  }
  memset(out + nv, 0, 16 * sizeof(uint64_t));
}

#endif
