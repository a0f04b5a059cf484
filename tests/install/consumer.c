/* A program outside the repository using an installed libbike: a KEM round
 * trip at every level, plus a rejected (tampered) ciphertext. Exit 0 only if
 * everything holds; built by tests/install/run.sh with pkg-config and with
 * CMake's find_package(bike). */
#include <stdio.h>
#include <string.h>

#include <bike/bike.h>

static int round_trip(int level) {
  static uint8_t pk[BIKE_MAX_PUBLIC_KEY_BYTES], sk[BIKE_MAX_SECRET_KEY_BYTES];
  static uint8_t ct[BIKE_MAX_CIPHERTEXT_BYTES];
  uint8_t ss_a[BIKE_SHARED_SECRET_BYTES], ss_b[BIKE_SHARED_SECRET_BYTES];
  size_t pk_len = bike_public_key_bytes(level), sk_len = bike_secret_key_bytes(level);
  size_t ct_len = bike_ciphertext_bytes(level);
  int rc = bike_keypair(level, pk, pk_len, sk, sk_len);
  if (rc == BIKE_OK) {
    rc = bike_encaps(level, ct, ct_len, ss_a, pk, pk_len);
  }
  if (rc == BIKE_OK) {
    rc = bike_decaps(level, ss_b, ct, ct_len, sk, sk_len);
  }
  if (rc != BIKE_OK) {
    fprintf(stderr, "consumer: level %d: %s\n", level, bike_strerror(rc));
    return 1;
  }
  if (memcmp(ss_a, ss_b, sizeof ss_a) != 0) {
    fprintf(stderr, "consumer: level %d: shared secrets differ\n", level);
    return 1;
  }
  ct[0] ^= 1;
  if (bike_decaps(level, ss_b, ct, ct_len, sk, sk_len) != BIKE_OK ||
      memcmp(ss_a, ss_b, sizeof ss_a) == 0) {
    fprintf(stderr, "consumer: level %d: a tampered ciphertext gave the secret\n", level);
    return 1;
  }
  return 0;
}

int main(void) {
  if (strcmp(bike_version(), BIKE_VERSION_STRING) != 0) {
    fprintf(stderr, "consumer: header %s, library %s\n", BIKE_VERSION_STRING, bike_version());
    return 1;
  }
  int failed = 0;
  for (int level = 1; level <= 5; level += 2) {
    failed |= round_trip(level);
  }
  if (failed) {
    return 1;
  }
  printf("consumer: libbike %s, back end %s: round trips at levels 1, 3, 5\n", bike_version(),
         bike_backend_name());
  return 0;
}
