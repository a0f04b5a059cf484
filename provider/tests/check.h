/* CHECK for the provider's C tests: a failed condition is counted, said
 * with its place and OpenSSL's error queue, and the test goes on. */
#ifndef BIKEPROV_TESTS_CHECK_H
#define BIKEPROV_TESTS_CHECK_H

#include <stdio.h>

#include <openssl/err.h>

static int failures;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            failures++;                                                                    \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                           \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
            ERR_print_errors_fp(stderr);                                                   \
        }                                                                                  \
    } while (0)

#endif
