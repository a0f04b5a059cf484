// The inversion's addition chain: the exponent table gf2x_sqr_k's testbench
// steps through (the chain gf2x_inv runs on its units), and the half-mode
// words.
#pragma once

#include <cstdint>
#include <vector>

namespace tbi {

// Ha: the W-bit words that hold bits 0..H, H = (r - 1) / 2, all that the
// multiplier's symmetric mode reads of its operand a
inline uint64_t half_words(uint32_t r, unsigned w) { return (r - 1) / 2 / w + 1; }

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
