/* bike_acc: the host driver of the accelerators behind acc_shell
 * (hw/ip/acc_shell). One API over several platforms:
 *
 *   BIKE_ACC_FAKE  a model of the shell's register file and streams in host
 *                  memory (bike_acc_fake.h), for testing callers and the
 *                  driver's own logic;
 *   BIKE_ACC_UIO   Linux: the register page through /dev/uioN, operands and
 *                  results through a u-dma-buf buffer and a Xilinx AXI DMA in
 *                  simple mode (bike_acc_uio.h);
 *   BIKE_ACC_COSIM a shell device's Verilator model in the same process, with
 *                  a timing model of the CPU side (bike_acc_cosim.h); built
 *                  only into the co-simulation programs of hw/hwflow (with
 *                  BIKE_ACC_WITH_COSIM), elsewhere BIKE_ACC_ERR_PLATFORM.
 *
 * Register offsets, fields and codes come from
 * the header generated from the shell's SystemRDL (acc_shell_regs.h).
 *
 * Use: bike_acc_open(), then bike_acc_run() per operation, bike_acc_close().
 * A device is used by one thread at a time. Every function returns BIKE_ACC_OK
 * or a negative code, which bike_acc_strerror() describes. */
#ifndef BIKE_ACC_H
#define BIKE_ACC_H

#include <stddef.h>
#include <stdint.h>

#include "acc_shell_enums.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  BIKE_ACC_FAKE = 0,
  BIKE_ACC_UIO = 1,
  BIKE_ACC_COSIM = 2, /* only with BIKE_ACC_WITH_COSIM (hwflow's cosim build) */
} bike_acc_platform;

/* Return codes. */
#define BIKE_ACC_OK 0
#define BIKE_ACC_ERR_ARG (-1)       /* a NULL pointer, operation 0 or > 255, unknown option */
#define BIKE_ACC_ERR_PLATFORM (-2)  /* the platform is not built into this library */
#define BIKE_ACC_ERR_OPEN (-3)      /* the platform's device files: missing or not mappable */
#define BIKE_ACC_ERR_ID (-4)        /* ID.MAGIC is not 0xACC5: no accelerator shell there */
#define BIKE_ACC_ERR_CORE (-5)      /* ID.CORE is not the core that was asked for */
#define BIKE_ACC_ERR_VERSION (-6)   /* VERSION: other MAJOR, or MINOR older than the driver's */
#define BIKE_ACC_ERR_BUSY (-7)      /* STATUS.BUSY before START: an operation is running */
#define BIKE_ACC_ERR_OP (-8)        /* the core has no such operation (WORDS reads 0) */
#define BIKE_ACC_ERR_IN_SHORT (-9)  /* fewer operand words than WORDS.IN */
#define BIKE_ACC_ERR_IN_LONG (-10)  /* more operand words than WORDS.IN */
#define BIKE_ACC_ERR_OUT_SHORT (-11) /* room for fewer result words than WORDS.OUT */
#define BIKE_ACC_ERR_OUT_LONG (-12) /* room for more result words than WORDS.OUT */
#define BIKE_ACC_ERR_TIMEOUT (-13)  /* no STATUS.DONE (or DMA completion) in time: aborted */
#define BIKE_ACC_ERR_DMA (-14)      /* the DMA engine reported an error (DMASR) */
#define BIKE_ACC_ERR_IO (-15)       /* a system call failed (errno tells which) */
#define BIKE_ACC_ERR_NOMEM (-16)    /* out of memory, or operands larger than the DMA buffer */
#define BIKE_ACC_ERR_PARAM (-17)    /* bike_acc_offload: the device's PARAM is not the level's r */
#define BIKE_ACC_ERR_RESULT (-18)   /* bike_acc_offload: a result with bits set above r */
/* The operation ended with STATUS.ERROR = e (acc_shell_err_e, 1..15): the
 * run returns BIKE_ACC_ERR_DEVICE - e, and discards the results. */
#define BIKE_ACC_ERR_DEVICE (-32)
#define BIKE_ACC_ERR_DEV(name) (BIKE_ACC_ERR_DEVICE - (int)ACC_SHELL__ACC_SHELL_ERR_E__##name)

/* STATUS.ERROR behind a return code, or 0 if it is not a device error. */
static inline unsigned bike_acc_device_error(int rc) {
  return rc < BIKE_ACC_ERR_DEVICE && rc >= BIKE_ACC_ERR_DEVICE - 15
             ? (unsigned)(BIKE_ACC_ERR_DEVICE - rc)
             : 0u;
}

/* A static description of a return code (never NULL). */
const char *bike_acc_strerror(int rc);

typedef enum {
  BIKE_ACC_POLL = 0, /* poll STATUS.DONE */
  BIKE_ACC_IRQ = 1,  /* sleep until the shell's interrupt (INTR_ENABLE.DONE and .ERROR) */
} bike_acc_wait;

#define BIKE_ACC_DEFAULT_TIMEOUT_US 1000000u

typedef struct {
  uint32_t core;               /* ID.CORE expected (acc_shell_core_e); 0: any */
  bike_acc_wait wait;          /* how bike_acc_run waits for the end */
  uint32_t timeout_us;         /* per operation; 0: BIKE_ACC_DEFAULT_TIMEOUT_US */
  const void *platform_config; /* bike_acc_fake_config, bike_acc_uio_config, or NULL */
} bike_acc_options;

typedef struct bike_acc_dev bike_acc_dev;

/* Opens instance `instance` of `platform` (NULL options: defaults) and checks
 * its identification and version against acc_shell_regs.h. */
int bike_acc_open(bike_acc_dev **dev, bike_acc_platform platform, unsigned instance,
                  const bike_acc_options *options);
void bike_acc_close(bike_acc_dev *dev);

/* The platform of a name ("fake", "uio", "cosim"); -1 if unknown. */
int bike_acc_platform_from_name(const char *name);

typedef struct {
  uint32_t core;  /* ID.CORE */
  uint32_t major; /* VERSION.MAJOR */
  uint32_t minor; /* VERSION.MINOR */
  uint32_t param; /* PARAM (gf2x_mul: r) */
} bike_acc_info;

int bike_acc_get_info(const bike_acc_dev *dev, bike_acc_info *info);

/* The stream lengths of operation `op` in 64-bit words (WORDS for CTRL.OP =
 * op); BIKE_ACC_ERR_OP if the core has no such operation. */
int bike_acc_words(bike_acc_dev *dev, uint32_t op, size_t *in_words, size_t *out_words);

/* Runs operation `op`: writes CTRL.OP, checks the buffer lengths against
 * WORDS, starts, streams `in` in, waits (polling or interrupt, with the
 * time-out), reads STATUS.ERROR, streams the results out into `out`, and
 * reads CYCLES into *cycles (if not NULL). On a time-out the operation is
 * aborted (CTRL.ABORT) and the streams reset; on any error `out` is left
 * zeroed, never partly written with results. */
int bike_acc_run(bike_acc_dev *dev, uint32_t op, const uint64_t *in, size_t in_words,
                 uint64_t *out, size_t out_words, uint32_t *cycles);

#ifdef __cplusplus
}
#endif

#endif
