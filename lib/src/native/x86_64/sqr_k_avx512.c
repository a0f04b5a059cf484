/* a^(2^k) in R with AVX-512. Small k: k squarings, each a 512-bit
 * carry-less square of every word (which spreads its bits apart) and the
 * fold x^r = 1. Large k: the bit permutation i -> i 2^k mod r read the other
 * way, output bit j from input bit j 2^-k mod r (permute_interleaved()
 * below). Control flow and addresses depend only on the public r and k. */
#include <immintrin.h>
#include <string.h>

#include "common/ct.h"
#include "native/backend.h"
#include "native/x86_64/bits_avx512.h"

/* Beyond this many squarings (about n operations each) the permutation is
 * faster: one permutation costs about 17 squarings at every level on Zen 4
 * (1.2, 2.4 and 3.9 us at L1, L3, L5). */
#define SQUARINGS_MAX 16
/* For a sigma-invariant input the permutation makes only half the output
 * (the mirror gives the rest) and costs about 9 to 11 squarings. */
#define SQUARINGS_MAX_SYM 9

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

/* Output word w of the permutation, read through an interleaved copy of
 * the input. Write output bit t = 8 u + v of word w as input bit
 * (q + o_v) mod r with q = (64 w + 8 u) m mod r and o_v = v m mod r. Byte q
 * of IL holds, as its bit v, input bit (q + o_v) mod r for v = 0..7, so
 * output byte u of word w is the whole byte IL[q]: eight byte loads per
 * output word (gathered), at addresses that depend on the public m and r
 * only. Words are made in pairs, so out needs room for n rounded up to
 * even.
 *
 * IL is built 512 positions (a block) at a time from the eight input
 * windows shifted by o_v (funnel shifts of a doubled copy of the input, in
 * which bit i + o_v is input bit (i + o_v) mod r for every i < r): three
 * rounds of unpacks gather the eight bytes of a group of 8 positions into a
 * qword, and an 8 x 8 bit transpose of each qword turns them into the
 * eight IL bytes of those positions. The unpacks leave the qwords of a
 * block in the order il_addr() undoes. Only the first `words` output words
 * are made. */
/* Where IL keeps position q: within its 512-byte block, the group j =
 * (q / 8) % 64 is qword 2 (j / 16) + j % 2 of vector (j / 2) % 8. */
static inline __m512i il_addr(__m512i q) {
  const __m512i block = _mm512_and_si512(q, _mm512_set1_epi32(~511));
  const __m512i vec =
      _mm512_slli_epi32(_mm512_and_si512(_mm512_srli_epi32(q, 4), _mm512_set1_epi32(7)), 6);
  const __m512i lane = _mm512_and_si512(_mm512_srli_epi32(q, 3), _mm512_set1_epi32(0x30));
  const __m512i low = _mm512_and_si512(q, _mm512_set1_epi32(15));
  return _mm512_or_si512(_mm512_or_si512(block, vec), _mm512_or_si512(lane, low));
}

/* Per qword, the 8 x 8 bit matrix with row v in byte v transposed: bit v
 * of byte k is then bit k of the old byte v. GF2P8AFFINEQB with the
 * matrix as operand does it but reads the rows in reverse (row v from byte
 * 7 - v), which IL_ROW() allows for; MemorySanitizer does not follow it, so
 * its build swaps bits with shifts and masks instead. */
#if defined(BIKE_CT_MSAN)
#define IL_ROW(v) (v)
static inline __m512i transpose8(__m512i x) {
  __m512i t = _mm512_and_si512(_mm512_xor_si512(x, _mm512_srli_epi64(x, 7)),
                               _mm512_set1_epi64(0x00AA00AA00AA00AALL));
  x = _mm512_xor_si512(x, _mm512_xor_si512(t, _mm512_slli_epi64(t, 7)));
  t = _mm512_and_si512(_mm512_xor_si512(x, _mm512_srli_epi64(x, 14)),
                       _mm512_set1_epi64(0x0000CCCC0000CCCCLL));
  x = _mm512_xor_si512(x, _mm512_xor_si512(t, _mm512_slli_epi64(t, 14)));
  t = _mm512_and_si512(_mm512_xor_si512(x, _mm512_srli_epi64(x, 28)),
                       _mm512_set1_epi64(0x00000000F0F0F0F0LL));
  return _mm512_xor_si512(x, _mm512_xor_si512(t, _mm512_slli_epi64(t, 28)));
}
#else
#define IL_ROW(v) (7 - (v))
static inline __m512i transpose8(__m512i x) {
  return _mm512_gf2p8affine_epi64_epi8(_mm512_set1_epi64(0x8040201008040201LL), x, 0);
}
#endif

