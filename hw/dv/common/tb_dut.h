// The design under test: its clock and reset, the Verilator model with its
// context, and the checks of the start/busy handshake every core shares
// (start_i taken at a rising edge, busy_o high until the operation ends).
// A broken handshake or stream ends the run (status 1): what follows would
// not be meaningful.
#ifndef BIKECO_TB_DUT_H
#define BIKECO_TB_DUT_H

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "verilated.h"

namespace tb {

[[noreturn]] __attribute__((format(printf, 1, 2))) inline void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stderr, fmt, ap);
  va_end(ap);
  std::exit(1);
}

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

// The Verilator model V in its own context, out of reset.
template <class V>
struct Model {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<V> m;
  Model() : ctx(new VerilatedContext), m(new V(ctx.get())) { reset(m.get()); }
};

// busy_o low before a start
template <class V>
inline void expect_idle_before_start(V *d) {
  if (d->busy_o) die("busy_o high before start\n");
}

// busy_o low at the documented return to idle (a CYCLES failure otherwise)
template <class V>
inline void expect_idle_after(V *d, const char *when) {
  if (d->busy_o) die("CYCLES: busy_o still high %s\n", when);
}

// busy_o high right after the start edge
template <class V>
inline void expect_started(V *d) {
  if (!d->busy_o) die("start_i not taken\n");
}

}  // namespace tb

#endif
