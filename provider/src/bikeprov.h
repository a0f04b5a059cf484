/* bikeprov: an OpenSSL 3 provider for the BIKE KEM (libbike) and ML-KEM-768
 * (libmlkem), and their hybrids with ECDH (P-256, P-384, P-521) and
 * X25519/X448, with TLS 1.3 groups.
 *
 * Internal header shared by the provider's translation units.
 *
 * Byte formats. The post-quantum ("PQ") part is the KEM's own public key,
 * ciphertext and 32-byte secret; a hybrid concatenates it with the classical
 * part, in an order fixed per group (pq_first):
 *   public key / key share = classical public key || PQ public key
 *   ciphertext             = classical ephemeral public key || PQ ciphertext
 *   shared secret          = classical ECDH secret || PQ shared secret
 * or each of the three PQ part first. The BIKE hybrids put the classical part
 * first (oqs-provider's non-"reverse" hybrids, so that the two interoperate);
 * so does SecP256r1MLKEM768, while X25519MLKEM768 puts ML-KEM first
 * (draft-ietf-tls-ecdhe-mlkem, section 4.1). The classical public key is an
 * uncompressed SEC1 point (0x04 || x || y) for the NIST curves and the raw
 * 32/56-byte key for X25519/X448; the classical secret the ECDH x-coordinate
 * (fixed length) or the raw X25519/X448 output. No length prefixes: every
 * part has a fixed length per group.
 */
#ifndef BIKEPROV_H
#define BIKEPROV_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/evp.h>

#include <bike/bike.h>
#include <mlkem/mlkem.h>

#define BIKEPROV_NAME "bikeco BIKE provider"
#define BIKEPROV_VERSION BIKE_VERSION_STRING /* released with libbike */
#define BIKEPROV_PROPERTIES "provider=bike"

/* How the classical half of a hybrid is computed (through the default
 * provider, fetched in the provider's child library context). */
typedef enum {
    BIKEPROV_CLASSICAL_NONE = 0,
    BIKEPROV_CLASSICAL_EC,     /* ECDH on a NIST prime curve */
    BIKEPROV_CLASSICAL_ECX     /* X25519 or X448 */
} bikeprov_classical_kind;

/* A post-quantum KEM library behind one interface: libbike (param = level 1,
 * 3, 5) or libmlkem (param = parameter set 768). Every call returns 0 on
 * success, else a negative code that strerror explains. */
typedef struct {
    const char *name; /* "BIKE", "ML-KEM" */
    size_t keygen_coins, encaps_coins; /* random bytes each derandomised call takes */
    int (*keypair)(int param, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len,
                   const uint8_t *coins);
    /* count key pairs at once, each as keypair would make it from its coins;
     * NULL if a batch costs no less than its keys one by one */
    int (*keypair_batch)(int param, size_t count, uint8_t *pk, size_t pk_len, uint8_t *sk,
                         size_t sk_len, const uint8_t *coins, size_t coins_len);
    int (*encaps)(int param, uint8_t *ct, size_t ct_len, uint8_t *ss, const uint8_t *pk,
                  size_t pk_len, const uint8_t *coins);
    int (*decaps)(int param, uint8_t *ss, const uint8_t *ct, size_t ct_len, const uint8_t *sk,
                  size_t sk_len);
    const char *(*strerror)(int rc);
} bikeprov_pq_kem;

#define BIKEPROV_MAX_COINS 64
#define BIKEPROV_PQ_SECRET_BYTES 32 /* BIKE's and ML-KEM's shared secret */
extern const bikeprov_pq_kem bikeprov_pq_bike, bikeprov_pq_mlkem;

/* One algorithm: a key-management, a KEM and a TLS group of the same name. */
typedef struct {
    const char *name;            /* "bikel1", "p256_bikel1", "X25519MLKEM768", ... */
    const char *env_codepoint;   /* environment variable that overrides the code point */
    unsigned int default_codepoint;
    const bikeprov_pq_kem *pq;   /* the post-quantum KEM */
    int level;                   /* its parameter: BIKE level 1, 3, 5; ML-KEM set 768 */
    int security_bits;           /* 128, 192, 256 */
    int pq_first;                /* hybrid wire format: PQ part first (see above) */
    bikeprov_classical_kind kind;
    const char *classical_type;  /* "EC", "X25519", "X448" or NULL */
    const char *classical_group; /* "P-256", ... for EC, else NULL */
    size_t classical_pub_bytes;  /* classical key share / ciphertext part */
    size_t classical_secret_bytes;
    size_t pq_pk_bytes;
    size_t pq_sk_bytes;
    size_t pq_ct_bytes;
} bikeprov_alg;

/* The BIKE algorithms come first: key files (keycodec.c) exist for these. */
#define BIKEPROV_NUM_BIKE_ALGS 8
#define BIKEPROV_NUM_ALGS 11
extern const bikeprov_alg bikeprov_algs[BIKEPROV_NUM_ALGS];

