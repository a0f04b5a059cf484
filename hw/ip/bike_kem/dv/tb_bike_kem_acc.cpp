// Testbench of bike_kem_acc (doc/bike_kem.md, "The bus device"): one KEM
// shape behind the accelerator shell, driven only through its AXI4-Lite and
// AXI4-Stream ports (tb_axi.h) with the offsets, masks and codes of the C
// header generated from the shell's SystemRDL; every output word compared
// with libbike and the KAT files.
//
// Per vector (KAT record with its DRBG coins, or random coins), the shape's
// operations: KEYGEN (coins -> the secret key's objects, pk among them),
// ENCAPS (pk, coins -> ct, ss), DECAPS (ct, sk -> ss) and one tampered
// ciphertext (a flipped bit of c0 below r, of c1, or a c0 bit at or above r
// set, in turn) against libbike's bike_decaps (implicit rejection): same
// STATUS, same CYCLES, libbike's rejection secret. Every other vector has
// random gaps on every handshake and waits for the interrupt.
//
// Once per run, before the vectors: reset values; WORDS of every operation
// (0 for one the shape lacks); unknown operations (OP); START while busy
// (BUSY, the running result still right); a short stream for each operation
// (IN_SHORT), and on the shortest one TLAST on word 0, a long stream
// (IN_LONG), ABORT during and before the stream (ABORT), no TLAST then ABORT,
// each with no result word (the sink fails on any TVALID outside an expected
// packet) and STREAM's counts; a public key with a bit at or above r (ENCAPS)
// and a secret-key position at or above r (DECAPS): CORE with zero result
// words; after each, a right result.
//
// Cycles: CYCLES of each operation without gaps, the same for every vector,
// and the core's own latency of the primitive (bike_kem_stream's prim_cycle,
// read through Verilator), the same for every vector with or without gaps,
// tampered or not: the report's cycles are the core's (the results records);
// CYCLES minus them must be the doc's transfer term (overhead()).
#include <cstdarg>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Vbike_kem_acc.h"
#include "Vbike_kem_acc___024root.h"
#include "acc_shell_enums.h"
#include "acc_shell_regs.h"
#include "tb_axi.h"
#include "tb_common.h"
#include "verilated.h"

extern "C" {
#include "bike/bike.h"
#include "drbg.h"
}

#if !defined(TB_KEYGEN) || !defined(TB_ENCAPS) || !defined(TB_DECAPS)
#error "TB_KEYGEN, TB_ENCAPS and TB_DECAPS must be defined by the build"
#endif

