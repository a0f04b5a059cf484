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
// doc/acc_shell.md.
#include <cstddef>
#include <memory>

#include "Vntt_acc.h"
#include "acc_shell_enums.h"
#include "acc_shell_regs.h"
#include "tb_axi.h"
#include "tb_common.h"
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
constexpr unsigned kN = 256, kB = 2;
constexpr int kQ = 3329;
constexpr size_t kPolyWords = kN / 4;  // four 16-bit coefficients a word
constexpr unsigned kK = 4 / kB;        // host words per stream word

// the device's operations (rtl/ntt_stream.sv)
enum Op : uint32_t { kNtt = 1, kIntt = 2, kMul = 3 };
const char *const kOpName[] = {"", "ntt", "intt", "basemul"};
size_t in_polys(uint32_t op) { return op == kMul ? 2 : 1; }

// doc/ntt.md: ntt's own cycles (ML-KEM, B = 2: L = 7 layers, C = N / 2B)
constexpr uint64_t kL = 7, kC = kN / (2 * kB);
uint64_t core_cycles(uint32_t op) {
  if (op == kNtt) return kL * (kC + 5);
  if (op == kIntt) return kL * (kC + 5) + kN / kB + 5;
  return 5 * kC + 7;
}
// doc/acc_shell.md: K cycles per input word, the core's cycles plus one,
// and K + 2 per result word
uint64_t device_cycles(uint32_t op) {
  return kK * in_polys(op) * kPolyWords + core_cycles(op) + 1 + (kK + 2) * kPolyWords;
}

using Poly = std::vector<int16_t>;

int16_t canon(int x) { return (int16_t)(((x % kQ) + kQ) % kQ); }
Poly freeze(const int16_t *x) {
  Poly r(kN);
  for (unsigned i = 0; i < kN; i++) r[i] = canon(x[i]);
  return r;
}

// libmlkem on canonical inputs; basemul's b centred as its contract asks
Poly reference(uint32_t op, const Poly &a, const Poly &b) {
  int16_t x[1][kN], y[1][kN], r[kN];
  for (unsigned i = 0; i < kN; i++) {
    x[0][i] = a[i];
    y[0][i] = (int16_t)(b[i] > kQ / 2 ? b[i] - kQ : b[i]);
  }
  if (op == kNtt) {
    mlkem_ntt_c(x[0]);
    return freeze(x[0]);
  }
  if (op == kIntt) {
    mlkem_invntt_c(x[0]);
    return freeze(x[0]);
  }
  mlkem_basemul_acc_c(r, x, y, 1);
  return freeze(r);
}

// coefficient 4i + j in bits 16j.. of word i: an int16_t array's memory
void pack(const Poly &a, uint64_t *w) {
  for (size_t i = 0; i < kPolyWords; i++) {
    w[i] = 0;
    for (unsigned j = 0; j < 4; j++) w[i] |= (uint64_t)(uint16_t)a[4 * i + j] << (16 * j);
  }
}
Poly unpack(const std::vector<uint64_t> &w) {
  Poly a(kN, 0);
  for (size_t i = 0; i < kPolyWords && i < w.size(); i++)
    for (unsigned j = 0; j < 4; j++) a[4 * i + j] = (int16_t)(uint16_t)(w[i] >> (16 * j));
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
  uint32_t wait_done(const char *what) {
    for (int i = 0; i < 200000; i++) {
      uint32_t s = status();
      if (FIELD(s, STATUS, DONE)) return s;
    }
    std::fprintf(stderr, "TIMEOUT %s: STATUS.DONE never set\n", what);
    std::exit(1);
  }

  Poly random_poly(unsigned kind) {
    Poly a(kN);
    for (unsigned i = 0; i < kN; i++)
      a[i] = kind == 0 ? kQ - 1 : kind == 1 ? 0 : kind == 2 ? (i == 0) : (int16_t)(rng.next() % kQ);
    return a;
  }

  // one operation through the bus: the result polynomial, STATUS into *st;
  // returns CYCLES. Checks the stream counters.
  uint32_t op(uint32_t code, const std::vector<uint64_t> &in, bool gaps, uint32_t *st, Poly *c) {
    bus.bp = gaps;
    bus.start_source(in, in.size(), in.size() - 1);
    bus.arm_sink();
    start(code);
    *st = wait_done(kOpName[code]);
    for (int i = 0; !bus.sink_done && i < 1000; i++) bus.step();
    char msg[96];
    std::snprintf(msg, sizeof msg, "%s: result words", kOpName[code]);
    expect_eq(msg, bus.sink.size(), kPolyWords);
    *c = unpack(bus.sink);
    uint32_t cnt = bus.read(kStream);
    std::snprintf(msg, sizeof msg, "%s: STREAM.IN", kOpName[code]);
    expect_eq(msg, FIELD(cnt, STREAM, IN), in.size());
    std::snprintf(msg, sizeof msg, "%s: STREAM.OUT", kOpName[code]);
    expect_eq(msg, FIELD(cnt, STREAM, OUT), kPolyWords);
    bus.bp = false;
    return bus.read(kCycles);
  }

  std::vector<uint64_t> input(const Poly &a, const Poly &b, uint32_t code) {
    std::vector<uint64_t> in(in_polys(code) * kPolyWords);
    pack(a, in.data());
    if (code == kMul) pack(b, in.data() + kPolyWords);
    return in;
  }

  // an operation that must succeed, against libmlkem; returns CYCLES
  uint32_t check(uint32_t code, unsigned vec, const Poly &a, const Poly &b, bool gaps) {
    Poly c;
    uint32_t st = 0, cyc = op(code, input(a, b, code), gaps, &st, &c);
    char msg[96];
    std::snprintf(msg, sizeof msg, "%s vector %u: STATUS (done, no error, idle)", kOpName[code],
                  vec);
    expect_eq(msg, st, ACC_SHELL__STATUS__DONE_bm);
    Poly e = reference(code, a, b);
    for (unsigned i = 0; i < kN; i++)
      if (c[i] != e[i]) {
        std::fprintf(stderr, "MISMATCH %s vector %u: coefficient %u is %d, expected %d\n",
                     kOpName[code], vec, i, c[i], e[i]);
        fails++;
        break;
      }
    return cyc;
  }

  void recovers(const char *what) {
    (void)what;
    for (uint32_t code : {kNtt, kIntt, kMul}) check(code, 0, random_poly(3), random_poly(3), false);
    bus.write(kIntrState, 0xffffffffu);
  }
};

