/* libmlkem: arithmetic against its definitions, every parameter set
 * byte-exact against the vectors of an independent implementation
 * (tests/mlkem/vectors, from kyber-py), implicit rejection, and the error
 * contract (code returned, nothing written).
 * Usage: test_mlkem <vector folder> */
#include <stdio.h>
#include <stdlib.h>

#include "arith.h"
#include "backend.h"
#include "hash.h"
#include "mlkem/mlkem.h"
#include "ntt.h"
#include "params.h"
#include "poly.h"
#include "test_util.h"

static const int sets[3] = {512, 768, 1024};

static int pow_mod(int b, int e) {
  int r = 1;
  for (int i = 0; i < e; i++) {
    r = r * b % MLKEM_Q;
  }
  return r;
}

static int mod_q(int x) { return ((x % MLKEM_Q) + MLKEM_Q) % MLKEM_Q; }

static unsigned bitrev7(unsigned i) {
  unsigned r = 0;
  for (unsigned b = 0; b < 7; b++) {
    r |= ((i >> b) & 1) << (6 - b);
  }
  return r;
}

/* zetas[i] = 17^BitRev7(i) 2^16 mod q. */
static void test_zetas(void) {
  unsigned bad = 0;
  for (unsigned i = 0; i < 128; i++) {
    bad += mod_q(mlkem_zetas[i]) != pow_mod(17, (int)bitrev7(i)) * 65536 % MLKEM_Q;
  }
  CHECK(bad == 0, "%u zetas differ from 17^BitRev7(i) R mod q", bad);
}

/* NTT^-1(NTT(a) o NTT(b)) = a b mod (X^256 + 1, q), by schoolbook, on every
 * back end this CPU runs. */
static void test_ntt_multiply(void) {
  for (unsigned bi = 0; mlkem_backend_at(bi) != NULL; bi++) {
    const mlkem_backend *be = mlkem_backend_at(bi);
    if (mlkem_set_backend(be->name) != MLKEM_OK) {
      printf("back end %s NOT RUN: this CPU cannot run it\n", be->name);
      continue;
    }
    for (int trial = 0; trial < 20; trial++) {
      int16_t a[1][MLKEM_N], b[1][MLKEM_N], r[MLKEM_N];
      int ref[MLKEM_N] = {0};
      for (unsigned i = 0; i < MLKEM_N; i++) {
        /* ntt's input bound: |a_i| < q. */
        a[0][i] = (int16_t)((int)(test_rand() % (2 * MLKEM_Q - 1)) - (MLKEM_Q - 1));
        b[0][i] = (int16_t)((int)(test_rand() % (2 * MLKEM_Q - 1)) - (MLKEM_Q - 1));
      }
      for (unsigned i = 0; i < MLKEM_N; i++) {
        for (unsigned j = 0; j < MLKEM_N; j++) {
          const int prod = mod_q(a[0][i] * b[0][j]);
          if (i + j < MLKEM_N) {
            ref[i + j] = (ref[i + j] + prod) % MLKEM_Q;
          } else {
            ref[i + j - MLKEM_N] = mod_q(ref[i + j - MLKEM_N] - prod);
          }
        }
      }
      be->ntt(a[0]);
      be->ntt(b[0]);
      be->basemul_acc(r, (const int16_t(*)[MLKEM_N])a, (const int16_t(*)[MLKEM_N])b, 1);
      be->invntt(r);
      unsigned bad = 0;
      for (unsigned i = 0; i < MLKEM_N; i++) {
        bad += mod_q(r[i]) != ref[i] || r[i] <= -MLKEM_Q || r[i] >= MLKEM_Q;
      }
      CHECK(bad == 0, "back end %s: NTT product differs from schoolbook in %u coefficients",
            be->name, bad);
    }
  }
  CHECK(mlkem_set_backend("auto") == MLKEM_OK, "auto back end");
  CHECK(mlkem_set_backend("no-such") == MLKEM_ERR_BACKEND, "unknown back end accepted");
}

