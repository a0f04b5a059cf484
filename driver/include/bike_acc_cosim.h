/* The cosim platform: the Verilator model of one shell device (gf2x_mul_acc
 * or gf2x_inv_acc, chosen when the platform is built) in the same process,
 * clocked cycle by cycle through its AXI4-Lite and AXI4-Stream ports, with a
 * timing model of the CPU side (driver/README.md). Built by
 * `make -C hw test-cosim` (hwflow's cosim command), not by libbike's CMake. */
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
  uint64_t pl_cycles;           /* every PL clock cycle simulated */
  uint64_t transfer_cycles;     /* cycles an operand or result stream was moving */
  uint64_t reg_reads, reg_writes;
} bike_acc_cosim_stats;

typedef struct {
  bike_acc_cosim_timing timing;
  bike_acc_cosim_stats *stats; /* where the counters go (may be NULL) */
  /* fault injection: end the next operand stream this many words early
   * (TLAST on the last word sent), so the shell sees a short stream */
  uint32_t drop_in_words;
} bike_acc_cosim_config;

#ifdef __cplusplus
}
#endif

#endif
