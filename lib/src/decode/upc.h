/* Bit-sliced unsatisfied-parity-check counters, shared by the decoder and
 * bike_upc: bit b of the count of position j is bit j%64 of word j/64 of
 * slice b. Counts reach at most d = 137 < 2^8. */
#ifndef BIKE_DECODE_UPC_H
#define BIKE_DECODE_UPC_H

#include "bike/ops.h"

#define UPC_SLICES 8

typedef struct {
  uint64_t slice[UPC_SLICES][BIKE_MAX_QWORDS];
} upc_counters;

/* counts_j = number of i with bit (j + idx[i]) mod r of s set. */
void upc_count(const bike_params *p, upc_counters *u, const uint32_t *idx, uint32_t count,
               const uint64_t *s);

/* mask_j = (counts_j >= th) for th < 256, bits above r cleared. Constant
 * time in th. */
void upc_at_least(const bike_params *p, uint64_t *mask, const upc_counters *u, uint32_t th);

#endif
