// Testbench of sparse_mul, binary (TB_COUNTS = 0, against libbike's
// bike_gf2x_mul_sparse), integer (TB_COUNTS = 1, against bike_upc) or both
// (TB_DUAL = 1: the counts on a, then the product of the same positions with a
// second operand b, given as soon as the unit takes it): every result bit or
// count is compared, and every operation's cycle count with the formula of
// doc/sparse_mul.md (tb_formula.h).
// Random inputs: D distinct positions (the first vectors include 0 and r-1),
// dense operands uniform, all ones, single bits. KAT-derived inputs (per
// record, the supports h0 and h1 of the secret key): binary c0 * h0 (the
// decapsulation syndrome) and c0 * h1; integer the counts of h0 and of h1 on
// the syndrome s = c0 h0, the first counts the BGF decoder computes.
//
// KAT-derived in the dual mode: counts on s = c0 h0, then c0 h_b.
// Integer units start their counters at bias_i: the odd random vectors give
// a random bias (counts mod 2^K, positions >= r hold the bias), the others 0.
//
// Parameters from the build: -D TB_W, TB_P, TB_COUNTS, TB_DUAL (R, D: -GR -GD;
// Prefetch and Tile reach the cycles through tb_cycles.h).
#include "Vsparse_mul.h"
#include "tb_common.h"
#include "tb_formula.h"
#include "tb_stream.h"

#ifndef TB_W
#error "TB_W, TB_P and TB_COUNTS must be defined by the build"
#endif
#ifndef TB_DUAL
#define TB_DUAL 0
#endif

static unsigned kbits(uint32_t d) {
  unsigned k = 0;
  while ((1u << k) < d + 1) k++;
  return k;
}

template <typename T>
static uint32_t field(const T &s, unsigned lo, unsigned k) {  // VlWide
  uint32_t v = 0;
  for (unsigned b = 0; b < k; b++) v |= ((s[(lo + b) / 32] >> ((lo + b) % 32)) & 1u) << b;
  return v;
}

struct Dut : tb::Model<Vsparse_mul> {
  // binary result in c (words), or counts in cnt; dual: counts on a in cnt,
  // then the product with b in c
  uint64_t run(const bike_params *p, uint64_t *c, uint8_t *cnt, const uint32_t *idx,
               const uint64_t *a, const uint64_t *b, uint32_t bias) {
    size_t nq = p->r_qwords, n = (p->r + TB_W - 1) / TB_W;
    std::memset(c, 0, sizeof(uint64_t) * (BIKE_MAX_QWORDS + 2));
    Vsparse_mul *d = m.get();
    d->start_i = 1;
    d->rounds_i = (p->d + TB_P - 1) / TB_P;  // every round (G)
    d->prod_i = 0;
    d->bias_i = bias;
    d->idx_valid_i = 0;
    d->in_valid_i = 0;
    tb::tick(d);
    d->start_i = 0;
    d->bias_i = ~bias & ((1u << kbits(p->d)) - 1);  // sampled with start_i only
    const size_t nld = TB_DUAL ? 2 * n : n;  // words in and out (dual: a, then b)
    const unsigned k = kbits(p->d);
    tb::Streams s(nld, nld, 10000000ull, p->d);
    unsigned lasts = 0;
    for (;;) {
      bool ti = s.offer_idx(d->idx_ready_o);
      if (ti) d->idx_i = idx[s.idx];
      d->idx_en_i = 1;
      d->idx_valid_i = ti;
      bool ta = s.offer_in(d->in_ready_o);
      if (ta) {
        if (s.in < n) tbw::put(d->in_data_i, a, s.in, nq);
        else tbw::put(d->in_data_i, b, s.in - n, nq);
      }
      d->in_valid_i = ta;
      tb::tick(d);
      s.edge(ta, ti);
      if (d->out_valid_o) {
        size_t out = s.result();
#if TB_DUAL
        if (out >= n) {  // the product: the low W bits of the counts' port
          for (unsigned q = 0; q < (unsigned)TB_W / 32; q++)
            tbw::set32(c, (TB_W / 32) * (out - n) + q, d->out_data_o[q]);
        } else
#endif
#if TB_COUNTS
        for (unsigned b = 0; b < (unsigned)TB_W; b++) {
          size_t j = out * TB_W + b;
          uint32_t v = field(d->out_data_o, b * k, k);
          if (j < p->r) cnt[j] = (uint8_t)v;
          else if (v != bias) tb::die("count %u at position %zu >= r (bias %u)\n", v, j, bias);
        }
#else
        tbw::get(d->out_data_o, c, out);
#endif
      }
      if (d->out_last_o && ++lasts == (TB_DUAL ? 2u : 1u)) break;
    }
    s.check_lengths();
    d->in_valid_i = 0;
    tb::tick(d);
    tb::tick(d);
    tb::expect_idle_after(d, "two cycles after the last word");
    return s.cycles;
  }
};

