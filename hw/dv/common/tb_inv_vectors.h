// The vectors and the check shared by the inversion testbenches (gf2x_inv,
// gf2x_inv_divstep): random units (uniform with the parity fixed, single
// bits, x^(r-1), all ones but 1 + x), then KAT-derived ones: h0 of the
// secret key (the KeyGen inversion) and the public key h of each record.
// Each inverse is compared bit-exact with libbike's bike_gf2x_inv, whose
// result is itself checked (a a^-1 = 1), and each inversion's cycles with
// the formula `want`.
//
//   tb::inv_vectors(bench, want, [&](uint64_t *got, const uint64_t *a) {
//     return dut.run(p, got, a);  // the inversion's cycles
//   });
#ifndef BIKECO_TB_INV_VECTORS_H
#define BIKECO_TB_INV_VECTORS_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "tb_common.h"

namespace tb {

template <class Run>
void inv_vectors(Bench &bench, uint64_t want, Run run) {
  const bike_params *p = bench.p;
  static uint64_t a[BIKE_MAX_QWORDS + 2], got[BIKE_MAX_QWORDS + 2], exp[BIKE_MAX_QWORDS + 2];
  static uint64_t chk[BIKE_MAX_QWORDS + 2];

  auto check = [&](const char *what, unsigned vec) {
    bike_gf2x_inv(p, exp, a);
    // the reference itself: a * a^-1 = 1 (a unit of odd weight)
    bike_gf2x_mul(p, chk, a, exp);
    if (chk[0] != 1 || bike_poly_weight(p, chk) != 1) {
      std::fprintf(stderr, "reference inverse check failed (%s %u)\n", what, vec);
      std::exit(2);
    }
    uint64_t cyc = run(got, a);
    bench.cycles("inv", what, vec, cyc, want);
    bench.words(what, vec, got, exp, p->r_qwords);
  };

  bench.random(1, [&](unsigned v) {
    unsigned kind = v < 8 ? v % 4 : 0;
    operand(p, bench.rng, kind, a);
    // all ones is no unit (it is 0 in the GF(2^(r-1)) component); all ones
    // but 1 + x is (odd weight r - 2)
    if (kind == 1) a[0] &= ~(uint64_t)3;
    if ((bike_poly_weight(p, a) & 1) == 0) a[0] ^= 1;  // make it a unit
    check("random", v);
  });

  bench.kat(2, [&](Record &rec, unsigned k) {
    check_sizes(p, rec, {"sk", "pk"});
    sk_h0(p, rec["sk"].data(), a);
    check("kat h0", k);
    bike_poly_from_bytes(p, a, rec["pk"].data());  // h = h1 h0^-1
    check("kat pk", k);
  });
}

}  // namespace tb

#endif
