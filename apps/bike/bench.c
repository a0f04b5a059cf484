/* bike bench: median and 90th percentile of single calls per primitive and
 * per operation, in nanoseconds and time-stamp-counter ticks, pinned to one
 * CPU after a warm-up. `bike info` lives here too. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bike/batch.h"
#include "bike/bike.h"
#include "bike/ops.h"
#include "cli.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
static uint64_t ticks(void) { return __rdtsc(); }
#else
#define HAVE_TSC 0
static uint64_t ticks(void) { return 0; }
#endif

static const char usage[] =
    "usage: bike bench [--level N] [--backend NAME|all] [--runs N] [--cpu N] [--json]\n"
    "\n"
    "Times keygen, encaps and decaps and the operations inside them: the median\n"
    "and 90th percentile of single calls after a warm-up, in nanoseconds and in\n"
    "time-stamp-counter ticks, with the process pinned to one CPU; then key\n"
    "generation in batches of 1, 4 and 16 keys (bike/batch.h). Run it with the\n"
    "other cores idle.\n"
    "\n"
    "  --level N   only this level (1, 3 or 5); default all three\n"
    "  --backend B the library back end to time (see 'bike info'), or 'all' for\n"
    "              every one this CPU runs; default the one dispatch chose\n"
    "  --runs N    timed calls per item (default 101)\n"
    "  --cpu N     CPU to pin to (default: the first one allowed)\n"
    "  --json      print the record of docs/bench-json.md instead of tables\n";

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Ticks per second, measured against the monotonic clock over 50 ms. */
static double tsc_hz(void) {
  if (!HAVE_TSC) {
    return 0;
  }
  uint64_t n0 = now_ns(), t0 = ticks();
  while (now_ns() - n0 < 50000000u) {
  }
  uint64_t n1 = now_ns(), t1 = ticks();
  return (double)(t1 - t0) * 1e9 / (double)(n1 - n0);
}

/* Key generation in batches (bike/batch.h): buffers for the largest. */
#define BATCH_MAX 16
typedef struct {
  size_t n; /* keys per call */
  uint8_t coins[BATCH_MAX * BIKE_COINS_BYTES];
  uint8_t pk[BATCH_MAX * BIKE_MAX_PUBLIC_KEY_BYTES], sk[BATCH_MAX * BIKE_MAX_SECRET_KEY_BYTES];
} batch_ctx;

/* Everything the timed calls read and write, made once per level. */
typedef struct {
  const bike_params *p;
  int level;
  uint8_t coins[BIKE_COINS_BYTES];
  uint8_t pk[BIKE_MAX_PUBLIC_KEY_BYTES], sk[BIKE_MAX_SECRET_KEY_BYTES];
  uint8_t ct[BIKE_MAX_CIPHERTEXT_BYTES], ss[BIKE_SHARED_SECRET_BYTES];
  uint8_t digest[BIKE_SHA3_384_BYTES], stream[1024];
  uint32_t h0_idx[BIKE_MAX_D], h1_idx[BIKE_MAX_D];
  uint64_t a[BIKE_MAX_QWORDS], b[BIKE_MAX_QWORDS], c[BIKE_MAX_QWORDS];
  uint64_t e0[BIKE_MAX_QWORDS], e1[BIKE_MAX_QWORDS], s[BIKE_MAX_QWORDS];
  uint8_t upc[BIKE_MAX_R];
  batch_ctx *batch;
} bench_ctx;

