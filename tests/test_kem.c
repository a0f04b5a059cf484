/* The KEM API: round trips, implicit rejection of tampered ciphertexts,
 * argument errors that write nothing, and concurrent use from threads. */
#include <pthread.h>

#include "bike/bike.h"
#include "bike/ops.h"
#include "test_util.h"

static uint8_t pk[BIKE_MAX_PUBLIC_KEY_BYTES], sk[BIKE_MAX_SECRET_KEY_BYTES];
static uint8_t ct[BIKE_MAX_CIPHERTEXT_BYTES], bad_ct[BIKE_MAX_CIPHERTEXT_BYTES];

/* The implicit-rejection secret K(sigma, ct) computed from the key bytes. */
static void rejection_secret(const bike_params *p, uint8_t out[32], const uint8_t *key,
                             const uint8_t *c) {
  const uint8_t *sigma = key + p->sk_bytes - 32;
  bike_function_k(p, out, sigma, c);
}

static void expect_rejection(const bike_params *p, const char *what, const uint8_t ss_good[32]) {
  uint8_t ss[32], want[32];
  int rc = bike_decaps(p->level, ss, bad_ct, p->ct_bytes, sk, p->sk_bytes);
  rejection_secret(p, want, sk, bad_ct);
  CHECK(rc == BIKE_OK, "L%d %s: decaps returned %d", p->level, what, rc);
  CHECK(memcmp(ss, want, 32) == 0, "L%d %s: not the implicit-rejection secret", p->level, what);
  CHECK(memcmp(ss, ss_good, 32) != 0, "L%d %s: tampering kept the secret", p->level, what);
}

static void test_level(const bike_params *p, int rounds) {
  const int L = p->level;
  uint8_t ss_enc[32], ss_dec[32];
  for (int i = 0; i < rounds; i++) {
    CHECK(bike_keypair(L, pk, p->pk_bytes, sk, p->sk_bytes) == BIKE_OK, "L%d keypair", L);
    CHECK(bike_encaps(L, ct, p->ct_bytes, ss_enc, pk, p->pk_bytes) == BIKE_OK, "L%d encaps", L);
    CHECK(bike_decaps(L, ss_dec, ct, p->ct_bytes, sk, p->sk_bytes) == BIKE_OK, "L%d decaps", L);
    CHECK(memcmp(ss_enc, ss_dec, 32) == 0, "L%d round trip %d", L, i);
  }

  /* Deterministic variants: same coins, same outputs; the pk is the copy
   * inside the secret key. */
  uint8_t coins[64], pk2[BIKE_MAX_PUBLIC_KEY_BYTES], sk2[BIKE_MAX_SECRET_KEY_BYTES];
  test_rand_bytes(coins, sizeof(coins));
  bike_keypair_derand(L, pk, p->pk_bytes, sk, p->sk_bytes, coins);
  bike_keypair_derand(L, pk2, p->pk_bytes, sk2, p->sk_bytes, coins);
  CHECK(memcmp(pk, pk2, p->pk_bytes) == 0 && memcmp(sk, sk2, p->sk_bytes) == 0,
        "L%d keypair_derand repeatable", L);
  CHECK(memcmp(sk + p->sk_bytes - 32 - p->pk_bytes, pk, p->pk_bytes) == 0, "L%d pk inside sk", L);
  CHECK(memcmp(sk + p->sk_bytes - 32, coins + 32, 32) == 0, "L%d sigma is the last 32 coins", L);
  bike_encaps_derand(L, ct, p->ct_bytes, ss_enc, pk, p->pk_bytes, coins);
  bike_decaps(L, ss_dec, ct, p->ct_bytes, sk, p->sk_bytes);
  CHECK(memcmp(ss_enc, ss_dec, 32) == 0, "L%d derand round trip", L);

  /* Tampering: bits of c0 (first, middle, last byte), bits of c1, and the
   * padding bits of c0 above r. */
  const uint32_t c0_len = p->r_bytes;
  const uint32_t positions[] = {0, c0_len / 2, c0_len - 1, c0_len, c0_len + 16, p->ct_bytes - 1};
  const char *names[] = {"c0 first byte", "c0 middle byte", "c0 last byte",
                         "c1 first byte", "c1 middle byte", "c1 last byte"};
  for (size_t i = 0; i < 6; i++) {
    memcpy(bad_ct, ct, p->ct_bytes);
    /* Flip a bit that is below r even in c0's last byte. */
    bad_ct[positions[i]] ^= 0x01;
    expect_rejection(p, names[i], ss_enc);
  }
  for (uint32_t b = p->r % 8; b < 8; b++) {
    memcpy(bad_ct, ct, p->ct_bytes);
    bad_ct[c0_len - 1] ^= (uint8_t)(1u << b);
    expect_rejection(p, "c0 padding bit", ss_enc);
  }
  memcpy(bad_ct, ct, p->ct_bytes);
  test_rand_bytes(bad_ct, c0_len);
  bad_ct[c0_len - 1] &= (uint8_t)((1u << (p->r % 8)) - 1);
  expect_rejection(p, "random c0", ss_enc);
  memset(bad_ct, 0, p->ct_bytes);
  expect_rejection(p, "all-zero ciphertext", ss_enc);
  memset(bad_ct, 0xFF, p->ct_bytes);
  expect_rejection(p, "all-ones ciphertext", ss_enc);

  /* Errors: wrong lengths, NULLs, malformed keys; outputs untouched. */
  uint8_t guard[BIKE_MAX_CIPHERTEXT_BYTES], ss[32];
  memset(guard, 0xA5, sizeof(guard));
  memcpy(bad_ct, guard, sizeof(guard));
  CHECK(bike_keypair(L, bad_ct, p->pk_bytes - 1, sk2, p->sk_bytes) == BIKE_ERR_LENGTH,
        "L%d keypair pk length", L);
  CHECK(bike_keypair(L, bad_ct, p->pk_bytes, sk2, p->sk_bytes + 1) == BIKE_ERR_LENGTH,
        "L%d keypair sk length", L);
  CHECK(bike_encaps(L, bad_ct, p->ct_bytes + 1, ss, pk, p->pk_bytes) == BIKE_ERR_LENGTH,
        "L%d encaps ct length", L);
  CHECK(bike_encaps(L, bad_ct, p->ct_bytes, ss, pk, p->pk_bytes - 1) == BIKE_ERR_LENGTH,
        "L%d encaps pk length", L);
  CHECK(bike_decaps(L, ss, ct, p->ct_bytes - 1, sk, p->sk_bytes) == BIKE_ERR_LENGTH,
        "L%d decaps ct length", L);
  CHECK(bike_decaps(L, ss, ct, p->ct_bytes, sk, 0) == BIKE_ERR_LENGTH, "L%d decaps sk length", L);
  CHECK(memcmp(bad_ct, guard, sizeof(guard)) == 0, "L%d an error wrote to an output", L);
  CHECK(bike_encaps(L, NULL, p->ct_bytes, ss, pk, p->pk_bytes) == BIKE_ERR_NULL, "L%d NULL", L);
  CHECK(bike_decaps(L, ss, ct, p->ct_bytes, NULL, p->sk_bytes) == BIKE_ERR_NULL, "L%d NULL", L);

  memcpy(pk2, pk, p->pk_bytes);
  pk2[p->pk_bytes - 1] |= 0x80;
  CHECK(bike_encaps(L, bad_ct, p->ct_bytes, ss, pk2, p->pk_bytes) == BIKE_ERR_KEY,
        "L%d pk with bits above r", L);
  CHECK(memcmp(bad_ct, guard, sizeof(guard)) == 0, "L%d rejected pk wrote a ciphertext", L);
  memcpy(sk2, sk, p->sk_bytes);
  sk2[4 * p->d + 3] = 0xFF; /* an index of h1 far above r */
  CHECK(bike_decaps(L, ss, ct, p->ct_bytes, sk2, p->sk_bytes) == BIKE_ERR_KEY,
        "L%d sk with an index >= r", L);
}

