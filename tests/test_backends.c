/* Every back end against the portable one, kernel by kernel on random
 * inputs, then whole KEM runs: outputs must be byte-identical. Usage:
 * test_backends NAME. Exits 77 (ctest: skipped, not passed) when this CPU
 * cannot run back end NAME. */
#include <stdlib.h>

#include "bike/bike.h"
#include "bike/ops.h"
#include "native/backend.h"
#include "test_util.h"

static const char *backend;

static void use(const char *name) {
  if (bike_set_backend(name) != BIKE_OK) {
    fprintf(stderr, "cannot select back end %s\n", name);
    exit(1);
  }
}

/* Compare the portable result `ref` with the back end's `got`, words. */
#define SAME_WORDS(ref, got, nwords, ...)                                                          \
  do {                                                                                             \
    long at_ = first_difference((ref), (got), (nwords) * sizeof(uint64_t));                      \
    CHECK(at_ < 0, __VA_ARGS__);                                                                   \
    if (at_ >= 0) {                                                                                \
      fprintf(stderr, "  %s differs from portable first at word %ld\n", backend, at_ / 8);       \
    }                                                                                              \
  } while (0)

#define SAME_BYTES(ref, got, n, ...)                                                               \
  do {                                                                                             \
    long at_ = first_difference((ref), (got), (n));                                                \
    CHECK(at_ < 0, __VA_ARGS__);                                                                   \
    if (at_ >= 0) {                                                                                \
      fprintf(stderr, "  %s differs from portable first at byte %ld\n", backend, at_);           \
    }                                                                                              \
  } while (0)

static void rand_poly(const bike_params *p, uint64_t *a, int kind) {
  for (uint32_t i = 0; i < p->r_qwords; i++) {
    a[i] = kind == 0 ? test_rand() : kind == 1 ? ~(uint64_t)0 : (test_rand() & test_rand() & test_rand());
  }
  a[p->r_qwords - 1] &= ((uint64_t)1 << (p->r % 64)) - 1;
}

static uint64_t A[BIKE_MAX_QWORDS], B[BIKE_MAX_QWORDS];

/* A sigma-invariant polynomial of odd weight: u sigma(u) for a random unit
 * u (sigma(u) = u^(2^h), h = (r - 1) / 2), through the portable kernels. */
static void sigma_invariant(const bike_params *p, uint64_t *a, int kind) {
  uint64_t u[BIKE_MAX_QWORDS], su[BIKE_MAX_QWORDS];
  rand_poly(p, u, kind);
  u[0] ^= bike_poly_weight(p, u) & 1 ? 0 : 1;
  use("portable");
  bike_gf2x_sqr_k(p, su, u, (p->r - 1) / 2);
  bike_gf2x_mul(p, a, u, su);
}
static uint64_t R1[BIKE_MAX_QWORDS], R2[BIKE_MAX_QWORDS], R3[BIKE_MAX_QWORDS], R4[BIKE_MAX_QWORDS];
static uint8_t U1[BIKE_MAX_R], U2[BIKE_MAX_R];
static uint32_t I0[BIKE_MAX_D], I1[BIKE_MAX_D], I_MANY[300];

/* The scratch contract of the mul and sqr_k kernels (native/backend.h):
 * the result does not depend on what the scratch holds, nothing at or past
 * the word count the kernel returns is written, and that count is within
 * the level's bound. The scratch starts as random words each time. */
static uint64_t S[BIKE_SCRATCH_MAX + 64], Saved[BIKE_SCRATCH_MAX + 64];

static void fill_scratch(void) {
  for (size_t i = 0; i < BIKE_SCRATCH_MAX + 64; i++) {
    S[i] = Saved[i] = test_rand();
  }
}

