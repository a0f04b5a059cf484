// Testbench of ntt_acc (the NTT behind the accelerator shell, ML-KEM preset),
// driven only through its AXI4-Lite and AXI4-Stream ports (tb_axi.h), with
// the offsets, masks and codes of the generated C header.
//
// Checks what is the device's own (the shell's common behaviour is
// tb_acc_shell's): ID.CORE and PARAM (q); WORDS of each operation (NTT and
// INTT one polynomial in, BASEMUL two, one out); unknown operations refused
// with OP; a coefficient at or above q ends with CORE, its words delivered,
// in the first and in the second polynomial; BASEMUL's stream cut after its
// first polynomial is short (IN_SHORT), no result word leaves; a right result
// after each. Then NTT, INTT and BASEMUL of random polynomials (all q - 1,
// all 0, a single one, then uniform) bit-exact against libmlkem's portable
// kernels (mlkem_ntt_c, mlkem_invntt_c, mlkem_basemul_acc_c with k = 1,
// outputs reduced to [0, q): the hardware's Montgomery factors are
// libmlkem's), every other operation with random gaps on every handshake,
// and CYCLES of each operation without gaps against the formula of
// doc/acc_shell.md (tb_formula.h).
#include <cstddef>
#include <memory>

#include "Vntt_acc.h"
#include "acc_shell_enums.h"
#include "acc_shell_regs.h"
#include "tb_axi.h"
#include "tb_common.h"
#include "tb_formula.h"
#include "verilated.h"

extern "C" {
#include "ntt.h"  // libmlkem's portable kernels
}