namespace {

constexpr bool kKeygen = TB_KEYGEN != 0, kEncaps = TB_ENCAPS != 0, kDecaps = TB_DECAPS != 0;

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

constexpr uint32_t field(uint32_t v, uint32_t bm, uint32_t bp) { return (v & bm) >> bp; }
#define FIELD(v, reg, f) field((v), ACC_SHELL__##reg##__##f##_bm, ACC_SHELL__##reg##__##f##_bp)
#define ERR(name) ACC_SHELL__ACC_SHELL_ERR_E__##name
constexpr uint32_t kDone = ACC_SHELL__STATUS__DONE_bm;
constexpr uint32_t kBothIntr = ACC_SHELL__INTR_STATE__DONE_bm | ACC_SHELL__INTR_STATE__ERROR_bm;

// doc/bike_kem.md: the operations
enum : uint32_t { OP_KEYGEN = 1, OP_ENCAPS = 2, OP_DECAPS = 3 };
const char *op_name(uint32_t op) {
  return op == OP_KEYGEN ? "keygen" : op == OP_ENCAPS ? "encaps" : "decaps";
}
bool in_shape(uint32_t op) {
  return (op == OP_KEYGEN && kKeygen) || (op == OP_ENCAPS && kEncaps) ||
         (op == OP_DECAPS && kDecaps);
}

using Bytes = std::vector<uint8_t>;
using Words = std::vector<uint64_t>;

// byte k of an object is bits 8(k mod 8) + 7 .. 8(k mod 8) of its word k / 8,
// padded with zero bytes to nwords words; appended to w
void put(Words &w, const uint8_t *b, size_t nbytes, size_t nwords) {
  size_t base = w.size();
  w.resize(base + nwords, 0);
  for (size_t k = 0; k < nbytes; k++) w[base + k / 8] |= (uint64_t)b[k] << (8 * (k % 8));
}
// nbytes bytes of the object at word `at`
Bytes get(const Words &w, size_t at, size_t nbytes) {
  Bytes b(nbytes);
  for (size_t k = 0; k < nbytes; k++) b[k] = (uint8_t)(w[at + k / 8] >> (8 * (k % 8)));
  return b;
}

struct Vec {
  std::string kind;  // "kat" or "random"
  unsigned idx = 0;
  uint8_t kg[64], enc[64];
  Bytes pk, sk, ct, ss;
};

uint64_t op_timeout = 200000000;  // cycles of one operation at most

struct Tb {
  const bike_params *p;
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vbike_kem_acc> m;
  tb::Rng rng;
  tbaxi::Bus<Vbike_kem_acc> bus;
  tb::Report rep;
  unsigned fails = 0, tampered = 0;
  bool irq_wait = false;             // wait for irq_o instead of polling STATUS
  uint64_t prim = 0;                 // cycles of prim_cycle since the operation's START
  std::map<uint32_t, uint64_t> bus_cycles, core_cycles;  // per op: the first seen
  std::map<uint32_t, std::string> first_where;
  size_t N, D, RB, off_sigma;

  Tb(const tb::Args &a, const bike_params *prm)
      : p(prm), ctx(new VerilatedContext), m(new Vbike_kem_acc(ctx.get())), rng(a.seed),
        bus(m.get(), &rng) {
    N = p->r_qwords;
    D = p->d;
    RB = p->r_bytes;
    off_sigma = 8 * D + 3 * RB;
    m->s_axil_awprot = 0;
    m->s_axil_arprot = 0;
    tb::reset(m.get());
  }

  __attribute__((format(printf, 2, 3))) void fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    std::fputc('\n', stderr);
    fails++;
  }
  void expect_eq(const std::string &what, uint64_t got, uint64_t want) {
    if (got != want)
      fail("FAIL %s: got 0x%llx, expected 0x%llx", what.c_str(), (unsigned long long)got,
           (unsigned long long)want);
  }
  bool same_words(const std::string &what, const Words &got, const Words &exp) {
    if (got.size() != exp.size()) {
      fail("MISMATCH %s: %zu result words, expected %zu", what.c_str(), got.size(), exp.size());
      return false;
    }
    for (size_t i = 0; i < exp.size(); i++) {
      if (got[i] != exp[i]) {
        fail("MISMATCH %s: first differing word %zu: got %016llx expected %016llx", what.c_str(),
             i, (unsigned long long)got[i], (unsigned long long)exp[i]);
        return false;
      }
    }
    return true;
  }

