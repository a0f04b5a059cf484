#include "fake_shell.h"

#include <stdlib.h>
#include <string.h>

#include "regs.h"

int fake_shell_init(fake_shell *s, const bike_acc_fake_config *cfg) {
  memset(s, 0, sizeof(*s));
  if (cfg != NULL) {
    s->cfg = *cfg;
  }
  if (s->cfg.id == 0) {
    s->cfg.id = ACC_PUT(ACC_MAGIC, ID, MAGIC) | ACC_PUT(ACC_SHELL__ACC_SHELL_CORE_E__GF2X_MUL, ID, CORE);
  }
  if (s->cfg.version == 0) {
    s->cfg.version = ACC_PUT(ACC_MAJOR, VERSION, MAJOR) | ACC_PUT(ACC_MINOR, VERSION, MINOR);
  }
  if (s->cfg.in_words == 0) {
    s->cfg.in_words = 2 * 193;
  }
  if (s->cfg.out_words == 0) {
    s->cfg.out_words = 193;
  }
  s->in = calloc(s->cfg.in_words, sizeof(uint64_t));
  s->out = calloc(s->cfg.out_words, sizeof(uint64_t));
  if (s->in == NULL || s->out == NULL) {
    fake_shell_free(s);
    return -1;
  }
  return 0;
}

void fake_shell_free(fake_shell *s) {
  free(s->in);
  free(s->out);
  s->in = s->out = NULL;
}

/* WORDS of operation op; 0 if the core has none. */
static int words_of(const fake_shell *s, uint32_t op, uint32_t *in, uint32_t *out) {
  if (s->cfg.op_words != NULL) {
    return s->cfg.op_words(s->cfg.compute_ctx, op, in, out) && *in <= s->cfg.in_words &&
           *out <= s->cfg.out_words;
  }
  *in = s->cfg.in_words;
  *out = s->cfg.out_words;
  return op == BIKE_ACC_FAKE_OP;
}

static int busy(const fake_shell *s) { return (s->status & ACC_MASK(STATUS, BUSY)) != 0; }

/* The first error since the last accepted START is kept. */
static void set_error(fake_shell *s, uint32_t code) {
  if (ACC_GET(s->status, STATUS, ERROR) == ACC_ERR(NONE)) {
    s->status |= ACC_PUT(code, STATUS, ERROR);
  }
  s->intr_state |= ACC_MASK(INTR_STATE, ERROR);
}

static void start(fake_shell *s) {
  if (busy(s)) {
    set_error(s, ACC_ERR(BUSY));
    return;
  }
  uint32_t in_words, out_words;
  if (!words_of(s, s->op, &in_words, &out_words)) {
    /* nothing runs; ERROR = OP even over an older error */
    s->status = ACC_MASK(STATUS, DONE) | ACC_PUT(ACC_ERR(OP), STATUS, ERROR);
    s->intr_state |= ACC_MASK(INTR_STATE, DONE) | ACC_MASK(INTR_STATE, ERROR);
    return;
  }
  s->run_op = s->op;
  s->run_in = in_words;
  s->run_out = out_words;
  s->status = ACC_MASK(STATUS, BUSY);
  s->cycles = 0;
  s->stream_in = s->stream_out = 0;
  s->state = FS_INPUT;
  s->drop = 0;
  s->in_at = 0;
  s->out_head = s->out_tail = 0;
  memset(s->in, 0, s->cfg.in_words * sizeof(uint64_t));
}

/* The operands are complete (or padded with zeros): the core works. */
static void work(fake_shell *s) {
  s->state = FS_WORK;
  s->countdown = s->cfg.latency;
}