/* scratch: dbl (2 n + 32 words), then IL (512 bytes per block, and 64 more). */
static void permute_interleaved(const bike_params *p, uint64_t *out, const uint64_t *a,
                                uint32_t m, uint32_t words, uint64_t *scratch) {
  const uint32_t r = p->r, n = p->r_qwords, ws = r / 64, bs = r % 64;
  const uint32_t blocks = (r + 511) / 512;
  uint64_t *dbl = scratch;
  uint8_t *il = (uint8_t *)(void *)(scratch + 2 * n + 32);
  /* dbl = a + a x^r, zero above 2 r: word ws + i gets a_i << bs and a_(i-1)
   * >> (64 - bs), the lower word brought in from the previous vector. */
  memcpy(dbl, a, n * sizeof(uint64_t));
  memset(dbl + n, 0, (n + 32) * sizeof(uint64_t));
  const __m512i vbs = _mm512_set1_epi64(bs);
  __m512i prev = _mm512_setzero_si512();
  for (uint32_t i = 0; i <= n; i += 8) {
    const __mmask8 live = (__mmask8)(n - i >= 8 ? 0xff : (1u << (n - i)) - 1);
    const __m512i cur = _mm512_maskz_loadu_epi64(live, a + i);
    const __m512i below = _mm512_alignr_epi64(cur, prev, 7);
    _mm512_storeu_si512(dbl + ws + i, _mm512_xor_si512(_mm512_loadu_si512(dbl + ws + i),
                                                       _mm512_shldv_epi64(cur, below, vbs)));
    prev = cur;
  }
  /* The eight shifts, as word offset and bit shift. */
  uint32_t off[8];
  __m512i sh[8];
  for (uint32_t v = 0; v < 8; v++) {
    const uint32_t o = (uint32_t)(((uint64_t)m * IL_ROW(v)) % r);
    off[v] = o / 64;
    sh[v] = _mm512_set1_epi64(o % 64);
  }
  for (uint32_t b = 0; b < blocks; b++) {
    __m512i x[8];
    for (uint32_t v = 0; v < 8; v++) {
      const uint64_t *d = dbl + 8 * b + off[v];
      x[v] = _mm512_shrdv_epi64(_mm512_loadu_si512(d), _mm512_loadu_si512(d + 1), sh[v]);
    }
    __m512i y[8], z[8];
    for (uint32_t g = 0; g < 4; g++) { /* bytes of rows 2g, 2g + 1 paired */
      y[2 * g] = _mm512_unpacklo_epi8(x[2 * g], x[2 * g + 1]);
      y[2 * g + 1] = _mm512_unpackhi_epi8(x[2 * g], x[2 * g + 1]);
    }
    for (uint32_t g = 0; g < 2; g++) { /* then rows 0-3 and 4-7 */
      z[4 * g] = _mm512_unpacklo_epi16(y[4 * g], y[4 * g + 2]);
      z[4 * g + 1] = _mm512_unpackhi_epi16(y[4 * g], y[4 * g + 2]);
      z[4 * g + 2] = _mm512_unpacklo_epi16(y[4 * g + 1], y[4 * g + 3]);
      z[4 * g + 3] = _mm512_unpackhi_epi16(y[4 * g + 1], y[4 * g + 3]);
    }
    for (uint32_t g = 0; g < 4; g++) { /* all eight rows */
      _mm512_storeu_si512(il + 512 * b + 64 * (2 * g),
                          transpose8(_mm512_unpacklo_epi32(z[g], z[4 + g])));
      _mm512_storeu_si512(il + 512 * b + 64 * (2 * g + 1),
                          transpose8(_mm512_unpackhi_epi32(z[g], z[4 + g])));
    }
  }
  memset(il + 512 * blocks, 0, 64);
  /* Two output words per gather: lane 8 d + u reads byte u of word w + d,
   * at q = (8 (8 (w + d) + u) m) mod r, stepped by 128 m per round. */
  uint32_t start[16];
  for (uint32_t l = 0; l < 16; l++) {
    start[l] = (uint32_t)(((uint64_t)m * 8 * l) % r);
  }
  __m512i q = _mm512_loadu_si512(start);
  const uint32_t step = (uint32_t)(((uint64_t)m * 128) % r);
  const __m512i vstep = _mm512_set1_epi32((int)step), vwrap = _mm512_set1_epi32((int)(r - step));
  for (uint32_t w = 0; w < words; w += 2) {
    const __m512i bytes = _mm512_i32gather_epi32(il_addr(q), il, 1);
    _mm_storeu_si128((__m128i *)(void *)(out + w), _mm512_cvtepi32_epi8(bytes));
    const __mmask16 wrap = _mm512_cmpge_epu32_mask(q, vwrap);
    q = _mm512_mask_sub_epi32(_mm512_add_epi32(q, vstep), wrap, q, vwrap);
  }
}

/* c_i = a_i for i < low and a_(r-i) for low <= i < r: with low = 1 sigma(a)
 * (the permutation for 2^k = -1 mod r, a reversal), with low = h + 1 (h =
 * (r - 1) / 2) the sigma-invariant polynomial of which a gives bits 0..h.
 * a is read in its first n words only; returns the words of tmp used. */
