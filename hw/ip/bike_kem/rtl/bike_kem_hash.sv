// The two SHA3-384 hashes of BIKE on a shared keccak_core, truncated to
// 32 bytes (bike-spec.md):
//   kind_i = 0: L = SHA3-384(e0 || e1), e0 and e1 R_BYTES each, read from
//               memories A and B;
//   kind_i = 1: K = SHA3-384(m || c0 || c1), c0 (R_BYTES) read from memory C.
// Memory words are N words of 64 bits (bits at or above R zero); R_BYTES is
// not a multiple of 8, so a byte packer re-aligns the words that follow a
// polynomial into the full 64-bit words keccak_core absorbs. m and c1 are
// read a word at a time from the owner's memory (reg_idx_o: m words 0..3,
// c1 words 4..7), and the digest leaves a word at a time (dig_valid_o), so
// that no 256-bit copy of them is kept here. The schedule depends only on R
// (constant time).
module bike_kem_hash #(
  parameter int unsigned R = 12323,
  // derived
  localparam int unsigned N     = (R + 63) / 64,
  localparam int unsigned RB    = (R + 7) / 8,
  localparam int unsigned LastB = RB - 8 * (N - 1),       // bytes in word N-1
  localparam int unsigned AW    = (N > 1) ? $clog2(N) : 1
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          start_i,
  input  logic          kind_i,
  output logic [2:0]    reg_idx_o,  // m (0..3) or c1 (4..7) word, read ...
  input  logic [63:0]   reg_word_i, // ... in the same cycle
  output logic          dig_valid_o, // digest word dig_idx_o (0..3) on dig_o
  output logic [1:0]    dig_idx_o,
  output logic [63:0]   dig_o,
  output logic          done_o,     // one cycle, after the digest words
  // memory reads (A: e0, B: e1, C: c0); read data one cycle after re
  output logic          re_a_o,
  output logic          re_b_o,
  output logic          re_c_o,
  output logic [AW-1:0] raddr_o,
  input  logic [63:0]   rdata_a_i,
  input  logic [63:0]   rdata_b_i,
  input  logic [63:0]   rdata_c_i,
  // keccak_core (master side)
  output logic          k_start_o,
  output logic          k_in_valid_o,
  input  logic          k_in_ready_i,
  output logic [63:0]   k_in_data_o,
  output logic          k_in_last_o,
  output logic [3:0]    k_in_bytes_o,
  input  logic          k_out_valid_i,
  output logic          k_out_ready_o,
  input  logic [63:0]   k_out_data_i,
  input  logic          k_out_last_i
);

  localparam int unsigned CntW = 16;
  localparam int unsigned WordsL = 2 * N;
  localparam int unsigned WordsK = N + 8;
  localparam int unsigned BytesL = 2 * RB;
  localparam int unsigned BytesK = RB + 64;

  initial begin
    assert (LastB >= 1 && LastB <= 8) else $error("R_BYTES / word mismatch");
    assert (BytesK < (1 << CntW)) else $error("byte counter too narrow");
  end

  typedef enum logic [1:0] {
    SrcA,
    SrcB,
    SrcC,
    SrcReg
  } src_e;

  logic            kind_q, kind_d, busy_q, busy_d;
  logic [2:0]      lane_q, lane_d;  // squeezed lane
  logic [CntW-1:0] left_q, left_d;  // message bytes not yet given to keccak

  // ---------------------------------------------------------------------------
  // Message words: (source, address, valid bytes) of word q
  // ---------------------------------------------------------------------------
  logic            rd_re, rd_valid, rd_ready, rd_last;
  logic [CntW-1:0] rd_addr, rd_idx;
  src_e            rd_src;        // source of the word at the read address
  src_e            src_q, src_d;  // ... of the word on the memories' outputs
  logic [AW-1:0]   waddr;
  logic [63:0]     regw_q, regw_d;
  logic [3:0]      rd_nb, nb_q, nb_d;  // its valid bytes
  logic            fed_q, fed_d;  // every message word was taken

  bike_kem_reader #(
    .CntW (CntW)
  ) u_rd (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .start_i (start_i),
    .count_i (kind_i ? CntW'(WordsK) : CntW'(WordsL)),
    .re_o    (rd_re),
    .addr_o  (rd_addr),
    .valid_o (rd_valid),
    .ready_i (rd_ready),
    .idx_o   (rd_idx),
    .last_o  (rd_last)
  );

  always_comb begin
    rd_src    = SrcReg;
    waddr     = '0;
    reg_idx_o = '0;
    rd_nb     = 4'd8;
    if (!kind_q) begin
      if (rd_addr < CntW'(N)) begin
        rd_src = SrcA;
        waddr = AW'(rd_addr);
      end else begin
        rd_src = SrcB;
        waddr = AW'(rd_addr - CntW'(N));
      end
      if (rd_addr == CntW'(N - 1) || rd_addr == CntW'(2 * N - 1)) rd_nb = 4'(LastB);
    end else begin
      if (rd_addr < CntW'(4)) begin
        reg_idx_o = {1'b0, rd_addr[1:0]};
      end else if (rd_addr < CntW'(N + 4)) begin
        rd_src = SrcC;
        waddr = AW'(rd_addr - CntW'(4));
        if (rd_addr == CntW'(N + 3)) rd_nb = 4'(LastB);
      end else begin
        reg_idx_o = {1'b1, 2'(rd_addr - CntW'(N + 4))};
      end
    end
  end

  logic unused_idx;
  assign unused_idx = ^rd_idx;

  assign re_a_o  = rd_re && (rd_src == SrcA);
  assign re_b_o  = rd_re && (rd_src == SrcB);
  assign re_c_o  = rd_re && (rd_src == SrcC);
  assign raddr_o = waddr;

  // ---------------------------------------------------------------------------
  // Byte packer: up to 15 bytes waiting; a full word (or the final partial
  // one) goes to keccak, a message word is taken while fewer than 8 wait.
  // A word lands at byte (bytes taken before it) mod 8, which is 0 or Off:
  // the only short words are the polynomials' last ones (LastB bytes), and
  // at most one precedes any word (e0's in L, c0's in K). So the packer
  // places a word at one of two offsets, not at any of 16.
  // ---------------------------------------------------------------------------
  localparam int unsigned Off = LastB % 8;

  logic [119:0] acc_q, acc_d;
  logic [3:0]   ac_q, ac_d;
  logic [63:0]  in_word, in_mask;
  logic         emit, take, k_last;

  always_comb begin
    unique case (src_q)
      SrcA:    in_word = rdata_a_i;
      SrcB:    in_word = rdata_b_i;
      SrcC:    in_word = rdata_c_i;
      default: in_word = regw_q;
    endcase
    in_mask = (nb_q == 4'd8) ? '1 : 64'((65'd1 << (8 * LastB)) - 65'd1);
  end

  assign k_in_valid_o = busy_q && ((ac_q >= 4'd8) || (fed_q && ac_q != 4'd0));
  // a count of bytes left, not of bytes sent: the last word is an equality,
  // no adder on the way into keccak's absorb
  assign k_last       = (left_q == CntW'(k_in_bytes_o));
  assign k_in_last_o  = k_last;
  assign k_in_bytes_o = (ac_q >= 4'd8) ? 4'd8 : ac_q;
  assign k_in_data_o  = acc_q[63:0];
  assign emit         = k_in_valid_o && k_in_ready_i;
  assign rd_ready     = busy_q && ((ac_q < 4'd8) || emit);
  assign take         = rd_valid && rd_ready;

  always_comb begin
    logic [119:0] a;
    logic [3:0]   c;
    a = emit ? (acc_q >> 64) : acc_q;
    c = emit ? ac_q - 4'd8 : ac_q;
    if (emit && ac_q < 4'd8) c = 4'd0;  // the final partial word
    if (take) begin
      a = a | ((c == 4'd0) ? 120'(in_word & in_mask) : (120'(in_word & in_mask) << (8 * Off)));
      c = c + nb_q;
    end
    acc_d = start_i ? '0 : a;
    ac_d  = start_i ? '0 : c;
  end

  // ---------------------------------------------------------------------------
  // Squeeze: the first 4 of the 6 lanes
  // ---------------------------------------------------------------------------
  assign k_start_o     = start_i;
  assign k_out_ready_o = busy_q;
  assign done_o        = busy_q && k_out_valid_i && k_out_last_i;
  assign dig_valid_o   = busy_q && k_out_valid_i && (lane_q < 3'd4);
  assign dig_idx_o     = lane_q[1:0];
  assign dig_o         = k_out_data_i;

  always_comb begin
    kind_d = kind_q;
    busy_d = busy_q;
    lane_d = lane_q;
    left_d = left_q;
    src_d  = src_q;
    regw_d = regw_q;
    nb_d   = nb_q;
    fed_d  = fed_q;
    if (start_i) begin
      kind_d = kind_i;
      busy_d = 1'b1;
      lane_d = '0;
      left_d = kind_i ? CntW'(BytesK) : CntW'(BytesL);
      fed_d  = 1'b0;
    end else begin
      if (rd_re) begin
        src_d  = rd_src;
        regw_d = (rd_src == SrcReg) ? reg_word_i : '0;  // no stale copy of m
        nb_d   = rd_nb;
      end
      if (take && rd_last) fed_d = 1'b1;
      if (emit) left_d = left_q - CntW'(k_in_bytes_o);
      if (busy_q && k_out_valid_i) lane_d = lane_q + 1'b1;
      if (done_o) busy_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      kind_q <= 1'b0;
      busy_q <= 1'b0;
      lane_q <= '0;
      left_q <= '0;
      src_q  <= SrcReg;
      regw_q <= '0;
      nb_q   <= 4'd8;
      fed_q  <= 1'b0;
      acc_q  <= '0;
      ac_q   <= '0;
    end else begin
      kind_q <= kind_d;
      busy_q <= busy_d;
      lane_q <= lane_d;
      left_q <= left_d;
      src_q  <= src_d;
      regw_q <= regw_d;
      nb_q   <= nb_d;
      fed_q  <= fed_d;
      acc_q  <= acc_d;
      ac_q   <= ac_d;
    end
  end

endmodule
