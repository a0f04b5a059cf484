/* The fake platform: the shell model of fake_shell.c, its streams fed and
 * emptied by plain copies, its interrupt polled. */
#include <stdlib.h>

#include "bike_acc_fake.h"
#include "fake_shell.h"
#include "platform.h"

static int fake_open(void **priv, unsigned instance, const void *config) {
  (void)instance; /* every instance is a fresh model */
  fake_shell *s = malloc(sizeof(*s));
  if (s == NULL || fake_shell_init(s, config) != 0) {
    free(s);
    return BIKE_ACC_ERR_NOMEM;
  }
  *priv = s;
  return BIKE_ACC_OK;
}

static void fake_close(void *priv) {
  fake_shell_free(priv);
  free(priv);
}

static uint32_t fake_read(void *priv, uint32_t off) { return fake_shell_read(priv, off); }
static void fake_write(void *priv, uint32_t off, uint32_t v) { fake_shell_write(priv, off, v); }

static int fake_stream_start(void *priv, const uint64_t *in, size_t in_words, size_t out_words) {
  (void)out_words;
  for (size_t i = 0; i < in_words; i++) {
    if (!fake_shell_put(priv, in[i], i + 1 == in_words)) {
      return BIKE_ACC_ERR_DMA; /* the shell took no word: it did not start */
    }
  }
  return BIKE_ACC_OK;
}

static int fake_stream_finish(void *priv, uint64_t *out, size_t out_words, uint64_t deadline) {
  (void)deadline; /* the model gives its words at DONE */
  int last = 0;
  for (size_t i = 0; i < out_words; i++) {
    if (!fake_shell_get(priv, &out[i], &last) || last != (i + 1 == out_words)) {
      return BIKE_ACC_ERR_DMA;
    }
  }
  return BIKE_ACC_OK;
}

static int fake_stream_check(void *priv) {
  (void)priv;
  return BIKE_ACC_OK;
}

static void fake_stream_reset(void *priv) {
  fake_shell *s = priv;
  s->out_head = s->out_tail; /* drop what the output holds */
}

static int fake_irq_arm(void *priv) {
  (void)priv;
  return BIKE_ACC_OK;
}

static int fake_irq_wait(void *priv, uint64_t deadline) {
  while (!fake_shell_irq(priv)) {
    if (bike_acc_now_ns() > deadline) {
      return BIKE_ACC_ERR_TIMEOUT;
    }
    fake_shell_step(priv);
  }
  return BIKE_ACC_OK;
}

const platform_ops bike_acc_fake_ops = {
    .name = "fake",
    .open = fake_open,
    .close = fake_close,
    .read = fake_read,
    .write = fake_write,
    .stream_start = fake_stream_start,
    .stream_finish = fake_stream_finish,
    .stream_check = fake_stream_check,
    .stream_reset = fake_stream_reset,
    .irq_arm = fake_irq_arm,
    .irq_wait = fake_irq_wait,
};
