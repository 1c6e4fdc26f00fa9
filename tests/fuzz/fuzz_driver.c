/* fuzz_driver.c — a plain-C mutation driver for the libFuzzer-style harnesses of tests/fuzz
 * (LLVMFuzzerInitialize, LLVMFuzzerTestOneInput), for builds without libFuzzer (GCC, the
 * sanitizer build's ctest run). Deterministic for a given seed: it reads the seed files (files or
 * folders of files), runs each once as is, then mutated copies (bit flips, interesting bytes and
 * numbers, insertions, deletions, duplicated and spliced ranges, truncations; some mutants go
 * back into the pool so mutations stack) until the time or run limit.
 *
 *   fuzz_X [-seconds S] [-runs N] [-seed K] [-max_len L] [-format F] SEED...
 *
 * -format F sets VSG_FUZZ_FORMAT (the harness's format) before LLVMFuzzerInitialize. An input
 * that crashes (a sanitizer report, abort, a signal) is written to crash-<target>-<seed>-<run>
 * in the current folder (or $VSG_FUZZ_CRASH_DIR) before the process dies. Prints one summary line. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* AddressSanitizer calls this before it exits on a report (absent without ASan). */
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

typedef struct {
    uint8_t *b;
    size_t n;
} buf;

static buf *pool;
static size_t npool, cap_pool, nseeds;
static uint8_t *cur;
static size_t cur_n;
static unsigned long long run_no, seed_no;
static const char *target = "fuzz";
static volatile sig_atomic_t saving;

static uint64_t state;
static uint64_t next_u64(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ull;
}
static size_t below(size_t n) { return n ? (size_t)(next_u64() % n) : 0; }

static void save_crash(void)
{
    char path[1200];
    const char *dir = getenv("VSG_FUZZ_CRASH_DIR");
    if (saving) return;
    saving = 1;
    snprintf(path, sizeof path, "%s/crash-%s-%llu-%llu", dir ? dir : ".", target, seed_no, run_no);
    FILE *f = fopen(path, "wb");
    if (f) {
        if (cur_n) fwrite(cur, 1, cur_n, f);
        fclose(f);
        fprintf(stderr, "%s: crashing input (%zu bytes) saved as %s\n", target, cur_n, path);
    }
}

static void on_signal(int sig)
{
    save_crash();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void add(const uint8_t *b, size_t n)
{
    if (npool == cap_pool) {
        cap_pool = cap_pool ? 2 * cap_pool : 64;
        pool = realloc(pool, cap_pool * sizeof *pool);
        if (!pool) abort();
    }
    pool[npool].b = malloc(n ? n : 1);
    if (!pool[npool].b) abort();
    if (n) memcpy(pool[npool].b, b, n);
    pool[npool].n = n;
    npool++;
}

static void add_file(const char *path, size_t max_len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return;
    uint8_t *b = malloc(max_len);
    size_t n = b ? fread(b, 1, max_len, f) : 0;
    fclose(f);
    if (b) add(b, n);
    free(b);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void add_path(const char *path, size_t max_len)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "%s: no seed %s\n", target, path);
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        add_file(path, max_len);
        return;
    }
    DIR *d = opendir(path);
    if (!d) return;
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) { /* sorted below, so the pool's order is the same everywhere */
        if (e->d_name[0] == '.') continue;
        names = realloc(names, (n + 1) * sizeof *names);
        if (!names) abort();
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        char p[2048];
        snprintf(p, sizeof p, "%s/%s", path, names[i]);
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) add_file(p, max_len);
        free(names[i]);
    }
    free(names);
}

static const char *const tokens[] = {"0", "-1", "1e308", "-1e308", "nan", "inf", "99999999999", "2147483648",
                                     "-2147483649", "1e-320", "0.", ".", "-", "+", "e", "\n", "\r\n", "\t",
                                     " ", "\0", "$$$$\n", "@<TRIPOS>", "ENDMDL\n", "MODEL 1\n", "END\n",
                                     "M  END\n", "ROOT\n", "BRANCH 1 2\n", "object 1", "gz", "65535"};

