// One round of Keccak-f[1600]: theta, rho, pi, chi, iota (combinational).
module keccak_round
  import keccak_pkg::*;
(
  input  logic [1599:0] state_i,
  input  logic [63:0]   rc_i,
  output logic [1599:0] state_o
);

  logic [63:0] a [25];
  logic [63:0] c [5];
  logic [63:0] d [5];
  logic [63:0] t [25];  // after theta
  logic [63:0] b [25];  // after rho and pi
  logic [63:0] o [25];  // after chi and iota

  function automatic logic [63:0] rotl(logic [63:0] v, int unsigned n);
    return (n == 0) ? v : ((v << n) | (v >> (64 - n)));
  endfunction

  always_comb begin
    for (int unsigned i = 0; i < 25; i++) begin
      a[i] = state_i[64*i +: 64];
    end
    // theta
    for (int unsigned x = 0; x < 5; x++) begin
      c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    end
    for (int unsigned x = 0; x < 5; x++) begin
      d[x] = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
    end
    for (int unsigned i = 0; i < 25; i++) begin
      t[i] = a[i] ^ d[i % 5];
    end
    // rho and pi: B[y, 2x + 3y] = rotl(A[x, y], rho[x, y])
    for (int unsigned x = 0; x < 5; x++) begin
      for (int unsigned y = 0; y < 5; y++) begin
        b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(t[x + 5 * y], int'(Rho[x + 5 * y]));
      end
    end
    // chi
    for (int unsigned x = 0; x < 5; x++) begin
      for (int unsigned y = 0; y < 5; y++) begin
        o[x + 5 * y] = b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
      end
    end
    // iota
    o[0] = o[0] ^ rc_i;
    for (int unsigned i = 0; i < 25; i++) begin
      state_o[64*i +: 64] = o[i];
    end
  end

endmodule
