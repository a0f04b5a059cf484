// Shared pieces of the Verilator testbenches: clocking, a seeded random
// generator, the KAT file reader, bit-exact comparison and the cycle report.
// The scoreboard of every testbench is libbike (bike/ops.h), linked in.
#ifndef BIKECO_TB_COMMON_H
#define BIKECO_TB_COMMON_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

extern "C" {
#include "bike/ops.h"
}

namespace tb {

// ---- command line ------------------------------------------------------------

struct Args {
  int level = 1;
  unsigned random = 100;     // random vectors
  unsigned kat = 100;        // KAT records to use (all 100 by default)
  uint64_t seed = 1;
  std::string kat_dir;       // folder of PQCkemKAT_BIKE_L<n>.rsp
  std::string json;          // where to write the cycle/verification summary
};

inline Args parse_args(int argc, char **argv) {
  Args a;
  for (int i = 1; i < argc; i++) {
    std::string s = argv[i];
    auto val = [&](void) -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "missing value after %s\n", s.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (s == "--level") a.level = std::atoi(val().c_str());
    else if (s == "--random") a.random = (unsigned)std::strtoul(val().c_str(), nullptr, 10);
    else if (s == "--kat") a.kat = (unsigned)std::strtoul(val().c_str(), nullptr, 10);
    else if (s == "--seed") a.seed = std::strtoull(val().c_str(), nullptr, 10);
    else if (s == "--kat-dir") a.kat_dir = val();
    else if (s == "--json") a.json = val();
    else if (s[0] != '+') {
      std::fprintf(stderr, "unknown option %s\n", s.c_str());
      std::exit(2);
    }
  }
  return a;
}

// ---- random numbers (splitmix64: reproducible from --seed) --------------------

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

// ---- KAT files ----------------------------------------------------------------

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

// ---- comparison -----------------------------------------------------------------

// Compares n 64-bit words; on mismatch prints the first differing word.
inline bool same_words(const char *what, unsigned vec, const uint64_t *got, const uint64_t *exp,
                       size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (got[i] != exp[i]) {
      std::fprintf(stderr,
                   "MISMATCH %s vector %u: first differing 64-bit word %zu: got %016llx "
                   "expected %016llx\n",
                   what, vec, i, (unsigned long long)got[i], (unsigned long long)exp[i]);
      return false;
    }
  }
  return true;
}

inline bool same_bytes(const char *what, unsigned vec, const uint8_t *got, const uint8_t *exp,
                       size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (got[i] != exp[i]) {
      std::fprintf(stderr, "MISMATCH %s vector %u: first differing byte %zu: got %02x expected %02x\n",
                   what, vec, i, got[i], exp[i]);
      return false;
    }
  }
  return true;
}

// ---- clocking ---------------------------------------------------------------------

// One rising edge; inputs set before the call are sampled at this edge.
template <typename T>
inline void tick(T *m) {
  m->clk_i = 0;
  m->eval();
  m->clk_i = 1;
  m->eval();
}

template <typename T>
inline void reset(T *m) {
  m->clk_i = 0;
  m->rst_ni = 0;
  m->eval();
  m->rst_ni = 1;
  m->eval();
}

// ---- report ------------------------------------------------------------------------

// Cycle counts per operation (maximum seen) and vector counts, as a small JSON
// object that scripts/results.py merges with the synthesis figures.
struct Report {
  std::map<std::string, uint64_t> cycles;
  std::map<std::string, uint64_t> formula;
  unsigned random = 0, kat = 0;
  void cycle(const std::string &op, uint64_t c) {
    if (c > cycles[op]) cycles[op] = c;
  }
  void write(const std::string &path) const {
    if (path.empty()) return;
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f) {
      std::perror(path.c_str());
      std::exit(2);
    }
    std::fprintf(f, "{\"cycles\": {");
    bool first = true;
    for (auto &kv : cycles) {
      std::fprintf(f, "%s\"%s\": %llu", first ? "" : ", ", kv.first.c_str(),
                   (unsigned long long)kv.second);
      first = false;
    }
    std::fprintf(f, "}, \"verified\": {\"random\": %u, \"kat\": %u}}\n", random, kat);
    std::fclose(f);
  }
};

}  // namespace tb

#endif
