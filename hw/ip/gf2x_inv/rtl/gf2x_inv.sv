// Inversion in GF(2)[x]/(x^R - 1), for a of odd weight, by Itoh-Tsujii in
// the subfield fixed by sigma: a(x) -> a(x^-1) (gf2x_sqr_k_pkg,
// gf2x_inv_pkg): a^-1 = sigma(a) N^-1 with the norm N = a sigma(a), whose
// chain multiplies sigma-invariant operands (gf2x_mul's symmetric mode).
//
// Two units: gf2x_mul (Karatsuba-Comba, W bits per word) and gf2x_sqr_k
// (exponentiation by 2^k, E bits per cycle), chained as a pipeline so that
// their streams overlap:
//   - the exponentiation's result words go straight into the multiplier's
//     operand load (the other operand, b or a, read from memory alongside),
//     so the multiplier loads while the permutation runs;
//   - the multiplier's result words go at once into the next
//     exponentiation's load and into the b memory, so the unit loads while
//     the product streams out.
// Only the compute phase of the multiplier and the permutation of the
// exponentiation remain on the critical path (doc/gf2x_inv.md has the cycle
// formula). An exponentiation whose result feeds a symmetric product runs in
// gf2x_sqr_k's half mode: that product reads only the result's low half.
// Memories: a and the norm (one memory, 2N words of W bits) and b (N words).
//
// Interface: a streams in (in_ready_o/in_valid_i, N words), a^-1 streams
// out (out_valid_o/out_data_o, out_last_o on word N-1, no back-pressure).
// overrun_o is a sticky check of the schedule: set if a unit is offered a
// word it cannot take or is started while busy (never set by construction;
// the testbench checks it after every inversion).
module gf2x_inv
  import gf2x_sqr_k_pkg::*;
  import gf2x_inv_pkg::*;