static int16_t rand_coeff(int bound) {
  return (int16_t)((int)(test_rand() % (unsigned)(2 * bound - 1)) - (bound - 1));
}

/* Each back end's kernels against portable's on inputs at the contract's
 * bounds (ntt.h): ntt and invntt value for value, basemul_acc mod q and
 * within its output bound. */
static void test_kernels(void) {
  const mlkem_backend *ref = mlkem_backend_at(0);
  for (unsigned bi = 1; mlkem_backend_at(bi) != NULL; bi++) {
    const mlkem_backend *be = mlkem_backend_at(bi);
    if (mlkem_set_backend(be->name) != MLKEM_OK) {
      printf("back end %s NOT RUN: this CPU cannot run it\n", be->name);
      continue;
    }
    unsigned bad_ntt = 0, bad_inv = 0, bad_mul = 0;
    for (int trial = 0; trial < 200; trial++) {
      int16_t x[MLKEM_N], y[MLKEM_N], a[4][MLKEM_N], b[4][MLKEM_N], r0[MLKEM_N], r1[MLKEM_N];
      for (unsigned i = 0; i < MLKEM_N; i++) {
        x[i] = y[i] = rand_coeff(trial == 0 ? 2 : MLKEM_Q);
        r0[i] = r1[i] = (int16_t)(trial == 1 ? -8 * MLKEM_Q + 1 : rand_coeff(8 * MLKEM_Q));
      }
      ref->ntt(x);
      be->ntt(y);
      bad_ntt += memcmp(x, y, sizeof(x)) != 0;
      ref->invntt(r0);
      be->invntt(r1);
      bad_inv += memcmp(r0, r1, sizeof(r0)) != 0;
      const unsigned k = 1 + (unsigned)trial % 4;
      for (unsigned j = 0; j < k; j++) {
        for (unsigned i = 0; i < MLKEM_N; i++) {
          a[j][i] = trial == 2 ? 4095 : (int16_t)(test_rand() % 4096);
          b[j][i] = trial == 2 ? -(MLKEM_Q - 1) / 2 : rand_coeff((MLKEM_Q + 1) / 2);
        }
      }
      ref->basemul_acc(r0, (const int16_t(*)[MLKEM_N])a, (const int16_t(*)[MLKEM_N])b, k);
      be->basemul_acc(r1, (const int16_t(*)[MLKEM_N])a, (const int16_t(*)[MLKEM_N])b, k);
      for (unsigned i = 0; i < MLKEM_N; i++) {
        bad_mul += mod_q(r0[i]) != mod_q(r1[i]) || r1[i] < -(MLKEM_Q - 1) / 2 ||
                   r1[i] > (MLKEM_Q - 1) / 2;
      }
    }
    CHECK(bad_ntt == 0 && bad_inv == 0 && bad_mul == 0,
          "back end %s: ntt %u, invntt %u runs differ from portable; basemul_acc %u values",
          be->name, bad_ntt, bad_inv, bad_mul);
    printf("back end %s: kernels agree with portable\n", be->name);
  }
  mlkem_set_backend("auto");
}

/* Compress_d and Decompress_d for every input against FIPS 203's rounding
 * (x + 1/2 rounded down), in exact rational arithmetic. */
static void test_compress(void) {
  static const unsigned ds[] = {1, 4, 5, 10, 11};
  for (unsigned di = 0; di < 5; di++) {
    const unsigned d = ds[di];
    unsigned bad = 0;
    mlkem_poly p;
    for (int x = 0; x < MLKEM_Q; x++) {
      p.c[x % MLKEM_N] = (int16_t)x;
      if (x % MLKEM_N == MLKEM_N - 1 || x == MLKEM_Q - 1) {
        mlkem_compress(&p, d);
        for (int y = x - x % MLKEM_N; y <= x; y++) {
          /* round(2^d y / q) = floor((2^(d+1) y + q) / 2q) */
          const long want = (((2L << d) * y + MLKEM_Q) / (2L * MLKEM_Q)) % (1L << d);
          bad += p.c[y % MLKEM_N] != want;
        }
      }
    }
    for (int y = 0; y < (1 << d); y++) {
      p.c[0] = (int16_t)y;
      mlkem_decompress(&p, d);
      bad += p.c[0] != (2L * MLKEM_Q * y + (1L << d)) / (2L << d);
    }
    CHECK(bad == 0, "Compress/Decompress_%u: %u values wrong", d, bad);
  }
}

