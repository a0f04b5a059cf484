// Testbench of gf2x_inv: every inverse is compared bit-exact with libbike's
// bike_gf2x_inv, and every operation's cycle count with the formula of
// doc/gf2x_inv.md (tb_formula.h), on the inversion testbenches' vectors (random units, then
// h0 and h of each KAT record: dv/common/tb_inv_vectors.h).
//
// Parameters from the build: -D TB_W, TB_E, TB_KL, TB_PL (R = r, -GR).
#include "Vgf2x_inv.h"
#include "tb_common.h"
#include "tb_formula.h"
#include "tb_inv_vectors.h"
#include "tb_stream.h"

#ifndef TB_W
#error "TB_W, TB_E, TB_KL and TB_PL must be defined by the build"
#endif

struct Dut : tb::Model<Vgf2x_inv> {
  uint64_t run(const bike_params *p, uint64_t *c, const uint64_t *a) {
    size_t nq = p->r_qwords, n = (p->r + TB_W - 1) / TB_W;
    std::memset(c, 0, sizeof(uint64_t) * (BIKE_MAX_QWORDS + 2));
    Vgf2x_inv *d = m.get();
    d->start_i = 1;
    d->in_valid_i = 0;
    tb::tick(d);
    d->start_i = 0;
    uint64_t cycles = tb::stream_op(d, c, a, n, nq, 100000000ull);
    if (d->busy_o || d->overrun_o)
      tb::die("after the last word: busy %d, overrun %d\n", d->busy_o, d->overrun_o);
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

  std::printf("gf2x_inv L%d R=%u W=%d E=%d KaratsubaLevels=%d ParallelLevels=%d: %u random + %u "
              "KAT inverses, %u failures; cycles/inv %llu (formula %llu)\n",
              bench.args.level, p->r, TB_W, TB_E, TB_KL, TB_PL, bench.rep.random, bench.rep.kat,
              bench.fails, (unsigned long long)bench.rep.cycles["inv"], (unsigned long long)want);
  return bench.finish();
}