static void kernels(int L) {
  const bike_params *p = bike_params_get(L);
  const uint32_t n = p->r_qwords;
  for (int t = 0; t < 24; t++) {
    rand_poly(p, A, t % 3);
    rand_poly(p, B, (t / 3) % 3);
    use("portable");
    bike_gf2x_mul(p, R1, A, B);
    use(backend);
    bike_gf2x_mul(p, R2, A, B);
    SAME_WORDS(R1, R2, n, "L%d gf2x_mul, input %d", L, t);
  }
  const uint64_t ks[] = {0, 1, 2, 3, 5, 6, 7, 8, 9, 31, 100, 1000, 4096, p->r - 2, p->r - 1, p->r,
                         2 * (uint64_t)p->r + 3, 1u << 20};
  for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
    rand_poly(p, A, 0);
    use("portable");
    bike_gf2x_sqr_k(p, R1, A, ks[i]);
    use(backend);
    bike_gf2x_sqr_k(p, R2, A, ks[i]);
    SAME_WORDS(R1, R2, n, "L%d gf2x_sqr_k k=%llu", L, (unsigned long long)ks[i]);
  }
  const uint32_t rots[] = {0, 1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 4095, 4096, 8191, 8192,
                           p->r / 2, p->r - 64, p->r - 63, p->r - 2, p->r - 1};
  for (size_t i = 0; i < sizeof(rots) / sizeof(rots[0]) + 40; i++) {
    uint32_t k = i < sizeof(rots) / sizeof(rots[0]) ? rots[i] : (uint32_t)(test_rand() % p->r);
    rand_poly(p, A, (int)(i % 3));
    use("portable");
    bike_gf2x_rotr(p, R1, A, k);
    use(backend);
    bike_gf2x_rotr(p, R2, A, k);
    SAME_WORDS(R1, R2, n, "L%d gf2x_rotr k=%u", L, k);
  }
  for (int t = 0; t < 4; t++) {
    rand_poly(p, A, t % 3);
    for (uint32_t i = 0; i < p->d; i++) {
      I0[i] = (uint32_t)(test_rand() % p->r);
    }
    I0[0] = 0;
    I0[1] = p->r - 1;
    I0[2] = I0[3]; /* a repeated index counts twice */
    use("portable");
    bike_upc(p, U1, I0, p->d, A);
    bike_gf2x_mul_sparse(p, R1, I0, p->d, A);
    use(backend);
    bike_upc(p, U2, I0, p->d, A);
    bike_gf2x_mul_sparse(p, R2, I0, p->d, A);
    SAME_BYTES(U1, U2, p->r, "L%d upc, input %d", L, t);
    SAME_WORDS(R1, R2, n, "L%d gf2x_mul_sparse, input %d", L, t);
  }
  /* Index counts around the vector kernels' group sizes (up to 24 rows). */
  const uint32_t counts[] = {0, 1, 2, 23, 24, 25, 47, 48, 49, 73, 137};
  for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
    rand_poly(p, A, (int)(c % 3));
    for (uint32_t i = 0; i < counts[c]; i++) {
      I0[i] = (uint32_t)(test_rand() % p->r);
    }
    use("portable");
    bike_upc(p, U1, I0, counts[c], A);
    use(backend);
    bike_upc(p, U2, I0, counts[c], A);
    SAME_BYTES(U1, U2, p->r, "L%d upc, %u indices", L, counts[c]);
  }
  /* Positions that need the AVX2 chain's longest plans: one index at r - 1
   * (every step but the last crosses a gap), gaps of exactly one step more
   * than a step's reach, and repeats at both ends. */
  const uint32_t reach = 1024;
  const uint32_t far_sets[][4] = {{p->r - 1, 0, 0, 0},
                                  {0, reach, 2 * reach, p->r - 1},
                                  {p->r - 1, p->r - 1, 0, 0},
                                  {reach - 1, reach, 3 * reach + 1, p->r - reach}};
  const uint32_t far_counts[] = {1, 4, 4, 4};
  for (size_t c = 0; c < sizeof(far_counts) / sizeof(far_counts[0]); c++) {
    rand_poly(p, A, (int)(c % 3));
    use("portable");
    bike_upc(p, U1, far_sets[c], far_counts[c], A);
    use(backend);
    bike_upc(p, U2, far_sets[c], far_counts[c], A);
    SAME_BYTES(U1, U2, p->r, "L%d upc, far-apart indices %zu", L, c);
  }
  /* More indices than a count holds (the counts wrap at 256). */
  for (uint32_t i = 0; i < 300; i++) {
    I_MANY[i] = (uint32_t)(test_rand() % p->r);
  }
  rand_poly(p, A, 1);
  use("portable");
  bike_upc(p, U1, I_MANY, 300, A);
  use(backend);
  bike_upc(p, U2, I_MANY, 300, A);
  SAME_BYTES(U1, U2, p->r, "L%d upc, 300 indices", L);
  /* The inversion's kernels for sigma-invariant operands (a_i = a_(r-i), odd
   * weight): the norms a sigma(a) of random units, against the portable
   * general kernels. */
  const uint64_t sym_ks[] = {1, 2, 9, 16, 17, 385, (p->r - 1) / 2, p->r - 2};
  for (int t = 0; t < 8; t++) {
    sigma_invariant(p, A, t % 3);
    sigma_invariant(p, B, (t + 1) % 3);
    use("portable");
    bike_gf2x_mul(p, R1, A, B);
    bike_gf2x_sqr_k(p, R3, A, sym_ks[t]);
    use(backend);
    fill_scratch();
    bike_gf2x_mul_sym_scratch(p, R2, A, B, S);
    SAME_WORDS(R1, R2, n, "L%d gf2x_mul_sym, input %d", L, t);
    fill_scratch();
    bike_gf2x_sqr_k_sym_scratch(p, R4, A, sym_ks[t], S);
    SAME_WORDS(R3, R4, n, "L%d gf2x_sqr_k_sym, k=%llu", L, (unsigned long long)sym_ks[t]);
  }
  for (int t = 0; t < 2; t++) {
    rand_poly(p, A, 0);
    A[0] ^= bike_poly_weight(p, A) & 1 ? 0 : 1; /* odd weight: invertible */
    use("portable");
    bike_gf2x_inv(p, R1, A);
    use(backend);
    bike_gf2x_inv(p, R2, A);
    SAME_WORDS(R1, R2, n, "L%d gf2x_inv, input %d", L, t);
  }
  for (int t = 0; t < 3; t++) {
    uint8_t m[32];
    test_rand_bytes(m, sizeof(m));
    use("portable");
    bike_function_h(p, R1, R2, NULL, m);
    use(backend);
    bike_function_h(p, R3, R4, NULL, m);
    SAME_WORDS(R1, R3, n, "L%d function_h e0, input %d", L, t);
    SAME_WORDS(R2, R4, n, "L%d function_h e1, input %d", L, t);
  }
  /* The samplers (the Fisher-Yates kernel) at every count up to t, partial
   * and whole vectors alike, with bounds that make repeats common and rare;
   * then the key-generation draw and Keccak-f itself. */
  for (uint32_t count = 1; count <= BIKE_MAX_T + 20; count += count < 40 ? 1 : 37) {
    for (int wide = 0; wide < 2; wide++) {
      uint8_t seed[32];
      uint32_t pos1[BIKE_MAX_T + 32], pos2[BIKE_MAX_T + 32]; /* beyond t: one word at a time */
      const uint32_t bound = wide ? 2 * p->r : count + (uint32_t)(test_rand() % 3);
      bike_shake256_ctx prf;
      test_rand_bytes(seed, sizeof(seed));
      use("portable");
      bike_shake256_absorb(&prf, seed, sizeof(seed));
      bike_sample_fisher_yates(pos1, count, bound, &prf);
      use(backend);
      bike_shake256_absorb(&prf, seed, sizeof(seed));
      bike_sample_fisher_yates(pos2, count, bound, &prf);
      SAME_BYTES(pos1, pos2, count * sizeof(uint32_t), "L%d fisher_yates count %u bound %u", L,
                 count, bound);
    }
  }
  {
    uint8_t seed[32];
    uint32_t h0a[BIKE_MAX_D], h1a[BIKE_MAX_D];
    test_rand_bytes(seed, sizeof(seed));
    use("portable");
    bike_sample_keygen(p, h0a, h1a, seed);
    use(backend);
    bike_sample_keygen(p, I0, I1, seed);
    SAME_BYTES(h0a, I0, p->d * sizeof(uint32_t), "L%d sample_keygen h0", L);
    SAME_BYTES(h1a, I1, p->d * sizeof(uint32_t), "L%d sample_keygen h1", L);
    use("portable");
    bike_poly_from_indices(p, R1, I0, p->d);
    use(backend);
    bike_poly_from_indices(p, R2, I0, p->d);
    SAME_WORDS(R1, R2, n, "L%d poly_from_indices", L);
    /* The support kernels on their own, with and without take: counts from
     * none to past twice the AVX2 kernel's chunk of indices (BIKE_MAX_T). */
    {
      static uint32_t ix[2 * BIKE_MAX_T + 40];
      static uint64_t tk[2 * BIKE_MAX_T + 40];
      const uint32_t counts[] = {0, 1, 5, p->d, p->t, BIKE_MAX_T + 1, 2 * BIKE_MAX_T + 37};
      for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        const uint32_t count = counts[c];
        for (uint32_t i = 0; i < count; i++) {
          ix[i] = (uint32_t)(test_rand() % p->r);
          tk[i] = test_rand() & 1 ? ~(uint64_t)0 : 0;
        }
        for (int with_take = 0; with_take < 2; with_take++) {
          const uint64_t *take = with_take ? tk : NULL;
          use("portable");
          bike_backend_current()->support_dense(p, R1, ix, take, count);
          use(backend);
          bike_backend_current()->support_dense(p, R2, ix, take, count);
          SAME_WORDS(R1, R2, n, "L%d support_dense of %u, take %d", L, count, with_take);
        }
        if (count > BIKE_MAX_T) { /* the two-polynomial form is H's: t at most */
          continue;
        }
        use("portable");
        bike_backend_current()->support_dense2(p, R1, R3, ix, tk, count);
        use(backend);
        bike_backend_current()->support_dense2(p, R2, R4, ix, tk, count);
        SAME_WORDS(R1, R2, n, "L%d support_dense2 of %u, a0", L, count);
        SAME_WORDS(R3, R4, n, "L%d support_dense2 of %u, a1", L, count);
      }
    }
    uint64_t s1[25], s2[25];
    for (int i = 0; i < 25; i++) {
      s1[i] = s2[i] = test_rand();
    }
    use("portable");
    bike_keccak_f1600(s1);
    use(backend);
    bike_keccak_f1600(s2);
    SAME_WORDS(s1, s2, 25, "L%d keccak_f1600", L);
    /* The lockstep kernel on 1 to 4 states, each against the portable
     * permutation of that state alone. */
    for (unsigned states = 1; states <= 4; states++) {
      uint64_t sn[4][25], s0[4][25];
      for (unsigned q = 0; q < 4; q++) {
        for (int i = 0; i < 25; i++) {
          sn[q][i] = s0[q][i] = test_rand();
        }
      }
      use(backend);
      bike_backend_current()->keccak_xn(sn, states);
      for (unsigned q = 0; q < 4; q++) {
        if (q < states) {
          bike_keccak_f1600_c(s0[q]);
        }
        SAME_WORDS(s0[q], sn[q], 25, "L%d keccak_xn on %u states, state %u", L, states, q);
      }
    }
  }
  /* The decoder on a real syndrome, on a random one, with a repeated index
   * in h0's support (a malformed key must still decode identically), and on
   * the all-ones and zero syndromes (every count d, every count 0). */
  for (int t = 0; t < 5; t++) {
    uint8_t seed[32];
    test_rand_bytes(seed, sizeof(seed));
    bike_sample_keygen(p, I0, I1, seed);
    if (t == 2) {
      I0[1] = I0[0];
    }
    bike_function_h(p, R3, R4, NULL, seed);
    bike_gf2x_mul_sparse(p, A, I0, p->d, R3);
    bike_gf2x_mul_sparse(p, B, I1, p->d, R4);
    for (uint32_t w = 0; w < n; w++) {
      A[w] ^= t == 0 ? B[w] : test_rand();
      A[w] = t == 3 ? ~(uint64_t)0 : t == 4 ? 0 : A[w];
    }
    A[n - 1] &= ((uint64_t)1 << (p->r % 64)) - 1;
    use("portable");
    uint64_t ok1 = bike_decode(p, R1, R2, A, I0, I1);
    use(backend);
    uint64_t ok2 = bike_decode(p, R3, R4, A, I0, I1);
    CHECK(ok1 == ok2, "L%d decode result, input %d", L, t);
    SAME_WORDS(R1, R3, n, "L%d decode e0, input %d", L, t);
    SAME_WORDS(R2, R4, n, "L%d decode e1, input %d", L, t);
  }
}

