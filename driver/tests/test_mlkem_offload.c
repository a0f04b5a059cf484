/* bike_acc_mlkem on a fake ntt_acc (the shell model with a stand-in core of
 * ntt_acc's three operations and word layout, computing with libmlkem's
 * portable kernels on [0, q) values): the device checks (core, PARAM), every
 * set's keygen, encaps and decaps byte-identical to software under each
 * placement with the device operations counted against the kernels K-PKE
 * calls, and the error paths (device error, results >= q): MLKEM_ERR_ACCEL,
 * outputs wiped, the driver's code kept. */
#include <string.h>

#include "bike_acc.h"
#include "bike_acc_fake.h"
#include "bike_acc_mlkem.h"
#include "mlkem/accel.h"
#include "mlkem/mlkem.h"
#include "ntt.h"
#include "regs.h"
#include "test_util.h"

#define N 256
#define Q 3329
#define WORDS 64

static int corrupt; /* the next results get a coefficient >= q */

static void unpack(int16_t *a, const uint64_t *w) {
  for (unsigned i = 0; i < N; i++) a[i] = (int16_t)(uint16_t)(w[i / 4] >> (16 * (i % 4)));
}
static void pack(uint64_t *w, const int16_t *a) {
  for (unsigned i = 0; i < WORDS; i++) {
    w[i] = 0;
    for (unsigned j = 0; j < 4; j++)
      w[i] |= (uint64_t)(uint16_t)(((a[4 * i + j] % Q) + Q) % Q) << (16 * j);
  }
}

/* ntt_acc's operations: OP = kind | (count - 1) << 4 (rtl/ntt_stream.sv) */
static int op_words(void *ctx, uint32_t op, uint32_t *in, uint32_t *out) {
  (void)ctx;
  const uint32_t kind = op & 15, k = (op >> 4) + 1;
  if (kind < 1 || kind > 4) return 0;
  *in = (kind >= 3 ? 2 : 1) * k * WORDS;
  *out = (kind >= 3 ? 1 : k) * WORDS;
  return 1;
}

/* ntt_acc's semantics (doc/acc_shell.md): libmlkem's kernels mod q */
static void compute_op(void *ctx, uint32_t op, const uint64_t *in, uint64_t *out) {
  (void)ctx;
  const uint32_t kind = op & 15, k = (op >> 4) + 1;
  static int16_t a[16][N], b[16][N];
  int16_t r[N];
  if (kind <= 2) {
    for (uint32_t j = 0; j < k; j++) {
      unpack(a[0], in + j * WORDS);
      if (kind == 1) {
        mlkem_ntt_c(a[0]);
      } else {
        mlkem_invntt_c(a[0]);
      }
      pack(out + j * WORDS, a[0]);
    }
  } else {
    for (uint32_t j = 0; j < k; j++) {
      unpack(a[j], in + 2 * j * WORDS);
      unpack(b[j], in + (2 * j + 1) * WORDS);
      for (unsigned i = 0; i < N; i++) b[j][i] = (int16_t)(b[j][i] > Q / 2 ? b[j][i] - Q : b[j][i]);
    }
    mlkem_basemul_acc_c(r, (const int16_t(*)[N])a, (const int16_t(*)[N])b, k);
    if (kind == 4) mlkem_invntt_c(r);
    pack(out, r);
  }
  if (corrupt) out[5] |= 0xffffull << 16;
}

typedef struct {
  bike_acc_fake_config cfg;
  bike_acc_dev *dev;
} fake_dev;

static int open_fake(fake_dev *f, uint32_t core, uint32_t param, int core_error) {
  memset(&f->cfg, 0, sizeof(f->cfg));
  f->cfg.id = ACC_PUT(ACC_MAGIC, ID, MAGIC) | ACC_PUT(core, ID, CORE);
  f->cfg.param = param;
  f->cfg.in_words = 32 * WORDS;
  f->cfg.out_words = 16 * WORDS;
  f->cfg.cycles = 800;
  f->cfg.core_error = core_error;
  f->cfg.op_words = op_words;
  f->cfg.compute_op = compute_op;
  bike_acc_options opt = {.wait = BIKE_ACC_POLL, .platform_config = &f->cfg};
  return bike_acc_open(&f->dev, BIKE_ACC_FAKE, 0, &opt);
}

static void test_device_checks(void) {
  fake_dev f;
  bike_acc_mlkem *m = NULL;
  CHECK(open_fake(&f, ACC_SHELL__ACC_SHELL_CORE_E__GF2X_MUL, Q, 0) == BIKE_ACC_OK, "open mul");
  CHECK(bike_acc_mlkem_new(&m, f.dev, BIKE_ACC_MLKEM_ALL) == BIKE_ACC_ERR_CORE && m == NULL,
        "a gf2x_mul device is refused");
  bike_acc_close(f.dev);
  CHECK(open_fake(&f, ACC_SHELL__ACC_SHELL_CORE_E__NTT, 7681, 0) == BIKE_ACC_OK, "open q 7681");
  CHECK(bike_acc_mlkem_new(&m, f.dev, BIKE_ACC_MLKEM_ALL) == BIKE_ACC_ERR_PARAM,
        "an ntt device of another q is refused");
  CHECK(bike_acc_mlkem_new(&m, f.dev, 8) == BIKE_ACC_ERR_ARG, "an unknown placement bit");
  bike_acc_close(f.dev);
}

