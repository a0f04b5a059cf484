// acc_counter against a model of the count it must show: every cycle, for
// counters of one half (16 bits) and of two (17 and 32 bits), under random
// increments and clears. Between two clears the count passes 2^17: the 17-bit
// counter wraps whole and its 8-bit lower half many times, the 32-bit one its
// lower half. Prints PASS, or FAIL with the first mismatches.
module tb_acc_counter;
  localparam int unsigned Cycles = 400_000;

  logic clk, rst_n, clr, incr;
  logic [15:0] c16;
  logic [16:0] c17;
  logic [31:0] c32;
  // the model: the events of the last cycle applied to the count
  logic [31:0] m32, peak;
  logic        clr_q, incr_q;
  int unsigned errors = 0;

  acc_counter #(.Width (16)) u_c16 (.clk_i (clk), .rst_ni (rst_n), .clr_i (clr), .incr_i (incr),
                                    .count_o (c16));
  acc_counter #(.Width (17)) u_c17 (.clk_i (clk), .rst_ni (rst_n), .clr_i (clr), .incr_i (incr),
                                    .count_o (c17));
  acc_counter #(.Width (32)) u_c32 (.clk_i (clk), .rst_ni (rst_n), .clr_i (clr), .incr_i (incr),
                                    .count_o (c32));

  initial begin
    clk = 1'b0;
    forever #5 clk = ~clk;
  end

  initial begin
    {rst_n, clr, incr, clr_q, incr_q} = '0;
    m32  = '0;
    peak = '0;
    repeat (2) @(posedge clk);
    rst_n = 1'b1;
    for (int unsigned i = 0; i < Cycles; i++) begin
      @(negedge clk);
      if (c16 != m32[15:0] || c17 != m32[16:0] || c32 != m32) begin
        errors++;
        if (errors <= 5) begin
          $display("MISMATCH cycle %0d: 16-bit %0d, 17-bit %0d, 32-bit %0d, expected %0d",
                   i, c16, c17, c32, m32);
        end
      end
      // clears early, half-way and rarely at random (some with an
      // increment); runs of increments with gaps
      clr  = (i == 1000) || (i == Cycles / 2) || ($urandom_range(999_999) == 0);
      incr = ($urandom_range(15) != 0);
      @(posedge clk);
      m32    = (clr_q ? '0 : m32) + 32'(incr_q);
      peak   = (m32 > peak) ? m32 : peak;
      clr_q  = clr;
      incr_q = incr;
    end
    if (peak < 32'h2_0000) begin
      errors++;
      $display("FAIL acc_counter: the count never passed 2^17 (peak %0d)", peak);
    end
    if (errors == 0) $display("PASS acc_counter: %0d cycles, peak count %0d", Cycles, peak);
    else $display("FAIL acc_counter: %0d errors", errors);
    $finish;
  end
endmodule
