/* The BIKE KEM: key generation, encapsulation, decapsulation (spec 5.1). */
#include <string.h>

#include "bike/accel.h"
#include "bike/batch.h"
#include "bike/bike.h"
#include "bike/ops.h"
#include "common/bytes.h"
#include "common/ct.h"
#include "native/backend.h"
#include "common/random.h"
#include "hash/sha3.h"
#include "kem/accel_call.h"

size_t bike_public_key_bytes(int level) {
  const bike_params *p = bike_params_get(level);
  return p != NULL ? p->pk_bytes : 0;
}

size_t bike_secret_key_bytes(int level) {
  const bike_params *p = bike_params_get(level);
  return p != NULL ? p->sk_bytes : 0;
}

size_t bike_ciphertext_bytes(int level) {
  const bike_params *p = bike_params_get(level);
  return p != NULL ? p->ct_bytes : 0;
}

const char *bike_version(void) { return BIKE_VERSION_STRING; }

const char *bike_strerror(int rc) {
  switch (rc) {
  case BIKE_OK:
    return "success";
  case BIKE_ERR_LEVEL:
    return "unknown security level (expected 1, 3 or 5)";
  case BIKE_ERR_LENGTH:
    return "buffer length does not match the security level";
  case BIKE_ERR_KEY:
    return "malformed key";
  case BIKE_ERR_RANDOM:
    return "the operating system's random number generator failed";
  case BIKE_ERR_NULL:
    return "a required argument is NULL";
  case BIKE_ERR_BACKEND:
    return "unknown back end, or one this CPU cannot run";
  case BIKE_ERR_ACCEL:
    return "an accelerator failed the operation (device error or time-out); outputs wiped";
  default:
    return "unknown error";
  }
}

/* The end of a KEM call: after an accelerator's failure its outputs are
 * wiped (a caller never sees a value computed from a failed operation). */
static int accel_outcome(int failed, void *out0, size_t len0, void *out1, size_t len1) {
  if (!failed) {
    return BIKE_OK;
  }
  bike_wipe(out0, len0);
  if (out1 != NULL) {
    bike_wipe(out1, len1);
  }
  return BIKE_ERR_ACCEL;
}

/* Secret key layout offsets. */
#define SK_H0_IDX(p) 0u
#define SK_H1_IDX(p) (4u * (p)->d)
#define SK_H0(p) (8u * (p)->d)
#define SK_H1(p) (8u * (p)->d + (p)->r_bytes)
#define SK_PK(p) (8u * (p)->d + 2u * (p)->r_bytes)
#define SK_SIGMA(p) (8u * (p)->d + 3u * (p)->r_bytes)

typedef struct {
  uint32_t h_idx[2][BIKE_MAX_D];
  uint64_t h0[BIKE_MAX_QWORDS];
  uint64_t h1[BIKE_MAX_QWORDS];
  uint64_t h0_inv[BIKE_MAX_QWORDS];
  uint64_t h[BIKE_MAX_QWORDS];
} keygen_state;

/* Wipe what a level's key generation wrote, not the L5-sized state. */
static void keygen_wipe(const bike_params *p, keygen_state *st) {
  const size_t n = p->r_qwords * sizeof(uint64_t);
  bike_wipe(st->h_idx[0], p->d * sizeof(uint32_t));
  bike_wipe(st->h_idx[1], p->d * sizeof(uint32_t));
  bike_wipe(st->h0, n);
  bike_wipe(st->h1, n);
  bike_wipe(st->h0_inv, n);
  bike_wipe(st->h, n);
}

/* h0, h1 and their supports from the first 32 bytes of coins; the secret
 * key's parts that do not depend on h (indices, h0, h1, sigma). */
