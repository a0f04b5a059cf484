/* TLS 1.3 full-handshake benchmark over loopback, libssl in a loop (no
 * process spawned per handshake). One process per side, to be pinned to
 * different cores by the caller (bench/run.sh uses taskset):
 *
 *   bikeprov_tls_bench server --module M --group G --port P --count N \
 *       --cert C --key K
 *   bikeprov_tls_bench client --module M --group G --port P --count N \
 *       --warmup W --cafile C
 *
 *   bikeprov_tls_bench info --module M     (the provider's build information)
 *
 * Both sides offer only group G, TLS 1.3 only, no session tickets or
 * resumption (every handshake is a full one), TCP_NODELAY. The client times
 * each handshake from connect() to the end of SSL_connect(), checks that G
 * was negotiated, and prints one line:
 *   group=G n=N handshakes_per_s=... median_ms=... p10_ms=... p90_ms=... client_cpu_ms=...
 * and the server, when it exits, server_cpu_ms=... (CPU time per handshake).
 * handshakes_per_s counts back-to-back handshakes on one connection stream
 * (connection set-up and teardown included). The server accepts exactly
 * count + warmup connections (accept times out after 30 s) and exits.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>

typedef struct {
    const char *mode, *module, *group, *cert, *key, *cafile;
    int port, count, warmup;
} options;

static void die(const char *what)
{
    fprintf(stderr, "tls_bench: %s\n", what);
    ERR_print_errors_fp(stderr);
    exit(1);
}

static double clock_s(clockid_t id)
{
    struct timespec ts;

    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now_s(void)
{
    return clock_s(CLOCK_MONOTONIC);
}

/* CPU time of this process: on a shared machine it says what a handshake
 * costs, where the wall clock also counts waiting for a busy core. */
static double cpu_s(void)
{
    return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static void set_nodelay(int fd)
{
    int one = 1;

    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static SSL_CTX *make_ctx(const options *o, int server)
{
    SSL_CTX *ctx = SSL_CTX_new(server ? TLS_server_method() : TLS_client_method());

    if (ctx == NULL || !SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION)
        || !SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION)
        || !SSL_CTX_set1_groups_list(ctx, o->group))
        die("SSL_CTX set-up (is the group known?)");
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
    if (server) {
        SSL_CTX_set_num_tickets(ctx, 0);
        if (SSL_CTX_use_certificate_chain_file(ctx, o->cert) != 1
            || SSL_CTX_use_PrivateKey_file(ctx, o->key, SSL_FILETYPE_PEM) != 1)
            die("certificate/key");
    } else {
        if (o->cafile != NULL) {
            if (SSL_CTX_load_verify_locations(ctx, o->cafile, NULL) != 1)
                die("CA file");
            SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
        }
    }
    return ctx;
}

static int run_server(const options *o)
{
    SSL_CTX *ctx = make_ctx(o, 1);
    struct sockaddr_in addr;
    struct timeval tv = {30, 0};
    int one = 1, lfd = socket(AF_INET, SOCK_STREAM, 0), failures = 0;
    double cpu_start = cpu_s();

    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_port = htons((unsigned short)o->port);
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    setsockopt(lfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)); /* bounds accept() */
    if (bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) != 0 || listen(lfd, 64) != 0)
        die("bind/listen on 127.0.0.1");
    printf("READY\n");
    fflush(stdout);
    for (int i = 0; i < o->count + o->warmup; i++) {
        int fd = accept(lfd, NULL, NULL);
        SSL *ssl;

        if (i == o->warmup)
            cpu_start = cpu_s();

        if (fd < 0)
            die("accept (timed out?)");
        set_nodelay(fd);
        ssl = SSL_new(ctx);
        SSL_set_fd(ssl, fd);
        if (SSL_accept(ssl) == 1)
            SSL_shutdown(ssl);
        else
            failures++;
        ERR_clear_error();
        SSL_free(ssl);
        close(fd);
    }
    printf("server_cpu_ms=%.3f failures=%d\n", 1e3 * (cpu_s() - cpu_start) / o->count, failures);
    close(lfd);
    SSL_CTX_free(ctx);
    return failures == 0 ? 0 : 1;
}

