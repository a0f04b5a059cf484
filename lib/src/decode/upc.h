/* Bit-sliced unsatisfied-parity-check counters, shared by the decoder and
 * bike_upc: bit b of the count of position j is bit j%64 of word j/64 of
 * slice b. Counts reach at most d = 137 < 2^8. Slices are padded to whole,
 * aligned 512-bit rows for the vector kernels; the counts of positions r
 * and above (the top of word r_qwords - 1, the words after it) are
 * unspecified. */
#ifndef BIKE_DECODE_UPC_H
#define BIKE_DECODE_UPC_H

#include "bike/ops.h"

#define UPC_SLICES 8
/* The most indices a count may have (the counts are bytes). */
#define UPC_MAX_COUNT 255
#define UPC_ROWS ((BIKE_MAX_QWORDS + 7) / 8)
/* Work space for the kernels, in 512-bit rows for a level of R rows: the
 * AVX-512 kernel's 24 rotated copies of the syndrome and the doubled
 * syndrome (R + 96 rows); the AVX2 kernel's 17 copies of R + 4 rows. */
#define UPC_SCRATCH_ROWS(R) (25 * (R) + 96)

/* The slices that can be non-zero once n indices are counted: n's bit
 * length, at most UPC_SLICES. n is public (a count of key indices). */
static inline uint32_t upc_live_slices(uint32_t n) {
  uint32_t live = 0;
  while (live < UPC_SLICES && (n >> live) != 0) {
    live++;
  }
  return live;
}

typedef struct {
  _Alignas(64) uint64_t slice[UPC_SLICES][UPC_ROWS * 8];
  /* Secret after a count: kept here rather than on the kernel's stack so
   * that it is wiped once, by upc_wipe, not on every call. */
  _Alignas(64) uint64_t scratch[UPC_SCRATCH_ROWS(UPC_ROWS) * 8];
} upc_counters;

/* Steps of a plan: the indices and the gaps the AVX2 chain crosses
 * (upc_avx2.c: at most (r - 1) / 1023 < 64). */
#define UPC_PLAN_STEPS (UPC_MAX_COUNT + 64)

/* The indices of a count, prepared once for every count that uses them
 * (a decoding counts with each half of the key seven times at L1): a back
 * end may plan its work there, at a cost it then saves on every count.
 * idx must outlive the plan, and the back end that made it counts with
 * it (bike_set_backend is not called while the library runs). Secret:
 * wipe it after use. */
typedef struct {
  const uint32_t *idx;
  uint32_t count; /* at most UPC_MAX_COUNT */
  uint32_t steps; /* the AVX2 kernel's chain of rotations; 0 if unused */
  uint16_t shift[UPC_PLAN_STEPS];
  uint64_t take[UPC_PLAN_STEPS];
} upc_plan;

void upc_plan_init(const bike_params *p, upc_plan *plan, const uint32_t *idx, uint32_t count);

/* counts_j = number of i with bit (j + idx[i]) mod r of s set, over the
 * plan's indices, each below r (the AVX2 chain walks from 0 to them in
 * its d + (r - 1) / 1023 steps). */
void upc_count(const bike_params *p, upc_counters *u, const upc_plan *plan, const uint64_t *s);

/* Clear the counters and the work space that the level uses. */
void upc_wipe(const bike_params *p, upc_counters *u);

/* mask_j = (counts_j >= th) for th < 256, bits above r cleared. Constant
 * time in th. */
void upc_at_least(const bike_params *p, uint64_t *mask, const upc_counters *u, uint32_t th);

#endif
