/* prepare_workers.c — SMILES preparation in forked worker processes (prepare_workers.h says
 * why). One worker a calling thread's slot, one molecule at a time over a Unix socket:
 *   request  fixed header (lengths, the preparation options), the SMILES, the name;
 *   reply    fixed header (status, code, why, note, text length), the record's text.
 * Both ends are this library, built once, so the headers go as the structs they are. */
#define _GNU_SOURCE /* MSG_NOSIGNAL, SOCK_CLOEXEC */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "ligands/prepare/prepare_workers.h"
#include "ligands/readers/ligand_reader.h"

#define MAX_TEXT (64u << 20)   /* a reply longer than this is not a molecule's: a broken worker */
#define MAX_RESPAWNS 16        /* replacements a slot may have; then it prepares in process */

typedef struct {
    pid_t pid;
    int fd;                    /* the caller's end of the worker's socket; -1: no worker */
    int respawns;
} worker;

struct vsg_prep_workers {
    int n;
    worker *w;
    pthread_mutex_t spawn_mu;  /* one fork at a time: a child then holds no half-made socket */
};

typedef struct {
    uint32_t smiles_len, name_len;
    vsg_smiles_prep_options o;
} request;

typedef struct {
    int32_t status;
    char code[16];
    char why[200];
    char note[256];
    uint32_t text_len;
} reply;

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return 0;
        p += k;
        n -= (size_t)k;
    }
    return 1;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Reads n bytes: 1, 0 at end of file or an error, -1 past the deadline (deadline < 0: none). */
static int read_all(int fd, void *buf, size_t n, double deadline)
{
    char *p = buf;
    while (n > 0) {
        if (deadline >= 0) {
            double left = deadline - now_s();
            if (left <= 0) return -1;
            struct pollfd q = {.fd = fd, .events = POLLIN};
            int r = poll(&q, 1, (int)(left * 1000) + 1);
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) return 0;
            if (r == 0) return -1;
        }
        ssize_t k = recv(fd, p, n, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return 0;
        p += k;
        n -= (size_t)k;
    }
    return 1;
}

/* Closes every descriptor the fork copied but `keep` and the standard three: the caller's files
 * (outputs, other workers' sockets, a GPU's device files) are none of a worker's business, and
 * a copy of another worker's socket would hide that worker's death from the caller. */
static void close_inherited(int keep)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d) return;
    int self = dirfd(d);
    struct dirent *e;
    int fds[256], n = 0;
    while ((e = readdir(d)) != NULL && n < 256) {
        int fd = atoi(e->d_name);
        if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && fd > 2 && fd != keep && fd != self) fds[n++] = fd;
    }
    closedir(d);
    for (int i = 0; i < n; i++) close(fds[i]);
}

/* The worker: prepares what comes until its socket closes. Interrupts are the caller's to
 * handle (a screen stopped with ^C writes its rows first); the worker ends when the caller's
 * end of the socket closes, whatever way the caller ended. */
static void worker_main(int fd)
{
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    close_inherited(fd);
#ifdef _OPENMP
    /* Open Babel's MMFF94 runs OpenMP regions, and GNU OpenMP's thread pool does not survive a
     * fork: a region with more than one thread would wait forever for threads the child lacks.
     * One thread a worker: the workers are the parallelism. */
    omp_set_dynamic(0);
    omp_set_num_threads(1);
#endif
    /* test switches (tests/cli_smiles.sh): a molecule that crashes Open Babel, one that hangs it */
    const char *crash = getenv("VSG_TEST_PREP_CRASH"), *hang = getenv("VSG_TEST_PREP_HANG");
    for (;;) {
        request q;
        if (read_all(fd, &q, sizeof q, -1) != 1 || q.smiles_len > MAX_TEXT || q.name_len > MAX_TEXT) break;
        char *smiles = malloc(q.smiles_len + 1), *name = malloc(q.name_len + 1);
        if (!smiles || !name || read_all(fd, smiles, q.smiles_len, -1) != 1 || read_all(fd, name, q.name_len, -1) != 1)
            break;
        smiles[q.smiles_len] = name[q.name_len] = '\0';
        if (crash && !strcmp(smiles, crash)) abort();
        if (hang && !strcmp(smiles, hang))
            for (;;) pause();
        vsg_smiles_record r;
        reply a;
        memset(&a, 0, sizeof a);
        a.status = vsg_smiles_record_make(smiles, name, &q.o, &r);
        memcpy(a.code, r.code, sizeof a.code);
        memcpy(a.why, r.why, sizeof a.why);
        memcpy(a.note, r.note, sizeof a.note);
        a.text_len = r.text ? (uint32_t)strlen(r.text) : 0;
        int ok = write_all(fd, &a, sizeof a) && (a.text_len == 0 || write_all(fd, r.text, a.text_len));
        vsg_smiles_record_free(&r);
        free(smiles);
        free(name);
        if (!ok) break;
    }
    _exit(0); /* the caller's stdio buffers and exit handlers are not a worker's to run */
}

/* Starts worker k: 1, or 0 when the system refuses. */
static int spawn(vsg_prep_workers *p, int k)
{
    int sv[2];
    pthread_mutex_lock(&p->spawn_mu);
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        pthread_mutex_unlock(&p->spawn_mu);
        return 0;
    }
    vsg_ob_hold(1); /* Open Babel's lock is then free in the child, whatever other threads do */
    pid_t pid = fork();
    vsg_ob_hold(0);
    if (pid == 0) {
        close(sv[0]);
        worker_main(sv[1]);
    }
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        pthread_mutex_unlock(&p->spawn_mu);
        return 0;
    }
    p->w[k].pid = pid;
    p->w[k].fd = sv[0];
    pthread_mutex_unlock(&p->spawn_mu);
    return 1;
}

