/* Bit-string helpers for the kernels of sigma-invariant polynomials
 * (mul_sym, sqr_k_sym) on back ends without a vector form of them; where
 * the including file is built for AVX2, the windows and reversals run four
 * words at a time. sigma
 * maps a(x) to a(x^-1) in R (bit i to bit r - i); with h = (r - 1) / 2 a
 * sigma-invariant polynomial is fixed by bits 0..h, and bits h + 1..2h are
 * bits h..1 in reverse. Every loop bound, shift and index here is public
 * (r, h and the word counts): nothing depends on the bits themselves. */
#ifndef BIKE_NATIVE_SYM_BITS_H
#define BIKE_NATIVE_SYM_BITS_H

#include <stddef.h>
#include <stdint.h>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

static inline uint64_t sym_word(const uint64_t *s, size_t sw, int64_t i) {
  return i >= 0 && (uint64_t)i < sw ? s[i] : 0;
}

/* Bits pos..pos + 63 of s (sw words), zero outside it; pos may be negative. */
static inline uint64_t sym_bits_at(const uint64_t *s, size_t sw, int64_t pos) {
  const unsigned b = (unsigned)(pos & 63);
  const int64_t i = (pos - (int64_t)b) / 64;
  const uint64_t lo = sym_word(s, sw, i);
  return b == 0 ? lo : (lo >> b) | (sym_word(s, sw, i + 1) << (64 - b));
}

static inline uint64_t sym_rev64(uint64_t x) {
  x = __builtin_bswap64(x);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
  x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
  return ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
}

/* Clear the bits at and above len of x (nw words). */
static inline void sym_clear_beyond(uint64_t *x, size_t nw, size_t len) {
  for (size_t i = len / 64; i < nw; i++) {
    x[i] &= i == len / 64 ? ((uint64_t)1 << (len % 64)) - 1 : 0;
  }
}

/* dst[0, nw) = bits from..from + len - 1 of src (sw words), zero above. */
static inline void sym_window(uint64_t *dst, size_t nw, const uint64_t *x, int64_t off);
static inline void sym_extract(uint64_t *dst, size_t nw, const uint64_t *src, size_t sw,
                               int64_t from, size_t len) {
  /* Words whose two source words are inside src take the unchecked path. */
  const int64_t q = (from - (from & 63)) / 64;
  size_t fast = 0;
  if (q >= 0 && (int64_t)sw - q - 1 > 0) {
    fast = (size_t)((int64_t)sw - q - 1) < nw ? (size_t)((int64_t)sw - q - 1) : nw;
  }
  sym_window(dst, fast, src, from);
  for (size_t i = fast; i < nw; i++) {
    dst[i] = sym_bits_at(src, sw, from + 64 * (int64_t)i);
  }
  sym_clear_beyond(dst, nw, len);
}

/* dst[i] = bits 64 i + off..64 i + off + 63 of x for i < nw, where the
 * caller makes words floor(off / 64) to floor(off / 64) + nw of x readable
 * (guard words around its strings): no bounds checks in the loop. */
static inline void sym_window(uint64_t *dst, size_t nw, const uint64_t *x, int64_t off) {
  const unsigned b = (unsigned)(off & 63);
  const uint64_t *s = x + (off - (int64_t)b) / 64;
  size_t i = 0;
#if defined(__AVX2__)
  /* Four words at a time (a shift by 64 gives zero: no case for b = 0);
   * reads s[0, nw], which the caller makes readable. */
  const __m128i right = _mm_cvtsi32_si128((int)b), left = _mm_cvtsi32_si128(64 - (int)b);
  for (; i + 4 <= nw; i += 4) {
    const __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
    const __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(s + i + 1));
    _mm256_storeu_si256((__m256i *)(void *)(dst + i),
                        _mm256_or_si256(_mm256_srl_epi64(lo, right), _mm256_sll_epi64(hi, left)));
  }
#endif
  if (b == 0) {
    for (; i < nw; i++) {
      dst[i] = s[i];
    }
    return;
  }
  for (; i < nw; i++) {
    dst[i] = (s[i] >> b) | (s[i + 1] << (64 - b));
  }
}

/* dst[0, nw) = the len-bit string x reversed (64 (nw - 1) < len <= 64 nw):
 * a window of x ending at bit len, its words in reverse order and each
 * reversed. x needs one readable zero word before it; tmp takes nw words. */
static inline void sym_reverse(uint64_t *dst, size_t nw, const uint64_t *x, size_t len,
                               uint64_t *tmp) {
  sym_window(tmp, nw, x, (int64_t)len - 64 * (int64_t)nw);
  size_t i = 0;
#if defined(__AVX2__)
  /* Four words at a time: their order reversed (VPERMQ), then the bytes
   * of each word (VPSHUFB), then the bits of each byte by nibble lookups. */
  const __m256i bytes = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
                                         5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
  /* Byte n: nibble n reversed, in the high nibble. */
  const __m256i rev_hi = _mm256_setr_epi64x((long long)0xe060a020c0408000ULL, (long long)0xf070b030d0509010ULL,
                                            (long long)0xe060a020c0408000ULL, (long long)0xf070b030d0509010ULL);
  const __m256i nib = _mm256_set1_epi8(0x0f);
  const __m256i rev_lo = _mm256_and_si256(_mm256_srli_epi16(rev_hi, 4), nib); /* in the low nibble */
  for (; i + 4 <= nw; i += 4) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(tmp + nw - 4 - i));
    v = _mm256_shuffle_epi8(_mm256_permute4x64_epi64(v, 0x1b), bytes);
    const __m256i lo = _mm256_and_si256(v, nib);
    const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), nib);
    v = _mm256_or_si256(_mm256_shuffle_epi8(rev_hi, lo), _mm256_shuffle_epi8(rev_lo, hi));
    _mm256_storeu_si256((__m256i *)(void *)(dst + i), v);
  }
#endif
  for (; i < nw; i++) {
    dst[i] = sym_rev64(tmp[nw - 1 - i]);
  }
}

#endif