uint32_t fake_shell_read(fake_shell *s, uint32_t off) {
  if (off == ACC_REG(ID)) {
    return s->cfg.id;
  }
  if (off == ACC_REG(VERSION)) {
    return s->cfg.version;
  }
  if (off == ACC_REG(PARAM)) {
    return s->cfg.param;
  }
  if (off == ACC_REG(CTRL)) {
    return ACC_PUT(s->op, CTRL, OP); /* START and ABORT read 0 */
  }
  if (off == ACC_REG(STATUS)) {
    fake_shell_step(s);
    return s->status;
  }
  if (off == ACC_REG(INTR_STATE)) {
    return s->intr_state;
  }
  if (off == ACC_REG(INTR_ENABLE)) {
    return s->intr_enable;
  }
  if (off == ACC_REG(CYCLES)) {
    return s->cycles;
  }
  if (off == ACC_REG(WORDS)) {
    uint32_t in_words, out_words;
    return words_of(s, s->op, &in_words, &out_words)
               ? ACC_PUT(in_words, WORDS, IN) | ACC_PUT(out_words, WORDS, OUT)
               : 0;
  }
  if (off == ACC_REG(STREAM)) {
    return ACC_PUT(s->stream_in, STREAM, IN) | ACC_PUT(s->stream_out, STREAM, OUT);
  }
  return 0; /* unmapped */
}

void fake_shell_write(fake_shell *s, uint32_t off, uint32_t value) {
  if (off == ACC_REG(CTRL)) {
    /* OP holds while busy: the running operation keeps its latched code */
    s->op = ACC_GET(value, CTRL, OP);
    if (value & ACC_MASK(CTRL, START)) {
      start(s);
    } else if ((value & ACC_MASK(CTRL, ABORT)) && busy(s)) {
      set_error(s, ACC_ERR(ABORT));
      s->drop = 1;
      if (s->state != FS_WORK) {
        work(s);
      }
    }
  } else if (off == ACC_REG(INTR_STATE)) {
    s->intr_state &= ~(value & (ACC_MASK(INTR_STATE, DONE) | ACC_MASK(INTR_STATE, ERROR)));
  } else if (off == ACC_REG(INTR_ENABLE)) {
    s->intr_enable = value & (ACC_MASK(INTR_ENABLE, DONE) | ACC_MASK(INTR_ENABLE, ERROR));
  }
  /* everything else is read-only or unmapped: ignored */
}

int fake_shell_put(fake_shell *s, uint64_t word, int last) {
  if (s->state == FS_DRAIN) {
    s->stream_in++;
    if (last) {
      work(s);
    }
    return 1;
  }
  if (s->state != FS_INPUT) {
    return 0; /* no input word is taken while idle or working */
  }
  s->in[s->in_at++] = word;
  s->stream_in++;
  const int final_word = s->in_at == s->run_in;
  if (last && !final_word) {
    set_error(s, ACC_ERR(IN_SHORT));
    s->drop = 1;
    work(s);
  } else if (final_word && !last) {
    set_error(s, ACC_ERR(IN_LONG));
    s->drop = 1;
    s->state = FS_DRAIN;
  } else if (final_word) {
    work(s);
  }
  return 1;
}

int fake_shell_get(fake_shell *s, uint64_t *word, int *last) {
  if (s->out_head == s->out_tail) {
    return 0;
  }
  *word = s->out[s->out_head++];
  *last = s->out_head == s->run_out;
  s->stream_out++;
  return 1;
}

static void compute(fake_shell *s) {
  if (s->cfg.compute_op != NULL) {
    s->cfg.compute_op(s->cfg.compute_ctx, s->run_op, s->in, s->out);
    return;
  }
  if (s->cfg.compute != NULL) {
    s->cfg.compute(s->cfg.compute_ctx, s->in, s->out);
    return;
  }
  for (size_t i = 0; i < s->cfg.out_words; i++) {
    s->out[i] = s->in[i % s->cfg.in_words] ^ s->in[(i + s->cfg.out_words) % s->cfg.in_words];
  }
}

void fake_shell_step(fake_shell *s) {
  if (s->state != FS_WORK || s->cfg.never_done) {
    return;
  }
  if (s->countdown > 0) {
    s->countdown--;
    return;
  }
  if (s->cfg.core_error) {
    set_error(s, ACC_ERR(CORE));
  }
  if (!s->drop) {
    compute(s);
    s->out_head = 0;
    s->out_tail = s->run_out;
  }
  s->cycles = s->cfg.cycles;
  s->state = FS_IDLE;
  s->status = (s->status & ~ACC_MASK(STATUS, BUSY)) | ACC_MASK(STATUS, DONE);
  s->intr_state |= ACC_MASK(INTR_STATE, DONE);
}

int fake_shell_irq(const fake_shell *s) { return (s->intr_state & s->intr_enable) != 0; }
