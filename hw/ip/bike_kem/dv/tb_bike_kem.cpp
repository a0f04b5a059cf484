// Testbench of bike_kem_axi (doc/bike_kem.md): the KEM core driven through
// its host interface only (AXI4-Lite registers, AXI4-Stream object load and
// store), every object compared bit for bit with libbike and the KAT files.
//
// Per vector (KAT record with its DRBG coins, or random coins):
//   KeyGen  LOAD RAND, KEYGEN, STORE SK_POS SK_H0 SK_H1 PK SIGMA = the sk/pk
//           (with Decaps: DECAPS of the vector's ct with the key the core kept)
//   Encaps  LOAD PK (or, with KeyGen, every other vector the kept one), LOAD
//           RAND, ENCAPS, STORE C0 C1 SS = the ct/ss
//   Decaps  LOAD SK_POS SIGMA C0 C1, DECAPS, STORE SS = the ss; then one
//           tampered ciphertext (a flipped bit of c0 below r, of c1, or a c0
//           bit at or above r set, in turn) against libbike's bike_decaps
//           (implicit rejection), which must differ from the true ss
// Shapes without KeyGen take their keys from libbike, without Encaps their
// ciphertexts. Once per run, the error paths (codes 1 to 5, each followed by
// a good operation), ID/CONFIG/IRQ_EN and irq_o, and one tampered ciphertext
// of each kind. The CYCLES register of every KEYGEN, ENCAPS and DECAPS must
// be the same for every vector, tampered or not (constant time), also with
// CMD writes dropped while busy. Back-pressure with random gaps on every
// other vector (and in the error paths), which also waits for irq_o instead
// of polling STATUS. The DUT's first difference is printed as MISMATCH
// (object and byte), CYCLES, ERROR, STATUS, IRQ, PROTOCOL or TIMEOUT.
// +errors_last runs the error paths after the vectors; +op_timeout=N sets
// the cycle limit of one operation.
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Vbike_kem_axi.h"
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

// doc/bike_kem.md: registers, ops, objects, STATUS bits
enum : uint16_t { REG_ID = 0x00, REG_CONFIG = 0x04, REG_CMD = 0x08, REG_STATUS = 0x0C,
                  REG_CYCLES = 0x10, REG_IRQ_EN = 0x14 };
enum : unsigned { OP_KEYGEN = 1, OP_ENCAPS = 2, OP_DECAPS = 3, OP_LOAD = 4, OP_STORE = 5 };
enum : unsigned { RAND = 0, PK = 1, SK_POS = 2, SK_H0 = 3, SK_H1 = 4, SIGMA = 5, C0 = 6, C1 = 7,
                  SS = 8 };
constexpr uint32_t ST_BUSY = 1u << 0, ST_DONE = 1u << 1, ST_ERR = 1u << 2, ST_DROP = 1u << 3,
                   ST_PKV = 1u << 16,
                   ST_SKV = 1u << 17;
constexpr uint32_t kId = 0x42494B45u;
unsigned err_code(uint32_t st) { return (st >> 8) & 0xF; }

const char *obj_name(unsigned o) {
  static const char *n[] = {"RAND", "PK", "SK_POS", "SK_H0", "SK_H1", "SIGMA", "C0", "C1", "SS"};
  return o < 9 ? n[o] : "object?";
}
const char *op_name(unsigned op) {
  static const char *n[] = {"op0", "KEYGEN", "ENCAPS", "DECAPS", "LOAD", "STORE"};
  return op < 6 ? n[op] : "op?";
}

using Bytes = std::vector<uint8_t>;
using Words = std::vector<uint64_t>;

// doc/bike_kem.md: byte k of an object is bits 8(k mod 8) + 7 .. 8(k mod 8)
// of word k / 8, padded with zero bytes to whole words
Words to_words(const uint8_t *b, size_t nbytes, size_t nwords) {
  Words w(nwords, 0);
  for (size_t k = 0; k < nbytes; k++) w[k / 8] |= (uint64_t)b[k] << (8 * (k % 8));
  return w;
}
Bytes to_bytes(const Words &w) {
  Bytes b(8 * w.size());
  for (size_t k = 0; k < b.size(); k++) b[k] = (uint8_t)(w[k / 8] >> (8 * (k % 8)));
  return b;
}

