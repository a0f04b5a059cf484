/* bike kat: regenerate the NIST KAT response file (PQCgenKAT_kem's output). */
#include <stdio.h>
#include <string.h>

#include "bike/bike.h"
#include "cli.h"
#include "drbg.h"

static const char usage[] =
    "usage: bike kat --level N [--count N]\n"
    "\n"
    "Prints the NIST KAT response file of BIKE level N (1, 3 or 5) to stdout:\n"
    "the records of the PQC KAT generator for the standard seeds, each checked\n"
    "by decapsulating its own ciphertext.\n"
    "\n"
    "  --level N   security level: 1, 3 or 5 (required)\n"
    "  --count N   number of records (default 100)\n";

static void print_hex(const char *label, const uint8_t *b, size_t n) {
  printf("%s = ", label);
  for (size_t i = 0; i < n; i++) {
    printf("%02X", b[i]);
  }
  putchar('\n');
}

int cmd_kat(int argc, char **argv) {
  const char *level_arg = NULL, *count_arg = NULL;
  const cli_option opts[] = {{"--level", &level_arg, NULL}, {"--count", &count_arg, NULL}};
  int rc = cli_parse("kat", argc, argv, opts, 2, usage);
  if (rc != 0) {
    return rc == 1 ? 0 : 2;
  }
  int level = cli_level("kat", level_arg);
  long count = count_arg != NULL ? cli_positive("kat", "--count", count_arg) : 100;
  if (level < 0 || count < 0) {
    return 2;
  }
  const size_t pk_len = bike_public_key_bytes(level), sk_len = bike_secret_key_bytes(level);
  const size_t ct_len = bike_ciphertext_bytes(level);
  static uint8_t pk[BIKE_MAX_PUBLIC_KEY_BYTES], sk[BIKE_MAX_SECRET_KEY_BYTES];
  static uint8_t ct[BIKE_MAX_CIPHERTEXT_BYTES];
  uint8_t ss[BIKE_SHARED_SECRET_BYTES], ss2[BIKE_SHARED_SECRET_BYTES];
  uint8_t entropy[48], seed[48], coins[BIKE_COINS_BYTES];
  nist_drbg master, record;

  for (int i = 0; i < 48; i++) {
    entropy[i] = (uint8_t)i;
  }
  if (nist_drbg_init(&master, entropy) != 0) {
    fprintf(stderr, "bike kat: AES-256 is unavailable in libcrypto\n");
    return 1;
  }
  printf("# BIKE\n\n");
  for (long i = 0; i < count; i++) {
    if (nist_drbg_generate(&master, seed, sizeof(seed)) != 0 ||
        nist_drbg_init(&record, seed) != 0 ||
        nist_drbg_generate(&record, coins, sizeof(coins)) != 0) {
      fprintf(stderr, "bike kat: DRBG failure\n");
      return 1;
    }
    rc = bike_keypair_derand(level, pk, pk_len, sk, sk_len, coins);
    if (rc == BIKE_OK) {
      if (nist_drbg_generate(&record, coins, sizeof(coins)) != 0) {
        fprintf(stderr, "bike kat: DRBG failure\n");
        return 1;
      }
      rc = bike_encaps_derand(level, ct, ct_len, ss, pk, pk_len, coins);
    }
    if (rc == BIKE_OK) {
      rc = bike_decaps(level, ss2, ct, ct_len, sk, sk_len);
    }
    if (rc != BIKE_OK) {
      fprintf(stderr, "bike kat: record %ld: %s\n", i, bike_strerror(rc));
      return 1;
    }
    if (memcmp(ss, ss2, sizeof(ss)) != 0) {
      fprintf(stderr, "bike kat: record %ld: decapsulation disagrees with encapsulation\n", i);
      return 1;
    }
    printf("count = %ld\n", i);
    print_hex("seed", seed, sizeof(seed));
    print_hex("pk", pk, pk_len);
    print_hex("sk", sk, sk_len);
    print_hex("ct", ct, ct_len);
    print_hex("ss", ss, sizeof(ss));
    putchar('\n');
  }
  return fflush(stdout) == 0 ? 0 : 1;
}
