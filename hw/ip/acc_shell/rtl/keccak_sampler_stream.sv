// The Keccak and the fixed-weight sampler on the shell's operation-core
// interface (doc/acc_shell.md): libbike's sampling and hashing functions on
// one keccak_core, shared by sampler_ctrl (SHAKE256) and the SHA3-384 path.
//
//   1 KEYGEN  bike_sample_keygen: seed (4 words) -> h0's then h1's D
//             positions (ND words each, two a word, an odd D's unused half 0)
//   2 H       bike_function_h: m (4 words) -> e0, e1 (N words each)
//   3 L       bike_function_l: e0, e1 (N words each) -> 4 words (32 bytes)
//   4 K       bike_function_k: m (4 words), then ct's bytes (c0 || c1,
//             KWords - 4 words, little-endian) -> 4 words (32 bytes)
//
// KEYGEN and H: the seed is kept in 4 words while the sampler absorbs it;
// the positions go, by their draw index, into two position memories (even
// and odd index). KEYGEN reads both at once, a word of two positions. H
// clears an e memory of 2N words before sampling, then sets each position's
// bit (a read-modify-write of 3 cycles, the same for every position), and
// reads e0 || e1 out. L: e0's words go straight to the Keccak, e1's are
// moved up by the LastB bytes of e0's last word (r_bytes is not a multiple
// of 8: L hashes e0's and e1's bytes back to back). K: the words are the
// message as they come. The first 4 of SHA3-384's 6 lanes leave; the last 2
// are dropped. Every schedule depends on the level only.
module keccak_sampler_stream #(
  parameter int unsigned R              = 12323,
  parameter int unsigned D              = 71,
  parameter int unsigned T              = 134,
  parameter int unsigned RoundsPerCycle = 2,
  localparam int unsigned W      = 64,
  localparam int unsigned N      = (R + W - 1) / W,
  localparam int unsigned ND     = (D + 1) / 2,
  localparam int unsigned RB     = (R + 7) / 8,
  localparam int unsigned LastB  = RB - 8 * (N - 1),     // bytes in a polynomial's last word
  localparam int unsigned KBytes = 32 + RB + 32,        // K's message: m || c0 || c1
  localparam int unsigned KWords = (KBytes + 7) / 8,
  localparam int unsigned PosW   = 17,
  localparam int unsigned IdxW   = 9,
  localparam int unsigned PDepth = (2 * ND > (T + 1) / 2) ? 2 * ND : (T + 1) / 2,
  localparam int unsigned PAW    = $clog2(PDepth),
  localparam int unsigned EAW    = $clog2(2 * N),
  localparam int unsigned OpW    = 8,
  localparam int unsigned CntW   = 16
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

  initial begin
    assert (LastB >= 1 && LastB < 8) else $error("r_bytes must not be a multiple of 8");
    assert (2 * R < (1 << PosW)) else $error("positions need more than PosW bits");
  end

  localparam logic [OpW-1:0] OpKeygen = 8'd1;
  localparam logic [OpW-1:0] OpH      = 8'd2;
  localparam logic [OpW-1:0] OpL      = 8'd3;
  localparam logic [OpW-1:0] OpK      = 8'd4;
  // L: e1's words shifted by LastB bytes; 2 LastB > 8 leaves a tail word
  localparam int unsigned    Sh       = 8 * LastB;
  localparam bit             LTail    = (2 * LastB > 8);
  localparam logic [3:0]     LLastB   = LTail ? 4'(2 * LastB - 8) : 4'(2 * LastB);
  localparam logic [3:0]     KLastB   = 4'(KBytes - 8 * (KWords - 1));

  always_comb begin
    op_ok_o     = 1'b1;
    in_words_o  = '0;
    out_words_o = '0;
    unique case (op_i)
      OpKeygen: begin
        in_words_o  = CntW'(4);
        out_words_o = CntW'(2 * ND);
      end
      OpH: begin
        in_words_o  = CntW'(4);
        out_words_o = CntW'(2 * N);
      end
      OpL: begin
        in_words_o  = CntW'(2 * N);
        out_words_o = CntW'(4);
      end
      OpK: begin
        in_words_o  = CntW'(KWords);
        out_words_o = CntW'(4);
      end
      default: op_ok_o = 1'b0;
    endcase
  end
  assign err_o = 1'b0;  // no operation can fail

  typedef enum logic [3:0] {
    StIdle,
    StSeed,    // KEYGEN, H: the seed's 4 words
    StClear,   // H: e0 || e1 := 0
    StSample,  // KEYGEN, H: the sampler's positions into the position memories
    StDense,   // H: a bit per position into e0 || e1
    StOutPos,  // KEYGEN: the positions out
    StOutE,    // H: e0 || e1 out
    StHash,    // L, K: the message into the Keccak
    StTail,    // L: the message's last bytes
    StSqueeze  // L, K: the digest's 4 lanes out, 2 dropped
  } state_e;

  state_e          state_q, state_d;
  logic [OpW-1:0]  op_q, op_d;
  logic [CntW-1:0] cnt_q, cnt_d;       // words in or out; positions set
  logic [1:0]      ph_q, ph_d;         // StDense: step of a position
  logic [2:0]      lane_q, lane_d;     // StSqueeze: lane
  logic            out_v_q, out_v_d;   // a memory's read data is word cnt
  logic [W-1:0]    seed_q [4], seed_d [4];
  logic [W-1:0]    carry_q, carry_d;   // L: bytes waiting for the next word
  logic [EAW-1:0]  ea_q, ea_d;         // StDense: e word of the position
  logic [5:0]      eb_q, eb_d;         // StDense: its bit

  // sampler_ctrl
  logic            s_start, s_pos_valid, s_pos_set, s_done, s_busy, s_k_start, s_k_stop;
  logic            s_k_in_valid, s_k_in_last, s_k_out_ready;
  logic [1:0]      s_seed_idx;
  logic [IdxW-1:0] s_pos_idx;
  logic [PosW-1:0] s_pos;
  logic [W-1:0]    s_k_in_data;
  // keccak_core, and the SHA3-384 path's side of it
  logic            k_start, k_shake, k_stop, k_busy, k_in_valid, k_in_ready, k_in_last;
  logic            k_out_valid, k_out_ready, k_out_last;
  logic [3:0]      k_in_bytes;
  logic [W-1:0]    k_in_data, k_out_data;
  logic            h_start, h_in_valid, h_in_last, h_out_ready;
  logic [3:0]      h_in_bytes;
  logic [W-1:0]    h_in_data;
  // memories: positions (even and odd draw index), e0 || e1
  logic            pe_we, po_we, p_re, e_we, e_re;
  logic [PAW-1:0]  p_waddr, p_raddr;
  logic [PosW-1:0] pe_rdata, po_rdata;
  logic [EAW-1:0]  e_waddr, e_raddr;
  logic [W-1:0]    e_wdata, e_rdata;
  logic [PosW-1:0] pos;                // StDense: the position read
  logic [PosW-1:0] pos_e1;             // ... as a position of e1
  logic            odd_half;           // StOutPos: an odd D's unused half

  assign pos      = cnt_q[0] ? po_rdata : pe_rdata;
  assign pos_e1   = pos - PosW'(R);
  assign odd_half = (D % 2 == 1) &&
                    (cnt_q == CntW'(ND - 1) || cnt_q == CntW'(2 * ND - 1));

  // the Keccak's starts, outside the FSM's block: its squeeze outputs feed
  // that block, and Verilator sees a block as one node
  assign h_start = (state_q == StIdle) && start_i && (op_i == OpL || op_i == OpK);
  assign s_start = (state_q == StSeed && in_valid_i && cnt_q == CntW'(3) && op_q != OpH) ||
                   (state_q == StClear && cnt_q == CntW'(2 * N - 1));

  always_comb begin
    state_d     = state_q;
    op_d        = op_q;
    cnt_d       = cnt_q;
    ph_d        = ph_q;
    lane_d      = lane_q;
    out_v_d     = out_v_q;
    seed_d      = seed_q;
    carry_d     = carry_q;
    ea_d        = ea_q;
    eb_d        = eb_q;
    in_ready_o  = 1'b0;
    out_valid_o = 1'b0;
    out_data_o  = e_rdata;
    done_o      = 1'b0;
    p_re        = 1'b0;
    p_raddr     = '0;
    e_we        = 1'b0;
    e_waddr     = ea_q;
    e_wdata     = '0;
    e_re        = 1'b0;
    e_raddr     = '0;

    unique case (state_q)
      StIdle: begin
        if (start_i && op_ok_o) begin
          op_d  = op_i;
          cnt_d = '0;
          if (op_i == OpL || op_i == OpK) begin
            state_d = StHash;
          end else begin
            state_d = StSeed;
          end
        end
      end

      StSeed: begin
        in_ready_o = 1'b1;
        if (in_valid_i) begin
          seed_d[cnt_q[1:0]] = in_data_i;
          cnt_d = cnt_q + 1'b1;
          if (cnt_q == CntW'(3)) begin
            cnt_d = '0;
            state_d = (op_q == OpH) ? StClear : StSample;
          end
        end
      end

      StClear: begin
        e_we    = 1'b1;
        e_waddr = EAW'(cnt_q);
        cnt_d   = cnt_q + 1'b1;
        if (cnt_q == CntW'(2 * N - 1)) begin
          cnt_d   = '0;
          state_d = StSample;
        end
      end

      StSample: begin
        if (s_done) begin
          cnt_d = '0;
          ph_d  = '0;
          if (op_q == OpH) begin
            state_d = StDense;
          end else begin
            state_d = StOutPos;
            p_re    = 1'b1;  // word 0
            out_v_d = 1'b1;
          end
        end
      end

      // per position: read it; read its e word; write the word with its bit
      StDense: begin
        ph_d = ph_q + 1'b1;
        unique case (ph_q)
          2'd0: begin
            p_re    = 1'b1;
            p_raddr = PAW'(cnt_q >> 1);
          end
          2'd1: begin
            if (pos < PosW'(R)) begin
              ea_d = EAW'(pos >> 6);
            end else begin
              ea_d = EAW'(N) + EAW'(pos_e1 >> 6);
            end
            eb_d = (pos < PosW'(R)) ? pos[5:0] : pos_e1[5:0];
          end
          2'd2: begin
            e_re    = 1'b1;
            e_raddr = ea_q;
          end
          default: begin
            e_we    = 1'b1;
            e_wdata = e_rdata | (W'(1) << eb_q);
            ph_d    = '0;
            cnt_d   = cnt_q + 1'b1;
            if (cnt_q == CntW'(T - 1)) begin
              state_d = StOutE;
              cnt_d   = '0;
              e_re    = 1'b1;  // e0's word 0
              out_v_d = 1'b1;
            end
          end
        endcase
      end

      StOutPos: begin
        out_valid_o = out_v_q;
        out_data_o  = {15'd0, odd_half ? PosW'(0) : po_rdata, 15'd0, pe_rdata};
        if (out_ready_i) begin
          cnt_d   = cnt_q + 1'b1;
          p_re    = 1'b1;
          p_raddr = PAW'(cnt_q + 1'b1);
          if (cnt_q == CntW'(2 * ND - 1)) begin
            state_d = StIdle;
            out_v_d = 1'b0;
            done_o  = 1'b1;
          end
        end
      end

      StOutE: begin
        out_valid_o = out_v_q;
        if (out_ready_i) begin
          cnt_d   = cnt_q + 1'b1;
          e_re    = 1'b1;
          e_raddr = EAW'(cnt_q + 1'b1);
          if (cnt_q == CntW'(2 * N - 1)) begin
            state_d = StIdle;
            out_v_d = 1'b0;
            done_o  = 1'b1;
          end
        end
      end

      // K: the words as they come. L: e0's first N - 1 words as they come,
      // its last kept, then every e1 word behind the bytes kept
      StHash: begin
        if (op_q == OpL && cnt_q == CntW'(N - 1)) begin
          in_ready_o = 1'b1;
          if (in_valid_i) begin
            carry_d = in_data_i;
            cnt_d   = cnt_q + 1'b1;
          end
        end else begin
          in_ready_o = k_in_ready;
          if (in_valid_i && k_in_ready) begin
            cnt_d = cnt_q + 1'b1;
            if (op_q == OpL && cnt_q >= CntW'(N)) begin
              carry_d = in_data_i >> (W - Sh);
            end
            if (cnt_q == ((op_q == OpL) ? CntW'(2 * N - 1) : CntW'(KWords - 1))) begin
              state_d = (op_q == OpL && LTail) ? StTail : StSqueeze;
              lane_d  = '0;
            end
          end
        end
      end

      StTail: begin
        if (k_in_ready) begin
          state_d = StSqueeze;
        end
      end

      StSqueeze: begin
        out_valid_o = k_out_valid && (lane_q < 3'd4);
        out_data_o  = k_out_data;
        if (k_out_valid && h_out_ready) begin
          lane_d = lane_q + 1'b1;
          if (k_out_last) begin
            state_d = StIdle;
            done_o  = 1'b1;
          end
        end
      end

      default: state_d = StIdle;
    endcase
  end

  // The SHA3-384 path's side of the Keccak, in a block of its own (the FSM's
  // block reads the Keccak's outputs). L: e1's words behind e0's last bytes.
  always_comb begin
    h_in_valid  = 1'b0;
    h_in_data   = in_data_i;
    h_in_last   = 1'b0;
    h_in_bytes  = 4'd8;
    h_out_ready = (state_q == StSqueeze) && (lane_q >= 3'd4 || out_ready_i);
    if (state_q == StHash && !(op_q == OpL && cnt_q == CntW'(N - 1))) begin
      h_in_valid = in_valid_i;
      if (op_q == OpL && cnt_q >= CntW'(N)) begin
        h_in_data = carry_q | (in_data_i << Sh);
        h_in_last = !LTail && cnt_q == CntW'(2 * N - 1);
      end else if (op_q == OpK) begin
        h_in_last = (cnt_q == CntW'(KWords - 1));
      end
      h_in_bytes = !h_in_last ? 4'd8 : (op_q == OpL) ? LLastB : KLastB;
    end else if (state_q == StTail) begin
      h_in_valid = 1'b1;
      h_in_data  = carry_q;
      h_in_last  = 1'b1;
      h_in_bytes = LLastB;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      op_q    <= '0;
      cnt_q   <= '0;
      ph_q    <= '0;
      lane_q  <= '0;
      out_v_q <= 1'b0;
      seed_q  <= '{default: '0};
      carry_q <= '0;
      ea_q    <= '0;
      eb_q    <= '0;
    end else begin
      state_q <= state_d;
      op_q    <= op_d;
      cnt_q   <= cnt_d;
      ph_q    <= ph_d;
      lane_q  <= lane_d;
      out_v_q <= out_v_d;
      seed_q  <= seed_d;
      carry_q <= carry_d;
      ea_q    <= ea_d;
      eb_q    <= eb_d;
    end
  end

  // ---------------------------------------------------------------------------
  // The sampler's positions by draw index: KEYGEN's h0 in words 0..ND-1 and
  // h1 in ND..2ND-1, H's T positions in words 0..ceil(T/2)-1
  // ---------------------------------------------------------------------------
  assign p_waddr = PAW'((s_pos_set ? ND : 0) + 32'(s_pos_idx >> 1));
  assign pe_we   = s_pos_valid && !s_pos_idx[0];
  assign po_we   = s_pos_valid && s_pos_idx[0];

  bike_ram_sdp #(
    .Width (PosW),
    .Depth (PDepth)
  ) u_pos_even (
    .clk_i   (clk_i),
    .we_i    (pe_we),
    .waddr_i (p_waddr),
    .wdata_i (s_pos),
    .re_i    (p_re),
    .raddr_i (p_raddr),
    .rdata_o (pe_rdata)
  );

  bike_ram_sdp #(
    .Width (PosW),
    .Depth (PDepth)
  ) u_pos_odd (
    .clk_i   (clk_i),
    .we_i    (po_we),
    .waddr_i (p_waddr),
    .wdata_i (s_pos),
    .re_i    (p_re),
    .raddr_i (p_raddr),
    .rdata_o (po_rdata)
  );

  bike_ram_sdp #(
    .Width (W),
    .Depth (2 * N)
  ) u_e (
    .clk_i   (clk_i),
    .we_i    (e_we),
    .waddr_i (e_waddr),
    .wdata_i (e_wdata),
    .re_i    (e_re),
    .raddr_i (e_raddr),
    .rdata_o (e_rdata)
  );

  // ---------------------------------------------------------------------------
  // The sampler, and the Keccak: the sampler's while KEYGEN or H runs
  // ---------------------------------------------------------------------------
  sampler_ctrl #(
    .R (R),
    .D (D),
    .T (T)
  ) u_sampler (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .start_i       (s_start),
    .mode_i        (op_q == OpH),
    .seed_idx_o    (s_seed_idx),
    .seed_word_i   (seed_q[s_seed_idx]),
    .busy_o        (s_busy),
    .pos_valid_o   (s_pos_valid),
    .pos_set_o     (s_pos_set),
    .pos_idx_o     (s_pos_idx),
    .pos_o         (s_pos),
    .done_o        (s_done),
    .k_start_o     (s_k_start),
    .k_stop_o      (s_k_stop),
    .k_in_valid_o  (s_k_in_valid),
    .k_in_ready_i  (k_in_ready),
    .k_in_data_o   (s_k_in_data),
    .k_in_last_o   (s_k_in_last),
    .k_out_valid_i (k_out_valid),
    .k_out_ready_o (s_k_out_ready),
    .k_out_data_i  (k_out_data)
  );

  // the starts come from the side that owns the operation (op_q is not yet
  // the new operation's when the SHA3-384 path starts)
  logic sampling;
  assign sampling    = (op_q == OpKeygen || op_q == OpH);
  assign k_start     = s_k_start || h_start;
  assign k_shake     = s_k_start;
  assign k_stop      = s_k_stop;
  assign k_in_valid  = sampling ? s_k_in_valid : h_in_valid;
  assign k_in_data   = sampling ? s_k_in_data : h_in_data;
  assign k_in_last   = sampling ? s_k_in_last : h_in_last;
  assign k_in_bytes  = sampling ? 4'd8 : h_in_bytes;
  assign k_out_ready = sampling ? s_k_out_ready : h_out_ready;

  keccak_core #(
    .RoundsPerCycle (RoundsPerCycle)
  ) u_keccak (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (k_start),
    .shake_i     (k_shake),
    .stop_i      (k_stop),
    .busy_o      (k_busy),
    .in_valid_i  (k_in_valid),
    .in_ready_o  (k_in_ready),
    .in_data_i   (k_in_data),
    .in_last_i   (k_in_last),
    .in_bytes_i  (k_in_bytes),
    .out_valid_o (k_out_valid),
    .out_ready_i (k_out_ready),
    .out_data_o  (k_out_data),
    .out_last_o  (k_out_last)
  );

  logic unused;
  assign unused = ^{s_busy, k_busy};

endmodule