typedef struct {
  uint8_t ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES], ct[MLKEM_MAX_CT_BYTES];
  uint8_t ss_e[MLKEM_SS_BYTES], ss_d[MLKEM_SS_BYTES], ss_bad[MLKEM_SS_BYTES];
  int rc[4];
} run_out;

/* keygen, encaps, decaps, and decaps of a tampered ciphertext */
static void run_all(int set, unsigned seed, run_out *o) {
  uint8_t d[32], z[32], msg[32];
  for (unsigned i = 0; i < 32; i++) {
    d[i] = (uint8_t)(seed * 7 + i);
    z[i] = (uint8_t)(seed * 13 + 3 * i);
    msg[i] = (uint8_t)(seed * 29 + 5 * i);
  }
  size_t ekn = mlkem_ek_bytes(set), dkn = mlkem_dk_bytes(set), ctn = mlkem_ct_bytes(set);
  memset(o, 0xaa, sizeof(*o));
  o->rc[0] = mlkem_keypair_derand(set, o->ek, ekn, o->dk, dkn, d, z);
  o->rc[1] = mlkem_encaps_derand(set, o->ct, ctn, o->ss_e, o->ek, ekn, msg);
  o->rc[2] = mlkem_decaps(set, o->ss_d, o->ct, ctn, o->dk, dkn);
  uint8_t bad[MLKEM_MAX_CT_BYTES];
  memcpy(bad, o->ct, ctn);
  bad[ctn / 2] ^= 0x10;
  o->rc[3] = mlkem_decaps(set, o->ss_bad, bad, ctn, o->dk, dkn);
}

static int is_zero(const uint8_t *p, size_t n) {
  uint8_t x = 0;
  for (size_t i = 0; i < n; i++) x |= p[i];
  return x == 0;
}

static void test_kem(void) {
  static const int sets[] = {512, 768, 1024};
  static const unsigned placements[] = {
      BIKE_ACC_MLKEM_ALL, BIKE_ACC_MLKEM_NTT, BIKE_ACC_MLKEM_INVNTT, BIKE_ACC_MLKEM_BASEMUL,
      BIKE_ACC_MLKEM_BASEMUL | BIKE_ACC_MLKEM_INVNTT};
  fake_dev f;
  CHECK(open_fake(&f, ACC_SHELL__ACC_SHELL_CORE_E__NTT, Q, 0) == BIKE_ACC_OK, "open ntt");
  for (unsigned s = 0; s < 3; s++) {
    const int set = sets[s];
    const uint64_t k = (uint64_t)set / 256;
    for (unsigned seed = 0; seed < 3; seed++) {
      static run_out sw, hw;
      mlkem_set_accel(NULL);
      run_all(set, seed, &sw);
      CHECK(sw.rc[0] == 0 && sw.rc[1] == 0 && sw.rc[2] == 0 && sw.rc[3] == 0, "software runs");
      for (unsigned p = 0; p < sizeof(placements) / sizeof(placements[0]); p++) {
        bike_acc_mlkem *m = NULL;
        CHECK(bike_acc_mlkem_new(&m, f.dev, placements[p]) == BIKE_ACC_OK, "new");
        if (m == NULL) continue;
        mlkem_set_accel(bike_acc_mlkem_table(m));
        run_all(set, seed, &hw);
        mlkem_set_accel(NULL);
        CHECK(memcmp(&sw, &hw, sizeof(sw)) == 0,
              "ML-KEM-%d seed %u placement %u: byte-identical to software", set, seed,
              placements[p]);
        bike_acc_mlkem_stats st;
        bike_acc_mlkem_get_stats(m, &st);
        /* one device operation per batch: keygen's 2k NTTs, each NTT(y) and
         * NTT(u); each row of A^T y, t^T y and s^T u one MACINTT (with both
         * kernels placed; else a MAC and an INTT where placed), keygen's
         * rows MACs. The run encrypts once and decrypts (then re-encrypts)
         * twice: 6 vectors, 3k + 5 rows back from the NTT domain. */
        const unsigned pl = placements[p];
        const int fused = (pl & BIKE_ACC_MLKEM_BASEMUL) && (pl & BIKE_ACC_MLKEM_INVNTT);
        const uint64_t rows = 3 * k + 5;
        const uint64_t want[4] = {
            (pl & BIKE_ACC_MLKEM_NTT) ? 6 : 0,
            (pl & BIKE_ACC_MLKEM_INVNTT) && !fused ? rows : 0,
            (pl & BIKE_ACC_MLKEM_BASEMUL) ? k + (fused ? 0 : rows) : 0,
            fused ? rows : 0,
        };
        CHECK(st.runs[0] == want[0] && st.runs[1] == want[1] && st.runs[2] == want[2] &&
                  st.runs[3] == want[3],
              "ML-KEM-%d placement %u: device runs %llu %llu %llu %llu", set, pl,
              (unsigned long long)st.runs[0], (unsigned long long)st.runs[1],
              (unsigned long long)st.runs[2], (unsigned long long)st.runs[3]);
        /* words: keygen's 2k in and out, 2 x k for each NTT(y), NTT(u); a
         * row 2k + 1 */
        CHECK(!fused || (st.words_in[3] == rows * 2 * k * WORDS && st.words_out[3] == rows * WORDS),
              "MACINTT words");
        CHECK(!(pl & BIKE_ACC_MLKEM_NTT) ||
                  (st.words_in[0] == (2 * k + 5 * k) * WORDS && st.words_out[0] == st.words_in[0]),
              "NTT words: %llu", (unsigned long long)st.words_in[0]);
        CHECK(st.cycles[0] == 800 * st.runs[0], "CYCLES summed");
        bike_acc_mlkem_free(m);
      }
    }
  }
  bike_acc_close(f.dev);
}

