// Testbench of mlkem_sampler: every polynomial compared coefficient for
// coefficient with libmlkem's samplers (mlkem_sample_ntt_xn, and
// mlkem_sample_cbd on mlkem_prf; compiled into this testbench from
// lib/mlkem/src/poly.c and hash.c, on libbike's Keccak), reduced to [0, q),
// and its cycles with the formulas of doc/mlkem_sampler.md (tb_formula.h: SampleNTT
// per candidate count).
//
// Random vectors (--random): a random rho, (i, j) and sigma, N: SampleNTT,
// SamplePolyCBD_2 and _3, and SampleNTT again under random back-pressure
// (values only). ACVP vectors (--kat, up to 6): the key-generation tests of
// tests/mlkem/acvp/mlkem_acvp.txt (path: $MLKEM_ACVP, else relative to hw/,
// where the flow runs testbenches): (rho, sigma) = G(d || k), then the whole
// matrix A and the vectors s and e of K-PKE.KeyGen.
//
// Parameters from the build: -D TB_RPC (the RTL's RoundsPerCycle).
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "Vmlkem_sampler.h"
#include "tb_common.h"
#include "tb_formula.h"

extern "C" {
#include "hash.h"  // libmlkem's SHAKE128 XOF, PRF and G
#include "poly.h"  // libmlkem's samplers
}

#ifndef TB_RPC
#error "TB_RPC must be defined by the build"
#endif

namespace {

constexpr unsigned kN = 256, kQ = 3329;
enum Op : uint8_t { kOpNtt = 0, kOpCbd2 = 1, kOpCbd3 = 2 };

// SampleNTT: K candidates read up to the 256th accepted one (the XOF stream
// parsed here from libmlkem's sponge, independently of the RTL).
unsigned ntt_candidates(const uint8_t rho[32], uint8_t j, uint8_t i) {
  uint64_t s[1][25];
  const uint8_t ji[1][2] = {{j, i}};
  uint8_t buf[MLKEM_SHAKE128_RATE];
  mlkem_xof_absorb_xn(s, rho, ji, 1);
  unsigned k = 0, got = 0;
  for (;;) {
    mlkem_xof_read(buf, s[0]);
    for (unsigned b = 0; b < MLKEM_SHAKE128_RATE; b += 3) {
      const unsigned d[2] = {buf[b] | ((buf[b + 1] & 0xFu) << 8),
                             (buf[b + 1] >> 4) | ((unsigned)buf[b + 2] << 4)};
      for (unsigned h = 0; h < 2; h++) {
        k++;
        if (d[h] < kQ && ++got == kN) return k;
      }
    }
    mlkem_xof_next_xn(s, 1);
  }
}

using Poly = std::vector<uint32_t>;

struct Dut : tb::Model<Vmlkem_sampler> {
  // One operation; its 256 coefficients and the cycles from the start edge
  // to the last one's handshake. With `rng`, coef_ready_i is random.
  uint64_t run(Op op, const uint8_t seed[32], uint8_t b0, uint8_t b1, Poly &out,
               tb::Rng *rng = nullptr) {
    Vmlkem_sampler *d = m.get();
    tb::expect_idle_before_start(d);
    d->start_i = 1;
    d->op_i = op;
    for (unsigned w = 0; w < 8; w++) {
      uint32_t v = 0;
      for (unsigned b = 0; b < 4; b++) v |= (uint32_t)seed[4 * w + b] << (8 * b);
      d->seed_i[w] = v;
    }
    d->idx_i = (uint16_t)(b0 | (b1 << 8));
    d->coef_ready_i = 0;
    tb::tick(d);
    d->start_i = 0;
    tb::expect_started(d);
    out.assign(kN, 0);
    uint64_t cycles = 0;
    for (unsigned n = 0; n < kN;) {
      d->coef_ready_i = rng ? (rng->next() & 1) : 1;
      d->eval();
      const bool take = d->coef_valid_o && d->coef_ready_i;
      const uint32_t c = d->coef_o;
      const bool last = d->coef_last_o;
      tb::tick(d);
      cycles++;
      if (take) {
        if (last != (n == kN - 1)) tb::die("coef_last_o %d at coefficient %u\n", last, n);
        out[n++] = c;
      }
      if (cycles > 100000) tb::die("timeout after %u coefficients\n", n);
    }
    d->coef_ready_i = 0;
    tb::expect_idle_after(d, "after the last coefficient");
    return cycles;
  }
};

Poly reduced(const mlkem_poly &a) {
  Poly p(kN);
  for (unsigned i = 0; i < kN; i++) p[i] = (uint32_t)((a.c[i] % (int)kQ + (int)kQ) % (int)kQ);
  return p;
}

Poly ref_ntt(const uint8_t rho[32], uint8_t j, uint8_t i) {
  mlkem_poly a;
  const uint8_t ji[1][2] = {{j, i}};
  mlkem_sample_ntt_xn(&a, rho, ji, 1);
  return reduced(a);
}

Poly ref_cbd(const uint8_t sigma[32], uint8_t n, unsigned eta) {
  uint8_t buf[64 * 3];
  mlkem_poly a;
  mlkem_prf(buf, eta, sigma, n);
  mlkem_sample_cbd(&a, buf, eta);
  return reduced(a);
}

std::vector<uint8_t> unhex(const std::string &h) {
  std::vector<uint8_t> v(h.size() / 2);
  for (size_t i = 0; i < v.size(); i++) v[i] = (uint8_t)std::stoul(h.substr(2 * i, 2), nullptr, 16);
  return v;
}

struct Keygen {
  unsigned set;            // 512, 768, 1024
  std::vector<uint8_t> d;  // the seed d
};

std::vector<Keygen> acvp_keygens() {
  const char *env = std::getenv("MLKEM_ACVP");
  const std::string path = env ? env : "../tests/mlkem/acvp/mlkem_acvp.txt";
  std::ifstream f(path);
  if (!f) tb::die("cannot read %s\n", path.c_str());
  std::vector<Keygen> out;
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream ls(line);
    std::string kind, tc, d;
    unsigned set = 0;
    if (ls >> kind >> set >> tc >> d && kind == "keygen") out.push_back({set, unhex(d)});
  }
  if (out.empty()) tb::die("no keygen vectors in %s\n", path.c_str());
  return out;
}

}  // namespace

