// bike-cosim: libbike's KEM with a placement's operations on co-simulated
// accelerators (the cosim platform's Verilated devices in this process),
// checked against the KAT response file, with the figures of every placed
// operation: the accelerator's CYCLES, the transfer cycles, and the CPU
// side's time (docs/placement.md; the JSON record: docs/cosim-placement-json.md).
// --random N adds N KEMs from random coins (a DRBG seeded by --seed), each
// compared with libbike's software on the same coins, and one tampered
// ciphertext each (a c0 bit below r flipped, a c1 bit flipped, a c0 bit at
// or above r set, in turn), whose implicit-rejection secret must be
// software's too.
//
//   bike-cosim --placement FILE --level N [--kat N] [--random N] [--seed S]
//              [--kat-dir DIR] [--wait irq|poll] [--json FILE]
//
// hwflow builds it with the placement's devices linked in
// (`python -m hwflow placement`); exit status 0 when every record matched.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tb_kat.h"

extern "C" {
#include "bike/accel.h"
#include "bike/bike.h"
#include "bike_acc.h"
#include "bike_acc_cosim.h"
#include "bike_acc_offload.h"
#include "drbg.h"
}

namespace {

uint64_t now_ns() {
  return (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Opened {
  std::string name;
  std::string preset;
  bike_acc_dev *dev = nullptr;
  bike_acc_cosim_stats st{};
};

// Figures per target, from the trace around each device operation.
struct TargetFigures {
  uint64_t calls = 0, accelerator = 0, transfer = 0, run = 0, reads = 0, writes = 0;
  std::string device;
};

struct Tool {
  std::vector<Opened> devs;
  TargetFigures fig[BIKE_ACC_N_TARGETS];
  bike_acc_cosim_stats before{};
  uint64_t host_in_devices_ns = 0, t_before_ns = 0, clock_before = 0;
};

Opened *opened_of(Tool *tool, bike_acc_dev *dev) {
  for (Opened &o : tool->devs)
    if (o.dev == dev) return &o;
  return nullptr;
}

void trace(void *ctx, bike_acc_target t, bike_acc_dev *dev, int phase, int rc, uint32_t cycles) {
  Tool *tool = static_cast<Tool *>(ctx);
  Opened *o = opened_of(tool, dev);
  if (o == nullptr) return;
  if (phase == 0) {
    tool->before = o->st;
    tool->clock_before = bike_acc_cosim_clock();  // o->st's is as of the device's last use
    tool->t_before_ns = now_ns();
    return;
  }
  tool->host_in_devices_ns += now_ns() - tool->t_before_ns;
  if (rc != BIKE_ACC_OK) return;
  TargetFigures &f = tool->fig[t];
  f.calls++;
  f.accelerator += cycles;
  f.transfer += o->st.transfer_cycles - tool->before.transfer_cycles;
  f.run += bike_acc_cosim_clock() - tool->clock_before;
  f.reads += o->st.reg_reads - tool->before.reg_reads;
  f.writes += o->st.reg_writes - tool->before.reg_writes;
}

int usage() {
  std::fprintf(stderr,
               "usage: bike-cosim --placement FILE --level N [--kat N] [--random N] [--seed S]\n"
               "                  [--kat-dir DIR] [--wait irq|poll] [--json FILE]\n");
  return 2;
}

std::string read_file(const std::string &path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return f ? ss.str() : std::string();
}

// The KEM operations' host time outside the devices (libbike's software
// on this machine, not on the modelled CPU).
struct KemFigures {
  uint64_t calls = 0, software_ns = 0;
};

// One KEM's objects.
struct Kem {
  uint8_t pk[BIKE_MAX_PUBLIC_KEY_BYTES], sk[BIKE_MAX_SECRET_KEY_BYTES];
  uint8_t ct[BIKE_MAX_CIPHERTEXT_BYTES], ss[32], ss2[32], bad_ss[32];
  int rc[4];
};

// keygen, encaps from the coins, decaps of ct and of `bad` (a tampered ct,
// if any), each through `call(operation, function)`
template <typename Call>
void run_kem(const bike_params *p, const uint8_t kc[BIKE_COINS_BYTES],
             const uint8_t ec[BIKE_COINS_BYTES], const uint8_t *bad, Kem *k, Call call) {
  const int l = p->level;
  k->rc[0] = call(0, [&] {
    return bike_keypair_derand(l, k->pk, p->pk_bytes, k->sk, p->sk_bytes, kc);
  });
  k->rc[1] = call(1, [&] {
    return bike_encaps_derand(l, k->ct, p->ct_bytes, k->ss, k->pk, p->pk_bytes, ec);
  });
  k->rc[2] = call(2, [&] {
    return bike_decaps(l, k->ss2, k->ct, p->ct_bytes, k->sk, p->sk_bytes);
  });
  k->rc[3] = bad == nullptr ? BIKE_OK : call(2, [&] {
    return bike_decaps(l, k->bad_ss, bad, p->ct_bytes, k->sk, p->sk_bytes);
  });
}

// ct with one change of the `kind`-th sort (0: a c0 bit below r flipped, 1: a
// c1 bit flipped, 2: a c0 bit at or above r set), `pick` choosing the bit
void tamper(const bike_params *p, const uint8_t *ct, uint8_t *bad, unsigned kind, uint32_t pick) {
  const size_t rb = (p->r + 7) / 8;
  std::memcpy(bad, ct, p->ct_bytes);
  uint32_t bit;
  if (kind == 0) {
    bit = pick % p->r;
    bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
  } else if (kind == 1) {
    bit = pick % 256;
    bad[rb + bit / 8] ^= (uint8_t)(1u << (bit % 8));
  } else {
    bit = (uint32_t)(p->r + pick % (8 * rb - p->r));
    bad[bit / 8] |= (uint8_t)(1u << (bit % 8));
  }
}

}  // namespace

int main(int argc, char **argv) {
  std::string placement_path, kat_dir = "../../shared/kat", json, wait = "irq";
  int level = 1;
  unsigned kat = 10, random = 0;
  unsigned long seed = 1;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return usage();
    const std::string v = argv[++i];
    if (a == "--placement") placement_path = v;
    else if (a == "--level") level = std::atoi(v.c_str());
    else if (a == "--kat") kat = (unsigned)std::strtoul(v.c_str(), nullptr, 10);
    else if (a == "--random") random = (unsigned)std::strtoul(v.c_str(), nullptr, 10);
    else if (a == "--seed") seed = std::strtoul(v.c_str(), nullptr, 10);
    else if (a == "--kat-dir") kat_dir = v;
    else if (a == "--json") json = v;
    else if (a == "--wait") wait = v;
    else return usage();
  }
  const bike_params *p = bike_params_get(level);
  if (placement_path.empty() || p == nullptr || (wait != "irq" && wait != "poll")) return usage();
  const std::string text = read_file(placement_path);
  bike_acc_placement pl;
  unsigned bad = 0;
  if (text.empty() || bike_acc_placement_parse(text.c_str(), &pl, &bad) != BIKE_ACC_OK) {
    std::fprintf(stderr, "bike-cosim: %s: bad placement (line %u)\n", placement_path.c_str(), bad);
    return 2;
  }

  // one device per name, opened on the cosim platform; each target bound
  Tool tool;
  tool.devs.reserve(pl.n);
  bike_acc_offload *off = nullptr;
  if (bike_acc_offload_new(&off) != BIKE_ACC_OK) return 1;
  bike_acc_offload_set_trace(off, trace, &tool);
  for (size_t i = 0; i < pl.n; i++) {
    const bike_acc_placement_entry &e = pl.entry[i];
    Opened *o = nullptr;
    for (Opened &d : tool.devs)
      if (d.name == e.device) o = &d;
    if (o == nullptr) {
      tool.devs.emplace_back();
      o = &tool.devs.back();
      o->name = e.device;
      o->preset = e.preset;
      bike_acc_cosim_config cfg{};
      cfg.stats = &o->st;
      cfg.device = e.device;
      bike_acc_options opt{};
      opt.wait = wait == "irq" ? BIKE_ACC_IRQ : BIKE_ACC_POLL;
      opt.timeout_us = 600000000u;  // the simulation, not the device, is slow
      opt.platform_config = &cfg;
      const int rc = bike_acc_open(&o->dev, BIKE_ACC_COSIM, 0, &opt);
      if (rc != BIKE_ACC_OK) {
        std::fprintf(stderr, "bike-cosim: open %s: %s\n", e.device, bike_acc_strerror(rc));
        return 1;
      }
    }
    const int rc = bike_acc_offload_bind(off, e.target, o->dev);
    if (rc != BIKE_ACC_OK) {
      std::fprintf(stderr, "bike-cosim: %s on %s: %s\n", bike_acc_target_name(e.target),
                   e.device, bike_acc_strerror(rc));
      return 1;
    }
    tool.fig[e.target].device = e.device;
  }
  bike_set_accel(bike_acc_offload_table(off));

  tb::Args targs;
  targs.level = level;
  targs.kat_dir = kat_dir;
  const std::vector<tb::Record> recs = tb::read_kat(tb::kat_path(targs));
  if (recs.size() < kat) {
    std::fprintf(stderr, "bike-cosim: the KAT file has %zu records\n", recs.size());
    return 2;
  }
  std::printf("bike-cosim: %s at L%d, %u KAT records, %u random KEMs, %s\n",
              placement_path.c_str(), level, kat, random, wait.c_str());
  for (size_t i = 0; i < pl.n; i++)
    std::printf("  %-22s -> %s %s\n", bike_acc_target_name(pl.entry[i].target),
                pl.entry[i].device, pl.entry[i].preset);

  static uint8_t pk[BIKE_MAX_PUBLIC_KEY_BYTES], sk[BIKE_MAX_SECRET_KEY_BYTES];
  static uint8_t ct[BIKE_MAX_CIPHERTEXT_BYTES];
  uint8_t ss[32], ss2[32], coins[BIKE_COINS_BYTES];
  KemFigures kemf[3];
  unsigned matched = 0;
  for (unsigned i = 0; i < kat; i++) {
    const tb::Record &r = recs[i];
    nist_drbg drbg;
    bool ok = r.count("seed") && r.at("seed").size() == 48 &&
              nist_drbg_init(&drbg, r.at("seed").data()) == 0;
    int rc[3] = {BIKE_OK, BIKE_OK, BIKE_OK};
    for (int op = 0; op < 3 && ok; op++) {
      if (op < 2) ok = nist_drbg_generate(&drbg, coins, sizeof(coins)) == 0;
      const uint64_t in_dev0 = tool.host_in_devices_ns, t0 = now_ns();
      if (op == 0) rc[op] = bike_keypair_derand(level, pk, p->pk_bytes, sk, p->sk_bytes, coins);
      if (op == 1)
        rc[op] = bike_encaps_derand(level, ct, p->ct_bytes, ss, pk, p->pk_bytes, coins);
      if (op == 2) rc[op] = bike_decaps(level, ss2, ct, p->ct_bytes, sk, p->sk_bytes);
      kemf[op].calls++;
      kemf[op].software_ns += (now_ns() - t0) - (tool.host_in_devices_ns - in_dev0);
      ok = ok && rc[op] == BIKE_OK;
    }
    auto same = [&](const char *name, const uint8_t *got, size_t n) {
      const bool eq = r.count(name) && r.at(name).size() == n &&
                      std::memcmp(r.at(name).data(), got, n) == 0;
      if (!eq) std::fprintf(stderr, "FAIL record %u: %s differs\n", i, name);
      return eq;
    };
    if (!ok) {
      const int e = rc[0] != BIKE_OK ? rc[0] : rc[1] != BIKE_OK ? rc[1] : rc[2];
      std::fprintf(stderr, "FAIL record %u: %s (driver: %s)\n", i, bike_strerror(e),
                   bike_acc_strerror(bike_acc_offload_last_error(off)));
      continue;
    }
    bool all = same("pk", pk, p->pk_bytes);
    all = same("sk", sk, p->sk_bytes) && all;
    all = same("ct", ct, p->ct_bytes) && all;
    all = same("ss", ss, 32) && all;
    all = same("ss", ss2, 32) && all;
    matched += all;
  }

  // random KEMs and tampered ciphertexts against libbike's software
  unsigned random_matched = 0, tampered_matched = 0;
  nist_drbg rdrbg;
  uint8_t rseed[48] = {0};
  for (int b = 0; b < 8; b++) rseed[b] = (uint8_t)(seed >> (8 * b));
  bool rng_ok = nist_drbg_init(&rdrbg, rseed) == 0;
  static Kem dev, sw;
  static uint8_t bad_ct[BIKE_MAX_CIPHERTEXT_BYTES];
  const bike_accel *table = bike_acc_offload_table(off);
  for (unsigned i = 0; i < random && rng_ok; i++) {
    uint8_t kc[BIKE_COINS_BYTES], ec[BIKE_COINS_BYTES], pick[4];
    rng_ok = nist_drbg_generate(&rdrbg, kc, sizeof(kc)) == 0 &&
             nist_drbg_generate(&rdrbg, ec, sizeof(ec)) == 0 &&
             nist_drbg_generate(&rdrbg, pick, sizeof(pick)) == 0;
    const uint32_t pk32 = (uint32_t)pick[0] | (uint32_t)pick[1] << 8 |
                          (uint32_t)pick[2] << 16 | (uint32_t)pick[3] << 24;
    bike_set_accel(nullptr);  // software's run first: it gives the ciphertext to tamper
    run_kem(p, kc, ec, nullptr, &sw, [](int, auto fn) { return fn(); });
    tamper(p, sw.ct, bad_ct, i % 3, pk32);
    sw.rc[3] = bike_decaps(level, sw.bad_ss, bad_ct, p->ct_bytes, sw.sk, p->sk_bytes);
    bike_set_accel(table);
    run_kem(p, kc, ec, bad_ct, &dev, [&](int op, auto fn) {
      const uint64_t in_dev0 = tool.host_in_devices_ns, t0 = now_ns();
      const int rc = fn();
      kemf[op].calls++;
      kemf[op].software_ns += (now_ns() - t0) - (tool.host_in_devices_ns - in_dev0);
      return rc;
    });
    const bool kem_ok = rng_ok && dev.rc[0] == BIKE_OK && dev.rc[1] == BIKE_OK &&
                        dev.rc[2] == BIKE_OK && sw.rc[0] == BIKE_OK && sw.rc[1] == BIKE_OK &&
                        std::memcmp(dev.pk, sw.pk, p->pk_bytes) == 0 &&
                        std::memcmp(dev.sk, sw.sk, p->sk_bytes) == 0 &&
                        std::memcmp(dev.ct, sw.ct, p->ct_bytes) == 0 &&
                        std::memcmp(dev.ss, sw.ss, 32) == 0 && std::memcmp(dev.ss2, sw.ss, 32) == 0;
    const bool bad_ok = dev.rc[3] == BIKE_OK && sw.rc[3] == BIKE_OK &&
                        std::memcmp(dev.bad_ss, sw.bad_ss, 32) == 0 &&
                        std::memcmp(dev.bad_ss, sw.ss, 32) != 0;
    if (!kem_ok) std::fprintf(stderr, "FAIL random KEM %u differs from software\n", i);
    if (!bad_ok)
      std::fprintf(stderr, "FAIL random KEM %u: tampered ciphertext (kind %u) differs\n", i, i % 3);
    random_matched += kem_ok;
    tampered_matched += bad_ok;
  }
  bike_set_accel(nullptr);
  const bool passed = matched == kat && random_matched == random && tampered_matched == random &&
                      kat + random > 0;

  const bike_acc_cosim_timing t = tool.devs.empty() ? bike_acc_cosim_timing{} : tool.devs[0].st.timing;
  std::printf("  %-22s %6s %12s %10s %12s %12s  (per call, PL cycles at %u MHz; CPU at %u MHz)\n",
              "target", "calls", "accelerator", "transfer", "run", "CPU cycles", t.pl_mhz,
              t.cpu_mhz);
  for (int k = 0; k < BIKE_ACC_N_TARGETS; k++) {
    const TargetFigures &f = tool.fig[k];
    if (f.calls == 0) continue;
    const double run = (double)f.run / (double)f.calls;
    std::printf("  %-22s %6llu %12.0f %10.0f %12.0f %12.0f\n",
                bike_acc_target_name((bike_acc_target)k), (unsigned long long)f.calls,
                (double)f.accelerator / (double)f.calls, (double)f.transfer / (double)f.calls,
                run, run * t.cpu_mhz / t.pl_mhz);
  }
  const char *kem_names[3] = {"keygen", "encaps", "decaps"};
  for (int op = 0; op < 3; op++)
    std::printf("  %-22s software on this host %9.1f us per call\n", kem_names[op],
                kemf[op].calls ? (double)kemf[op].software_ns / 1e3 / (double)kemf[op].calls : 0.0);
  std::printf("bike-cosim: %u of %u KAT records, %u of %u random KEMs and %u of %u tampered "
              "ciphertexts bit-exact: %s\n",
              matched, kat, random_matched, random, tampered_matched, random,
              passed ? "ok" : "FAILED");

  if (!json.empty()) {
    FILE *f = std::fopen(json.c_str(), "w");
    if (f == nullptr) {
      std::perror(json.c_str());
      return 1;
    }
    std::fprintf(f,
                 "{\"schema\": \"bikeco-cosim-placement/1\", \"placement\": \"%s\", "
                 "\"level\": %d, \"wait\": \"%s\",\n"
                 " \"timing\": {\"pl_mhz\": %u, \"cpu_mhz\": %u, \"read_cycles\": %u, "
                 "\"write_cycles\": %u, \"dma_setup_cycles\": %u, \"dma_bytes_per_cycle\": %u, "
                 "\"irq_cycles\": %u},\n"
                 " \"kat_records\": %u, \"kat_matched\": %u, \"random\": %u,"
                 " \"random_matched\": %u, \"tampered\": %u, \"tampered_matched\": %u,"
                 " \"passed\": %s,\n \"devices\": [",
                 placement_path.c_str(), level, wait.c_str(), t.pl_mhz, t.cpu_mhz, t.read_cycles,
                 t.write_cycles, t.dma_setup_cycles, t.dma_bytes_per_cycle, t.irq_cycles, kat,
                 matched, random, random_matched, random, tampered_matched,
                 passed ? "true" : "false");
    for (size_t i = 0; i < tool.devs.size(); i++)
      std::fprintf(f, "%s{\"device\": \"%s\", \"preset\": \"%s\"}", i ? ", " : "",
                   tool.devs[i].name.c_str(), tool.devs[i].preset.c_str());
    std::fprintf(f, "],\n \"targets\": [");
    bool first = true;
    for (int k = 0; k < BIKE_ACC_N_TARGETS; k++) {
      const TargetFigures &g = tool.fig[k];
      if (g.device.empty()) continue;
      const uint64_t cpu = g.run * t.cpu_mhz / (t.pl_mhz ? t.pl_mhz : 1);
      std::fprintf(f,
                   "%s\n  {\"target\": \"%s\", \"device\": \"%s\", \"calls\": %llu, "
                   "\"accelerator_cycles\": %llu, \"transfer_cycles\": %llu, "
                   "\"run_pl_cycles\": %llu, \"cpu_cycles\": %llu, \"reg_reads\": %llu, "
                   "\"reg_writes\": %llu}",
                   first ? "" : ",", bike_acc_target_name((bike_acc_target)k), g.device.c_str(),
                   (unsigned long long)g.calls, (unsigned long long)g.accelerator,
                   (unsigned long long)g.transfer, (unsigned long long)g.run,
                   (unsigned long long)cpu, (unsigned long long)g.reads,
                   (unsigned long long)g.writes);
      first = false;
    }
    std::fprintf(f, "\n ],\n \"kem\": [");
    for (int op = 0; op < 3; op++)
      std::fprintf(f, "%s\n  {\"operation\": \"%s\", \"calls\": %llu, \"host_software_ns\": %llu}",
                   op ? "," : "", kem_names[op], (unsigned long long)kemf[op].calls,
                   (unsigned long long)kemf[op].software_ns);
    std::fprintf(f, "\n ]}\n");
    std::fclose(f);
  }
  bike_acc_offload_free(off);
  for (Opened &o : tool.devs) bike_acc_close(o.dev);
  return passed ? 0 : 1;
}
