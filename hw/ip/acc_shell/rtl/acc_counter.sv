// An event counter of the shell's registers (CYCLES, STREAM), short enough
// between registers for any clock the cores reach: the events are registered
// first (the count trails them by one cycle), and a count wider than 16 bits
// is two halves, the upper one told a cycle ahead that the lower one is about
// to wrap, so that no carry runs through more than 16 bits in one cycle.
module acc_counter #(
  parameter int unsigned Width = 32
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clr_i,    // the count restarts from 0 (before incr_i)
  input  logic             incr_i,   // one more
  output logic [Width-1:0] count_o
);

  localparam int unsigned LoW = (Width > 16) ? Width / 2 : Width;
  localparam int unsigned HiW = Width - LoW;
  localparam logic [LoW-1:0] LoOnes = '1;

  logic             clr_q, incr_q;
  logic [LoW-1:0]   lo_q, lo_d;

  always_comb begin
    lo_d = (clr_q ? '0 : lo_q) + LoW'(incr_q);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      clr_q  <= 1'b0;
      incr_q <= 1'b0;
      lo_q   <= '0;
    end else begin
      clr_q  <= clr_i;
      incr_q <= incr_i;
      lo_q   <= lo_d;
    end
  end

  if (HiW == 0) begin : gen_one
    assign count_o = lo_q;
  end else begin : gen_two
    logic [HiW-1:0] hi_q, hi_d;
    logic           ones_q, ones_d;  // lo_q is all ones: its next increment carries

    always_comb begin
      hi_d   = (clr_q ? '0 : hi_q) + HiW'(incr_q && ones_q && !clr_q);
      // ones_q of the next cycle, from the registers alone
      ones_d = clr_q  ? (incr_q && LoW == 1) :
               incr_q ? (lo_q == LoOnes - 1'b1) :
                        ones_q;
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        hi_q   <= '0;
        ones_q <= 1'b0;
      end else begin
        hi_q   <= hi_d;
        ones_q <= ones_d;
      end
    end

    assign count_o = {hi_q, lo_q};
  end

endmodule
