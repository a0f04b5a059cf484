// bike_kem behind its host interface (doc/bike_kem.md): AXI4-Lite registers
// for control and status, AXI4-Stream in and out for the objects, a done
// interrupt. No AxPROT; WSTRB is ignored (every register is written whole);
// every response is OKAY.
module bike_kem_axi
  import bike_kem_pkg::*;
#(
  parameter int unsigned R                  = 12323,
  parameter int unsigned D                  = 71,
  parameter int unsigned T                  = 134,
  parameter bit          Keygen             = 1'b1,
  parameter bit          Encaps             = 1'b1,
  parameter bit          Decaps             = 1'b1,
  parameter int unsigned RoundsPerCycle     = 1,
  parameter bit          KeccakSerial       = 1'b0,
  parameter int unsigned InvE               = 16,
  parameter int unsigned InvKaratsubaLevels = 2,
  parameter int unsigned InvParallelLevels  = 1,
  parameter int unsigned SparseP            = 8,
  parameter int unsigned DecoderP           = 8,
  parameter bit          DecoderPrefetch    = 1'b1,
  parameter int unsigned DecoderTile        = 0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // AXI4-Lite slave
  input  logic [11:0] s_axil_awaddr,
  input  logic        s_axil_awvalid,
  output logic        s_axil_awready,
  input  logic [31:0] s_axil_wdata,
  input  logic [3:0]  s_axil_wstrb,
  input  logic        s_axil_wvalid,
  output logic        s_axil_wready,
  output logic [1:0]  s_axil_bresp,
  output logic        s_axil_bvalid,
  input  logic        s_axil_bready,
  input  logic [11:0] s_axil_araddr,
  input  logic        s_axil_arvalid,
  output logic        s_axil_arready,
  output logic [31:0] s_axil_rdata,
  output logic [1:0]  s_axil_rresp,
  output logic        s_axil_rvalid,
  input  logic        s_axil_rready,
  // AXI4-Stream in (LOAD)
  input  logic [63:0] s_axis_tdata,
  input  logic        s_axis_tvalid,
  output logic        s_axis_tready,
  input  logic        s_axis_tlast,
  // AXI4-Stream out (STORE)
  output logic [63:0] m_axis_tdata,
  output logic        m_axis_tvalid,
  input  logic        m_axis_tready,
  output logic        m_axis_tlast,
  output logic        irq_o
);

  localparam int unsigned N = (R + 63) / 64;
  localparam logic [3:0] Level = 4'(bike_levels_pkg::level_of(R));  // 0: not a level's R

  localparam logic [11:0] AddrId     = 12'h000;
  localparam logic [11:0] AddrConfig = 12'h004;
  localparam logic [11:0] AddrCmd    = 12'h008;
  localparam logic [11:0] AddrStatus = 12'h00C;
  localparam logic [11:0] AddrCycles = 12'h010;
  localparam logic [11:0] AddrIrqEn  = 12'h014;

  logic        core_busy, core_done, pk_valid, sk_valid;
  logic [3:0]  core_err;
  logic        cmd_valid;
  logic [3:0]  cmd_op, cmd_obj;

  // ---------------------------------------------------------------------------
  // AXI4-Lite: address and data of a write may come in either order
  // ---------------------------------------------------------------------------
  logic        aw_q, aw_d, w_q, w_d, bvalid_q, bvalid_d, rvalid_q, rvalid_d;
  logic [11:0] awaddr_q, awaddr_d;
  logic [31:0] wdata_q, wdata_d, rdata_q, rdata_d;
  logic        wr;

  assign s_axil_awready = !aw_q && !bvalid_q;
  assign s_axil_wready  = !w_q && !bvalid_q;
  assign s_axil_bvalid  = bvalid_q;
  assign s_axil_bresp   = 2'b00;
  assign s_axil_arready = !rvalid_q;
  assign s_axil_rvalid  = rvalid_q;
  assign s_axil_rresp   = 2'b00;
  assign s_axil_rdata   = rdata_q;

  // the write happens once both halves are in
  assign wr = aw_q && w_q && !bvalid_q;

  logic        done_q, done_d, err_q, err_d, drop_q, drop_d, irq_en_q, irq_en_d;
  logic [3:0]  code_q, code_d;
  logic [31:0] cycles_q, cycles_d;
  logic        lo_ones_q, lo_ones_d;  // cycles_q[15:0] is all ones

  assign cmd_valid = wr && (awaddr_q == AddrCmd) && !core_busy;
  assign cmd_op    = wdata_q[3:0];
  assign cmd_obj   = wdata_q[11:8];

  always_comb begin
    aw_d     = aw_q;
    w_d      = w_q;
    bvalid_d = bvalid_q;
    awaddr_d = awaddr_q;
    wdata_d  = wdata_q;
    rvalid_d = rvalid_q;
    rdata_d  = rdata_q;
    if (s_axil_awvalid && s_axil_awready) begin
      aw_d     = 1'b1;
      awaddr_d = s_axil_awaddr;
    end
    if (s_axil_wvalid && s_axil_wready) begin
      w_d     = 1'b1;
      wdata_d = s_axil_wdata;
    end
    if (wr) begin
      bvalid_d = 1'b1;
    end
    if (bvalid_q && s_axil_bready) begin
      bvalid_d = 1'b0;
      aw_d     = 1'b0;
      w_d      = 1'b0;
    end
    if (s_axil_arvalid && s_axil_arready) begin
      rvalid_d = 1'b1;
      unique case (s_axil_araddr)
        AddrId:     rdata_d = 32'h4249_4B45;
        AddrConfig: rdata_d = {16'(N), 9'd0, Decaps, Encaps, Keygen, Level};
        AddrStatus: rdata_d = {14'd0, sk_valid, pk_valid, 4'd0, code_q, 4'd0, drop_q, err_q,
                               done_q, core_busy};
        AddrCycles: rdata_d = cycles_q;
        AddrIrqEn:  rdata_d = {31'd0, irq_en_q};
        default:    rdata_d = '0;
      endcase
    end else if (rvalid_q && s_axil_rready) begin
      rvalid_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_q     <= 1'b0;
      w_q      <= 1'b0;
      bvalid_q <= 1'b0;
      awaddr_q <= '0;
      wdata_q  <= '0;
      rvalid_q <= 1'b0;
      rdata_q  <= '0;
    end else begin
      aw_q     <= aw_d;
      w_q      <= w_d;
      bvalid_q <= bvalid_d;
      awaddr_q <= awaddr_d;
      wdata_q  <= wdata_d;
      rvalid_q <= rvalid_d;
      rdata_q  <= rdata_d;
    end
  end

  // ---------------------------------------------------------------------------
  // Status, cycle counter, interrupt
  // ---------------------------------------------------------------------------
  always_comb begin
    done_d    = done_q;
    err_d     = err_q;
    drop_d    = drop_q;
    code_d    = code_q;
    cycles_d  = cycles_q;
    lo_ones_d = lo_ones_q;
    irq_en_d  = irq_en_q;
    if (wr && awaddr_q == AddrIrqEn) irq_en_d = wdata_q[0];
    if (core_busy && !core_done) begin
      // two 16-bit halves: the high one counts when the low one is all
      // ones (lo_ones_q, a register: no carry from one half into the other)
      cycles_d[15:0]  = cycles_q[15:0] + 1'b1;
      cycles_d[31:16] = cycles_q[31:16] + 16'(lo_ones_q);
      lo_ones_d       = (cycles_q[15:0] == 16'hfffe);
    end
    if (wr && awaddr_q == AddrCmd) begin
      if (core_busy) begin  // dropped; the running op goes on
        drop_d = 1'b1;
      end else begin
        done_d    = 1'b0;
        err_d     = 1'b0;
        drop_d    = 1'b0;
        code_d    = ErrNone;
        cycles_d  = 32'd1;
        lo_ones_d = 1'b0;
      end
    end
    if (core_done) begin
      done_d = 1'b1;
      if (core_err != ErrNone) begin
        err_d  = 1'b1;
        code_d = core_err;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      done_q    <= 1'b0;
      err_q     <= 1'b0;
      drop_q    <= 1'b0;
      code_q    <= '0;
      cycles_q  <= '0;
      lo_ones_q <= 1'b0;
      irq_en_q  <= 1'b0;
    end else begin
      done_q    <= done_d;
      err_q     <= err_d;
      drop_q    <= drop_d;
      code_q    <= code_d;
      cycles_q  <= cycles_d;
      lo_ones_q <= lo_ones_d;
      irq_en_q  <= irq_en_d;
    end
  end

  assign irq_o = done_q && irq_en_q;

  logic unused;
  assign unused = ^{s_axil_wstrb, wdata_q[31:12], wdata_q[7:4]};

  // ---------------------------------------------------------------------------
  // The core
  // ---------------------------------------------------------------------------
  bike_kem #(
    .R                  (R),
    .D                  (D),
    .T                  (T),
    .Keygen             (Keygen),
    .Encaps             (Encaps),
    .Decaps             (Decaps),
    .RoundsPerCycle     (RoundsPerCycle),
    .KeccakSerial       (KeccakSerial),
    .InvE               (InvE),
    .InvKaratsubaLevels (InvKaratsubaLevels),
    .InvParallelLevels  (InvParallelLevels),
    .SparseP            (SparseP),
    .DecoderP           (DecoderP),
    .DecoderPrefetch    (DecoderPrefetch),
    .DecoderTile        (DecoderTile)
  ) u_kem (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .cmd_valid_i (cmd_valid),
    .cmd_op_i    (cmd_op),
    .cmd_obj_i   (cmd_obj),
    .busy_o      (core_busy),
    .done_o      (core_done),
    .err_o       (core_err),
    .pk_valid_o  (pk_valid),
    .sk_valid_o  (sk_valid),
    .in_valid_i  (s_axis_tvalid),
    .in_ready_o  (s_axis_tready),
    .in_data_i   (s_axis_tdata),
    .in_last_i   (s_axis_tlast),
    .out_valid_o (m_axis_tvalid),
    .out_ready_i (m_axis_tready),
    .out_data_o  (m_axis_tdata),
    .out_last_o  (m_axis_tlast)
  );

endmodule
