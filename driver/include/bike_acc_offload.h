/* bike_acc_offload: libbike's accelerator table (bike/accel.h) on devices
 * opened with bike_acc. A placement binds targets (the co-design explorer's
 * names for the KEM's operations: "keygen.inversion", "encaps.multiplication",
 * "decaps", ...) to devices; the table then runs each bound target on its
 * device, packing the operands into the device's words, and leaves every
 * other one to libbike's software. Results are checked (bits above r zero,
 * the device's PARAM the level's r) before libbike sees them; any failure
 * makes the KEM call return BIKE_ERR_ACCEL with its outputs wiped, and
 * bike_acc_offload_last_error() tells the driver's code.
 *
 * Use (docs/placement.md):
 *   bike_acc_offload *o;  bike_acc_offload_new(&o);
 *   bike_acc_offload_bind(o, BIKE_ACC_T_KEYGEN_INV, inv_dev);
 *   bike_set_accel(bike_acc_offload_table(o));
 *   ... bike_keypair(...) ...
 *   bike_set_accel(NULL); bike_acc_offload_free(o);
 */
#ifndef BIKE_ACC_OFFLOAD_H
#define BIKE_ACC_OFFLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "bike/accel.h"
#include "bike_acc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a placement can put on a device (names: bike_acc_target_name). */
typedef enum {
  BIKE_ACC_T_KEYGEN,         /* "keygen": the whole key generation */
  BIKE_ACC_T_ENCAPS,         /* "encaps" */
  BIKE_ACC_T_DECAPS,         /* "decaps" */
  BIKE_ACC_T_KEYGEN_PRNG,    /* "keygen.prng": sampling h0, h1 */
  BIKE_ACC_T_KEYGEN_INV,     /* "keygen.inversion": h0^-1 */
  BIKE_ACC_T_KEYGEN_MUL,     /* "keygen.multiplication": h1 h0^-1 */
  BIKE_ACC_T_ENCAPS_H,       /* "encaps.h_function" */
  BIKE_ACC_T_ENCAPS_MUL,     /* "encaps.multiplication": e1 h */
  BIKE_ACC_T_ENCAPS_L,       /* "encaps.l_function" */
  BIKE_ACC_T_ENCAPS_K,       /* "encaps.k_function" */
  BIKE_ACC_T_DECAPS_MUL,     /* "decaps.multiplication": the syndrome c0 h0 */
  BIKE_ACC_T_DECAPS_DECODE,  /* "decaps.decoding" */
  BIKE_ACC_T_DECAPS_L,       /* "decaps.l_function" */
  BIKE_ACC_T_DECAPS_H,       /* "decaps.h_function" */
  BIKE_ACC_T_DECAPS_K,       /* "decaps.k_function" */
  BIKE_ACC_N_TARGETS
} bike_acc_target;

const char *bike_acc_target_name(bike_acc_target t);
/* The target of a name; -1 if unknown. */
int bike_acc_target_from_name(const char *name);

/* ---- the placement description: one line per target ----
 *   # a comment
 *   <target> <device> [<preset>]
 * e.g. "keygen.inversion gf2x_inv_acc medium" (docs/placement.md). */
#define BIKE_ACC_PLACEMENT_MAX 16
typedef struct {
  bike_acc_target target;
  char device[48]; /* the shell device's name, e.g. gf2x_inv_acc */
  char preset[16]; /* its configuration, e.g. medium ("" if not given) */
} bike_acc_placement_entry;

typedef struct {
  size_t n;
  bike_acc_placement_entry entry[BIKE_ACC_PLACEMENT_MAX];
} bike_acc_placement;

/* Parses a placement's text. BIKE_ACC_ERR_ARG for an unknown target, a
 * target given twice, a malformed line or too many lines; *bad_line (if not
 * NULL) is then the line's number (1-based). */
int bike_acc_placement_parse(const char *text, bike_acc_placement *pl, unsigned *bad_line);

/* ---- the table ---- */
typedef struct bike_acc_offload bike_acc_offload;

int bike_acc_offload_new(bike_acc_offload **o);
void bike_acc_offload_free(bike_acc_offload *o); /* does not close the devices */

/* Runs target t on dev from now on (dev stays the caller's; one device may
 * serve several targets). BIKE_ACC_ERR_CORE if dev's core (ID.CORE) has no
 * operation for t. */
int bike_acc_offload_bind(bike_acc_offload *o, bike_acc_target t, bike_acc_dev *dev);

/* Whether a core (acc_shell_core_e) can run target t. */
int bike_acc_core_serves(uint32_t core, bike_acc_target t);

/* The table to give bike_set_accel (valid until bike_acc_offload_free). */
const bike_accel *bike_acc_offload_table(bike_acc_offload *o);

/* The driver's return code of the last failed device operation (0: none). */
int bike_acc_offload_last_error(const bike_acc_offload *o);

/* Figures per target since bike_acc_offload_new. */
typedef struct {
  uint64_t calls, failures;
  uint64_t accelerator_cycles; /* the devices' CYCLES, summed */
  uint64_t host_ns;            /* time inside bike_acc_run (CLOCK_MONOTONIC) */
} bike_acc_offload_stats;

void bike_acc_offload_get_stats(const bike_acc_offload *o, bike_acc_target t,
                                bike_acc_offload_stats *s);

/* Called around every device operation: before (phase 0) and after (phase
 * 1, with its return code and CYCLES), e.g. to read a platform's counters. */
typedef void (*bike_acc_offload_trace_fn)(void *ctx, bike_acc_target t, bike_acc_dev *dev,
                                          int phase, int rc, uint32_t cycles);
void bike_acc_offload_set_trace(bike_acc_offload *o, bike_acc_offload_trace_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif

#endif
