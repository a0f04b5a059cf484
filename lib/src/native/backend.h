/* The kernel contract between libbike's frontend and its native back ends.
 *
 * A back end is a table of kernels. Every kernel has exactly the semantics
 * of the portable kernel of the same name (the *_c functions below, which
 * are the reference): same inputs, byte-identical outputs, bits at and above
 * r zero on output, and constant time in every secret input (no branch,
 * address or shift count that depends on a polynomial, index or count).
 * Kernels allocate nothing on the heap. Only the level parameters may steer
 * control flow.
 *
 * Native kernels live in native/<arch>/ and are named by the instruction
 * set they need, which is also their file-name suffix (mul_pclmul.c,
 * rotate_avx2.c, ...): the build gives each file the flags of its suffix and
 * nothing else, so a native kernel is only ever called through a table that
 * the dispatcher chose after checking the CPU (native/dispatch.c).
 */
#ifndef BIKE_NATIVE_BACKEND_H
#define BIKE_NATIVE_BACKEND_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bike/ops.h"
#include "decode/upc.h"

/* Scratch of the mul and sqr_k kernels: the caller gives it and wipes it,
 * once after a series of calls (the inversion's chain, the decoder's
 * syndromes) rather than each kernel wiping its own after every call. A
 * kernel assumes nothing of the scratch's contents, does not wipe it, and
 * returns how many words from the start it may have written: at most
 * bike_mul_scratch_words(p) or bike_sqr_k_scratch_words(p) (test_backends
 * checks both). */
#define BIKE_SCRATCH_MAX (12 * BIKE_MAX_QWORDS + 512)
static inline size_t bike_mul_scratch_words(const bike_params *p) {
  return 10 * (size_t)p->r_qwords + 512;
}
static inline size_t bike_sqr_k_scratch_words(const bike_params *p) {
  return 12 * (size_t)p->r_qwords + 512;
}
/* mul_pair's: mul's, then room for a second product (the generic kernel). */
static inline size_t bike_mul_pair_scratch_words(const bike_params *p) {
  return bike_mul_scratch_words(p) + p->r_qwords;
}

/* 2^e mod r, for the k-squaring kernels: a^(2^k) moves bit i of a to bit
 * i 2^k mod r. The exponent is public. */
static inline uint32_t bike_pow2_mod(uint64_t e, uint32_t r) {
  uint64_t result = 1, base = 2 % r;
  while (e > 0) {
    if (e & 1) {
      result = (result * base) % r;
    }
    base = (base * base) % r;
    e >>= 1;
  }
  return (uint32_t)result;
}

/* buf[0, len) = a || a as a 2r-bit string, zero above it (len > 2 n
 * words): rotation by k is its r-bit window at bit k. r is odd, so
 * r % 64 > 0. */
static inline void bike_doubled(const bike_params *p, uint64_t *buf, const uint64_t *a, size_t len) {
  const uint32_t n = p->r_qwords, ws = p->r / 64, bs = p->r % 64;
  memcpy(buf, a, n * sizeof(uint64_t));
  memset(buf + n, 0, (len - n) * sizeof(uint64_t));
  for (uint32_t i = 0; i < n; i++) {
    buf[ws + i] |= a[i] << bs;
    buf[ws + i + 1] |= a[i] >> (64 - bs);
  }
}

/* 2^-k mod the prime r (2 has order dividing r - 1): the kernels that read
 * output bit j from input bit j 2^-k mod r. */
static inline uint32_t bike_pow2_inv_mod(uint64_t k, uint32_t r) {
  return bike_pow2_mod((r - 1) - (uint32_t)(k % (r - 1)), r);
}

typedef size_t (*bike_mul_fn)(const bike_params *p, uint64_t *c, const uint64_t *a,
                              const uint64_t *b, uint64_t *scratch);
/* c = a0 b0 + a1 b1 in R; c must not overlap the inputs. */
typedef size_t (*bike_mul_pair_fn)(const bike_params *p, uint64_t *c, const uint64_t *a0,
                                   const uint64_t *b0, const uint64_t *a1, const uint64_t *b1,
                                   uint64_t *scratch);
typedef size_t (*bike_sqr_k_fn)(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t k,
                                uint64_t *scratch);