  // doc/bike_kem.md: the stream lengths of each operation
  size_t in_words(uint32_t op) const {
    return op == OP_KEYGEN ? 8 : op == OP_ENCAPS ? N + 8 : N + D + 8;
  }
  size_t out_words(uint32_t op) const {
    return op == OP_KEYGEN ? D + 3 * N + 4 : op == OP_ENCAPS ? N + 8 : 4;
  }
  // the words of one operation (doc/bike_kem.md)
  Words keygen_in(const Vec &v) const {
    Words w;
    put(w, v.kg, 64, 8);
    return w;
  }
  Words keygen_out(const Vec &v) const {  // the secret key's objects, in its order
    Words w;
    put(w, v.sk.data(), 8 * D, D);
    for (int k = 0; k < 3; k++) put(w, v.sk.data() + 8 * D + k * RB, RB, N);
    put(w, v.sk.data() + off_sigma, 32, 4);
    return w;
  }
  Words encaps_in(const Vec &v) const {
    Words w;
    put(w, v.pk.data(), RB, N);
    put(w, v.enc, 64, 8);
    return w;
  }
  Words encaps_out(const Vec &v) const {
    Words w;
    put(w, v.ct.data(), RB, N);
    put(w, v.ct.data() + RB, 32, 4);
    put(w, v.ss.data(), 32, 4);
    return w;
  }
  Words decaps_in(const Bytes &ct, const Bytes &sk) const {
    Words w;
    put(w, ct.data(), RB, N);
    put(w, ct.data() + RB, 32, 4);
    put(w, sk.data(), 8 * D, D);
    put(w, sk.data() + off_sigma, 32, 4);
    return w;
  }
  Words ss_out(const uint8_t *ss) const {
    Words w;
    put(w, ss, 32, 4);
    return w;
  }

  // ---- the bus ------------------------------------------------------------------

  uint32_t status() { return bus.read(kStatus); }
  void start(uint32_t op, uint32_t extra = 0) {
    bus.write(kCtrl, (op << ACC_SHELL__CTRL__OP_bp) | ACC_SHELL__CTRL__START_bm | extra);
  }
  void clear_intr() { bus.write(kIntrState, 0xffffffffu); }

  // Waits for STATUS.DONE (polling, or on irq_o with INTR_ENABLE.DONE set).
  uint32_t wait_done(const std::string &what) {
    uint64_t t0 = bus.cycle;
    for (;;) {
      if (bus.cycle - t0 > op_timeout) {
        std::fprintf(stderr, "TIMEOUT %s: no DONE after %llu cycles (STATUS 0x%08x)\n",
                     what.c_str(), (unsigned long long)op_timeout, status());
        std::exit(1);
      }
      if (irq_wait) {
        bus.step();
        if (!bus.irq) continue;
        uint32_t s = status();
        if (!FIELD(s, STATUS, DONE)) {
          std::fprintf(stderr, "IRQ %s: irq_o high with STATUS 0x%08x\n", what.c_str(), s);
          std::exit(1);
        }
        return s;
      }
      uint32_t s = status();
      if (FIELD(s, STATUS, DONE)) return s;
      bus.idle(bus.bp ? rng.next() % 16 : 4);
    }
  }

  // One operation: `in` streamed (TLAST on its last word), the result packet
  // into *out. Returns STATUS; *cycles is CYCLES. Checks STREAM's counts.
  // Until the packet's TLAST the bus runs cycle by cycle, so that the core's
  // latency (prim_cycle) is seen in every cycle; then STATUS is awaited.
  uint32_t run(uint32_t op, const Words &in, Words *out, uint64_t *cycles, const std::string &what) {
    if (irq_wait) bus.write(kIntrEnable, ACC_SHELL__INTR_ENABLE__DONE_bm);
    bus.start_source(in, in.size(), in.size() - 1);
    bus.arm_sink();
    prim = 0;
    start(op);
    for (uint64_t t = 0; !bus.sink_done && t < op_timeout; t++) {
      bus.step();
      prim += m->rootp->bike_kem_acc__DOT__u_core__DOT__prim_cycle;
    }
    if (!bus.sink_done) fail("STREAM %s: no TLAST on the result packet", what.c_str());
    uint32_t s = wait_done(what);
    bus.sink_armed = false;
    bus.stop_source();
    *out = bus.sink;
    uint32_t st = bus.read(kStream);
    expect_eq(what + ": STREAM.IN", FIELD(st, STREAM, IN), in.size());
    expect_eq(what + ": STREAM.OUT", FIELD(st, STREAM, OUT), out_words(op));
    *cycles = bus.read(kCycles);
    if (irq_wait) bus.write(kIntrEnable, 0);
    clear_intr();
    expect_eq(what + ": irq_o after INTR_STATE is cleared", m->irq_o, 0);
    return s;
  }

