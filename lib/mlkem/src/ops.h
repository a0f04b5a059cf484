/* K-PKE's NTT kernels, each either the accelerator table's hook
 * (mlkem/accel.h) or the back end's kernel: one control flow for both. A
 * failed hook is remembered in `failed`, which the ML-KEM call checks at its
 * end (it then wipes its outputs and returns MLKEM_ERR_ACCEL). */
#ifndef MLKEM_OPS_H
#define MLKEM_OPS_H

#include <stdint.h>

#include "backend.h"
#include "mlkem/accel.h"
#include "params.h"

typedef struct {
  const mlkem_backend *be;
  const mlkem_accel *acc; /* NULL: software only */
  int failed;
} mlkem_ops;

/* The back end and table in use, no failure yet. */
void mlkem_ops_init(mlkem_ops *o);
void mlkem_ops_ntt(mlkem_ops *o, int16_t a[MLKEM_N]);
void mlkem_ops_invntt(mlkem_ops *o, int16_t a[MLKEM_N]);
void mlkem_ops_basemul_acc(mlkem_ops *o, int16_t r[MLKEM_N], const int16_t (*a)[MLKEM_N],
                           const int16_t (*b)[MLKEM_N], unsigned k);
/* the batch kernels: the table's batch hook, else the single kernels above */
void mlkem_ops_ntt_vec(mlkem_ops *o, int16_t (*a)[MLKEM_N], unsigned k);
void mlkem_ops_basemul_acc_invntt(mlkem_ops *o, int16_t r[MLKEM_N], const int16_t (*a)[MLKEM_N],
                                  const int16_t (*b)[MLKEM_N], unsigned k);

#endif
