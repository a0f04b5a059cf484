/* A program outside the repository using an installed libmlkem: an
 * ML-KEM round trip for every parameter set, plus a tampered ciphertext that
 * must give another (the implicit-rejection) key. Exit 0 only if everything
 * holds; built by tests/install/run.sh with pkg-config and with CMake's
 * find_package(mlkem). */
#include <stdio.h>
#include <string.h>

#include <mlkem/mlkem.h>

static int round_trip(int set) {
  static uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES], ct[MLKEM_MAX_CT_BYTES];
  uint8_t ss_a[MLKEM_SS_BYTES], ss_b[MLKEM_SS_BYTES];
  size_t ek_len = mlkem_ek_bytes(set), dk_len = mlkem_dk_bytes(set), ct_len = mlkem_ct_bytes(set);
  int rc = mlkem_keypair(set, ek, ek_len, dk, dk_len);
  if (rc == MLKEM_OK) {
    rc = mlkem_encaps(set, ct, ct_len, ss_a, ek, ek_len);
  }
  if (rc == MLKEM_OK) {
    rc = mlkem_decaps(set, ss_b, ct, ct_len, dk, dk_len);
  }
  if (rc != MLKEM_OK) {
    fprintf(stderr, "consumer_mlkem: ML-KEM-%d: %s\n", set, mlkem_strerror(rc));
    return 1;
  }
  if (memcmp(ss_a, ss_b, sizeof ss_a) != 0) {
    fprintf(stderr, "consumer_mlkem: ML-KEM-%d: shared secrets differ\n", set);
    return 1;
  }
  ct[0] ^= 1;
  if (mlkem_decaps(set, ss_b, ct, ct_len, dk, dk_len) != MLKEM_OK ||
      memcmp(ss_a, ss_b, sizeof ss_a) == 0) {
    fprintf(stderr, "consumer_mlkem: ML-KEM-%d: a tampered ciphertext gave the secret\n", set);
    return 1;
  }
  return 0;
}

int main(void) {
  int failed = round_trip(512) | round_trip(768) | round_trip(1024);
  if (failed) {
    return 1;
  }
  printf("consumer_mlkem: libmlkem, back end %s: round trips at 512, 768, 1024\n",
         mlkem_backend_name());
  return 0;
}
