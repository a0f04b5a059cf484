/* K-PKE, FIPS 203 section 5: the public-key encryption scheme under ML-KEM. */
#ifndef MLKEM_KPKE_H
#define MLKEM_KPKE_H

#include <stdint.h>

#include "ops.h"
#include "params.h"

/* The kernels go through o (ops.h), which records a failed accelerator hook. */

/* Algorithm 13: ek_pke (384 k + 32 bytes) and dk_pke (384 k bytes) from d. */
void mlkem_kpke_keygen(mlkem_ops *o, const mlkem_params *p, uint8_t *ek, uint8_t *dk,
                       const uint8_t d[32]);
/* The modulus check of section 7.2: nonzero if every coefficient of ek is
 * below q. */
int mlkem_kpke_ek_valid(const mlkem_params *p, const uint8_t *ek);
/* Algorithm 14: ct (p->ct_bytes) encrypting m with randomness r. */
void mlkem_kpke_encrypt(mlkem_ops *o, const mlkem_params *p, uint8_t *ct, const uint8_t *ek,
                        const uint8_t m[32], const uint8_t r[32]);
/* Algorithm 15. */
void mlkem_kpke_decrypt(mlkem_ops *o, const mlkem_params *p, uint8_t m[32], const uint8_t *dk,
                        const uint8_t *ct);

#endif
