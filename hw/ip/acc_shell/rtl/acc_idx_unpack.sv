// Positions from stream words (doc/acc_shell.md, "Positions"): Blocks blocks
// of D positions, each block in ceil(D/2) 64-bit words, two positions a word
// (position 2j in bits 31:0, 2j + 1 in bits 63:32; an odd D's last word
// carries one, its high half ignored), each position its low PW bits. A word
// is taken with its second position, or with its block's last.
//
// Valid/ready both ways; en_i gates the word side (the parent's phase);
// last_o marks the last position of the last block. Counters restart with
// start_i.
module acc_idx_unpack #(
  parameter int unsigned D      = 71,
  parameter int unsigned Blocks = 1,
  parameter int unsigned PW     = 14,
  localparam int unsigned W     = 64,
  localparam int unsigned CntW  = 16,
  localparam int unsigned BW    = (Blocks > 1) ? $clog2(Blocks) : 1
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          start_i,
  input  logic          en_i,
  input  logic          in_valid_i,
  output logic          in_ready_o,
  input  logic [W-1:0]  in_data_i,
  output logic          idx_valid_o,
  input  logic          idx_ready_i,
  output logic [PW-1:0] idx_o,
  output logic          last_o
);

  initial begin
    assert (D >= 1 && Blocks >= 1 && PW < 32) else $error("D, Blocks >= 1; PW < 32");
  end

  localparam logic [CntW-1:0] LastPos = CntW'(D - 1);
  localparam logic [BW-1:0]   LastBlk = BW'(Blocks - 1);

  logic [CntW-1:0] pos_q, pos_d;  // position within the block
  logic            hi_q, hi_d;    // the word's high half is next
  logic [BW-1:0]   blk_q, blk_d;  // block
  logic            blk_end, take;

  assign blk_end     = (pos_q == LastPos);
  assign idx_valid_o = en_i && in_valid_i;
  assign in_ready_o  = en_i && idx_ready_i && (hi_q || blk_end);
  assign idx_o       = hi_q ? in_data_i[32 +: PW] : in_data_i[0 +: PW];
  assign last_o      = blk_end && (blk_q == LastBlk);
  assign take        = idx_valid_o && idx_ready_i;

  always_comb begin
    pos_d = pos_q;
    hi_d  = hi_q;
    blk_d = blk_q;
    if (start_i) begin
      pos_d = '0;
      hi_d  = 1'b0;
      blk_d = '0;
    end else if (take) begin
      pos_d = blk_end ? '0 : pos_q + 1'b1;
      hi_d  = !hi_q && !blk_end;
      blk_d = blk_end ? blk_q + 1'b1 : blk_q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pos_q <= '0;
      hi_q  <= 1'b0;
      blk_q <= '0;
    end else begin
      pos_q <= pos_d;
      hi_q  <= hi_d;
      blk_q <= blk_d;
    end
  end

  logic unused;
  assign unused = ^{in_data_i[31:PW], in_data_i[63:32+PW]};

endmodule
