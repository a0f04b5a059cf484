/* bike keygen | encaps | decaps: the KEM on raw binary files. */
#include <stdio.h>

#include "bike/bike.h"
#include "cli.h"

static const char keygen_usage[] =
    "usage: bike keygen --level N --pk FILE --sk FILE\n"
    "\n"
    "Generates a key pair with the operating system's randomness and writes the\n"
    "public and secret keys as raw bytes (the KAT formats).\n";

static const char encaps_usage[] =
    "usage: bike encaps --level N --pk FILE --ct FILE --ss FILE\n"
    "\n"
    "Encapsulates to the public key in --pk; writes the ciphertext (c0 || c1)\n"
    "to --ct and the 32-byte shared secret to --ss.\n";

static const char decaps_usage[] =
    "usage: bike decaps --level N --sk FILE --ct FILE --ss FILE\n"
    "\n"
    "Decapsulates the ciphertext in --ct with the secret key in --sk and writes\n"
    "the 32-byte shared secret to --ss. A ciphertext that does not decapsulate\n"
    "gives the implicit-rejection secret, as the KEM requires.\n";

static int need(const char *cmd, const char *name, const char *value) {
  if (value == NULL) {
    fprintf(stderr, "bike %s: %s is required (see 'bike %s --help')\n", cmd, name, cmd);
    return -1;
  }
  return 0;
}

static int report(const char *cmd, int rc) {
  if (rc != BIKE_OK) {
    fprintf(stderr, "bike %s: %s\n", cmd, bike_strerror(rc));
    return 1;
  }
  return 0;
}

int cmd_keygen(int argc, char **argv) {
  const char *level_arg = NULL, *pk_path = NULL, *sk_path = NULL;
  const cli_option opts[] = {
      {"--level", &level_arg, NULL}, {"--pk", &pk_path, NULL}, {"--sk", &sk_path, NULL}};
  int rc = cli_parse("keygen", argc, argv, opts, 3, keygen_usage);
  if (rc != 0) {
    return rc == 1 ? 0 : 2;
  }
  int level = cli_level("keygen", level_arg);
  if (level < 0 || need("keygen", "--pk", pk_path) || need("keygen", "--sk", sk_path)) {
    return 2;
  }
  static uint8_t pk[BIKE_MAX_PUBLIC_KEY_BYTES], sk[BIKE_MAX_SECRET_KEY_BYTES];
  size_t pk_len = bike_public_key_bytes(level), sk_len = bike_secret_key_bytes(level);
  if (report("keygen", bike_keypair(level, pk, pk_len, sk, sk_len))) {
    return 1;
  }
  return cli_write_file("keygen", pk_path, pk, pk_len) || cli_write_file("keygen", sk_path, sk, sk_len)
             ? 1
             : 0;
}

int cmd_encaps(int argc, char **argv) {
  const char *level_arg = NULL, *pk_path = NULL, *ct_path = NULL, *ss_path = NULL;
  const cli_option opts[] = {{"--level", &level_arg, NULL},
                             {"--pk", &pk_path, NULL},
                             {"--ct", &ct_path, NULL},
                             {"--ss", &ss_path, NULL}};
  int rc = cli_parse("encaps", argc, argv, opts, 4, encaps_usage);
  if (rc != 0) {
    return rc == 1 ? 0 : 2;
  }
  int level = cli_level("encaps", level_arg);
  if (level < 0 || need("encaps", "--pk", pk_path) || need("encaps", "--ct", ct_path) ||
      need("encaps", "--ss", ss_path)) {
    return 2;
  }
  static uint8_t pk[BIKE_MAX_PUBLIC_KEY_BYTES], ct[BIKE_MAX_CIPHERTEXT_BYTES];
  uint8_t ss[BIKE_SHARED_SECRET_BYTES];
  size_t pk_len = bike_public_key_bytes(level), ct_len = bike_ciphertext_bytes(level);
  if (cli_read_exact("encaps", pk_path, "public key", pk, pk_len) != 0) {
    return 1;
  }
  if (report("encaps", bike_encaps(level, ct, ct_len, ss, pk, pk_len))) {
    return 1;
  }
  return cli_write_file("encaps", ct_path, ct, ct_len) || cli_write_file("encaps", ss_path, ss, sizeof(ss))
             ? 1
             : 0;
}

int cmd_decaps(int argc, char **argv) {
  const char *level_arg = NULL, *sk_path = NULL, *ct_path = NULL, *ss_path = NULL;
  const cli_option opts[] = {{"--level", &level_arg, NULL},
                             {"--sk", &sk_path, NULL},
                             {"--ct", &ct_path, NULL},
                             {"--ss", &ss_path, NULL}};
  int rc = cli_parse("decaps", argc, argv, opts, 4, decaps_usage);
  if (rc != 0) {
    return rc == 1 ? 0 : 2;
  }
  int level = cli_level("decaps", level_arg);
  if (level < 0 || need("decaps", "--sk", sk_path) || need("decaps", "--ct", ct_path) ||
      need("decaps", "--ss", ss_path)) {
    return 2;
  }
  static uint8_t sk[BIKE_MAX_SECRET_KEY_BYTES], ct[BIKE_MAX_CIPHERTEXT_BYTES];
  uint8_t ss[BIKE_SHARED_SECRET_BYTES];
  size_t sk_len = bike_secret_key_bytes(level), ct_len = bike_ciphertext_bytes(level);
  if (cli_read_exact("decaps", sk_path, "secret key", sk, sk_len) != 0 ||
      cli_read_exact("decaps", ct_path, "ciphertext", ct, ct_len) != 0) {
    return 1;
  }
  if (report("decaps", bike_decaps(level, ss, ct, ct_len, sk, sk_len))) {
    return 1;
  }
  return cli_write_file("decaps", ss_path, ss, sizeof(ss)) ? 1 : 0;
}
