// Simulation check of what the ECP5 flow assumes of every bike_ram_tdp user
// (hwflow/pnr.py, TDP_CROSS_PORT_X): no port accesses an address that the
// other port writes in the same cycle. `hwflow tdp-check` binds it into every
// bike_ram_tdp of a core's testbench; a collision stops the simulation.
module bike_ram_tdp_collisions #(
  parameter int unsigned AddrW = 1
) (
  input logic             clk_i,
  input logic             a_en_i,
  input logic             a_we_i,
  input logic [AddrW-1:0] a_addr_i,
  input logic             b_en_i,
  input logic             b_we_i,
  input logic [AddrW-1:0] b_addr_i
);

  logic collision;
  assign collision = a_en_i && b_en_i && (a_we_i || b_we_i) && (a_addr_i == b_addr_i);

  always_ff @(posedge clk_i) begin
    if (collision) begin
      $fatal(1, "%m: ports A and B access address %0d in one cycle, one of them writing",
             a_addr_i);
    end
  end

endmodule

bind bike_ram_tdp bike_ram_tdp_collisions #(.AddrW(AddrW)) u_collisions (.*);
