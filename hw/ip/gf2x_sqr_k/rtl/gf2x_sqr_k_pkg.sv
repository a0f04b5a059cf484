// Elaboration-time arithmetic of gf2x_sqr_k and gf2x_inv: the addition
// chain of the inversion (libbike's bike_gf2x_inv for L1 and L3) and the
// modular constants of the permutation bit i -> bit (i * 2^k) mod R.
//
// The inversion runs in the subfield fixed by sigma: a(x) -> a(x^-1) =
// a^(2^h), h = (R - 1) / 2: with the norm N = a sigma(a), a^-1 = sigma(a)
// N^-1 and N^-1 = N^(2^h - 2) = (N^(2^(h-1) - 1))^2. Chain for n = h - 1
// (bits of n from the top, b_1 = N):
//   for each bit below the top: b_2e = b_e^(2^e) * b_e   (e doubles)
//                               if the bit is set: b_(e+1) = b_e^2 * N
//   N^-1 = b_n^2
// Step s (0 .. chain_steps(R) - 1) is the s-th bit below the top.
package gf2x_sqr_k_pkg;

  // floor(log2(n)) for n >= 1
  function automatic int unsigned flog2(int unsigned n);
    int unsigned t;
    t = 0;
    while ((n >> (t + 1)) != 0) begin
      t++;
    end
    return t;
  endfunction

  // h = (R - 1) / 2: sigma(a) = a^(2^h)
  function automatic int unsigned half(int unsigned r);
    return (r - 1) / 2;
  endfunction

  // Number of doubling steps of the chain: floor(log2(h - 1)).
  function automatic int unsigned chain_steps(int unsigned r);
    return flog2(half(r) - 1);
  endfunction

  // Bit of n = h - 1 that step s reads (1: the step ends with "* N").
  function automatic logic chain_bit(int unsigned r, int unsigned s);
    int unsigned n;
    n = half(r) - 1;
    return logic'((n >> (chain_steps(r) - 1 - s)) & 1);
  endfunction

  // e before step s: the exponent of that step's squaring b_e^(2^e).
  function automatic int unsigned chain_e(int unsigned r, int unsigned s);
    int unsigned e;
    e = 1;
    for (int unsigned i = 0; i < s; i++) begin
      e = 2 * e + int'(chain_bit(r, i));
    end
    return e;
  endfunction

  // Number of multiplications of the chain.
  function automatic int unsigned chain_muls(int unsigned r);
    int unsigned m;
    m = 0;
    for (int unsigned s = 0; s < chain_steps(r); s++) begin
      m += 1 + int'(chain_bit(r, s));
    end
    return m;
  endfunction

  // The exponents the squaring unit supports: table entry 0 is k = 1, entry
  // 1 is k = h (sigma), entry s + 2 is chain_e(r, s).
  function automatic int unsigned ktab_len(int unsigned r);
    return chain_steps(r) + 2;
  endfunction

  function automatic int unsigned ktab(int unsigned r, int unsigned q);
    return (q == 0) ? 1 : (q == 1) ? half(r) : chain_e(r, q - 2);
  endfunction

  // 2^k mod r
  function automatic int unsigned pow2_mod(int unsigned k, int unsigned r);
    longint unsigned res, base, rr;
    int unsigned     kk;
    rr   = longint'(r);
    res  = 1;
    base = 2 % rr;
    kk   = k;
    while (kk != 0) begin
      if ((kk & 1) != 0) res = (res * base) % rr;
      base = (base * base) % rr;
      kk   = kk >> 1;
    end
    return int'(res);
  endfunction

  // m = 2^-k mod r (2 is a unit mod the prime r, of order dividing r - 1):
  // output bit j of a^(2^k) is input bit (j * m) mod r.
  function automatic int unsigned inv_step(int unsigned k, int unsigned r);
    return pow2_mod((r - 1) - (k % (r - 1)), r);
  endfunction

  // (x * y) mod r; r < 2^16 (every BIKE level), so the product fits 32 bits
  function automatic int unsigned mulmod(int unsigned x, int unsigned y, int unsigned r);
    return ((x % r) * (y % r)) % r;
  endfunction

endpackage