typedef void (*bike_rotr_fn)(const bike_params *p, uint64_t *c, const uint64_t *a, uint32_t k);
/* a = sum (XOR) of x^idx[i] over the i with take[i] all-ones (every i if
 * take is NULL); take[i] is all-ones or zero. */
typedef void (*bike_support_dense_fn)(const bike_params *p, uint64_t *a, const uint32_t *idx,
                                      const uint64_t *take, uint32_t count);
/* Fills the plan for idx[0, count), count <= UPC_MAX_COUNT. */
typedef void (*bike_upc_plan_fn)(const bike_params *p, upc_plan *plan, const uint32_t *idx,
                                 uint32_t count);
typedef void (*bike_upc_count_fn)(const bike_params *p, upc_counters *u, const upc_plan *plan,
                                  const uint64_t *s);
typedef void (*bike_upc_at_least_fn)(const bike_params *p, uint64_t *mask, const upc_counters *u,
                                     uint32_t th);
typedef uint32_t (*bike_weight_fn)(const bike_params *p, const uint64_t *a);
/* The constant-time Fisher-Yates draw of bike_sample_fisher_yates from its
 * 4 count stream bytes, already squeezed. */
typedef void (*bike_fisher_yates_fn)(uint32_t *pos, uint32_t count, uint32_t bound,
                                     const uint8_t *words);
/* Keccak-f[1600] on n <= 4 independent states (sponges run in lockstep). */
typedef void (*bike_keccak_xn_fn)(uint64_t (*s)[25], unsigned n);
/* The support kernel for two polynomials at once: a1 from the i with
 * take[i] all-ones, a0 from the others (take must not be NULL). */
typedef void (*bike_support_dense2_fn)(const bike_params *p, uint64_t *a0, uint64_t *a1,
                                       const uint32_t *idx, const uint64_t *take, uint32_t count);

typedef struct {
  const char *name;     /* as accepted by BIKE_BACKEND and bike_set_backend */
  uint32_t needs;       /* BIKE_CPU_* features the kernels use */
  bike_mul_fn mul;      /* bike_gf2x_mul */
  bike_sqr_k_fn sqr_k;  /* bike_gf2x_sqr_k */
  bike_rotr_fn rotr;    /* bike_gf2x_rotr */
  bike_upc_count_fn upc_count;
  bike_support_dense_fn support_dense; /* H's error vectors, the decoder's h0, h1 */
  bike_upc_at_least_fn upc_at_least;
  bike_weight_fn weight; /* bike_poly_weight, for the decoder's syndromes */
  bike_fisher_yates_fn fisher_yates;
  bike_keccak_xn_fn keccak_xn;
  bike_support_dense2_fn support_dense2; /* H's e0 and e1 */
  /* mul restricted to sigma-invariant operands of odd weight (a_i = a_(r-i),
   * the inversion's chain in gf2x/inv.c), which may then take shortcuts;
   * mul itself is a valid mul_sym. */
  bike_mul_fn mul_sym;
  bike_sqr_k_fn sqr_k_sym; /* sqr_k for a sigma-invariant input, likewise */
  bike_mul_pair_fn mul_pair; /* the decoder's syndromes h0 e0 + h1 e1 */
  bike_upc_plan_fn upc_plan; /* for upc_count */
} bike_backend;

/* CPU features, as seen through CPUID and XGETBV (OS support included). */
#define BIKE_CPU_SSE41 (1u << 0)
#define BIKE_CPU_PCLMUL (1u << 1)
#define BIKE_CPU_AVX (1u << 2)
#define BIKE_CPU_AVX2 (1u << 3)
#define BIKE_CPU_BMI2 (1u << 4)
#define BIKE_CPU_VPCLMUL (1u << 5)
#define BIKE_CPU_VAES (1u << 6)
#define BIKE_CPU_GFNI (1u << 7)
#define BIKE_CPU_AVX512F (1u << 8)
#define BIKE_CPU_AVX512BW (1u << 9)
#define BIKE_CPU_AVX512VBMI2 (1u << 10)
#define BIKE_CPU_AVX512VPOPCNTDQ (1u << 11)
#define BIKE_CPU_AVX512VL (1u << 12)
#define BIKE_CPU_AVX512VBMI (1u << 13)
#define BIKE_CPU_AVX512BITALG (1u << 14)
#define BIKE_CPU_BMI1 (1u << 15)

