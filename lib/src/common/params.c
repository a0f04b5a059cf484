#include "bike/ops.h"

#define R_BYTES(r) (((r) + 7u) / 8u)
#define R_QWORDS(r) (((r) + 63u) / 64u)
#define LEVEL(lv, r_, d_, t_, a_, b_, min_)                                                      \
  {.level = (lv), .r = (r_), .d = (d_), .t = (t_), .r_bytes = R_BYTES(r_),                       \
   .r_qwords = R_QWORDS(r_), .pk_bytes = R_BYTES(r_), .ct_bytes = R_BYTES(r_) + 32u,              \
   .sk_bytes = 8u * (d_) + 3u * R_BYTES(r_) + 32u, .th_a = (a_), .th_b = (b_), .th_min = (min_),  \
   .bg_threshold = ((d_) + 1u) / 2u + 1u, .nb_iter = 5, .tau = 3}

/* Threshold constants of spec 5.1 scaled by BIKE_TH_SCALE = 10^8:
 * L1 a = 13.530, b = 0.0069722; L3 a = 15.2588, b = 0.005265;
 * L5 a = 17.8785, b = 0.00402312. */
static const bike_params levels[3] = {
    LEVEL(1, 12323u, 71u, 134u, 1353000000u, 697220u, 36u),
    LEVEL(3, 24659u, 103u, 199u, 1525880000u, 526500u, 52u),
    LEVEL(5, 40973u, 137u, 264u, 1787850000u, 402312u, 69u),
};

const bike_params *bike_params_get(int level) {
  switch (level) {
  case 1:
    return &levels[0];
  case 3:
    return &levels[1];
  case 5:
    return &levels[2];
  default:
    return 0;
  }
}