static size_t reflect(const bike_params *p, uint64_t *c, const uint64_t *a, size_t low,
                      uint64_t *tmp) {
  const size_t n = p->r_qwords, bits = p->r - low, nv = ((bits + 63) / 64 + 7) / 8 * 8;
  const size_t region = BITS_GUARD + nv + 16;
  uint64_t *t = tmp + BITS_GUARD, *whole_rev = t + region, *rev = whole_rev + region;
  for (size_t w = 0; w < nv; w += 8) { /* a's bits 1..bits */
    _mm512_storeu_si512(t + w, bits_shr_in(a, n, w, 1));
  }
  bits_clear_beyond(t, bits, nv);
  bits_reverse_words(whole_rev, t, nv); /* all nv words, then shifted down */
  for (size_t w = 0; w < nv; w += 8) {
    _mm512_storeu_si512(rev + w, bits_shr_at(whole_rev, w, 64 * nv - bits));
  }
  bits_clear_beyond(rev, bits, nv);
  const size_t top = low / 64; /* the word of bit low */
  const uint64_t keep = ((uint64_t)1 << (low % 64)) - 1;
  const __m512i lane = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
  for (size_t w = 0; w < n; w += 8) {
    __m512i x = _mm512_setzero_si512();
    if (w <= top) { /* a's bits 0..low-1 */
      const __m512i below = _mm512_maskz_loadu_epi64(bits_live(n, w), a + w);
      const __m512i i = _mm512_add_epi64(_mm512_set1_epi64((long long)w), lane);
      const __mmask8 whole = _mm512_cmplt_epu64_mask(i, _mm512_set1_epi64((long long)top));
      const __mmask8 part = _mm512_cmpeq_epu64_mask(i, _mm512_set1_epi64((long long)top));
      x = _mm512_mask_and_epi64(_mm512_maskz_mov_epi64(whole, below), part, below,
                                _mm512_set1_epi64((long long)keep));
    }
    if (w + 8 > top) {
      x = _mm512_xor_si512(x, bits_shl_at(rev, w, low));
    }
    _mm512_mask_storeu_epi64(c + w, bits_live(n, w), x);
  }
  return 3 * region;
}

/* Scratch: for small k the square (2 n + 16 words); for large k the output
 * (n + 8 words rounded down to whole vectors: room for the pairs of words
 * the gathers store), then permute_interleaved()'s 2 n + 32 words and IL (a
 * byte per bit position, 64 words per 512): at most 11 n + 112 words.
 * reflect() (sigma, and the mirror of a sigma-invariant output) uses the
 * space after the output. */
static size_t sqr_k(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t k,
                    uint64_t *scratch, int sym) {
  const uint32_t r = p->r, n = p->r_qwords;
  if (k == 0) {
    memmove(c, a, n * sizeof(uint64_t));
    return 0;
  }
  if (k <= (sym ? SQUARINGS_MAX_SYM : SQUARINGS_MAX)) {
    sqr1(p, c, a, scratch);
    for (uint64_t i = 1; i < k; i++) {
      sqr1(p, c, c, scratch);
    }
    return 2 * (size_t)((n + 7) / 8 * 8);
  }
  uint64_t *out = scratch;
  const uint32_t m = bike_pow2_inv_mod(k, r);
  const size_t out_words = (n + 8) / 8 * 8;
  if (m == r - 1) { /* 2^k = -1: sigma, a reversal */
    return reflect(p, c, a, 1, scratch);
  }
  /* For a sigma-invariant input, bits 0..h of the output and their mirror. */
  const uint32_t words = sym ? ((r - 1) / 2 / 64 + 2) / 2 * 2 : n;
  permute_interleaved(p, out, a, m, words, scratch + out_words);
  memset(out + words, 0, (out_words - words) * sizeof(uint64_t));
  /* MemorySanitizer loses the secret through the gathers: mark the output
   * secret wherever the input was. The gathers address IL by the public m
   * and r only. */
  ct_msan_taint(out, words * sizeof(uint64_t), a, n * sizeof(uint64_t));
  if (sym) {
    reflect(p, c, out, (r - 1) / 2 + 1, scratch + out_words);
  } else {
    out[n - 1] &= ((uint64_t)1 << (r % 64)) - 1;
    memcpy(c, out, n * sizeof(uint64_t));
  }
  return out_words + 2 * (size_t)n + 32 + (512 * (size_t)((r + 511) / 512) + 64) / 8;
}

size_t bike_gf2x_sqr_k_avx512(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t k,
                              uint64_t *scratch) {
  return sqr_k(p, c, a, k, scratch, 0);
}

size_t bike_gf2x_sqr_k_sym_avx512(const bike_params *p, uint64_t *c, const uint64_t *a,
                                  uint64_t k, uint64_t *scratch) {
  return sqr_k(p, c, a, k, scratch, 1);
}
