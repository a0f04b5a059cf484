/* The uio platform's state, and the seam its tests use: every register
 * access and interrupt operation goes through uio_io, which the platform
 * points at the mapped pages and the UIO file descriptor, and a test points
 * at a model (driver/tests/test_uio.c). */
#ifndef BIKE_ACC_UIO_INTERNAL_H
#define BIKE_ACC_UIO_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"

enum { UIO_SHELL = 0, UIO_DMA = 1 };

typedef struct {
  void *ctx;
  uint32_t (*read)(void *ctx, int block, uint32_t off);
  void (*write)(void *ctx, int block, uint32_t off, uint32_t value);
  int (*irq_arm)(void *ctx);                 /* a return code */
  int (*irq_wait)(void *ctx, int timeout_ms); /* 0, BIKE_ACC_ERR_TIMEOUT or _IO */
} uio_io;

typedef struct {
  uio_io io;
  uint8_t *buf;      /* the DMA buffer as the CPU sees it */
  uint64_t buf_phys; /* and as the DMA does */
  size_t buf_size;
  size_t out_off;    /* where the results of the running operation go */
  /* what the platform opened (unused when a test made the state) */
  int shell_fd, dma_fd, buf_fd;
  volatile uint32_t *shell, *dma;
  size_t shell_len, dma_len;
} uio_dev;

/* A test makes a uio_dev with malloc, sets io, buf, buf_phys and buf_size,
 * the fds to -1 and the pages to NULL, and opens it with bike_acc_open_with
 * and bike_acc_uio_ops (whose close frees it). */

#endif
