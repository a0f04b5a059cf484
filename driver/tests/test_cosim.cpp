// The cosim platform end to end: the driver's API on the Verilated device
// (gf2x_mul_acc or gf2x_inv_acc, whichever the build put behind it), every
// result bit-exact against libbike, the timing figures printed per
// operation, and the driver's error paths through the RTL. Arguments: those
// of the testbenches (tb::parse_args: --level, --random, --kat, --seed,
// --kat-dir, --json: the run's record, docs/cosim-run-json.md).
#include <cstdio>
#include <string>
#include <vector>

#include "bike_acc.h"
#include "bike_acc_cosim.h"
#include "tb_common.h"

namespace {

unsigned fails = 0;

void expect(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL %s\n", what);
    fails++;
  }
}

// One operation's figures, for the JSON record (docs/cosim-run-json.md).
struct OpRecord {
  std::string what;
  unsigned index;
  bool polled;
  uint32_t accelerator;
  uint64_t transfer, run, reads, writes;
};

struct Run {
  std::vector<OpRecord> ops;
  bool polled = false;
  bike_acc_dev *dev = nullptr;
  bike_acc_cosim_stats st{};
  bike_acc_cosim_config cfg{};
  bool inv = false;
  size_t in_words = 0, out_words = 0;
  const bike_params *p = nullptr;

  // One operation on `in`, compared with libbike; prints its figures.
  void op(const char *what, unsigned v, const std::vector<uint64_t> &in) {
    std::vector<uint64_t> got(out_words), exp(out_words);
    if (inv) bike_gf2x_inv(p, exp.data(), in.data());
    else bike_gf2x_mul(p, exp.data(), in.data(), in.data() + out_words);
    const bike_acc_cosim_stats before = st;
    uint32_t cycles = 0;
    const int rc = bike_acc_run(dev, 1, in.data(), in_words, got.data(), out_words, &cycles);
    if (rc != BIKE_ACC_OK) {
      std::fprintf(stderr, "FAIL %s %u: %s\n", what, v, bike_acc_strerror(rc));
      fails++;
      return;
    }
    if (!tb::same_words(what, v, got.data(), exp.data(), out_words)) fails++;
    const uint64_t total = st.pl_cycles - before.pl_cycles;
    const double ns = (double)total * 1000.0 / st.timing.pl_mhz;
    std::printf("  %-8s %2u: accelerator %7u  transfer %6llu  run %7llu PL cycles = %9.1f ns"
                " = %8.0f CPU cycles (%llu reads, %llu writes)\n",
                what, v, cycles, (unsigned long long)(st.transfer_cycles - before.transfer_cycles),
                (unsigned long long)total, ns, ns * st.timing.cpu_mhz / 1000.0,
                (unsigned long long)(st.reg_reads - before.reg_reads),
                (unsigned long long)(st.reg_writes - before.reg_writes));
    expect(cycles != 0 && total > cycles, "run longer than the accelerator's CYCLES");
    ops.push_back({what, v, polled, cycles, st.transfer_cycles - before.transfer_cycles, total,
                   st.reg_reads - before.reg_reads, st.reg_writes - before.reg_writes});
  }

