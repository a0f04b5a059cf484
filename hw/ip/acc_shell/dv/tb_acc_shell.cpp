// Testbench of the accelerator shell around an operation core, driven only
// through its AXI4-Lite and AXI4-Stream ports (tb_axi.h): gf2x_mul_acc, or
// with -DTB_INV gf2x_inv_acc, -DTB_SPARSE sparse_mul_acc, -DTB_DECODER
// bike_decoder_acc, -DTB_KECCAK keccak_sampler_acc. The register offsets,
// field masks and codes come from the C header generated from the same
// SystemRDL as the register block (sw/acc_shell_regs.h, _enums.h).
//
// Checks: every register's reset value; read-only registers and fields keep
// their value under writes; INTR_STATE is write-1-to-clear and drives irq_o
// through INTR_ENABLE; each error code from its bad use (unknown operation,
// START while busy, a short stream, a long one with and without TLAST, ABORT;
// for the inversion an operand of even weight: CORE) with the stream word
// counters, no result word on the output, and a correct result right after;
// then every operation on random and KAT-derived operands through the bus,
// bit-exact against libbike (doc/acc_shell.md lists them per device), every
// other run of each operation with random gaps on every handshake. Cycles:
// CYCLES of each operation without gaps, the same for every input (for the
// decoder, decoded or not) and its formula's (tb_formula.h).
#include <cstddef>
#include <cstring>
#include <memory>

#if defined(TB_INV)
#include "Vgf2x_inv_acc.h"
#elif defined(TB_SPARSE)
#include "Vsparse_mul_acc.h"
#elif defined(TB_DECODER)
#include "Vbike_decoder_acc.h"
#elif defined(TB_KECCAK)
#include "Vkeccak_sampler_acc.h"
#else
#include "Vgf2x_mul_acc.h"
#endif
#include "acc_shell_enums.h"
#include "acc_shell_regs.h"
#include "tb_axi.h"
#include "tb_common.h"
#include "tb_formula.h"
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
constexpr size_t kMaxOut = 2 * BIKE_MAX_QWORDS + 1;  // result words at most

constexpr uint32_t field(uint32_t v, uint32_t bm, uint32_t bp) { return (v & bm) >> bp; }
#define FIELD(v, reg, f) field((v), ACC_SHELL__##reg##__##f##_bm, ACC_SHELL__##reg##__##f##_bp)
#define ERR(name) ACC_SHELL__ACC_SHELL_ERR_E__##name

// The device: its model, identifier, name, operations (kOps; kOp the one
// that the register and misuse checks use), and per operation its input and
// output words, a valid random input (kind: tb::operand's) and its libbike
// reference.

// positions two per word (doc/acc_shell.md, "Positions"): ceil(d/2) words
size_t idx_words(const bike_params *p) { return (p->d + 1) / 2; }
void pack_idx(const bike_params *p, uint64_t *w, const uint32_t *idx) {
  for (uint32_t i = 0; i < p->d; i++) {
    uint64_t half = (uint64_t)idx[i] << (32 * (i & 1));
    w[i / 2] = (i & 1) ? (w[i / 2] | half) : half;
  }
}
std::vector<uint32_t> unpack_idx(const bike_params *p, const uint64_t *w) {
  std::vector<uint32_t> idx(p->d);
  for (uint32_t i = 0; i < p->d; i++) idx[i] = (uint32_t)(w[i / 2] >> (32 * (i & 1)));
  return idx;
}
// d distinct random positions below r (0 and r - 1 among them for kinds
// 1..3) packed into w, the unused half of an odd d's last word random: the
// device must ignore it
void random_idx(const bike_params *p, tb::Rng &rng, unsigned kind, uint64_t *w) {
  std::vector<uint32_t> fixed;
  if (kind != 0) fixed = {0, p->r - 1};
  pack_idx(p, w, tb::distinct(rng, p->d, p->r, fixed).data());
  if (p->d & 1) w[p->d / 2] |= rng.next() << 32;
}

