// mlkem-cosim: libmlkem's ML-KEM with its NTT kernels on a co-simulated
// ntt_acc (the cosim platform's Verilated device in this process, through
// bike_acc_mlkem), every output byte-compared with libmlkem's software, with
// the figures of every kernel the device ran: its device runs, the stream
// words moved, its CYCLES, the transfer cycles, the PL cycles of the runs and
// those in CPU cycles (JSON: docs/cosim-mlkem-json.md).
//
//   mlkem-cosim [--count N] [--seed S] [--wait irq|poll] [--json FILE]
//
// --wait: how the driver waits for each operation's end (the interrupt, as
// under Linux with UIO; or polling STATUS, as bare metal does)
//
// hwflow builds it with ntt_acc linked in (`python -m hwflow cosim-mlkem`);
// exit status 0 when every output matched.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" {
#include "bike_acc.h"
#include "bike_acc_cosim.h"
#include "bike_acc_mlkem.h"
#include "mlkem/accel.h"
#include "mlkem/mlkem.h"
}

namespace {

// the hooks: ntt (single and vector), invntt, basemul, basemul_invntt
constexpr unsigned kKernels = 4;
const char *const kKernel[kKernels] = {"ntt", "invntt", "basemul", "basemul_invntt"};
const char *const kKem[3] = {"keygen", "encaps", "decaps"};

// Figures of one kernel within one KEM operation, summed over the runs.
struct Figures {
  uint64_t calls = 0, runs = 0, words_in = 0, words_out = 0, accelerator = 0, transfer = 0,
           run = 0;
};

struct Tool {
  bike_acc_mlkem *m = nullptr;
  const mlkem_accel *inner = nullptr;
  bike_acc_cosim_stats st{};
  unsigned kem = 0;      // the KEM operation running
  Figures fig[3][kKernels];  // [kem][kernel]
};

Tool tool;

// Around each of the driver's hooks: the cosim counters before and after.
template <class F>
int measured(unsigned kernel, F call) {
  bike_acc_mlkem_stats s0, s1;
  bike_acc_mlkem_get_stats(tool.m, &s0);
  const bike_acc_cosim_stats before = tool.st;
  const uint64_t clock0 = bike_acc_cosim_clock();
  const int rc = call();
  bike_acc_mlkem_get_stats(tool.m, &s1);
  Figures &f = tool.fig[tool.kem][kernel];
  f.calls++;
  for (unsigned op = 0; op < BIKE_ACC_MLKEM_OPS; op++) {
    f.runs += s1.runs[op] - s0.runs[op];
    f.words_in += s1.words_in[op] - s0.words_in[op];
    f.words_out += s1.words_out[op] - s0.words_out[op];
    f.accelerator += s1.cycles[op] - s0.cycles[op];
  }
  f.transfer += tool.st.transfer_cycles - before.transfer_cycles;
  f.run += bike_acc_cosim_clock() - clock0;
  return rc;
}

int w_ntt(void *, int16_t a[MLKEM_ACCEL_N]) {
  return measured(0, [&] { return tool.inner->ntt(tool.inner->ctx, a); });
}
int w_ntt_vec(void *, int16_t (*a)[MLKEM_ACCEL_N], unsigned k) {
  return measured(0, [&] { return tool.inner->ntt_vec(tool.inner->ctx, a, k); });
}
int w_basemul_invntt(void *, int16_t r[MLKEM_ACCEL_N], const int16_t (*a)[MLKEM_ACCEL_N],
                     const int16_t (*b)[MLKEM_ACCEL_N], unsigned k) {
  return measured(3, [&] { return tool.inner->basemul_acc_invntt(tool.inner->ctx, r, a, b, k); });
}
int w_invntt(void *, int16_t a[MLKEM_ACCEL_N]) {
  return measured(1, [&] { return tool.inner->invntt(tool.inner->ctx, a); });
}
int w_basemul(void *, int16_t r[MLKEM_ACCEL_N], const int16_t (*a)[MLKEM_ACCEL_N],
              const int16_t (*b)[MLKEM_ACCEL_N], unsigned k) {
  return measured(2, [&] { return tool.inner->basemul_acc(tool.inner->ctx, r, a, b, k); });
}

uint64_t rng_state;
uint8_t rnd() {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint8_t)(rng_state >> 56);
}

