/* The unsatisfied-parity-check counters and their threshold comparison
 * with AVX2.
 *
 * The counts add the syndrome rotated by each position of the key half.
 * Rather than rotating the syndrome by each secret position from scratch
 * (a barrel shifter with a stage per bit of the position), the positions
 * are visited in increasing order and each rotated copy is made from the
 * previous one: a chain of short rotations, each by less than REACH words
 * (one streaming pass: a lane permutation, three blends and a funnel
 * shift per vector). A gap of REACH words or more between two positions is
 * crossed by steps of STEP_MAX bits whose copies are not counted (take
 * mask zero), so the chain has a public length: count + (r - 1) / STEP_MAX
 * steps. The plan (each step's shift and take mask) is computed in
 * constant time: a step finds the next position as the least key above the
 * last one taken, over all keys. Every shift, permutation index and mask is
 * vector data: no branch or address depends on a position.
 *
 * The copies go to the counters GROUP at a time: a carry-save tree of full
 * adders compresses the bits of a position to a 5-bit sum (v4 .. v0), which
 * enters slices 0 to 4 with full adders; one carry then ripples through the
 * rest. The first group's sum is the count so far: stored, not added. */
#include <assert.h>
#include <immintrin.h>
#include <string.h>

#include "common/ct.h"
#include "native/backend.h"

#define REACH 16                      /* words: a step rotates by less */
#define STEP_MAX (64 * REACH - 1)     /* bits: the largest step */
#define EXT 20 /* words after round4(n) that bike_rotr_short_avx2 reads */
#define GROUP 16                      /* copies per pass over the counters */
#define SINGLES_MAX 4                 /* copies left over that go in one by one */
#define KEYS_MAX ((UPC_MAX_COUNT + 7) / 8)

static uint32_t round4(uint32_t x) { return (x + 3u) & ~3u; }

static inline __m256i ld(const uint64_t *x) { return _mm256_loadu_si256((const __m256i *)(const void *)x); }
static inline void st(uint64_t *x, __m256i v) { _mm256_storeu_si256((__m256i *)(void *)x, v); }

static_assert(UPC_MAX_COUNT + 64 * BIKE_MAX_QWORDS / STEP_MAX <= UPC_PLAN_STEPS, "plan size");
static_assert(UPC_MAX_COUNT < 256, "keys hold the index in 8 bits");

/* The plan: shift[t] < REACH words and take[t] (all-ones or zero) for
 * t < steps, such that after steps 0..t the chain has rotated by the sum
 * of the shifts and every position is reached by exactly one taken step.
 * Positions are keyed (position << 8 | i), unique even for repeated
 * positions; a step takes the least key above the last one taken if it is
 * less than REACH words ahead, else moves STEP_MAX bits towards it, or
 * stands still once every key is taken. */
void upc_plan_avx2(const bike_params *p, upc_plan *plan, const uint32_t *idx, uint32_t count) {
  __m256i key[KEYS_MAX];
  assert(count <= UPC_MAX_COUNT);
  const uint32_t nk = (count + 7) / 8;
  for (uint32_t v = 0; v < nk; v++) {
    uint32_t k[8];
    for (uint32_t l = 0; l < 8; l++) {
      const uint32_t i = 8 * v + l;
      k[l] = i < count ? idx[i] << 8 | i : UINT32_MAX; /* padding: -1, never above */
    }
    key[v] = _mm256_loadu_si256((const __m256i *)(const void *)k);
    bike_wipe(k, sizeof(k));
  }
  const uint32_t steps = count + (p->r - 1) / STEP_MAX;
  const __m256i none = _mm256_set1_epi32(INT32_MAX);
  uint32_t pos = 0, last = UINT32_MAX; /* -1: below every key */
  for (uint32_t t = 0; t < steps; t++) {
    const __m256i above = _mm256_set1_epi32((int)last);
    __m256i best = none;
    for (uint32_t v = 0; v < nk; v++) {
      const __m256i gt = _mm256_cmpgt_epi32(key[v], above);
      best = _mm256_min_epi32(best, _mm256_blendv_epi8(none, key[v], gt));
    }
    best = _mm256_min_epi32(best, _mm256_permute2x128_si256(best, best, 1));
    best = _mm256_min_epi32(best, _mm256_shuffle_epi32(best, 0x4e));
    best = _mm256_min_epi32(best, _mm256_shuffle_epi32(best, 0xb1));
    const uint32_t next = (uint32_t)_mm256_cvtsi256_si32(best);
    const uint64_t done = ct_mask_eq(next, INT32_MAX);
    const uint64_t gap = (uint64_t)(next >> 8) - pos; /* >= 0 unless done */
    const uint64_t far = ~ct_mask_lt(gap, 64 * REACH);
    const uint64_t t_take = ~done & ~far;
    const uint64_t s = (t_take & gap) | (~done & far & STEP_MAX);
    plan->shift[t] = (uint16_t)s;
    plan->take[t] = t_take;
    pos += (uint32_t)s;
    last = (uint32_t)ct_select(t_take, next, last);
  }
  bike_wipe(key, sizeof(key));
  plan->idx = idx;
  plan->count = count;
  plan->steps = steps;
}

