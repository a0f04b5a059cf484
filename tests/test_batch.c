/* Batch key generation (bike/batch.h): byte-identical to key-by-key
 * generation from the same coins at every level and batch size, usable keys
 * from the OS-random variant, argument errors that write nothing, and an
 * accelerator failure that wipes every output. */
#include <stdlib.h>

#include "bike/accel.h"
#include "bike/batch.h"
#include "bike/ops.h"
#include "test_util.h"

#define MAX_BATCH 9

static uint8_t pk[MAX_BATCH * BIKE_MAX_PUBLIC_KEY_BYTES], sk[MAX_BATCH * BIKE_MAX_SECRET_KEY_BYTES];
static uint8_t coins[MAX_BATCH * BIKE_COINS_BYTES];

static int all_byte(const uint8_t *b, size_t n, uint8_t v) {
  for (size_t i = 0; i < n; i++) {
    if (b[i] != v) {
      return 0;
    }
  }
  return 1;
}

/* Every key of a batch equals bike_keypair_derand's from its coins. */
static void test_same_keys(const bike_params *p, size_t count) {
  const int L = p->level;
  uint8_t one_pk[BIKE_MAX_PUBLIC_KEY_BYTES], one_sk[BIKE_MAX_SECRET_KEY_BYTES];
  test_rand_bytes(coins, count * BIKE_COINS_BYTES);
  int rc = bike_keypair_batch_derand(L, count, pk, count * p->pk_bytes, sk, count * p->sk_bytes,
                                     coins, count * BIKE_COINS_BYTES);
  CHECK(rc == BIKE_OK, "L%d batch of %zu: rc %d", L, count, rc);
  for (size_t i = 0; i < count; i++) {
    bike_keypair_derand(L, one_pk, p->pk_bytes, one_sk, p->sk_bytes, coins + i * BIKE_COINS_BYTES);
    CHECK(memcmp(one_pk, pk + i * p->pk_bytes, p->pk_bytes) == 0,
          "L%d batch of %zu: public key %zu differs from bike_keypair_derand's", L, count, i);
    CHECK(memcmp(one_sk, sk + i * p->sk_bytes, p->sk_bytes) == 0,
          "L%d batch of %zu: secret key %zu differs from bike_keypair_derand's", L, count, i);
  }
}

/* OS coins: distinct keys, each one that decapsulates what it encapsulates. */
static void test_random_batch(const bike_params *p, size_t count) {
  const int L = p->level;
  uint8_t ct[BIKE_MAX_CIPHERTEXT_BYTES], ss_enc[32], ss_dec[32];
  int rc = bike_keypair_batch(L, count, pk, count * p->pk_bytes, sk, count * p->sk_bytes);
  CHECK(rc == BIKE_OK, "L%d random batch of %zu: rc %d", L, count, rc);
  for (size_t i = 0; i < count; i++) {
    const uint8_t *pki = pk + i * p->pk_bytes, *ski = sk + i * p->sk_bytes;
    CHECK(bike_encaps(L, ct, p->ct_bytes, ss_enc, pki, p->pk_bytes) == BIKE_OK, "L%d encaps", L);
    CHECK(bike_decaps(L, ss_dec, ct, p->ct_bytes, ski, p->sk_bytes) == BIKE_OK, "L%d decaps", L);
    CHECK(memcmp(ss_enc, ss_dec, 32) == 0, "L%d random batch key %zu: round trip", L, i);
    for (size_t j = 0; j < i; j++) {
      CHECK(memcmp(pki, pk + j * p->pk_bytes, p->pk_bytes) != 0,
            "L%d random batch: keys %zu and %zu equal", L, j, i);
    }
  }
}

