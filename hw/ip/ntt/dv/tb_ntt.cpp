// Testbench of ntt: forward and inverse transform and base multiplication,
// each result compared coefficient for coefficient with a C reference of the
// same (N, Q, P, reduction), and for ML-KEM's ring (N = 256, Q = 3329, P = 1)
// with libmlkem's kernels (mlkem_ntt_c, mlkem_invntt_c, mlkem_basemul_acc_c,
// compiled into this testbench from lib/mlkem/src/ntt.c) reduced to [0, q).
// Each vector also multiplies two polynomials on the hardware (NTT, NTT,
// base multiplication, inverse NTT) and compares the product with the
// schoolbook product mod X^N + 1, and every operation's cycles with the
// formulas of doc/ntt.md (tb_formula.h).
//
// Parameters from the build: -D TB_N, TB_Q, TB_P, TB_ZETA, TB_B, TB_RED,
// TB_MONT (the RTL's N, Q, P, Zeta, B, Red, MontBits).
#include <vector>

#include "Vntt.h"
#include "tb_common.h"
#include "tb_formula.h"

extern "C" {
#include "ntt.h"  // libmlkem's portable kernels
}

#if !defined(TB_N) || !defined(TB_Q) || !defined(TB_P) || !defined(TB_ZETA) || \
    !defined(TB_B) || !defined(TB_RED) || !defined(TB_MONT)
#error "TB_N, TB_Q, TB_P, TB_ZETA, TB_B, TB_RED and TB_MONT must be defined by the build"
#endif

namespace {

using Poly = std::vector<uint32_t>;

constexpr unsigned kN = TB_N, kB = TB_B;
constexpr uint32_t kQ = TB_Q;
constexpr unsigned kNz = kN >> TB_P;  // twiddle table entries
constexpr unsigned kLgNz = __builtin_ctz(kNz);
constexpr unsigned kQW = 32 - __builtin_clz(kQ - 1);  // $clog2(Q)
constexpr unsigned kWords = kN / kB;
static_assert(kB * kQW <= 64, "host words up to 64 bits");

uint32_t mulq(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)a * b % kQ); }
uint32_t addq(uint32_t a, uint32_t b) { return (a + b) % kQ; }
uint32_t subq(uint32_t a, uint32_t b) { return (a + kQ - b) % kQ; }
uint32_t powq(uint32_t b, uint64_t e) {
  uint32_t r = 1;
  for (; e; e >>= 1, b = mulq(b, b))
    if (e & 1) r = mulq(r, b);
  return r;
}
uint32_t invq(uint32_t a) { return powq(a, kQ - 2); }
unsigned bitrev(unsigned i, unsigned bits) {
  unsigned r = 0;
  for (unsigned b = 0; b < bits; b++) r = (r << 1) | ((i >> b) & 1);
  return r;
}

// F, the factor the reduction leaves in a product (rtl/ntt_pkg.sv)
uint32_t factor() {
  if (TB_RED == 1) return invq(powq(2, TB_MONT));
  if (TB_RED == 2) {
    uint32_t k = kQ - 1;
    while (k % 2 == 0) k /= 2;
    return mulq(k, k);
  }
  return 1;
}
const uint32_t kF = factor(), kFinv = invq(kF);

uint32_t zeta(unsigned k) { return powq(TB_ZETA, bitrev(k, kLgNz)); }

// FIPS 203 algorithm 9 on any (N, Q, P): len N/2 .. 2^P
Poly ntt_ref(Poly a) {
  unsigned k = 1;
  for (unsigned len = kN / 2; len >= (1u << TB_P); len >>= 1)
    for (unsigned s = 0; s < kN; s += 2 * len) {
      uint32_t z = zeta(k++);
      for (unsigned j = s; j < s + len; j++) {
        uint32_t t = mulq(z, a[j + len]);
        a[j + len] = subq(a[j], t);
        a[j] = addq(a[j], t);
      }
    }
  return a;
}

// algorithm 10, times F^-1 (the hardware's OpIntt)
Poly intt_ref(Poly a) {
  unsigned k = kNz - 1;
  for (unsigned len = 1u << TB_P; len <= kN / 2; len <<= 1)
    for (unsigned s = 0; s < kN; s += 2 * len) {
      uint32_t z = zeta(k--);
      for (unsigned j = s; j < s + len; j++) {
        uint32_t t = a[j];
        a[j] = addq(t, a[j + len]);
        a[j + len] = mulq(z, subq(a[j + len], t));
      }
    }
  uint32_t sc = mulq(invq(kNz), kFinv);
  for (auto &x : a) x = mulq(x, sc);
  return a;
}

