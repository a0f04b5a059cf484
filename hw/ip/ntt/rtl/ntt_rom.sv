// The twiddle table, two synchronous read ports (one dual-port block RAM):
// entry k holds zeta^BitRev(k) F^-1 mod q over log2(Nz) bits, as the
// multiplier takes it (ntt_pkg). Nz = N for a complete transform (zeta a
// primitive 2N-th root of unity), N / 2 for ML-KEM's (zeta a primitive
// N-th root; entries Nz/2 .. Nz-1 also give the base multiplication's
// gammas). The contents are computed at elaboration.
module ntt_rom
  import ntt_pkg::*;
#(
  parameter int unsigned Q        = 3329,
  parameter int unsigned Nz       = 128,
  parameter int unsigned Zeta     = 17,
  parameter int unsigned Red      = RedMontgomery,  // ntt_pkg::Red*
  parameter int unsigned MontBits = 16,
  localparam int unsigned QW      = $clog2(Q),
  localparam int unsigned AW      = $clog2(Nz)
) (
  input  logic          clk_i,
  input  logic [AW-1:0] a_addr_i,
  input  logic [AW-1:0] b_addr_i,
  output logic [QW-1:0] a_data_o,
  output logic [QW-1:0] b_data_o
);

  typedef logic [QW-1:0] table_t [Nz];

  function automatic table_t zetas();
    table_t t;
    for (int unsigned k = 0; k < Nz; k++) begin
      t[k] = QW'(stored(modpow(Zeta, bitrev(k, AW), Q), Red, Q, MontBits));
    end
    return t;
  endfunction

  localparam table_t Table = zetas();

  // a memory initialised from the table: Yosys maps it to block RAM even
  // when small (indexing the constant itself gives LUTs below ~1k entries)
  (* rom_style = "block" *) logic [QW-1:0] rom [Nz];
  initial rom = Table;

  logic [QW-1:0] a_q, b_q;

  always_ff @(posedge clk_i) begin
    a_q <= rom[a_addr_i];
    b_q <= rom[b_addr_i];
  end

  assign a_data_o = a_q;
  assign b_data_o = b_q;

endmodule
