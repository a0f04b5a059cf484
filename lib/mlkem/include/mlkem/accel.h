/* libmlkem's accelerator table: hooks through which ML-KEM hands its NTT
 * kernels to hardware (or any other implementation), chosen at run time.
 *
 * K-PKE (kpke.c) has one control flow. At each kernel below it calls the
 * table's hook if the table in use has one, else the back end's kernel
 * (backend.h). The two batch hooks (ntt_vec, basemul_acc_invntt) let a
 * device take a whole vector or a row of the matrix product per call; where
 * a table leaves them NULL, K-PKE runs the same work through the single
 * hooks (or the back end) instead. A hook computes what the portable kernel named beside it
 * computes (ntt.h: same inputs, outputs equal mod q and within the same
 * bounds) and returns 0, or anything else if it could not (a device error,
 * a time-out). On a failure the ML-KEM call wipes its outputs (ek and dk,
 * ct and ss, ss) and returns MLKEM_ERR_ACCEL: a caller never sees a value
 * computed from a failed kernel.
 *
 * Which hooks are set (the placement) is public: libmlkem branches on it.
 * The data given to a hook is secret wherever the kernel's is; what the hook
 * does with it is the hook's business (a device sees the operands, as it
 * must). libmlkem links no driver: a driver fills a table
 * (driver/include/bike_acc_mlkem.h does, for ntt_acc behind acc_shell).
 *
 * Like libbike's bike/accel.h, not a stable API: in the static library
 * only (libmlkem.so exports exactly mlkem.h). */
#ifndef MLKEM_ACCEL_H
#define MLKEM_ACCEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MLKEM_ACCEL_N 256 /* coefficients of a polynomial */

typedef struct mlkem_accel {
  void *ctx; /* the first argument of every hook */
  /* mlkem_ntt_c: a -> NTT(a); in |a_i| < q, out |a_i| <= (q - 1) / 2 */
  int (*ntt)(void *ctx, int16_t a[MLKEM_ACCEL_N]);
  /* mlkem_invntt_c: a -> NTT^-1(a) 2^16; in |a_i| < 8q, out |a_i| < q */
  int (*invntt)(void *ctx, int16_t a[MLKEM_ACCEL_N]);
  /* mlkem_basemul_acc_c: r = sum_{j < k} a_j o b_j 2^-16; out |r_i| <= (q - 1) / 2 */
  int (*basemul_acc)(void *ctx, int16_t r[MLKEM_ACCEL_N], const int16_t (*a)[MLKEM_ACCEL_N],
                     const int16_t (*b)[MLKEM_ACCEL_N], unsigned k);
  /* mlkem_ntt_c on each of a[0] .. a[k - 1] (1 <= k <= 2 * MLKEM_MAX_K) */
  int (*ntt_vec)(void *ctx, int16_t (*a)[MLKEM_ACCEL_N], unsigned k);
  /* mlkem_basemul_acc_c, then mlkem_invntt_c on r: one row of A^T y, or
   * t^T y, s^T u, back from the NTT domain; out |r_i| < q */
  int (*basemul_acc_invntt)(void *ctx, int16_t r[MLKEM_ACCEL_N], const int16_t (*a)[MLKEM_ACCEL_N],
                            const int16_t (*b)[MLKEM_ACCEL_N], unsigned k);
} mlkem_accel;

/* Use `table` (NULL: software only, the default) from now on, in every
 * thread; the table must outlive its use. Not meant to be called while other
 * threads are inside the library. Returns MLKEM_OK. */
int mlkem_set_accel(const mlkem_accel *table);

/* The table in use, or NULL. */
const mlkem_accel *mlkem_get_accel(void);

#ifdef __cplusplus
}
#endif

#endif
