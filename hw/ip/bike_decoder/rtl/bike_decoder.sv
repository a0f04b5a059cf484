// Black-Gray-Flip decoder (bike-spec.md, libbike bike_decode), constant time:
// NbIter iterations always run, the first with its extra black and gray
// steps, so NbIter + 2 flip steps in all.
//
// A flip step:
//   1. th = T(|s|) = max(floor((ThA + ThB |s|) / 10^8), ThMin) (a product, a
//      sum in two 20-bit halves and an 8-step restoring division on 20 bits,
//      exactly libbike's integer formula), or th = (D + 1) / 2 + 1 for the
//      black and gray steps;
//   2. the unsatisfied-parity-check counts of h0 and of h1 on s: one
//      sparse-dense unit per block (sparse_mul, Counts = 1, Dual = 1) fed
//      with s from memory;
//   3. as the counts stream out: flip_b = (upc_b >= th) [& black_b or gray_b],
//      e_b ^= flip_b; in the first step black_b = flip_b and
//      gray_b = (upc_b >= th - tau) & ~flip_b are recorded. The units count
//      from -min(th, D + 1 + tau) in K + 1 bits, so that flip_b is the sign
//      bit and gray_b a test against a constant (no comparator per count:
//      a threshold above D + tau flips nothing and records no gray either way);
//   4. the syndrome is recomputed as in libbike, s = s0 + h0 e0 + h1 e1: the
//      new e_b words go back into the same units as their second operand
//      (the product h_b e_b on the shifters that just counted; Prefetch = 1:
//      straight from the flips, into copies of their own; 0: read again from
//      the e memories once the counts are out, over the copies of s), whose
//      results are XORed with s0 and written back as s, its weight counted on
//      the way (a word's popcount a cycle after it, the sum a cycle later).
// Positions stream in first (h0 then h1, D each), then s0 (N words); e0 then
// e1 stream out (2N words) with ok_o = (final syndrome is zero).
//
// Product (mul_i with start_i): c = (sum_i x^idx_i) a on the same units, for
// bike_kem's products (h1 h0^-1, e1 h, c0 h0), so that a build with the
// decoder needs no multiplier of its own. Up to 2D positions stream in with
// idx_en_i (0: a masked slot) until idx_last_i, alternately into the two
// units' memories; then the units take the N words of a and run as many
// rounds as the first unit's share of positions needs; c streams out (N
// words) as the XOR of their results.
// cycles: doc/bike_decoder.md; independent of the data.
module bike_decoder
  import bike_levels_pkg::*;
