// Combinational carry-less product of two W-bit digits: p = a * b in
// GF(2)[x], degree at most 2W - 2. Above LeafW bits (W even) the digit is
// split in halves and multiplied by Karatsuba, three half products instead
// of four: with L = a0 b0, H = a1 b1 and M = (a0 + a1)(b0 + b1),
// a b = L + (M + L + H) x^(W/2) + H x^W. At LeafW bits and below, the
// schoolbook AND/XOR array. Fewer AND terms for a few more XOR levels: at
// W = 64 two Karatsuba levels need about 30 % fewer LUTs than the array.
module gf2x_mul_clmul #(
  parameter int unsigned W     = 64,
  parameter int unsigned LeafW = 16
) (
  input  logic [W-1:0]   a_i,
  input  logic [W-1:0]   b_i,
  output logic [2*W-1:0] p_o
);

  if (W > LeafW && W % 2 == 0) begin : gen_karatsuba
    localparam int unsigned H = W / 2;

    logic [2*H-1:0] lo, hi, mid;

    gf2x_mul_clmul #(
      .W     (H),
      .LeafW (LeafW)
    ) u_lo (
      .a_i (a_i[H-1:0]),
      .b_i (b_i[H-1:0]),
      .p_o (lo)
    );

    gf2x_mul_clmul #(
      .W     (H),
      .LeafW (LeafW)
    ) u_hi (
      .a_i (a_i[W-1:H]),
      .b_i (b_i[W-1:H]),
      .p_o (hi)
    );

    gf2x_mul_clmul #(
      .W     (H),
      .LeafW (LeafW)
    ) u_mid (
      .a_i (a_i[H-1:0] ^ a_i[W-1:H]),
      .b_i (b_i[H-1:0] ^ b_i[W-1:H]),
      .p_o (mid)
    );

    assign p_o = {hi, lo} ^ {{H{1'b0}}, mid ^ lo ^ hi, {H{1'b0}}};
  end else begin : gen_schoolbook
    always_comb begin
      p_o = '0;
      for (int unsigned i = 0; i < W; i++) begin
        p_o = p_o ^ (({{W{1'b0}}, a_i} << i) & {(2 * W){b_i[i]}});
      end
    end
  end

endmodule
