/* The dense polynomial of a support with AVX2: every index against every
 * word. Blocks of four vectors (16 words) of the result stay in registers
 * while all the indices pass over them, each index's word number and bit
 * broadcast from a table made once, so the work per index and vector is one
 * compare and, per polynomial, one AND and one XOR, with no loads or stores
 * of the result in between. The bit inside the word comes from a per-lane
 * variable shift, so no scalar shift count depends on an index either. The
 * two-polynomial form (H's e0 and e1) shares the compares. */
#include <immintrin.h>
#include <string.h>

#include "common/ct.h"
#include "native/backend.h"

/* Indices per pass: any count is taken in chunks of this many, the result
 * of one chunk being the start of the next. */
#define CHUNK (BIKE_MAX_T > BIKE_MAX_D ? BIKE_MAX_T : BIKE_MAX_D)

typedef struct {
  uint64_t word[CHUNK]; /* idx >> 6 */
  uint64_t bit1[CHUNK]; /* 1 << (idx & 63) where take is all-ones, else 0 */
  uint64_t bit0[CHUNK]; /* the same bit where take is zero */
} index_table;

static inline __m256i ld(const uint64_t *x) { return _mm256_loadu_si256((const __m256i *)(const void *)x); }
static inline void st(uint64_t *x, __m256i v) { _mm256_storeu_si256((__m256i *)(void *)x, v); }
static inline __m256i bc(const uint64_t *x) { return _mm256_set1_epi64x((long long)*x); }

/* The table of idx[0, count), count <= CHUNK. */
static void make_table(index_table *tb, const uint32_t *idx, const uint64_t *take, uint32_t count) {
  const __m256i one = _mm256_set1_epi64x(1), sixty3 = _mm256_set1_epi64x(63);
  uint32_t i = 0;
  for (; i + 4 <= count; i += 4) {
    const __m256i x = _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(const void *)(idx + i)));
    const __m256i bit = _mm256_sllv_epi64(one, _mm256_and_si256(x, sixty3));
    const __m256i m = take != NULL ? ld(take + i) : _mm256_set1_epi64x(-1);
    st(tb->word + i, _mm256_srli_epi64(x, 6));
    st(tb->bit1 + i, _mm256_and_si256(bit, m));
    st(tb->bit0 + i, _mm256_andnot_si256(m, bit));
  }
  for (; i < count; i++) {
    const __m256i x = _mm256_set1_epi64x((long long)idx[i]);
    const __m256i bit = _mm256_sllv_epi64(one, _mm256_and_si256(x, sixty3));
    const __m256i m = _mm256_set1_epi64x(take != NULL ? (long long)take[i] : -1);
    tb->word[i] = (uint64_t)idx[i] >> 6;
    tb->bit1[i] = (uint64_t)_mm256_extract_epi64(_mm256_and_si256(bit, m), 0);
    tb->bit0[i] = (uint64_t)_mm256_extract_epi64(_mm256_andnot_si256(m, bit), 0);
  }
}

/* Words [k, k + 4 nv) of the result(s), nv <= 4 vectors, of which the first
 * `words` exist: from zero (first chunk) or from what is stored, plus the
 * table's count indices. */
static inline __attribute__((always_inline)) void block(uint64_t *a0, uint64_t *a1,
                                                        const index_table *tb, uint32_t count,
                                                        uint32_t k, uint32_t nv, uint32_t words,
                                                        int first, const int two) {
  __m256i acc1[4], acc0[4], j[4];
  const __m256i lanes = _mm256_setr_epi64x(0, 1, 2, 3);
  __m256i tail = _mm256_setzero_si256(); /* store mask of the last vector */
  for (uint32_t q = 0; q < nv; q++) {
    j[q] = _mm256_add_epi64(lanes, _mm256_set1_epi64x((long long)(k + 4 * q)));
    acc1[q] = acc0[q] = _mm256_setzero_si256();
  }
  const uint32_t last = nv - 1;
  tail = _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)(words - 4 * last)), lanes);
  if (!first) {
    for (uint32_t q = 0; q < nv; q++) {
      const __m256i m = q == last ? tail : _mm256_set1_epi64x(-1);
      acc1[q] = _mm256_maskload_epi64((const long long *)(const void *)(a1 + k + 4 * q), m);
      if (two) {
        acc0[q] = _mm256_maskload_epi64((const long long *)(const void *)(a0 + k + 4 * q), m);
      }
    }
  }
  for (uint32_t i = 0; i < count; i++) {
    const __m256i w = bc(tb->word + i), b1 = bc(tb->bit1 + i);
    const __m256i b0 = two ? bc(tb->bit0 + i) : b1;
    for (uint32_t q = 0; q < nv; q++) {
      const __m256i hit = _mm256_cmpeq_epi64(j[q], w);
      acc1[q] = _mm256_xor_si256(acc1[q], _mm256_and_si256(hit, b1));
      if (two) {
        acc0[q] = _mm256_xor_si256(acc0[q], _mm256_and_si256(hit, b0));
      }
    }
  }
  for (uint32_t q = 0; q < nv; q++) {
    if (q < last) {
      st(a1 + k + 4 * q, acc1[q]);
      if (two) {
        st(a0 + k + 4 * q, acc0[q]);
      }
    } else {
      _mm256_maskstore_epi64((long long *)(void *)(a1 + k + 4 * q), tail, acc1[q]);
      if (two) {
        _mm256_maskstore_epi64((long long *)(void *)(a0 + k + 4 * q), tail, acc0[q]);
      }
    }
  }
}

/* a1 = the support of the indices with take all-ones (every index if take
 * is NULL); with two, also a0 = that of the others, in the same pass. */
static inline __attribute__((always_inline)) void dense(const bike_params *p, uint64_t *a0,
                                                        uint64_t *a1, const uint32_t *idx,
                                                        const uint64_t *take, uint32_t count,
                                                        const int two) {
  index_table tb;
  const uint32_t n = p->r_qwords;
  uint32_t start = 0;
  do {
    const uint32_t c = count - start < CHUNK ? count - start : CHUNK;
    make_table(&tb, idx + start, take != NULL ? take + start : NULL, c);
    uint32_t k = 0;
    for (; k + 16 <= n; k += 16) {
      block(a0, a1, &tb, c, k, 4, 16, start == 0, two);
    }
    if (k < n) { /* the last one to three vectors, the last one partial */
      const uint32_t words = n - k, nv = (words + 3) / 4;
      switch (nv) {
      case 1:
        block(a0, a1, &tb, c, k, 1, words, start == 0, two);
        break;
      case 2:
        block(a0, a1, &tb, c, k, 2, words, start == 0, two);
        break;
      case 3:
        block(a0, a1, &tb, c, k, 3, words, start == 0, two);
        break;
      default:
        block(a0, a1, &tb, c, k, 4, words, start == 0, two);
        break;
      }
    }
    bike_wipe(tb.word, c * sizeof(uint64_t));
    bike_wipe(tb.bit1, c * sizeof(uint64_t));
    bike_wipe(tb.bit0, c * sizeof(uint64_t));
    start += c;
  } while (start < count);
}

void bike_support_dense_avx2(const bike_params *p, uint64_t *a, const uint32_t *idx,
                             const uint64_t *take, uint32_t count) {
  dense(p, NULL, a, idx, take, count, 0);
}

void bike_support_dense2_avx2(const bike_params *p, uint64_t *a0, uint64_t *a1,
                              const uint32_t *idx, const uint64_t *take, uint32_t count) {
  dense(p, a0, a1, idx, take, count, 1);
}
