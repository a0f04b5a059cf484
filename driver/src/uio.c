/* The uio platform (Linux). The shell's register page and the AXI DMA's are
 * UIO devices (uio_pdrv_genirq, device-tree nodes named "bike-acc<i>" and
 * "bike-dma<i>"); the operands and results live in one u-dma-buf buffer
 * opened with O_SYNC (uncached for the CPU), operands at its start, results
 * after them on a 64-byte boundary, copied word by word (memcpy's unaligned
 * and wide accesses may fault on device memory). The DMA runs in simple mode (PG021),
 * polled; the shell's interrupt comes through its UIO device: write 1 to
 * the fd to enable it, poll() and read() to wait, once per interrupt. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acc_shell_regs.h"
#include "axi_dma.h"
#include "bike_acc_uio.h"
#include "uio.h"

/* Orders the CPU's buffer and register accesses against the DMA's. */
static void io_barrier(void) {
#if defined(__aarch64__) || defined(__arm__)
  __asm__ volatile("dsb sy" ::: "memory");
#else
  __sync_synchronize();
#endif
}

/* ---- the platform's logic, on uio_io ---- */

static uint32_t dma_rd(uio_dev *u, uint32_t off) { return u->io.read(u->io.ctx, UIO_DMA, off); }
static void dma_wr(uio_dev *u, uint32_t off, uint32_t v) { u->io.write(u->io.ctx, UIO_DMA, off, v); }

static uint32_t uio_read(void *priv, uint32_t off) {
  uio_dev *u = priv;
  return u->io.read(u->io.ctx, UIO_SHELL, off);
}
static void uio_write(void *priv, uint32_t off, uint32_t v) {
  uio_dev *u = priv;
  u->io.write(u->io.ctx, UIO_SHELL, off, v);
}

/* One simple-mode transfer: run, address, then LENGTH, which starts it. */
static int dma_go(uio_dev *u, uint32_t ch, uint64_t addr, size_t bytes) {
  dma_wr(u, ch + DMA_CR, DMA_CR_RS);
  dma_wr(u, ch + DMA_SR, DMA_SR_IOC_IRQ | DMA_SR_ERR_IRQ); /* clear the old completion */
  if (dma_rd(u, ch + DMA_SR) & DMA_SR_ERRORS) {
    return BIKE_ACC_ERR_DMA;
  }
  dma_wr(u, ch + DMA_ADDR, (uint32_t)addr);
  if (addr >> 32 != 0) { /* the MSB register exists only in a DMA with > 32-bit addresses */
    dma_wr(u, ch + DMA_ADDR_MSB, (uint32_t)(addr >> 32));
  }
  dma_wr(u, ch + DMA_LENGTH, (uint32_t)bytes);
  return BIKE_ACC_OK;
}

static int uio_stream_start(void *priv, const uint64_t *in, size_t in_words, size_t out_words) {
  uio_dev *u = priv;
  const size_t in_bytes = in_words * sizeof(uint64_t), out_bytes = out_words * sizeof(uint64_t);
  u->out_off = (in_bytes + 63u) & ~(size_t)63u;
  if (u->out_off + out_bytes > u->buf_size) {
    return BIKE_ACC_ERR_NOMEM;
  }
  volatile uint64_t *buf = (volatile uint64_t *)(void *)u->buf;
  for (size_t i = 0; i < in_words; i++) {
    buf[i] = in[i];
  }
  io_barrier(); /* the operands are in memory before the DMA reads them */
  /* the receiving channel first, so that no result word waits for it */
  int rc = dma_go(u, DMA_S2MM, u->buf_phys + u->out_off, out_bytes);
  if (rc == BIKE_ACC_OK) {
    rc = dma_go(u, DMA_MM2S, u->buf_phys, in_bytes);
  }
  return rc;
}

/* After DONE: the S2MM transfer ends when its last word is in memory. */
static int uio_stream_finish(void *priv, uint64_t *out, size_t out_words, uint64_t deadline) {
  uio_dev *u = priv;
  for (;;) {
    const uint32_t mm2s = dma_rd(u, DMA_MM2S + DMA_SR), s2mm = dma_rd(u, DMA_S2MM + DMA_SR);
    if ((mm2s | s2mm) & DMA_SR_ERRORS) {
      return BIKE_ACC_ERR_DMA;
    }
    if ((mm2s & DMA_SR_IDLE) && (s2mm & DMA_SR_IDLE)) {
      break;
    }
    if (bike_acc_now_ns() > deadline) {
      return BIKE_ACC_ERR_TIMEOUT;
    }
  }
  const size_t bytes = out_words * sizeof(uint64_t);
  if (dma_rd(u, DMA_S2MM + DMA_LENGTH) != bytes) { /* bytes the packet had */
    return BIKE_ACC_ERR_DMA;
  }
  io_barrier();
  const volatile uint64_t *buf = (const volatile uint64_t *)(void *)(u->buf + u->out_off);
  for (size_t i = 0; i < out_words; i++) {
    out[i] = buf[i];
  }
  return BIKE_ACC_OK;
}