static int run_client(const options *o)
{
    SSL_CTX *ctx = make_ctx(o, 0);
    double *lat = calloc((size_t)o->count, sizeof(double)), t_start = 0, cpu_start = 0;
    struct sockaddr_in addr;

    if (lat == NULL)
        die("memory");
    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_port = htons((unsigned short)o->port);
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    for (int i = 0; i < o->count + o->warmup; i++) {
        double t0;
        int fd;
        SSL *ssl;
        const char *got;

        if (i == o->warmup) {
            t_start = now_s();
            cpu_start = cpu_s();
        }
        t0 = now_s();
        fd = socket(AF_INET, SOCK_STREAM, 0);
        set_nodelay(fd);
        if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0)
            die("connect");
        ssl = SSL_new(ctx);
        SSL_set_fd(ssl, fd);
        if (SSL_connect(ssl) != 1)
            die("handshake failed");
        got = SSL_group_to_name(ssl, SSL_get_negotiated_group(ssl));
        if (got == NULL || strcasecmp(got, o->group) != 0)
            die("negotiated another group");
        if (i >= o->warmup)
            lat[i - o->warmup] = now_s() - t0;
        SSL_free(ssl); /* no close_notify: the next handshake starts at once */
        close(fd);
    }
    {
        double total = now_s() - t_start, cpu = cpu_s() - cpu_start;
        int n = o->count;

        qsort(lat, (size_t)n, sizeof(double), cmp_double);
        printf("group=%s n=%d handshakes_per_s=%.1f median_ms=%.3f p10_ms=%.3f p90_ms=%.3f "
               "client_cpu_ms=%.3f\n",
               o->group, n, n / total, 1e3 * lat[n / 2], 1e3 * lat[n / 10], 1e3 * lat[(9 * n) / 10],
               1e3 * cpu / n);
    }
    free(lat);
    SSL_CTX_free(ctx);
    return 0;
}

int main(int argc, char **argv)
{
    options o = {NULL, NULL, NULL, NULL, NULL, NULL, 0, 200, 20};

    if (argc < 2)
        goto usage;
    o.mode = argv[1];
    /* A peer that closes first must give EPIPE, not kill the process. */
    signal(SIGPIPE, SIG_IGN);
    for (int i = 2; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];

        if (strcmp(k, "--module") == 0)
            o.module = v;
        else if (strcmp(k, "--group") == 0)
            o.group = v;
        else if (strcmp(k, "--cert") == 0)
            o.cert = v;
        else if (strcmp(k, "--key") == 0)
            o.key = v;
        else if (strcmp(k, "--cafile") == 0)
            o.cafile = v;
        else if (strcmp(k, "--port") == 0)
            o.port = atoi(v);
        else if (strcmp(k, "--count") == 0)
            o.count = atoi(v);
        else if (strcmp(k, "--warmup") == 0)
            o.warmup = atoi(v);
        else
            goto usage;
    }
    if (strcmp(o.mode, "info") != 0
        && (o.group == NULL || o.port <= 0 || o.count <= 0 || o.warmup < 0))
        goto usage;
    /* The provider is loaded into the default library context, beside the
     * default provider, as an openssl.cnf would do. */
    if (OSSL_PROVIDER_load(NULL, "default") == NULL
        || (o.module != NULL && OSSL_PROVIDER_load(NULL, o.module) == NULL))
        die("loading providers");
    if (o.module != NULL && strcmp(o.mode, "info") == 0) {
        OSSL_PROVIDER *prov = OSSL_PROVIDER_load(NULL, o.module);
        char *info = NULL;
        OSSL_PARAM req[] = {OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, &info, 0),
                            OSSL_PARAM_END};

        if (prov == NULL || !OSSL_PROVIDER_get_params(prov, req) || info == NULL)
            die("provider build information");
        printf("%s\n", info);
        return 0;
    }
    if (strcmp(o.mode, "server") == 0 && o.cert != NULL && o.key != NULL)
        return run_server(&o);
    if (strcmp(o.mode, "client") == 0)
        return run_client(&o);
usage:
    fprintf(stderr, "usage: %s server|client|info --group G --port P [--module M] [--count N] "
                    "[--warmup W] [--cert C --key K | --cafile C]\n",
            argv[0]);
    return 2;
}
