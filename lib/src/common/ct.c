#include "ct.h"

#include <string.h>

void bike_wipe(void *p, size_t n) {
#if defined(__GNUC__)
  /* memset at full width, then a barrier that claims to read the memory so
   * the stores cannot be dropped as dead. */
  memset(p, 0, n);
  __asm__ __volatile__("" : : "r"(p) : "memory");
#else
  volatile uint8_t *v = (volatile uint8_t *)p;
  while (n--) {
    *v++ = 0;
  }
#endif
}

uint64_t ct_bytes_eq_mask(const uint8_t *a, const uint8_t *b, size_t n) {
  uint64_t diff = 0;
  for (size_t i = 0; i < n; i++) {
    diff |= (uint64_t)(a[i] ^ b[i]);
  }
  return ~ct_mask_nonzero(diff);
}

void ct_bytes_select(uint8_t *dst, uint64_t mask, const uint8_t *a, const uint8_t *b, size_t n) {
  uint8_t m = (uint8_t)mask;
  for (size_t i = 0; i < n; i++) {
    dst[i] = (uint8_t)((a[i] & m) | (b[i] & (uint8_t)~m));
  }
}
