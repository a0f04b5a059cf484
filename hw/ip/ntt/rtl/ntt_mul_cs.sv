// Unsigned multiplier in LUTs, combinational, in carry-save form: the
// product is s_o + c_o (mod 2^PW). The BW partial products are reduced by
// layers of 3:2 compressors (one LUT level each) to two rows, so the one
// carry chain, the rows' sum, can take a register stage of its own; written
// as a chain of adders (ntt_mul, UseDsp = 0) the product is BW - 1 carry
// chains deep.
module ntt_mul_cs #(
  parameter int unsigned AW  = 12,
  parameter int unsigned BW  = 12,
  localparam int unsigned PW = AW + BW
) (
  input  logic [AW-1:0] a_i,
  input  logic [BW-1:0] b_i,
  output logic [PW-1:0] s_o,
  output logic [PW-1:0] c_o
);

  // rows after each layer: 3 -> 2 per whole group, the rest passed on
  function automatic int unsigned rows_after(int unsigned rows);
    return 2 * (rows / 3) + rows % 3;
  endfunction

  // rows entering layer l
  function automatic int unsigned rows_at(int unsigned l);
    int unsigned n = BW;
    for (int unsigned i = 0; i < l; i++) begin
      n = rows_after(n);
    end
    return n;
  endfunction

  function automatic int unsigned layers();
    int unsigned l = 0;
    while (rows_at(l) > 2) l++;
    return l;
  endfunction

  localparam int unsigned Layers = layers();

  logic [PW-1:0] row [Layers+1][BW];

  always_comb begin
    for (int unsigned l = 0; l <= Layers; l++) begin
      for (int unsigned r = 0; r < BW; r++) begin
        row[l][r] = '0;
      end
    end
    for (int unsigned r = 0; r < BW; r++) begin
      row[0][r] = b_i[r] ? PW'(a_i) << r : '0;
    end
    for (int unsigned l = 0; l < Layers; l++) begin
      for (int unsigned g = 0; g < rows_at(l) / 3; g++) begin
        row[l+1][2*g] = row[l][3*g] ^ row[l][3*g+1] ^ row[l][3*g+2];
        row[l+1][2*g+1] = ((row[l][3*g] & row[l][3*g+1]) | (row[l][3*g] & row[l][3*g+2]) |
                           (row[l][3*g+1] & row[l][3*g+2])) << 1;
      end
      for (int unsigned r = 0; r < rows_at(l) % 3; r++) begin
        row[l+1][2*(rows_at(l)/3)+r] = row[l][3*(rows_at(l)/3)+r];
      end
    end
  end

  assign s_o = row[Layers][0];
  assign c_o = (BW > 1) ? row[Layers][1] : '0;

  logic unused;
  always_comb begin
    unused = 1'b0;
    for (int unsigned l = 0; l <= Layers; l++) begin
      for (int unsigned r = 2; r < BW; r++) begin
        unused ^= ^row[l][r];
      end
    end
  end

endmodule