/* The back end in use (initialised on first call, thread-safely). */
const bike_backend *bike_backend_current(void);

/* bike_gf2x_mul and bike_gf2x_sqr_k with the caller's scratch; they return
 * the words of it they may have written. */
size_t bike_gf2x_mul_scratch(const bike_params *p, uint64_t *c, const uint64_t *a,
                             const uint64_t *b, uint64_t *scratch);
size_t bike_gf2x_sqr_k_scratch(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t k,
                               uint64_t *scratch);
size_t bike_gf2x_mul_sym_scratch(const bike_params *p, uint64_t *c, const uint64_t *a,
                                 const uint64_t *b, uint64_t *scratch);
size_t bike_gf2x_sqr_k_sym_scratch(const bike_params *p, uint64_t *c, const uint64_t *a,
                                   uint64_t k, uint64_t *scratch);
size_t bike_gf2x_mul_pair_scratch(const bike_params *p, uint64_t *c, const uint64_t *a0,
                                  const uint64_t *b0, const uint64_t *a1, const uint64_t *b1,
                                  uint64_t *scratch);

/* Portable reference kernels. */
size_t bike_gf2x_mul_c(const bike_params *p, uint64_t *c, const uint64_t *a, const uint64_t *b,
                       uint64_t *scratch);
size_t bike_gf2x_sqr_k_c(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t k,
                         uint64_t *scratch);
void bike_gf2x_rotr_c(const bike_params *p, uint64_t *c, const uint64_t *a, uint32_t k);
/* The plan of the kernels that use none: the indices. */
void upc_plan_c(const bike_params *p, upc_plan *plan, const uint32_t *idx, uint32_t count);
void upc_count_c(const bike_params *p, upc_counters *u, const upc_plan *plan, const uint64_t *s);
void upc_at_least_c(const bike_params *p, uint64_t *mask, const upc_counters *u, uint32_t th);
void bike_support_dense_c(const bike_params *p, uint64_t *a, const uint32_t *idx,
                          const uint64_t *take, uint32_t count);
uint32_t bike_poly_weight_c(const bike_params *p, const uint64_t *a);
void bike_fisher_yates_c(uint32_t *pos, uint32_t count, uint32_t bound, const uint8_t *words);
void bike_keccak_xn_c(uint64_t (*s)[25], unsigned n);
/* Two calls of the table's mul and an addition (the second product in
 * scratch after mul's words). */
size_t bike_gf2x_mul_pair_twice(const bike_params *p, uint64_t *c, const uint64_t *a0,
                                const uint64_t *b0, const uint64_t *a1, const uint64_t *b1,
                                uint64_t *scratch);
/* Two calls of the table's support_dense. */
void bike_support_dense2_twice(const bike_params *p, uint64_t *a0, uint64_t *a1,
                               const uint32_t *idx, const uint64_t *take, uint32_t count);
void bike_keccak_f1600_c(uint64_t a[25]);
/* Through the table. */
void bike_support_dense(const bike_params *p, uint64_t *a, const uint32_t *idx,
                        const uint64_t *take, uint32_t count);

#if defined(__x86_64__)
/* x86-64 kernels, in native/x86_64/. */
size_t bike_gf2x_mul_pclmul(const bike_params *p, uint64_t *c, const uint64_t *a,
                            const uint64_t *b, uint64_t *scratch);
size_t bike_gf2x_mul_vpclmul(const bike_params *p, uint64_t *c, const uint64_t *a,
                             const uint64_t *b, uint64_t *scratch);
size_t bike_gf2x_mul_avx512(const bike_params *p, uint64_t *c, const uint64_t *a,
                            const uint64_t *b, uint64_t *scratch);
/* prod[0, 2 n + 16) = a * b (n words each, not reduced) for the n that
 * bike_gf2x_mul_plain_avx512_takes(): 32 u + e with u >= 1, e <= 2 (the
 * 32 x 32-word leaves and the one or two words beyond them). Returns the
 * words of tmp used. */
size_t bike_gf2x_mul_plain_avx512(uint64_t *prod, const uint64_t *a, const uint64_t *b, size_t n,
                                  uint64_t *tmp);