  void write_json(const std::string &path, int level, unsigned random, unsigned kat) const {
    FILE *f = std::fopen(path.c_str(), "w");
    if (f == nullptr) {
      std::perror(path.c_str());
      fails++;
      return;
    }
    const bike_acc_cosim_timing &t = st.timing;
    std::fprintf(f,
                 "{\"schema\": \"bikeco-cosim/1\", \"device\": \"%s\", \"level\": %d,\n"
                 " \"timing\": {\"pl_mhz\": %u, \"cpu_mhz\": %u, \"read_cycles\": %u, "
                 "\"write_cycles\": %u, \"dma_setup_cycles\": %u, \"dma_bytes_per_cycle\": %u, "
                 "\"irq_cycles\": %u},\n"
                 " \"verified\": {\"random\": %u, \"kat\": %u}, \"passed\": %s,\n"
                 " \"operations\": [",
                 inv ? "gf2x_inv_acc" : "gf2x_mul_acc", level, t.pl_mhz, t.cpu_mhz, t.read_cycles,
                 t.write_cycles, t.dma_setup_cycles, t.dma_bytes_per_cycle, t.irq_cycles, random,
                 kat, fails ? "false" : "true");
    for (size_t i = 0; i < ops.size(); i++) {
      const OpRecord &o = ops[i];
      std::fprintf(f,
                   "%s\n  {\"what\": \"%s\", \"index\": %u, \"wait\": \"%s\", "
                   "\"accelerator_cycles\": %u, \"transfer_cycles\": %llu, "
                   "\"run_pl_cycles\": %llu, \"reg_reads\": %llu, \"reg_writes\": %llu}",
                   i ? "," : "", o.what.c_str(), o.index, o.polled ? "poll" : "irq",
                   o.accelerator, (unsigned long long)o.transfer, (unsigned long long)o.run,
                   (unsigned long long)o.reads, (unsigned long long)o.writes);
    }
    std::fprintf(f, "\n ]}\n");
    std::fclose(f);
  }
};

std::vector<uint64_t> odd_weight(const bike_params *p, std::vector<uint64_t> a) {
  unsigned w = 0;
  for (uint64_t x : a) w += (unsigned)__builtin_popcountll(x);
  if (w % 2 == 0) a[0] ^= 1;  // a unit: odd weight (r prime, 2 primitive)
  (void)p;
  return a;
}

}  // namespace

