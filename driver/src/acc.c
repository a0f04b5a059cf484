/* The platform-independent driver: opening with the identification and
 * version check, and the sequence of one operation. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bike_acc.h"
#include "platform.h"
#include "regs.h"

struct bike_acc_dev {
  const platform_ops *ops;
  void *priv;
  bike_acc_options opt;
  bike_acc_info info;
};

/* Indexed by bike_acc_platform; NULL where the platform is not built. */
static const platform_ops *const platforms[] = {
    [BIKE_ACC_FAKE] = &bike_acc_fake_ops,
#if defined(__linux__)
    [BIKE_ACC_UIO] = &bike_acc_uio_ops,
#endif
#if defined(BIKE_ACC_WITH_COSIM) /* built by hwflow's cosim command only */
    [BIKE_ACC_COSIM] = &bike_acc_cosim_ops,
#else
    [BIKE_ACC_COSIM] = NULL,
#endif
};
#define N_PLATFORMS (sizeof(platforms) / sizeof(platforms[0]))
static const char *const platform_names[] = {"fake", "uio", "cosim"};
_Static_assert(sizeof(platform_names) / sizeof(platform_names[0]) == N_PLATFORMS,
               "a name for every platform");

uint64_t bike_acc_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int bike_acc_platform_from_name(const char *name) {
  for (size_t i = 0; name != NULL && i < N_PLATFORMS; i++) {
    if (strcmp(name, platform_names[i]) == 0) {
      return (int)i;
    }
  }
  return -1;
}

const char *bike_acc_strerror(int rc) {
  switch (rc) {
    case BIKE_ACC_OK: return "success";
    case BIKE_ACC_ERR_ARG: return "bad argument";
    case BIKE_ACC_ERR_PLATFORM: return "platform not built into this driver";
    case BIKE_ACC_ERR_OPEN: return "cannot open or map the device";
    case BIKE_ACC_ERR_ID: return "no accelerator shell there (ID.MAGIC is wrong)";
    case BIKE_ACC_ERR_CORE: return "another core is behind this shell (ID.CORE)";
    case BIKE_ACC_ERR_VERSION: return "register map version not supported by this driver";
    case BIKE_ACC_ERR_BUSY: return "device busy: an operation is running";
    case BIKE_ACC_ERR_OP: return "the core has no such operation";
    case BIKE_ACC_ERR_IN_SHORT: return "operand buffer shorter than the operation's input";
    case BIKE_ACC_ERR_IN_LONG: return "operand buffer longer than the operation's input";
    case BIKE_ACC_ERR_OUT_SHORT: return "result buffer shorter than the operation's output";
    case BIKE_ACC_ERR_OUT_LONG: return "result buffer longer than the operation's output";
    case BIKE_ACC_ERR_TIMEOUT: return "time-out: the operation did not end, it was aborted";
    case BIKE_ACC_ERR_DMA: return "the DMA engine reported an error";
    case BIKE_ACC_ERR_IO: return "system call failed";
    case BIKE_ACC_ERR_NOMEM: return "out of memory, or operands larger than the DMA buffer";
    case BIKE_ACC_ERR_PARAM: return "the device is built for another level (PARAM is not r)";
    case BIKE_ACC_ERR_RESULT: return "the device gave an invalid result (bits set above r)";
    case BIKE_ACC_ERR_DEV(BUSY): return "device error BUSY: START while busy";
    case BIKE_ACC_ERR_DEV(OP): return "device error OP: START of an operation the core does not have";
    case BIKE_ACC_ERR_DEV(IN_SHORT): return "device error IN_SHORT: input stream ended early";
    case BIKE_ACC_ERR_DEV(IN_LONG): return "device error IN_LONG: input stream too long";
    case BIKE_ACC_ERR_DEV(ABORT): return "device error ABORT: operation aborted";
    case BIKE_ACC_ERR_DEV(CORE): return "device error CORE: the core failed the operation";
    default: break;
  }
  return bike_acc_device_error(rc) != 0 ? "device error (unknown STATUS.ERROR code)"
                                        : "unknown error";
}

static uint32_t rd(const bike_acc_dev *d, uint32_t off) { return d->ops->read(d->priv, off); }
static void wr(const bike_acc_dev *d, uint32_t off, uint32_t v) { d->ops->write(d->priv, off, v); }

/* MINOR counts compatible additions: a newer device serves this driver.
 * (A function: with MINOR 0 the comparison is constant.) */
static int at_least(uint32_t have, uint32_t need) { return have >= need; }