static int uio_stream_check(void *priv) {
  uio_dev *u = priv;
  const uint32_t sr = dma_rd(u, DMA_MM2S + DMA_SR) | dma_rd(u, DMA_S2MM + DMA_SR);
  return sr & DMA_SR_ERRORS ? BIKE_ACC_ERR_DMA : BIKE_ACC_OK;
}

/* After IN_SHORT, IN_LONG, ABORT or a time-out a channel may never finish:
 * the soft reset stops both (RESET reads 1 until the reset is done). */
static void uio_stream_reset(void *priv) {
  uio_dev *u = priv;
  dma_wr(u, DMA_MM2S + DMA_CR, DMA_CR_RESET);
  for (int i = 0; i < 100000 && (dma_rd(u, DMA_MM2S + DMA_CR) & DMA_CR_RESET); i++) {
  }
}

static int uio_irq_arm(void *priv) {
  uio_dev *u = priv;
  return u->io.irq_arm(u->io.ctx);
}

static int uio_irq_wait(void *priv, uint64_t deadline) {
  uio_dev *u = priv;
  const uint64_t now = bike_acc_now_ns();
  if (now >= deadline) {
    return BIKE_ACC_ERR_TIMEOUT;
  }
  /* rounded up: a wait never ends before the deadline */
  const uint64_t ms = (deadline - now + 999999u) / 1000000u;
  return u->io.irq_wait(u->io.ctx, ms > 60000u ? 60000 : (int)ms);
}

/* ---- the real io: mapped pages and the UIO file descriptor ---- */

static uint32_t map_read(void *ctx, int block, uint32_t off) {
  const uio_dev *u = ctx;
  return (block == UIO_SHELL ? u->shell : u->dma)[off / 4u];
}

static void map_write(void *ctx, int block, uint32_t off, uint32_t value) {
  uio_dev *u = ctx;
  (block == UIO_SHELL ? u->shell : u->dma)[off / 4u] = value;
}

static int fd_irq_arm(void *ctx) {
  const uio_dev *u = ctx;
  const uint32_t enable = 1;
  return write(u->shell_fd, &enable, sizeof(enable)) == (ssize_t)sizeof(enable) ? BIKE_ACC_OK
                                                                                   : BIKE_ACC_ERR_IO;
}

static int fd_irq_wait(void *ctx, int timeout_ms) {
  const uio_dev *u = ctx;
  struct pollfd p = {u->shell_fd, POLLIN, 0};
  const int n = poll(&p, 1, timeout_ms);
  if (n == 0) {
    return BIKE_ACC_ERR_TIMEOUT;
  }
  uint32_t count;
  if (n < 0 || read(u->shell_fd, &count, sizeof(count)) != (ssize_t)sizeof(count)) {
    return BIKE_ACC_ERR_IO;
  }
  return BIKE_ACC_OK;
}

/* printf into path[PATH_LEN]; -1 if it does not fit. */
#define PATH_LEN 1024
static int pathf(char *path, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(path, PATH_LEN, fmt, ap);
  va_end(ap);
  return n < 0 || n >= PATH_LEN ? -1 : 0;
}

/* The text of a sysfs file, without its newline; -1 if unreadable. */
static int read_text(const char *path, char *text, size_t size) {
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    return -1;
  }
  const int ok = fgets(text, (int)size, f) != NULL;
  fclose(f);
  if (!ok) {
    return -1;
  }
  text[strcspn(text, "\n")] = '\0';
  return 0;
}

static int read_number(const char *path, uint64_t *value) {
  char text[64], *end;
  if (read_text(path, text, sizeof(text)) != 0) {
    return -1;
  }
  errno = 0;
  *value = strtoull(text, &end, 0);
  return errno != 0 || end == text ? -1 : 0;
}

/* Opens the UIO device named `name` and maps its map0 (at least `min`
 * bytes); 0 or -1. */
