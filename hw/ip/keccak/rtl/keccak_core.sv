// Keccak-f[1600] sponge with SHA3-384 and SHAKE256.
//
// Absorb: the message arrives as 64-bit little-endian words (in_valid_i /
// in_ready_o); the last word carries in_last_i and in_bytes_i (0..8 valid
// bytes, low bytes first; an empty message is one last word with 0 bytes).
// Padding (domain byte, final 0x80) is applied by the core.
// Squeeze: 64-bit lanes of output in order (out_valid_o / out_ready_i).
// SHA3-384 gives 6 lanes, the last with out_last_o, then returns to idle.
// SHAKE256 gives an endless stream (a permutation after every 17 lanes)
// until stop_i.
// RoundsPerCycle rounds are unrolled: a permutation takes 24 / RoundsPerCycle
// cycles. See ../doc/keccak.md for the schedule and the cycle formulas.
module keccak_core
  import keccak_pkg::*;
#(
  parameter int unsigned RoundsPerCycle = 1,
  localparam int unsigned PermCycles    = NumRounds / RoundsPerCycle,
  localparam int unsigned RoundW        = (PermCycles > 1) ? $clog2(PermCycles) : 1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // command
  input  logic        start_i,
  input  logic        shake_i,     // 1: SHAKE256, 0: SHA3-384 (sampled with start_i)
  input  logic        stop_i,      // ends any operation (a SHAKE256 squeeze)
  output logic        busy_o,
  // absorb stream
  input  logic        in_valid_i,
  output logic        in_ready_o,
  input  logic [63:0] in_data_i,
  input  logic        in_last_i,
  input  logic [3:0]  in_bytes_i,
  // squeeze stream
  output logic        out_valid_o,
  input  logic        out_ready_i,
  output logic [63:0] out_data_o,
  output logic        out_last_o
);

  initial begin
    assert (NumRounds % RoundsPerCycle == 0)
      else $error("RoundsPerCycle must divide 24");
  end

  typedef enum logic [2:0] {
    StIdle,
    StAbsorb,
    StPadNext,
    StPerm,
    StSqueeze
  } state_e;

  state_e state_q, state_d;
  state_e after_q, after_d;          // where a permutation returns to
  logic [1599:0] s_q, s_d;
  logic [4:0]    lane_q, lane_d;
  logic [RoundW-1:0] rnd_q, rnd_d;
  logic          shake_q, shake_d;

  logic [4:0]  rate_last;            // index of the last rate lane
  assign rate_last = rate_last_lane(shake_q);

  // ---------------------------------------------------------------------------
  // Permutation datapath: RoundsPerCycle rounds in a chain
  // ---------------------------------------------------------------------------
  logic [1599:0] chain [RoundsPerCycle + 1];
  assign chain[0] = s_q;

  for (genvar k = 0; k < RoundsPerCycle; k++) begin : gen_round
    logic [63:0] rc;
    logic [RoundsPerCycle-1:0][63:0] rc_tab [PermCycles];
    for (genvar p = 0; p < PermCycles; p++) begin : gen_rc
      assign rc_tab[p][k] = RC[p * RoundsPerCycle + k];
    end
    assign rc = rc_tab[rnd_q][k];

    keccak_round u_round (
      .state_i (chain[k]),
      .rc_i    (rc),
      .state_o (chain[k + 1])
    );
  end

  // ---------------------------------------------------------------------------
  // Control. The state register takes, in the form of its flip-flops, a
  // synchronous clear at start, an enable, and per rate lane either the
  // round output or the lane XOR an absorbed word: the round output reaches
  // the lanes beyond the rate with no multiplexer (1,200 LUT less than a
  // next-state of clear / absorb / round / hold on every bit).
  // ---------------------------------------------------------------------------
  logic        clear, perm, absorb, pad_end;
  logic [63:0] xin, out_lane;

  always_comb begin
    out_lane = '0;
    for (int unsigned i = 0; i < RateShake256; i++) begin
      if (lane_q == 5'(i)) begin
        out_lane = s_q[64*i +: 64];
      end
    end
  end

  always_comb begin
    state_d     = state_q;
    after_d     = after_q;
    lane_d      = lane_q;
    rnd_d       = rnd_q;
    shake_d     = shake_q;
    in_ready_o  = 1'b0;
    out_valid_o = 1'b0;
    out_last_o  = 1'b0;
    clear       = 1'b0;
    perm        = 1'b0;
    absorb      = 1'b0;
    pad_end     = 1'b0;
    xin         = absorb_word(in_data_i, in_last_i, in_bytes_i, shake_q);

    unique case (state_q)
      StIdle: begin
        if (start_i) begin
          state_d = StAbsorb;
          shake_d = shake_i;
          clear   = 1'b1;
          lane_d  = '0;
        end
      end

      StAbsorb: begin
        in_ready_o = 1'b1;
        if (in_valid_i) begin
          absorb = 1'b1;
          if (in_last_i && in_bytes_i < 4'd8) begin
            // domain byte went into this lane: close the block
            pad_end = 1'b1;
            state_d = StPerm;
            after_d = StSqueeze;
            rnd_d   = '0;
          end else if (lane_q == rate_last) begin
            state_d = StPerm;
            after_d = in_last_i ? StPadNext : StAbsorb;
            rnd_d   = '0;
            lane_d  = '0;
          end else begin
            lane_d  = lane_q + 1'b1;
            if (in_last_i) begin
              state_d = StPadNext;
            end
          end
        end
      end

      StPadNext: begin
        // a message that ended on a lane boundary: padding in a lane of its own
        absorb  = 1'b1;
        pad_end = 1'b1;
        xin     = 64'(domain_byte(shake_q));
        state_d = StPerm;
        after_d = StSqueeze;
        rnd_d   = '0;
      end

      StPerm: begin
        perm  = 1'b1;
        rnd_d = rnd_q + 1'b1;
        if (rnd_q == RoundW'(PermCycles - 1)) begin
          state_d = after_q;
          lane_d  = '0;
        end
      end

      StSqueeze: begin
        out_valid_o = 1'b1;
        out_last_o  = !shake_q && (lane_q == 5'd5);
        if (out_ready_i) begin
          if (out_last_o) begin
            state_d = StIdle;
          end else if (lane_q == rate_last) begin
            state_d = StPerm;
            after_d = StSqueeze;
            rnd_d   = '0;
          end else begin
            lane_d = lane_q + 1'b1;
          end
        end
      end

      default: state_d = StIdle;
    endcase

    // stop_i ends any operation (a SHAKE256 squeeze may be mid-permutation)
    if (stop_i) begin
      state_d = StIdle;
    end
  end

  always_comb begin
    s_d = chain[RoundsPerCycle];
    if (!perm) begin
      s_d = s_q;
      for (int unsigned i = 0; i < RateShake256; i++) begin
        if (absorb && lane_q == 5'(i)) begin
          s_d[64*i +: 64] = s_q[64*i +: 64] ^ xin;
        end
      end
      // the final bit of pad10*1, at the top of the last rate lane
      if (pad_end && shake_q) begin
        s_d[64*RateShake256 - 1] = ~s_d[64*RateShake256 - 1];
      end
      if (pad_end && !shake_q) begin
        s_d[64*RateSha3_384 - 1] = ~s_d[64*RateSha3_384 - 1];
      end
    end
  end

  // no reset: the state is cleared when an operation starts
  always_ff @(posedge clk_i) begin
    if (clear) begin
      s_q <= '0;
    end else if (perm || absorb) begin
      s_q <= s_d;
    end
  end

  assign out_data_o = out_lane;
  assign busy_o     = (state_q != StIdle);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      after_q <= StIdle;
      lane_q  <= '0;
      rnd_q   <= '0;
      shake_q <= 1'b0;
    end else begin
      state_q <= state_d;
      after_q <= after_d;
      lane_q  <= lane_d;
      rnd_q   <= rnd_d;
      shake_q <= shake_d;
    end
  end

endmodule
