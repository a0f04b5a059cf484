// Testbench of gf2x_sqr_k: every result is compared bit-exact with libbike's
// bike_gf2x_sqr_k, and every operation's cycle count with the formula of
// doc/gf2x_sqr_k.md (tb_formula.h). Exponents: every entry of the unit's table (the
// Itoh-Tsujii chain of r), in turn. Random operands (uniform, all ones,
// single bits, bit r-1), then KAT-derived ones: h0 of the secret key and c0
// of the ciphertext of each record. Each operand runs twice: in full and in
// half mode (words 0 .. Ha - 1 of the same result, then zero words).
//
// Parameters from the build: -D TB_W, TB_E (R is the level's r, -GR).
#include "Vgf2x_sqr_k.h"
#include "tb_common.h"
#include "tb_formula.h"
#include "tb_inv_chain.h"
#include "tb_stream.h"

#ifndef TB_W
#error "TB_W and TB_E must be defined by the build"
#endif

struct Dut : tb::Model<Vgf2x_sqr_k> {
  uint64_t run(const bike_params *p, uint64_t *c, const uint64_t *a, unsigned ksel, bool half) {
    size_t nq = p->r_qwords, n = (p->r + TB_W - 1) / TB_W;
    std::memset(c, 0, sizeof(uint64_t) * (BIKE_MAX_QWORDS + 2));
    Vgf2x_sqr_k *d = m.get();
    d->start_i = 1;
    d->k_sel_i = ksel;
    d->half_i = half;
    d->in_valid_i = 0;
    tb::tick(d);
    d->start_i = 0;
    d->k_sel_i = 0;  // sampled at start only
    d->half_i = !half;
    uint64_t cycles = tb::stream_op(d, c, a, n, nq, 10000000ull);
    tb::expect_idle_after(d, "one cycle after the last word");
    return cycles;
  }
};

int main(int argc, char **argv) {
  tb::Bench bench(argc, argv);
  const bike_params *p = bench.p;
  Dut dut;
  static uint64_t a[BIKE_MAX_QWORDS + 2], got[BIKE_MAX_QWORDS + 2], exp[BIKE_MAX_QWORDS + 2];
  const std::vector<uint64_t> ks = tbi::ktab(p->r);
  const int level = bench.args.level;
  const uint64_t want = tb::formula(level, "sqr_k");
  const uint64_t want_half = tb::formula(level, "sqr_k_half");
  const uint64_t half_bits = tbi::half_words(p->r, TB_W) * TB_W;
  unsigned ops = 0;

  auto check = [&](const char *what, unsigned vec) {
    unsigned q = ops++ % ks.size();
    bike_gf2x_sqr_k(p, exp, a, ks[q]);
    for (int half = 0; half < 2; half++) {
      if (half) {
        // words from Ha on are zero
        for (uint64_t b = half_bits; b < 64 * p->r_qwords; b++) exp[b / 64] &= ~(1ull << (b % 64));
      }
      uint64_t cyc = dut.run(p, got, a, q, half);
      bench.cycles(half ? "sqr_k_half" : "sqr_k", what, vec, cyc, half ? want_half : want);
      if (!tb::same_words(what, vec, got, exp, p->r_qwords))
        bench.fail("  (k = %llu, table entry %u%s)\n", (unsigned long long)ks[q], q,
                   half ? ", half mode" : "");
    }
  };

  bench.random(1, [&](unsigned v) {
    tb::operand(p, bench.rng, v < 4 * ks.size() ? (v / ks.size()) % 4 : 0, a);
    check("random", v);
  });

  bench.kat(2, [&](tb::Record &rec, unsigned k) {
    tb::check_sizes(p, rec, {"sk", "ct"});
    tb::sk_h0(p, rec["sk"].data(), a);
    check("kat h0", k);
    bike_poly_from_bytes(p, a, rec["ct"].data());  // c0
    check("kat c0", k);
  });

  std::printf("gf2x_sqr_k L%d R=%u W=%d E=%d: %u random + %u KAT results over %zu exponents, "
              "%u failures; cycles/op %llu (formula %llu), half mode %llu (formula %llu)\n",
              bench.args.level, p->r, TB_W, TB_E, bench.rep.random, bench.rep.kat, ks.size(),
              bench.fails, (unsigned long long)bench.rep.cycles["sqr_k"], (unsigned long long)want,
              (unsigned long long)bench.rep.cycles["sqr_k_half"], (unsigned long long)want_half);
  return bench.finish();
}
