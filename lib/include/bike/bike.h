/* libbike: the BIKE key encapsulation mechanism (round 4, specification 5.1)
 * at security levels 1, 3 and 5, in one library.
 *
 * The level is a run-time argument of every call. Every buffer comes with its
 * length, which must equal the size for the level (see the size functions and
 * the BIKE_Lx_* constants); a mismatch returns BIKE_ERR_LENGTH and writes
 * nothing.
 *
 * The KEM calls allocate nothing on the heap, keep no mutable global state
 * besides the choice of back end (made once, thread-safely, on first use;
 * see bike_set_backend) and may be called from several threads at once.
 * They need less than 384 KiB of stack at level 5 (tested; about 300 KiB).
 *
 * Byte formats are those of the official Known Answer Tests: a public key is
 * h (ceil(r/8) bytes, little-endian bits), a ciphertext is c0 || c1, a secret
 * key is the 2d support indices (32-bit little-endian) || h0 || h1 || h ||
 * sigma.
 */
#ifndef BIKE_BIKE_H
#define BIKE_BIKE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version and ABI ----------------------------------------------------------
 * The release this header belongs to (the build reads it from here). The
 * functions of this header are the stable ABI of the shared library, whose
 * soname is libbike.so.BIKE_ABI_VERSION: a change that breaks a program built
 * against an older release of the same ABI version raises it (and the major
 * version with it). ops.h is exported too but is not covered (see there). */
#define BIKE_VERSION_MAJOR 0
#define BIKE_VERSION_MINOR 1
#define BIKE_VERSION_PATCH 0
#define BIKE_VERSION_STRING "0.1.0"
#define BIKE_ABI_VERSION BIKE_VERSION_MAJOR

/* Marks a function the shared library exports; the library is built with
 * -fvisibility=hidden and a linker version script (lib/libbike.map.in). */
#if defined(__GNUC__) || defined(__clang__)
#define BIKE_API __attribute__((visibility("default")))
#else
#define BIKE_API
#endif

/* The version of the library actually loaded, e.g. "0.1.0" (compare with
 * BIKE_VERSION_STRING, the one compiled against). */
BIKE_API const char *bike_version(void);

/* Return codes. Every function returns BIKE_OK or one of the negative codes. */
#define BIKE_OK 0
#define BIKE_ERR_LEVEL (-1)  /* level is not 1, 3 or 5 */
#define BIKE_ERR_LENGTH (-2) /* a buffer length does not match the level */
#define BIKE_ERR_KEY (-3)    /* malformed key: bits above r set, index >= r */
#define BIKE_ERR_RANDOM (-4) /* the operating system's randomness failed */
#define BIKE_ERR_NULL (-5)   /* a required pointer is NULL */
#define BIKE_ERR_BACKEND (-6) /* unknown back end, or one this CPU cannot run */
#define BIKE_ERR_ACCEL (-7)   /* an accelerator failed (bike/accel.h): outputs wiped */

/* Sizes in bytes. */
#define BIKE_L1_PUBLIC_KEY_BYTES 1541
#define BIKE_L1_SECRET_KEY_BYTES 5223
#define BIKE_L1_CIPHERTEXT_BYTES 1573
#define BIKE_L3_PUBLIC_KEY_BYTES 3083
#define BIKE_L3_SECRET_KEY_BYTES 10105
#define BIKE_L3_CIPHERTEXT_BYTES 3115
#define BIKE_L5_PUBLIC_KEY_BYTES 5122
#define BIKE_L5_SECRET_KEY_BYTES 16494
#define BIKE_L5_CIPHERTEXT_BYTES 5154
#define BIKE_SHARED_SECRET_BYTES 32
/* Randomness of one keypair or one encapsulation (the KATs draw it in one call). */
#define BIKE_COINS_BYTES 64
#define BIKE_MAX_PUBLIC_KEY_BYTES BIKE_L5_PUBLIC_KEY_BYTES
#define BIKE_MAX_SECRET_KEY_BYTES BIKE_L5_SECRET_KEY_BYTES
#define BIKE_MAX_CIPHERTEXT_BYTES BIKE_L5_CIPHERTEXT_BYTES