#(
  parameter int unsigned R      = 12323,
  parameter int unsigned D      = 71,
  parameter int unsigned W      = 64,
  parameter int unsigned P      = 8,   // units per sparse-dense multiplier
  parameter int unsigned NbIter = BgfNbIter,
  parameter int unsigned Tau    = BgfTau,
  parameter bit          Prefetch = 1'b1,  // the units' second set of copies
  parameter int unsigned Tile   = 0,     // the units' words per tile (0: all N)
  // derived
  localparam int unsigned N      = (R + W - 1) / W,
  localparam int unsigned K      = $clog2(D + 1),
  localparam int unsigned KB     = K + 1,              // biased count (signed)
  localparam int unsigned PW     = $clog2(R),
  localparam int unsigned AW     = (N > 1) ? $clog2(N) : 1,
  localparam int unsigned IW     = (D > 1) ? $clog2(D) : 1,
  localparam int unsigned NSteps = NbIter + 2,
  localparam int unsigned BgTh   = (D + 1) / 2 + 1,
  localparam int unsigned CntW   = 16
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          start_i,
  input  logic          mul_i,       // with start_i: a product, not a decoding
  output logic          busy_o,
  // positions: h0 then h1 (a product: its positions, idx_en_i, idx_last_i)
  output logic          idx_ready_o,
  input  logic          idx_valid_i,
  input  logic [PW-1:0] idx_i,
  input  logic          idx_en_i,
  input  logic          idx_last_i,
  // syndrome s0
  output logic          in_ready_o,
  input  logic          in_valid_i,
  input  logic [W-1:0]  in_data_i,
  // error: e0 then e1
  output logic          out_valid_o,
  output logic [W-1:0]  out_data_o,
  output logic          out_last_o,
  output logic          ok_o
);

  initial begin
    assert (known_level(R)) else $error("R must be a BIKE level's r");
    assert (NbIter >= 1) else $error("NbIter >= 1");
    assert (2 * N + 2 * D < (1 << CntW) && D < (1 << CntW) - 1) else $error("counters too narrow");
    assert ((1 << K) >= D + 1 + Tau) else $error("a biased count needs D + 1 + Tau <= 2^K");
    assert (W % 8 == 0) else $error("W a multiple of 8 (the weight's byte counts)");
    assert (ThScale % 256 == 0 && ThScale / 256 < (1 << 19)) else $error("divisor of 19 bits");
    assert (th_a(R) + th_b(R) * R < 256 * ThScale) else $error("a threshold below 256");
    assert (256 * ThScale <= (64'd1 << 35)) else $error("x of 35 bits");
  end

  // ---------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------
  typedef enum logic [2:0] {
    StIdle,
    StIdxIn,
    StS0In,
    StTh,
    StStep,
    StOut,
    StMulGo,
    StMul
  } state_e;

  localparam int unsigned SW = $clog2(NSteps + 1);

  state_e          state_q, state_d;
  logic [CntW-1:0] cnt_q, cnt_d;
  logic [SW-1:0]   st_q, st_d;          // flip step
  logic [CntW-1:0] wt_q, wt_d;          // weight of s
  logic [CntW-1:0] wacc_q, wacc_d;      // weight being counted
  logic [39:0]     x_q, x_d;            // ThB S, ThA + ThB S, then the remainder
  logic            xc_q, xc_d;          // carry of the low half of ThA + ThB S
  logic            th_go_q, th_go_d;    // StTh's cycle ThGo: a register, not a count
                                        // compare, drives the units' start
  logic [7:0]      q_q, q_d;            // quotient, bits shifted in from the right
  logic            units_start;
  logic            step_done;
  logic            mul_q, mul_d;         // the operation is a product
  localparam int unsigned GU = (D + P - 1) / P;  // rounds of a decoding step
  localparam int unsigned UW = $clog2(P + 1);
  logic [CntW-1:0] mrnd_q, mrnd_d;      // a product's rounds: ceil(n_0 / P)
  logic [UW-1:0]   mph_q, mph_d;        // n_0 mod P
  logic [CntW-1:0] mn_q [2], mn_d [2];  // positions given to each unit
  logic            un_in_ready [2], un_out_valid [2], un_out_last [2];

  // step kinds: 0 records black/gray, 1 black, 2 gray (threshold BgTh)
  logic st_rec, st_blk, st_gry;
  assign st_rec = (st_q == SW'(0));
  assign st_blk = (st_q == SW'(1));
  assign st_gry = (st_q == SW'(2));

  localparam logic [39:0] ThA = 40'(th_a(R));
  localparam logic [39:0] ThB = 40'(th_b(R));
  // floor(x / 10^8) = floor(floor(x / 2^8) / Div): the division runs on
  // y = x[34:8], shifted left a bit per step, against Div at y's bits 26..7
  localparam logic [19:0] Div = 20'(ThScale / 256);

  // the threshold's schedule in StTh (cnt_q): the weight of s is complete
  // (wt_q) at ThMul; then ThB |s|, the low and high halves of + ThA, the
  // division, and the units start at ThGo
  localparam logic [CntW-1:0] ThMul = CntW'(3);
  localparam logic [CntW-1:0] ThLo  = CntW'(4);
  localparam logic [CntW-1:0] ThHi  = CntW'(5);
  localparam logic [CntW-1:0] ThGo  = CntW'(15);

  // x < 2^35 (below 256 10^8): its bits 39..35 stay zero
  logic [20:0] th_lo;   // low half of ThA + ThB S, with its carry
  logic [15:0] th_hi;   // high half plus that carry (bit 0: the carry in)
  logic [19:0] th_sub;  // y's top bits - Div
  logic        th_ge;   // y's top bits >= Div: the quotient bit
  assign th_lo  = {1'b0, x_q[19:0]} + {1'b0, ThA[19:0]};
  assign th_hi  = {x_q[34:20], 1'b1} + {ThA[34:20], xc_q};
  assign th_sub = x_q[34:15] - Div;
  assign th_ge  = (x_q[34:15] >= Div);

  assign th_go_d = (state_q == StTh) && (cnt_q == ThGo - 1'b1);

  always_comb begin
    state_d     = state_q;
    cnt_d       = cnt_q;
    st_d        = st_q;
    x_d         = x_q;
    xc_d        = xc_q;
    q_d         = q_q;
    mul_d       = mul_q;
    mrnd_d      = mrnd_q;
    mph_d       = mph_q;
    mn_d        = mn_q;
    units_start = 1'b0;
    idx_ready_o = 1'b0;
    in_ready_o  = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (start_i) begin
          state_d = StIdxIn;
          cnt_d   = '0;
          st_d    = '0;
          mul_d   = mul_i;
          mrnd_d  = '0;
          mph_d   = '0;
          mn_d    = '{default: '0};
        end
      end

      StIdxIn: begin
        idx_ready_o = 1'b1;
        if (idx_valid_i) begin
          cnt_d = cnt_q + 1'b1;
          if (mul_q) begin
            // even positions to unit 0, odd to unit 1; a round per P of unit 0's
            mn_d[cnt_q[0]] = mn_q[cnt_q[0]] + 1'b1;
            if (!cnt_q[0]) begin
              mph_d = (mph_q == UW'(P - 1)) ? '0 : mph_q + 1'b1;
              if (mph_q == '0) mrnd_d = mrnd_q + 1'b1;
            end
            if (idx_last_i) begin
              state_d = StMulGo;
              cnt_d   = '0;
            end
          end else if (cnt_q == CntW'(2 * D - 1)) begin
            state_d = StS0In;
            cnt_d   = '0;
          end
        end
      end

      StMulGo: begin
        units_start = 1'b1;
        state_d     = StMul;
        cnt_d       = '0;
      end

      StMul: begin
        in_ready_o = un_in_ready[0];
        if (cnt_q != '1) cnt_d = cnt_q + 1'b1;
        if (step_done) state_d = StIdle;
      end

      StS0In: begin
        in_ready_o = 1'b1;
        if (in_valid_i) begin
          cnt_d = cnt_q + 1'b1;
          if (cnt_q == CntW'(N - 1)) begin
            state_d = StTh;
            cnt_d   = '0;
          end
        end
      end

      // cycles 0 .. 2: |s| completes; ThMul: x = ThB |s|; ThLo, ThHi:
      // x += ThA; the next 8: quotient bits 7..0; then th, its bias
      // registered (bias_q); ThGo: the units start
      StTh: begin
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == ThMul) begin
          x_d = ThB * 40'(wt_q);
          q_d = '0;
        end else if (cnt_q == ThLo) begin
          {xc_d, x_d[19:0]} = th_lo;
        end else if (cnt_q == ThHi) begin
          x_d[39:20] = {5'b0, th_hi[15:1]};
        end else if (cnt_q > ThHi && cnt_q < ThGo - 1'b1) begin
          q_d        = {q_q[6:0], th_ge};
          x_d[34:8]  = {th_ge ? th_sub[18:0] : x_q[33:15], x_q[14:8], 1'b0};
        end else if (th_go_q) begin
          units_start = 1'b1;  // they take bias_q, from th
          state_d     = StStep;
          cnt_d       = '0;
        end
      end

      StStep: begin
        // counts the first cycles of the step (position reads); saturates
        if (cnt_q != '1) cnt_d = cnt_q + 1'b1;
        if (step_done) begin
          cnt_d = '0;
          if (st_q == SW'(NSteps - 1)) begin
            state_d = StOut;
          end else begin
            state_d = StTh;
            st_d    = st_q + 1'b1;
          end
        end
      end

      StOut: begin
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == CntW'(2 * N)) begin
          state_d = StIdle;
        end
      end

      default: state_d = StIdle;
    endcase
  end

  assign busy_o = (state_q != StIdle);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      cnt_q   <= '0;
      st_q    <= '0;
      x_q     <= '0;
      xc_q    <= 1'b0;
      th_go_q <= 1'b0;
      q_q     <= '0;
      mul_q   <= 1'b0;
      mrnd_q  <= '0;
      mph_q   <= '0;
      mn_q    <= '{default: '0};
    end else begin
      state_q <= state_d;
      cnt_q   <= cnt_d;
      st_q    <= st_d;
      x_q     <= x_d;
      xc_q    <= xc_d;
      th_go_q <= th_go_d;
      q_q     <= q_d;
      mul_q   <= mul_d;
      mrnd_q  <= mrnd_d;
      mph_q   <= mph_d;
      mn_q    <= mn_d;
    end
  end

  // ---------------------------------------------------------------------------
  // Positions
  // ---------------------------------------------------------------------------
  // {enable, position}; a product's entries at or beyond a unit's share are
  // masked as they are read (the memories keep older positions there)
  logic          hi_we0, hi_we1, hi_re;
  logic [IW-1:0] hi_waddr, hi_raddr;
  logic [PW:0]   hi_wdata;
  logic [PW-1:0] h_rd [2];
  logic          h_en_rd [2], un_idx_en [2];
  logic          hv_q;                 // position read a cycle ago
  logic [CntW-1:0] mleft_q [2], mleft_d [2];  // a product: unit b's positions not yet read
  logic          hen_q [2], hen_d [2];  // the position read a cycle ago is one of them
  logic          in_pos, stepping;

  assign in_pos   = (state_q == StIdxIn) && idx_valid_i;
  assign stepping = (state_q == StStep) || (state_q == StMul);
  assign hi_we0   = in_pos && (mul_q ? !cnt_q[0] : (cnt_q < CntW'(D)));
  assign hi_we1   = in_pos && (mul_q ? cnt_q[0] : (cnt_q >= CntW'(D)));
  assign hi_waddr = mul_q ? IW'(cnt_q >> 1) :
                            IW'((cnt_q < CntW'(D)) ? cnt_q : (cnt_q - CntW'(D)));
  assign hi_wdata = {!mul_q || idx_en_i, idx_i};
  // reads i = 0 .. D-1: the first with the units' start, then one per cycle
  assign hi_re    = units_start || (stepping && (cnt_q < CntW'(D - 1)));
  assign hi_raddr = units_start ? '0 : IW'(cnt_q + 1'b1);

  // reads run 0, 1, .. D - 1: the first mn_q[b] of them are unit b's
  always_comb begin
    mleft_d = mleft_q;
    hen_d   = hen_q;
    for (int b = 0; b < 2; b++) begin
      if (units_start) begin
        hen_d[b]   = (mn_q[b] != '0);
        mleft_d[b] = (mn_q[b] != '0) ? mn_q[b] - 1'b1 : '0;
      end else if (hi_re) begin
        hen_d[b]   = (mleft_q[b] != '0);
        mleft_d[b] = (mleft_q[b] != '0) ? mleft_q[b] - 1'b1 : '0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hv_q    <= 1'b0;
      mleft_q <= '{default: '0};
      hen_q   <= '{default: 1'b0};
    end else begin
      hv_q    <= hi_re;
      mleft_q <= mleft_d;
      hen_q   <= hen_d;
    end
  end

  bike_ram_sdp #(.Width (PW + 1), .Depth (D)) u_h0 (
    .clk_i (clk_i), .we_i (hi_we0), .waddr_i (hi_waddr), .wdata_i (hi_wdata),
    .re_i (hi_re), .raddr_i (hi_raddr), .rdata_o ({h_en_rd[0], h_rd[0]})
  );
  bike_ram_sdp #(.Width (PW + 1), .Depth (D)) u_h1 (
    .clk_i (clk_i), .we_i (hi_we1), .waddr_i (hi_waddr), .wdata_i (hi_wdata),
    .re_i (hi_re), .raddr_i (hi_raddr), .rdata_o ({h_en_rd[1], h_rd[1]})
  );

  for (genvar b = 0; b < 2; b++) begin : gen_idx_en
    assign un_idx_en[b] = h_en_rd[b] && (!mul_q || hen_q[b]);
  end

  // the step's threshold (its quotient is complete a cycle before the units
  // start), capped at D + 1 + Tau, negated and registered: the units'
  // counters start there. A table by quotient (256 entries: a LUT6 and two
  // wide multiplexers per bit) instead of comparators and a negation.
  typedef logic [KB-1:0] bias_tab_t [256];
  function automatic logic [KB-1:0] bias_of(int unsigned th);
    int unsigned cap;
    cap = (th > D + 1 + Tau) ? D + 1 + Tau : th;
    return KB'((1 << KB) - cap);
  endfunction
  function automatic bias_tab_t bias_table();
    bias_tab_t t;
    for (int unsigned q = 0; q < 256; q++) begin
      t[q] = bias_of((q < th_min(R)) ? th_min(R) : q);
    end
    return t;
  endfunction
  localparam bias_tab_t BiasOfQ = bias_table();
  localparam logic [KB-1:0] BiasBg = bias_of(BgTh);

  logic [KB-1:0] un_bias, bias_q;
  assign un_bias = (st_blk || st_gry) ? BiasBg : BiasOfQ[q_q];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) bias_q <= '0;
    else         bias_q <= un_bias;
  end

  // ---------------------------------------------------------------------------
  // Sparse-dense units: one per block, counts on s then the product h_b e_b
  // (sparse_mul, Dual: one set of shifters for both)
  // ---------------------------------------------------------------------------
  logic [W*KB-1:0] un_out [2];
  logic            un_in_valid;
  logic [W-1:0]    un_in_data [2];
  logic            un_busy [2], un_idx_ready [2];
  logic            counting_q;           // the units' outputs are counts

  for (genvar b = 0; b < 2; b++) begin : gen_units
    sparse_mul #(
      .R (R), .D (D), .W (W), .P (P), .Counts (1'b1), .Dual (1'b1), .Prefetch (Prefetch),
      .Tile (Tile), .K (KB)
    ) u_unit (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .start_i     (units_start),
      .rounds_i    (mul_q ? mrnd_q : CntW'(GU)),
      .bias_i      (bias_q),
      .prod_i      (mul_q),
      .busy_o      (un_busy[b]),
      .idx_ready_o (un_idx_ready[b]),
      .idx_valid_i (hv_q),
      .idx_i       (h_rd[b]),
      .idx_en_i    (un_idx_en[b]),
      .in_ready_o  (un_in_ready[b]),
      .in_valid_i  (un_in_valid),
      .in_data_i   (un_in_data[b]),
      .out_valid_o (un_out_valid[b]),
      .out_data_o  (un_out[b]),
      .out_last_o  (un_out_last[b])
    );
  end

  // ---------------------------------------------------------------------------
  // s -> counting units
  // ---------------------------------------------------------------------------
  logic [CntW-1:0] srd_q, srd_d;        // s words read for the units
  logic            s_re, sv_q;
  logic [W-1:0]    s_rd;

  assign s_re = (state_q == StStep) && un_in_ready[0] && (srd_q < CntW'(N));

  always_comb begin
    srd_d = srd_q;
    if (units_start) srd_d = '0;
    else if (s_re)   srd_d = srd_q + 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      srd_q <= '0;
      sv_q  <= 1'b0;
    end else begin
      srd_q <= srd_d;
      sv_q  <= s_re;
    end
  end

  // Prefetch = 0: the new e_b, read again once the counts are out (the units
  // take them over their copies of s)
  logic [CntW-1:0] erd_q, erd_d;
  logic            e_re, ev_q;

  assign e_re = !Prefetch && (state_q == StStep) && !counting_q && un_in_ready[0] &&
                (erd_q < CntW'(N));

  always_comb begin
    erd_d = erd_q;
    if (units_start) erd_d = '0;
    else if (e_re)   erd_d = erd_q + 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      erd_q <= '0;
      ev_q  <= 1'b0;
    end else begin
      erd_q <= erd_d;
      ev_q  <= e_re;
    end
  end

  // ---------------------------------------------------------------------------
  // counts -> flips, e, black/gray; new e -> binary units
  // ---------------------------------------------------------------------------
  logic [CntW-1:0] ucnt_q, ucnt_d;      // count word index
  logic            c1_q;                // counts registered, memories read
  logic [W*KB-1:0] cnt_q1 [2], cnt_d1 [2];
  logic [AW-1:0]   c1_w_q;
  logic            counting_d;
  logic [W-1:0]    e_rd [2], blk_rd [2], gry_rd [2];
  logic [W-1:0]    e_new [2], flip [2], gray [2];
  logic            c_re;

  assign c_re = (state_q == StStep) && un_out_valid[0] && counting_q;

  always_comb begin
    counting_d = counting_q;
    if (units_start)                 counting_d = !mul_q;
    else if (c_re && un_out_last[0]) counting_d = 1'b0;
    ucnt_d = ucnt_q;
    if (units_start) ucnt_d = '0;
    else if (c_re)   ucnt_d = ucnt_q + 1'b1;
    cnt_d1 = c_re ? un_out : cnt_q1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      counting_q <= 1'b0;
      ucnt_q     <= '0;
      c1_q       <= 1'b0;
      c1_w_q     <= '0;
      cnt_q1     <= '{default: '0};
    end else begin
      counting_q <= counting_d;
      ucnt_q     <= ucnt_d;
      c1_q       <= c_re;
      c1_w_q     <= AW'(ucnt_q);
      cnt_q1     <= cnt_d1;
    end
  end

  for (genvar b = 0; b < 2; b++) begin : gen_flip
    always_comb begin
      for (int unsigned i = 0; i < W; i++) begin
        logic [KB-1:0] c;  // upc - th, for th <= D + 1 + Tau
        c          = cnt_q1[b][i * KB +: KB];
        flip[b][i] = !c[KB-1];
        gray[b][i] = (c >= KB'((1 << KB) - Tau));
      end
      if (st_blk) flip[b] = flip[b] & blk_rd[b];
      if (st_gry) flip[b] = flip[b] & gry_rd[b];
      e_new[b] = e_rd[b] ^ flip[b];
    end

    logic          e_we;
    logic [AW-1:0] e_waddr;
    logic [W-1:0]  e_wdata;
    // e is cleared while s0 loads, then updated by every step
    assign e_we    = ((state_q == StS0In) && in_valid_i) || c1_q;
    assign e_waddr = (state_q == StS0In) ? AW'(cnt_q) : c1_w_q;
    assign e_wdata = (state_q == StS0In) ? '0 : e_new[b];

    logic          o_re;
    logic [AW-1:0] o_raddr;
    assign o_re    = (state_q == StOut) && (cnt_q < CntW'(2 * N)) &&
                     ((b == 0) ? (cnt_q < CntW'(N)) : (cnt_q >= CntW'(N)));
    assign o_raddr = AW'((b == 0) ? cnt_q : (cnt_q - CntW'(N)));

    bike_ram_sdp #(.Width (W), .Depth (N)) u_e (
      .clk_i (clk_i), .we_i (e_we), .waddr_i (e_waddr), .wdata_i (e_wdata),
      .re_i (c_re || o_re || e_re),
      .raddr_i (c_re ? AW'(ucnt_q) : e_re ? AW'(erd_q) : o_raddr), .rdata_o (e_rd[b])
    );
    bike_ram_sdp #(.Width (W), .Depth (N)) u_black (
      .clk_i (clk_i), .we_i (c1_q && st_rec), .waddr_i (c1_w_q), .wdata_i (flip[b]),
      .re_i (c_re), .raddr_i (AW'(ucnt_q)), .rdata_o (blk_rd[b])
    );
    bike_ram_sdp #(.Width (W), .Depth (N)) u_gray (
      .clk_i (clk_i), .we_i (c1_q && st_rec), .waddr_i (c1_w_q), .wdata_i (gray[b]),
      .re_i (c_re), .raddr_i (AW'(ucnt_q)), .rdata_o (gry_rd[b])
    );

    assign un_in_data[b] = (state_q == StMul) ? in_data_i : sv_q ? s_rd :
                           Prefetch ? e_new[b] : e_rd[b];
  end

  // the units take s, then (during their last round of counts) the new e_b;
  // a product's operand comes straight from the input
  assign un_in_valid = sv_q || (Prefetch ? c1_q : ev_q) || ((state_q == StMul) && in_valid_i);

  // ---------------------------------------------------------------------------
  // binary units -> s = s0 + h0 e0 + h1 e1, weight
  // ---------------------------------------------------------------------------
  logic [CntW-1:0] mcnt_q, mcnt_d;
  logic            m1_q;
  logic [AW-1:0]   m1_w_q;
  logic            m1_last_q, m1_last_d;
  logic [W-1:0]    m_q [2], m_d [2];
  logic [W-1:0]    s0_rd, s_new;
  logic            m_re;

  assign m_re = stepping && un_out_valid[0] && !counting_q;

  always_comb begin
    mcnt_d = mcnt_q;
    if (units_start) mcnt_d = '0;
    else if (m_re)   mcnt_d = mcnt_q + 1'b1;
    m1_last_d = m_re && un_out_last[0];
    for (int b = 0; b < 2; b++) m_d[b] = m_re ? un_out[b][W-1:0] : m_q[b];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mcnt_q    <= '0;
      m1_q      <= 1'b0;
      m1_w_q    <= '0;
      m1_last_q <= 1'b0;
      m_q       <= '{default: '0};
    end else begin
      mcnt_q    <= mcnt_d;
      m1_q      <= m_re;
      m1_w_q    <= AW'(mcnt_q);
      m1_last_q <= m1_last_d;
      m_q       <= m_d;
    end
  end

  assign s_new     = (mul_q ? '0 : s0_rd) ^ m_q[0] ^ m_q[1];
  assign step_done = stepping && m1_last_q;

  // weight of s: of s0 while it loads, of every new s (not a product's
  // words). Four stages, each within 6 LUT levels: the word is registered,
  // then its bytes' popcounts, then their sum, which is accumulated; the
  // last word's sum also sets wt (|s|), complete three cycles into StTh (or
  // StOut) as the word's step ends.
  localparam int unsigned PopW = $clog2(W + 1);
  localparam int unsigned NB   = W / 8;
  logic [W-1:0]    wword_q, wword_d;
  logic            wv_q, wv_d, wl_q, wl_d;       // the word counts; it is the last
  logic [3:0]      wbc_q [NB], wbc_d [NB];       // its bytes' popcounts
  logic            wbv_q, wbl_q;
  logic [PopW-1:0] wpop_q, wpop_d;
  logic            wpv_q, wpl_q;
  assign wword_d = (state_q == StS0In) ? in_data_i : s_new;
  assign wv_d    = ((state_q == StS0In) && in_valid_i) || (m1_q && !mul_q);
  assign wl_d    = ((state_q == StS0In) && in_valid_i && (cnt_q == CntW'(N - 1))) ||
                   ((state_q == StStep) && step_done);

  always_comb begin
    for (int unsigned j = 0; j < NB; j++) begin
      wbc_d[j] = '0;
      for (int unsigned i = 0; i < 8; i++) wbc_d[j] = wbc_d[j] + 4'(wword_q[8 * j + i]);
    end
    wpop_d = '0;
    for (int unsigned j = 0; j < NB; j++) wpop_d = wpop_d + PopW'(wbc_q[j]);
    wacc_d = wacc_q;
    if (start_i && state_q == StIdle) wacc_d = '0;
    if (units_start) wacc_d = '0;
    if (wpv_q) wacc_d = wacc_q + CntW'(wpop_q);
    wt_d = wpl_q ? wacc_d : wt_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wword_q <= '0;
      wv_q    <= 1'b0;
      wl_q    <= 1'b0;
      wbc_q   <= '{default: '0};
      wbv_q   <= 1'b0;
      wbl_q   <= 1'b0;
      wpop_q  <= '0;
      wpv_q   <= 1'b0;
      wpl_q   <= 1'b0;
      wacc_q  <= '0;
      wt_q    <= '0;
    end else begin
      wword_q <= wword_d;
      wv_q    <= wv_d;
      wl_q    <= wl_d;
      wbc_q   <= wbc_d;
      wbv_q   <= wv_q;
      wbl_q   <= wl_q;
      wpop_q  <= wpop_d;
      wpv_q   <= wbv_q;
      wpl_q   <= wbl_q;
      wacc_q  <= wacc_d;
      wt_q    <= wt_d;
    end
  end

  bike_ram_sdp #(.Width (W), .Depth (N)) u_s0 (
    .clk_i (clk_i), .we_i ((state_q == StS0In) && in_valid_i), .waddr_i (AW'(cnt_q)),
    .wdata_i (in_data_i), .re_i (m_re), .raddr_i (AW'(mcnt_q)), .rdata_o (s0_rd)
  );
  bike_ram_sdp #(.Width (W), .Depth (N)) u_s (
    .clk_i (clk_i), .we_i (((state_q == StS0In) && in_valid_i) || (m1_q && !mul_q)),
    .waddr_i ((state_q == StS0In) ? AW'(cnt_q) : m1_w_q),
    .wdata_i ((state_q == StS0In) ? in_data_i : s_new),
    .re_i (s_re), .raddr_i (AW'(srd_q)), .rdata_o (s_rd)
  );

  // ---------------------------------------------------------------------------
  // Output: e0 then e1
  // ---------------------------------------------------------------------------
  logic ov_q, ov_d, ol_q, ol_d, ob_q, ob_d;
  assign ov_d = (state_q == StOut) && (cnt_q < CntW'(2 * N));
  assign ol_d = (state_q == StOut) && (cnt_q == CntW'(2 * N - 1));
  assign ob_d = (cnt_q >= CntW'(N));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ov_q <= 1'b0;
      ol_q <= 1'b0;
      ob_q <= 1'b0;
    end else begin
      ov_q <= ov_d;
      ol_q <= ol_d;
      ob_q <= ob_d;
    end
  end

  // a product's words leave as they are made
  assign out_valid_o = mul_q ? m1_q : ov_q;
  assign out_data_o  = mul_q ? s_new : ob_q ? e_rd[1] : e_rd[0];
  assign out_last_o  = mul_q ? m1_last_q : ol_q;
  assign ok_o        = (wt_q == '0);

  // the units run in lockstep: these are the same as their [0] counterparts
  logic unused;
  assign unused = ^{un_busy[0], un_busy[1], un_idx_ready[0], un_idx_ready[1],
                    un_in_ready[1], un_out_valid[1], un_out_last[1],
                    th_sub[19], th_hi[0]};  // below Div whenever used; the carry in

endmodule