/* Sizes of the encoded forms for an algorithm. */
size_t bikeprov_pub_bytes(const bikeprov_alg *alg);
size_t bikeprov_ct_bytes(const bikeprov_alg *alg);
size_t bikeprov_secret_bytes(const bikeprov_alg *alg);
/* Where each part starts in a hybrid's public key (ct = 0) or ciphertext
 * (ct = 1), and in its shared secret. */
size_t bikeprov_classical_offset(const bikeprov_alg *alg, int ct);
size_t bikeprov_pq_offset(const bikeprov_alg *alg);
size_t bikeprov_classical_secret_offset(const bikeprov_alg *alg);
size_t bikeprov_pq_secret_offset(const bikeprov_alg *alg);

/* ASCII case-insensitive string equality (OPENSSL_strcasecmp is 3.0.3+). */
int bikeprov_name_eq(const char *a, const char *b);

/* Key pairs made ahead in batches (keypool.c). */
typedef struct bikeprov_keypool bikeprov_keypool;

/* The provider context. */
typedef struct {
    const OSSL_CORE_HANDLE *handle;
    OSSL_LIB_CTX *libctx;       /* child of the application's context */
    bikeprov_keypool *keypool;  /* NULL: keygen-batch = 1, every key made alone */
} bikeprov_ctx;

/* The provider's keygen-batch setting: its default, and its largest. */
#define BIKEPROV_KEYGEN_BATCH_DEFAULT 16
#define BIKEPROV_KEYGEN_BATCH_MAX 64

/* A pool whose batches grow from 1 to max_batch keys; NULL on failure. */
bikeprov_keypool *bikeprov_keypool_new(size_t max_batch);
void bikeprov_keypool_free(bikeprov_keypool *kp);
/* A fresh key pair of alg (whose pq->keypair_batch is set) from the pool,
 * made in a batch if the pool is empty: 1, or 0 with an error raised. */
int bikeprov_keypool_take(bikeprov_ctx *prov, const bikeprov_alg *alg, uint8_t *pk, uint8_t *sk);

/* A key: public and/or private halves, or neither (after paramgen). */
typedef struct {
    const bikeprov_alg *alg;
    bikeprov_ctx *prov;
    uint8_t *pq_pk;   /* pq_pk_bytes, or NULL */
    uint8_t *pq_sk;   /* pq_sk_bytes in the secure heap, or NULL */
    EVP_PKEY *classical; /* hybrids: the ECDH/ECX key (public or key pair) */
    int has_private;     /* pq_sk and the classical private key are set */
} bikeprov_key;

/* Key lifecycle (keymgmt.c); used by the KEM and the decoders as well. */
int bikeprov_key_has_public(const bikeprov_key *key);
int bikeprov_key_encode_public(const bikeprov_key *key, uint8_t *out, size_t out_len);
/* A PQ-only key from the KEM's public key and, if sk is not NULL, secret
 * key (copied); NULL on allocation failure. */
bikeprov_key *bikeprov_key_from_bytes(bikeprov_ctx *prov, const bikeprov_alg *alg,
                                      const uint8_t *pk, const uint8_t *sk);
void bikeprov_key_free(bikeprov_key *key);
int bikeprov_key_export(const bikeprov_key *key, int selection, OSSL_CALLBACK *cb, void *cbarg);

/* Classical helpers (classical.c). All return 1 on success, 0 on failure
 * with an OpenSSL error queued. */
EVP_PKEY *bikeprov_classical_keygen(OSSL_LIB_CTX *libctx, const bikeprov_alg *alg);
int bikeprov_classical_encode(const bikeprov_alg *alg, const EVP_PKEY *pkey, uint8_t *out);
EVP_PKEY *bikeprov_classical_decode(OSSL_LIB_CTX *libctx, const bikeprov_alg *alg,
                                    const uint8_t *in);
int bikeprov_classical_derive(OSSL_LIB_CTX *libctx, const bikeprov_alg *alg, EVP_PKEY *priv,
                              EVP_PKEY *peer, uint8_t *secret);

/* Randomness for the KEMs' derandomised calls, from OpenSSL's DRBG. */
int bikeprov_random(bikeprov_ctx *prov, uint8_t *out, size_t len, int private_use);

/* Dispatch tables (keymgmt.c, kem.c). */
extern const OSSL_DISPATCH *const bikeprov_keymgmt_dispatch[BIKEPROV_NUM_ALGS];
extern const OSSL_DISPATCH bikeprov_kem_functions[];
/* Key encoders and decoders of every algorithm (keycodec.c). */
#define BIKEPROV_NUM_CODEC_ALGS BIKEPROV_NUM_BIKE_ALGS
extern const OSSL_ALGORITHM bikeprov_encoder_algs[];
extern const OSSL_ALGORITHM bikeprov_decoder_algs[];
/* Gives the algorithms' OIDs their names in libcrypto. */
void bikeprov_register_oids(void);

#endif
