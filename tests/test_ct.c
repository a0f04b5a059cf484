/* Constant-time check, run under valgrind memcheck or built with
 * MemorySanitizer (valgrind cannot run AVX-512 or VPCLMULQDQ code): every
 * secret input is marked undefined, so a branch or a memory address that
 * depends on it is reported as an error. Only public outputs (the public key, the ciphertext)
 * are declassified before they are used again. */
#include <stdlib.h>

#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define CT_WITH_MSAN 1
#endif
#endif
#ifdef CT_WITH_MSAN
#include <sanitizer/msan_interface.h>
#define SECRET(p, n) __msan_poison((p), (n))
#define PUBLIC(p, n) __msan_unpoison((p), (n))
#else
#include <valgrind/memcheck.h>
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#endif

#include "bike/batch.h"
#include "bike/bike.h"
#include "bike/ops.h"
#include "mlkem/mlkem.h"
#include "test_util.h"

/* A deliberate leak, to prove that the harness sees one: ctest expects this
 * run to fail. */
static int canary(void) {
  uint8_t secret[1] = {1};
  SECRET(secret, 1);
  volatile int sink = 0;
  if (secret[0] & 1) {
    sink = 1;
  }
  return sink;
}

/* Secret data through the back end's kernels one after the other, then a
 * branch on the result: proves that the checker follows secrets through
 * every kernel (a kernel whose intrinsics it treated as producing clean
 * data would hide leaks after it). ctest expects a report. */
static int canary_kernels(void) {
  const bike_params *p = bike_params_get(1);
  static uint64_t a[BIKE_MAX_QWORDS], b[BIKE_MAX_QWORDS], c[BIKE_MAX_QWORDS];
  static uint8_t upc[BIKE_MAX_R], bytes[BIKE_MAX_PUBLIC_KEY_BYTES];
  static const uint32_t idx[3] = {0, 17, 4000};
  uint8_t digest[BIKE_SHA3_384_BYTES];
  test_rand_bytes((uint8_t *)a, sizeof(a));
  test_rand_bytes((uint8_t *)b, sizeof(b));
  a[p->r_qwords - 1] &= ((uint64_t)1 << (p->r % 64)) - 1;
  b[p->r_qwords - 1] &= ((uint64_t)1 << (p->r % 64)) - 1;
  SECRET(a, sizeof(a));
  bike_gf2x_mul(p, c, a, b);
  bike_gf2x_sqr_k(p, a, c, 3);
  bike_gf2x_sqr_k(p, c, a, 1000);
  bike_gf2x_rotr(p, a, c, 77);
  bike_gf2x_inv(p, c, a);
  bike_upc(p, upc, idx, 3, c);
  for (uint32_t i = 0; i < p->r_qwords; i++) {
    a[i] = upc[i] ^ c[i];
  }
  bike_poly_to_bytes(p, bytes, a);
  bike_sha3_384(digest, bytes, p->r_bytes);
  volatile int sink = 0;
  if (digest[0] & 1) {
    sink = 1;
  }
  return sink;
}

/* ML-KEM's secrets: d and z, m, dk. ek and ct are public. Decapsulation
 * of a tampered ciphertext (implicit rejection) must be as silent as of
 * a valid one. */
static void check_mlkem(void) {
  static const int sets[3] = {512, 768, 1024};
  static uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES], ct[MLKEM_MAX_CT_BYTES];
  printf("constant-time check of ML-KEM on back end %s\n", mlkem_backend_name());
  for (int i = 0; i < 3; i++) {
    const int set = sets[i];
    const size_t ek_n = mlkem_ek_bytes(set), dk_n = mlkem_dk_bytes(set), ct_n = mlkem_ct_bytes(set);
    uint8_t d[32], z[32], m[32], ss[32], ss2[32], ss3[32];
    test_rand_bytes(d, 32);
    test_rand_bytes(z, 32);
    test_rand_bytes(m, 32);
    SECRET(d, 32);
    SECRET(z, 32);
    CHECK(mlkem_keypair_derand(set, ek, ek_n, dk, dk_n, d, z) == MLKEM_OK, "ML-KEM-%d keypair",
          set);
    PUBLIC(ek, ek_n);
    SECRET(m, 32);
    CHECK(mlkem_encaps_derand(set, ct, ct_n, ss, ek, ek_n, m) == MLKEM_OK, "ML-KEM-%d encaps",
          set);
    PUBLIC(ct, ct_n);
    SECRET(dk, dk_n);
    CHECK(mlkem_decaps(set, ss2, ct, ct_n, dk, dk_n) == MLKEM_OK, "ML-KEM-%d decaps", set);
    ct[3] ^= 0x04;
    CHECK(mlkem_decaps(set, ss3, ct, ct_n, dk, dk_n) == MLKEM_OK,
          "ML-KEM-%d decaps of a tampered ciphertext", set);
    PUBLIC(ss, 32);
    PUBLIC(ss2, 32);
    PUBLIC(ss3, 32);
    CHECK(memcmp(ss, ss2, 32) == 0, "ML-KEM-%d round trip", set);
    CHECK(memcmp(ss, ss3, 32) != 0, "ML-KEM-%d tampered ciphertext kept the key", set);
  }
}

