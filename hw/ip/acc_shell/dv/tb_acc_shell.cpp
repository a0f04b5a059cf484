// Testbench of the accelerator shell around an operation core, driven only
// through its AXI4-Lite and AXI4-Stream ports (tb_axi.h): gf2x_mul_acc, or
// gf2x_inv_acc with -DTB_INV. The register offsets, field masks and codes
// come from the C header generated from the same SystemRDL as the register
// block (sw/acc_shell_regs.h, _enums.h).
//
// Checks: every register's reset value; read-only registers and fields keep
// their value under writes; INTR_STATE is write-1-to-clear and drives irq_o
// through INTR_ENABLE; each error code from its bad use (unknown operation,
// START while busy, a short stream, a long one with and without TLAST, ABORT;
// for the inversion an operand of even weight: CORE) with the stream word
// counters, no result word on the output, and a correct result right after;
// then operations on random and KAT operands through the bus, bit-exact
// against libbike (bike_gf2x_mul of c0 and h0, of h and h0; bike_gf2x_inv of
// h0 and h), every other one with random gaps on every handshake. Cycles:
// CYCLES of an operation without gaps (the same for every input).
#include <cstddef>
#include <memory>

#ifdef TB_INV
#include "Vgf2x_inv_acc.h"
#else
#include "Vgf2x_mul_acc.h"
#endif
#include "acc_shell_enums.h"
#include "acc_shell_regs.h"
#include "tb_axi.h"
#include "tb_common.h"
#include "verilated.h"


namespace {

constexpr uint16_t kId = offsetof(acc_shell_t, ID);
constexpr uint16_t kVersion = offsetof(acc_shell_t, VERSION);
constexpr uint16_t kParam = offsetof(acc_shell_t, PARAM);
constexpr uint16_t kCtrl = offsetof(acc_shell_t, CTRL);
constexpr uint16_t kStatus = offsetof(acc_shell_t, STATUS);
constexpr uint16_t kIntrState = offsetof(acc_shell_t, INTR_STATE);
constexpr uint16_t kIntrEnable = offsetof(acc_shell_t, INTR_ENABLE);
constexpr uint16_t kCycles = offsetof(acc_shell_t, CYCLES);
constexpr uint16_t kWords = offsetof(acc_shell_t, WORDS);
constexpr uint16_t kStream = offsetof(acc_shell_t, STREAM);
constexpr uint32_t kOp = 1;  // the device's one operation (MUL, INV)

constexpr uint32_t field(uint32_t v, uint32_t bm, uint32_t bp) { return (v & bm) >> bp; }
#define FIELD(v, reg, f) field((v), ACC_SHELL__##reg##__##f##_bm, ACC_SHELL__##reg##__##f##_bp)
#define ERR(name) ACC_SHELL__ACC_SHELL_ERR_E__##name

// The device: its model, identifier, input polynomials, reference and name.
#ifdef TB_INV
using Model = Vgf2x_inv_acc;
constexpr uint32_t kCore = ACC_SHELL__ACC_SHELL_CORE_E__GF2X_INV;
constexpr size_t kInPolys = 1;
const char *const kName = "gf2x_inv_acc";
void reference(const bike_params *p, uint64_t *c, const uint64_t *in) { bike_gf2x_inv(p, c, in); }
#else
using Model = Vgf2x_mul_acc;
constexpr uint32_t kCore = ACC_SHELL__ACC_SHELL_CORE_E__GF2X_MUL;
constexpr size_t kInPolys = 2;
const char *const kName = "gf2x_mul_acc";
void reference(const bike_params *p, uint64_t *c, const uint64_t *in) {
  bike_gf2x_mul(p, c, in, in + p->r_qwords);
}
#endif

unsigned fails = 0;

void expect(bool ok, const char *what, uint64_t got, uint64_t want) {
  if (!ok) {
    std::fprintf(stderr, "FAIL %s: got 0x%llx, expected 0x%llx\n", what,
                 (unsigned long long)got, (unsigned long long)want);
    fails++;
  }
}
void expect_eq(const char *what, uint64_t got, uint64_t want) {
  expect(got == want, what, got, want);
}

struct Tb {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Model> m;
  tb::Rng rng;
  tbaxi::Bus<Model> bus;
  const bike_params *p;
  size_t n;  // 64-bit words per polynomial

