// The memories of bike_kem and their routing (doc/bike_kem.md). What each
// port reads or writes is chosen by the step descriptor (step_i) alone:
//   B0..B5     polynomials, N words of 64 bits (bike_ram_sdp; a build has
//              the banks its primitives use); one write port shared by the
//              six (no step writes two of them differently)
//   KPOS       the 2d positions of h0, h1 (KeyGen's sampler, SK_POS)
//   EPOS       the t positions of H(m) (Encaps)
//   message    the 32-byte objects (RAND, SIGMA, C1, SS, m') in 24 words
//              of distributed RAM, two read ports and one write port
// and the word streams between them and the host (LOAD, STORE) and the
// units: the dense operand (src), the result words (dst, dst_hi), the
// positions of a product (pos), the sampler's seed and toggles, the
// hasher's reads and digest words.
module bike_kem_banks
  import bike_kem_pkg::*;
#(
  parameter int unsigned R      = 12323,
  parameter int unsigned D      = 71,
  parameter int unsigned T      = 134,
  parameter bit          Keygen = 1'b1,
  parameter bit          Encaps = 1'b1,
  parameter bit          Decaps = 1'b1,
  // derived
  localparam int unsigned W    = 64,
  localparam int unsigned N    = (R + W - 1) / W,
  localparam int unsigned AW   = (N > 1) ? $clog2(N) : 1,
  localparam int unsigned PW   = $clog2(R),
  localparam int unsigned Sh   = R % W,
  localparam int unsigned KAW  = $clog2(2 * D),
  localparam int unsigned EAW  = $clog2(T),
  localparam int unsigned CntW = 16
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // the step (bike_kem_ctrl)
  input  step_t           step_i,
  input  logic            go_i,
  input  logic [CntW-1:0] cnt_i,
  input  logic [CntW-1:0] ocnt_i,
  input  logic [1:0]      ph_i,
  input  logic [31:0]     hold_i,
  input  logic            ok_i,
  // LOAD
  input  logic            ld_fire_i,
  input  logic            ld_we_i,
  input  logic [W-1:0]    ld_data_i,
  input  logic [W-1:0]    in_data_i,
  // STORE
  output logic            out_valid_o,
  output logic [W-1:0]    out_data_o,
  output logic            out_last_o,
  // readers: positions (prd) and dense words (drd)
  input  logic            prd_re_i,
  input  logic [CntW-1:0] prd_addr_i,
  input  logic [CntW-1:0] prd_idx_i,
  input  logic            drd_re_i,
  input  logic [CntW-1:0] drd_addr_i,
  input  logic [CntW-1:0] drd_idx_i,
  input  logic            drd_valid_i,
  input  logic            drd_last_i,
  // the units' operands: dense words (the src bank), positions
  output logic [W-1:0]    opd_o,
  output logic [PW-1:0]   pos_o,
  output logic            pos_en_o,
  // the units' result words (to dst, dst_hi): the inversion's, and the
  // engine's (the sparse_mul, or the decoder, whose units run the products)
  input  logic            inv_out_valid_i,
  input  logic [W-1:0]    inv_out_data_i,
  input  logic            eng_out_valid_i,
  input  logic [W-1:0]    eng_out_data_i,
  // sampler
  input  logic [1:0]      smp_seed_idx_i,
  output logic [W-1:0]    smp_seed_o,
  input  logic            smp_pos_valid_i,
  input  logic            smp_pos_set_i,
  input  logic [8:0]      smp_pos_idx_i,
  input  logic [16:0]     smp_pos_i,
  output logic            rmw_busy_o,
  // hasher
  input  logic            hs_re_a_i,
  input  logic            hs_re_b_i,
  input  logic            hs_re_c_i,
  input  logic [AW-1:0]   hs_raddr_i,
  output logic [W-1:0]    hs_rdata_a_o,  // e0 (B4)
  output logic [W-1:0]    hs_rdata_b_o,  // e1 (B5)
  output logic [W-1:0]    hs_rdata_c_o,  // c0 (B3)
  input  logic [2:0]      hs_reg_idx_i,
  output logic [W-1:0]    hs_reg_word_o,
  input  logic            hs_dig_valid_i,
  input  logic [1:0]      hs_dig_idx_i,
  input  logic [W-1:0]    hs_dig_i,
  // the zero test: B4's or B5's word is not zero
  output logic            nonzero_o
);

  localparam logic [W-1:0] LastMask = W'((W'(1) << Sh) - W'(1));

  // which memories a build has
  localparam bit HasB0 = Keygen;               // h0 (dense)
  localparam bit HasB1 = Keygen;               // h1 (dense)
  localparam bit HasB2 = Keygen || Encaps;     // the public key h
  localparam bit HasB3 = Encaps || Decaps;     // c0
  localparam bit HasB4 = 1'b1;                 // h0^-1, e0, syndrome, e0'
  localparam bit HasB5 = Encaps || Decaps;     // e1, e1'
  localparam bit [NumBanks-1:0] HasBank = {HasB5, HasB4, HasB3, HasB2, HasB1, HasB0};

  logic           bk_we [NumBanks];
  logic           bk_re [NumBanks];
  logic [AW-1:0]  bk_raddr [NumBanks];
  logic [AW-1:0]  bk_waddr;
  logic [W-1:0]   bk_wdata;
  logic [W-1:0]   bk_rdata [NumBanks];

  logic           kp_we, kp_re;
  logic [KAW-1:0] kp_waddr, kp_raddr;
  logic [PW-1:0]  kp_wdata, kp_rdata;
  logic           ep_we, ep_re;
  logic [EAW-1:0] ep_waddr, ep_raddr;
  logic [PW:0]    ep_wdata, ep_rdata;

  logic           msg_we;
  logic [4:0]     msg_waddr, msg_raddr_a, msg_raddr_b;
  logic [W-1:0]   msg_wdata, msg_rdata_a, msg_rdata_b;

  logic           in_bank, in_pos, in_msg;   // the LOAD / STORE object's memory
  logic           dense_unit;                   // a unit with a dense operand and results
  assign in_bank   = (step_i.obj_mem == MemBank);
  assign in_pos    = (step_i.obj_mem == MemPos);
  assign in_msg    = (step_i.obj_mem == MemMsg);
  assign dense_unit = (step_i.unit == UnitInv) || (step_i.unit == UnitMul) ||
                      (step_i.unit == UnitDecoder);

  // ---------------------------------------------------------------------------
  // Sampled positions: read-modify-written into a dense polynomial, a toggle
  // a cycle after the read (h0, h1 into B0, B1; e0, e1 into B4, B5)
  // ---------------------------------------------------------------------------
  logic          rmw_go;
  bank_e         rmw_bank;
  logic [16:0]   rmw_pos;
  logic          rmw_q;
  bank_e         rmw_bank_q;
  logic [AW-1:0] rmw_addr_q, rmw_addr_d;
  logic [5:0]    rmw_bit_q, rmw_bit_d;

  always_comb begin
    rmw_go   = smp_pos_valid_i && (step_i.unit == UnitSampler);
    rmw_bank = BankE0;
    rmw_pos  = smp_pos_i;
    if (step_i.smp_key) begin
      rmw_bank = smp_pos_set_i ? BankH1 : BankH0;
    end else if (smp_pos_i >= 17'(R)) begin
      rmw_bank = BankE1;
      rmw_pos  = smp_pos_i - 17'(R);
    end
    rmw_addr_d = AW'(rmw_pos[16:6]);
    rmw_bit_d  = rmw_pos[5:0];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rmw_q      <= 1'b0;
      rmw_bank_q <= BankH0;
      rmw_addr_q <= '0;
      rmw_bit_q  <= '0;
    end else begin
      rmw_q      <= rmw_go;
      rmw_bank_q <= rmw_bank;
      rmw_addr_q <= rmw_addr_d;
      rmw_bit_q  <= rmw_bit_d;
    end
  end

  assign rmw_busy_o = rmw_q || rmw_go;

  // ---------------------------------------------------------------------------
  // Polynomial memories
  // ---------------------------------------------------------------------------
  // the unit's result word k: words 0 .. N-1 to dst, N .. 2N-1 to dst_hi
  logic         res_valid, res_hi;
  logic [W-1:0] res_data;
  bank_e        res_bank;

  always_comb begin
    res_valid = eng_out_valid_i;
    res_data  = eng_out_data_i;
    if (Keygen && step_i.unit == UnitInv) begin
      res_valid = inv_out_valid_i;
      res_data  = inv_out_data_i;
    end
    if (Encaps && step_i.add_e0) res_data = res_data ^ bk_rdata[BankE0];
    res_hi   = Decaps && (ocnt_i >= CntW'(N));  // only the decoder writes 2N words
    res_bank = res_hi ? step_i.dst_hi : step_i.dst;
  end

  always_comb begin
    bk_waddr = '0;
    bk_wdata = '0;
    for (int b = 0; b < NumBanks; b++) begin
      bk_we[b]    = 1'b0;
      bk_re[b]    = 1'b0;
      bk_raddr[b] = '0;
    end
    if (step_i.load && in_bank) begin
      bk_we[step_i.dst] = ld_we_i;
      bk_waddr          = AW'(cnt_i);
      bk_wdata          = ld_data_i;
    end
    if (step_i.store && in_bank) begin
      bk_re[step_i.src]    = drd_re_i;
      bk_raddr[step_i.src] = AW'(drd_addr_i);
    end
    if (step_i.zero_banks != '0) begin
      for (int b = 0; b < NumBanks; b++) bk_we[b] = step_i.zero_banks[b];
      bk_waddr = AW'(cnt_i);
    end
    if (step_i.unit == UnitSampler) begin
      bk_re[rmw_bank]    = rmw_go;
      bk_raddr[rmw_bank] = AW'(rmw_pos[16:6]);
    end
    if (dense_unit) begin
      bk_re[step_i.src]    = drd_re_i;
      bk_raddr[step_i.src] = AW'(drd_addr_i);
      if (step_i.add_e0) begin
        // e0 word ocnt waits on B4's output for the product word ocnt
        bk_re[BankE0]    = go_i || (res_valid && ocnt_i != CntW'(N - 1));
        bk_raddr[BankE0] = go_i ? '0 : AW'(ocnt_i + 1'b1);
      end
      bk_we[res_bank] = res_valid;
      bk_waddr        = AW'(res_hi ? ocnt_i - CntW'(N) : ocnt_i);
      bk_wdata        = res_data;
    end
    if (step_i.unit == UnitHash) begin
      if (step_i.hash_k) begin
        bk_re[BankC0]    = hs_re_c_i;
        bk_raddr[BankC0] = hs_raddr_i;
      end else begin
        bk_re[BankE0]    = hs_re_a_i;
        bk_raddr[BankE0] = hs_raddr_i;
        bk_re[BankE1]    = hs_re_b_i;
        bk_raddr[BankE1] = hs_raddr_i;
      end
    end
    if (step_i.zero_test) begin
      bk_re[BankE0]    = (cnt_i < CntW'(N));
      bk_raddr[BankE0] = AW'(cnt_i);
      bk_re[BankE1]    = (cnt_i < CntW'(N));
      bk_raddr[BankE1] = AW'(cnt_i);
    end
    // the toggle of a sampled position (its read was issued a cycle before)
    if (rmw_q) begin
      bk_we[rmw_bank_q] = 1'b1;
      bk_waddr          = rmw_addr_q;
      bk_wdata          = bk_rdata[rmw_bank_q] ^ (W'(1) << rmw_bit_q);
    end
  end

  for (genvar b = 0; b < NumBanks; b++) begin : gen_bank
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

  // the src bank's word: to STORE, and as the dense operand (a product's
  // last word masked to R bits: a c0 is kept as given)
  logic [W-1:0] src_word;
  always_comb begin
    unique case (step_i.src)
      BankH0:  src_word = bk_rdata[BankH0];
      BankH1:  src_word = bk_rdata[BankH1];
      BankPk:  src_word = bk_rdata[BankPk];
      BankE0:  src_word = bk_rdata[BankE0];
      default: src_word = bk_rdata[BankC0];  // no step reads B5 as a source
    endcase
    opd_o = src_word;
    if (step_i.unit == UnitMul && drd_idx_i == CntW'(N - 1)) opd_o = opd_o & LastMask;
  end

  assign hs_rdata_a_o = bk_rdata[BankE0];
  assign hs_rdata_b_o = bk_rdata[BankE1];
  assign hs_rdata_c_o = bk_rdata[BankC0];
  assign nonzero_o    = (bk_rdata[BankE0] != '0) || (bk_rdata[BankE1] != '0);

  // ---------------------------------------------------------------------------
  // Position memories
  // ---------------------------------------------------------------------------
  always_comb begin
    kp_we    = 1'b0;
    kp_waddr = '0;
    kp_wdata = '0;
    kp_re    = 1'b0;
    kp_raddr = '0;
    if (step_i.load && in_pos) begin
      kp_we    = ph_i[0] || ld_we_i;
      kp_waddr = KAW'(2 * cnt_i + (ph_i[0] ? 1 : 0));
      kp_wdata = ph_i[0] ? PW'(hold_i) : PW'(in_data_i[31:0]);
    end
    if (step_i.unit == UnitSampler && step_i.smp_key && smp_pos_valid_i) begin
      kp_we    = 1'b1;
      kp_waddr = KAW'((smp_pos_set_i ? D : 0) + 32'(smp_pos_idx_i));
      kp_wdata = PW'(smp_pos_i);
    end
    if (step_i.store && in_pos && ph_i != 2'd2) begin
      kp_re    = 1'b1;
      kp_raddr = KAW'(2 * cnt_i + (ph_i[0] ? 1 : 0));
    end
    unique case (step_i.pos)
      PosH1: begin
        kp_re    = prd_re_i;
        kp_raddr = (prd_addr_i < CntW'(D)) ? KAW'(CntW'(D) + prd_addr_i) : '0;
      end
      PosH0: begin
        kp_re    = prd_re_i;
        kp_raddr = (prd_addr_i < CntW'(D)) ? KAW'(prd_addr_i) : '0;
      end
      PosKey: begin
        kp_re    = prd_re_i;
        kp_raddr = KAW'(prd_addr_i);
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
    assign ep_we    = step_i.smp_epos && smp_pos_valid_i;
    assign ep_waddr = EAW'(smp_pos_idx_i);
    assign ep_wdata = (PW + 1)'(smp_pos_i);
    assign ep_re    = (step_i.pos == PosE1) && prd_re_i;
    assign ep_raddr = EAW'(prd_addr_i);

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

  // positions to the product (masked beyond the real ones) or to the
  // decoder (h0 then h1)
  always_comb begin
    pos_o    = kp_rdata;
    pos_en_o = 1'b0;
    unique case (step_i.pos)
      PosH0, PosH1: pos_en_o = (prd_idx_i < CntW'(D));
      PosE1: begin  // e1 = the positions at or above R
        pos_en_o = (ep_rdata >= (PW + 1)'(R));
        pos_o    = PW'(ep_rdata - (PW + 1)'(R));
      end
      default: ;
    endcase
  end

  // ---------------------------------------------------------------------------
  // Message memory
  // ---------------------------------------------------------------------------
  // m is rand[0..3] in KeyGen's and Encaps' steps, m' in Decaps'
  logic [4:0] m_base;
  assign m_base = step_i.m_prime ? MsgM : MsgRand;

  // port A: STORE words, the sampler's seed, the hasher's m and c1 words;
  // port B: the other operand of a word step
  always_comb begin
    msg_raddr_a = step_i.msg_base + 5'(cnt_i[2:0]);
    msg_raddr_b = MsgRand + 5'd4 + 5'(cnt_i[1:0]);       // sigma_copy: rand[4 + cnt]
    if (step_i.unit == UnitSampler) msg_raddr_a = m_base + 5'(smp_seed_idx_i);
    if (step_i.unit == UnitHash) begin
      if (step_i.hash_k) begin
        msg_raddr_a = (hs_reg_idx_i[2] ? MsgC1 : m_base) + 5'(hs_reg_idx_i[1:0]);
        msg_raddr_b = MsgSigma + 5'(hs_reg_idx_i[1:0]);
      end else begin  // L's digest XORs m (Encaps) or c1 (Decaps)
        msg_raddr_b = (step_i.m_prime ? MsgC1 : MsgRand) + 5'(hs_dig_idx_i);
      end
    end
  end

  // K's m word in Decaps: m'' = ok ? m' : sigma (a mask, no branch on ok)
  logic m_keep;
  assign m_keep        = !step_i.ok_mask || ok_i;
  assign hs_reg_word_o = hs_reg_idx_i[2] ? msg_rdata_a :
                         ((msg_rdata_a & {W{m_keep}}) | (msg_rdata_b & {W{!m_keep}}));
  assign smp_seed_o    = msg_rdata_a;

  always_comb begin
    msg_we    = 1'b0;
    msg_waddr = step_i.msg_base + 5'(cnt_i[2:0]);
    msg_wdata = in_data_i;
    if (step_i.load && in_msg) msg_we = ld_fire_i;
    if (step_i.sigma_copy) begin  // sigma = rand[4..7]
      msg_we    = (cnt_i < CntW'(4));
      msg_waddr = MsgSigma + 5'(cnt_i[1:0]);
      msg_wdata = msg_rdata_b;
    end
    if (step_i.unit == UnitHash) begin
      msg_we = hs_dig_valid_i;
      if (step_i.hash_k) begin  // ss = K
        msg_waddr = MsgSs + 5'(hs_dig_idx_i);
        msg_wdata = hs_dig_i;
      end else begin            // c1 = m ^ L (Encaps), m' = c1 ^ L (Decaps)
        msg_waddr = (step_i.m_prime ? MsgM : MsgC1) + 5'(hs_dig_idx_i);
        msg_wdata = msg_rdata_b ^ hs_dig_i;
      end
    end
    if (step_i.wipe_msg) begin  // m' (words 0..3) and rand (16..23)
      msg_we    = (cnt_i < CntW'(4)) || (cnt_i >= CntW'(MsgRand) && cnt_i < CntW'(MsgWords));
      msg_waddr = 5'(cnt_i);
      msg_wdata = '0;
    end
  end

  // distributed RAM: no reset (like the polynomial memories, it is wiped by
  // the steps, not by rst_ni)
  logic [W-1:0] msg_mem [MsgWords];
  always_ff @(posedge clk_i) begin
    if (msg_we) msg_mem[msg_waddr] <= msg_wdata;
  end
  assign msg_rdata_a = msg_mem[msg_raddr_a];
  assign msg_rdata_b = msg_mem[msg_raddr_b];

  // ---------------------------------------------------------------------------
  // STORE stream
  // ---------------------------------------------------------------------------
  // a SK_POS word: the position read in phase 1 waits for the one of phase 2
  logic [PW-1:0] pos_lo_q, pos_lo_d;
  assign pos_lo_d = (step_i.store && in_pos && ph_i == 2'd1) ? kp_rdata : pos_lo_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) pos_lo_q <= '0;
    else         pos_lo_q <= pos_lo_d;
  end

  always_comb begin
    out_valid_o = 1'b0;
    out_data_o  = '0;
    out_last_o  = 1'b0;
    if (step_i.store) begin
      unique case (step_i.obj_mem)
        MemBank: begin
          out_valid_o = drd_valid_i;
          out_data_o  = src_word;
          out_last_o  = drd_last_i;
        end
        MemPos: begin
          out_valid_o = (ph_i == 2'd2);
          out_data_o  = {32'(kp_rdata), 32'(pos_lo_q)};
          out_last_o  = (ph_i == 2'd2) && (cnt_i == CntW'(D - 1));
        end
        default: begin
          out_valid_o = 1'b1;
          out_data_o  = msg_rdata_a;
          out_last_o  = (cnt_i == CntW'(3));
        end
      endcase
    end
  end

  // (EPOS only with Encaps; a position's high bits and the reader's above N)
  logic unused;
  assign unused = ^{step_i.smp_epos, hold_i, drd_addr_i};

endmodule