#(
  parameter int unsigned R               = 12323,
  parameter int unsigned W               = 64,
  parameter int unsigned E               = 64,
  parameter int unsigned KaratsubaLevels = 2,
  parameter int unsigned ParallelLevels  = 1,
  // derived
  localparam int unsigned N    = (R + W - 1) / W,
  localparam int unsigned NK   = ktab_len(R),
  localparam int unsigned KSW  = (NK > 1) ? $clog2(NK) : 1,
  localparam int unsigned NSQ  = num_sq(R),
  localparam int unsigned OW   = $clog2(NSQ + 1),
  localparam int unsigned AW   = (N > 1) ? $clog2(N) : 1,
  localparam int unsigned AW2  = $clog2(2 * N)
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         start_i,
  output logic         busy_o,
  output logic         overrun_o,
  // operand stream
  output logic         in_ready_o,
  input  logic         in_valid_i,
  input  logic [W-1:0] in_data_i,
  // result stream
  output logic         out_valid_o,
  output logic [W-1:0] out_data_o,
  output logic         out_last_o
);

  // ---------------------------------------------------------------------------
  // Operation tables (elaboration time)
  // ---------------------------------------------------------------------------
  logic [KSW-1:0] ksel_tab [NSQ];
  src_e           src_tab  [NSQ];
  logic           sym_tab  [NSQ];
  for (genvar i = 0; i < NSQ; i++) begin : gen_optab
    localparam op_t Op = op_code(R, i);
    assign ksel_tab[i] = KSW'(Op.ksel);
    assign src_tab[i]  = Op.src;
    assign sym_tab[i]  = Op.sym;
  end

  // ---------------------------------------------------------------------------
  // Units
  // ---------------------------------------------------------------------------
  logic           sq_start, sq_half, sq_busy, sq_in_ready, sq_in_valid, sq_out_valid, sq_out_last;
  logic [KSW-1:0] sq_ksel;
  logic [W-1:0]   sq_in_data, sq_out_data;

  logic           mu_start, mu_sym, mu_busy, mu_in_ready, mu_in_valid, mu_out_valid, mu_out_last;
  logic [W-1:0]   mu_in_a, mu_in_b, mu_out_data;

  gf2x_sqr_k #(
    .R (R),
    .W (W),
    .E (E)
  ) u_sqr (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (sq_start),
    .k_sel_i     (sq_ksel),
    .half_i      (sq_half),
    .busy_o      (sq_busy),
    .in_ready_o  (sq_in_ready),
    .in_valid_i  (sq_in_valid),
    .in_data_i   (sq_in_data),
    .out_valid_o (sq_out_valid),
    .out_data_o  (sq_out_data),
    .out_last_o  (sq_out_last)
  );

  gf2x_mul #(
    .R               (R),
    .W               (W),
    .KaratsubaLevels (KaratsubaLevels),
    .ParallelLevels  (ParallelLevels)
  ) u_mul (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (mu_start),
    .sym_i       (mu_sym),
    .busy_o      (mu_busy),
    .in_ready_o  (mu_in_ready),
    .in_valid_i  (mu_in_valid),
    .in_a_i      (mu_in_a),
    .in_b_i      (mu_in_b),
    .out_valid_o (mu_out_valid),
    .out_data_o  (mu_out_data),
    .out_last_o  (mu_out_last)
  );

  // ---------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------
  typedef enum logic [1:0] {
    StIdle,
    StLoad,
    StRun
  } state_e;

  state_e        state_q, state_d;
  logic [OW-1:0] op_q, op_d;          // exponentiation whose result is consumed
  logic          mstart_q, mstart_d;  // multiplier started for op_q
  logic          sqnext_q, sqnext_d;  // start exponentiation op_q next cycle
  logic [AW-1:0] lcnt_q, lcnt_d;      // input word
  logic [AW-1:0] jcnt_q, jcnt_d;      // exponentiation result word
  logic [AW-1:0] pcnt_q, pcnt_d;      // product word
  logic          last_op;

  assign last_op = (op_q == OW'(NSQ - 1));
  assign mu_sym  = sym_tab[op_q];

  always_comb begin
    state_d    = state_q;
    op_d       = op_q;
    mstart_d   = mstart_q;
    sqnext_d   = 1'b0;
    lcnt_d     = lcnt_q;
    jcnt_d     = jcnt_q;
    pcnt_d     = pcnt_q;
    sq_start   = 1'b0;
    sq_ksel    = ksel_tab[op_q];
    sq_half    = sym_tab[op_q];
    mu_start   = 1'b0;
    in_ready_o = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (start_i) begin
          state_d  = StLoad;
          op_d     = '0;
          mstart_d = 1'b0;
          lcnt_d   = '0;
          jcnt_d   = '0;
          pcnt_d   = '0;
          sq_start = 1'b1;
          sq_ksel  = ksel_tab[0];
          sq_half  = sym_tab[0];
        end
      end

      StLoad: begin
        in_ready_o = sq_in_ready;
        if (in_valid_i && sq_in_ready) begin
          lcnt_d = lcnt_q + 1'b1;
          if (lcnt_q == AW'(N - 1)) begin
            state_d = StRun;
          end
        end
      end

      StRun: begin
        // the multiplier takes the result of exponentiation op_q
        if (!last_op && !mstart_q && !mu_busy) begin
          mu_start = 1'b1;
          mstart_d = 1'b1;
        end
        if (sqnext_q) begin
          sq_start = 1'b1;
        end
        if (sq_out_valid) begin
          jcnt_d = jcnt_q + 1'b1;
        end
        if (sq_out_last) begin
          jcnt_d = '0;
          if (last_op) begin
            state_d = StIdle;
          end else begin
            op_d     = op_q + 1'b1;
            mstart_d = 1'b0;
            sqnext_d = 1'b1;
          end
        end
        if (mu_out_valid) begin
          pcnt_d = mu_out_last ? '0 : pcnt_q + 1'b1;
        end
      end

      default: state_d = StIdle;
    endcase
  end

  assign busy_o = (state_q != StIdle);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q  <= StIdle;
      op_q     <= '0;
      mstart_q <= 1'b0;
      sqnext_q <= 1'b0;
      lcnt_q   <= '0;
      jcnt_q   <= '0;
      pcnt_q   <= '0;
    end else begin
      state_q  <= state_d;
      op_q     <= op_d;
      mstart_q <= mstart_d;
      sqnext_q <= sqnext_d;
      lcnt_q   <= lcnt_d;
      jcnt_q   <= jcnt_d;
      pcnt_q   <= pcnt_d;
    end
  end

  // ---------------------------------------------------------------------------
  // Streams
  // ---------------------------------------------------------------------------
  logic          ld_we, pr_we, feed;
  logic [W-1:0]  a_rd, b_rd;
  logic          fv_q, norm_we;
  src_e          fsrc_q;
  logic [W-1:0]  fw_q;
  logic          ovr_q, ovr_d;

  assign ld_we = (state_q == StLoad) && in_valid_i && sq_in_ready;
  assign pr_we = (state_q == StRun) && mu_out_valid;
  // the first product is the norm N (it streams out while exponentiation 1
  // loads it): kept beside a for the chain's "* N"
  assign norm_we = pr_we && (op_q == OW'(1));
  // an exponentiation result word for the multiplier (not the final one)
  assign feed  = (state_q == StRun) && sq_out_valid && !last_op;

  // exponentiation input: a while loading, then every product
  assign sq_in_valid = ld_we || pr_we;
  assign sq_in_data  = (state_q == StLoad) ? in_data_i : mu_out_data;

  // a at addresses 0 .. N - 1, N at N .. 2N - 1
  bike_ram_sdp #(
    .Width (W),
    .Depth (2 * N)
  ) u_an_mem (
    .clk_i   (clk_i),
    .we_i    (ld_we || norm_we),
    .waddr_i (ld_we ? AW2'(lcnt_q) : AW2'(N) + AW2'(pcnt_q)),
    .wdata_i (ld_we ? in_data_i : mu_out_data),
    .re_i    (feed),
    .raddr_i ((src_tab[op_q] == SrcN) ? AW2'(N) + AW2'(jcnt_q) : AW2'(jcnt_q)),
    .rdata_o (a_rd)
  );

  bike_ram_sdp #(
    .Width (W),
    .Depth (N)
  ) u_b_mem (
    .clk_i   (clk_i),
    .we_i    (pr_we),
    .waddr_i (pcnt_q),
    .wdata_i (mu_out_data),
    .re_i    (feed),
    .raddr_i (jcnt_q),
    .rdata_o (b_rd)
  );

  // result word and memory word reach the multiplier together, a cycle later
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_q    <= 1'b0;
      fsrc_q  <= SrcB;
      fw_q    <= '0;
      ovr_q   <= 1'b0;
    end else begin
      fv_q    <= feed;
      fsrc_q  <= src_tab[op_q];
      fw_q    <= feed ? sq_out_data : fw_q;
      ovr_q   <= ovr_d;
    end
  end

  assign mu_in_valid = fv_q;
  assign mu_in_a     = fw_q;
  assign mu_in_b     = (fsrc_q == SrcB) ? b_rd : a_rd;

  always_comb begin
    ovr_d = ovr_q;
    if (start_i && state_q == StIdle) ovr_d = 1'b0;
    if (fv_q && !mu_in_ready) ovr_d = 1'b1;
    if (pr_we && !sq_in_ready) ovr_d = 1'b1;
    if (sq_start && sq_busy) ovr_d = 1'b1;
    if (mu_start && mu_busy) ovr_d = 1'b1;
  end
  assign overrun_o = ovr_q;

  assign out_valid_o = (state_q == StRun) && last_op && sq_out_valid;
  assign out_data_o  = sq_out_data;
  assign out_last_o  = (state_q == StRun) && last_op && sq_out_last;

endmodule
