// Testbench of gf2x_mul: every product is compared bit-exact with libbike's
// bike_gf2x_mul, and every operation's cycle count with the formula of
// doc/gf2x_mul.md. Random operands, then KAT-derived ones: for each KAT
// record, c0 * h0 (the decapsulation syndrome) and h * h0 (which is h1).
// The symmetric mode (sym_i) is checked twice: on sigma-invariant operands
// (norms x sigma(x), and of KAT keys), whose product it must equal, and on
// random operands against its definition G + W + sigma(W), W = a_low G.
//
// The design parameters come from the build (-D TB_W, TB_KL, TB_PL; R is
// the level's r, given to Verilator with -GR).
#include <memory>

#include "Vgf2x_mul.h"
#include "tb_common.h"
#include "tb_inv_cycles.h"
#include "verilated.h"

#ifndef TB_W
#error "TB_W, TB_KL and TB_PL must be defined by the build"
#endif

static uint32_t chunk32(const uint64_t *a, size_t j, size_t nq) {
  size_t q = j / 2;
  return q < nq ? (uint32_t)(a[q] >> (32 * (j & 1))) : 0u;
}

static void put(uint32_t &s, const uint64_t *a, size_t i, size_t nq) { s = chunk32(a, i, nq); }
static void put(uint64_t &s, const uint64_t *a, size_t i, size_t nq) {
  s = (uint64_t)chunk32(a, 2 * i + 1, nq) << 32 | chunk32(a, 2 * i, nq);
}
template <std::size_t K>
static void put(VlWide<K> &s, const uint64_t *a, size_t i, size_t nq) {
  for (size_t k = 0; k < K; k++) s[k] = chunk32(a, K * i + k, nq);
}

static void set32(uint64_t *c, size_t j, uint32_t v) {
  c[j / 2] |= (uint64_t)v << (32 * (j & 1));
}
static void get(uint32_t s, uint64_t *c, size_t i) { set32(c, i, s); }
static void get(uint64_t s, uint64_t *c, size_t i) {
  set32(c, 2 * i, (uint32_t)s);
  set32(c, 2 * i + 1, (uint32_t)(s >> 32));
}
template <std::size_t K>
static void get(const VlWide<K> &s, uint64_t *c, size_t i) {
  for (size_t k = 0; k < K; k++) set32(c, K * i + k, s[k]);
}

// doc/gf2x_mul.md: cycles = Np + 3^(L-P) (M^2 + 1) + N + 4, and in the
// symmetric mode Np + C_sym + 2N + 6
static uint64_t formula(uint32_t r, bool sym) {
  tbi::MulTerms t = tbi::mul_terms(r, TB_W, TB_KL, TB_PL);
  return sym ? t.np + t.comp_sym + 2 * t.n + 6 : t.np + t.comp + t.n + 4;
}

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

struct Dut {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vgf2x_mul> m;
  Dut() : ctx(new VerilatedContext), m(new Vgf2x_mul(ctx.get())) { tb::reset(m.get()); }