/* ML-KEM's NTT kernels and hashes one after the other on secret data, then
 * a branch on the result: ctest expects a report (see canary_kernels). */
static int canary_mlkem(void) {
  static uint8_t ek[MLKEM768_EK_BYTES], dk[MLKEM768_DK_BYTES], ct[MLKEM768_CT_BYTES];
  uint8_t d[32] = {1}, z[32] = {2}, m[32] = {3}, ss[32];
  SECRET(d, 32);
  SECRET(m, 32);
  mlkem_keypair_derand(768, ek, sizeof(ek), dk, sizeof(dk), d, z);
  PUBLIC(ek, sizeof(ek));
  mlkem_encaps_derand(768, ct, sizeof(ct), ss, ek, sizeof(ek), m);
  PUBLIC(ct, sizeof(ct));
  mlkem_decaps(768, ss, ct, sizeof(ct), dk, sizeof(dk));
  volatile int sink = 0;
  if (ss[0] & 1) {
    sink = 1;
  }
  return sink;
}

/* Batch key generation (bike/batch.h): three L1 keys from secret coins;
 * each public key is declassified only after the call. */
static void check_batch(void) {
  enum { N = 3 };
  static uint8_t pk[N * BIKE_L1_PUBLIC_KEY_BYTES], sk[N * BIKE_L1_SECRET_KEY_BYTES];
  uint8_t coins[N * BIKE_COINS_BYTES];
  test_rand_bytes(coins, sizeof(coins));
  SECRET(coins, sizeof(coins));
  CHECK(bike_keypair_batch_derand(1, N, pk, sizeof(pk), sk, sizeof(sk), coins, sizeof(coins))
            == BIKE_OK,
        "L1 batch of %d keys", N);
  PUBLIC(pk, sizeof(pk));
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "canary") == 0) {
    return canary() * 0;
  }
  /* BIKE_BACKEND picks the back end under test; one that the CPU (as
   * valgrind presents it) cannot run is reported as not run (ctest: skipped). */
  const char *want = getenv("BIKE_BACKEND");
  if (want != NULL && strcmp(want, bike_backend_name()) != 0) {
    printf("back end %s NOT RUN: not available here (CPU features seen: %s)\n", want,
           bike_cpu_features());
    return 77;
  }
  if (argc > 1 && strcmp(argv[1], "canary-mlkem") == 0) {
    printf("ML-KEM canary on back end %s\n", mlkem_backend_name());
    return canary_mlkem() * 0;
  }
  if (argc > 1 && strcmp(argv[1], "canary-kernels") == 0) {
    printf("kernel canary on back end %s\n", bike_backend_name());
    return canary_kernels() * 0;
  }
  printf("constant-time check of back end %s\n", bike_backend_name());
  static uint8_t pk[BIKE_MAX_PUBLIC_KEY_BYTES], sk[BIKE_MAX_SECRET_KEY_BYTES];
  static uint8_t ct[BIKE_MAX_CIPHERTEXT_BYTES];
  uint8_t coins[BIKE_COINS_BYTES], ss[32], ss2[32];
  for (int level = 1; level <= 5; level += 2) {
    const bike_params *p = bike_params_get(level);
    test_rand_bytes(coins, sizeof(coins));
    SECRET(coins, sizeof(coins));
    CHECK(bike_keypair_derand(level, pk, p->pk_bytes, sk, p->sk_bytes, coins) == BIKE_OK,
          "L%d keypair", level);
    PUBLIC(pk, p->pk_bytes);

    test_rand_bytes(coins, sizeof(coins));
    SECRET(coins, sizeof(coins));
    CHECK(bike_encaps_derand(level, ct, p->ct_bytes, ss, pk, p->pk_bytes, coins) == BIKE_OK,
          "L%d encaps", level);
    PUBLIC(ct, p->ct_bytes);

    SECRET(sk, p->sk_bytes);
    CHECK(bike_decaps(level, ss2, ct, p->ct_bytes, sk, p->sk_bytes) == BIKE_OK, "L%d decaps",
          level);
    /* Comparing the secrets is the test's business, not the library's. */
    PUBLIC(ss, sizeof(ss));
    PUBLIC(ss2, sizeof(ss2));
    CHECK(memcmp(ss, ss2, 32) == 0, "L%d round trip", level);

    /* The rejection path must be just as silent. */
    ct[5] ^= 0x10;
    CHECK(bike_decaps(level, ss2, ct, p->ct_bytes, sk, p->sk_bytes) == BIKE_OK,
          "L%d decaps of a tampered ciphertext", level);
    PUBLIC(ss2, sizeof(ss2));
    CHECK(memcmp(ss, ss2, 32) != 0, "L%d tampered ciphertext kept the secret", level);
  }
  check_batch();
  check_mlkem();
  return test_summary();
}
