// Dense multiplier in GF(2)[x]/(x^R - 1): Karatsuba layers over Comba.
//
// Operands and result are streams of W-bit words, word i = bits iW..iW+W-1
// (the libbike layout, cut into W-bit words). One operation:
//   1. load   : a and b arrive one word pair per cycle (in_ready_o/in_valid_i)
//               into 2^L operand banks each; padding words are zeroed and the
//               product banks cleared meanwhile;
//   2. compute: 3^L leaf products of M x M words by Comba, 3^ParallelLevels
//               engines in lockstep, 3^(L - ParallelLevels) batches; every
//               finished column is added (read-modify-write) into the product
//               banks at the leaf's Karatsuba offsets;
//   3. reduce : the 2*Np-word product is folded mod x^R - 1 and streamed out
//               (out_valid_o/out_data_o, no back-pressure), out_last_o on the
//               last word.
// Symmetric mode (sym_i = 1 with start_i), for the inversion's chain in the
// subfield fixed by sigma: a(x) -> a(x^-1): for sigma-invariant F and G,
// F = a + sigma(a) + 1 with a = bits 0..H of F (H = (R - 1) / 2), so
//   F G = G + W + sigma(W),   W = a G mod (x^R - 1).
// Only a's low half is loaded; the leaves that multiply its (zero) high half
// are skipped (L = 0: the Comba rows i >= Ha), and the result stage adds G
// and the reversal sigma(W), read backwards from the product banks, to W.
// See ../doc/gf2x_mul.md for the schedule and the cycle formulas.
module gf2x_mul
  import gf2x_mul_pkg::*;
