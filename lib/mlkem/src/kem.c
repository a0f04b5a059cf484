/* ML-KEM, FIPS 203 section 6 (algorithms 16 to 21), with the input checks
 * of section 7. */
#include <string.h>

#include "common/ct.h"
#include "common/random.h"
#include "hash.h"
#include "kpke.h"
#include "ops.h"
#include "mlkem/mlkem.h"
#include "params.h"

int mlkem_keypair_derand(int set, uint8_t *ek, size_t ek_len, uint8_t *dk, size_t dk_len,
                         const uint8_t d[MLKEM_SEED_BYTES], const uint8_t z[MLKEM_SEED_BYTES]) {
  const mlkem_params *p = mlkem_params_get(set);
  if (p == NULL) {
    return MLKEM_ERR_SET;
  }
  if (ek == NULL || dk == NULL || d == NULL || z == NULL) {
    return MLKEM_ERR_NULL;
  }
  if (ek_len != p->ek_bytes || dk_len != p->dk_bytes) {
    return MLKEM_ERR_LENGTH;
  }
  /* Algorithm 16: dk = dk_pke || ek || H(ek) || z. */
  const size_t pke = MLKEM_POLY_BYTES * p->k;
  mlkem_ops o;
  mlkem_ops_init(&o);
  mlkem_kpke_keygen(&o, p, ek, dk, d);
  if (o.failed) { /* public: whether the accelerator failed */
    mlkem_wipe(ek, p->ek_bytes);
    mlkem_wipe(dk, p->dk_bytes);
    return MLKEM_ERR_ACCEL;
  }
  CT_DECLASSIFY(ek, p->ek_bytes);
  memcpy(dk + pke, ek, p->ek_bytes);
  mlkem_hash_h(dk + pke + p->ek_bytes, ek, p->ek_bytes);
  memcpy(dk + pke + p->ek_bytes + 32, z, 32);
  return MLKEM_OK;
}

int mlkem_keypair(int set, uint8_t *ek, size_t ek_len, uint8_t *dk, size_t dk_len) {
  const mlkem_params *p = mlkem_params_get(set);
  if (p == NULL) {
    return MLKEM_ERR_SET;
  }
  if (ek == NULL || dk == NULL) {
    return MLKEM_ERR_NULL;
  }
  if (ek_len != p->ek_bytes || dk_len != p->dk_bytes) {
    return MLKEM_ERR_LENGTH;
  }
  uint8_t dz[64];
  if (bike_os_random(dz, sizeof(dz)) != 0) {
    return MLKEM_ERR_RANDOM;
  }
  const int rc = mlkem_keypair_derand(set, ek, ek_len, dk, dk_len, dz, dz + 32);
  mlkem_wipe(dz, sizeof(dz));
  return rc;
}

int mlkem_encaps_derand(int set, uint8_t *ct, size_t ct_len, uint8_t ss[MLKEM_SS_BYTES],
                        const uint8_t *ek, size_t ek_len, const uint8_t m[MLKEM_SEED_BYTES]) {
  const mlkem_params *p = mlkem_params_get(set);
  if (p == NULL) {
    return MLKEM_ERR_SET;
  }
  if (ct == NULL || ss == NULL || ek == NULL || m == NULL) {
    return MLKEM_ERR_NULL;
  }
  if (ct_len != p->ct_bytes || ek_len != p->ek_bytes) {
    return MLKEM_ERR_LENGTH;
  }
  if (!mlkem_kpke_ek_valid(p, ek)) {
    return MLKEM_ERR_KEY;
  }
  /* Algorithm 17: (K, r) = G(m || H(ek)), c = K-PKE.Encrypt(ek, m, r). */
  uint8_t h[32], kr[64];
  mlkem_hash_h(h, ek, p->ek_bytes);
  mlkem_hash_g(kr, m, 32, h, 32);
  mlkem_ops o;
  mlkem_ops_init(&o);
  mlkem_kpke_encrypt(&o, p, ct, ek, m, kr + 32);
  memcpy(ss, kr, MLKEM_SS_BYTES);
  mlkem_wipe(kr, sizeof(kr));
  if (o.failed) {
    mlkem_wipe(ct, p->ct_bytes);
    mlkem_wipe(ss, MLKEM_SS_BYTES);
    return MLKEM_ERR_ACCEL;
  }
  return MLKEM_OK;
}

