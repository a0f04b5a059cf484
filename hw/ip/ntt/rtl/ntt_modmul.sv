// Modular multiplier: p = x y F mod q in [0, q) for x, y in [0, q), F the
// reduction's factor (ntt_pkg). Register stages (ntt_pkg::modmul_lat): the
// product, the first reduction step, the second with the final correction;
// in LUTs (UseDsp = 0) the product is two stages, its carry-save rows
// (ntt_mul_cs) and their sum, and the correction one of its own. Every
// multiplication by a reduction's constant (Barrett's V and q, Montgomery's
// -q^-1 and q, KRED's k) is an ntt_mul: DSP or LUTs by UseDsp. With DSPs,
// KRED's k c0 - c1 fits one DSP48 (multiply, then subtract) per step.
module ntt_modmul
  import ntt_pkg::*;
#(
  parameter int unsigned Q        = 3329,
  parameter int unsigned Red      = RedMontgomery,  // ntt_pkg::Red*
  parameter int unsigned MontBits = 16,
  parameter bit          UseDsp   = 1'b1,
  localparam int unsigned QW      = $clog2(Q)
) (
  input  logic          clk_i,
  input  logic [QW-1:0] x_i,
  input  logic [QW-1:0] y_i,
  output logic [QW-1:0] p_o
);

  localparam int unsigned TW = 2 * QW;  // x y < q^2

  logic [TW-1:0] t_d, t_q;
  // the reduction's result before its correction, in [0, 2q) (Barrett,
  // Montgomery) or (-k, q + k^2) (KRED; k^2 < q for the NTT's moduli)
  logic signed [QW+2:0] r_d, r;
  logic [QW-1:0] p_d, p_q;

  if (UseDsp) begin : gen_prod_dsp
    ntt_mul #(.AW(QW), .BW(QW), .UseDsp(1'b1)) u_mul (
      .a_i(x_i),
      .b_i(y_i),
      .p_o(t_d)
    );
    assign r = r_d;
  end else begin : gen_prod_lut
    logic [TW-1:0] s_d, s_q, c_d, c_q;
    logic signed [QW+2:0] r_q;
    ntt_mul_cs #(.AW(QW), .BW(QW)) u_mul (
      .a_i(x_i),
      .b_i(y_i),
      .s_o(s_d),
      .c_o(c_d)
    );
    assign t_d = s_q + c_q;
    assign r = r_q;
    always_ff @(posedge clk_i) begin
      s_q <= s_d;
      c_q <= c_d;
      r_q <= r_d;
    end
  end

  if (Red == RedBarrett) begin : gen_barrett
    // est = floor(t V / 2^TW), V = floor(2^TW / q): est is floor(t / q) or
    // one less (t < 2^TW), so one conditional subtraction remains
    localparam int unsigned VW = TW - QW + 2;
    localparam logic [VW-1:0] V = VW'((longint'(1) << TW) / Q);
    logic [TW+VW-1:0] tv;
    logic [QW+1:0] est_d, est_q;
    logic [TW-1:0] t2_q;
    logic [QW+1+QW:0] eq;

    ntt_mul #(.AW(TW), .BW(VW), .UseDsp(UseDsp)) u_mul_v (
      .a_i(t_q),
      .b_i(V),
      .p_o(tv)
    );
    assign est_d = (QW + 2)'(tv >> TW);
    ntt_mul #(.AW(QW + 2), .BW(QW), .UseDsp(UseDsp)) u_mul_q (
      .a_i(est_q),
      .b_i(QW'(Q)),
      .p_o(eq)
    );
    logic unused_eq;
    assign unused_eq = ^eq[QW+1+QW:TW];
    assign r_d = (QW + 3)'((QW + 2)'(t2_q - TW'(eq)));
    always_ff @(posedge clk_i) begin
      est_q <= est_d;
      t2_q  <= t_q;
    end

  end else if (Red == RedMontgomery) begin : gen_montgomery
    // m = t (-q^-1) mod 2^M; (t + m q) / 2^M < 2q for t < q 2^M
    localparam int unsigned M = MontBits;
    localparam logic [M-1:0] QNeg = M'((longint'(1) << M) - inv_pow2(Q, M));
    logic [2*M-1:0] tm;
    logic [M-1:0] m_d, m_q;
    logic [TW-1:0] t2_q;
    logic [M+QW-1:0] mq;
    logic [M+QW:0] s;

    ntt_mul #(.AW(M), .BW(M), .UseDsp(UseDsp)) u_mul_m (
      .a_i(M'(t_q)),
      .b_i(QNeg),
      .p_o(tm)
    );
    assign m_d = tm[M-1:0];
    logic unused_tm;
    assign unused_tm = ^tm[2*M-1:M];
    ntt_mul #(.AW(M), .BW(QW), .UseDsp(UseDsp)) u_mul_q (
      .a_i(m_q),
      .b_i(QW'(Q)),
      .p_o(mq)
    );
    always_comb begin
      s = (M + QW + 1)'(t2_q) + (M + QW + 1)'(mq);
      r_d = (QW + 3)'((QW + 1)'(s >> M));
    end
    always_ff @(posedge clk_i) begin
      m_q  <= m_d;
      t2_q <= t_q;
    end

  end else begin : gen_kred
    // KRED(c) = k c0 - c1 = k c mod q (c0 = c mod 2^m, c1 = c >> m), twice:
    // k^2 t, in (-k, q + k^2), then one correction either way
    localparam int unsigned Km = kred_m(Q);
    localparam int unsigned Kk = kred_k(Q);
    localparam int unsigned KW = $clog2(Kk + 1);
    localparam int unsigned R1W = TW - Km + 2;
    logic [Km+KW-1:0] kc0, kc0b;
    logic signed [R1W-1:0] r1_d, r1_q;
    logic signed [R1W-Km:0] c1b;

    ntt_mul #(.AW(Km), .BW(KW), .UseDsp(UseDsp)) u_mul_k1 (
      .a_i(t_q[Km-1:0]),
      .b_i(KW'(Kk)),
      .p_o(kc0)
    );
    assign r1_d = R1W'($signed({1'b0, kc0})) - R1W'($signed({1'b0, t_q[TW-1:Km]}));
    ntt_mul #(.AW(Km), .BW(KW), .UseDsp(UseDsp)) u_mul_k2 (
      .a_i(r1_q[Km-1:0]),
      .b_i(KW'(Kk)),
      .p_o(kc0b)
    );
    always_comb begin
      c1b = (R1W - Km + 1)'(r1_q >>> Km);
      r_d = (QW + 3)'($signed({1'b0, kc0b})) - (QW + 3)'(c1b);
    end
    always_ff @(posedge clk_i) begin
      r1_q <= r1_d;
    end
  end

  always_comb begin
    if (r < 0) begin
      p_d = QW'(r + (QW + 3)'(Q));
    end else if (r >= (QW + 3)'(Q)) begin
      p_d = QW'(r - (QW + 3)'(Q));
    end else begin
      p_d = QW'(r);
    end
  end

  always_ff @(posedge clk_i) begin
    t_q <= t_d;
    p_q <= p_d;
  end
  assign p_o = p_q;

endmodule
