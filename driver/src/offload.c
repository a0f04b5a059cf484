/* libbike's accelerator table on bike_acc devices (bike_acc_offload.h): the
 * placement's parser, and one adapter per core that packs a target's
 * operands into the device's words (the layouts of hw/ip/acc_shell/doc). */
#define _POSIX_C_SOURCE 200809L
#include "bike_acc_offload.h"

#include <stdlib.h>
#include <string.h>

#include "bike/ops.h"
#include "platform.h"

static const char *const target_names[BIKE_ACC_N_TARGETS] = {
    [BIKE_ACC_T_KEYGEN] = "keygen",
    [BIKE_ACC_T_ENCAPS] = "encaps",
    [BIKE_ACC_T_DECAPS] = "decaps",
    [BIKE_ACC_T_KEYGEN_PRNG] = "keygen.prng",
    [BIKE_ACC_T_KEYGEN_INV] = "keygen.inversion",
    [BIKE_ACC_T_KEYGEN_MUL] = "keygen.multiplication",
    [BIKE_ACC_T_ENCAPS_H] = "encaps.h_function",
    [BIKE_ACC_T_ENCAPS_MUL] = "encaps.multiplication",
    [BIKE_ACC_T_ENCAPS_L] = "encaps.l_function",
    [BIKE_ACC_T_ENCAPS_K] = "encaps.k_function",
    [BIKE_ACC_T_DECAPS_MUL] = "decaps.multiplication",
    [BIKE_ACC_T_DECAPS_DECODE] = "decaps.decoding",
    [BIKE_ACC_T_DECAPS_L] = "decaps.l_function",
    [BIKE_ACC_T_DECAPS_H] = "decaps.h_function",
    [BIKE_ACC_T_DECAPS_K] = "decaps.k_function",
};

const char *bike_acc_target_name(bike_acc_target t) {
  return (unsigned)t < BIKE_ACC_N_TARGETS ? target_names[t] : "?";
}

int bike_acc_target_from_name(const char *name) {
  for (int t = 0; name != NULL && t < BIKE_ACC_N_TARGETS; t++) {
    if (strcmp(name, target_names[t]) == 0) {
      return t;
    }
  }
  return -1;
}

/* Copies word `w` of a line into buf (size n); returns the rest or NULL. */
static const char *word(const char *s, const char *end, char *buf, size_t n, int *too_long) {
  while (s < end && (*s == ' ' || *s == '\t' || *s == '\r')) {
    s++;
  }
  size_t k = 0;
  while (s < end && *s != ' ' && *s != '\t' && *s != '\r') {
    if (k + 1 < n) {
      buf[k++] = *s;
    } else {
      *too_long = 1;
    }
    s++;
  }
  buf[k] = '\0';
  return s;
}

int bike_acc_placement_parse(const char *text, bike_acc_placement *pl, unsigned *bad_line) {
  if (text == NULL || pl == NULL) {
    return BIKE_ACC_ERR_ARG;
  }
  memset(pl, 0, sizeof(*pl));
  unsigned line = 0;
  for (const char *s = text; *s != '\0';) {
    const char *end = strchr(s, '\n');
    if (end == NULL) {
      end = s + strlen(s);
    }
    line++;
    const char *hash = memchr(s, '#', (size_t)(end - s));
    const char *stop = hash != NULL ? hash : end;
    char target[48], device[48], preset[16], extra[8];
    int too_long = 0;
    const char *r = word(s, stop, target, sizeof(target), &too_long);
    r = word(r, stop, device, sizeof(device), &too_long);
    r = word(r, stop, preset, sizeof(preset), &too_long);
    word(r, stop, extra, sizeof(extra), &too_long);
    s = *end != '\0' ? end + 1 : end;
    if (target[0] == '\0') {
      continue; /* blank or comment */
    }
    const int t = bike_acc_target_from_name(target);
    int dup = 0;
    for (size_t i = 0; i < pl->n; i++) {
      dup |= (int)pl->entry[i].target == t;
    }
    if (t < 0 || dup || device[0] == '\0' || extra[0] != '\0' || too_long ||
        pl->n == BIKE_ACC_PLACEMENT_MAX) {
      if (bad_line != NULL) {
        *bad_line = line;
      }
      return BIKE_ACC_ERR_ARG;
    }
    bike_acc_placement_entry *e = &pl->entry[pl->n++];
    e->target = (bike_acc_target)t;
    memcpy(e->device, device, sizeof(e->device));
    memcpy(e->preset, preset, sizeof(e->preset));
  }
  return BIKE_ACC_OK;
}