static int keygen_sample(const bike_accel *acc, const bike_params *p, keygen_state *st,
                         uint8_t *sk, const uint8_t *coins) {
  const int failed = acc_sample_keygen(acc, p, st->h_idx[0], st->h_idx[1], coins);
  /* The sampled positions are distinct: the support kernel's XOR is an OR. */
  bike_support_dense(p, st->h0, st->h_idx[0], NULL, p->d);
  bike_support_dense(p, st->h1, st->h_idx[1], NULL, p->d);
  for (uint32_t i = 0; i < p->d; i++) {
    store32_le(sk + SK_H0_IDX(p) + 4 * i, st->h_idx[0][i]);
    store32_le(sk + SK_H1_IDX(p) + 4 * i, st->h_idx[1][i]);
  }
  bike_poly_to_bytes(p, sk + SK_H0(p), st->h0);
  bike_poly_to_bytes(p, sk + SK_H1(p), st->h1);
  memcpy(sk + SK_SIGMA(p), coins + BIKE_M_BYTES, BIKE_M_BYTES);
  return failed;
}

int bike_keypair_derand(int level, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len,
                        const uint8_t coins[BIKE_COINS_BYTES]) {
  const bike_params *p = bike_params_get(level);
  if (p == NULL) {
    return BIKE_ERR_LEVEL;
  }
  if (pk == NULL || sk == NULL || coins == NULL) {
    return BIKE_ERR_NULL;
  }
  if (pk_len != p->pk_bytes || sk_len != p->sk_bytes) {
    return BIKE_ERR_LENGTH;
  }
  const bike_accel *acc = bike_get_accel();
  if (acc != NULL && acc->keypair != NULL) {
    return accel_outcome(acc->keypair(acc->ctx, p, pk, sk, coins) != 0, pk, pk_len, sk, sk_len);
  }
  keygen_state st;
  int failed = keygen_sample(acc, p, &st, sk, coins);
  failed |= acc_gf2x_inv(acc, p, st.h0_inv, st.h0);
  failed |= acc_gf2x_mul(acc, BIKE_ACCEL_KEYGEN, p, st.h, st.h1, st.h0_inv);
  bike_poly_to_bytes(p, sk + SK_PK(p), st.h);
  bike_poly_to_bytes(p, pk, st.h);
  keygen_wipe(p, &st);
  return accel_outcome(failed, pk, pk_len, sk, sk_len);
}

int bike_keypair(int level, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len) {
  uint8_t coins[BIKE_COINS_BYTES];
  if (bike_params_get(level) == NULL) {
    return BIKE_ERR_LEVEL;
  }
  if (bike_os_random(coins, sizeof(coins)) != 0) {
    return BIKE_ERR_RANDOM;
  }
  int rc = bike_keypair_derand(level, pk, pk_len, sk, sk_len, coins);
  bike_wipe(coins, sizeof(coins));
  return rc;
}

/* A batch on a device that makes whole key pairs: one key at a time, as
 * keypair_batch's result (BIKE_ERR_RANDOM, or non-zero if the device
 * failed a key). */
static int keypair_batch_whole(const bike_accel *acc, const bike_params *p, size_t count,
                               uint8_t *pk, uint8_t *sk, const uint8_t *coins) {
  uint8_t own[BIKE_COINS_BYTES];
  int failed = 0;
  for (size_t i = 0; i < count; i++) {
    const uint8_t *ci = coins != NULL ? coins + i * BIKE_COINS_BYTES : own;
    if (coins == NULL && bike_os_random(own, sizeof(own)) != 0) {
      failed = BIKE_ERR_RANDOM;
      break;
    }
    failed |= acc->keypair(acc->ctx, p, pk + i * p->pk_bytes, sk + i * p->sk_bytes, ci) != 0;
  }
  bike_wipe(own, sizeof(own));
  return failed;
}

/* Montgomery's trick over the keys' h0 (bike/batch.h). Forward: sample key
 * i, keep the running product P_i = h0_0 ... h0_i in key i's public-key
 * bytes (a public key is one polynomial: that space is free until the
 * end). One inversion of P_{n-1}. Backward, with u = P_i^-1: h0_i^-1 =
 * u P_{i-1}, then u = u h0_i is P_{i-1}^-1, and h = h1_i h0_i^-1. coins
 * NULL: each key's from getrandom(). */
