/* A model of acc_shell in host memory: the register file per the SystemRDL
 * map (hw/ip/acc_shell/data/acc_shell.rdl), the input stream's length check,
 * the error codes, the interrupt line, and an output FIFO, around the fake
 * platform's stand-in core (bike_acc_fake.h). The fake platform drives it
 * directly; the uio platform's tests put it behind a model of the AXI DMA. */
#ifndef BIKE_ACC_FAKE_SHELL_H
#define BIKE_ACC_FAKE_SHELL_H

#include <stddef.h>
#include <stdint.h>

#include "bike_acc_fake.h"

typedef enum { FS_IDLE, FS_INPUT, FS_DRAIN, FS_WORK } fake_shell_state;

typedef struct {
  bike_acc_fake_config cfg; /* with the defaults filled in */
  uint32_t op;              /* CTRL.OP */
  uint32_t run_op;          /* the operation started, and its WORDS */
  size_t run_in, run_out;
  uint32_t status, intr_state, intr_enable, cycles, stream_in, stream_out;
  fake_shell_state state;
  int drop;                 /* the running operation's result is discarded */
  uint32_t countdown;       /* steps left of the core's work */
  size_t in_at;             /* operand words received */
  uint64_t *in, *out;       /* the core's operands and results */
  size_t out_head, out_tail; /* the output FIFO: out[head .. tail) */
} fake_shell;

/* 0, or -1 if out of memory. */
int fake_shell_init(fake_shell *s, const bike_acc_fake_config *cfg);
void fake_shell_free(fake_shell *s);

/* AXI4-Lite: a 32-bit access at byte offset `off`. */
uint32_t fake_shell_read(fake_shell *s, uint32_t off);
void fake_shell_write(fake_shell *s, uint32_t off, uint32_t value);

/* AXI4-Stream input: offers one word; 1 if taken (TREADY), 0 if not. */
int fake_shell_put(fake_shell *s, uint64_t word, int last);
/* AXI4-Stream output: 1 and the next word with its TLAST, or 0 if none. */
int fake_shell_get(fake_shell *s, uint64_t *word, int *last);

/* One step of the core's work. */
void fake_shell_step(fake_shell *s);
/* The interrupt line: an INTR_STATE bit set and enabled. */
int fake_shell_irq(const fake_shell *s);

#endif