static void run_keygen(bench_ctx *x) {
  bike_keypair_derand(x->level, x->pk, x->p->pk_bytes, x->sk, x->p->sk_bytes, x->coins);
}
static void run_encaps(bench_ctx *x) {
  bike_encaps_derand(x->level, x->ct, x->p->ct_bytes, x->ss, x->pk, x->p->pk_bytes, x->coins);
}
static void run_decaps(bench_ctx *x) {
  bike_decaps(x->level, x->ss, x->ct, x->p->ct_bytes, x->sk, x->p->sk_bytes);
}
static void run_sha3(bench_ctx *x) { bike_sha3_384(x->digest, x->ct, x->p->ct_bytes); }
static void run_shake(bench_ctx *x) { bike_shake256(x->stream, sizeof(x->stream), x->coins, 32); }
static void run_sample_keygen(bench_ctx *x) {
  bike_sample_keygen(x->p, x->h0_idx, x->h1_idx, x->coins);
  bike_poly_from_indices(x->p, x->a, x->h0_idx, x->p->d);
  bike_poly_from_indices(x->p, x->b, x->h1_idx, x->p->d);
}
static void run_h(bench_ctx *x) { bike_function_h(x->p, x->e0, x->e1, NULL, x->coins); }
static void run_l(bench_ctx *x) { bike_function_l(x->p, x->ss, x->e0, x->e1); }
static void run_k(bench_ctx *x) { bike_function_k(x->p, x->ss, x->coins, x->ct); }
static void run_mul(bench_ctx *x) { bike_gf2x_mul(x->p, x->c, x->a, x->b); }
static void run_sqr_k(bench_ctx *x) { bike_gf2x_sqr_k(x->p, x->c, x->a, 1000); }
static void run_inv(bench_ctx *x) { bike_gf2x_inv(x->p, x->c, x->a); }
static void run_mul_sparse(bench_ctx *x) {
  bike_gf2x_mul_sparse(x->p, x->s, x->h0_idx, x->p->d, x->c);
}
static void run_upc(bench_ctx *x) { bike_upc(x->p, x->upc, x->h0_idx, x->p->d, x->s); }
static void run_keygen_batch(bench_ctx *x) {
  batch_ctx *b = x->batch;
  bike_keypair_batch_derand(x->level, b->n, b->pk, b->n * x->p->pk_bytes, b->sk,
                            b->n * x->p->sk_bytes, b->coins, b->n * BIKE_COINS_BYTES);
}
static void run_decode(bench_ctx *x) {
  bike_decode(x->p, x->e0, x->e1, x->s, x->h0_idx, x->h1_idx);
}

typedef struct {
  const char *name;
  void (*run)(bench_ctx *);
} bench_item;

static const bench_item primitives[] = {
    {"keygen", run_keygen}, {"encaps", run_encaps}, {"decaps", run_decaps}};
static const bench_item operations[] = {
    {"sha3_384", run_sha3},         {"shake256", run_shake},     {"sample_keygen", run_sample_keygen},
    {"function_h", run_h},          {"function_l", run_l},       {"function_k", run_k},
    {"gf2x_mul", run_mul},          {"gf2x_sqr_k", run_sqr_k},   {"gf2x_inv", run_inv},
    {"gf2x_mul_sparse", run_mul_sparse}, {"upc", run_upc},       {"decode", run_decode}};
/* Key generation in batches, timed per call of each size (the first is 1). */
static const bench_item keygen_batch = {"keygen_batch", run_keygen_batch};
static const size_t batch_sizes[] = {1, 4, BATCH_MAX};
#define N_BATCH_SIZES (sizeof(batch_sizes) / sizeof(batch_sizes[0]))
#define N_PRIMITIVES (sizeof(primitives) / sizeof(primitives[0]))
#define N_OPERATIONS (sizeof(operations) / sizeof(operations[0]))

typedef struct {
  double median_ns, p90_ns;
  uint64_t median_ticks, p90_ticks;
} timing;

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static timing measure(const bench_item *item, bench_ctx *x, long runs, uint64_t *ns,
                      uint64_t *tk) {
  for (long i = 0; i < runs / 10 + 2; i++) {
    item->run(x);
  }
  for (long i = 0; i < runs; i++) {
    uint64_t n0 = now_ns(), t0 = ticks();
    item->run(x);
    uint64_t t1 = ticks(), n1 = now_ns();
    ns[i] = n1 - n0;
    tk[i] = t1 - t0;
  }
  qsort(ns, (size_t)runs, sizeof(uint64_t), cmp_u64);
  qsort(tk, (size_t)runs, sizeof(uint64_t), cmp_u64);
  size_t mid = (size_t)runs / 2, p90 = (size_t)((runs * 9) / 10);
  if (p90 >= (size_t)runs) {
    p90 = (size_t)runs - 1;
  }
  timing t = {(double)ns[mid], (double)ns[p90], tk[mid], tk[p90]};
  return t;
}

/* Inputs as in a real run: a key pair, an encapsulation, the syndrome of
 * its ciphertext. */
