/* Register offsets and field access, all from the header generated from the
 * shell's SystemRDL (hw/ip/acc_shell/sw/acc_shell_regs.h): no offset or mask
 * is typed here. */
#ifndef BIKE_ACC_REGS_H
#define BIKE_ACC_REGS_H

#include <stddef.h>
#include <stdint.h>

#include "acc_shell_enums.h"
#include "acc_shell_regs.h"

/* Byte offset of register `name`. */
#define ACC_REG(name) ((uint32_t)offsetof(acc_shell_t, name))
/* Field `f` of register `reg` in value `v`, and value `x` placed in it. */
#define ACC_GET(v, reg, f) (((uint32_t)(v) & ACC_SHELL__##reg##__##f##_bm) >> ACC_SHELL__##reg##__##f##_bp)
#define ACC_PUT(x, reg, f) (((uint32_t)(x) << ACC_SHELL__##reg##__##f##_bp) & ACC_SHELL__##reg##__##f##_bm)
#define ACC_MASK(reg, f) ((uint32_t)ACC_SHELL__##reg##__##f##_bm)
#define ACC_ERR(name) ((uint32_t)ACC_SHELL__ACC_SHELL_ERR_E__##name)

/* The identification and version this driver was built against. */
#define ACC_MAGIC ((uint32_t)ACC_SHELL__ID__MAGIC_reset)
#define ACC_MAJOR ((uint32_t)ACC_SHELL__VERSION__MAJOR_reset)
#define ACC_MINOR ((uint32_t)ACC_SHELL__VERSION__MINOR_reset)

#endif
