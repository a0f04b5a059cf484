// The control of bike_kem (doc/bike_kem.md): the command decode, the step
// sequence of each primitive and of LOAD and STORE, the step counters, and
// the flags (keys valid, RAND fresh, c0 well formed, the decoder's and the
// zero test's verdicts).
//
// Each state is a step; step_o describes it (bike_kem_pkg::step_t: which
// unit runs, which memory feeds it, where its results go), and the data
// path (bike_kem_banks, the units) routes by that descriptor alone. A step
// starts its unit(s) in its first cycle (go_o) and ends on the unit's last
// result word or a word count that depends only on the parameters, so every
// primitive takes the same number of cycles for every input.
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
module bike_kem_ctrl
  import bike_kem_pkg::*;
#(
  parameter int unsigned R      = 12323,
  parameter int unsigned D      = 71,
  parameter int unsigned T      = 134,
  parameter bit          Keygen = 1'b1,
  parameter bit          Encaps = 1'b1,
  parameter bit          Decaps = 1'b1,
  // derived
  localparam int unsigned W     = 64,
  localparam int unsigned N     = (R + W - 1) / W,
  localparam int unsigned Sh    = R % W,
  localparam int unsigned Slots = Encaps ? T : D,  // a sparse_mul's positions
  localparam int unsigned CntW  = 16
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // command
  input  logic            cmd_valid_i,
  input  logic [3:0]      cmd_op_i,
  input  logic [3:0]      cmd_obj_i,
  output logic            busy_o,
  output logic            done_o,
  output logic [3:0]      err_o,
  output logic            pk_valid_o,
  output logic            sk_valid_o,
  // LOAD: the host's words, and the word to store (ld_data_o, with ld_we_o)
  input  logic            in_valid_i,
  output logic            in_ready_o,
  input  logic [W-1:0]    in_data_i,
  input  logic            in_last_i,
  output logic            ld_fire_o,   // a word is taken
  output logic            ld_we_o,     // ... and the packet's length is right so far
  output logic [W-1:0]    ld_data_o,
  output logic [31:0]     hold_o,      // the second position of a SK_POS word
  // STORE
  input  logic            out_ready_i,
  // the step
  output step_t           step_o,
  output logic            go_o,        // its first cycle
  output logic [CntW-1:0] cnt_o,       // word / phase counter of the step
  output logic [CntW-1:0] ocnt_o,      // result words written
  output logic [1:0]      ph_o,        // phase of a SK_POS word
  output logic            ok_o,        // Decaps: m' is kept (K's m'' = m')
  // unit starts
  output logic            smp_start_o,
  output logic            hs_start_o,
  output logic            inv_start_o,
  output logic            mul_start_o,
  output logic            dec_start_o,
  output logic            prd_start_o,
  output logic [CntW-1:0] prd_count_o,
  output logic            drd_start_o,
  output logic [CntW-1:0] drd_count_o,
  // unit events
  input  logic            smp_done_i,
  input  logic            rmw_busy_i,  // a sampled position's toggle is in flight
  input  logic            hs_done_i,
  input  logic            inv_out_valid_i,
  input  logic            inv_out_last_i,
  input  logic            mul_out_valid_i,
  input  logic            mul_out_last_i,
  input  logic            dec_out_valid_i,
  input  logic            dec_out_last_i,
  input  logic            dec_ok_i,
  input  logic            drd_valid_i,
  input  logic            drd_last_i,
  input  logic            nonzero_i    // the zero test's words (B4, B5) are not zero
);

  localparam logic [W-1:0] LastMask = W'((W'(1) << Sh) - W'(1));

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

  // ---------------------------------------------------------------------------
  // The step descriptor of each state
  // ---------------------------------------------------------------------------
  function automatic step_t step_of(state_e s, logic [3:0] o);
    step_t st;
    st        = '0;
    st.unit   = UnitNone;
    st.obj_mem = MemNone;
    st.src    = BankC0;
    st.dst    = BankE0;
    st.dst_hi = BankE0;
    st.pos    = PosNone;
    unique case (s)
      StLoad: begin
        st.load     = 1'b1;
        st.obj_mem  = obj_mem(o);
        st.dst      = obj_bank(o);
        st.dst_hi   = obj_bank(o);
        st.msg_base = obj_msg_base(o);
      end
      StStore: begin
        st.store    = 1'b1;
        st.obj_mem  = obj_mem(o);
        st.src      = obj_bank(o);
        st.msg_base = obj_msg_base(o);
      end
      StKgClear: begin
        st.zero_banks = 6'b00_0011;  // B0, B1
        st.sigma_copy = 1'b1;
      end
      StKgSample: begin
        st.unit    = UnitSampler;
        st.smp_key = 1'b1;
      end
      StKgInv: begin
        st.unit   = UnitInv;
        st.src    = BankH0;
        st.dst    = BankE0;
        st.dst_hi = BankE0;
      end
      StKgMul: begin  // h = h1 h0^-1
        st.unit   = UnitMul;
        st.src    = BankE0;
        st.dst    = BankPk;
        st.dst_hi = BankPk;
        st.pos    = PosH1;
      end
      StEnClear: st.zero_banks = 6'b11_0000;  // B4, B5
      StEnSample: begin
        st.unit     = UnitSampler;
        st.smp_epos = 1'b1;
      end
      StEnHashL: st.unit = UnitHash;
      StEnMul: begin  // c0 = e1 h + e0
        st.unit   = UnitMul;
        st.src    = BankPk;
        st.dst    = BankC0;
        st.dst_hi = BankC0;
        st.pos    = PosE1;
        st.add_e0 = 1'b1;
      end
      StEnHashK: begin
        st.unit   = UnitHash;
        st.hash_k = 1'b1;
      end
      StDeMul: begin  // the syndrome c0 h0
        st.unit    = UnitMul;
        st.src     = BankC0;
        st.dst     = BankE0;
        st.dst_hi  = BankE0;
        st.pos     = PosH0;
        st.m_prime = 1'b1;
      end
      StDeDecode: begin
        st.unit    = UnitDecoder;
        st.src     = BankE0;
        st.dst     = BankE0;
        st.dst_hi  = BankE1;
        st.pos     = PosKey;
        st.m_prime = 1'b1;
      end
      StDeHashL: begin
        st.unit    = UnitHash;
        st.m_prime = 1'b1;
      end
      StDeSample: begin
        st.unit    = UnitSampler;
        st.m_prime = 1'b1;
      end
      StDeCmp: begin
        st.zero_test = 1'b1;
        st.m_prime   = 1'b1;
      end
      StDeHashK: begin
        st.unit    = UnitHash;
        st.hash_k  = 1'b1;
        st.m_prime = 1'b1;
        st.ok_mask = 1'b1;
      end
      StWipe: begin  // secrets leave the memories at the end of every primitive
        st.zero_banks = 6'b11_0000;
        st.wipe_msg   = 1'b1;
      end
      default: ;
    endcase
    // the routes of primitives a build lacks stay constant (synthesis drops them)
    if (!Keygen) begin
      st.smp_key    = 1'b0;
      st.sigma_copy = 1'b0;
    end
    if (!Encaps) begin
      st.smp_epos = 1'b0;
      st.add_e0   = 1'b0;
    end
    if (!Decaps) begin
      st.m_prime   = 1'b0;
      st.ok_mask   = 1'b0;
      st.zero_test = 1'b0;
    end
    return st;
  endfunction

  // ---------------------------------------------------------------------------
  // Objects
  // ---------------------------------------------------------------------------
  function automatic logic [CntW-1:0] obj_words(logic [3:0] o);
    unique case (o)
      ObjRand:                         return CntW'(8);
      ObjPk, ObjSkH0, ObjSkH1, ObjC0:  return CntW'(N);
      ObjSkPos:                        return CntW'(D);
      default:                         return CntW'(4);
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

  state_e          state_q, state_d;
  logic            go_q, go_d;
  logic [3:0]      obj_q, obj_d;
  logic [3:0]      err_q, err_d;
  logic [CntW-1:0] cnt_q, cnt_d;
  logic [CntW-1:0] ocnt_q, ocnt_d;
  logic [1:0]      ph_q, ph_d;
  logic [31:0]     hold_q, hold_d;
  logic            smp_done_q, smp_done_d;  // the sampler is done (its toggles may still run)
  logic            pk_ok_q, pk_ok_d;        // the public key is valid
  logic            key_ok_q, key_ok_d;      // the secret key is valid
  logic            c0_ok_q, c0_ok_d;        // c0 has no bit at or above R
  logic            dec_ok_q, dec_ok_d;      // the decoder's syndrome is zero
  logic            diff_q, diff_d;          // the zero test saw a nonzero word
  logic            rand_ok_q, rand_ok_d;    // RAND loaded, not used by a primitive yet

  // the step's descriptor, registered: step_of(state_q, obj_q) as a
  // register (from the next state), so that the routing it drives in
  // bike_kem_banks and the units starts at flip-flops, not at a decode
  localparam step_t StepIdle = step_of(StIdle, '0);
  step_t step, step_q, step_d;
  assign step_d = step_of(state_d, obj_d);
  assign step   = step_q;

  // a LOAD word. The last word of a public key keeps bits below R only. A c0
  // is kept as given: K hashes the ciphertext's bytes (bits at or above R
  // included, as libbike does); the sparse product masks them.
  logic ld_fire, ld_lastw, ld_len_err, ld_hi_bits, pos_lo_ok, pos_hi_ok;
  assign ld_fire    = in_valid_i && in_ready_o;
  assign ld_lastw   = (cnt_q == obj_words(obj_q) - 1'b1);
  assign ld_len_err = (in_last_i != ld_lastw);
  assign ld_hi_bits = obj_in_bank(obj_q) && ld_lastw && ((in_data_i & ~LastMask) != '0);
  assign ld_data_o  = (obj_q == ObjPk && ld_lastw) ? (in_data_i & LastMask) : in_data_i;
  assign ld_fire_o  = ld_fire;
  assign ld_we_o    = ld_fire && !ld_len_err;
  // SK_POS words: two 32-bit positions, each must be below R
  assign pos_lo_ok  = (in_data_i[31:0] < 32'(R));
  assign pos_hi_ok  = (in_data_i[63:32] < 32'(R));

  // ---------------------------------------------------------------------------
  // Command decode: the first state of an operation, or why it is refused
  // ---------------------------------------------------------------------------
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

  // ---------------------------------------------------------------------------
  // Steps
  // ---------------------------------------------------------------------------
  always_comb begin
    state_d     = state_q;
    obj_d       = obj_q;
    err_d       = err_q;
    cnt_d       = cnt_q;
    ocnt_d      = ocnt_q;
    ph_d        = ph_q;
    hold_d      = hold_q;
    in_ready_o  = 1'b0;
    smp_start_o = 1'b0;
    hs_start_o  = 1'b0;
    inv_start_o = 1'b0;
    mul_start_o = 1'b0;
    dec_start_o = 1'b0;
    prd_start_o = 1'b0;
    drd_start_o = 1'b0;
    prd_count_o = CntW'(Slots);
    drd_count_o = CntW'(N);

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
          drd_start_o = go_q;
          if (drd_valid_i && out_ready_i && drd_last_i) state_d = StDone;
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
        smp_start_o = go_q;
        if ((smp_done_i || smp_done_q) && !rmw_busy_i) begin
          state_d = (state_q == StKgSample) ? StKgInv :
                    (state_q == StEnSample) ? StEnHashL : StDeCmp;
        end
      end

      StKgInv: begin
        inv_start_o = go_q;
        drd_start_o = go_q;
        if (inv_out_valid_i) ocnt_d = ocnt_q + 1'b1;
        if (inv_out_valid_i && inv_out_last_i) state_d = StKgMul;
      end

      StKgMul, StEnMul, StDeMul: begin
        mul_start_o = go_q;
        prd_start_o = go_q;
        drd_start_o = go_q;
        // the decoder's units take only the real positions (D, or T for e1 h)
        if (Decaps) prd_count_o = CntW'((state_q == StEnMul) ? T : D);
        if (mul_out_valid_i) ocnt_d = ocnt_q + 1'b1;
        if (mul_out_valid_i && mul_out_last_i) begin
          state_d = (state_q == StKgMul) ? StWipe :
                    (state_q == StEnMul) ? StEnHashK : StDeDecode;
        end
      end

      StEnHashL, StEnHashK, StDeHashL, StDeHashK: begin
        hs_start_o = go_q;
        if (hs_done_i) begin
          state_d = (state_q == StEnHashL) ? StEnMul :
                    (state_q == StDeHashL) ? StDeSample : StWipe;
        end
      end

      StDeDecode: begin
        dec_start_o = go_q;
        prd_start_o = go_q;
        drd_start_o = go_q;
        prd_count_o = CntW'(2 * D);
        if (dec_out_valid_i) ocnt_d = ocnt_q + 1'b1;
        if (dec_out_valid_i && dec_out_last_i) state_d = StDeHashL;
      end

      StDeCmp: begin  // read word cnt of B4 and B5; OR in the previous one
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == CntW'(N)) state_d = StDeHashK;
      end

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
    go_d       = (state_d != state_q) && (state_d != StIdle);
    smp_done_d = (smp_done_i || smp_done_q) && (state_d == state_q);
  end

  // ---------------------------------------------------------------------------
  // Flags
  // ---------------------------------------------------------------------------
  always_comb begin
    pk_ok_d   = pk_ok_q;
    key_ok_d  = key_ok_q;
    c0_ok_d   = c0_ok_q;
    dec_ok_d  = dec_ok_q;
    diff_d    = diff_q;
    rand_ok_d = rand_ok_q;

    // LOAD: a key or c0 is valid from its first word until a word is wrong
    if (state_q == StLoad && ld_fire) begin
      if (obj_q == ObjRand) rand_ok_d = ld_lastw && !ld_len_err;
      if (cnt_q == '0) begin
        if (obj_q == ObjPk)    pk_ok_d  = 1'b1;
        if (obj_q == ObjSkPos) key_ok_d = 1'b1;
        if (obj_q == ObjC0)    c0_ok_d  = 1'b1;
      end
      if (ld_len_err || ld_hi_bits || (obj_q == ObjSkPos && !(pos_lo_ok && pos_hi_ok))) begin
        if (obj_q == ObjPk)    pk_ok_d  = 1'b0;
        if (obj_q == ObjSkPos) key_ok_d = 1'b0;
        if (obj_q == ObjC0)    c0_ok_d  = 1'b0;
      end
    end

    // KeyGen: the key pair it makes is the loaded one
    if (state_q == StKgClear && go_q) begin
      pk_ok_d  = 1'b0;
      key_ok_d = 1'b0;
    end
    if (state_q == StKgMul && mul_out_valid_i && mul_out_last_i) begin
      pk_ok_d  = 1'b1;
      key_ok_d = 1'b1;
    end
    if (state_q == StEnMul && mul_out_valid_i && mul_out_last_i) c0_ok_d = 1'b1;

    if (state_q == StDeDecode && dec_out_valid_i && dec_out_last_i) dec_ok_d = dec_ok_i;
    if (state_q == StDeCmp) diff_d = !go_q && (diff_q || nonzero_i);
    // the random input does not outlive the primitive (its words and m'
    // leave the message memory during StWipe)
    if (state_q == StWipe && go_q) begin
      rand_ok_d = 1'b0;
      diff_d    = 1'b0;
      dec_ok_d  = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= StIdle;
      step_q     <= StepIdle;
      go_q       <= 1'b0;
      obj_q      <= '0;
      err_q      <= '0;
      cnt_q      <= '0;
      ocnt_q     <= '0;
      ph_q       <= '0;
      hold_q     <= '0;
      smp_done_q <= 1'b0;
      pk_ok_q    <= 1'b0;
      key_ok_q   <= 1'b0;
      rand_ok_q  <= 1'b0;
      c0_ok_q    <= 1'b0;
      dec_ok_q   <= 1'b0;
      diff_q     <= 1'b0;
    end else begin
      state_q    <= state_d;
      step_q     <= step_d;
      go_q       <= go_d;
      obj_q      <= obj_d;
      err_q      <= err_d;
      cnt_q      <= cnt_d;
      ocnt_q     <= ocnt_d;
      ph_q       <= ph_d;
      hold_q     <= hold_d;
      smp_done_q <= smp_done_d;
      pk_ok_q    <= pk_ok_d;
      key_ok_q   <= key_ok_d;
      rand_ok_q  <= rand_ok_d;
      c0_ok_q    <= c0_ok_d;
      dec_ok_q   <= dec_ok_d;
      diff_q     <= diff_d;
    end
  end

  assign step_o     = step;
  assign go_o       = go_q;
  assign cnt_o      = cnt_q;
  assign ocnt_o     = ocnt_q;
  assign ph_o       = ph_q;
  assign hold_o     = hold_q;
  assign ok_o       = !diff_q && dec_ok_q && c0_ok_q;
  assign busy_o     = (state_q != StIdle);
  assign done_o     = (state_q == StDone);
  assign err_o      = err_q;
  assign pk_valid_o = pk_ok_q;
  assign sk_valid_o = key_ok_q;

endmodule