/* ---- adapters: which core runs which target, with which operation ---- */

typedef struct {
  uint32_t core;    /* acc_shell_core_e */
  uint64_t targets; /* bit t: serves target t */
  uint32_t op;      /* its CTRL.OP */
} adapter;

#define T(x) (1ull << BIKE_ACC_T_##x)
static const adapter adapters[] = {
    /* gf2x_mul_acc, op 1 MUL: in a (N words) then b (N), out c = a b (N) */
    {ACC_SHELL__ACC_SHELL_CORE_E__GF2X_MUL, T(KEYGEN_MUL) | T(ENCAPS_MUL) | T(DECAPS_MUL), 1},
    /* gf2x_inv_acc, op 1 INV: in a (N), out a^-1 (N) */
    {ACC_SHELL__ACC_SHELL_CORE_E__GF2X_INV, T(KEYGEN_INV), 1},
};
#undef T

static const adapter *adapter_for(uint32_t core, bike_acc_target t) {
  for (size_t i = 0; i < sizeof(adapters) / sizeof(adapters[0]); i++) {
    if (adapters[i].core == core && (adapters[i].targets >> t & 1u)) {
      return &adapters[i];
    }
  }
  return NULL;
}

int bike_acc_core_serves(uint32_t core, bike_acc_target t) {
  return (unsigned)t < BIKE_ACC_N_TARGETS && adapter_for(core, t) != NULL;
}

struct bike_acc_offload {
  bike_accel table;
  bike_acc_dev *dev[BIKE_ACC_N_TARGETS];
  uint32_t op[BIKE_ACC_N_TARGETS];
  bike_acc_offload_stats stats[BIKE_ACC_N_TARGETS];
  int last_error;
  bike_acc_offload_trace_fn trace;
  void *trace_ctx;
};

static void wipe(void *p, size_t n) {
  volatile uint8_t *v = (volatile uint8_t *)p;
  while (n--) {
    *v++ = 0;
  }
}

/* One device operation for target t; 0, or -1 with `out` zeroed. The
 * device's PARAM must be the level's r (its words are built for one r). */
static int device_op(bike_acc_offload *o, bike_acc_target t, const bike_params *p,
                     const uint64_t *in, size_t in_words, uint64_t *out, size_t out_words) {
  bike_acc_dev *dev = o->dev[t];
  bike_acc_info info;
  int rc = bike_acc_get_info(dev, &info);
  uint32_t cycles = 0;
  if (rc == BIKE_ACC_OK && info.param != p->r) {
    rc = BIKE_ACC_ERR_PARAM;
  }
  if (rc == BIKE_ACC_OK) {
    if (o->trace != NULL) {
      o->trace(o->trace_ctx, t, dev, 0, 0, 0);
    }
    const uint64_t t0 = bike_acc_now_ns();
    rc = bike_acc_run(dev, o->op[t], in, in_words, out, out_words, &cycles);
    o->stats[t].host_ns += bike_acc_now_ns() - t0;
    if (o->trace != NULL) {
      o->trace(o->trace_ctx, t, dev, 1, rc, cycles);
    }
  }
  o->stats[t].calls++;
  o->stats[t].accelerator_cycles += cycles;
  if (rc != BIKE_ACC_OK) {
    o->stats[t].failures++;
    o->last_error = rc;
    wipe(out, out_words * sizeof(*out));
    return -1;
  }
  return 0;
}

