// The cosim platform: a Verilated shell device (class Vacc, Verilator's
// --prefix) clocked one PL cycle per step. Register accesses are AXI4-Lite
// transactions on the model; the streams are a DMA model that offers operand
// words and takes result words at the configured bandwidth in the background
// of every cycle. The CPU side's costs are PL cycles spent idle after the
// bus transaction, so that the model's clock is the time the CPU sees.
#include <cstdlib>
#include <new>
#include <vector>

#include "Vacc.h"
#include "bike_acc_cosim.h"
extern "C" {
#include "platform.h"
}

namespace {

constexpr uint64_t kLiteTimeout = 10000;  // cycles for one AXI4-Lite transaction

struct Cosim {
  Vacc m;
  bike_acc_cosim_timing t{};
  bike_acc_cosim_stats s{};
  bike_acc_cosim_stats *out_stats = nullptr;
  uint32_t drop = 0;  // fault injection: the next operand stream ends early
  // operand stream (MM2S)
  std::vector<uint64_t> src;
  size_t src_i = 0, src_n = 0;
  bool src_on = false;
  unsigned src_credit = 0;
  // result stream (S2MM)
  std::vector<uint64_t> sink;
  size_t sink_n = 0;
  bool sink_armed = false, sink_last = false;
  unsigned sink_credit = 0;
  bool bus_error = false;  // a protocol violation or a lost bus transaction
  // the AXI4-Lite transfers at the last edge
  bool aw_fire = false, w_fire = false, b_fire = false, ar_fire = false, r_fire = false;
  unsigned bresp = 0, rresp = 0;
  uint32_t rdata = 0;

  void sync() {
    if (out_stats) *out_stats = s;
  }

  // One rising edge: the streams move, the AXI4-Lite inputs are as set.
  void step() {
    const unsigned bpc = t.dma_bytes_per_cycle;
    if (!src_on && src_i < src_n) {
      src_credit += bpc;
      if (src_credit >= 8) {
        src_credit -= 8;
        src_on = true;
      }
    }
    m.s_axis_tvalid = src_on;
    m.s_axis_tdata = src_on ? src[src_i] : 0;
    m.s_axis_tlast = src_on && src_i + 1 == src_n;
    bool ready = false;
    if (sink_armed) {
      sink_credit = sink_credit >= 8 ? sink_credit : sink_credit + bpc;
      ready = sink_credit >= 8;
    }
    m.m_axis_tready = ready;
    m.eval();
    // the AXI4-Lite transfers of this edge
    aw_fire = m.s_axil_awvalid && m.s_axil_awready;
    w_fire = m.s_axil_wvalid && m.s_axil_wready;
    b_fire = m.s_axil_bvalid && m.s_axil_bready;
    ar_fire = m.s_axil_arvalid && m.s_axil_arready;
    r_fire = m.s_axil_rvalid && m.s_axil_rready;
    bresp = m.s_axil_bresp;
    rresp = m.s_axil_rresp;
    rdata = m.s_axil_rdata;
    const bool moving = src_i < src_n || (sink_armed && !sink.empty()) ||
                        (sink_armed && m.m_axis_tvalid);
    if (src_on && m.s_axis_tready) {
      src_i++;
      src_on = false;
    }
    if (m.m_axis_tvalid && !sink_armed) bus_error = true;  // a result nobody asked for
    if (m.m_axis_tvalid && ready) {
      sink.push_back(m.m_axis_tdata);
      sink_credit -= 8;
      if (m.m_axis_tlast) {
        sink_armed = false;
        sink_last = true;
      }
    }
    m.clk_i = 0;
    m.eval();
    m.clk_i = 1;
    m.eval();
    s.pl_cycles++;
    if (moving) s.transfer_cycles++;
  }

  void idle(uint64_t n) {
    for (uint64_t i = 0; i < n; i++) step();
  }

  // Spends what is left of `cost` cycles after a transaction of `used`.
  void rest(uint64_t used, uint64_t cost) { idle(cost > used ? cost - used : 0); }

  uint32_t read(uint32_t off) {
    const uint64_t t0 = s.pl_cycles;
    m.s_axil_araddr = off;
    m.s_axil_arvalid = 1;
    m.s_axil_rready = 1;
    r_fire = false;
    while (!r_fire) {
      if (s.pl_cycles - t0 > kLiteTimeout) {
        bus_error = true;
        break;
      }
      step();
      if (ar_fire) m.s_axil_arvalid = 0;
    }
    if (r_fire && rresp != 0) bus_error = true;
    const uint32_t v = rdata;  // before rest() steps on
    m.s_axil_arvalid = 0;
    m.s_axil_rready = 0;
    s.reg_reads++;
    rest(s.pl_cycles - t0, t.read_cycles);
    return v;
  }