namespace {

constexpr uint16_t kId = offsetof(acc_shell_t, ID);
constexpr uint16_t kParam = offsetof(acc_shell_t, PARAM);
constexpr uint16_t kCtrl = offsetof(acc_shell_t, CTRL);
constexpr uint16_t kStatus = offsetof(acc_shell_t, STATUS);
constexpr uint16_t kIntrState = offsetof(acc_shell_t, INTR_STATE);
constexpr uint16_t kCycles = offsetof(acc_shell_t, CYCLES);
constexpr uint16_t kWords = offsetof(acc_shell_t, WORDS);
constexpr uint16_t kStream = offsetof(acc_shell_t, STREAM);

constexpr uint32_t field(uint32_t v, uint32_t bm, uint32_t bp) { return (v & bm) >> bp; }
#define FIELD(v, reg, f) field((v), ACC_SHELL__##reg##__##f##_bm, ACC_SHELL__##reg##__##f##_bp)
#define ERR(name) ACC_SHELL__ACC_SHELL_ERR_E__##name

// the ML-KEM preset of ntt_acc.core
constexpr unsigned kN = 256, kB = 4;
constexpr int kQ = 3329;
constexpr size_t kPolyWords = kN / 4;  // four 16-bit coefficients a word

// the device's operations (rtl/ntt_stream.sv): OP[3:0] the kind, OP[7:4] + 1
// the count k
constexpr uint32_t kNtt = 1, kIntt = 2, kMul = 3, kMacIntt = 4;
const char *const kKindName[] = {"", "ntt", "intt", "mac", "macintt"};
uint32_t opcode(uint32_t kind, unsigned k) { return kind | (k - 1) << 4; }
uint32_t kind_of(uint32_t code) { return code & 15; }
unsigned count_of(uint32_t code) { return (code >> 4) + 1; }
bool pairs(uint32_t code) { return kind_of(code) >= kMul; }
size_t in_polys(uint32_t code) { return count_of(code) * (pairs(code) ? 2 : 1); }
size_t out_polys(uint32_t code) { return pairs(code) ? 1 : count_of(code); }
std::string op_name(uint32_t code) {
  return std::string(kKindName[kind_of(code)]) + "x" + std::to_string(count_of(code));
}

using Poly = std::vector<int16_t>;

int16_t canon(int x) { return (int16_t)(((x % kQ) + kQ) % kQ); }
Poly freeze(const int16_t *x) {
  Poly r(kN);
  for (unsigned i = 0; i < kN; i++) r[i] = canon(x[i]);
  return r;
}

// libmlkem on canonical inputs (the polynomials in stream order); basemul's
// b centred as its contract asks. The result polynomials in stream order.
std::vector<Poly> reference(uint32_t code, const std::vector<Poly> &in) {
  const unsigned k = count_of(code);
  std::vector<Poly> out;
  if (!pairs(code)) {
    for (unsigned j = 0; j < k; j++) {
      int16_t x[kN];
      for (unsigned i = 0; i < kN; i++) x[i] = in[j][i];
      if (kind_of(code) == kNtt) {
        mlkem_ntt_c(x);
      } else {
        mlkem_invntt_c(x);
      }
      out.push_back(freeze(x));
    }
    return out;
  }
  static int16_t x[16][kN], y[16][kN];
  int16_t r[kN];
  for (unsigned j = 0; j < k; j++) {
    for (unsigned i = 0; i < kN; i++) {
      x[j][i] = in[2 * j][i];
      y[j][i] = (int16_t)(in[2 * j + 1][i] > kQ / 2 ? in[2 * j + 1][i] - kQ : in[2 * j + 1][i]);
    }
  }
  mlkem_basemul_acc_c(r, x, y, k);
  if (kind_of(code) == kMacIntt) mlkem_invntt_c(r);
  out.push_back(freeze(r));
  return out;
}

// coefficient 4i + j in bits 16j.. of word i: an int16_t array's memory
void pack(const Poly &a, uint64_t *w) {
  for (size_t i = 0; i < kPolyWords; i++) {
    w[i] = 0;
    for (unsigned j = 0; j < 4; j++) w[i] |= (uint64_t)(uint16_t)a[4 * i + j] << (16 * j);
  }
}
Poly unpack(const std::vector<uint64_t> &w, size_t at) {
  Poly a(kN, 0);
  for (size_t i = 0; i < kPolyWords && at + i < w.size(); i++)
    for (unsigned j = 0; j < 4; j++) a[4 * i + j] = (int16_t)(uint16_t)(w[at + i] >> (16 * j));
  return a;
}

unsigned fails = 0;

void expect_eq(const char *what, uint64_t got, uint64_t want) {
  if (got != want) {
    std::fprintf(stderr, "FAIL %s: got 0x%llx, expected 0x%llx\n", what,
                 (unsigned long long)got, (unsigned long long)want);
    fails++;
  }
}

struct Tb {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vntt_acc> m;
  tb::Rng rng;
  tbaxi::Bus<Vntt_acc> bus;

  explicit Tb(uint64_t seed)
      : ctx(new VerilatedContext), m(new Vntt_acc(ctx.get())), rng(seed), bus(m.get(), &rng) {
    m->s_axil_awprot = 0;
    m->s_axil_arprot = 0;
    tb::reset(m.get());
  }

  uint32_t status() { return bus.read(kStatus); }
  void start(uint32_t op) {
    bus.write(kCtrl, (op << ACC_SHELL__CTRL__OP_bp) | ACC_SHELL__CTRL__START_bm);
  }
  uint32_t wait_done(const std::string &what) {
    for (int i = 0; i < 200000; i++) {
      uint32_t s = status();
      if (FIELD(s, STATUS, DONE)) return s;
    }
    std::fprintf(stderr, "TIMEOUT %s: STATUS.DONE never set\n", what.c_str());
    std::exit(1);
  }

  Poly random_poly(unsigned kind) {
    Poly a(kN);
    for (unsigned i = 0; i < kN; i++)
      a[i] = kind == 0 ? kQ - 1 : kind == 1 ? 0 : kind == 2 ? (i == 0) : (int16_t)(rng.next() % kQ);
    return a;
  }
  std::vector<Poly> random_polys(uint32_t code, unsigned kind) {
    std::vector<Poly> p;
    for (size_t j = 0; j < in_polys(code); j++) p.push_back(random_poly(j ? (kind == 2 ? 3 : kind) : kind));
    return p;
  }

