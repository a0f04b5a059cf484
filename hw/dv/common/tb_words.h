// Word streams between libbike polynomials (64-bit words) and W-bit Verilator
// ports (uint32_t, uint64_t or VlWide), the stream-in/stream-out handshake of
// the one-operand cores, and the inversion's addition chain, for the testbenches
// of gf2x_sqr_k, gf2x_inv, the sparse-dense cores and the decoder.
#ifndef BIKECO_TB_WORDS_H
#define BIKECO_TB_WORDS_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tb_common.h"
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

// One operation of a core with an in_valid/in_ready operand stream and an
// out_valid/out_last result stream, started by the caller: feeds the n words
// of a (nq 64-bit words) as the core takes them, collects n result words into
// c, and returns the cycles to out_last. Fails the run on a wrong stream
// length or after max_cycles; the caller checks the core's state afterwards.
template <class T>
uint64_t stream_op(T *d, uint64_t *c, const uint64_t *a, size_t n, size_t nq, uint64_t max_cycles) {
  uint64_t cycles = 0;
  size_t ld = 0, out = 0;
  for (;;) {
    bool take = d->in_ready_o && ld < n;
    if (take) put(d->in_data_i, a, ld, nq);
    d->in_valid_i = take;
    tb::tick(d);
    cycles++;
    if (take) ld++;
    if (d->out_valid_o) {
      if (out >= n) {
        std::fprintf(stderr, "too many result words\n");
        std::exit(1);
      }
      get(d->out_data_o, c, out++);
    }
    if (d->out_last_o) break;
    if (cycles > max_cycles) {
      std::fprintf(stderr, "timeout\n");
      std::exit(1);
    }
  }
  if (out != n || ld != n) {
    std::fprintf(stderr, "stream length: %zu words in, %zu out, expected %zu\n", ld, out, n);
    std::exit(1);
  }
  d->in_valid_i = 0;
  tb::tick(d);
  return cycles;
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

}  // namespace tbw

#endif