int mlkem_encaps(int set, uint8_t *ct, size_t ct_len, uint8_t ss[MLKEM_SS_BYTES],
                 const uint8_t *ek, size_t ek_len) {
  uint8_t m[32];
  if (bike_os_random(m, sizeof(m)) != 0) {
    return MLKEM_ERR_RANDOM;
  }
  const int rc = mlkem_encaps_derand(set, ct, ct_len, ss, ek, ek_len, m);
  mlkem_wipe(m, sizeof(m));
  return rc;
}

int mlkem_decaps(int set, uint8_t ss[MLKEM_SS_BYTES], const uint8_t *ct, size_t ct_len,
                 const uint8_t *dk, size_t dk_len) {
  const mlkem_params *p = mlkem_params_get(set);
  if (p == NULL) {
    return MLKEM_ERR_SET;
  }
  if (ss == NULL || ct == NULL || dk == NULL) {
    return MLKEM_ERR_NULL;
  }
  if (ct_len != p->ct_bytes || dk_len != p->dk_bytes) {
    return MLKEM_ERR_LENGTH;
  }
  const size_t pke = MLKEM_POLY_BYTES * p->k;
  const uint8_t *ek = dk + pke, *h = ek + p->ek_bytes, *z = h + 32;
  /* ek is public, and whether the key is well-formed is not a secret. */
  CT_DECLASSIFY(ek, p->ek_bytes);
  /* Section 7.3: the hash check. */
  uint8_t hash[32];
  mlkem_hash_h(hash, ek, p->ek_bytes);
  uint64_t hash_ok = ct_bytes_eq_mask(hash, h, 32);
  CT_DECLASSIFY(&hash_ok, sizeof(hash_ok));
  if (!hash_ok) {
    return MLKEM_ERR_KEY;
  }
  /* Algorithm 18: m' = Decrypt(dk_pke, c); (K', r') = G(m' || h);
   * K_bar = J(z || c); c' = Encrypt(ek, m', r'); K' if c = c' else K_bar. */
  uint8_t m[32], kr[64], reject[32], ct2[MLKEM_MAX_CT_BYTES];
  mlkem_ops o;
  mlkem_ops_init(&o);
  mlkem_kpke_decrypt(&o, p, m, dk, ct);
  mlkem_hash_g(kr, m, 32, h, 32);
  mlkem_hash_j(reject, z, 32, ct, p->ct_bytes);
  mlkem_kpke_encrypt(&o, p, ct2, ek, m, kr + 32);
  const uint64_t same = ct_bytes_eq_mask(ct, ct2, p->ct_bytes);
  ct_bytes_select(ss, same, kr, reject, MLKEM_SS_BYTES);
  mlkem_wipe(m, sizeof(m));
  mlkem_wipe(kr, sizeof(kr));
  mlkem_wipe(reject, sizeof(reject));
  mlkem_wipe(ct2, sizeof(ct2));
  if (o.failed) {
    mlkem_wipe(ss, MLKEM_SS_BYTES);
    return MLKEM_ERR_ACCEL;
  }
  return MLKEM_OK;
}

const char *mlkem_strerror(int rc) {
  switch (rc) {
  case MLKEM_OK:
    return "success";
  case MLKEM_ERR_SET:
    return "unknown parameter set (not 512, 768 or 1024)";
  case MLKEM_ERR_LENGTH:
    return "buffer length does not match the parameter set";
  case MLKEM_ERR_KEY:
    return "key fails the FIPS 203 input check";
  case MLKEM_ERR_RANDOM:
    return "the operating system's randomness failed";
  case MLKEM_ERR_NULL:
    return "a required pointer is NULL";
  case MLKEM_ERR_BACKEND:
    return "unknown back end, or one this CPU cannot run";
  case MLKEM_ERR_ACCEL:
    return "an accelerator hook failed (mlkem/accel.h): outputs wiped";
  default:
    return "unknown error";
  }
}
