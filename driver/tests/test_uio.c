/* The uio platform's logic, without a board: its uio_io seam points at the
 * fake shell and at a model of the AXI DMA in simple mode (PG021) that moves
 * words between a host-memory "DMA buffer" and the shell's streams. Every
 * access is logged, and the test checks the sequence: the DMA channels set
 * up (run, address, then LENGTH, S2MM before MM2S, after START), the
 * interrupt armed after INTR_STATE is cleared and re-armed after a
 * spurious wake-up, the DMA reset after a device error, a DMA error or a
 * time-out. Then the real open path on a fake /sys and /dev tree of regular
 * files (argv[1]): the UIO devices found by name, map0 mapped, the
 * identification read through the mapping. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "axi_dma.h"
#include "bike_acc.h"
#include "bike_acc_uio.h"
#include "fake_shell.h"
#include "regs.h"
#include "test_util.h"
#include "uio.h"

#define IN_WORDS 386u
#define OUT_WORDS 193u
#define BUF_SIZE 8192u
#define BUF_PHYS 0x1F000000ull      /* a Zynq-7000's DDR: 32-bit addresses */
#define BUF_PHYS_HIGH 0x800000000ull /* a ZynqMP's DDR above 4 GiB */

/* ---- the model: fake shell + AXI DMA + log ---- */

enum { EV_READ, EV_WRITE, EV_ARM, EV_WAIT };
typedef struct {
  int kind, block;
  uint32_t off, value;
} event;

typedef struct {
  uint32_t cr, sr, addr, addr_msb, length;
  size_t at, n; /* words moved, words to move */
  int running;
} channel;

typedef struct {
  fake_shell shell;
  uint64_t phys; /* the buffer's address for the DMA */
  channel mm2s, s2mm;
  uint8_t buf[BUF_SIZE];
  int slave_error;  /* the MM2S channel's memory reads fail */
  int short_count;  /* S2MM_LENGTH reads 8 bytes fewer than it received */
  int spurious;     /* wake-ups without the interrupt line */
  event log[512];
  size_t n_log;
} model;

static void logev(model *m, int kind, int block, uint32_t off, uint32_t value) {
  if (m->n_log < sizeof(m->log) / sizeof(m->log[0])) {
    m->log[m->n_log++] = (event){kind, block, off, value};
  }
}

static void dma_reset(model *m) {
  memset(&m->mm2s, 0, sizeof(m->mm2s));
  memset(&m->s2mm, 0, sizeof(m->s2mm));
  m->mm2s.sr = m->s2mm.sr = DMA_SR_HALTED;
}

/* Where a channel's transfer is in the buffer. */
static uint8_t *buf_at(model *m, const channel *c) {
  return m->buf + ((((uint64_t)c->addr_msb << 32) | c->addr) - m->phys) + 8 * c->at;
}

/* The DMA moves what it can, then the shell works one step. */
static void advance(model *m) {
  channel *c = &m->mm2s;
  while (c->running && c->at < c->n) {
    uint64_t w;
    memcpy(&w, buf_at(m, c), 8);
    if (!fake_shell_put(&m->shell, w, c->at + 1 == c->n)) {
      break;
    }
    if (++c->at == c->n) {
      c->running = 0;
      c->sr |= DMA_SR_IDLE | DMA_SR_IOC_IRQ;
    }
  }
  fake_shell_step(&m->shell);
  c = &m->s2mm;
  uint64_t w;
  int last;
  while (c->running && c->at < c->n && fake_shell_get(&m->shell, &w, &last)) {
    memcpy(buf_at(m, c), &w, 8);
    c->at++;
    if (last) {
      c->running = 0;
      c->length = (uint32_t)(8 * c->at) - (m->short_count ? 8u : 0u); /* bytes received */
      c->sr |= DMA_SR_IDLE | DMA_SR_IOC_IRQ;
    }
  }
}

static channel *chan(model *m, uint32_t off) { return off >= DMA_S2MM ? &m->s2mm : &m->mm2s; }