/* Ends worker k: its socket closed, then the process waited for (killed when it lingers). */
static int reap(worker *w, int kill_now)
{
    int status = 0;
    if (w->fd >= 0) close(w->fd);
    w->fd = -1;
    if (w->pid <= 0) return 0;
    if (kill_now) kill(w->pid, SIGKILL);
    for (int i = 0; i < 500; i++) { /* 5 s for an idle worker to see its socket close */
        pid_t r = waitpid(w->pid, &status, WNOHANG);
        if (r == w->pid || (r < 0 && errno != EINTR)) break;
        if (i == 499) {
            kill(w->pid, SIGKILL);
            waitpid(w->pid, &status, 0);
            break;
        }
        usleep(10000);
    }
    w->pid = 0;
    return status;
}

vsg_prep_workers *vsg_prep_workers_start(int n)
{
    vsg_prep_workers *p = calloc(1, sizeof *p);
    if (!p || n < 1 || !(p->w = calloc((size_t)n, sizeof *p->w))) {
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->spawn_mu, NULL);
    p->n = n;
    int started = 0;
    for (int k = 0; k < n; k++) {
        p->w[k].fd = -1;
        started += spawn(p, k);
    }
    if (started == 0) {
        vsg_prep_workers_stop(p);
        return NULL;
    }
    return p;
}

int vsg_prep_workers_count(const vsg_prep_workers *p) { return p ? p->n : 0; }

static double timeout_s(void)
{
    const char *e = getenv("VSG_PREP_TIMEOUT");
    double t = e ? atof(e) : 0;
    return t > 0 ? t : VSG_PREP_TIMEOUT_S;
}

vsg_status vsg_prep_workers_make(vsg_prep_workers *p, int slot, const char *smiles, const char *name,
                                 const vsg_smiles_prep_options *o, vsg_smiles_record *out)
{
    if (!p || slot < 0 || slot >= p->n || p->w[slot].fd < 0) return vsg_smiles_record_make(smiles, name, o, out);
    worker *w = &p->w[slot];
    memset(out, 0, sizeof *out);
    if (!name) name = "";
    request q = {.smiles_len = (uint32_t)strlen(smiles), .name_len = (uint32_t)strlen(name), .o = *o};
    reply a;
    const double limit = timeout_s(), deadline = now_s() + limit;
    int got = write_all(w->fd, &q, sizeof q) && write_all(w->fd, smiles, q.smiles_len) &&
              write_all(w->fd, name, q.name_len);
    if (got) got = read_all(w->fd, &a, sizeof a, deadline);
    if (got == 1 && a.text_len > MAX_TEXT) got = 0;
    if (got == 1 && a.text_len > 0) {
        if (!(out->text = malloc((size_t)a.text_len + 1))) {
            got = 0; /* the worker's reply is lost with the memory: it goes, as a broken one would */
        } else {
            got = read_all(w->fd, out->text, a.text_len, deadline);
            out->text[a.text_len] = '\0';
        }
    }
    if (got == 1) {
        memcpy(out->code, a.code, sizeof out->code);
        memcpy(out->why, a.why, sizeof out->why);
        memcpy(out->note, a.note, sizeof out->note);
        out->code[sizeof out->code - 1] = out->why[sizeof out->why - 1] = out->note[sizeof out->note - 1] = '\0';
        return (vsg_status)a.status;
    }
    /* the worker died, or hangs: the record fails, saying which, and the worker is replaced */
    vsg_smiles_record_free(out);
    const int status = reap(w, got < 0);
    snprintf(out->code, sizeof out->code, "%s", VSG_LIG_EMBED);
    if (got < 0)
        snprintf(out->why, sizeof out->why, "Open Babel took more than %.0f s on this molecule: stopped", limit);
    else if (WIFSIGNALED(status))
        snprintf(out->why, sizeof out->why, "Open Babel crashed on this molecule (its preparing process died: %s)",
                 strsignal(WTERMSIG(status)));
    else
        snprintf(out->why, sizeof out->why, "Open Babel's preparing process ended on this molecule (exit %d)",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    if (w->respawns < MAX_RESPAWNS && spawn(p, slot)) w->respawns++;
    return VSG_E_DATA;
}

void vsg_prep_workers_stop(vsg_prep_workers *p)
{
    if (!p) return;
    for (int k = 0; p->w && k < p->n; k++) /* every socket first: the workers end together */
        if (p->w[k].fd >= 0) close(p->w[k].fd), p->w[k].fd = -1;
    for (int k = 0; p->w && k < p->n; k++) reap(&p->w[k], 0);
    pthread_mutex_destroy(&p->spawn_mu);
    free(p->w);
    free(p);
}

vsg_prep_workers *vsg_prep_workers_for(const vsg_ligand_reader *rd, int ninputs, int threads)
{
    int smiles = 0;
    for (int i = 0; i < ninputs; i++) {
        const vsg_ligand_format f = vsg_ligand_reader_format(rd, i);
        smiles |= f == VSG_LIG_SMILES || f == VSG_LIG_CSV;
    }
    const char *e = getenv("VSG_PREP_WORKERS");
    if (e && *e) threads = atoi(e);
    if (!smiles || threads < 1 || !vsg_smiles_available()) return NULL;
    return vsg_prep_workers_start(threads > 256 ? 256 : threads);
}