struct Out {
  uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES], ct[MLKEM_MAX_CT_BYTES];
  uint8_t ss_e[MLKEM_SS_BYTES], ss_d[MLKEM_SS_BYTES], ss_bad[MLKEM_SS_BYTES];
  int rc[4];
};

// keygen, encaps, decaps and decaps of a tampered ciphertext; `hw`: the
// table in use, with the KEM operation noted for the figures
void run(int set, const uint8_t *d, const uint8_t *z, const uint8_t *msg, const uint8_t *bad_at,
         Out *o, const mlkem_accel *table) {
  const size_t ekn = mlkem_ek_bytes(set), dkn = mlkem_dk_bytes(set), ctn = mlkem_ct_bytes(set);
  std::memset(o, 0, sizeof(*o));
  mlkem_set_accel(table);
  tool.kem = 0;
  o->rc[0] = mlkem_keypair_derand(set, o->ek, ekn, o->dk, dkn, d, z);
  tool.kem = 1;
  o->rc[1] = mlkem_encaps_derand(set, o->ct, ctn, o->ss_e, o->ek, ekn, msg);
  tool.kem = 2;
  o->rc[2] = mlkem_decaps(set, o->ss_d, o->ct, ctn, o->dk, dkn);
  mlkem_set_accel(nullptr);
  // the implicit rejection, on the device too (figures not counted)
  static uint8_t bad[MLKEM_MAX_CT_BYTES];
  std::memcpy(bad, o->ct, ctn);
  bad[(bad_at[0] | (size_t)bad_at[1] << 8) % ctn] ^= 1;
  Figures keep[3][kKernels];
  std::memcpy(keep, tool.fig, sizeof(keep));
  mlkem_set_accel(table);
  o->rc[3] = mlkem_decaps(set, o->ss_bad, bad, ctn, o->dk, dkn);
  mlkem_set_accel(nullptr);
  std::memcpy(tool.fig, keep, sizeof(keep));
}

}  // namespace

