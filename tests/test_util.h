/* A minimal test harness: CHECK records a failure with its location and
 * goes on; test_summary prints "N passed, N failed" and gives the exit code. */
#ifndef BIKE_TESTS_TEST_UTIL_H
#define BIKE_TESTS_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static unsigned test_passed, test_failed;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (cond) {                                                                                    \
      test_passed++;                                                                               \
    } else {                                                                                       \
      test_failed++;                                                                               \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);                    \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
    }                                                                                              \
  } while (0)

static inline int test_summary(void) {
  printf("%u passed, %u failed\n", test_passed, test_failed);
  return test_failed == 0 && test_passed > 0 ? 0 : 1;
}

/* Deterministic test randomness (xorshift64*), independent of libbike. */
static uint64_t test_rng_state = 0x9E3779B97F4A7C15ULL;

static inline uint64_t test_rand(void) {
  test_rng_state ^= test_rng_state >> 12;
  test_rng_state ^= test_rng_state << 25;
  test_rng_state ^= test_rng_state >> 27;
  return test_rng_state * 0x2545F4914F6CDD1DULL;
}

static inline void test_rand_bytes(uint8_t *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    b[i] = (uint8_t)(test_rand() >> 56);
  }
}

/* Whether every byte of b is zero (a wiped output). */
static inline int all_zero(const uint8_t *b, size_t n) {
  uint8_t acc = 0;
  for (size_t i = 0; i < n; i++) {
    acc |= b[i];
  }
  return acc == 0;
}

/* Index of the first differing byte, or -1. */
static inline long first_difference(const void *a, const void *b, size_t n) {
  const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)b;
  for (size_t i = 0; i < n; i++) {
    if (x[i] != y[i]) {
      return (long)i;
    }
  }
  return -1;
}

static inline int hex_to_bytes(const char *hex, uint8_t *out, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    if (sscanf(hex + 2 * i, "%2x", &v) != 1) {
      return -1;
    }
    out[i] = (uint8_t)v;
  }
  return 0;
}

#endif