  Tb(const bike_params *params, uint64_t seed)
      : ctx(new VerilatedContext), m(new Model(ctx.get())), rng(seed), bus(m.get(), &rng),
        p(params), n(params->r_qwords) {
    m->s_axil_awprot = 0;
    m->s_axil_arprot = 0;
    tb::reset(m.get());
  }

  uint32_t status() { return bus.read(kStatus); }
  void start(uint32_t op) { bus.write(kCtrl, (op << ACC_SHELL__CTRL__OP_bp) | ACC_SHELL__CTRL__START_bm); }

  // polls STATUS until DONE; returns STATUS
  uint32_t wait_done(const char *what) {
    for (int i = 0; i < 2000000; i++) {
      uint32_t s = status();
      if (FIELD(s, STATUS, DONE)) return s;
    }
    std::fprintf(stderr, "TIMEOUT %s: STATUS.DONE never set\n", what);
    std::exit(1);
  }

  size_t in_words() const { return kInPolys * n; }

  // a random valid input: uniform operands (kind: tb::operand's), of odd
  // weight for the inversion
  std::vector<uint64_t> valid_input(unsigned kind) {
    std::vector<uint64_t> in(kInPolys * n);
    for (size_t k = 0; k < kInPolys; k++) {
      tb::operand(p, rng, kind, in.data() + k * n);
#ifdef TB_INV
      if ((bike_poly_weight(p, in.data()) & 1) == 0) in[0] ^= 1;
#endif
    }
    return in;
  }

  // one operation through the bus: the result words into c, STATUS into
  // *st; returns CYCLES. Checks the stream lengths and counters.
  uint32_t op(uint64_t *c, const std::vector<uint64_t> &in, bool gaps, uint32_t *st) {
    bus.bp = gaps;
    bus.start_source(in, in.size(), in.size() - 1);
    bus.arm_sink();
    start(kOp);
    *st = wait_done("operation");
    for (int i = 0; !bus.sink_done && i < 1000; i++) bus.step();
    expect_eq("operation: result words", bus.sink.size(), n);
    for (size_t i = 0; i < n; i++) c[i] = i < bus.sink.size() ? bus.sink[i] : 0;
    uint32_t cnt = bus.read(kStream);
    expect_eq("operation: STREAM.IN", FIELD(cnt, STREAM, IN), in.size());
    expect_eq("operation: STREAM.OUT", FIELD(cnt, STREAM, OUT), n);
    bus.bp = false;
    return bus.read(kCycles);
  }

  // an operation that must succeed: compared with libbike; returns CYCLES
  uint32_t check(const char *what, unsigned vec, const std::vector<uint64_t> &in, bool gaps) {
    static uint64_t c[BIKE_MAX_QWORDS], e[BIKE_MAX_QWORDS];
    reference(p, e, in.data());
    uint32_t st = 0, cyc = op(c, in, gaps, &st);
    expect_eq("operation: STATUS (done, no error, idle)", st, ACC_SHELL__STATUS__DONE_bm);
    if (!tb::same_words(what, vec, c, e, n)) fails++;
    return cyc;
  }

