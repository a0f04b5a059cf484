/* Statistical timing test of decapsulation, after dudect (Reparaz, Balasch,
 * Verbauwhede, "Dude, is my code constant time?", DATE 2017): two classes of
 * inputs, measured interleaved in random order, and Welch's t-test on the two
 * distributions of cycle counts. A |t| far above what noise gives says that
 * the time depends on the class, that is on secret data.
 *
 *   test_dudect [--samples N] [--levels 1,3,5] [--backend NAME] [--threshold T]
 *
 * Experiments, each on every back end this CPU runs (or only NAME):
 *   key: decapsulation under one fixed secret key against keys drawn from a
 *        pool of random key pairs, each with a fresh valid ciphertext;
 *   ct:  one fixed key, one fixed valid ciphertext against uniformly random
 *        ciphertexts (which fail to decode and take the implicit-rejection
 *        path): decoding success must not show in the time.
 * Both classes read their inputs from the same slots of one buffer, so that
 * neither has a smaller cache footprint. Like dudect, t is computed on all
 * samples and on the samples below the 50th, 75th, 90th and 99th percentile
 * (cropping the long tail that interrupts and other processes add), and the
 * largest |t| is reported. Exit status 1 if it reaches T (default 10).
 *
 * Cycles come from the time-stamp counter (rdtsc between lfences) on x86-64,
 * from clock_gettime(CLOCK_MONOTONIC) elsewhere. docs/timing.md has the
 * figures and what the test can and cannot tell.
 */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bike/bike.h"

