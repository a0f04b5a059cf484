/* The product of two sigma-invariant polynomials with AVX-512, for the
 * inversion's chain in the subfield that sigma fixes (gf2x/inv.c): two
 * products of half the length instead of one of the full length, about two
 * thirds of the work.
 *
 * sigma maps a(x) to a(x^-1) in R (bit i to bit r - i). With h = (r - 1) / 2,
 * a sigma-invariant F of odd weight has F_0 = 1 and is F = 1 + A + sigma(A),
 * A its bits 1..h; likewise G = 1 + B + sigma(B). Then
 *   F G = 1 + S + sigma(S),  S = A + B + A B + A sigma(B),
 * and A B and A sigma(B) come from two products of h-bit polynomials:
 *   P = Ah Bh and Q = Ah Bb, with Ah = F >> 1 and Bh = G >> 1 (bits 1..h)
 *   and Bb = G >> (h + 1) (bits h + 1..2h, which are bits h..1 reversed).
 * Bit k of F G for k = 1..h is S_k + S_(r-k); in terms of P and Q, bits
 * 1..h are T + rev(V) and bits h + 1..2h are V + rev(T), where (h bits
 * each, rev reversing them)
 *   T = (P << 1) + (Q >> h) + Ah + Bh,   V = (P >> (h - 1)) + (Q << 1).
 * Shifts and reversals have public amounts; no branch or address depends
 * on the polynomials. */
#include "native/backend.h"
#include "native/x86_64/bits_avx512.h"

size_t bike_gf2x_mul_sym_avx512(const bike_params *p, uint64_t *c, const uint64_t *a,
                                const uint64_t *b, uint64_t *scratch) {
  const size_t n = p->r_qwords, h = (p->r - 1) / 2, nh = (h + 63) / 64;
  if (!bike_gf2x_mul_plain_avx512_takes(nh)) {
    return bike_gf2x_mul_avx512(p, c, a, b, scratch);
  }
  /* Buffers of h bits with BITS_GUARD zero words before and 16 after, then
   * the two products with BITS_GUARD before; each pointer is past its
   * guard. */
  const size_t nv = (nh + 7) / 8 * 8, half = BITS_GUARD + nv + 16;
  const size_t full = BITS_GUARD + 2 * nh + 16;
  uint64_t *ah = scratch + BITS_GUARD, *bh = ah + half, *bb = bh + half;
  uint64_t *t = bb + half, *v = t + half, *rt = v + half, *rv = rt + half;
  uint64_t *pp = rv + half, *qq = pp + full;
  uint64_t *tmp = qq + full - BITS_GUARD;
  for (size_t w = 0; w < nv; w += 8) {
    _mm512_storeu_si512(ah + w, bits_shr_in(a, n, w, 1));
    _mm512_storeu_si512(bh + w, bits_shr_in(b, n, w, 1));
    _mm512_storeu_si512(bb + w, bits_shr_in(b, n, w, h + 1));
  }
  bits_clear_beyond(ah, h, nv);
  bits_clear_beyond(bh, h, nv);
  bits_clear_beyond(bb, h, nv);
  memset(pp - BITS_GUARD, 0, BITS_GUARD * sizeof(uint64_t));
  memset(qq - BITS_GUARD, 0, BITS_GUARD * sizeof(uint64_t));
  const size_t used = bike_gf2x_mul_plain_avx512(pp, ah, bh, nh, tmp);
  bike_gf2x_mul_plain_avx512(qq, ah, bb, nh, tmp);
  for (size_t w = 0; w < nv; w += 8) {
    const __m512i x = _mm512_xor_si512(_mm512_loadu_si512(ah + w), _mm512_loadu_si512(bh + w));
    const __m512i y = _mm512_xor_si512(bits_shl_at(pp, w, 1), bits_shr_at(qq, w, h));
    _mm512_storeu_si512(t + w, _mm512_xor_si512(x, y));
    _mm512_storeu_si512(v + w, _mm512_xor_si512(bits_shr_at(pp, w, h - 1), bits_shl_at(qq, w, 1)));
  }
  bits_clear_beyond(t, h, nv);
  bits_clear_beyond(v, h, nv);
  /* rev of h bits: the nv words reversed, then shifted down by 64 nv - h,
   * the shift done as they are added (this is the inversion's hot path). */
  bits_reverse_words(rt, t, nv);
  bits_reverse_words(rv, v, nv);
  const size_t down = 64 * nv - h;
  for (size_t w = 0; w < nv; w += 8) { /* t becomes bits 1..h, v bits h + 1..2h */
    const __m512i lo = _mm512_xor_si512(_mm512_loadu_si512(t + w), bits_shr_at(rv, w, down));
    const __m512i hi = _mm512_xor_si512(_mm512_loadu_si512(v + w), bits_shr_at(rt, w, down));
    _mm512_storeu_si512(t + w, lo);
    _mm512_storeu_si512(v + w, hi);
  }
  /* c = 1 + (t << 1) + (v << (h + 1)); t reaches word nh, v starts at word
   * (h + 1) / 64 (read from at most BITS_GUARD words before it). */
  for (size_t w = 0; w < n; w += 8) {
    __m512i x = _mm512_setzero_si512();
    if (w <= nv) {
      x = bits_shl_at(t, w, 1);
    }
    if (w + 8 > (h + 1) / 64) {
      x = _mm512_xor_si512(x, bits_shl_at(v, w, h + 1));
    }
    _mm512_mask_storeu_epi64(c + w, bits_live(n, w), x);
  }
  c[0] |= 1;
  return (size_t)(tmp - scratch) + used;
}