struct Vec {
  std::string kind;  // "kat" or "random"
  unsigned idx = 0;
  uint8_t kg[64], enc[64];
  Bytes pk, sk, ct, ss;
};

uint64_t op_timeout = 200000000;     // cycles of one KEYGEN/ENCAPS/DECAPS at most
const uint64_t kIoTimeout = 2000000;  // LOAD, STORE and the rejected commands

struct Tb {
  const bike_params *p;
  tb::Args args;
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vbike_kem_axi> m;
  tb::Rng rng;
  tbaxi::Bus<Vbike_kem_axi> bus;
  tb::Report rep;
  unsigned fails = 0;
  unsigned tampered = 0;
  bool irq_en = false;  // IRQ_EN as last written: wait for irq_o instead of polling
  std::map<std::string, uint64_t> first_cycles;
  std::map<std::string, std::string> first_where;
  std::vector<std::string> notes;
  std::string busy_op;       // the op of the CMD-while-busy test, and its CYCLES
  uint64_t busy_cycles = 0;
  size_t N, D, RB;  // words per polynomial, d, R_BYTES
  size_t off_h0, off_h1, off_pk, off_sigma;

  Tb(const tb::Args &a, const bike_params *prm)
      : p(prm), args(a), ctx(new VerilatedContext), m(new Vbike_kem_axi(ctx.get())), rng(a.seed),
        bus(m.get(), &rng) {
    N = p->r_qwords;
    D = p->d;
    RB = p->r_bytes;
    off_h0 = 8 * D;
    off_h1 = off_h0 + RB;
    off_pk = off_h1 + RB;
    off_sigma = off_pk + RB;
    Vbike_kem_axi *d = m.get();
    d->s_axil_awaddr = 0;
    d->s_axil_awvalid = 0;
    d->s_axil_wdata = 0;
    d->s_axil_wstrb = 0;
    d->s_axil_wvalid = 0;
    d->s_axil_bready = 0;
    d->s_axil_araddr = 0;
    d->s_axil_arvalid = 0;
    d->s_axil_rready = 0;
    d->s_axis_tdata = 0;
    d->s_axis_tvalid = 0;
    d->s_axis_tlast = 0;
    d->m_axis_tready = 0;
    tb::reset(d);
    bus.idle(4);
  }

  void fail(const char *fmt, const std::string &a = "", uint64_t x = 0, uint64_t y = 0) {
    std::fprintf(stderr, fmt, a.c_str(), (unsigned long long)x, (unsigned long long)y);
    std::fputc('\n', stderr);
    fails++;
  }
  // bit-exact compare; on a mismatch the first differing byte and its word
  bool same(const std::string &what, const uint8_t *got, const uint8_t *exp, size_t n) {
    for (size_t i = 0; i < n; i++) {
      if (got[i] != exp[i]) {
        std::fprintf(stderr, "MISMATCH %s: first differing byte %zu (stream word %zu): got %02x "
                     "expected %02x\n", what.c_str(), i, i / 8, got[i], exp[i]);
        fails++;
        return false;
      }
    }
    return true;
  }
  void note(const std::string &s) {
    for (auto &n : notes)
      if (n == s) return;
    notes.push_back(s);
  }

  // ---- host sequences ----------------------------------------------------------

  uint32_t status() { return bus.read(REG_STATUS); }
  void write_cmd(unsigned op, unsigned obj = 0) { bus.write(REG_CMD, (op & 0xF) | (obj & 0xF) << 8); }

