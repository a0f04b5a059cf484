/* libFuzzer target over the `bike` tool's file reading: `bike encaps` and
 * `bike decaps` (apps/bike/kem_files.c, cli.c) called in-process on files
 * whose contents, lengths and existence come from the input.
 *
 * Input: a selector byte, a length byte, two length deltas, then the payload
 * that fills the files (zeros past its end).
 *   selector bits 0-2: the --level text, from {"1","3","5","1","3","5","2","15"}
 *   selector bits 3-4: 0 decaps, fuzzed secret key and ciphertext files,
 *                      1 decaps, a valid secret key and a fuzzed ciphertext,
 *                      2 encaps to a fuzzed public key file,
 *                      3 encaps to a valid public key, then decaps of the
 *                        written ciphertext with the valid secret key
 *   selector bit 5:    the first input file does not exist
 *   selector bit 6:    the first input file is a directory
 *   length byte bit 7: if set, the two input files get the level's length
 *                      plus the signed deltas (wrong lengths; 0 stays right)
 * Properties: exit status 2 exactly for a bad level; 1 with an error naming
 * the command and the file for a missing, unreadable or wrong-length file
 * ("needs exactly N" for a wrong length); otherwise decaps succeeds with a
 * valid key and writes what bike_decaps gives, encaps fails only for a key
 * with bits above r; a success writes its outputs at their exact lengths, a
 * failure writes none and no temporary is left; a round trip agrees.
 *
 * BIKEFUZZ_SEEDS=DIR makes the start-up write seeds into DIR: every operation
 * at every level on the first record of the KAT files in BIKE_KAT_DIR.
 */
#define _GNU_SOURCE /* open_memstream, mkdtemp */
#include <bike/bike.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz_util.h"

static const char *const level_texts[8] = {"1", "3", "5", "1", "3", "5", "2", "15"};
static const int valid_levels[3] = {1, 3, 5};
static uint8_t key_pk[3][BIKE_MAX_PUBLIC_KEY_BYTES];
static uint8_t key_sk[3][BIKE_MAX_SECRET_KEY_BYTES];
static char dir[64];
static char path_pk[96], path_sk[96], path_ct[96], path_ss[96], path_out_ct[96];

static int level_index(int level)
{
    return level == 1 ? 0 : level == 3 ? 1 : 2;
}

/* The value after "name = " on the first such line of a KAT file, as bytes. */
static size_t kat_field(FILE *f, const char *name, uint8_t *out, size_t max)
{
    char key[16];
    int c;
    size_t n = 0;

    snprintf(key, sizeof(key), "%s = ", name);
    rewind(f);
    for (;;) {
        size_t k = 0;

        while (key[k] != '\0' && (c = fgetc(f)) == key[k])
            k++;
        if (key[k] == '\0')
            break;
        FUZZ_CHECK(c != EOF, "no '%s' in the KAT file", name);
        while (c != '\n' && c != EOF)
            c = fgetc(f);
    }
    for (unsigned hi, lo; n < max && fscanf(f, "%1x%1x", &hi, &lo) == 2; n++)
        out[n] = (uint8_t)(hi << 4 | lo);
    return n;
}

static void write_seeds(const char *seed_dir)
{
    const char *kat_dir = getenv("BIKE_KAT_DIR");

    FUZZ_CHECK(kat_dir != NULL, "BIKEFUZZ_SEEDS needs BIKE_KAT_DIR (the KAT files)");
    for (int i = 0; i < 3; i++) {
        int lv = valid_levels[i];
        size_t pkn = bike_public_key_bytes(lv), skn = bike_secret_key_bytes(lv);
        size_t ctn = bike_ciphertext_bytes(lv);
        static uint8_t pk[BIKE_MAX_PUBLIC_KEY_BYTES], sk[BIKE_MAX_SECRET_KEY_BYTES];
        static uint8_t ct[BIKE_MAX_CIPHERTEXT_BYTES];
        static uint8_t body[BIKE_MAX_SECRET_KEY_BYTES + BIKE_MAX_CIPHERTEXT_BYTES];
        char path[4096], name[64];
        FILE *f;

        snprintf(path, sizeof(path), "%s/PQCkemKAT_BIKE_L%d.rsp", kat_dir, lv);
        FUZZ_CHECK((f = fopen(path, "r")) != NULL, "cannot open %s", path);
        FUZZ_CHECK(kat_field(f, "pk", pk, pkn) == pkn && kat_field(f, "sk", sk, skn) == skn &&
                       kat_field(f, "ct", ct, ctn) == ctn,
                   "short record in %s", path);
        fclose(f);
        for (uint8_t op = 0; op < 4; op++) {
            uint8_t head[4] = {(uint8_t)(i | op << 3), 0, 0, 0};
            size_t n = 0;

            if (op == 0 || op == 1) { /* the secret key file (op 0), then the ciphertext */
                if (op == 0) {
                    memcpy(body, sk, skn);
                    n = skn;
                }
                memcpy(body + n, ct, ctn);
                n += ctn;
            } else if (op == 2) {
                memcpy(body, pk, pkn);
                n = pkn;
            }
            snprintf(name, sizeof(name), "kat-l%d-op%u", lv, op);
            fuzz_write_seed(seed_dir, name, head, sizeof(head), body, n);
        }
    }
}