#(
  parameter int unsigned R               = 12323,
  parameter int unsigned W               = 64,
  parameter int unsigned KaratsubaLevels = 1,
  parameter int unsigned ParallelLevels  = 0,
  // derived
  localparam int unsigned L      = KaratsubaLevels,
  localparam int unsigned N      = (R + W - 1) / W,          // words per operand
  localparam int unsigned NBlk   = 1 << L,                   // blocks per operand
  localparam int unsigned M      = (N + NBlk - 1) / NBlk,    // words per block
  localparam int unsigned Np     = M * NBlk,                 // padded operand words
  localparam int unsigned NPBank = 2 * NBlk,                 // product banks
  localparam int unsigned E      = pow3(ParallelLevels),     // Comba engines
  localparam int unsigned B      = pow3(L - ParallelLevels), // batches
  localparam int unsigned Sh     = R % W,
  localparam int unsigned H      = (R - 1) / 2,
  localparam int unsigned Ha     = H / W + 1,                // words of bits 0..H
  localparam int unsigned BS     = (sym_leaves(L) + E - 1) / E, // batches (sym)
  localparam int unsigned AW     = (M > 1) ? $clog2(M) : 1,
  localparam int unsigned BW     = (B > 1) ? $clog2(B) : 1,
  localparam int unsigned PBW    = $clog2(NPBank),
  localparam int unsigned CntW   = 16
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         start_i,
  input  logic         sym_i,      // symmetric mode, taken with start_i
  output logic         busy_o,
  // operand stream
  output logic         in_ready_o,
  input  logic         in_valid_i,
  input  logic [W-1:0] in_a_i,
  input  logic [W-1:0] in_b_i,
  // result stream
  output logic         out_valid_o,
  output logic [W-1:0] out_data_o,
  output logic         out_last_o
);

  // ---------------------------------------------------------------------------
  // Parameter checks
  // ---------------------------------------------------------------------------
  initial begin
    assert (L <= 3) else $error("KaratsubaLevels must be 0..3");
    assert (ParallelLevels <= L) else $error("ParallelLevels must be <= KaratsubaLevels");
    assert (W == 32 || W == 64 || W == 128) else $error("W must be 32, 64 or 128");
    assert (M >= 2) else $error("blocks must hold at least 2 words");
    assert (Sh != 0) else $error("R must not be a multiple of W");
    assert (2 * Np < (1 << CntW)) else $error("counters too narrow");
    assert (L == 0 || 2 * Ha <= Np) else $error("a's low half must fit the low blocks");
  end

  // ---------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------
  typedef enum logic [2:0] {
    StIdle,
    StLoad,
    StComp,
    StDrain,
    StReduce,
    StFlush
  } state_e;

  state_e state_q, state_d;

  logic [CntW-1:0] cnt_q, cnt_d;     // load word / reduce step / drain count
  logic [CntW-1:0] blk_q, blk_d;     // bank of the load word
  logic [CntW-1:0] off_q, off_d;     // address of the load word in its bank
  logic [CntW-1:0] col_q, col_d;     // Comba column k, 0..2M-1
  logic [CntW-1:0] idx_q, idx_d;     // Comba row i
  logic [BW-1:0]   batch_q, batch_d;
  logic            sym_q, sym_d;     // symmetric mode
  // product word pointers: word bank M + addr
  typedef struct packed {
    logic [CntW-1:0] bank;
    logic [CntW-1:0] addr;
  } wptr_t;
  // reduce read pointers: A reads P[s-1], B reads P[N-1+s]
  wptr_t ra_q, ra_d, rb_q, rb_d;
  // symmetric mode: reduce steps alternate forward (ph 0) and backward
  // (ph 1); backward step s (rcnt = s + 1) reads P[N-1-s] on A and
  // P[2N-2-s] on B
  logic            ph_q, ph_d;
  logic [CntW-1:0] rcnt_q, rcnt_d;
  wptr_t qa_q, qa_d, qb_q, qb_d;

  localparam logic [CntW-1:0] NCnt     = CntW'(N);
  localparam logic [CntW-1:0] NpCnt    = CntW'(Np);
  localparam logic [CntW-1:0] MCnt     = CntW'(M);
  localparam logic [CntW-1:0] LastCol  = CntW'(2 * M - 1);
  localparam logic [CntW-1:0] RbBank0  = CntW'((N - 1) / M);
  localparam logic [CntW-1:0] RbAddr0  = CntW'((N - 1) % M);
  localparam logic [BW-1:0]   LastBat  = BW'(B - 1);
  localparam logic [BW-1:0]   LastBatS = BW'(BS - 1);
  localparam logic [CntW-1:0] HaCnt    = CntW'(Ha);
  localparam logic [CntW-1:0] LastColS = CntW'(M + Ha - 1);
  localparam logic [CntW-1:0] QbBank0  = CntW'((2 * N - 1) / M);
  localparam logic [CntW-1:0] QbAddr0  = CntW'((2 * N - 1) % M);
  localparam logic [W-1:0]    HMask    = (H % W == W - 1) ? '1 : ((W'(1) << (H % W + 1)) - W'(1));

  function automatic wptr_t wptr_next(wptr_t p);
    if (p.addr == MCnt - 1'b1) return '{bank: p.bank + 1'b1, addr: '0};
    return '{bank: p.bank, addr: p.addr + 1'b1};
  endfunction

  function automatic wptr_t wptr_prev(wptr_t p);
    if (p.addr == '0) return '{bank: p.bank - 1'b1, addr: MCnt - 1'b1};
    return '{bank: p.bank, addr: p.addr - 1'b1};
  endfunction

  // with L = 0 the symmetric mode shortens the Comba rows to a's Ha words
  logic            rows_half;
  logic [CntW-1:0] rows, last_col;
  logic [BW-1:0]   last_bat;
  assign rows_half = sym_q && (L == 0);
  assign rows      = rows_half ? HaCnt : MCnt;
  assign last_col  = rows_half ? LastColS : LastCol;
  assign last_bat  = sym_q ? LastBatS : LastBat;

  // Comba slot flags (stage 0)
  logic            s0_valid, s0_first, s0_last, s0_nop;
  logic [CntW-1:0] col_lo, col_hi, nxt_lo;

  always_comb begin
    col_lo = (col_q < MCnt) ? '0 : (col_q - MCnt + 1'b1);
    col_hi = (col_q < rows) ? col_q : (rows - 1'b1);
    nxt_lo = ((col_q + 1'b1) < MCnt) ? '0 : (col_q + 1'b1 - MCnt + 1'b1);
  end

  // Load-phase write enables
  logic            ld_we;
  logic [W-1:0]    ld_a, ld_b;
  // Reduce-phase read enables (forward; backward in the symmetric mode)
  logic            red_re_a, red_re_b, rev_re_a, rev_re_b;

  always_comb begin
    state_d   = state_q;
    cnt_d     = cnt_q;
    blk_d     = blk_q;
    off_d     = off_q;
    col_d     = col_q;
    idx_d     = idx_q;
    batch_d   = batch_q;
    ra_d      = ra_q;
    rb_d      = rb_q;
    sym_d     = sym_q;
    ph_d      = ph_q;
    rcnt_d    = rcnt_q;
    qa_d      = qa_q;
    qb_d      = qb_q;
    s0_valid  = 1'b0;
    s0_first  = 1'b0;
    s0_last   = 1'b0;
    s0_nop    = 1'b0;
    ld_we     = 1'b0;
    ld_a      = '0;
    ld_b      = '0;
    red_re_a  = 1'b0;
    red_re_b  = 1'b0;
    rev_re_a  = 1'b0;
    rev_re_b  = 1'b0;
    in_ready_o = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (start_i) begin
          state_d = StLoad;
          sym_d   = sym_i;
          cnt_d   = '0;
          blk_d   = '0;
          off_d   = '0;
        end
      end

      StLoad: begin
        in_ready_o = (cnt_q < NCnt);
        if (cnt_q >= NCnt || in_valid_i) begin
          ld_we = 1'b1;
          if (cnt_q < NCnt) begin
            ld_a = in_a_i;
            ld_b = in_b_i;
          end
          // symmetric mode: a's bits above H are not loaded
          if (sym_q && cnt_q >= HaCnt) begin
            ld_a = '0;
          end else if (sym_q && cnt_q == HaCnt - 1'b1) begin
            ld_a = ld_a & HMask;
          end
          cnt_d = cnt_q + 1'b1;
          if (off_q == MCnt - 1'b1) begin
            off_d = '0;
            blk_d = blk_q + 1'b1;
          end else begin
            off_d = off_q + 1'b1;
          end
          if (cnt_q == NpCnt - 1'b1) begin
            state_d = StComp;
            col_d   = '0;
            idx_d   = '0;
            batch_d = '0;
          end
        end
      end

      StComp: begin
        s0_valid = 1'b1;
        s0_nop   = (col_q == last_col);
        s0_first = s0_nop || (idx_q == col_lo);
        s0_last  = s0_nop || (idx_q == col_hi);
        if (s0_last) begin
          if (s0_nop) begin
            col_d = '0;
            idx_d = '0;
            if (batch_q == last_bat) begin
              state_d = StDrain;
              cnt_d   = '0;
            end else begin
              batch_d = batch_q + 1'b1;
            end
          end else begin
            col_d = col_q + 1'b1;
            idx_d = nxt_lo;
          end
        end else begin
          idx_d = idx_q + 1'b1;
        end
      end

      StDrain: begin
        // the last slot passes stages 1 and 2 (its product-bank write)
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == 1) begin
          state_d   = StReduce;
          cnt_d     = '0;
          ra_d      = '0;
          rb_d      = '{bank: RbBank0, addr: RbAddr0};
          ph_d      = sym_q;
          rcnt_d    = '0;
          qa_d      = '{bank: RbBank0, addr: RbAddr0};  // both start at P[N-1]
          qb_d      = '{bank: QbBank0, addr: QbAddr0};
        end
      end

      StReduce: begin
        if (ph_q) begin
          // backward step rcnt - 1; the symmetric reduce ends with it
          rev_re_b = 1'b1;
          rev_re_a = (rcnt_q != 0) && (rcnt_q <= NCnt);
          qb_d = wptr_prev(qb_q);
          if (rev_re_a) begin
            qa_d = wptr_prev(qa_q);
          end
          rcnt_d = rcnt_q + 1'b1;
          ph_d   = 1'b0;
          if (rcnt_q == NCnt + 1'b1) begin
            state_d = StFlush;
            cnt_d   = '0;
          end
        end else begin
          ph_d     = sym_q;
          red_re_b = 1'b1;
          red_re_a = (cnt_q != 0);
          rb_d = wptr_next(rb_q);
          if (red_re_a) begin
            ra_d = wptr_next(ra_q);
          end
          cnt_d = cnt_q + 1'b1;
          if (cnt_q == NCnt && !sym_q) begin
            state_d = StFlush;
            cnt_d   = '0;
          end
        end
      end

      StFlush: begin
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == 1) begin
          state_d = StIdle;
        end
      end

      default: state_d = StIdle;
    endcase
  end

  assign busy_o = (state_q != StIdle);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      cnt_q     <= '0;
      blk_q     <= '0;
      off_q     <= '0;
      col_q     <= '0;
      idx_q     <= '0;
      batch_q   <= '0;
      ra_q      <= '0;
      rb_q      <= '0;
      sym_q     <= 1'b0;
      ph_q      <= 1'b0;
      rcnt_q    <= '0;
      qa_q      <= '0;
      qb_q      <= '0;
    end else begin
      state_q   <= state_d;
      cnt_q     <= cnt_d;
      blk_q     <= blk_d;
      off_q     <= off_d;
      col_q     <= col_d;
      idx_q     <= idx_d;
      batch_q   <= batch_d;
      ra_q      <= ra_d;
      rb_q      <= rb_d;
      sym_q     <= sym_d;
      ph_q      <= ph_d;
      rcnt_q    <= rcnt_d;
      qa_q      <= qa_d;
      qb_q      <= qb_d;
    end
  end

  // ---------------------------------------------------------------------------
  // Operand banks: block j of a (b) in bank j, word i of the block at address i
  // ---------------------------------------------------------------------------
  logic [W-1:0] a_rd [NBlk];
  logic [W-1:0] b_rd [NBlk];
  logic [AW-1:0] b_raddr;
  logic          b_re;

  // compute: the Comba pair's b word; symmetric reduce: G's word s - 1,
  // alongside P[s-1]
  assign b_re    = s0_valid || (sym_q && red_re_a);
  assign b_raddr = s0_valid ? AW'(col_q - idx_q) : ra_q.addr[AW-1:0];

  for (genvar j = 0; j < NBlk; j++) begin : gen_opbank
    logic we;
    assign we = ld_we && (blk_q == CntW'(j));

    bike_ram_sdp #(
      .Width (W),
      .Depth (M)
    ) u_a_bank (
      .clk_i   (clk_i),
      .we_i    (we),
      .waddr_i (off_q[AW-1:0]),
      .wdata_i (ld_a),
      .re_i    (s0_valid),
      .raddr_i (idx_q[AW-1:0]),
      .rdata_o (a_rd[j])
    );

    bike_ram_sdp #(
      .Width (W),
      .Depth (M)
    ) u_b_bank (
      .clk_i   (clk_i),
      .we_i    (we),
      .waddr_i (off_q[AW-1:0]),
      .wdata_i (ld_b),
      .re_i    (b_re),
      .raddr_i (b_raddr),
      .rdata_o (b_rd[j])
    );
  end

  // ---------------------------------------------------------------------------
  // Stage 1: leaf operands, digit products, column accumulation
  // ---------------------------------------------------------------------------
  logic            s1_valid_q, s1_first_q, s1_last_q, s1_nop_q;
  logic [CntW-1:0] s1_col_q;
  logic [BW-1:0]   s1_batch_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_valid_q <= 1'b0;
      s1_first_q <= 1'b0;
      s1_last_q  <= 1'b0;
      s1_nop_q   <= 1'b0;
      s1_col_q   <= '0;
      s1_batch_q <= '0;
    end else begin
      s1_valid_q <= s0_valid;
      s1_first_q <= s0_first;
      s1_last_q  <= s0_last;
      s1_nop_q   <= s0_nop;
      s1_col_q   <= col_q;
      s1_batch_q <= batch_q;
    end
  end

  // Stage 2 registers: finished column words of every engine
  logic            s2_valid_q;
  logic [CntW-1:0] s2_col_q;
  logic [BW-1:0]   s2_batch_q;
  logic [W-1:0]    s2_res_q [E];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s2_valid_q <= 1'b0;
      s2_col_q   <= '0;
      s2_batch_q <= '0;
    end else begin
      s2_valid_q <= s1_valid_q && s1_last_q;
      s2_col_q   <= s1_col_q;
      s2_batch_q <= s1_batch_q;
    end
  end

  for (genvar e = 0; e < E; e++) begin : gen_engine
    // operand masks of this engine's leaves, one per batch, in either mode
    logic [NBlk-1:0] opm_tab [1 << BW];
    logic [NBlk-1:0] opm_sym [1 << BW];
    for (genvar bt = 0; bt < (1 << BW); bt++) begin : gen_tab
      assign opm_tab[bt] = NBlk'(leaf_opmask(mode_leaf(1'b0, e, bt, L, ParallelLevels), L));
      assign opm_sym[bt] = NBlk'(leaf_opmask(mode_leaf(1'b1, e, bt, L, ParallelLevels), L));
    end

    logic [NBlk-1:0] opm;
    logic [W-1:0]    x, y;
    logic [2*W-1:0]  prod, base, acc_d, acc_q;

    assign opm = sym_q ? opm_sym[s1_batch_q] : opm_tab[s1_batch_q];

    always_comb begin
      x = '0;
      y = '0;
      for (int unsigned j = 0; j < NBlk; j++) begin
        x = x ^ (a_rd[j] & {W{opm[j]}});
        y = y ^ (b_rd[j] & {W{opm[j]}});
      end
    end

    gf2x_mul_clmul #(
      .W (W)
    ) u_clmul (
      .a_i (x),
      .b_i (y),
      .p_o (prod)
    );

    always_comb begin
      if (!s1_first_q) begin
        base = acc_q;
      end else if (s1_col_q == '0) begin
        base = '0;
      end else begin
        base = {{W{1'b0}}, acc_q[2*W-1:W]};
      end
      acc_d = base ^ (s1_nop_q ? '0 : prod);
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        acc_q <= '0;
      end else if (s1_valid_q) begin
        acc_q <= acc_d;
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        s2_res_q[e] <= '0;
      end else if (s1_valid_q && s1_last_q) begin
        s2_res_q[e] <= acc_d[W-1:0];
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Product banks: product word q = n M + k lives in bank n at address k.
  // Port A reads (compute: the old word before the column is added; reduce:
  // P[s-1]); port B writes (load: clear; compute: old ^ columns) or reads
  // (reduce: P[N-1+s]).
  // ---------------------------------------------------------------------------
  logic [W-1:0] pa_rd [NPBank];
  logic [W-1:0] pb_rd [NPBank];

  logic [AW-1:0] s1_addr, s2_addr;
  logic          s2_hi;
  assign s1_addr = AW'((s1_col_q < MCnt) ? s1_col_q : (s1_col_q - MCnt));
  assign s2_hi   = (s2_col_q >= MCnt);
  assign s2_addr = AW'(s2_hi ? (s2_col_q - MCnt) : s2_col_q);

  // offset parity sets of every (engine, batch), in either mode
  logic [NPBank-1:0] offm_tab [E][1 << BW];
  logic [NPBank-1:0] offm_sym [E][1 << BW];
  logic [NPBank-1:0] offm     [E];
  for (genvar e = 0; e < E; e++) begin : gen_offe
    for (genvar bt = 0; bt < (1 << BW); bt++) begin : gen_offb
      assign offm_tab[e][bt] = NPBank'(leaf_offmask(mode_leaf(1'b0, e, bt, L, ParallelLevels), L));
      assign offm_sym[e][bt] = NPBank'(leaf_offmask(mode_leaf(1'b1, e, bt, L, ParallelLevels), L));
    end
    assign offm[e] = sym_q ? offm_sym[e][s2_batch_q] : offm_tab[e][s2_batch_q];
  end

  for (genvar p = 0; p < NPBank; p++) begin : gen_pbank
    logic            a_en, b_en, b_we;
    logic [AW-1:0]   a_addr, b_addr;
    logic [W-1:0]    contrib, b_wdata;
    logic            hit;

    always_comb begin
      contrib = '0;
      hit     = 1'b0;
      for (int unsigned e = 0; e < E; e++) begin
        // leaf column k < M lands in bank offset, k >= M in bank offset + 1
        if (s2_hi) begin
          if (p > 0 && offm[e][(p > 0) ? p - 1 : 0]) begin
            contrib = contrib ^ s2_res_q[e];
            hit     = 1'b1;
          end
        end else if (offm[e][p]) begin
          contrib = contrib ^ s2_res_q[e];
          hit     = 1'b1;
        end
      end
    end

    always_comb begin
      a_en    = 1'b0;
      a_addr  = '0;
      b_en    = 1'b0;
      b_we    = 1'b0;
      b_addr  = '0;
      b_wdata = '0;
      if (state_q == StLoad) begin
        // clear while the operands load (M <= Np cycles)
        b_en   = (cnt_q < MCnt);
        b_we   = 1'b1;
        b_addr = cnt_q[AW-1:0];
      end else if (state_q == StReduce && ph_q) begin
        a_en   = rev_re_a && (qa_q.bank == CntW'(p));
        a_addr = qa_q.addr[AW-1:0];
        b_en   = rev_re_b && (qb_q.bank == CntW'(p));
        b_addr = qb_q.addr[AW-1:0];
      end else if (state_q == StReduce) begin
        a_en   = red_re_a && (ra_q.bank == CntW'(p));
        a_addr = ra_q.addr[AW-1:0];
        b_en   = red_re_b && (rb_q.bank == CntW'(p));
        b_addr = rb_q.addr[AW-1:0];
      end else begin
        a_en    = s1_valid_q && s1_last_q;
        a_addr  = s1_addr;
        b_en    = s2_valid_q && hit;
        b_we    = 1'b1;
        b_addr  = s2_addr;
        b_wdata = pa_rd[p] ^ contrib;
      end
    end

    bike_ram_tdp #(
      .Width (W),
      .Depth (M)
    ) u_prod_bank (
      .clk_i     (clk_i),
      .a_en_i    (a_en),
      .a_we_i    (1'b0),
      .a_addr_i  (a_addr),
      .a_wdata_i ('0),
      .a_rdata_o (pa_rd[p]),
      .b_en_i    (b_en),
      .b_we_i    (b_we),
      .b_addr_i  (b_addr),
      .b_wdata_i (b_wdata),
      .b_rdata_o (pb_rd[p])
    );
  end

  // ---------------------------------------------------------------------------
  // Reduction mod x^R - 1: c_w = P_w ^ ({P_(w+N), P_(w+N-1)} >> (R mod W)).
  // Symmetric mode: the same reduced words W_i once forward (i = s - 1, with
  // G_i added) and once backward (i = N - 1 - s); result word j is
  //   G_j ^ W_j ^ reverse(({W_(N-1-j), W_(N-2-j)} >> (Sh + 1))[W-1:0]),
  // the reversal being bit k -> bit R - k (bit 0 of word 0 keeps G_0).
  // ---------------------------------------------------------------------------
  logic            r1_act_q, r1_out_q;
  logic            r1_ract_q, r1_rlo_q, r1_rfirst_q, r1_rzero_q, r1_rout_q;
  logic [CntW-1:0] r1_w_q, r1_j_q;
  logic [PBW-1:0]  r1_ba_q, r1_bb_q;
  logic [W-1:0]    prev_b_q, prev_rb_q, fwd_q, wprev_q;
  logic            w0_q;
  logic [W-1:0]    lo_word, hi_word, red_word, g_word;
  logic [W-1:0]    window, rev_w, rev_win, rev_bits, sym_word;
  logic            out_valid_q, out_last_q;
  logic [W-1:0]    out_data_q;

  localparam logic [W-1:0] LastMask = (W'(1) << Sh) - W'(1);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r1_act_q    <= 1'b0;
      r1_out_q    <= 1'b0;
      r1_ract_q   <= 1'b0;
      r1_rlo_q    <= 1'b0;
      r1_rfirst_q <= 1'b0;
      r1_rzero_q  <= 1'b0;
      r1_rout_q   <= 1'b0;
      r1_w_q      <= '0;
      r1_j_q      <= '0;
      r1_ba_q     <= '0;
      r1_bb_q     <= '0;
    end else begin
      r1_act_q    <= red_re_b;
      r1_out_q    <= red_re_a;
      r1_ract_q   <= rev_re_b;
      r1_rlo_q    <= rev_re_a;
      r1_rfirst_q <= rev_re_b && (rcnt_q == CntW'(1));
      r1_rzero_q  <= rev_re_b && (rcnt_q == NCnt + 1'b1);
      r1_rout_q   <= rev_re_b && (rcnt_q >= CntW'(2));
      r1_w_q      <= cnt_q - 1'b1;
      r1_j_q      <= rcnt_q - CntW'(2);
      r1_ba_q     <= ph_q ? qa_q.bank[PBW-1:0] : ra_q.bank[PBW-1:0];
      r1_bb_q     <= ph_q ? qb_q.bank[PBW-1:0] : rb_q.bank[PBW-1:0];
    end
  end

  assign lo_word = pa_rd[r1_ba_q];
  assign hi_word = pb_rd[r1_bb_q];
  assign window  = W'({hi_word, prev_b_q} >> Sh);

  always_comb begin
    red_word = lo_word ^ window;
    if (r1_w_q == NCnt - 1'b1) begin
      red_word = red_word & LastMask;
    end
  end

  // G's word from the operand bank read beside P[s-1]
  always_comb begin
    g_word = '0;
    for (int unsigned j = 0; j < NBlk; j++) begin
      if (r1_ba_q == PBW'(j)) g_word = b_rd[j];
    end
  end

  // backward: W_i from P[i] (none for i = N), P[i+N] (held) and P[i+N-1]
  always_comb begin
    rev_w = W'({prev_rb_q, hi_word} >> Sh) ^ (r1_rlo_q ? lo_word : '0);
    if (r1_rfirst_q) rev_w = rev_w & LastMask;
    if (r1_rzero_q) rev_w = '0;
    rev_win = W'({wprev_q, rev_w} >> (Sh + 1));
    for (int unsigned k = 0; k < W; k++) begin
      rev_bits[k] = rev_win[W-1-k];
    end
    sym_word = fwd_q ^ rev_bits;
    if (r1_j_q == '0) sym_word[0] = sym_word[0] ^ w0_q;
    if (r1_j_q == NCnt - 1'b1) sym_word = sym_word & LastMask;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prev_b_q    <= '0;
      prev_rb_q   <= '0;
      fwd_q       <= '0;
      wprev_q     <= '0;
      w0_q        <= 1'b0;
      out_valid_q <= 1'b0;
      out_last_q  <= 1'b0;
      out_data_q  <= '0;
    end else begin
      if (r1_act_q) begin
        prev_b_q <= hi_word;
      end
      if (r1_out_q) begin
        fwd_q <= red_word ^ g_word;
      end
      if (r1_out_q && r1_w_q == '0) begin
        w0_q <= red_word[0];
      end
      if (r1_ract_q) begin
        prev_rb_q <= hi_word;
        wprev_q   <= rev_w;
      end
      if (sym_q) begin
        out_valid_q <= r1_rout_q;
        out_last_q  <= r1_rout_q && (r1_j_q == NCnt - 1'b1);
        out_data_q  <= r1_rout_q ? sym_word : '0;
      end else begin
        out_valid_q <= r1_out_q;
        out_last_q  <= r1_out_q && (r1_w_q == NCnt - 1'b1);
        out_data_q  <= r1_out_q ? red_word : '0;
      end
    end
  end

  assign out_valid_o = out_valid_q;
  assign out_data_o  = out_data_q;
  assign out_last_o  = out_last_q;

endmodule