static void test_errors(void) {
  for (unsigned kind = 0; kind < 2; kind++) {
    fake_dev f;
    CHECK(open_fake(&f, ACC_SHELL__ACC_SHELL_CORE_E__NTT, Q, kind == 0) == BIKE_ACC_OK,
          "open failing ntt");
    corrupt = kind == 1;
    const int want = kind == 0 ? BIKE_ACC_ERR_DEV(CORE) : BIKE_ACC_ERR_RESULT;
    static const unsigned placements[] = {BIKE_ACC_MLKEM_NTT, BIKE_ACC_MLKEM_INVNTT,
                                          BIKE_ACC_MLKEM_BASEMUL};
    for (unsigned p = 0; p < 3; p++) {
      static run_out sw, hw;
      mlkem_set_accel(NULL);
      run_all(768, 1, &sw);
      bike_acc_mlkem *m = NULL;
      CHECK(bike_acc_mlkem_new(&m, f.dev, placements[p]) == BIKE_ACC_OK, "new");
      if (m == NULL) continue;
      mlkem_set_accel(bike_acc_mlkem_table(m));
      uint8_t d[32] = {1}, z[32] = {2}, msg[32] = {3};
      memset(&hw, 0xaa, sizeof(hw));
      /* key generation has no inverse NTT: that placement leaves it in software */
      const int keygen_fails = placements[p] != BIKE_ACC_MLKEM_INVNTT;
      CHECK(mlkem_keypair_derand(768, hw.ek, MLKEM768_EK_BYTES, hw.dk, MLKEM768_DK_BYTES, d,
                                 z) == (keygen_fails ? MLKEM_ERR_ACCEL : MLKEM_OK),
            "keygen: MLKEM_ERR_ACCEL when a kernel it runs fails");
      CHECK(!keygen_fails ||
                (is_zero(hw.ek, MLKEM768_EK_BYTES) && is_zero(hw.dk, MLKEM768_DK_BYTES)),
            "keygen: ek and dk wiped");
      /* encaps and decaps with the software's keys */
      CHECK(mlkem_encaps_derand(768, hw.ct, MLKEM768_CT_BYTES, hw.ss_e, sw.ek, MLKEM768_EK_BYTES,
                                msg) == MLKEM_ERR_ACCEL,
            "encaps: MLKEM_ERR_ACCEL");
      CHECK(is_zero(hw.ct, MLKEM768_CT_BYTES) && is_zero(hw.ss_e, 32), "encaps: ct and ss wiped");
      CHECK(mlkem_decaps(768, hw.ss_d, sw.ct, MLKEM768_CT_BYTES, sw.dk, MLKEM768_DK_BYTES) ==
                MLKEM_ERR_ACCEL,
            "decaps: MLKEM_ERR_ACCEL");
      CHECK(is_zero(hw.ss_d, 32), "decaps: ss wiped");
      CHECK(bike_acc_mlkem_last_error(m) == want, "the driver's code kept: %d",
            bike_acc_mlkem_last_error(m));
      mlkem_set_accel(NULL);
      bike_acc_mlkem_free(m);
    }
    corrupt = 0;
    bike_acc_close(f.dev);
  }
  CHECK(strcmp(mlkem_strerror(MLKEM_ERR_ACCEL), "unknown error") != 0, "MLKEM_ERR_ACCEL's text");
}

int main(void) {
  test_device_checks();
  test_kem();
  test_errors();
  return test_summary();
}
