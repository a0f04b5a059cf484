// BIKE KeyGen, Encaps and Decaps on one set of units (doc/bike_kem.md).
//
// Keygen, Encaps and Decaps choose the primitives of a build (the client
// core is Keygen + Decaps, the server core Encaps); the units a build does
// not need are not instantiated. Units: sampler_ctrl and the SHA3-384
// hasher share one keccak_core (or keccak_serial); gf2x_inv (Keygen); bike_decoder (Decaps).
// Every product with a sparse operand (h1 h0^-1, e1 h masked to the
// positions of e1, the syndrome c0 h0) runs on the decoder's units in a
// build with Decaps, else on a sparse_mul of its own. Polynomials live in
// six memories of N 64-bit words (B0..B5), positions in two small ones, the
// 32-byte objects (rand, sigma, c1, ss, m) in one distributed RAM of 64-bit
// words (the message memory) that the steps, the sampler and the hasher read
// and write a word at a time.
//
//   KeyGen: clear B0 B1 (and sigma = rand[4..7]); sample h0, h1 from seed
//           rand[0..3] (positions -> KPOS, dense -> B0, B1); B4 = B0^-1;
//           B2 = h1 * B4 (the public key); wipe B4 B5
//   Encaps: m = rand[0..3]; clear B4 B5; sample H(m) (positions -> EPOS,
//           dense e0, e1 -> B4, B5); c1 = m ^ L(B4, B5); B3 = e1 * B2 + B4
//           (c0); ss = K(m, B3, c1); wipe
//   Decaps: B4 = h0 * B3 (syndrome); B4, B5 = decode(B4); m' = c1 ^ L(B4, B5);
//           XOR H(m') into B4, B5; ok = (B4, B5 all zero) & decoded & c0
//           well formed; ss = K(m'', B3, c1) with m'' = ok ? m' : sigma
//           chosen word by word as K reads it; wipe
// Every step takes a number of cycles that depends only on the parameters.
//
// Host side: a command (op, object) taken when idle; objects stream in and
// out as 64-bit words (in_*: LOAD, out_*: STORE); done_o with err_o ends
// every command.
module bike_kem
  import bike_kem_pkg::*;
