// gf2x_inv behind the accelerator shell: the inversion in GF(2)[x]/(x^R - 1)
// as a bus device (doc/acc_shell.md). ID.CORE = GF2X_INV, PARAM = R;
// operation 1 (INV): a's N words in, a^-1's N words out; error CORE for an
// a of even weight.
module gf2x_inv_acc
  import acc_shell_reg_pkg::*;
#(
  parameter int unsigned R               = 12323,
  parameter int unsigned E               = 16,
  parameter int unsigned KaratsubaLevels = 2,
  parameter int unsigned ParallelLevels  = 1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [11:0] s_axil_awaddr,
  input  logic [2:0]  s_axil_awprot,
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
  input  logic [2:0]  s_axil_arprot,
  input  logic        s_axil_arvalid,
  output logic        s_axil_arready,
  output logic [31:0] s_axil_rdata,
  output logic [1:0]  s_axil_rresp,
  output logic        s_axil_rvalid,
  input  logic        s_axil_rready,
  input  logic [63:0] s_axis_tdata,
  input  logic        s_axis_tvalid,
  output logic        s_axis_tready,
  input  logic        s_axis_tlast,
  output logic [63:0] m_axis_tdata,
  output logic        m_axis_tvalid,
  input  logic        m_axis_tready,
  output logic        m_axis_tlast,
  output logic        irq_o
);

  logic        core_start, core_op_ok, core_done, core_err;
  logic [7:0]  core_op;
  logic [15:0] core_in_words, core_out_words;
  logic        core_in_valid, core_in_ready, core_out_valid, core_out_ready;
  logic [63:0] core_in_data, core_out_data;

  acc_shell #(
    .CoreId    (16'(acc_shell_core_e__GF2X_INV)),
    .CoreParam (32'(R))
  ) u_shell (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .s_axil_awaddr    (s_axil_awaddr),
    .s_axil_awprot    (s_axil_awprot),
    .s_axil_awvalid   (s_axil_awvalid),
    .s_axil_awready   (s_axil_awready),
    .s_axil_wdata     (s_axil_wdata),
    .s_axil_wstrb     (s_axil_wstrb),
    .s_axil_wvalid    (s_axil_wvalid),
    .s_axil_wready    (s_axil_wready),
    .s_axil_bresp     (s_axil_bresp),
    .s_axil_bvalid    (s_axil_bvalid),
    .s_axil_bready    (s_axil_bready),
    .s_axil_araddr    (s_axil_araddr),
    .s_axil_arprot    (s_axil_arprot),
    .s_axil_arvalid   (s_axil_arvalid),
    .s_axil_arready   (s_axil_arready),
    .s_axil_rdata     (s_axil_rdata),
    .s_axil_rresp     (s_axil_rresp),
    .s_axil_rvalid    (s_axil_rvalid),
    .s_axil_rready    (s_axil_rready),
    .s_axis_tdata     (s_axis_tdata),
    .s_axis_tvalid    (s_axis_tvalid),
    .s_axis_tready    (s_axis_tready),
    .s_axis_tlast     (s_axis_tlast),
    .m_axis_tdata     (m_axis_tdata),
    .m_axis_tvalid    (m_axis_tvalid),
    .m_axis_tready    (m_axis_tready),
    .m_axis_tlast     (m_axis_tlast),
    .irq_o            (irq_o),
    .core_start_o     (core_start),
    .core_op_o        (core_op),
    .core_op_ok_i     (core_op_ok),
    .core_in_words_i  (core_in_words),
    .core_out_words_i (core_out_words),
    .core_done_i      (core_done),
    .core_err_i       (core_err),
    .core_in_valid_o  (core_in_valid),
    .core_in_ready_i  (core_in_ready),
    .core_in_data_o   (core_in_data),
    .core_out_valid_i (core_out_valid),
    .core_out_ready_o (core_out_ready),
    .core_out_data_i  (core_out_data)
  );

  gf2x_inv_stream #(
    .R               (R),
    .E               (E),
    .KaratsubaLevels (KaratsubaLevels),
    .ParallelLevels  (ParallelLevels)
  ) u_core (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (core_start),
    .op_i        (core_op),
    .op_ok_o     (core_op_ok),
    .in_words_o  (core_in_words),
    .out_words_o (core_out_words),
    .done_o      (core_done),
    .err_o       (core_err),
    .in_valid_i  (core_in_valid),
    .in_ready_o  (core_in_ready),
    .in_data_i   (core_in_data),
    .out_valid_o (core_out_valid),
    .out_ready_i (core_out_ready),
    .out_data_o  (core_out_data)
  );

endmodule