static void remove_dir(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[128];

    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
            if (remove(path) != 0)
                rmdir(path);
        }
    }
    closedir(d);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *seeds = getenv("BIKEFUZZ_SEEDS");
    const char *tmp = getenv("TMPDIR");
    uint8_t coins[BIKE_COINS_BYTES] = {1};

    (void)argc;
    (void)argv;
    for (int i = 0; i < 3; i++) {
        int lv = valid_levels[i];

        FUZZ_CHECK(bike_keypair_derand(lv, key_pk[i], bike_public_key_bytes(lv), key_sk[i],
                                       bike_secret_key_bytes(lv), coins) == BIKE_OK,
                   "keypair at level %d", lv);
    }
    snprintf(dir, sizeof(dir), "%s/fuzz_bike_tool.XXXXXX",
             tmp != NULL && strlen(tmp) < 32 ? tmp : "/tmp");
    FUZZ_CHECK(mkdtemp(dir) != NULL, "cannot make a temporary folder");
    atexit(remove_dir);
    snprintf(path_pk, sizeof(path_pk), "%s/pk", dir);
    snprintf(path_sk, sizeof(path_sk), "%s/sk", dir);
    snprintf(path_ct, sizeof(path_ct), "%s/ct", dir);
    snprintf(path_ss, sizeof(path_ss), "%s/ss", dir);
    snprintf(path_out_ct, sizeof(path_out_ct), "%s/out-ct", dir);
    if (seeds != NULL)
        write_seeds(seeds);
    return 0;
}

