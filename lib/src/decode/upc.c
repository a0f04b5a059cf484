#include "decode/upc.h"

#include <assert.h>
#include <string.h>

#include "common/ct.h"
#include "native/backend.h"

void upc_count_c(const bike_params *p, upc_counters *u, const uint32_t *idx, uint32_t count,
                 const uint64_t *s) {
  uint64_t rot[BIKE_MAX_QWORDS];
  const uint32_t n = p->r_qwords;
  for (uint32_t b = 0; b < UPC_SLICES; b++) {
    memset(u->slice[b], 0, n * sizeof(uint64_t));
  }
  uint32_t live = 1; /* slices that can be non-zero after i + 1 additions */
  for (uint32_t i = 0; i < count; i++) {
    while (live < UPC_SLICES && ((i + 1) >> live) != 0) {
      live++;
    }
    bike_gf2x_rotr_c(p, rot, s, idx[i]);
    for (uint32_t w = 0; w < n; w++) {
      uint64_t carry = rot[w];
      for (uint32_t b = 0; b < live; b++) {
        uint64_t next = u->slice[b][w] & carry;
        u->slice[b][w] ^= carry;
        carry = next;
      }
    }
  }
  bike_wipe(rot, sizeof(rot));
}

void upc_at_least(const bike_params *p, uint64_t *mask, const upc_counters *u, uint32_t th) {
  uint64_t th_bit[UPC_SLICES];
  for (uint32_t b = 0; b < UPC_SLICES; b++) {
    th_bit[b] = (uint64_t)0 - ((th >> b) & 1);
  }
  for (uint32_t w = 0; w < p->r_qwords; w++) {
    /* The borrow out of count - th is set exactly where count < th. */
    uint64_t borrow = 0;
    for (uint32_t b = 0; b < UPC_SLICES; b++) {
      uint64_t x = u->slice[b][w];
      borrow = (~x & th_bit[b]) | (~x & borrow) | (th_bit[b] & borrow);
    }
    mask[w] = ~borrow;
  }
  mask[p->r_qwords - 1] &= ((uint64_t)1 << (p->r % 64)) - 1;
  bike_wipe(th_bit, sizeof(th_bit));
}

void bike_upc(const bike_params *p, uint8_t *upc, const uint32_t *idx, uint32_t count,
              const uint64_t *s) {
  static_assert(UPC_SLICES == 8, "counts are returned as bytes");
  upc_counters u;
  upc_count(p, &u, idx, count, s);
  for (uint32_t j = 0; j < p->r; j++) {
    uint8_t v = 0;
    for (uint32_t b = 0; b < UPC_SLICES; b++) {
      v |= (uint8_t)(((u.slice[b][j / 64] >> (j % 64)) & 1) << b);
    }
    upc[j] = v;
  }
  bike_wipe(&u, sizeof(u));
}