int main(int argc, char **argv) {
  tb::Bench bench(argc, argv);
  const bike_params *p = bench.p;
  Dut dut;
  static uint64_t a[BIKE_MAX_QWORDS + 2], b[BIKE_MAX_QWORDS + 2], got[BIKE_MAX_QWORDS + 2],
      exp[BIKE_MAX_QWORDS + 2];
  static uint8_t gcnt[BIKE_MAX_R + 64], ecnt[BIKE_MAX_R + 64];
  std::vector<uint32_t> idx(p->d);
  const char *op = TB_DUAL ? "upc_then_mul_sparse" : TB_COUNTS ? "upc" : "mul_sparse";
  const uint64_t want = tb::formula(bench.args.level, op);

  const uint32_t kmask = (1u << kbits(p->d)) - 1;
  auto check = [&](const char *what, unsigned vec, uint32_t bias) {
    std::memset(gcnt, 0xee, sizeof(gcnt));
    uint64_t cyc = dut.run(p, got, gcnt, idx.data(), a, b, bias);
    bench.cycles(op, what, vec, cyc, want);
#if TB_COUNTS
    bike_upc(p, ecnt, idx.data(), p->d, a);
    for (uint32_t j = 0; j < p->r; j++) ecnt[j] = (uint8_t)((ecnt[j] + bias) & kmask);
    bench.bytes(what, vec, gcnt, ecnt, p->r);
#endif
#if TB_DUAL || !TB_COUNTS
    bike_gf2x_mul_sparse(p, exp, idx.data(), p->d, TB_DUAL ? b : a);
    bench.words(what, vec, got, exp, p->r_qwords);
#endif
  };

  bench.random(1, [&](unsigned v) {
    // distinct positions; the first vectors hold 0 and r - 1
    idx = tb::distinct(bench.rng, p->d, p->r, v < 4 ? std::vector<uint32_t>{0, p->r - 1}
                                                    : std::vector<uint32_t>{});
    unsigned kind = v < 8 ? v % 4 : 0;
    tb::operand(p, bench.rng, kind, a);
    if (TB_DUAL) tb::operand(p, bench.rng, 3 - kind, b);
    check("random", v, (TB_COUNTS && (v & 1)) ? (uint32_t)bench.rng.next() & kmask : 0);
  });

  // per record: the supports of h0 and h1, each a KAT vector
  static uint64_t c0[BIKE_MAX_QWORDS + 2], h0[BIKE_MAX_QWORDS + 2], s[BIKE_MAX_QWORDS + 2];
  bench.kat(2, [&](tb::Record &rec, unsigned k) {
    tb::check_sizes(p, rec, {"sk", "ct"});
    bike_poly_from_bytes(p, c0, rec["ct"].data());
    tb::sk_h0(p, rec["sk"].data(), h0);
    bike_gf2x_mul(p, s, c0, h0);
    for (unsigned blk = 0; blk < 2; blk++) {
      tb::sk_support(p, rec["sk"].data(), blk, idx.data());
      std::memcpy(a, TB_COUNTS ? s : c0, sizeof(uint64_t) * p->r_qwords);
      std::memcpy(b, c0, sizeof(uint64_t) * p->r_qwords);
      check(blk ? "kat h1" : "kat h0", k, 0);
    }
  });

  std::printf("sparse_mul (%s) L%d R=%u D=%u W=%d P=%d: %u random + %u KAT results, %u failures; "
              "cycles/op %llu (formula %llu)\n",
              op, bench.args.level, p->r, p->d, TB_W, TB_P, bench.rep.random, bench.rep.kat,
              bench.fails, (unsigned long long)bench.rep.cycles[op], (unsigned long long)want);
  return bench.finish();
}
