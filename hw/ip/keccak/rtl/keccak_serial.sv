// Keccak-f[1600] sponge with SHA3-384 and SHAKE256, one 64-bit lane per
// cycle: the same ports and stream protocol as keccak_core, for a fraction
// of its area (the state in distributed RAM, a datapath of one lane).
//
// A round is two passes over the 25 lanes:
//   rho-pi pass: B[pi(i)] = rotl(A[i] ^ D[x], rho[i]), i = x + 5 y;
//   chi pass:    A[i] = B[i] ^ (~B[x+1, y] & B[x+2, y]) (^ RC on lane 0),
//                and the column parities C of the new A on the way;
// with one cycle between them that turns C into theta's D in place. A
// permutation starts with a parity pass over A (absorbing changed it):
// 25 + 24 x 51 = 1,249 cycles. C and D live in a ring of five lane
// registers that turns once per lane, so the lane being processed always
// meets its own column at position 0.
//
// A is not cleared at start: a live bit per lane makes a lane read as zero
// until it is written. Padding takes a cycle of its own when its final bit
// falls in another lane than the domain byte. See ../doc/keccak.md for the
// cycle formulas.
module keccak_serial
  import keccak_pkg::*;
(
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

  localparam int unsigned Lanes = 25;

  // destination of lane x + 5 y under pi: (x, y) -> (y, 2x + 3y)
  function automatic logic [Lanes-1:0][4:0] pi_dest();
    logic [Lanes-1:0][4:0] dst;
    for (int unsigned x = 0; x < 5; x++) begin
      for (int unsigned y = 0; y < 5; y++) begin
        dst[x + 5 * y] = 5'(y + 5 * ((2 * x + 3 * y) % 5));
      end
    end
    return dst;
  endfunction
  localparam logic [Lanes-1:0][4:0] PiDest = pi_dest();

  typedef enum logic [3:0] {
    StIdle,
    StAbsorb,
    StPadNext,    // a message that ended on a lane boundary: the domain byte
    StPadEnd,     // the final bit of pad10*1, in the last rate lane
    StParity,     // C = column parities of A
    StTheta,      // C -> D
    StRhoPi,
    StChi,
    StSqueeze
  } state_e;

  state_e state_q, state_d;
  state_e after_q, after_d;          // where a permutation returns to
  logic [4:0] lane_q, lane_d;        // sponge lane (absorb, squeeze)
  logic [4:0] idx_q, idx_d;          // lane of a pass
  logic [2:0] x_q, x_d;              // idx = x + 5 y during a pass
  logic [4:0] row_q, row_d;          // 5 y
  logic [4:0] rnd_q, rnd_d;
  logic       shake_q, shake_d;
  logic [Lanes-1:0] live_q, live_d;  // lane written since start

  logic [4:0] rate_last;
  assign rate_last = rate_last_lane(shake_q);

  // ---------------------------------------------------------------------------
  // State memories: A (the sponge state) and B (a round's rho-pi output)
  // ---------------------------------------------------------------------------
  logic [63:0] a_mem [Lanes];
  logic [63:0] b_mem [Lanes];
  logic        a_we, b_we;
  logic [4:0]  a_waddr, a_raddr, b_waddr;
  logic [63:0] a_wdata, b_wdata, a_rdata;
  logic [4:0]  b_raddr1, b_raddr2;

  always_ff @(posedge clk_i) begin
    if (a_we) a_mem[a_waddr] <= a_wdata;
    if (b_we) b_mem[b_waddr] <= b_wdata;
  end
  assign a_rdata = live_q[a_raddr] ? a_mem[a_raddr] : '0;

  // ---------------------------------------------------------------------------
  // Lane datapath
  // ---------------------------------------------------------------------------
  logic [4:0][63:0] c_q, c_d;  // ring: C (or D) of the current column at 0

  function automatic logic [63:0] rotl(logic [63:0] v, logic [5:0] n);
    return (v << n) | (v >> (7'd64 - 7'(n)));
  endfunction

  logic [63:0] theta_lane, rho_lane, chi_lane;
  assign theta_lane = a_rdata ^ c_q[0];
  assign rho_lane   = rotl(theta_lane, Rho[idx_q]);

  // the other two lanes of chi: x + 1 and x + 2 of the same row
  logic [2:0] x1, x2;
  assign x1       = (x_q == 3'd4) ? 3'd0 : x_q + 3'd1;
  assign x2       = (x_q >= 3'd3) ? x_q - 3'd3 : x_q + 3'd2;
  assign b_raddr1 = row_q + 5'(x1);
  assign b_raddr2 = row_q + 5'(x2);
  assign chi_lane = b_mem[idx_q] ^ (~b_mem[b_raddr1] & b_mem[b_raddr2])
                  ^ ((idx_q == '0) ? RC[rnd_q] : '0);

  localparam logic [63:0] EndBit = 64'h8000_0000_0000_0000;

  // ---------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------
  logic pass_last;
  assign pass_last = (idx_q == 5'(Lanes - 1));

  always_comb begin
    state_d     = state_q;
    after_d     = after_q;
    lane_d      = lane_q;
    idx_d       = idx_q;
    x_d         = x_q;
    row_d       = row_q;
    rnd_d       = rnd_q;
    shake_d     = shake_q;
    live_d      = live_q;
    c_d         = c_q;
    in_ready_o  = 1'b0;
    out_valid_o = 1'b0;
    out_last_o  = 1'b0;
    a_we        = 1'b0;
    a_waddr     = lane_q;
    a_raddr     = lane_q;
    a_wdata     = '0;
    b_we        = 1'b0;
    b_waddr     = PiDest[idx_q];
    b_wdata     = rho_lane;

    // a pass walks idx = x + 5 y; the ring of C turns with it, each column
    // taking v into its register (load in the first row, XOR after)
    if (state_q inside {StParity, StRhoPi, StChi}) begin
      idx_d = idx_q + 1'b1;
      x_d   = (x_q == 3'd4) ? 3'd0 : x_q + 3'd1;
      row_d = (x_q == 3'd4) ? row_q + 5'd5 : row_q;
      if (pass_last) begin
        idx_d = '0;
        x_d   = '0;
        row_d = '0;
      end
    end

    unique case (state_q)
      StIdle: begin
        if (start_i) begin
          state_d = StAbsorb;
          shake_d = shake_i;
          live_d  = '0;
          lane_d  = '0;
          idx_d   = '0;  // stop_i may have ended a pass midway
          x_d     = '0;
          row_d   = '0;
        end
      end

      StAbsorb: begin
        in_ready_o = 1'b1;
        if (in_valid_i) begin
          a_we    = 1'b1;
          a_wdata = a_rdata ^ absorb_word(in_data_i, in_last_i, in_bytes_i, shake_q);
          live_d[lane_q] = 1'b1;
          if (in_last_i && in_bytes_i < 4'd8) begin
            // the domain byte went into this lane: close the block
            after_d = StSqueeze;
            if (lane_q == rate_last) begin
              a_wdata = a_wdata ^ EndBit;
              state_d = StParity;
            end else begin
              state_d = StPadEnd;
            end
          end else if (lane_q == rate_last) begin
            state_d = StParity;
            after_d = in_last_i ? StPadNext : StAbsorb;
            lane_d  = '0;
          end else begin
            lane_d = lane_q + 1'b1;
            if (in_last_i) begin
              state_d = StPadNext;
            end
          end
        end
      end

      StPadNext: begin
        a_we    = 1'b1;
        a_wdata = a_rdata ^ 64'(domain_byte(shake_q));
        live_d[lane_q] = 1'b1;
        after_d = StSqueeze;
        if (lane_q == rate_last) begin
          a_wdata = a_wdata ^ EndBit;
          state_d = StParity;
        end else begin
          state_d = StPadEnd;
        end
      end

      StPadEnd: begin
        a_raddr = rate_last;
        a_waddr = rate_last;
        a_we    = 1'b1;
        a_wdata = a_rdata ^ EndBit;
        live_d[rate_last] = 1'b1;
        state_d = StParity;
      end

      StParity: begin
        a_raddr = idx_q;
        c_d     = {(idx_q < 5'd5) ? a_rdata : c_q[0] ^ a_rdata, c_q[4:1]};
        if (pass_last) begin
          state_d = StTheta;
          rnd_d   = '0;
        end
      end

      StTheta: begin
        // D[x] = C[x - 1] ^ rotl(C[x + 1], 1), every column at once
        for (int unsigned x = 0; x < 5; x++) begin
          c_d[x] = c_q[(x + 4) % 5] ^ rotl(c_q[(x + 1) % 5], 6'd1);
        end
        state_d = StRhoPi;
      end

      StRhoPi: begin
        a_raddr = idx_q;
        b_we    = 1'b1;
        c_d     = {c_q[0], c_q[4:1]};  // the next column's D to 0
        if (pass_last) begin
          state_d = StChi;
        end
      end

      StChi: begin
        a_waddr = idx_q;
        a_we    = 1'b1;
        a_wdata = chi_lane;
        live_d[idx_q] = 1'b1;
        c_d     = {(idx_q < 5'd5) ? chi_lane : c_q[0] ^ chi_lane, c_q[4:1]};
        if (pass_last) begin
          if (rnd_q == 5'(NumRounds - 1)) begin
            state_d = after_q;
            lane_d  = '0;
          end else begin
            state_d = StTheta;
            rnd_d   = rnd_q + 1'b1;
          end
        end
      end

      StSqueeze: begin
        out_valid_o = 1'b1;
        out_last_o  = !shake_q && (lane_q == 5'd5);
        if (out_ready_i) begin
          if (out_last_o) begin
            state_d = StIdle;
          end else if (lane_q == rate_last) begin
            state_d = StParity;
            after_d = StSqueeze;
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

  assign out_data_o = a_rdata;
  assign busy_o     = (state_q != StIdle);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      after_q <= StIdle;
      lane_q  <= '0;
      idx_q   <= '0;
      x_q     <= '0;
      row_q   <= '0;
      rnd_q   <= '0;
      shake_q <= 1'b0;
      live_q  <= '0;
      c_q     <= '0;
    end else begin
      state_q <= state_d;
      after_q <= after_d;
      lane_q  <= lane_d;
      idx_q   <= idx_d;
      x_q     <= x_d;
      row_q   <= row_d;
      rnd_q   <= rnd_d;
      shake_q <= shake_d;
      live_q  <= live_d;
      c_q     <= c_d;
    end
  end

endmodule