  // after a bad use: an operation on a random input must still be right
  void recovers(const char *what) {
    check(what, 0, valid_input(0), false);
    bus.write(kIntrState, 0xffffffffu);
  }
};

void test_reset(Tb &t) {
  expect_eq("reset ID", t.bus.read(kId),
            (ACC_SHELL__ID__MAGIC_reset << ACC_SHELL__ID__MAGIC_bp) |
                kCore);
  expect_eq("reset VERSION", t.bus.read(kVersion),
            (ACC_SHELL__VERSION__MAJOR_reset << ACC_SHELL__VERSION__MAJOR_bp) |
                (ACC_SHELL__VERSION__MINOR_reset << ACC_SHELL__VERSION__MINOR_bp));
  expect_eq("reset PARAM (r)", t.bus.read(kParam), t.p->r);
  expect_eq("reset CTRL", t.bus.read(kCtrl), 0);
  expect_eq("reset STATUS", t.bus.read(kStatus), 0);
  expect_eq("reset INTR_STATE", t.bus.read(kIntrState), 0);
  expect_eq("reset INTR_ENABLE", t.bus.read(kIntrEnable), 0);
  expect_eq("reset CYCLES", t.bus.read(kCycles), 0);
  expect_eq("reset WORDS (OP 0: unknown)", t.bus.read(kWords), 0);
  expect_eq("reset STREAM", t.bus.read(kStream), 0);
  expect_eq("reset irq_o", t.m->irq_o, 0);
}

void test_access(Tb &t) {
  const uint16_t ro[] = {kId, kVersion, kParam, kStatus, kCycles, kWords, kStream};
  for (uint16_t a : ro) {
    uint32_t before = t.bus.read(a);
    t.bus.write(a, 0xffffffffu);
    t.bus.write(a, 0);
    expect_eq("read-only register keeps its value", t.bus.read(a), before);
  }
  // CTRL: OP is read-write, START and ABORT read 0
  t.bus.write(kCtrl, 0xA5u << ACC_SHELL__CTRL__OP_bp);
  expect_eq("CTRL.OP read back", t.bus.read(kCtrl), 0xA5u << ACC_SHELL__CTRL__OP_bp);
  t.bus.write(kCtrl, kOp << ACC_SHELL__CTRL__OP_bp);
  uint32_t w = t.bus.read(kWords);
  expect_eq("WORDS.IN of the operation", FIELD(w, WORDS, IN), t.in_words());
  expect_eq("WORDS.OUT of the operation", FIELD(w, WORDS, OUT), t.n);
  // ABORT while idle: no effect
  t.bus.write(kCtrl, (kOp << ACC_SHELL__CTRL__OP_bp) | ACC_SHELL__CTRL__ABORT_bm);
  expect_eq("ABORT while idle: STATUS", t.bus.read(kStatus), 0);
  expect_eq("ABORT reads 0", t.bus.read(kCtrl), kOp << ACC_SHELL__CTRL__OP_bp);
  // INTR_ENABLE: read-write
  t.bus.write(kIntrEnable, 0xffffffffu);
  expect_eq("INTR_ENABLE read back", t.bus.read(kIntrEnable),
            ACC_SHELL__INTR_ENABLE__DONE_bm | ACC_SHELL__INTR_ENABLE__ERROR_bm);
  t.bus.write(kIntrEnable, 0);
  // an address beyond the map reads 0 and a write there changes nothing
  t.bus.write(0x100, 0xffffffffu);
  expect_eq("unmapped address reads 0", t.bus.read(0x100), 0);
  expect_eq("unmapped write: CTRL unchanged", t.bus.read(kCtrl), kOp << ACC_SHELL__CTRL__OP_bp);
}

// unknown operations; INTR_STATE write-1-to-clear and the interrupt line
void test_op_and_w1c(Tb &t) {
  const uint32_t bad_ops[] = {0, 2, 0x80, 0xff};
  for (uint32_t op : bad_ops) {
    t.bus.write(kCtrl, op << ACC_SHELL__CTRL__OP_bp);
    expect_eq("WORDS of an unknown op", t.bus.read(kWords), 0);
    t.start(op);
    uint32_t s = t.status();
    expect_eq("unknown op: STATUS.BUSY", FIELD(s, STATUS, BUSY), 0);
    expect_eq("unknown op: STATUS.DONE", FIELD(s, STATUS, DONE), 1);
    expect_eq("unknown op: STATUS.ERROR", FIELD(s, STATUS, ERROR), ERR(OP));
    expect_eq("unknown op: STREAM", t.bus.read(kStream), 0);
  }
  uint32_t both = ACC_SHELL__INTR_STATE__DONE_bm | ACC_SHELL__INTR_STATE__ERROR_bm;
  expect_eq("INTR_STATE after a refused op", t.bus.read(kIntrState), both);
  expect_eq("irq_o while nothing is enabled", t.m->irq_o, 0);
  t.bus.write(kIntrEnable, ACC_SHELL__INTR_ENABLE__ERROR_bm);
  t.bus.step();
  expect_eq("irq_o with ERROR enabled", t.m->irq_o, 1);
  t.bus.write(kIntrState, 0);
  expect_eq("INTR_STATE: writing 0 clears nothing", t.bus.read(kIntrState), both);
  t.bus.write(kIntrState, ACC_SHELL__INTR_STATE__ERROR_bm);
  expect_eq("INTR_STATE: W1C of ERROR", t.bus.read(kIntrState), ACC_SHELL__INTR_STATE__DONE_bm);
  expect_eq("irq_o once ERROR is cleared", t.m->irq_o, 0);
  t.bus.write(kIntrEnable, ACC_SHELL__INTR_ENABLE__DONE_bm);
  t.bus.step();
  expect_eq("irq_o with DONE enabled", t.m->irq_o, 1);
  t.bus.write(kIntrState, ACC_SHELL__INTR_STATE__DONE_bm);
  expect_eq("INTR_STATE: W1C of DONE", t.bus.read(kIntrState), 0);
  expect_eq("irq_o once DONE is cleared", t.m->irq_o, 0);
  t.bus.write(kIntrEnable, 0);
  t.recovers("after unknown operations");
}

// A stream of `len` words with TLAST on word last_at (none if >= len), after
// START; ends with ABORT if `abort_after` cycles pass without DONE. Checks the
// error code, that no result word leaves, and the words taken.
void bad_stream(Tb &t, const char *what, size_t len, size_t last_at, uint32_t want_err,
                size_t want_in, bool abort) {
  std::vector<uint64_t> w(len);
  for (auto &x : w) x = t.rng.next();
  t.bus.start_source(w, len, last_at);  // the sink is not armed: any result word fails
  t.start(kOp);
  if (abort) {
    t.bus.idle(4 * len + 50);  // everything the shell will take is taken
    uint32_t s = t.status();
    expect_eq("before ABORT: still busy", FIELD(s, STATUS, BUSY), 1);
    t.bus.write(kCtrl, (kOp << ACC_SHELL__CTRL__OP_bp) | ACC_SHELL__CTRL__ABORT_bm);
  }
  uint32_t s = t.wait_done(what);
  t.bus.idle(50);
  char msg[160];
  std::snprintf(msg, sizeof msg, "%s: STATUS.ERROR", what);
  expect_eq(msg, FIELD(s, STATUS, ERROR), want_err);
  std::snprintf(msg, sizeof msg, "%s: STATUS.BUSY", what);
  expect_eq(msg, FIELD(s, STATUS, BUSY), 0);
  uint32_t st = t.bus.read(kStream);
  std::snprintf(msg, sizeof msg, "%s: STREAM.IN", what);
  expect_eq(msg, FIELD(st, STREAM, IN), want_in);
  std::snprintf(msg, sizeof msg, "%s: STREAM.OUT", what);
  expect_eq(msg, FIELD(st, STREAM, OUT), 0);
  std::snprintf(msg, sizeof msg, "%s: INTR_STATE", what);
  expect_eq(msg, t.bus.read(kIntrState),
            ACC_SHELL__INTR_STATE__DONE_bm | ACC_SHELL__INTR_STATE__ERROR_bm);
  t.bus.stop_source();
  t.bus.write(kIntrState, 0xffffffffu);
  t.recovers(what);
}

void test_streams(Tb &t) {
  size_t w = t.in_words();
  bad_stream(t, "short stream (TLAST early)", w - 5, w - 6, ERR(IN_SHORT), w - 5, false);
  bad_stream(t, "short stream (TLAST on word 0)", 1, 0, ERR(IN_SHORT), 1, false);
  bad_stream(t, "half a stream, then ABORT", w / 2, w / 2, ERR(ABORT), w / 2, true);
  bad_stream(t, "long stream (TLAST late)", w + 3, w + 2, ERR(IN_LONG), w + 3, false);
  bad_stream(t, "long stream (no TLAST, then ABORT)", w + 7, w + 7, ERR(IN_LONG), w + 7, true);
  bad_stream(t, "no stream, then ABORT", 0, 0, ERR(ABORT), 0, true);
}

// START while busy: refused, recorded, the running operation still right
void test_busy(Tb &t) {
  static uint64_t c[BIKE_MAX_QWORDS], e[BIKE_MAX_QWORDS];
  std::vector<uint64_t> in = t.valid_input(0);
  reference(t.p, e, in.data());
  t.start(kOp);  // no stream yet: the shell waits for it
  t.start(kOp);
  uint32_t s = t.status();
  expect_eq("START while busy: STATUS.BUSY", FIELD(s, STATUS, BUSY), 1);
  expect_eq("START while busy: STATUS.ERROR", FIELD(s, STATUS, ERROR), ERR(BUSY));
  expect_eq("START while busy: INTR_STATE", t.bus.read(kIntrState),
            ACC_SHELL__INTR_STATE__ERROR_bm);
  t.bus.start_source(in, in.size(), in.size() - 1);
  t.bus.arm_sink();
  s = t.wait_done("START while busy");
  for (int i = 0; !t.bus.sink_done && i < 1000; i++) t.bus.step();
  expect_eq("START while busy: error kept at the end", FIELD(s, STATUS, ERROR), ERR(BUSY));
  for (size_t i = 0; i < t.n; i++) c[i] = i < t.bus.sink.size() ? t.bus.sink[i] : 0;
  if (!tb::same_words("result under a refused START", 0, c, e, t.n)) fails++;
  t.bus.write(kIntrState, 0xffffffffu);
  t.recovers("after START while busy");

  // START and ABORT in one write while busy: the operation ends as aborted
  t.start(kOp);
  t.bus.write(kCtrl, (kOp << ACC_SHELL__CTRL__OP_bp) | ACC_SHELL__CTRL__START_bm |
                         ACC_SHELL__CTRL__ABORT_bm);
  s = t.wait_done("START with ABORT while busy");
  expect_eq("START with ABORT while busy: STATUS.ERROR", FIELD(s, STATUS, ERROR), ERR(ABORT));
  t.bus.idle(50);
  t.bus.write(kIntrState, 0xffffffffu);
  t.recovers("after START with ABORT while busy");
}

#ifdef TB_INV
// an operand of even weight has no inverse: error CORE, the words still given
void test_core_error(Tb &t) {
  static uint64_t c[BIKE_MAX_QWORDS];
  std::vector<uint64_t> in = t.valid_input(0);
  in[0] ^= 1;  // even weight
  uint32_t st = 0;
  t.op(c, in, false, &st);
  expect_eq("even weight: STATUS.ERROR", FIELD(st, STATUS, ERROR), ERR(CORE));
  expect_eq("even weight: STATUS.BUSY", FIELD(st, STATUS, BUSY), 0);
  expect_eq("even weight: INTR_STATE", t.bus.read(kIntrState),
            ACC_SHELL__INTR_STATE__DONE_bm | ACC_SHELL__INTR_STATE__ERROR_bm);
  t.bus.write(kIntrState, 0xffffffffu);
  t.recovers("after an even weight");
}
#endif

}  // namespace

