// Simulation top of the bike_ram testbench: one simple dual-port and one
// true dual-port memory of the same Width and Depth, side by side, so that
// one C++ testbench (tb_bike_ram.cpp) drives both against its own model.
module bike_ram_tb #(
  parameter int unsigned Width = 64,
  parameter int unsigned Depth = 512,
  localparam int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic             clk_i,
  // bike_ram_sdp
  input  logic             s_we_i,
  input  logic [AddrW-1:0] s_waddr_i,
  input  logic [Width-1:0] s_wdata_i,
  input  logic             s_re_i,
  input  logic [AddrW-1:0] s_raddr_i,
  output logic [Width-1:0] s_rdata_o,
  // bike_ram_tdp
  input  logic             a_en_i,
  input  logic             a_we_i,
  input  logic [AddrW-1:0] a_addr_i,
  input  logic [Width-1:0] a_wdata_i,
  output logic [Width-1:0] a_rdata_o,
  input  logic             b_en_i,
  input  logic             b_we_i,
  input  logic [AddrW-1:0] b_addr_i,
  input  logic [Width-1:0] b_wdata_i,
  output logic [Width-1:0] b_rdata_o
);

  bike_ram_sdp #(
    .Width (Width),
    .Depth (Depth)
  ) u_sdp (
    .clk_i   (clk_i),
    .we_i    (s_we_i),
    .waddr_i (s_waddr_i),
    .wdata_i (s_wdata_i),
    .re_i    (s_re_i),
    .raddr_i (s_raddr_i),
    .rdata_o (s_rdata_o)
  );

  bike_ram_tdp #(
    .Width (Width),
    .Depth (Depth)
  ) u_tdp (
    .clk_i     (clk_i),
    .a_en_i    (a_en_i),
    .a_we_i    (a_we_i),
    .a_addr_i  (a_addr_i),
    .a_wdata_i (a_wdata_i),
    .a_rdata_o (a_rdata_o),
    .b_en_i    (b_en_i),
    .b_we_i    (b_we_i),
    .b_addr_i  (b_addr_i),
    .b_wdata_i (b_wdata_i),
    .b_rdata_o (b_rdata_o)
  );

endmodule
