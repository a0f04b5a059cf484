/* The operations of bike/ops.h against simple independent references and
 * algebraic identities, at every level. */
#include <stdlib.h>

#include "bike/ops.h"
#include "test_util.h"

typedef uint64_t poly[BIKE_MAX_QWORDS];

static int bit(const uint64_t *a, uint32_t i) { return (int)((a[i / 64] >> (i % 64)) & 1); }
static void set_bit(uint64_t *a, uint32_t i) { a[i / 64] |= (uint64_t)1 << (i % 64); }

static void random_poly(const bike_params *p, uint64_t *a) {
  for (uint32_t w = 0; w < p->r_qwords; w++) {
    a[w] = test_rand();
  }
  a[p->r_qwords - 1] &= ((uint64_t)1 << (p->r % 64)) - 1;
}

static void random_odd_poly(const bike_params *p, uint64_t *a) {
  random_poly(p, a);
  if (bike_poly_weight(p, a) % 2 == 0) {
    a[0] ^= 1;
  }
}

static void one_poly(const bike_params *p, uint64_t *a) {
  memset(a, 0, p->r_qwords * sizeof(uint64_t));
  a[0] = 1;
}

static int poly_eq(const bike_params *p, const uint64_t *a, const uint64_t *b) {
  return memcmp(a, b, p->r_qwords * sizeof(uint64_t)) == 0;
}

/* Reference product: word schoolbook with shift-and-add carry-less
 * products, then bit-by-bit reduction. */
static void ref_mul(const bike_params *p, uint64_t *c, const uint64_t *a, const uint64_t *b) {
  static uint64_t prod[2 * BIKE_MAX_QWORDS];
  const uint32_t n = p->r_qwords;
  memset(prod, 0, sizeof(prod));
  for (uint32_t i = 0; i < n; i++) {
    for (uint32_t j = 0; j < n; j++) {
      for (uint32_t k = 0; k < 64; k++) {
        if ((b[j] >> k) & 1) {
          prod[i + j] ^= a[i] << k;
          if (k > 0) {
            prod[i + j + 1] ^= a[i] >> (64 - k);
          }
        }
      }
    }
  }
  memset(c, 0, n * sizeof(uint64_t));
  for (uint32_t i = 0; i < 2 * p->r; i++) {
    if (bit(prod, i)) {
      c[(i % p->r) / 64] ^= (uint64_t)1 << ((i % p->r) % 64);
    }
  }
}

static void ref_rotr(const bike_params *p, uint64_t *c, const uint64_t *a, uint32_t k) {
  memset(c, 0, p->r_qwords * sizeof(uint64_t));
  for (uint32_t j = 0; j < p->r; j++) {
    if (bit(a, (j + k) % p->r)) {
      set_bit(c, j);
    }
  }
}

static void random_support(const bike_params *p, uint32_t *idx, uint32_t count) {
  for (uint32_t i = 0; i < count; i++) {
    int again;
    do {
      idx[i] = (uint32_t)(test_rand() % p->r);
      again = 0;
      for (uint32_t j = 0; j < i; j++) {
        again |= idx[j] == idx[i];
      }
    } while (again);
  }
}

