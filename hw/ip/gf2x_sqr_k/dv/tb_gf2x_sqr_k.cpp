// Testbench of gf2x_sqr_k: every result is compared bit-exact with libbike's
// bike_gf2x_sqr_k, and every operation's cycle count with the formula of
// doc/gf2x_sqr_k.md. Exponents: every entry of the unit's table (the
// Itoh-Tsujii chain of r), in turn. Random operands (uniform, all ones,
// single bits, bit r-1), then KAT-derived ones: h0 of the secret key and c0
// of the ciphertext of each record. Each operand runs twice: in full and in
// half mode (words 0 .. Ha - 1 of the same result, then zero words).
//
// Parameters from the build: -D TB_W, TB_E (R is the level's r, -GR).
#include <memory>

#include "Vgf2x_sqr_k.h"
#include "tb_common.h"
#include "tb_inv_cycles.h"
#include "tb_words.h"
#include "verilated.h"

#ifndef TB_W
#error "TB_W and TB_E must be defined by the build"
#endif

// doc/gf2x_sqr_k.md: cycles = N + S + 1, S = N W / E, in half mode
// S_h = Ha W / E + N - Ha
static uint64_t formula(uint32_t r, bool half) {
  return (r + TB_W - 1) / TB_W + tbi::sqr_steps(r, TB_W, TB_E, half) + 1;
}

struct Dut {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vgf2x_sqr_k> m;
  Dut() : ctx(new VerilatedContext), m(new Vgf2x_sqr_k(ctx.get())) { tb::reset(m.get()); }

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
    uint64_t cycles = tbw::stream_op(d, c, a, n, nq, 10000000ull);
    if (d->busy_o) {
      std::fprintf(stderr, "still busy after the last word\n");
      std::exit(1);
    }
    return cycles;
  }
};

int main(int argc, char **argv) {
  tb::Args args = tb::parse_args(argc, argv);
  const bike_params *p = bike_params_get(args.level);
  if (!p) {
    std::fprintf(stderr, "bad level\n");
    return 2;
  }
  Dut dut;
  tb::Report rep;
  tb::Rng rng(args.seed);
  static uint64_t a[BIKE_MAX_QWORDS + 2], got[BIKE_MAX_QWORDS + 2], exp[BIKE_MAX_QWORDS + 2];
  const std::vector<uint64_t> ks = tbw::ktab(p->r);
  const uint64_t want = formula(p->r, false), want_half = formula(p->r, true);
  const uint64_t half_bits = tbi::half_words(p->r, TB_W) * TB_W;
  unsigned fails = 0, ops = 0;

  auto check = [&](const char *what, unsigned vec) {
    unsigned q = ops++ % ks.size();
    bike_gf2x_sqr_k(p, exp, a, ks[q]);
    for (int half = 0; half < 2; half++) {
      if (half) {
        // words from Ha on are zero
        for (uint64_t b = half_bits; b < 64 * p->r_qwords; b++) exp[b / 64] &= ~(1ull << (b % 64));
      }
      uint64_t cyc = dut.run(p, got, a, q, half);
      rep.cycle(half ? "sqr_k_half" : "sqr_k", cyc);
      if (cyc != (half ? want_half : want)) {
        std::fprintf(stderr, "CYCLES %s vector %u%s: %llu, formula %llu\n", what, vec,
                     half ? " (half)" : "", (unsigned long long)cyc,
                     (unsigned long long)(half ? want_half : want));
        fails++;
      }
      if (!tb::same_words(what, vec, got, exp, p->r_qwords)) {
        std::fprintf(stderr, "  (k = %llu, table entry %u%s)\n", (unsigned long long)ks[q], q,
                     half ? ", half mode" : "");
        fails++;
      }
    }
  };

  for (unsigned v = 0; v < args.random; v++) {
    unsigned kind = v < 4 * ks.size() ? (v / ks.size()) % 4 : 0;
    tb::operand(p, rng, kind, a);
    check("random", v);
    rep.random++;
  }

  if (args.kat) {
    std::vector<tb::Record> recs = tb::read_kat(tb::kat_path(args));
    unsigned used = 0;
    for (auto &rec : recs) {
      if (used >= args.kat) break;
      if (rec["sk"].size() != p->sk_bytes || rec["ct"].size() != p->ct_bytes) {
        std::fprintf(stderr, "KAT record sizes do not match level %d\n", args.level);
        return 2;
      }
      bike_poly_from_bytes(p, a, rec["sk"].data() + 8 * p->d);  // h0
      check("kat h0", used);
      bike_poly_from_bytes(p, a, rec["ct"].data());  // c0
      check("kat c0", used);
      rep.kat += 2;
      used++;
    }
  }

  std::printf("gf2x_sqr_k L%d R=%u W=%d E=%d: %u random + %u KAT results over %zu exponents, "
              "%u failures; cycles/op %llu (formula %llu), half mode %llu (formula %llu)\n",
              args.level, p->r, TB_W, TB_E, rep.random, rep.kat, ks.size(), fails,
              (unsigned long long)rep.cycles["sqr_k"], (unsigned long long)want,
              (unsigned long long)rep.cycles["sqr_k_half"], (unsigned long long)want_half);
  if (fails) return 1;
  rep.write(args.json);
  return 0;
}