/* A polynomial result must have no bit at or above r. */
static int poly_ok(bike_acc_offload *o, bike_acc_target t, const bike_params *p, uint64_t *c) {
  const uint32_t top = p->r % 64;
  if (top != 0 && (c[p->r_qwords - 1] >> top) != 0) {
    o->stats[t].failures++;
    o->last_error = BIKE_ACC_ERR_RESULT;
    wipe(c, p->r_qwords * sizeof(*c));
    return -1;
  }
  return 0;
}

static const bike_acc_target mul_target[3] = {
    [BIKE_ACCEL_KEYGEN] = BIKE_ACC_T_KEYGEN_MUL,
    [BIKE_ACCEL_ENCAPS] = BIKE_ACC_T_ENCAPS_MUL,
    [BIKE_ACCEL_DECAPS] = BIKE_ACC_T_DECAPS_MUL,
};

static int hook_mul(void *ctx, bike_accel_site site, const bike_params *p, uint64_t *c,
                    const uint64_t *a, const uint64_t *b) {
  bike_acc_offload *o = ctx;
  const bike_acc_target t = mul_target[site];
  if (o->dev[t] == NULL) { /* this site's multiplication is software's */
    bike_gf2x_mul(p, c, a, b);
    return 0;
  }
  uint64_t in[2 * BIKE_MAX_QWORDS];
  const size_t n = p->r_qwords;
  memcpy(in, a, n * sizeof(*in));
  memcpy(in + n, b, n * sizeof(*in));
  int rc = device_op(o, t, p, in, 2 * n, c, n);
  wipe(in, sizeof(in));
  return rc != 0 ? rc : poly_ok(o, t, p, c);
}

static int hook_inv(void *ctx, const bike_params *p, uint64_t *c, const uint64_t *a) {
  bike_acc_offload *o = ctx;
  const bike_acc_target t = BIKE_ACC_T_KEYGEN_INV;
  const int rc = device_op(o, t, p, a, p->r_qwords, c, p->r_qwords);
  return rc != 0 ? rc : poly_ok(o, t, p, c);
}

int bike_acc_offload_new(bike_acc_offload **o) {
  if (o == NULL) {
    return BIKE_ACC_ERR_ARG;
  }
  *o = calloc(1, sizeof(**o));
  if (*o == NULL) {
    return BIKE_ACC_ERR_NOMEM;
  }
  (*o)->table.ctx = *o;
  return BIKE_ACC_OK;
}

void bike_acc_offload_free(bike_acc_offload *o) { free(o); }

int bike_acc_offload_bind(bike_acc_offload *o, bike_acc_target t, bike_acc_dev *dev) {
  bike_acc_info info;
  if (o == NULL || dev == NULL || (unsigned)t >= BIKE_ACC_N_TARGETS ||
      bike_acc_get_info(dev, &info) != BIKE_ACC_OK) {
    return BIKE_ACC_ERR_ARG;
  }
  const adapter *a = adapter_for(info.core, t);
  if (a == NULL) {
    return BIKE_ACC_ERR_CORE;
  }
  switch (t) {
    case BIKE_ACC_T_KEYGEN_MUL:
    case BIKE_ACC_T_ENCAPS_MUL:
    case BIKE_ACC_T_DECAPS_MUL: o->table.gf2x_mul = hook_mul; break;
    case BIKE_ACC_T_KEYGEN_INV: o->table.gf2x_inv = hook_inv; break;
    default: return BIKE_ACC_ERR_CORE; /* no hook for it yet */
  }
  o->dev[t] = dev;
  o->op[t] = a->op;
  return BIKE_ACC_OK;
}

const bike_accel *bike_acc_offload_table(bike_acc_offload *o) {
  return o != NULL ? &o->table : NULL;
}

int bike_acc_offload_last_error(const bike_acc_offload *o) { return o->last_error; }

void bike_acc_offload_get_stats(const bike_acc_offload *o, bike_acc_target t,
                                bike_acc_offload_stats *s) {
  memset(s, 0, sizeof(*s));
  if ((unsigned)t < BIKE_ACC_N_TARGETS) {
    *s = o->stats[t];
  }
}

void bike_acc_offload_set_trace(bike_acc_offload *o, bike_acc_offload_trace_fn fn, void *ctx) {
  o->trace = fn;
  o->trace_ctx = ctx;
}
