// True dual-port memory: two independent read/write ports, one clock.
//
// An enabled port reads its address into its registered output, and writes
// it too when its write enable is set: a writing port's output takes the old
// contents (read-first), the block RAM's READ_FIRST mode, which maps with no
// logic beside the RAM (holding the output across a write does not). Writing
// the same address from both ports in one cycle is not allowed (the result
// is undefined on FPGAs); a port reading an address the other port writes in
// the same cycle gets the old contents.
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

  always_ff @(posedge clk_i) begin
    if (a_en_i) begin
      a_rdata_o <= mem[a_addr_i];
      if (a_we_i) begin
        mem[a_addr_i] <= a_wdata_i;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (b_en_i) begin
      b_rdata_o <= mem[b_addr_i];
      if (b_we_i) begin
        mem[b_addr_i] <= b_wdata_i;
      end
    end
  end

endmodule