  static std::vector<uint64_t> input(const std::vector<Poly> &polys) {
    std::vector<uint64_t> in(polys.size() * kPolyWords);
    for (size_t j = 0; j < polys.size(); j++) pack(polys[j], in.data() + j * kPolyWords);
    return in;
  }

  // one operation through the bus: the result polynomials, STATUS into *st;
  // returns CYCLES. Checks the stream counters.
  uint32_t op(uint32_t code, const std::vector<uint64_t> &in, bool gaps, uint32_t *st,
              std::vector<Poly> *c) {
    const std::string name = op_name(code);
    bus.bp = gaps;
    bus.start_source(in, in.size(), in.size() - 1);
    bus.arm_sink();
    start(code);
    *st = wait_done(name);
    for (int i = 0; !bus.sink_done && i < 1000; i++) bus.step();
    const size_t out = out_polys(code) * kPolyWords;
    expect_eq((name + ": result words").c_str(), bus.sink.size(), out);
    c->clear();
    for (size_t j = 0; j < out_polys(code); j++) c->push_back(unpack(bus.sink, j * kPolyWords));
    uint32_t cnt = bus.read(kStream);
    expect_eq((name + ": STREAM.IN").c_str(), FIELD(cnt, STREAM, IN), in.size());
    expect_eq((name + ": STREAM.OUT").c_str(), FIELD(cnt, STREAM, OUT), out);
    bus.bp = false;
    return bus.read(kCycles);
  }

  // the result polynomials against libmlkem
  void compare(uint32_t code, unsigned vec, const std::vector<Poly> &got,
               const std::vector<Poly> &in) {
    std::vector<Poly> e = reference(code, in);
    for (size_t j = 0; j < e.size() && j < got.size(); j++)
      for (unsigned i = 0; i < kN; i++)
        if (got[j][i] != e[j][i]) {
          std::fprintf(stderr, "MISMATCH %s vector %u: polynomial %zu coefficient %u is %d, "
                       "expected %d\n", op_name(code).c_str(), vec, j, i, got[j][i], e[j][i]);
          fails++;
          return;
        }
  }

  // an operation that must succeed, against libmlkem; returns CYCLES
  uint32_t check(uint32_t code, unsigned vec, const std::vector<Poly> &in, bool gaps) {
    std::vector<Poly> c;
    uint32_t st = 0, cyc = op(code, input(in), gaps, &st, &c);
    expect_eq((op_name(code) + ": STATUS (done, no error, idle)").c_str(), st,
              ACC_SHELL__STATUS__DONE_bm);
    compare(code, vec, c, in);
    return cyc;
  }

