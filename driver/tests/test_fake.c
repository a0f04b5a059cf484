/* The driver's logic on the fake platform: identification and version,
 * a successful operation (polling and interrupt), the time-out, the device's
 * error code, the stream-length checks, unknown operations and bad
 * arguments; and the fake shell itself against the register map's rules. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "bike_acc.h"
#include "bike_acc_fake.h"
#include "fake_shell.h"
#include "platform.h"
#include "regs.h"
#include "test_util.h"

#define IN_WORDS 386u
#define OUT_WORDS 193u

static uint64_t in[IN_WORDS + 1], out[OUT_WORDS + 1];

static void random_in(void) {
  for (size_t i = 0; i < IN_WORDS + 1; i++) {
    in[i] = test_rand();
  }
}

static int default_result_ok(void) {
  for (size_t i = 0; i < OUT_WORDS; i++) {
    if (out[i] != (in[i] ^ in[i + OUT_WORDS])) {
      return 0;
    }
  }
  return 1;
}

/* A device on a fake shell the test can look into. */
static int open_shell(bike_acc_dev **d, fake_shell **s, const bike_acc_fake_config *cfg,
                      const bike_acc_options *opt) {
  *s = malloc(sizeof(**s));
  if (*s == NULL || fake_shell_init(*s, cfg) != 0) {
    return BIKE_ACC_ERR_NOMEM;
  }
  return bike_acc_open_with(d, &bike_acc_fake_ops, *s, opt);
}