typedef struct {
  int level, failures;
} thread_job;

static void *thread_main(void *arg) {
  thread_job *job = (thread_job *)arg;
  const bike_params *p = bike_params_get(job->level);
  uint8_t tpk[BIKE_MAX_PUBLIC_KEY_BYTES], tsk[BIKE_MAX_SECRET_KEY_BYTES];
  uint8_t tct[BIKE_MAX_CIPHERTEXT_BYTES], s1[32], s2[32];
  for (int i = 0; i < 3; i++) {
    int ok = bike_keypair(job->level, tpk, p->pk_bytes, tsk, p->sk_bytes) == BIKE_OK &&
             bike_encaps(job->level, tct, p->ct_bytes, s1, tpk, p->pk_bytes) == BIKE_OK &&
             bike_decaps(job->level, s2, tct, p->ct_bytes, tsk, p->sk_bytes) == BIKE_OK &&
             memcmp(s1, s2, 32) == 0;
    job->failures += !ok;
  }
  return NULL;
}

int main(void) {
  for (int level = 1; level <= 5; level += 2) {
    test_level(bike_params_get(level), level == 5 ? 3 : 10);
  }
  uint8_t ss[32];
  for (int bad = -1; bad <= 7; bad++) {
    if (bad == 1 || bad == 3 || bad == 5) {
      continue;
    }
    CHECK(bike_keypair(bad, pk, sizeof(pk), sk, sizeof(sk)) == BIKE_ERR_LEVEL, "level %d", bad);
    CHECK(bike_encaps(bad, ct, sizeof(ct), ss, pk, sizeof(pk)) == BIKE_ERR_LEVEL, "level %d", bad);
    CHECK(bike_decaps(bad, ss, ct, sizeof(ct), sk, sizeof(sk)) == BIKE_ERR_LEVEL, "level %d", bad);
    CHECK(bike_public_key_bytes(bad) == 0, "size of level %d", bad);
  }
  CHECK(bike_public_key_bytes(1) == BIKE_L1_PUBLIC_KEY_BYTES &&
            bike_secret_key_bytes(3) == BIKE_L3_SECRET_KEY_BYTES &&
            bike_ciphertext_bytes(5) == BIKE_L5_CIPHERTEXT_BYTES,
        "size functions agree with the constants");
  CHECK(strcmp(bike_strerror(BIKE_ERR_KEY), "malformed key") == 0, "strerror");

  pthread_t threads[3];
  thread_job jobs[3] = {{1, 0}, {3, 0}, {1, 0}};
  for (int i = 0; i < 3; i++) {
    pthread_create(&threads[i], NULL, thread_main, &jobs[i]);
  }
  for (int i = 0; i < 3; i++) {
    pthread_join(threads[i], NULL);
    CHECK(jobs[i].failures == 0, "thread %d had %d failures", i, jobs[i].failures);
  }
  return test_summary();
}
