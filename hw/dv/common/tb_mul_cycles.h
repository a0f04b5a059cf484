// Cycle terms of gf2x_mul (ip/gf2x_mul/doc/gf2x_mul.md), shared by the
// testbenches of gf2x_mul and of gf2x_inv, whose chain runs on it.
#pragma once

#include <cstdint>

namespace tbm {

inline uint64_t pow3(unsigned e) {
  uint64_t v = 1;
  while (e--) v *= 3;
  return v;
}

struct MulTerms {
  uint64_t n;         // words per operand, ceil(r / W)
  uint64_t np;        // padded words, M 2^L
  uint64_t comp;      // compute phase, general: 3^(L-P) (M^2 + 1)
  uint64_t comp_sym;  // symmetric: Ha M + 1 (L = 0), else ceil(2 3^(L-1) / 3^P) (M^2 + 1)
};

// kl = KaratsubaLevels, pl = ParallelLevels; Ha = floor(H / W) + 1 words hold
// bits 0..H of a, H = (r - 1) / 2
inline MulTerms mul_terms(uint32_t r, unsigned w, unsigned kl, unsigned pl) {
  MulTerms t;
  t.n = (r + w - 1) / w;
  uint64_t nblk = 1u << kl, m = (t.n + nblk - 1) / nblk;
  t.np = m * nblk;
  t.comp = pow3(kl - pl) * (m * m + 1);
  uint64_t ha = (r - 1) / 2 / w + 1;
  t.comp_sym = kl == 0 ? ha * m + 1 : (2 * pow3(kl - 1) + pow3(pl) - 1) / pow3(pl) * (m * m + 1);
  return t;
}

}  // namespace tbm