  // Waits for STATUS.done (polling STATUS, or watching irq_o when IRQ_EN is
  // set); returns STATUS.
  uint32_t wait_done(const std::string &what, uint64_t timeout) {
    uint64_t t0 = bus.cycle;
    for (;;) {
      if (bus.cycle - t0 > timeout) {
        std::fprintf(stderr, "TIMEOUT %s: not done after %llu cycles (STATUS 0x%08x)\n",
                     what.c_str(), (unsigned long long)timeout, status());
        std::exit(1);
      }
      if (irq_en) {
        bus.step();
        if (!bus.irq) continue;
        uint32_t st = status();
        if (!(st & ST_DONE)) {
          std::fprintf(stderr, "IRQ %s: irq_o high with STATUS 0x%08x (done clear)\n",
                       what.c_str(), st);
          std::exit(1);
        }
        return check_busy(st, what);
      }
      uint32_t st = status();
      if (st & ST_DONE) return check_busy(st, what);
      bus.idle(bus.bp ? rng.next() % 16 : 4);
    }
  }
  uint32_t check_busy(uint32_t st, const std::string &what) {
    if (st & ST_BUSY) fail("STATUS %s: done and busy both set (0x%08llx)", what, st);
    return st;
  }
  bool ok(uint32_t st, const std::string &what) {
    if ((st & (ST_DONE | ST_ERR | ST_BUSY | ST_DROP)) != ST_DONE) {
      fail("STATUS %s: 0x%08llx (error code %llu), expected done without error", what, st,
           err_code(st));
      return false;
    }
    return true;
  }
  uint32_t run(unsigned op, const std::string &what) {
    write_cmd(op);
    return wait_done(what, op_timeout);
  }

  // LOAD of n words of w, TLAST on word last_at (none if last_at >= n).
  uint32_t load_raw(unsigned obj, const Words &w, size_t n, size_t last_at, const std::string &what) {
    bus.start_source(w, n, last_at);
    write_cmd(OP_LOAD, obj);
    uint32_t st = wait_done(what, kIoTimeout);
    if (bus.src_i != n)
      fail("LOAD %s: the core took %llu of the %llu words", what, bus.src_i, n);
    bus.stop_source();
    return st;
  }
  bool load(unsigned obj, const uint8_t *b, size_t nbytes, size_t nwords, const std::string &what) {
    std::string w = what + " LOAD " + obj_name(obj);
    return ok(load_raw(obj, to_words(b, nbytes, nwords), nwords, nwords - 1, w), w);
  }
  // STORE of an object of nwords words into out (as bytes); false on an error
  bool store(unsigned obj, size_t nwords, Bytes &out, const std::string &what) {
    std::string w = what + " STORE " + obj_name(obj);
    bus.arm_sink();
    write_cmd(OP_STORE, obj);
    uint32_t st = wait_done(w, kIoTimeout);
    if (!bus.sink_done) {
      uint64_t t0 = bus.cycle;
      while (!bus.sink_done && bus.cycle - t0 < 10000) bus.step();
      if (bus.sink_done) note("STORE: done was set before the packet's last word was taken");
    }
    bus.sink_armed = false;
    if (!ok(st, w)) return false;
    if (!bus.sink_done || bus.sink.size() != nwords) {
      fail("STORE %s: packet of %llu words, expected %llu", w, bus.sink.size(), nwords);
      if (!bus.sink_done) std::fprintf(stderr, "  (no TLAST seen)\n");
      return false;
    }
    out = to_bytes(bus.sink);
    return true;
  }
  // STORE and compare with nbytes of exp, padded with zero bytes to the words
  bool store_check(unsigned obj, size_t nwords, const uint8_t *exp, size_t nbytes,
                   const std::string &what, Bytes *got = nullptr) {
    Bytes out;
    if (!store(obj, nwords, out, what)) return false;
    Bytes e(8 * nwords, 0);
    std::memcpy(e.data(), exp, nbytes);
    std::string w = what + " " + obj_name(obj);
    if (got) *got = out;
    return same(w, out.data(), e.data(), e.size());
  }

  uint64_t cycles_of(const std::string &op, const std::string &what) {
    uint64_t c = bus.read(REG_CYCLES);
    rep.cycle(op, c);
    auto it = first_cycles.find(op);
    if (it == first_cycles.end()) {
      first_cycles[op] = c;
      first_where[op] = what;
    } else if (it->second != c) {
      std::fprintf(stderr, "CYCLES %s: %s took %llu cycles, %s took %llu (not constant time)\n",
                   op.c_str(), what.c_str(), (unsigned long long)c, first_where[op].c_str(),
                   (unsigned long long)it->second);
      fails++;
    }
    return c;
  }

  void set_irq(bool on) {
    if (on == irq_en) return;
    bus.write(REG_IRQ_EN, on);
    irq_en = on;
  }

  // ---- primitives against a vector ----------------------------------------------