static void test_identity(void) {
  bike_acc_dev *d = NULL;
  bike_acc_info info;
  int rc = bike_acc_open(&d, BIKE_ACC_FAKE, 0, NULL);
  CHECK(rc == BIKE_ACC_OK, "open: %s", bike_acc_strerror(rc));
  CHECK(bike_acc_get_info(d, &info) == BIKE_ACC_OK, "info");
  CHECK(info.core == ACC_SHELL__ACC_SHELL_CORE_E__GF2X_MUL && info.major == ACC_MAJOR &&
            info.minor == ACC_MINOR,
        "info %u %u.%u", info.core, info.major, info.minor);
  bike_acc_close(d);

  const uint32_t good_id = ACC_PUT(ACC_MAGIC, ID, MAGIC) | ACC_PUT(1, ID, CORE);
  const struct {
    uint32_t id, version, core;
    int rc;
    const char *what;
  } cases[] = {
      {ACC_PUT(ACC_MAGIC ^ 1u, ID, MAGIC) | ACC_PUT(1, ID, CORE), 0, 0, BIKE_ACC_ERR_ID, "magic"},
      {0xFFFFFFFFu, 0, 0, BIKE_ACC_ERR_ID, "all ones (nothing mapped)"},
      {good_id, ACC_PUT(ACC_MAJOR + 1u, VERSION, MAJOR), 0, BIKE_ACC_ERR_VERSION, "newer major"},
      {good_id, ACC_PUT(ACC_MAJOR - 1u, VERSION, MAJOR) | ACC_PUT(9, VERSION, MINOR), 0,
       BIKE_ACC_ERR_VERSION, "older major"},
      {good_id, ACC_PUT(ACC_MAJOR, VERSION, MAJOR) | ACC_PUT(ACC_MINOR + 1u, VERSION, MINOR), 0,
       BIKE_ACC_OK, "newer minor (compatible)"},
      {good_id, 0, 2, BIKE_ACC_ERR_CORE, "other core"},
      {good_id, 0, 1, BIKE_ACC_OK, "the core asked for"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    bike_acc_fake_config cfg = {.id = cases[i].id, .version = cases[i].version};
    bike_acc_options opt = {.core = cases[i].core, .platform_config = &cfg};
    d = (bike_acc_dev *)&cfg; /* must be reset to NULL on failure */
    rc = bike_acc_open(&d, BIKE_ACC_FAKE, 0, &opt);
    CHECK(rc == cases[i].rc, "%s: %s", cases[i].what, bike_acc_strerror(rc));
    CHECK((rc == BIKE_ACC_OK) == (d != NULL), "%s: device pointer", cases[i].what);
    bike_acc_close(d);
  }
  CHECK(bike_acc_open(&d, BIKE_ACC_COSIM, 0, NULL) == BIKE_ACC_ERR_PLATFORM, "cosim not built");
  CHECK(bike_acc_open(&d, (bike_acc_platform)7, 0, NULL) == BIKE_ACC_ERR_ARG, "platform 7");
  CHECK(bike_acc_open(NULL, BIKE_ACC_FAKE, 0, NULL) == BIKE_ACC_ERR_ARG, "NULL device");
  CHECK(bike_acc_platform_from_name("uio") == BIKE_ACC_UIO &&
            bike_acc_platform_from_name("fake") == BIKE_ACC_FAKE &&
            bike_acc_platform_from_name("cosim") == BIKE_ACC_COSIM &&
            bike_acc_platform_from_name("pcie") == -1,
        "platform names");
}

static void reverse_core(void *ctx, const uint64_t *a, uint64_t *c) {
  *(int *)ctx += 1;
  for (size_t i = 0; i < OUT_WORDS; i++) {
    c[i] = a[IN_WORDS - 1 - i];
  }
}

static void test_success(bike_acc_wait wait) {
  bike_acc_fake_config cfg = {.latency = 5, .cycles = 7986};
  bike_acc_options opt = {.wait = wait, .platform_config = &cfg};
  bike_acc_dev *d;
  fake_shell *s;
  int rc = open_shell(&d, &s, &cfg, &opt);
  CHECK(rc == BIKE_ACC_OK, "open: %s", bike_acc_strerror(rc));
  size_t wi, wo;
  CHECK(bike_acc_words(d, BIKE_ACC_FAKE_OP, &wi, &wo) == BIKE_ACC_OK && wi == IN_WORDS &&
            wo == OUT_WORDS,
        "words %zu %zu", wi, wo);
  for (int run = 0; run < 3; run++) {
    random_in();
    uint32_t cycles = 0;
    rc = bike_acc_run(d, BIKE_ACC_FAKE_OP, in, IN_WORDS, out, OUT_WORDS, &cycles);
    CHECK(rc == BIKE_ACC_OK, "wait %d run %d: %s", wait, run, bike_acc_strerror(rc));
    CHECK(default_result_ok(), "wait %d run %d: results", wait, run);
    CHECK(cycles == 7986, "cycles %u", cycles);
    CHECK(s->stream_in == IN_WORDS && s->stream_out == OUT_WORDS, "stream counters %u %u",
          s->stream_in, s->stream_out);
    CHECK(s->intr_state == 0, "INTR_STATE cleared after the run: 0x%x", s->intr_state);
    CHECK(s->intr_enable == (wait == BIKE_ACC_IRQ ? 3u : 0u), "INTR_ENABLE 0x%x", s->intr_enable);
  }
  bike_acc_close(d);

  /* the operands reach the core in order: a core that reverses them */
  int calls = 0;
  cfg.compute = reverse_core;
  cfg.compute_ctx = &calls;
  rc = bike_acc_open(&d, BIKE_ACC_FAKE, 0, &opt);
  CHECK(rc == BIKE_ACC_OK, "open: %s", bike_acc_strerror(rc));
  random_in();
  rc = bike_acc_run(d, BIKE_ACC_FAKE_OP, in, IN_WORDS, out, OUT_WORDS, NULL);
  int ok = rc == BIKE_ACC_OK && calls == 1;
  for (size_t i = 0; ok && i < OUT_WORDS; i++) {
    ok = out[i] == in[IN_WORDS - 1 - i];
  }
  CHECK(ok, "reversing core: %s, %d calls", bike_acc_strerror(rc), calls);
  bike_acc_close(d);
}

static void test_timeout(bike_acc_wait wait) {
  bike_acc_fake_config cfg = {.never_done = 1};
  bike_acc_options opt = {.wait = wait, .timeout_us = 20000, .platform_config = &cfg};
  bike_acc_dev *d;
  fake_shell *s;
  int rc = open_shell(&d, &s, &cfg, &opt);
  CHECK(rc == BIKE_ACC_OK, "open: %s", bike_acc_strerror(rc));
  random_in();
  memset(out, 0xA5, sizeof(out));
  uint32_t cycles = 99;
  const uint64_t t0 = bike_acc_now_ns();
  rc = bike_acc_run(d, BIKE_ACC_FAKE_OP, in, IN_WORDS, out, OUT_WORDS, &cycles);
  const uint64_t waited = bike_acc_now_ns() - t0;
  CHECK(rc == BIKE_ACC_ERR_TIMEOUT, "wait %d: %s", wait, bike_acc_strerror(rc));
  CHECK(waited >= 20000000u && waited < 2000000000u, "waited %llu ns", (unsigned long long)waited);
  CHECK(all_zero((const uint8_t *)out, OUT_WORDS * sizeof(out[0])) && cycles == 0,
        "outputs cleared");
  CHECK(ACC_GET(s->status, STATUS, ERROR) == ACC_ERR(ABORT), "ABORT written: STATUS 0x%x",
        s->status);
  /* the core still works: the next run is refused, not started */
  rc = bike_acc_run(d, BIKE_ACC_FAKE_OP, in, IN_WORDS, out, OUT_WORDS, NULL);
  CHECK(rc == BIKE_ACC_ERR_BUSY, "while busy: %s", bike_acc_strerror(rc));
  bike_acc_close(d);
}

static void test_device_error(bike_acc_wait wait) {
  bike_acc_fake_config cfg = {.core_error = 1, .latency = 2};
  bike_acc_options opt = {.wait = wait, .platform_config = &cfg};
  bike_acc_dev *d;
  int rc = bike_acc_open(&d, BIKE_ACC_FAKE, 0, &opt);
  CHECK(rc == BIKE_ACC_OK, "open: %s", bike_acc_strerror(rc));
  random_in();
  memset(out, 0xA5, sizeof(out));
  rc = bike_acc_run(d, BIKE_ACC_FAKE_OP, in, IN_WORDS, out, OUT_WORDS, NULL);
  CHECK(rc == BIKE_ACC_ERR_DEV(CORE), "wait %d: %s", wait, bike_acc_strerror(rc));
  CHECK(bike_acc_device_error(rc) == ACC_ERR(CORE), "device error %u", bike_acc_device_error(rc));
  CHECK(strstr(bike_acc_strerror(rc), "CORE") != NULL, "%s", bike_acc_strerror(rc));
  CHECK(all_zero((const uint8_t *)out, OUT_WORDS * sizeof(out[0])), "results discarded");
  bike_acc_close(d);
}

static void test_lengths(void) {
  bike_acc_dev *d;
  fake_shell *s;
  int rc = open_shell(&d, &s, NULL, NULL);
  CHECK(rc == BIKE_ACC_OK, "open: %s", bike_acc_strerror(rc));
  const struct {
    size_t in, out;
    int rc;
  } cases[] = {
      {IN_WORDS - 1, OUT_WORDS, BIKE_ACC_ERR_IN_SHORT}, {IN_WORDS + 1, OUT_WORDS, BIKE_ACC_ERR_IN_LONG},
      {0, OUT_WORDS, BIKE_ACC_ERR_IN_SHORT},            {IN_WORDS, OUT_WORDS - 1, BIKE_ACC_ERR_OUT_SHORT},
      {IN_WORDS, OUT_WORDS + 1, BIKE_ACC_ERR_OUT_LONG},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    rc = bike_acc_run(d, BIKE_ACC_FAKE_OP, in, cases[i].in, out, cases[i].out, NULL);
    CHECK(rc == cases[i].rc, "in %zu out %zu: %s", cases[i].in, cases[i].out, bike_acc_strerror(rc));
    /* refused before START: nothing ran */
    CHECK(s->status == 0 && s->stream_in == 0, "case %zu: STATUS 0x%x STREAM.IN %u", i, s->status,
          s->stream_in);
  }
  size_t wi, wo;
  CHECK(bike_acc_run(d, 2, in, IN_WORDS, out, OUT_WORDS, NULL) == BIKE_ACC_ERR_OP, "op 2");
  CHECK(bike_acc_words(d, 2, &wi, &wo) == BIKE_ACC_ERR_OP, "words of op 2");
  CHECK(bike_acc_run(d, 0, in, IN_WORDS, out, OUT_WORDS, NULL) == BIKE_ACC_ERR_ARG, "op 0");
  CHECK(bike_acc_run(d, 256, in, IN_WORDS, out, OUT_WORDS, NULL) == BIKE_ACC_ERR_ARG, "op 256");
  CHECK(bike_acc_run(d, 1, NULL, IN_WORDS, out, OUT_WORDS, NULL) == BIKE_ACC_ERR_ARG, "NULL in");
  CHECK(bike_acc_run(d, 1, in, IN_WORDS, NULL, OUT_WORDS, NULL) == BIKE_ACC_ERR_ARG, "NULL out");
  CHECK(bike_acc_run(NULL, 1, in, IN_WORDS, out, OUT_WORDS, NULL) == BIKE_ACC_ERR_ARG, "NULL dev");
  CHECK(s->status == 0 && s->stream_in == 0, "nothing started: STATUS 0x%x", s->status);
  bike_acc_options bad = {.wait = (bike_acc_wait)5};
  bike_acc_dev *d2;
  CHECK(bike_acc_open(&d2, BIKE_ACC_FAKE, 0, &bad) == BIKE_ACC_ERR_ARG, "wait 5");
  bike_acc_close(d);
}

/* Every code has its own text. */
static void test_strerror(void) {
  const int codes[] = {BIKE_ACC_OK, BIKE_ACC_ERR_ARG, BIKE_ACC_ERR_PLATFORM, BIKE_ACC_ERR_OPEN,
                       BIKE_ACC_ERR_ID, BIKE_ACC_ERR_CORE, BIKE_ACC_ERR_VERSION, BIKE_ACC_ERR_BUSY,
                       BIKE_ACC_ERR_OP, BIKE_ACC_ERR_IN_SHORT, BIKE_ACC_ERR_IN_LONG,
                       BIKE_ACC_ERR_OUT_SHORT, BIKE_ACC_ERR_OUT_LONG, BIKE_ACC_ERR_TIMEOUT,
                       BIKE_ACC_ERR_DMA, BIKE_ACC_ERR_IO, BIKE_ACC_ERR_NOMEM,
                       BIKE_ACC_ERR_PARAM, BIKE_ACC_ERR_RESULT,
                       BIKE_ACC_ERR_DEV(BUSY), BIKE_ACC_ERR_DEV(OP), BIKE_ACC_ERR_DEV(IN_SHORT),
                       BIKE_ACC_ERR_DEV(IN_LONG), BIKE_ACC_ERR_DEV(ABORT), BIKE_ACC_ERR_DEV(CORE)};
  const size_t n = sizeof(codes) / sizeof(codes[0]);
  const char *unknown = bike_acc_strerror(-1000);
  for (size_t i = 0; i < n; i++) {
    const char *t = bike_acc_strerror(codes[i]);
    CHECK(t != unknown && strstr(t, "unknown") == NULL, "code %d: %s", codes[i], t);
    for (size_t j = 0; j < i; j++) {
      CHECK(codes[j] != codes[i] && strcmp(t, bike_acc_strerror(codes[j])) != 0, "codes %d %d",
            codes[i], codes[j]);
    }
    CHECK((bike_acc_device_error(codes[i]) != 0) == (i >= n - 6), "device_error(%d)", codes[i]);
  }
}

/* The model's own rules, from the register map (doc/acc_shell.md). */
static void test_model(void) {
  fake_shell s;
  bike_acc_fake_config cfg = {.in_words = 4, .out_words = 2, .latency = 1};
  CHECK(fake_shell_init(&s, &cfg) == 0, "init");
  uint64_t w;
  int last;
  const uint32_t start = ACC_PUT(BIKE_ACC_FAKE_OP, CTRL, OP) | ACC_MASK(CTRL, START);
  /* read-only registers keep their value; START and ABORT read 0 */
  const uint32_t id = fake_shell_read(&s, ACC_REG(ID));
  fake_shell_write(&s, ACC_REG(ID), 0);
  fake_shell_write(&s, ACC_REG(WORDS), 0);
  CHECK(fake_shell_read(&s, ACC_REG(ID)) == id, "ID read-only");
  CHECK(fake_shell_put(&s, 1, 1) == 0, "no input word taken while idle");
  fake_shell_write(&s, ACC_REG(CTRL), ACC_PUT(BIKE_ACC_FAKE_OP, CTRL, OP));
  CHECK(fake_shell_read(&s, ACC_REG(WORDS)) == (ACC_PUT(4, WORDS, IN) | ACC_PUT(2, WORDS, OUT)),
        "WORDS of op 1");
  /* TLAST early: IN_SHORT, no result */
  fake_shell_write(&s, ACC_REG(CTRL), start);
  CHECK(fake_shell_read(&s, ACC_REG(CTRL)) == ACC_PUT(BIKE_ACC_FAKE_OP, CTRL, OP), "CTRL reads OP");
  fake_shell_put(&s, 1, 0);
  fake_shell_put(&s, 2, 1);
  fake_shell_step(&s);
  uint32_t st = fake_shell_read(&s, ACC_REG(STATUS));
  CHECK(ACC_GET(st, STATUS, DONE) && ACC_GET(st, STATUS, ERROR) == ACC_ERR(IN_SHORT), "IN_SHORT 0x%x", st);
  CHECK(!fake_shell_get(&s, &w, &last), "no result after IN_SHORT");
  CHECK(s.intr_state == 3u, "INTR_STATE DONE|ERROR: 0x%x", s.intr_state);
  fake_shell_write(&s, ACC_REG(INTR_STATE), 1u);
  CHECK(s.intr_state == 2u, "INTR_STATE W1C: 0x%x", s.intr_state);
  CHECK(!fake_shell_irq(&s), "irq disabled");
  fake_shell_write(&s, ACC_REG(INTR_ENABLE), 2u);
  CHECK(fake_shell_irq(&s), "irq on INTR_STATE.ERROR");
  /* no TLAST on the last word: IN_LONG, drained up to TLAST */
  fake_shell_write(&s, ACC_REG(CTRL), start);
  CHECK(ACC_GET(fake_shell_read(&s, ACC_REG(STATUS)), STATUS, ERROR) == ACC_ERR(NONE), "START clears");
  for (int i = 0; i < 6; i++) {
    CHECK(fake_shell_put(&s, (uint64_t)i, i == 5), "word %d taken", i);
  }
  fake_shell_step(&s);
  st = fake_shell_read(&s, ACC_REG(STATUS));
  CHECK(ACC_GET(st, STATUS, ERROR) == ACC_ERR(IN_LONG) && ACC_GET(st, STATUS, DONE), "IN_LONG 0x%x", st);
  CHECK(ACC_GET(fake_shell_read(&s, ACC_REG(STREAM)), STREAM, IN) == 6, "STREAM.IN counts drained words");
  /* START while busy: BUSY, the operation goes on and delivers */
  fake_shell_write(&s, ACC_REG(CTRL), start);
  fake_shell_write(&s, ACC_REG(CTRL), start);
  for (int i = 0; i < 4; i++) {
    fake_shell_put(&s, (uint64_t)(i + 1), i == 3);
  }
  fake_shell_step(&s);
  st = fake_shell_read(&s, ACC_REG(STATUS));
  CHECK(ACC_GET(st, STATUS, ERROR) == ACC_ERR(BUSY) && ACC_GET(st, STATUS, DONE), "BUSY 0x%x", st);
  CHECK(fake_shell_get(&s, &w, &last) && w == (1u ^ 3u) && !last, "result word 0 after BUSY");
  CHECK(fake_shell_get(&s, &w, &last) && w == (2u ^ 4u) && last, "result word 1 with TLAST");
  /* unknown operation: DONE at once with OP */
  fake_shell_write(&s, ACC_REG(CTRL), ACC_PUT(9, CTRL, OP) | ACC_MASK(CTRL, START));
  st = fake_shell_read(&s, ACC_REG(STATUS));
  CHECK(st == (ACC_MASK(STATUS, DONE) | ACC_PUT(ACC_ERR(OP), STATUS, ERROR)), "OP 0x%x", st);
  CHECK(fake_shell_read(&s, ACC_REG(WORDS)) == 0, "WORDS of op 9");
  /* ABORT while busy */
  fake_shell_write(&s, ACC_REG(CTRL), start);
  fake_shell_put(&s, 1, 0);
  fake_shell_write(&s, ACC_REG(CTRL), ACC_PUT(BIKE_ACC_FAKE_OP, CTRL, OP) | ACC_MASK(CTRL, ABORT));
  fake_shell_step(&s);
  st = fake_shell_read(&s, ACC_REG(STATUS));
  CHECK(ACC_GET(st, STATUS, ERROR) == ACC_ERR(ABORT) && !ACC_GET(st, STATUS, BUSY), "ABORT 0x%x", st);
  CHECK(!fake_shell_get(&s, &w, &last), "no result after ABORT");
  fake_shell_free(&s);
}

int main(void) {
  test_identity();
  test_success(BIKE_ACC_POLL);
  test_success(BIKE_ACC_IRQ);
  test_timeout(BIKE_ACC_POLL);
  test_timeout(BIKE_ACC_IRQ);
  test_device_error(BIKE_ACC_POLL);
  test_device_error(BIKE_ACC_IRQ);
  test_lengths();
  test_strerror();
  test_model();
  return test_summary();
}
