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

  // One modular adder and subtractor, registered: the inverse's first stage
  // (v + u, v - u) or the forward's last (u + w v, u - w v); the mode picks
  // its inputs and which stage it is.
  logic [QW-1:0] x, y, r0_d, r0_q, r1_d, r1_q, w_q;
  // u (forward) or the sum (inverse), delayed beside the multiplier
  logic [QW-1:0] dly_d [MulLat];
  logic [QW-1:0] dly_q [MulLat];
  logic [QW-1:0] mx, my, p;

  always_comb begin
    x = inv_i ? v_i : dly_q[MulLat-1];
    y = inv_i ? u_i : p;
    r0_d = QW'(add_mod(16'(x), 16'(y), 17'(Q)));
    r1_d = QW'(sub_mod(16'(x), 16'(y), 17'(Q)));
    mx = inv_i ? r1_q : v_i;
    my = inv_i ? w_q : w_i;
    dly_d[0] = inv_i ? r0_q : u_i;
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

  always_ff @(posedge clk_i) begin
    r0_q  <= r0_d;
    r1_q  <= r1_d;
    w_q   <= w_i;
    dly_q <= dly_d;
  end

  // forward: the registered sum and difference (MulLat + 1); inverse: the
  // delayed sum and the product, registered in the multiplier (1 + MulLat)
  assign o0_o = inv_i ? dly_q[MulLat-1] : r0_q;
  assign o1_o = inv_i ? p : r1_q;

endmodule
