/* Old and new libbike in one process, called alternately: the ratio of
 * their medians per primitive, free of the drift between separate runs on a
 * shared machine. Built by bench_ab.sh, which links the old library with
 * every symbol renamed old_*. Usage: bench_ab CALLS [BACKEND] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "bike/bike.h"

int old_bike_set_backend(const char *name);
int old_bike_keypair_derand(int level, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len,
                            const uint8_t *coins);
int old_bike_encaps_derand(int level, uint8_t *ct, size_t ct_len, uint8_t *ss, const uint8_t *pk,
                           size_t pk_len, const uint8_t *coins);
int old_bike_decaps(int level, uint8_t *ss, const uint8_t *ct, size_t ct_len, const uint8_t *sk,
                    size_t sk_len);

#define MAX_CALLS 10001

static int by_value(const void *x, const void *y) {
  const unsigned long long a = *(const unsigned long long *)x, b = *(const unsigned long long *)y;
  return a < b ? -1 : a > b;
}

static unsigned long long median(unsigned long long *t, int n) {
  qsort(t, (size_t)n, sizeof(t[0]), by_value);
  return t[n / 2];
}

/* ticks[side][primitive][call]; side 0 old, 1 new. */
static unsigned long long ticks[2][3][MAX_CALLS];
static uint8_t pk[2][BIKE_MAX_PUBLIC_KEY_BYTES], sk[2][BIKE_MAX_SECRET_KEY_BYTES];
static uint8_t ct[2][BIKE_MAX_CIPHERTEXT_BYTES];

int main(int argc, char **argv) {
  const int calls = argc > 1 ? atoi(argv[1]) : 0;
  const char *backend = argc > 2 ? argv[2] : "auto";
  if (calls < 1 || calls > MAX_CALLS) {
    fprintf(stderr, "usage: bench_ab CALLS [BACKEND], 1 <= CALLS <= %d\n", MAX_CALLS);
    return 2;
  }
  if (bike_set_backend(backend) != BIKE_OK || old_bike_set_backend(backend) != BIKE_OK) {
    fprintf(stderr, "bench_ab: back end %s is not available in both builds\n", backend);
    return 2;
  }
  static const char *const names[3] = {"keygen", "encaps", "decaps"};
  for (int level = 1; level <= 5; level += 2) {
    const size_t pl = bike_public_key_bytes(level), sl = bike_secret_key_bytes(level);
    const size_t cl = bike_ciphertext_bytes(level);
    uint8_t coins[BIKE_COINS_BYTES] = {0}, ss[32];
    for (int i = -calls / 10 - 2; i < calls; i++) { /* the first calls warm up */
      memcpy(coins, &i, sizeof(i));
      for (int turn = 0; turn < 2; turn++) { /* the side that goes first alternates */
        const int side = (i + turn) & 1;
        unsigned long long t[4];
        t[0] = __rdtsc();
        int rc = side ? bike_keypair_derand(level, pk[1], pl, sk[1], sl, coins)
                      : old_bike_keypair_derand(level, pk[0], pl, sk[0], sl, coins);
        t[1] = __rdtsc();
        rc |= side ? bike_encaps_derand(level, ct[1], cl, ss, pk[1], pl, coins)
                   : old_bike_encaps_derand(level, ct[0], cl, ss, pk[0], pl, coins);
        t[2] = __rdtsc();
        rc |= side ? bike_decaps(level, ss, ct[1], cl, sk[1], sl)
                   : old_bike_decaps(level, ss, ct[0], cl, sk[0], sl);
        t[3] = __rdtsc();
        if (rc != BIKE_OK) {
          fprintf(stderr, "bench_ab: L%d call failed\n", level);
          return 1;
        }
        for (int k = 0; k < 3 && i >= 0; k++) {
          ticks[side][k][i] = t[k + 1] - t[k];
        }
      }
      if (memcmp(pk[0], pk[1], pl) != 0 || memcmp(ct[0], ct[1], cl) != 0) {
        fprintf(stderr, "bench_ab: L%d old and new builds disagree\n", level);
        return 1;
      }
    }
    for (int k = 0; k < 3; k++) {
      const unsigned long long o = median(ticks[0][k], calls), n = median(ticks[1][k], calls);
      printf("L%d %-7s old %9llu ticks  new %9llu ticks  old/new %.3f\n", level, names[k], o, n,
             (double)o / (double)n);
    }
  }
  return 0;
}