  // After a KEYGEN: the five key objects against the vector's sk and pk.
  void keygen_outputs(const Vec &v, const std::string &what) {
    uint32_t st = status();
    if (kDecaps && !(st & ST_SKV)) fail("STATUS %s: secret key not valid after KEYGEN", what);
    if (kEncaps && !(st & ST_PKV)) fail("STATUS %s: public key not valid after KEYGEN", what);
    Bytes pos, h0, h1, pk, sigma;
    bool good = store_check(SK_POS, D, v.sk.data(), 8 * D, what, &pos);
    good &= store_check(SK_H0, N, v.sk.data() + off_h0, RB, what, &h0);
    good &= store_check(SK_H1, N, v.sk.data() + off_h1, RB, what, &h1);
    good &= store_check(PK, N, v.pk.data(), RB, what, &pk);
    good &= store_check(SIGMA, 4, v.sk.data() + off_sigma, 32, what, &sigma);
    if (!good) return;
    // the KAT layout: SK_POS || H0 || H1 || PK || SIGMA
    Bytes sk;
    sk.insert(sk.end(), pos.begin(), pos.begin() + 8 * D);
    sk.insert(sk.end(), h0.begin(), h0.begin() + RB);
    sk.insert(sk.end(), h1.begin(), h1.begin() + RB);
    sk.insert(sk.end(), pk.begin(), pk.begin() + RB);
    sk.insert(sk.end(), sigma.begin(), sigma.begin() + 32);
    if (same(what + " sk", sk.data(), v.sk.data(), v.sk.size()))
      same(what + " pk", pk.data(), v.pk.data(), v.pk.size());
  }

  void keygen(const Vec &v, const std::string &what) {
    if (!load(RAND, v.kg, 64, 8, what)) return;
    if (!ok(run(OP_KEYGEN, what + " KEYGEN"), what + " KEYGEN")) return;
    cycles_of("keygen", what);
    keygen_outputs(v, what + " keygen");
  }

  void encaps_outputs(const Vec &v, const std::string &what) {
    store_check(C0, N, v.ct.data(), RB, what);
    store_check(C1, 4, v.ct.data() + RB, 32, what);
    store_check(SS, 4, v.ss.data(), 32, what);
  }

  void encaps(const Vec &v, bool load_pk, const std::string &what) {
    if (load_pk) {
      if (!load(PK, v.pk.data(), RB, N, what)) return;
      if (!(status() & ST_PKV)) fail("STATUS %s: public key not valid after LOAD PK", what);
    }
    if (!load(RAND, v.enc, 64, 8, what)) return;
    if (!ok(run(OP_ENCAPS, what + " ENCAPS"), what + " ENCAPS")) return;
    cycles_of("encaps", what);
    encaps_outputs(v, what + " encaps");
  }

  bool load_sk(const Vec &v, const std::string &what) {
    if (!load(SK_POS, v.sk.data(), 8 * D, D, what)) return false;
    if (!load(SIGMA, v.sk.data() + off_sigma, 32, 4, what)) return false;
    if (!(status() & ST_SKV)) {
      fail("STATUS %s: secret key not valid after LOAD SK_POS", what);
      return false;
    }
    return true;
  }

  // DECAPS of ct with the key in the core; the SS is compared with exp.
  bool decaps(const Bytes &ct, const uint8_t *exp, const std::string &what, Bytes *got = nullptr) {
    if (!load(C0, ct.data(), RB, N, what) || !load(C1, ct.data() + RB, 32, 4, what)) return false;
    if (!ok(run(OP_DECAPS, what + " DECAPS"), what + " DECAPS")) return false;
    cycles_of("decaps", what);
    return store_check(SS, 4, exp, 32, what + " decaps", got);
  }