static uint32_t io_read(void *ctx, int block, uint32_t off) {
  model *m = ctx;
  advance(m);
  uint32_t v = 0;
  if (block == UIO_SHELL) {
    v = fake_shell_read(&m->shell, off);
  } else {
    const channel *c = chan(m, off);
    switch (off % DMA_S2MM) {
      case DMA_CR: v = c->cr; break;
      case DMA_SR: v = c->sr; break;
      case DMA_ADDR: v = c->addr; break;
      case DMA_ADDR_MSB: v = c->addr_msb; break;
      case DMA_LENGTH: v = c->length; break;
      default: break;
    }
  }
  /* the polling reads (STATUS, DMASR) are not logged: their number is the
   * wait's, not the sequence's */
  if (!(block == UIO_SHELL && off == ACC_REG(STATUS)) && !(block == UIO_DMA && off % DMA_S2MM == DMA_SR)) {
    logev(m, EV_READ, block, off, v);
  }
  return v;
}

static void io_write(void *ctx, int block, uint32_t off, uint32_t v) {
  model *m = ctx;
  logev(m, EV_WRITE, block, off, v);
  if (block == UIO_SHELL) {
    fake_shell_write(&m->shell, off, v);
    return;
  }
  channel *c = chan(m, off);
  switch (off % DMA_S2MM) {
    case DMA_CR:
      if (v & DMA_CR_RESET) {
        dma_reset(m);
        return;
      }
      c->cr = v;
      if (v & DMA_CR_RS) {
        c->sr &= ~DMA_SR_HALTED;
      }
      break;
    case DMA_SR: c->sr &= ~(v & (DMA_SR_IOC_IRQ | DMA_SR_ERR_IRQ)); break;
    case DMA_ADDR: c->addr = v; break;
    case DMA_ADDR_MSB: c->addr_msb = v; break;
    case DMA_LENGTH: {
      const uint64_t addr = ((uint64_t)c->addr_msb << 32) | c->addr;
      if (!(c->cr & DMA_CR_RS) || v == 0 || addr < m->phys || addr - m->phys + v > BUF_SIZE) {
        c->sr |= DMA_SR_INT_ERR | DMA_SR_ERR_IRQ | DMA_SR_HALTED;
        break;
      }
      if (c == &m->mm2s && m->slave_error) {
        c->sr |= DMA_SR_SLV_ERR | DMA_SR_ERR_IRQ;
        break;
      }
      c->length = v;
      c->n = v / 8;
      c->at = 0;
      c->running = 1;
      c->sr &= ~DMA_SR_IDLE;
      break;
    }
    default: break;
  }
}

static int io_irq_arm(void *ctx) {
  logev(ctx, EV_ARM, 0, 0, 0);
  return BIKE_ACC_OK;
}

static int io_irq_wait(void *ctx, int timeout_ms) {
  model *m = ctx;
  logev(m, EV_WAIT, 0, 0, (uint32_t)timeout_ms);
  if (m->spurious > 0) {
    m->spurious--;
    return BIKE_ACC_OK;
  }
  for (int i = 0; i < 1000; i++) {
    if (fake_shell_irq(&m->shell)) {
      return BIKE_ACC_OK;
    }
    advance(m);
  }
  const struct timespec t = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
  return BIKE_ACC_ERR_TIMEOUT;
}

static model *new_model(const bike_acc_fake_config *cfg, uint64_t phys) {
  model *m = calloc(1, sizeof(*m));
  if (m == NULL || fake_shell_init(&m->shell, cfg) != 0) {
    exit(2);
  }
  m->phys = phys;
  dma_reset(m);
  return m;
}

static int open_model(bike_acc_dev **d, model *m, bike_acc_wait wait, uint32_t timeout_us) {
  uio_dev *u = calloc(1, sizeof(*u));
  if (u == NULL) {
    exit(2);
  }
  u->io = (uio_io){m, io_read, io_write, io_irq_arm, io_irq_wait};
  u->buf = m->buf;
  u->buf_phys = m->phys;
  u->buf_size = BUF_SIZE;
  u->shell_fd = u->dma_fd = u->buf_fd = -1;
  bike_acc_options opt = {.wait = wait, .timeout_us = timeout_us};
  return bike_acc_open_with(d, &bike_acc_uio_ops, u, &opt);
}