#if defined(TB_INV)
using Model = Vgf2x_inv_acc;
constexpr uint32_t kCore = ACC_SHELL__ACC_SHELL_CORE_E__GF2X_INV;
const char *const kName = "gf2x_inv_acc";
constexpr uint32_t kOps[] = {1};  // INV
const char *const kOpNames[] = {"op"};
constexpr uint32_t kOp = 1;
size_t in_words(const bike_params *p, uint32_t) { return p->r_qwords; }
size_t out_words(const bike_params *p, uint32_t) { return p->r_qwords; }
// an operand of odd weight (a unit)
void random_input(const bike_params *p, uint32_t, tb::Rng &rng, unsigned kind, uint64_t *in) {
  tb::operand(p, rng, kind, in);
  if ((bike_poly_weight(p, in) & 1) == 0) in[0] ^= 1;
}
void reference(const bike_params *p, uint32_t, uint64_t *c, const uint64_t *in) {
  bike_gf2x_inv(p, c, in);
}
#elif defined(TB_SPARSE)
using Model = Vsparse_mul_acc;
constexpr uint32_t kCore = ACC_SHELL__ACC_SHELL_CORE_E__SPARSE_MUL;
const char *const kName = "sparse_mul_acc";
constexpr uint32_t kOps[] = {1};  // MUL
const char *const kOpNames[] = {"op"};
constexpr uint32_t kOp = 1;
size_t in_words(const bike_params *p, uint32_t) { return idx_words(p) + p->r_qwords; }
size_t out_words(const bike_params *p, uint32_t) { return p->r_qwords; }
// the positions, then the dense operand
void random_input(const bike_params *p, uint32_t, tb::Rng &rng, unsigned kind, uint64_t *in) {
  random_idx(p, rng, kind, in);
  tb::operand(p, rng, kind, in + idx_words(p));
}
void reference(const bike_params *p, uint32_t, uint64_t *c, const uint64_t *in) {
  bike_gf2x_mul_sparse(p, c, unpack_idx(p, in).data(), p->d, in + idx_words(p));
}
#elif defined(TB_DECODER)
using Model = Vbike_decoder_acc;
constexpr uint32_t kCore = ACC_SHELL__ACC_SHELL_CORE_E__BIKE_DECODER;
const char *const kName = "bike_decoder_acc";
constexpr uint32_t kOps[] = {1};  // DECODE
const char *const kOpNames[] = {"op"};
constexpr uint32_t kOp = 1;
size_t in_words(const bike_params *p, uint32_t) { return 2 * idx_words(p) + p->r_qwords; }
size_t out_words(const bike_params *p, uint32_t) { return 2 * p->r_qwords + 1; }
unsigned outcomes[2];  // results seen: not decoded, decoded
// h0's and h1's positions, then a syndrome: for even kinds that of an error
// of weight t (h0 e0 + h1 e1, e from H of a random m: it decodes), for odd
// kinds a uniform one (it does not)
void random_input(const bike_params *p, uint32_t, tb::Rng &rng, unsigned kind, uint64_t *in) {
  static uint64_t h[2][BIKE_MAX_QWORDS], e[2][BIKE_MAX_QWORDS], prod[BIKE_MAX_QWORDS];
  size_t nw = idx_words(p);
  uint64_t *s = in + 2 * nw;
  for (unsigned b = 0; b < 2; b++) {
    random_idx(p, rng, kind & 2, in + b * nw);
    bike_poly_from_indices(p, h[b], unpack_idx(p, in + b * nw).data(), p->d);
  }
  if (kind & 1) {
    tb::operand(p, rng, 0, s);
    return;
  }
  uint8_t m[BIKE_M_BYTES];
  rng.bytes(m, sizeof m);
  bike_function_h(p, e[0], e[1], nullptr, m);
  bike_gf2x_mul(p, s, h[0], e[0]);
  bike_gf2x_mul(p, prod, h[1], e[1]);
  for (size_t w = 0; w < p->r_qwords; w++) s[w] ^= prod[w];
}
void reference(const bike_params *p, uint32_t, uint64_t *c, const uint64_t *in) {
  size_t nw = idx_words(p);
  uint64_t ok = bike_decode(p, c, c + p->r_qwords, in + 2 * nw, unpack_idx(p, in).data(),
                            unpack_idx(p, in + nw).data());
  c[2 * p->r_qwords] = ok;
  outcomes[ok & 1]++;
}
#elif defined(TB_KECCAK)
using Model = Vkeccak_sampler_acc;
constexpr uint32_t kCore = ACC_SHELL__ACC_SHELL_CORE_E__KECCAK_SAMPLER;
const char *const kName = "keccak_sampler_acc";
constexpr uint32_t kOpKeygen = 1, kOpH = 2, kOpL = 3, kOpK = 4;
constexpr uint32_t kOps[] = {kOpKeygen, kOpH, kOpL, kOpK};
const char *const kOpNames[] = {"sample_keygen", "function_h", "function_l", "function_k"};
constexpr uint32_t kOp = kOpL;  // the longest input: the stream checks need 6 words or more
size_t k_words(const bike_params *p) { return (BIKE_M_BYTES + p->ct_bytes + 7) / 8; }
size_t in_words(const bike_params *p, uint32_t op) {
  return op == kOpL ? 2 * p->r_qwords : op == kOpK ? k_words(p) : BIKE_M_BYTES / 8;
}
size_t out_words(const bike_params *p, uint32_t op) {
  return op == kOpKeygen ? 2 * idx_words(p) : op == kOpH ? 2 * p->r_qwords : 4;
}
// KEYGEN, H: a random seed or m; L: two polynomials; K: m and random ct
// bytes, the unused bytes of the last word random (the device must ignore
// them)
void random_input(const bike_params *p, uint32_t op, tb::Rng &rng, unsigned kind, uint64_t *in) {
  size_t n = p->r_qwords;
  if (op == kOpL) {
    tb::operand(p, rng, kind, in);
    tb::operand(p, rng, kind, in + n);
    return;
  }
  for (size_t i = 0; i < in_words(p, op); i++) in[i] = rng.next();
}
void reference(const bike_params *p, uint32_t op, uint64_t *c, const uint64_t *in) {
  static uint32_t h0[BIKE_MAX_D], h1[BIKE_MAX_D];
  static uint8_t out[BIKE_HASH_OUT_BYTES];
  const uint8_t *bytes = reinterpret_cast<const uint8_t *>(in);  // little-endian words
  size_t n = p->r_qwords;
  if (op == kOpKeygen) {
    bike_sample_keygen(p, h0, h1, bytes);
    pack_idx(p, c, h0);
    pack_idx(p, c + idx_words(p), h1);
    return;
  }
  if (op == kOpH) {
    bike_function_h(p, c, c + n, nullptr, bytes);
    return;
  }
  if (op == kOpL) {
    bike_function_l(p, out, in, in + n);
  } else {
    bike_function_k(p, out, bytes, bytes + BIKE_M_BYTES);
  }
  std::memcpy(c, out, sizeof out);
}
#else
using Model = Vgf2x_mul_acc;
constexpr uint32_t kCore = ACC_SHELL__ACC_SHELL_CORE_E__GF2X_MUL;
const char *const kName = "gf2x_mul_acc";
constexpr uint32_t kOps[] = {1};  // MUL
const char *const kOpNames[] = {"op"};
constexpr uint32_t kOp = 1;
size_t in_words(const bike_params *p, uint32_t) { return 2 * p->r_qwords; }
size_t out_words(const bike_params *p, uint32_t) { return p->r_qwords; }
void random_input(const bike_params *p, uint32_t, tb::Rng &rng, unsigned kind, uint64_t *in) {
  tb::operand(p, rng, kind, in);
  tb::operand(p, rng, kind, in + p->r_qwords);
}
void reference(const bike_params *p, uint32_t, uint64_t *c, const uint64_t *in) {
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

  uint32_t opc = kOp;  // the operation that op() and check() run
  size_t in_words() const { return ::in_words(p, opc); }
  size_t out_words() const { return ::out_words(p, opc); }

  std::vector<uint64_t> valid_input(unsigned kind) {
    std::vector<uint64_t> in(in_words());
    random_input(p, opc, rng, kind, in.data());
    return in;
  }

  // one operation through the bus: the result words into c, STATUS into
  // *st; returns CYCLES. Checks the stream lengths and counters.
  uint32_t op(uint64_t *c, const std::vector<uint64_t> &in, bool gaps, uint32_t *st) {
    bus.bp = gaps;
    bus.start_source(in, in.size(), in.size() - 1);
    bus.arm_sink();
    start(opc);
    *st = wait_done("operation");
    for (int i = 0; !bus.sink_done && i < 1000; i++) bus.step();
    expect_eq("operation: result words", bus.sink.size(), out_words());
    for (size_t i = 0; i < out_words(); i++) c[i] = i < bus.sink.size() ? bus.sink[i] : 0;
    uint32_t cnt = bus.read(kStream);
    expect_eq("operation: STREAM.IN", FIELD(cnt, STREAM, IN), in.size());
    expect_eq("operation: STREAM.OUT", FIELD(cnt, STREAM, OUT), out_words());
    bus.bp = false;
    return bus.read(kCycles);
  }

  // an operation that must succeed: compared with libbike; returns CYCLES
  uint32_t check(const char *what, unsigned vec, const std::vector<uint64_t> &in, bool gaps) {
    static uint64_t c[kMaxOut], e[kMaxOut];
    reference(p, opc, e, in.data());
    uint32_t st = 0, cyc = op(c, in, gaps, &st);
    expect_eq("operation: STATUS (done, no error, idle)", st, ACC_SHELL__STATUS__DONE_bm);
    if (!tb::same_words(what, vec, c, e, out_words())) fails++;
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
  expect_eq("WORDS.OUT of the operation", FIELD(w, WORDS, OUT), t.out_words());
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
  constexpr uint32_t kNumOps = sizeof kOps / sizeof kOps[0];  // codes 1..kNumOps
  const uint32_t bad_ops[] = {0, kNumOps + 1, 0x80, 0xff};
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
  static uint64_t c[kMaxOut], e[kMaxOut];
  std::vector<uint64_t> in = t.valid_input(0);
  reference(t.p, kOp, e, in.data());
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
  for (size_t i = 0; i < t.out_words(); i++) c[i] = i < t.bus.sink.size() ? t.bus.sink[i] : 0;
  if (!tb::same_words("result under a refused START", 0, c, e, t.out_words())) fails++;
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
  static uint64_t c[kMaxOut];
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

  // CYCLES per operation, the same for every vector without gaps
  constexpr size_t kNumOps = sizeof kOps / sizeof kOps[0];
  uint64_t cycles[kNumOps] = {};
  unsigned vec[kNumOps] = {};  // every other run of each operation with gaps
  auto check = [&](const char *what, unsigned v, size_t k, const std::vector<uint64_t> &in) {
    bool gaps = (vec[k]++ & 1) != 0;
    t.opc = kOps[k];
    uint32_t c = t.check(what, v, in, gaps);
    if (!gaps) {
      if (cycles[k] && c != cycles[k]) {
        std::fprintf(stderr, "CYCLES %s %s vector %u: %u, before %llu\n", kOpNames[k], what, v,
                     c, (unsigned long long)cycles[k]);
        fails++;
      }
      uint64_t want = tb::formula(args.level, kOpNames[k]);
      if (c != want) {
        std::fprintf(stderr, "CYCLES %s %s vector %u: %u, formula %llu\n", kOpNames[k], what, v,
                     c, (unsigned long long)want);
        fails++;
      }
      cycles[k] = c;
    }
  };
  auto kat_check = [&](const char *what, unsigned v, size_t k, const std::vector<uint64_t> &in) {
    check(what, v, k, in);
    rep.kat++;
  };
  for (unsigned v = 0; v < args.random; v++) {
    size_t k = v % kNumOps;
    t.opc = kOps[k];
    check("random", v, k, t.valid_input(v < 8 ? v % 4 : 0));
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
#if defined(TB_INV)
      const uint8_t *h0 = rec["sk"].data() + 8 * p->d;
      bike_poly_from_bytes(p, in.data(), h0);  // h0 and h: odd weight
      kat_check("kat h0^-1", used, 0, in);
      bike_poly_from_bytes(p, in.data(), rec["pk"].data());
      kat_check("kat h^-1", used, 0, in);
#elif defined(TB_SPARSE)
      std::vector<uint32_t> idx(p->d);
      tb::sk_support(p, rec["sk"].data(), 0, idx.data());
      pack_idx(p, in.data(), idx.data());
      bike_poly_from_bytes(p, in.data() + idx_words(p), rec["ct"].data());
      kat_check("kat h0 c0 (the syndrome)", used, 0, in);
      tb::sk_support(p, rec["sk"].data(), 1, idx.data());
      pack_idx(p, in.data(), idx.data());
      bike_poly_from_bytes(p, in.data() + idx_words(p), rec["pk"].data());
      kat_check("kat h1 h", used, 0, in);
#elif defined(TB_DECODER)
      // the syndrome c0 h0 of the record (it decodes), then with one bit
      // flipped (it does not)
      static uint64_t c0[BIKE_MAX_QWORDS], h0[BIKE_MAX_QWORDS];
      std::vector<uint32_t> idx(p->d);
      size_t nw = idx_words(p);
      for (unsigned b = 0; b < 2; b++) {
        tb::sk_support(p, rec["sk"].data(), b, idx.data());
        pack_idx(p, in.data() + b * nw, idx.data());
      }
      bike_poly_from_bytes(p, c0, rec["ct"].data());
      tb::sk_h0(p, rec["sk"].data(), h0);
      bike_gf2x_mul(p, in.data() + 2 * nw, c0, h0);
      kat_check("kat decode c0 h0", used, 0, in);
      in[2 * nw] ^= 1;
      kat_check("kat decode c0 h0 + 1", used, 0, in);
#elif defined(TB_KECCAK)
      // the record's ss as the seed and as m; K with the record's ct
      const uint8_t *ss = rec["ss"].data();
      for (size_t k = 0; k < kNumOps; k++) {
        std::vector<uint64_t> kin(in_words(p, kOps[k]));
        if (kOps[k] == kOpL) {
          bike_function_h(p, kin.data(), kin.data() + t.n, nullptr, ss);
        } else {
          std::memcpy(kin.data(), ss, BIKE_M_BYTES);
        }
        if (kOps[k] == kOpK) std::memcpy(kin.data() + 4, rec["ct"].data(), p->ct_bytes);
        kat_check(kOpNames[k], used, k, kin);
      }
#else
      const uint8_t *h0 = rec["sk"].data() + 8 * p->d;
      bike_poly_from_bytes(p, in.data(), rec["ct"].data());
      bike_poly_from_bytes(p, in.data() + t.n, h0);
      kat_check("kat c0*h0", used, 0, in);
      bike_poly_from_bytes(p, in.data(), rec["pk"].data());
      kat_check("kat h*h0", used, 0, in);
#endif
      used++;
    }
  }
#if defined(TB_DECODER)
  // both outcomes seen, each with the same status and cycles
  if (rep.random + rep.kat >= 2 && (!outcomes[0] || !outcomes[1])) {
    std::fprintf(stderr, "FAIL decoder outcomes: %u not decoded, %u decoded; expected both\n",
                 outcomes[0], outcomes[1]);
    fails++;
  }
#endif
  std::printf("%s L%d R=%u: register and misuse checks (%u failures), %u random + %u KAT "
              "operations through the bus, %u failures; CYCLES per operation:",
              kName, args.level, p->r, misuse_fails, rep.random, rep.kat, fails);
  for (size_t k = 0; k < kNumOps; k++) {
    rep.cycle(kOpNames[k], cycles[k]);
    std::printf(" %s %llu", kOpNames[k], (unsigned long long)cycles[k]);
    std::printf(" (formula %llu)", (unsigned long long)tb::formula(args.level, kOpNames[k]));
  }
  std::printf("\n");
  if (fails) return 1;
  rep.write(args.json);
  return 0;
}
