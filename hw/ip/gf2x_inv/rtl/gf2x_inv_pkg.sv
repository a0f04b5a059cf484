// The operation sequence of gf2x_inv, from the Itoh-Tsujii chain of
// gf2x_sqr_k_pkg. Exponentiation i (0 .. num_sq(R) - 1) is followed by a
// multiplication by b (the value it squared) or by a, except the last one,
// whose result is the inverse:
//   step s of the chain:      sqr(b, e_s) * b       [table entry s + 1]
//   and if its bit is set:    sqr(b, 1) * a         [table entry 0]
//   finally:                  a^-1 = sqr(b, 1)      [table entry 0]
package gf2x_inv_pkg;
  import gf2x_sqr_k_pkg::*;

  function automatic int unsigned num_sq(int unsigned r);
    return chain_muls(r) + 1;
  endfunction

  // table entry of exponentiation i (flag use_a: multiply by a, not by b)
  function automatic int unsigned op_ksel(int unsigned r, int unsigned i);
    int unsigned n;
    n = 0;
    for (int unsigned s = 0; s < chain_steps(r); s++) begin
      if (n == i) return s + 1;
      n++;
      if (chain_bit(r, s)) begin
        if (n == i) return 0;
        n++;
      end
    end
    return 0;
  endfunction

  function automatic logic op_use_a(int unsigned r, int unsigned i);
    int unsigned n;
    n = 0;
    for (int unsigned s = 0; s < chain_steps(r); s++) begin
      n++;
      if (chain_bit(r, s)) begin
        if (n == i) return 1'b1;
        n++;
      end
    end
    return 1'b0;
  endfunction

endpackage