  // One tampered ciphertext of v (kinds in turn over the run).
  void tamper(const Vec &v, const std::string &what) {
    Bytes ct = v.ct;
    unsigned kind = tampered++ % 3;
    uint64_t bit;
    std::string w;
    if (kind == 0) {  // a bit of c0 below r
      bit = rng.next() % p->r;
      ct[bit / 8] ^= (uint8_t)(1u << (bit % 8));
      w = what + " tampered c0 bit " + std::to_string(bit);
    } else if (kind == 1) {  // a bit of c1
      bit = rng.next() % 256;
      ct[RB + bit / 8] ^= (uint8_t)(1u << (bit % 8));
      w = what + " tampered c1 bit " + std::to_string(bit);
    } else {  // a c0 bit at or above r (inside R_BYTES: libbike sees it too)
      bit = p->r + rng.next() % (8 * RB - p->r);
      ct[bit / 8] |= (uint8_t)(1u << (bit % 8));
      w = what + " c0 bit " + std::to_string(bit) + " (>= r) set";
    }
    uint8_t ref[32];
    if (bike_decaps(p->level, ref, ct.data(), ct.size(), v.sk.data(), v.sk.size()) != BIKE_OK) {
      std::fprintf(stderr, "libbike bike_decaps failed (%s)\n", w.c_str());
      std::exit(2);
    }
    if (std::memcmp(ref, v.ss.data(), 32) == 0) {
      std::fprintf(stderr, "%s: libbike gives the true ss (cannot happen)\n", w.c_str());
      std::exit(2);
    }
    Bytes got;
    bool good = decaps(ct, ref, w, &got);
    if (good && std::memcmp(got.data(), v.ss.data(), 32) == 0)
      fail("MISMATCH %s: the core gave the true ss", w);
    if (!good && got.size() >= 32) explain_ss(v, ct, got, bit);
  }

  // What a wrong SS of a tampered ciphertext is: the known candidates.
  void explain_ss(const Vec &v, const Bytes &ct, const Bytes &got, uint64_t bit) {
    Bytes masked = ct;  // c0 with the bits at or above r cleared
    for (uint64_t b = p->r; b < 8 * RB; b++) masked[b / 8] &= (uint8_t)~(1u << (b % 8));
    const uint8_t *sigma = v.sk.data() + off_sigma;
    uint8_t k[32];
    struct Cand {
      const char *name;
      const uint8_t *m;
      const Bytes *c;
    } cands[] = {{"K(sigma, ct) (libbike)", sigma, &ct},
                 {"K(sigma, ct with c0 masked to r bits)", sigma, &masked},
                 {"K(m, ct) (accepted, ct as loaded)", v.enc, &ct},
                 {"K(m, ct with c0 masked) (the true ss)", v.enc, &masked}};
    for (auto &c : cands) {
      bike_function_k(p, k, c.m, c.c->data());
      if (std::memcmp(k, got.data(), 32) == 0) {
        std::fprintf(stderr, "  the core's SS is %s (tampered bit %llu)\n", c.name,
                     (unsigned long long)bit);
        return;
      }
    }
    std::fprintf(stderr, "  the core's SS is none of K(sigma|m, ct|masked ct)\n");
  }

  void vector(const Vec &v) {
    std::string what = v.kind + " " + std::to_string(v.idx);
    if (kKeygen) {
      keygen(v, what);
      if (kDecaps) decaps(v.ct, v.ss.data(), what + " (key kept from KEYGEN)");
    }
    if (kEncaps) {
      // with KeyGen, every other vector encapsulates to the public key KEYGEN left
      bool kept = kKeygen && (v.idx % 2 == 1);
      encaps(v, !kept, what + (kept ? " (public key kept from KEYGEN)" : ""));
    }
    if (kDecaps) {
      if (load_sk(v, what)) {
        decaps(v.ct, v.ss.data(), what);
        tamper(v, what);
      }
    }
  }

  // ---- error paths, registers, interrupt -------------------------------------------

  void expect_error(unsigned op, unsigned obj, unsigned code, const std::string &what) {
    write_cmd(op, obj);
    uint32_t st = wait_done(what, kIoTimeout);
    if (!(st & ST_ERR) || err_code(st) != code)
      fail("ERROR %s: STATUS 0x%08llx, expected error code %llu", what, st, code);
  }