static void prepare(bench_ctx *x, int level) {
  memset(x, 0, sizeof(*x));
  x->level = level;
  x->p = bike_params_get(level);
  for (int i = 0; i < BIKE_COINS_BYTES; i++) {
    x->coins[i] = (uint8_t)(17 * i + 1);
  }
  run_keygen(x);
  run_encaps(x);
  run_sample_keygen(x);
  bike_poly_from_bytes(x->p, x->c, x->ct);
  bike_gf2x_mul_sparse(x->p, x->s, x->h0_idx, x->p->d, x->c);
  run_h(x);
}

static void print_timing_json(const char *name, const timing *t, int tsc, int last) {
  printf("        \"%s\": {\"median_ns\": %.0f, \"p90_ns\": %.0f, ", name, t->median_ns, t->p90_ns);
  if (tsc) {
    printf("\"median_ticks\": %llu, \"p90_ticks\": %llu}%s\n", (unsigned long long)t->median_ticks,
           (unsigned long long)t->p90_ticks, last ? "" : ",");
  } else {
    printf("\"median_ticks\": null, \"p90_ticks\": null}%s\n", last ? "" : ",");
  }
}

static int pin_cpu(const char *cpu_arg) {
  cpu_set_t allowed, want;
  if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
    return -1;
  }
  int cpu = -1;
  if (cpu_arg != NULL) {
    char *end = NULL;
    long v = strtol(cpu_arg, &end, 10);
    if (end == cpu_arg || *end != '\0' || v < 0 || v >= CPU_SETSIZE || !CPU_ISSET(v, &allowed)) {
      fprintf(stderr, "bike bench: --cpu %s is not a CPU this process may use\n", cpu_arg);
      return -2;
    }
    cpu = (int)v;
  } else {
    for (int i = 0; i < CPU_SETSIZE && cpu < 0; i++) {
      if (CPU_ISSET(i, &allowed)) {
        cpu = i;
      }
    }
  }
  CPU_ZERO(&want);
  CPU_SET(cpu, &want);
  return sched_setaffinity(0, sizeof(want), &want) == 0 ? cpu : -1;
}

static void cpu_model(char *out, size_t n) {
  snprintf(out, n, "unknown");
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[512];
  while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
    if (strncmp(line, "model name", 10) == 0) {
      char *colon = strchr(line, ':');
      if (colon != NULL) {
        snprintf(out, n, "%s", colon + 2);
        out[strcspn(out, "\n\"\\")] = '\0';
      }
      break;
    }
  }
  if (f != NULL) {
    fclose(f);
  }
}

