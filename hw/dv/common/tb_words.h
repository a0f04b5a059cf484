// Word streams between libbike polynomials (64-bit words) and W-bit Verilator
// ports (uint32_t, uint64_t or VlWide), and the Itoh-Tsujii chain of R, for
// the testbenches of gf2x_sqr_k, gf2x_inv and the sparse-dense cores.
#ifndef BIKECO_TB_WORDS_H
#define BIKECO_TB_WORDS_H

#include <cstdint>
#include <vector>

#include "verilated.h"

namespace tbw {

inline uint32_t chunk32(const uint64_t *a, size_t j, size_t nq) {
  size_t q = j / 2;
  return q < nq ? (uint32_t)(a[q] >> (32 * (j & 1))) : 0u;
}
inline void put(uint32_t &s, const uint64_t *a, size_t i, size_t nq) { s = chunk32(a, i, nq); }
inline void put(uint64_t &s, const uint64_t *a, size_t i, size_t nq) {
  s = (uint64_t)chunk32(a, 2 * i + 1, nq) << 32 | chunk32(a, 2 * i, nq);
}
template <std::size_t K>
inline void put(VlWide<K> &s, const uint64_t *a, size_t i, size_t nq) {
  for (size_t k = 0; k < K; k++) s[k] = chunk32(a, K * i + k, nq);
}

inline void set32(uint64_t *c, size_t j, uint32_t v) { c[j / 2] |= (uint64_t)v << (32 * (j & 1)); }
inline void get(uint32_t s, uint64_t *c, size_t i) { set32(c, i, s); }
inline void get(uint64_t s, uint64_t *c, size_t i) {
  set32(c, 2 * i, (uint32_t)s);
  set32(c, 2 * i + 1, (uint32_t)(s >> 32));
}
template <std::size_t K>
inline void get(const VlWide<K> &s, uint64_t *c, size_t i) {
  for (size_t k = 0; k < K; k++) set32(c, K * i + k, s[k]);
}

// Exponent table of the squaring unit (gf2x_sqr_k_pkg::ktab), derived here
// independently from libbike's chain: entry 0 is k = 1, entry s + 1 the e of
// doubling step s of n = r - 2 walked from its top bit.
inline std::vector<uint64_t> ktab(uint32_t r) {
  uint32_t n = r - 2;
  int top = 31;
  while (((n >> top) & 1) == 0) top--;
  std::vector<uint64_t> ks{1};
  uint64_t e = 1;
  for (int bit = top - 1; bit >= 0; bit--) {
    ks.push_back(e);
    e = 2 * e + ((n >> bit) & 1);
  }
  return ks;
}

}  // namespace tbw

#endif
