// Exponentiation by 2^k in GF(2)[x]/(x^R - 1): c = a^(2^k), the bit
// permutation bit i -> bit (i * 2^k) mod R, computed E result bits per cycle.
//
// Read-gather architecture: output bit j is input bit (j * m) mod R with
// m = 2^-k mod R. Lane e (0 <= e < E) produces output bits j = t E + e,
// t = 0, 1, ...: its input position starts at (e m) mod R and advances by
// (E m) mod R each cycle (one add and one conditional subtract of R). Start
// positions and increments are elaboration-time tables over the exponents
// of gf2x_sqr_k_pkg::ktab (the Itoh-Tsujii chain of R); the run-time input
// k_sel_i picks one. Each lane reads a W/2-bit word of its own copy of a
// (two lanes per true dual-port copy, 2N words of W/2 bits: a 32-bit wide
// copy fits one RAMB36 in true dual-port mode, a 64-bit one would take two)
// and selects one bit of it: no wide vector is ever indexed at run time, no
// second scatter stage is needed.
//
// One operation:
//   1. load   : N = ceil(R/W) words of a (in_ready_o/in_valid_i) written into
//               all ceil(E/2) copies at once (low half by port A, high half
//               by port B);
//   2. permute: N W / E steps of E bits (bits j >= R are zero), gathered
//               into W-bit result words streamed out (out_valid_o every
//               W/E cycles, out_last_o on word N-1, no back-pressure).
// Half mode (half_i with start_i), for the inversion's chain, whose results
// are sigma-invariant and feed the multiplier's symmetric mode, which reads
// only their bits 0..H (H = (R - 1) / 2): only words 0 .. Ha - 1 are
// gathered (Ha = floor(H / W) + 1), then N - Ha zero words follow, one per
// cycle.
// cycles = N + N W / E + 1, half mode N + Ha W / E + N - Ha + 1
// (doc/gf2x_sqr_k.md), independent of the data.
module gf2x_sqr_k
  import gf2x_sqr_k_pkg::*;
