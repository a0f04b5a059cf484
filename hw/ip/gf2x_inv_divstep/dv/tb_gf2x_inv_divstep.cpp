// Testbench of gf2x_inv_divstep: every inverse is compared bit-exact with
// libbike's bike_gf2x_inv, and every inversion's cycle count with the formula
// of doc/gf2x_inv_divstep.md (tb_formula.h), which depends on the parameters only (so an
// equal count for every input is the constant-time check), on the inversion
// testbenches' vectors (random units, then h0 and h of each KAT record:
// dv/common/tb_inv_vectors.h).
//
// Parameters from the build: -D TB_W, TB_K, TB_S (R = r, -GR).
#include "Vgf2x_inv_divstep.h"
#include "tb_common.h"
#include "tb_formula.h"
#include "tb_inv_vectors.h"
#include "tb_stream.h"

#ifndef TB_W
#error "TB_W, TB_K and TB_S must be defined by the build"
#endif

struct Dut : tb::Model<Vgf2x_inv_divstep> {
  uint64_t run(const bike_params *p, uint64_t *c, const uint64_t *a) {
    size_t nq = p->r_qwords, n = (p->r + TB_W - 1) / TB_W;
    std::memset(c, 0, sizeof(uint64_t) * (BIKE_MAX_QWORDS + 2));
    Vgf2x_inv_divstep *d = m.get();
    d->start_i = 1;
    d->in_valid_i = 0;
    tb::tick(d);
    d->start_i = 0;
    uint64_t cycles = tb::stream_op(d, c, a, n, nq, 100000000ull);
    if (d->busy_o) tb::die("busy after the last word\n");
    return cycles;
  }
};

int main(int argc, char **argv) {
  tb::Bench bench(argc, argv);
  const bike_params *p = bench.p;
  Dut dut;
  const uint64_t want = tb::formula(bench.args.level, "inv");

  tb::inv_vectors(bench, want,
                  [&](uint64_t *got, const uint64_t *a) { return dut.run(p, got, a); });

  std::printf("gf2x_inv_divstep L%d R=%u W=%d K=%d S=%d: %u random + %u KAT inverses, %u "
              "failures; cycles/inv %llu (formula %llu)\n",
              bench.args.level, p->r, TB_W, TB_K, TB_S, bench.rep.random, bench.rep.kat,
              bench.fails, (unsigned long long)bench.rep.cycles["inv"], (unsigned long long)want);
  return bench.finish();
}
