// gf2x_inv on the shell's operation-core interface (doc/acc_shell.md).
//
// Operation 1 (INV): c = a^-1 mod (x^R - 1). Input: a's N words (64-bit,
// the libbike layout); output: c's N words. a must have odd weight (a unit):
// the words' parity is taken on the way in, and an even weight ends the
// operation with err_o (the result words are still given, and meaningless).
// gf2x_inv gives its result without back-pressure, so an N-word memory holds
// c until the shell takes it:
//
//   StIn   a's words to gf2x_inv (started with the operation)
//   StInv  gf2x_inv computes; its result words into the memory
//   StOut  the memory's words to the shell; done with the last one taken
module gf2x_inv_stream #(
  parameter int unsigned R               = 12323,
  parameter int unsigned E               = 16,
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

  localparam logic [OpW-1:0] OpInv = 8'd1;
  localparam logic [AW-1:0]  Last  = AW'(N - 1);

  assign op_ok_o     = (op_i == OpInv);
  assign in_words_o  = op_ok_o ? CntW'(N) : '0;
  assign out_words_o = op_ok_o ? CntW'(N) : '0;

  typedef enum logic [1:0] {
    StIdle,
    StIn,
    StInv,
    StOut
  } state_e;

  state_e        state_q, state_d;
  logic [AW-1:0] idx_q, idx_d;      // word of c (written or taken)
  logic          odd_q, odd_d;      // parity of a's weight so far
  logic          out_v_q, out_v_d;  // the memory's read data is c's word idx

  logic          inv_start, inv_ready, inv_out_valid, inv_out_last, inv_busy, inv_overrun;
  logic [W-1:0]  inv_out;
  logic          re;
  logic [AW-1:0] raddr;
  logic [W-1:0]  rdata;

  always_comb begin
    state_d    = state_q;
    idx_d      = idx_q;
    odd_d      = odd_q;
    out_v_d    = out_v_q;
    inv_start  = 1'b0;
    in_ready_o = 1'b0;
    done_o     = 1'b0;
    re         = 1'b0;
    raddr      = '0;

    unique case (state_q)
      StIdle: begin
        if (start_i && op_ok_o) begin
          inv_start = 1'b1;
          state_d   = StIn;
          idx_d     = '0;
          odd_d     = 1'b0;
        end
      end

      StIn: begin
        in_ready_o = inv_ready;
        if (in_valid_i && inv_ready) begin
          odd_d = odd_q ^ (^in_data_i);
          idx_d = idx_q + 1'b1;
          if (idx_q == Last) begin
            state_d = StInv;
            idx_d   = '0;
          end
        end
      end

      StInv: begin
        if (inv_out_valid) begin
          idx_d = idx_q + 1'b1;
        end
        if (inv_out_last) begin
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
      odd_q   <= 1'b0;
      out_v_q <= 1'b0;
    end else begin
      state_q <= state_d;
      idx_q   <= idx_d;
      odd_q   <= odd_d;
      out_v_q <= out_v_d;
    end
  end

  // an even weight has no inverse; overrun flags a broken unit schedule
  assign err_o       = !odd_q || inv_overrun;
  assign out_valid_o = out_v_q;
  assign out_data_o  = rdata;

  bike_ram_sdp #(
    .Width (W),
    .Depth (N)
  ) u_buf (
    .clk_i   (clk_i),
    .we_i    (inv_out_valid),
    .waddr_i (idx_q),
    .wdata_i (inv_out),
    .re_i    (re),
    .raddr_i (raddr),
    .rdata_o (rdata)
  );

  gf2x_inv #(
    .R               (R),
    .W               (W),
    .E               (E),
    .KaratsubaLevels (KaratsubaLevels),
    .ParallelLevels  (ParallelLevels)
  ) u_inv (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (inv_start),
    .busy_o      (inv_busy),
    .overrun_o   (inv_overrun),
    .in_ready_o  (inv_ready),
    .in_valid_i  (in_valid_i && state_q == StIn),
    .in_data_i   (in_data_i),
    .out_valid_o (inv_out_valid),
    .out_data_o  (inv_out),
    .out_last_o  (inv_out_last)
  );

  logic unused;
  assign unused = inv_busy;

endmodule
