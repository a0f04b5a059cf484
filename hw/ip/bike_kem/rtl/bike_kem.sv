// BIKE KeyGen, Encaps and Decaps on one set of units (doc/bike_kem.md).
//
// Keygen, Encaps and Decaps choose the primitives of a build (the client
// core is Keygen + Decaps, the server core Encaps); the units a build does
// not need are not instantiated. The core is three parts and the units:
//   bike_kem_ctrl   the command decode, the steps of each primitive, the
//                   flags; it describes the current step (step_t)
//   bike_kem_banks  the memories, routed by that descriptor
//   units           sampler_ctrl and the SHA3-384 hasher on one keccak_core
//                   (or keccak_serial); gf2x_inv (Keygen); bike_decoder
//                   (Decaps), whose units also compute every product with a
//                   sparse operand, else a sparse_mul of its own; two
//                   readers stream positions and dense words to them
// This top holds the instances and the handshakes between them, selected
// by the descriptor's unit.
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
    assert (N >= MsgWords) else $error("the wipe clears the message memory in its first 24 cycles");
  end

  localparam bit HasHash = Encaps || Decaps;

  // ---------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------
  step_t           step;
  logic            go;
  logic [CntW-1:0] cnt, ocnt;
  logic [1:0]      ph;
  logic [31:0]     hold;
  logic            ok;
  logic            ld_fire, ld_we;
  logic [W-1:0]    ld_data;
  logic            nonzero, rmw_busy;

  // units' handshakes
  logic            smp_start, smp_mode, smp_busy, smp_pos_valid, smp_pos_set, smp_done;
  logic [8:0]      smp_pos_idx;
  logic [16:0]     smp_pos;
  logic [1:0]      smp_seed_idx;
  logic [W-1:0]    smp_seed;

  logic            hs_start, hs_kind, hs_done, hs_dig_valid;
  logic [1:0]      hs_dig_idx;
  logic [W-1:0]    hs_dig, hs_reg_word;
  logic [2:0]      hs_reg_idx;
  logic            hs_re_a, hs_re_b, hs_re_c;
  logic [AW-1:0]   hs_raddr;
  logic [W-1:0]    hs_rdata_a, hs_rdata_b, hs_rdata_c;

  logic            inv_start, inv_in_ready, inv_out_valid, inv_out_last;
  logic [W-1:0]    inv_out_data;

  // the product engine (a sparse_mul, or the decoder's units); in a build
  // with Decaps its result words are the decoder's in the decoding step too
  logic            sp_start, sp_idx_ready, sp_in_ready, sp_out_valid, sp_out_last;
  logic [W-1:0]    sp_out_data;

  logic            dec_start, dec_idx_ready, dec_in_ready, dec_out_valid, dec_out_last, dec_ok;

  // the units' operands
  logic [W-1:0]    opd;
  logic [PW-1:0]   pos;
  logic            pos_en;

  // readers: positions (p) and dense words (d)
  logic            prd_start, prd_re, prd_valid, prd_ready, prd_last;
  logic [CntW-1:0] prd_count, prd_addr, prd_idx;
  logic            drd_start, drd_re, drd_valid, drd_ready, drd_last;
  logic [CntW-1:0] drd_count, drd_addr, drd_idx;

  bike_kem_ctrl #(
    .R      (R),
    .D      (D),
    .T      (T),
    .Keygen (Keygen),
    .Encaps (Encaps),
    .Decaps (Decaps)
  ) u_ctrl (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .cmd_valid_i     (cmd_valid_i),
    .cmd_op_i        (cmd_op_i),
    .cmd_obj_i       (cmd_obj_i),
    .busy_o          (busy_o),
    .done_o          (done_o),
    .err_o           (err_o),
    .pk_valid_o      (pk_valid_o),
    .sk_valid_o      (sk_valid_o),
    .in_valid_i      (in_valid_i),
    .in_ready_o      (in_ready_o),
    .in_data_i       (in_data_i),
    .in_last_i       (in_last_i),
    .ld_fire_o       (ld_fire),
    .ld_we_o         (ld_we),
    .ld_data_o       (ld_data),
    .hold_o          (hold),
    .out_ready_i     (out_ready_i),
    .step_o          (step),
    .go_o            (go),
    .cnt_o           (cnt),
    .ocnt_o          (ocnt),
    .ph_o            (ph),
    .ok_o            (ok),
    .smp_start_o     (smp_start),
    .hs_start_o      (hs_start),
    .inv_start_o     (inv_start),
    .mul_start_o     (sp_start),
    .dec_start_o     (dec_start),
    .prd_start_o     (prd_start),
    .prd_count_o     (prd_count),
    .drd_start_o     (drd_start),
    .drd_count_o     (drd_count),
    .smp_done_i      (smp_done),
    .rmw_busy_i      (rmw_busy),
    .hs_done_i       (hs_done),
    .inv_out_valid_i (inv_out_valid),
    .inv_out_last_i  (inv_out_last),
    .mul_out_valid_i (sp_out_valid),
    .mul_out_last_i  (sp_out_last),
    .dec_out_valid_i (dec_out_valid),
    .dec_out_last_i  (dec_out_last),
    .dec_ok_i        (dec_ok),
    .drd_valid_i     (drd_valid),
    .drd_last_i      (drd_last),
    .nonzero_i       (nonzero)
  );

  // ---------------------------------------------------------------------------
  // Memories
  // ---------------------------------------------------------------------------
  bike_kem_banks #(
    .R      (R),
    .D      (D),
    .T      (T),
    .Keygen (Keygen),
    .Encaps (Encaps),
    .Decaps (Decaps)
  ) u_banks (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .step_i          (step),
    .go_i            (go),
    .cnt_i           (cnt),
    .ocnt_i          (ocnt),
    .ph_i            (ph),
    .hold_i          (hold),
    .ok_i            (ok),
    .ld_fire_i       (ld_fire),
    .ld_we_i         (ld_we),
    .ld_data_i       (ld_data),
    .in_data_i       (in_data_i),
    .out_valid_o     (out_valid_o),
    .out_data_o      (out_data_o),
    .out_last_o      (out_last_o),
    .prd_re_i        (prd_re),
    .prd_addr_i      (prd_addr),
    .prd_idx_i       (prd_idx),
    .drd_re_i        (drd_re),
    .drd_addr_i      (drd_addr),
    .drd_idx_i       (drd_idx),
    .drd_valid_i     (drd_valid),
    .drd_last_i      (drd_last),
    .opd_o           (opd),
    .pos_o           (pos),
    .pos_en_o        (pos_en),
    .inv_out_valid_i (inv_out_valid),
    .inv_out_data_i  (inv_out_data),
    .eng_out_valid_i (sp_out_valid),
    .eng_out_data_i  (sp_out_data),
    .smp_seed_idx_i  (smp_seed_idx),
    .smp_seed_o      (smp_seed),
    .smp_pos_valid_i (smp_pos_valid),
    .smp_pos_set_i   (smp_pos_set),
    .smp_pos_idx_i   (smp_pos_idx),
    .smp_pos_i       (smp_pos),
    .rmw_busy_o      (rmw_busy),
    .hs_re_a_i       (hs_re_a),
    .hs_re_b_i       (hs_re_b),
    .hs_re_c_i       (hs_re_c),
    .hs_raddr_i      (hs_raddr),
    .hs_rdata_a_o    (hs_rdata_a),
    .hs_rdata_b_o    (hs_rdata_b),
    .hs_rdata_c_o    (hs_rdata_c),
    .hs_reg_idx_i    (hs_reg_idx),
    .hs_reg_word_o   (hs_reg_word),
    .hs_dig_valid_i  (hs_dig_valid),
    .hs_dig_idx_i    (hs_dig_idx),
    .hs_dig_i        (hs_dig),
    .nonzero_o       (nonzero)
  );

  // ---------------------------------------------------------------------------
  // Readers: positions to the product or the decoder, dense words to the
  // unit of the step (or to STORE)
  // ---------------------------------------------------------------------------
  logic mul_st, dec_st;
  assign mul_st = (step.unit == UnitMul);
  assign dec_st = (step.unit == UnitDecoder);

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

  always_comb begin
    prd_ready = 1'b0;
    drd_ready = 1'b0;
    unique case (step.unit)
      UnitInv: drd_ready = inv_in_ready;
      UnitMul: begin
        prd_ready = sp_idx_ready;
        drd_ready = sp_in_ready;
      end
      UnitDecoder: begin
        prd_ready = dec_idx_ready;
        drd_ready = dec_in_ready;
      end
      default: drd_ready = step.store && (step.obj_mem == MemBank) && out_ready_i;
    endcase
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

  assign smp_sel     = (step.unit == UnitSampler);
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

  assign smp_mode = !step.smp_key;

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
    .seed_word_i   (smp_seed),
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
    assign hs_kind = step.hash_k;

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
      .rdata_a_i     (hs_rdata_a),
      .rdata_b_i     (hs_rdata_b),
      .rdata_c_i     (hs_rdata_c),
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
    assign unused_hash = ^{hs_start, hs_kind, hs_reg_word, k_out_last, hs_rdata_a, hs_rdata_b,
                           hs_rdata_c};
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
      .in_valid_i  (drd_valid && step.unit == UnitInv),
      .in_data_i   (opd),
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
    assign unused_inv = inv_start;
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
      .idx_valid_i (prd_valid && (dec_st || mul_st)),
      .idx_i       (pos),
      .idx_en_i    (pos_en),
      .idx_last_i  (prd_last),
      .in_ready_o  (d_in_ready),
      .in_valid_i  (drd_valid && (dec_st || mul_st)),
      .in_data_i   (opd),
      .out_valid_o (d_out_valid),
      .out_data_o  (d_out_data),
      .out_last_o  (d_out_last),
      .ok_o        (dec_ok)
    );
    assign dec_idx_ready = d_idx_ready;
    assign dec_in_ready  = d_in_ready;
    assign dec_out_valid = d_out_valid;
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
      .idx_i       (pos),
      .idx_en_i    (pos_en),
      .in_ready_o  (sp_in_ready),
      .in_valid_i  (drd_valid && mul_st),
      .in_data_i   (opd),
      .out_valid_o (sp_out_valid),
      .out_data_o  (sp_out_data),
      .out_last_o  (sp_out_last)
    );
    logic unused_dec;
    assign unused_dec = ^{dec_start, sp_busy};
  end

  logic unused;
  assign unused = ^{smp_busy, k_busy, prd_last, drd_addr, dec_st};

endmodule