  void write(uint32_t off, uint32_t v) {
    const uint64_t t0 = s.pl_cycles;
    m.s_axil_awaddr = off;
    m.s_axil_wdata = v;
    m.s_axil_wstrb = 0xf;
    m.s_axil_awvalid = 1;
    m.s_axil_wvalid = 1;
    m.s_axil_bready = 1;
    b_fire = false;
    while (!b_fire) {
      if (s.pl_cycles - t0 > kLiteTimeout) {
        bus_error = true;
        break;
      }
      step();
      if (aw_fire) m.s_axil_awvalid = 0;
      if (w_fire) m.s_axil_wvalid = 0;
    }
    if (b_fire && bresp != 0) bus_error = true;
    m.s_axil_awvalid = 0;
    m.s_axil_wvalid = 0;
    m.s_axil_bready = 0;
    s.reg_writes++;
    rest(s.pl_cycles - t0, t.write_cycles);
  }
};

uint32_t pick(uint32_t given, const char *env, uint32_t dflt) {
  if (given != 0) return given;
  const char *e = std::getenv(env);
  if (e != nullptr && *e != '\0') {
    const unsigned long v = std::strtoul(e, nullptr, 10);
    if (v != 0) return (uint32_t)v;
  }
  return dflt;
}

Cosim *of(void *priv) { return static_cast<Cosim *>(priv); }

int cosim_open(void **priv, unsigned instance, const void *config) {
  (void)instance;  // every instance is a fresh model
  const bike_acc_cosim_config none{};
  const bike_acc_cosim_config *c =
      config != nullptr ? static_cast<const bike_acc_cosim_config *>(config) : &none;
  Cosim *d = new (std::nothrow) Cosim;
  if (d == nullptr) return BIKE_ACC_ERR_NOMEM;
  const bike_acc_cosim_timing &g = c->timing;
  d->t.pl_mhz = pick(g.pl_mhz, "BIKE_COSIM_PL_MHZ", 100);
  d->t.cpu_mhz = pick(g.cpu_mhz, "BIKE_COSIM_CPU_MHZ", 667);
  d->t.read_cycles = pick(g.read_cycles, "BIKE_COSIM_READ_CYCLES", 20);
  d->t.write_cycles = pick(g.write_cycles, "BIKE_COSIM_WRITE_CYCLES", 12);
  d->t.dma_setup_cycles = pick(g.dma_setup_cycles, "BIKE_COSIM_DMA_SETUP_CYCLES", 100);
  d->t.dma_bytes_per_cycle = pick(g.dma_bytes_per_cycle, "BIKE_COSIM_DMA_BYTES_PER_CYCLE", 8);
  d->t.irq_cycles = pick(g.irq_cycles, "BIKE_COSIM_IRQ_CYCLES", 700);
  if (d->t.dma_bytes_per_cycle > 8) {
    delete d;
    return BIKE_ACC_ERR_ARG;
  }
  d->s.timing = d->t;
  d->out_stats = c->stats;
  d->drop = c->drop_in_words;
  d->m.clk_i = 0;
  d->m.rst_ni = 0;
  d->m.eval();
  d->idle(4);
  d->m.rst_ni = 1;
  d->idle(1);
  d->sync();
  *priv = d;
  return BIKE_ACC_OK;
}

void cosim_close(void *priv) {
  Cosim *d = of(priv);
  d->m.final();
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
  Cosim *d = of(priv);
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
  Cosim *d = of(priv);
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
  Cosim *d = of(priv);
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
  Cosim *d = of(priv);
  while (!d->m.irq_o) {
    if (d->bus_error) return BIKE_ACC_ERR_DMA;
    if (bike_acc_now_ns() > deadline_ns) return BIKE_ACC_ERR_TIMEOUT;
    d->step();
  }
  d->idle(d->t.irq_cycles);
  d->sync();
  return BIKE_ACC_OK;
}

}  // namespace

extern "C" const platform_ops bike_acc_cosim_ops = {
    "cosim",          cosim_open,         cosim_close,         cosim_read,
    cosim_write,      cosim_stream_start, cosim_stream_finish, cosim_stream_check,
    cosim_stream_reset, cosim_irq_arm,    cosim_irq_wait,
};