/* Errors return their code and leave the outputs as they were. */
static void test_errors(const bike_params *p) {
  const int L = p->level;
  const size_t n = 2, pk_len = n * p->pk_bytes, sk_len = n * p->sk_bytes;
  const size_t c_len = n * BIKE_COINS_BYTES;
  memset(pk, 0xA5, pk_len);
  memset(sk, 0xA5, sk_len);
  struct {
    const char *what;
    int rc, want;
  } cases[] = {
      {"count 0", bike_keypair_batch_derand(L, 0, pk, 0, sk, 0, coins, 0), BIKE_ERR_LENGTH},
      {"pk_len short", bike_keypair_batch_derand(L, n, pk, pk_len - 1, sk, sk_len, coins, c_len),
       BIKE_ERR_LENGTH},
      {"sk_len long", bike_keypair_batch_derand(L, n, pk, pk_len, sk, sk_len + 1, coins, c_len),
       BIKE_ERR_LENGTH},
      {"coins_len short", bike_keypair_batch_derand(L, n, pk, pk_len, sk, sk_len, coins, c_len - 1),
       BIKE_ERR_LENGTH},
      {"one key's lengths", bike_keypair_batch_derand(L, n, pk, p->pk_bytes, sk, p->sk_bytes,
                                                      coins, c_len),
       BIKE_ERR_LENGTH},
      {"count overflowing", bike_keypair_batch_derand(L, SIZE_MAX / 2, pk, pk_len, sk, sk_len,
                                                      coins, c_len),
       BIKE_ERR_LENGTH},
      {"NULL coins", bike_keypair_batch_derand(L, n, pk, pk_len, sk, sk_len, NULL, c_len),
       BIKE_ERR_NULL},
      {"NULL pk", bike_keypair_batch(L, n, NULL, pk_len, sk, sk_len), BIKE_ERR_NULL},
      {"random, sk_len short", bike_keypair_batch(L, n, pk, pk_len, sk, sk_len - 1),
       BIKE_ERR_LENGTH},
      {"level 2", bike_keypair_batch_derand(2, n, pk, pk_len, sk, sk_len, coins, c_len),
       BIKE_ERR_LEVEL},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    CHECK(cases[i].rc == cases[i].want, "L%d %s: rc %d, want %d", L, cases[i].what, cases[i].rc,
          cases[i].want);
  }
  CHECK(all_byte(pk, pk_len, 0xA5) && all_byte(sk, sk_len, 0xA5), "L%d errors wrote outputs", L);
}

/* A device that fails its inversion: BIKE_ERR_ACCEL and every key wiped. */
static int failing_inv(void *ctx, const bike_params *p, uint64_t *c, const uint64_t *a) {
  (void)ctx;
  (void)a;
  memset(c, 0, p->r_qwords * sizeof(uint64_t));
  return 1;
}

static void test_accel_failure(const bike_params *p) {
  const int L = p->level;
  const size_t n = 3;
  bike_accel acc;
  memset(&acc, 0, sizeof(acc));
  acc.gf2x_inv = failing_inv;
  bike_set_accel(&acc);
  memset(pk, 0xA5, n * p->pk_bytes);
  memset(sk, 0xA5, n * p->sk_bytes);
  int rc = bike_keypair_batch_derand(L, n, pk, n * p->pk_bytes, sk, n * p->sk_bytes, coins,
                                     n * BIKE_COINS_BYTES);
  bike_set_accel(NULL);
  CHECK(rc == BIKE_ERR_ACCEL, "L%d failing inversion: rc %d", L, rc);
  CHECK(all_zero(pk, n * p->pk_bytes) && all_zero(sk, n * p->sk_bytes),
        "L%d failing inversion: outputs not wiped", L);
}

int main(void) {
  static const size_t counts[] = {1, 2, 3, MAX_BATCH};
  printf("back end: %s\n", bike_backend_name());
  for (int L = 1; L <= 5; L += 2) {
    const bike_params *p = bike_params_get(L);
    for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
      test_same_keys(p, counts[i]);
    }
    test_random_batch(p, 4);
    test_errors(p);
    test_accel_failure(p);
  }
  return test_summary();
}
