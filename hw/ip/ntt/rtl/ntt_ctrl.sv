// Control of the NTT accelerator: the passes of an operation and, per
// cycle, the words read and (WrLat cycles later) written.
//   OpNtt:  L layers, len = N/2 .. 2^P (Cooley-Tukey), ping-pong between banks
//   OpIntt: L layers, len = 2^P .. N/2 (Gentleman-Sande), then the scaling pass
//   OpMul:  one pass of slots, each reading 2 words of both polynomials
// A layer or scaling pass issues one read per cycle and drains LayerLat
// cycles; a multiplication slot takes S cycles (ntt_pkg::mul_slot: the
// butterfly's latency pairwise, 3 pointwise) and writes MulLat cycles after
// its read. Cycle formulas: doc/ntt.md.
module ntt_ctrl
  import ntt_pkg::*;
#(
  parameter int unsigned N  = 256,
  parameter int unsigned B  = 2,     // butterfly units
  parameter bit          P  = 1'b1,  // pairwise (ML-KEM) base multiplication
  parameter int unsigned BfLat = 5,  // the butterfly's latency (ntt_bfu)
  localparam int unsigned LgN = $clog2(N),
  localparam int unsigned LgB = $clog2(B),
  localparam int unsigned Words = N / B,
  localparam int unsigned WAW = $clog2(Words),
  localparam int unsigned LgW = $clog2(LgN),
  localparam int unsigned ZAW = LgN - int'(P)  // twiddle index bits
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           start_i,
  input  ntt_op_e        op_i,
  output logic           busy_o,
  output logic           cur_o,       // the bank of polynomial a while idle
  // the current pass
  output logic           src_o,       // bank read (polynomial a's)
  output logic           inv_o,       // Gentleman-Sande layers
  output logic           scale_o,     // the inverse's scaling pass
  output logic           mul_o,       // the base multiplication
  output logic [LgW-1:0] lg_o,        // log2 len of the layer
  // issue: read words a, b this cycle (a only in a scaling pass)
  output logic           rd_o,
  output logic [WAW-1:0] rd_a_o,
  output logic [WAW-1:0] rd_b_o,
  output logic [ZAW-1:0] zk_o,        // twiddle index of the issue's first pair
  output logic [2:0]     step_o,      // multiplication step in the slot
  output logic           slot_o,      // first cycle of a multiplication slot
  // write back
  output logic           wr_o,
  output logic [WAW-1:0] wr_a_o,
  output logic [WAW-1:0] wr_b_o
);

  localparam int unsigned LayerLat = BfLat + 1;  // the read, then the butterfly
  localparam int unsigned S = mul_slot(P, BfLat);
  // the slot's results are ready after the operands' capture (2), its last
  // product's issue (step S - 1 pairwise, 1 pointwise), the butterfly and
  // the accumulation; written then, or a cycle later if that is a read's
  // step (the slot's first)
  localparam int unsigned Ready = 2 + (P ? S - 1 : 1) + BfLat + 1;
  localparam int unsigned MulLat = Ready + ((Ready % S == 0) ? 1 : 0);
  localparam int unsigned MaxLat = MulLat;
  localparam int unsigned DW = $clog2(MaxLat + 1);
  localparam int unsigned CW = WAW + 1;

  typedef enum logic [1:0] {
    StIdle,
    StPass,
    StDrain
  } state_e;

  typedef enum logic [1:0] {
    PkLayer,
    PkScale,
    PkMul
  } pass_e;

  state_e state_d, state_q;
  pass_e kind_d, kind_q;
  logic inv_d, inv_q;
  logic cur_d, cur_q, src_d, src_q;
  logic [LgW-1:0] lg_d, lg_q;
  // the layer decoded when lg is set, not behind it: ge (len >= B) and, for
  // d = lg - LgB, lo[i] = (i < d), a thermometer
  logic ge_d, ge_q;
  logic [WAW-1:0] lo_d, lo_q;
  logic [CW-1:0] cnt_d, cnt_q;   // issue count of the pass
  logic [2:0] step_d, step_q;    // step within a multiplication slot
  logic [DW-1:0] drain_d, drain_q;
  // FIPS 203's k: the twiddle index, counting up through the forward layers
  // (from 1) and down through the inverse ones (from Nz - 1), one per block
  logic [ZAW-1:0] zk_d, zk_q;
  // this issue ends a block (len >= B): blk_q, computed a count ahead
  // (blk_next: count cnt_q + 1 ends one) so that no wide test of the count
  // stands in front of k's adder
  logic blk_d, blk_q, blk_next;
  logic cnt_clr, cnt_inc;
  logic [ZAW-1:0] zk_delta;  // k's move: + or - the blocks an issue ends
  logic zk_adv;             // this issue advances k
  logic [$clog2(MaxLat)-1:0] tap;  // write delay of the pass, minus one

  // issue side
  logic issue, last;
  logic [WAW-1:0] a, b;
  logic [CW-1:0] count;
  // the write delay line: valid, words, layer
  logic           dl_v_d [MaxLat];
  logic           dl_v_q [MaxLat];
  logic [WAW-1:0] dl_a_d [MaxLat];
  logic [WAW-1:0] dl_a_q [MaxLat];
  logic [WAW-1:0] dl_b_d [MaxLat];
  logic [WAW-1:0] dl_b_q [MaxLat];

  // issues and addresses of the pass at count cnt_q
  always_comb begin
    count = (kind_q == PkLayer) ? CW'(Words / 2) :
            (kind_q == PkScale) ? CW'(Words) : CW'(Words / 2);
    issue = (state_q == StPass) && ((kind_q != PkMul) || (step_q == 3'd0));
    last = (state_q == StPass) && (cnt_q == count - 1'b1) &&
           ((kind_q != PkMul) || (step_q == 3'(S - 1)));
    a = '0;
    b = '0;
    unique case (kind_q)
      PkLayer: begin
        if (ge_q) begin
          // partners len / B words apart (bit d), blocks of 2 len / B words
          for (int unsigned i = 0; i < WAW; i++) begin
            if (lo_q[i]) begin
              a[i] = cnt_q[i];
            end else if (i > 0 && !lo_q[i-1]) begin
              a[i] = cnt_q[i-1];
            end
            b[i] = a[i] | (!lo_q[i] && (i == 0 || lo_q[i-1]));
          end
        end else begin
          // both partners inside a group of two adjacent words
          a = WAW'(cnt_q) << 1;
          b = a | WAW'(1);
        end
      end
      PkScale: begin
        a = WAW'(cnt_q);
        b = a;
      end
      default: begin  // PkMul: words 2c, 2c + 1
        a = WAW'(cnt_q) << 1;
        b = a | WAW'(1);
      end
    endcase
    // a block of 2 len coefficients spans len / B issues (len >= B); an
    // issue spans B / len blocks (len < B)
    // count c + 1 ends a block when c's bits below d are 1..10
    blk_next = 1'b1;
    for (int unsigned i = 0; i < WAW; i++) begin
      if (lo_q[i] && (cnt_q[i] == (i == 0))) begin
        blk_next = 1'b0;
      end
    end
    // k moves by step = 2^ks, ks = 0 (len >= B) or LgB - lg: + or - 2^ks as
    // bit patterns (bit ks, or bits ks and up), each bit a comparison of lg
    // with a constant, no carry chain
    for (int unsigned j = 0; j < ZAW; j++) begin
      if (ge_q) begin
        zk_delta[j] = inv_q || (j == 0);
      end else if (j > LgB) begin
        zk_delta[j] = inv_q;
      end else begin
        zk_delta[j] = inv_q ? (lg_q >= LgW'(LgB - j)) : (lg_q == LgW'(LgB - j));
      end
    end
    zk_adv = issue && (kind_q == PkLayer) && (!ge_q || blk_q);
  end

  // passes and counters
  always_comb begin
    state_d = state_q;
    kind_d = kind_q;
    inv_d = inv_q;
    cur_d = cur_q;
    src_d = src_q;
    lg_d = lg_q;
    cnt_d = cnt_q;
    cnt_clr = 1'b0;
    cnt_inc = 1'b0;
    step_d = step_q;
    drain_d = drain_q;
    zk_d = zk_q;
    if (zk_adv) begin
      zk_d = zk_q + zk_delta;
    end
    unique case (state_q)
      StIdle: begin
        if (start_i) begin
          state_d = StPass;
          cnt_d = '0;
          cnt_clr = 1'b1;
          step_d = '0;
          src_d = cur_q;
          unique case (op_i)
            OpNtt: begin
              kind_d = PkLayer;
              inv_d = 1'b0;
              lg_d = LgW'(LgN - 1);
              zk_d = ZAW'(1);
            end
            OpIntt: begin
              kind_d = PkLayer;
              inv_d = 1'b1;
              lg_d = LgW'(P);
              zk_d = '1;
            end
            default: begin
              kind_d = PkMul;
              inv_d = 1'b0;
            end
          endcase
        end
      end
      StPass: begin
        if (kind_q == PkMul) begin
          step_d = (step_q == 3'(S - 1)) ? 3'd0 : step_q + 3'd1;
        end
        if ((kind_q != PkMul) || (step_q == 3'(S - 1))) begin
          cnt_d = cnt_q + 1'b1;
          cnt_inc = 1'b1;
        end
        if (last) begin
          state_d = StDrain;
          drain_d = (kind_q == PkMul) ? DW'(MulLat - S + 1) : DW'(LayerLat);
        end
      end
      StDrain: begin
        drain_d = drain_q - DW'(1);
        if (kind_q == PkMul) begin
          step_d = (step_q == 3'(S - 1)) ? 3'd0 : step_q + 3'd1;
        end
        if (drain_q == DW'(1)) begin
          cnt_d = '0;
          cnt_clr = 1'b1;
          step_d = '0;
          state_d = StPass;
          if (kind_q == PkLayer) begin
            src_d = !src_q;
          end
          if (kind_q == PkLayer && !inv_q && lg_q != LgW'(P)) begin
            lg_d = lg_q - 1'b1;
          end else if (kind_q == PkLayer && inv_q && lg_q != LgW'(LgN - 1)) begin
            lg_d = lg_q + 1'b1;
          end else if (kind_q == PkLayer && inv_q) begin
            kind_d = PkScale;
          end else begin
            // the end: the result is in the bank last written
            state_d = StIdle;
            cur_d = (kind_q == PkMul) ? src_q : !src_q;
          end
        end
      end
      default: state_d = StIdle;
    endcase
    // comparisons of lg_d with constants: a LUT each, no carry chain
    for (int unsigned i = 0; i < WAW; i++) begin
      lo_d[i] = lg_d > LgW'(i + LgB);
    end
    // count 0 ends a block when d = 0
    blk_d = cnt_clr ? !lo_d[0] : (cnt_inc ? blk_next : blk_q);
  end

  if (LgB == 0) begin : gen_ge_one
    assign ge_d = 1'b1;
  end else begin : gen_ge
    assign ge_d = lg_d >= LgW'(LgB);
  end

  // write delay line: a read issued at cycle t is written at t + latency
  always_comb begin
    dl_v_d[0] = issue;
    dl_a_d[0] = a;
    dl_b_d[0] = b;
    for (int unsigned i = 1; i < MaxLat; i++) begin
      dl_v_d[i] = dl_v_q[i-1];
      dl_a_d[i] = dl_a_q[i-1];
      dl_b_d[i] = dl_b_q[i-1];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      kind_q <= PkLayer;
      inv_q <= 1'b0;
      cur_q <= 1'b0;
      src_q <= 1'b0;
      lg_q <= '0;
      ge_q <= 1'b0;
      lo_q <= '0;
      blk_q <= 1'b0;
      cnt_q <= '0;
      step_q <= '0;
      drain_q <= '0;
      zk_q <= '0;
      dl_v_q <= '{default: 1'b0};
    end else begin
      state_q <= state_d;
      kind_q <= kind_d;
      inv_q <= inv_d;
      cur_q <= cur_d;
      src_q <= src_d;
      lg_q <= lg_d;
      ge_q <= ge_d;
      lo_q <= lo_d;
      blk_q <= blk_d;
      cnt_q <= cnt_d;
      step_q <= step_d;
      drain_q <= drain_d;
      zk_q <= zk_d;
      dl_v_q <= dl_v_d;
    end
  end

  always_ff @(posedge clk_i) begin
    dl_a_q <= dl_a_d;
    dl_b_q <= dl_b_d;
  end

  always_comb begin
    tap = (kind_q == PkMul) ? $clog2(MaxLat)'(MulLat - 1) : $clog2(MaxLat)'(LayerLat - 1);
    wr_o = dl_v_q[tap];
    wr_a_o = dl_a_q[tap];
    wr_b_o = dl_b_q[tap];
  end

  assign busy_o = state_q != StIdle;
  assign cur_o = cur_q;
  assign src_o = src_q;
  assign inv_o = inv_q;
  assign scale_o = kind_q == PkScale;
  assign mul_o = kind_q == PkMul;
  assign lg_o = lg_q;
  assign rd_o = issue;
  assign rd_a_o = a;
  assign rd_b_o = b;
  assign zk_o = zk_q;
  assign step_o = step_q;
  assign slot_o = issue && (kind_q == PkMul);

endmodule
