#include "params.h"

#include "mlkem/mlkem.h"

static const mlkem_params sets[] = {
    {512, 2, 3, 2, 10, 4, MLKEM512_EK_BYTES, MLKEM512_DK_BYTES, MLKEM512_CT_BYTES},
    {768, 3, 2, 2, 10, 4, MLKEM768_EK_BYTES, MLKEM768_DK_BYTES, MLKEM768_CT_BYTES},
    {1024, 4, 2, 2, 11, 5, MLKEM1024_EK_BYTES, MLKEM1024_DK_BYTES, MLKEM1024_CT_BYTES},
};

const mlkem_params *mlkem_params_get(int set) {
  for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
    if (sets[i].set == set) {
      return &sets[i];
    }
  }
  return NULL;
}

size_t mlkem_ek_bytes(int set) {
  const mlkem_params *p = mlkem_params_get(set);
  return p != NULL ? p->ek_bytes : 0;
}

size_t mlkem_dk_bytes(int set) {
  const mlkem_params *p = mlkem_params_get(set);
  return p != NULL ? p->dk_bytes : 0;
}

size_t mlkem_ct_bytes(int set) {
  const mlkem_params *p = mlkem_params_get(set);
  return p != NULL ? p->ct_bytes : 0;
}
