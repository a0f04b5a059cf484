// ntt on the shell's operation-core interface (doc/acc_shell.md).
//
// Stream words carry four coefficients of 16 bits each, coefficient 4i + j of
// a polynomial in bits 16j .. 16j + 15 of word i: the little-endian memory of
// an int16_t[N] array (libmlkem's poly), coefficients in [0, Q). N / 4 words
// per polynomial. Operations (ntt_pkg's semantics, doc/ntt.md):
//
//   1 NTT      in: a (N/4 words)             out: NTT(a)
//   2 INTT     in: a (N/4 words)             out: NTT^-1(a) F^-1
//   3 BASEMUL  in: a, then b (N/2 words)     out: (a o b) F
//
// A coefficient at or above Q (in its 16 bits) ends the operation with error
// CORE, its result words given and meaningless. The words go through ntt's
// host port (B coefficients a word, K = 4 / B host words per stream word):
//
//   StLoad  each stream word as K host writes, accepted with the last
//   StRun   ntt started, until it is idle again
//   StRead  K host reads of a result word, StCap the last read's data
//   StOut   the word to the shell; done with the last one taken
module ntt_stream
  import ntt_pkg::*;
#(
  parameter int unsigned N        = 256,
  parameter int unsigned Q        = 3329,
  parameter int unsigned P        = 1,
  parameter int unsigned Zeta     = 17,
  parameter int unsigned B        = 2,
  parameter int unsigned Red      = RedMontgomery,
  parameter int unsigned MontBits = 16,
  parameter int unsigned UseDsp   = 1,
  localparam int unsigned W    = 64,
  localparam int unsigned CW   = 16,             // coefficient lane of a stream word
  localparam int unsigned QW   = $clog2(Q),
  localparam int unsigned K    = 4 / B,          // host words per stream word
  localparam int unsigned KW   = (K > 1) ? $clog2(K) : 1,
  localparam int unsigned SW   = N / 4,          // stream words per polynomial
  localparam int unsigned WAW  = $clog2(N / B),  // host word address
  localparam int unsigned OpW  = 8,
  localparam int unsigned CntW = 16
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,
  input  logic [OpW-1:0]  op_i,
  output logic            op_ok_o,
  output logic [CntW-1:0] in_words_o,
  output logic [CntW-1:0] out_words_o,
  output logic            done_o,
  output logic            err_o,
  input  logic            in_valid_i,
  output logic            in_ready_o,
  input  logic [W-1:0]    in_data_i,
  output logic            out_valid_o,
  input  logic            out_ready_i,
  output logic [W-1:0]    out_data_o
);

  if (B > 4 || (4 % B) != 0) begin : gen_bad_b
    $error("ntt_stream: B must divide the 4 coefficients of a stream word");
  end

  localparam logic [OpW-1:0] OpNttW   = 8'd1;
  localparam logic [OpW-1:0] OpInttW  = 8'd2;
  localparam logic [OpW-1:0] OpMulW   = 8'd3;
  localparam logic [WAW-1:0] LastAddr = WAW'(N / B - 1);

  assign op_ok_o     = (op_i == OpNttW) || (op_i == OpInttW) || (op_i == OpMulW);
  assign in_words_o  = !op_ok_o ? '0 : (op_i == OpMulW) ? CntW'(2 * SW) : CntW'(SW);
  assign out_words_o = op_ok_o ? CntW'(SW) : '0;

  typedef enum logic [2:0] {
    StIdle,
    StLoad,
    StRun,
    StRead,
    StCap,
    StOut
  } state_e;

  state_e          state_q, state_d;
  ntt_op_e         op_q, op_d;
  logic            mul_q, mul_d;      // a base multiplication: two polynomials in
  logic            poly_q, poly_d;    // the polynomial written (0: a, 1: b)
  logic [WAW-1:0]  addr_q, addr_d;    // host word written or read
  logic            bad_q, bad_d;      // a coefficient >= Q came in
  logic            cap_q, cap_d;      // the host's read data is lane group sub_q
  logic [KW-1:0]   sub_q, sub_d;
  logic [W-1:0]    out_q, out_d;

  logic            ntt_start, ntt_busy, host_req, host_we;
  logic [B*QW-1:0] host_wdata, host_rdata;
  logic [KW-1:0]   sub;               // the host word's place in the stream word
  logic            last_sub, bad_in;

  always_comb begin
    sub = (K > 1) ? KW'(addr_q) : '0;
    last_sub = (K == 1) || (sub == KW'(K - 1));
    bad_in = 1'b0;
    for (int unsigned j = 0; j < 4; j++) begin
      bad_in |= (in_data_i[j*CW +: CW] >= CW'(Q));
    end
    for (int unsigned i = 0; i < B; i++) begin
      host_wdata[i*QW +: QW] = in_data_i[(32'(sub) * B + i) * CW +: QW];
    end
  end

  always_comb begin
    state_d   = state_q;
    op_d      = op_q;
    mul_d     = mul_q;
    poly_d    = poly_q;
    addr_d    = addr_q;
    bad_d     = bad_q;
    cap_d     = 1'b0;
    sub_d     = sub;
    out_d     = out_q;
    ntt_start = 1'b0;
    host_req  = 1'b0;
    host_we   = 1'b0;
    in_ready_o = 1'b0;
    done_o    = 1'b0;

    // the read data of the previous cycle's host read to its lanes
    if (cap_q) begin
      for (int unsigned i = 0; i < B; i++) begin
        out_d[(32'(sub_q) * B + i) * CW +: CW] = CW'(host_rdata[i*QW +: QW]);
      end
    end

    unique case (state_q)
      StIdle: begin
        if (start_i && op_ok_o) begin
          state_d = StLoad;
          op_d    = (op_i == OpNttW) ? OpNtt : (op_i == OpInttW) ? OpIntt : OpMul;
          mul_d   = (op_i == OpMulW);
          poly_d  = 1'b0;
          addr_d  = '0;
          bad_d   = 1'b0;
        end
      end

      StLoad: begin
        in_ready_o = last_sub;
        host_req   = in_valid_i;
        host_we    = 1'b1;
        if (in_valid_i) begin
          addr_d = addr_q + 1'b1;
          if (last_sub) begin
            bad_d = bad_q | bad_in;
          end
          if (addr_q == LastAddr) begin
            addr_d = '0;
            if (mul_q && !poly_q) begin
              poly_d = 1'b1;
            end else begin
              poly_d    = 1'b0;
              state_d   = StRun;
              ntt_start = 1'b1;
            end
          end
        end
      end

      StRun: begin
        if (!ntt_busy) begin
          state_d = StRead;
        end
      end

      StRead: begin
        host_req = 1'b1;
        cap_d    = 1'b1;
        addr_d   = addr_q + 1'b1;
        if (last_sub) begin
          state_d = StCap;
        end
      end

      StCap: begin
        state_d = StOut;
      end

      StOut: begin
        if (out_ready_i) begin
          state_d = StRead;
          if (addr_q == '0) begin  // the last word's reads wrapped the address
            state_d = StIdle;
            done_o  = 1'b1;
          end
        end
      end

      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      op_q    <= OpNtt;
      mul_q   <= 1'b0;
      poly_q  <= 1'b0;
      addr_q  <= '0;
      bad_q   <= 1'b0;
      cap_q   <= 1'b0;
      sub_q   <= '0;
      out_q   <= '0;
    end else begin
      state_q <= state_d;
      op_q    <= op_d;
      mul_q   <= mul_d;
      poly_q  <= poly_d;
      addr_q  <= addr_d;
      bad_q   <= bad_d;
      cap_q   <= cap_d;
      sub_q   <= sub_d;
      out_q   <= out_d;
    end
  end

  assign out_valid_o = (state_q == StOut);
  assign out_data_o  = out_q;
  assign err_o       = bad_q;

  ntt #(
    .N        (N),
    .Q        (Q),
    .P        (1'(P)),
    .Zeta     (Zeta),
    .B        (B),
    .Red      (Red),
    .MontBits (MontBits),
    .UseDsp   (1'(UseDsp))
  ) u_ntt (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .start_i      (ntt_start),
    .op_i         (op_q),
    .busy_o       (ntt_busy),
    .host_req_i   (host_req),
    .host_we_i    (host_we),
    .host_poly_i  (poly_q),
    .host_addr_i  (addr_q),
    .host_wdata_i (host_wdata),
    .host_rdata_o (host_rdata)
  );

endmodule
