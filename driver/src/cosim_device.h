// The cosim platform's device: one Verilated shell device (any model class M,
// Verilator's --prefix V<top>) clocked one PL cycle per step. Register
// accesses are AXI4-Lite transactions on the model; the streams are a DMA
// model that offers operand words and takes result words at the configured
// bandwidth in the background of every cycle. The CPU side's costs are PL
// cycles spent idle after the bus transaction, so that the PL clock is the
// time the CPU sees. Every device of a program advances one shared clock
// (bike_acc_cosim_clock): the CPU drives one device at a time.
//
// A program links one model per device type; each is registered by a
// translation unit of two lines (hwflow writes them):
//   #include "Vgf2x_mul_acc.h"
//   #include "cosim_device.h"
//   BIKE_COSIM_DEVICE(Vgf2x_mul_acc, "gf2x_mul_acc")
#ifndef BIKE_ACC_COSIM_DEVICE_H
#define BIKE_ACC_COSIM_DEVICE_H

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "bike_acc_cosim.h"

namespace cosim {

extern uint64_t clock_cycles;  // the shared PL clock (cosim.cpp)

// What the platform's operations need of a device, whatever its model.
struct Device {
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

  virtual ~Device() = default;
  virtual void step() = 0;  // one rising edge
  virtual uint32_t read(uint32_t off) = 0;
  virtual void write(uint32_t off, uint32_t v) = 0;
  virtual bool irq() = 0;
  virtual void reset() = 0;
  virtual void final() = 0;

  void sync() {
    s.pl_cycles = clock_cycles;
    if (out_stats) *out_stats = s;
  }
  void idle(uint64_t n) {
    for (uint64_t i = 0; i < n; i++) step();
  }
  // Spends what is left of `cost` cycles after a transaction of `used`.
  void rest(uint64_t used, uint64_t cost) { idle(cost > used ? cost - used : 0); }
};

constexpr uint64_t kLiteTimeout = 10000;  // cycles for one AXI4-Lite transaction

template <class M>
struct Model final : Device {
  M m;
  // the AXI4-Lite transfers at the last edge
  bool aw_fire = false, w_fire = false, b_fire = false, ar_fire = false, r_fire = false;
  unsigned bresp = 0, rresp = 0;
  uint32_t rdata = 0;

  void step() override {
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
    clock_cycles++;
    if (moving) s.transfer_cycles++;
  }

  uint32_t read(uint32_t off) override {
    const uint64_t t0 = clock_cycles;
    m.s_axil_araddr = off;
    m.s_axil_arvalid = 1;
    m.s_axil_rready = 1;
    r_fire = false;
    while (!r_fire) {
      if (clock_cycles - t0 > kLiteTimeout) {
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
    rest(clock_cycles - t0, t.read_cycles);
    return v;
  }

  void write(uint32_t off, uint32_t v) override {
    const uint64_t t0 = clock_cycles;
    m.s_axil_awaddr = off;
    m.s_axil_wdata = v;
    m.s_axil_wstrb = 0xf;
    m.s_axil_awvalid = 1;
    m.s_axil_wvalid = 1;
    m.s_axil_bready = 1;
    b_fire = false;
    while (!b_fire) {
      if (clock_cycles - t0 > kLiteTimeout) {
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
    rest(clock_cycles - t0, t.write_cycles);
  }

  bool irq() override { return m.irq_o; }

  void reset() override {
    m.clk_i = 0;
    m.rst_ni = 0;
    m.eval();
    idle(4);
    m.rst_ni = 1;
    idle(1);
  }

  void final() override { m.final(); }
};

// A device type linked into the program.
struct DeviceType {
  const char *name;  // the device's top, e.g. gf2x_mul_acc
  Device *(*make)();
  DeviceType *next;
};

void register_type(DeviceType *type);  // cosim.cpp

}  // namespace cosim

#define BIKE_COSIM_DEVICE(M, NAME)                                                   \
  namespace {                                                                        \
  cosim::Device *make_##M() { return new (std::nothrow) cosim::Model<M>; }          \
  cosim::DeviceType type_##M{NAME, make_##M, nullptr};                               \
  const bool registered_##M = (cosim::register_type(&type_##M), true);              \
  }

#endif
