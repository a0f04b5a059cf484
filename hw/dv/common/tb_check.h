// Comparison with the scoreboard (libbike, linked in) and the report of a
// run: bit-exact comparison that prints the first difference, and the JSON
// summary hw/scripts/hwflow.py reads (cycles per operation, vectors verified).
#ifndef BIKECO_TB_CHECK_H
#define BIKECO_TB_CHECK_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace tb {

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

// Cycle counts per operation (maximum seen) and vector counts, as a small JSON
// object that hwflow.py merges with the synthesis figures.
struct Report {
  std::map<std::string, uint64_t> cycles;
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
