/* Little-endian loads and stores, independent of the host's byte order. */
#ifndef BIKE_COMMON_BYTES_H
#define BIKE_COMMON_BYTES_H

#include <stdint.h>

static inline uint32_t load32_le(const uint8_t *b) {
  return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}

static inline void store32_le(uint8_t *b, uint32_t v) {
  b[0] = (uint8_t)v;
  b[1] = (uint8_t)(v >> 8);
  b[2] = (uint8_t)(v >> 16);
  b[3] = (uint8_t)(v >> 24);
}

static inline uint64_t load64_le(const uint8_t *b) {
  return (uint64_t)load32_le(b) | ((uint64_t)load32_le(b + 4) << 32);
}

static inline void store64_le(uint8_t *b, uint64_t v) {
  store32_le(b, (uint32_t)v);
  store32_le(b + 4, (uint32_t)(v >> 32));
}

#endif
