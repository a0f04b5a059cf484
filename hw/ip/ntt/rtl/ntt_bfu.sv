// Butterfly unit, fully pipelined, its latency ntt_pkg::bfu_lat in both
// modes (5 cycles with DSPs, 7 in LUTs):
//   forward (Cooley-Tukey):    (u, v) -> (u + w v, u - w v)
//   inverse (Gentleman-Sande): (u, v) -> (u + v, (v - u) w)
// all mod q on values in [0, q). w is a stored constant (times F^-1,
// ntt_pkg), so w v is exact. With u = 0 the forward mode gives the product
// v w F on o0 (v w for a stored w): the scaling pass and the base
// multiplication use it so. fb_i (forward only) takes w from o0 one cycle
// later, the result of the inputs given Latency - 1 cycles before: a
// product chained on a product without waiting for it. inv_i must stay
// constant while values are in flight.
//
// The inputs are registered, and each modular adder takes registers only:
// the lanes' operand selection, the adders and the lanes' accumulation are
// register stages of their own.
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
  input  logic          fb_i,
  input  logic [QW-1:0] u_i,
  input  logic [QW-1:0] v_i,
  input  logic [QW-1:0] w_i,
  output logic [QW-1:0] o0_o,
  output logic [QW-1:0] o1_o
);

  localparam int unsigned MulLat = modmul_lat(UseDsp);  // ntt_modmul's stages

  logic          inv_q, fb_q;
  logic [QW-1:0] u_q, v_q, w_q, w2_q;
  // Two modular adder-subtractor pairs, each on registers only: the
  // inverse's first stage (v + u, v - u) and the forward's last (u + w v,
  // u - w v). One shared pair would need a multiplexer on both operands in
  // front of its carry chains.
  logic [QW-1:0] si_d, si_q, di_d, di_q, x_q, sf_d, df_d, df_q, o0_d, o0_q;
  // u delayed beside the multiplier (forward) or the inverse's sum delayed
  // into o0 (inverse): one line, its input selected, MulLat - 1 registers
  logic [QW-1:0] dl_d [MulLat-1];
  logic [QW-1:0] dl_q [MulLat-1];
  logic [QW-1:0] mx, my, p;

  always_comb begin
    dl_d[0] = inv_q ? si_q : u_q;
    for (int unsigned i = 1; i < MulLat - 1; i++) begin
      dl_d[i] = dl_q[i-1];
    end
    si_d = QW'(add_mod(16'(v_q), 16'(u_q), 17'(Q)));
    di_d = QW'(sub_mod(16'(v_q), 16'(u_q), 17'(Q)));
    sf_d = QW'(add_mod(16'(x_q), 16'(p), 17'(Q)));
    df_d = QW'(sub_mod(16'(x_q), 16'(p), 17'(Q)));
    o0_d = inv_q ? dl_q[MulLat-2] : sf_d;
    mx = inv_q ? di_q : v_q;
    my = inv_q ? w2_q : (fb_q ? o0_q : w_q);
  end

  ntt_modmul #(.Q(Q), .Red(Red), .MontBits(MontBits), .UseDsp(UseDsp)) u_modmul (
    .clk_i,
    .x_i(mx),
    .y_i(my),
    .p_o(p)
  );

  always_ff @(posedge clk_i) begin
    inv_q <= inv_i;
    fb_q  <= fb_i;
    u_q   <= u_i;
    v_q   <= v_i;
    w_q   <= w_i;
    w2_q  <= w_q;
    si_q  <= si_d;
    di_q  <= di_d;
    dl_q  <= dl_d;
    x_q   <= dl_q[MulLat-2];
    df_q  <= df_d;
    o0_q  <= o0_d;
  end

  // forward: 1 + MulLat + 1; inverse: 2 + MulLat (the product is registered
  // in the multiplier)
  assign o0_o = o0_q;
  assign o1_o = inv_q ? p : df_q;

endmodule