#if defined(__x86_64__)
#include <x86intrin.h>
static uint64_t cycles(void)
{
    uint64_t t;

    _mm_lfence();
    t = __rdtsc();
    _mm_lfence();
    return t;
}
#define TIMER "rdtsc"
#else
static uint64_t cycles(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#define TIMER "clock_gettime ns"
#endif

enum { SLOTS = 64, KEY_POOL = 16, CROPS = 5 };
static const double crop_pct[CROPS] = {100, 99, 90, 75, 50};

typedef struct {
    uint8_t cls;
    uint64_t t;
} sample;

/* Inputs of one batch: SLOTS (class, secret key, ciphertext) triples. */
typedef struct {
    int level;
    size_t pk_n, sk_n, ct_n;
    uint8_t *fixed_pk, *fixed_sk, *fixed_ct;
    uint8_t *pool_pk, *pool_sk; /* KEY_POOL random key pairs */
    uint8_t *sk, *ct;           /* SLOTS slots each */
    uint8_t cls[SLOTS];
} inputs;

static void *xmalloc(size_t n)
{
    void *p = malloc(n);

    if (p == NULL) {
        fprintf(stderr, "test_dudect: out of memory\n");
        exit(2);
    }
    return p;
}

static void check(int rc, const char *what)
{
    if (rc != BIKE_OK) {
        fprintf(stderr, "test_dudect: %s: %s\n", what, bike_strerror(rc));
        exit(2);
    }
}

/* Uniform bytes from a xorshift generator: test inputs, not keys. */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void random_bytes(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rng();
}

static void inputs_init(inputs *in, int level)
{
    in->level = level;
    in->pk_n = bike_public_key_bytes(level);
    in->sk_n = bike_secret_key_bytes(level);
    in->ct_n = bike_ciphertext_bytes(level);
    in->fixed_pk = xmalloc(in->pk_n);
    in->fixed_sk = xmalloc(in->sk_n);
    in->fixed_ct = xmalloc(in->ct_n);
    in->pool_pk = xmalloc(KEY_POOL * in->pk_n);
    in->pool_sk = xmalloc(KEY_POOL * in->sk_n);
    in->sk = xmalloc(SLOTS * in->sk_n);
    in->ct = xmalloc(SLOTS * in->ct_n);
    check(bike_keypair(level, in->fixed_pk, in->pk_n, in->fixed_sk, in->sk_n), "keypair");
    for (int i = 0; i < KEY_POOL; i++)
        check(bike_keypair(level, in->pool_pk + i * in->pk_n, in->pk_n,
                           in->pool_sk + i * in->sk_n, in->sk_n),
              "keypair");
    {
        uint8_t ss[BIKE_SHARED_SECRET_BYTES];

        check(bike_encaps(level, in->fixed_ct, in->ct_n, ss, in->fixed_pk, in->pk_n), "encaps");
    }
}

static void inputs_free(inputs *in)
{
    free(in->fixed_pk);
    free(in->fixed_sk);
    free(in->fixed_ct);
    free(in->pool_pk);
    free(in->pool_sk);
    free(in->sk);
    free(in->ct);
}

/* Fills the batch: class 0 the fixed input, class 1 a random one. */
static void inputs_fill(inputs *in, int ct_experiment)
{
    uint8_t ss[BIKE_SHARED_SECRET_BYTES];

    for (int i = 0; i < SLOTS; i++) {
        uint8_t *sk = in->sk + i * in->sk_n, *ct = in->ct + i * in->ct_n;

        in->cls[i] = (uint8_t)(rng() & 1);
        if (ct_experiment) {
            memcpy(sk, in->fixed_sk, in->sk_n);
            if (in->cls[i] == 0)
                memcpy(ct, in->fixed_ct, in->ct_n);
            else
                random_bytes(ct, in->ct_n);
        } else {
            const uint8_t *pk = in->fixed_pk;

            if (in->cls[i] == 0) {
                memcpy(sk, in->fixed_sk, in->sk_n);
            } else {
                size_t k = (size_t)(rng() % KEY_POOL);

                memcpy(sk, in->pool_sk + k * in->sk_n, in->sk_n);
                pk = in->pool_pk + k * in->pk_n;
            }
            check(bike_encaps(in->level, ct, in->ct_n, ss, pk, in->pk_n), "encaps");
        }
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return (x > y) - (x < y);
}

/* Welch's t of the samples with t <= limit. */
static double welch_t(const sample *s, size_t n, uint64_t limit)
{
    double cnt[2] = {0, 0}, mean[2] = {0, 0}, m2[2] = {0, 0};

    for (size_t i = 0; i < n; i++) {
        int c = s[i].cls;
        double x = (double)s[i].t, d;

        if (s[i].t > limit)
            continue;
        cnt[c] += 1;
        d = x - mean[c];
        mean[c] += d / cnt[c];
        m2[c] += d * (x - mean[c]);
    }
    if (cnt[0] < 2 || cnt[1] < 2)
        return 0;
    return (mean[0] - mean[1]) / sqrt(m2[0] / (cnt[0] - 1) / cnt[0] + m2[1] / (cnt[1] - 1) / cnt[1]);
}

/* One experiment; prints its line and returns the largest |t|. */
static double experiment(const char *backend, int level, int ct_experiment, size_t samples)
{
    inputs in;
    sample *s = xmalloc(samples * sizeof(*s));
    uint64_t *sorted = xmalloc(samples * sizeof(*sorted));
    double t[CROPS], worst = 0, mean[2] = {0, 0};
    size_t n = 0, count[2] = {0, 0};
    uint8_t ss[BIKE_SHARED_SECRET_BYTES];

    inputs_init(&in, level);
    /* Warm-up: one batch unmeasured. */
    inputs_fill(&in, ct_experiment);
    for (int i = 0; i < SLOTS; i++)
        check(bike_decaps(level, ss, in.ct + i * in.ct_n, in.ct_n, in.sk + i * in.sk_n, in.sk_n),
              "decaps");
    while (n < samples) {
        inputs_fill(&in, ct_experiment);
        for (int i = 0; i < SLOTS && n < samples; i++, n++) {
            const uint8_t *sk = in.sk + i * in.sk_n, *ct = in.ct + i * in.ct_n;
            uint64_t t0 = cycles();
            int rc = bike_decaps(level, ss, ct, in.ct_n, sk, in.sk_n);
            uint64_t t1 = cycles();

            check(rc, "decaps");
            s[n].cls = in.cls[i];
            s[n].t = t1 - t0;
        }
    }
    for (size_t i = 0; i < n; i++) {
        sorted[i] = s[i].t;
        mean[s[i].cls] += (double)s[i].t;
        count[s[i].cls]++;
    }
    qsort(sorted, n, sizeof(*sorted), cmp_u64);
    for (int c = 0; c < CROPS; c++) {
        size_t at = (size_t)((double)(n - 1) * crop_pct[c] / 100.0);

        t[c] = welch_t(s, n, sorted[at]);
        if (fabs(t[c]) > worst)
            worst = fabs(t[c]);
    }
    printf("%-13s L%d %-3s n=%zu median=%llu mean_fixed=%.0f mean_random=%.0f t=%.2f "
           "t99=%.2f t90=%.2f t75=%.2f t50=%.2f max|t|=%.2f\n",
           backend, level, ct_experiment ? "ct" : "key", n,
           (unsigned long long)sorted[n / 2], count[0] ? mean[0] / (double)count[0] : 0,
           count[1] ? mean[1] / (double)count[1] : 0, t[0], t[1], t[2], t[3], t[4], worst);
    fflush(stdout);
    inputs_free(&in);
    free(s);
    free(sorted);
    return worst;
}

int main(int argc, char **argv)
{
    size_t samples = 2000;
    const char *levels = "1", *only = NULL;
    double threshold = 10, worst = 0;

    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--samples") == 0)
            samples = (size_t)strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--levels") == 0)
            levels = argv[i + 1];
        else if (strcmp(argv[i], "--backend") == 0)
            only = argv[i + 1];
        else if (strcmp(argv[i], "--threshold") == 0)
            threshold = strtod(argv[i + 1], NULL);
        else
            goto usage;
    }
    if (argc % 2 == 0 || samples < 20 || threshold <= 0)
        goto usage;
    {
        /* One CPU, as dudect and `bike bench` do: no migration mid-call. */
        cpu_set_t set;

        if (sched_getaffinity(0, sizeof(set), &set) == 0) {
            for (int c = 0; c < CPU_SETSIZE; c++) {
                if (CPU_ISSET(c, &set)) {
                    CPU_ZERO(&set);
                    CPU_SET(c, &set);
                    sched_setaffinity(0, sizeof(set), &set);
                    break;
                }
            }
        }
    }
    printf("dudect on decapsulation: timer %s, %zu samples per experiment, threshold |t| < %g\n",
           TIMER, samples, threshold);
    for (size_t b = 0; bike_backend_at(b) != NULL; b++) {
        const char *name = bike_backend_at(b);

        if ((only != NULL && strcmp(only, name) != 0) || !bike_backend_supported(name))
            continue;
        check(bike_set_backend(name), "set back end");
        for (const char *l = levels; *l != '\0'; l++) {
            if (*l != '1' && *l != '3' && *l != '5')
                continue;
            for (int e = 0; e < 2; e++) {
                double w = experiment(name, *l - '0', e, samples);

                if (w > worst)
                    worst = w;
            }
        }
    }
    if (worst >= threshold) {
        printf("FAIL: max |t| = %.2f >= %g: decapsulation time depends on the class\n", worst,
               threshold);
        return 1;
    }
    printf("ok: max |t| = %.2f < %g\n", worst, threshold);
    return 0;

usage:
    fprintf(stderr, "usage: test_dudect [--samples N] [--levels 1,3,5] [--backend NAME] "
                    "[--threshold T]\n");
    return 2;
}
