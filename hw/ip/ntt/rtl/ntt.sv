// NTT accelerator: forward and inverse number-theoretic transform and base
// multiplication on polynomials of N coefficients mod Q, B butterfly units.
//
// Two memory banks of N/B words of B coefficients (bike_ram_tdp) hold the
// polynomials a and b; the transforms ping-pong between them (b is scratch),
// the base multiplication writes a o b over a. Host port (idle only): one
// word per cycle of polynomial a (host_poly_i = 0) or b (1), read data one
// cycle later. Semantics (doc/ntt.md), F the reduction's factor (ntt_pkg):
//   OpNtt:  a = NTT(a), coefficients in bit-reversed order (FIPS 203 alg. 9)
//   OpIntt: a = NTT^-1(a) F^-1 (alg. 10; the F^-1 cancels OpMul's F)
//   OpMul:  a = (a o b) F; pairwise mod X^2 - gamma (P = 1, alg. 11) or
//           coefficient-wise (P = 0)
// With Red = RedMontgomery and MontBits = 16 these are libmlkem's
// mlkem_ntt_c, mlkem_invntt_c and mlkem_basemul_acc_c (k = 1) mod q.
module ntt
  import ntt_pkg::*;
#(
  parameter int unsigned N        = 256,
  parameter int unsigned Q        = 3329,
  parameter bit          P        = 1'b1,   // ML-KEM's incomplete transform
  parameter int unsigned Zeta     = 17,     // primitive (2N >> P)-th root of unity
  parameter int unsigned B        = 2,      // butterfly units, a power of two
  parameter int unsigned Red      = RedMontgomery,  // ntt_pkg::Red*
  parameter int unsigned MontBits = 16,
  parameter bit          UseDsp   = 1'b1,
  localparam int unsigned QW      = $clog2(Q),
  localparam int unsigned Words   = N / B,
  localparam int unsigned WAW     = $clog2(Words),
  localparam int unsigned WW      = B * QW
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           start_i,
  input  ntt_op_e        op_i,
  output logic           busy_o,
  input  logic           host_req_i,
  input  logic           host_we_i,
  input  logic           host_poly_i,
  input  logic [WAW-1:0] host_addr_i,
  input  logic [WW-1:0]  host_wdata_i,
  output logic [WW-1:0]  host_rdata_o
);

  localparam int unsigned LgN = $clog2(N);
  localparam int unsigned LgB = $clog2(B);
  localparam int unsigned LgW = $clog2(LgN);
  localparam int unsigned Nz = N >> P;  // twiddle table entries
  localparam int unsigned ZAW = $clog2(Nz);
  localparam int unsigned BfLat = bfu_lat(UseDsp);
  localparam int unsigned S = mul_slot(P, BfLat);  // multiplication slot (ntt_ctrl)
  localparam int unsigned Roms = (B + 1) / 2;
  // the inverse's scale: Nz^-1 F^-1, stored times F^-1
  localparam logic [QW-1:0] Scale = QW'(stored(
      mulmod(modinv(Nz, Q), modinv(red_factor(Red, Q, MontBits), Q), Q), Red, Q, MontBits));

  // parameter checks
  if (B < 1 || (1 << LgB) != B || B > N / 4) begin : gen_bad_b
    $error("B must be a power of two, at most N / 4");
  end
  if (S > 8) begin : gen_bad_slot
    $error("a multiplication slot must fit the 3-bit step counter");
  end
  if (Red == RedMontgomery && (1 << MontBits) <= Q) begin : gen_bad_mont
    $error("MontBits must give 2^MontBits > Q");
  end

  logic busy, cur, src, inv, scale, mul, rd, slot, wr;
  logic [LgW-1:0] lg;
  logic [WAW-1:0] rd_a, rd_b, wr_a, wr_b;
  logic [2:0] step;
  logic [ZAW-1:0] zk;

  ntt_ctrl #(.N(N), .B(B), .P(P), .BfLat(BfLat)) u_ctrl (
    .clk_i,
    .rst_ni,
    .start_i,
    .op_i,
    .busy_o(busy),
    .cur_o(cur),
    .src_o(src),
    .inv_o(inv),
    .scale_o(scale),
    .mul_o(mul),
    .lg_o(lg),
    .rd_o(rd),
    .rd_a_o(rd_a),
    .rd_b_o(rd_b),
    .zk_o(zk),
    .step_o(step),
    .slot_o(slot),
    .wr_o(wr),
    .wr_a_o(wr_a),
    .wr_b_o(wr_b)
  );

  // ---------------------------------------------------------------------
  // memory banks
  logic           m_a_en [2];
  logic           m_a_we [2];
  logic [WAW-1:0] m_a_addr [2];
  logic [WW-1:0]  m_a_wdata [2];
  logic [WW-1:0]  m_a_rdata [2];
  logic           m_b_en [2];
  logic           m_b_we [2];
  logic [WAW-1:0] m_b_addr [2];
  logic [WW-1:0]  m_b_wdata [2];
  logic [WW-1:0]  m_b_rdata [2];

  for (genvar k = 0; k < 2; k++) begin : gen_bank
    bike_ram_tdp #(.Width(WW), .Depth(Words)) u_ram (
      .clk_i,
      .a_en_i(m_a_en[k]),
      .a_we_i(m_a_we[k]),
      .a_addr_i(m_a_addr[k]),
      .a_wdata_i(m_a_wdata[k]),
      .a_rdata_o(m_a_rdata[k]),
      .b_en_i(m_b_en[k]),
      .b_we_i(m_b_we[k]),
      .b_addr_i(m_b_addr[k]),
      .b_wdata_i(m_b_wdata[k]),
      .b_rdata_o(m_b_rdata[k])
    );
  end

  // the coefficients read (2B of the source bank; the multiplication's b
  // from the other bank) and those written
  logic [QW-1:0] grp [2*B];
  logic [QW-1:0] grp_b [2*B];
  logic [QW-1:0] out [2*B];
  logic [WW-1:0] out_a, out_b, out_rd;

  // the source bank while busy, the host's bank while idle (its read data)
  logic host_sel_d, host_sel_q, rsel;
  assign rsel = busy ? src : host_sel_q;

  always_comb begin
    for (int unsigned i = 0; i < B; i++) begin
      grp[i] = m_a_rdata[rsel][i*QW +: QW];
      grp[B+i] = m_b_rdata[rsel][i*QW +: QW];
      grp_b[i] = m_a_rdata[!src][i*QW +: QW];
      grp_b[B+i] = m_b_rdata[!src][i*QW +: QW];
      out_a[i*QW +: QW] = out[i];
      out_b[i*QW +: QW] = out[B+i];
      out_rd[i*QW +: QW] = grp[i];
    end
  end

  assign host_sel_d = host_poly_i ^ cur;

  always_comb begin
    for (int unsigned k = 0; k < 2; k++) begin
      m_a_en[k] = 1'b0;
      m_a_we[k] = 1'b0;
      m_a_addr[k] = rd_a;
      m_a_wdata[k] = out_a;
      m_b_en[k] = 1'b0;
      m_b_we[k] = 1'b0;
      m_b_addr[k] = rd_b;
      m_b_wdata[k] = out_b;
    end
    if (!busy) begin
      m_a_en[host_sel_d] = host_req_i;
      m_a_we[host_sel_d] = host_we_i;
      m_a_addr[host_sel_d] = host_addr_i;
      m_a_wdata[host_sel_d] = host_wdata_i;
    end else if (mul) begin
      // read a (source bank) and b; write a in place between the reads
      for (int unsigned k = 0; k < 2; k++) begin
        m_a_en[k] = rd || (wr && (1'(k) == src));
        m_b_en[k] = rd || (wr && (1'(k) == src));
      end
      m_a_we[src] = wr;
      m_b_we[src] = wr;
      if (wr) begin
        m_a_addr[src] = wr_a;
        m_b_addr[src] = wr_b;
      end
    end else begin
      // read the source bank, write the other (a scaling pass: word a only)
      m_a_en[src] = rd;
      m_b_en[src] = rd && !scale;
      m_a_en[!src] = wr;
      m_a_we[!src] = wr;
      m_a_addr[!src] = wr_a;
      m_b_en[!src] = wr && !scale;
      m_b_we[!src] = wr && !scale;
      m_b_addr[!src] = wr_b;
    end
  end

  always_ff @(posedge clk_i) begin
    host_sel_q <= host_sel_d;
  end
  assign host_rdata_o = out_rd;

  // ---------------------------------------------------------------------
  // lanes: twiddle addresses at issue, operands at read data, results
  logic [ZAW-1:0] zaddr [2*Roms];
  logic [QW-1:0]  zdata [2*Roms];

  for (genvar r = 0; r < Roms; r++) begin : gen_rom
    ntt_rom #(.Q(Q), .Nz(Nz), .Zeta(Zeta), .Red(Red), .MontBits(MontBits)) u_rom (
      .clk_i,
      .a_addr_i(zaddr[2*r]),
      .b_addr_i(zaddr[2*r+1]),
      .a_data_o(zdata[2*r]),
      .b_data_o(zdata[2*r+1])
    );
  end
  if (2 * Roms > B) begin : gen_rom_pad
    assign zaddr[2*Roms-1] = '0;
  end

  // the multiplication's step k of the slot (issued 2 + k cycles after its
  // read), and the same step when its product leaves the butterfly
  logic [2:0] k_now;
  logic [2:0] k_dly_d [BfLat];
  logic [2:0] k_dly_q [BfLat];
  logic [2:0] k_out;
  logic       cap;  // the slot's operands arrive from the banks

  always_comb begin
    k_now = (step >= 3'd2) ? step - 3'd2 : step + 3'(S - 2);
    k_dly_d[0] = k_now;
    for (int unsigned i = 1; i < BfLat; i++) begin
      k_dly_d[i] = k_dly_q[i-1];
    end
    k_out = k_dly_q[BfLat-1];
    cap = mul && (step == 3'd1);
  end

  always_ff @(posedge clk_i) begin
    k_dly_q <= k_dly_d;
  end

  // per lane: its pair's places in the group, outputs, products
  localparam int unsigned GW = $clog2(2 * B);
  logic [GW-1:0] lane_top [B];
  logic [GW-1:0] lane_bot [B];
  logic [QW-1:0] lane_o0 [B];
  logic [QW-1:0] lane_o1 [B];
  logic [QW-1:0] lane_r0 [B];
  logic [QW-1:0] lane_r1 [B];

  for (genvar i = 0; i < B; i++) begin : gen_lane
    // lane i's pair of a layer: (i, B + i), or inside a group when len < B
    logic [GW-1:0] top, bot;
    logic [ZAW-1:0] zoff;  // the lane's block after the issue's first (len < B)
    logic [QW-1:0] u, v, w, o0, o1;
    logic fb;  // w is this lane's product b1 gamma, leaving the butterfly
    // the multiplication's operands and partial results
    logic [QW-1:0] a0_d, a0_q, a1_d, a1_q, b0_d, b0_q, b1_d, b1_q;
    logic gneg_d, gneg_q;
    logic [QW-1:0] gam, r0acc_d, r0acc_q, r1acc_d, r1acc_q, r0_d, r0_q, r1_d, r1_q;

    always_comb begin
      if (int'(lg) >= int'(LgB)) begin
        top = GW'(i);
        bot = GW'(B + i);
      end else begin
        top = GW'((((i >> lg) << (lg + 1)) | (i & ((1 << lg) - 1))));
        bot = top + GW'(1 << lg);
      end
      // twiddle index at issue: the control's k, plus (forward) or minus
      // (inverse) the lane's block offset; the multiplication's gamma of
      // pair (rd_a B / 2 + i): Nz/2 + pair/2
      zoff = (int'(lg) < int'(LgB)) ? ZAW'(i >> lg) : '0;
      if (mul) begin
        // Nz/2 + (rd_a B / 2 + i) / 2 with rd_a even: disjoint bits, ORed
        zaddr[i] = ZAW'(Nz / 2) | ZAW'((rd_a * B) >> 2) | ZAW'(i >> 1);
      end else if (inv) begin
        zaddr[i] = zk - zoff;
      end else begin
        zaddr[i] = zk + zoff;
      end
    end

    // multiplication operands, captured one cycle after the slot's read
    always_comb begin
      a0_d = cap ? grp[2*i] : a0_q;
      a1_d = cap ? grp[2*i+1] : a1_q;
      b0_d = cap ? grp_b[2*i] : b0_q;
      b1_d = cap ? grp_b[2*i+1] : b1_q;
      gneg_d = cap ? 1'(((rd_a * B) >> 1) + i) : gneg_q;
      gam = (gneg_q && zdata[i] != '0) ? QW'(Q) - zdata[i] : zdata[i];
    end

    always_comb begin
      u = grp[top];
      v = grp[bot];
      w = zdata[i];
      fb = 1'b0;
      if (scale) begin
        u = '0;
        v = grp[i];
        w = Scale;
      end else if (mul) begin
        u = '0;
        v = '0;
        w = '0;
        if (P) begin
          // steps 4 .. S - 2 (in LUTs) wait for b1 gamma
          unique case (k_now)
            3'd0: begin v = b1_q; w = gam; end
            3'd1: begin v = a0_q; w = b0_q; end
            3'd2: begin v = a0_q; w = b1_q; end
            3'd3: begin v = a1_q; w = b0_q; end
            3'(S - 1): begin v = a1_q; fb = 1'b1; end  // w: b1 gamma, from step 0
            default: ;
          endcase
        end else begin
          v = (k_now == 3'd0) ? a0_q : a1_q;
          w = (k_now == 3'd0) ? b0_q : b1_q;
        end
      end
    end

    ntt_bfu #(.Q(Q), .Red(Red), .MontBits(MontBits), .UseDsp(UseDsp)) u_bfu (
      .clk_i,
      .inv_i(inv && !scale && !mul),
      .fb_i(fb),
      .u_i(u),
      .v_i(v),
      .w_i(w),
      .o0_o(o0),
      .o1_o(o1)
    );

    // products leaving the butterfly: r0 = a0 b0 + a1 (b1 gamma), r1 = a0 b1 + a1 b0
    // (pairwise), r0 = a0 b0, r1 = a1 b1 (pointwise)
    always_comb begin
      r0acc_d = r0acc_q;
      r1acc_d = r1acc_q;
      r0_d = r0_q;
      r1_d = r1_q;
      if (P) begin
        unique case (k_out)
          3'd1: r0acc_d = o0;
          3'd2: r1acc_d = o0;
          3'd3: r1_d = QW'(add_mod(16'(r1acc_q), 16'(o0), 17'(Q)));
          3'(S - 1): r0_d = QW'(add_mod(16'(r0acc_q), 16'(o0), 17'(Q)));
          default: ;
        endcase
      end else begin
        if (k_out == 3'd0) r0_d = o0;
        if (k_out == 3'd1) r1_d = o0;
      end
    end

    always_ff @(posedge clk_i) begin
      a0_q <= a0_d;
      a1_q <= a1_d;
      b0_q <= b0_d;
      b1_q <= b1_d;
      gneg_q <= gneg_d;
      r0acc_q <= r0acc_d;
      r1acc_q <= r1acc_d;
      r0_q <= r0_d;
      r1_q <= r1_d;
    end

    assign lane_top[i] = top;
    assign lane_bot[i] = bot;
    assign lane_o0[i] = o0;
    assign lane_o1[i] = o1;
    assign lane_r0[i] = r0_q;
    assign lane_r1[i] = r1_q;
  end

  // results to their places in the group written
  always_comb begin
    for (int unsigned j = 0; j < 2 * B; j++) begin
      out[j] = '0;
    end
    for (int unsigned i = 0; i < B; i++) begin
      if (mul) begin
        out[2*i] = lane_r0[i];
        out[2*i+1] = lane_r1[i];
      end else if (scale) begin
        out[i] = lane_o0[i];
      end else begin
        out[lane_top[i]] = lane_o0[i];
        out[lane_bot[i]] = lane_o1[i];
      end
    end
  end

  assign busy_o = busy;

  logic unused;
  assign unused = ^{slot, rd_b};

endmodule
