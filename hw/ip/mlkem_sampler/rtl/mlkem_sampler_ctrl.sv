// Sponge control of mlkem_sampler: one absorbed block (loaded whole at
// start), then permutations and squeezed lanes until the datapath has sent
// its last coefficient (done_i).
//   StIdle    -> StPerm on start_i (load_o: the padded input block)
//   StPerm    PermCycles cycles of RoundsPerCycle rounds, then StSqueeze
//   StSqueeze offers lane lane_o (lane_valid_o) until the datapath takes it
//             (lane_take_i); after the operation's last rate lane, StPerm
// lane_o is one-hot, so the datapath selects the lane without a decoder.
// done_i returns to StIdle from any state (the sponge may be mid-permutation).
module mlkem_sampler_ctrl #(
  parameter int unsigned PermCycles = 24,
  parameter int unsigned Lanes      = 21,  // the largest rate, in lanes
  localparam int unsigned RoundW    = (PermCycles > 1) ? $clog2(PermCycles) : 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              start_i,
  input  logic              done_i,
  input  logic [4:0]        rate_last_i,  // the operation's last rate lane
  input  logic              lane_take_i,
  output logic              busy_o,
  output logic              load_o,
  output logic              perm_o,
  output logic [RoundW-1:0] rnd_o,
  output logic              lane_valid_o,
  output logic [Lanes-1:0]  lane_o
);

  typedef enum logic [1:0] {
    StIdle,
    StPerm,
    StSqueeze
  } state_e;

  state_e            state_q, state_d;
  logic [RoundW-1:0] rnd_q, rnd_d;
  logic [Lanes-1:0]  lane_q, lane_d;

  always_comb begin
    state_d      = state_q;
    rnd_d        = rnd_q;
    lane_d       = lane_q;
    load_o       = 1'b0;
    perm_o       = 1'b0;
    lane_valid_o = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (start_i) begin
          load_o  = 1'b1;
          state_d = StPerm;
          rnd_d   = '0;
        end
      end

      StPerm: begin
        perm_o = 1'b1;
        rnd_d  = rnd_q + 1'b1;
        if (rnd_q == RoundW'(PermCycles - 1)) begin
          state_d = StSqueeze;
          lane_d  = Lanes'(1);
        end
      end

      StSqueeze: begin
        lane_valid_o = 1'b1;
        if (lane_take_i) begin
          if (lane_q[rate_last_i]) begin
            state_d = StPerm;
            rnd_d   = '0;
          end else begin
            lane_d = lane_q << 1;
          end
        end
      end

      default: state_d = StIdle;
    endcase

    if (done_i) begin
      state_d = StIdle;
    end
  end

  assign busy_o = (state_q != StIdle);
  assign rnd_o  = rnd_q;
  assign lane_o = lane_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      rnd_q   <= '0;
      lane_q  <= '0;
    end else begin
      state_q <= state_d;
      rnd_q   <= rnd_d;
      lane_q  <= lane_d;
    end
  end

endmodule