int main(int argc, char **argv) {
  tb::Args args = tb::parse_args(argc, argv);
  const bike_params *p = bike_params_get(args.level);
  if (!p) {
    std::fprintf(stderr, "bad level\n");
    return 2;
  }
  Tb t(p, args.seed);
  tb::Report rep;
  test_reset(t);
  test_access(t);
  test_op_and_w1c(t);
  test_streams(t);
  test_busy(t);
#ifdef TB_INV
  test_core_error(t);
#endif
  unsigned misuse_fails = fails;

  uint64_t cycles = 0;
  unsigned vec = 0;
  auto check = [&](const char *what, unsigned v, const std::vector<uint64_t> &in) {
    bool gaps = (vec++ & 1) != 0;
    uint32_t c = t.check(what, v, in, gaps);
    if (!gaps) {
      if (cycles && c != cycles) {
        std::fprintf(stderr, "CYCLES %s vector %u: %u, before %llu\n", what, v, c,
                     (unsigned long long)cycles);
        fails++;
      }
      cycles = c;
    }
  };
  for (unsigned v = 0; v < args.random; v++) {
    check("random", v, t.valid_input(v < 8 ? v % 4 : 0));
    rep.random++;
  }
  if (args.kat) {
    std::vector<tb::Record> recs = tb::read_kat(tb::kat_path(args));
    unsigned used = 0;
    std::vector<uint64_t> in(t.in_words());
    for (auto &rec : recs) {
      if (used >= args.kat) break;
      if (rec["sk"].size() != p->sk_bytes || rec["ct"].size() != p->ct_bytes) {
        std::fprintf(stderr, "KAT record sizes do not match level %d\n", args.level);
        return 2;
      }
      const uint8_t *h0 = rec["sk"].data() + 8 * p->d;
#ifdef TB_INV
      bike_poly_from_bytes(p, in.data(), h0);  // h0 and h: odd weight
      check("kat h0^-1", used, in);
      bike_poly_from_bytes(p, in.data(), rec["pk"].data());
      check("kat h^-1", used, in);
#else
      bike_poly_from_bytes(p, in.data(), rec["ct"].data());
      bike_poly_from_bytes(p, in.data() + t.n, h0);
      check("kat c0*h0", used, in);
      bike_poly_from_bytes(p, in.data(), rec["pk"].data());
      check("kat h*h0", used, in);
#endif
      rep.kat += 2;
      used++;
    }
  }
  rep.cycle("op", cycles);
  std::printf("%s L%d R=%u: register and misuse checks (%u failures), %u random + %u KAT "
              "operations through the bus, %u failures; CYCLES per operation %llu\n",
              kName, args.level, p->r, misuse_fails, rep.random, rep.kat, fails,
              (unsigned long long)cycles);
  if (fails) return 1;
  rep.write(args.json);
  return 0;
}