/* Index of the first logged event matching, from `from`; -1 if none. */
static long find(const model *m, size_t from, int kind, int block, uint32_t off) {
  for (size_t i = from; i < m->n_log; i++) {
    if (m->log[i].kind == kind && m->log[i].block == block && m->log[i].off == off) {
      return (long)i;
    }
  }
  return -1;
}
static long find_write(const model *m, int block, uint32_t off) {
  return find(m, 0, EV_WRITE, block, off);
}

static uint64_t in[IN_WORDS], out[OUT_WORDS];

static void test_run(bike_acc_wait wait, int spurious, uint64_t phys) {
  /* long enough for the driver to wait for the interrupt, and to wait again
   * after a spurious wake-up */
  bike_acc_fake_config cfg = {.latency = 200, .cycles = 7986};
  model *m = new_model(&cfg, phys);
  m->spurious = spurious;
  bike_acc_dev *d;
  int rc = open_model(&d, m, wait, 0);
  CHECK(rc == BIKE_ACC_OK, "open: %s", bike_acc_strerror(rc));
  for (size_t i = 0; i < IN_WORDS; i++) {
    in[i] = test_rand();
  }
  m->n_log = 0;
  uint32_t cycles = 0;
  rc = bike_acc_run(d, BIKE_ACC_FAKE_OP, in, IN_WORDS, out, OUT_WORDS, &cycles);
  CHECK(rc == BIKE_ACC_OK, "wait %d: %s", wait, bike_acc_strerror(rc));
  int ok = 1;
  for (size_t i = 0; i < OUT_WORDS; i++) {
    ok &= out[i] == (in[i] ^ in[i + OUT_WORDS]);
  }
  CHECK(ok && cycles == 7986, "results through the DMA buffer, cycles %u", cycles);

  /* the DMA's register sequence */
  const long start = find(m, 0, EV_WRITE, UIO_SHELL, ACC_REG(CTRL)) >= 0
                         ? find(m, (size_t)find(m, 0, EV_WRITE, UIO_SHELL, ACC_REG(CTRL)) + 1,
                                EV_WRITE, UIO_SHELL, ACC_REG(CTRL))
                         : -1; /* the first CTRL write sets OP for WORDS, the second starts */
  CHECK(start >= 0 && (m->log[start].value & ACC_MASK(CTRL, START)), "START written");
  const long s2mm_cr = find_write(m, UIO_DMA, DMA_S2MM + DMA_CR),
             s2mm_da = find_write(m, UIO_DMA, DMA_S2MM + DMA_ADDR),
             s2mm_msb = find_write(m, UIO_DMA, DMA_S2MM + DMA_ADDR_MSB),
             s2mm_len = find_write(m, UIO_DMA, DMA_S2MM + DMA_LENGTH),
             mm2s_cr = find_write(m, UIO_DMA, DMA_MM2S + DMA_CR),
             mm2s_sa = find_write(m, UIO_DMA, DMA_MM2S + DMA_ADDR),
             mm2s_msb = find_write(m, UIO_DMA, DMA_MM2S + DMA_ADDR_MSB),
             mm2s_len = find_write(m, UIO_DMA, DMA_MM2S + DMA_LENGTH);
  CHECK(start < s2mm_cr && s2mm_cr < s2mm_da && s2mm_da < s2mm_len && s2mm_msb < s2mm_len,
        "S2MM: RS, DA, then LENGTH, after START (%ld %ld %ld %ld)", start, s2mm_cr, s2mm_da, s2mm_len);
  CHECK(s2mm_len < mm2s_cr && mm2s_cr < mm2s_sa && mm2s_sa < mm2s_len && mm2s_msb < mm2s_len,
        "MM2S: RS, SA, then LENGTH, after S2MM (%ld %ld %ld %ld)", s2mm_len, mm2s_cr, mm2s_sa, mm2s_len);
  /* the MSB registers: written for a buffer above 4 GiB only (a 32-bit DMA has none) */
  CHECK((phys >> 32 != 0) == (s2mm_msb >= 0) && (phys >> 32 != 0) == (mm2s_msb >= 0), "MSB writes %ld %ld",
        s2mm_msb, mm2s_msb);
  CHECK(s2mm_cr >= 0 && m->log[s2mm_cr].value == DMA_CR_RS && mm2s_cr >= 0 &&
            m->log[mm2s_cr].value == DMA_CR_RS,
        "DMACR = RS");
  CHECK(s2mm_da >= 0 && m->log[s2mm_da].value == (uint32_t)(phys + ((8 * IN_WORDS + 63) & ~63u)) &&
            (s2mm_msb < 0 || m->log[s2mm_msb].value == (uint32_t)(phys >> 32)),
        "S2MM_DA: results after the operands, 64-byte aligned");
  CHECK(mm2s_sa >= 0 && m->log[mm2s_sa].value == (uint32_t)phys &&
            (mm2s_msb < 0 || m->log[mm2s_msb].value == (uint32_t)(phys >> 32)),
        "MM2S_SA");
  CHECK(s2mm_len >= 0 && m->log[s2mm_len].value == 8 * OUT_WORDS && mm2s_len >= 0 &&
            m->log[mm2s_len].value == 8 * IN_WORDS,
        "LENGTHs in bytes");
  CHECK(find(m, (size_t)mm2s_len, EV_READ, UIO_DMA, DMA_S2MM + DMA_LENGTH) > mm2s_len,
        "S2MM_LENGTH read back (bytes received)");
  CHECK(find(m, 0, EV_WRITE, UIO_DMA, DMA_MM2S + DMA_CR) == mm2s_cr &&
            find_write(m, UIO_DMA, DMA_S2MM + DMA_CR) == s2mm_cr,
        "no reset on success");

  /* the interrupt: INTR_STATE cleared, then armed, before START; each
   * wake-up followed by a clear and a new arm (then STATUS is read: an
   * interrupt between the two cannot be lost) */
  const long arm = find(m, 0, EV_ARM, 0, 0), wait_ev = find(m, 0, EV_WAIT, 0, 0);
  const long clear = find_write(m, UIO_SHELL, ACC_REG(INTR_STATE));
  if (wait == BIKE_ACC_IRQ) {
    CHECK(clear >= 0 && clear < arm && arm < start && start < wait_ev, "clear %ld arm %ld start %ld wait %ld",
          clear, arm, start, wait_ev);
    size_t arms = 0, waits = 0;
    for (size_t i = 0; i < m->n_log; i++) {
      arms += m->log[i].kind == EV_ARM;
      waits += m->log[i].kind == EV_WAIT;
    }
    CHECK(waits == 1u + (size_t)spurious && arms == waits + 1, "%zu arms, %zu waits", arms, waits);
    if (spurious) {
      const long w1 = wait_ev, c1 = find(m, (size_t)w1, EV_WRITE, UIO_SHELL, ACC_REG(INTR_STATE)),
                 a1 = find(m, (size_t)w1, EV_ARM, 0, 0), w2 = find(m, (size_t)w1 + 1, EV_WAIT, 0, 0);
      CHECK(w1 < c1 && c1 < a1 && a1 < w2, "re-arm: wait %ld clear %ld arm %ld wait %ld", w1, c1, a1, w2);
    }
  } else {
    CHECK(arm < 0 && wait_ev < 0, "polling: no interrupt");
  }
  bike_acc_close(d);
  fake_shell_free(&m->shell);
  free(m);
}