/* The size of path, or -1 if it does not exist. */
static long file_size(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void read_file(const char *path, uint8_t *out, size_t n)
{
    FILE *f = fopen(path, "rb");

    FUZZ_CHECK(f != NULL && fread(out, 1, n, f) == n, "cannot read back %s", path);
    fclose(f);
}

/* An input file: missing, a directory, or n bytes of the payload (or given). */
static void put_file(const char *path, int missing, int is_dir, fuzz_in *in, const uint8_t *given,
                     size_t n)
{
    FILE *f;

    if (missing)
        return;
    if (is_dir) {
        FUZZ_CHECK(mkdir(path, 0700) == 0, "cannot make %s", path);
        return;
    }
    FUZZ_CHECK((f = fopen(path, "wb")) != NULL, "cannot write %s", path);
    if (given != NULL) {
        fwrite(given, 1, n, f);
    } else {
        uint8_t *buf = fuzz_alloc(n);

        fuzz_fill(in, buf, n);
        fwrite(buf, 1, n, f);
        free(buf);
    }
    FUZZ_CHECK(fclose(f) == 0, "cannot write %s", path);
}

/* The number of entries in the folder (outputs, inputs, any temporary). */
static int entries(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    FUZZ_CHECK(d != NULL, "cannot list %s", dir);
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* Runs `bike CMD --level L --IN1 P1 [--IN2 P2] --OUT1 O1 --OUT2 O2` in-process,
 * with the tool's error output captured into msg (NUL-terminated). */
static int run_tool(char **msg, int (*cmd)(int, char **), char *const *args, int nargs)
{
    char *argv[12];
    size_t len = 0;
    FILE *saved = stderr;
    int rc;

    for (int i = 0; i < nargs; i++)
        argv[i] = args[i];
    argv[nargs] = NULL;
    fflush(stderr);
    stderr = open_memstream(msg, &len);
    FUZZ_CHECK(stderr != NULL, "open_memstream");
    rc = cmd(nargs, argv);
    fclose(stderr);
    stderr = saved;
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    uint8_t sel = fuzz_byte(&in), lenb = fuzz_byte(&in);
    int8_t d0 = (int8_t)fuzz_byte(&in), d1 = (int8_t)fuzz_byte(&in);
    const char *level_text = level_texts[sel & 7];
    int op = (sel >> 3) & 3, missing = (sel >> 5) & 1, is_dir = !missing && ((sel >> 6) & 1);
    int level = atoi(level_text);
    int valid = level == 1 || level == 3 || level == 5;
    int lv = valid ? level : 1, k = level_index(lv);
    size_t pkn = bike_public_key_bytes(lv), skn = bike_secret_key_bytes(lv);
    size_t ctn = bike_ciphertext_bytes(lv);
    char *msg = NULL;
    const char *first; /* the path of the first input file */
    size_t first_len, second_len, first_n;
    uint8_t first_top = 0;
    int rc, files;

    if ((lenb & 0x80) == 0)
        d0 = d1 = 0;
    remove_dir();
    FUZZ_CHECK(mkdir(dir, 0700) == 0, "cannot make %s", dir);

    if (op == 0 || op == 1) {
        char *args[] = {"decaps", "--level", (char *)level_text, "--sk", path_sk,
                        "--ct", path_ct, "--ss", path_ss};
        size_t skl = op == 0 ? fuzz_adjust(skn, d0) : skn, ctl = fuzz_adjust(ctn, d1);

        put_file(path_sk, missing, is_dir, &in, op == 1 ? key_sk[k] : NULL, skl);
        put_file(path_ct, 0, 0, &in, NULL, ctl);
        first = path_sk, first_len = skl, first_n = skn, second_len = ctl;
        files = entries();
        rc = run_tool(&msg, cmd_decaps, args, 9);
    } else {
        char *args[] = {"encaps", "--level", (char *)level_text, "--pk", path_pk,
                        "--ct", path_out_ct, "--ss", path_ss};
        size_t pkl = op == 2 ? fuzz_adjust(pkn, d0) : pkn;

        put_file(path_pk, missing, is_dir, &in, op == 3 ? key_pk[k] : NULL, pkl);
        if (!missing && !is_dir && pkl == pkn) {
            uint8_t *pk = fuzz_alloc(pkn);

            read_file(path_pk, pk, pkn);
            first_top = pk[pkn - 1];
            free(pk);
        }
        first = path_pk, first_len = pkl, first_n = pkn, second_len = 0;
        files = entries();
        rc = run_tool(&msg, cmd_encaps, args, 9);
    }

    if (!valid) {
        FUZZ_CHECK(rc == 2 && strstr(msg, "unknown level") != NULL,
                   "level '%s' gave %d: %s", level_text, rc, msg);
    } else if (missing || is_dir) {
        FUZZ_CHECK(rc == 1 && strstr(msg, first) != NULL &&
                       strstr(msg, missing ? "cannot open" : "cannot read") != NULL,
                   "%s input gave %d: %s", missing ? "a missing" : "a directory as", rc, msg);
    } else if (first_len != first_n) {
        FUZZ_CHECK(rc == 1 && strstr(msg, first) != NULL && strstr(msg, "needs exactly") != NULL,
                   "a %zu-byte %s gave %d: %s", first_len, first, rc, msg);
    } else if ((op == 0 || op == 1) && second_len != ctn) {
        FUZZ_CHECK(rc == 1 && strstr(msg, path_ct) != NULL &&
                       strstr(msg, "needs exactly") != NULL,
                   "a %zu-byte ciphertext gave %d: %s", second_len, rc, msg);
    } else if (op == 1 || op == 3 || (op == 2 && first_top == 0)) {
        FUZZ_CHECK(rc == 0, "bike %s (op %d) at level %d gave %d: %s",
                   op < 2 ? "decaps" : "encaps", op, lv, rc, msg);
    } else {
        FUZZ_CHECK(rc == 0 || (rc == 1 && strncmp(msg, "bike ", 5) == 0 &&
                               strstr(msg, bike_strerror(BIKE_ERR_KEY)) != NULL),
                   "op %d at level %d gave %d: %s", op, lv, rc, msg);
    }
    if (rc != 0) {
        FUZZ_CHECK(msg[0] != '\0', "failed silently");
        FUZZ_CHECK(entries() == files, "a failed run left a file behind");
    } else {
        uint8_t ss[BIKE_SHARED_SECRET_BYTES], ss2[BIKE_SHARED_SECRET_BYTES];

        FUZZ_CHECK(file_size(path_ss) == BIKE_SHARED_SECRET_BYTES, "shared secret file size");
        FUZZ_CHECK(entries() == files + (op < 2 ? 1 : 2), "unexpected files after a success");
        read_file(path_ss, ss, sizeof(ss));
        if (op < 2) { /* the tool gives what the library gives */
            uint8_t *sk = fuzz_alloc(skn), *ct = fuzz_alloc(ctn);

            read_file(path_sk, sk, skn);
            read_file(path_ct, ct, ctn);
            FUZZ_CHECK(bike_decaps(lv, ss2, ct, ctn, sk, skn) == BIKE_OK &&
                           memcmp(ss, ss2, sizeof(ss)) == 0,
                       "the tool's shared secret differs from bike_decaps's");
            free(sk);
            free(ct);
        } else {
            uint8_t *ct = fuzz_alloc(ctn);

            FUZZ_CHECK(file_size(path_out_ct) == (long)ctn, "ciphertext file size");
            if (op == 3) { /* round trip through the files */
                read_file(path_out_ct, ct, ctn);
                FUZZ_CHECK(bike_decaps(lv, ss2, ct, ctn, key_sk[k], skn) == BIKE_OK &&
                               memcmp(ss, ss2, sizeof(ss)) == 0,
                           "round trip through the tool at level %d", lv);
            }
            free(ct);
        }
    }
    free(msg);
    return 0;
}
