// Testbench of the inferable memories (bike_ram_sdp, bike_ram_tdp through
// bike_ram_tb.sv): random traffic compared every cycle with a C++ model of
// the documented behaviour (doc/bike_ram.md): registered read, read data held
// while the read enable is low, read-first on a read and a write of the same
// address in one cycle (also across the two ports of bike_ram_tdp), and a
// writing port of bike_ram_tdp reading the old contents of its address.
//
// The memories have no libbike counterpart; the cores that use them are
// compared with libbike. --random N runs N bursts of 2 * Depth random cycles
// each, every other burst confined to four addresses (read-during-write
// collisions). --kat is ignored.
#include <array>
#include <memory>

#include "Vbike_ram_tb.h"
#include "tb_common.h"

#ifndef TB_WIDTH
#error "TB_WIDTH and TB_DEPTH must be defined by the build"
#endif

static const unsigned kChunks = TB_WIDTH / 32;
using Word = std::array<uint32_t, 4>;

static void put(uint32_t &s, const Word &w) { s = w[0]; }
static void put(uint64_t &s, const Word &w) { s = (uint64_t)w[1] << 32 | w[0]; }
template <std::size_t K>
static void put(VlWide<K> &s, const Word &w) {
  for (size_t k = 0; k < K; k++) s[k] = w[k];
}
static Word get(uint32_t s) { return Word{s, 0, 0, 0}; }
static Word get(uint64_t s) { return Word{(uint32_t)s, (uint32_t)(s >> 32), 0, 0}; }
template <std::size_t K>
static Word get(const VlWide<K> &s) {
  Word w{0, 0, 0, 0};
  for (size_t k = 0; k < K; k++) w[k] = s[k];
  return w;
}

static Word random_word(tb::Rng &rng) {
  Word w{0, 0, 0, 0};
  for (unsigned k = 0; k < kChunks; k++) w[k] = (uint32_t)rng.next();
  return w;
}

int main(int argc, char **argv) {
  tb::Bench bench(argc, argv);
  // no tb::Model: the memories have no reset
  auto ctx = std::make_unique<VerilatedContext>();
  auto model = std::make_unique<Vbike_ram_tb>(ctx.get());
  Vbike_ram_tb *d = model.get();
  tb::Rng &rng = bench.rng;
  const uint32_t depth = TB_DEPTH;

  std::vector<Word> ms(depth), mt(depth);  // model contents: sdp, tdp
  Word s_rd{}, a_rd{}, b_rd{};              // model read registers
  bool s_rd_ok = false, a_rd_ok = false, b_rd_ok = false;  // defined yet?
  uint64_t cyc = 0;

  auto cycle = [&](bool s_we, uint32_t s_wa, const Word &s_wd, bool s_re, uint32_t s_ra,
                   bool a_en, bool a_we, uint32_t a_ad, const Word &a_wd, bool b_en, bool b_we,
                   uint32_t b_ad, const Word &b_wd) {
    d->s_we_i = s_we;
    d->s_waddr_i = s_wa;
    put(d->s_wdata_i, s_wd);
    d->s_re_i = s_re;
    d->s_raddr_i = s_ra;
    d->a_en_i = a_en;
    d->a_we_i = a_we;
    d->a_addr_i = a_ad;
    put(d->a_wdata_i, a_wd);
    d->b_en_i = b_en;
    d->b_we_i = b_we;
    d->b_addr_i = b_ad;
    put(d->b_wdata_i, b_wd);
    tb::tick(d);
    cyc++;
    // model: reads see the contents before this cycle's writes
    if (s_re) s_rd = ms[s_ra], s_rd_ok = true;
    if (a_en) a_rd = mt[a_ad], a_rd_ok = true;
    if (b_en) b_rd = mt[b_ad], b_rd_ok = true;
    if (s_we) ms[s_wa] = s_wd;
    if (a_en && a_we) mt[a_ad] = a_wd;
    if (b_en && b_we) mt[b_ad] = b_wd;
    struct {
      const char *name;
      bool ok;
      Word exp, got;
    } outs[3] = {{"sdp read", s_rd_ok, s_rd, get(d->s_rdata_o)},
                 {"tdp port A read", a_rd_ok, a_rd, get(d->a_rdata_o)},
                 {"tdp port B read", b_rd_ok, b_rd, get(d->b_rdata_o)}};
    for (auto &o : outs) {
      if (o.ok && o.exp != o.got) {
        if (bench.fails < 10) {
          std::fprintf(stderr, "MISMATCH %s, cycle %llu: got %08x%08x%08x%08x expected "
                       "%08x%08x%08x%08x\n", o.name, (unsigned long long)cyc, o.got[3],
                       o.got[2], o.got[1], o.got[0], o.exp[3], o.exp[2], o.exp[1], o.exp[0]);
        }
        bench.fails++;
      }
    }
  };

  const Word zero{0, 0, 0, 0};
  // fill both memories (sdp through its write port, tdp through A and B)
  for (uint32_t i = 0; i < depth; i++) {
    bool b = (i & 1) != 0;
    cycle(true, i, random_word(rng), false, 0, !b, true, i, random_word(rng), b, true, i,
          random_word(rng));
  }
  // every address read back once through each read port
  for (uint32_t i = 0; i < depth; i++) {
    cycle(false, 0, zero, true, i, true, false, i, zero, true, false, depth - 1 - i, zero);
  }

  bench.random(1, [&](unsigned v) {
    const uint32_t span = (v & 1) ? (depth < 4 ? depth : 4) : depth;
    for (uint32_t c = 0; c < 2 * depth; c++) {
      uint64_t r = rng.next();
      bool s_we = r & 1, s_re = (r >> 1) & 1;
      bool a_en = (r >> 2) & 1, a_we = (r >> 3) & 1;
      bool b_en = (r >> 4) & 1, b_we = (r >> 5) & 1;
      uint32_t s_wa = (uint32_t)(rng.next() % span), s_ra = (uint32_t)(rng.next() % span);
      uint32_t a_ad = (uint32_t)(rng.next() % span), b_ad = (uint32_t)(rng.next() % span);
      // both ports writing one address in one cycle is not allowed
      if (a_en && a_we && b_en && b_we && a_ad == b_ad) b_we = false;
      cycle(s_we, s_wa, random_word(rng), s_re, s_ra, a_en, a_we, a_ad, random_word(rng), b_en,
            b_we, b_ad, random_word(rng));
    }
  });

  std::printf("bike_ram Width=%d Depth=%d: fill, read-back and %u random bursts (%llu cycles), "
              "%u failures\n", TB_WIDTH, TB_DEPTH, bench.rep.random, (unsigned long long)cyc,
              bench.fails);
  return bench.finish();
}
