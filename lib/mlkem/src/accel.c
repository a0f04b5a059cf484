/* The accelerator table in use and K-PKE's calls through it (ops.h). */
#include <stdatomic.h>

#include "hash.h"
#include "mlkem/mlkem.h"
#include "ops.h"

static _Atomic(const mlkem_accel *) table;

int mlkem_set_accel(const mlkem_accel *t) {
  atomic_store_explicit(&table, t, memory_order_release);
  return MLKEM_OK;
}

const mlkem_accel *mlkem_get_accel(void) {
  return atomic_load_explicit(&table, memory_order_acquire);
}

void mlkem_ops_init(mlkem_ops *o) {
  o->be = mlkem_backend_current();
  o->acc = mlkem_get_accel();
  o->failed = 0;
}

/* A failed hook's output is not used: zeroed, so no partial result flows on. */
static void failed(mlkem_ops *o, int16_t *a) {
  o->failed = 1;
  mlkem_wipe(a, sizeof(int16_t) * MLKEM_N);
}

void mlkem_ops_ntt(mlkem_ops *o, int16_t a[MLKEM_N]) {
  if (o->acc != NULL && o->acc->ntt != NULL) {
    if (o->acc->ntt(o->acc->ctx, a) != 0) {
      failed(o, a);
    }
  } else {
    o->be->ntt(a);
  }
}

void mlkem_ops_invntt(mlkem_ops *o, int16_t a[MLKEM_N]) {
  if (o->acc != NULL && o->acc->invntt != NULL) {
    if (o->acc->invntt(o->acc->ctx, a) != 0) {
      failed(o, a);
    }
  } else {
    o->be->invntt(a);
  }
}

void mlkem_ops_basemul_acc(mlkem_ops *o, int16_t r[MLKEM_N], const int16_t (*a)[MLKEM_N],
                           const int16_t (*b)[MLKEM_N], unsigned k) {
  if (o->acc != NULL && o->acc->basemul_acc != NULL) {
    if (o->acc->basemul_acc(o->acc->ctx, r, a, b, k) != 0) {
      failed(o, r);
    }
  } else {
    o->be->basemul_acc(r, a, b, k);
  }
}

void mlkem_ops_ntt_vec(mlkem_ops *o, int16_t (*a)[MLKEM_N], unsigned k) {
  if (o->acc != NULL && o->acc->ntt_vec != NULL) {
    if (o->acc->ntt_vec(o->acc->ctx, a, k) != 0) {
      o->failed = 1;
      mlkem_wipe(a, sizeof(int16_t) * MLKEM_N * k);
    }
  } else {
    for (unsigned i = 0; i < k; i++) {
      mlkem_ops_ntt(o, a[i]);
    }
  }
}

void mlkem_ops_basemul_acc_invntt(mlkem_ops *o, int16_t r[MLKEM_N], const int16_t (*a)[MLKEM_N],
                                  const int16_t (*b)[MLKEM_N], unsigned k) {
  if (o->acc != NULL && o->acc->basemul_acc_invntt != NULL) {
    if (o->acc->basemul_acc_invntt(o->acc->ctx, r, a, b, k) != 0) {
      failed(o, r);
    }
  } else {
    mlkem_ops_basemul_acc(o, r, a, b, k);
    mlkem_ops_invntt(o, r);
  }
}
