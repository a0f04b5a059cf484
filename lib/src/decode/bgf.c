/* The Black-Gray-Flip decoder of spec 5.1, with every iteration always run. */
#include <stddef.h>
#include <string.h>

#include "bike/ops.h"
#include "common/ct.h"
#include "decode/upc.h"
#include "native/backend.h"

uint32_t bike_threshold(const bike_params *p, uint32_t syndrome_weight) {
  /* floor(a + b S) exactly, a and b being integers over 10^8; the division
   * by a constant compiles to a multiplication (no data-dependent timing). */
  uint64_t th = (p->th_a + p->th_b * (uint64_t)syndrome_weight) / BIKE_TH_SCALE;
  return (uint32_t)ct_select(ct_mask_lt(th, p->th_min), p->th_min, th);
}

typedef struct {
  upc_counters upc; /* one half at a time: s is fixed during a flip step */
  uint64_t s[BIKE_MAX_QWORDS];
  upc_plan plan[2]; /* h0's and h1's indices, planned once */
  uint64_t black[2][BIKE_MAX_QWORDS];
  uint64_t gray[2][BIKE_MAX_QWORDS];
  uint64_t flip[BIKE_MAX_QWORDS];
  uint64_t prod[BIKE_MAX_QWORDS];
  uint64_t h[2][BIKE_MAX_QWORDS]; /* h0 and h1 as dense polynomials */
} decoder_state;

/* Wipe what a level's decoding wrote, not the L5-sized state (at L1 under
 * a third of it: clearing all of it took 2 to 4 % of the decoder's time
 * in a TLS client). */
static void decoder_wipe(const bike_params *p, decoder_state *st) {
  upc_wipe(p, &st->upc);
  bike_wipe(st->plan, sizeof(st->plan));
  uint64_t *const polys[] = {st->s,       st->black[0], st->black[1], st->gray[0], st->gray[1],
                             st->flip,    st->prod,     st->h[0],     st->h[1]};
  for (size_t i = 0; i < sizeof(polys) / sizeof(polys[0]); i++) {
    bike_wipe(polys[i], p->r_qwords * sizeof(uint64_t));
  }
}

/* s = s0 + h0 e0 + h1 e1: the syndrome of the ciphertext minus the current
 * error estimate, recomputed from scratch by dense products (one dense
 * multiplication costs less than d rotations on every back end), the two
 * as one sum (mul_pair: the vector back ends add their leaves' products and
 * combine once). */
static void recompute_syndrome(const bike_params *p, decoder_state *st, const uint64_t *s0,
                               uint64_t *const e[2], uint64_t *scratch) {
  bike_gf2x_mul_pair_scratch(p, st->prod, st->h[0], e[0], st->h[1], e[1], scratch);
  for (uint32_t w = 0; w < p->r_qwords; w++) {
    st->s[w] = s0[w] ^ st->prod[w];
  }
}

/* Flip the positions of `only` (every position if NULL) whose count is at
 * least th; return the flipped set in st->black when record is set. */
static void flip_step(const bike_params *p, decoder_state *st, uint64_t *const e[2],
                      uint64_t (*only)[BIKE_MAX_QWORDS],
                      uint32_t th, int record_black_gray) {
  for (int b = 0; b < 2; b++) {
    upc_count(p, &st->upc, &st->plan[b], st->s);
    upc_at_least(p, st->flip, &st->upc, th);
    if (only != NULL) {
      for (uint32_t w = 0; w < p->r_qwords; w++) {
        st->flip[w] &= only[b][w];
      }
    }
    if (record_black_gray) {
      memcpy(st->black[b], st->flip, p->r_qwords * sizeof(uint64_t));
      upc_at_least(p, st->gray[b], &st->upc, th - p->tau);
      for (uint32_t w = 0; w < p->r_qwords; w++) {
        st->gray[b][w] &= ~st->flip[w];
      }
    }
    for (uint32_t w = 0; w < p->r_qwords; w++) {
      e[b][w] ^= st->flip[w];
    }
  }
}

uint64_t bike_decode(const bike_params *p, uint64_t *e0, uint64_t *e1, const uint64_t *s0,
                     const uint32_t *h0_idx, const uint32_t *h1_idx) {
  decoder_state st;
  uint64_t scratch[BIKE_SCRATCH_MAX]; /* the products', wiped once at the end */
  uint64_t *const e[2] = {e0, e1};

  memset(e0, 0, p->r_qwords * sizeof(uint64_t));
  memset(e1, 0, p->r_qwords * sizeof(uint64_t));
  memcpy(st.s, s0, p->r_qwords * sizeof(uint64_t));
  bike_support_dense(p, st.h[0], h0_idx, NULL, p->d);
  bike_support_dense(p, st.h[1], h1_idx, NULL, p->d);
  upc_plan_init(p, &st.plan[0], h0_idx, p->d);
  upc_plan_init(p, &st.plan[1], h1_idx, p->d);

  for (uint32_t iter = 0; iter < p->nb_iter; iter++) {
    uint32_t th = bike_threshold(p, bike_poly_weight(p, st.s));
    flip_step(p, &st, e, NULL, th, iter == 0);
    recompute_syndrome(p, &st, s0, e, scratch);
    if (iter == 0) {
      flip_step(p, &st, e, st.black, p->bg_threshold, 0);
      recompute_syndrome(p, &st, s0, e, scratch);
      flip_step(p, &st, e, st.gray, p->bg_threshold, 0);
      recompute_syndrome(p, &st, s0, e, scratch);
    }
  }
  uint64_t ok = ~ct_mask_nonzero(bike_poly_weight(p, st.s));
  decoder_wipe(p, &st);
  bike_wipe(scratch, bike_mul_pair_scratch_words(p) * sizeof(uint64_t));
  return ok;
}
