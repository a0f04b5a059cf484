// Testbench of keccak_core (or, with TB_SERIAL, keccak_serial): SHA3-384
// digests and SHAKE256 streams compared bit-exact with libbike
// (bike_sha3_384, bike_shake256_absorb/squeeze), and cycle counts with the
// formulas of doc/keccak.md (tb_formula.h: per message length).
// Random messages (lengths around every block and lane boundary, random
// lengths up to 700 bytes) and KAT-derived ones: SHA3-384 of each record's ct
// and pk, SHAKE256 of its seed.
#include "tb_common.h"
#include "tb_formula.h"

#ifdef TB_SERIAL
#include "Vkeccak_serial.h"
typedef Vkeccak_serial Vtop;
static const char *const kName = "keccak_serial";
#else
#include "Vkeccak_core.h"
typedef Vkeccak_core Vtop;
static const char *const kName = "keccak_core";
#endif

struct Dut : tb::Model<Vtop> {
  // Starts an operation and absorbs msg; returns the cycles used so far
  // (counted from the start edge).
  uint64_t absorb(bool shake, const uint8_t *msg, size_t len) {
    Vtop *d = m.get();
    tb::expect_idle_before_start(d);
    d->start_i = 1;
    d->shake_i = shake;
    d->stop_i = 0;
    d->in_valid_i = 0;
    d->out_ready_i = 0;
    tb::tick(d);
    d->start_i = 0;
    tb::expect_started(d);
    uint64_t cycles = 0;
    size_t pos = 0;
    bool sent_last = false;
    while (!sent_last) {
      bool ready = d->in_ready_o;
      if (ready) {
        size_t n = len - pos < 8 ? len - pos : 8;
        uint64_t w = 0;
        for (size_t k = 0; k < n; k++) w |= (uint64_t)msg[pos + k] << (8 * k);
        d->in_valid_i = 1;
        d->in_data_i = w;
        d->in_last_i = (pos + n == len);
        d->in_bytes_i = (uint8_t)n;
        tb::tick(d);
        cycles++;
        pos += n;
        sent_last = (pos == len);
        if (n == 0) sent_last = true;
      } else {
        d->in_valid_i = 0;
        tb::tick(d);
        cycles++;
      }
      if (cycles > 1000000) tb::die("absorb timeout\n");
    }
    d->in_valid_i = 0;
    d->in_last_i = 0;
    return cycles;
  }

  // Collects nlanes output lanes; cycles counts on. first_at receives the
  // cycle count at which the first lane was taken, lane_at the cycle of each.
  void squeeze(uint8_t *out, size_t nbytes, uint64_t &cycles, std::vector<uint64_t> *lane_at,
               bool *saw_last) {
    Vtop *d = m.get();
    size_t lanes = (nbytes + 7) / 8;
    d->out_ready_i = 1;
    for (size_t l = 0; l < lanes;) {
      d->eval();
      bool v = d->out_valid_o;
      uint64_t data = d->out_data_o;
      bool last = d->out_last_o;
      tb::tick(d);
      cycles++;
      if (v) {
        for (size_t k = 0; k < 8 && 8 * l + k < nbytes; k++) out[8 * l + k] = (uint8_t)(data >> (8 * k));
        if (lane_at) lane_at->push_back(cycles);
        if (saw_last) *saw_last = last;
        l++;
      }
      if (cycles > 10000000) tb::die("squeeze timeout\n");
    }
    d->out_ready_i = 0;
  }

  // doc/keccak.md: stop_i returns to idle at once
  void stop() {
    m->stop_i = 1;
    tb::tick(m.get());
    m->stop_i = 0;
    tb::expect_idle_after(m.get(), "after stop_i");
  }
};

