/* The cosim platform: the Verilator models of shell devices in the same
 * process (one model per device type, linked into the program when it is
 * built), each clocked cycle by cycle through its AXI4-Lite and AXI4-Stream
 * ports, with a timing model of the CPU side and one PL clock shared by every
 * device (driver/README.md). Built by hwflow (`make -C hw test-cosim`, the
 * placement runs), not by libbike's CMake. */
#ifndef BIKE_ACC_COSIM_H
#define BIKE_ACC_COSIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The CPU side's costs, in PL clock cycles. A field left 0 takes the
 * environment's BIKE_COSIM_<FIELD> (e.g. BIKE_COSIM_READ_CYCLES), else the
 * default: a Zynq-7000 PS at 667 MHz on M_AXI_GP0 and an AXI DMA on S_AXI_HP0,
 * the PL at 100 MHz. */
typedef struct {
  uint32_t pl_mhz;              /* PL clock (100) */
  uint32_t cpu_mhz;             /* CPU clock, for the CPU-cycle figure (667) */
  uint32_t read_cycles;         /* one register read, issue to data (20) */
  uint32_t write_cycles;        /* one register write, issue to response (12) */
  uint32_t dma_setup_cycles;    /* programming both DMA channels (8 writes, 100) */
  uint32_t dma_bytes_per_cycle; /* each stream's bandwidth, 1..8 bytes (8) */
  uint32_t irq_cycles;          /* interrupt line to the waiting thread (700) */
} bike_acc_cosim_timing;

/* Counters since open, updated after every platform call. */
typedef struct {
  bike_acc_cosim_timing timing; /* the values in use */
  uint64_t pl_cycles;           /* the shared PL clock (bike_acc_cosim_clock) */
  uint64_t transfer_cycles;     /* cycles an operand or result stream was moving */
  uint64_t reg_reads, reg_writes;
} bike_acc_cosim_stats;

typedef struct {
  bike_acc_cosim_timing timing;
  bike_acc_cosim_stats *stats; /* where the counters go (may be NULL) */
  /* which linked device to open: by name (e.g. "gf2x_mul_acc"), else the
   * first whose ID.CORE is `core` (acc_shell_core_e), else (0) the first */
  const char *device;
  uint32_t core;
  /* fault injection: end the next operand stream this many words early
   * (TLAST on the last word sent), so the shell sees a short stream */
  uint32_t drop_in_words;
} bike_acc_cosim_config;

/* The shared PL clock: cycles simulated on any device of the program. */
uint64_t bike_acc_cosim_clock(void);

/* The name of the i-th device type linked in (i = 0, 1, ...), or NULL. */
const char *bike_acc_cosim_device_at(unsigned i);

#ifdef __cplusplus
}
#endif

#endif