void test_id_and_words(Tb &t) {
  expect_eq("ID.CORE", FIELD(t.bus.read(kId), ID, CORE), ACC_SHELL__ACC_SHELL_CORE_E__NTT);
  expect_eq("PARAM (q)", t.bus.read(kParam), kQ);
  for (uint32_t code : {kNtt, kIntt, kMul}) {
    t.bus.write(kCtrl, code << ACC_SHELL__CTRL__OP_bp);
    uint32_t w = t.bus.read(kWords);
    expect_eq(kOpName[code], FIELD(w, WORDS, IN), in_polys(code) * kPolyWords);
    expect_eq(kOpName[code], FIELD(w, WORDS, OUT), kPolyWords);
  }
  for (uint32_t code : {0u, 4u, 0x80u, 0xffu}) {
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
// `poly` of `code`: CORE, the result words delivered
void test_range(Tb &t) {
  struct Case {
    uint32_t code;
    unsigned poly, coeff;
    int16_t value;
  };
  const Case cases[] = {{kNtt, 0, 0, kQ},       {kIntt, 0, 255, (int16_t)0x8000},
                        {kMul, 0, 17, kQ + 1},  {kMul, 1, 200, (int16_t)0xffff},
                        {kNtt, 0, 130, 0x1000}};
  for (const Case &k : cases) {
    Poly a = t.random_poly(3), b = t.random_poly(3), c;
    (k.poly ? b : a)[k.coeff] = k.value;
    uint32_t st = 0;
    t.op(k.code, t.input(a, b, k.code), false, &st, &c);
    expect_eq("coefficient >= q: STATUS.ERROR", FIELD(st, STATUS, ERROR), ERR(CORE));
    expect_eq("coefficient >= q: STATUS.DONE", FIELD(st, STATUS, DONE), 1);
    t.bus.write(kIntrState, 0xffffffffu);
  }
  t.recovers("after coefficients >= q");
}

// BASEMUL's stream ending after a: IN_SHORT, no result word
void test_short(Tb &t) {
  std::vector<uint64_t> in(kPolyWords);
  pack(t.random_poly(3), in.data());
  t.bus.start_source(in, in.size(), in.size() - 1);  // sink not armed: any result word fails
  t.start(kMul);
  uint32_t s = t.wait_done("basemul with one polynomial");
  t.bus.idle(400);
  expect_eq("basemul with one polynomial: STATUS.ERROR", FIELD(s, STATUS, ERROR), ERR(IN_SHORT));
  expect_eq("basemul with one polynomial: STREAM.IN", FIELD(t.bus.read(kStream), STREAM, IN),
            kPolyWords);
  t.bus.stop_source();
  t.bus.write(kIntrState, 0xffffffffu);
  t.recovers("after a short stream");
}

}  // namespace

int main(int argc, char **argv) {
  tb::Args args = tb::parse_args(argc, argv);
  Tb t(args.seed);
  tb::Report rep;
  test_id_and_words(t);
  test_range(t);
  test_short(t);
  unsigned misuse_fails = fails;

  unsigned ops = 0;
  for (unsigned v = 0; v < args.random; v++) {
    unsigned kind = v < 3 ? v : 3;
    Poly a = t.random_poly(kind), b = t.random_poly(kind == 2 ? 3 : kind);
    for (uint32_t code : {kNtt, kIntt, kMul}) {
      bool gaps = (ops++ & 1) != 0;
      uint32_t c = t.check(code, v, a, b, gaps);
      if (!gaps) {
        if (c != device_cycles(code)) {
          std::fprintf(stderr, "CYCLES %s vector %u: %u, formula %llu\n", kOpName[code], v, c,
                       (unsigned long long)device_cycles(code));
          fails++;
        }
        rep.cycle(kOpName[code], c);
      }
    }
    rep.random++;
  }
  std::printf("ntt_acc N=%u q=%d B=%u: register and misuse checks (%u failures), %u random "
              "vectors (%u operations) through the bus, %u failures; CYCLES ntt %llu, intt %llu, "
              "basemul %llu (formula %llu, %llu, %llu)\n",
              kN, kQ, kB, misuse_fails, rep.random, ops, fails,
              (unsigned long long)rep.cycles["ntt"], (unsigned long long)rep.cycles["intt"],
              (unsigned long long)rep.cycles["basemul"], (unsigned long long)device_cycles(kNtt),
              (unsigned long long)device_cycles(kIntt), (unsigned long long)device_cycles(kMul));
  if (fails) return 1;
  rep.write(args.json);
  return 0;
}
