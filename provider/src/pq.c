/* The post-quantum KEMs behind one interface (bikeprov_pq_kem): libbike and
 * libmlkem, both derandomised so that the randomness is OpenSSL's. */
#include "bikeprov.h"

#include <bike/batch.h>
#include <bike/bike.h>
#include <mlkem/mlkem.h>

/* libbike's calls already have the interface's shape. */
const bikeprov_pq_kem bikeprov_pq_bike = {
    "BIKE", BIKE_COINS_BYTES, BIKE_COINS_BYTES, bike_keypair_derand, bike_keypair_batch_derand,
    bike_encaps_derand, bike_decaps, bike_strerror,
};

/* ML-KEM.KeyGen_internal takes d || z (64 bytes), Encaps_internal m (32). */
static int mlkem_keypair_coins(int set, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len,
                               const uint8_t *coins)
{
    return mlkem_keypair_derand(set, pk, pk_len, sk, sk_len, coins, coins + MLKEM_SEED_BYTES);
}

static int mlkem_encaps_coins(int set, uint8_t *ct, size_t ct_len, uint8_t *ss, const uint8_t *pk,
                              size_t pk_len, const uint8_t *coins)
{
    return mlkem_encaps_derand(set, ct, ct_len, ss, pk, pk_len, coins);
}

const bikeprov_pq_kem bikeprov_pq_mlkem = {
    "ML-KEM", 2 * MLKEM_SEED_BYTES, MLKEM_SEED_BYTES, mlkem_keypair_coins,
    NULL, /* ML-KEM's key generation has nothing to share */
    mlkem_encaps_coins, mlkem_decaps, mlkem_strerror,
};

_Static_assert(BIKE_SHARED_SECRET_BYTES == BIKEPROV_PQ_SECRET_BYTES
                   && MLKEM_SS_BYTES == BIKEPROV_PQ_SECRET_BYTES,
               "both KEMs give 32-byte secrets");
_Static_assert(BIKE_COINS_BYTES <= BIKEPROV_MAX_COINS && 2 * MLKEM_SEED_BYTES <= BIKEPROV_MAX_COINS,
               "coins fit BIKEPROV_MAX_COINS");
