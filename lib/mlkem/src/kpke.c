#include "kpke.h"

#include <string.h>

#include "common/ct.h"
#include "hash.h"
#include "ops.h"
#include "poly.h"

typedef int16_t polyvec[MLKEM_MAX_K][MLKEM_N];

/* Row i of A in the NTT domain: entry j is SampleNTT(rho || j || i), or
 * SampleNTT(rho || i || j) for A^T; the row's sponges in lockstep. */
static void matrix_row(const mlkem_params *p, polyvec row, const uint8_t rho[32], unsigned i,
                       int transposed) {
  uint8_t ji[MLKEM_MAX_K][2];
  for (unsigned j = 0; j < p->k; j++) {
    ji[j][0] = (uint8_t)(transposed ? i : j);
    ji[j][1] = (uint8_t)(transposed ? j : i);
  }
  mlkem_sample_ntt_xn((mlkem_poly *)row, rho, (const uint8_t(*)[2])ji, p->k);
}

/* k polynomials from CBD_eta(PRF_eta(sigma, n)), n counting from *nonce. */
static void sample_vec(const mlkem_params *p, polyvec v, unsigned eta, const uint8_t sigma[32],
                       uint8_t *nonce) {
  uint8_t buf[64 * 3];
  for (unsigned i = 0; i < p->k; i++) {
    mlkem_prf(buf, eta, sigma, (*nonce)++);
    mlkem_sample_cbd((mlkem_poly *)v[i], buf, eta);
  }
  mlkem_wipe(buf, sizeof(buf));
}

void mlkem_kpke_keygen(mlkem_ops *o, const mlkem_params *p, uint8_t *ek, uint8_t *dk,
                       const uint8_t d[32]) {
  uint8_t seeds[64]; /* rho || sigma */
  const uint8_t kbyte = (uint8_t)p->k;
  int16_t se[2 * MLKEM_MAX_K][MLKEM_N]; /* s, then e: one batch of 2k NTTs */
  int16_t(*s)[MLKEM_N] = se, (*e)[MLKEM_N] = se + p->k;
  polyvec a;
  uint8_t nonce = 0;
  mlkem_hash_g(seeds, d, 32, &kbyte, 1);
  /* rho is published in ek: the matrix's rejection sampling may depend on it. */
  CT_DECLASSIFY(seeds, 32);
  sample_vec(p, s, p->eta1, seeds + 32, &nonce);
  sample_vec(p, e, p->eta1, seeds + 32, &nonce);
  mlkem_ops_ntt_vec(o, se, 2 * p->k);
  for (unsigned i = 0; i < p->k; i++) {
    mlkem_poly t;
    matrix_row(p, a, seeds, i, 0);
    mlkem_ops_basemul_acc(o, t.c, (const int16_t(*)[MLKEM_N])a, (const int16_t(*)[MLKEM_N])s, p->k);
    mlkem_poly_tomont(&t);
    mlkem_poly_add(&t, &t, (const mlkem_poly *)e[i]);
    mlkem_poly_freeze(&t);
    mlkem_byte_encode(ek + MLKEM_POLY_BYTES * i, &t, 12);
    mlkem_poly_freeze((mlkem_poly *)s[i]);
    mlkem_byte_encode(dk + MLKEM_POLY_BYTES * i, (const mlkem_poly *)s[i], 12);
  }
  memcpy(ek + MLKEM_POLY_BYTES * p->k, seeds, 32);
  mlkem_wipe(seeds, sizeof(seeds));
  mlkem_wipe(se, sizeof(se));
}

int mlkem_kpke_ek_valid(const mlkem_params *p, const uint8_t *ek) {
  mlkem_poly t;
  int ok = -1;
  for (unsigned i = 0; i < p->k; i++) {
    ok &= mlkem_byte_decode12(&t, ek + MLKEM_POLY_BYTES * i);
  }
  return ok;
}

