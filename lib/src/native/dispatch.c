/* Run-time dispatch: the library owns it. The first call that needs a kernel
 * detects the CPU and picks a back end (pthread_once); BIKE_BACKEND and
 * bike_set_backend() override the choice for tests and benchmarks. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "bike/bike.h"
#include "common/ct.h"
#include "native/backend.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

static const bike_backend portable = {
    "portable", 0, bike_gf2x_mul_c, bike_gf2x_sqr_k_c, bike_gf2x_rotr_c, upc_count_c,
    bike_support_dense_c, upc_at_least_c, bike_poly_weight_c, bike_fisher_yates_c, bike_keccak_xn_c,
    bike_support_dense2_twice, bike_gf2x_mul_c, bike_gf2x_sqr_k_c, bike_gf2x_mul_pair_twice,
    upc_plan_c,
};

#if defined(__x86_64__)
#define X86_BASE (BIKE_CPU_AVX | BIKE_CPU_AVX2 | BIKE_CPU_PCLMUL | BIKE_CPU_SSE41 | BIKE_CPU_BMI1)
static const bike_backend avx2 = {
    "avx2",         X86_BASE,           bike_gf2x_mul_pclmul,
    bike_gf2x_sqr_k_avx2, bike_gf2x_rotr_avx2, upc_count_avx2, bike_support_dense_avx2,
    upc_at_least_avx2, bike_poly_weight_c, bike_fisher_yates_avx2, bike_keccak_xn_avx2,
    bike_support_dense2_avx2, bike_gf2x_mul_sym_pclmul, bike_gf2x_sqr_k_sym_avx2,
    bike_gf2x_mul_pair_pclmul, upc_plan_avx2,
};
static const bike_backend avx2_vpclmul = {
    "avx2-vpclmul",       X86_BASE | BIKE_CPU_VPCLMUL, bike_gf2x_mul_vpclmul,
    bike_gf2x_sqr_k_avx2, bike_gf2x_rotr_avx2,         upc_count_avx2,
    bike_support_dense_avx2, upc_at_least_avx2, bike_poly_weight_c, bike_fisher_yates_avx2,
    bike_keccak_xn_avx2, bike_support_dense2_avx2, bike_gf2x_mul_sym_vpclmul,
    bike_gf2x_sqr_k_sym_avx2, bike_gf2x_mul_pair_vpclmul, upc_plan_avx2,
};
/* AVX-512 with VPCLMULQDQ on 512-bit vectors, VBMI, VBMI2, BITALG, VPOPCNTDQ and GFNI;
 * kernels not yet written for it are those of avx2-vpclmul. */
#define X86_AVX512                                                                 \
  (X86_BASE | BIKE_CPU_VPCLMUL | BIKE_CPU_AVX512F | BIKE_CPU_AVX512BW | BIKE_CPU_AVX512VL | \
   BIKE_CPU_AVX512VBMI2 | BIKE_CPU_AVX512VPOPCNTDQ | BIKE_CPU_GFNI | BIKE_CPU_AVX512VBMI |     \
   BIKE_CPU_AVX512BITALG)
static const bike_backend avx512 = {
    "avx512",             X86_AVX512,          bike_gf2x_mul_avx512,
    bike_gf2x_sqr_k_avx512, bike_gf2x_rotr_avx512, upc_count_avx512,
    bike_support_dense_avx512, upc_at_least_avx512, bike_poly_weight_avx512,
    bike_fisher_yates_avx512, bike_keccak_xn_avx512, bike_support_dense2_avx512,
    bike_gf2x_mul_sym_avx512, bike_gf2x_sqr_k_sym_avx512, bike_gf2x_mul_pair_twice,
    upc_plan_c,
};
#endif

/* Slowest first; the automatic choice is the last one the CPU runs. */
static const bike_backend *const backends[] = {
    &portable,
#if defined(__x86_64__)
    &avx2,
    &avx2_vpclmul,
    &avx512,
#endif
};
#define N_BACKENDS (sizeof(backends) / sizeof(backends[0]))

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static uint32_t cpu_features;
static const bike_backend *best;
static _Atomic(const bike_backend *) current;