  // An operation that must succeed with result `exp`; the cycles checked.
  bool check(uint32_t op, const Words &in, const Words &exp, const std::string &what,
             Words *got = nullptr) {
    Words out;
    uint64_t cyc = 0;
    uint32_t s = run(op, in, &out, &cyc, what);
    expect_eq(what + ": STATUS (done, no error, idle)", s, kDone);
    bool good = same_words(what, out, exp);
    if (got) *got = out;
    cycles(op, cyc, what);
    return good;
  }

  // CYCLES without gaps, and the core's latency, the same on every vector;
  // their difference is the documented transfer term
  void cycles(uint32_t op, uint64_t cyc, const std::string &what) {
    const char *name = op_name(op);
    auto cf = core_cycles.find(op);
    if (cf == core_cycles.end()) {
      core_cycles[op] = prim;
      first_where[op] = what;
      rep.cycle(name, prim);
    } else if (cf->second != prim) {
      fail("CYCLES %s: the core's %s took %llu cycles, %llu in %s (not constant time)",
           what.c_str(), name, (unsigned long long)prim, (unsigned long long)cf->second,
           first_where[op].c_str());
    }
    if (bus.bp) return;  // stream gaps lengthen CYCLES
    auto bf = bus_cycles.find(op);
    if (bf == bus_cycles.end()) {
      bus_cycles[op] = cyc;
      if (cyc != prim + overhead(op))
        fail("CYCLES %s: %llu through the shell, the core's %llu + transfer term %llu expected",
             what.c_str(), (unsigned long long)cyc, (unsigned long long)prim,
             (unsigned long long)overhead(op));
    } else if (bf->second != cyc) {
      fail("CYCLES %s: %llu, before %llu", what.c_str(), (unsigned long long)cyc,
           (unsigned long long)bf->second);
    }
  }

  // doc/bike_kem.md: CYCLES = the primitive's latency + this transfer term.
  // Each LOAD and STORE takes its issue cycle, its words and bike_kem's done
  // cycle: LOAD a word per cycle (SK_POS a word per two), STORE of a
  // polynomial N + 2 cycles, of SK_POS three per word, of a 4-word object 4.
  // The primitive adds its done cycle (its latency counts its issue cycle).
  uint64_t overhead(uint32_t op) const {
    if (op == OP_KEYGEN)  // LOAD RAND; STORE SK_POS, 3 polynomials, SIGMA
      return 1 + (2 + 8) + (2 + 3 * D) + 3 * (2 + N + 2) + (2 + 4);
    if (op == OP_ENCAPS)  // LOAD PK, RAND; STORE C0, C1, SS
      return 1 + (2 + N) + (2 + 8) + (2 + N + 2) + 2 * (2 + 4);
    // LOAD C0, C1, SK_POS, SIGMA; STORE SS
    return 1 + (2 + N) + (2 + 4) + (2 + 2 * D) + (2 + 4) + (2 + 4);
  }

  // ---- the operations on a vector ----------------------------------------------

  void keygen(const Vec &v, const std::string &what) {
    Words got;
    if (!check(OP_KEYGEN, keygen_in(v), keygen_out(v), what + " KEYGEN", &got)) return;
    // the libbike byte strings from the words: sk = SK_POS || H0 || H1 || PK || SIGMA
    Bytes sk = get(got, 0, 8 * D);
    for (int k = 0; k < 3; k++) {
      Bytes o = get(got, D + k * N, RB);
      sk.insert(sk.end(), o.begin(), o.end());
    }
    Bytes sigma = get(got, D + 3 * N, 32);
    sk.insert(sk.end(), sigma.begin(), sigma.end());
    Bytes pk = get(got, D + 2 * N, RB);
    if (sk != v.sk || pk != v.pk) fail("MISMATCH %s KEYGEN: sk or pk bytes", what.c_str());
  }

