// Testbench of bike_decoder: the decoded error (e0, e1) and the success flag
// are compared bit-exact with libbike's bike_decode, and every operation's
// cycle count with the formula of doc/bike_decoder.md (tb_formula.h; constant time: one
// value for every input).
// KAT-derived inputs: the syndrome s = c0 h0 of each record's ciphertext with
// the record's secret supports (what Decaps decodes). "Random" inputs: real
// KAT keys (cycled) with a random error of weight t + x, x = 0 .. 63 cycling,
// s = e0 h0 + e1 h1: the heavier errors need more iterations or cannot be
// decoded; vectors 1 and 3 of every 8 are made heavy (see below) so that the
// threshold goes past the decoder's cap. For every vector the number of iterations libbike needs (the
// least NbIter for which it succeeds, 1..5, or "fails") is counted and
// printed, so that the run shows vectors needing every iteration.
// Products (mul_i, bike_kem's h1 h0^-1, e1 h, c0 h0), each vector before its
// decoding: the D positions of h0 with the operand c0 (KAT) or a random one,
// and T random positions of which a random subset is masked (e1 h), against
// libbike's bike_gf2x_mul_sparse with the enabled positions.
//
// Parameters from the build: -D TB_W, TB_P (R, D: -GR -GD; Prefetch and Tile
// reach the cycles through tb_cycles.h).
#include "Vbike_decoder.h"
#include "tb_common.h"
#include "tb_formula.h"
#include "tb_stream.h"

#ifndef TB_W
#error "TB_W and TB_P must be defined by the build"
#endif

struct Dut : tb::Model<Vbike_decoder> {
  // One operation: np positions (idx, en; a product marks the last), then the
  // N words of a; result word k lands in word k % N of blk[k / N] (a
  // decoding gives e0 then e1, both from bit 0 of their block; a product c).
  uint64_t op(const bike_params *p, bool mul, const uint32_t *idx, const uint8_t *en, size_t np,
              const uint64_t *a, uint64_t *const *blk, size_t nblk) {
    size_t nq = p->r_qwords, n = (p->r + TB_W - 1) / TB_W;
    for (size_t b = 0; b < nblk; b++)
      std::memset(blk[b], 0, sizeof(uint64_t) * (BIKE_MAX_QWORDS + 4));
    Vbike_decoder *d = m.get();
    d->start_i = 1;
    d->mul_i = mul;
    d->idx_en_i = 0;
    d->idx_last_i = 0;
    d->idx_valid_i = 0;
    d->in_valid_i = 0;
    tb::tick(d);
    d->start_i = 0;
    d->mul_i = 0;
    tb::Streams s(n, nblk * n, 100000000ull, np);
    for (;;) {
      bool ti = s.offer_idx(d->idx_ready_o);
      if (ti) {
        d->idx_i = idx[s.idx];
        d->idx_en_i = en[s.idx];
        d->idx_last_i = mul && s.idx == np - 1;
      }
      d->idx_valid_i = ti;
      bool ta = s.offer_in(d->in_ready_o);
      if (ta) tbw::put(d->in_data_i, a, s.in, nq);
      d->in_valid_i = ta;
      tb::tick(d);
      s.edge(ta, ti);
      if (d->out_valid_o) {
        size_t out = s.result();
        tbw::get(d->out_data_o, blk[out / n], out % n);
      }
      if (d->out_last_o) break;
    }
    s.check_lengths();
    d->idx_valid_i = 0;
    d->idx_last_i = 0;
    d->in_valid_i = 0;
    tb::tick(d);
    tb::tick(d);
    tb::expect_idle_after(d, "two cycles after the last word");
    return s.cycles;
  }

  uint64_t run(const bike_params *p, uint64_t *e0, uint64_t *e1, uint64_t *ok, const uint64_t *s,
               const uint32_t *h0, const uint32_t *h1) {
    std::vector<uint32_t> idx(h0, h0 + p->d);
    idx.insert(idx.end(), h1, h1 + p->d);
    std::vector<uint8_t> en(2 * p->d, 1);
    uint64_t *blk[2] = {e0, e1};
    uint64_t cycles = op(p, false, idx.data(), en.data(), idx.size(), s, blk, 2);
    *ok = m->ok_o ? ~(uint64_t)0 : 0;
    return cycles;
  }

  // c = (sum of x^idx[i] with en[i]) a
  uint64_t mul(const bike_params *p, uint64_t *c, const uint32_t *idx, const uint8_t *en,
               size_t np, const uint64_t *a) {
    uint64_t *blk[1] = {c};
    return op(p, true, idx, en, np, a, blk, 1);
  }
};

