// Unsigned multiplier, combinational. UseDsp = 1 writes the product as `*`,
// which Yosys maps to DSP48E1 slices; UseDsp = 0 writes it as a sum of
// shifted partial products, which no tool recognises as a multiplication,
// so it stays in LUTs and carry chains (a constant operand leaves only the
// adders of its one bits).
module ntt_mul #(
  parameter int unsigned AW     = 12,
  parameter int unsigned BW     = 12,
  parameter bit          UseDsp = 1'b1,
  localparam int unsigned PW    = AW + BW
) (
  input  logic [AW-1:0] a_i,
  input  logic [BW-1:0] b_i,
  output logic [PW-1:0] p_o
);

  if (UseDsp) begin : gen_dsp
    assign p_o = PW'(a_i) * PW'(b_i);
  end else begin : gen_lut
    always_comb begin
      p_o = '0;
      for (int unsigned i = 0; i < BW; i++) begin
        if (b_i[i]) begin
          p_o = p_o + (PW'(a_i) << i);
        end
      end
    end
  end

endmodule