static void scratch_contract(int L) {
  const bike_params *p = bike_params_get(L);
  const uint32_t n = p->r_qwords;
  const size_t mul_bound = bike_mul_scratch_words(p), sqr_bound = bike_sqr_k_scratch_words(p);
  for (int t = 0; t < 3; t++) {
    rand_poly(p, A, t);
    rand_poly(p, B, 0);
    use("portable");
    bike_gf2x_mul(p, R1, A, B);
    use(backend);
    fill_scratch();
    const size_t used = bike_gf2x_mul_scratch(p, R2, A, B, S);
    SAME_WORDS(R1, R2, n, "L%d gf2x_mul with scratch, input %d", L, t);
    CHECK(used <= mul_bound, "L%d gf2x_mul claims %zu scratch words, bound %zu", L, used,
          mul_bound);
    SAME_WORDS(Saved + used, S + used, BIKE_SCRATCH_MAX + 64 - used,
               "L%d gf2x_mul stays within the %zu scratch words it returns", L, used);
  }
  /* mul_pair: a0 b0 + a1 b1 against two portable products. */
  static uint64_t C[BIKE_MAX_QWORDS], D[BIKE_MAX_QWORDS];
  const size_t pair_bound = bike_mul_pair_scratch_words(p);
  for (int t = 0; t < 9; t++) {
    rand_poly(p, A, t % 3);
    rand_poly(p, B, (t / 3) % 3);
    rand_poly(p, C, (t + 1) % 3);
    rand_poly(p, D, 0);
    use("portable");
    bike_gf2x_mul(p, R1, A, B);
    bike_gf2x_mul(p, R3, C, D);
    for (uint32_t i = 0; i < n; i++) {
      R1[i] ^= R3[i];
    }
    use(backend);
    fill_scratch();
    const size_t used = bike_gf2x_mul_pair_scratch(p, R2, A, B, C, D, S);
    SAME_WORDS(R1, R2, n, "L%d gf2x_mul_pair with scratch, input %d", L, t);
    CHECK(used <= pair_bound, "L%d gf2x_mul_pair claims %zu scratch words, bound %zu", L, used,
          pair_bound);
    SAME_WORDS(Saved + used, S + used, BIKE_SCRATCH_MAX + 64 - used,
               "L%d gf2x_mul_pair stays within the %zu scratch words it returns", L, used);
  }
  /* (r - 1) / 2 and r - 1 + (r - 1) / 2: 2^k = -1 mod r, sigma */
  const uint64_t ks[] = {0, 1, 3, 16, 17, 1000, (p->r - 1) / 2, p->r - 1 + (p->r - 1) / 2,
                         p->r - 2};
  for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
    rand_poly(p, A, 0);
    use("portable");
    bike_gf2x_sqr_k(p, R1, A, ks[i]);
    use(backend);
    fill_scratch();
    const size_t used = bike_gf2x_sqr_k_scratch(p, R2, A, ks[i], S);
    SAME_WORDS(R1, R2, n, "L%d gf2x_sqr_k with scratch, k=%llu", L, (unsigned long long)ks[i]);
    CHECK(used <= sqr_bound, "L%d gf2x_sqr_k k=%llu claims %zu scratch words, bound %zu", L,
          (unsigned long long)ks[i], used, sqr_bound);
    SAME_WORDS(Saved + used, S + used, BIKE_SCRATCH_MAX + 64 - used,
               "L%d gf2x_sqr_k k=%llu stays within the %zu scratch words it returns", L,
               (unsigned long long)ks[i], used);
  }
  for (int t = 0; t < 3; t++) { /* the sigma-invariant kernels */
    const uint64_t k = t == 0 ? 3 : t == 1 ? 1000 : (p->r - 1) / 2;
    sigma_invariant(p, A, t);
    sigma_invariant(p, B, 0);
    use("portable");
    bike_gf2x_mul(p, R1, A, B);
    bike_gf2x_sqr_k(p, R3, A, k);
    use(backend);
    fill_scratch();
    size_t used = bike_gf2x_mul_sym_scratch(p, R2, A, B, S);
    SAME_WORDS(R1, R2, n, "L%d gf2x_mul_sym with scratch, input %d", L, t);
    CHECK(used <= mul_bound, "L%d gf2x_mul_sym claims %zu scratch words, bound %zu", L, used,
          mul_bound);
    SAME_WORDS(Saved + used, S + used, BIKE_SCRATCH_MAX + 64 - used,
               "L%d gf2x_mul_sym stays within the %zu scratch words it returns", L, used);
    fill_scratch();
    used = bike_gf2x_sqr_k_sym_scratch(p, R4, A, k, S);
    SAME_WORDS(R3, R4, n, "L%d gf2x_sqr_k_sym with scratch, k=%llu", L, (unsigned long long)k);
    CHECK(used <= sqr_bound, "L%d gf2x_sqr_k_sym claims %zu scratch words, bound %zu", L, used,
          sqr_bound);
    SAME_WORDS(Saved + used, S + used, BIKE_SCRATCH_MAX + 64 - used,
               "L%d gf2x_sqr_k_sym stays within the %zu scratch words it returns", L, used);
  }
}