/* The sizes of FIPS 203's table 3 from k, du, dv. */
static void test_sizes(void) {
  for (int i = 0; i < 3; i++) {
    const mlkem_params *p = mlkem_params_get(sets[i]);
    CHECK(p->k == (unsigned)sets[i] / 256, "k of %d", sets[i]);
    CHECK(mlkem_ek_bytes(sets[i]) == 384 * p->k + 32, "ek size of %d", sets[i]);
    CHECK(mlkem_dk_bytes(sets[i]) == 768 * p->k + 96, "dk size of %d", sets[i]);
    CHECK(mlkem_ct_bytes(sets[i]) == 32 * (p->du * p->k + p->dv), "ct size of %d", sets[i]);
  }
  CHECK(mlkem_ek_bytes(1) == 0 && mlkem_dk_bytes(-768) == 0 && mlkem_ct_bytes(0) == 0,
        "sizes of an unknown set");
}

static int hex(uint8_t *out, size_t n, const char *s) {
  if (strlen(s) != 2 * n) {
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    if (sscanf(s + 2 * i, "%2x", &v) != 1) {
      return -1;
    }
    out[i] = (uint8_t)v;
  }
  return 0;
}

static void test_vectors(const char *dir) {
  static uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES], ct[MLKEM_MAX_CT_BYTES];
  for (int si = 0; si < 3; si++) {
    const int set = sets[si];
    const mlkem_params *p = mlkem_params_get(set);
    char path[4096], f[9][200];
    snprintf(path, sizeof(path), "%s/mlkem%d.txt", dir, set);
    FILE *in = fopen(path, "r");
    CHECK(in != NULL, "cannot open %s", path);
    if (in == NULL) {
      continue;
    }
    unsigned records = 0;
    while (fscanf(in, "%199s %199s %199s %199s %199s %199s %199s %199s %199s", f[0], f[1], f[2],
                  f[3], f[4], f[5], f[6], f[7], f[8]) == 9) {
      uint8_t d[32], z[32], m[32], hek[32], hdk[32], hct[32], k[32], krej[32], h[32], ss[32];
      CHECK(hex(d, 32, f[0]) == 0 && hex(z, 32, f[1]) == 0 && hex(m, 32, f[2]) == 0 &&
                hex(hek, 32, f[3]) == 0 && hex(hdk, 32, f[4]) == 0 && hex(hct, 32, f[5]) == 0 &&
                hex(k, 32, f[6]) == 0 && hex(krej, 32, f[8]) == 0,
            "%s: malformed record %u", path, records);
      const size_t pos = (size_t)strtoul(f[7], NULL, 10);
      CHECK(mlkem_keypair_derand(set, ek, p->ek_bytes, dk, p->dk_bytes, d, z) == MLKEM_OK,
            "%d keypair", set);
      mlkem_hash_h(h, ek, p->ek_bytes);
      CHECK(memcmp(h, hek, 32) == 0, "ML-KEM-%d record %u: ek differs", set, records);
      mlkem_hash_h(h, dk, p->dk_bytes);
      CHECK(memcmp(h, hdk, 32) == 0, "ML-KEM-%d record %u: dk differs", set, records);
      CHECK(mlkem_encaps_derand(set, ct, p->ct_bytes, ss, ek, p->ek_bytes, m) == MLKEM_OK,
            "%d encaps", set);
      mlkem_hash_h(h, ct, p->ct_bytes);
      CHECK(memcmp(h, hct, 32) == 0, "ML-KEM-%d record %u: ct differs", set, records);
      CHECK(memcmp(ss, k, 32) == 0, "ML-KEM-%d record %u: encaps key differs", set, records);
      memset(ss, 0, sizeof(ss));
      CHECK(mlkem_decaps(set, ss, ct, p->ct_bytes, dk, p->dk_bytes) == MLKEM_OK, "%d decaps",
            set);
      CHECK(memcmp(ss, k, 32) == 0, "ML-KEM-%d record %u: decaps key differs", set, records);
      CHECK(pos < p->ct_bytes, "position in range");
      ct[pos % p->ct_bytes] ^= 1;
      CHECK(mlkem_decaps(set, ss, ct, p->ct_bytes, dk, p->dk_bytes) == MLKEM_OK,
            "%d decaps of a tampered ciphertext", set);
      CHECK(memcmp(ss, krej, 32) == 0, "ML-KEM-%d record %u: implicit-rejection key differs",
            set, records);
      records++;
    }
    fclose(in);
    CHECK(records >= 25, "%s: only %u records", path, records);
    printf("ML-KEM-%d: %u vector records (keygen, encaps, decaps, rejection) on %s\n", set,
           records, mlkem_backend_name());
  }
}

