/* mlkem: libmlkem's tool.
 *   mlkem bench [--set N] [--runs N] [--backend B]
 *       median of single keygen, encaps and decaps calls, pinned to one CPU
 *   mlkem stdio
 *       one operation per input line, hex in and out, for cross-checks with
 *       other implementations (tests/interop/mlkem):
 *         keygen SET D Z     -> EK DK
 *         encaps SET EK M    -> CT SS
 *         decaps SET CT DK   -> SS
 *       a failing call answers "error <code>". */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mlkem/mlkem.h"

static const char usage[] =
    "usage: mlkem bench [--set 512|768|1024] [--runs N] [--backend NAME]\n"
    "       mlkem stdio\n";

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* Pin to the first CPU the process may use (taskset chooses which). */
static int pin(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) {
    return -1;
  }
  for (int c = 0; c < CPU_SETSIZE; c++) {
    if (CPU_ISSET(c, &set)) {
      CPU_ZERO(&set);
      CPU_SET(c, &set);
      return sched_setaffinity(0, sizeof(set), &set) == 0 ? c : -1;
    }
  }
  return -1;
}

static uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES], ct[MLKEM_MAX_CT_BYTES];
static uint8_t seed[32] = {1}, ss[32];

enum { KEYGEN, ENCAPS, DECAPS };

static int run(int op, int set) {
  switch (op) {
  case KEYGEN:
    return mlkem_keypair_derand(set, ek, mlkem_ek_bytes(set), dk, mlkem_dk_bytes(set), seed, seed);
  case ENCAPS:
    return mlkem_encaps_derand(set, ct, mlkem_ct_bytes(set), ss, ek, mlkem_ek_bytes(set), seed);
  default:
    return mlkem_decaps(set, ss, ct, mlkem_ct_bytes(set), dk, mlkem_dk_bytes(set));
  }
}

static int bench(int argc, char **argv) {
  int only = 0;
  long runs = 1001;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
      only = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = atol(argv[++i]);
    } else if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc) {
      if (mlkem_set_backend(argv[++i]) != MLKEM_OK) {
        fprintf(stderr, "mlkem: back end %s: %s\n", argv[i], mlkem_strerror(MLKEM_ERR_BACKEND));
        return 1;
      }
    } else {
      fputs(usage, stderr);
      return 2;
    }
  }
  if (runs < 1 || (only != 0 && mlkem_ek_bytes(only) == 0)) {
    fputs(usage, stderr);
    return 2;
  }
  uint64_t *ns = malloc((size_t)runs * sizeof(uint64_t));
  if (ns == NULL) {
    return 1;
  }
  const int cpu = pin();
  printf("mlkem bench: back end %s, CPU %d, median of %ld single calls (ns)\n",
         mlkem_backend_name(), cpu, runs);
  printf("%-12s %10s %10s %10s\n", "set", "keygen", "encaps", "decaps");
  static const int sets[3] = {512, 768, 1024};
  for (int s = 0; s < 3; s++) {
    if (only != 0 && sets[s] != only) {
      continue;
    }
    printf("ML-KEM-%-6d", sets[s]);
    for (int op = KEYGEN; op <= DECAPS; op++) {
      for (long i = 0; i < runs / 10 + 2; i++) {
        run(op, sets[s]);
      }
      for (long i = 0; i < runs; i++) {
        const uint64_t t0 = now_ns();
        run(op, sets[s]);
        ns[i] = now_ns() - t0;
      }
      qsort(ns, (size_t)runs, sizeof(uint64_t), cmp_u64);
      printf(" %10llu", (unsigned long long)ns[runs / 2]);
    }
    printf("\n");
  }
  free(ns);
  return 0;
}

/* Parse exactly n bytes of hex; -1 on any other input. */
static int unhex(uint8_t *out, size_t n, const char *s) {
  if (s == NULL || strlen(s) != 2 * n) {
    return -1;
  }
  for (size_t i = 0; i < 2 * n; i++) {
    const char c = s[i];
    const int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (v < 0) {
      return -1;
    }
    out[i / 2] = (uint8_t)(i % 2 ? (out[i / 2] << 4) | v : v);
  }
  return 0;
}

static void puthex(const uint8_t *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    printf("%02x", b[i]);
  }
}

static int stdio_loop(void) {
  static char line[1 << 15];
  while (fgets(line, sizeof(line), stdin) != NULL) {
    char *save = NULL;
    const char *op = strtok_r(line, " \n", &save);
    const char *set_s = strtok_r(NULL, " \n", &save);
    const char *a = strtok_r(NULL, " \n", &save);
    const char *b = strtok_r(NULL, " \n", &save);
    const int set = set_s != NULL ? atoi(set_s) : 0;
    const size_t ekn = mlkem_ek_bytes(set), dkn = mlkem_dk_bytes(set), ctn = mlkem_ct_bytes(set);
    uint8_t x[32], y[32];
    int rc = MLKEM_ERR_LENGTH;
    if (op == NULL || ekn == 0) {
      rc = MLKEM_ERR_SET;
    } else if (strcmp(op, "keygen") == 0) {
      if (unhex(x, 32, a) == 0 && unhex(y, 32, b) == 0 &&
          (rc = mlkem_keypair_derand(set, ek, ekn, dk, dkn, x, y)) == MLKEM_OK) {
        puthex(ek, ekn);
        putchar(' ');
        puthex(dk, dkn);
      }
    } else if (strcmp(op, "encaps") == 0) {
      if (unhex(ek, ekn, a) == 0 && unhex(x, 32, b) == 0 &&
          (rc = mlkem_encaps_derand(set, ct, ctn, ss, ek, ekn, x)) == MLKEM_OK) {
        puthex(ct, ctn);
        putchar(' ');
        puthex(ss, 32);
      }
    } else if (strcmp(op, "decaps") == 0) {
      if (unhex(ct, ctn, a) == 0 && unhex(dk, dkn, b) == 0 &&
          (rc = mlkem_decaps(set, ss, ct, ctn, dk, dkn)) == MLKEM_OK) {
        puthex(ss, 32);
      }
    }
    if (rc != MLKEM_OK) {
      printf("error %d", rc);
    }
    putchar('\n');
    fflush(stdout);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "bench") == 0) {
    return bench(argc - 2, argv + 2);
  }
  if (argc == 2 && strcmp(argv[1], "stdio") == 0) {
    return stdio_loop();
  }
  fputs(usage, stderr);
  return 2;
}
