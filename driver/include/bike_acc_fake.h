/* The fake platform of bike_acc: a model of acc_shell in host memory (its
 * register file as the SystemRDL map defines it, an input and an output
 * stream FIFO, the error codes and the interrupt line) around a stand-in
 * core. It is how the driver's logic is tested without hardware, and a
 * device for testing callers.
 *
 * The stand-in core has one operation, BIKE_ACC_FAKE_OP (1), taking in_words
 * words and giving out_words words: by default out[i] = in[i] ^ in[i +
 * out_words] (wrapping in the input), or whatever `compute` does. It works
 * for `latency` device steps after its last input word (a step is one STATUS
 * read or one interrupt wait), then gives its words and raises DONE. */
#ifndef BIKE_ACC_FAKE_H
#define BIKE_ACC_FAKE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BIKE_ACC_FAKE_OP 1u

typedef struct {
  uint32_t id;        /* ID; 0: MAGIC with CORE = GF2X_MUL */
  uint32_t version;   /* VERSION; 0: the map's (acc_shell_regs.h) */
  uint32_t param;     /* PARAM */
  uint32_t in_words;  /* WORDS.IN of BIKE_ACC_FAKE_OP; 0: 2 * 193 (gf2x_mul at L1) */
  uint32_t out_words; /* WORDS.OUT of BIKE_ACC_FAKE_OP; 0: 193 */
  uint32_t latency;   /* device steps of the core's work */
  uint32_t cycles;    /* CYCLES after an operation */
  int never_done;     /* the core never ends: DONE stays 0 (a time-out) */
  int core_error;     /* the core fails every operation: STATUS.ERROR = CORE */
  /* the core's function (NULL: the XOR above) */
  void (*compute)(void *ctx, const uint64_t *in, uint64_t *out);
  void *compute_ctx;
  /* a core of several operations (both set, or neither): op_words gives
   * WORDS of operation op (0 if the core has none), compute_op runs it (with
   * compute_ctx); in_words and out_words then size the buffers (at least the
   * largest operation's) */
  int (*op_words)(void *ctx, uint32_t op, uint32_t *in_words, uint32_t *out_words);
  void (*compute_op)(void *ctx, uint32_t op, const uint64_t *in, uint64_t *out);
} bike_acc_fake_config;

#ifdef __cplusplus
}
#endif

#endif
