/* Key pairs made ahead, a batch at a time, for the KEMs whose key generation
 * shares work across a batch: BIKE's keys share one inversion
 * (bike/batch.h), which makes an L1 key two and a half to five times
 * cheaper in batches of 16. A TLS client makes a key pair per handshake,
 * so the provider keeps the rest of a batch for the next handshakes.
 *
 * A pool's batch starts at one key and doubles each time the pool runs dry,
 * up to the provider's keygen-batch setting: a program that makes one key
 * pays for one; a busy client soon amortises the inversion. Every key is
 * handed out once: the pool forgets (and wipes) its keys in a forked child,
 * seen by a fork handler and by a change of process id, so parent and
 * child never share an ephemeral key. Keys wait in the secure heap when
 * OpenSSL has one. */
#include "bikeprov.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/proverr.h>

/* A slot per (KEM, parameter) pair in use (BIKE L1, L3, L5 today); no more
 * pairs than algorithms, so a pool is never full. */
#define POOL_SLOTS BIKEPROV_NUM_ALGS

typedef struct {
    const bikeprov_pq_kem *pq; /* NULL: slot unused */
    int level;
    size_t pk_bytes, sk_bytes; /* one key's */
    size_t have;       /* keys ready: the first `have` of the buffers */
    size_t next_batch; /* keys the next refill makes */
    size_t cap;        /* keys the buffers hold */
    pid_t pid;         /* process and fork generation that made them */
    unsigned int fork_gen;
    uint8_t *pk;       /* cap public keys, back to back */
    uint8_t *sk;       /* cap secret keys, secure heap */
} pool_slot;

struct bikeprov_keypool {
    CRYPTO_RWLOCK *lock;
    size_t max_batch;
    pool_slot slot[POOL_SLOTS];
};

static atomic_uint fork_generation;
static CRYPTO_ONCE atfork_once = CRYPTO_ONCE_STATIC_INIT;
static int atfork_ok;

static void on_fork_child(void)
{
    atomic_fetch_add(&fork_generation, 1);
}

static void atfork_init(void)
{
    atfork_ok = pthread_atfork(NULL, NULL, on_fork_child) == 0;
}

bikeprov_keypool *bikeprov_keypool_new(size_t max_batch)
{
    bikeprov_keypool *kp;

    if (!CRYPTO_THREAD_run_once(&atfork_once, atfork_init) || !atfork_ok)
        return NULL;
    if ((kp = OPENSSL_zalloc(sizeof(*kp))) == NULL)
        return NULL;
    if ((kp->lock = CRYPTO_THREAD_lock_new()) == NULL) {
        OPENSSL_free(kp);
        return NULL;
    }
    kp->max_batch = max_batch;
    return kp;
}

static void slot_clear(pool_slot *s)
{
    OPENSSL_secure_clear_free(s->sk, s->cap * s->sk_bytes);
    OPENSSL_free(s->pk);
    s->sk = s->pk = NULL;
    s->have = s->cap = 0;
}

void bikeprov_keypool_free(bikeprov_keypool *kp)
{
    if (kp == NULL)
        return;
    for (size_t i = 0; i < POOL_SLOTS; i++) {
        pool_slot *s = &kp->slot[i];

        if (s->pq != NULL)
            slot_clear(s);
    }
    CRYPTO_THREAD_lock_free(kp->lock);
    OPENSSL_free(kp);
}

static pool_slot *slot_of(bikeprov_keypool *kp, const bikeprov_alg *alg)
{
    for (size_t i = 0; i < POOL_SLOTS; i++) {
        pool_slot *s = &kp->slot[i];

        if (s->pq == alg->pq && s->level == alg->level)
            return s;
        if (s->pq == NULL) {
            s->pq = alg->pq;
            s->level = alg->level;
            s->pk_bytes = alg->pq_pk_bytes;
            s->sk_bytes = alg->pq_sk_bytes;
            s->next_batch = 1;
            return s;
        }
    }
    ERR_raise_data(ERR_LIB_PROV, ERR_R_INTERNAL_ERROR, "key pool: no slot for %s",
                   alg->name); /* unreachable: POOL_SLOTS */
    return NULL;
}

/* Make the slot's next batch: have = next_batch keys. */
static int slot_refill(bikeprov_ctx *prov, const bikeprov_alg *alg, pool_slot *s)
{
    const size_t n = s->next_batch, pk_bytes = s->pk_bytes, sk_bytes = s->sk_bytes;
    const size_t coins_len = n * alg->pq->keygen_coins;
    uint8_t *coins;
    int rc;

    if (s->cap < n) {
        slot_clear(s);
        s->pk = OPENSSL_malloc(n * pk_bytes);
        s->sk = OPENSSL_secure_malloc(n * sk_bytes);
        if (s->pk == NULL || s->sk == NULL) {
            OPENSSL_free(s->pk);
            OPENSSL_secure_free(s->sk);
            s->pk = s->sk = NULL;
            return 0;
        }
        s->cap = n;
    }
    if ((coins = OPENSSL_secure_malloc(coins_len)) == NULL)
        return 0;
    if (!bikeprov_random(prov, coins, coins_len, 1)) {
        OPENSSL_secure_free(coins);
        return 0;
    }
    rc = alg->pq->keypair_batch(alg->level, n, s->pk, n * pk_bytes, s->sk, n * sk_bytes, coins,
                                coins_len);
    OPENSSL_secure_clear_free(coins, coins_len);
    if (rc != 0) {
        ERR_raise_data(ERR_LIB_PROV, PROV_R_FAILED_TO_GENERATE_KEY, "%s batch of %zu: %s",
                       alg->pq->name, n, alg->pq->strerror(rc));
        return 0;
    }
    s->have = n;
    s->pid = getpid();
    s->fork_gen = atomic_load(&fork_generation);
    s->next_batch = 2 * n < prov->keypool->max_batch ? 2 * n : prov->keypool->max_batch;
    return 1;
}

int bikeprov_keypool_take(bikeprov_ctx *prov, const bikeprov_alg *alg, uint8_t *pk, uint8_t *sk)
{
    bikeprov_keypool *kp = prov->keypool;
    pool_slot *s;
    int ok = 0;

    if (!CRYPTO_THREAD_write_lock(kp->lock))
        return 0;
    if ((s = slot_of(kp, alg)) == NULL)
        goto done;
    if (s->have != 0 && (s->pid != getpid() || s->fork_gen != atomic_load(&fork_generation))) {
        /* A forked child: its parent may hand out the same keys. */
        slot_clear(s);
        s->next_batch = 1;
    }
    if (s->have == 0 && !slot_refill(prov, alg, s))
        goto done;
    s->have--;
    memcpy(pk, s->pk + s->have * s->pk_bytes, s->pk_bytes);
    memcpy(sk, s->sk + s->have * s->sk_bytes, s->sk_bytes);
    OPENSSL_cleanse(s->sk + s->have * s->sk_bytes, s->sk_bytes);
    ok = 1;
done:
    CRYPTO_THREAD_unlock(kp->lock);
    return ok;
}
