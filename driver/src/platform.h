/* What a platform gives the driver: the interface the fake, uio and cosim
 * platforms implement. acc.c holds the one sequence of an
 * operation on top of it; a platform only moves register accesses, stream
 * words and interrupts. Adding a platform: a bike_acc_platform value in
 * bike_acc.h, a file with a `const platform_ops`, an entry in acc.c's
 * platforms[], and the file in driver/CMakeLists.txt. */
#ifndef BIKE_ACC_PLATFORM_H
#define BIKE_ACC_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

#include "bike_acc.h"

typedef struct platform_ops {
  const char *name;
  /* Makes *priv the platform's state for instance `instance`; a return code. */
  int (*open)(void **priv, unsigned instance, const void *config);
  void (*close)(void *priv);
  /* 32-bit register access at a byte offset of the shell's page */
  uint32_t (*read)(void *priv, uint32_t off);
  void (*write)(void *priv, uint32_t off, uint32_t value);
  /* After START: send `in` (TLAST on its last word) and make ready to receive
   * out_words result words. */
  int (*stream_start)(void *priv, const uint64_t *in, size_t in_words, size_t out_words);
  /* After DONE without error: the out_words result words, by the deadline
   * (CLOCK_MONOTONIC, ns). */
  int (*stream_finish)(void *priv, uint64_t *out, size_t out_words, uint64_t deadline_ns);
  /* While waiting for DONE: BIKE_ACC_ERR_DMA if the streams' transport
   * failed (the shell would wait for ever), else BIKE_ACC_OK. */
  int (*stream_check)(void *priv);
  /* After an error, ABORT or a time-out: stop both streams, ready for the next run. */
  void (*stream_reset)(void *priv);
  /* Enable the interrupt's delivery (before START), then sleep until it
   * fires (0) or the deadline passes (BIKE_ACC_ERR_TIMEOUT). */
  int (*irq_arm)(void *priv);
  int (*irq_wait)(void *priv, uint64_t deadline_ns);
} platform_ops;

extern const platform_ops bike_acc_fake_ops;
#if defined(__linux__)
extern const platform_ops bike_acc_uio_ops;
#endif
#if defined(BIKE_ACC_WITH_COSIM) /* hwflow's cosim build (driver/README.md) */
extern const platform_ops bike_acc_cosim_ops;
#endif

/* bike_acc_open on a platform state the caller made (priv; the tests'
 * seam): the identity check, then the device. priv is handed to ops->close
 * on failure as on bike_acc_close. */
int bike_acc_open_with(bike_acc_dev **dev, const platform_ops *ops, void *priv,
                       const bike_acc_options *options);

/* CLOCK_MONOTONIC in ns. */
uint64_t bike_acc_now_ns(void);

#endif
