// Sequencing of the fixed-weight sampler without its Keccak: absorbs the
// seed into an external keccak_core (SHAKE256), splits its lanes into
// 32-bit words for sampler_fy, runs the draws and stops the squeeze.
// The seed is not stored here: its word seed_idx_o (0..3) is read from
// seed_word_i in the same cycle while StAbsorb lasts, so the owner's copy
// (bike_kem's message memory) is the only one.
// `sampler` pairs it with its own keccak_core; bike_kem shares one
// keccak_core between it and SHA3-384.
module sampler_ctrl #(
  parameter int unsigned R              = 12323,
  parameter int unsigned D              = 71,
  parameter int unsigned T              = 134,
  localparam int unsigned PosW          = 17,
  localparam int unsigned MaxCount      = 512,
  localparam int unsigned IdxW          = $clog2(MaxCount)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,
  input  logic            mode_i,
  output logic [1:0]      seed_idx_o,
  input  logic [63:0]     seed_word_i,
  output logic            busy_o,
  output logic            pos_valid_o,
  output logic            pos_set_o,
  output logic [IdxW-1:0] pos_idx_o,
  output logic [PosW-1:0] pos_o,
  output logic            done_o,
  // keccak_core (master side; the sampler absorbs with in_bytes 8 only)
  output logic            k_start_o,
  output logic            k_stop_o,
  output logic            k_in_valid_o,
  input  logic            k_in_ready_i,
  output logic [63:0]     k_in_data_o,
  output logic            k_in_last_o,
  input  logic            k_out_valid_i,
  output logic            k_out_ready_o,
  input  logic [63:0]     k_out_data_i
);

  initial begin
    assert (2 * R < (1 << PosW)) else $error("positions need more than PosW bits");
    assert (T <= MaxCount && D <= MaxCount) else $error("MaxCount too small");
  end

  typedef enum logic [2:0] {
    StIdle,
    StAbsorb,
    StStart,
    StRun,
    StStop
  } state_e;

  state_e       state_q, state_d;
  logic         mode_q, mode_d;
  logic         set_q, set_d;
  logic [1:0]   lane_q, lane_d;

  // keccak_core
  logic        k_start, k_stop, k_in_valid, k_in_ready, k_in_last;
  logic [63:0] k_in_data, k_out_data;
  logic        k_out_valid, k_out_ready;

  assign k_start_o     = k_start;
  assign k_stop_o      = k_stop;
  assign k_in_valid_o  = k_in_valid;
  assign k_in_ready    = k_in_ready_i;
  assign k_in_data_o   = k_in_data;
  assign k_in_last_o   = k_in_last;
  assign k_out_valid   = k_out_valid_i;
  assign k_out_ready_o = k_out_ready;
  assign k_out_data    = k_out_data_i;

  // lane -> 32-bit word buffer
  logic [63:0] buf_q, buf_d;
  logic [1:0]  cnt_q, cnt_d;
  logic        w_valid, w_ready;
  logic [31:0] w_data;

  // sampler_fy
  logic            f_start, f_busy, f_pos_valid, f_done;
  logic [IdxW:0]   f_count;
  logic [PosW-1:0] f_bound;

  always_comb begin
    state_d    = state_q;
    mode_d     = mode_q;
    set_d      = set_q;
    lane_d     = lane_q;
    k_start    = 1'b0;
    k_stop     = 1'b0;
    k_in_valid = 1'b0;
    k_in_last  = (lane_q == 2'd3);
    k_in_data  = seed_word_i;
    f_start    = 1'b0;
    done_o     = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (start_i) begin
          k_start = 1'b1;
          mode_d  = mode_i;
          set_d   = 1'b0;
          lane_d  = '0;
          state_d = StAbsorb;
        end
      end

      StAbsorb: begin
        k_in_valid = 1'b1;
        if (k_in_ready) begin
          lane_d = lane_q + 1'b1;
          if (lane_q == 2'd3) begin
            state_d = StStart;
          end
        end
      end

      StStart: begin
        f_start = 1'b1;
        state_d = StRun;
      end

      StRun: begin
        if (f_done) begin
          if (!mode_q && !set_q) begin
            set_d   = 1'b1;
            state_d = StStart;
          end else begin
            state_d = StStop;
          end
        end
      end

      StStop: begin
        k_stop  = 1'b1;
        done_o  = 1'b1;
        state_d = StIdle;
      end

      default: state_d = StIdle;
    endcase
  end

  assign f_count = mode_q ? (IdxW + 1)'(T) : (IdxW + 1)'(D);
  assign f_bound = mode_q ? PosW'(2 * R) : PosW'(R);

  // word buffer: low word of a lane first; refilled when empty
  always_comb begin
    buf_d       = buf_q;
    cnt_d       = cnt_q;
    k_out_ready = (cnt_q == 2'd0) && (state_q == StRun || state_q == StStart);
    w_valid     = (cnt_q != 2'd0);
    w_data      = (cnt_q == 2'd2) ? buf_q[31:0] : buf_q[63:32];
    if (w_valid && w_ready) begin
      cnt_d = cnt_q - 1'b1;
    end
    if (k_out_ready && k_out_valid) begin
      buf_d = k_out_data;
      cnt_d = 2'd2;
    end
    if (state_q == StIdle) begin
      cnt_d = 2'd0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      mode_q  <= 1'b0;
      set_q   <= 1'b0;
      lane_q  <= '0;
      buf_q   <= '0;
      cnt_q   <= '0;
    end else begin
      state_q <= state_d;
      mode_q  <= mode_d;
      set_q   <= set_d;
      lane_q  <= lane_d;
      buf_q   <= buf_d;
      cnt_q   <= cnt_d;
    end
  end

  sampler_fy #(
    .PosW     (PosW),
    .MaxCount (MaxCount)
  ) u_fy (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .start_i      (f_start),
    .count_i      (f_count),
    .bound_i      (f_bound),
    .busy_o       (f_busy),
    .word_valid_i (w_valid),
    .word_ready_o (w_ready),
    .word_i       (w_data),
    .pos_valid_o  (f_pos_valid),
    .pos_idx_o    (pos_idx_o),
    .pos_o        (pos_o),
    .done_o       (f_done)
  );

  assign seed_idx_o  = lane_q;
  assign pos_valid_o = f_pos_valid;
  assign pos_set_o   = set_q;
  assign busy_o      = (state_q != StIdle);

  // status outputs of the sub-blocks that this top does not need
  logic unused;
  assign unused = f_busy;

endmodule
