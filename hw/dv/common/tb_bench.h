// The frame of a testbench's main(): the command line, the level's
// parameters, the seeded generator, the failure count and the report; the
// loops over random vectors and KAT records; comparisons that count a
// failure and say what differed. The shape of every main():
//
//   tb::Bench bench(argc, argv);
//   bench.random(1, [&](unsigned v) { ...; bench.cycles("op", "random", v, got, want); });
//   bench.kat(2, [&](tb::Record &rec, unsigned k) { ... });
//   std::printf("<core> ...: %u random + %u KAT ..., %u failures; ...\n", ...);
//   return bench.finish();
#ifndef BIKECO_TB_BENCH_H
#define BIKECO_TB_BENCH_H

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tb_args.h"
#include "tb_check.h"
#include "tb_kat.h"
#include "tb_vectors.h"

namespace tb {

struct Bench {
  Args args;
  const bike_params *p;
  Rng rng;
  Report rep;  // the vectors verified and the cycles per operation
  unsigned fails = 0;

  Bench(int argc, char **argv) : args(parse_args(argc, argv)), p(level_params(args)), rng(args.seed) {}

  // A failure, with what differed (stderr).
  __attribute__((format(printf, 2, 3))) void fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    fails++;
  }

  // The cycles of one operation op: kept for the report (the maximum), and
  // compared with its formula.
  void cycles(const char *op, const char *what, unsigned vec, uint64_t got, uint64_t want) {
    rep.cycle(op, got);
    if (got != want)
      fail("CYCLES %s %s vector %u: %llu, formula %llu\n", op, what, vec, (unsigned long long)got,
           (unsigned long long)want);
  }

  bool words(const char *what, unsigned vec, const uint64_t *got, const uint64_t *exp, size_t n) {
    bool ok = same_words(what, vec, got, exp, n);
    if (!ok) fails++;
    return ok;
  }

  bool bytes(const char *what, unsigned vec, const uint8_t *got, const uint8_t *exp, size_t n) {
    bool ok = same_bytes(what, vec, got, exp, n);
    if (!ok) fails++;
    return ok;
  }

  // The records of the level's KAT file, read at the first call.
  std::vector<Record> &records() {
    if (!read) recs = read_kat(kat_path(args));
    read = true;
    return recs;
  }

  // f(v) for each of the --random vectors; each counts `per` vectors verified.
  template <class F>
  void random(unsigned per, F f) {
    for (unsigned v = 0; v < args.random; v++) {
      f(v);
      rep.random += per;
    }
  }

  // f(record, k) for the first --kat records; each counts `per`.
  template <class F>
  void kat(unsigned per, F f) {
    if (!args.kat) return;
    std::vector<Record> &rs = records();
    for (unsigned k = 0; k < args.kat && k < rs.size(); k++) {
      f(rs[k], k);
      rep.kat += per;
    }
  }

  // The exit status; the report is written only when every check passed.
  int finish() const {
    if (fails) return 1;
    rep.write(args.json);
    return 0;
  }

 private:
  std::vector<Record> recs;
  bool read = false;
};

}  // namespace tb

#endif