/* Every error returns its code and leaves every output as it was. */
static void test_errors(void) {
  static uint8_t ek[MLKEM_MAX_EK_BYTES + 1], dk[MLKEM_MAX_DK_BYTES + 1];
  static uint8_t ct[MLKEM_MAX_CT_BYTES + 1], out[MLKEM_MAX_CT_BYTES + 1];
  uint8_t seed[32] = {7}, ss[32], ss_before[32];
  for (int si = 0; si < 3; si++) {
    const int set = sets[si];
    const mlkem_params *p = mlkem_params_get(set);
    CHECK(mlkem_keypair_derand(set, ek, p->ek_bytes, dk, p->dk_bytes, seed, seed) == MLKEM_OK,
          "keypair");
    CHECK(mlkem_encaps_derand(set, ct, p->ct_bytes, ss, ek, p->ek_bytes, seed) == MLKEM_OK,
          "encaps");
    memset(out, 0xA5, sizeof(out));
    memset(ss, 0x5A, sizeof(ss));
    memcpy(ss_before, ss, sizeof(ss));
    uint8_t fresh_ek[MLKEM_MAX_EK_BYTES], fresh_dk[MLKEM_MAX_DK_BYTES];
    memset(fresh_ek, 0xA5, sizeof(fresh_ek));
    memset(fresh_dk, 0xA5, sizeof(fresh_dk));
    const int bad_sets[] = {0, 1, 3, 511, 769, -1024, 2048};
    for (unsigned b = 0; b < sizeof(bad_sets) / sizeof(bad_sets[0]); b++) {
      CHECK(mlkem_keypair_derand(bad_sets[b], fresh_ek, p->ek_bytes, fresh_dk, p->dk_bytes, seed,
                                 seed) == MLKEM_ERR_SET,
            "set %d", bad_sets[b]);
      CHECK(mlkem_keypair(bad_sets[b], fresh_ek, p->ek_bytes, fresh_dk, p->dk_bytes) ==
                MLKEM_ERR_SET,
            "set %d", bad_sets[b]);
      CHECK(mlkem_encaps_derand(bad_sets[b], out, p->ct_bytes, ss, ek, p->ek_bytes, seed) ==
                MLKEM_ERR_SET,
            "set %d", bad_sets[b]);
      CHECK(mlkem_decaps(bad_sets[b], ss, ct, p->ct_bytes, dk, p->dk_bytes) == MLKEM_ERR_SET,
            "set %d", bad_sets[b]);
    }
    /* Wrong lengths, one buffer at a time. */
    for (int delta = -1; delta <= 1; delta += 2) {
      CHECK(mlkem_keypair_derand(set, fresh_ek, p->ek_bytes + delta, fresh_dk, p->dk_bytes, seed,
                                 seed) == MLKEM_ERR_LENGTH,
            "ek length");
      CHECK(mlkem_keypair_derand(set, fresh_ek, p->ek_bytes, fresh_dk, p->dk_bytes + delta, seed,
                                 seed) == MLKEM_ERR_LENGTH,
            "dk length");
      CHECK(mlkem_keypair(set, fresh_ek, p->ek_bytes, fresh_dk, p->dk_bytes + delta) ==
                MLKEM_ERR_LENGTH,
            "dk length");
      CHECK(mlkem_encaps_derand(set, out, p->ct_bytes + delta, ss, ek, p->ek_bytes, seed) ==
                MLKEM_ERR_LENGTH,
            "ct length");
      CHECK(mlkem_encaps(set, out, p->ct_bytes, ss, ek, p->ek_bytes + delta) == MLKEM_ERR_LENGTH,
            "ek length");
      CHECK(mlkem_decaps(set, ss, ct, p->ct_bytes + delta, dk, p->dk_bytes) == MLKEM_ERR_LENGTH,
            "ct length");
      CHECK(mlkem_decaps(set, ss, ct, p->ct_bytes, dk, p->dk_bytes + delta) == MLKEM_ERR_LENGTH,
            "dk length");
    }
    /* NULLs. */
    CHECK(mlkem_keypair_derand(set, NULL, p->ek_bytes, fresh_dk, p->dk_bytes, seed, seed) ==
              MLKEM_ERR_NULL,
          "NULL ek");
    CHECK(mlkem_keypair_derand(set, fresh_ek, p->ek_bytes, fresh_dk, p->dk_bytes, NULL, seed) ==
              MLKEM_ERR_NULL,
          "NULL d");
    CHECK(mlkem_keypair(set, fresh_ek, p->ek_bytes, NULL, p->dk_bytes) == MLKEM_ERR_NULL,
          "NULL dk");
    CHECK(mlkem_encaps_derand(set, out, p->ct_bytes, NULL, ek, p->ek_bytes, seed) ==
              MLKEM_ERR_NULL,
          "NULL ss");
    CHECK(mlkem_encaps(set, out, p->ct_bytes, ss, NULL, p->ek_bytes) == MLKEM_ERR_NULL,
          "NULL ek");
    CHECK(mlkem_encaps_derand(set, out, p->ct_bytes, ss, ek, p->ek_bytes, NULL) ==
              MLKEM_ERR_NULL,
          "NULL m");
    CHECK(mlkem_decaps(set, ss, NULL, p->ct_bytes, dk, p->dk_bytes) == MLKEM_ERR_NULL,
          "NULL ct");
    CHECK(mlkem_decaps(set, ss, ct, p->ct_bytes, NULL, p->dk_bytes) == MLKEM_ERR_NULL,
          "NULL dk");
    /* Section 7.2: a coefficient of ek equal to q (the first 12 bits of
     * polynomial i), in each polynomial; 4095 in the last coefficient. */
    for (unsigned i = 0; i < p->k; i++) {
      uint8_t saved[3];
      uint8_t *c = ek + MLKEM_POLY_BYTES * i;
      memcpy(saved, c, 3);
      c[0] = MLKEM_Q & 0xFF;
      c[1] = (uint8_t)((c[1] & 0xF0) | (MLKEM_Q >> 8));
      CHECK(mlkem_encaps_derand(set, out, p->ct_bytes, ss, ek, p->ek_bytes, seed) ==
                MLKEM_ERR_KEY,
            "ML-KEM-%d: ek with coefficient q in polynomial %u accepted", set, i);
      CHECK(mlkem_encaps(set, out, p->ct_bytes, ss, ek, p->ek_bytes) == MLKEM_ERR_KEY,
            "ML-KEM-%d: ek with coefficient q accepted", set);
      c[0] = MLKEM_Q & 0xFF;
      c[1] = (uint8_t)((c[1] & 0xF0) | ((MLKEM_Q - 1) >> 8));
      c[0] = (MLKEM_Q - 1) & 0xFF;
      CHECK(mlkem_encaps_derand(set, out, p->ct_bytes, ss, ek, p->ek_bytes, seed) == MLKEM_OK,
            "ML-KEM-%d: ek with coefficient q - 1 refused", set);
      memset(out, 0xA5, sizeof(out));
      memcpy(ss, ss_before, sizeof(ss));
      memcpy(c, saved, 3);
      c = ek + MLKEM_POLY_BYTES * (i + 1) - 2;
      memcpy(saved, c, 2);
      c[0] |= 0xF0;
      c[1] = 0xFF;
      CHECK(mlkem_encaps_derand(set, out, p->ct_bytes, ss, ek, p->ek_bytes, seed) ==
                MLKEM_ERR_KEY,
            "ML-KEM-%d: ek with coefficient 4095 accepted", set);
      memcpy(c, saved, 2);
    }
    /* Section 7.3: dk whose H(ek) does not match. */
    dk[MLKEM_POLY_BYTES * p->k + p->ek_bytes + 5] ^= 1;
    CHECK(mlkem_decaps(set, ss, ct, p->ct_bytes, dk, p->dk_bytes) == MLKEM_ERR_KEY,
          "ML-KEM-%d: dk with a wrong hash accepted", set);
    dk[MLKEM_POLY_BYTES * p->k + p->ek_bytes + 5] ^= 1;
    dk[MLKEM_POLY_BYTES * p->k + 3] ^= 1; /* the ek inside dk */
    CHECK(mlkem_decaps(set, ss, ct, p->ct_bytes, dk, p->dk_bytes) == MLKEM_ERR_KEY,
          "ML-KEM-%d: dk with a changed ek accepted", set);
    dk[MLKEM_POLY_BYTES * p->k + 3] ^= 1;
    unsigned touched = 0;
    for (size_t i = 0; i < sizeof(out); i++) {
      touched += out[i] != 0xA5;
    }
    for (size_t i = 0; i < sizeof(fresh_ek); i++) {
      touched += fresh_ek[i] != 0xA5;
    }
    for (size_t i = 0; i < sizeof(fresh_dk); i++) {
      touched += fresh_dk[i] != 0xA5;
    }
    CHECK(touched == 0 && memcmp(ss, ss_before, 32) == 0,
          "ML-KEM-%d: a failing call wrote %u bytes", set, touched);
    CHECK(strcmp(mlkem_strerror(MLKEM_ERR_KEY), mlkem_strerror(MLKEM_ERR_LENGTH)) != 0,
          "error texts");
  }
}

