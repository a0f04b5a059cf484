#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_parse(const char *cmd, int argc, char **argv, const cli_option *opts, size_t nopts,
              const char *usage) {
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      fputs(usage, stdout);
      return 1;
    }
    const char *eq = strchr(arg, '=');
    size_t name_len = eq != NULL ? (size_t)(eq - arg) : strlen(arg);
    const cli_option *match = NULL;
    for (size_t j = 0; j < nopts; j++) {
      if (strlen(opts[j].name) == name_len && strncmp(arg, opts[j].name, name_len) == 0) {
        match = &opts[j];
      }
    }
    if (match == NULL) {
      fprintf(stderr, "bike %s: unknown argument '%s' (see 'bike %s --help')\n", cmd, arg, cmd);
      return 2;
    }
    if (match->value == NULL) {
      if (eq != NULL) {
        fprintf(stderr, "bike %s: option %s takes no value\n", cmd, match->name);
        return 2;
      }
      *match->flag = 1;
    } else if (eq != NULL) {
      *match->value = eq + 1;
    } else if (i + 1 < argc) {
      *match->value = argv[++i];
    } else {
      fprintf(stderr, "bike %s: option %s needs a value\n", cmd, match->name);
      return 2;
    }
  }
  return 0;
}

int cli_level(const char *cmd, const char *text) {
  if (text == NULL) {
    fprintf(stderr, "bike %s: --level is required (1, 3 or 5)\n", cmd);
    return -1;
  }
  if (strcmp(text, "1") == 0 || strcmp(text, "3") == 0 || strcmp(text, "5") == 0) {
    return text[0] - '0';
  }
  fprintf(stderr, "bike %s: unknown level '%s' (expected 1, 3 or 5)\n", cmd, text);
  return -1;
}

long cli_positive(const char *cmd, const char *name, const char *text) {
  char *end = NULL;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v <= 0 || v > 100000000L) {
    fprintf(stderr, "bike %s: %s must be a positive integer, not '%s'\n", cmd, name, text);
    return -1;
  }
  return v;
}

int cli_read_exact(const char *cmd, const char *path, const char *what, uint8_t *buf, size_t len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "bike %s: cannot open %s '%s': %s\n", cmd, what, path, strerror(errno));
    return -1;
  }
  size_t got = fread(buf, 1, len, f);
  int extra = fgetc(f);
  int failed = ferror(f);
  fclose(f);
  if (failed) {
    fprintf(stderr, "bike %s: cannot read %s '%s'\n", cmd, what, path);
    return -1;
  }
  if (got != len || extra != EOF) {
    fprintf(stderr, "bike %s: %s '%s' has %s%zu bytes; this level needs exactly %zu\n", cmd,
            what, path, extra != EOF ? "more than " : "", got, len);
    return -1;
  }
  return 0;
}

int cli_write_file(const char *cmd, const char *path, const uint8_t *buf, size_t len) {
  size_t n = strlen(path);
  char *tmp = malloc(n + 16);
  if (tmp == NULL) {
    fprintf(stderr, "bike %s: out of memory\n", cmd);
    return -1;
  }
  snprintf(tmp, n + 16, "%s.tmp%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  int ok = f != NULL && fwrite(buf, 1, len, f) == len;
  if (f != NULL && fclose(f) != 0) {
    ok = 0;
  }
  if (ok && rename(tmp, path) != 0) {
    ok = 0;
  }
  if (!ok) {
    fprintf(stderr, "bike %s: cannot write '%s': %s\n", cmd, path, strerror(errno));
    remove(tmp);
  }
  free(tmp);
  return ok ? 0 : -1;
}