#(
  parameter int unsigned R = 12323,
  parameter int unsigned W = 64,
  parameter int unsigned E = 16,
  // derived
  localparam int unsigned N    = (R + W - 1) / W,     // words per polynomial
  localparam int unsigned NK   = ktab_len(R),         // supported exponents
  localparam int unsigned KSW  = (NK > 1) ? $clog2(NK) : 1,
  localparam int unsigned S    = N * (W / E),         // permute steps
  localparam int unsigned NC   = (E + 1) / 2,         // memory copies
  localparam int unsigned WL   = W / 2,               // copy word width
  localparam int unsigned LW   = $clog2(WL),
  localparam int unsigned PW   = $clog2(R),           // bit positions
  localparam int unsigned AW   = $clog2(2 * N),       // copy address
  localparam int unsigned WPS  = W / E,               // steps per result word
  localparam int unsigned SW   = (WPS > 1) ? $clog2(WPS) : 1,
  localparam int unsigned Ha   = half(R) / W + 1,      // half mode: words gathered
  localparam int unsigned SH   = Ha * WPS,             // half mode: permute steps
  localparam int unsigned CntW = 16
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           start_i,
  input  logic [KSW-1:0] k_sel_i,    // exponent k = ktab(R, k_sel_i)
  input  logic           half_i,     // half mode, taken with start_i
  output logic           busy_o,
  // operand stream
  output logic           in_ready_o,
  input  logic           in_valid_i,
  input  logic [W-1:0]   in_data_i,
  // result stream
  output logic           out_valid_o,
  output logic [W-1:0]   out_data_o,
  output logic           out_last_o
);

  // ---------------------------------------------------------------------------
  // Parameter checks
  // ---------------------------------------------------------------------------
  initial begin
    assert (W == 32 || W == 64 || W == 128) else $error("W must be 32, 64 or 128");
    assert (E >= 1 && E <= W && (W % E) == 0 && (E & (E - 1)) == 0)
      else $error("E must be a power of two dividing W");
    assert (S < (1 << CntW) && N < (1 << CntW)) else $error("counters too narrow");
    assert (Ha < N) else $error("half mode needs N > Ha");
    assert ((1 << PW) >= R) else $error("position width");
  end

  // ---------------------------------------------------------------------------
  // Elaboration-time tables: increment (E m) mod R per exponent
  // ---------------------------------------------------------------------------
  typedef logic [PW-1:0] pos_t;

  function automatic pos_t inc_of(int unsigned q);
    return pos_t'(mulmod(E % R, inv_step(ktab(R, q), R), R));
  endfunction

  function automatic pos_t start_of(int unsigned q, int unsigned lane);
    return pos_t'(mulmod(lane, inv_step(ktab(R, q), R), R));
  endfunction

  pos_t inc_tab [NK];
  for (genvar q = 0; q < NK; q++) begin : gen_inc
    assign inc_tab[q] = inc_of(q);
  end

  // ---------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------
  typedef enum logic [1:0] {
    StIdle,
    StLoad,
    StPerm,
    StZero      // half mode: the N - Ha zero words
  } state_e;

  state_e          state_q, state_d;
  logic [CntW-1:0] cnt_q, cnt_d;        // load word / permute step / zero word
  logic [KSW-1:0]  ksel_q, ksel_d;
  logic            half_q, half_d;
  logic [CntW-1:0] jbase_q, jbase_d;    // t E: first output bit of the step
  pos_t            inc_q, inc_d;
  logic [PW:0]     incr_q, incr_d;      // inc - R (two's complement): the wrapped step
  logic            ld_we, init, step, zstep;

  always_comb begin
    state_d    = state_q;
    cnt_d      = cnt_q;
    ksel_d     = ksel_q;
    half_d     = half_q;
    jbase_d    = jbase_q;
    inc_d      = inc_q;
    incr_d     = incr_q;
    ld_we      = 1'b0;
    init       = 1'b0;
    step       = 1'b0;
    zstep      = 1'b0;
    in_ready_o = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (start_i) begin
          state_d = StLoad;
          cnt_d   = '0;
          ksel_d  = (int'(k_sel_i) < int'(NK)) ? k_sel_i : '0;
          half_d  = half_i;
        end
      end

      StLoad: begin
        in_ready_o = 1'b1;
        if (in_valid_i) begin
          ld_we = 1'b1;
          cnt_d = cnt_q + 1'b1;
          if (cnt_q == CntW'(N - 1)) begin
            state_d = StPerm;
            cnt_d   = '0;
            jbase_d = '0;
            init    = 1'b1;
            inc_d   = inc_tab[ksel_q];
            incr_d  = {1'b0, inc_tab[ksel_q]} - (PW + 1)'(R);
          end
        end
      end

      StPerm: begin
        step    = 1'b1;
        cnt_d   = cnt_q + 1'b1;
        jbase_d = jbase_q + CntW'(E);
        if (half_q && cnt_q == CntW'(SH - 1)) begin
          state_d = StZero;
          cnt_d   = '0;
        end else if (cnt_q == CntW'(S - 1)) begin
          state_d = StIdle;
        end
      end

      StZero: begin
        zstep = 1'b1;
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == CntW'(N - Ha - 1)) begin
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
      ksel_q  <= '0;
      half_q  <= 1'b0;
      jbase_q <= '0;
      inc_q   <= '0;
      incr_q  <= '0;
    end else begin
      state_q <= state_d;
      cnt_q   <= cnt_d;
      ksel_q  <= ksel_d;
      half_q  <= half_d;
      jbase_q <= jbase_d;
      inc_q   <= inc_d;
      incr_q  <= incr_d;
    end
  end

  // ---------------------------------------------------------------------------
  // Lanes: position registers, memory copies, bit select
  // ---------------------------------------------------------------------------
  logic [E-1:0]  gbit;          // stage 1: gathered bits of the step
  logic          s1_valid_q, s1_last_q;
  logic          s1_zero_q, s1_zlast_q;  // a zero word (half mode)
  logic [AW-1:0] lane_addr [E];  // copy word address each lane reads
  logic [WL-1:0] lane_rd   [E];  // the word it gets one cycle later

  for (genvar e = 0; e < E; e++) begin : gen_lane
    pos_t start_tab [NK];
    for (genvar q = 0; q < NK; q++) begin : gen_start
      assign start_tab[q] = start_of(q, e);
    end

    pos_t          pos_q, pos_d;
    pos_t          sum;   // pos + inc (below R when it does not wrap)
    logic [PW:0]   wrap;  // pos + inc - R (negative: no wrap)
    logic [LW-1:0] bsel_q, bsel_d;
    logic          live_q, live_d;      // output bit j = jbase + e < R

    assign lane_addr[e] = AW'(pos_q[PW-1:LW]);

    always_comb begin
      // both sums at once from registers, the sign picks one: no add
      // then compare then subtract in series
      sum    = pos_q + inc_q;
      wrap   = {1'b0, pos_q} + incr_q;
      pos_d  = pos_q;
      bsel_d = bsel_q;
      live_d = live_q;
      if (init) begin
        pos_d = start_tab[ksel_q];
      end else if (step) begin
        pos_d  = wrap[PW] ? sum : pos_t'(wrap);
        bsel_d = pos_q[LW-1:0];
        live_d = (jbase_q < CntW'(R - e));
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        pos_q  <= '0;
        bsel_q <= '0;
        live_q <= 1'b0;
      end else begin
        pos_q  <= pos_d;
        bsel_q <= bsel_d;
        live_q <= live_d;
      end
    end

    // lane 2c reads port A of copy c, lane 2c+1 port B
    assign gbit[e] = live_q & lane_rd[e][bsel_q];
  end

  logic [AW-1:0] ld_lo, ld_hi;
  assign ld_lo = {cnt_q[AW-2:0], 1'b0};
  assign ld_hi = {cnt_q[AW-2:0], 1'b1};

  for (genvar c = 0; c < NC; c++) begin : gen_copy
    logic          b_en;
    logic [AW-1:0] b_addr;
    logic [WL-1:0] b_rd;
    if (2 * c + 1 < E) begin : gen_pair
      assign b_en               = ld_we || step;
      assign b_addr             = ld_we ? ld_hi : lane_addr[2 * c + 1];
      assign lane_rd[2 * c + 1] = b_rd;
    end else begin : gen_single
      assign b_en   = ld_we;
      assign b_addr = ld_hi;
      logic unused_b_rd;
      assign unused_b_rd = ^b_rd;
    end

    bike_ram_tdp #(
      .Width (WL),
      .Depth (2 * N)
    ) u_copy (
      .clk_i     (clk_i),
      .a_en_i    (ld_we || step),
      .a_we_i    (ld_we),
      .a_addr_i  (ld_we ? ld_lo : lane_addr[2 * c]),
      .a_wdata_i (in_data_i[WL-1:0]),
      .a_rdata_o (lane_rd[2 * c]),
      .b_en_i    (b_en),
      .b_we_i    (ld_we),
      .b_addr_i  (b_addr),
      .b_wdata_i (in_data_i[W-1:WL]),
      .b_rdata_o (b_rd)
    );
  end

  // ---------------------------------------------------------------------------
  // Stage 1 -> result words: W/E steps per word, first bits lowest
  // ---------------------------------------------------------------------------
  logic [SW-1:0]   sub_q, sub_d;
  logic [W-1:0]    acc_q, acc_d, word;
  logic            ov_q, ov_d, ol_q, ol_d;
  logic [W-1:0]    od_q, od_d;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_valid_q <= 1'b0;
      s1_last_q  <= 1'b0;
      s1_zero_q  <= 1'b0;
      s1_zlast_q <= 1'b0;
    end else begin
      s1_valid_q <= step;
      s1_last_q  <= step && (cnt_q == CntW'(S - 1));
      s1_zero_q  <= zstep;
      s1_zlast_q <= zstep && (cnt_q == CntW'(N - Ha - 1));
    end
  end

  if (E == W) begin : gen_word_full
    assign word = gbit;
  end else begin : gen_word_part
    assign word = {gbit, acc_q[W-1:E]};
  end

  always_comb begin
    sub_d  = sub_q;
    acc_d  = acc_q;
    ov_d   = 1'b0;
    ol_d   = 1'b0;
    od_d   = od_q;
    if (s1_valid_q) begin
      acc_d = word;
      if (sub_q == SW'(WPS - 1)) begin
        sub_d  = '0;
        ov_d   = 1'b1;
        od_d   = word;
        ol_d   = s1_last_q;
      end else begin
        sub_d = sub_q + 1'b1;
      end
    end
    if (s1_zero_q) begin
      ov_d = 1'b1;
      od_d = '0;
      ol_d = s1_zlast_q;
    end
    if (init) begin
      sub_d  = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sub_q  <= '0;
      acc_q  <= '0;
      ov_q   <= 1'b0;
      ol_q   <= 1'b0;
      od_q   <= '0;
    end else begin
      sub_q  <= sub_d;
      acc_q  <= acc_d;
      ov_q   <= ov_d;
      ol_q   <= ol_d;
      od_q   <= od_d;
    end
  end

  assign out_valid_o = ov_q;
  assign out_data_o  = od_q;
  assign out_last_o  = ol_q;

endmodule
