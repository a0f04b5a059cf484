/* The three parameter sets of FIPS 203 (table 2) and the constants of the
 * ring Z_q[X]/(X^256 + 1). */
#ifndef MLKEM_PARAMS_H
#define MLKEM_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#define MLKEM_N 256
#define MLKEM_Q 3329
#define MLKEM_MAX_K 4
#define MLKEM_POLY_BYTES 384 /* ByteEncode12 of one polynomial */

typedef struct {
  int set;          /* 512, 768 or 1024 */
  unsigned k;       /* module rank */
  unsigned eta1;    /* CBD parameter of s, e and y */
  unsigned eta2;    /* CBD parameter of e1 and e2 */
  unsigned du, dv;  /* compression of u and v */
  size_t ek_bytes;  /* 384 k + 32 */
  size_t dk_bytes;  /* 768 k + 96 */
  size_t ct_bytes;  /* 32 (du k + dv) */
} mlkem_params;

/* NULL for an unknown set. */
const mlkem_params *mlkem_params_get(int set);

#endif