void mlkem_kpke_encrypt(mlkem_ops *o, const mlkem_params *p, uint8_t *ct, const uint8_t *ek,
                        const uint8_t m[32], const uint8_t r[32]) {
  const uint8_t *rho = ek + MLKEM_POLY_BYTES * p->k;
  polyvec t, y, e1, a;
  mlkem_poly u, v, e2, mu;
  uint8_t nonce = 0;
  for (unsigned i = 0; i < p->k; i++) {
    (void)mlkem_byte_decode12((mlkem_poly *)t[i], ek + MLKEM_POLY_BYTES * i);
  }
  sample_vec(p, y, p->eta1, r, &nonce);
  sample_vec(p, e1, p->eta2, r, &nonce);
  {
    uint8_t buf[64 * 2];
    mlkem_prf(buf, p->eta2, r, nonce);
    mlkem_sample_cbd(&e2, buf, p->eta2);
    mlkem_wipe(buf, sizeof(buf));
  }
  mlkem_ops_ntt_vec(o, y, p->k);
  /* u = NTT^-1(A^T o y) + e1, compressed to du bits. */
  for (unsigned i = 0; i < p->k; i++) {
    matrix_row(p, a, rho, i, 1);
    mlkem_ops_basemul_acc_invntt(o, u.c, (const int16_t(*)[MLKEM_N])a,
                                 (const int16_t(*)[MLKEM_N])y, p->k);
    mlkem_poly_add(&u, &u, (const mlkem_poly *)e1[i]);
    mlkem_poly_freeze(&u);
    mlkem_compress(&u, p->du);
    mlkem_byte_encode(ct + 32 * p->du * i, &u, p->du);
  }
  /* v = NTT^-1(t^T o y) + e2 + Decompress_1(m), compressed to dv bits. */
  mlkem_ops_basemul_acc_invntt(o, v.c, (const int16_t(*)[MLKEM_N])t, (const int16_t(*)[MLKEM_N])y,
                               p->k);
  mlkem_byte_decode(&mu, m, 1);
  mlkem_decompress(&mu, 1);
  mlkem_poly_add(&v, &v, &e2);
  mlkem_poly_add(&v, &v, &mu);
  mlkem_poly_freeze(&v);
  mlkem_compress(&v, p->dv);
  mlkem_byte_encode(ct + 32 * p->du * p->k, &v, p->dv);
  mlkem_wipe(y, sizeof(y));
  mlkem_wipe(e1, sizeof(e1));
  mlkem_wipe(&e2, sizeof(e2));
  mlkem_wipe(&mu, sizeof(mu));
  mlkem_wipe(&v, sizeof(v));
  mlkem_wipe(&u, sizeof(u));
}

void mlkem_kpke_decrypt(mlkem_ops *o, const mlkem_params *p, uint8_t m[32], const uint8_t *dk,
                        const uint8_t *ct) {
  polyvec s, u;
  mlkem_poly v, w;
  for (unsigned i = 0; i < p->k; i++) {
    mlkem_byte_decode((mlkem_poly *)u[i], ct + 32 * p->du * i, p->du);
    mlkem_decompress((mlkem_poly *)u[i], p->du);
    (void)mlkem_byte_decode12((mlkem_poly *)s[i], dk + MLKEM_POLY_BYTES * i);
  }
  mlkem_ops_ntt_vec(o, u, p->k);
  mlkem_byte_decode(&v, ct + 32 * p->du * p->k, p->dv);
  mlkem_decompress(&v, p->dv);
  /* w = v - NTT^-1(s^T o NTT(u)) */
  mlkem_ops_basemul_acc_invntt(o, w.c, (const int16_t(*)[MLKEM_N])s, (const int16_t(*)[MLKEM_N])u,
                               p->k);
  mlkem_poly_sub(&w, &v, &w);
  mlkem_poly_freeze(&w);
  mlkem_compress(&w, 1);
  mlkem_byte_encode(m, &w, 1);
  mlkem_wipe(s, sizeof(s));
  mlkem_wipe(&w, sizeof(w));
}
