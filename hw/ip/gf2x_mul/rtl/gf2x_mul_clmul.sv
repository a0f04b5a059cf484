// Combinational carry-less product of two W-bit digits (a W x W schoolbook
// multiplier over GF(2)): p = a * b in GF(2)[x], degree at most 2W - 2.
module gf2x_mul_clmul #(
  parameter int unsigned W = 64
) (
  input  logic [W-1:0]   a_i,
  input  logic [W-1:0]   b_i,
  output logic [2*W-1:0] p_o
);

  always_comb begin
    p_o = '0;
    for (int unsigned i = 0; i < W; i++) begin
      p_o = p_o ^ (({{W{1'b0}}, a_i} << i) & {(2 * W){b_i[i]}});
    end
  end

endmodule