  // Starts the longest op of the build on v (inputs loaded), returns its name.
  std::string start_long_op(const Vec &v, const std::string &what) {
    if (kKeygen) {
      load(RAND, v.kg, 64, 8, what);
      write_cmd(OP_KEYGEN);
      return "keygen";
    }
    if (kDecaps) {
      load_sk(v, what);
      load(C0, v.ct.data(), RB, N, what);
      load(C1, v.ct.data() + RB, 32, 4, what);
      write_cmd(OP_DECAPS);
      return "decaps";
    }
    load(PK, v.pk.data(), RB, N, what);
    load(RAND, v.enc, 64, 8, what);
    write_cmd(OP_ENCAPS);
    return "encaps";
  }
  void long_op_outputs(const std::string &op, const Vec &v, const std::string &what) {
    if (op == "keygen") keygen_outputs(v, what);
    else if (op == "decaps") store_check(SS, 4, v.ss.data(), 32, what);
    else encaps_outputs(v, what);
  }

  void error_paths(const Vec &v) {
    bool bp = bus.bp;
    bus.bp = true;
    // ID, CONFIG, IRQ_EN
    uint32_t id = bus.read(REG_ID);
    if (id != kId) fail("REGISTER%s ID: 0x%08llx, expected 0x%08llx", "", id, kId);
    uint32_t cfg_exp = (uint32_t)p->level | (kKeygen ? 1u << 4 : 0) | (kEncaps ? 1u << 5 : 0) |
                       (kDecaps ? 1u << 6 : 0) | (uint32_t)N << 16;
    uint32_t cfg = bus.read(REG_CONFIG);
    if (cfg != cfg_exp) fail("REGISTER%s CONFIG: 0x%08llx, expected 0x%08llx", "", cfg, cfg_exp);
    uint32_t st = status();
    if (st & ST_BUSY) fail("STATUS%s: busy (0x%08llx) between operations", "", st);
    // IRQ_EN: 0 after reset (or as last written), then written and read back
    if ((bus.read(REG_IRQ_EN) & 1) != (irq_en ? 1u : 0u))
      fail("REGISTER%s IRQ_EN: reads %llu, expected %llu", "", !irq_en, irq_en);
    bus.write(REG_IRQ_EN, 1);
    if ((bus.read(REG_IRQ_EN) & 1) != 1) fail("REGISTER%s IRQ_EN: wrote 1, read 0", "");
    bus.write(REG_IRQ_EN, 0);
    irq_en = false;
    if (bus.read(REG_IRQ_EN) & 1) fail("REGISTER%s IRQ_EN: wrote 0, read 1", "");

    // 1: op unknown or not in the build
    for (unsigned op : {0u, 9u, 15u})
      expect_error(op, 0, 1, std::string("unknown op ") + std::to_string(op));
    if (!kKeygen) expect_error(OP_KEYGEN, 0, 1, "KEYGEN not in the build");
    if (!kEncaps) expect_error(OP_ENCAPS, 0, 1, "ENCAPS not in the build");
    if (!kDecaps) expect_error(OP_DECAPS, 0, 1, "DECAPS not in the build");
    // 5: no RAND loaded since the last primitive (each one wipes it)
    if (kKeygen) expect_error(OP_KEYGEN, 0, 5, "KEYGEN without RAND");
    // 2: object unknown, or not loadable/storable
    expect_error(OP_LOAD, 15, 2, "LOAD of unknown object 15");
    expect_error(OP_LOAD, 9, 2, "LOAD of unknown object 9");
    expect_error(OP_STORE, 15, 2, "STORE of unknown object 15");
    expect_error(OP_STORE, RAND, 2, "STORE RAND");
    expect_error(OP_LOAD, SS, 2, "LOAD SS");
    expect_error(OP_LOAD, SK_H0, 2, "LOAD SK_H0");
    expect_error(OP_LOAD, SK_H1, 2, "LOAD SK_H1");

    // CMD while busy: dropped (STATUS.dropped), the running op completes as if alone
    {
      std::string what = "CMD while busy";
      std::string op = start_long_op(v, what);
      bus.idle(20 + rng.next() % 100);
      unsigned again = op == "keygen" ? OP_KEYGEN : op == "decaps" ? OP_DECAPS : OP_ENCAPS;
      write_cmd(again);
      uint32_t s = status();
      if ((s & (ST_BUSY | ST_DROP | ST_ERR)) != (ST_BUSY | ST_DROP))
        fail("STATUS %s: 0x%08llx after the second CMD, expected busy and dropped, no error",
             what, s);
      write_cmd(OP_STORE, SS);  // a STORE now would drive m_axis: the sink fails the run
      s = wait_done(what, op_timeout);
      // the op itself succeeded: done without error, the drop still shown
      if (!(s & ST_DONE) || (s & ST_ERR) || !(s & ST_DROP))
        fail("STATUS %s: 0x%08llx at done, expected done and dropped, no error", what, s);
      // CYCLES counts from the CMD write to done, dropped writes or not:
      // compared with the other runs of the op at the end
      busy_op = op;
      busy_cycles = bus.read(REG_CYCLES);
      long_op_outputs(op, v, what);
    }

    // irq_o = STATUS.done & IRQ_EN
    {
      std::string what = "irq_o";
      // done is set now (the last STORE)
      bus.idle(2);
      if (bus.irq) fail("IRQ %s: high with IRQ_EN = 0", what);
      bus.write(REG_IRQ_EN, 1);
      bus.idle(2);
      if (!bus.irq) fail("IRQ %s: low with IRQ_EN = 1 and done set", what);
      std::string op = start_long_op(v, what);
      bus.idle(2);
      if (bus.irq) fail("IRQ %s: high after the CMD was taken (done not cleared)", what + " " + op);
      irq_en = true;
      uint32_t s = wait_done(what, op_timeout);
      if (!(s & ST_DONE) || (s & ST_ERR)) fail("STATUS %s: 0x%08llx", what, s);
      cycles_of(op, what);
      long_op_outputs(op, v, what);
      bus.write(REG_IRQ_EN, 0);
      irq_en = false;
      bus.idle(2);
      if (bus.irq) fail("IRQ %s: still high after IRQ_EN = 0", what);
    }

    // 3: LOAD packet length (TLAST early, TLAST missing)
    {
      unsigned obj = kEncaps ? PK : kDecaps ? C0 : RAND;
      size_t n = obj == RAND ? 8 : N;
      Words w = obj == RAND ? to_words(v.kg, 64, 8) : obj == PK ? to_words(v.pk.data(), RB, N)
                                                                : to_words(v.ct.data(), RB, N);
      size_t k = 1 + rng.next() % (n - 1);
      std::string what = std::string("LOAD ") + obj_name(obj) + " with TLAST on word " +
                         std::to_string(k - 1) + " of " + std::to_string(n);
      uint32_t s = load_raw(obj, w, k, k - 1, what);
      if (!(s & ST_ERR) || err_code(s) != 3)
        fail("ERROR %s: STATUS 0x%08llx, expected error code %llu", what, s, 3);
      if (obj == PK && (s & ST_PKV)) fail("STATUS %s: public key still valid", what);
      what = std::string("LOAD ") + obj_name(obj) + " without TLAST";
      s = load_raw(obj, w, n, n, what);
      if (!(s & ST_ERR) || err_code(s) != 3)
        fail("ERROR %s: STATUS 0x%08llx, expected error code %llu", what, s, 3);
      if (obj == PK) {
        if (s & ST_PKV) fail("STATUS %s: public key still valid", what);
        expect_error(OP_ENCAPS, 0, 4, "ENCAPS after a short PK packet");
      }
    }

    // 4: ENCAPS with a public key with a bit >= r, DECAPS with a position >= r;
    // then the good objects again and the op must work
    if (kEncaps) {
      std::string what = "LOAD PK with a bit >= r";
      Words w = to_words(v.pk.data(), RB, N);
      uint64_t bit = p->r + rng.next() % (64 * N - p->r);
      w[bit / 64] |= 1ull << (bit % 64);
      uint32_t s = load_raw(PK, w, N, N - 1, what + " (bit " + std::to_string(bit) + ")");
      if (s & ST_ERR)
        note("LOAD PK with a bit >= r ends with an error (code " + std::to_string(err_code(s)) +
             "); the spec lists none for it");
      if (s & ST_PKV) fail("STATUS %s: public key valid", what);
      expect_error(OP_ENCAPS, 0, 4, "ENCAPS after " + what);
      encaps(v, true, "ENCAPS after a good PK again");
      expect_error(OP_ENCAPS, 0, 5, "ENCAPS again without a new RAND");
    }
    if (kDecaps) {
      std::string what = "LOAD SK_POS with a position >= r";
      Bytes sk = v.sk;
      size_t i = rng.next() % (2 * D);
      uint32_t bad = (rng.next() & 1) ? p->r : (uint32_t)(p->r + rng.next() % (0xFFFFFFFFull - p->r));
      for (int b = 0; b < 4; b++) sk[4 * i + b] = (uint8_t)(bad >> (8 * b));
      uint32_t s = load_raw(SK_POS, to_words(sk.data(), 8 * D, D), D, D - 1,
                            what + " (" + std::to_string(bad) + " at " + std::to_string(i) + ")");
      if (s & ST_ERR)
        note("LOAD SK_POS with a position >= r ends with an error (code " +
             std::to_string(err_code(s)) + "); the spec lists none for it");
      if (s & ST_SKV) fail("STATUS %s: secret key valid", what);
      expect_error(OP_DECAPS, 0, 4, "DECAPS after " + what);
      if (load_sk(v, "DECAPS after a good key again")) {
        decaps(v.ct, v.ss.data(), "DECAPS after a good key again");
        // every kind of tampered ciphertext at least once per run
        for (int k = 0; k < 3; k++) tamper(v, "error-path vector");
      }
    }
    bus.bp = bp;
  }
};

}  // namespace