static const struct {
  uint32_t bit;
  const char *name;
} feature_names[] = {
    {BIKE_CPU_SSE41, "sse4.1"},   {BIKE_CPU_PCLMUL, "pclmulqdq"},
    {BIKE_CPU_AVX, "avx"},        {BIKE_CPU_AVX2, "avx2"},
    {BIKE_CPU_BMI1, "bmi1"},      {BIKE_CPU_BMI2, "bmi2"},      {BIKE_CPU_VPCLMUL, "vpclmulqdq"},
    {BIKE_CPU_VAES, "vaes"},      {BIKE_CPU_GFNI, "gfni"},
    {BIKE_CPU_AVX512F, "avx512f"}, {BIKE_CPU_AVX512BW, "avx512bw"}, {BIKE_CPU_AVX512VL, "avx512vl"},
    {BIKE_CPU_AVX512VBMI2, "avx512vbmi2"}, {BIKE_CPU_AVX512VPOPCNTDQ, "avx512vpopcntdq"},
    {BIKE_CPU_AVX512VBMI, "avx512vbmi"}, {BIKE_CPU_AVX512BITALG, "avx512bitalg"},
};
static char feature_text[256];

static uint32_t detect_cpu(void) {
  uint32_t f = 0;
#if defined(__x86_64__)
  unsigned a, b, c, d;
  if (__get_cpuid_max(0, NULL) < 7) {
    return 0;
  }
  __cpuid_count(1, 0, a, b, c, d);
  const unsigned c1 = c;
  __cpuid_count(7, 0, a, b, c, d);
  const unsigned b7 = b, c7 = c;
  if (c1 & (1u << 19)) {
    f |= BIKE_CPU_SSE41;
  }
  if (c1 & (1u << 1)) {
    f |= BIKE_CPU_PCLMUL;
  }
  if (b7 & (1u << 3)) {
    f |= BIKE_CPU_BMI1;
  }
  if (b7 & (1u << 8)) {
    f |= BIKE_CPU_BMI2;
  }
  /* Vector state must be enabled by the OS (OSXSAVE, then XCR0). */
  uint64_t xcr0 = 0;
  if (c1 & (1u << 27)) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = ((uint64_t)hi << 32) | lo;
  }
  const int ymm = (xcr0 & 0x6) == 0x6, zmm = (xcr0 & 0xe6) == 0xe6;
  if (ymm && (c1 & (1u << 28))) {
    f |= BIKE_CPU_AVX;
    if (b7 & (1u << 5)) {
      f |= BIKE_CPU_AVX2;
    }
    if (c7 & (1u << 10)) {
      f |= BIKE_CPU_VPCLMUL;
    }
    if (c7 & (1u << 9)) {
      f |= BIKE_CPU_VAES;
    }
  }
  if (c7 & (1u << 8)) {
    f |= BIKE_CPU_GFNI;
  }
  if (zmm && (b7 & (1u << 16))) {
    f |= BIKE_CPU_AVX512F;
    if (b7 & (1u << 30)) {
      f |= BIKE_CPU_AVX512BW;
    }
    if (b7 & (1u << 31)) {
      f |= BIKE_CPU_AVX512VL;
    }
    if (c7 & (1u << 6)) {
      f |= BIKE_CPU_AVX512VBMI2;
    }
    if (c7 & (1u << 14)) {
      f |= BIKE_CPU_AVX512VPOPCNTDQ;
    }
    if (c7 & (1u << 1)) {
      f |= BIKE_CPU_AVX512VBMI;
    }
    if (c7 & (1u << 12)) {
      f |= BIKE_CPU_AVX512BITALG;
    }
  }
#endif
  return f;
}

static int runs_here(const bike_backend *b) { return (b->needs & ~cpu_features) == 0; }

static const bike_backend *find(const char *name) {
  for (size_t i = 0; i < N_BACKENDS; i++) {
    if (strcmp(backends[i]->name, name) == 0) {
      return backends[i];
    }
  }
  return NULL;
}

static void init(void) {
  cpu_features = detect_cpu();
  size_t len = 0;
  feature_text[0] = '\0';
  for (size_t i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]); i++) {
    if (cpu_features & feature_names[i].bit) {
      size_t n = strlen(feature_names[i].name);
      if (len + n + 2 < sizeof(feature_text)) {
        if (len > 0) {
          feature_text[len++] = ' ';
        }
        memcpy(feature_text + len, feature_names[i].name, n + 1);
        len += n;
      }
    }
  }
  best = &portable;
  for (size_t i = 0; i < N_BACKENDS; i++) {
    if (runs_here(backends[i])) {
      best = backends[i];
    }
  }
  const bike_backend *chosen = best;
  const char *env = getenv("BIKE_BACKEND");
  if (env != NULL) {
    const bike_backend *b = find(env);
    if (b != NULL && runs_here(b)) {
      chosen = b;
    }
  }
  atomic_store(&current, chosen);
}

const bike_backend *bike_backend_current(void) {
  pthread_once(&init_once, init);
  return atomic_load_explicit(&current, memory_order_acquire);
}

int bike_set_backend(const char *name) {
  pthread_once(&init_once, init);
  const bike_backend *b = best;
  if (name != NULL && strcmp(name, "auto") != 0) {
    b = find(name);
    if (b == NULL || !runs_here(b)) {
      return BIKE_ERR_BACKEND;
    }
  }
  atomic_store_explicit(&current, b, memory_order_release);
  return BIKE_OK;
}

