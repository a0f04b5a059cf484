// Constants of Keccak-f[1600] (FIPS 202), derived at elaboration time from
// their definitions rather than typed in: the round constants from the
// degree-8 LFSR rc(t), the rho offsets from the (x, y) -> (y, 2x + 3y) walk.
// Lane (x, y) is bits 64 (x + 5 y) .. 64 (x + 5 y) + 63 of the state.
package keccak_pkg;

  localparam int unsigned NumRounds = 24;

  // rc(t) of FIPS 202, algorithm 5
  function automatic logic rc_bit(int unsigned t);
    logic [8:0] r;
    if (t % 255 == 0) return 1'b1;
    r = 9'h001;  // R = 1 0 0 0 0 0 0 0 with bit 0 first
    for (int unsigned i = 1; i <= t % 255; i++) begin
      r = {r[7:0], 1'b0};  // R = 0 || R
      r[0] = r[0] ^ r[8];
      r[4] = r[4] ^ r[8];
      r[5] = r[5] ^ r[8];
      r[6] = r[6] ^ r[8];
    end
    return r[0];
  endfunction

  // Round constants RC[ir]: bit 2^j - 1 is rc(j + 7 ir)
  function automatic logic [NumRounds-1:0][63:0] round_constants();
    logic [NumRounds-1:0][63:0] rcs;
    for (int unsigned ir = 0; ir < NumRounds; ir++) begin
      rcs[ir] = '0;
      for (int unsigned j = 0; j <= 6; j++) begin
        rcs[ir][(1 << j) - 1] = rc_bit(j + 7 * ir);
      end
    end
    return rcs;
  endfunction

  // rho offsets per lane index x + 5 y
  function automatic logic [24:0][5:0] rho_offsets();
    logic [24:0][5:0] off;
    int unsigned x, y, nx;
    off = '0;
    x = 1;
    y = 0;
    for (int unsigned t = 0; t < 24; t++) begin
      off[x + 5 * y] = 6'(((t + 1) * (t + 2) / 2) % 64);
      nx = y;
      y = (2 * x + 3 * y) % 5;
      x = nx;
    end
    return off;
  endfunction

  localparam logic [NumRounds-1:0][63:0] RC  = round_constants();
  localparam logic [24:0][5:0]           Rho = rho_offsets();

  // Padding domain bytes (suffix bits and the first 1 of pad10*1)
  localparam logic [7:0] DomainSha3  = 8'h06;
  localparam logic [7:0] DomainShake = 8'h1f;

  // Rates in 64-bit lanes
  localparam int unsigned RateSha3_384  = 13;  // 104 bytes
  localparam int unsigned RateShake256  = 17;  // 136 bytes

  // Sponge control shared by keccak_core and keccak_serial

  function automatic logic [7:0] domain_byte(logic shake);
    return shake ? DomainShake : DomainSha3;
  endfunction

  function automatic logic [4:0] rate_last_lane(logic shake);
    return shake ? 5'(RateShake256 - 1) : 5'(RateSha3_384 - 1);
  endfunction

  // An absorbed word: its first `bytes` bytes (0..8), and on the last word
  // of a message that does not fill it, the domain byte right after them.
  function automatic logic [63:0] absorb_word(logic [63:0] data, logic last,
                                              logic [3:0] bytes, logic shake);
    logic [63:0] w;
    w = '0;
    for (int unsigned i = 0; i < 8; i++) begin
      if (i < 32'(bytes)) begin
        w[8*i +: 8] = data[8*i +: 8];
      end
    end
    if (last && bytes < 4'd8) begin
      w = w ^ (64'(domain_byte(shake)) << (8 * bytes[2:0]));
    end
    return w;
  endfunction

endpackage