int main(int argc, char **argv) {
  tb::Bench bench(argc, argv);
  Dut dut;
  unsigned polys = 0;

  auto same = [&](const char *what, unsigned v, const Poly &got, const Poly &exp) {
    for (unsigned i = 0; i < kN; i++)
      if (got[i] != exp[i]) {
        bench.fail("MISMATCH %s vector %u: coefficient %u is %u, expected %u\n", what, v, i,
                   got[i], exp[i]);
        return;
      }
  };
  auto ntt = [&](const char *what, unsigned v, const uint8_t rho[32], uint8_t j, uint8_t i) {
    Poly got;
    const std::string op = "sample_ntt/" + std::to_string(ntt_candidates(rho, j, i));
    bench.cycles("sample_ntt", what, v, dut.run(kOpNtt, rho, j, i, got),
                 tb::formula(bench.args.level, op));
    same(what, v, got, ref_ntt(rho, j, i));
    polys++;
  };
  auto cbd = [&](const char *what, unsigned v, const uint8_t sigma[32], uint8_t n, unsigned eta) {
    Poly got;
    const char *op = eta == 2 ? "cbd2" : "cbd3";
    bench.cycles(op, what, v, dut.run(eta == 2 ? kOpCbd2 : kOpCbd3, sigma, n, 0, got),
                 tb::formula(bench.args.level, op));
    same(what, v, got, ref_cbd(sigma, n, eta));
    polys++;
  };

  bench.random(1, [&](unsigned v) {
    uint8_t rho[32], sigma[32];
    bench.rng.bytes(rho, 32);
    bench.rng.bytes(sigma, 32);
    const uint8_t j = (uint8_t)bench.rng.next(), i = (uint8_t)bench.rng.next();
    const uint8_t n = (uint8_t)bench.rng.next();
    ntt("SampleNTT random", v, rho, j, i);
    cbd("CBD_2 random", v, sigma, n, 2);
    cbd("CBD_3 random", v, sigma, n, 3);
    Poly got;
    dut.run(kOpNtt, rho, j, i, got, &bench.rng);
    same("SampleNTT random back-pressure", v, got, ref_ntt(rho, j, i));
    polys++;
  });

  std::vector<Keygen> kg;
  if (bench.args.kat) kg = acvp_keygens();
  for (unsigned t = 0; t < bench.args.kat && t < kg.size(); t++) {
    // K-PKE.KeyGen's sampling: (rho, sigma) = G(d || k), A, s, e
    const unsigned set = kg[t].set, k = set / 256, eta1 = set == 512 ? 3 : 2;
    const uint8_t kbyte = (uint8_t)k;
    uint8_t rs[64];
    mlkem_hash_g(rs, kg[t].d.data(), 32, &kbyte, 1);
    for (unsigned i = 0; i < k; i++)
      for (unsigned j = 0; j < k; j++) ntt("SampleNTT ACVP keygen", t, rs, (uint8_t)j, (uint8_t)i);
    for (unsigned n = 0; n < 2 * k; n++) cbd("CBD ACVP keygen", t, rs + 32, (uint8_t)n, eta1);
    bench.rep.kat++;
  }

  std::printf("mlkem_sampler RoundsPerCycle=%d: %u random + %u ACVP keygen vectors (%u polynomials), "
              "%u failures; cycles (max) sample_ntt %llu, cbd2 %llu, cbd3 %llu\n",
              TB_RPC, bench.rep.random, bench.rep.kat, polys, bench.fails,
              (unsigned long long)bench.rep.cycles["sample_ntt"],
              (unsigned long long)bench.rep.cycles["cbd2"],
              (unsigned long long)bench.rep.cycles["cbd3"]);
  return bench.finish();
}