static void test_level(const bike_params *p, int trials) {
  static poly a, b, c, d, e, f;
  const int L = p->level;

  /* Serialisation round trip and rejection of bits above r. */
  static uint8_t bytes[BIKE_MAX_R_BYTES], bytes2[BIKE_MAX_R_BYTES];
  random_poly(p, a);
  bike_poly_to_bytes(p, bytes, a);
  CHECK(bike_poly_from_bytes(p, b, bytes) != 0 && poly_eq(p, a, b), "L%d bytes round trip", L);
  bike_poly_to_bytes(p, bytes2, b);
  CHECK(memcmp(bytes, bytes2, p->r_bytes) == 0, "L%d to_bytes", L);
  bytes[p->r_bytes - 1] |= 0x80;
  CHECK(bike_poly_from_bytes(p, b, bytes) == 0 && poly_eq(p, a, b), "L%d padding bit accepted", L);

  for (int t = 0; t < trials; t++) {
    random_poly(p, a);
    random_poly(p, b);
    bike_gf2x_mul(p, c, a, b);
    ref_mul(p, d, a, b);
    CHECK(poly_eq(p, c, d), "L%d mul vs reference, first differing byte %ld", L,
          first_difference(c, d, p->r_qwords * 8));
    bike_gf2x_mul(p, d, b, a);
    CHECK(poly_eq(p, c, d), "L%d mul commutes", L);
  }
  one_poly(p, b);
  bike_gf2x_mul(p, c, a, b);
  CHECK(poly_eq(p, c, a), "L%d a * 1 = a", L);

  /* k-fold squaring = k repeated squarings (by multiplication). */
  static const uint64_t ks[] = {1, 2, 3, 17, 64, 1000};
  for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
    random_poly(p, a);
    memcpy(b, a, sizeof(poly));
    for (uint64_t k = 0; k < ks[i]; k++) {
      bike_gf2x_mul(p, b, b, b);
    }
    bike_gf2x_sqr_k(p, c, a, ks[i]);
    CHECK(poly_eq(p, b, c), "L%d sqr_k(%llu)", L, (unsigned long long)ks[i]);
  }
  /* a^(2^(r-1)) = a for every a: the Frobenius has order r - 1 here. */
  random_poly(p, a);
  bike_gf2x_sqr_k(p, b, a, p->r - 1);
  CHECK(poly_eq(p, a, b), "L%d a^(2^(r-1)) = a", L);

  /* a * a^-1 = 1, for random units and for a key-like h0 of weight d. */
  for (int t = 0; t < 3; t++) {
    random_odd_poly(p, a);
    if (t == 2) {
      uint32_t idx[BIKE_MAX_D];
      random_support(p, idx, p->d);
      bike_poly_from_indices(p, a, idx, p->d);
    }
    bike_gf2x_inv(p, b, a);
    bike_gf2x_mul(p, c, a, b);
    one_poly(p, d);
    CHECK(poly_eq(p, c, d), "L%d a * inv(a) = 1 (trial %d)", L, t);
  }

  /* Rotation against the bit-by-bit definition. */
  const uint32_t rots[] = {0, 1, 63, 64, 65, p->r / 2, p->r - 64, p->r - 1,
                           (uint32_t)(test_rand() % p->r)};
  for (size_t i = 0; i < sizeof(rots) / sizeof(rots[0]); i++) {
    random_poly(p, a);
    bike_gf2x_rotr(p, b, a, rots[i]);
    ref_rotr(p, c, a, rots[i]);
    CHECK(poly_eq(p, b, c), "L%d rotr by %u", L, rots[i]);
  }

  /* Sparse-dense products, binary and integer. */
  for (int t = 0; t < trials; t++) {
    uint32_t idx[BIKE_MAX_D];
    random_support(p, idx, p->d);
    if (t == 0) {
      idx[0] = 0;
      idx[1] = p->r - 1;
    }
    random_poly(p, a);
    bike_gf2x_mul_sparse(p, b, idx, p->d, a);
    bike_poly_from_indices(p, c, idx, p->d);
    CHECK(bike_poly_weight(p, c) == p->d, "L%d poly_from_indices weight", L);
    bike_gf2x_mul(p, d, c, a);
    CHECK(poly_eq(p, b, d), "L%d sparse * dense = dense product", L);

    static uint8_t upc[BIKE_MAX_R];
    bike_upc(p, upc, idx, p->d, a);
    long bad = -1;
    uint32_t want = 0;
    for (uint32_t j = 0; j < p->r && bad < 0; j++) {
      want = 0;
      for (uint32_t i = 0; i < p->d; i++) {
        want += (uint32_t)bit(a, (j + idx[i]) % p->r);
      }
      bad = upc[j] == want ? -1 : (long)j;
    }
    CHECK(bad < 0, "L%d upc differs first at %ld (got %u, want %u)", L, bad,
          bad < 0 ? 0 : upc[bad], want);
  }

  /* Threshold: exact floor(a + b S), compared with long double away from
   * integer boundaries and with the minimum. */
  long th_bad = -1;
  for (uint32_t s = 0; s <= p->r && th_bad < 0; s++) {
    long double v = ((long double)p->th_a + (long double)p->th_b * s) / BIKE_TH_SCALE;
    uint32_t want = (uint32_t)v;
    if (want < p->th_min) {
      want = p->th_min;
    }
    long double frac = v - (long double)(uint32_t)v;
    if (frac > 1e-9L && frac < 1 - 1e-9L && bike_threshold(p, s) != want) {
      th_bad = (long)s;
    }
  }
  CHECK(th_bad < 0, "L%d threshold differs first at S = %ld", L, th_bad);
  CHECK(bike_threshold(p, 0) == p->th_min, "L%d threshold(0) is the minimum", L);

  /* Fisher-Yates: distinct positions in range, deterministic in the seed. */
  uint8_t seed[32];
  uint32_t h0[BIKE_MAX_D], h1[BIKE_MAX_D], h0b[BIKE_MAX_D], h1b[BIKE_MAX_D];
  test_rand_bytes(seed, sizeof(seed));
  bike_sample_keygen(p, h0, h1, seed);
  bike_sample_keygen(p, h0b, h1b, seed);
  CHECK(memcmp(h0, h0b, p->d * 4) == 0 && memcmp(h1, h1b, p->d * 4) == 0, "L%d sampler repeat", L);
  bike_poly_from_indices(p, a, h0, p->d);
  bike_poly_from_indices(p, b, h1, p->d);
  CHECK(bike_poly_weight(p, a) == p->d && bike_poly_weight(p, b) == p->d,
        "L%d keygen sampler gives distinct positions", L);
  for (uint32_t i = 0; i < p->d; i++) {
    CHECK(h0[i] < p->r && h1[i] < p->r, "L%d index in range", L);
  }

  /* H: weight t in total, and its positions agree with (e0, e1). */
  uint32_t eidx[BIKE_MAX_T];
  bike_function_h(p, e, f, eidx, seed);
  CHECK(bike_poly_weight(p, e) + bike_poly_weight(p, f) == p->t, "L%d H weight", L);
  int pos_ok = 1;
  for (uint32_t i = 0; i < p->t; i++) {
    pos_ok &= eidx[i] < 2 * p->r && (eidx[i] < p->r ? bit(e, eidx[i]) : bit(f, eidx[i] - p->r));
  }
  CHECK(pos_ok, "L%d H positions", L);

  /* Decoder: the syndrome of a weight-t error with a real key decodes to
   * that error; a random syndrome reports failure. */
  for (int t = 0; t < trials; t++) {
    test_rand_bytes(seed, sizeof(seed));
    bike_sample_keygen(p, h0, h1, seed);
    test_rand_bytes(seed, sizeof(seed));
    bike_function_h(p, e, f, NULL, seed);
    bike_gf2x_mul_sparse(p, a, h0, p->d, e);
    bike_gf2x_mul_sparse(p, b, h1, p->d, f);
    for (uint32_t w = 0; w < p->r_qwords; w++) {
      a[w] ^= b[w];
    }
    uint64_t ok = bike_decode(p, c, d, a, h0, h1);
    CHECK(ok == ~(uint64_t)0 && poly_eq(p, c, e) && poly_eq(p, d, f), "L%d decode trial %d", L, t);
  }
  random_poly(p, a);
  CHECK(bike_decode(p, c, d, a, h0, h1) == 0, "L%d random syndrome must not decode", L);
}

int main(int argc, char **argv) {
  int trials = argc > 1 ? atoi(argv[1]) : 3;
  for (int level = 1; level <= 5; level += 2) {
    test_level(bike_params_get(level), level == 5 ? 1 : trials);
  }
  CHECK(bike_params_get(2) == NULL && bike_params_get(0) == NULL, "bad levels");
  return test_summary();
}
