/* libmlkem's back ends: tables of the NTT kernels, each with exactly the
 * semantics of the portable kernel of the same name (ntt.h): same inputs,
 * same outputs as values mod q within the stated bounds, constant time.
 * A native kernel's file name ends in the instruction set it needs
 * (ntt_avx2.c); the build gives only that file its flags, and only the
 * dispatcher (dispatch.c), after checking the CPU, calls it. */
#ifndef MLKEM_BACKEND_H
#define MLKEM_BACKEND_H

#include <stdint.h>

#include "params.h"

typedef struct {
  const char *name; /* as accepted by MLKEM_BACKEND and mlkem_set_backend */
  const char *needs; /* the libbike back end whose CPU features it needs, or NULL */
  void (*ntt)(int16_t a[MLKEM_N]);
  void (*invntt)(int16_t a[MLKEM_N]);
  void (*basemul_acc)(int16_t r[MLKEM_N], const int16_t (*a)[MLKEM_N],
                      const int16_t (*b)[MLKEM_N], unsigned k);
} mlkem_backend;

/* The back end in use (chosen on first call, thread-safely). */
const mlkem_backend *mlkem_backend_current(void);
/* The compiled-in back ends, slowest first; NULL past the last. */
const mlkem_backend *mlkem_backend_at(unsigned i);

#endif
