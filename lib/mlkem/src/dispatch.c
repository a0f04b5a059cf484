/* Run-time choice of the NTT back end, as libbike's: the first call picks
 * the fastest the CPU runs (pthread_once); MLKEM_BACKEND and
 * mlkem_set_backend override it. The CPU check is libbike's (its back end
 * of the same instruction set runs here), so detection lives in one place. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "bike/bike.h"
#include "mlkem/mlkem.h"
#include "ntt.h"

static const mlkem_backend portable = {"portable", NULL, mlkem_ntt_c, mlkem_invntt_c,
                                       mlkem_basemul_acc_c};

#if defined(__x86_64__)
/* Needs AVX2 only; libbike's avx2 back end, whose CPU check stands in,
 * also asks for PCLMULQDQ and SSE4.1, which every AVX2 CPU has. */
static const mlkem_backend avx2 = {"avx2", "avx2", mlkem_ntt_avx2, mlkem_invntt_avx2,
                                   mlkem_basemul_acc_avx2};
#endif

/* Slowest first; the automatic choice is the last one the CPU runs. */
static const mlkem_backend *const backends[] = {
    &portable,
#if defined(__x86_64__)
    &avx2,
#endif
};
#define N_BACKENDS (sizeof(backends) / sizeof(backends[0]))

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static const mlkem_backend *best;
static _Atomic(const mlkem_backend *) current;

static int runs_here(const mlkem_backend *b) {
  return b->needs == NULL || bike_backend_supported(b->needs);
}

static const mlkem_backend *find(const char *name) {
  for (size_t i = 0; i < N_BACKENDS; i++) {
    if (strcmp(backends[i]->name, name) == 0) {
      return backends[i];
    }
  }
  return NULL;
}

static void init(void) {
  best = &portable;
  for (size_t i = 0; i < N_BACKENDS; i++) {
    if (runs_here(backends[i])) {
      best = backends[i];
    }
  }
  const mlkem_backend *chosen = best;
  const char *env = getenv("MLKEM_BACKEND");
  if (env != NULL) {
    const mlkem_backend *b = find(env);
    if (b != NULL && runs_here(b)) {
      chosen = b;
    }
  }
  atomic_store(&current, chosen);
}

const mlkem_backend *mlkem_backend_current(void) {
  pthread_once(&init_once, init);
  return atomic_load_explicit(&current, memory_order_acquire);
}

const mlkem_backend *mlkem_backend_at(unsigned i) { return i < N_BACKENDS ? backends[i] : NULL; }

int mlkem_set_backend(const char *name) {
  pthread_once(&init_once, init);
  const mlkem_backend *b = best;
  if (name != NULL && strcmp(name, "auto") != 0) {
    b = find(name);
    if (b == NULL || !runs_here(b)) {
      return MLKEM_ERR_BACKEND;
    }
  }
  atomic_store_explicit(&current, b, memory_order_release);
  return MLKEM_OK;
}

const char *mlkem_backend_name(void) { return mlkem_backend_current()->name; }
