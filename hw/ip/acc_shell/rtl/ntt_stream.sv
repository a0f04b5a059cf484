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
// words per stream word):
//
//   StLoad  each stream word as K host writes, accepted with the last
//   StRun   ntt started, until it is idle again
//   StAcc   MAC: each product word read and added into the accumulator
//   StCopy  MACINTT: the accumulator written to ntt's a, then StCopyEnd, StIntt
//   StRead  K host (or accumulator) reads of a result word, StCap the last read's data
//   StOut   the word to the shell; after the last, the next polynomial or done
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
  localparam logic [WAW-1:0] LastAddr = WAW'(N / B - 1);

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

  typedef enum logic [3:0] {
    StIdle,
    StLoad,
    StRun,
    StAcc,
    StCopy,
    StCopyEnd,
    StIntt,
    StRead,
    StCap,
    StOut
  } state_e;

  state_e          state_q, state_d;
  ntt_op_e         op_q, op_d;        // ntt's operation of each item
  logic            mul_q, mul_d;      // two polynomials an item (MAC, MACINTT)
  logic            intt_q, intt_d;    // MACINTT: the sum's inverse NTT follows
  logic            first_q, first_d;  // MAC: the first product (the sum starts)
  logic            fromacc_q, fromacc_d;  // the result is read from the accumulator
  logic [3:0]      left_q, left_d;    // items after the current one
  logic            poly_q, poly_d;    // the polynomial written (0: a, 1: b)
  logic [WAW-1:0]  addr_q, addr_d;    // host word written or read
  logic            bad_q, bad_d;      // a coefficient >= Q came in
  logic            cap_q, cap_d;      // the host's read data is lane group sub_q
  logic [KW-1:0]   sub_q, sub_d;
  logic [W-1:0]    out_q, out_d;
  logic            wb_q, wb_d;        // the accumulator's word of the last cycle's read
  logic            wbfirst_q, wbfirst_d;  // is written (StAcc) or copied (StCopy)
  logic            wbcopy_q, wbcopy_d;
  logic [WAW-1:0]  wbaddr_q, wbaddr_d;

  logic            ntt_start, ntt_busy, host_req, host_we;
  logic [WAW-1:0]  host_addr;
  logic [WW-1:0]   host_wdata, host_rdata, rdata, in_word;
  logic [KW-1:0]   sub;               // the host word's place in the stream word
  logic            last_sub, bad_in;
  logic            acc_rd, acc_wr;
  logic [WW-1:0]   acc_rdata, acc_sum, acc_unused;

  always_comb begin
    sub = (K > 1) ? KW'(addr_q) : '0;
    last_sub = (K == 1) || (sub == KW'(K - 1));
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
      logic [QW:0] s;
      s = {1'b0, host_rdata[i*QW +: QW]} + (wbfirst_q ? '0 : {1'b0, acc_rdata[i*QW +: QW]});
      acc_sum[i*QW +: QW] = (s >= (QW+1)'(Q)) ? QW'(s - (QW+1)'(Q)) : QW'(s);
    end
  end

  assign rdata = fromacc_q ? acc_rdata : host_rdata;

  always_comb begin
    state_d   = state_q;
    op_d      = op_q;
    mul_d     = mul_q;
    intt_d    = intt_q;
    first_d   = first_q;
    fromacc_d = fromacc_q;
    left_d    = left_q;
    poly_d    = poly_q;
    addr_d    = addr_q;
    bad_d     = bad_q;
    cap_d     = 1'b0;
    sub_d     = sub;
    out_d     = out_q;
    wb_d      = 1'b0;
    wbfirst_d = first_q;
    wbcopy_d  = 1'b0;
    wbaddr_d  = addr_q;
    ntt_start = 1'b0;
    host_req  = 1'b0;
    host_we   = 1'b0;
    host_addr = addr_q;
    host_wdata = in_word;
    acc_rd    = 1'b0;
    acc_wr    = 1'b0;
    in_ready_o = 1'b0;
    done_o    = 1'b0;

    // the read data of the previous cycle's read to its lanes
    if (cap_q) begin
      for (int unsigned i = 0; i < B; i++) begin
        out_d[(32'(sub_q) * B + i) * CW +: CW] = CW'(rdata[i*QW +: QW]);
      end
    end

    unique case (state_q)
      StIdle: begin
        if (start_i && op_ok_o) begin
          state_d   = StLoad;
          op_d      = (kind == KindNtt) ? OpNtt : (kind == KindIntt) ? OpIntt : OpMul;
          mul_d     = pairs;
          intt_d    = (kind == KindMacInt);
          first_d   = 1'b1;
          fromacc_d = (kind == KindMac) && (count != 5'd1);
          left_d    = op_i[7:4];
          poly_d    = 1'b0;
          addr_d    = '0;
          bad_d     = 1'b0;
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
          // a single BASEMUL's product is the result: no sum
          state_d = (op_q == OpMul && (fromacc_q || intt_q)) ? StAcc : StRead;
        end
      end

      // read product word addr_q and the sum's; written back next cycle
      StAcc: begin
        host_req = 1'b1;
        acc_rd   = 1'b1;
        wb_d     = 1'b1;
        addr_d   = addr_q + 1'b1;
        if (addr_q == LastAddr) begin
          first_d = 1'b0;
          if (left_q != '0) begin
            left_d  = left_q - 1'b1;
            state_d = StLoad;
          end else begin
            state_d = intt_q ? StCopy : StRead;
          end
        end
      end

      // the sum's word addr_q read, written to ntt's a next cycle
      StCopy: begin
        acc_rd   = 1'b1;
        wb_d     = 1'b1;
        wbcopy_d = 1'b1;
        addr_d   = addr_q + 1'b1;
        if (addr_q == LastAddr) begin
          state_d = StCopyEnd;
        end
      end

      StCopyEnd: begin
        op_d    = OpIntt;
        state_d = StIntt;
      end

      StIntt: begin
        ntt_start = 1'b1;
        state_d   = StRun;
      end

      StRead: begin
        host_req = !fromacc_q;
        acc_rd   = fromacc_q;
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
            if (left_q != '0 && !mul_q) begin
              left_d  = left_q - 1'b1;
              state_d = StLoad;
            end else begin
              state_d = StIdle;
              done_o  = 1'b1;
            end
          end
        end
      end

      default: state_d = StIdle;
    endcase

    // the write-back of the last cycle's read: the sum (StAcc), or the
    // sum copied into ntt's a (StCopy)
    if (wb_q) begin
      if (wbcopy_q) begin
        host_req   = 1'b1;
        host_we    = 1'b1;
        host_addr  = wbaddr_q;
        host_wdata = acc_rdata;
      end else begin
        acc_wr = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      op_q      <= OpNtt;
      mul_q     <= 1'b0;
      intt_q    <= 1'b0;
      first_q   <= 1'b0;
      fromacc_q <= 1'b0;
      left_q    <= '0;
      poly_q    <= 1'b0;
      addr_q    <= '0;
      bad_q     <= 1'b0;
      cap_q     <= 1'b0;
      sub_q     <= '0;
      out_q     <= '0;
      wb_q      <= 1'b0;
      wbfirst_q <= 1'b0;
      wbcopy_q  <= 1'b0;
      wbaddr_q  <= '0;
    end else begin
      state_q   <= state_d;
      op_q      <= op_d;
      mul_q     <= mul_d;
      intt_q    <= intt_d;
      first_q   <= first_d;
      fromacc_q <= fromacc_d;
      left_q    <= left_d;
      poly_q    <= poly_d;
      addr_q    <= addr_d;
      bad_q     <= bad_d;
      cap_q     <= cap_d;
      sub_q     <= sub_d;
      out_q     <= out_d;
      wb_q      <= wb_d;
      wbfirst_q <= wbfirst_d;
      wbcopy_q  <= wbcopy_d;
      wbaddr_q  <= wbaddr_d;
    end
  end

  assign out_valid_o = (state_q == StOut);
  assign out_data_o  = out_q;
  assign err_o       = bad_q;

  // the sum of a MAC's products: read on port a, written on port b
  bike_ram_tdp #(.Width(WW), .Depth(N / B)) u_acc (
    .clk_i,
    .a_en_i   (acc_rd),
    .a_we_i   (1'b0),
    .a_addr_i (addr_q),
    .a_wdata_i('0),
    .a_rdata_o(acc_rdata),
    .b_en_i   (acc_wr),
    .b_we_i   (1'b1),
    .b_addr_i (wbaddr_q),
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
    .op_i         (op_q),
    .busy_o       (ntt_busy),
    .host_req_i   (host_req),
    .host_we_i    (host_we),
    .host_poly_i  (poly_q),
    .host_addr_i  (host_addr),
    .host_wdata_i (host_wdata),
    .host_rdata_o (host_rdata)
  );

  logic unused;
  assign unused = ^acc_unused;

endmodule