// algorithm 11 (P = 1) or coefficient-wise products, times F
Poly mul_ref(const Poly &a, const Poly &b) {
  Poly r(kN);
  if (TB_P) {
    for (unsigned i = 0; i < kN / 2; i++) {
      uint32_t g = zeta(kNz / 2 + i / 2);
      if (i & 1) g = subq(0, g);
      uint32_t a0 = a[2 * i], a1 = a[2 * i + 1], b0 = b[2 * i], b1 = b[2 * i + 1];
      r[2 * i] = mulq(addq(mulq(a0, b0), mulq(mulq(a1, b1), g)), kF);
      r[2 * i + 1] = mulq(addq(mulq(a0, b1), mulq(a1, b0)), kF);
    }
  } else {
    for (unsigned i = 0; i < kN; i++) r[i] = mulq(mulq(a[i], b[i]), kF);
  }
  return r;
}

// a b mod X^N + 1
Poly schoolbook(const Poly &a, const Poly &b) {
  Poly r(kN, 0);
  for (unsigned i = 0; i < kN; i++)
    for (unsigned j = 0; j < kN; j++) {
      uint32_t p = mulq(a[i], b[j]);
      unsigned k = i + j;
      r[k % kN] = k < kN ? addq(r[k], p) : subq(r[k - kN], p);
    }
  return r;
}

// libmlkem's kernels on canonical inputs, their outputs in [0, q) and
// brought to the hardware's factors (invntt: R = 2^16 -> F^-1; basemul:
// R^-1 -> F)
constexpr bool kMlkem = kN == 256 && kQ == 3329 && TB_P == 1;

Poly freeze(const int16_t *x) {
  Poly r(kN);
  for (unsigned i = 0; i < kN; i++) r[i] = (uint32_t)((x[i] % (int)kQ + (int)kQ) % (int)kQ);
  return r;
}
void to_i16(const Poly &a, int16_t *x) {
  for (unsigned i = 0; i < kN; i++) x[i] = (int16_t)a[i];
}
Poly scaled(Poly a, uint32_t c) {
  for (auto &x : a) x = mulq(x, c);
  return a;
}
Poly mlkem_ntt(const Poly &a) {
  int16_t x[256];
  to_i16(a, x);
  mlkem_ntt_c(x);
  return freeze(x);
}
Poly mlkem_intt(const Poly &a) {
  int16_t x[256];
  to_i16(a, x);
  mlkem_invntt_c(x);
  return scaled(freeze(x), mulq(invq(powq(2, 16)), kFinv));
}
Poly mlkem_mul(const Poly &a, const Poly &b) {
  int16_t x[1][256], y[1][256], r[256];
  to_i16(a, x[0]);
  to_i16(b, y[0]);
  mlkem_basemul_acc_c(r, x, y, 1);
  return scaled(freeze(r), mulq(powq(2, 16), kF));
}

struct Dut : tb::Model<Vntt> {
  void write(bool poly, const Poly &a) {
    Vntt *d = m.get();
    for (unsigned w = 0; w < kWords; w++) {
      uint64_t word = 0;
      for (unsigned i = 0; i < kB; i++) word |= (uint64_t)a[w * kB + i] << (i * kQW);
      d->host_req_i = 1;
      d->host_we_i = 1;
      d->host_poly_i = poly;
      d->host_addr_i = w;
      d->host_wdata_i = word;
      tb::tick(d);
    }
    d->host_req_i = 0;
    d->host_we_i = 0;
  }
  Poly read(bool poly) {
    Vntt *d = m.get();
    Poly a(kN);
    for (unsigned w = 0; w < kWords; w++) {
      d->host_req_i = 1;
      d->host_we_i = 0;
      d->host_poly_i = poly;
      d->host_addr_i = w;
      tb::tick(d);
      uint64_t word = d->host_rdata_o;
      for (unsigned i = 0; i < kB; i++) a[w * kB + i] = (uint32_t)(word >> (i * kQW)) & ((1u << kQW) - 1);
    }
    d->host_req_i = 0;
    return a;
  }
  // one operation; its cycles (busy_o high)
  uint64_t run(unsigned op) {
    Vntt *d = m.get();
    tb::expect_idle_before_start(d);
    d->op_i = op;
    d->start_i = 1;
    tb::tick(d);
    d->start_i = 0;
    tb::expect_started(d);
    uint64_t cycles = 0;
    while (d->busy_o) {
      tb::tick(d);
      if (++cycles > 1000000) tb::die("ntt: no return to idle\n");
    }
    return cycles;
  }
};

}  // namespace