int main(int argc, char **argv) {
  tb::Args args = tb::parse_args(argc, argv);
  Run r;
  r.p = bike_params_get(args.level);
  if (r.p == nullptr) return 2;
  r.cfg.stats = &r.st;
  bike_acc_options opt{};
  opt.wait = BIKE_ACC_IRQ;
  opt.timeout_us = 600000000u;  // the simulation, not the device, is slow
  opt.platform_config = &r.cfg;
  int rc = bike_acc_open(&r.dev, BIKE_ACC_COSIM, 0, &opt);
  if (rc != BIKE_ACC_OK) {
    std::fprintf(stderr, "open: %s\n", bike_acc_strerror(rc));
    return 1;
  }
  bike_acc_info info{};
  bike_acc_get_info(r.dev, &info);
  r.inv = info.core == ACC_SHELL__ACC_SHELL_CORE_E__GF2X_INV;
  expect(info.param == r.p->r, "PARAM is the level's r");
  expect(bike_acc_words(r.dev, 1, &r.in_words, &r.out_words) == BIKE_ACC_OK, "WORDS of op 1");
  expect(r.in_words == (r.inv ? 1u : 2u) * r.out_words, "WORDS.IN");
  const bike_acc_cosim_timing &t = r.st.timing;
  std::printf("cosim %s L%d: PL %u MHz, CPU %u MHz; read %u, write %u, DMA set-up %u, "
              "%u B/cycle, interrupt %u PL cycles\n",
              r.inv ? "gf2x_inv_acc" : "gf2x_mul_acc", args.level, t.pl_mhz, t.cpu_mhz,
              t.read_cycles, t.write_cycles, t.dma_setup_cycles, t.dma_bytes_per_cycle,
              t.irq_cycles);

  tb::Rng rng(args.seed);
  std::vector<uint64_t> in(r.in_words);
  for (unsigned v = 0; v < args.random; v++) {
    for (size_t k = 0; k < r.in_words; k += r.out_words) tb::operand(r.p, rng, 0, &in[k]);
    r.op("random", v, r.inv ? odd_weight(r.p, in) : in);
  }
  if (args.kat) {
    std::vector<tb::Record> recs = tb::read_kat(tb::kat_path(args));
    expect(recs.size() >= args.kat, "KAT records read");
    for (unsigned v = 0; v < args.kat && v < recs.size(); v++) {
      const uint8_t *h0 = recs[v]["sk"].data() + 8 * r.p->d;
      bike_poly_from_bytes(r.p, in.data(), r.inv ? h0 : recs[v]["ct"].data());
      if (!r.inv) bike_poly_from_bytes(r.p, in.data() + r.out_words, h0);
      r.op(r.inv ? "kat h0^-1" : "kat c0*h0", v, in);
    }
  }

  // error paths through the RTL
  std::vector<uint64_t> out(r.out_words);
  rc = bike_acc_run(r.dev, 7, in.data(), r.in_words, out.data(), r.out_words, nullptr);
  expect(rc == BIKE_ACC_ERR_OP, "unknown operation: BIKE_ACC_ERR_OP");
  rc = bike_acc_run(r.dev, 1, in.data(), r.in_words - 1, out.data(), r.out_words, nullptr);
  expect(rc == BIKE_ACC_ERR_IN_SHORT, "short operand buffer: BIKE_ACC_ERR_IN_SHORT");
  r.cfg.drop_in_words = 3;  // the next stream ends 3 words early (read at open)
  bike_acc_close(r.dev);
  rc = bike_acc_open(&r.dev, BIKE_ACC_COSIM, 0, &opt);
  expect(rc == BIKE_ACC_OK, "reopen");
  if (rc == BIKE_ACC_OK) {
    rc = bike_acc_run(r.dev, 1, in.data(), r.in_words, out.data(), r.out_words, nullptr);
    expect(rc == BIKE_ACC_ERR_DEV(IN_SHORT), "short stream: STATUS.ERROR = IN_SHORT");
    bool zero = true;
    for (uint64_t w : out) zero = zero && w == 0;
    expect(zero, "no result after an error");
    r.op("after", 0, r.inv ? odd_weight(r.p, in) : in);  // the device recovers
    bike_acc_close(r.dev);
  }
  // polling STATUS instead of the interrupt: one register read per poll
  opt.wait = BIKE_ACC_POLL;
  r.cfg.drop_in_words = 0;
  rc = bike_acc_open(&r.dev, BIKE_ACC_COSIM, 0, &opt);
  expect(rc == BIKE_ACC_OK, "open, polling");
  r.polled = true;
  if (rc == BIKE_ACC_OK) {
    const uint64_t reads = r.st.reg_reads;
    r.op("polled", 0, r.inv ? odd_weight(r.p, in) : in);
    expect(r.st.reg_reads - reads > 5, "polling reads STATUS more than once");
    bike_acc_close(r.dev);
  }
  // which device: by name, by ID.CORE, none such; one clock for all
  expect(bike_acc_cosim_device_at(0) != nullptr, "a device is linked");
  expect(r.st.pl_cycles == bike_acc_cosim_clock(), "the stats carry the shared clock");
  bike_acc_cosim_config pick{};
  opt.platform_config = &pick;
  opt.core = 0;
  bike_acc_dev *other = nullptr;
  pick.device = bike_acc_cosim_device_at(0);
  expect(bike_acc_open(&other, BIKE_ACC_COSIM, 0, &opt) == BIKE_ACC_OK, "open by name");
  bike_acc_close(other);
  pick.device = "no_such_acc";
  expect(bike_acc_open(&other, BIKE_ACC_COSIM, 0, &opt) == BIKE_ACC_ERR_OPEN,
         "a device not linked: BIKE_ACC_ERR_OPEN");
  pick.device = nullptr;
  pick.core = info.core;
  expect(bike_acc_open(&other, BIKE_ACC_COSIM, 0, &opt) == BIKE_ACC_OK, "open by ID.CORE");
  bike_acc_close(other);
  pick.core = 0x3ff;
  expect(bike_acc_open(&other, BIKE_ACC_COSIM, 0, &opt) == BIKE_ACC_ERR_OPEN,
         "no device of that core: BIKE_ACC_ERR_OPEN");
  if (!args.json.empty()) r.write_json(args.json, args.level, args.random, args.kat);
  std::printf("cosim: %u random + %u KAT operations, error paths: %s\n", args.random, args.kat,
              fails ? "FAILED" : "ok");
  return fails ? 1 : 0;
}