static int keypair_batch(const bike_params *p, size_t count, uint8_t *pk, uint8_t *sk,
                         const uint8_t *coins) {
  const bike_accel *acc = bike_get_accel();
  if (acc != NULL && acc->keypair != NULL) {
    return keypair_batch_whole(acc, p, count, pk, sk, coins);
  }
  uint8_t own[BIKE_COINS_BYTES];
  keygen_state st;
  int failed = 0;
  for (size_t i = 0; i < count; i++) {
    const uint8_t *ci = coins != NULL ? coins + i * BIKE_COINS_BYTES : own;
    if (coins == NULL && bike_os_random(own, sizeof(own)) != 0) {
      bike_wipe(own, sizeof(own));
      keygen_wipe(p, &st);
      return BIKE_ERR_RANDOM;
    }
    uint8_t *const ski = sk + i * p->sk_bytes;
    failed |= keygen_sample(acc, p, &st, ski, ci);
    if (i == 0) {
      memcpy(st.h0_inv, st.h0, p->r_qwords * sizeof(uint64_t));
    } else {
      failed |= acc_gf2x_mul(acc, BIKE_ACCEL_KEYGEN, p, st.h, st.h0_inv, st.h0);
      memcpy(st.h0_inv, st.h, p->r_qwords * sizeof(uint64_t));
    }
    bike_poly_to_bytes(p, pk + i * p->pk_bytes, st.h0_inv);
  }
  bike_wipe(own, sizeof(own));
  /* st.h1 = u, the inverse of the product so far. */
  failed |= acc_gf2x_inv(acc, p, st.h1, st.h0_inv);
  for (size_t i = count; i-- > 0;) {
    uint8_t *const ski = sk + i * p->sk_bytes, *const pki = pk + i * p->pk_bytes;
    if (i > 0) {
      (void)bike_poly_from_bytes(p, st.h0, pk + (i - 1) * p->pk_bytes); /* P_{i-1} */
      failed |= acc_gf2x_mul(acc, BIKE_ACCEL_KEYGEN, p, st.h0_inv, st.h1, st.h0);
      (void)bike_poly_from_bytes(p, st.h0, ski + SK_H0(p));
      failed |= acc_gf2x_mul(acc, BIKE_ACCEL_KEYGEN, p, st.h, st.h1, st.h0);
      memcpy(st.h1, st.h, p->r_qwords * sizeof(uint64_t));
    } else {
      memcpy(st.h0_inv, st.h1, p->r_qwords * sizeof(uint64_t));
    }
    (void)bike_poly_from_bytes(p, st.h0, ski + SK_H1(p)); /* h1_i */
    failed |= acc_gf2x_mul(acc, BIKE_ACCEL_KEYGEN, p, st.h, st.h0, st.h0_inv);
    bike_poly_to_bytes(p, ski + SK_PK(p), st.h);
    bike_poly_to_bytes(p, pki, st.h);
  }
  keygen_wipe(p, &st);
  return failed;
}

static int batch_checks(const bike_params *p, size_t count, const uint8_t *pk, size_t pk_len,
                        const uint8_t *sk, size_t sk_len) {
  if (p == NULL) {
    return BIKE_ERR_LEVEL;
  }
  if (pk == NULL || sk == NULL) {
    return BIKE_ERR_NULL;
  }
  if (count == 0 || count > SIZE_MAX / p->sk_bytes || pk_len != count * p->pk_bytes
      || sk_len != count * p->sk_bytes) {
    return BIKE_ERR_LENGTH;
  }
  return BIKE_OK;
}

/* keypair_batch's result: BIKE_ERR_RANDOM, or an accelerator's failure
 * (non-zero), wipes every key. */
static int batch_outcome(int failed, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len) {
  if (failed < 0) { /* BIKE_ERR_RANDOM */
    bike_wipe(pk, pk_len);
    bike_wipe(sk, sk_len);
    return failed;
  }
  return accel_outcome(failed, pk, pk_len, sk, sk_len);
}

