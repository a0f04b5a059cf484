// Elaboration-time tables of the Karatsuba layer of gf2x_mul.
//
// The operands are cut into 2^L blocks of M words. After L levels of
// Karatsuba there are 3^L leaf products of M x M words. Leaf t has L base-3
// digits; digit l-1 (l = 1 innermost, l = L outermost) says which of the
// three products of level l the leaf descends from: 0 = low halves,
// 1 = high halves, 2 = sum of the halves.
//
// The symmetric mode (gf2x_mul sym_i) multiplies an operand a whose high
// half is zero: the leaves under the outermost "high halves" product vanish,
// and mode_leaf deals the other 2 3^(L-1) leaves to the engines. A leaf
// number of 3^L or more is "no leaf": its masks are zero.
package gf2x_mul_pkg;

  // Digit l-1 of t in base 3.
  function automatic int unsigned digit3(int unsigned t, int unsigned pos);
    int unsigned v;
    v = t;
    for (int unsigned i = 0; i < pos; i++) begin
      v = v / 3;
    end
    return v % 3;
  endfunction

  function automatic int unsigned pow3(int unsigned e);
    int unsigned v;
    v = 1;
    for (int unsigned i = 0; i < e; i++) begin
      v = v * 3;
    end
    return v;
  endfunction

  // Blocks j (bit l-1 of j = which half at level l) whose XOR is the leaf
  // operand: low half only, high half only, or both (the sum).
  function automatic logic [7:0] leaf_opmask(int unsigned t, int unsigned levels);
    logic [7:0] mask;
    logic       ok;
    int unsigned d;
    mask = '0;
    if (t >= pow3(levels)) return mask;
    for (int unsigned j = 0; j < (1 << levels); j++) begin
      ok = 1'b1;
      for (int unsigned l = 0; l < levels; l++) begin
        d = digit3(t, l);
        if (d == 0 && ((j >> l) & 1) == 1) ok = 1'b0;
        if (d == 1 && ((j >> l) & 1) == 0) ok = 1'b0;
      end
      mask[j] = ok;
    end
    return mask;
  endfunction

  // Offsets (in units of M words) at which the leaf product is added into the
  // full product, as a parity set: the product over the levels of
  // (1 + y^h), (y^h + y^2h) or y^h with h = 2^(l-1) and y = x^(M W). A bit
  // set in the result is an offset with an odd number of contributions.
  function automatic logic [15:0] leaf_offmask(int unsigned t, int unsigned levels);
    logic [15:0] v;
    int unsigned d;
    int unsigned h;
    if (t >= pow3(levels)) return '0;
    v = 16'd1;
    for (int unsigned l = 0; l < levels; l++) begin
      d = digit3(t, l);
      h = 1 << l;
      if (d == 0) begin
        v = v ^ (v << h);
      end else if (d == 1) begin
        v = (v << h) ^ (v << (2 * h));
      end else begin
        v = v << h;
      end
    end
    return v;
  endfunction

  // Leaves of the symmetric mode: those whose outermost digit is not 1.
  function automatic int unsigned sym_leaves(int unsigned levels);
    return (levels == 0) ? 1 : 2 * pow3(levels - 1);
  endfunction

  // The i-th symmetric leaf, in order.
  function automatic int unsigned sym_leaf(int unsigned i, int unsigned levels);
    int unsigned n;
    n = 0;
    for (int unsigned t = 0; t < pow3(levels); t++) begin
      if (levels == 0 || digit3(t, levels - 1) != 1) begin
        if (n == i) return t;
        n++;
      end
    end
    return 0;
  endfunction

  // The leaf engine e computes in batch bt (E = 3^par engines, B = 3^(L-par)
  // batches), or 3^L for none. General mode: engine e takes leaves e B ..
  // e B + B - 1, so with par >= 1 its leaves share their outermost digit,
  // e / 3^(par-1). Symmetric mode, par >= 1: the engines of digits 0 and 2
  // keep their own leaves (they need only the first ceil(2B/3) batches; the
  // tables stay equal to the general ones, so the mode costs them no
  // logic), and engine i of digit 1, idle otherwise, takes the last B/3
  // leaves of engine i, then those of engine i + 2E/3. With one engine the
  // symmetric leaves run in order.
  function automatic int unsigned mode_leaf(bit sym, int unsigned e, int unsigned bt,
                                            int unsigned levels, int unsigned par);
    int unsigned nb, ne, third, keep, lo, i;
    nb = pow3(levels - par);
    ne = pow3(par);
    if (!sym || levels == 0) return (bt < nb) ? e * nb + bt : pow3(levels);
    if (par == 0) return (bt < sym_leaves(levels)) ? sym_leaf(bt, levels) : pow3(levels);
    third = ne / 3;
    if (e < third || e >= 2 * third) return (bt < nb) ? e * nb + bt : pow3(levels);
    keep = (2 * nb + 2) / 3;
    lo   = nb / 3;
    i    = e - third;
    if (bt < lo) return i * nb + keep + bt;
    if (bt < 2 * lo) return (i + 2 * third) * nb + keep + bt - lo;
    return pow3(levels);
  endfunction

endpackage
