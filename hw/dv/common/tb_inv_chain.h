// The inversion's addition chain and the cycle terms of its units, gf2x_mul
// (ip/gf2x_mul/doc) and gf2x_sqr_k (ip/gf2x_sqr_k/doc), shared by their
// testbenches and by gf2x_inv's, whose chain runs on both.
#pragma once

#include <cstdint>
#include <vector>

namespace tbi {

inline uint64_t pow3(unsigned e) {
  uint64_t v = 1;
  while (e--) v *= 3;
  return v;
}

// Ha: the W-bit words that hold bits 0..H, H = (r - 1) / 2, all that the
// multiplier's symmetric mode reads of its operand a
inline uint64_t half_words(uint32_t r, unsigned w) { return (r - 1) / 2 / w + 1; }

// gf2x_sqr_k's permute steps: S = N W / E, in half mode S_h = Ha W / E + N - Ha
inline uint64_t sqr_steps(uint32_t r, unsigned w, unsigned e, bool half) {
  uint64_t n = (r + w - 1) / w, ha = half_words(r, w);
  return half ? ha * (w / e) + n - ha : n * (w / e);
}

struct MulTerms {
  uint64_t n;         // words per operand, ceil(r / W)
  uint64_t np;        // padded words, M 2^L
  uint64_t comp;      // compute phase, general: 3^(L-P) (M^2 + 1)
  uint64_t comp_sym;  // symmetric: Ha M + 1 (L = 0), else ceil(2 3^(L-1) / 3^P) (M^2 + 1)
};

// kl = KaratsubaLevels, pl = ParallelLevels
inline MulTerms mul_terms(uint32_t r, unsigned w, unsigned kl, unsigned pl) {
  MulTerms t;
  t.n = (r + w - 1) / w;
  uint64_t nblk = 1u << kl, m = (t.n + nblk - 1) / nblk;
  t.np = m * nblk;
  t.comp = pow3(kl - pl) * (m * m + 1);
  t.comp_sym = kl == 0 ? half_words(r, w) * m + 1
                       : (2 * pow3(kl - 1) + pow3(pl) - 1) / pow3(pl) * (m * m + 1);
  return t;
}

// The Itoh-Tsujii chain over n = h - 1, h = (r - 1) / 2 (the inversion in
// the subfield fixed by sigma): the bits of n below its top bit, top down.
// Each is a doubling step, with one product more where the bit is set.
inline std::vector<int> chain_bits(uint32_t r) {
  uint32_t n = (r - 1) / 2 - 1;
  int top = 31;
  while (((n >> top) & 1) == 0) top--;
  std::vector<int> bits;
  for (int bit = top - 1; bit >= 0; bit--) bits.push_back((n >> bit) & 1);
  return bits;
}

// Exponent table of the squaring unit (gf2x_sqr_k_pkg::ktab), derived here
// independently: entry 0 is k = 1, entry 1 is h = (r - 1) / 2 (sigma),
// entry s + 2 the e of doubling step s of the chain.
inline std::vector<uint64_t> ktab(uint32_t r) {
  std::vector<uint64_t> ks{1, (r - 1) / 2};
  uint64_t e = 1;
  for (int b : chain_bits(r)) {
    ks.push_back(e);
    e = 2 * e + b;
  }
  return ks;
}

}  // namespace tbi