static int check_identity(bike_acc_dev *d) {
  const uint32_t id = rd(d, ACC_REG(ID)), version = rd(d, ACC_REG(VERSION));
  if (ACC_GET(id, ID, MAGIC) != ACC_MAGIC) {
    return BIKE_ACC_ERR_ID;
  }
  d->info.core = ACC_GET(id, ID, CORE);
  d->info.major = ACC_GET(version, VERSION, MAJOR);
  d->info.minor = ACC_GET(version, VERSION, MINOR);
  d->info.param = rd(d, ACC_REG(PARAM));
  if (d->opt.core != 0 && d->info.core != d->opt.core) {
    return BIKE_ACC_ERR_CORE;
  }
  if (d->info.major != ACC_MAJOR || !at_least(d->info.minor, ACC_MINOR)) {
    return BIKE_ACC_ERR_VERSION;
  }
  return BIKE_ACC_OK;
}

static int check_options(const bike_acc_options *options) {
  return options == NULL || options->wait == BIKE_ACC_POLL || options->wait == BIKE_ACC_IRQ;
}

/* The device around an opened platform state; closes it on failure. */
static int attach(bike_acc_dev **dev, const platform_ops *ops, void *priv,
                  const bike_acc_options *options) {
  bike_acc_dev *d = calloc(1, sizeof(*d));
  if (d == NULL) {
    ops->close(priv);
    return BIKE_ACC_ERR_NOMEM;
  }
  d->ops = ops;
  d->priv = priv;
  if (options != NULL) {
    d->opt = *options;
  }
  d->opt.platform_config = NULL; /* the platform copied what it needs */
  if (d->opt.timeout_us == 0) {
    d->opt.timeout_us = BIKE_ACC_DEFAULT_TIMEOUT_US;
  }
  const int rc = check_identity(d);
  if (rc != BIKE_ACC_OK) {
    bike_acc_close(d);
    return rc;
  }
  *dev = d;
  return BIKE_ACC_OK;
}

int bike_acc_open_with(bike_acc_dev **dev, const platform_ops *ops, void *priv,
                       const bike_acc_options *options) {
  if (dev == NULL || ops == NULL || !check_options(options)) {
    if (ops != NULL) {
      ops->close(priv);
    }
    return BIKE_ACC_ERR_ARG;
  }
  *dev = NULL;
  return attach(dev, ops, priv, options);
}

int bike_acc_open(bike_acc_dev **dev, bike_acc_platform platform, unsigned instance,
                  const bike_acc_options *options) {
  if (dev == NULL) {
    return BIKE_ACC_ERR_ARG;
  }
  *dev = NULL;
  if ((unsigned)platform >= N_PLATFORMS || !check_options(options)) {
    return BIKE_ACC_ERR_ARG;
  }
  const platform_ops *ops = platforms[platform];
  if (ops == NULL) {
    return BIKE_ACC_ERR_PLATFORM;
  }
  void *priv = NULL;
  const int rc = ops->open(&priv, instance, options != NULL ? options->platform_config : NULL);
  return rc != BIKE_ACC_OK ? rc : attach(dev, ops, priv, options);
}

void bike_acc_close(bike_acc_dev *dev) {
  if (dev != NULL) {
    dev->ops->close(dev->priv);
    free(dev);
  }
}

int bike_acc_get_info(const bike_acc_dev *dev, bike_acc_info *info) {
  if (dev == NULL || info == NULL) {
    return BIKE_ACC_ERR_ARG;
  }
  *info = dev->info;
  return BIKE_ACC_OK;
}

static int valid_op(uint32_t op) { return op != 0 && op <= ACC_GET(ACC_MASK(CTRL, OP), CTRL, OP); }

int bike_acc_words(bike_acc_dev *dev, uint32_t op, size_t *in_words, size_t *out_words) {
  if (dev == NULL || in_words == NULL || out_words == NULL || !valid_op(op)) {
    return BIKE_ACC_ERR_ARG;
  }
  wr(dev, ACC_REG(CTRL), ACC_PUT(op, CTRL, OP));
  const uint32_t words = rd(dev, ACC_REG(WORDS));
  *in_words = ACC_GET(words, WORDS, IN);
  *out_words = ACC_GET(words, WORDS, OUT);
  return words == 0 ? BIKE_ACC_ERR_OP : BIKE_ACC_OK;
}

static int status_done(uint32_t status) { return ACC_GET(status, STATUS, DONE) != 0; }