  void recovers(const char *what) {
    (void)what;
    for (uint32_t code : {kNtt, kIntt, kMul, opcode(kMul, 2), opcode(kMacIntt, 3)})
      check(code, 0, random_polys(code, 3), false);
    bus.write(kIntrState, 0xffffffffu);
  }
};

// the operations the random vectors run: every kind at k = 1 and at ML-KEM's
// k (2, 3, 4), NTT and INTT also at 8 (keygen's s and e) and 16
const uint32_t kCodes[] = {
    kNtt,          kIntt,          kMul,           kMacIntt,       opcode(kNtt, 3),
    opcode(kNtt, 8), opcode(kNtt, 16), opcode(kIntt, 4), opcode(kMul, 2), opcode(kMul, 3),
    opcode(kMul, 4), opcode(kMacIntt, 2), opcode(kMacIntt, 3), opcode(kMacIntt, 4)};

void test_id_and_words(Tb &t) {
  expect_eq("ID.CORE", FIELD(t.bus.read(kId), ID, CORE), ACC_SHELL__ACC_SHELL_CORE_E__NTT);
  expect_eq("PARAM (q)", t.bus.read(kParam), kQ);
  for (uint32_t code : kCodes) {
    t.bus.write(kCtrl, code << ACC_SHELL__CTRL__OP_bp);
    uint32_t w = t.bus.read(kWords);
    expect_eq((op_name(code) + ": WORDS.IN").c_str(), FIELD(w, WORDS, IN),
              in_polys(code) * kPolyWords);
    expect_eq((op_name(code) + ": WORDS.OUT").c_str(), FIELD(w, WORDS, OUT),
              out_polys(code) * kPolyWords);
  }
  for (uint32_t code : {0u, 5u, 0x80u, 0xffu, 0x3fu}) {
    t.bus.write(kCtrl, code << ACC_SHELL__CTRL__OP_bp);
    expect_eq("WORDS of an unknown op", t.bus.read(kWords), 0);
    t.start(code);
    uint32_t s = t.status();
    expect_eq("unknown op: STATUS.DONE", FIELD(s, STATUS, DONE), 1);
    expect_eq("unknown op: STATUS.ERROR", FIELD(s, STATUS, ERROR), ERR(OP));
    expect_eq("unknown op: STREAM", t.bus.read(kStream), 0);
  }
  t.bus.write(kIntrState, 0xffffffffu);
  t.recovers("after unknown operations");
}

// a coefficient >= q (or any of the top 4 bits of a lane) in polynomial
// `poly` of the stream of `code`: CORE, the result words delivered
void test_range(Tb &t) {
  struct Case {
    uint32_t code;
    unsigned poly, coeff;
    int16_t value;
  };
  const Case cases[] = {{kNtt, 0, 0, kQ},
                        {kIntt, 0, 255, (int16_t)0x8000},
                        {kMul, 0, 17, kQ + 1},
                        {kMul, 1, 200, (int16_t)0xffff},
                        {kNtt, 0, 130, 0x1000},
                        {opcode(kNtt, 3), 2, 3, kQ},
                        {opcode(kMul, 3), 5, 255, kQ},
                        {opcode(kMacIntt, 2), 2, 0, (int16_t)0x7fff}};
  for (const Case &k : cases) {
    std::vector<Poly> in = t.random_polys(k.code, 3), c;
    in[k.poly][k.coeff] = k.value;
    uint32_t st = 0;
    t.op(k.code, Tb::input(in), false, &st, &c);
    expect_eq("coefficient >= q: STATUS.ERROR", FIELD(st, STATUS, ERROR), ERR(CORE));
    expect_eq("coefficient >= q: STATUS.DONE", FIELD(st, STATUS, DONE), 1);
    t.bus.write(kIntrState, 0xffffffffu);
  }
  t.recovers("after coefficients >= q");
}

// a stream of `words` words of `code` with TLAST on word last_at: the error,
// STREAM.IN, and the result words that leave: none, except those of an NTT
// or INTT vector's polynomials complete before the error (`out` words)
void bad_stream(Tb &t, const char *what, uint32_t code, size_t words, size_t last_at,
                uint32_t want_err, size_t want_in, size_t out) {
  std::vector<uint64_t> in = Tb::input(t.random_polys(code, 3));
  in.resize(words, 0);
  t.bus.start_source(in, words, last_at);
  if (out) t.bus.arm_sink();  // else not armed: any result word fails
  t.start(code);
  uint32_t s = t.wait_done(what);
  t.bus.idle(1200);
  std::string w = std::string(what) + " (" + op_name(code) + ")";
  expect_eq((w + ": STATUS.ERROR").c_str(), FIELD(s, STATUS, ERROR), want_err);
  uint32_t st = t.bus.read(kStream);
  expect_eq((w + ": STREAM.IN").c_str(), FIELD(st, STREAM, IN), want_in);
  expect_eq((w + ": STREAM.OUT").c_str(), FIELD(st, STREAM, OUT), out);
  expect_eq((w + ": result words").c_str(), out ? t.bus.sink.size() : 0, out);
  t.bus.sink_armed = false;
  t.bus.stop_source();
  t.bus.write(kIntrState, 0xffffffffu);
  t.recovers(what);
}

void test_streams(Tb &t) {
  const size_t p = kPolyWords;
  // BASEMUL's stream ending after a
  bad_stream(t, "short stream", kMul, p, p - 1, ERR(IN_SHORT), p, 0);
  // MAC of 3 pairs ending in the third pair's b
  bad_stream(t, "short stream", opcode(kMul, 3), 5 * p + 9, 5 * p + 8, ERR(IN_SHORT), 5 * p + 9, 0);
  // MACINTT of 2 pairs, TLAST 3 words late
  bad_stream(t, "long stream", opcode(kMacIntt, 2), 4 * p + 3, 4 * p + 2, ERR(IN_LONG), 4 * p + 3,
             0);
  // NTT of 3 polynomials ending in the second: the first's result has left
  bad_stream(t, "short stream", opcode(kNtt, 3), p + 10, p + 9, ERR(IN_SHORT), p + 10, p);
}

// START while a MACINTT runs: refused with BUSY, the running operation's
// result still right
void test_busy(Tb &t) {
  const uint32_t code = opcode(kMacIntt, 3);
  std::vector<Poly> in = t.random_polys(code, 3), c;
  std::vector<uint64_t> words = Tb::input(in);
  t.bus.start_source(words, words.size(), words.size() - 1);
  t.bus.arm_sink();
  t.start(code);
  t.bus.idle(500);
  t.start(kNtt);
  uint32_t s = t.status();
  expect_eq("START while busy: STATUS.BUSY", FIELD(s, STATUS, BUSY), 1);
  expect_eq("START while busy: STATUS.ERROR", FIELD(s, STATUS, ERROR), ERR(BUSY));
  s = t.wait_done("START while busy");
  for (int i = 0; !t.bus.sink_done && i < 1000; i++) t.bus.step();
  expect_eq("START while busy: error kept at the end", FIELD(s, STATUS, ERROR), ERR(BUSY));
  expect_eq("START while busy: result words", t.bus.sink.size(), kPolyWords);
  c.push_back(unpack(t.bus.sink, 0));
  t.compare(code, 0, c, in);
  t.bus.write(kIntrState, 0xffffffffu);
  t.recovers("after START while busy");
}

}  // namespace

