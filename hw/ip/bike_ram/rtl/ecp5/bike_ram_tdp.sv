// True dual-port memory, ECP5 variant: the ports and cycle behaviour of
// ../bike_ram_tdp.sv, but a port that reads an address the other port writes
// in the same cycle gets undefined data ('x) instead of the old contents.
//
// Yosys's ECP5 block RAM (DP16KD in its lattice/brams_16kd.txt) declares no
// cross-port read-during-write behaviour, so memory_libmap cannot give the
// portable file's old-contents guarantee and maps that memory to flip-flops.
// With the collision written as 'x, memory_dff marks exactly those port pairs
// don't-care and the memory maps to DP16KD in READBEFOREWRITE mode (each
// port's own read-first kept). No user of bike_ram_tdp reads an address the
// other port writes in that cycle (`hwflow tdp-check`, bike_ram.md), so for
// them both files are the same function. The ECP5 flow (hwflow/pnr.py)
// reads this file in place of the portable one.
module bike_ram_tdp #(
  parameter int unsigned Width = 64,
  parameter int unsigned Depth = 512,
  localparam int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic             clk_i,
  // port A
  input  logic             a_en_i,
  input  logic             a_we_i,
  input  logic [AddrW-1:0] a_addr_i,
  input  logic [Width-1:0] a_wdata_i,
  output logic [Width-1:0] a_rdata_o,
  // port B
  input  logic             b_en_i,
  input  logic             b_we_i,
  input  logic [AddrW-1:0] b_addr_i,
  input  logic [Width-1:0] b_wdata_i,
  output logic [Width-1:0] b_rdata_o
);

  logic [Width-1:0] mem [Depth];

  // the other port writes the address this port reads
  logic a_collides, b_collides;
  assign a_collides = b_en_i && b_we_i && (a_addr_i == b_addr_i);
  assign b_collides = a_en_i && a_we_i && (a_addr_i == b_addr_i);

  always_ff @(posedge clk_i) begin
    if (a_en_i) begin
      a_rdata_o <= a_collides ? 'x : mem[a_addr_i];
      if (a_we_i) begin
        mem[a_addr_i] <= a_wdata_i;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (b_en_i) begin
      b_rdata_o <= b_collides ? 'x : mem[b_addr_i];
      if (b_we_i) begin
        mem[b_addr_i] <= b_wdata_i;
      end
    end
  end

endmodule
