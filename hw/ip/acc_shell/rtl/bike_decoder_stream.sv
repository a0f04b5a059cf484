// bike_decoder on the shell's operation-core interface (doc/acc_shell.md).
//
// Operation 1 (DECODE): libbike's bike_decode. Input: h0's D positions, then
// h1's (each block in ND = ceil(D/2) words, two positions a word:
// acc_idx_unpack), then the syndrome s's N words (libbike's word layout);
// output: e0's N words, e1's N words, then one word: all ones if the final
// syndrome is zero (decoded), 0 if not, bike_decode's return value.
//
// A decoding failure is a normal, secret-dependent outcome: it is reported
// in that result word only, never as STATUS.ERROR, so the status, the
// interrupt, the word counts and the cycles are the same for every input.
//
// bike_decoder gives e0 and e1 without back-pressure, so one 2N-word memory
// holds them until the shell takes them:
//
//   StIdx   the 2D positions to the decoder
//   StIn    s's words to the decoder
//   StRun   the decoder runs; e0's and e1's words into the memory
//   StOut   the memory's words to the shell
//   StFlag  the result word; done when it is taken
module bike_decoder_stream #(
  parameter int unsigned R = 12323,
  parameter int unsigned D = 71,
  parameter int unsigned P = 8,
  localparam int unsigned W    = 64,
  localparam int unsigned N    = (R + W - 1) / W,
  localparam int unsigned ND   = (D + 1) / 2,
  localparam int unsigned PW   = $clog2(R),
  localparam int unsigned AW   = $clog2(2 * N),
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

  localparam logic [OpW-1:0] OpDecode = 8'd1;
  localparam logic [AW-1:0]  Last     = AW'(2 * N - 1);

  assign op_ok_o     = (op_i == OpDecode);
  assign in_words_o  = op_ok_o ? CntW'(2 * ND + N) : '0;
  assign out_words_o = op_ok_o ? CntW'(2 * N + 1) : '0;
  assign err_o       = 1'b0;  // a failure to decode is a result, not an error

  typedef enum logic [2:0] {
    StIdle,
    StIdx,
    StIn,
    StRun,
    StOut,
    StFlag
  } state_e;

  state_e        state_q, state_d;
  logic [AW-1:0] idx_q, idx_d;      // word of e0 || e1 (written or taken)
  logic          out_v_q, out_v_d;  // the memory's read data is word idx
  logic          ok_q, ok_d;        // the final syndrome is zero

  logic          dec_start, dec_idx_ready, dec_idx_valid, dec_idx_last;
  logic          dec_in_ready, dec_in_valid, dec_out_valid, dec_out_last, dec_ok;
  logic [W-1:0]  dec_out;
  logic [PW-1:0] dec_idx;
  logic          un_en, un_in_ready;
  logic          we, re;
  logic [AW-1:0] raddr;
  logic [W-1:0]  rdata;

  assign un_en = (state_q == StIdx);

  acc_idx_unpack #(
    .D      (D),
    .Blocks (2),
    .PW     (PW)
  ) u_unpack (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (dec_start),
    .en_i        (un_en),
    .in_valid_i  (in_valid_i),
    .in_ready_o  (un_in_ready),
    .in_data_i   (in_data_i),
    .idx_valid_o (dec_idx_valid),
    .idx_ready_i (dec_idx_ready),
    .idx_o       (dec_idx),
    .last_o      (dec_idx_last)
  );

  always_comb begin
    state_d      = state_q;
    idx_d        = idx_q;
    out_v_d      = out_v_q;
    ok_d         = ok_q;
    dec_start    = 1'b0;
    dec_in_valid = 1'b0;
    in_ready_o   = 1'b0;
    done_o       = 1'b0;
    we           = 1'b0;
    re           = 1'b0;
    raddr        = '0;

    unique case (state_q)
      StIdle: begin
        if (start_i && op_ok_o) begin
          dec_start = 1'b1;
          state_d   = StIdx;
          idx_d     = '0;
        end
      end

      StIdx: begin
        in_ready_o = un_in_ready;
        if (dec_idx_valid && dec_idx_ready && dec_idx_last) begin
          state_d = StIn;
        end
      end

      StIn: begin
        dec_in_valid = in_valid_i;
        in_ready_o   = dec_in_ready;
        if (in_valid_i && dec_in_ready) begin
          idx_d = idx_q + 1'b1;
          if (idx_q == AW'(N - 1)) begin
            state_d = StRun;
            idx_d   = '0;
          end
        end
      end

      StRun: begin
        we = dec_out_valid;
        if (dec_out_valid) begin
          idx_d = idx_q + 1'b1;
        end
        if (dec_out_last) begin
          state_d = StOut;
          idx_d   = '0;
          ok_d    = dec_ok;
          re      = 1'b1;  // e0's word 0
          out_v_d = 1'b1;
        end
      end

      StOut: begin
        if (out_ready_i) begin
          idx_d = idx_q + 1'b1;
          re    = 1'b1;
          raddr = idx_q + 1'b1;
          if (idx_q == Last) begin
            state_d = StFlag;
            re      = 1'b0;
          end
        end
      end

      StFlag: begin
        if (out_ready_i) begin
          state_d = StIdle;
          out_v_d = 1'b0;
          done_o  = 1'b1;
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
      ok_q    <= 1'b0;
    end else begin
      state_q <= state_d;
      idx_q   <= idx_d;
      out_v_q <= out_v_d;
      ok_q    <= ok_d;
    end
  end

  assign out_valid_o = out_v_q;
  assign out_data_o  = (state_q == StFlag) ? {W{ok_q}} : rdata;

  bike_ram_sdp #(
    .Width (W),
    .Depth (2 * N)
  ) u_buf (
    .clk_i   (clk_i),
    .we_i    (we),
    .waddr_i (idx_q),
    .wdata_i (dec_out),
    .re_i    (re),
    .raddr_i (raddr),
    .rdata_o (rdata)
  );

  logic dec_busy;

  bike_decoder #(
    .R (R),
    .D (D),
    .W (W),
    .P (P)
  ) u_dec (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (dec_start),
    .mul_i       (1'b0),
    .busy_o      (dec_busy),
    .idx_ready_o (dec_idx_ready),
    .idx_valid_i (dec_idx_valid),
    .idx_i       (dec_idx),
    .idx_en_i    (1'b1),
    .idx_last_i  (dec_idx_last),
    .in_ready_o  (dec_in_ready),
    .in_valid_i  (dec_in_valid),
    .in_data_i   (in_data_i),
    .out_valid_o (dec_out_valid),
    .out_data_o  (dec_out),
    .out_last_o  (dec_out_last),
    .ok_o        (dec_ok)
  );

  logic unused;
  assign unused = dec_busy;

endmodule