  // One multiplication; returns the cycles from the start edge to out_last.
  uint64_t mul(const bike_params *p, uint64_t *c, const uint64_t *a, const uint64_t *b,
               bool sym = false) {
    size_t nq = p->r_qwords, n = (p->r + TB_W - 1) / TB_W;
    std::memset(c, 0, sizeof(uint64_t) * (BIKE_MAX_QWORDS + 2));
    Vgf2x_mul *d = m.get();
    if (d->busy_o) {
      std::fprintf(stderr, "busy_o high before start\n");
      std::exit(1);
    }
    d->start_i = 1;
    d->sym_i = sym;
    d->in_valid_i = 0;
    tb::tick(d);
    d->start_i = 0;
    d->sym_i = !sym;  // taken with start_i only
    if (!d->busy_o) {
      std::fprintf(stderr, "start_i not taken\n");
      std::exit(1);
    }
    uint64_t cycles = 0;
    size_t ld = 0, out = 0;
    for (;;) {
      bool take = d->in_ready_o;
      if (take) {
        put(d->in_a_i, a, ld, nq);
        put(d->in_b_i, b, ld, nq);
      }
      d->in_valid_i = take;
      tb::tick(d);
      cycles++;
      if (take) ld++;
      if (d->out_valid_o) {
        if (out >= n) {
          std::fprintf(stderr, "too many result words\n");
          std::exit(1);
        }
        get(d->out_data_o, c, out++);
      }
      if (d->out_last_o) break;
      if (cycles > 100000000ull) {
        std::fprintf(stderr, "timeout\n");
        std::exit(1);
      }
    }
    if (out != n || ld != n) {
      std::fprintf(stderr, "stream length: %zu words in, %zu out, expected %zu\n", ld, out, n);
      std::exit(1);
    }
    // doc/gf2x_mul.md: back to idle (busy_o low) one cycle after out_last_o
    tb::tick(d);
    if (d->busy_o) {
      std::fprintf(stderr, "CYCLES: busy_o still high one cycle after out_last_o\n");
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
  static uint64_t a[BIKE_MAX_QWORDS + 2], b[BIKE_MAX_QWORDS + 2];
  static uint64_t got[BIKE_MAX_QWORDS + 2], exp[BIKE_MAX_QWORDS + 2];
  static uint64_t t[BIKE_MAX_QWORDS + 2], u[BIKE_MAX_QWORDS + 2];
  const uint64_t want = formula(p->r, false), want_sym = formula(p->r, true);
  unsigned fails = 0, syms = 0;

  // one product of a and b against exp and its cycle formula
  auto run = [&](const char *what, unsigned vec, bool sym) {
    uint64_t cyc = dut.mul(p, got, a, b, sym);
    uint64_t w = sym ? want_sym : want;
    rep.cycle(sym ? "mul_sym" : "mul", cyc);
    if (cyc != w) {
      std::fprintf(stderr, "CYCLES %s vector %u: %llu, formula %llu\n", what, vec,
                   (unsigned long long)cyc, (unsigned long long)w);
      fails++;
    }
    if (!tb::same_words(what, vec, got, exp, p->r_qwords)) fails++;
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

  for (unsigned v = 0; v < args.random; v++) {
    // mostly uniform operands, a few extreme ones (all ones, single bits)
    for (int k = 0; k < 2; k++) {
      uint64_t *x = k ? b : a;
      unsigned kind = v < 8 ? v % 4 : 0;
      tb::operand(p, rng, kind, x);
    }
    check("random", v);
    check_sym("sym definition", v, false);
    norm(a);
    norm(b);
    check_sym("sym random", v, true);
    rep.random++;
  }

  if (args.kat) {
    std::vector<tb::Record> recs = tb::read_kat(tb::kat_path(args));
    unsigned used = 0;
    for (auto &rec : recs) {
      if (used >= args.kat) break;
      const uint8_t *sk = rec["sk"].data(), *ct = rec["ct"].data(), *pk = rec["pk"].data();
      if (rec["sk"].size() != p->sk_bytes || rec["ct"].size() != p->ct_bytes) {
        std::fprintf(stderr, "KAT record sizes do not match level %d\n", args.level);
        return 2;
      }
      const uint8_t *h0 = sk + 8 * p->d;
      bike_poly_from_bytes(p, a, ct);
      bike_poly_from_bytes(p, b, h0);
      check("kat c0*h0", used);
      bike_poly_from_bytes(p, a, pk);
      check("kat h*h0", used);
      norm(a);
      bike_poly_from_bytes(p, b, h0);
      norm(b);
      check_sym("sym kat", used, true);
      rep.kat += 2;
      used++;
    }
  }

  std::printf("gf2x_mul L%d R=%u W=%d KaratsubaLevels=%d ParallelLevels=%d: %u random + %u KAT "
              "products (and %u symmetric), %u failures; cycles/mul %llu (formula %llu), "
              "symmetric %llu (formula %llu)\n",
              args.level, p->r, TB_W, TB_KL, TB_PL, rep.random, rep.kat, syms, fails,
              (unsigned long long)rep.cycles["mul"], (unsigned long long)want,
              (unsigned long long)rep.cycles["mul_sym"], (unsigned long long)want_sym);
  if (fails) return 1;
  rep.write(args.json);
  return 0;
}