int main(int argc, char **argv) {
  tb::Bench bench(argc, argv);
  Dut dut;
  const uint64_t ntt_cycles = tb::formula(bench.args.level, "ntt");
  const uint64_t intt_cycles = tb::formula(bench.args.level, "intt");
  const uint64_t mul_cycles = tb::formula(bench.args.level, "basemul");
  unsigned ops = 0;

  auto same = [&](const char *what, unsigned v, const Poly &got, const Poly &exp) {
    for (unsigned i = 0; i < kN; i++)
      if (got[i] != exp[i]) {
        bench.fail("MISMATCH %s vector %u: coefficient %u is %u, expected %u\n", what, v, i,
                   got[i], exp[i]);
        return;
      }
  };
  auto op = [&](const char *name, unsigned code, unsigned v, uint64_t want) {
    bench.cycles(name, "random", v, dut.run(code), want);
    ops++;
  };

  bench.random(1, [&](unsigned v) {
    Poly a(kN), b(kN), r(kN);
    for (unsigned i = 0; i < kN; i++) {
      // vector 0: all q - 1; vector 1: a single one; then uniform
      a[i] = v == 0 ? kQ - 1 : v == 1 ? (i == 0) : (uint32_t)(bench.rng.next() % kQ);
      b[i] = v == 0 ? kQ - 1 : (uint32_t)(bench.rng.next() % kQ);
      r[i] = (uint32_t)(bench.rng.next() % kQ);
    }
    // a -> NTT(a), b -> NTT(b)
    dut.write(0, a);
    op("ntt", 0, v, ntt_cycles);
    Poly ah = dut.read(0);
    same("ntt(a) vs reference", v, ah, ntt_ref(a));
    if (kMlkem) same("ntt(a) vs mlkem_ntt_c", v, ah, mlkem_ntt(a));
    dut.write(0, b);
    op("ntt", 0, v, ntt_cycles);
    Poly bh = dut.read(0);
    same("ntt(b) vs reference", v, bh, ntt_ref(b));
    // base multiplication, then the inverse: the product mod X^N + 1
    dut.write(0, ah);
    dut.write(1, bh);
    op("basemul", 2, v, mul_cycles);
    Poly ch = dut.read(0);
    same("basemul vs reference", v, ch, mul_ref(ah, bh));
    if (kMlkem) same("basemul vs mlkem_basemul_acc_c", v, ch, mlkem_mul(ah, bh));
    op("intt", 1, v, intt_cycles);
    Poly c = dut.read(0);
    same("intt(basemul) vs reference", v, c, intt_ref(ch));
    same("intt(ntt(a) o ntt(b)) vs schoolbook a b", v, c, schoolbook(a, b));
    // the inverse of a uniform polynomial
    dut.write(0, r);
    op("intt", 1, v, intt_cycles);
    Poly ri = dut.read(0);
    same("intt(r) vs reference", v, ri, intt_ref(r));
    if (kMlkem) same("intt(r) vs mlkem_invntt_c", v, ri, mlkem_intt(r));
  });

  std::printf("ntt N=%u Q=%u P=%d B=%u Red=%d: %u random vectors (%u operations), %u failures; "
              "cycles ntt %llu (formula %llu), intt %llu (%llu), basemul %llu (%llu)\n",
              kN, kQ, TB_P, kB, TB_RED, bench.rep.random, ops, bench.fails,
              (unsigned long long)bench.rep.cycles["ntt"], (unsigned long long)ntt_cycles,
              (unsigned long long)bench.rep.cycles["intt"], (unsigned long long)intt_cycles,
              (unsigned long long)bench.rep.cycles["basemul"], (unsigned long long)mul_cycles);
  return bench.finish();
}
