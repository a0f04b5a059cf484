// The KAT files (PQCkemKAT_BIKE_L<n>.rsp): their records, and the parts of a
// record the testbenches take their inputs from.
#ifndef BIKECO_TB_KAT_H
#define BIKECO_TB_KAT_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "tb_args.h"

extern "C" {
#include "bike/ops.h"
}

namespace tb {

using Record = std::map<std::string, std::vector<uint8_t>>;

inline std::vector<uint8_t> from_hex(const std::string &h) {
  std::vector<uint8_t> v(h.size() / 2);
  for (size_t i = 0; i < v.size(); i++) v[i] = (uint8_t)std::stoul(h.substr(2 * i, 2), nullptr, 16);
  return v;
}

// Records of a PQCkemKAT .rsp file: every "name = hex" field, by record.
inline std::vector<Record> read_kat(const std::string &path) {
  std::ifstream f(path);
  if (!f) {
    std::fprintf(stderr, "cannot open %s\n", path.c_str());
    std::exit(2);
  }
  std::vector<Record> recs;
  std::string line;
  while (std::getline(f, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    size_t eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    std::string name = line.substr(0, eq), value = line.substr(eq + 3);
    if (name == "count") {
      recs.emplace_back();
      continue;
    }
    if (recs.empty()) continue;
    recs.back()[name] = from_hex(value);
  }
  return recs;
}

inline std::string kat_path(const Args &a) {
  return a.kat_dir + "/PQCkemKAT_BIKE_L" + std::to_string(a.level) + ".rsp";
}

// Ends the run (status 2) unless each named field (sk, pk or ct) has the
// length of level p: the KAT file is of another level.
inline void check_sizes(const bike_params *p, const Record &rec,
                        std::initializer_list<const char *> fields) {
  for (const char *name : fields) {
    std::string f = name;
    size_t want = f == "sk" ? p->sk_bytes : f == "pk" ? p->pk_bytes : p->ct_bytes;
    auto it = rec.find(f);
    if (it == rec.end() || it->second.size() != want) {
      std::fprintf(stderr, "KAT record sizes do not match level %d\n", p->level);
      std::exit(2);
    }
  }
}

inline uint32_t load32(const uint8_t *q) {
  return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
}

// A secret key starts with the D positions of h0 and the D of h1 (32-bit
// little-endian words), then h0 in dense form: the positions of block blk
// (0: h0, 1: h1).
inline void sk_support(const bike_params *p, const uint8_t *sk, unsigned blk, uint32_t *idx) {
  for (uint32_t i = 0; i < p->d; i++) idx[i] = load32(sk + 4 * (blk * p->d + i));
}

// ... and h0 as a dense polynomial.
inline void sk_h0(const bike_params *p, const uint8_t *sk, uint64_t *h0) {
  bike_poly_from_bytes(p, h0, sk + 8 * p->d);
}

}  // namespace tb

#endif
