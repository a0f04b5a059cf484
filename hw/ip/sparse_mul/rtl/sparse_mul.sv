// Sparse-dense multiplication in GF(2)[x]/(x^R - 1), binary or integer.
//
//   Counts = 0 (binary):  c = (sum_i x^idx_i) * a, c_k = XOR_i a_((k - idx_i) mod R)
//                         (libbike bike_gf2x_mul_sparse)
//   Counts = 1 (integer): u_j = sum_i a_((j + idx_i) mod R), the unsatisfied
//                         parity-check counts (libbike bike_upc), K bits each,
//                         plus bias_i mod 2^K (the decoder gives -threshold
//                         and reads a flip from the sign bit: no comparator)
//
// Both are sums of D rotations of the dense operand a. P shift-and-accumulate
// units each take one position per round (ceil(D/P) rounds) and stream the
// rotation of a, W bits per cycle, from their own read port of a doubled copy
// of a (bits [0, 2R) = a || a, so that every rotation window is contiguous:
// word w of the rotation by p is ({A[p/W + w + 1], A[p/W + w]} >> (p mod W))).
// The P windows of a cycle are XORed (binary) or counted per bit position and
// added into K-bit counters (integer), read-modify-write in an accumulator
// memory. The last round streams the result out as it is written.
//
//   Tile = 0: the rounds sweep all N words, over an accumulator of N words
//             (block RAM at W K bits: 13 RAMB18 at W = 64, D = 71).
//   Tile = T: the words are taken T at a time (tiles), every round over one
//             tile before the next tile starts; the accumulator holds T words
//             (distributed RAM for T <= 64), for one more cycle per tile and
//             round (the first read of a rotation window).
//
//   Dual = 1 (with Counts = 1): after the counts, the binary product
//                         c = (sum_i x^idx_i) * b of the same positions with a
//                         second operand b, on the same units and accumulator
//                         (the decoder's counts on s, then h e: the units'
//                         shifters serve both). Prefetch = 1: b loads into a
//                         second set of copies while the last round of counts
//                         runs; 0: b overwrites a once the counts are out
//                         (half the copies, N more cycles)
//                         prod_i = 1 at the start: the binary product alone
//                         (on a; the decoder's products for bike_kem)
//
// One operation (doc/sparse_mul.md):
//   1. positions: D positions in [0, R) (idx_valid_i/idx_ready_o), kept in a
//      small memory per unit (binary: stored as the rotation R - idx); a
//      position given with idx_en_i = 0 is a masked slot that adds nothing
//      (the same cycles: bike_kem masks the e0 positions of function H);
//   2. load: N words of a (in_valid_i/in_ready_o), written twice (a, and a
//      shifted by R) into ceil(P/2) true dual-port copies of 2N words;
//   3. per tile (NT = ceil(N / T) tiles; one tile of N words for Tile = 0),
//      rounds_i (1..G, G = ceil(D/P)) rounds of (tile words + 1) cycles;
//      result words (W bits, or W counters of K bits, counter b of word w in
//      bits bK..bK+K-1) stream out in order during each tile's last round
//      (out_valid_o, out_last_o; no back-pressure). Fewer rounds than G read
//      only the first rounds_i P slots (the decoder's products split their
//      positions over two units).
// cycles = G P + N + 1 + rounds_i (N + NT) + 2, independent of the data.
// Dual: the words of b are taken from the first cycle of the counts' rounds
// on (Prefetch = 0: from the cycle the counts' last word shows); the
// product's rounds start 2 cycles after the last word of b (and after the
// counts' last word), its last word G (N + NT) + 2 cycles later.
module sparse_mul #(
  parameter int unsigned R      = 12323,
  parameter int unsigned D      = 71,    // number of positions (row weight)
  parameter int unsigned W      = 64,
  parameter int unsigned P      = 8,     // shift-and-accumulate units, 1..D
  parameter bit          Counts = 1'b0,  // 0: XOR product, 1: integer counts
  parameter bit          Dual   = 1'b0,  // 1 (Counts = 1): counts, then an XOR product
  parameter bit          Prefetch = 1'b1,  // Dual: b in copies of its own, during the counts
  parameter int unsigned Tile   = 0,     // words per tile (0: all N at once)
  parameter int unsigned K      = $clog2(D + 1),  // counter width, at least clog2(D + 1)
  // derived
  localparam int unsigned N    = (R + W - 1) / W,
  localparam int unsigned G    = (D + P - 1) / P,     // rounds
  localparam int unsigned DP   = G * P,               // position slots
  localparam int unsigned OW   = Counts ? W * K : W,  // result word width
  localparam int unsigned NC   = (P + 1) / 2,         // operand copies
  localparam int unsigned Sh   = R % W,
  localparam int unsigned LW   = $clog2(W),
  localparam int unsigned ND   = (LW + 1) / 2,        // 2-bit digits of a shift
  localparam int unsigned PW   = $clog2(R),
  localparam int unsigned AW   = $clog2(2 * N),       // copy address
  localparam int unsigned MW   = (N > 1) ? $clog2(N) : 1,
  localparam int unsigned TL   = (Tile == 0 || Tile > N) ? N : Tile,  // tile words
  localparam int unsigned NT   = (N + TL - 1) / TL,                    // tiles
  localparam int unsigned TLast = N - (NT - 1) * TL,                   // last tile's words
  localparam int unsigned TAW  = (TL > 1) ? $clog2(TL) : 1,            // accumulator address
  localparam int unsigned CntW = 16
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          start_i,
  input  logic [CntW-1:0] rounds_i,  // sampled with start_i
  input  logic [K-1:0]  bias_i,    // Counts: every counter's start (sampled with start_i)
  input  logic          prod_i,    // Dual: sampled with start_i; 1 = the product only
  output logic          busy_o,
  // positions of the sparse operand
  output logic          idx_ready_o,
  input  logic          idx_valid_i,
  input  logic [PW-1:0] idx_i,
  input  logic          idx_en_i,  // 0: the position adds nothing (a masked slot)
  // dense operand
  output logic          in_ready_o,
  input  logic          in_valid_i,
  input  logic [W-1:0]  in_data_i,
  // result
  output logic          out_valid_o,
  output logic [OW-1:0] out_data_o,
  output logic          out_last_o
);

  initial begin
    assert (W == 32 || W == 64 || W == 128) else $error("W must be 32, 64 or 128");
    assert (P >= 1 && P <= D) else $error("P must be 1..D");
    assert (Sh != 0) else $error("R must not be a multiple of W");
    assert (!Dual || Counts) else $error("Dual needs Counts = 1");
    assert (N + 1 < (1 << CntW) && G * P < (1 << CntW) && G < (1 << CntW))
      else $error("counters too narrow");
    assert (K >= $clog2(D + 1)) else $error("K must hold a count up to D");
  end

  // ---------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------
  typedef enum logic [2:0] {
    StIdle,
    StIdx,
    StLoad,
    StTail,
    StRun,
    StDrain,
    StWait   // Dual: the counts are out; wait for the last word of b
  } state_e;

  localparam logic [CntW-1:0] DrainLast = CntW'(2);  // StDrain: 3 cycles

  state_e          state_q, state_d;
  logic [CntW-1:0] cnt_q, cnt_d;      // position / load word / round step t
  logic [CntW-1:0] bc_q, bc_d;        // base_q + cnt_q: the window word read
  logic            bc_restart;
  logic [CntW-1:0] rnd_q, rnd_d;      // round g
  logic [CntW-1:0] base_q, base_d;    // first word of the tile
  logic [CntW-1:0] last_q, last_d;    // last round of the operation
  logic [K-1:0]    bias_q, bias_d;    // Counts: the counters' start
  logic            shift_in, ld_we, tail_we, issue;
  logic            last_tile;
  // Dual: second operand b and the phase (0: counts, 1: product)
  logic            bin, bin_q, bin_d;
  logic            prod_q, prod_d;    // Dual: the product only (operand in the first set)
  logic            ld2_on_q, ld2_on_d, ld2_we, ld2_tail_q, ld2_tail_d, ld2_done_q, ld2_done_d;
  logic [CntW-1:0] ld2_q, ld2_d;

  assign last_tile = (NT == 1) || (base_q == CntW'((NT - 1) * TL));

  always_comb begin
    state_d     = state_q;
    cnt_d       = cnt_q;
    rnd_d       = rnd_q;
    base_d      = base_q;
    last_d      = last_q;
    bias_d      = bias_q;
    prod_d      = prod_q;
    shift_in    = 1'b0;
    ld_we       = 1'b0;
    tail_we     = 1'b0;
    issue       = 1'b0;
    idx_ready_o = 1'b0;
    in_ready_o  = Dual && ld2_on_q;
    bin_d       = bin_q;
    // bc: base + cnt while the rounds run, kept beside cnt so that a read
    // address is one addition from registers; restarts at the base with cnt
    bc_d        = bc_q;
    bc_restart  = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (start_i) begin
          state_d = StIdx;
          cnt_d   = '0;
          last_d  = rounds_i - 1'b1;
          bias_d  = bias_i;
          prod_d  = Dual && prod_i;
          bin_d   = Dual && prod_i;
        end
      end

      // D positions, then DP - D empty slots
      StIdx: begin
        idx_ready_o = (cnt_q < CntW'(D));
        if (cnt_q >= CntW'(D) || idx_valid_i) begin
          shift_in = 1'b1;
          cnt_d    = cnt_q + 1'b1;
          if (cnt_q == CntW'(DP - 1)) begin
            state_d = StLoad;
            cnt_d   = '0;
          end
        end
      end

      StLoad: begin
        in_ready_o = 1'b1;
        if (in_valid_i) begin
          ld_we = 1'b1;
          cnt_d = cnt_q + 1'b1;
          if (cnt_q == CntW'(N - 1)) begin
            state_d = StTail;
          end
        end
      end

      StTail: begin  // the last word of the second copy
        tail_we    = 1'b1;
        state_d    = StRun;
        bc_restart = 1'b1;
        cnt_d      = '0;
        rnd_d   = '0;
        base_d  = '0;
      end

      // cnt_q = t reads window word base + t; t >= 1 forms word base + t - 1
      StRun: begin
        issue = 1'b1;
        cnt_d = cnt_q + 1'b1;
        bc_d  = bc_q + 1'b1;
        if (cnt_q == (last_tile ? CntW'(TLast) : CntW'(TL))) begin
          cnt_d      = '0;
          bc_restart = 1'b1;
          rnd_d = rnd_q + 1'b1;
          if (rnd_q == last_q) begin
            rnd_d  = '0;
            base_d = base_q + CntW'(TL);
            if (last_tile) begin
              state_d = StDrain;
            end
          end
        end
      end

      StDrain: begin  // the unit's pipeline empties: window, combine, accumulate
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == DrainLast) begin
          state_d = (Dual && !bin_q) ? StWait : StIdle;
        end
      end

      StWait: begin
        if (ld2_done_q) begin
          state_d    = StRun;
          bc_restart = 1'b1;
          cnt_d      = '0;
          rnd_d   = '0;
          base_d  = '0;
          bin_d   = 1'b1;
        end
      end

      default: state_d = StIdle;
    endcase
    if (NT == 1) base_d = '0;  // one tile: the base stays at word 0
    if (bc_restart) bc_d = base_d;
  end

  assign busy_o = (state_q != StIdle);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      cnt_q   <= '0;
      bc_q    <= '0;
      rnd_q   <= '0;
      base_q  <= '0;
      last_q  <= '0;
      bias_q  <= '0;
      bin_q   <= 1'b0;
      prod_q  <= 1'b0;
    end else begin
      state_q <= state_d;
      cnt_q   <= cnt_d;
      bc_q    <= bc_d;
      rnd_q   <= rnd_d;
      base_q  <= base_d;
      last_q  <= last_d;
      bias_q  <= bias_d;
      bin_q   <= bin_d;
      prod_q  <= prod_d;
    end
  end

  // the phase: binary units always 1, counting units 0, Dual units as run
  assign bin = Counts ? (Dual && bin_q) : 1'b1;

  // Dual: b is taken while ld2_on_q (from the counts' rounds on), N words,
  // then the last word of its second copy (ld2_tail_q); ld2_done_q holds
  // from then until the unit is idle again
  assign ld2_we = Dual && ld2_on_q && in_valid_i;

  always_comb begin
    ld2_on_d   = ld2_on_q;
    ld2_d      = ld2_q;
    ld2_tail_d = 1'b0;
    ld2_done_d = ld2_done_q;
    if (state_q == StIdle) begin
      ld2_on_d   = 1'b0;
      ld2_d      = '0;
      ld2_done_d = 1'b0;
    end else if (state_q == StTail) begin
      ld2_on_d = Dual && Prefetch && !prod_q;
    end else if (state_q == StDrain && cnt_q == DrainLast && Dual && !Prefetch && !bin_q) begin
      ld2_on_d = 1'b1;  // the counts are read out: b may overwrite a
    end else if (ld2_we) begin
      ld2_d = ld2_q + 1'b1;
      if (ld2_q == CntW'(N - 1)) begin
        ld2_on_d   = 1'b0;
        ld2_tail_d = 1'b1;
        ld2_done_d = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ld2_on_q   <= 1'b0;
      ld2_q      <= '0;
      ld2_tail_q <= 1'b0;
      ld2_done_q <= 1'b0;
    end else begin
      ld2_on_q   <= ld2_on_d;
      ld2_q      <= ld2_d;
      ld2_tail_q <= ld2_tail_d;
      ld2_done_q <= ld2_done_d;
    end
  end

  // ---------------------------------------------------------------------------
  // Positions: one small memory per unit (distributed RAM, asynchronous read);
  // slot g P + u is entry g of unit u's memory, read in round g. Memories, not
  // a shift register of G P slots: a shift register costs a flip-flop and a
  // multiplexer per position bit.
  // ---------------------------------------------------------------------------
  localparam int unsigned GW = (G > 1) ? $clog2(G) : 1;

  logic [PW-1:0] rot_in, rot [P];
  logic          val [P];
  logic [GW-1:0] wr_g_q, wr_g_d;         // entry and unit of the next slot
  logic [$clog2(P + 1)-1:0] wr_u_q, wr_u_d;

  // A binary product rotates by R - idx (0 for idx = 0): stored so by
  // binary units, applied at the read by Dual units (which count first).
  function automatic logic [PW-1:0] rot_of(logic [PW-1:0] idx);
    return (idx == '0) ? '0 : PW'(R - 32'(idx));
  endfunction

  if (Counts) begin : gen_rot_upc
    assign rot_in = idx_i;
  end else begin : gen_rot_bin
    assign rot_in = rot_of(idx_i);
  end

  always_comb begin
    wr_g_d = wr_g_q;
    wr_u_d = wr_u_q;
    if (state_q == StIdle) begin
      wr_g_d = '0;
      wr_u_d = '0;
    end else if (shift_in) begin
      if (wr_u_q == ($bits(wr_u_q))'(P - 1)) begin
        wr_u_d = '0;
        wr_g_d = wr_g_q + 1'b1;
      end else begin
        wr_u_d = wr_u_q + 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_g_q <= '0;
      wr_u_q <= '0;
    end else begin
      wr_g_q <= wr_g_d;
      wr_u_q <= wr_u_d;
    end
  end

  // the slot's entry: a position, or an empty slot beyond the D positions;
  // Dual units keep the binary rotation R - idx beside idx (computed as it
  // is written, not on the read address's path)
  localparam int unsigned EW = Dual ? 2 * PW + 1 : PW + 1;
  logic [EW-1:0] pos_wdata;
  if (Dual) begin : gen_wdata_dual
    assign pos_wdata = (cnt_q < CntW'(D)) ? {idx_en_i, rot_of(idx_i), rot_in} : '0;
  end else begin : gen_wdata
    assign pos_wdata = (cnt_q < CntW'(D)) ? {idx_en_i, rot_in} : '0;
  end

  for (genvar u = 0; u < P; u++) begin : gen_pos
    logic [EW-1:0] pos_mem [1 << GW];  // {valid, [R - idx,] rotation}
    logic          pos_we;
    assign pos_we = shift_in && wr_u_q == ($bits(wr_u_q))'(u);

    always_ff @(posedge clk_i) begin
      if (pos_we) pos_mem[wr_g_q] <= pos_wdata;
    end

    logic [EW-1:0] entry;
    assign entry  = pos_mem[rnd_q[GW-1:0]];
    assign val[u] = entry[EW-1];
    if (Dual) begin : gen_dual_rot  // idx, and R - idx for the product
      assign rot[u] = bin ? entry[2*PW-1:PW] : entry[PW-1:0];
    end else begin : gen_rot
      assign rot[u] = entry[PW-1:0];
    end
  end

  // ---------------------------------------------------------------------------
  // Doubled operand copies: A[k] = a_k (k < N-1), A[N-1] = a_(N-1) | a_0 << Sh,
  // A[N-1+k] = a_k << Sh | a_(k-1) >> (W-Sh) (k >= 1), A[2N-1] = a_(N-1) >> (W-Sh)
  // ---------------------------------------------------------------------------
  // (Dual: the same writes into the second set of copies for b, from ld2_q)
  logic [W-1:0]    first_q, first_d;    // word 0 and the previous load word
  logic [W-1:0]    prev_q, prev_d;
  logic            wr_word, wr_tail;
  logic [CntW-1:0] wr_k;
  logic            wa_en, wb_en;
  logic [AW-1:0]   wa_addr, wb_addr;
  logic [W-1:0]    wa_data, wb_data;

  logic wr_b;  // 1: the writes go to the copies of b
  assign wr_b    = ld2_on_q || ld2_tail_q;
  assign wr_word = ld_we || ld2_we;
  assign wr_tail = tail_we || ld2_tail_q;
  assign wr_k    = wr_b ? ld2_q : cnt_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      first_q <= '0;
      prev_q  <= '0;
    end else begin
      first_q <= first_d;
      prev_q  <= prev_d;
    end
  end

  always_comb begin
    prev_d  = wr_word ? in_data_i : prev_q;
    first_d = (wr_word && wr_k == '0) ? in_data_i : first_q;
    wa_en   = wr_word;
    wa_addr = AW'(wr_k);
    wa_data = (wr_k == CntW'(N - 1)) ? (in_data_i | (first_q << Sh)) : in_data_i;
    wb_en   = (wr_word && wr_k != '0) || wr_tail;
    wb_addr = AW'(CntW'(N - 1) + wr_k);
    wb_data = wr_tail ? (prev_q >> (W - Sh)) : ((in_data_i << Sh) | (prev_q >> (W - Sh)));
  end

  // ---------------------------------------------------------------------------
  // Units: window of the rotation, stage 1 (t >= 1 gives word w = t - 1)
  // ---------------------------------------------------------------------------
  logic [W-1:0] win_q [P], win_d [P];  // the P windows: stage w, its input
  logic         s1_form_q, s1_first_q, s1_last_q, s1_form_d, s1_first_d, s1_last_d;
  logic [MW-1:0] s1_w_q, s1_w_d;   // word of the result
  logic [TAW-1:0] s1_a_q, s1_a_d;  // its accumulator address (within the tile)

  assign s1_form_d  = issue && (cnt_q != '0);
  assign s1_first_d = (rnd_q == '0);
  assign s1_last_d  = (rnd_q == last_q);
  assign s1_w_d     = MW'(base_q + cnt_q - 1'b1);
  assign s1_a_d     = TAW'(cnt_q - 1'b1);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_form_q  <= 1'b0;
      s1_first_q <= 1'b0;
      s1_last_q  <= 1'b0;
      s1_w_q     <= '0;
      s1_a_q     <= '0;
    end else begin
      s1_form_q  <= s1_form_d;
      s1_first_q <= s1_first_d;
      s1_last_q  <= s1_last_d;
      s1_w_q     <= s1_w_d;
      s1_a_q     <= s1_a_d;
    end
  end

  logic [AW-1:0] raddr [P];
  logic [W-1:0]  rdata [P];

  for (genvar u = 0; u < P; u++) begin : gen_unit
    logic [LW-1:0] sh_q, sh_d;
    logic          val_u_q, val_u_d;
    logic [W-1:0]  prev_rd_q;
    logic [W-1:0]  pair;

    assign raddr[u] = AW'(rot[u][PW-1:LW]) + AW'(bc_q);
    assign sh_d     = issue ? rot[u][LW-1:0] : sh_q;
    assign val_u_d  = issue ? val[u] : val_u_q;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        sh_q      <= '0;
        val_u_q   <= 1'b0;
        prev_rd_q <= '0;
      end else begin
        sh_q      <= sh_d;
        val_u_q   <= val_u_d;
        prev_rd_q <= rdata[u];
      end
    end

    // the 2W -> W funnel shift in stages of 4:1 multiplexers (one LUT6 per
    // bit and stage; a plain >> maps to 2:1 stages, one LUT3 per bit each)
    always_comb begin
      logic [2*W-1:0]  x;
      logic [2*ND-1:0] sh;
      x  = {rdata[u], prev_rd_q};
      sh = (2 * ND)'(sh_q);
      for (int j = ND - 1; j >= 0; j--) begin
        unique case (sh[2 * j +: 2])
          2'd0:    x = x;
          2'd1:    x = x >> (1 << (2 * j));
          2'd2:    x = x >> (2 << (2 * j));
          default: x = x >> (3 << (2 * j));
        endcase
      end
      pair = x[W-1:0];
    end
    assign win_d[u] = val_u_q ? pair : '0;
  end

  // the windows registered (stage w): the shift and the combine each stay
  // within 6 LUT levels on xc7
  logic          sw_form_q, sw_first_q, sw_last_q;
  logic [MW-1:0]  sw_w_q;
  logic [TAW-1:0] sw_a_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      win_q      <= '{default: '0};
      sw_form_q  <= 1'b0;
      sw_first_q <= 1'b0;
      sw_last_q  <= 1'b0;
      sw_w_q     <= '0;
      sw_a_q     <= '0;
    end else begin
      win_q      <= win_d;
      sw_form_q  <= s1_form_q;
      sw_first_q <= s1_first_q;
      sw_last_q  <= s1_last_q;
      sw_w_q     <= s1_w_q;
      sw_a_q     <= s1_a_q;
    end
  end

  // Dual with Prefetch: a second set of copies for b; the phase selects the
  // set read (a product alone reads its operand from the first set)
  localparam int unsigned NB = (Dual && Prefetch) ? 2 : 1;
  logic [W-1:0] rdata_bank [NB][P];
  logic         rd_b, wr_set;
  assign rd_b   = (NB == 2) && bin && !prod_q;
  assign wr_set = (NB == 2) && wr_b;

  for (genvar k = 0; k < NB; k++) begin : gen_bank
    logic wa_en_k, wb_en_k, rd_k;
    assign wa_en_k = wa_en && (wr_set == (k == 1));
    assign wb_en_k = wb_en && (wr_set == (k == 1));
    assign rd_k    = issue && (rd_b == (k == 1));

    for (genvar c = 0; c < NC; c++) begin : gen_copy
      logic          b_en;
      logic [AW-1:0] b_raddr;
      logic [W-1:0]  b_rd;
      if (2 * c + 1 < P) begin : gen_pair
        assign b_raddr                   = raddr[2 * c + 1];
        assign rdata_bank[k][2 * c + 1] = b_rd;
      end else begin : gen_single
        assign b_raddr = '0;
        logic unused_b_rd;
        assign unused_b_rd = ^b_rd;
      end
      assign b_en = wb_en_k || (rd_k && (2 * c + 1 < P));

      bike_ram_tdp #(
        .Width (W),
        .Depth (2 * N)
      ) u_copy (
        .clk_i     (clk_i),
        .a_en_i    (wa_en_k || rd_k),
        .a_we_i    (wa_en_k),
        .a_addr_i  (wa_en_k ? wa_addr : raddr[2 * c]),
        .a_wdata_i (wa_data),
        .a_rdata_o (rdata_bank[k][2 * c]),
        .b_en_i    (b_en),
        .b_we_i    (wb_en_k),
        .b_addr_i  (wb_en_k ? wb_addr : b_raddr),
        .b_wdata_i (wb_data),
        .b_rdata_o (b_rd)
      );
    end
  end

  for (genvar u = 0; u < P; u++) begin : gen_rdata
    if (NB == 2) begin : gen_sel
      assign rdata[u] = rd_b ? rdata_bank[NB - 1][u] : rdata_bank[0][u];
    end else begin : gen_one
      assign rdata[u] = rdata_bank[0][u];
    end
  end

  // ---------------------------------------------------------------------------
  // Combine the P windows: XOR, or per-bit counts (stage 1 -> stage 2)
  // ---------------------------------------------------------------------------
  localparam int unsigned CW = $clog2(P + 1);
  logic [OW-1:0]  comb_d, comb_q;
  logic           s2_valid_q, s2_first_q, s2_last_q;
  logic [MW-1:0]  s2_w_q;
  logic [TAW-1:0] s2_a_q;

  logic cnt_phase;  // counts (integer units; Dual units before the product)
  assign cnt_phase = Counts && !bin;

  always_comb begin
    logic [CW-1:0] c;
    comb_d = '0;
    c      = '0;
    if (cnt_phase) begin
      for (int unsigned b = 0; b < W; b++) begin
        c = '0;
        for (int unsigned u = 0; u < P; u++) begin
          c = c + CW'(win_q[u][b]);
        end
        comb_d[b * K +: K] = K'(c);
      end
    end else begin
      for (int unsigned u = 0; u < P; u++) begin
        comb_d[W-1:0] = comb_d[W-1:0] ^ win_q[u];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      comb_q     <= '0;
      s2_valid_q <= 1'b0;
      s2_first_q <= 1'b0;
      s2_last_q  <= 1'b0;
      s2_w_q     <= '0;
      s2_a_q     <= '0;
    end else begin
      comb_q     <= comb_d;
      s2_valid_q <= sw_form_q;
      s2_first_q <= sw_first_q;
      s2_last_q  <= sw_last_q;
      s2_w_q     <= sw_w_q;
      s2_a_q     <= sw_a_q;
    end
  end

  // ---------------------------------------------------------------------------
  // Accumulator: read word w in stage w, add in stage 2, write back
  // ---------------------------------------------------------------------------
  logic [OW-1:0] acc_rd, acc_new, last_mask;
  logic          ov_q, ov_d, ol_q, ol_d;
  logic [OW-1:0] od_q, od_d;

  bike_ram_sdp #(
    .Width (OW),
    .Depth (TL)
  ) u_acc (
    .clk_i   (clk_i),
    .we_i    (s2_valid_q),
    .waddr_i (s2_a_q),
    .wdata_i (acc_new),
    .re_i    (sw_form_q),
    .raddr_i (sw_a_q),
    .rdata_o (acc_rd)
  );

  // result bits >= R (last word) read the operand beyond its copies: their
  // counters hold the bias, their product bits 0
  assign last_mask = cnt_phase ? OW'((OW'(1) << (Sh * K)) - OW'(1)) :
                                 OW'((OW'(1) << Sh) - OW'(1));

  always_comb begin
    logic [OW-1:0] init, base, sum;
    init = '0;
    if (cnt_phase) init = OW'({W{bias_q}});
    base = s2_first_q ? init : acc_rd;
    sum  = '0;
    if (cnt_phase) begin
      for (int unsigned b = 0; b < W; b++) begin
        sum[b * K +: K] = base[b * K +: K] + comb_q[b * K +: K];
      end
    end else begin
      sum[W-1:0] = base[W-1:0] ^ comb_q[W-1:0];
    end
    acc_new = (s2_w_q == MW'(N - 1)) ? ((sum & last_mask) | (init & ~last_mask)) : sum;
  end

  assign ov_d = s2_valid_q && s2_last_q;
  assign ol_d = ov_d && (s2_w_q == MW'(N - 1));
  assign od_d = ov_d ? acc_new : od_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ov_q <= 1'b0;
      ol_q <= 1'b0;
      od_q <= '0;
    end else begin
      ov_q <= ov_d;
      ol_q <= ol_d;
      od_q <= od_d;
    end
  end

  assign out_valid_o = ov_q;
  assign out_data_o  = od_q;
  assign out_last_o  = ol_q;

endmodule