/* Waits for STATUS.DONE; returns STATUS in *status. */
static int wait_done(bike_acc_dev *d, uint64_t deadline, uint32_t *status) {
  for (;;) {
    *status = rd(d, ACC_REG(STATUS));
    if (status_done(*status)) {
      return BIKE_ACC_OK;
    }
    int rc = d->ops->stream_check(d->priv);
    if (rc != BIKE_ACC_OK) {
      return rc;
    }
    if (bike_acc_now_ns() > deadline) {
      return BIKE_ACC_ERR_TIMEOUT;
    }
    if (d->opt.wait == BIKE_ACC_IRQ) {
      rc = d->ops->irq_wait(d->priv, deadline);
      if (rc != BIKE_ACC_OK && rc != BIKE_ACC_ERR_TIMEOUT) {
        return rc;
      }
      /* the line stays high while INTR_STATE is set: clear, then re-arm */
      wr(d, ACC_REG(INTR_STATE), ACC_MASK(INTR_STATE, DONE) | ACC_MASK(INTR_STATE, ERROR));
      if (rc == BIKE_ACC_OK) {
        rc = d->ops->irq_arm(d->priv);
        if (rc != BIKE_ACC_OK) {
          return rc;
        }
      }
    }
  }
}

int bike_acc_run(bike_acc_dev *dev, uint32_t op, const uint64_t *in, size_t in_words,
                 uint64_t *out, size_t out_words, uint32_t *cycles) {
  if (cycles != NULL) {
    *cycles = 0;
  }
  if (out != NULL) {
    memset(out, 0, out_words * sizeof(uint64_t));
  }
  if (dev == NULL || (in == NULL && in_words != 0) || (out == NULL && out_words != 0)) {
    return BIKE_ACC_ERR_ARG;
  }
  size_t want_in, want_out;
  int rc = bike_acc_words(dev, op, &want_in, &want_out);
  if (rc != BIKE_ACC_OK) {
    return rc;
  }
  if (in_words != want_in) {
    return in_words < want_in ? BIKE_ACC_ERR_IN_SHORT : BIKE_ACC_ERR_IN_LONG;
  }
  if (out_words != want_out) {
    return out_words < want_out ? BIKE_ACC_ERR_OUT_SHORT : BIKE_ACC_ERR_OUT_LONG;
  }
  if (ACC_GET(rd(dev, ACC_REG(STATUS)), STATUS, BUSY)) {
    return BIKE_ACC_ERR_BUSY;
  }
  const uint64_t deadline = bike_acc_now_ns() + (uint64_t)dev->opt.timeout_us * 1000u;
  const uint32_t intr = ACC_MASK(INTR_STATE, DONE) | ACC_MASK(INTR_STATE, ERROR);
  wr(dev, ACC_REG(INTR_STATE), intr);
  wr(dev, ACC_REG(INTR_ENABLE), dev->opt.wait == BIKE_ACC_IRQ ? intr : 0);
  if (dev->opt.wait == BIKE_ACC_IRQ && (rc = dev->ops->irq_arm(dev->priv)) != BIKE_ACC_OK) {
    return rc;
  }
  wr(dev, ACC_REG(CTRL), ACC_PUT(op, CTRL, OP) | ACC_MASK(CTRL, START));
  rc = dev->ops->stream_start(dev->priv, in, in_words, out_words);
  uint32_t status = 0;
  if (rc == BIKE_ACC_OK) {
    rc = wait_done(dev, deadline, &status);
  }
  if (rc == BIKE_ACC_OK && ACC_GET(status, STATUS, ERROR) != ACC_ERR(NONE)) {
    rc = BIKE_ACC_ERR_DEVICE - (int)ACC_GET(status, STATUS, ERROR);
  }
  if (rc == BIKE_ACC_OK) {
    rc = dev->ops->stream_finish(dev->priv, out, out_words, deadline);
  }
  if (rc != BIKE_ACC_OK) {
    if (ACC_GET(rd(dev, ACC_REG(STATUS)), STATUS, BUSY)) {
      wr(dev, ACC_REG(CTRL), ACC_PUT(op, CTRL, OP) | ACC_MASK(CTRL, ABORT));
    }
    dev->ops->stream_reset(dev->priv);
    if (out != NULL) {
      memset(out, 0, out_words * sizeof(uint64_t));
    }
  } else if (cycles != NULL) {
    *cycles = rd(dev, ACC_REG(CYCLES));
  }
  wr(dev, ACC_REG(INTR_STATE), intr);
  return rc;
}