static int map_uio(const bike_acc_uio_config *c, const char *name, size_t min, int *fd,
                   volatile uint32_t **page, size_t *len) {
  char dir[PATH_LEN], path[PATH_LEN], text[128];
  if (pathf(dir, "%s/class/uio", c->sys_root) != 0) {
    return -1;
  }
  DIR *d = opendir(dir);
  if (d == NULL) {
    return -1;
  }
  const struct dirent *e;
  int found = 0;
  while (!found && (e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, "uio", 3) != 0 || pathf(path, "%s/%s/name", dir, e->d_name) != 0 ||
        read_text(path, text, sizeof(text)) != 0 || strcmp(text, name) != 0) {
      continue;
    }
    uint64_t size;
    if (pathf(path, "%s/%s/maps/map0/size", dir, e->d_name) == 0 && read_number(path, &size) == 0 &&
        size >= min && pathf(path, "%s/%s", c->dev_root, e->d_name) == 0) {
      *len = (size_t)size;
      found = 1;
    }
  }
  closedir(d);
  if (!found || (*fd = open(path, O_RDWR | O_CLOEXEC)) < 0) {
    return -1;
  }
  /* map N of a UIO device is at offset N pages: map0 at 0 */
  void *m = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
  if (m == MAP_FAILED) {
    return -1;
  }
  *page = m;
  return 0;
}

static int map_udmabuf(const bike_acc_uio_config *c, const char *name, uio_dev *u) {
  char path[PATH_LEN];
  uint64_t size, phys;
  if (pathf(path, "%s/class/u-dma-buf/%s/size", c->sys_root, name) != 0 ||
      read_number(path, &size) != 0 ||
      pathf(path, "%s/class/u-dma-buf/%s/phys_addr", c->sys_root, name) != 0 ||
      read_number(path, &phys) != 0 || pathf(path, "%s/%s", c->dev_root, name) != 0) {
    return -1;
  }
  /* O_SYNC: u-dma-buf maps the buffer uncached */
  if ((u->buf_fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC)) < 0) {
    return -1;
  }
  void *m = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, u->buf_fd, 0);
  if (m == MAP_FAILED) {
    return -1;
  }
  u->buf = m;
  u->buf_size = (size_t)size;
  u->buf_phys = phys;
  return 0;
}

static void uio_close(void *priv) {
  uio_dev *u = priv;
  if (u->buf != NULL && u->buf_fd >= 0) {
    munmap(u->buf, u->buf_size);
  }
  if (u->shell != NULL) {
    munmap((void *)u->shell, u->shell_len);
  }
  if (u->dma != NULL) {
    munmap((void *)u->dma, u->dma_len);
  }
  const int fds[] = {u->shell_fd, u->dma_fd, u->buf_fd};
  for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
    if (fds[i] >= 0) {
      close(fds[i]);
    }
  }
  free(u);
}

static int uio_open(void **priv, unsigned instance, const void *config) {
  bike_acc_uio_config c = {0};
  if (config != NULL) {
    c = *(const bike_acc_uio_config *)config;
  }
  char shell_name[32], dma_name[32], buf_name[32];
  snprintf(shell_name, sizeof(shell_name), "bike-acc%u", instance);
  snprintf(dma_name, sizeof(dma_name), "bike-dma%u", instance);
  snprintf(buf_name, sizeof(buf_name), "udmabuf%u", instance);
  c.shell_name = c.shell_name != NULL ? c.shell_name : shell_name;
  c.dma_name = c.dma_name != NULL ? c.dma_name : dma_name;
  c.udmabuf = c.udmabuf != NULL ? c.udmabuf : buf_name;
  c.sys_root = c.sys_root != NULL ? c.sys_root : "/sys";
  c.dev_root = c.dev_root != NULL ? c.dev_root : "/dev";

  uio_dev *u = calloc(1, sizeof(*u));
  if (u == NULL) {
    return BIKE_ACC_ERR_NOMEM;
  }
  u->shell_fd = u->dma_fd = u->buf_fd = -1;
  u->io = (uio_io){u, map_read, map_write, fd_irq_arm, fd_irq_wait};
  if (map_uio(&c, c.shell_name, sizeof(acc_shell_t), &u->shell_fd, &u->shell, &u->shell_len) != 0 ||
      map_uio(&c, c.dma_name, DMA_S2MM + DMA_LENGTH + 4u, &u->dma_fd, &u->dma, &u->dma_len) != 0 ||
      map_udmabuf(&c, c.udmabuf, u) != 0) {
    uio_close(u);
    return BIKE_ACC_ERR_OPEN;
  }
  *priv = u;
  return BIKE_ACC_OK;
}

const platform_ops bike_acc_uio_ops = {
    .name = "uio",
    .open = uio_open,
    .close = uio_close,
    .read = uio_read,
    .write = uio_write,
    .stream_start = uio_stream_start,
    .stream_finish = uio_stream_finish,
    .stream_check = uio_stream_check,
    .stream_reset = uio_stream_reset,
    .irq_arm = uio_irq_arm,
    .irq_wait = uio_irq_wait,
};