/* Fresh keys and messages from the operating system. */
static void test_round_trips(void) {
  static uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES], ct[MLKEM_MAX_CT_BYTES];
  for (int si = 0; si < 3; si++) {
    const mlkem_params *p = mlkem_params_get(sets[si]);
    unsigned bad = 0;
    for (int i = 0; i < 50; i++) {
      uint8_t a[32], b[32];
      bad += mlkem_keypair(sets[si], ek, p->ek_bytes, dk, p->dk_bytes) != MLKEM_OK;
      bad += mlkem_encaps(sets[si], ct, p->ct_bytes, a, ek, p->ek_bytes) != MLKEM_OK;
      bad += mlkem_decaps(sets[si], b, ct, p->ct_bytes, dk, p->dk_bytes) != MLKEM_OK;
      bad += memcmp(a, b, 32) != 0;
    }
    CHECK(bad == 0, "ML-KEM-%d: %u random round trips failed", sets[si], bad);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <vector folder>\n", argv[0]);
    return 2;
  }
  test_zetas();
  test_ntt_multiply();
  test_kernels();
  test_compress();
  test_sizes();
  for (unsigned bi = 0; mlkem_backend_at(bi) != NULL; bi++) {
    if (mlkem_set_backend(mlkem_backend_at(bi)->name) == MLKEM_OK) {
      test_vectors(argv[1]);
    }
  }
  mlkem_set_backend("auto");
  test_errors();
  test_round_trips();
  return test_summary();
}
