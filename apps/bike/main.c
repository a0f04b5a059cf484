/* bike: the command-line tool of libbike. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bike/bike.h"
#include "cli.h"

static const char usage[] =
    "usage: bike <command> [options]\n"
    "\n"
    "commands:\n"
    "  kat      print the NIST KAT response file of a level\n"
    "  keygen   write a key pair to files\n"
    "  encaps   encapsulate to a public key file\n"
    "  decaps   decapsulate a ciphertext file with a secret key file\n"
    "  bench    time the primitives and operations\n"
    "  info     print the version, back end and CPU features\n"
    "\n"
    "'bike <command> --help' describes a command's options; 'bike --version' prints the version.\n"
    "\n"
    "BIKE_BACKEND=<name> runs the library on that back end (see 'bike info'); the\n"
    "tool stops with status 77 if this CPU cannot run it, 2 if it is unknown.\n";

/* The tool never runs silently on another back end than the one asked for:
 * tests rely on it. */
static int check_backend_env(void) {
  const char *want = getenv("BIKE_BACKEND");
  if (want == NULL || strcmp(want, "auto") == 0) {
    return 0;
  }
  for (size_t i = 0; bike_backend_at(i) != NULL; i++) {
    if (strcmp(bike_backend_at(i), want) == 0) {
      if (!bike_backend_supported(want)) {
        fprintf(stderr, "bike: back end '%s' is not supported by this CPU (features: %s)\n",
                want, bike_cpu_features());
        return 77;
      }
      return 0;
    }
  }
  fprintf(stderr, "bike: unknown back end '%s' in BIKE_BACKEND\n", want);
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  int rc = check_backend_env();
  if (rc != 0) {
    return rc;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("bike %s (back end %s)\n", BIKE_TOOL_VERSION, bike_backend_name());
    return 0;
  }
  static const struct {
    const char *name;
    int (*run)(int, char **);
  } commands[] = {{"kat", cmd_kat},       {"keygen", cmd_keygen}, {"encaps", cmd_encaps},
                  {"decaps", cmd_decaps}, {"bench", cmd_bench},   {"info", cmd_info}};
  for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
    if (strcmp(argv[1], commands[i].name) == 0) {
      return commands[i].run(argc - 1, argv + 1);
    }
  }
  fprintf(stderr, "bike: unknown command '%s'\n\n%s", argv[1], usage);
  return 2;
}