const char *bike_backend_name(void) { return bike_backend_current()->name; }

const char *bike_backend_at(size_t i) { return i < N_BACKENDS ? backends[i]->name : NULL; }

int bike_backend_supported(const char *name) {
  pthread_once(&init_once, init);
  const bike_backend *b = name != NULL ? find(name) : NULL;
  return b != NULL && runs_here(b);
}

const char *bike_cpu_features(void) {
  pthread_once(&init_once, init);
  return feature_text;
}

/* The public operations go through the table. */
size_t bike_gf2x_mul_scratch(const bike_params *p, uint64_t *c, const uint64_t *a,
                             const uint64_t *b, uint64_t *scratch) {
  return bike_backend_current()->mul(p, c, a, b, scratch);
}

size_t bike_gf2x_sqr_k_scratch(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t k,
                               uint64_t *scratch) {
  return bike_backend_current()->sqr_k(p, c, a, k, scratch);
}

size_t bike_gf2x_mul_sym_scratch(const bike_params *p, uint64_t *c, const uint64_t *a,
                                 const uint64_t *b, uint64_t *scratch) {
  return bike_backend_current()->mul_sym(p, c, a, b, scratch);
}

size_t bike_gf2x_sqr_k_sym_scratch(const bike_params *p, uint64_t *c, const uint64_t *a,
                                   uint64_t k, uint64_t *scratch) {
  return bike_backend_current()->sqr_k_sym(p, c, a, k, scratch);
}

size_t bike_gf2x_mul_pair_scratch(const bike_params *p, uint64_t *c, const uint64_t *a0,
                                  const uint64_t *b0, const uint64_t *a1, const uint64_t *b1,
                                  uint64_t *scratch) {
  return bike_backend_current()->mul_pair(p, c, a0, b0, a1, b1, scratch);
}

size_t bike_gf2x_mul_pair_twice(const bike_params *p, uint64_t *c, const uint64_t *a0,
                                const uint64_t *b0, const uint64_t *a1, const uint64_t *b1,
                                uint64_t *scratch) {
  const bike_backend *b = bike_backend_current();
  uint64_t *second = scratch + bike_mul_scratch_words(p);
  b->mul(p, c, a0, b0, scratch);
  b->mul(p, second, a1, b1, scratch);
  for (uint32_t i = 0; i < p->r_qwords; i++) {
    c[i] ^= second[i];
  }
  return bike_mul_pair_scratch_words(p);
}

/* The single calls take the top of a buffer sized for every level, next to
 * the caller's frame, whose stack lines are the ones in cache. */
void bike_gf2x_mul(const bike_params *p, uint64_t *c, const uint64_t *a, const uint64_t *b) {
  uint64_t buf[BIKE_SCRATCH_MAX];
  uint64_t *scratch = buf + BIKE_SCRATCH_MAX - bike_mul_scratch_words(p);
  bike_wipe(scratch, bike_gf2x_mul_scratch(p, c, a, b, scratch) * sizeof(uint64_t));
}

void bike_gf2x_sqr_k(const bike_params *p, uint64_t *c, const uint64_t *a, uint64_t k) {
  uint64_t buf[BIKE_SCRATCH_MAX];
  uint64_t *scratch = buf + BIKE_SCRATCH_MAX - bike_sqr_k_scratch_words(p);
  bike_wipe(scratch, bike_gf2x_sqr_k_scratch(p, c, a, k, scratch) * sizeof(uint64_t));
}

void bike_gf2x_rotr(const bike_params *p, uint64_t *c, const uint64_t *a, uint32_t k) {
  bike_backend_current()->rotr(p, c, a, k);
}

void bike_support_dense(const bike_params *p, uint64_t *a, const uint32_t *idx,
                        const uint64_t *take, uint32_t count) {
  bike_backend_current()->support_dense(p, a, idx, take, count);
}

void upc_plan_init(const bike_params *p, upc_plan *plan, const uint32_t *idx, uint32_t count) {
  bike_backend_current()->upc_plan(p, plan, idx, count);
}

void upc_count(const bike_params *p, upc_counters *u, const upc_plan *plan, const uint64_t *s) {
  bike_backend_current()->upc_count(p, u, plan, s);
}

void upc_at_least(const bike_params *p, uint64_t *mask, const upc_counters *u, uint32_t th) {
  bike_backend_current()->upc_at_least(p, mask, u, th);
}

uint32_t bike_poly_weight(const bike_params *p, const uint64_t *a) {
  return bike_backend_current()->weight(p, a);
}