/* Sizes for a level; 0 if the level is not 1, 3 or 5. */
BIKE_API size_t bike_public_key_bytes(int level);
BIKE_API size_t bike_secret_key_bytes(int level);
BIKE_API size_t bike_ciphertext_bytes(int level);

/* Key generation with 64 bytes from getrandom(). */
BIKE_API int bike_keypair(int level, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len);

/* Key generation from explicit coins: the first 32 bytes seed h0 and h1, the
 * last 32 are sigma, the implicit-rejection secret. */
BIKE_API int bike_keypair_derand(int level, uint8_t *pk, size_t pk_len, uint8_t *sk,
                                 size_t sk_len, const uint8_t coins[BIKE_COINS_BYTES]);

/* Encapsulation with 64 bytes from getrandom(). Fails with BIKE_ERR_KEY if
 * the public key has bits set above r. */
BIKE_API int bike_encaps(int level, uint8_t *ct, size_t ct_len,
                         uint8_t ss[BIKE_SHARED_SECRET_BYTES], const uint8_t *pk, size_t pk_len);

/* Encapsulation from explicit coins: the message m is the first 32 bytes;
 * the last 32 are not used (they exist so that the KAT call pattern holds). */
BIKE_API int bike_encaps_derand(int level, uint8_t *ct, size_t ct_len,
                                uint8_t ss[BIKE_SHARED_SECRET_BYTES], const uint8_t *pk,
                                size_t pk_len, const uint8_t coins[BIKE_COINS_BYTES]);

/* Decapsulation. Any ciphertext of the right length is accepted: one that
 * does not decode to itself (tampered, bits set above r, decoding failure)
 * yields the implicit-rejection secret K(sigma, ct), chosen in constant time.
 * Fails with BIKE_ERR_KEY only for a malformed secret key. */
BIKE_API int bike_decaps(int level, uint8_t ss[BIKE_SHARED_SECRET_BYTES], const uint8_t *ct,
                         size_t ct_len, const uint8_t *sk, size_t sk_len);

/* A short English description of a return code. */
BIKE_API const char *bike_strerror(int rc);

/* ---- back ends --------------------------------------------------------------
 * The library picks the fastest back end the CPU runs on its first call
 * (thread-safely; no caller action needed). The environment variable
 * BIKE_BACKEND=<name> chooses one instead if the CPU runs it ("auto" or an
 * unknown or unsupported name keeps the automatic choice; compare
 * bike_backend_name() to tell). Every back end gives byte-identical results.
 * Back ends on x86-64: "portable" (C11), "avx2" (AVX2 + PCLMULQDQ),
 * "avx2-vpclmul" (as avx2 with 256-bit VPCLMULQDQ multiplication), "avx512"
 * (AVX-512 F/BW/VL/VBMI2/VPOPCNTDQ, 512-bit VPCLMULQDQ, GFNI). */

/* Use back end `name` ("auto" or NULL: the automatic choice) from now on, in
 * every thread. BIKE_ERR_BACKEND if it is unknown or the CPU lacks a feature
 * it needs; the back end in use is then unchanged. Not meant to be called
 * while other threads are inside the library. */
BIKE_API int bike_set_backend(const char *name);

/* The name of the back end in use. */
BIKE_API const char *bike_backend_name(void);

/* The i-th back end compiled in (i = 0, 1, ...), or NULL past the last. */
BIKE_API const char *bike_backend_at(size_t i);

/* 1 if back end `name` is compiled in and the CPU runs it, 0 otherwise. */
BIKE_API int bike_backend_supported(const char *name);

/* The CPU features the dispatcher saw, as a space-separated list of names
 * (for example "pclmulqdq avx avx2 bmi2 vpclmulqdq"). */
BIKE_API const char *bike_cpu_features(void);

#ifdef __cplusplus
}
#endif

#endif
