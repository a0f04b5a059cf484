// ntt on the shell's operation-core interface (doc/acc_shell.md).
//
// Stream words carry four coefficients of 16 bits each, coefficient 4i + j of
// a polynomial in bits 16j .. 16j + 15 of word i: the little-endian memory of
// an int16_t[N] array (libmlkem's poly), coefficients in [0, Q). N / 4 words
// per polynomial. OP[3:0] is the operation, OP[7:4] + 1 = k its count
// (ntt_pkg's semantics, doc/ntt.md):
//
//   1 NTT      in: a_0 .. a_k-1 (k N/4 words)         out: NTT(a_j), each in turn
//   2 INTT     in: a_0 .. a_k-1 (k N/4 words)         out: NTT^-1(a_j) F^-1
//   3 MAC      in: a_0, b_0 .. a_k-1, b_k-1           out: sum_j (a_j o b_j) F
//   4 MACINTT  in: as MAC                             out: NTT^-1(sum_j (a_j o b_j) F) F^-1
//
// (k = 1: OP 1, 2, 3 are the single NTT, INTT and BASEMUL, the last read
// straight from ntt.) MAC keeps the sum in an accumulator memory, so k
// products cross the bus as one polynomial, and MACINTT transforms it in
// place: a row of A^T y and its inverse NTT in one operation. A coefficient at or above Q (in its 16 bits) ends the
// operation with error CORE, its result words given and meaningless. The
// words go through ntt's host port (B coefficients a word, K = 4 / B host
// words per stream word) in the order rtl/ntt_stream_fsm.sv sets; this module
// holds the datapath: the lanes of a word, the accumulator memory and its
// sums, and ntt.
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
  localparam int unsigned WW   = B * QW,         // host word
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

  localparam logic [3:0] KindNtt    = 4'd1;
  localparam logic [3:0] KindIntt   = 4'd2;
  localparam logic [3:0] KindMac    = 4'd3;
  localparam logic [3:0] KindMacInt = 4'd4;

  // the operation: kind and count
  logic [3:0] kind;
  logic [4:0] count;  // k, 1 .. 16
  logic       pairs;  // two polynomials per item (MAC, MACINTT)
  assign kind    = op_i[3:0];
  assign count   = 5'(op_i[7:4]) + 5'd1;
  assign pairs   = (kind == KindMac) || (kind == KindMacInt);
  assign op_ok_o = (kind >= KindNtt) && (kind <= KindMacInt);
  always_comb begin
    in_words_o  = '0;
    out_words_o = '0;
    if (op_ok_o) begin  // SW is a power of two: shifts, no multiplier
      in_words_o  = (CntW'(count) << $clog2(SW)) << pairs;
      out_words_o = pairs ? CntW'(SW) : CntW'(count) << $clog2(SW);
    end
  end

  logic            ntt_start, ntt_busy, host_req, host_we, host_poly, host_copy;
  ntt_op_e         ntt_op;
  logic [WAW-1:0]  host_addr, addr, wb_addr;
  logic [WW-1:0]   host_wdata, host_rdata, rdata, in_word;
  logic [KW-1:0]   sub, cap_sub;      // lane groups of the word loaded and captured
  logic            bad_in, cap, wb_first, from_acc;
  logic            acc_rd, acc_wr;
  logic [WW-1:0]   acc_rdata, acc_sum, acc_unused;
  logic [W-1:0]    out_q, out_d;

  ntt_stream_fsm #(.N(N), .B(B)) u_fsm (
    .clk_i,
    .rst_ni,
    .start_i,
    .op_ok_i      (op_ok_o),
    .op_ntt_i     (kind == KindNtt),
    .op_intt_i    (kind == KindIntt),
    .op_mac_i     (kind == KindMac),
    .op_macintt_i (kind == KindMacInt),
    .op_left_i    (op_i[7:4]),
    .in_valid_i,
    .in_ready_o,
    .bad_in_i     (bad_in),
    .out_ready_i,
    .out_valid_o,
    .done_o,
    .err_o,
    .ntt_start_o  (ntt_start),
    .ntt_op_o     (ntt_op),
    .ntt_busy_i   (ntt_busy),
    .host_req_o   (host_req),
    .host_we_o    (host_we),
    .host_poly_o  (host_poly),
    .host_addr_o  (host_addr),
    .host_copy_o  (host_copy),
    .acc_rd_o     (acc_rd),
    .acc_wr_o     (acc_wr),
    .addr_o       (addr),
    .wb_addr_o    (wb_addr),
    .wb_first_o   (wb_first),
    .from_acc_o   (from_acc),
    .sub_o        (sub),
    .cap_o        (cap),
    .cap_sub_o    (cap_sub)
  );

  always_comb begin
    bad_in = 1'b0;
    for (int unsigned j = 0; j < 4; j++) begin
      bad_in |= (in_data_i[j*CW +: CW] >= CW'(Q));
    end
    for (int unsigned i = 0; i < B; i++) begin
      in_word[i*QW +: QW] = in_data_i[(32'(sub) * B + i) * CW +: QW];
    end
  end

  // the product word just read plus the sum's word (mod Q, lane by lane)
  always_comb begin
    for (int unsigned i = 0; i < B; i++) begin
      acc_sum[i*QW +: QW] = QW'(add_mod(16'(host_rdata[i*QW +: QW]),
                                        wb_first ? 16'd0 : 16'(acc_rdata[i*QW +: QW]), 17'(Q)));
    end
  end

  assign rdata      = from_acc ? acc_rdata : host_rdata;
  assign host_wdata = host_copy ? acc_rdata : in_word;

  // the read data of the previous cycle's read to its lanes
  always_comb begin
    out_d = out_q;
    if (cap) begin
      for (int unsigned i = 0; i < B; i++) begin
        out_d[(32'(cap_sub) * B + i) * CW +: CW] = CW'(rdata[i*QW +: QW]);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_q <= '0;
    end else begin
      out_q <= out_d;
    end
  end

  assign out_data_o = out_q;

  // the sum of a MAC's products: read on port a, written on port b
  bike_ram_tdp #(.Width(WW), .Depth(N / B)) u_acc (
    .clk_i,
    .a_en_i   (acc_rd),
    .a_we_i   (1'b0),
    .a_addr_i (addr),
    .a_wdata_i('0),
    .a_rdata_o(acc_rdata),
    .b_en_i   (acc_wr),
    .b_we_i   (1'b1),
    .b_addr_i (wb_addr),
    .b_wdata_i(acc_sum),
    .b_rdata_o(acc_unused)
  );

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
    .op_i         (ntt_op),
    .busy_o       (ntt_busy),
    .host_req_i   (host_req),
    .host_we_i    (host_we),
    .host_poly_i  (host_poly),
    .host_addr_i  (host_addr),
    .host_wdata_i (host_wdata),
    .host_rdata_o (host_rdata)
  );

  logic unused;
  assign unused = ^acc_unused;

endmodule