int bike_keypair_batch_derand(int level, size_t count, uint8_t *pk, size_t pk_len, uint8_t *sk,
                              size_t sk_len, const uint8_t *coins, size_t coins_len) {
  const bike_params *p = bike_params_get(level);
  int rc = batch_checks(p, count, pk, pk_len, sk, sk_len);
  if (rc != BIKE_OK) {
    return rc;
  }
  if (coins == NULL) {
    return BIKE_ERR_NULL;
  }
  if (coins_len != count * BIKE_COINS_BYTES) {
    return BIKE_ERR_LENGTH;
  }
  return batch_outcome(keypair_batch(p, count, pk, sk, coins), pk, pk_len, sk, sk_len);
}

int bike_keypair_batch(int level, size_t count, uint8_t *pk, size_t pk_len, uint8_t *sk,
                       size_t sk_len) {
  const bike_params *p = bike_params_get(level);
  int rc = batch_checks(p, count, pk, pk_len, sk, sk_len);
  if (rc != BIKE_OK) {
    return rc;
  }
  return batch_outcome(keypair_batch(p, count, pk, sk, NULL), pk, pk_len, sk, sk_len);
}

typedef struct {
  uint64_t h[BIKE_MAX_QWORDS];
  uint64_t e0[BIKE_MAX_QWORDS];
  uint64_t e1[BIKE_MAX_QWORDS];
  uint64_t c0[BIKE_MAX_QWORDS];
  uint8_t l_in[2 * BIKE_MAX_R_BYTES];                  /* e0 || e1 */
  uint8_t k_in[BIKE_M_BYTES + BIKE_MAX_CIPHERTEXT_BYTES]; /* m || c0 || c1 */
  uint64_t sponge[2][25];
  uint8_t digest[BIKE_SHA3_384_BYTES];
} encaps_state;

/* Wipe what a level's encapsulation wrote, not the L5-sized state. */
static void encaps_wipe(const bike_params *p, encaps_state *st) {
  const size_t n = p->r_qwords * sizeof(uint64_t);
  bike_wipe(st->h, n);
  bike_wipe(st->e0, n);
  bike_wipe(st->e1, n);
  bike_wipe(st->c0, n);
  bike_wipe(st->l_in, 2 * (size_t)p->r_bytes);
  bike_wipe(st->k_in, BIKE_M_BYTES + (size_t)p->ct_bytes);
  bike_wipe(st->sponge, sizeof(st->sponge));
  bike_wipe(st->digest, sizeof(st->digest));
}

