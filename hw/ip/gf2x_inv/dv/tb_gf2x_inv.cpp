// Testbench of gf2x_inv: every inverse is compared bit-exact with libbike's
// bike_gf2x_inv, and every operation's cycle count with the formula of
// doc/gf2x_inv.md, on the inversion testbenches' vectors (random units, then
// h0 and h of each KAT record: dv/common/tb_inv_vectors.h).
//
// Parameters from the build: -D TB_W, TB_E, TB_KL, TB_PL (R = r, -GR).
#include "Vgf2x_inv.h"
#include "tb_common.h"
#include "tb_inv_vectors.h"
#include "tb_inv_cycles.h"
#include "tb_stream.h"

#ifndef TB_W
#error "TB_W, TB_E, TB_KL and TB_PL must be defined by the build"
#endif

// doc/gf2x_inv.md:
//   cycles = N + 2 (S + Np + C + 8) + MS (S_h + Np + C_sym + N + 10) + S + 1
// with S = N W / E (exponentiation steps), S_h = Ha W / E + N - Ha (in half
// mode, Ha = floor(H / W) + 1), Np, C = 3^(L-P) (M^2 + 1) and
// C_sym (the compute phase of a general and a symmetric product) from
// gf2x_mul, and MS the number of products of the chain over h - 1,
// h = (r - 1) / 2 (the two general ones: a sigma(a) and a N^-1).
static uint64_t formula(uint32_t r, uint64_t *muls_out) {
  tbi::MulTerms t = tbi::mul_terms(r, TB_W, TB_KL, TB_PL);
  uint64_t n = t.n, np = t.np, c = t.comp, c_sym = t.comp_sym;
  uint64_t s = tbi::sqr_steps(r, TB_W, TB_E, false), sh = tbi::sqr_steps(r, TB_W, TB_E, true);
  uint64_t ms = 0;
  for (int b : tbi::chain_bits(r)) ms += 1 + b;
  *muls_out = ms + 2;
  return n + 2 * (s + np + c + 8) + ms * (sh + np + c_sym + n + 10) + s + 1;
}

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
  uint64_t muls = 0;
  const uint64_t want = formula(p->r, &muls);

  tb::inv_vectors(bench, want,
                  [&](uint64_t *got, const uint64_t *a) { return dut.run(p, got, a); });

  std::printf("gf2x_inv L%d R=%u W=%d E=%d KaratsubaLevels=%d ParallelLevels=%d: %u random + %u "
              "KAT inverses, %u failures; cycles/inv %llu (formula %llu, %llu multiplications)\n",
              bench.args.level, p->r, TB_W, TB_E, TB_KL, TB_PL, bench.rep.random, bench.rep.kat,
              bench.fails, (unsigned long long)bench.rep.cycles["inv"], (unsigned long long)want,
              (unsigned long long)muls);
  return bench.finish();
}