  void encaps(const Vec &v, const std::string &what) {
    check(OP_ENCAPS, encaps_in(v), encaps_out(v), what + " ENCAPS");
  }

  void decaps(const Vec &v, const std::string &what) {
    check(OP_DECAPS, decaps_in(v.ct, v.sk), ss_out(v.ss.data()), what + " DECAPS");
    tamper(v, what);
  }

  // One tampered ciphertext of v (the kinds in turn over the run): libbike's
  // implicit-rejection secret, with the STATUS and CYCLES of an accepted one
  void tamper(const Vec &v, const std::string &what) {
    Bytes ct = v.ct;
    unsigned kind = tampered++ % 3;
    uint64_t bit;
    std::string w;
    if (kind == 0) {
      bit = rng.next() % p->r;
      ct[bit / 8] ^= (uint8_t)(1u << (bit % 8));
      w = what + " DECAPS tampered c0 bit " + std::to_string(bit);
    } else if (kind == 1) {
      bit = rng.next() % 256;
      ct[RB + bit / 8] ^= (uint8_t)(1u << (bit % 8));
      w = what + " DECAPS tampered c1 bit " + std::to_string(bit);
    } else {  // inside R_BYTES: libbike sees it too
      bit = p->r + rng.next() % (8 * RB - p->r);
      ct[bit / 8] |= (uint8_t)(1u << (bit % 8));
      w = what + " DECAPS c0 bit " + std::to_string(bit) + " (>= r) set";
    }
    uint8_t ref[32];
    if (bike_decaps(p->level, ref, ct.data(), ct.size(), v.sk.data(), v.sk.size()) != BIKE_OK ||
        std::memcmp(ref, v.ss.data(), 32) == 0) {
      std::fprintf(stderr, "libbike: %s gave an error or the true ss\n", w.c_str());
      std::exit(2);
    }
    check(OP_DECAPS, decaps_in(ct, v.sk), ss_out(ref), w);
  }

  void vector(const Vec &v) {
    std::string what = v.kind + " " + std::to_string(v.idx);
    if (kKeygen) keygen(v, what);
    if (kEncaps) encaps(v, what);
    if (kDecaps) decaps(v, what);
  }

  // ---- registers and bad use ------------------------------------------------------

  // the shape's shortest operation (the misuse tests' own and their checks'
  // after), its input and result on v
  uint32_t short_op() const { return kEncaps ? OP_ENCAPS : kDecaps ? OP_DECAPS : OP_KEYGEN; }
  Words op_in(uint32_t op, const Vec &v) const {
    return op == OP_KEYGEN ? keygen_in(v) : op == OP_ENCAPS ? encaps_in(v) : decaps_in(v.ct, v.sk);
  }
  Words op_out(uint32_t op, const Vec &v) const {
    return op == OP_KEYGEN ? keygen_out(v) : op == OP_ENCAPS ? encaps_out(v) : ss_out(v.ss.data());
  }
  void recovers(const Vec &v, const std::string &what) {
    uint32_t op = short_op();
    check(op, op_in(op, v), op_out(op, v), "after " + what);
  }

