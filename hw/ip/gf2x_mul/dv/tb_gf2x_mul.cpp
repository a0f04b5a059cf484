// Testbench of gf2x_mul: every product is compared bit-exact with libbike's
// bike_gf2x_mul, and every operation's cycle count with the formula of
// doc/gf2x_mul.md (tb_formula.h). Random operands, then KAT-derived ones: for each KAT
// record, c0 * h0 (the decapsulation syndrome) and h * h0 (which is h1).
// The symmetric mode (sym_i) is checked twice: on sigma-invariant operands
// (norms x sigma(x), and of KAT keys), whose product it must equal, and on
// random operands against its definition G + W + sigma(W), W = a_low G.
//
// The design parameters come from the build (-D TB_W, TB_KL, TB_PL; R is
// the level's r, given to Verilator with -GR).
#include "Vgf2x_mul.h"
#include "tb_common.h"
#include "tb_formula.h"
#include "tb_stream.h"

#ifndef TB_W
#error "TB_W, TB_KL and TB_PL must be defined by the build"
#endif

// sigma: bit i -> bit (r - i) mod r
static void sigma(const bike_params *p, uint64_t *c, const uint64_t *a) {
  std::memset(c, 0, sizeof(uint64_t) * p->r_qwords);
  for (uint32_t i = 0; i < p->r; i++) {
    uint32_t j = i ? p->r - i : 0;
    c[j / 64] |= ((a[i / 64] >> (i % 64)) & 1) << (j % 64);
  }
}

// the symmetric mode's definition: G + W + sigma(W), W = (a mod x^(H+1)) G
static void sym_ref(const bike_params *p, uint64_t *c, const uint64_t *a, const uint64_t *g) {
  static uint64_t lo[BIKE_MAX_QWORDS + 2], w[BIKE_MAX_QWORDS + 2], sw[BIKE_MAX_QWORDS + 2];
  uint32_t h = (p->r - 1) / 2;
  std::memset(lo, 0, sizeof lo);
  for (uint32_t i = 0; i <= h; i++) lo[i / 64] |= a[i / 64] & ((uint64_t)1 << (i % 64));
  bike_gf2x_mul(p, w, lo, g);
  sigma(p, sw, w);
  for (size_t q = 0; q < p->r_qwords; q++) c[q] = g[q] ^ w[q] ^ sw[q];
}

struct Dut : tb::Model<Vgf2x_mul> {
  // One multiplication; returns the cycles from the start edge to out_last.
  uint64_t mul(const bike_params *p, uint64_t *c, const uint64_t *a, const uint64_t *b,
               bool sym = false) {
    size_t nq = p->r_qwords, n = (p->r + TB_W - 1) / TB_W;
    std::memset(c, 0, sizeof(uint64_t) * (BIKE_MAX_QWORDS + 2));
    Vgf2x_mul *d = m.get();
    tb::expect_idle_before_start(d);
    d->start_i = 1;
    d->sym_i = sym;
    d->in_valid_i = 0;
    tb::tick(d);
    d->start_i = 0;
    d->sym_i = !sym;  // taken with start_i only
    tb::expect_started(d);
    tb::Streams s(n, n, 100000000ull);
    for (;;) {
      bool take = d->in_ready_o;  // every word the core asks for (a surplus fails the length)
      if (take) {
        tbw::put(d->in_a_i, a, s.in, nq);
        tbw::put(d->in_b_i, b, s.in, nq);
      }
      d->in_valid_i = take;
      tb::tick(d);
      s.edge(take);
      if (d->out_valid_o) tbw::get(d->out_data_o, c, s.result());
      if (d->out_last_o) break;
    }
    s.check_lengths();
    // doc/gf2x_mul.md: back to idle (busy_o low) one cycle after out_last_o
    tb::tick(d);
    tb::expect_idle_after(d, "one cycle after out_last_o");
    return s.cycles;
  }
};

int main(int argc, char **argv) {
  tb::Bench bench(argc, argv);
  const bike_params *p = bench.p;
  Dut dut;
  static uint64_t a[BIKE_MAX_QWORDS + 2], b[BIKE_MAX_QWORDS + 2];
  static uint64_t got[BIKE_MAX_QWORDS + 2], exp[BIKE_MAX_QWORDS + 2];
  static uint64_t t[BIKE_MAX_QWORDS + 2], u[BIKE_MAX_QWORDS + 2];
  const int level = bench.args.level;
  const uint64_t want = tb::formula(level, "mul"), want_sym = tb::formula(level, "mul_sym");
  unsigned syms = 0;

  // one product of a and b against exp and its cycle formula
  auto run = [&](const char *what, unsigned vec, bool sym) {
    uint64_t cyc = dut.mul(p, got, a, b, sym);
    bench.cycles(sym ? "mul_sym" : "mul", what, vec, cyc, sym ? want_sym : want);
    bench.words(what, vec, got, exp, p->r_qwords);
  };
  auto check = [&](const char *what, unsigned vec) {
    bike_gf2x_mul(p, exp, a, b);
    run(what, vec, false);
  };
  // symmetric mode; exact: the operands are sigma-invariant, the result must
  // be their product (else it is checked against the mode's definition)
  auto check_sym = [&](const char *what, unsigned vec, bool exact) {
    if (exact) {
      bike_gf2x_mul(p, exp, a, b);
    } else {
      sym_ref(p, exp, a, b);
    }
    run(what, vec, true);
    syms++;
  };
  // x sigma(x): sigma-invariant, of odd weight when x is
  auto norm = [&](uint64_t *x) {
    if ((bike_poly_weight(p, x) & 1) == 0) x[0] ^= 1;
    sigma(p, t, x);
    bike_gf2x_mul(p, u, x, t);
    std::memcpy(x, u, sizeof(uint64_t) * p->r_qwords);
  };

  bench.random(1, [&](unsigned v) {
    // mostly uniform operands, a few extreme ones (all ones, single bits)
    for (int k = 0; k < 2; k++) tb::operand(p, bench.rng, v < 8 ? v % 4 : 0, k ? b : a);
    check("random", v);
    check_sym("sym definition", v, false);
    norm(a);
    norm(b);
    check_sym("sym random", v, true);
  });

  bench.kat(2, [&](tb::Record &rec, unsigned k) {
    tb::check_sizes(p, rec, {"sk", "ct"});
    bike_poly_from_bytes(p, a, rec["ct"].data());
    tb::sk_h0(p, rec["sk"].data(), b);
    check("kat c0*h0", k);
    bike_poly_from_bytes(p, a, rec["pk"].data());
    check("kat h*h0", k);
    norm(a);
    tb::sk_h0(p, rec["sk"].data(), b);
    norm(b);
    check_sym("sym kat", k, true);
  });

  std::printf("gf2x_mul L%d R=%u W=%d KaratsubaLevels=%d ParallelLevels=%d: %u random + %u KAT "
              "products (and %u symmetric), %u failures; cycles/mul %llu (formula %llu), "
              "symmetric %llu (formula %llu)\n",
              bench.args.level, p->r, TB_W, TB_KL, TB_PL, bench.rep.random, bench.rep.kat, syms, bench.fails,
              (unsigned long long)bench.rep.cycles["mul"], (unsigned long long)want,
              (unsigned long long)bench.rep.cycles["mul_sym"], (unsigned long long)want_sym);
  return bench.finish();
}