/* Words r / 64 .. n4 + EXT - 1 of a row from its words 0 .. 23: bit r + i
 * is bit i (the cyclic extension a step reads past r). */
static inline void extend(const bike_params *p, uint64_t *row, uint32_t n4) {
  const uint32_t n = p->r_qwords, rr = p->r % 64; /* r is odd: rr > 0 */
  row[n - 1] = (row[n - 1] & (((uint64_t)1 << rr) - 1)) | row[0] << rr;
  const __m256i l = _mm256_set1_epi64x(rr), h = _mm256_set1_epi64x(64 - rr);
  for (uint32_t w = n; w < n4 + EXT; w += 4) {
    st(row + w, _mm256_or_si256(_mm256_sllv_epi64(ld(row + w - n + 1), l),
                                _mm256_srlv_epi64(ld(row + w - n), h)));
  }
}

#define XOR3(a, b, c) _mm256_xor_si256(_mm256_xor_si256(a, b), c)
#define MAJ(a, b, c) _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(c, _mm256_xor_si256(a, b)))
/* Full adder: a + b + c = s + 2 cy. */
#define FA(s, cy, a, b, c)                      \
  do {                                          \
    const __m256i a_ = (a), b_ = (b), c_ = (c); \
    s = XOR3(a_, b_, c_);                       \
    cy = MAJ(a_, b_, c_);                       \
  } while (0)

/* Row j of the counters += the sum of the GROUP copies, each under its
 * take mask. */
static inline void add16(upc_counters *u, uint32_t j, uint32_t live, uint64_t *const *rows,
                         const __m256i *take, int fresh) {
#define X(t) _mm256_and_si256(ld(rows[t] + j), take[t])
  __m256i s0, s1, s2, s3, s4, t0, t1, c0, c1, c2, c3, c4, c5, c6, c7;
  __m256i u0, u1, u2, d0, d1, d2, d3, w0, e0, e1, v[5];
  /* 11 full and 4 half adders. Weight 1: 16 bits to 6, to 2, to v0. */
  FA(s0, c0, X(0), X(1), X(2));
  FA(s1, c1, X(3), X(4), X(5));
  FA(s2, c2, X(6), X(7), X(8));
  FA(s3, c3, X(9), X(10), X(11));
  FA(s4, c4, X(12), X(13), X(14));
  FA(t0, c5, s0, s1, s2);
  FA(t1, c6, s3, s4, X(15));
#undef X
  v[0] = _mm256_xor_si256(t0, t1);
  c7 = _mm256_and_si256(t0, t1);
  /* Weight 2: c0 .. c7 to v1; weight 4: d0 .. d3 to v2; weight 8: e0, e1
   * to v3 and v4. */
  FA(u0, d0, c0, c1, c2);
  FA(u1, d1, c3, c4, c5);
  FA(u2, d2, c6, c7, u0);
  v[1] = _mm256_xor_si256(u1, u2);
  d3 = _mm256_and_si256(u1, u2);
  FA(w0, e0, d0, d1, d2);
  v[2] = _mm256_xor_si256(w0, d3);
  e1 = _mm256_and_si256(w0, d3);
  v[3] = _mm256_xor_si256(e0, e1);
  v[4] = _mm256_and_si256(e0, e1);
  if (fresh) {
    for (uint32_t b = 0; b < 5; b++) {
      st(u->slice[b] + j, v[b]);
    }
    return;
  }
  const __m256i x0 = ld(u->slice[0] + j);
  st(u->slice[0] + j, _mm256_xor_si256(x0, v[0]));
  __m256i carry = _mm256_and_si256(x0, v[0]);
  for (uint32_t b = 1; b < 5; b++) {
    const __m256i x = ld(u->slice[b] + j);
    st(u->slice[b] + j, XOR3(x, v[b], carry));
    carry = MAJ(x, v[b], carry);
  }
  for (uint32_t b = 5; b < live; b++) {
    const __m256i x = ld(u->slice[b] + j);
    st(u->slice[b] + j, _mm256_xor_si256(x, carry));
    carry = _mm256_and_si256(x, carry);
  }
}

