// sparse_mul on the shell's operation-core interface (doc/acc_shell.md).
//
// Operation 1 (MUL): c = (sum_i x^idx_i) a mod (x^R - 1), the D positions
// idx_i of the sparse operand (libbike bike_gf2x_mul_sparse with count = D).
// Input: the positions, two per word (ND = ceil(D/2) words: acc_idx_unpack),
// then a's N words (libbike's word layout); output: c's N words. A position
// must be below R. sparse_mul gives its result without back-pressure, so one
// N-word memory holds c until the shell takes it:
//
//   StIdx  positions to sparse_mul
//   StRun  a's words to sparse_mul; its result words into the memory
//   StOut  the memory's words to the shell; done with the last one taken
module sparse_mul_stream #(
  parameter int unsigned R = 12323,
  parameter int unsigned D = 71,
  parameter int unsigned P = 8,
  localparam int unsigned W    = 64,
  localparam int unsigned N    = (R + W - 1) / W,
  localparam int unsigned ND   = (D + 1) / 2,
  localparam int unsigned G    = (D + P - 1) / P,
  localparam int unsigned PW   = $clog2(R),
  localparam int unsigned AW   = $clog2(N),
  localparam int unsigned OpW  = 8,
  localparam int unsigned CntW = 16
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,
  input  logic [OpW-1:0]  op_i,
  output logic            op_ok_o,
  output logic [CntW-1:0] in_words_o,
  output logic [CntW-1:0] out_words_o,
  output logic            done_o,
  output logic            err_o,
  input  logic            in_valid_i,
  output logic            in_ready_o,
  input  logic [W-1:0]    in_data_i,
  output logic            out_valid_o,
  input  logic            out_ready_i,
  output logic [W-1:0]    out_data_o
);

  localparam logic [OpW-1:0] OpMul = 8'd1;
  localparam logic [AW-1:0]  Last  = AW'(N - 1);

  assign op_ok_o     = (op_i == OpMul);
  assign in_words_o  = op_ok_o ? CntW'(ND + N) : '0;
  assign out_words_o = op_ok_o ? CntW'(N) : '0;
  assign err_o       = 1'b0;  // a product cannot fail

  typedef enum logic [1:0] {
    StIdle,
    StIdx,
    StRun,
    StOut
  } state_e;

  state_e        state_q, state_d;
  logic [AW-1:0] idx_q, idx_d;      // word of c (written or taken)
  logic          out_v_q, out_v_d;  // the memory's read data is c's word idx

  logic          sm_start, sm_idx_ready, sm_idx_valid, sm_in_ready, sm_in_valid;
  logic          sm_out_valid, sm_out_last;
  logic [W-1:0]  sm_out;
  logic [PW-1:0] sm_idx;
  logic          un_en, un_in_ready, un_last;
  logic          we, re;
  logic [AW-1:0] raddr;
  logic [W-1:0]  rdata;

  assign un_en = (state_q == StIdx);

  acc_idx_unpack #(
    .D      (D),
    .Blocks (1),
    .PW     (PW)
  ) u_unpack (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (sm_start),
    .en_i        (un_en),
    .in_valid_i  (in_valid_i),
    .in_ready_o  (un_in_ready),
    .in_data_i   (in_data_i),
    .idx_valid_o (sm_idx_valid),
    .idx_ready_i (sm_idx_ready),
    .idx_o       (sm_idx),
    .last_o      (un_last)
  );

  always_comb begin
    state_d     = state_q;
    idx_d       = idx_q;
    out_v_d     = out_v_q;
    sm_start    = 1'b0;
    sm_in_valid = 1'b0;
    in_ready_o  = 1'b0;
    done_o      = 1'b0;
    we          = 1'b0;
    re          = 1'b0;
    raddr       = '0;

    unique case (state_q)
      StIdle: begin
        if (start_i && op_ok_o) begin
          sm_start = 1'b1;
          state_d  = StIdx;
          idx_d    = '0;
        end
      end

      StIdx: begin
        in_ready_o = un_in_ready;
        if (sm_idx_valid && sm_idx_ready && un_last) begin
          state_d = StRun;
        end
      end

      StRun: begin
        sm_in_valid = in_valid_i;
        in_ready_o  = sm_in_ready;
        we          = sm_out_valid;
        if (sm_out_valid) begin
          idx_d = idx_q + 1'b1;
        end
        if (sm_out_last) begin
          state_d = StOut;
          idx_d   = '0;
          re      = 1'b1;  // c's word 0
          out_v_d = 1'b1;
        end
      end

      StOut: begin
        if (out_ready_i) begin
          idx_d = idx_q + 1'b1;
          re    = 1'b1;
          raddr = idx_q + 1'b1;
          if (idx_q == Last) begin
            state_d = StIdle;
            out_v_d = 1'b0;
            re      = 1'b0;
            done_o  = 1'b1;
          end
        end
      end

      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      idx_q   <= '0;
      out_v_q <= 1'b0;
    end else begin
      state_q <= state_d;
      idx_q   <= idx_d;
      out_v_q <= out_v_d;
    end
  end

  assign out_valid_o = out_v_q;
  assign out_data_o  = rdata;

  bike_ram_sdp #(
    .Width (W),
    .Depth (N)
  ) u_buf (
    .clk_i   (clk_i),
    .we_i    (we),
    .waddr_i (idx_q),
    .wdata_i (sm_out),
    .re_i    (re),
    .raddr_i (raddr),
    .rdata_o (rdata)
  );

  logic sm_busy;

  sparse_mul #(
    .R      (R),
    .D      (D),
    .W      (W),
    .P      (P),
    .Counts (1'b0)
  ) u_sparse (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (sm_start),
    .rounds_i    (CntW'(G)),
    .bias_i      ('0),
    .prod_i      (1'b0),
    .busy_o      (sm_busy),
    .idx_ready_o (sm_idx_ready),
    .idx_valid_i (sm_idx_valid),
    .idx_i       (sm_idx),
    .idx_en_i    (1'b1),
    .in_ready_o  (sm_in_ready),
    .in_valid_i  (sm_in_valid),
    .in_data_i   (in_data_i),
    .out_valid_o (sm_out_valid),
    .out_data_o  (sm_out),
    .out_last_o  (sm_out_last)
  );

  logic unused;
  assign unused = sm_busy;

endmodule
