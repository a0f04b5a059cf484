// A ready/valid stream of the words at addresses 0 .. count-1 of a memory
// with a registered read (bike_ram_sdp): the next read is issued only when
// the word on the memory output has been taken, and that word holds until
// then (the memory keeps its read data until the next read enable). The
// caller maps addr_o to its memory (re_o, addr_o) and presents the memory's
// read data with valid_o; idx_o is the address of that word. Whether words
// remain and whether the pending one is the last are flags kept beside the
// counters (equalities with count - 1), so that no adder or magnitude
// comparison lies on the handshake's path.
module bike_kem_reader #(
  parameter int unsigned CntW = 16
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,
  input  logic [CntW-1:0] count_i,
  // memory read port
  output logic            re_o,
  output logic [CntW-1:0] addr_o,
  // stream
  output logic            valid_o,
  input  logic            ready_i,
  output logic [CntW-1:0] idx_o,
  output logic            last_o
);

  logic [CntW-1:0] cm1_q, cm1_d, next_q, next_d, idx_q, idx_d;  // cm1: count - 1
  logic            pend_q, pend_d, more_q, more_d, last_q, last_d;

  assign re_o    = !start_i && more_q && (!pend_q || ready_i);
  assign addr_o  = next_q;
  assign valid_o = pend_q;
  assign idx_o   = idx_q;
  assign last_o  = pend_q && last_q;

  always_comb begin
    cm1_d  = cm1_q;
    next_d = next_q;
    idx_d  = idx_q;
    pend_d = pend_q;
    more_d = more_q;
    last_d = last_q;
    if (start_i) begin
      cm1_d  = count_i - 1'b1;
      next_d = '0;
      pend_d = 1'b0;
      more_d = (count_i != '0);
    end else if (re_o) begin
      next_d = next_q + 1'b1;
      idx_d  = next_q;
      pend_d = 1'b1;
      last_d = (next_q == cm1_q);
      more_d = (next_q != cm1_q);
    end else if (pend_q && ready_i) begin
      pend_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cm1_q  <= '0;
      next_q <= '0;
      idx_q  <= '0;
      pend_q <= 1'b0;
      more_q <= 1'b0;
      last_q <= 1'b0;
    end else begin
      cm1_q  <= cm1_d;
      next_q <= next_d;
      idx_q  <= idx_d;
      pend_q <= pend_d;
      more_q <= more_d;
      last_q <= last_d;
    end
  end

endmodule
