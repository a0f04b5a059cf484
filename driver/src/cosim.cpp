// The cosim platform: the Verilated shell devices linked into the program
// (cosim_device.h), opened by name or by core, with a timing model of the
// CPU side and one PL clock shared by all of them.
#include <cstdlib>
#include <cstring>
#include <new>

#include "bike_acc_cosim.h"
#include "cosim_device.h"
extern "C" {
#include "platform.h"
#include "regs.h"
}

namespace cosim {

uint64_t clock_cycles = 0;
namespace {
DeviceType *types = nullptr;  // constant-initialised: safe before any registration
}

void register_type(DeviceType *type) {
  // appended, so that "the first linked" is the first registered
  DeviceType **at = &types;
  while (*at != nullptr) at = &(*at)->next;
  type->next = nullptr;
  *at = type;
}

}  // namespace cosim

using cosim::Device;
using cosim::DeviceType;

namespace {

uint32_t pick(uint32_t given, const char *env, uint32_t dflt) {
  if (given != 0) return given;
  const char *e = std::getenv(env);
  if (e != nullptr && *e != '\0') {
    const unsigned long v = std::strtoul(e, nullptr, 10);
    if (v != 0) return (uint32_t)v;
  }
  return dflt;
}

Device *of(void *priv) { return static_cast<Device *>(priv); }

// A fresh device of `type`, out of reset.
Device *make(const DeviceType *type, const bike_acc_cosim_timing &t) {
  Device *d = type->make();
  if (d == nullptr) return nullptr;
  d->t = t;
  d->reset();
  return d;
}

int cosim_open(void **priv, unsigned instance, const void *config) {
  (void)instance;  // every instance is a fresh model
  const bike_acc_cosim_config none{};
  const bike_acc_cosim_config *c =
      config != nullptr ? static_cast<const bike_acc_cosim_config *>(config) : &none;
  const bike_acc_cosim_timing &g = c->timing;
  bike_acc_cosim_timing t{};
  t.pl_mhz = pick(g.pl_mhz, "BIKE_COSIM_PL_MHZ", 100);
  t.cpu_mhz = pick(g.cpu_mhz, "BIKE_COSIM_CPU_MHZ", 667);
  t.read_cycles = pick(g.read_cycles, "BIKE_COSIM_READ_CYCLES", 20);
  t.write_cycles = pick(g.write_cycles, "BIKE_COSIM_WRITE_CYCLES", 12);
  t.dma_setup_cycles = pick(g.dma_setup_cycles, "BIKE_COSIM_DMA_SETUP_CYCLES", 100);
  t.dma_bytes_per_cycle = pick(g.dma_bytes_per_cycle, "BIKE_COSIM_DMA_BYTES_PER_CYCLE", 8);
  t.irq_cycles = pick(g.irq_cycles, "BIKE_COSIM_IRQ_CYCLES", 700);
  if (t.dma_bytes_per_cycle > 8) return BIKE_ACC_ERR_ARG;
  Device *d = nullptr;
  for (const DeviceType *type = cosim::types; type != nullptr && d == nullptr;
       type = type->next) {
    if (c->device != nullptr && std::strcmp(c->device, type->name) != 0) continue;
    d = make(type, t);
    if (d == nullptr) return BIKE_ACC_ERR_NOMEM;
    if (c->device == nullptr && c->core != 0) {  // by ID.CORE
      if (ACC_GET(d->read(ACC_REG(ID)), ID, CORE) != c->core) {
        d->final();
        delete d;
        d = nullptr;
      }
    }
  }
  if (d == nullptr) return BIKE_ACC_ERR_OPEN;  // no such device linked
  d->s = bike_acc_cosim_stats{};
  d->s.timing = t;
  d->out_stats = c->stats;
  d->drop = c->drop_in_words;
  d->sync();
  *priv = d;
  return BIKE_ACC_OK;
}

void cosim_close(void *priv) {
  Device *d = of(priv);
  d->final();
  delete d;
}

uint32_t cosim_read(void *priv, uint32_t off) {
  const uint32_t v = of(priv)->read(off);
  of(priv)->sync();
  return v;
}

void cosim_write(void *priv, uint32_t off, uint32_t v) {
  of(priv)->write(off, v);
  of(priv)->sync();
}

int cosim_stream_start(void *priv, const uint64_t *in, size_t in_words, size_t out_words) {
  Device *d = of(priv);
  d->idle(d->t.dma_setup_cycles);  // S2MM, then MM2S: address and length registers
  size_t n = in_words;
  if (d->drop != 0) {
    n = d->drop < n ? n - d->drop : 0;
    d->drop = 0;
  }
  d->src.assign(in, in + n);
  d->src_i = 0;
  d->src_n = n;
  d->src_on = false;
  d->src_credit = 0;
  d->sink.clear();
  d->sink_n = out_words;
  d->sink_armed = out_words != 0;
  d->sink_last = false;
  d->sink_credit = 0;
  d->sync();
  return BIKE_ACC_OK;
}

int cosim_stream_finish(void *priv, uint64_t *out, size_t out_words, uint64_t deadline_ns) {
  Device *d = of(priv);
  while (d->sink_armed && !d->bus_error && bike_acc_now_ns() <= deadline_ns) d->step();
  d->rest(0, d->t.read_cycles);  // the CPU reads DMASR: S2MM idle
  d->sync();
  if (d->sink_armed) return BIKE_ACC_ERR_TIMEOUT;
  if (d->bus_error || d->sink.size() != out_words || !d->sink_last) return BIKE_ACC_ERR_DMA;
  for (size_t i = 0; i < out_words; i++) out[i] = d->sink[i];
  return BIKE_ACC_OK;
}

int cosim_stream_check(void *priv) {
  return of(priv)->bus_error ? BIKE_ACC_ERR_DMA : BIKE_ACC_OK;
}

void cosim_stream_reset(void *priv) {
  Device *d = of(priv);
  d->src_n = d->src_i = 0;
  d->src_on = false;
  d->sink_armed = false;
  d->bus_error = false;
  d->idle(d->t.write_cycles);  // DMACR.Reset
  d->sync();
}

int cosim_irq_arm(void *priv) {
  (void)priv;
  return BIKE_ACC_OK;
}

int cosim_irq_wait(void *priv, uint64_t deadline_ns) {
  Device *d = of(priv);
  while (!d->irq()) {
    if (d->bus_error) return BIKE_ACC_ERR_DMA;
    if (bike_acc_now_ns() > deadline_ns) return BIKE_ACC_ERR_TIMEOUT;
    d->step();
  }
  d->idle(d->t.irq_cycles);
  d->sync();
  return BIKE_ACC_OK;
}

}  // namespace

extern "C" uint64_t bike_acc_cosim_clock(void) { return cosim::clock_cycles; }

extern "C" const char *bike_acc_cosim_device_at(unsigned i) {
  const DeviceType *type = cosim::types;
  for (; type != nullptr && i > 0; i--) type = type->next;
  return type != nullptr ? type->name : nullptr;
}

extern "C" const platform_ops bike_acc_cosim_ops = {
    "cosim",          cosim_open,         cosim_close,         cosim_read,
    cosim_write,      cosim_stream_start, cosim_stream_finish, cosim_stream_check,
    cosim_stream_reset, cosim_irq_arm,    cosim_irq_wait,
};