static void kem(int L) {
  const bike_params *p = bike_params_get(L);
  static uint8_t pk[2][BIKE_MAX_PUBLIC_KEY_BYTES], sk[2][BIKE_MAX_SECRET_KEY_BYTES];
  static uint8_t ct[2][BIKE_MAX_CIPHERTEXT_BYTES];
  uint8_t coins[BIKE_COINS_BYTES], ss[4][32];
  for (int t = 0; t < 2; t++) {
    test_rand_bytes(coins, sizeof(coins));
    for (int b = 0; b < 2; b++) {
      use(b == 0 ? "portable" : backend);
      CHECK(bike_keypair_derand(L, pk[b], p->pk_bytes, sk[b], p->sk_bytes, coins) == BIKE_OK,
            "L%d keypair", L);
      CHECK(bike_encaps_derand(L, ct[b], p->ct_bytes, ss[b], pk[b], p->pk_bytes, coins) == BIKE_OK,
            "L%d encaps", L);
      ct[b][5] ^= (uint8_t)(t << 3); /* the second run decapsulates a tampered ciphertext */
      CHECK(bike_decaps(L, ss[2 + b], ct[b], p->ct_bytes, sk[b], p->sk_bytes) == BIKE_OK,
            "L%d decaps", L);
    }
    SAME_BYTES(pk[0], pk[1], p->pk_bytes, "L%d public key", L);
    SAME_BYTES(sk[0], sk[1], p->sk_bytes, "L%d secret key", L);
    SAME_BYTES(ct[0], ct[1], p->ct_bytes, "L%d ciphertext", L);
    SAME_BYTES(ss[0], ss[1], 32, "L%d encapsulated secret", L);
    SAME_BYTES(ss[2], ss[3], 32, "L%d decapsulated secret", L);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_backends NAME\n");
    return 2;
  }
  backend = argv[1];
  if (!bike_backend_supported(backend)) {
    int known = 0;
    for (size_t i = 0; bike_backend_at(i) != NULL; i++) {
      known |= strcmp(bike_backend_at(i), backend) == 0;
    }
    if (!known) {
      fprintf(stderr, "unknown back end %s\n", backend);
      return 1;
    }
    printf("back end %s NOT RUN: this CPU lacks a feature it needs (CPU features: %s)\n", backend,
           bike_cpu_features());
    return 77;
  }
  /* The selection API: unknown names fail and change nothing. */
  use(backend);
  CHECK(bike_set_backend("no-such-back-end") == BIKE_ERR_BACKEND, "unknown back end accepted");
  CHECK(strcmp(bike_backend_name(), backend) == 0, "a failed selection changed the back end");
  CHECK(bike_set_backend(NULL) == BIKE_OK && bike_set_backend("auto") == BIKE_OK,
        "automatic choice");
  CHECK(bike_strerror(BIKE_ERR_BACKEND) != NULL, "strerror");
  for (int L = 1; L <= 5; L += 2) {
    kernels(L);
    scratch_contract(L);
    kem(L);
  }
  printf("back end %s against portable: ", backend);
  return test_summary();
}
