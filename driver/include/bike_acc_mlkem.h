/* bike_acc_mlkem: libmlkem's accelerator table (mlkem/accel.h) on an
 * ntt_acc device (hw/ip/acc_shell/doc/acc_shell.md, "ntt behind the
 * shell") opened with bike_acc. The placement is a set of kernels (NTT,
 * inverse NTT, base multiplication) that run on the device; the others stay
 * in libmlkem's software. Each hook brings its operands to [0, q), runs the
 * device's operation (a base multiplication of k pairs as k BASEMULs, summed
 * mod q on the CPU), checks every result coefficient is below q and gives
 * them in the range the portable kernel's contract names. Any failure makes
 * the ML-KEM call return MLKEM_ERR_ACCEL with its outputs wiped, and
 * bike_acc_mlkem_last_error() tells the driver's code.
 *
 * Use:
 *   bike_acc_mlkem *m;
 *   bike_acc_mlkem_new(&m, dev, BIKE_ACC_MLKEM_ALL);
 *   mlkem_set_accel(bike_acc_mlkem_table(m));
 *   ... mlkem_encaps(...) ...
 *   mlkem_set_accel(NULL); bike_acc_mlkem_free(m);
 */
#ifndef BIKE_ACC_MLKEM_H
#define BIKE_ACC_MLKEM_H

#include <stdint.h>

#include "bike_acc.h"
#include "mlkem/accel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ntt_acc's operations (rtl/ntt_stream.sv) */
#define BIKE_ACC_MLKEM_OP_NTT 1u
#define BIKE_ACC_MLKEM_OP_INTT 2u
#define BIKE_ACC_MLKEM_OP_BASEMUL 3u
#define BIKE_ACC_MLKEM_Q 3329u /* the device's PARAM */

/* The placement: which kernels run on the device (a bit per kernel). */
#define BIKE_ACC_MLKEM_NTT 1u
#define BIKE_ACC_MLKEM_INVNTT 2u
#define BIKE_ACC_MLKEM_BASEMUL 4u
#define BIKE_ACC_MLKEM_ALL 7u

/* Per device operation (index: op - 1): runs and the sum of CYCLES. */
typedef struct {
  uint64_t runs[3];
  uint64_t cycles[3];
} bike_acc_mlkem_stats;

typedef struct bike_acc_mlkem bike_acc_mlkem;

/* A table on `dev` for the kernels in `placement`. Checks ID.CORE (NTT,
 * BIKE_ACC_ERR_CORE) and PARAM (q, BIKE_ACC_ERR_PARAM). */
int bike_acc_mlkem_new(bike_acc_mlkem **m, bike_acc_dev *dev, unsigned placement);
void bike_acc_mlkem_free(bike_acc_mlkem *m);
const mlkem_accel *bike_acc_mlkem_table(bike_acc_mlkem *m);
/* The driver's code of the last failed hook (BIKE_ACC_OK if none). */
int bike_acc_mlkem_last_error(const bike_acc_mlkem *m);
void bike_acc_mlkem_get_stats(const bike_acc_mlkem *m, bike_acc_mlkem_stats *s);

#ifdef __cplusplus
}
#endif

#endif