int bike_encaps_derand(int level, uint8_t *ct, size_t ct_len,
                       uint8_t ss[BIKE_SHARED_SECRET_BYTES], const uint8_t *pk, size_t pk_len,
                       const uint8_t coins[BIKE_COINS_BYTES]) {
  const bike_params *p = bike_params_get(level);
  if (p == NULL) {
    return BIKE_ERR_LEVEL;
  }
  if (ct == NULL || ss == NULL || pk == NULL || coins == NULL) {
    return BIKE_ERR_NULL;
  }
  if (ct_len != p->ct_bytes || pk_len != p->pk_bytes) {
    return BIKE_ERR_LENGTH;
  }
  encaps_state st;
  if (!bike_poly_from_bytes(p, st.h, pk)) { /* the public key is public */
    encaps_wipe(p, &st);
    return BIKE_ERR_KEY;
  }
  const bike_accel *acc = bike_get_accel();
  if (acc != NULL && acc->encaps != NULL) {
    encaps_wipe(p, &st);
    const int failed = acc->encaps(acc->ctx, p, ct, ss, pk, coins) != 0;
    return accel_outcome(failed, ct, ct_len, ss, BIKE_SHARED_SECRET_BYTES);
  }
  const uint8_t *m = coins;
  int failed = acc_function_h(acc, BIKE_ACCEL_ENCAPS, p, st.e0, st.e1, m);
  failed |= acc_gf2x_mul(acc, BIKE_ACCEL_ENCAPS, p, st.c0, st.e1, st.h);
  for (uint32_t w = 0; w < p->r_qwords; w++) {
    st.c0[w] ^= st.e0[w];
  }
  const size_t k_len = BIKE_M_BYTES + (size_t)p->ct_bytes;
  memcpy(st.k_in, m, BIKE_M_BYTES);
  bike_poly_to_bytes(p, st.k_in + BIKE_M_BYTES, st.c0);
  uint8_t *c1 = st.k_in + BIKE_M_BYTES + p->r_bytes;
  if (acc == NULL || (acc->function_l == NULL && acc->function_k == NULL)) {
    /* L = SHA3-384(e0 || e1) and K = SHA3-384(m || c0 || c1), truncated.
     * K's rate blocks before c1 do not depend on L: they are absorbed in
     * lockstep with L's first blocks (bike_function_l and bike_function_k
     * give the same values one at a time). */
    const size_t l_len = 2 * (size_t)p->r_bytes;
    const size_t shared = (BIKE_M_BYTES + p->r_bytes) / BIKE_SHA3_384_RATE;
    bike_poly_to_bytes(p, st.l_in, st.e0);
    bike_poly_to_bytes(p, st.l_in + p->r_bytes, st.e1);
    const uint8_t *const starts[2] = {st.l_in, st.k_in};
    bike_sha3_384_start_xn(st.sponge, starts, shared, 2);
    const size_t done = shared * BIKE_SHA3_384_RATE;
    bike_sha3_384_finish(st.digest, st.sponge[0], st.l_in + done, l_len - done);
    for (uint32_t i = 0; i < BIKE_M_BYTES; i++) {
      c1[i] = m[i] ^ st.digest[i];
    }
    bike_sha3_384_finish(st.digest, st.sponge[1], st.k_in + done, k_len - done);
  } else { /* L or K placed: one at a time */
    failed |= acc_function_l(acc, BIKE_ACCEL_ENCAPS, p, st.digest, st.e0, st.e1);
    for (uint32_t i = 0; i < BIKE_M_BYTES; i++) {
      c1[i] = m[i] ^ st.digest[i];
    }
    failed |= acc_function_k(acc, BIKE_ACCEL_ENCAPS, p, st.digest, m, st.k_in + BIKE_M_BYTES);
  }
  memcpy(ct, st.k_in + BIKE_M_BYTES, p->ct_bytes);
  memcpy(ss, st.digest, BIKE_SHARED_SECRET_BYTES);
  encaps_wipe(p, &st);
  return accel_outcome(failed, ct, ct_len, ss, BIKE_SHARED_SECRET_BYTES);
}

int bike_encaps(int level, uint8_t *ct, size_t ct_len, uint8_t ss[BIKE_SHARED_SECRET_BYTES],
                const uint8_t *pk, size_t pk_len) {
  uint8_t coins[BIKE_COINS_BYTES];
  if (bike_params_get(level) == NULL) {
    return BIKE_ERR_LEVEL;
  }
  if (bike_os_random(coins, sizeof(coins)) != 0) {
    return BIKE_ERR_RANDOM;
  }
  int rc = bike_encaps_derand(level, ct, ct_len, ss, pk, pk_len, coins);
  bike_wipe(coins, sizeof(coins));
  return rc;
}

typedef struct {
  uint32_t h_idx[2][BIKE_MAX_D];
  uint64_t c0[BIKE_MAX_QWORDS];
  uint64_t h0[BIKE_MAX_QWORDS];
  uint64_t s[BIKE_MAX_QWORDS];
  uint64_t e0[BIKE_MAX_QWORDS];
  uint64_t e1[BIKE_MAX_QWORDS];
  uint64_t f0[BIKE_MAX_QWORDS];
  uint64_t f1[BIKE_MAX_QWORDS];
  uint8_t l[BIKE_HASH_OUT_BYTES];
  uint8_t m[BIKE_M_BYTES];
} decaps_state;

