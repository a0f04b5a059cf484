// Fixed-weight sampler of BIKE: SHAKE256(seed) on keccak_core feeds the
// constant-time Fisher-Yates draw of sampler_fy.
//   mode_i = 0 (key generation): D positions in [0, R) for h0, then D for h1
//            from the same stream;
//   mode_i = 1 (function H): T positions in [0, 2R), the error (e0, e1).
// The 32-byte seed (m for H) is given on seed_i (byte k in bits 8k+7:8k)
// from start_i until it is absorbed, before the first position leaves.
// Positions leave on pos_valid_o with their set (0: h0 or H, 1: h1) and
// index i (draw order i = count-1 down to 0); done_o ends the run.
module sampler #(
  parameter int unsigned R              = 12323,
  parameter int unsigned D              = 71,
  parameter int unsigned T              = 134,
  parameter int unsigned RoundsPerCycle = 1,
  localparam int unsigned PosW          = 17,
  localparam int unsigned MaxCount      = 512,
  localparam int unsigned IdxW          = $clog2(MaxCount)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,
  input  logic            mode_i,
  input  logic [255:0]    seed_i,
  output logic            busy_o,
  output logic            pos_valid_o,
  output logic            pos_set_o,
  output logic [IdxW-1:0] pos_idx_o,
  output logic [PosW-1:0] pos_o,
  output logic            done_o
);

  logic        k_start, k_stop, k_in_valid, k_in_ready, k_in_last;
  logic [63:0] k_in_data, k_out_data;
  logic        k_out_valid, k_out_ready, k_out_last, k_busy;
  logic [1:0]  seed_idx;

  sampler_ctrl #(
    .R (R),
    .D (D),
    .T (T)
  ) u_ctrl (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .start_i       (start_i),
    .mode_i        (mode_i),
    .seed_idx_o    (seed_idx),
    .seed_word_i   (seed_i[64 * seed_idx +: 64]),
    .busy_o        (busy_o),
    .pos_valid_o   (pos_valid_o),
    .pos_set_o     (pos_set_o),
    .pos_idx_o     (pos_idx_o),
    .pos_o         (pos_o),
    .done_o        (done_o),
    .k_start_o     (k_start),
    .k_stop_o      (k_stop),
    .k_in_valid_o  (k_in_valid),
    .k_in_ready_i  (k_in_ready),
    .k_in_data_o   (k_in_data),
    .k_in_last_o   (k_in_last),
    .k_out_valid_i (k_out_valid),
    .k_out_ready_o (k_out_ready),
    .k_out_data_i  (k_out_data)
  );

  keccak_core #(
    .RoundsPerCycle (RoundsPerCycle)
  ) u_keccak (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (k_start),
    .shake_i     (1'b1),
    .stop_i      (k_stop),
    .busy_o      (k_busy),
    .in_valid_i  (k_in_valid),
    .in_ready_o  (k_in_ready),
    .in_data_i   (k_in_data),
    .in_last_i   (k_in_last),
    .in_bytes_i  (4'd8),
    .out_valid_o (k_out_valid),
    .out_ready_i (k_out_ready),
    .out_data_o  (k_out_data),
    .out_last_o  (k_out_last)
  );

  // status outputs of keccak_core that the sampler does not need
  logic unused;
  assign unused = ^{k_out_last, k_busy};

endmodule
