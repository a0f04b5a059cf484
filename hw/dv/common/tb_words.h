// Polynomials between libbike (64-bit words) and W-bit Verilator ports
// (uint32_t, uint64_t or VlWide<K>): word i of a port-width stream, put into
// a port or taken from one.
#ifndef BIKECO_TB_WORDS_H
#define BIKECO_TB_WORDS_H

#include <cstddef>
#include <cstdint>

#include "verilated.h"

namespace tbw {

// 32-bit chunk j of a (nq 64-bit words; zero past them)
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

// ORs v into 32-bit chunk j of c (c cleared by the caller)
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

}  // namespace tbw

#endif