int main(int argc, char **argv) {
  tb::Args args = tb::parse_args(argc, argv);
  Tb t(args.seed);
  tb::Report rep;
  test_id_and_words(t);
  test_range(t);
  test_streams(t);
  test_busy(t);
  unsigned misuse_fails = fails;

  unsigned ops = 0;
  for (unsigned v = 0; v < args.random; v++) {
    unsigned kind = v < 3 ? v : 3;
    for (uint32_t code : kCodes) {
      bool gaps = ((ops++ + v) & 1) != 0;  // each operation with and without
      uint32_t c = t.check(code, v, t.random_polys(code, kind), gaps);
      if (!gaps) {
        uint64_t want = tb::formula(args.level, op_name(code));
        if (c != want) {
          std::fprintf(stderr, "CYCLES %s vector %u: %u, formula %llu\n", op_name(code).c_str(),
                       v, c, (unsigned long long)want);
          fails++;
        }
        rep.cycle(op_name(code), c);
      }
    }
    rep.random++;
  }
  std::printf("ntt_acc N=%u q=%d B=%u: register and misuse checks (%u failures), %u random "
              "vectors (%u operations) through the bus, %u failures; CYCLES",
              kN, kQ, kB, misuse_fails, rep.random, ops, fails);
  for (uint32_t code : kCodes)
    std::printf(" %s %llu", op_name(code).c_str(),
                (unsigned long long)tb::formula(args.level, op_name(code)));
  std::printf(" (the formula's, checked on every run without gaps)\n");
  if (fails) return 1;
  rep.write(args.json);
  return 0;
}
