/* bike_acc_mlkem: libmlkem's accelerator table (mlkem/accel.h) on an
 * ntt_acc device (hw/ip/acc_shell/doc/acc_shell.md, "ntt behind the
 * shell") opened with bike_acc. The placement is a set of kernels (NTT,
 * inverse NTT, base multiplication) that run on the device; the others stay
 * in libmlkem's software. Each hook brings its operands to [0, q), runs one
 * device operation per call (a vector of NTTs as one NTT of count k, a base
 * multiplication of k pairs as one MAC summing on the device, and with both
 * kernels placed a base multiplication and its inverse NTT as one MACINTT),
 * checks every result coefficient is below q and gives them in the range the
 * portable kernel's contract names. Any failure makes
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

/* ntt_acc's operations (rtl/ntt_stream.sv): OP = kind | (count - 1) << 4 */
#define BIKE_ACC_MLKEM_OP_NTT 1u
#define BIKE_ACC_MLKEM_OP_INTT 2u
#define BIKE_ACC_MLKEM_OP_MAC 3u /* count 1: BASEMUL */
#define BIKE_ACC_MLKEM_OP_MACINTT 4u
#define BIKE_ACC_MLKEM_OPS 4u
#define BIKE_ACC_MLKEM_MAX_COUNT 16u
#define BIKE_ACC_MLKEM_Q 3329u /* the device's PARAM */

/* The placement: which kernels run on the device (a bit per kernel). */
#define BIKE_ACC_MLKEM_NTT 1u
#define BIKE_ACC_MLKEM_INVNTT 2u
#define BIKE_ACC_MLKEM_BASEMUL 4u
#define BIKE_ACC_MLKEM_ALL 7u

/* Per device operation kind (index: kind - 1): runs, the sum of CYCLES and
 * the stream words moved (operands in, results out). */
typedef struct {
  uint64_t runs[BIKE_ACC_MLKEM_OPS];
  uint64_t cycles[BIKE_ACC_MLKEM_OPS];
  uint64_t words_in[BIKE_ACC_MLKEM_OPS];
  uint64_t words_out[BIKE_ACC_MLKEM_OPS];
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
