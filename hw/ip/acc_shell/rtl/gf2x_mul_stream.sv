// gf2x_mul on the shell's operation-core interface (doc/acc_shell.md).
//
// Operation 1 (MUL): c = a b mod (x^R - 1). Input: a's N words, then b's N
// words (64-bit words, word i = bits 64i..64i+63, the libbike layout); output:
// c's N words. gf2x_mul takes a and b as word pairs and gives its result
// without back-pressure, so one N-word memory holds a while b arrives (a's
// word i is read beside b's word i), then holds c until the shell takes it:
//
//   StA    a's words into the memory (gf2x_mul started, waiting in its load)
//   StB    b's words to gf2x_mul beside a's, read one word ahead
//   StMul  gf2x_mul computes; its result words into the memory
//   StOut  the memory's words to the shell; done with the last one taken
module gf2x_mul_stream #(
  parameter int unsigned R               = 12323,
  parameter int unsigned KaratsubaLevels = 2,
  parameter int unsigned ParallelLevels  = 1,
  localparam int unsigned W    = 64,
  localparam int unsigned N    = (R + W - 1) / W,
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

  localparam logic [OpW-1:0]  OpMul = 8'd1;
  localparam logic [AW-1:0]   Last  = AW'(N - 1);

  assign op_ok_o     = (op_i == OpMul);
  assign in_words_o  = op_ok_o ? CntW'(2 * N) : '0;
  assign out_words_o = op_ok_o ? CntW'(N) : '0;
  assign err_o       = 1'b0;  // a product cannot fail

  typedef enum logic [2:0] {
    StIdle,
    StA,
    StB,
    StMul,
    StOut
  } state_e;

  state_e        state_q, state_d;
  logic [AW-1:0] idx_q, idx_d;      // word of a, b, c (written or taken)
  logic          out_v_q, out_v_d;  // the memory's read data is c's word idx

  logic          mul_start, mul_ready, mul_valid, mul_out_valid, mul_out_last;
  logic [W-1:0]  mul_out;
  logic          we, re;
  logic [AW-1:0] waddr, raddr;
  logic [W-1:0]  wdata, rdata;

  always_comb begin
    state_d    = state_q;
    idx_d      = idx_q;
    out_v_d    = out_v_q;
    mul_start  = 1'b0;
    mul_valid  = 1'b0;
    in_ready_o = 1'b0;
    done_o     = 1'b0;
    we         = 1'b0;
    waddr      = idx_q;
    wdata      = in_data_i;
    re         = 1'b0;
    raddr      = '0;

    unique case (state_q)
      StIdle: begin
        if (start_i && op_ok_o) begin
          mul_start = 1'b1;
          state_d   = StA;
          idx_d     = '0;
        end
      end

      StA: begin
        in_ready_o = 1'b1;
        we         = in_valid_i;
        if (in_valid_i) begin
          idx_d = idx_q + 1'b1;
          if (idx_q == Last) begin
            state_d = StB;
            idx_d   = '0;
            re      = 1'b1;  // a's word 0, beside b's word 0
          end
        end
      end

      StB: begin
        in_ready_o = mul_ready;
        mul_valid  = in_valid_i;
        if (in_valid_i && mul_ready) begin
          idx_d = idx_q + 1'b1;
          re    = 1'b1;  // a's next word
          raddr = idx_q + 1'b1;
          if (idx_q == Last) begin
            state_d = StMul;
            idx_d   = '0;
            re      = 1'b0;
          end
        end
      end

      StMul: begin
        we    = mul_out_valid;
        wdata = mul_out;
        if (mul_out_valid) begin
          idx_d = idx_q + 1'b1;
        end
        if (mul_out_last) begin
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
    .waddr_i (waddr),
    .wdata_i (wdata),
    .re_i    (re),
    .raddr_i (raddr),
    .rdata_o (rdata)
  );

  logic mul_busy;

  gf2x_mul #(
    .R               (R),
    .W               (W),
    .KaratsubaLevels (KaratsubaLevels),
    .ParallelLevels  (ParallelLevels)
  ) u_mul (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (mul_start),
    .sym_i       (1'b0),
    .busy_o      (mul_busy),
    .in_ready_o  (mul_ready),
    .in_valid_i  (mul_valid),
    .in_a_i      (rdata),
    .in_b_i      (in_data_i),
    .out_valid_o (mul_out_valid),
    .out_data_o  (mul_out),
    .out_last_o  (mul_out_last)
  );

  logic unused;
  assign unused = mul_busy;

endmodule
