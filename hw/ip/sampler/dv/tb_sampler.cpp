// Testbench of sampler (SHAKE256 + Fisher-Yates): the positions drawn for
// key generation (h0 then h1) and for function H are compared with libbike's
// bike_sample_keygen and bike_function_h (its idx output, positions in
// [0, 2r) as drawn), and the cycle counts with doc/sampler.md.
// Seeds: random ones, and KAT-derived ones (each record's ss and the first 32
// bytes of its DRBG seed).
#include <memory>

#include "Vsampler.h"
#include "tb_common.h"
#include "verilated.h"

#ifndef TB_RPC
#error "TB_RPC must be defined by the build"
#endif

static const uint64_t kPerm = 24 / TB_RPC;

// doc/sampler.md: S(c) = 3c + c(c-1)/2 cycles for a draw of c positions
static uint64_t draw(uint64_t c) { return 3 * c + c * (c - 1) / 2; }
static uint64_t formula_h(const bike_params *p) { return 7 + kPerm + draw(p->t); }
static uint64_t formula_keygen(const bike_params *p) { return 8 + kPerm + 2 * draw(p->d); }

struct Dut {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vsampler> m;
  Dut() : ctx(new VerilatedContext), m(new Vsampler(ctx.get())) { tb::reset(m.get()); }

  // Runs one operation; pos[set][i] receive the positions.
  uint64_t run(bool h, const uint8_t seed[32], uint32_t *pos0, uint32_t *pos1, uint32_t count,
               unsigned *nout) {
    Vsampler *d = m.get();
    if (d->busy_o) {
      std::fprintf(stderr, "busy_o high before start\n");
      std::exit(1);
    }
    d->start_i = 1;
    d->mode_i = h;
    for (int k = 0; k < 8; k++) {
      d->seed_i[k] = (uint32_t)seed[4 * k] | (uint32_t)seed[4 * k + 1] << 8 |
                     (uint32_t)seed[4 * k + 2] << 16 | (uint32_t)seed[4 * k + 3] << 24;
    }
    tb::tick(d);
    d->start_i = 0;
    if (!d->busy_o) {
      std::fprintf(stderr, "start_i not taken\n");
      std::exit(1);
    }
    uint64_t cycles = 1;
    *nout = 0;
    for (;;) {
      d->eval();
      if (d->done_o) break;
      if (d->pos_valid_o) {
        // the seed is absorbed by now (sampler.sv): it need not be held
        for (int k = 0; k < 8; k++) d->seed_i[k] = ~d->seed_i[k];
        uint32_t i = d->pos_idx_o;
        if (i >= count) {
          std::fprintf(stderr, "index %u out of range\n", i);
          std::exit(1);
        }
        (d->pos_set_o ? pos1 : pos0)[i] = d->pos_o;
        (*nout)++;
      }
      tb::tick(d);
      cycles++;
      if (cycles > 10000000) {
        std::fprintf(stderr, "timeout\n");
        std::exit(1);
      }
    }
    // doc/sampler.md: back to idle (busy_o low) right after done_o
    tb::tick(d);
    if (d->busy_o) {
      std::fprintf(stderr, "CYCLES: busy_o still high one cycle after done_o\n");
      std::exit(1);
    }
    return cycles;
  }
};

int main(int argc, char **argv) {
  tb::Args args = tb::parse_args(argc, argv);
  const bike_params *p = bike_params_get(args.level);
  if (!p) return 2;
  Dut dut;
  tb::Report rep;
  tb::Rng rng(args.seed);
  unsigned fails = 0;
  uint8_t seed[32];
  static uint32_t e0[BIKE_MAX_QWORDS * 64], e1[BIKE_MAX_QWORDS * 64];
  static uint32_t got0[BIKE_MAX_T], got1[BIKE_MAX_T], ref0[BIKE_MAX_T], ref1[BIKE_MAX_T];
  static uint64_t pe0[BIKE_MAX_QWORDS], pe1[BIKE_MAX_QWORDS];
  (void)e0;
  (void)e1;

  auto check = [&](const char *what, unsigned vec) {
    unsigned n;
    // key generation
    bike_sample_keygen(p, ref0, ref1, seed);
    std::memset(got0, 0xff, sizeof(got0));
    std::memset(got1, 0xff, sizeof(got1));
    uint64_t c = dut.run(false, seed, got0, got1, p->d, &n);
    rep.cycle("sample_keygen", c);
    if (c != formula_keygen(p)) {
      std::fprintf(stderr, "CYCLES %s keygen vector %u: %llu, formula %llu\n", what, vec,
                   (unsigned long long)c, (unsigned long long)formula_keygen(p));
      fails++;
    }
    if (n != 2 * p->d) {
      std::fprintf(stderr, "%s keygen vector %u: %u positions\n", what, vec, n);
      fails++;
    }
    for (uint32_t i = 0; i < p->d; i++) {
      if (got0[i] != ref0[i] || got1[i] != ref1[i]) {
        std::fprintf(stderr, "MISMATCH %s keygen vector %u: first differing index %u: got "
                     "(%u, %u) expected (%u, %u)\n", what, vec, i, got0[i], got1[i], ref0[i],
                     ref1[i]);
        fails++;
        break;
      }
    }
    // function H
    bike_function_h(p, pe0, pe1, ref0, seed);
    std::memset(got0, 0xff, sizeof(got0));
    c = dut.run(true, seed, got0, got1, p->t, &n);
    rep.cycle("function_h", c);
    if (c != formula_h(p)) {
      std::fprintf(stderr, "CYCLES %s H vector %u: %llu, formula %llu\n", what, vec,
                   (unsigned long long)c, (unsigned long long)formula_h(p));
      fails++;
    }
    if (n != p->t) {
      std::fprintf(stderr, "%s H vector %u: %u positions\n", what, vec, n);
      fails++;
    }
    for (uint32_t i = 0; i < p->t; i++) {
      if (got0[i] != ref0[i]) {
        std::fprintf(stderr, "MISMATCH %s H vector %u: first differing index %u: got %u "
                     "expected %u\n", what, vec, i, got0[i], ref0[i]);
        fails++;
        break;
      }
    }
  };

  for (unsigned v = 0; v < args.random; v++) {
    rng.bytes(seed, 32);
    check("random", v);
    rep.random++;
  }
  if (args.kat) {
    std::vector<tb::Record> recs = tb::read_kat(tb::kat_path(args));
    unsigned used = 0;
    for (auto &rec : recs) {
      if (used >= args.kat) break;
      std::memcpy(seed, rec["ss"].data(), 32);
      check("kat ss", used);
      std::memcpy(seed, rec["seed"].data(), 32);
      check("kat seed", used);
      rep.kat += 2;
      used++;
    }
  }
  std::printf("sampler L%d RoundsPerCycle=%d: %u random + %u KAT seeds (keygen and H each), "
              "%u failures; cycles: sample_keygen %llu (formula %llu), function_h %llu "
              "(formula %llu)\n",
              args.level, TB_RPC, rep.random, rep.kat, fails,
              (unsigned long long)rep.cycles["sample_keygen"],
              (unsigned long long)formula_keygen(p), (unsigned long long)rep.cycles["function_h"],
              (unsigned long long)formula_h(p));
  if (fails) return 1;
  rep.write(args.json);
  return 0;
}
