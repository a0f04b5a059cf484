// Butterfly unit, Latency = 4 cycles in both modes, fully pipelined:
//   forward (Cooley-Tukey):    (u, v) -> (u + w v, u - w v)
//   inverse (Gentleman-Sande): (u, v) -> (u + v, (v - u) w)
// all mod q on values in [0, q). w is a stored constant (times F^-1,
// ntt_pkg), so w v is exact. With u = 0 the forward mode gives the product
// v w F on o0 (v w for a stored w): the scaling pass and the base
// multiplication use it so. inv_i must stay constant while values are in
// flight.
module ntt_bfu
  import ntt_pkg::*;
#(
  parameter int unsigned Q        = 3329,
  parameter int unsigned Red      = RedMontgomery,  // ntt_pkg::Red*
  parameter int unsigned MontBits = 16,
  parameter bit          UseDsp   = 1'b1,
  localparam int unsigned QW      = $clog2(Q)
) (
  input  logic          clk_i,
  input  logic          inv_i,
  input  logic [QW-1:0] u_i,
  input  logic [QW-1:0] v_i,
  input  logic [QW-1:0] w_i,
  output logic [QW-1:0] o0_o,
  output logic [QW-1:0] o1_o
);

  localparam int unsigned MulLat = 3;  // ntt_modmul's register stages

  // inverse mode's first stage: sum and difference
  logic [QW-1:0] s_d, s_q, d_d, d_q, w_q;
  // u (forward) or the sum (inverse), delayed beside the multiplier
  logic [QW-1:0] dly_d [MulLat];
  logic [QW-1:0] dly_q [MulLat];
  logic [QW-1:0] mx, my, p;
  logic [QW-1:0] o0_d, o0_q, o1_d, o1_q;

  always_comb begin
    s_d = QW'(add_mod(16'(u_i), 16'(v_i), 17'(Q)));
    d_d = QW'(sub_mod(16'(v_i), 16'(u_i), 17'(Q)));
    mx = inv_i ? d_q : v_i;
    my = inv_i ? w_q : w_i;
    dly_d[0] = inv_i ? s_q : u_i;
    for (int unsigned i = 1; i < MulLat; i++) begin
      dly_d[i] = dly_q[i-1];
    end
  end

  ntt_modmul #(.Q(Q), .Red(Red), .MontBits(MontBits), .UseDsp(UseDsp)) u_modmul (
    .clk_i,
    .x_i(mx),
    .y_i(my),
    .p_o(p)
  );

  always_comb begin
    o0_d = QW'(add_mod(16'(dly_q[MulLat-1]), 16'(p), 17'(Q)));
    o1_d = QW'(sub_mod(16'(dly_q[MulLat-1]), 16'(p), 17'(Q)));
  end

  always_ff @(posedge clk_i) begin
    s_q   <= s_d;
    d_q   <= d_d;
    w_q   <= w_i;
    dly_q <= dly_d;
    o0_q  <= o0_d;
    o1_q  <= o1_d;
  end

  // forward: registered sum and difference (MulLat + 1); inverse: the
  // delayed sum and the product, registered in the multiplier (1 + MulLat)
  assign o0_o = inv_i ? dly_q[MulLat-1] : o0_q;
  assign o1_o = inv_i ? p : o1_q;

endmodule