int cmd_bench(int argc, char **argv) {
  const char *level_arg = NULL, *runs_arg = NULL, *cpu_arg = NULL, *backend_arg = NULL;
  int json = 0;
  const cli_option opts[] = {{"--level", &level_arg, NULL},
                             {"--runs", &runs_arg, NULL},
                             {"--cpu", &cpu_arg, NULL},
                             {"--backend", &backend_arg, NULL},
                             {"--json", NULL, &json}};
  int rc = cli_parse("bench", argc, argv, opts, 5, usage);
  if (rc != 0) {
    return rc == 1 ? 0 : 2;
  }
  int levels[3] = {1, 3, 5}, nlevels = 3;
  if (level_arg != NULL) {
    levels[0] = cli_level("bench", level_arg);
    nlevels = 1;
    if (levels[0] < 0) {
      return 2;
    }
  }
  /* The back ends to time: the dispatched one, a named one, or all. */
  const char *backends[16];
  int nbackends = 0;
  if (backend_arg == NULL) {
    backends[nbackends++] = bike_backend_name();
  } else if (strcmp(backend_arg, "all") == 0) {
    for (size_t i = 0; bike_backend_at(i) != NULL && nbackends < 16; i++) {
      if (bike_backend_supported(bike_backend_at(i))) {
        backends[nbackends++] = bike_backend_at(i);
      } else {
        fprintf(stderr, "bike bench: back end %s not run: this CPU lacks a feature it needs\n",
                bike_backend_at(i));
      }
    }
  } else {
    if (bike_set_backend(backend_arg) != BIKE_OK) {
      fprintf(stderr, "bike bench: back end '%s' is unknown or not supported by this CPU\n",
              backend_arg);
      return 2;
    }
    backends[nbackends++] = bike_backend_name();
  }
  long runs = runs_arg != NULL ? cli_positive("bench", "--runs", runs_arg) : 101;
  if (runs < 0) {
    return 2;
  }
  int cpu = pin_cpu(cpu_arg);
  if (cpu == -2) {
    return 2;
  }
  if (cpu < 0) {
    fprintf(stderr, "bike bench: warning: could not pin to one CPU; figures may be noisy\n");
  }
  uint64_t *ns = malloc((size_t)runs * sizeof(uint64_t));
  uint64_t *tk = malloc((size_t)runs * sizeof(uint64_t));
  bench_ctx *x = malloc(sizeof(bench_ctx));
  batch_ctx *batch = malloc(sizeof(batch_ctx));
  if (ns == NULL || tk == NULL || x == NULL || batch == NULL) {
    fprintf(stderr, "bike bench: out of memory\n");
    return 1;
  }
  for (size_t i = 0; i < sizeof(batch->coins); i++) {
    batch->coins[i] = (uint8_t)(29 * i + 3);
  }
  double hz = tsc_hz();
  char model[128];
  cpu_model(model, sizeof(model));

  if (json) {
    printf("{\n  \"schema\": \"bikeco-bench/1\",\n  \"tool_version\": \"%s\",\n", BIKE_TOOL_VERSION);
    printf("  \"cpu\": \"%s\",\n", model);
    if (HAVE_TSC) {
      printf("  \"tsc_hz\": %.0f,\n", hz);
    } else {
      printf("  \"tsc_hz\": null,\n");
    }
    printf("  \"pinned_cpu\": %d,\n  \"results\": [\n", cpu);
  } else {
    printf("bike bench: %s, pinned to CPU %d, TSC %.3f GHz, %ld runs per item\n", model, cpu,
           hz / 1e9, runs);
  }
  for (int item = 0; item < nbackends * nlevels; item++) {
    const int li = item % nlevels;
    const char *backend = backends[item / nlevels];
    bike_set_backend(backend);
    prepare(x, levels[li]);
    x->batch = batch;
    timing prim[N_PRIMITIVES], ops[N_OPERATIONS];
    for (size_t i = 0; i < N_PRIMITIVES; i++) {
      prim[i] = measure(&primitives[i], x, runs, ns, tk);
    }
    for (size_t i = 0; i < N_OPERATIONS; i++) {
      ops[i] = measure(&operations[i], x, runs, ns, tk);
    }
    /* Operation medians per primitive, in seed 001 Table 2's terms. */
    double op_ns[N_OPERATIONS];
    for (size_t i = 0; i < N_OPERATIONS; i++) {
      op_ns[i] = ops[i].median_ns;
    }
    enum { /* indices into operations[] */ SKG = 2, FH, FL, FK, MUL, INV = 8, DEC = 11 };
    struct {
      const char *primitive, *part;
      double ns;
    } parts[] = {
        {"keygen", "prng", op_ns[SKG]},          {"keygen", "inversion", op_ns[INV]},
        {"keygen", "multiplication", op_ns[MUL]}, {"encaps", "h_function", op_ns[FH]},
        {"encaps", "multiplication", op_ns[MUL]}, {"encaps", "l_function", op_ns[FL]},
        {"encaps", "k_function", op_ns[FK]},      {"decaps", "multiplication", op_ns[MUL]},
        {"decaps", "decoding", op_ns[DEC]},       {"decaps", "l_function", op_ns[FL]},
        {"decaps", "h_function", op_ns[FH]},      {"decaps", "k_function", op_ns[FK]},
    };
    const size_t nparts = sizeof(parts) / sizeof(parts[0]);
    timing batches[N_BATCH_SIZES];
    for (size_t i = 0; i < N_BATCH_SIZES; i++) {
      batch->n = batch_sizes[i];
      batches[i] = measure(&keygen_batch, x, runs, ns, tk);
    }
    if (json) {
      printf("    {\n      \"level\": %d,\n      \"backend\": \"%s\",\n      \"runs\": %ld,\n",
             levels[li], backend, runs);
      printf("      \"primitives\": {\n");
      for (size_t i = 0; i < N_PRIMITIVES; i++) {
        print_timing_json(primitives[i].name, &prim[i], HAVE_TSC, i + 1 == N_PRIMITIVES);
      }
      printf("      },\n      \"operations\": {\n");
      for (size_t i = 0; i < N_OPERATIONS; i++) {
        print_timing_json(operations[i].name, &ops[i], HAVE_TSC, i + 1 == N_OPERATIONS);
      }
      printf("      },\n      \"breakdown\": {\n");
      for (size_t i = 0; i < nparts; i++) {
        int first = i == 0 || strcmp(parts[i - 1].primitive, parts[i].primitive) != 0;
        int last = i + 1 == nparts || strcmp(parts[i + 1].primitive, parts[i].primitive) != 0;
        if (first) {
          printf("        \"%s\": {", parts[i].primitive);
        }
        printf("\"%s\": %.0f%s", parts[i].part, parts[i].ns, last ? "" : ", ");
        if (last) {
          printf("}%s\n", i + 1 == nparts ? "" : ",");
        }
      }
      printf("      },\n      \"keygen_batch\": {\n");
      for (size_t i = 0; i < N_BATCH_SIZES; i++) {
        char keys[8];
        snprintf(keys, sizeof(keys), "%zu", batch_sizes[i]);
        print_timing_json(keys, &batches[i], HAVE_TSC, i + 1 == N_BATCH_SIZES);
      }
      printf("      }\n    }%s\n", item + 1 == nbackends * nlevels ? "" : ",");
    } else {
      printf("\nlevel %d, back end %s\n", levels[li], backend);
      printf("  %-16s %12s %12s %14s %14s\n", "item", "median us", "p90 us", "median ticks",
             "p90 ticks");
      for (size_t i = 0; i < N_PRIMITIVES + N_OPERATIONS; i++) {
        const char *name = i < N_PRIMITIVES ? primitives[i].name : operations[i - N_PRIMITIVES].name;
        const timing *t = i < N_PRIMITIVES ? &prim[i] : &ops[i - N_PRIMITIVES];
        printf("  %-16s %12.1f %12.1f %14llu %14llu\n", name, t->median_ns / 1e3, t->p90_ns / 1e3,
               (unsigned long long)t->median_ticks, (unsigned long long)t->p90_ticks);
      }
      double total = prim[0].median_ns + prim[1].median_ns + prim[2].median_ns;
      printf("  share of keygen+encaps+decaps time (seed 001 Table 2 form):\n");
      for (size_t i = 0; i < nparts; i++) {
        printf("    %-7s %-15s %5.1f %%\n", parts[i].primitive, parts[i].part,
               100.0 * parts[i].ns / total);
      }
      printf("  keygen in batches (bike_keypair_batch_derand), per key:\n");
      for (size_t i = 0; i < N_BATCH_SIZES; i++) {
        const size_t n = batch_sizes[i];
        printf("    %2zu keys %10.1f us %14llu ticks  %5.2fx faster a key\n", n,
               batches[i].median_ns / 1e3 / (double)n,
               (unsigned long long)(batches[i].median_ticks / n),
               batches[0].median_ns * (double)n / batches[i].median_ns);
      }
    }
  }
  if (json) {
    printf("  ]\n}\n");
  }
  free(ns);
  free(tk);
  free(x);
  free(batch);
  return 0;
}

int cmd_info(int argc, char **argv) {
  static const char info_usage[] = "usage: bike info\n\nPrints the version, the back end "
                                   "in use and the CPU.\n";
  int rc = cli_parse("info", argc, argv, NULL, 0, info_usage);
  if (rc != 0) {
    return rc == 1 ? 0 : 2;
  }
  char model[128];
  cpu_model(model, sizeof(model));
  printf("bike %s\nback end: %s\ncpu: %s\ncpu features: %s\nback ends:", BIKE_TOOL_VERSION,
         bike_backend_name(), model, bike_cpu_features());
  for (size_t i = 0; bike_backend_at(i) != NULL; i++) {
    printf(" %s%s", bike_backend_at(i), bike_backend_supported(bike_backend_at(i)) ? "" : " (not supported here)");
  }
  printf("\n");
  return 0;
}
