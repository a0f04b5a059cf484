// The cycles a testbench requires of each operation: the formulas of
// bikeco.hwcycles (python/src/bikeco/hwcycles.py, their one source),
// evaluated for the build's parameters into tb_cycles.h beside the Verilated
// model (python -m bikeco.tbcycles, run by hwflow's build and by the core
// files' sim targets; README.md, "Cycle formulas").
#pragma once

#include <cstdint>
#include <string>

#include "tb_dut.h"

namespace tb {

struct CycleFormula {
  int level;
  const char *op;
  uint64_t cycles;
};

}  // namespace tb

#include "tb_cycles.h"  // generated: tb::kCycleFormulas

namespace tb {

// The formula's cycles of op at level; a build whose header has none stops
// the run.
inline uint64_t formula(int level, const std::string &op) {
  for (const CycleFormula &f : kCycleFormulas)
    if (f.level == level && op == f.op) return f.cycles;
  die("no cycle formula for %s at L%d in tb_cycles.h\n", op.c_str(), level);
}

}  // namespace tb
