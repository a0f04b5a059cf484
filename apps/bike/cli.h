/* Small helpers shared by the subcommands of the `bike` tool. */
#ifndef BIKE_APPS_CLI_H
#define BIKE_APPS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bike/bike.h"

/* The tool is released with the library. */
#define BIKE_TOOL_VERSION BIKE_VERSION_STRING

/* An option "--name VALUE" (or "--name=VALUE"); a flag if value is NULL. */
typedef struct {
  const char *name;
  const char **value;
  int *flag;
} cli_option;

/* Parses argv[1..] of a subcommand. Prints the usage and returns 1 for
 * --help, prints an error and returns 2 for anything unknown, 0 otherwise. */
int cli_parse(const char *cmd, int argc, char **argv, const cli_option *opts, size_t nopts,
              const char *usage);

/* Parses a level ("1", "3" or "5"); prints an error and returns -1 if bad. */
int cli_level(const char *cmd, const char *text);

/* Parses a positive integer option; prints an error and returns -1 if bad. */
long cli_positive(const char *cmd, const char *name, const char *text);

/* Reads a file that must hold exactly `len` bytes; prints a clear error
 * (naming `what` and the sizes) and returns -1 otherwise. */
int cli_read_exact(const char *cmd, const char *path, const char *what, uint8_t *buf, size_t len);

/* Writes a file through a temporary and a rename, so that a failure never
 * leaves a half-written file. Returns 0 or -1 after printing an error. */
int cli_write_file(const char *cmd, const char *path, const uint8_t *buf, size_t len);

int cmd_kat(int argc, char **argv);
int cmd_keygen(int argc, char **argv);
int cmd_encaps(int argc, char **argv);
int cmd_decaps(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_info(int argc, char **argv);

#endif
