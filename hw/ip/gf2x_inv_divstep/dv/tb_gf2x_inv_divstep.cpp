// Testbench of gf2x_inv_divstep: every inverse is compared bit-exact with
// libbike's bike_gf2x_inv, and every inversion's cycle count with the formula
// of doc/gf2x_inv_divstep.md, which depends on the parameters only (so an
// equal count for every input is the constant-time check). Random units (uniform
// with the parity fixed, single bits, x^(r-1), all ones but 1 + x), then
// KAT-derived ones: h0 of the secret key (the KeyGen inversion) and the
// public key h of each record.
//
// Parameters from the build: -D TB_W, TB_K, TB_S (R = r, -GR).
#include "Vgf2x_inv_divstep.h"
#include "tb_common.h"
#include "tb_stream.h"

#ifndef TB_W
#error "TB_W, TB_K and TB_S must be defined by the build"
#endif

// doc/gf2x_inv_divstep.md:
//   cycles = N + B (K / S + N + 1) + N + 1,  N = ceil(r / W), B = ceil((2r - 1) / K)
static uint64_t formula(uint32_t r, uint64_t *batches) {
  uint64_t n = (r + TB_W - 1) / TB_W, b = (2ull * r - 1 + TB_K - 1) / TB_K;
  *batches = b;
  return n + b * (TB_K / TB_S + n + 1) + n + 1;
}

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
  static uint64_t a[BIKE_MAX_QWORDS + 2], got[BIKE_MAX_QWORDS + 2], exp[BIKE_MAX_QWORDS + 2];
  static uint64_t chk[BIKE_MAX_QWORDS + 2];
  uint64_t batches = 0;
  const uint64_t want = formula(p->r, &batches);

  auto check = [&](const char *what, unsigned vec) {
    bike_gf2x_inv(p, exp, a);
    // the reference itself: a * a^-1 = 1 (a unit of odd weight)
    bike_gf2x_mul(p, chk, a, exp);
    if (chk[0] != 1 || bike_poly_weight(p, chk) != 1) {
      std::fprintf(stderr, "reference inverse check failed (%s %u)\n", what, vec);
      std::exit(2);
    }
    uint64_t cyc = dut.run(p, got, a);
    bench.cycles("inv", what, vec, cyc, want);
    bench.words(what, vec, got, exp, p->r_qwords);
  };

  bench.random(1, [&](unsigned v) {
    unsigned kind = v < 8 ? v % 4 : 0;
    tb::operand(p, bench.rng, kind, a);
    // all ones is no unit (it is 0 in the GF(2^(r-1)) component); all ones
    // but 1 + x is (odd weight r - 2)
    if (kind == 1) a[0] &= ~(uint64_t)3;
    if ((bike_poly_weight(p, a) & 1) == 0) a[0] ^= 1;  // make it a unit
    check("random", v);
  });

  bench.kat(2, [&](tb::Record &rec, unsigned k) {
    tb::check_sizes(p, rec, {"sk", "pk"});
    tb::sk_h0(p, rec["sk"].data(), a);
    check("kat h0", k);
    bike_poly_from_bytes(p, a, rec["pk"].data());  // h = h1 h0^-1
    check("kat pk", k);
  });

  std::printf("gf2x_inv_divstep L%d R=%u W=%d K=%d S=%d: %u random + %u KAT inverses, %u "
              "failures; cycles/inv %llu (formula %llu, %llu batches)\n",
              bench.args.level, p->r, TB_W, TB_K, TB_S, bench.rep.random, bench.rep.kat,
              bench.fails, (unsigned long long)bench.rep.cycles["inv"], (unsigned long long)want,
              (unsigned long long)batches);
  return bench.finish();
}
