/* Keccak-f[1600] (FIPS 202), lanes indexed x + 5 y. */
#include "bike/ops.h"
#include "hash/keccak_rounds.h"
#include "native/backend.h"

void bike_keccak_f1600_c(uint64_t a[25]) { keccak_f1600_rounds(a); }

/* The portable lockstep kernel (contract in native/backend.h). */
void bike_keccak_xn_c(uint64_t (*s)[25], unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    bike_keccak_f1600_c(s[i]);
  }
}

/* Through the table: a native multi-state kernel can beat the scalar
 * permutation even on one state. */
void bike_keccak_f1600(uint64_t a[25]) {
  bike_backend_current()->keccak_xn((uint64_t(*)[25])a, 1);
}
