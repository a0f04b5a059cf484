// Constants of ML-KEM's samplers (FIPS 203, algorithms 7 and 8) on
// Keccak-f[1600]: the ring, the operations, their sponges and the width of
// the bit string each coefficient is drawn from.
package mlkem_sampler_pkg;

  localparam int unsigned N  = 256;   // coefficients per polynomial
  localparam int unsigned Q  = 3329;  // the modulus
  localparam int unsigned QW = 12;    // bits of a coefficient in [0, q)

  typedef enum logic [1:0] {
    OpNtt  = 2'd0,  // SampleNTT: XOF = SHAKE128(rho || j || i), 12-bit rejection < q
    OpCbd2 = 2'd1,  // SamplePolyCBD_2 on PRF_2 = SHAKE256(sigma || N)
    OpCbd3 = 2'd2   // SamplePolyCBD_3 on PRF_3 = SHAKE256(sigma || N)
  } op_e;

  // Rates in bits: SHAKE128 168 bytes, SHAKE256 136 bytes
  localparam int unsigned RateShake128 = 1344;
  localparam int unsigned RateShake256 = 1088;
  localparam logic [7:0]  DomainShake  = 8'h1f;  // suffix 1111 and the first 1 of pad10*1

  // Bits per candidate: 12 for SampleNTT, 2 eta for SamplePolyCBD_eta
  function automatic logic [3:0] op_bits(op_e op);
    unique case (op)
      OpNtt:   return 4'd12;
      OpCbd2:  return 4'd4;
      default: return 4'd6;
    endcase
  endfunction

  // Index of the last 64-bit rate lane of the operation's sponge
  function automatic logic [4:0] op_rate_last(op_e op);
    return (op == OpNtt) ? 5'(RateShake128 / 64 - 1) : 5'(RateShake256 / 64 - 1);
  endfunction

  // The state after absorbing seed || b0 (|| b1 for the XOF) with SHAKE
  // padding, before the first permutation: inputs of 33 and 34 bytes fit in
  // one block of either rate.
  function automatic logic [1599:0] op_init_state(op_e op, logic [255:0] seed,
                                                  logic [15:0] idx);
    logic [1599:0] s;
    s = '0;
    s[255:0] = seed;
    s[263:256] = idx[7:0];
    if (op == OpNtt) begin
      s[271:264] = idx[15:8];
      s[279:272] = DomainShake;
      s[RateShake128 - 1] = 1'b1;
    end else begin
      s[271:264] = DomainShake;
      s[RateShake256 - 1] = 1'b1;
    end
    return s;
  endfunction

  // SamplePolyCBD_eta's coefficient from 2 eta bits: popcount of the low eta
  // minus popcount of the high eta, mod q
  function automatic logic [QW-1:0] cbd_coef(logic [5:0] b, logic eta3);
    logic [2:0] x, y;
    logic [QW-1:0] d;
    if (eta3) begin
      x = 3'(b[0]) + 3'(b[1]) + 3'(b[2]);
      y = 3'(b[3]) + 3'(b[4]) + 3'(b[5]);
    end else begin
      x = 3'(b[0]) + 3'(b[1]);
      y = 3'(b[2]) + 3'(b[3]);
    end
    d = QW'(x) - QW'(y);
    return (x < y) ? d + QW'(Q) : d;
  endfunction

endpackage
