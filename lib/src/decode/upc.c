#include "decode/upc.h"

#include <assert.h>
#include <string.h>

#include "common/bytes.h"
#include "common/ct.h"
#include "native/backend.h"

void upc_plan_c(const bike_params *p, upc_plan *plan, const uint32_t *idx, uint32_t count) {
  (void)p;
  plan->idx = idx;
  plan->count = count;
  plan->steps = 0;
}

void upc_count_c(const bike_params *p, upc_counters *u, const upc_plan *plan, const uint64_t *s) {
  const uint32_t *const idx = plan->idx;
  const uint32_t count = plan->count;
  uint64_t rot[BIKE_MAX_QWORDS];
  const uint32_t n = p->r_qwords;
  for (uint32_t b = 0; b < UPC_SLICES; b++) {
    memset(u->slice[b], 0, n * sizeof(uint64_t));
  }
  for (uint32_t i = 0; i < count; i++) {
    const uint32_t live = upc_live_slices(i + 1);
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

void upc_at_least_c(const bike_params *p, uint64_t *mask, const upc_counters *u, uint32_t th) {
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

void upc_wipe(const bike_params *p, upc_counters *u) {
  const uint32_t rows = (p->r_qwords + 7) / 8;
  for (uint32_t b = 0; b < UPC_SLICES; b++) {
    bike_wipe(u->slice[b], rows * 8 * sizeof(uint64_t));
  }
  bike_wipe(u->scratch, UPC_SCRATCH_ROWS(rows) * 8 * sizeof(uint64_t));
}

/* 8 x 8 transposes: of bytes across the words x[0..7] (byte k of word b
 * moves to byte b of word k), then of bits inside a word (bit i of byte b
 * moves to bit b of byte i). Each stage swaps the off-diagonal halves of
 * 2 x 2 blocks: x[i] and x[i + d] exchange their blocks of 8 d bits. */
static inline void swap_blocks(uint64_t *lo, uint64_t *hi, uint32_t d, uint64_t mask) {
  const uint64_t t = ((*lo >> (8 * d)) ^ *hi) & mask;
  *hi ^= t;
  *lo ^= t << (8 * d);
}

static void transpose_bytes(uint64_t x[8]) {
  for (uint32_t i = 0; i < 8; i += 2) {
    swap_blocks(&x[i], &x[i + 1], 1, 0x00ff00ff00ff00ffULL);
  }
  for (uint32_t i = 0; i < 8; i += 4) {
    swap_blocks(&x[i], &x[i + 2], 2, 0x0000ffff0000ffffULL);
    swap_blocks(&x[i + 1], &x[i + 3], 2, 0x0000ffff0000ffffULL);
  }
  for (uint32_t i = 0; i < 4; i++) {
    swap_blocks(&x[i], &x[i + 4], 4, 0x00000000ffffffffULL);
  }
}

static uint64_t transpose_bits(uint64_t m) {
  uint64_t x = (m ^ (m >> 7)) & 0x00aa00aa00aa00aaULL;
  m ^= x ^ (x << 7);
  x = (m ^ (m >> 14)) & 0x0000cccc0000ccccULL;
  m ^= x ^ (x << 14);
  x = (m ^ (m >> 28)) & 0x00000000f0f0f0f0ULL;
  return m ^ x ^ (x << 28);
}

/* upc[0, r) = the counts of u as bytes, or plus them if add. */
static void counts_to_bytes(const bike_params *p, uint8_t *upc, const upc_counters *u, int add) {
  static_assert(UPC_SLICES == 8, "counts are returned as bytes");
  /* 64 positions at a time: the words of the 8 slices are an 8 x 64 bit
   * matrix; after both transposes byte i of word k is the count of
   * position 64 w + 8 k + i. */
  uint64_t x[UPC_SLICES];
  for (uint32_t w = 0; w < p->r_qwords; w++) {
    for (uint32_t b = 0; b < UPC_SLICES; b++) {
      x[b] = u->slice[b][w];
    }
    transpose_bytes(x);
    for (uint32_t k = 0; k < 8; k++) {
      x[k] = transpose_bits(x[k]);
    }
    for (uint32_t k = 0; k < 8; k++) {
      const uint32_t at = 64 * w + 8 * k;
      if (at + 8 <= p->r && !add) {
        store64_le(upc + at, x[k]);
      } else {
        for (uint32_t i = 0; i < 8 && at + i < p->r; i++) {
          const uint8_t c = (uint8_t)(x[k] >> (8 * i));
          upc[at + i] = add ? (uint8_t)(upc[at + i] + c) : c;
        }
      }
    }
  }
  bike_wipe(x, sizeof(x));
  /* MemorySanitizer's bit-level propagation loses some of the transpose. */
  ct_msan_taint(upc, p->r, u->slice[0], p->r_qwords * sizeof(uint64_t));
}

void bike_upc(const bike_params *p, uint8_t *upc, const uint32_t *idx, uint32_t count,
              const uint64_t *s) {
  upc_counters u;
  upc_plan plan;
  /* At most UPC_MAX_COUNT indices at a time; the parts' byte counts add up
   * modulo 256, as the counters would. */
  for (uint32_t done = 0; done == 0 || done < count; done += UPC_MAX_COUNT) {
    const uint32_t part = count - done < UPC_MAX_COUNT ? count - done : UPC_MAX_COUNT;
    upc_plan_init(p, &plan, idx + done, part);
    upc_count(p, &u, &plan, s);
    counts_to_bytes(p, upc, &u, done > 0);
  }
  bike_wipe(&plan, sizeof(plan));
  upc_wipe(p, &u);
}