int main(int argc, char **argv) {
  tb::Bench bench(argc, argv);
  const bike_params *p = bench.p;
  Dut dut;
  static uint64_t s[BIKE_MAX_QWORDS + 2], c0[BIKE_MAX_QWORDS + 2], h0[BIKE_MAX_QWORDS + 2];
  static uint64_t h1[BIKE_MAX_QWORDS + 2], e0[BIKE_MAX_QWORDS + 2], e1[BIKE_MAX_QWORDS + 2];
  static uint64_t t0[BIKE_MAX_QWORDS + 2], t1[BIKE_MAX_QWORDS + 2];
  static uint64_t x0[BIKE_MAX_QWORDS + 2], x1[BIKE_MAX_QWORDS + 2];
  static uint64_t g0[BIKE_MAX_QWORDS + 4], g1[BIKE_MAX_QWORDS + 4];
  std::vector<uint32_t> i0(p->d), i1(p->d);
  const uint64_t want = tb::formula(bench.args.level, "decode");
  unsigned needed[7] = {0};  // [k] = vectors decoded in k iterations, [6] = failures

  // the products of a vector: h0 (D positions) times a, and T random
  // positions, a random subset masked, times a
  static uint64_t pa[BIKE_MAX_QWORDS + 4], pg[BIKE_MAX_QWORDS + 4], pe[BIKE_MAX_QWORDS + 4];
  auto check_mul = [&](const char *what, unsigned vec, const uint32_t *idx, const uint8_t *en,
                       size_t m, const char *op) {
    uint64_t cyc = dut.mul(p, pg, idx, en, m, pa);
    bench.cycles(op, what, vec, cyc, tb::formula(bench.args.level, op));
    std::vector<uint32_t> on;
    for (size_t i = 0; i < m; i++)
      if (en[i]) on.push_back(idx[i]);
    bike_gf2x_mul_sparse(p, pe, on.data(), (uint32_t)on.size(), pa);
    bench.words(op, vec, pg, pe, p->r_qwords);
  };
  auto products = [&](const char *what, unsigned vec, const uint64_t *a) {
    std::memcpy(pa, a, p->r_qwords * sizeof(uint64_t));
    std::vector<uint8_t> en(p->t, 1);
    check_mul(what, vec, i0.data(), en.data(), p->d, "mul_d");
    std::vector<uint32_t> pos = tb::distinct(bench.rng, p->t, p->r);
    for (size_t i = 0; i < p->t; i++) en[i] = (uint8_t)(bench.rng.next() & 1);
    check_mul(what, vec, pos.data(), en.data(), p->t, "mul_t");
  };

  auto check = [&](const char *what, unsigned vec) {
    uint64_t eok = bike_decode(p, x0, x1, s, i0.data(), i1.data());
    unsigned k = 6;
    for (unsigned it = 1; it <= p->nb_iter; it++) {
      bike_params q = *p;
      q.nb_iter = it;
      if (bike_decode(&q, t0, t1, s, i0.data(), i1.data())) {
        k = it;
        break;
      }
    }
    needed[k]++;
    uint64_t gok = 0;
    uint64_t cyc = dut.run(p, g0, g1, &gok, s, i0.data(), i1.data());
    bench.cycles("decode", what, vec, cyc, want);
    if (!(tb::same_words(what, vec, g0, x0, p->r_qwords) &&
          tb::same_words(what, vec, g1, x1, p->r_qwords)))
      bench.fail("  (e0/e1 of %s %u, libbike needs %u iterations)\n", what, vec, k);
    if (gok != eok)
      bench.fail("MISMATCH %s vector %u: ok %d, expected %d\n", what, vec, gok != 0, eok != 0);
  };

  // the key of a record: its supports and h0, h1
  auto key = [&](tb::Record &rec) {
    tb::check_sizes(p, rec, {"sk", "ct"});
    tb::sk_support(p, rec["sk"].data(), 0, i0.data());
    tb::sk_support(p, rec["sk"].data(), 1, i1.data());
    bike_poly_from_indices(p, h0, i0.data(), p->d);
    bike_poly_from_indices(p, h1, i1.data(), p->d);
  };

  bench.random(1, [&](unsigned v) {
    std::vector<tb::Record> &recs = bench.records();
    key(recs[v % recs.size()]);
    std::vector<uint32_t> pos = tb::distinct(bench.rng, p->t + (v % 64), 2 * p->r);
    std::memset(e0, 0, sizeof(e0));
    std::memset(e1, 0, sizeof(e1));
    for (uint32_t x : pos) {
      uint64_t *e = x < p->r ? e0 : e1;
      uint32_t j = x < p->r ? x : x - p->r;
      e[j / 64] |= 1ull << (j % 64);
    }
    bike_gf2x_mul(p, t0, e0, h0);
    bike_gf2x_mul(p, t1, e1, h1);
    for (uint32_t q = 0; q < p->r_qwords; q++) s[q] = t0[q] ^ t1[q];
    // heavy syndromes, whose threshold exceeds D + 1 + tau (the decoder caps
    // it there): all ones (v % 8 == 1), or s OR random bits (v % 8 == 3)
    if (v % 8 == 1 || v % 8 == 3) {
      for (uint32_t q = 0; q < p->r_qwords; q++) s[q] |= (v % 8 == 1) ? ~0ull : bench.rng.next();
      s[p->r_qwords - 1] &= (1ull << (p->r % 64)) - 1;
    }
    tb::operand(p, bench.rng, v < 8 ? v % 4 : 0, t0);
    products("random", v, t0);
    check("random", v);
  });

  bench.kat(1, [&](tb::Record &rec, unsigned k) {
    key(rec);
    bike_poly_from_bytes(p, c0, rec["ct"].data());
    bike_gf2x_mul(p, s, c0, h0);
    products("kat", k, c0);
    check("kat", k);
  });

  std::printf("bike_decoder L%d R=%u D=%u W=%d P=%d: %u random + %u KAT syndromes, %u failures; "
              "cycles/decode %llu (formula %llu), product of D %llu, of T %llu; iterations "
              "libbike needs: 1:%u 2:%u 3:%u 4:%u 5:%u failing:%u\n",
              bench.args.level, p->r, p->d, TB_W, TB_P, bench.rep.random, bench.rep.kat,
              bench.fails, (unsigned long long)bench.rep.cycles["decode"],
              (unsigned long long)want, (unsigned long long)bench.rep.cycles["mul_d"],
              (unsigned long long)bench.rep.cycles["mul_t"], needed[1], needed[2], needed[3],
              needed[4], needed[5], needed[6]);
  return bench.finish();
}
