/* The scalar Keccak-f[1600] permutation compiled with BMI: chi's
 * a ^ (~b & c) becomes one ANDN, which leaves fewer instructions and
 * registers per round than the baseline x86-64 build of the same C
 * (hash/keccak_rounds.h). The AVX2 back ends take it for a single state,
 * where their lockstep kernel would cost more than a scalar permutation. */
#include "hash/keccak_rounds.h"
#include "native/backend.h"

void bike_keccak_f1600_bmi(uint64_t a[25]) { keccak_f1600_rounds(a); }