/* One mutation of cur[0..cur_n) in a buffer of max_len bytes. */
static void mutate_once(size_t max_len)
{
    size_t n = cur_n, i, j, k;
    switch (below(9)) {
    case 0: /* bit flip */
        if (n) cur[below(n)] ^= (uint8_t)(1u << below(8));
        break;
    case 1: { /* an interesting byte */
        static const uint8_t v[] = {0, 0xff, '\n', ' ', '-', '9', '0', '.', 'e', 0x80, '\t', '#'};
        if (n) cur[below(n)] = v[below(sizeof v)];
        break;
    }
    case 2: /* a random byte */
        if (n) cur[below(n)] = (uint8_t)next_u64();
        break;
    case 3: /* insert bytes */
        k = 1 + below(8);
        if (n + k > max_len) break;
        i = below(n + 1);
        memmove(cur + i + k, cur + i, n - i);
        for (j = 0; j < k; j++) cur[i + j] = (uint8_t)next_u64();
        cur_n += k;
        break;
    case 4: /* delete a range */
        if (!n) break;
        i = below(n);
        k = 1 + below(n - i < 64 ? n - i : 64);
        memmove(cur + i, cur + i + k, n - i - k);
        cur_n -= k;
        break;
    case 5: /* duplicate a range elsewhere */
        if (!n) break;
        i = below(n);
        k = 1 + below(n - i < 256 ? n - i : 256);
        if (n + k > max_len) break;
        j = below(n + 1);
        {
            uint8_t tmp[256];
            memcpy(tmp, cur + i, k);
            memmove(cur + j + k, cur + j, n - j);
            memcpy(cur + j, tmp, k);
        }
        cur_n += k;
        break;
    case 6: /* truncate */
        cur_n = below(n + 1);
        break;
    case 7: { /* a token (number, keyword, line end) over or into the text */
        const char *t = tokens[below(sizeof tokens / sizeof *tokens)];
        k = strlen(t) ? strlen(t) : 1;
        if (n + k > max_len) break;
        i = below(n + 1);
        if (below(2) && i + k <= n) {
            memcpy(cur + i, t, k);
        } else {
            memmove(cur + i + k, cur + i, n - i);
            memcpy(cur + i, t, k);
            cur_n += k;
        }
        break;
    }
    default: { /* splice: a range of another pool entry */
        const buf *o = &pool[below(npool)];
        if (!o->n) break;
        i = below(o->n);
        k = 1 + below(o->n - i < 512 ? o->n - i : 512);
        j = below(n + 1);
        if (j + k > max_len) break;
        memcpy(cur + j, o->b + i, k);
        if (j + k > cur_n) cur_n = j + k;
        break;
    }
    }
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    double seconds = 10.0;
    unsigned long long max_runs = 0;
    size_t max_len = 16384;
    int i;
    const char *slash = strrchr(argv[0], '/');
    target = slash ? slash + 1 : argv[0];
    seed_no = 1;
    for (i = 1; i < argc && argv[i][0] == '-'; i += 2) {
        if (i + 1 >= argc) break;
        if (!strcmp(argv[i], "-seconds")) seconds = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "-runs")) max_runs = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "-seed")) seed_no = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "-max_len")) max_len = (size_t)strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "-format")) setenv("VSG_FUZZ_FORMAT", argv[i + 1], 1);
        else {
            fprintf(stderr, "usage: %s [-seconds S] [-runs N] [-seed K] [-max_len L] [-format F] SEED...\n", target);
            return 2;
        }
    }
    if (max_len < 64) max_len = 64;
    state = seed_no * 0x9E3779B97F4A7C15ull + 1;
    for (; i < argc; i++) add_path(argv[i], max_len);
    nseeds = npool;
    if (!npool) add((const uint8_t *)"", 0);
    LLVMFuzzerInitialize(&argc, &argv);
    cur = malloc(max_len);
    if (!cur) return 1;
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(save_crash);
    signal(SIGSEGV, on_signal);
    signal(SIGABRT, on_signal);
    signal(SIGBUS, on_signal);
    signal(SIGFPE, on_signal);
    signal(SIGILL, on_signal);

    double t0 = now(), t = t0;
    for (size_t s = 0; s < npool; s++) { /* the seeds as they are */
        memcpy(cur, pool[s].b, pool[s].n);
        cur_n = pool[s].n;
        run_no++;
        LLVMFuzzerTestOneInput(cur, cur_n);
    }
    while ((max_runs == 0 || run_no < max_runs) && (max_runs != 0 || t - t0 < seconds)) {
        const buf *p = &pool[below(npool)];
        memcpy(cur, p->b, p->n);
        cur_n = p->n;
        int m = 1 + (int)below(8);
        while (m--) mutate_once(max_len);
        run_no++;
        /* a private copy: the harness may not read past cur_n (ASan sees it) */
        uint8_t *in = malloc(cur_n ? cur_n : 1);
        if (!in) return 1;
        memcpy(in, cur, cur_n);
        LLVMFuzzerTestOneInput(in, cur_n);
        free(in);
        if (below(16) == 0) { /* keep some mutants so mutations stack; replace old ones */
            if (npool < nseeds + 256) add(cur, cur_n);
            else {
                buf *o = &pool[nseeds + below(256)];
                free(o->b);
                o->b = malloc(cur_n ? cur_n : 1);
                if (!o->b) return 1;
                memcpy(o->b, cur, cur_n);
                o->n = cur_n;
            }
        }
        if ((run_no & 15) == 0) t = now();
    }
    t = now();
    printf("%s: %llu runs in %.1f s (%zu seeds, seed %llu, max_len %zu): 0 crashes\n", target, run_no, t - t0,
           nseeds, seed_no, max_len);
    for (size_t s = 0; s < npool; s++) free(pool[s].b);
    free(pool);
    free(cur);
    return 0;
}