/* Failures: the DMA reset (DMACR.RESET) follows each, the results are zero. */
static void test_failures(void) {
  const struct {
    bike_acc_fake_config cfg;
    int slave_error, short_count;
    uint32_t timeout_us;
    int rc;
    const char *what;
  } cases[] = {
      {{.core_error = 1}, 0, 0, 0, BIKE_ACC_ERR_DEV(CORE), "device error"},
      {{0}, 1, 0, 0, BIKE_ACC_ERR_DMA, "DMA slave error"},
      {{0}, 0, 1, 0, BIKE_ACC_ERR_DMA, "S2MM received the wrong length"},
      {{.never_done = 1}, 0, 0, 20000, BIKE_ACC_ERR_TIMEOUT, "time-out"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    for (int wait = BIKE_ACC_POLL; wait <= BIKE_ACC_IRQ; wait++) {
      model *m = new_model(&cases[i].cfg, BUF_PHYS);
      m->slave_error = cases[i].slave_error;
      m->short_count = cases[i].short_count;
      bike_acc_dev *d;
      int rc = open_model(&d, m, (bike_acc_wait)wait, cases[i].timeout_us);
      CHECK(rc == BIKE_ACC_OK, "open: %s", bike_acc_strerror(rc));
      memset(out, 0xA5, sizeof(out));
      m->n_log = 0;
      rc = bike_acc_run(d, BIKE_ACC_FAKE_OP, in, IN_WORDS, out, OUT_WORDS, NULL);
      CHECK(rc == cases[i].rc, "%s, wait %d: %s", cases[i].what, wait, bike_acc_strerror(rc));
      long reset = -1;
      for (size_t k = 0; k < m->n_log; k++) {
        if (m->log[k].kind == EV_WRITE && m->log[k].block == UIO_DMA && m->log[k].off == DMA_MM2S + DMA_CR &&
            m->log[k].value == DMA_CR_RESET) {
          reset = (long)k;
        }
      }
      CHECK(reset >= 0, "%s, wait %d: DMA reset", cases[i].what, wait);
      if (cases[i].rc == BIKE_ACC_ERR_TIMEOUT) {
        const long abort = find(m, 0, EV_WRITE, UIO_SHELL, ACC_REG(CTRL));
        long last_ctrl = abort;
        while (last_ctrl >= 0 && find(m, (size_t)last_ctrl + 1, EV_WRITE, UIO_SHELL, ACC_REG(CTRL)) >= 0) {
          last_ctrl = find(m, (size_t)last_ctrl + 1, EV_WRITE, UIO_SHELL, ACC_REG(CTRL));
        }
        CHECK(last_ctrl >= 0 && (m->log[last_ctrl].value & ACC_MASK(CTRL, ABORT)), "time-out: ABORT");
      }
      int zero = 1;
      for (size_t k = 0; k < OUT_WORDS; k++) {
        zero &= out[k] == 0;
      }
      CHECK(zero, "%s: results zero", cases[i].what);
      bike_acc_close(d);
      fake_shell_free(&m->shell);
      free(m);
    }
  }
  /* operands and results larger than the buffer */
  bike_acc_fake_config big = {.in_words = BUF_SIZE / 8, .out_words = 8};
  model *m = new_model(&big, BUF_PHYS);
  bike_acc_dev *d;
  CHECK(open_model(&d, m, BIKE_ACC_POLL, 0) == BIKE_ACC_OK, "open");
  static uint64_t big_in[BUF_SIZE / 8];
  const int rc = bike_acc_run(d, BIKE_ACC_FAKE_OP, big_in, BUF_SIZE / 8, out, 8, NULL);
  CHECK(rc == BIKE_ACC_ERR_NOMEM, "buffer too small: %s", bike_acc_strerror(rc));
  bike_acc_close(d);
  fake_shell_free(&m->shell);
  free(m);
}

/* ---- the open path on a /sys and /dev tree of regular files ---- */

static void put_file(const char *root, const char *path, const char *text) {
  char full[512];
  snprintf(full, sizeof(full), "%s/%s", root, path);
  FILE *f = fopen(full, "w");
  if (f == NULL) {
    fprintf(stderr, "%s: %s\n", full, strerror(errno));
    exit(2);
  }
  fputs(text, f);
  fclose(f);
}

static void mkdirs(const char *root, const char *path) {
  char full[512];
  snprintf(full, sizeof(full), "%s/%s", root, path);
  for (char *p = full + strlen(root) + 1; *p; p++) {
    if (*p == '/') {
      *p = '\0';
      mkdir(full, 0755);
      *p = '/';
    }
  }
  mkdir(full, 0755);
}

/* A page file holding the registers ID and VERSION. */
static void put_page(const char *root, const char *name, uint32_t id, uint32_t version, size_t size) {
  char full[512];
  snprintf(full, sizeof(full), "%s/dev/%s", root, name);
  FILE *f = fopen(full, "wb");
  uint32_t *page = calloc(size / 4, 4);
  if (f == NULL || page == NULL) {
    exit(2);
  }
  page[ACC_REG(ID) / 4] = id;
  page[ACC_REG(VERSION) / 4] = version;
  fwrite(page, 1, size, f);
  fclose(f);
  free(page);
}

static void test_open(const char *root) {
  const uint32_t id = ACC_PUT(ACC_MAGIC, ID, MAGIC) | ACC_PUT(1, ID, CORE);
  const uint32_t version = ACC_PUT(ACC_MAJOR, VERSION, MAJOR) | ACC_PUT(ACC_MINOR, VERSION, MINOR);
  mkdirs(root, "sys/class/uio/uio3/maps/map0");
  mkdirs(root, "sys/class/uio/uio7/maps/map0");
  mkdirs(root, "sys/class/u-dma-buf/udmabuf2");
  mkdirs(root, "dev");
  put_file(root, "sys/class/uio/uio3/name", "bike-dma2\n");
  put_file(root, "sys/class/uio/uio3/maps/map0/size", "0x10000\n");
  put_file(root, "sys/class/uio/uio7/name", "bike-acc2\n");
  put_file(root, "sys/class/uio/uio7/maps/map0/size", "0x1000\n");
  put_file(root, "sys/class/u-dma-buf/udmabuf2/size", "65536\n");
  put_file(root, "sys/class/u-dma-buf/udmabuf2/phys_addr", "0x3f000000\n");
  put_page(root, "uio3", 0, 0, 0x10000);
  put_page(root, "uio7", id, version, 0x1000);
  put_page(root, "udmabuf2", 0, 0, 65536);
  char sys[512], dev[512];
  snprintf(sys, sizeof(sys), "%s/sys", root);
  snprintf(dev, sizeof(dev), "%s/dev", root);
  bike_acc_uio_config cfg = {.sys_root = sys, .dev_root = dev};
  bike_acc_options opt = {.platform_config = &cfg};
  bike_acc_dev *d;
  int rc = bike_acc_open(&d, BIKE_ACC_UIO, 2, &opt);
  CHECK(rc == BIKE_ACC_OK, "open uio 2: %s", bike_acc_strerror(rc));
  bike_acc_info info = {0};
  bike_acc_get_info(d, &info);
  CHECK(info.core == 1 && info.major == ACC_MAJOR, "identity through the mapped page");
  bike_acc_close(d);
  CHECK(bike_acc_open(&d, BIKE_ACC_UIO, 1, &opt) == BIKE_ACC_ERR_OPEN, "no instance 1");
  put_page(root, "uio7", id ^ 0x10000u, version, 0x1000);
  CHECK(bike_acc_open(&d, BIKE_ACC_UIO, 2, &opt) == BIKE_ACC_ERR_ID, "wrong ID in the page");
  put_page(root, "uio7", id, ACC_PUT(ACC_MAJOR + 1u, VERSION, MAJOR), 0x1000);
  CHECK(bike_acc_open(&d, BIKE_ACC_UIO, 2, &opt) == BIKE_ACC_ERR_VERSION, "wrong VERSION in the page");
  put_file(root, "sys/class/uio/uio7/maps/map0/size", "0x10\n");
  CHECK(bike_acc_open(&d, BIKE_ACC_UIO, 2, &opt) == BIKE_ACC_ERR_OPEN, "map0 smaller than the map");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_driver_uio SCRATCH_DIR\n");
    return 2;
  }
  test_run(BIKE_ACC_POLL, 0, BUF_PHYS);
  test_run(BIKE_ACC_IRQ, 0, BUF_PHYS);
  test_run(BIKE_ACC_IRQ, 1, BUF_PHYS);
  test_run(BIKE_ACC_POLL, 0, BUF_PHYS_HIGH);
  test_failures();
  mkdirs(argv[1], "");
  test_open(argv[1]);
  return test_summary();
}