/* Wipe what a level's decapsulation wrote, not the L5-sized state. */
static void decaps_wipe(const bike_params *p, decaps_state *st) {
  const size_t n = p->r_qwords * sizeof(uint64_t);
  bike_wipe(st->h_idx[0], p->d * sizeof(uint32_t));
  bike_wipe(st->h_idx[1], p->d * sizeof(uint32_t));
  uint64_t *const polys[] = {st->c0, st->h0, st->s, st->e0, st->e1, st->f0, st->f1};
  for (size_t i = 0; i < sizeof(polys) / sizeof(polys[0]); i++) {
    bike_wipe(polys[i], n);
  }
  bike_wipe(st->l, sizeof(st->l));
  bike_wipe(st->m, sizeof(st->m));
}

int bike_decaps(int level, uint8_t ss[BIKE_SHARED_SECRET_BYTES], const uint8_t *ct,
                size_t ct_len, const uint8_t *sk, size_t sk_len) {
  const bike_params *p = bike_params_get(level);
  if (p == NULL) {
    return BIKE_ERR_LEVEL;
  }
  if (ss == NULL || ct == NULL || sk == NULL) {
    return BIKE_ERR_NULL;
  }
  if (ct_len != p->ct_bytes || sk_len != p->sk_bytes) {
    return BIKE_ERR_LENGTH;
  }
  decaps_state st;
  uint64_t key_ok = ~(uint64_t)0;
  for (uint32_t b = 0; b < 2; b++) {
    for (uint32_t i = 0; i < p->d; i++) {
      uint32_t idx = load32_le(sk + 4 * (b * p->d + i));
      key_ok &= ct_mask_lt(idx, p->r);
      st.h_idx[b][i] = idx;
    }
  }
  /* Whether the key is well formed may be told; nothing else about it. */
  CT_DECLASSIFY(&key_ok, sizeof(key_ok));
  if (!key_ok) {
    decaps_wipe(p, &st);
    return BIKE_ERR_KEY;
  }
  const bike_accel *acc = bike_get_accel();
  if (acc != NULL && acc->decaps != NULL) {
    decaps_wipe(p, &st);
    const int failed = acc->decaps(acc->ctx, p, ss, ct, sk) != 0;
    return accel_outcome(failed, ss, BIKE_SHARED_SECRET_BYTES, NULL, 0);
  }
  const uint8_t *sigma = sk + SK_SIGMA(p);
  const uint8_t *c1 = ct + p->r_bytes;

  /* A c0 with bits set above r cannot come from encapsulation: reject it. */
  uint64_t ok = bike_poly_from_bytes(p, st.c0, ct);
  /* The syndrome c0 h0 by a dense product (h0 from the indices, which are
   * what the decoder uses). */
  bike_support_dense(p, st.h0, st.h_idx[0], NULL, p->d);
  int failed = acc_gf2x_mul(acc, BIKE_ACCEL_DECAPS, p, st.s, st.c0, st.h0);
  uint64_t decoded;
  failed |= acc_decode(acc, p, st.e0, st.e1, &decoded, st.s, st.h_idx[0], st.h_idx[1]);
  ok &= decoded;
  failed |= acc_function_l(acc, BIKE_ACCEL_DECAPS, p, st.l, st.e0, st.e1);
  for (uint32_t i = 0; i < BIKE_M_BYTES; i++) {
    st.m[i] = c1[i] ^ st.l[i];
  }
  /* Re-derive the error from m': it must be the decoded one. */
  failed |= acc_function_h(acc, BIKE_ACCEL_DECAPS, p, st.f0, st.f1, st.m);
  ok &= ct_bytes_eq_mask((const uint8_t *)st.e0, (const uint8_t *)st.f0,
                         p->r_qwords * sizeof(uint64_t));
  ok &= ct_bytes_eq_mask((const uint8_t *)st.e1, (const uint8_t *)st.f1,
                         p->r_qwords * sizeof(uint64_t));
  ct_bytes_select(st.m, ok, st.m, sigma, BIKE_M_BYTES);
  failed |= acc_function_k(acc, BIKE_ACCEL_DECAPS, p, ss, st.m, ct);
  decaps_wipe(p, &st);
  return accel_outcome(failed, ss, BIKE_SHARED_SECRET_BYTES, NULL, 0);
}
