// Testbench of sampler (SHAKE256 + Fisher-Yates): the positions drawn for
// key generation (h0 then h1) and for function H are compared with libbike's
// bike_sample_keygen and bike_function_h (its idx output, positions in
// [0, 2r) as drawn), and the cycle counts with doc/sampler.md (tb_formula.h).
// Seeds: random ones, and KAT-derived ones (each record's ss and the first 32
// bytes of its DRBG seed).
#include "Vsampler.h"
#include "tb_common.h"
#include "tb_formula.h"

#ifndef TB_RPC
#error "TB_RPC must be defined by the build"
#endif



struct Dut : tb::Model<Vsampler> {
  // Runs one operation; pos[set][i] receive the positions.
  uint64_t run(bool h, const uint8_t seed[32], uint32_t *pos0, uint32_t *pos1, uint32_t count,
               unsigned *nout) {
    Vsampler *d = m.get();
    tb::expect_idle_before_start(d);
    d->start_i = 1;
    d->mode_i = h;
    for (int k = 0; k < 8; k++) d->seed_i[k] = tb::load32(seed + 4 * k);
    tb::tick(d);
    d->start_i = 0;
    tb::expect_started(d);
    uint64_t cycles = 1;
    *nout = 0;
    for (;;) {
      d->eval();
      if (d->done_o) break;
      if (d->pos_valid_o) {
        // the seed is absorbed by now (sampler.sv): it need not be held
        for (int k = 0; k < 8; k++) d->seed_i[k] = ~d->seed_i[k];
        uint32_t i = d->pos_idx_o;
        if (i >= count) tb::die("index %u out of range\n", i);
        (d->pos_set_o ? pos1 : pos0)[i] = d->pos_o;
        (*nout)++;
      }
      tb::tick(d);
      cycles++;
      if (cycles > 10000000) tb::die("timeout\n");
    }
    // doc/sampler.md: back to idle (busy_o low) right after done_o
    tb::tick(d);
    tb::expect_idle_after(d, "one cycle after done_o");
    return cycles;
  }
};

int main(int argc, char **argv) {
  tb::Bench bench(argc, argv);
  const bike_params *p = bench.p;
  Dut dut;
  uint8_t seed[32];
  static uint32_t got0[BIKE_MAX_T], got1[BIKE_MAX_T], ref0[BIKE_MAX_T], ref1[BIKE_MAX_T];
  static uint64_t pe0[BIKE_MAX_QWORDS], pe1[BIKE_MAX_QWORDS];

  auto check = [&](const char *what, unsigned vec) {
    unsigned n;
    // key generation
    bike_sample_keygen(p, ref0, ref1, seed);
    std::memset(got0, 0xff, sizeof(got0));
    std::memset(got1, 0xff, sizeof(got1));
    uint64_t c = dut.run(false, seed, got0, got1, p->d, &n);
    bench.cycles("sample_keygen", what, vec, c, tb::formula(bench.args.level, "sample_keygen"));
    if (n != 2 * p->d) bench.fail("%s keygen vector %u: %u positions\n", what, vec, n);
    for (uint32_t i = 0; i < p->d; i++) {
      if (got0[i] != ref0[i] || got1[i] != ref1[i]) {
        bench.fail("MISMATCH %s keygen vector %u: first differing index %u: got (%u, %u) "
                   "expected (%u, %u)\n",
                   what, vec, i, got0[i], got1[i], ref0[i], ref1[i]);
        break;
      }
    }
    // function H
    bike_function_h(p, pe0, pe1, ref0, seed);
    std::memset(got0, 0xff, sizeof(got0));
    c = dut.run(true, seed, got0, got1, p->t, &n);
    bench.cycles("function_h", what, vec, c, tb::formula(bench.args.level, "function_h"));
    if (n != p->t) bench.fail("%s H vector %u: %u positions\n", what, vec, n);
    for (uint32_t i = 0; i < p->t; i++) {
      if (got0[i] != ref0[i]) {
        bench.fail("MISMATCH %s H vector %u: first differing index %u: got %u expected %u\n",
                   what, vec, i, got0[i], ref0[i]);
        break;
      }
    }
  };

  bench.random(1, [&](unsigned v) {
    bench.rng.bytes(seed, 32);
    check("random", v);
  });
  bench.kat(2, [&](tb::Record &rec, unsigned k) {
    std::memcpy(seed, rec["ss"].data(), 32);
    check("kat ss", k);
    std::memcpy(seed, rec["seed"].data(), 32);
    check("kat seed", k);
  });
  std::printf("sampler L%d RoundsPerCycle=%d: %u random + %u KAT seeds (keygen and H each), "
              "%u failures; cycles: sample_keygen %llu (formula %llu), function_h %llu "
              "(formula %llu)\n",
              bench.args.level, TB_RPC, bench.rep.random, bench.rep.kat, bench.fails,
              (unsigned long long)bench.rep.cycles["sample_keygen"],
              (unsigned long long)tb::formula(bench.args.level, "sample_keygen"),
              (unsigned long long)bench.rep.cycles["function_h"],
              (unsigned long long)tb::formula(bench.args.level, "function_h"));
  return bench.finish();
}