int main(int argc, char **argv) {
  unsigned count = 2;
  uint64_t seed = 1;
  std::string json;
  bool poll = false;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--count" && i + 1 < argc) {
      count = (unsigned)std::strtoul(argv[++i], nullptr, 0);
    } else if (a == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 0);
    } else if (a == "--wait" && i + 1 < argc && (std::string(argv[i + 1]) == "irq" ||
                                                  std::string(argv[i + 1]) == "poll")) {
      poll = std::string(argv[++i]) == "poll";
    } else if (a == "--json" && i + 1 < argc) {
      json = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: mlkem-cosim [--count N] [--seed S] [--wait irq|poll] [--json FILE]\n");
      return 2;
    }
  }
  rng_state = seed;

  bike_acc_cosim_config cfg{};
  cfg.stats = &tool.st;
  cfg.device = "ntt_acc";
  bike_acc_options opt{};
  opt.core = ACC_SHELL__ACC_SHELL_CORE_E__NTT;
  opt.wait = poll ? BIKE_ACC_POLL : BIKE_ACC_IRQ;
  opt.timeout_us = 600000000u;  // the simulation, not the device, is slow
  opt.platform_config = &cfg;
  bike_acc_dev *dev = nullptr;
  int rc = bike_acc_open(&dev, BIKE_ACC_COSIM, 0, &opt);
  if (rc == BIKE_ACC_OK) rc = bike_acc_mlkem_new(&tool.m, dev, BIKE_ACC_MLKEM_ALL);
  if (rc != BIKE_ACC_OK) {
    std::fprintf(stderr, "mlkem-cosim: ntt_acc: %s\n", bike_acc_strerror(rc));
    return 1;
  }
  tool.inner = bike_acc_mlkem_table(tool.m);
  const mlkem_accel table = {nullptr, w_ntt, w_invntt, w_basemul, w_ntt_vec, w_basemul_invntt};

  static const int sets[3] = {512, 768, 1024};
  unsigned matched[3] = {0, 0, 0};
  Figures figs[3][3][kKernels];
  bool passed = true;
  for (unsigned s = 0; s < 3; s++) {
    std::memset(tool.fig, 0, sizeof(tool.fig));
    for (unsigned c = 0; c < count; c++) {
      uint8_t d[32], z[32], msg[32], at[2];
      for (auto &x : d) x = rnd();
      for (auto &x : z) x = rnd();
      for (auto &x : msg) x = rnd();
      for (auto &x : at) x = rnd();
      static Out sw, hw;
      run(sets[s], d, z, msg, at, &sw, nullptr);
      run(sets[s], d, z, msg, at, &hw, &table);
      const bool same = std::memcmp(&sw, &hw, sizeof(sw)) == 0 && sw.rc[0] == 0 &&
                        sw.rc[1] == 0 && sw.rc[2] == 0 && sw.rc[3] == 0 &&
                        std::memcmp(sw.ss_e, sw.ss_d, MLKEM_SS_BYTES) == 0 &&
                        std::memcmp(sw.ss_e, sw.ss_bad, MLKEM_SS_BYTES) != 0;
      if (same) {
        matched[s]++;
      } else {
        std::fprintf(stderr, "MISMATCH ML-KEM-%d run %u\n", sets[s], c);
        passed = false;
      }
    }
    std::memcpy(figs[s], tool.fig, sizeof(tool.fig));
    std::printf("ML-KEM-%d: %u of %u runs (keygen, encaps, decaps, rejection) byte-exact on the "
                "co-simulated ntt_acc\n",
                sets[s], matched[s], count);
  }
  if (tool.st.pl_cycles == 0) passed = false;  // nothing ran on the device

  if (!json.empty()) {
    FILE *f = std::fopen(json.c_str(), "w");
    if (!f) {
      std::perror(json.c_str());
      return 2;
    }
    const bike_acc_cosim_timing &t = tool.st.timing;
    std::fprintf(f,
                 "{\"schema\": \"bikeco-cosim-mlkem/2\", \"device\": \"ntt_acc\", "
                 "\"wait\": \"%s\",\n",
                 poll ? "poll" : "irq");
    std::fprintf(f,
                 " \"timing\": {\"pl_mhz\": %u, \"cpu_mhz\": %u, \"read_cycles\": %u, "
                 "\"write_cycles\": %u, \"dma_setup_cycles\": %u, \"dma_bytes_per_cycle\": %u, "
                 "\"irq_cycles\": %u},\n",
                 t.pl_mhz, t.cpu_mhz, t.read_cycles, t.write_cycles, t.dma_setup_cycles,
                 t.dma_bytes_per_cycle, t.irq_cycles);
    std::fprintf(f, " \"count\": %u, \"passed\": %s,\n \"sets\": [", count,
                 passed ? "true" : "false");
    for (unsigned s = 0; s < 3; s++) {
      std::fprintf(f, "%s\n  {\"set\": %d, \"matched\": %u, \"kem\": [", s ? "," : "", sets[s],
                   matched[s]);
      for (unsigned k = 0; k < 3; k++) {
        std::fprintf(f, "%s\n   {\"operation\": \"%s\", \"kernels\": [", k ? "," : "", kKem[k]);
        for (unsigned n = 0; n < kKernels; n++) {
          const Figures &g = figs[s][k][n];
          std::fprintf(f,
                       "%s\n    {\"kernel\": \"%s\", \"calls\": %llu, \"device_runs\": %llu, "
                       "\"words_in\": %llu, \"words_out\": %llu, \"accelerator_cycles\": %llu, "
                       "\"transfer_cycles\": %llu, "
                       "\"run_pl_cycles\": %llu, \"cpu_cycles\": %llu}",
                       n ? "," : "", kKernel[n], (unsigned long long)g.calls,
                       (unsigned long long)g.runs, (unsigned long long)g.words_in,
                       (unsigned long long)g.words_out,
                       (unsigned long long)g.accelerator, (unsigned long long)g.transfer,
                       (unsigned long long)g.run,
                       (unsigned long long)(g.run * t.cpu_mhz / t.pl_mhz));
        }
        std::fprintf(f, "]}");
      }
      std::fprintf(f, "]}");
    }
    std::fprintf(f, "]}\n");
    std::fclose(f);
  }
  bike_acc_mlkem_free(tool.m);
  bike_acc_close(dev);
  return passed ? 0 : 1;
}