  void registers() {
    expect_eq("reset ID", bus.read(kId),
              (ACC_SHELL__ID__MAGIC_reset << ACC_SHELL__ID__MAGIC_bp) |
                  ACC_SHELL__ACC_SHELL_CORE_E__BIKE_KEM);
    expect_eq("reset VERSION", bus.read(kVersion),
              (ACC_SHELL__VERSION__MAJOR_reset << ACC_SHELL__VERSION__MAJOR_bp) |
                  (ACC_SHELL__VERSION__MINOR_reset << ACC_SHELL__VERSION__MINOR_bp));
    expect_eq("reset PARAM (r)", bus.read(kParam), p->r);
    const uint16_t zero[] = {kCtrl, kStatus, kIntrState, kIntrEnable, kCycles, kWords, kStream};
    for (uint16_t a : zero) expect_eq("reset value of 0x" + std::to_string(a), bus.read(a), 0);
    expect_eq("reset irq_o", m->irq_o, 0);
    // WORDS follows CTRL.OP: the shape's operations, 0 for the others
    for (uint32_t op : {1u, 2u, 3u, 0u, 4u, 5u, 0x81u, 0xffu}) {
      bus.write(kCtrl, op << ACC_SHELL__CTRL__OP_bp);
      uint32_t w = bus.read(kWords);
      bool known = op >= 1 && op <= 3 && in_shape(op);
      std::string n = "WORDS of op " + std::to_string(op);
      expect_eq(n + ".IN", FIELD(w, WORDS, IN), known ? in_words(op) : 0);
      expect_eq(n + ".OUT", FIELD(w, WORDS, OUT), known ? out_words(op) : 0);
    }
    bus.write(kCtrl, 0);
  }

  // unknown operations and those the shape lacks: OP at once, nothing runs
  void unknown_ops() {
    for (uint32_t op : {0u, 1u, 2u, 3u, 4u, 0x83u, 0xffu}) {
      if (op >= 1 && op <= 3 && in_shape(op)) continue;
      start(op);
      uint32_t s = status();
      std::string n = "START of op " + std::to_string(op);
      expect_eq(n + ": STATUS", s, kDone | (ERR(OP) << ACC_SHELL__STATUS__ERROR_bp));
      expect_eq(n + ": STREAM", bus.read(kStream), 0);
      expect_eq(n + ": INTR_STATE", bus.read(kIntrState), kBothIntr);
      clear_intr();
    }
  }

  // START while busy: refused (BUSY), the running operation's result right
  void start_while_busy(const Vec &v) {
    uint32_t op = short_op();
    Words in = op_in(op, v);
    start(op);  // no stream yet: the shell waits for it
    start(op);
    uint32_t s = status();
    expect_eq("START while busy: STATUS", s,
              ACC_SHELL__STATUS__BUSY_bm | (ERR(BUSY) << ACC_SHELL__STATUS__ERROR_bp));
    bus.start_source(in, in.size(), in.size() - 1);
    bus.arm_sink();
    s = wait_done("START while busy");
    for (int i = 0; !bus.sink_done && i < 1000; i++) bus.step();
    bus.sink_armed = false;
    bus.stop_source();
    expect_eq("START while busy: STATUS at the end", s,
              kDone | (ERR(BUSY) << ACC_SHELL__STATUS__ERROR_bp));
    same_words("START while busy: the running operation's result", bus.sink, op_out(op, v));
    clear_intr();
    recovers(v, "START while busy");
  }

  // A stream of len words with TLAST on word last_at (none if >= len); ABORT
  // once the shell has taken what it will. No result word may leave.
  void bad_stream(const Vec &v, uint32_t op, const char *what, size_t len, size_t last_at,
                  uint32_t want_err, size_t want_in, bool abort) {
    Words w = op_in(op, v);
    w.resize(len + 1);
    for (size_t i = in_words(op); i < w.size(); i++) w[i] = rng.next();
    std::string n = std::string(op_name(op)) + ": " + what;
    bus.start_source(w, len, last_at);  // the sink is not armed
    start(op);
    if (abort) {
      bus.idle(4 * len + 50);
      expect_eq(n + ": busy before ABORT", FIELD(status(), STATUS, BUSY), 1);
      bus.write(kCtrl, (op << ACC_SHELL__CTRL__OP_bp) | ACC_SHELL__CTRL__ABORT_bm);
    }
    uint32_t s = wait_done(n);
    bus.idle(50);
    expect_eq(n + ": STATUS", s, kDone | (want_err << ACC_SHELL__STATUS__ERROR_bp));
    uint32_t st = bus.read(kStream);
    expect_eq(n + ": STREAM.IN", FIELD(st, STREAM, IN), want_in);
    expect_eq(n + ": STREAM.OUT", FIELD(st, STREAM, OUT), 0);
    expect_eq(n + ": INTR_STATE", bus.read(kIntrState), kBothIntr);
    bus.stop_source();
    clear_intr();
    recovers(v, n);
  }

