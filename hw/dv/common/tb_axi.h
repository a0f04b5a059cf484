// AXI4-Lite master, AXI4-Stream source and AXI4-Stream sink for the
// Verilator testbenches of cores with a host interface (bike_kem_axi). The
// model T has the ports clk_i, s_axil_* (32-bit data), s_axis_* and m_axis_*
// (64-bit TDATA, TLAST) and irq_o.
//
// Every call advances the clock through step(): the inputs are driven, the
// model is evaluated before the edge (so that a READY that depends on VALID
// is seen), the transfers of this edge are taken (VALID and READY both high),
// then tb::tick makes the edge. The two streams run in the background of
// every step, so a LOAD packet or a STORE packet moves while the host polls
// STATUS. With back-pressure on (bp), TVALID of the source and TREADY of the
// sink have random gaps, the AXI4-Lite write channels AW and W are offered
// in different cycles and BREADY/RREADY have gaps, all from the seeded Rng.
// The sink checks the AXI4-Stream rule that a word offered (TVALID) stays
// offered, unchanged, until it is taken; a word offered outside an expected
// packet fails the run.
#ifndef BIKECO_TB_AXI_H
#define BIKECO_TB_AXI_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tb_common.h"

namespace tbaxi {

[[noreturn]] inline void fail(const char *what, uint64_t cycle) {
  std::fprintf(stderr, "PROTOCOL %s (cycle %llu)\n", what, (unsigned long long)cycle);
  std::exit(1);
}

template <class T>
struct Bus {
  T *m;
  tb::Rng *rng;
  bool bp = false;      // random gaps on the handshakes
  uint64_t cycle = 0;   // edges since the start
  uint64_t lite_timeout = 100000;

  // AXI4-Stream source (s_axis): words[0 .. n) offered in order, TLAST on
  // word last_at (none if last_at >= n)
  std::vector<uint64_t> src;
  size_t src_n = 0, src_i = 0, src_last_at = 0;
  bool src_on = false;    // TVALID asserted and not yet taken

  // AXI4-Stream sink (m_axis): armed for one packet
  bool sink_armed = false, sink_done = false;
  std::vector<uint64_t> sink;
  bool sink_stall = false;  // a word was offered and not taken at the last edge
  uint64_t sink_data = 0;
  bool sink_last = false;

  bool irq = false;         // irq_o after the last edge

  // AXI4-Lite transfers seen at the last edge
  bool aw_fire = false, w_fire = false, b_fire = false, ar_fire = false, r_fire = false;
  unsigned bresp = 0, rresp = 0;
  uint32_t rdata = 0;

  Bus(T *model, tb::Rng *r) : m(model), rng(r) {}

  bool gap() { return bp && rng->next() % 3 == 0; }

  void start_source(const std::vector<uint64_t> &words, size_t n, size_t last_at) {
    src = words;
    src_n = n;
    src_i = 0;
    src_last_at = last_at;
    src_on = false;
  }
  void stop_source() {
    src_n = 0;
    src_i = 0;
    src_on = false;
  }
  void arm_sink() {
    sink.clear();
    sink_armed = true;
    sink_done = false;
  }

  // One clock edge with the AXI4-Lite inputs as the caller set them.
  void step() {
    // source
    if (!src_on && src_i < src_n && !gap()) src_on = true;
    m->s_axis_tvalid = src_on;
    if (src_on) {
      m->s_axis_tdata = src[src_i];
      m->s_axis_tlast = src_i == src_last_at;
    } else {  // junk while not valid: the core must not take it
      m->s_axis_tdata = bp ? rng->next() : 0;
      m->s_axis_tlast = bp ? (rng->next() & 1) : 0;
    }
    // sink
    m->m_axis_tready = sink_armed && !gap();
    m->eval();
    // transfers of this edge (values before the edge)
    aw_fire = m->s_axil_awvalid && m->s_axil_awready;
    w_fire = m->s_axil_wvalid && m->s_axil_wready;
    b_fire = m->s_axil_bvalid && m->s_axil_bready;
    ar_fire = m->s_axil_arvalid && m->s_axil_arready;
    r_fire = m->s_axil_rvalid && m->s_axil_rready;
    bresp = m->s_axil_bresp;
    rresp = m->s_axil_rresp;
    rdata = m->s_axil_rdata;
    if (src_on && m->s_axis_tready) {
      src_i++;
      src_on = false;
    }
    bool tv = m->m_axis_tvalid;
    uint64_t td = m->m_axis_tdata;
    bool tl = m->m_axis_tlast;
    if (sink_stall && (!tv || td != sink_data || tl != sink_last))
      fail("m_axis: an offered word was withdrawn or changed before TREADY", cycle);
    if (tv && !sink_armed) fail("m_axis: TVALID outside a STORE packet", cycle);
    if (tv && m->m_axis_tready) {
      sink.push_back(td);
      if (tl) {
        sink_armed = false;
        sink_done = true;
      }
    }
    sink_stall = tv && !m->m_axis_tready;
    sink_data = td;
    sink_last = tl;
    tb::tick(m);
    irq = m->irq_o;
    cycle++;
  }

  void idle(uint64_t n) {
    for (uint64_t i = 0; i < n; i++) step();
  }

  // AXI4-Lite write: AW and W each held until taken (with bp, one of them is
  // offered up to 3 cycles after the other), then B (BREADY with gaps).
  void write(uint16_t addr, uint32_t data) {
    unsigned aw_wait = 0, w_wait = 0;
    if (bp) {
      unsigned k = (unsigned)(rng->next() % 4);
      if (rng->next() & 1) aw_wait = k;
      else w_wait = k;
    }
    bool aw_done = false, w_done = false;
    for (uint64_t t = 0;; t++) {
      if (t > lite_timeout) fail("TIMEOUT AXI4-Lite write response", cycle);
      m->s_axil_awvalid = !aw_done && aw_wait == 0;
      m->s_axil_awaddr = addr;
      m->s_axil_wvalid = !w_done && w_wait == 0;
      m->s_axil_wdata = data;
      m->s_axil_wstrb = 0xF;
      m->s_axil_bready = !gap();
      step();
      if (aw_wait) aw_wait--;
      if (w_wait) w_wait--;
      if (b_fire) {
        if (!(aw_done || aw_fire) || !(w_done || w_fire))
          fail("AXI4-Lite: B before both AW and W were taken", cycle);
        if (bresp != 0) fail("AXI4-Lite: BRESP not OKAY", cycle);
        break;
      }
      aw_done |= aw_fire;
      w_done |= w_fire;
    }
    m->s_axil_awvalid = 0;
    m->s_axil_wvalid = 0;
    m->s_axil_bready = 0;
  }

  // AXI4-Lite read: AR held until taken, then R (RREADY with gaps).
  uint32_t read(uint16_t addr) {
    bool ar_done = false;
    uint32_t v = 0;
    for (uint64_t t = 0;; t++) {
      if (t > lite_timeout) fail("TIMEOUT AXI4-Lite read data", cycle);
      m->s_axil_arvalid = !ar_done;
      m->s_axil_araddr = addr;
      m->s_axil_rready = ar_done && !gap();
      step();
      if (r_fire) {
        if (!ar_done) fail("AXI4-Lite: R before AR was taken", cycle);
        if (rresp != 0) fail("AXI4-Lite: RRESP not OKAY", cycle);
        v = rdata;  // RDATA as it was at the edge
        break;
      }
      ar_done |= ar_fire;
    }
    m->s_axil_arvalid = 0;
    m->s_axil_rready = 0;
    return v;
  }
};

}  // namespace tbaxi

#endif