static inline int bike_gf2x_mul_plain_avx512_takes(size_t n) { return n >= 32 && n % 32 <= 2; }
size_t bike_gf2x_mul_sym_avx512(const bike_params *p, uint64_t *c, const uint64_t *a,
                                const uint64_t *b, uint64_t *scratch);
size_t bike_gf2x_mul_avx512_padded(const bike_params *p, uint64_t *c, const uint64_t *a,
                                   const uint64_t *b, uint64_t *scratch);
size_t bike_gf2x_sqr_k_avx512(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t k,
                              uint64_t *scratch);
size_t bike_gf2x_sqr_k_sym_avx512(const bike_params *p, uint64_t *c, const uint64_t *a,
                                  uint64_t k, uint64_t *scratch);
void bike_fisher_yates_avx512(uint32_t *pos, uint32_t count, uint32_t bound, const uint8_t *words);
void bike_keccak_xn_avx512(uint64_t (*s)[25], unsigned n);
void bike_support_dense2_avx512(const bike_params *p, uint64_t *a0, uint64_t *a1,
                                const uint32_t *idx, const uint64_t *take, uint32_t count);
void bike_support_dense_avx512(const bike_params *p, uint64_t *a, const uint32_t *idx,
                               const uint64_t *take, uint32_t count);
size_t bike_gf2x_sqr_k_avx2(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t k,
                            uint64_t *scratch);
size_t bike_gf2x_sqr_k_sym_avx2(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t k,
                                uint64_t *scratch);
size_t bike_gf2x_mul_pair_pclmul(const bike_params *p, uint64_t *c, const uint64_t *a0,
                                 const uint64_t *b0, const uint64_t *a1, const uint64_t *b1,
                                 uint64_t *scratch);
size_t bike_gf2x_mul_pair_vpclmul(const bike_params *p, uint64_t *c, const uint64_t *a0,
                                  const uint64_t *b0, const uint64_t *a1, const uint64_t *b1,
                                  uint64_t *scratch);
size_t bike_gf2x_mul_sym_pclmul(const bike_params *p, uint64_t *c, const uint64_t *a,
                                const uint64_t *b, uint64_t *scratch);
size_t bike_gf2x_mul_sym_vpclmul(const bike_params *p, uint64_t *c, const uint64_t *a,
                                 const uint64_t *b, uint64_t *scratch);
void bike_gf2x_rotr_avx2(const bike_params *p, uint64_t *c, const uint64_t *a, uint32_t k);
/* out[0, n4) = words 0 .. n4 - 1 of in rotated by shift < 1024 bits (word
 * j of out = bits 64 j + shift .. of in), reading in up to word n4 + 19:
 * the AVX2 counters' short rotations (n4 a multiple of 4). */
void bike_rotr_short_avx2(uint64_t *out, const uint64_t *in, uint32_t n4, uint32_t shift);
void upc_plan_avx2(const bike_params *p, upc_plan *plan, const uint32_t *idx, uint32_t count);
void upc_count_avx2(const bike_params *p, upc_counters *u, const upc_plan *plan,
                    const uint64_t *s);
void upc_at_least_avx2(const bike_params *p, uint64_t *mask, const upc_counters *u,
                       uint32_t th);
void bike_gf2x_rotr_avx512(const bike_params *p, uint64_t *c, const uint64_t *a, uint32_t k);
void upc_count_avx512(const bike_params *p, upc_counters *u, const upc_plan *plan,
                      const uint64_t *s);
void upc_at_least_avx512(const bike_params *p, uint64_t *mask, const upc_counters *u,
                         uint32_t th);
uint32_t bike_poly_weight_avx512(const bike_params *p, const uint64_t *a);
void bike_keccak_xn_avx2(uint64_t (*s)[25], unsigned n);
void bike_keccak_f1600_bmi(uint64_t a[25]);
void bike_fisher_yates_avx2(uint32_t *pos, uint32_t count, uint32_t bound, const uint8_t *words);
void bike_support_dense2_avx2(const bike_params *p, uint64_t *a0, uint64_t *a1,
                              const uint32_t *idx, const uint64_t *take, uint32_t count);
void bike_support_dense_avx2(const bike_params *p, uint64_t *a, const uint32_t *idx,
                             const uint64_t *take, uint32_t count);
#endif

#endif