int main(int argc, char **argv) {
  tb::Args args = tb::parse_args(argc, argv);
  for (int i = 1; i < argc; i++)
    if (std::strncmp(argv[i], "+op_timeout=", 12) == 0) op_timeout = std::strtoull(argv[i] + 12, nullptr, 10);
  const bike_params *p = bike_params_get(args.level);
  if (!p) return 2;
  Tb t(args, p);
  const size_t pk_len = bike_public_key_bytes(args.level), sk_len = bike_secret_key_bytes(args.level),
               ct_len = bike_ciphertext_bytes(args.level);

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

  // the error paths once, on a vector of their own (+errors_last: after the vectors)
  bool errors_last = false;
  for (int i = 1; i < argc; i++)
    if (std::strcmp(argv[i], "+errors_last") == 0) errors_last = true;
  if (!errors_last) t.error_paths(random_vec(1000000));

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
        std::fprintf(stderr, "DRBG failure (libcrypto AES-256)\n");
        return 2;
      }
      v.pk = r["pk"];
      v.sk = r["sk"];
      v.ct = r["ct"];
      v.ss = r["ss"];
      t.bus.bp = i % 2 == 1;
      t.set_irq(t.bus.bp);
      unsigned before = t.fails;
      t.vector(v);
      if (t.fails == before) t.rep.kat++;
    }
  }
  for (unsigned i = 0; i < args.random; i++) {
    Vec v = random_vec(i);
    t.bus.bp = i % 2 == 0;
    t.set_irq(t.bus.bp);
    unsigned before = t.fails;
    t.vector(v);
    if (t.fails == before) t.rep.random++;
  }

  if (errors_last) t.error_paths(random_vec(1000000));
  if (!t.busy_op.empty() && t.first_cycles.count(t.busy_op) &&
      t.busy_cycles != t.first_cycles[t.busy_op]) {
    std::fprintf(stderr, "CYCLES %s with two CMD writes dropped while busy: %llu, every other %s: "
                 "%llu (CYCLES counts from the CMD write to done)\n", t.busy_op.c_str(),
                 (unsigned long long)t.busy_cycles, t.busy_op.c_str(),
                 (unsigned long long)t.first_cycles[t.busy_op]);
    t.fails++;
  }

  std::string cyc;
  for (const char *op : {"keygen", "encaps", "decaps"}) {
    auto it = t.rep.cycles.find(op);
    if (it != t.rep.cycles.end())
      cyc += std::string(cyc.empty() ? "" : ", ") + op + " " + std::to_string(it->second);
  }
  std::printf("bike_kem L%d Keygen=%d Encaps=%d Decaps=%d: %u KAT records + %u random vectors "
              "(%u tampered ciphertexts, error paths), %u failures; cycles: %s\n",
              args.level, TB_KEYGEN, TB_ENCAPS, TB_DECAPS, t.rep.kat, t.rep.random, t.tampered,
              t.fails, cyc.c_str());
  for (auto &n : t.notes) std::printf("  note: %s\n", n.c_str());
  if (t.fails) return 1;
  t.rep.write(args.json);
  return 0;
}
