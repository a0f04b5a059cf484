// Shared types and constant functions of the NTT accelerator: the modular
// reductions, the factor each leaves in a product, and the twiddle table.
//
// Every modular multiplier computes x y F mod q in [0, q) for x, y in [0, q),
// where F is its reduction's factor: 1 for Barrett, 2^-MontBits for
// Montgomery, k^2 for KRED (q = k 2^m + 1, Longa-Naehrig, applied twice).
// Constants that meet a data word in a multiplier (twiddles, the inverse
// transform's scale, the base multiplication's gammas) are stored times
// F^-1, so those products come out exact; a product of two data words
// (the base multiplication) keeps one F, which the inverse transform's
// scale F^-1 removes again (doc/ntt.md).
package ntt_pkg;

  // the modular reductions (parameter Red)
  localparam int unsigned RedBarrett    = 0;
  localparam int unsigned RedMontgomery = 1;
  localparam int unsigned RedKred       = 2;

  typedef enum logic [1:0] {
    OpNtt    = 2'd0,
    OpIntt   = 2'd1,
    OpMul    = 2'd2
  } ntt_op_e;

  // ntt_modmul's register stages: the product, the two reduction steps, the
  // final correction. In LUTs (UseDsp = 0) the product takes two (its
  // carry-save rows, then their sum) and the correction one of its own, so
  // that no stage holds more than one carry chain.
  function automatic int unsigned modmul_lat(bit use_dsp);
    return use_dsp ? 3 : 5;
  endfunction

  // ntt_bfu's latency: its input registers, the multiplier, the adders
  function automatic int unsigned bfu_lat(bit use_dsp);
    return modmul_lat(use_dsp) + 2;
  endfunction

  // cycles of a base multiplication slot (ntt_ctrl): pairwise, the slot's
  // last product chains on its first (b1 gamma), which leaves the butterfly
  // bf_lat cycles after it entered; coefficient-wise, two products and a
  // cycle to keep the next read off the writes
  function automatic int unsigned mul_slot(bit p, int unsigned bf_lat);
    return p ? bf_lat : 3;
  endfunction

  // b^e mod q (q < 2^31)
  function automatic int unsigned modpow(int unsigned b, int unsigned e, int unsigned q);
    longint unsigned r = 1, x = longint'(b) % longint'(q), qq = longint'(q);
    int unsigned k = e;
    while (k != 0) begin
      if (k[0]) r = (r * x) % qq;
      x = (x * x) % qq;
      k = k >> 1;
    end
    return int'(r);
  endfunction

  // a^-1 mod q (q prime)
  function automatic int unsigned modinv(int unsigned a, int unsigned q);
    return modpow(a, q - 2, q);
  endfunction

  // a b mod q
  function automatic int unsigned mulmod(int unsigned a, int unsigned b, int unsigned q);
    return int'((longint'(a) * longint'(b)) % longint'(q));
  endfunction

  // q^-1 mod 2^bits (q odd, bits < 32), by Newton's iteration x = x (2 - q x)
  function automatic int unsigned inv_pow2(int unsigned q, int unsigned bits);
    longint unsigned mask = (longint'(1) << bits) - 1, x = 1, qq = longint'(q);
    for (int unsigned i = 0; i < 6; i++) begin
      x = (x * (2 - qq * x)) & mask;
    end
    return int'(x);
  endfunction

  // the low `bits` bits of i in reverse order
  function automatic int unsigned bitrev(int unsigned i, int unsigned bits);
    int unsigned r = 0;
    for (int unsigned b = 0; b < bits; b++) begin
      r = (r << 1) | ((i >> b) & 1);
    end
    return r;
  endfunction

  // KRED: q - 1 = k 2^m with k odd
  function automatic int unsigned kred_m(int unsigned q);
    int unsigned m = 0;
    while (((q - 1) >> m) % 2 == 0) m++;
    return m;
  endfunction

  function automatic int unsigned kred_k(int unsigned q);
    return (q - 1) >> kred_m(q);
  endfunction

  // F: the factor a reduction (Red*) leaves in x y
  function automatic int unsigned red_factor(int unsigned red, int unsigned q,
                                             int unsigned mont_bits);
    if (red == RedMontgomery) return modinv(modpow(2, mont_bits, q), q);
    if (red == RedKred) return mulmod(kred_k(q), kred_k(q), q);
    return 1;
  endfunction

  // c F^-1 mod q: a constant c as stored for the multiplier
  function automatic int unsigned stored(int unsigned c, int unsigned red, int unsigned q,
                                         int unsigned mont_bits);
    return mulmod(c, modinv(red_factor(red, q, mont_bits), q), q);
  endfunction

  // (a + b) mod q and (a - b) mod q for a, b in [0, q), q < 2^15. Both
  // candidates (a + b, a + b - q; a - b, a - b + q) are computed side by
  // side, the second as one carry chain after a 3:2 compression (the q
  // term is a constant), and the sign picks: one carry chain deep, not two.
  // The signed candidates lie in (-2^w, 2^w), w = $clog2(q): bit w is their
  // sign, and the chains need be no wider.
  function automatic logic [15:0] add_mod(logic [15:0] a, logic [15:0] b, logic [16:0] q);
    logic [3:0] w = 4'($clog2(q));
    logic [15:0] nq = ~16'(q);
    logic [14:0] c = 15'((a & b) | (a & nq) | (b & nq));
    logic [15:0] s = a + b;
    logic [15:0] t = (a ^ b ^ nq) + {c, 1'b1};  // a + b - q
    return t[w] ? s : t;
  endfunction

  function automatic logic [15:0] sub_mod(logic [15:0] a, logic [15:0] b, logic [16:0] q);
    logic [3:0] w = 4'($clog2(q));
    logic [15:0] nb = ~b, qq = 16'(q);
    logic [14:0] c = 15'((a & nb) | (a & qq) | (nb & qq));
    logic [15:0] d = a + nb + 16'd1;
    logic [15:0] e = (a ^ nb ^ qq) + {c, 1'b1};  // a - b + q
    return d[w] ? e : d;
  endfunction

endpackage
