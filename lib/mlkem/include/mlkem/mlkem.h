/* libmlkem: ML-KEM-512, ML-KEM-768 and ML-KEM-1024 (FIPS 203), in one library.
 *
 * The parameter set is a run-time argument of every call: 512, 768 or 1024.
 * Every buffer comes with its length, which must equal the size for the set
 * (see the size functions and the MLKEM<set>_* constants); any error returns
 * a negative code and writes nothing to any output.
 *
 * Byte formats are FIPS 203's: the encapsulation key ek is
 * ByteEncode12(t) || rho, the decapsulation key dk is
 * dk_PKE || ek || H(ek) || z, the ciphertext is c1 || c2.
 *
 * The calls allocate nothing on the heap, keep no mutable global state
 * besides the choice of back end (made once, thread-safely, on first use)
 * and run in time independent of every secret (the decapsulation key, the
 * seeds d, z and m, the shared secret, and whether a ciphertext is rejected).
 */
#ifndef MLKEM_MLKEM_H
#define MLKEM_MLKEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes. Every function returning int returns MLKEM_OK or one of
 * the negative codes. */
#define MLKEM_OK 0
#define MLKEM_ERR_SET (-1)    /* the parameter set is not 512, 768 or 1024 */
#define MLKEM_ERR_LENGTH (-2) /* a buffer length does not match the set */
#define MLKEM_ERR_KEY (-3)    /* FIPS 203 section 7 input check failed: an
                                 encapsulation key coefficient >= q, or a
                                 decapsulation key whose H(ek) does not match */
#define MLKEM_ERR_RANDOM (-4) /* the operating system's randomness failed */
#define MLKEM_ERR_NULL (-5)   /* a required pointer is NULL */
#define MLKEM_ERR_BACKEND (-6) /* unknown back end, or one this CPU cannot run */
#define MLKEM_ERR_ACCEL (-7)   /* an accelerator hook failed (mlkem/accel.h); the
                                  outputs are wiped */

#define MLKEM512_EK_BYTES 800
#define MLKEM512_DK_BYTES 1632
#define MLKEM512_CT_BYTES 768
#define MLKEM768_EK_BYTES 1184
#define MLKEM768_DK_BYTES 2400
#define MLKEM768_CT_BYTES 1088
#define MLKEM1024_EK_BYTES 1568
#define MLKEM1024_DK_BYTES 3168
#define MLKEM1024_CT_BYTES 1568
#define MLKEM_SS_BYTES 32
#define MLKEM_SEED_BYTES 32 /* each of d, z (key generation) and m (encapsulation) */
#define MLKEM_MAX_EK_BYTES MLKEM1024_EK_BYTES
#define MLKEM_MAX_DK_BYTES MLKEM1024_DK_BYTES
#define MLKEM_MAX_CT_BYTES MLKEM1024_CT_BYTES

/* Sizes for a set; 0 for an unknown set. */
size_t mlkem_ek_bytes(int set);
size_t mlkem_dk_bytes(int set);
size_t mlkem_ct_bytes(int set);

/* ML-KEM.KeyGen: fresh d and z from the operating system. */
int mlkem_keypair(int set, uint8_t *ek, size_t ek_len, uint8_t *dk, size_t dk_len);

/* ML-KEM.KeyGen_internal(d, z): deterministic, for tests and for keys
 * stored as the 64-byte seed d || z. */
int mlkem_keypair_derand(int set, uint8_t *ek, size_t ek_len, uint8_t *dk, size_t dk_len,
                         const uint8_t d[MLKEM_SEED_BYTES], const uint8_t z[MLKEM_SEED_BYTES]);

/* ML-KEM.Encaps: fresh m from the operating system. Checks ek (section 7.2:
 * every coefficient < q) and returns MLKEM_ERR_KEY if it fails. */
int mlkem_encaps(int set, uint8_t *ct, size_t ct_len, uint8_t ss[MLKEM_SS_BYTES],
                 const uint8_t *ek, size_t ek_len);

/* ML-KEM.Encaps_internal(ek, m), with the same check of ek. */
int mlkem_encaps_derand(int set, uint8_t *ct, size_t ct_len, uint8_t ss[MLKEM_SS_BYTES],
                        const uint8_t *ek, size_t ek_len, const uint8_t m[MLKEM_SEED_BYTES]);

/* ML-KEM.Decaps. Checks dk (section 7.3: H of its ek part equals its
 * stored hash) and returns MLKEM_ERR_KEY if it fails. A ciphertext that does
 * not re-encrypt to itself is not an error: ss is then the implicit-rejection
 * key J(z || ct), and MLKEM_OK is returned, in the same time. */
int mlkem_decaps(int set, uint8_t ss[MLKEM_SS_BYTES], const uint8_t *ct, size_t ct_len,
                 const uint8_t *dk, size_t dk_len);

/* A short English text for a return code. */
const char *mlkem_strerror(int rc);

/* The back end in use ("portable", "avx2"). MLKEM_BACKEND in the
 * environment, read on first use, or mlkem_set_backend choose another;
 * NULL or "auto" picks the fastest this CPU runs. */
const char *mlkem_backend_name(void);
int mlkem_set_backend(const char *name);

#ifdef __cplusplus
}
#endif

#endif
