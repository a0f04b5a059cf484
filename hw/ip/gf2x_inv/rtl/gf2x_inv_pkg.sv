// The operation sequence of gf2x_inv, from the chain of gf2x_sqr_k_pkg.
// Exponentiation i (0 .. num_sq(R) - 1) is followed by a multiplication by
// a memory operand (a, the norm N or b, the value it squared), except the
// last one, whose result is the inverse:
//   sigma(a) * a = N                      [table entry 1; general product]
//   step s of the chain:   sqr(b, e_s) * b   [entry s + 2; symmetric]
//   and if its bit is set: sqr(b, 1) * N     [entry 0; symmetric]
//   N^-1 * a                              [entry 0; general product]
//   a^-1 = sigma(a N^-1)                  [entry 1] (N^-1 is sigma-invariant)
// Products of the chain have sigma-invariant operands: gf2x_mul's symmetric
// mode.
package gf2x_inv_pkg;
  import gf2x_sqr_k_pkg::*;

  typedef enum logic [1:0] {
    SrcB = 2'd0,
    SrcA = 2'd1,
    SrcN = 2'd2
  } src_e;

  typedef struct packed {
    logic       sym;   // symmetric product (sigma-invariant operands)
    src_e       src;   // memory operand of the product
    logic [7:0] ksel;  // exponent: table entry of gf2x_sqr_k
  } op_t;

  function automatic int unsigned num_sq(int unsigned r);
    return chain_muls(r) + 3;
  endfunction

  // exponentiation i and the product after it
  function automatic op_t op_code(int unsigned r, int unsigned i);
    int unsigned n;
    if (i == 0) return '{sym: 1'b0, src: SrcA, ksel: 8'd1};
    n = 1;
    for (int unsigned s = 0; s < chain_steps(r); s++) begin
      if (n == i) return '{sym: 1'b1, src: SrcB, ksel: 8'(s + 2)};
      n++;
      if (chain_bit(r, s)) begin
        if (n == i) return '{sym: 1'b1, src: SrcN, ksel: 8'd0};
        n++;
      end
    end
    if (n == i) return '{sym: 1'b0, src: SrcA, ksel: 8'd0};
    return '{sym: 1'b0, src: SrcB, ksel: 8'd1};
  endfunction

endpackage
