// Random inputs of the testbenches, reproducible from --seed: the generator
// (splitmix64), test polynomials with their extreme cases, and sets of
// distinct positions.
#ifndef BIKECO_TB_VECTORS_H
#define BIKECO_TB_VECTORS_H

#include <cstdint>
#include <cstring>
#include <vector>

extern "C" {
#include "bike/ops.h"
}

namespace tb {

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  void bytes(uint8_t *out, size_t n) {
    for (size_t i = 0; i < n; i++) {
      if (i % 8 == 0) {
        uint64_t v = next();
        for (size_t k = 0; k < 8 && i + k < n; k++) out[i + k] = (uint8_t)(v >> (8 * k));
      }
    }
  }
};

// A test polynomial: kind 1 all ones, 2 a single random bit, 3 bit r-1 alone
// (the highest), anything else uniform; bits at or above r are cleared.
inline void operand(const bike_params *p, Rng &rng, unsigned kind, uint64_t *a) {
  static uint8_t buf[BIKE_MAX_R_BYTES];
  if (kind == 1) {
    std::memset(buf, 0xff, p->r_bytes);
  } else if (kind == 2) {
    std::memset(buf, 0, p->r_bytes);
    uint32_t bit = (uint32_t)(rng.next() % p->r);
    buf[bit / 8] = (uint8_t)(1u << (bit % 8));
  } else if (kind == 3) {
    std::memset(buf, 0, p->r_bytes);
    buf[(p->r - 1) / 8] = (uint8_t)(1u << ((p->r - 1) % 8));
  } else {
    rng.bytes(buf, p->r_bytes);
  }
  bike_poly_from_bytes(p, a, buf);
}

// n distinct positions below bound, each drawn until it is new; position i
// < fixed.size() is fixed[i] instead (its draw is still made, so that the
// stream of draws does not depend on fixed).
inline std::vector<uint32_t> distinct(Rng &rng, size_t n, uint32_t bound,
                                      const std::vector<uint32_t> &fixed = {}) {
  std::vector<uint32_t> pos;
  while (pos.size() < n) {
    uint32_t x = (uint32_t)(rng.next() % bound);
    if (pos.size() < fixed.size()) x = fixed[pos.size()];
    bool dup = false;
    for (uint32_t y : pos) dup |= (y == x);
    if (!dup) pos.push_back(x);
  }
  return pos;
}

}  // namespace tb

#endif
