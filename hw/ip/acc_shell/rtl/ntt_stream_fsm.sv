// Control of ntt_stream (rtl/ntt_stream.sv, which lists the operations and
// their words): which polynomial word goes through ntt's host port or the
// accumulator memory in each cycle, when ntt starts, and when a result word
// is offered to the shell.
//
//   StIdle  --start, known op-->  StLoad
//   StLoad  each stream word as K host writes, accepted with the last; after
//           the item's polynomials (a, or a and b) -->  StRun, ntt started
//   StRun   until ntt is idle again; then StAcc (a product into the sum of
//           a MAC or MACINTT of several items) or StRead
//   StAcc   each product word read and added into the accumulator (written
//           back the next cycle); then StLoad (items left), StCopy (MACINTT)
//           or StRead
//   StCopy  MACINTT: the accumulator written to ntt's a, then StCopyEnd,
//           StIntt (ntt started on the inverse NTT), StRun
//   StRead  K host (or accumulator) reads of a result word, StCap the last
//           read's data
//   StOut   the word to the shell; after the last, the next polynomial
//           (StLoad) or StIdle and done
module ntt_stream_fsm
  import ntt_pkg::*;
#(
  parameter int unsigned N   = 256,
  parameter int unsigned B   = 2,
  localparam int unsigned K   = 4 / B,          // host words per stream word
  localparam int unsigned KW  = (K > 1) ? $clog2(K) : 1,
  localparam int unsigned WAW = $clog2(N / B)   // host word address
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  // the operation (decoded by ntt_stream) and its start
  input  logic           start_i,
  input  logic           op_ok_i,
  input  logic           op_ntt_i,     // NTT
  input  logic           op_intt_i,    // INTT
  input  logic           op_mac_i,     // MAC
  input  logic           op_macintt_i, // MACINTT
  input  logic [3:0]     op_left_i,    // items after the first (k - 1)
  // the streams
  input  logic           in_valid_i,
  output logic           in_ready_o,
  input  logic           bad_in_i,     // a coefficient of the input word >= Q
  input  logic           out_ready_i,
  output logic           out_valid_o,
  output logic           done_o,
  output logic           err_o,
  // ntt
  output logic           ntt_start_o,
  output ntt_op_e        ntt_op_o,
  input  logic           ntt_busy_i,
  output logic           host_req_o,
  output logic           host_we_o,
  output logic           host_poly_o,
  output logic [WAW-1:0] host_addr_o,
  output logic           host_copy_o,  // the host write is the accumulator's word
  // the accumulator memory: read at addr_o, written at wb_addr_o
  output logic           acc_rd_o,
  output logic           acc_wr_o,
  output logic [WAW-1:0] addr_o,
  output logic [WAW-1:0] wb_addr_o,
  output logic           wb_first_o,   // the word written is the first product's
  output logic           from_acc_o,   // the result is read from the accumulator
  // lane groups: of the word loaded (sub_o), of the read data to capture
  output logic [KW-1:0]  sub_o,
  output logic           cap_o,
  output logic [KW-1:0]  cap_sub_o
);

  localparam logic [WAW-1:0] LastAddr = WAW'(N / B - 1);

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
  logic            last_q, last_d;    // addr_q is the last word (a register: the
                                      // NTT's start depends on it)
  logic            bad_q, bad_d;      // a coefficient >= Q came in
  logic            cap_q, cap_d;      // the host's read data is lane group sub_q
  logic [KW-1:0]   sub_q, sub_d;
  logic            wb_q, wb_d;        // the accumulator's word of the last cycle's read
  logic            wbfirst_q, wbfirst_d;  // is written (StAcc) or copied (StCopy)
  logic            wbcopy_q, wbcopy_d;
  logic [WAW-1:0]  wbaddr_q, wbaddr_d;

  logic [KW-1:0]   sub;               // the host word's place in the stream word
  logic            last_sub;

  always_comb begin
    sub = (K > 1) ? KW'(addr_q) : '0;
    last_sub = (K == 1) || (sub == KW'(K - 1));
  end

  always_comb begin
    state_d     = state_q;
    op_d        = op_q;
    mul_d       = mul_q;
    intt_d      = intt_q;
    first_d     = first_q;
    fromacc_d   = fromacc_q;
    left_d      = left_q;
    poly_d      = poly_q;
    addr_d      = addr_q;
    bad_d       = bad_q;
    cap_d       = 1'b0;
    sub_d       = sub;
    wb_d        = 1'b0;
    wbfirst_d   = first_q;
    wbcopy_d    = 1'b0;
    wbaddr_d    = addr_q;
    ntt_start_o = 1'b0;
    host_req_o  = 1'b0;
    host_we_o   = 1'b0;
    host_addr_o = addr_q;
    host_copy_o = 1'b0;
    acc_rd_o    = 1'b0;
    acc_wr_o    = 1'b0;
    in_ready_o  = 1'b0;
    done_o      = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (start_i && op_ok_i) begin
          state_d   = StLoad;
          op_d      = op_ntt_i ? OpNtt : op_intt_i ? OpIntt : OpMul;
          mul_d     = op_mac_i || op_macintt_i;
          intt_d    = op_macintt_i;
          first_d   = 1'b1;
          fromacc_d = op_mac_i && (op_left_i != '0);
          left_d    = op_left_i;
          poly_d    = 1'b0;
          addr_d    = '0;
          bad_d     = 1'b0;
        end
      end

      StLoad: begin
        in_ready_o = last_sub;
        host_req_o = in_valid_i;
        host_we_o  = 1'b1;
        if (in_valid_i) begin
          addr_d = addr_q + 1'b1;
          if (last_sub) begin
            bad_d = bad_q | bad_in_i;
          end
          if (last_q) begin
            addr_d = '0;
            if (mul_q && !poly_q) begin
              poly_d = 1'b1;
            end else begin
              poly_d      = 1'b0;
              state_d     = StRun;
              ntt_start_o = 1'b1;
            end
          end
        end
      end

      StRun: begin
        if (!ntt_busy_i) begin
          // a single BASEMUL's product is the result: no sum
          state_d = (op_q == OpMul && (fromacc_q || intt_q)) ? StAcc : StRead;
        end
      end

      // read product word addr_q and the sum's; written back next cycle
      StAcc: begin
        host_req_o = 1'b1;
        acc_rd_o   = 1'b1;
        wb_d       = 1'b1;
        addr_d     = addr_q + 1'b1;
        if (last_q) begin
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
        acc_rd_o = 1'b1;
        wb_d     = 1'b1;
        wbcopy_d = 1'b1;
        addr_d   = addr_q + 1'b1;
        if (last_q) begin
          state_d = StCopyEnd;
        end
      end

      StCopyEnd: begin
        op_d    = OpIntt;
        state_d = StIntt;
      end

      StIntt: begin
        ntt_start_o = 1'b1;
        state_d     = StRun;
      end

      StRead: begin
        host_req_o = !fromacc_q;
        acc_rd_o   = fromacc_q;
        cap_d      = 1'b1;
        addr_d     = addr_q + 1'b1;
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
    last_d = (addr_d == LastAddr);

    // the write-back of the last cycle's read: the sum (StAcc), or the
    // sum copied into ntt's a (StCopy)
    if (wb_q) begin
      if (wbcopy_q) begin
        host_req_o  = 1'b1;
        host_we_o   = 1'b1;
        host_addr_o = wbaddr_q;
        host_copy_o = 1'b1;
      end else begin
        acc_wr_o = 1'b1;
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
      last_q    <= 1'b0;
      bad_q     <= 1'b0;
      cap_q     <= 1'b0;
      sub_q     <= '0;
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
      last_q    <= last_d;
      bad_q     <= bad_d;
      cap_q     <= cap_d;
      sub_q     <= sub_d;
      wb_q      <= wb_d;
      wbfirst_q <= wbfirst_d;
      wbcopy_q  <= wbcopy_d;
      wbaddr_q  <= wbaddr_d;
    end
  end

  assign out_valid_o = (state_q == StOut);
  assign err_o       = bad_q;
  assign ntt_op_o    = op_q;
  assign host_poly_o = poly_q;
  assign addr_o      = addr_q;
  assign wb_addr_o   = wbaddr_q;
  assign wb_first_o  = wbfirst_q;
  assign from_acc_o  = fromacc_q;
  assign sub_o       = sub;
  assign cap_o       = cap_q;
  assign cap_sub_o   = sub_q;

endmodule