  // every operation's program with a short stream (the shell pads it), the
  // other misuse on the shortest operation
  void streams(const Vec &v) {
    for (uint32_t op : {OP_KEYGEN, OP_ENCAPS, OP_DECAPS}) {
      size_t w = in_words(op);
      if (in_shape(op))
        bad_stream(v, op, "short stream (TLAST early)", w - 3, w - 4, ERR(IN_SHORT), w - 3, false);
    }
    uint32_t op = short_op();
    size_t w = in_words(op);
    bad_stream(v, op, "TLAST on word 0", 1, 0, ERR(IN_SHORT), 1, false);
    bad_stream(v, op, "long stream (TLAST late)", w + 2, w + 1, ERR(IN_LONG), w + 2, false);
    bad_stream(v, op, "half a stream, then ABORT", w / 2, w / 2, ERR(ABORT), w / 2, true);
    bad_stream(v, op, "no TLAST, then ABORT", w + 5, w + 5, ERR(IN_LONG), w + 5, true);
    bad_stream(v, op, "no stream, then ABORT", 0, 0, ERR(ABORT), 0, true);
  }

  // A key the core refuses: CORE, the result words all zero
  void refused_key(const Vec &v, uint32_t op, const Words &in, const std::string &what) {
    Words out;
    uint64_t cyc;
    uint32_t s = run(op, in, &out, &cyc, what);
    expect_eq(what + ": STATUS", s, kDone | (ERR(CORE) << ACC_SHELL__STATUS__ERROR_bp));
    same_words(what + ": zero result words", out, Words(out_words(op), 0));
    recovers(v, what);
  }

  void bad_keys(const Vec &v) {
    if (kEncaps) {  // libbike: BIKE_ERR_KEY
      Bytes pk = v.pk;
      uint64_t bit = p->r + rng.next() % (8 * RB - p->r);
      pk[bit / 8] |= (uint8_t)(1u << (bit % 8));
      uint8_t ct[BIKE_MAX_CIPHERTEXT_BYTES], ss[32];
      if (bike_encaps_derand(p->level, ct, p->ct_bytes, ss, pk.data(), pk.size(), v.enc) !=
          BIKE_ERR_KEY) {
        std::fprintf(stderr, "libbike accepts a public key with bit %llu set\n",
                     (unsigned long long)bit);
        std::exit(2);
      }
      Vec b = v;
      b.pk = pk;
      refused_key(v, OP_ENCAPS, encaps_in(b),
                  "ENCAPS, public key with bit " + std::to_string(bit) + " (>= r) set");
    }
    if (kDecaps) {  // libbike: BIKE_ERR_KEY
      Bytes sk = v.sk;
      size_t i = rng.next() % (2 * D);
      uint32_t bad = (rng.next() & 1) ? p->r : (uint32_t)(p->r + rng.next() % (0xFFFFFFFFull - p->r));
      for (int b = 0; b < 4; b++) sk[4 * i + b] = (uint8_t)(bad >> (8 * b));
      uint8_t ss[32];
      if (bike_decaps(p->level, ss, v.ct.data(), v.ct.size(), sk.data(), sk.size()) !=
          BIKE_ERR_KEY) {
        std::fprintf(stderr, "libbike accepts a secret key with position %u\n", bad);
        std::exit(2);
      }
      refused_key(v, OP_DECAPS, decaps_in(v.ct, sk),
                  "DECAPS, secret-key position " + std::to_string(i) + " = " +
                      std::to_string(bad) + " (>= r)");
    }
  }
};

}  // namespace

