/* Shared by the libFuzzer targets in this folder: reading an input as a
 * stream of fields, and writing seed inputs. */
#ifndef BIKE_FUZZ_UTIL_H
#define BIKE_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A fuzzer input read front to back; past its end every byte reads as 0, so
 * any input gives well-defined buffers of the lengths asked for. */
typedef struct {
    const uint8_t *p;
    size_t left;
} fuzz_in;

static inline uint8_t fuzz_byte(fuzz_in *in)
{
    uint8_t b = 0;

    if (in->left > 0) {
        b = *in->p++;
        in->left--;
    }
    return b;
}

/* Fills out[0..n) from the input (zeros past its end). */
static inline void fuzz_fill(fuzz_in *in, uint8_t *out, size_t n)
{
    size_t take = n < in->left ? n : in->left;

    memcpy(out, in->p, take);
    memset(out + take, 0, n - take);
    in->p += take;
    in->left -= take;
}

/* A buffer length: n plus a signed delta from the input, never below 0. */
static inline size_t fuzz_adjust(size_t n, int8_t delta)
{
    return delta < 0 && (size_t)(-delta) > n ? 0 : (size_t)((long)n + delta);
}

/* malloc of exactly n bytes (at least 1), so ASan sees any access past n. */
static inline uint8_t *fuzz_alloc(size_t n)
{
    uint8_t *p = malloc(n > 0 ? n : 1);

    if (p == NULL)
        abort();
    return p;
}

/* A finding: the property that failed, then abort() for libFuzzer. */
#define FUZZ_CHECK(cond, ...)                                                              \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "fuzz property failed: " __VA_ARGS__);                         \
            fputc('\n', stderr);                                                           \
            abort();                                                                       \
        }                                                                                  \
    } while (0)

/* Writes the seed dir/name from up to three parts (NULL parts are skipped). */
static inline void fuzz_write_seed(const char *dir, const char *name, const uint8_t *a,
                                   size_t alen, const uint8_t *b, size_t blen)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if ((f = fopen(path, "wb")) == NULL) {
        fprintf(stderr, "cannot write seed %s\n", path);
        abort();
    }
    if (a != NULL)
        fwrite(a, 1, alen, f);
    if (b != NULL)
        fwrite(b, 1, blen, f);
    fclose(f);
}

#endif