#(
  parameter int unsigned R                  = 12323,
  parameter int unsigned D                  = 71,
  parameter int unsigned T                  = 134,
  parameter bit          Keygen             = 1'b1,
  parameter bit          Encaps             = 1'b1,
  parameter bit          Decaps             = 1'b1,
  parameter int unsigned RoundsPerCycle     = 1,    // keccak_core's unrolling
  parameter bit          KeccakSerial       = 1'b0, // 1: keccak_serial instead
  parameter int unsigned InvE               = 16,
  parameter int unsigned InvKaratsubaLevels = 2,
  parameter int unsigned InvParallelLevels  = 1,
  parameter int unsigned SparseP            = 8,
  parameter int unsigned DecoderP           = 8,
  parameter bit          DecoderPrefetch    = 1'b1,
  parameter int unsigned DecoderTile        = 0,    // decoder units' words per tile (0: N)
  // derived
  localparam int unsigned W    = 64,
  localparam int unsigned N    = (R + W - 1) / W,
  localparam int unsigned AW   = (N > 1) ? $clog2(N) : 1,
  localparam int unsigned PW   = $clog2(R),                // a position < R
  localparam int unsigned Sh   = R % W,
  localparam int unsigned Slots = Encaps ? T : D,          // sparse_mul positions
  localparam int unsigned SpG  = (Slots + SparseP - 1) / SparseP,
  localparam int unsigned KAW  = $clog2(2 * D),
  localparam int unsigned EAW  = $clog2(T),
  localparam int unsigned CntW = 16
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // command
  input  logic        cmd_valid_i,
  input  logic [3:0]  cmd_op_i,
  input  logic [3:0]  cmd_obj_i,
  output logic        busy_o,
  output logic        done_o,
  output logic [3:0]  err_o,
  output logic        pk_valid_o,
  output logic        sk_valid_o,
  // objects in (LOAD)
  input  logic        in_valid_i,
  output logic        in_ready_o,
  input  logic [63:0] in_data_i,
  input  logic        in_last_i,
  // objects out (STORE)
  output logic        out_valid_o,
  input  logic        out_ready_i,
  output logic [63:0] out_data_o,
  output logic        out_last_o
);

  initial begin
    assert (Keygen || Encaps || Decaps) else $error("a build needs a primitive");
    assert (Sh != 0) else $error("R must not be a multiple of 64");
    assert (2 * R < (1 << (PW + 1))) else $error("position width");
    assert (!Decaps || T <= 2 * D) else $error("the decoder's units take at most 2D positions");
    assert (N >= 24) else $error("StWipe clears the message memory in its first 24 cycles");
  end

  localparam logic [W-1:0] LastMask = W'((W'(1) << Sh) - W'(1));

  // which memories a build has
  localparam bit HasB0 = Keygen;               // h0 (dense)
  localparam bit HasB1 = Keygen;               // h1 (dense)
  localparam bit HasB2 = Keygen || Encaps;     // the public key h
  localparam bit HasB3 = Encaps || Decaps;     // c0
  localparam bit HasB4 = 1'b1;                 // h0^-1, e0, syndrome, e0'
  localparam bit HasB5 = Encaps || Decaps;     // e1, e1'
  localparam bit HasHash = Encaps || Decaps;

  // ---------------------------------------------------------------------------
  // Sequencer
  // ---------------------------------------------------------------------------
  typedef enum logic [4:0] {
    StIdle,
    StLoad,
    StStore,
    StKgClear,
    StKgSample,
    StKgInv,
    StKgMul,
    StEnClear,
    StEnSample,
    StEnHashL,
    StEnMul,
    StEnHashK,
    StDeMul,
    StDeDecode,
    StDeHashL,
    StDeSample,
    StDeCmp,
    StDeHashK,
    StWipe,
    StDone
  } state_e;

  state_e          state_q, state_d;
  logic            go_q;                  // first cycle of a state
  logic [3:0]      obj_q, obj_d;
  logic [3:0]      err_q, err_d;
  logic [CntW-1:0] cnt_q, cnt_d;          // word / step counter of a state
  logic [CntW-1:0] ocnt_q, ocnt_d;        // result words written
  logic [1:0]      ph_q, ph_d;            // phase of a word that takes several cycles
  logic [31:0]     hold_q, hold_d;        // second position of a SK_POS word

  // the message memory: 64-bit words, two read ports (A, B) read in the
  // same cycle, one write port
  localparam logic [4:0] MsgM     = 5'd0;   // m' (Decaps)
  localparam logic [4:0] MsgSigma = 5'd4;
  localparam logic [4:0] MsgC1    = 5'd8;
  localparam logic [4:0] MsgSs    = 5'd12;
  localparam logic [4:0] MsgRand  = 5'd16;  // 8 words; words 0..3 are m in Encaps
  localparam int unsigned MsgWords = 24;
  logic            msg_we;
  logic [4:0]      msg_waddr, msg_raddr_a, msg_raddr_b;
  logic [63:0]     msg_wdata, msg_rdata_a, msg_rdata_b;

  logic            pk_ok_q, key_ok_q, c0_ok_q, dec_ok_q, diff_q;
  logic            rand_ok_q;             // RAND loaded, not used by a primitive yet

  // ---- units' handshakes (driven below) ----
  logic            smp_start, smp_mode, smp_busy, smp_pos_valid, smp_pos_set, smp_done;
  logic [8:0]      smp_pos_idx;
  logic [16:0]     smp_pos;
  logic [1:0]      smp_seed_idx;
  logic            smp_done_q;

  logic            hs_start, hs_kind, hs_done, hs_dig_valid;
  logic [1:0]      hs_dig_idx;
  logic [63:0]     hs_dig, hs_reg_word;
  logic [2:0]      hs_reg_idx;
  logic            hs_re_a, hs_re_b, hs_re_c;
  logic [AW-1:0]   hs_raddr;

  logic            inv_start, inv_in_ready, inv_out_valid, inv_out_last;
  logic [W-1:0]    inv_out_data;

  // the product (a sparse_mul, or the decoder's units)
  logic            sp_start, sp_idx_ready, sp_idx_en, sp_in_ready, sp_out_valid, sp_out_last;
  logic [PW-1:0]   sp_idx;
  logic [W-1:0]    sp_out_data;

  logic            dec_start, dec_idx_ready, dec_in_ready, dec_out_valid, dec_out_last, dec_ok;
  logic [W-1:0]    dec_out_data;

  // readers: positions (p) and dense words (d)
  logic            prd_start, prd_re, prd_valid, prd_ready, prd_last;
  logic [CntW-1:0] prd_count, prd_addr, prd_idx;
  logic            drd_start, drd_re, drd_valid, drd_ready, drd_last;
  logic [CntW-1:0] drd_count, drd_addr, drd_idx;

  // position memories
  logic            kp_we, kp_re;
  logic [KAW-1:0]  kp_waddr, kp_raddr;
  logic [PW-1:0]   kp_wdata, kp_rdata;
  logic            ep_we, ep_re;
  logic [EAW-1:0]  ep_waddr, ep_raddr;
  logic [PW:0]     ep_wdata, ep_rdata;

  // polynomial memories
  logic            bk_we [6];
  logic            bk_re [6];
  logic [AW-1:0]   bk_raddr [6];
  logic [AW-1:0]   bk_waddr;              // one write address and data for all
  logic [W-1:0]    bk_wdata;              // six: no step writes two differently
  logic [W-1:0]    bk_rdata [6];

  // a sampled position, read-modify-written into a dense polynomial
  logic            rmw_go;
  logic [2:0]      rmw_bank;
  logic [16:0]     rmw_pos;
  logic            rmw_q;
  logic [2:0]      rmw_bank_q;
  logic [AW-1:0]   rmw_addr_q;
  logic [5:0]      rmw_bit_q;

  // object sizes and memories
  function automatic logic [CntW-1:0] obj_words(logic [3:0] o);
    unique case (o)
      ObjRand:                         return CntW'(8);
      ObjPk, ObjSkH0, ObjSkH1, ObjC0:  return CntW'(N);
      ObjSkPos:                        return CntW'(D);
      default:                         return CntW'(4);
    endcase
  endfunction

  function automatic logic [2:0] obj_bank(logic [3:0] o);
    unique case (o)
      ObjSkH0: return 3'd0;
      ObjSkH1: return 3'd1;
      ObjPk:   return 3'd2;
      default: return 3'd3;  // ObjC0
    endcase
  endfunction

  function automatic logic obj_in_build(logic [3:0] o);
    unique case (o)
      ObjRand:          return Keygen || Encaps;
      ObjPk:            return Keygen || Encaps;
      ObjSkPos:         return Keygen || Decaps;
      ObjSkH0, ObjSkH1: return Keygen;
      ObjSigma:         return Keygen || Decaps;
      ObjC0, ObjC1:     return Encaps || Decaps;
      ObjSs:            return Encaps || Decaps;
      default:          return 1'b0;
    endcase
  endfunction

  function automatic logic obj_loadable(logic [3:0] o);
    return obj_in_build(o) && o != ObjSkH0 && o != ObjSkH1 && o != ObjSs;
  endfunction

  function automatic logic obj_storable(logic [3:0] o);
    return obj_in_build(o) && o != ObjRand;
  endfunction

  function automatic logic obj_in_bank(logic [3:0] o);
    return o == ObjPk || o == ObjSkH0 || o == ObjSkH1 || o == ObjC0;
  endfunction

  // a LOAD word. The last word of a public key keeps bits below R only. A c0
  // is kept as given: K hashes the ciphertext's bytes (bits at or above R
  // included, as libbike does); the sparse product masks them.
  logic            ld_fire, ld_lastw, ld_len_err, ld_hi_bits;
  logic [W-1:0]    ld_word;
  assign ld_fire    = in_valid_i && in_ready_o;
  assign ld_lastw   = (cnt_q == obj_words(obj_q) - 1'b1);
  assign ld_len_err = (in_last_i != ld_lastw);
  assign ld_hi_bits = obj_in_bank(obj_q) && ld_lastw && ((in_data_i & ~LastMask) != '0);
  assign ld_word    = (obj_q == ObjPk && ld_lastw) ? (in_data_i & LastMask) : in_data_i;

  // SK_POS words: two 32-bit positions, each must be below R
  logic            pos_lo_ok, pos_hi_ok;
  assign pos_lo_ok = (in_data_i[31:0] < 32'(R));
  assign pos_hi_ok = (in_data_i[63:32] < 32'(R));

  // the zero test of Decaps (B4, B5 = e' ^ H(m'))
  logic            ok_all;
  assign ok_all = !diff_q && dec_ok_q && c0_ok_q;

  // command decode: the first state of an operation, or why it is refused
  err_e   cmd_err;
  state_e cmd_first;

  always_comb begin
    cmd_err   = ErrNone;
    cmd_first = StDone;
    unique case (cmd_op_i)
      OpKeygen: begin
        cmd_first = StKgClear;
        if (!Keygen)         cmd_err = ErrOp;
        else if (!rand_ok_q) cmd_err = ErrRand;
      end
      OpEncaps: begin
        cmd_first = StEnClear;
        if (!Encaps)         cmd_err = ErrOp;
        else if (!pk_ok_q)   cmd_err = ErrKey;
        else if (!rand_ok_q) cmd_err = ErrRand;
      end
      OpDecaps: begin
        cmd_first = StDeMul;
        if (!Decaps)         cmd_err = ErrOp;
        else if (!key_ok_q)  cmd_err = ErrKey;
      end
      OpLoad: begin
        cmd_first = StLoad;
        if (!obj_loadable(cmd_obj_i)) cmd_err = ErrObject;
      end
      OpStore: begin
        cmd_first = StStore;
        if (!obj_storable(cmd_obj_i)) cmd_err = ErrObject;
      end
      default: cmd_err = ErrOp;
    endcase
  end

  always_comb begin
    state_d    = state_q;
    obj_d      = obj_q;
    err_d      = err_q;
    cnt_d      = cnt_q;
    ocnt_d     = ocnt_q;
    ph_d       = ph_q;
    hold_d     = hold_q;
    in_ready_o = 1'b0;
    smp_start  = 1'b0;
    hs_start   = 1'b0;
    inv_start  = 1'b0;
    sp_start   = 1'b0;
    dec_start  = 1'b0;
    prd_start  = 1'b0;
    drd_start  = 1'b0;
    prd_count  = CntW'(Slots);
    drd_count  = CntW'(N);

    unique case (state_q)
      StIdle: begin
        if (cmd_valid_i) begin
          err_d   = cmd_err;
          state_d = (cmd_err != ErrNone) ? StDone : cmd_first;
          cnt_d   = '0;
          ocnt_d  = '0;
          ph_d    = '0;
          obj_d   = cmd_obj_i;
        end
      end

      // ---- objects ----
      StLoad: begin
        if (obj_q == ObjSkPos && ph_q[0]) begin
          ph_d  = '0;  // second position of the word goes to memory
          cnt_d = cnt_q + 1'b1;
          if (cnt_q == obj_words(obj_q) - 1'b1) state_d = StDone;
        end else begin
          in_ready_o = 1'b1;
          if (in_valid_i) begin
            if (ld_len_err) begin
              err_d   = ErrLength;
              state_d = StDone;
            end else if (obj_q == ObjSkPos) begin
              ph_d   = 2'd1;
              hold_d = in_data_i[63:32];
            end else begin
              cnt_d = cnt_q + 1'b1;
              if (ld_lastw) state_d = StDone;
            end
          end
        end
      end

      StStore: begin
        if (obj_in_bank(obj_q)) begin
          drd_start = go_q;
          if (drd_valid && out_ready_i && drd_last) state_d = StDone;
        end else if (obj_q == ObjSkPos) begin
          // word cnt: read position 2 cnt (phase 0), 2 cnt + 1 (phase 1),
          // offer both (phase 2)
          if (ph_q != 2'd2) begin
            ph_d = ph_q + 1'b1;
          end else if (out_ready_i) begin
            ph_d  = 2'd0;
            cnt_d = cnt_q + 1'b1;
            if (cnt_q == CntW'(D - 1)) state_d = StDone;
          end
        end else begin
          if (out_ready_i) begin
            cnt_d = cnt_q + 1'b1;
            if (cnt_q == CntW'(3)) state_d = StDone;
          end
        end
      end

      // ---- the primitives' steps (an arm may serve two or three of them) ----
      StKgClear, StEnClear: begin
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == CntW'(N - 1)) state_d = (state_q == StKgClear) ? StKgSample : StEnSample;
      end

      StKgSample, StEnSample, StDeSample: begin
        smp_start = go_q;
        if ((smp_done || smp_done_q) && !rmw_q && !rmw_go) begin
          state_d = (state_q == StKgSample) ? StKgInv :
                    (state_q == StEnSample) ? StEnHashL : StDeCmp;
        end
      end

      StKgInv: begin
        inv_start = go_q;
        drd_start = go_q;
        if (inv_out_valid) ocnt_d = ocnt_q + 1'b1;
        if (inv_out_valid && inv_out_last) state_d = StKgMul;
      end

      StKgMul, StEnMul, StDeMul: begin
        sp_start  = go_q;
        prd_start = go_q;
        drd_start = go_q;
        // the decoder's units take only the real positions (D, or T for e1 h)
        if (Decaps) prd_count = CntW'((state_q == StEnMul) ? T : D);
        if (sp_out_valid) ocnt_d = ocnt_q + 1'b1;
        if (sp_out_valid && sp_out_last) begin
          state_d = (state_q == StKgMul) ? StWipe :
                    (state_q == StEnMul) ? StEnHashK : StDeDecode;
        end
      end

      StEnHashL, StEnHashK, StDeHashL, StDeHashK: begin
        hs_start = go_q;
        if (hs_done) begin
          state_d = (state_q == StEnHashL) ? StEnMul :
                    (state_q == StDeHashL) ? StDeSample : StWipe;
        end
      end

      StDeDecode: begin
        dec_start = go_q;
        prd_start = go_q;
        drd_start = go_q;
        prd_count = CntW'(2 * D);
        if (dec_out_valid) ocnt_d = ocnt_q + 1'b1;
        if (dec_out_valid && dec_out_last) state_d = StDeHashL;
      end

      StDeCmp: begin  // read word cnt of B4 and B5; OR in the previous one
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == CntW'(N)) state_d = StDeHashK;
      end

      // ---- the end of every primitive: secrets leave the memories ----
      StWipe: begin
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == CntW'(N - 1)) state_d = StDone;
      end

      StDone: begin
        state_d = StIdle;
      end

      default: state_d = StIdle;
    endcase

    // counters restart with every state
    if (state_d != state_q && state_q != StIdle) begin
      cnt_d  = '0;
      ocnt_d = '0;
      ph_d   = '0;
    end
  end

  assign busy_o     = (state_q != StIdle);
  assign done_o     = (state_q == StDone);
  assign err_o      = err_q;
  assign pk_valid_o = pk_ok_q;
  assign sk_valid_o = key_ok_q;

  // ---------------------------------------------------------------------------
  // Registers: objects, flags
  // ---------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= StIdle;
      go_q       <= 1'b0;
      obj_q      <= '0;
      err_q      <= '0;
      cnt_q      <= '0;
      ocnt_q     <= '0;
      ph_q       <= '0;
      hold_q     <= '0;
      pk_ok_q    <= 1'b0;
      key_ok_q   <= 1'b0;
      rand_ok_q  <= 1'b0;
      c0_ok_q    <= 1'b0;
      dec_ok_q   <= 1'b0;
      diff_q     <= 1'b0;
      smp_done_q <= 1'b0;
    end else begin
      state_q <= state_d;
      go_q    <= (state_d != state_q) && (state_d != StIdle);
      obj_q   <= obj_d;
      err_q   <= err_d;
      cnt_q   <= cnt_d;
      ocnt_q  <= ocnt_d;
      ph_q    <= ph_d;
      hold_q  <= hold_d;

      smp_done_q <= (smp_done || smp_done_q) && !(state_d != state_q);

      // LOAD (the words of rand, sigma and c1 go to the message memory)
      if (state_q == StLoad && ld_fire) begin
        if (obj_q == ObjRand) rand_ok_q <= ld_lastw && !ld_len_err;
        if (cnt_q == '0) begin
          if (obj_q == ObjPk)    pk_ok_q  <= 1'b1;
          if (obj_q == ObjSkPos) key_ok_q <= 1'b1;
          if (obj_q == ObjC0)    c0_ok_q  <= 1'b1;
        end
        if (ld_len_err || ld_hi_bits || (obj_q == ObjSkPos && !(pos_lo_ok && pos_hi_ok))) begin
          if (obj_q == ObjPk)    pk_ok_q  <= 1'b0;
          if (obj_q == ObjSkPos) key_ok_q <= 1'b0;
          if (obj_q == ObjC0)    c0_ok_q  <= 1'b0;
        end
      end

      // KeyGen: the key pair it makes is the loaded one
      if (state_q == StKgClear && go_q) begin
        pk_ok_q  <= 1'b0;
        key_ok_q <= 1'b0;
      end
      if (state_q == StKgMul && sp_out_valid && sp_out_last) begin
        pk_ok_q  <= 1'b1;
        key_ok_q <= 1'b1;
      end
      if (state_q == StEnMul && sp_out_valid && sp_out_last) c0_ok_q <= 1'b1;

      if (state_q == StDeDecode && dec_out_valid && dec_out_last) dec_ok_q <= dec_ok;
      if (state_q == StDeCmp) begin
        if (go_q) diff_q <= 1'b0;
        else diff_q <= diff_q || (bk_rdata[4] != '0) || (bk_rdata[5] != '0);
      end
      // the random input does not outlive the primitive (its words and m'
      // leave the message memory during StWipe)
      if (state_q == StWipe && go_q) begin
        rand_ok_q <= 1'b0;
        diff_q   <= 1'b0;
        dec_ok_q <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Message memory
  // ---------------------------------------------------------------------------
  // Where m is: rand[0..3] in KeyGen's and Encaps' steps, m' in Decaps'.
  logic       de_st;
  logic [4:0] m_base;
  assign de_st  = (state_q == StDeMul || state_q == StDeDecode || state_q == StDeHashL ||
                   state_q == StDeSample || state_q == StDeCmp || state_q == StDeHashK);
  assign m_base = de_st ? MsgM : MsgRand;

  function automatic logic [4:0] obj_msg_base(logic [3:0] o);
    unique case (o)
      ObjRand:  return MsgRand;
      ObjSigma: return MsgSigma;
      ObjC1:    return MsgC1;
      default:  return MsgSs;
    endcase
  endfunction

  // port A: STORE words, the sampler's seed, the hasher's m and c1 words;
  // port B: the other operand of a word step
  always_comb begin
    msg_raddr_a = obj_msg_base(obj_q) + 5'(cnt_q[2:0]);
    msg_raddr_b = MsgRand + 5'd4 + 5'(cnt_q[1:0]);      // StKgClear: rand[4 + cnt]
    unique case (state_q)
      StKgSample, StEnSample, StDeSample: msg_raddr_a = m_base + 5'(smp_seed_idx);
      StEnHashK, StDeHashK: begin
        msg_raddr_a = (hs_reg_idx[2] ? MsgC1 : m_base) + 5'(hs_reg_idx[1:0]);
        msg_raddr_b = MsgSigma + 5'(hs_reg_idx[1:0]);
      end
      StEnHashL:  msg_raddr_b = MsgRand + 5'(hs_dig_idx);
      StDeHashL:  msg_raddr_b = MsgC1 + 5'(hs_dig_idx);
      default: ;
    endcase
  end

  // K's m word in Decaps: m'' = ok ? m' : sigma (a mask, no branch on ok)
  logic m_keep;
  assign m_keep      = !(state_q == StDeHashK) || ok_all;
  assign hs_reg_word = hs_reg_idx[2] ? msg_rdata_a :
                       ((msg_rdata_a & {64{m_keep}}) | (msg_rdata_b & {64{!m_keep}}));

  always_comb begin
    msg_we    = 1'b0;
    msg_waddr = obj_msg_base(obj_q) + 5'(cnt_q[2:0]);
    msg_wdata = in_data_i;
    unique case (state_q)
      StLoad: msg_we = ld_fire && !obj_in_bank(obj_q) && obj_q != ObjSkPos;
      StKgClear: begin  // sigma = rand[4..7]
        msg_we    = (cnt_q < CntW'(4));
        msg_waddr = MsgSigma + 5'(cnt_q[1:0]);
        msg_wdata = msg_rdata_b;
      end
      StEnHashL, StDeHashL: begin  // c1 = m ^ L (Encaps), m' = c1 ^ L (Decaps)
        msg_we    = hs_dig_valid;
        msg_waddr = ((state_q == StEnHashL) ? MsgC1 : MsgM) + 5'(hs_dig_idx);
        msg_wdata = msg_rdata_b ^ hs_dig;
      end
      StEnHashK, StDeHashK: begin  // ss = K
        msg_we    = hs_dig_valid;
        msg_waddr = MsgSs + 5'(hs_dig_idx);
        msg_wdata = hs_dig;
      end
      StWipe: begin  // m' (words 0..3) and rand (16..23)
        msg_we    = (cnt_q < CntW'(4)) || (cnt_q >= CntW'(MsgRand) && cnt_q < CntW'(MsgWords));
        msg_waddr = 5'(cnt_q);
        msg_wdata = '0;
      end
      default: ;
    endcase
  end

  // distributed RAM: no reset (like the polynomial memories, it is wiped by
  // the steps, not by rst_ni)
  logic [63:0] msg_mem [MsgWords];
  always_ff @(posedge clk_i) begin
    if (msg_we) msg_mem[msg_waddr] <= msg_wdata;
  end
  assign msg_rdata_a = msg_mem[msg_raddr_a];
  assign msg_rdata_b = msg_mem[msg_raddr_b];

  // ---------------------------------------------------------------------------
  // STORE stream
  // ---------------------------------------------------------------------------

  logic [PW-1:0] pos_lo_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pos_lo_q <= '0;
    end else if (state_q == StStore && ph_q == 2'd1) begin
      pos_lo_q <= kp_rdata;
    end
  end

  always_comb begin
    out_valid_o = 1'b0;
    out_data_o  = '0;
    out_last_o  = 1'b0;
    drd_ready   = 1'b0;
    if (state_q == StStore) begin
      if (obj_in_bank(obj_q)) begin
        out_valid_o = drd_valid;
        out_data_o  = bk_rdata[obj_bank(obj_q)];
        out_last_o  = drd_last;
        drd_ready   = out_ready_i;
      end else if (obj_q == ObjSkPos) begin
        out_valid_o = (ph_q == 2'd2);
        out_data_o  = {32'(kp_rdata), 32'(pos_lo_q)};
        out_last_o  = (ph_q == 2'd2) && (cnt_q == CntW'(D - 1));
      end else begin
        out_valid_o = 1'b1;
        out_data_o  = msg_rdata_a;
        out_last_o  = (cnt_q == CntW'(3));
      end
    end else if (state_q == StKgInv) begin
      drd_ready = inv_in_ready;
    end else if (state_q == StKgMul || state_q == StEnMul || state_q == StDeMul) begin
      drd_ready = sp_in_ready;
    end else if (state_q == StDeDecode) begin
      drd_ready = dec_in_ready;
    end
  end

  // ---------------------------------------------------------------------------
  // Readers
  // ---------------------------------------------------------------------------
  bike_kem_reader #(
    .CntW (CntW)
  ) u_prd (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .start_i (prd_start),
    .count_i (prd_count),
    .re_o    (prd_re),
    .addr_o  (prd_addr),
    .valid_o (prd_valid),
    .ready_i (prd_ready),
    .idx_o   (prd_idx),
    .last_o  (prd_last)
  );

  bike_kem_reader #(
    .CntW (CntW)
  ) u_drd (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .start_i (drd_start),
    .count_i (drd_count),
    .re_o    (drd_re),
    .addr_o  (drd_addr),
    .valid_o (drd_valid),
    .ready_i (drd_ready),
    .idx_o   (drd_idx),
    .last_o  (drd_last)
  );

  logic unused_rd;
  assign unused_rd = ^{prd_last, drd_addr};

  // positions to the sparse multiplier (masked beyond the real ones) or to
  // the decoder (h0 then h1)
  always_comb begin
    sp_idx    = kp_rdata;
    sp_idx_en = 1'b0;
    prd_ready = 1'b0;
    unique case (state_q)
      StKgMul, StDeMul: begin
        sp_idx_en = (prd_idx < CntW'(D));
        prd_ready = sp_idx_ready;
      end
      StEnMul: begin  // e1 = the positions at or above R
        sp_idx_en = (ep_rdata >= (PW + 1)'(R));
        sp_idx    = PW'(ep_rdata - (PW + 1)'(R));
        prd_ready = sp_idx_ready;
      end
      StDeDecode: begin
        prd_ready = dec_idx_ready;
      end
      default: ;
    endcase
  end

  // ---------------------------------------------------------------------------
  // Position memories
  // ---------------------------------------------------------------------------
  always_comb begin
    kp_we    = 1'b0;
    kp_waddr = '0;
    kp_wdata = '0;
    kp_re    = 1'b0;
    kp_raddr = '0;
    if (state_q == StLoad && obj_q == ObjSkPos) begin
      kp_we    = ph_q[0] || (ld_fire && !ld_len_err);
      kp_waddr = KAW'(2 * cnt_q + (ph_q[0] ? 1 : 0));
      kp_wdata = ph_q[0] ? PW'(hold_q) : PW'(in_data_i[31:0]);
    end
    if (state_q == StKgSample && smp_pos_valid) begin
      kp_we    = 1'b1;
      kp_waddr = KAW'((smp_pos_set ? D : 0) + 32'(smp_pos_idx));
      kp_wdata = PW'(smp_pos);
    end
    if (state_q == StStore && obj_q == ObjSkPos && ph_q != 2'd2) begin
      kp_re    = 1'b1;
      kp_raddr = KAW'(2 * cnt_q + (ph_q[0] ? 1 : 0));
    end
    unique case (state_q)
      StKgMul: begin
        kp_re    = prd_re;
        kp_raddr = (prd_addr < CntW'(D)) ? KAW'(CntW'(D) + prd_addr) : '0;
      end
      StDeMul: begin
        kp_re    = prd_re;
        kp_raddr = (prd_addr < CntW'(D)) ? KAW'(prd_addr) : '0;
      end
      StDeDecode: begin
        kp_re    = prd_re;
        kp_raddr = KAW'(prd_addr);
      end
      default: ;
    endcase
  end

  bike_ram_sdp #(
    .Width (PW),
    .Depth (2 * D)
  ) u_kpos (
    .clk_i   (clk_i),
    .we_i    (kp_we),
    .waddr_i (kp_waddr),
    .wdata_i (kp_wdata),
    .re_i    (kp_re),
    .raddr_i (kp_raddr),
    .rdata_o (kp_rdata)
  );

  if (Encaps) begin : gen_epos
    assign ep_we    = (state_q == StEnSample) && smp_pos_valid;
    assign ep_waddr = EAW'(smp_pos_idx);
    assign ep_wdata = (PW + 1)'(smp_pos);
    assign ep_re    = (state_q == StEnMul) && prd_re;
    assign ep_raddr = EAW'(prd_addr);

    bike_ram_sdp #(
      .Width (PW + 1),
      .Depth (T)
    ) u_epos (
      .clk_i   (clk_i),
      .we_i    (ep_we),
      .waddr_i (ep_waddr),
      .wdata_i (ep_wdata),
      .re_i    (ep_re),
      .raddr_i (ep_raddr),
      .rdata_o (ep_rdata)
    );
  end else begin : gen_no_epos
    assign ep_we    = 1'b0;
    assign ep_waddr = '0;
    assign ep_wdata = '0;
    assign ep_re    = 1'b0;
    assign ep_raddr = '0;
    assign ep_rdata = '0;
    logic unused_ep;
    assign unused_ep = ^{ep_we, ep_waddr, ep_wdata, ep_re, ep_raddr};
  end

  // ---------------------------------------------------------------------------
  // Polynomial memories
  // ---------------------------------------------------------------------------
  // sampled positions: bank and word of each, toggled a cycle later
  always_comb begin
    rmw_go   = smp_pos_valid &&
               (state_q == StKgSample || state_q == StEnSample || state_q == StDeSample);
    rmw_bank = 3'd4;
    rmw_pos  = smp_pos;
    if (state_q == StKgSample) begin
      rmw_bank = smp_pos_set ? 3'd1 : 3'd0;
    end else if (smp_pos >= 17'(R)) begin
      rmw_bank = 3'd5;
      rmw_pos  = smp_pos - 17'(R);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rmw_q      <= 1'b0;
      rmw_bank_q <= '0;
      rmw_addr_q <= '0;
      rmw_bit_q  <= '0;
    end else begin
      rmw_q      <= rmw_go;
      rmw_bank_q <= rmw_bank;
      rmw_addr_q <= AW'(rmw_pos[16:6]);
      rmw_bit_q  <= rmw_pos[5:0];
    end
  end

  logic [2:0] dest_bank;
  always_comb begin
    dest_bank = 3'd4;
    unique case (state_q)
      StKgMul:    dest_bank = 3'd2;
      StEnMul:    dest_bank = 3'd3;
      StDeDecode: dest_bank = (ocnt_q < CntW'(N)) ? 3'd4 : 3'd5;
      default:    dest_bank = 3'd4;
    endcase
  end

  always_comb begin
    bk_waddr = '0;
    bk_wdata = '0;
    for (int b = 0; b < 6; b++) begin
      bk_we[b]    = 1'b0;
      bk_re[b]    = 1'b0;
      bk_raddr[b] = '0;
    end
    unique case (state_q)
      StLoad: begin
        if (obj_in_bank(obj_q)) begin
          bk_we[obj_bank(obj_q)]    = ld_fire && !ld_len_err;
          bk_waddr                  = AW'(cnt_q);
          bk_wdata                  = ld_word;
        end
      end
      StStore: begin
        if (obj_in_bank(obj_q)) begin
          bk_re[obj_bank(obj_q)]    = drd_re;
          bk_raddr[obj_bank(obj_q)] = AW'(drd_addr);
        end
      end
      StKgClear, StEnClear, StWipe: begin
        for (int b = 0; b < 6; b++) begin
          bk_we[b]    = (state_q == StKgClear) ? (b == 0 || b == 1) : (b == 4 || b == 5);
        end
        bk_waddr = AW'(cnt_q);
      end
      StKgSample, StEnSample, StDeSample: begin
        bk_re[rmw_bank]    = rmw_go;
        bk_raddr[rmw_bank] = AW'(rmw_pos[16:6]);
      end
      StKgInv: begin
        bk_re[0]    = drd_re;
        bk_raddr[0] = AW'(drd_addr);
        bk_we[4]    = inv_out_valid;
        bk_waddr    = AW'(ocnt_q);
        bk_wdata    = inv_out_data;
      end
      StKgMul, StEnMul, StDeMul: begin
        // dense operand: B4 (h0^-1), B2 (h), B3 (c0)
        if (state_q == StKgMul) begin
          bk_re[4]    = drd_re;
          bk_raddr[4] = AW'(drd_addr);
        end else if (state_q == StEnMul) begin
          bk_re[2]    = drd_re;
          bk_raddr[2] = AW'(drd_addr);
          // e0 word ocnt waits on B4's output for the product word ocnt
          bk_re[4]    = go_q || (sp_out_valid && ocnt_q != CntW'(N - 1));
          bk_raddr[4] = go_q ? '0 : AW'(ocnt_q + 1'b1);
        end else begin
          bk_re[3]    = drd_re;
          bk_raddr[3] = AW'(drd_addr);
        end
        bk_we[dest_bank]    = sp_out_valid;
        bk_waddr            = AW'(ocnt_q);
        bk_wdata            = (state_q == StEnMul) ? (sp_out_data ^ bk_rdata[4]) : sp_out_data;
      end
      StDeDecode: begin
        bk_re[4]            = drd_re;
        bk_raddr[4]         = AW'(drd_addr);
        bk_we[dest_bank]    = dec_out_valid;
        bk_waddr            = AW'((ocnt_q < CntW'(N)) ? ocnt_q : ocnt_q - CntW'(N));
        bk_wdata            = dec_out_data;
      end
      StEnHashL, StDeHashL: begin
        bk_re[4]    = hs_re_a;
        bk_raddr[4] = hs_raddr;
        bk_re[5]    = hs_re_b;
        bk_raddr[5] = hs_raddr;
      end
      StEnHashK, StDeHashK: begin
        bk_re[3]    = hs_re_c;
        bk_raddr[3] = hs_raddr;
      end
      StDeCmp: begin
        bk_re[4]    = (cnt_q < CntW'(N));
        bk_raddr[4] = AW'(cnt_q);
        bk_re[5]    = (cnt_q < CntW'(N));
        bk_raddr[5] = AW'(cnt_q);
      end
      default: ;
    endcase
    // the toggle of a sampled position (its read was issued a cycle before)
    if (rmw_q) begin
      bk_we[rmw_bank_q]    = 1'b1;
      bk_waddr             = rmw_addr_q;
      bk_wdata             = bk_rdata[rmw_bank_q] ^ (W'(1) << rmw_bit_q);
    end
  end

  localparam bit [5:0] HasBank = {HasB5, HasB4, HasB3, HasB2, HasB1, HasB0};

  for (genvar b = 0; b < 6; b++) begin : gen_bank
    if (HasBank[b]) begin : gen_mem
      bike_ram_sdp #(
        .Width (W),
        .Depth (N)
      ) u_mem (
        .clk_i   (clk_i),
        .we_i    (bk_we[b]),
        .waddr_i (bk_waddr),
        .wdata_i (bk_wdata),
        .re_i    (bk_re[b]),
        .raddr_i (bk_raddr[b]),
        .rdata_o (bk_rdata[b])
      );
    end else begin : gen_none
      assign bk_rdata[b] = '0;
      logic unused_bank;
      assign unused_bank = ^{bk_we[b], bk_re[b], bk_raddr[b]};
    end
  end

  // ---------------------------------------------------------------------------
  // Units
  // ---------------------------------------------------------------------------
  // keccak_core: the sampler's while it samples, the hasher's otherwise
  logic        k_start, k_stop, k_in_valid, k_in_ready, k_in_last, k_out_valid, k_out_ready;
  logic        k_out_last, k_busy;
  logic [63:0] k_in_data, k_out_data;
  logic [3:0]  k_in_bytes;
  logic        s_k_start, s_k_stop, s_k_in_valid, s_k_in_last, s_k_out_ready;
  logic [63:0] s_k_in_data;
  logic        h_k_start, h_k_in_valid, h_k_in_last, h_k_out_ready;
  logic [63:0] h_k_in_data;
  logic [3:0]  h_k_in_bytes;
  logic        smp_sel;

  assign smp_sel     = (state_q == StKgSample || state_q == StEnSample || state_q == StDeSample);
  assign k_start     = smp_sel ? s_k_start : h_k_start;
  assign k_stop      = smp_sel && s_k_stop;
  assign k_in_valid  = smp_sel ? s_k_in_valid : h_k_in_valid;
  assign k_in_data   = smp_sel ? s_k_in_data : h_k_in_data;
  assign k_in_last   = smp_sel ? s_k_in_last : h_k_in_last;
  assign k_in_bytes  = smp_sel ? 4'd8 : h_k_in_bytes;
  assign k_out_ready = smp_sel ? s_k_out_ready : h_k_out_ready;

  if (KeccakSerial) begin : gen_keccak_serial
    keccak_serial u_keccak (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .start_i     (k_start),
      .shake_i     (smp_sel),
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
  end else begin : gen_keccak_core
    keccak_core #(
      .RoundsPerCycle (RoundsPerCycle)
    ) u_keccak (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .start_i     (k_start),
      .shake_i     (smp_sel),
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
  end

  assign smp_mode = (state_q != StKgSample);

  sampler_ctrl #(
    .R (R),
    .D (D),
    .T (T)
  ) u_sampler (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .start_i       (smp_start),
    .mode_i        (smp_mode),
    .seed_idx_o    (smp_seed_idx),
    .seed_word_i   (msg_rdata_a),
    .busy_o        (smp_busy),
    .pos_valid_o   (smp_pos_valid),
    .pos_set_o     (smp_pos_set),
    .pos_idx_o     (smp_pos_idx),
    .pos_o         (smp_pos),
    .done_o        (smp_done),
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

  if (HasHash) begin : gen_hash
    assign hs_kind = (state_q == StEnHashK || state_q == StDeHashK);

    bike_kem_hash #(
      .R (R)
    ) u_hash (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .start_i       (hs_start),
      .kind_i        (hs_kind),
      .reg_idx_o     (hs_reg_idx),
      .reg_word_i    (hs_reg_word),
      .dig_valid_o   (hs_dig_valid),
      .dig_idx_o     (hs_dig_idx),
      .dig_o         (hs_dig),
      .done_o        (hs_done),
      .re_a_o        (hs_re_a),
      .re_b_o        (hs_re_b),
      .re_c_o        (hs_re_c),
      .raddr_o       (hs_raddr),
      .rdata_a_i     (bk_rdata[4]),
      .rdata_b_i     (bk_rdata[5]),
      .rdata_c_i     (bk_rdata[3]),
      .k_start_o     (h_k_start),
      .k_in_valid_o  (h_k_in_valid),
      .k_in_ready_i  (k_in_ready),
      .k_in_data_o   (h_k_in_data),
      .k_in_last_o   (h_k_in_last),
      .k_in_bytes_o  (h_k_in_bytes),
      .k_out_valid_i (k_out_valid),
      .k_out_ready_o (h_k_out_ready),
      .k_out_data_i  (k_out_data),
      .k_out_last_i  (k_out_last)
    );
  end else begin : gen_no_hash
    assign hs_kind       = 1'b0;
    assign hs_done       = 1'b0;
    assign hs_dig_valid  = 1'b0;
    assign hs_dig_idx    = '0;
    assign hs_dig        = '0;
    assign hs_reg_idx    = '0;
    assign hs_re_a       = 1'b0;
    assign hs_re_b       = 1'b0;
    assign hs_re_c       = 1'b0;
    assign hs_raddr      = '0;
    assign h_k_start     = 1'b0;
    assign h_k_in_valid  = 1'b0;
    assign h_k_in_data   = '0;
    assign h_k_in_last   = 1'b0;
    assign h_k_in_bytes  = '0;
    assign h_k_out_ready = 1'b0;
    logic unused_hash;
    assign unused_hash = ^{hs_start, hs_kind, hs_reg_word, k_out_last};
  end

  if (Keygen) begin : gen_inv
    logic inv_busy, inv_overrun;
    gf2x_inv #(
      .R               (R),
      .W               (W),
      .E               (InvE),
      .KaratsubaLevels (InvKaratsubaLevels),
      .ParallelLevels  (InvParallelLevels)
    ) u_inv (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .start_i     (inv_start),
      .busy_o      (inv_busy),
      .overrun_o   (inv_overrun),
      .in_ready_o  (inv_in_ready),
      .in_valid_i  (drd_valid && state_q == StKgInv),
      .in_data_i   (bk_rdata[0]),
      .out_valid_o (inv_out_valid),
      .out_data_o  (inv_out_data),
      .out_last_o  (inv_out_last)
    );
    logic unused_inv;
    assign unused_inv = ^{inv_busy, inv_overrun};
  end else begin : gen_no_inv
    assign inv_in_ready  = 1'b0;
    assign inv_out_valid = 1'b0;
    assign inv_out_data  = '0;
    assign inv_out_last  = 1'b0;
    logic unused_inv;
    assign unused_inv = ^{inv_start, bk_rdata[0]};
  end

  logic [W-1:0] sp_in_data;
  logic         mul_st;
  assign mul_st = (state_q == StKgMul || state_q == StEnMul || state_q == StDeMul);
  always_comb begin
    unique case (state_q)
      StKgMul: sp_in_data = bk_rdata[4];
      StEnMul: sp_in_data = bk_rdata[2];
      default: sp_in_data = bk_rdata[3];
    endcase
    if (drd_idx == CntW'(N - 1)) sp_in_data = sp_in_data & LastMask;  // a c0 as given
  end

  if (Decaps) begin : gen_dec
    // the decoder, and in the product steps its units as the multiplier
    logic dec_busy, d_idx_ready, d_in_ready, d_out_valid, d_out_last;
    logic [W-1:0] d_out_data;
    bike_decoder #(
      .R (R),
      .D (D),
      .W (W),
      .P (DecoderP),
      .Prefetch (DecoderPrefetch),
      .Tile (DecoderTile)
    ) u_dec (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .start_i     (dec_start || sp_start),
      .mul_i       (sp_start),
      .busy_o      (dec_busy),
      .idx_ready_o (d_idx_ready),
      .idx_valid_i (prd_valid && (state_q == StDeDecode || mul_st)),
      .idx_i       (mul_st ? sp_idx : kp_rdata),
      .idx_en_i    (sp_idx_en),
      .idx_last_i  (prd_last),
      .in_ready_o  (d_in_ready),
      .in_valid_i  (drd_valid && (state_q == StDeDecode || mul_st)),
      .in_data_i   (mul_st ? sp_in_data : bk_rdata[4]),
      .out_valid_o (d_out_valid),
      .out_data_o  (d_out_data),
      .out_last_o  (d_out_last),
      .ok_o        (dec_ok)
    );
    assign dec_idx_ready = d_idx_ready;
    assign dec_in_ready  = d_in_ready;
    assign dec_out_valid = d_out_valid;
    assign dec_out_data  = d_out_data;
    assign dec_out_last  = d_out_last;
    assign sp_idx_ready  = d_idx_ready;
    assign sp_in_ready   = d_in_ready;
    assign sp_out_valid  = d_out_valid;
    assign sp_out_data   = d_out_data;
    assign sp_out_last   = d_out_last;
    logic unused_dec;
    assign unused_dec = dec_busy;
  end else begin : gen_no_dec
    assign dec_idx_ready = 1'b0;
    assign dec_in_ready  = 1'b0;
    assign dec_out_valid = 1'b0;
    assign dec_out_data  = '0;
    assign dec_out_last  = 1'b0;
    assign dec_ok        = 1'b0;

    logic sp_busy;
    sparse_mul #(
      .R      (R),
      .D      (Slots),
      .W      (W),
      .P      (SparseP),
      .Counts (1'b0)
    ) u_sparse (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .start_i     (sp_start),
      .rounds_i    (CntW'(SpG)),
      .bias_i      ('0),
      .prod_i      (1'b0),
      .busy_o      (sp_busy),
      .idx_ready_o (sp_idx_ready),
      .idx_valid_i (prd_valid && mul_st),
      .idx_i       (sp_idx),
      .idx_en_i    (sp_idx_en),
      .in_ready_o  (sp_in_ready),
      .in_valid_i  (drd_valid && mul_st),
      .in_data_i   (sp_in_data),
      .out_valid_o (sp_out_valid),
      .out_data_o  (sp_out_data),
      .out_last_o  (sp_out_last)
    );
    logic unused_dec;
    assign unused_dec = ^{dec_start, sp_busy};
  end

  logic unused;
  assign unused = ^{smp_busy, k_busy};

endmodule
