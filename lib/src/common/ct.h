/* Constant-time building blocks: masks instead of branches. A mask is
 * all-ones (true) or zero (false). */
#ifndef BIKE_COMMON_CT_H
#define BIKE_COMMON_CT_H

#include <stddef.h>
#include <stdint.h>

#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define BIKE_CT_MSAN 1
#endif
#endif

#if defined(BIKE_CT_MSAN)
#include <sanitizer/msan_interface.h>
#endif

/* MemorySanitizer does not follow data through every vector instruction
 * (the AVX2 gather and mask extraction of k-squaring lose it): a kernel that
 * uses such instructions ends with this, so that in the MSan check build its
 * output is secret wherever its input was (tests/test_ct.c's kernel canary
 * proves each back end keeps secrets secret). A no-op in other builds. */
static inline void ct_msan_taint(void *out, size_t out_n, const void *in, size_t in_n) {
#if defined(BIKE_CT_MSAN)
  if (__msan_test_shadow(in, in_n) >= 0) {
    __msan_poison(out, out_n);
  }
#else
  (void)out, (void)out_n, (void)in, (void)in_n;
#endif
}

/* An optimisation barrier so that the compiler cannot turn masks back into
 * branches. MemorySanitizer counts an asm operand as a use, so its build
 * (which checks the source's data flow, not the machine code) goes through
 * a volatile instead. */
static inline uint64_t ct_value_barrier(uint64_t x) {
#if defined(BIKE_CT_MSAN)
  volatile uint64_t v = x;
  return v;
#elif defined(__GNUC__)
  __asm__("" : "+r"(x));
  return x;
#else
  return x;
#endif
}

static inline uint64_t ct_mask_nonzero(uint64_t x) {
  x = ct_value_barrier(x);
  return (uint64_t)0 - ((x | ((uint64_t)0 - x)) >> 63);
}

static inline uint64_t ct_mask_eq(uint64_t a, uint64_t b) { return ~ct_mask_nonzero(a ^ b); }

/* a < b for a, b < 2^63. */
static inline uint64_t ct_mask_lt(uint64_t a, uint64_t b) {
  return (uint64_t)0 - ((ct_value_barrier(a) - b) >> 63);
}

static inline uint64_t ct_select(uint64_t mask, uint64_t a, uint64_t b) {
  return (a & mask) | (b & ~mask);
}

/* Population count without tables or compiler built-ins (libgcc's fallback
 * uses a table indexed by the data). */
static inline uint32_t ct_popcount64(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return (uint32_t)((x * 0x0101010101010101ULL) >> 56);
}

/* Zero a buffer in a way the compiler may not remove. */
void bike_wipe(void *p, size_t n);

/* All-ones if the byte strings are equal. */
uint64_t ct_bytes_eq_mask(const uint8_t *a, const uint8_t *b, size_t n);

/* dst = mask ? a : b, byte by byte. */
void ct_bytes_select(uint8_t *dst, uint64_t mask, const uint8_t *a, const uint8_t *b, size_t n);

/* The constant-time test marks secrets undefined for valgrind (or poisoned
 * for MemorySanitizer, which also sees AVX-512 code); values the
 * library may branch on by design (the validity of a secret key) are
 * declassified here. A no-op outside that test build. */
#if defined(BIKE_CT_TESTING) && defined(BIKE_CT_MSAN)
#define CT_DECLASSIFY(p, n) __msan_unpoison((p), (n))
#elif defined(BIKE_CT_TESTING)
#include <valgrind/memcheck.h>
#define CT_DECLASSIFY(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#else
#define CT_DECLASSIFY(p, n) ((void)(p), (void)(n))
#endif

#endif
