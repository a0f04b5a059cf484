// Accelerator shell (doc/acc_shell.md): one operation core behind AXI4-Lite
// control and status (the register block generated from data/acc_shell.rdl)
// and two AXI4-Stream ports of 64-bit words, operands in and results out.
//
// The core side is the operation-core interface: core_start_o for one cycle
// with core_op_o (held until the next START), the core's answers for that
// operation (known, input and output lengths in words), word streams with
// valid/ready both ways, and core_done_i for one cycle (with core_err_i) when
// the operation has ended, after its last result word was taken. A core must
// take exactly core_in_words_i words, give exactly core_out_words_i words and
// end: the shell makes every misuse of the bus into such an operation.
module acc_shell
  import acc_shell_reg_pkg::*;
#(
  parameter logic [15:0] CoreId    = 16'd0,  // ID.CORE (acc_shell_core_e)
  parameter logic [31:0] CoreParam = 32'd0,  // PARAM: the core's build parameter
  localparam int unsigned AddrW    = 12,
  localparam int unsigned DataW    = 64,
  localparam int unsigned OpW      = 8,
  localparam int unsigned CntW     = 16
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // AXI4-Lite slave (AxPROT ignored; every response OKAY)
  input  logic [AddrW-1:0] s_axil_awaddr,
  input  logic [2:0]       s_axil_awprot,
  input  logic             s_axil_awvalid,
  output logic             s_axil_awready,
  input  logic [31:0]      s_axil_wdata,
  input  logic [3:0]       s_axil_wstrb,
  input  logic             s_axil_wvalid,
  output logic             s_axil_wready,
  output logic [1:0]       s_axil_bresp,
  output logic             s_axil_bvalid,
  input  logic             s_axil_bready,
  input  logic [AddrW-1:0] s_axil_araddr,
  input  logic [2:0]       s_axil_arprot,
  input  logic             s_axil_arvalid,
  output logic             s_axil_arready,
  output logic [31:0]      s_axil_rdata,
  output logic [1:0]       s_axil_rresp,
  output logic             s_axil_rvalid,
  input  logic             s_axil_rready,
  // AXI4-Stream in: the operands
  input  logic [DataW-1:0] s_axis_tdata,
  input  logic             s_axis_tvalid,
  output logic             s_axis_tready,
  input  logic             s_axis_tlast,
  // AXI4-Stream out: the results
  output logic [DataW-1:0] m_axis_tdata,
  output logic             m_axis_tvalid,
  input  logic             m_axis_tready,
  output logic             m_axis_tlast,
  output logic             irq_o,
  // operation-core interface
  output logic             core_start_o,
  output logic [OpW-1:0]   core_op_o,
  input  logic             core_op_ok_i,
  input  logic [CntW-1:0]  core_in_words_i,
  input  logic [CntW-1:0]  core_out_words_i,
  input  logic             core_done_i,
  input  logic             core_err_i,
  output logic             core_in_valid_o,
  input  logic             core_in_ready_i,
  output logic [DataW-1:0] core_in_data_o,
  input  logic             core_out_valid_i,
  output logic             core_out_ready_o,
  input  logic [DataW-1:0] core_out_data_i
);

  acc_shell__in_t  hwif_in;
  acc_shell__out_t hwif_out;

  acc_shell_reg u_reg (
    .clk            (clk_i),
    .arst_n         (rst_ni),
    .s_axil_awready (s_axil_awready),
    .s_axil_awvalid (s_axil_awvalid),
    .s_axil_awaddr  (s_axil_awaddr),
    .s_axil_awprot  (s_axil_awprot),
    .s_axil_wready  (s_axil_wready),
    .s_axil_wvalid  (s_axil_wvalid),
    .s_axil_wdata   (s_axil_wdata),
    .s_axil_wstrb   (s_axil_wstrb),
    .s_axil_bready  (s_axil_bready),
    .s_axil_bvalid  (s_axil_bvalid),
    .s_axil_bresp   (s_axil_bresp),
    .s_axil_arready (s_axil_arready),
    .s_axil_arvalid (s_axil_arvalid),
    .s_axil_araddr  (s_axil_araddr),
    .s_axil_arprot  (s_axil_arprot),
    .s_axil_rready  (s_axil_rready),
    .s_axil_rvalid  (s_axil_rvalid),
    .s_axil_rdata   (s_axil_rdata),
    .s_axil_rresp   (s_axil_rresp),
    .hwif_in        (hwif_in),
    .hwif_out       (hwif_out)
  );

  // ---------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------
  logic            busy, started, flush, core_zero, out_take;
  logic [OpW-1:0]  op_q, op_d;
  logic            end_pulse, err_event, done;
  logic [3:0]      err;
  logic [CntW-1:0] out_left_q, out_left_d;

  // the operation of the last accepted START, so that a CTRL.OP write while
  // busy does not change the running operation (nor its lengths)
  assign op_d      = started ? hwif_out.CTRL.OP.value : op_q;
  assign core_op_o = busy ? op_q : hwif_out.CTRL.OP.value;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      op_q <= '0;
    end else begin
      op_q <= op_d;
    end
  end

  acc_shell_fsm #(
    .CntW (CntW)
  ) u_fsm (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .start_i      (hwif_out.CTRL.START.value),
    .abort_i      (hwif_out.CTRL.ABORT.value),
    .op_ok_i      (core_op_ok_i),
    .in_words_i   (core_in_words_i),
    .core_done_i  (core_done_i),
    .core_err_i   (core_err_i),
    .s_valid_i    (s_axis_tvalid),
    .s_last_i     (s_axis_tlast),
    .core_ready_i (core_in_ready_i),
    .s_ready_o    (s_axis_tready),
    .core_valid_o (core_in_valid_o),
    .core_zero_o  (core_zero),
    .core_start_o (core_start_o),
    .started_o    (started),
    .busy_o       (busy),
    .done_o       (done),
    .end_o        (end_pulse),
    .flush_o      (flush),
    .err_o        (err),
    .err_event_o  (err_event)
  );

  // ---------------------------------------------------------------------------
  // Streams: operands to the core (zeros while padding); results to m_axis,
  // or dropped after a bad stream or an ABORT; TLAST on the op's last word
  // ---------------------------------------------------------------------------
  assign core_in_data_o   = core_zero ? '0 : s_axis_tdata;
  assign m_axis_tvalid    = core_out_valid_i && !flush;
  assign m_axis_tdata     = core_out_data_i;
  assign m_axis_tlast     = (out_left_q == CntW'(1));
  assign core_out_ready_o = flush || m_axis_tready;
  assign out_take         = m_axis_tvalid && m_axis_tready;

  // result words still to leave, counted down from the START's length
  assign out_left_d = started  ? core_out_words_i :
                      out_take ? out_left_q - 1'b1 : out_left_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_left_q <= '0;
    end else begin
      out_left_q <= out_left_d;
    end
  end

  // ---------------------------------------------------------------------------
  // Counters of the register block (one cycle behind their events)
  // ---------------------------------------------------------------------------
  logic [31:0]     cycles;
  logic [CntW-1:0] stream_in, stream_out;

  acc_counter #(.Width (32)) u_cycles (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clr_i   (started),
    .incr_i  (busy),
    .count_o (cycles)
  );

  acc_counter #(.Width (CntW)) u_stream_in (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clr_i   (started),
    .incr_i  (s_axis_tvalid && s_axis_tready),
    .count_o (stream_in)
  );

  acc_counter #(.Width (CntW)) u_stream_out (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clr_i   (started),
    .incr_i  (out_take),
    .count_o (stream_out)
  );

  // ---------------------------------------------------------------------------
  // Register block inputs
  // ---------------------------------------------------------------------------
  always_comb begin
    hwif_in.ID.CORE.next        = CoreId;
    hwif_in.PARAM.VALUE.next    = CoreParam;
    hwif_in.STATUS.BUSY.next    = busy;
    hwif_in.STATUS.DONE.next    = done;
    hwif_in.STATUS.ERROR.next   = err;
    hwif_in.INTR_STATE.DONE.next  = end_pulse;
    hwif_in.INTR_STATE.ERROR.next = err_event;
    hwif_in.CYCLES.VALUE.next   = cycles;
    hwif_in.WORDS.IN.next       = core_in_words_i;
    hwif_in.WORDS.OUT.next      = core_out_words_i;
    hwif_in.STREAM.IN.next      = stream_in;
    hwif_in.STREAM.OUT.next     = stream_out;
  end

  assign irq_o = hwif_out.INTR_STATE.intr;

endmodule