int main(int argc, char **argv) {
  tb::Args args = tb::parse_args(argc, argv);
  for (int i = 1; i < argc; i++)
    if (std::strncmp(argv[i], "+op_timeout=", 12) == 0)
      op_timeout = std::strtoull(argv[i] + 12, nullptr, 10);
  const bike_params *p = bike_params_get(args.level);
  if (!p) return 2;
  Tb t(args, p);
  const size_t pk_len = p->pk_bytes, sk_len = p->sk_bytes, ct_len = p->ct_bytes;

  auto random_vec = [&](unsigned idx) {
    Vec v;
    v.kind = "random";
    v.idx = idx;
    t.rng.bytes(v.kg, 64);
    t.rng.bytes(v.enc, 64);
    v.pk.resize(pk_len);
    v.sk.resize(sk_len);
    v.ct.resize(ct_len);
    v.ss.resize(32);
    if (bike_keypair_derand(args.level, v.pk.data(), pk_len, v.sk.data(), sk_len, v.kg) != BIKE_OK ||
        bike_encaps_derand(args.level, v.ct.data(), ct_len, v.ss.data(), v.pk.data(), pk_len,
                           v.enc) != BIKE_OK) {
      std::fprintf(stderr, "libbike failed on random vector %u\n", idx);
      std::exit(2);
    }
    return v;
  };

  // registers and bad use once, on a vector of their own
  Vec e = random_vec(1000000);
  t.registers();
  t.unknown_ops();
  t.start_while_busy(e);
  t.streams(e);
  t.bad_keys(e);
  unsigned misuse_fails = t.fails;

  auto one = [&](const Vec &v, unsigned i) {
    t.bus.bp = i % 2 == 1;
    t.irq_wait = t.bus.bp;
    unsigned before = t.fails;
    t.vector(v);
    t.bus.bp = false;
    t.irq_wait = false;
    return t.fails == before;
  };
  if (args.kat) {
    std::vector<tb::Record> recs = tb::read_kat(tb::kat_path(args));
    for (unsigned i = 0; i < args.kat && i < recs.size(); i++) {
      tb::Record &r = recs[i];
      Vec v;
      v.kind = "kat";
      v.idx = i;
      if (r["seed"].size() != 48 || r["pk"].size() != pk_len || r["sk"].size() != sk_len ||
          r["ct"].size() != ct_len || r["ss"].size() != 32) {
        std::fprintf(stderr, "KAT record %u: unexpected field sizes\n", i);
        return 2;
      }
      nist_drbg d;
      if (nist_drbg_init(&d, r["seed"].data()) != 0 || nist_drbg_generate(&d, v.kg, 64) != 0 ||
          nist_drbg_generate(&d, v.enc, 64) != 0) {
        std::fprintf(stderr, "DRBG failure\n");
        return 2;
      }
      v.pk = r["pk"];
      v.sk = r["sk"];
      v.ct = r["ct"];
      v.ss = r["ss"];
      if (one(v, i)) t.rep.kat++;
    }
  }
  for (unsigned i = 0; i < args.random; i++)
    if (one(random_vec(i), i)) t.rep.random++;

  std::string cyc;
  for (uint32_t op : {OP_KEYGEN, OP_ENCAPS, OP_DECAPS}) {
    if (!t.core_cycles.count(op)) continue;
    cyc += std::string(cyc.empty() ? "" : "; ") + op_name(op) + " " +
           std::to_string(t.bus_cycles[op]) + " (core " + std::to_string(t.core_cycles[op]) + ")";
  }
  std::printf("bike_kem_acc L%d Keygen=%d Encaps=%d Decaps=%d: register and misuse checks (%u "
              "failures), %u KAT records + %u random vectors (%u tampered ciphertexts) through "
              "the bus, %u failures; CYCLES: %s\n",
              args.level, TB_KEYGEN, TB_ENCAPS, TB_DECAPS, misuse_fails, t.rep.kat, t.rep.random,
              t.tampered, t.fails, cyc.c_str());
  if (t.fails) return 1;
  t.rep.write(args.json);
  return 0;
}