int main(int argc, char **argv) {
  tb::Bench bench(argc, argv);
  const bike_params *p = bench.p;
  Dut dut;
  std::vector<uint8_t> msg(20000), got(8192), exp(8192);
  const int level = bench.args.level;
  auto formula = [&](const char *op, size_t len) {
    return tb::formula(level, std::string(op) + "/" + std::to_string(len));
  };
  const uint64_t block_formula = tb::formula(level, "shake256_block");

  auto sha3 = [&](const char *what, unsigned vec, size_t len) -> uint64_t {
    uint8_t ref[BIKE_SHA3_384_BYTES];
    bike_sha3_384(ref, msg.data(), len);
    uint64_t cyc = dut.absorb(false, msg.data(), len);
    bool last = false;
    dut.squeeze(got.data(), 48, cyc, nullptr, &last);
    if (!last) bench.fail("%s vector %u: no out_last on lane 6\n", what, vec);
    if (cyc != formula("sha3_384", len))
      bench.fail("CYCLES %s vector %u (len %zu): %llu, formula %llu\n", what, vec, len,
                 (unsigned long long)cyc, (unsigned long long)formula("sha3_384", len));
    bench.bytes(what, vec, got.data(), ref, 48);
    // doc/keccak.md: idle right after the last lane is taken
    tb::expect_idle_after(dut.m.get(), "after the last SHA3-384 lane");
    return cyc;
  };

  uint64_t block_cycles = 0;
  auto shake = [&](const char *what, unsigned vec, size_t len, size_t outlen) -> uint64_t {
    bike_shake256_ctx ctx;
    bike_shake256_absorb(&ctx, msg.data(), len);
    // squeeze the reference in uneven pieces: it is a stream
    size_t done = 0;
    while (done < outlen) {
      size_t n = 1 + (size_t)(bench.rng.next() % 200);
      if (n > outlen - done) n = outlen - done;
      bike_shake256_squeeze(&ctx, exp.data() + done, n);
      done += n;
    }
    uint64_t cyc = dut.absorb(true, msg.data(), len);
    std::vector<uint64_t> at;
    dut.squeeze(got.data(), outlen, cyc, &at, nullptr);
    dut.stop();
    if (at[0] != formula("shake256_first", len))
      bench.fail("CYCLES %s vector %u: first lane at %llu, formula %llu\n", what, vec,
                 (unsigned long long)at[0], (unsigned long long)formula("shake256_first", len));
    // one output block = 17 lanes + a permutation
    for (size_t l = 17; l < at.size(); l += 17) {
      uint64_t c = at[l] - at[l - 17];
      if (c != block_formula)
        bench.fail("CYCLES %s vector %u: block of %llu cycles, formula %llu\n", what, vec,
                   (unsigned long long)c, (unsigned long long)block_formula);
      block_cycles = c;
    }
    bench.bytes(what, vec, got.data(), exp.data(), outlen);
    return at[0];
  };

  static const size_t edges[] = {0, 1, 7, 8, 9, 103, 104, 105, 135, 136, 137, 208, 271, 272, 273};
  bench.random(2, [&](unsigned v) {
    size_t len = v < 15 ? edges[v] : (size_t)(bench.rng.next() % 700);
    bench.rng.bytes(msg.data(), len);
    sha3("random sha3-384", v, len);
    size_t outlen = 1 + (size_t)(bench.rng.next() % 700);
    shake("random shake256", v, len, outlen);
  });

  bench.kat(3, [&](tb::Record &rec, unsigned k) {
    std::vector<uint8_t> &ct = rec["ct"], &pk = rec["pk"], &seed = rec["seed"];
    std::memcpy(msg.data(), ct.data(), ct.size());
    sha3("kat sha3-384(ct)", k, ct.size());
    std::memcpy(msg.data(), pk.data(), pk.size());
    sha3("kat sha3-384(pk)", k, pk.size());
    std::memcpy(msg.data(), seed.data(), seed.size());
    shake("kat shake256(seed)", k, seed.size(), 1200);
  });

  // Reported operations: a permutation, an output block of SHAKE256, and the
  // hashes BIKE needs at this level: SHA3-384 of its two inputs, L's
  // e0 || e1 (2 r_bytes) and K's m || c0 || c1 (32 + ct_bytes), reported as
  // "sha3_384" with the longer one's count (the explorer maps sha3_384 to
  // both functions), and SHAKE256 of a 32-byte seed up to its first lane.
  // All measured here (each also checked against its formula above); a
  // permutation is an output block less its 17 lane cycles.
  size_t klen = 32 + p->ct_bytes, llen = 2 * p->r_bytes;
  std::memset(msg.data(), 0x5a, klen > llen ? klen : llen);
  uint64_t k_cyc = sha3("function K", 0, klen), l_cyc = sha3("function L", 0, llen);
  bench.rep.cycle("sha3_384", k_cyc > l_cyc ? k_cyc : l_cyc);
  bench.rep.cycle("shake256_absorb32", shake("seed", 0, 32, 2 * 136 + 8));
  bench.rep.cycle("shake256_block", block_cycles);
  bench.rep.cycle("keccak_f", block_cycles - 17);

  std::printf("%s L%d: %u random + %u KAT operations, %u failures; "
              "cycles: permutation %llu, SHAKE256 block %llu, SHA3-384 of %zu bytes (K) %llu, "
              "of %zu bytes (L) %llu\n",
              kName, bench.args.level, bench.rep.random, bench.rep.kat, bench.fails,
              (unsigned long long)(block_cycles - 17),
              (unsigned long long)block_cycles, klen, (unsigned long long)k_cyc, llen,
              (unsigned long long)l_cyc);
  return bench.finish();
}
