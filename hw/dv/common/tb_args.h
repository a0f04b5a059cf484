// The command line of every testbench, as hw/scripts/hwflow.py gives it:
// --level, --random N (random vectors), --kat N (KAT records), --seed,
// --kat-dir (folder of PQCkemKAT_BIKE_L<n>.rsp), --json (where the summary
// goes). Verilator's own +arguments pass through.
#ifndef BIKECO_TB_ARGS_H
#define BIKECO_TB_ARGS_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" {
#include "bike/ops.h"
}

namespace tb {

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

// libbike's parameters of --level; a level other than 1, 3, 5 ends the run.
inline const bike_params *level_params(const Args &a) {
  const bike_params *p = bike_params_get(a.level);
  if (!p) {
    std::fprintf(stderr, "bad level %d\n", a.level);
    std::exit(2);
  }
  return p;
}

}  // namespace tb

#endif