void upc_count_avx2(const bike_params *p, upc_counters *u, const upc_plan *plan,
                    const uint64_t *s) {
  __m256i take[GROUP];
  const uint32_t steps = plan->steps, count = plan->count;
  const uint32_t n = p->r_qwords, n4 = round4(n);
  /* GROUP + 1 rows in the counters' work space (which upc_wipe clears):
   * row 0 holds a group's input, rows 1 .. GROUP its copies; the last copy
   * becomes the next group's input by swapping the two rows. */
  const size_t stride = (n4 + EXT + 8 + 7) & ~(size_t)7; /* extend writes 3 words past */
  uint64_t *rows[GROUP + 1];
  for (uint32_t t = 0; t <= GROUP; t++) {
    rows[t] = u->scratch + t * stride;
  }
  assert((GROUP + 1) * stride <= UPC_SCRATCH_ROWS((n + 7) / 8) * 8);
  memcpy(rows[0], s, n * sizeof(uint64_t));
  extend(p, rows[0], n4);
  for (uint32_t b = 5; b < UPC_SLICES; b++) {
    memset(u->slice[b], 0, n4 * sizeof(uint64_t));
  }
  /* Full groups, then what is left: a group costs GROUP rows of additions
   * however few it holds, so up to SINGLES_MAX copies are rippled into the
   * counters one at a time instead (about a fifth of a group's work each).
   * There is always a group (steps > SINGLES_MAX): the first is stored. */
  const uint32_t rem = steps % GROUP, singles = rem <= SINGLES_MAX ? rem : 0;
  const uint32_t grouped = steps - singles, groups = (grouped + GROUP - 1) / GROUP;
  uint32_t t = 0;
  for (uint32_t gi = 0; gi < groups; gi++) {
    const uint32_t size = grouped - t < GROUP ? grouped - t : GROUP;
    for (uint32_t c = 0; c < GROUP; c++) {
      take[c] = _mm256_set1_epi64x(c < size ? (long long)plan->take[t + c] : 0);
    }
    for (uint32_t c = 0; c < size; c++) {
      bike_rotr_short_avx2(rows[c + 1], rows[c], n4, plan->shift[t + c]);
      extend(p, rows[c + 1], n4);
    }
    t += size;
    /* add16 writes the group's 5-bit sum whatever the count so far */
    uint32_t live = upc_live_slices(t < count ? t : count);
    live = live < 5 ? 5 : live;
    if (gi == 0) {
      for (uint32_t j = 0; j < n4; j += 4) {
        add16(u, j, live, rows + 1, take, 1);
      }
    } else {
      for (uint32_t j = 0; j < n4; j += 4) {
        add16(u, j, live, rows + 1, take, 0);
      }
    }
    uint64_t *const last = rows[size];
    rows[size] = rows[0];
    rows[0] = last;
  }
  for (uint32_t c = 0; c < singles; c++, t++) {
    bike_rotr_short_avx2(rows[1], rows[0], n4, plan->shift[t]);
    extend(p, rows[1], n4);
    take[0] = _mm256_set1_epi64x((long long)plan->take[t]);
    const uint32_t live = upc_live_slices(t + 1 < count ? t + 1 : count);
    for (uint32_t j = 0; j < n4; j += 4) {
      __m256i carry = _mm256_and_si256(ld(rows[1] + j), take[0]);
      for (uint32_t b = 0; b < live; b++) {
        const __m256i x = ld(u->slice[b] + j);
        st(u->slice[b] + j, _mm256_xor_si256(x, carry));
        carry = _mm256_and_si256(x, carry);
      }
    }
    uint64_t *const last = rows[1];
    rows[1] = rows[0];
    rows[0] = last;
  }
  bike_wipe(take, sizeof(take));
}

/* mask = (count >= th): the borrow out of count - th, slice by slice, is
 * set exactly where count < th. */
static inline uint64_t borrow64(uint64_t x, uint64_t t, uint64_t borrow) {
  return (~x & (t | borrow)) | (t & borrow);
}

void upc_at_least_avx2(const bike_params *p, uint64_t *mask, const upc_counters *u,
                       uint32_t th) {
  const uint32_t n = p->r_qwords, nv = n & ~3u;
  uint64_t th_bit[UPC_SLICES];
  __m256i t[UPC_SLICES];
  for (uint32_t b = 0; b < UPC_SLICES; b++) {
    th_bit[b] = (uint64_t)0 - ((th >> b) & 1);
    t[b] = _mm256_set1_epi64x((long long)th_bit[b]);
  }
  for (uint32_t j = 0; j < nv; j += 4) {
    __m256i borrow = _mm256_setzero_si256();
    for (uint32_t b = 0; b < UPC_SLICES; b++) {
      const __m256i x = ld(u->slice[b] + j);
      borrow = _mm256_or_si256(_mm256_andnot_si256(x, _mm256_or_si256(t[b], borrow)),
                               _mm256_and_si256(t[b], borrow));
    }
    st(mask + j, _mm256_xor_si256(borrow, _mm256_set1_epi64x(-1)));
  }
  for (uint32_t j = nv; j < n; j++) {
    uint64_t borrow = 0;
    for (uint32_t b = 0; b < UPC_SLICES; b++) {
      borrow = borrow64(u->slice[b][j], th_bit[b], borrow);
    }
    mask[j] = ~borrow;
  }
  mask[n - 1] &= ((uint64_t)1 << (p->r % 64)) - 1;
  bike_wipe(th_bit, sizeof(th_bit));
  bike_wipe(t, sizeof(t));
}
