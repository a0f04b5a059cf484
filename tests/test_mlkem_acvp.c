/* libmlkem byte-exact against NIST's ACVP vectors for FIPS 203
 * (tests/mlkem/acvp/mlkem_acvp.txt, a trimmed subset written by
 * tests/mlkem/acvp_extract.py; its first line names the source), for
 * ML-KEM-512, -768 and -1024 on every back end this CPU runs:
 *   keygen  ML-KEM.KeyGen_internal(d, z) gives ek and dk
 *   encaps  ML-KEM.Encaps_internal(ek, m) gives c and K
 *   decaps  ML-KEM.Decaps(dk, c) gives K, for ACVP's valid ciphertexts and
 *           its modified ones (K is then the implicit-rejection key)
 * Usage: test_mlkem_acvp <vector file> */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "mlkem/mlkem.h"
#include "test_util.h"

#define MAX_FIELDS 8

/* The vector file, split into records of whitespace-separated fields. */
typedef struct {
  char *line;
  char *f[MAX_FIELDS];
  int n;
} record;

static record *records;
static size_t n_records;

static void load(const char *path) {
  FILE *in = fopen(path, "r");
  char *line = NULL;
  size_t cap = 0;
  CHECK(in != NULL, "cannot open %s", path);
  if (in == NULL) {
    return;
  }
  while (getline(&line, &cap, in) > 0) {
    if (line[0] == '#') {
      continue;
    }
    records = realloc(records, (n_records + 1) * sizeof(*records));
    if (records == NULL) {
      fprintf(stderr, "out of memory\n");
      exit(1);
    }
    record *r = &records[n_records++];
    r->line = strdup(line);
    r->n = 0;
    char *t = strtok(r->line, " \n");
    while (t != NULL && r->n < MAX_FIELDS) {
      r->f[r->n++] = t;
      t = strtok(NULL, " \n");
    }
  }
  free(line);
  fclose(in);
}

/* Decodes field i of r into out (exactly n bytes), or records a failure. */
static int field(const record *r, int i, uint8_t *out, size_t n) {
  int ok = i < r->n && strlen(r->f[i]) == 2 * n && hex_to_bytes(r->f[i], out, n) == 0;
  CHECK(ok, "%s %s tcId %s: field %d is not %zu bytes of hex", r->f[0], r->f[1], r->f[2], i, n);
  return ok;
}

/* Counts of records checked, per kind. */
typedef struct {
  unsigned keygen, encaps, decaps_valid, decaps_modified;
} counts;

static counts run_all(void) {
  static uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES], ct[MLKEM_MAX_CT_BYTES];
  static uint8_t want_ek[MLKEM_MAX_EK_BYTES], want_dk[MLKEM_MAX_DK_BYTES];
  static uint8_t want_ct[MLKEM_MAX_CT_BYTES], vdk[MLKEM_MAX_DK_BYTES];
  counts c = {0, 0, 0, 0};
  int dk_set = 0;
  for (size_t i = 0; i < n_records; i++) {
    const record *r = &records[i];
    const int set = r->n >= 2 ? atoi(r->f[1]) : 0;
    const size_t ekn = mlkem_ek_bytes(set), dkn = mlkem_dk_bytes(set), ctn = mlkem_ct_bytes(set);
    uint8_t d[32], z[32], m[32], k[32], ss[32];
    CHECK(ekn != 0, "record %zu: unknown parameter set", i);
    if (ekn == 0) {
      continue;
    }
    if (strcmp(r->f[0], "keygen") == 0 && r->n == 7) {
      if (field(r, 3, d, 32) && field(r, 4, z, 32) && field(r, 5, want_ek, ekn) &&
          field(r, 6, want_dk, dkn)) {
        CHECK(mlkem_keypair_derand(set, ek, ekn, dk, dkn, d, z) == MLKEM_OK, "keypair");
        CHECK(memcmp(ek, want_ek, ekn) == 0, "ML-KEM-%d keyGen tcId %s: ek differs at byte %ld",
              set, r->f[2], first_difference(ek, want_ek, ekn));
        CHECK(memcmp(dk, want_dk, dkn) == 0, "ML-KEM-%d keyGen tcId %s: dk differs at byte %ld",
              set, r->f[2], first_difference(dk, want_dk, dkn));
        c.keygen++;
      }
    } else if (strcmp(r->f[0], "encaps") == 0 && r->n == 7) {
      if (field(r, 3, ek, ekn) && field(r, 4, m, 32) && field(r, 5, want_ct, ctn) &&
          field(r, 6, k, 32)) {
        CHECK(mlkem_encaps_derand(set, ct, ctn, ss, ek, ekn, m) == MLKEM_OK, "encaps");
        CHECK(memcmp(ct, want_ct, ctn) == 0, "ML-KEM-%d encaps tcId %s: c differs at byte %ld",
              set, r->f[2], first_difference(ct, want_ct, ctn));
        CHECK(memcmp(ss, k, 32) == 0, "ML-KEM-%d encaps tcId %s: K differs", set, r->f[2]);
        c.encaps++;
      }
    } else if (strcmp(r->f[0], "dk") == 0 && r->n == 3) {
      dk_set = field(r, 2, vdk, dkn) ? set : 0;
    } else if (strcmp(r->f[0], "decaps") == 0 && r->n == 6) {
      const int modified = strcmp(r->f[5], "modified") == 0;
      CHECK(dk_set == set, "decaps tcId %s: no decapsulation key of ML-KEM-%d before it",
            r->f[2], set);
      if (dk_set == set && field(r, 3, ct, ctn) && field(r, 4, k, 32)) {
        memset(ss, 0, sizeof(ss));
        CHECK(mlkem_decaps(set, ss, ct, ctn, vdk, dkn) == MLKEM_OK, "decaps");
        CHECK(memcmp(ss, k, 32) == 0, "ML-KEM-%d decaps tcId %s (%s): K differs", set, r->f[2],
              r->f[5]);
        if (modified) {
          c.decaps_modified++;
        } else {
          c.decaps_valid++;
        }
      }
    } else {
      CHECK(0, "record %zu: unknown kind %s or wrong field count %d", i, r->f[0], r->n);
    }
  }
  return c;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <vector file>\n", argv[0]);
    return 2;
  }
  load(argv[1]);
  for (unsigned bi = 0; mlkem_backend_at(bi) != NULL; bi++) {
    const char *name = mlkem_backend_at(bi)->name;
    if (mlkem_set_backend(name) != MLKEM_OK) {
      printf("back end %s NOT RUN: this CPU cannot run it\n", name);
      continue;
    }
    const counts c = run_all();
    /* 2 keygen and 2 encaps tests per set, 10 decaps per set of which some
     * modified: a shorter or truncated file is a failure. */
    CHECK(c.keygen == 6 && c.encaps == 6 && c.decaps_valid + c.decaps_modified == 30 &&
              c.decaps_modified >= 3,
          "back end %s: checked %u keygen, %u encaps, %u + %u decaps", name, c.keygen, c.encaps,
          c.decaps_valid, c.decaps_modified);
    printf("back end %s: ACVP keyGen %u, encaps %u, decaps %u valid + %u modified (implicit "
           "rejection), ML-KEM-512/768/1024\n",
           name, c.keygen, c.encaps, c.decaps_valid, c.decaps_modified);
  }
  for (size_t i = 0; i < n_records; i++) {
    free(records[i].line);
  }
  free(records);
  return test_summary();
}
