/* screen_job.c — a screen as one call (vsgrid.h, "a screen as one call"): the options of `vsgrid
 * screen` by name, the target loaded by its kind, the records selected (a shard or a range), the
 * outputs opened (gzip, MPI parts, a shard's .partial and .done), an interrupted run resumed, and
 * the right loop run: the as-is / rigid pipeline (vsg_screen_run_extra), the Vina pose scores
 * (vsg_vina_screen_run_extra) or the flexible screen (vsg_flex_screen_run). `vsgrid screen` and
 * the Python module are both thin shells over it (issue 26).
 *
 * Rows in memory (vsg_screen_job_on_row): the CSV the loops write goes through a stdio stream of
 * our own (fopencookie) that cuts it into rows, hands each to the caller as numbers and strings,
 * and passes the bytes on to the CSV file when there is one; so every kind of screen gets the
 * callback from one place and the rows are exactly the CSV's. */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "grids/base/vsgrid.h"
#include "engine/screen/screen_job_internal.h"
#include "engine/screen/screen_internal.h" /* the --best-per-molecule table (vsg_mol_*) */

/* ---- the options ---------------------------------------------------------------------------- */

enum { M_ASIS = 1, M_RIGID = 2, M_VINA = 4, M_FLEX = 8, M_GRID = M_ASIS | M_RIGID, M_ALL = 15 };

typedef struct {
    const char *name;
    int value;   /* 1: takes a value; 0: a flag */
    int modes;   /* the screens it applies to */
    int rows;    /* 1: it can change a row (part of the fingerprint) */
} job_key;

static const job_key KEYS[] = {
    {"target", 1, M_ALL, 1},          {"library", 1, M_ALL, 1},         {"output", 1, M_ALL, 0},
    {"format", 1, M_ALL, 1},          {"max-atoms", 1, M_ALL, 1},       {"threads", 1, M_ALL, 0},
    {"resume", 0, M_ALL, 0},          {"progress", 0, M_ALL, 0},        {"shard", 1, M_ALL, 0},
    {"records", 1, M_ALL, 0},         {"scoring", 1, M_ALL, 1},         {"placement", 1, M_ALL, 1},
    {"best-per-molecule", 0, M_ALL, 1}, {"sdf-out", 1, M_GRID, 0},     {"top", 1, M_GRID, 1},
    {"charges", 1, M_GRID, 1},        {"kernel", 1, M_GRID, 1},         {"tolerance", 1, M_GRID, 1},
    {"precision", 1, M_GRID, 1},      {"batch-atoms", 1, M_GRID, 0},    {"max-gpu-memory", 1, M_GRID, 0},
    {"parse-threads", 1, M_GRID, 0},  {"temperature", 1, M_GRID, 1},    {"devices", 1, M_GRID | M_FLEX, 1},
    {"device", 1, M_GRID | M_FLEX, 1}, {"box", 1, M_RIGID, 1},          {"around", 1, M_RIGID, 1},
    {"padding", 1, M_RIGID, 1},       {"site-step", 1, M_RIGID, 1},     {"rotations", 1, M_RIGID, 1},
    {"top-poses", 1, M_RIGID, 1},     {"poses-out", 1, M_RIGID | M_FLEX, 0},
    {"search", 1, M_FLEX, 1},         {"exhaustiveness", 1, M_FLEX, 1}, {"steps", 1, M_FLEX, 1},
    {"seed", 1, M_FLEX, 1},           {"poses", 1, M_FLEX, 1},          {"min-rmsd", 1, M_FLEX, 1},
    {"max-torsions", 1, M_FLEX, 1},   {"poses-top", 1, M_FLEX, 1},      {"poses-below", 1, M_FLEX, 1},
    {"receptor", 1, M_FLEX, 1},       {"focus-chains", 1, M_FLEX, 1},   {"focus-steps", 1, M_FLEX, 1},
    {"ph", 1, M_ALL, 1},              {"minimize", 1, M_ALL, 1},
    {"stereo", 1, M_ALL, 1},          {"embed", 1, M_ALL, 1},           {"conformers", 1, M_FLEX, 1},
    {"rigid-macrocycles", 0, M_VINA | M_FLEX, 1},
};
#define NKEYS ((int)(sizeof KEYS / sizeof KEYS[0]))
#define MAX_LIBS 4096

struct vsg_screen_job {
    char *value[NKEYS];        /* as set (NULL: not set); libraries apart */
    char **libs;
    int nlibs, libs_cap;
    vsg_screen_row_fn on_row;
    void *row_ctx;
    /* what the last run did (vsg_screen_job_info) */
    char info_kind[16], info_shard[16], info_output[4200], info_poses[4200];
    long evaluations;
    size_t resumed_rows, first, count, total;
    char fingerprint[65536];
    /* the values the run used (the search's resolved settings, the site box, ...), by name */
    char used_key[16][32], used_value[16][160];
    int nused;
};

#include <stdarg.h>
static void put_used(vsg_screen_job *j, const char *key, const char *fmt, ...)
{
    if (j->nused == 16) return;
    snprintf(j->used_key[j->nused], sizeof j->used_key[0], "%s", key);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->used_value[j->nused], sizeof j->used_value[0], fmt, ap);
    va_end(ap);
    j->nused++;
}

static int key_of(const char *name)
{
    if (!name) return -1;
    if (!strcmp(name, "o")) name = "output";
    for (int k = 0; k < NKEYS; k++)
        if (!strcmp(KEYS[k].name, name)) return k;
    return -1;
}

int vsg_screen_job_key(const char *name)
{
    const int k = key_of(name);
    return k < 0 ? 0 : KEYS[k].value ? 2 : 1;
}

vsg_status vsg_screen_job_new(vsg_screen_job **out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_screen_job_new: NULL argument");
    *out = calloc(1, sizeof **out);
    return *out ? VSG_OK : vsg_fail(VSG_E_NOMEM, "out of memory");
}

void vsg_screen_job_free(vsg_screen_job *j)
{
    if (!j) return;
    for (int k = 0; k < NKEYS; k++) free(j->value[k]);
    for (int i = 0; i < j->nlibs; i++) free(j->libs[i]);
    free(j->libs);
    free(j);
}

/* Number checks of set(): the messages say --NAME, as the command line does. */
static int number(const char *s, double *out)
{
    char *end;
    errno = 0;
    const double v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(v)) return 0;
    *out = v;
    return 1;
}
static int whole(const char *s, double lo, double hi, double *out)
{
    return number(s, out) && *out == floor(*out) && *out >= lo && *out <= hi;
}
static int size_value(const char *s, double *bytes)
{
    char *end;
    const double v = strtod(s, &end);
    if (end == s || !(v > 0.0)) return 0;
    double mult = 1.0;
    switch (*end) {
    case '\0': break;
    case 'k': case 'K': mult = 1024.0, end++; break;
    case 'm': case 'M': mult = 1048576.0, end++; break;
    case 'g': case 'G': mult = 1073741824.0, end++; break;
    case 't': case 'T': mult = 1099511627776.0, end++; break;
    default: return 0;
    }
    if (*end == 'B' || *end == 'b') end++;
    if (*end) return 0;
    *bytes = v * mult;
    return 1;
}
static int list_of(const char *s, double *out, int n)
{
    int k = 0;
    const char *p = s;
    while (k < n) {
        char *end;
        errno = 0;
        out[k] = strtod(p, &end);
        if (end == p || errno == ERANGE || !isfinite(out[k])) return 0;
        k++;
        if (*end == ',') p = end + 1;
        else if (*end == '\0') break;
        else return 0;
        if (k == n) return 0; /* more values than asked */
    }
    return k == n;
}

/* Checks a value alone (combinations are checked at run). VSG_OK or VSG_E_ARG with the message. */
static vsg_status check_value(const char *name, const char *v)
{
    double x, b[6];
    const char *bad = NULL;
#define IS(n) (!strcmp(name, n))
    if (IS("format")) {
        if (strcmp(v, "sdf") && strcmp(v, "mol2") && strcmp(v, "pdbqt") && strcmp(v, "pdb") && strcmp(v, "smi") &&
            strcmp(v, "csv"))
            bad = "sdf, mol2, pdbqt, pdb, smi or csv";
    } else if (IS("ph")) {
        vsg_smiles_options so;
        if (vsg_smiles_parse_ph(v, &so) != VSG_OK) bad = "a pH in [0, 14] or none";
    } else if (IS("stereo")) {
        vsg_smiles_options so;
        if (vsg_smiles_parse_stereo(v, &so) != VSG_OK) bad = "any, specified or enumerate (in a build with RDKit)";
    } else if (IS("embed")) {
        vsg_smiles_options so;
        if (vsg_smiles_parse_embed(v, &so) != VSG_OK) bad = "rdkit (in a build with RDKit) or openbabel";
    } else if (IS("conformers")) {
        vsg_smiles_options so;
        if (vsg_smiles_parse_conformers(v, &so) != VSG_OK) bad = "a whole number in [1, 20]";
    } else if (IS("minimize")) {
        vsg_smiles_options so;
        if (vsg_smiles_parse_minimize(v, &so) != VSG_OK) bad = "a whole number of steps in [0, 100000]";
    } else if (IS("scoring")) {
        if (strcmp(v, "ad4") && strcmp(v, "vina") && strcmp(v, "vinardo")) bad = "ad4, vina or vinardo";
    } else if (IS("placement")) {
        if (strcmp(v, "as-is") && strcmp(v, "rigid") && strcmp(v, "flexible")) bad = "as-is, rigid or flexible";
    } else if (IS("charges")) {
        if (strcmp(v, "auto") && strcmp(v, "file") && strcmp(v, "gasteiger")) bad = "auto, file or gasteiger";
    } else if (IS("kernel")) {
        if (vsg_kernel_from_name(v) == VSG_KERNEL_COUNT) bad = "auto, cpu, gm, roi, sm, tm, zip, roi-tm-zip or roi-sm-zip";
    } else if (IS("precision")) {
        if (strcmp(v, "float") && strcmp(v, "double")) bad = "float or double";
    } else if (IS("search")) {
        vsg_dock_params p;
        vsg_dock_params_default(&p);
        if (vsg_dock_params_preset(&p, v) != VSG_OK) bad = "fast, balanced, detail, thorough or vina";
    } else if (IS("max-atoms")) {
        if (!number(v, &x) || x < 1 || x > 1e7) bad = "a number in [1, 1e7]";
    } else if (IS("threads")) {
        if (!whole(v, 1, 4096, &x)) bad = "a whole number in [1, 4096]";
    } else if (IS("top")) {
        if (!whole(v, 1, 1e9, &x)) bad = "a whole number >= 1";
    } else if (IS("tolerance")) {
        if (!number(v, &x) || !(x > 0)) bad = "a number > 0";
    } else if (IS("batch-atoms")) {
        if (!number(v, &x) || x < 64 || x > 1e9) bad = "a number in [64, 1e9]";
    } else if (IS("max-gpu-memory")) {
        if (!size_value(v, &x)) bad = "a size (e.g. 4G)";
    } else if (IS("parse-threads")) {
        if (!whole(v, 1, VSG_SCREEN_MAX_PARSE_THREADS, &x)) bad = "a whole number in [1, 64]";
    } else if (IS("temperature")) {
        if (!number(v, &x) || !(x > 0)) bad = "a number > 0";
    } else if (IS("box")) {
        if (!list_of(v, b, 6) || !(b[3] >= 0 && b[4] >= 0 && b[5] >= 0)) bad = "CX,CY,CZ,SX,SY,SZ with sizes >= 0";
    } else if (IS("padding")) {
        if (!number(v, &x) || !(x >= 0) || x > 1000) bad = "a number in [0, 1000]";
    } else if (IS("site-step")) {
        if (!number(v, &x) || !(x >= 0.01) || x > 100) bad = "a number in [0.01, 100]";
    } else if (IS("rotations")) {
        if (!whole(v, 1, 1e6, &x)) bad = "a whole number in [1, 1000000]";
    } else if (IS("top-poses")) {
        if (!whole(v, 1, VSG_SCREEN_MAX_TOP_POSES, &x)) bad = "a whole number in [1, 16]";
    } else if (IS("exhaustiveness") || IS("steps") || IS("focus-steps")) {
        if (!whole(v, 1, 1e6, &x)) bad = "an integer in 1..1000000";
    } else if (IS("focus-chains")) {
        if (!whole(v, 0, 1e6, &x)) bad = "an integer in 0..1000000";
    } else if (IS("seed")) {
        char *end;
        errno = 0;
        (void)strtoull(v, &end, 10);
        if (!(v[0] >= '0' && v[0] <= '9') || *end || errno == ERANGE) bad = "an integer >= 0";
    } else if (IS("poses")) {
        if (!whole(v, 1, 1000, &x)) bad = "an integer in 1..1000";
    } else if (IS("min-rmsd")) {
        if (!number(v, &x) || !(x >= 0) || x > 100) bad = "a distance in 0..100 A";
    } else if (IS("max-torsions")) {
        if (!whole(v, 0, 1000, &x)) bad = "an integer in 0..1000";
    } else if (IS("poses-top")) {
        if (!whole(v, 1, 1e9, &x)) bad = "an integer in 1..1000000000";
    } else if (IS("poses-below")) {
        if (!number(v, &x)) bad = "a score in kcal/mol";
    } else if (IS("shard")) {
        long k, n;
        char c;
        if (sscanf(v, "%ld/%ld%c", &k, &n, &c) != 2 || n < 1 || k < 0 || k >= n)
            bad = "K/N with 0 <= K < N (task K of N, e.g. $SLURM_ARRAY_TASK_ID/100)";
    } else if (IS("records")) {
        unsigned long long a, z;
        char c;
        if (sscanf(v, "%llu:%llu%c", &a, &z, &c) != 2 || z < a) bad = "A:B, the records A <= index < B";
    } else if (IS("output") || IS("target") || IS("library") || IS("sdf-out") || IS("poses-out") || IS("around") ||
               IS("devices") || IS("device") || IS("receptor")) {
        if (!v[0]) bad = "a path";
    }
#undef IS
    if (bad) return vsg_fail(VSG_E_ARG, "--%s: '%s' is not %s", name, v, bad);
    return VSG_OK;
}

vsg_status vsg_screen_job_set(vsg_screen_job *j, const char *name, const char *value)
{
    if (!j || !name) return vsg_fail(VSG_E_ARG, "vsg_screen_job_set: NULL argument");
    const int k = key_of(name);
    if (k < 0) return vsg_fail(VSG_E_ARG, "unknown option '--%s'", name);
    if (!value) value = KEYS[k].value ? NULL : "1";
    if (!value) return vsg_fail(VSG_E_ARG, "option --%s needs a value", name);
    if (!KEYS[k].value && strcmp(value, "1") && strcmp(value, "0"))
        return vsg_fail(VSG_E_ARG, "--%s is a flag: '1' or '0', not '%s'", name, value);
    vsg_status st = check_value(KEYS[k].name, value);
    if (st != VSG_OK) return st;
    if (!strcmp(KEYS[k].name, "library")) {
        if (j->nlibs == MAX_LIBS) return vsg_fail(VSG_E_ARG, "too many library files (at most %d)", MAX_LIBS);
        if (j->nlibs == j->libs_cap) {
            const int nc = j->libs_cap ? 2 * j->libs_cap : 16;
            char **t = realloc(j->libs, sizeof *t * (size_t)nc);
            if (!t) return vsg_fail(VSG_E_NOMEM, "out of memory");
            j->libs = t, j->libs_cap = nc;
        }
        if (!(j->libs[j->nlibs] = strdup(value))) return vsg_fail(VSG_E_NOMEM, "out of memory");
        j->nlibs++;
        return VSG_OK;
    }
    if (!strcmp(KEYS[k].name, "device")) { /* --device N: --devices N (gpu: the first; auto: all) */
        value = !strcmp(value, "auto") ? "all" : value;
        return vsg_screen_job_set(j, "devices", value);
    }
    char *v = strdup(value);
    if (!v) return vsg_fail(VSG_E_NOMEM, "out of memory");
    free(j->value[k]);
    j->value[k] = KEYS[k].value || strcmp(value, "0") ? v : (free(v), NULL);
    return VSG_OK;
}

vsg_status vsg_screen_job_on_row(vsg_screen_job *j, vsg_screen_row_fn fn, void *ctx)
{
    if (!j) return vsg_fail(VSG_E_ARG, "vsg_screen_job_on_row: NULL argument");
    j->on_row = fn, j->row_ctx = ctx;
    return VSG_OK;
}

static const char *get(const vsg_screen_job *j, const char *name)
{
    const int k = key_of(name);
    return k < 0 ? NULL : j->value[k];
}
static double num(const vsg_screen_job *j, const char *name, double dflt)
{
    const char *v = get(j, name);
    double x;
    if (!v) return dflt;
    if (!strcmp(name, "max-gpu-memory")) return size_value(v, &x) ? x : dflt;
    return number(v, &x) ? x : dflt;
}

const char *vsg_screen_job_info(const vsg_screen_job *j, const char *what)
{
    static _Thread_local char bufs[8][64]; /* numbers: eight calls' worth, for one printf */
    static _Thread_local int next;
    char *buf = bufs[next++ & 7];
    if (!j || !what) return NULL;
    if (!strcmp(what, "kind")) return j->info_kind;
    if (!strcmp(what, "shard_state")) return j->info_shard;
    if (!strcmp(what, "output")) return j->info_output[0] ? j->info_output : NULL;
    if (!strcmp(what, "poses_file")) return j->info_poses[0] ? j->info_poses : NULL;
    if (!strcmp(what, "fingerprint")) return j->fingerprint;
    for (int i = 0; i < j->nused; i++)
        if (!strcmp(j->used_key[i], what)) return j->used_value[i];
    size_t v = SIZE_MAX;
    if (!strcmp(what, "evaluations")) v = (size_t)j->evaluations;
    else if (!strcmp(what, "resumed_rows")) v = j->resumed_rows;
    else if (!strcmp(what, "first")) v = j->first;
    else if (!strcmp(what, "count")) v = j->count;
    else if (!strcmp(what, "records_total")) v = j->total;
    if (v != SIZE_MAX) {
        snprintf(buf, sizeof bufs[0], "%zu", v);
        return buf;
    }
    if (!strcmp(what, "libraries")) {
        snprintf(buf, sizeof bufs[0], "%d", j->nlibs);
        return buf;
    }
    return get(j, what);
}

const char *vsg_screen_job_library(const vsg_screen_job *j, int i)
{
    return j && i >= 0 && i < j->nlibs ? j->libs[i] : NULL;
}

/* ---- rows in memory: the CSV stream cut into rows ------------------------------------------- */

typedef struct {
    FILE *sink;               /* the CSV file, or NULL */
    vsg_screen_row_fn fn;
    void *ctx;
    char *buf;                /* an incomplete row */
    size_t len, cap;
    int quoted;               /* inside quotes at the end of buf */
    int have_header;
    char **cols;              /* the header's names */
    int ncols, first_num, last_num; /* numeric columns: [first_num, last_num) between atoms and status */
    int stopped;
    /* --best-per-molecule of the loops without it (Vina pose scores, flexible docking): every row
     * offered to the table, none passed on; the table written at the end (tee_molecules) */
    mol_table *mols;
    char *header;
} row_tee;

/* Splits one CSV record (RFC 4180) into fields in place; returns the count (at most max). */
static int split_csv(char *s, char **f, int max)
{
    int n = 0;
    while (n < max) {
        char *w = s;
        f[n++] = w;
        if (*s == '"') {
            s++;
            for (;;) {
                if (!*s) break;
                if (*s == '"') {
                    if (s[1] == '"') *w++ = '"', s += 2;
                    else { s++; break; }
                } else {
                    *w++ = *s++;
                }
            }
            while (*s && *s != ',') s++;
        } else {
            while (*s && *s != ',') *w++ = *s++;
        }
        const int more = *s == ',';
        *w = '\0';
        if (!more) break;
        s++;
    }
    return n;
}

static int tee_header(row_tee *t, char *line)
{
    if (t->mols && !(t->header = strdup(line))) return 0;
    char *f[256];
    const int n = split_csv(line, f, 256);
    t->cols = calloc((size_t)n, sizeof *t->cols);
    if (!t->cols) return 0;
    for (int i = 0; i < n; i++)
        if (!(t->cols[i] = strdup(f[i]))) return 0;
    t->ncols = n;
    t->first_num = 5, t->last_num = n;
    for (int i = 0; i < n; i++) {
        if (!strcmp(f[i], "atoms")) t->first_num = i + 1;
        if (!strcmp(f[i], "status")) t->last_num = i;
    }
    t->have_header = 1;
    return 1;
}

static int tee_row(row_tee *t, char *line)
{
    char *f[256];
    char *copy = t->mols ? strdup(line) : NULL; /* the row as written, for the table */
    if (t->mols && !copy) return 0;
    const int n = split_csv(line, f, 256);
    if (t->mols && n > t->last_num) { /* scored: status ok or outside; ranked by the score as printed */
        const char *st = f[t->last_num];
        const int scored = !strcmp(st, "ok") || !strcmp(st, "outside");
        const int ok = vsg_mol_offer(t->mols, f[1], copy, scored, scored ? strtod(f[5], NULL) : 0.0);
        free(copy);
        if (!ok) return 0;
    } else {
        free(copy);
    }
    if (!t->fn || t->mols) return 1; /* grouped: the caller gets the table's rows at the end */
    if (n < 7 || !strncmp(line, "#vsgrid-block", 13)) return 1;
    double v[256];
    const char *names[256];
    int nv = 0;
    for (int i = t->first_num; i < t->last_num && i < n; i++) {
        char *end;
        v[nv] = f[i][0] ? strtod(f[i], &end) : NAN;
        names[nv++] = t->cols[i];
    }
    /* the extra columns after message (ad4_intra, records, posebusters_valid) count as numbers
       too, but for the text ones (posebusters_failed) */
    const int status_at = t->last_num, message_at = t->last_num + 1;
    const char *text_names[8], *texts[8];
    int nt = 0;
    for (int i = message_at + 1; i < n && i < t->ncols; i++) {
        if (!strcmp(t->cols[i], "posebusters_failed")) {
            if (nt < 8) text_names[nt] = t->cols[i], texts[nt++] = f[i];
            continue;
        }
        char *end;
        v[nv] = f[i][0] ? strtod(f[i], &end) : NAN;
        names[nv++] = t->cols[i];
    }
    vsg_screen_row r;
    r.ntext = nt, r.text_cols = text_names, r.texts = texts;
    r.index = (size_t)strtoull(f[0], NULL, 10);
    r.name = f[1], r.source = f[2];
    r.record = strtol(f[3], NULL, 10);
    r.atoms = (int)strtol(f[4], NULL, 10);
    r.ncols = nv, r.cols = names, r.values = v;
    r.status = status_at < n ? f[status_at] : "";
    r.message = message_at < n ? f[message_at] : "";
    return t->fn(t->ctx, &r) == 0;
}

static ssize_t tee_write(void *cookie, const char *data, size_t size)
{
    row_tee *t = cookie;
    if (t->stopped) {
        errno = ECANCELED;
        return -1;
    }
    if (t->sink && !t->mols && (fwrite(data, 1, size, t->sink) != size || fflush(t->sink) != 0))
        return -1; /* on disk as the rows go */
    for (size_t i = 0; i < size; i++) {
        const char c = data[i];
        if (t->len + 2 > t->cap) {
            const size_t nc = t->cap ? 2 * t->cap : 4096;
            char *b = realloc(t->buf, nc);
            if (!b) return -1;
            t->buf = b, t->cap = nc;
        }
        if (c == '"') t->quoted = !t->quoted;
        if (c == '\n' && !t->quoted) {
            t->buf[t->len] = '\0';
            const int ok = t->have_header ? tee_row(t, t->buf) : tee_header(t, t->buf);
            t->len = 0;
            if (!ok) {
                t->stopped = 1;
                errno = ECANCELED;
                return -1;
            }
            continue;
        }
        t->buf[t->len++] = c;
    }
    return (ssize_t)size;
}

/* --best-per-molecule: the header with `records`, then one row per name (vsg_mol_write), through
 * the stream again so that the CSV and the rows' caller get the same grouped rows. */
static int tee_molecules(row_tee *t)
{
    if (!t->mols) return 1;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return 0;
    if (t->header) fprintf(m, "%s,records\n", t->header);
    vsg_mol_write(t->mols, m);
    if (fclose(m) != 0) {
        free(text);
        return 0;
    }
    mol_table *keep = t->mols;
    t->mols = NULL; /* rows pass on now */
    for (int i = 0; i < t->ncols; i++) free(t->cols[i]);
    free(t->cols);
    t->cols = NULL, t->ncols = 0, t->have_header = 0, t->len = 0, t->quoted = 0;
    const ssize_t w = tee_write(t, text, len);
    t->mols = keep;
    free(text);
    return w == (ssize_t)len && (!t->sink || (fflush(t->sink) == 0 && !ferror(t->sink)));
}

static int tee_close(void *cookie)
{
    row_tee *t = cookie;
    free(t->header);
    t->header = NULL;
    free(t->buf);
    for (int i = 0; i < t->ncols; i++) free(t->cols[i]);
    free(t->cols);
    t->buf = NULL, t->cols = NULL, t->ncols = 0;
    return 0;
}

static FILE *tee_open(row_tee *t)
{
    cookie_io_functions_t io = {NULL, tee_write, NULL, tee_close};
    return fopencookie(t, "w", io);
}

/* ---- shards: markers, partial files ----------------------------------------------------------- */

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* The file name of path (what a marker records: its files lie beside it). */
static const char *base_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

vsg_status vsg_shard_marker_write(const char *csv, const vsg_shard_marker *m)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s.done", csv);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) return vsg_fail(VSG_E_IO, "cannot write %s: %s", tmp, strerror(errno));
    fprintf(f, "vsgrid-shard 1\nfingerprint %016llx\nrecords_total %zu\n", (unsigned long long)m->fingerprint, m->total);
    for (int i = 0; i < m->nranges; i++) fprintf(f, "range %zu %zu\n", m->ranges[i].first, m->ranges[i].count);
    fprintf(f, "rows %zu\ncsv %s\nposes %s\nposes_select %s\n", m->rows, base_of(csv), m->poses ? base_of(m->poses) : "-",
            m->poses_select[0] ? m->poses_select : "all");
    if (fflush(f) != 0 || fsync(fileno(f)) != 0 || fclose(f) != 0) {
        remove(tmp);
        return vsg_fail(VSG_E_IO, "cannot write %s", tmp);
    }
    if (rename(tmp, path) != 0) {
        remove(tmp);
        return vsg_fail(VSG_E_IO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
    }
    return VSG_OK;
}

vsg_status vsg_shard_marker_read(const char *csv, vsg_shard_marker *m)
{
    char path[4200], line[4400];
    memset(m, 0, sizeof *m);
    snprintf(path, sizeof path, "%s.done", csv);
    FILE *f = fopen(path, "r");
    if (!f) return vsg_fail(VSG_E_IO, "cannot read %s: %s", path, strerror(errno));
    vsg_status st = VSG_OK;
    int version = 0;
    while (st == VSG_OK && fgets(line, sizeof line, f)) {
        unsigned long long h;
        size_t a, b;
        char word[4300];
        if (sscanf(line, "vsgrid-shard %d", &version) == 1) continue;
        if (sscanf(line, "fingerprint %llx", &h) == 1) m->fingerprint = h;
        else if (sscanf(line, "records_total %zu", &a) == 1) m->total = a;
        else if (sscanf(line, "range %zu %zu", &a, &b) == 2) {
            if (m->nranges == VSG_SHARD_MAX_RANGES) st = vsg_fail(VSG_E_FORMAT, "%s: too many ranges", path);
            else m->ranges[m->nranges].first = a, m->ranges[m->nranges++].count = b;
        } else if (sscanf(line, "rows %zu", &a) == 1) m->rows = a;
        else if (sscanf(line, "poses_select %63[^\n]", m->poses_select) == 1) continue;
        else if (sscanf(line, "csv %4299[^\n]", word) == 1) continue;
        else if (sscanf(line, "poses %4199[^\n]", m->poses_name) == 1) continue;
    }
    fclose(f);
    if (st == VSG_OK && version != 1) st = vsg_fail(VSG_E_FORMAT, "%s: not a vsgrid shard marker", path);
    return st;
}

/* Compresses (to a .gz destination) or renames src to dst; src is gone after. */
static vsg_status finalize_file(const char *src, const char *dst)
{
    const size_t n = strlen(dst);
    if (!(n > 3 && !strcmp(dst + n - 3, ".gz"))) {
        if (rename(src, dst) != 0) return vsg_fail(VSG_E_IO, "cannot rename %s to %s: %s", src, dst, strerror(errno));
        return VSG_OK;
    }
    char tmp[4300]; /* beside it, ending in .gz too (the ending chooses gzip) */
    snprintf(tmp, sizeof tmp, "%.*s.tmp%ld.gz", (int)(n - 3), dst, (long)getpid());
    FILE *in = fopen(src, "rb"), *out = in ? vsg_fopen_out(tmp, "w") : NULL;
    if (!in || !out) {
        if (in) fclose(in);
        return vsg_fail(VSG_E_IO, "cannot compress %s into %s: %s", src, dst, strerror(errno));
    }
    char buf[1 << 16];
    size_t k;
    int bad = 0;
    while ((k = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, k, out) != k) bad = 1;
    if (ferror(in)) bad = 1;
    fclose(in);
    if (fclose(out) != 0) bad = 1;
    if (bad || rename(tmp, dst) != 0) {
        remove(tmp);
        return vsg_fail(VSG_E_IO, "cannot write %s", dst);
    }
    remove(src);
    return VSG_OK;
}

/* ---- the run ------------------------------------------------------------------------------- */

/* The screen the options make, or VSG_E_ARG with the message. */
static vsg_status resolve_mode(const vsg_screen_job *j, int *mode)
{
    const char *scoring = get(j, "scoring"), *placement = get(j, "placement"), *target = get(j, "target");
    const int vina = scoring && (!strcmp(scoring, "vina") || !strcmp(scoring, "vinardo"));
    if (placement && !strcmp(placement, "flexible")) {
        if (!vina)
            return vsg_fail(VSG_E_ARG, "--placement flexible docks on a Vina or Vinardo map set: give --scoring vina|vinardo "
                                       "and the map-set PREFIX ('vsgrid maps REC.pdbqt --scoring vina --around LIG -o "
                                       "PREFIX' makes one)%s", scoring && !strcmp(scoring, "ad4")
                                       ? "; the AutoDock4 function docks one record a call: 'vsgrid dock PREFIX LIB "
                                         "--scoring ad4 --record N', or Python's dock(..., scoring='ad4', all_records=True)"
                                       : "");
        *mode = M_FLEX;
    } else if (vina) {
        if (placement && !strcmp(placement, "rigid"))
            return vsg_fail(VSG_E_ARG, "--placement rigid with --scoring %s: rigid placement works on an AutoDock4 map set "
                                       "(GRID a .maps.fld, --scoring ad4); on a Vina map set use --placement flexible "
                                       "(each record docked) or as-is", scoring);
        *mode = M_VINA;
    } else {
        if (scoring && !strcmp(scoring, "ad4") && target &&
            (strlen(target) < 4 || strcmp(target + strlen(target) - 4, ".fld") != 0))
            return vsg_fail(VSG_E_ARG, "--scoring ad4 needs an AutoGrid map set (GRID ending in .fld), not '%s'", target);
        *mode = placement && !strcmp(placement, "rigid") ? M_RIGID : M_ASIS;
    }
    for (int k = 0; k < NKEYS; k++) {
        if (!j->value[k] || (KEYS[k].modes & *mode)) continue;
        const char *n = KEYS[k].name;
        if (*mode == M_FLEX) return vsg_fail(VSG_E_ARG, "--%s does not apply to --placement flexible (see --help)", n);
        if (*mode == M_VINA)
            return vsg_fail(VSG_E_ARG, "--%s does not apply to --scoring vina|vinardo (scored on the CPU; see --help)", n);
        if (KEYS[k].modes & M_RIGID)
            return vsg_fail(VSG_E_ARG, "--box, --around, --padding, --site-step, --rotations, --top-poses and --poses-out need "
                                       "--placement rigid");
        return vsg_fail(VSG_E_ARG, "--%s needs --placement flexible and --scoring vina|vinardo (see --help)", n);
    }
    return VSG_OK;
}

/* The fingerprint: every option that can change a row, and the libraries with their sizes. */
static void make_fingerprint(vsg_screen_job *j, int mode)
{
    size_t n = 0;
    const size_t cap = sizeof j->fingerprint;
#define PUT(...) do { int w_ = snprintf(j->fingerprint + n, cap - n, __VA_ARGS__); if (w_ > 0 && (size_t)w_ < cap - n) n += (size_t)w_; } while (0)
    PUT("mode %d\n", mode);
    for (int k = 0; k < NKEYS; k++) {
        if (!j->value[k] || !KEYS[k].rows) continue;
        if (!strcmp(KEYS[k].name, "devices")) /* which GPUs changes no row; GPU or CPU does */
            PUT("devices %s\n", !strcmp(j->value[k], "cpu") ? "cpu" : "gpu");
        else PUT("%s %s\n", KEYS[k].name, j->value[k]);
    }
    for (int i = 0; i < j->nlibs; i++) PUT("library %s\n", j->libs[i]);
#undef PUT
}

/* A shard marker's fingerprint: the options' and the libraries' sizes (a library changed between
 * two tasks makes their shards another screen's). */
static uint64_t marker_fingerprint(const vsg_screen_job *j)
{
    uint64_t h = fnv1a(j->fingerprint);
    for (int i = 0; i < j->nlibs; i++) {
        struct stat sb;
        char s[64];
        snprintf(s, sizeof s, "%lld", stat(j->libs[i], &sb) == 0 ? (long long)sb.st_size : -1LL);
        for (const char *c = s; *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211ull;
    }
    return h;
}

/* The records of task K of N: [K T / N, (K + 1) T / N) of the T records. */
static vsg_status select_records(vsg_screen_job *j, const vsg_ligand_reader_options *ro, vsg_library_index **ix,
                                 vsg_record_range *range, int quiet)
{
    const char *shard = get(j, "shard"), *records = get(j, "records");
    int missing = 0;
    for (int i = 0; i < j->nlibs; i++) {
        char path[4200];
        vsg_library_index_path(j->libs[i], path, sizeof path);
        if (!exists(path)) {
            missing++;
            continue;
        }
        vsg_status st = vsg_library_index_read(path, j->libs[i], &ix[i]);
        if (st != VSG_OK) return st;
    }
    vsg_status st = vsg_library_count((const char *const *)j->libs, j->nlibs, ro, (const vsg_library_index *const *)ix,
                                      &j->total);
    if (st != VSG_OK) return st;
    if (shard) {
        long k = 0, n = 1;
        sscanf(shard, "%ld/%ld", &k, &n);
        const size_t a = (size_t)((unsigned __int128)j->total * (unsigned long)k / (unsigned long)n);
        const size_t b = (size_t)((unsigned __int128)j->total * (unsigned long)(k + 1) / (unsigned long)n);
        range->first = a, range->count = b - a;
    } else {
        unsigned long long a = 0, b = 0;
        sscanf(records, "%llu:%llu", &a, &b);
        if (b > j->total) b = j->total;
        if (a > b) a = b;
        range->first = (size_t)a, range->count = (size_t)(b - a);
    }
    if (missing && !quiet && range->first > 0)
        vsg_warn("%d of %d librar%s no index (LIBRARY.vsgidx): the records before this slice were counted by scanning "
                 "the files; 'vsgrid index LIBRARY...' once before the tasks spares every task that scan",
                 missing, j->nlibs, j->nlibs == 1 ? "y has" : "ies have");
    j->first = range->first, j->count = range->count;
    return VSG_OK;
}

static int ends_with(const char *s, const char *suffix)
{
    const size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

static vsg_ligand_format format_of(const char *v)
{
    return !v ? VSG_LIG_AUTO : !strcmp(v, "sdf") ? VSG_LIG_SDF : !strcmp(v, "mol2") ? VSG_LIG_MOL2
           : !strcmp(v, "pdbqt") ? VSG_LIG_PDBQT : !strcmp(v, "pdb") ? VSG_LIG_PDB : !strcmp(v, "smi") ? VSG_LIG_SMILES
           : !strcmp(v, "csv") ? VSG_LIG_CSV : VSG_LIG_AUTO;
}

/* --devices for the grid pipeline (vsg_screen_options.devices). */
static vsg_status grid_devices(const char *v, vsg_screen_options *so)
{
    so->ndevices = 0;
    if (!v || !strcmp(v, "all")) {
        const int n = vsg_gpu_count();
        if (vsg_mpi_active() && n > 0) {
            /* the ranks on one host share its GPUs: local rank L of S takes the GPUs i = L mod S */
            const int L = vsg_mpi_local_rank(), S = vsg_mpi_local_size();
            for (int i = L; i < n && so->ndevices < VSG_SCREEN_MAX_DEVICES; i += S) so->devices[so->ndevices++] = i;
            if (so->ndevices == 0) so->devices[so->ndevices++] = L % n;
            return VSG_OK;
        }
        for (int i = 0; i < n && i < VSG_SCREEN_MAX_DEVICES; i++) so->devices[so->ndevices++] = i;
        if (so->ndevices == 0) so->devices[so->ndevices++] = VSG_SCREEN_CPU;
        return VSG_OK;
    }
    if (!strcmp(v, "cpu")) {
        so->devices[so->ndevices++] = VSG_SCREEN_CPU;
        return VSG_OK;
    }
    if (!strcmp(v, "gpu")) v = "0";
    const char *s = v;
    while (*s) {
        char *end;
        const long d = strtol(s, &end, 10);
        if (end == s || d < 0 || d > 1023 || (*end != ',' && *end != '\0'))
            return vsg_fail(VSG_E_ARG, "--devices: '%s' is not all, cpu or a list of GPU numbers", v);
        if (so->ndevices == VSG_SCREEN_MAX_DEVICES) return vsg_fail(VSG_E_ARG, "--devices: at most %d devices", VSG_SCREEN_MAX_DEVICES);
        so->devices[so->ndevices++] = (int)d;
        s = *end ? end + 1 : end;
    }
    return so->ndevices ? VSG_OK : vsg_fail(VSG_E_ARG, "--devices: empty list");
}

/* The search of a flexible screen (p) and its device from --search, --exhaustiveness, --steps,
 * --focus-chains, --focus-steps, --seed, --poses, --min-rmsd, --devices. */
static vsg_status flex_params(const vsg_screen_job *j, vsg_dock_params *p, vsg_device *device)
{
    vsg_dock_params_default(p);
    p->poses = 1;
    vsg_dock_params_effort(p, get(j, "search"), (int)num(j, "exhaustiveness", 0), (int)num(j, "steps", 0),
                           get(j, "focus-chains") ? (int)num(j, "focus-chains", 0) : -1, (int)num(j, "focus-steps", 0));
    if (get(j, "seed")) p->seed = (uint64_t)strtoull(get(j, "seed"), NULL, 10);
    if (get(j, "poses")) p->poses = (int)num(j, "poses", 1);
    if (get(j, "min-rmsd")) p->min_rmsd = num(j, "min-rmsd", 1.0);
    *device = VSG_DEVICE_AUTO;
    const char *d = get(j, "devices");
    if (!d || !strcmp(d, "all") || !strcmp(d, "auto")) {
        if (vsg_mpi_active() && vsg_gpu_count() > 0) { /* one rank per GPU: a node's ranks take its GPUs in turn */
            p->ngpus = 1;
            p->gpus[0] = vsg_mpi_local_rank() % vsg_gpu_count();
        }
        return VSG_OK;
    }
    if (!strcmp(d, "cpu")) {
        *device = VSG_DEVICE_CPU;
        return VSG_OK;
    }
    *device = VSG_DEVICE_GPU;
    if (!strcmp(d, "gpu")) return VSG_OK;
    vsg_screen_options so;
    memset(&so, 0, sizeof so);
    vsg_status st = grid_devices(d, &so);
    if (st != VSG_OK) return st;
    p->ngpus = so.ndevices < 16 ? so.ndevices : 16;
    for (int i = 0; i < p->ngpus; i++) p->gpus[i] = so.devices[i];
    return VSG_OK;
}

/* Grids of an as-is / rigid screen: a map set (AD4) or one potential grid (ELEC). */
typedef struct {
    vsg_mapset *maps;
    vsg_grid *grid;
    vsg_score_grids elec;
    const vsg_score_grids *g;
} job_grids;

static vsg_status load_grids(const char *path, double temperature, job_grids *L)
{
    memset(L, 0, sizeof *L);
    if (ends_with(path, ".fld")) {
        vsg_status st = vsg_mapset_read(path, &L->maps);
        if (st == VSG_OK) L->g = vsg_mapset_grids(L->maps);
        return st;
    }
    vsg_status st = vsg_grid_read(path, &L->grid);
    if (st == VSG_OK) st = vsg_score_grids_from_grid(L->grid, temperature, &L->elec);
    if (st == VSG_OK) L->g = &L->elec;
    return st;
}

/* The site box of rigid placement: --box, --around LIGAND (+ padding), or the grid's box minus 2 Å a side. */
static vsg_status site_box(const vsg_screen_job *j, const vsg_score_grids *g, vsg_place_box *box)
{
    double b[6];
    if (get(j, "box") && list_of(get(j, "box"), b, 6)) {
        for (int d = 0; d < 3; d++) box->center[d] = b[d], box->half[d] = 0.5 * b[3 + d];
        return VSG_OK;
    }
    if (get(j, "around")) {
        vsg_molecule *m = NULL;
        vsg_status st = vsg_ligand_file_molecule(get(j, "around"), &m); /* its first record */
        if (st != VSG_OK) return vsg_fail(st, "--around: %s", vsg_last_error());
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        vsg_atom_info a;
        for (size_t i = 0; i < vsg_molecule_atom_count(m); i++) {
            if (vsg_molecule_atom(m, i, &a) != VSG_OK) continue;
            const double p[3] = {a.x, a.y, a.z};
            for (int d = 0; d < 3; d++) lo[d] = p[d] < lo[d] ? p[d] : lo[d], hi[d] = p[d] > hi[d] ? p[d] : hi[d];
        }
        const double pad = num(j, "padding", 2.0);
        for (int d = 0; d < 3; d++) box->center[d] = 0.5 * (lo[d] + hi[d]), box->half[d] = 0.5 * (hi[d] - lo[d]) + pad;
        vsg_molecule_free(m);
        return VSG_OK;
    }
    for (int d = 0; d < 3; d++) {
        const double extent = (g->n[d] - 1) * g->spacing[d];
        box->center[d] = g->origin[d] + 0.5 * extent;
        box->half[d] = 0.5 * extent - 2.0 > 0 ? 0.5 * extent - 2.0 : 0.0;
    }
    return VSG_OK;
}

/* Checks of combinations (the command line's usage errors). */
static vsg_status check_combinations(const vsg_screen_job *j, int mode)
{
    const char *out = get(j, "output"), *poses = get(j, "poses-out");
    const int resume = get(j, "resume") != NULL, shard = get(j, "shard") || get(j, "records");
    if (!get(j, "target")) return vsg_fail(VSG_E_ARG, mode == M_VINA || mode == M_FLEX ? "no map-set PREFIX given" : "no GRID given");
    if (j->nlibs == 0) return vsg_fail(VSG_E_ARG, "no LIBRARY given");
    if (!out && !j->on_row) return vsg_fail(VSG_E_ARG, "no output: give -o RESULTS.csv ('-' for standard output)");
    if (get(j, "shard") && get(j, "records")) return vsg_fail(VSG_E_ARG, "give --shard or --records, not both");
    for (int i = 0; i < j->nlibs; i++)
        if (!strcmp(j->libs[i], "-") && !get(j, "format")) return vsg_fail(VSG_E_ARG, "reading standard input needs --format");
    if (shard) {
        if (!out || !strcmp(out, "-"))
            return vsg_fail(VSG_E_ARG, "--shard and --records write a shard's files: give -o FILE.csv (a name of its own for each task)");
        if (vsg_mpi_active()) return vsg_fail(VSG_E_ARG, "--shard and --records: one process a shard, not under mpirun");
        for (int i = 0; i < j->nlibs; i++)
            if (!strcmp(j->libs[i], "-")) return vsg_fail(VSG_E_ARG, "--shard and --records read files, not standard input");
        if (get(j, "best-per-molecule"))
            return vsg_fail(VSG_E_ARG, "--best-per-molecule groups the whole library: run the shards without it and "
                                       "'vsgrid merge --best-per-molecule'");
        if (get(j, "top")) return vsg_fail(VSG_E_ARG, "--top chooses over the whole library: 'vsgrid merge --top' does it for shards");
        if (get(j, "sdf-out") && poses) return vsg_fail(VSG_E_ARG, "a shard writes one molecule file: --sdf-out or --poses-out, not both");
    }
    if (out && ends_with(out, ".gz") && resume) return vsg_fail(VSG_E_ARG, "--resume appends to the CSV: not to a gzipped one (-o FILE.csv)");
    if (get(j, "best-per-molecule") && (mode == M_VINA || mode == M_FLEX) && (resume || vsg_mpi_active()))
        return vsg_fail(VSG_E_ARG, "--best-per-molecule writes its rows at the end: not with --resume or under MPI");
    if (mode == M_VINA && vsg_mpi_active())
        return vsg_fail(VSG_E_ARG, "--scoring vina|vinardo runs in one process: not under mpirun");
    if (mode != M_FLEX && get(j, "stereo") && !strcmp(get(j, "stereo"), "enumerate"))
        return vsg_fail(VSG_E_ARG, "--stereo enumerate docks every stereoisomer and keeps the best: it needs --placement "
                                   "flexible (or 'vsgrid prepare-ligands --stereo enumerate' for the isomers themselves)");
    if (mode == M_FLEX || mode == M_VINA) {
        if (resume && out && !strcmp(out, "-")) return vsg_fail(VSG_E_ARG, mode == M_FLEX ? "--resume needs -o FILE.csv, and --poses-out as .sdf" : "--resume needs -o FILE.csv");
    }
    if (mode == M_FLEX) {
        const int kind = poses ? vsg_pose_path_kind(poses) : 0;
        if (kind < 0) return vsg_fail(VSG_E_ARG, "--poses-out: '%s' is not a .pdbqt or .sdf file", poses);
        if ((get(j, "poses-top") || get(j, "poses-below")) && !poses)
            return vsg_fail(VSG_E_ARG, "--poses-top and --poses-below need --poses-out");
        if (get(j, "poses-top") && get(j, "poses-below")) return vsg_fail(VSG_E_ARG, "give --poses-top or --poses-below, not both");
        if (resume && get(j, "poses-top")) return vsg_fail(VSG_E_ARG, "--resume: not with --poses-top (chosen over the whole run)");
        if (resume && poses && !kind) return vsg_fail(VSG_E_ARG, "--resume needs -o FILE.csv, and --poses-out as .sdf");
        if (vsg_mpi_active() && resume) return vsg_fail(VSG_E_ARG, "--resume: not under mpirun (run shards: --shard K/N)");
        if (vsg_mpi_active() && get(j, "poses-top"))
            return vsg_fail(VSG_E_ARG, "--poses-top chooses over the whole run: not under mpirun (run shards and 'vsgrid merge --poses-top')");
    }
    if (mode == M_ASIS || mode == M_RIGID) {
        if (get(j, "top") && !get(j, "sdf-out")) return vsg_fail(VSG_E_ARG, "--top needs --sdf-out");
        if (resume && (!out || !strcmp(out, "-") || get(j, "top") || vsg_mpi_active()))
            return vsg_fail(VSG_E_ARG, "--resume needs -o FILE.csv, and works neither with --top (the best are chosen over "
                                       "the whole run) nor under MPI");
        if (get(j, "best-per-molecule") && (resume || vsg_mpi_active()))
            return vsg_fail(VSG_E_ARG, "--best-per-molecule writes its rows at the end: not with --resume or under MPI");
        if (resume && poses && vsg_ligand_format_of(poses) != VSG_LIG_SDF)
            return vsg_fail(VSG_E_ARG, "--resume: --poses-out must be an .sdf file");
        if (poses && vsg_pose_path_kind(poses) < 0) return vsg_fail(VSG_E_ARG, "--poses-out: '%s' must end in .sdf or .pdbqt", poses);
        if (get(j, "box") && get(j, "around")) return vsg_fail(VSG_E_ARG, "give --box or --around, not both");
        if (get(j, "padding") && !get(j, "around")) return vsg_fail(VSG_E_ARG, "--padding needs --around");
        if (get(j, "top-poses") && !poses) return vsg_fail(VSG_E_ARG, "--top-poses needs --poses-out");
    }
    return VSG_OK;
}

/* 1 when path's first line (a CSV's header) is complete. */
static int has_header_line(const char *path)
{
    FILE *f = fopen(path, "rb");
    int c, got = 0;
    if (!f) return 0;
    while ((c = getc(f)) != EOF)
        if (c == '\n') {
            got = 1;
            break;
        }
    fclose(f);
    return got;
}

/* Opens a file the run writes: plain (append for resume), or gzip for a .gz path. */
static FILE *open_out(const char *path, int append)
{
    if (!strcmp(path, "-")) return stdout;
    return append ? fopen(path, "a") : vsg_fopen_out(path, "w");
}

vsg_status vsg_screen_job_check(const vsg_screen_job *j)
{
    if (!j) return vsg_fail(VSG_E_ARG, "vsg_screen_job_check: NULL argument");
    int mode = 0;
    vsg_status st = resolve_mode(j, &mode);
    return st == VSG_OK ? check_combinations(j, mode) : st;
}

vsg_status vsg_screen_job_run(vsg_screen_job *j, vsg_screen_report *rep)
{
    if (!j || !rep) return vsg_fail(VSG_E_ARG, "vsg_screen_job_run: NULL argument");
    memset(rep, 0, sizeof *rep);
    j->info_kind[0] = j->info_shard[0] = j->info_output[0] = j->info_poses[0] = '\0';
    j->evaluations = 0, j->resumed_rows = 0, j->first = j->count = j->total = 0, j->nused = 0;
    int mode = 0;
    vsg_status st = resolve_mode(j, &mode);
    if (st == VSG_OK) st = check_combinations(j, mode);
    if (st != VSG_OK) return st;
    const int progress = get(j, "progress") != NULL;
    const int quiet = !progress;
    const int sharded = get(j, "shard") || get(j, "records");
    int resume = get(j, "resume") != NULL;
    const char *target = get(j, "target");
    const vsg_ligand_format format = format_of(get(j, "format"));
    const int max_atoms = (int)num(j, "max-atoms", 0);
    const char *poses_path = get(j, "poses-out") ? get(j, "poses-out") : sharded ? get(j, "sdf-out") : NULL;
    const char *sdf_path = get(j, "sdf-out");
    snprintf(j->info_kind, sizeof j->info_kind, "%s", mode == M_FLEX ? "flexible" : mode == M_VINA ? "vina" : mode == M_RIGID ? "rigid" : "as-is");
#ifdef _OPENMP
    if (get(j, "threads")) omp_set_num_threads((int)num(j, "threads", 1));
#endif
    make_fingerprint(j, mode);
    /* the records of this run */
    vsg_smiles_options smi = {0};
    if (get(j, "ph")) vsg_smiles_parse_ph(get(j, "ph"), &smi); /* checked when set */
    if (get(j, "minimize")) vsg_smiles_parse_minimize(get(j, "minimize"), &smi);
    if (get(j, "stereo")) vsg_smiles_parse_stereo(get(j, "stereo"), &smi);
    if (get(j, "embed")) vsg_smiles_parse_embed(get(j, "embed"), &smi);
    if (get(j, "conformers")) vsg_smiles_parse_conformers(get(j, "conformers"), &smi);
    vsg_ligand_reader_options ro = {.format = format, .keep_text = 0, .max_atoms = max_atoms, .smiles = smi};
    vsg_library_index **ix = calloc((size_t)j->nlibs, sizeof *ix);
    vsg_record_range range = {0, 0};
    if (!ix) return vsg_fail(VSG_E_NOMEM, "out of memory");
    if (sharded) st = select_records(j, &ro, ix, &range, quiet);
    /* the outputs: a shard writes FILE.partial, renamed when complete, then FILE.done */
    const char *out = get(j, "output");
    char csv_path[4200] = "", poses_file[4200] = "", part[4200];
    vsg_shard_marker marker;
    memset(&marker, 0, sizeof marker);
    if (out) snprintf(j->info_output, sizeof j->info_output, "%s", out);
    if (poses_path) snprintf(j->info_poses, sizeof j->info_poses, "%s", poses_path);
    snprintf(j->info_shard, sizeof j->info_shard, "%s", sharded ? "new" : "");
    if (st == VSG_OK && sharded) {
        char done[4300], pcsv[4300];
        snprintf(done, sizeof done, "%s.done", out);
        snprintf(pcsv, sizeof pcsv, "%s.partial", out);
        const uint64_t fp = marker_fingerprint(j);
        if (exists(done)) {
            vsg_shard_marker m;
            st = vsg_shard_marker_read(out, &m);
            if (st == VSG_OK && (m.fingerprint != fp || m.nranges != 1 || m.ranges[0].first != range.first ||
                                 m.ranges[0].count != range.count))
                st = vsg_fail(VSG_E_DATA, "%s: its shard marker %s belongs to another screen or slice (other options, "
                                          "libraries or shard): remove it or choose another -o", out, done);
            if (st == VSG_OK) { /* rerun of a finished task: nothing to do */
                snprintf(j->info_shard, sizeof j->info_shard, "done");
                rep->records = m.rows;
                for (int i = 0; i < j->nlibs; i++) vsg_library_index_free(ix[i]);
                free(ix);
                return VSG_OK;
            }
        } else if (!exists(pcsv) && exists(out)) {
            /* killed between the rename and the marker: the file is complete; check it again as a partial */
            if (rename(out, pcsv) != 0) st = vsg_fail(VSG_E_IO, "cannot rename %s: %s", out, strerror(errno));
            if (st == VSG_OK && poses_path && exists(poses_path)) {
                char pp[4300];
                snprintf(pp, sizeof pp, "%s.partial", poses_path);
                if (!ends_with(poses_path, ".gz") && rename(poses_path, pp) != 0)
                    st = vsg_fail(VSG_E_IO, "cannot rename %s: %s", poses_path, strerror(errno));
            }
            if (ends_with(out, ".gz")) remove(pcsv); /* a compressed one cannot be appended to: do it again */
        }
        snprintf(csv_path, sizeof csv_path, "%s.partial", out);
        if (poses_path) snprintf(poses_file, sizeof poses_file, "%s.partial", poses_path);
        /* a task killed before: go on from its partial files where they can be checked */
        const int pdbqt_poses = poses_path && vsg_pose_path_kind(poses_path) == 0;
        const int whole_run = get(j, "poses-top") != NULL; /* chosen over the slice: cannot be resumed */
        if (st == VSG_OK && exists(csv_path)) {
            if (pdbqt_poses || whole_run || (poses_path && !exists(poses_file))) {
                remove(csv_path); /* poses that cannot be checked: the slice again from its start */
                if (poses_path) remove(poses_file);
            } else {
                resume = 1;
            }
        }
        marker.fingerprint = fp, marker.total = j->total, marker.nranges = 1, marker.ranges[0] = range;
        marker.poses = poses_path;
        if (get(j, "poses-top")) snprintf(marker.poses_select, sizeof marker.poses_select, "top %s", get(j, "poses-top"));
        else if (get(j, "poses-below")) snprintf(marker.poses_select, sizeof marker.poses_select, "below %s", get(j, "poses-below"));
        else snprintf(marker.poses_select, sizeof marker.poses_select, "all");
    } else {
        if (out) snprintf(csv_path, sizeof csv_path, "%s", out);
        if (poses_path) snprintf(poses_file, sizeof poses_file, "%s", poses_path); /* also with rows in memory only */
    }
    /* the target */
    vsg_vina_target *vt = NULL;
    vsg_molecule *receptor = NULL; /* --receptor of a flexible screen: refinement and the pose checks */
    job_grids G;
    memset(&G, 0, sizeof G);
    if (st == VSG_OK) {
        if (mode == M_FLEX || mode == M_VINA) {
            st = vsg_vina_target_maps(target, !strcmp(get(j, "scoring"), "vinardo") ? VSG_VINA_SCORING_VINARDO : VSG_VINA_SCORING_VINA, &vt);
            if (st == VSG_OK && mode == M_FLEX && get(j, "receptor")) { /* final poses refined on its atoms (Vina's way) */
                char *report = NULL;
                st = vsg_receptor_read(get(j, "receptor"), VSG_PREP_PDBQT, &receptor, &report);
                if (report && progress) fputs(report, stderr);
                free(report);
                if (st == VSG_OK) st = vsg_vina_target_add_receptor(vt, receptor);
            }
        } else {
            st = load_grids(target, num(j, "temperature", 298.15), &G);
            if (st == VSG_OK && mode == M_RIGID && G.g->kind != VSG_SCORE_AD4)
                st = vsg_fail(VSG_E_ARG, "%s: %s", target, VSG_SCREEN_STERIC_HINT);
        }
    }
    /* resume: the rows written are checked and kept, the rest screened and appended */
    vsg_screen_extra x;
    memset(&x, 0, sizeof x);
    const int mpi = !sharded && vsg_mpi_active() && mode != M_VINA;
    if (st == VSG_OK && resume && csv_path[0] && !sharded && !has_header_line(csv_path) && exists(csv_path)) {
        /* interrupted before its header reached the disk (issue 27: Ctrl-C at once left an empty CSV
         * that --resume refused): nothing was written, so the run starts from its first record */
        if (progress) fprintf(stderr, "vsgrid: %s holds no row yet: screening from the first record\n", csv_path);
        if (poses_file[0]) remove(poses_file);
        if (sdf_path) remove(sdf_path);
        resume = 0;
        if (vsg_resume_sidecar_write(csv_path, j->fingerprint) != VSG_OK)
            vsg_warn("%s (--resume will not work on this run)", vsg_last_error());
    }
    if (st == VSG_OK && resume && csv_path[0]) {
        vsg_resume_spec rs;
        memset(&rs, 0, sizeof rs);
        rs.csv = csv_path, rs.sdf = mode == M_FLEX || sharded ? NULL : sdf_path, rs.poses = poses_file[0] ? poses_file : NULL;
        rs.poses_grouped = mode == M_FLEX ? num(j, "poses", 1) > 1 : num(j, "top-poses", 0) > 1;
        rs.fingerprint = j->fingerprint, rs.inputs = (const char *const *)j->libs, rs.ninputs = j->nlibs;
        rs.ro.format = format, rs.ro.max_atoms = max_atoms, rs.ro.smiles = smi;
        if (sharded) rs.ranges = &range, rs.nranges = 1, rs.index = (const vsg_library_index *const *)ix;
        size_t kept = 0;
        if (st == VSG_OK) st = vsg_resume_prepare(&rs, &kept);
        if (st == VSG_E_FORMAT && sharded) { /* killed before its header reached the disk: start the slice again */
            remove(csv_path);
            if (poses_file[0]) remove(poses_file);
            resume = 0, st = VSG_OK;
            if (vsg_resume_sidecar_write(csv_path, j->fingerprint) != VSG_OK)
                vsg_warn("%s (--resume will not work on this run)", vsg_last_error());
        } else if (st == VSG_OK) {
            if (progress) fprintf(stderr, "vsgrid: resuming %s after its %zu rows\n", csv_path, kept);
            x.resume = 1;
            x.resume_skip = (sharded ? range.first : 0) + kept; /* records with a smaller index are done */
            j->resumed_rows = kept;
            if (sharded) snprintf(j->info_shard, sizeof j->info_shard, "resumed");
        } else {
            char why[1024];
            snprintf(why, sizeof why, "%s", vsg_last_error());
            st = vsg_fail(st == VSG_E_NOMEM ? st : VSG_E_DATA, "%s%s", strncmp(why, "--resume", 8) ? "--resume: " : "", why);
        }
    } else if (st == VSG_OK && csv_path[0] && strcmp(csv_path, "-") && vsg_mpi_rank() == 0 &&
               vsg_resume_sidecar_write(csv_path, j->fingerprint) != VSG_OK) {
        vsg_warn("%s (--resume will not work on this run)", vsg_last_error());
    }
    if (sharded) x.ranges = &range, x.nranges = 1, x.index = (const vsg_library_index *const *)ix;
    /* open the outputs (MPI: each rank its parts) */
    FILE *csv = NULL, *poses = NULL, *tee = NULL;
    row_tee T;
    memset(&T, 0, sizeof T);
    const char *csv_open = csv_path;
    if (st == VSG_OK && mpi && csv_path[0]) csv_open = vsg_mpi_screen_part(csv_path, part, sizeof part);
    if (st == VSG_OK && csv_path[0]) {
        csv = sharded ? fopen(csv_open, resume ? "a" : "w") : open_out(csv_open, resume);
        if (!csv) st = vsg_fail(VSG_E_IO, "cannot write %s: %s", csv_open, strerror(errno));
    }
    const int mol_rows = get(j, "best-per-molecule") && (mode == M_VINA || mode == M_FLEX);
    if (st == VSG_OK && mol_rows && !(T.mols = vsg_mol_table_new())) st = vsg_fail(VSG_E_NOMEM, "out of memory (--best-per-molecule)");
    if (st == VSG_OK && (j->on_row || mol_rows) && !mpi) {
        T.sink = csv, T.fn = j->on_row, T.ctx = j->row_ctx;
        if (resume) { /* the header is in the file already */
            FILE *h = fopen(csv_path, "r");
            char *line = NULL;
            size_t cap = 0;
            ssize_t got = h ? getline(&line, &cap, h) : -1;
            if (got > 0) {
                if (line[got - 1] == '\n') line[got - 1] = '\0';
                tee_header(&T, line);
            }
            free(line);
            if (h) fclose(h);
        }
        tee = tee_open(&T);
        if (!tee) st = vsg_fail(VSG_E_NOMEM, "out of memory (rows in memory)");
    }
    FILE *rows = tee ? tee : csv;
    if (st == VSG_OK && mode == M_FLEX && poses_file[0]) {
        char pp[4300];
        const char *pf = poses_file;
        if (mpi) snprintf(pp, sizeof pp, "%s.rank%d.part", poses_file, vsg_mpi_rank()), pf = pp;
        poses = sharded ? fopen(pf, resume ? "a" : "w") : open_out(pf, resume);
        if (!poses) st = vsg_fail(VSG_E_IO, "cannot write %s: %s", pf, strerror(errno));
    }
    /* run */
    if (st == VSG_OK && mode == M_FLEX) {
        vsg_flex_screen_options fo;
        memset(&fo, 0, sizeof fo);
        fo.inputs = (const char *const *)j->libs, fo.ninputs = j->nlibs, fo.format = format, fo.max_atoms = max_atoms;
        fo.smiles = smi;
        fo.rigid_macrocycles = get(j, "rigid-macrocycles") != NULL;
        fo.receptor = receptor;
        fo.max_torsions = get(j, "max-torsions") ? (int)num(j, "max-torsions", VSG_DEFAULT_MAX_TORSIONS)
                                                 : VSG_DEFAULT_MAX_TORSIONS;
        st = flex_params(j, &fo.dock, &fo.device);
        fo.csv = rows, fo.poses = poses, fo.poses_sdf = poses_path ? vsg_pose_path_kind(poses_path) == 1 : 0;
        fo.poses_top = (long)num(j, "poses-top", 0);
        fo.poses_below = get(j, "poses-below") != NULL, fo.poses_max_score = num(j, "poses-below", 0);
        fo.progress = progress && isatty(2);
        put_used(j, "search_used", "%s", get(j, "search") ? get(j, "search") : "balanced");
        put_used(j, "seed_used", "%llu", (unsigned long long)fo.dock.seed);
        put_used(j, "exhaustiveness_used", "%d", fo.dock.exhaustiveness);
        put_used(j, "steps_used", "%d", fo.dock.steps);
        put_used(j, "focus_chains_used", "%d", fo.dock.focus_chains);
        put_used(j, "focus_steps_used", "%d", fo.dock.focus_steps);
        put_used(j, "poses_used", "%d", fo.dock.poses);
        put_used(j, "max_torsions_used", "%d", fo.max_torsions);
        if (st == VSG_OK) st = vsg_flex_screen_run(vt, &fo, &x, rep, &j->evaluations);
    } else if (st == VSG_OK && mode == M_VINA) {
        vsg_vina_screen_options vo = {(const char *const *)j->libs, j->nlibs, format, max_atoms, rows, progress && isatty(2), smi,
                                      get(j, "rigid-macrocycles") != NULL};
        st = vsg_vina_screen_run_extra(vt, &vo, &x, rep);
    } else if (st == VSG_OK) {
        vsg_screen_options so;
        memset(&so, 0, sizeof so);
        so.inputs = (const char *const *)j->libs, so.ninputs = j->nlibs, so.format = format, so.max_atoms = max_atoms;
        so.smiles = smi;
        const char *c = get(j, "charges");
        so.charges = !c || !strcmp(c, "auto") ? VSG_CHARGES_AUTO : !strcmp(c, "file") ? VSG_CHARGES_FILE : VSG_CHARGES_GASTEIGER;
        so.kernel = get(j, "kernel") ? vsg_kernel_from_name(get(j, "kernel")) : VSG_KERNEL_AUTO;
        so.double_precision = get(j, "precision") && !strcmp(get(j, "precision"), "double");
        so.tolerance = num(j, "tolerance", 0.01);
        st = grid_devices(get(j, "devices"), &so);
        if (so.kernel == VSG_KERNEL_CPU) so.ndevices = 1, so.devices[0] = VSG_SCREEN_CPU;
        so.max_gpu_memory = num(j, "max-gpu-memory", 0);
        so.batch_atoms = (size_t)num(j, "batch-atoms", 0);
        so.csv = rows;
        so.sdf_path = sharded ? NULL : sdf_path;
        so.top = (long)num(j, "top", 0);
        so.progress = progress;
        so.parse_threads = sharded || resume ? 1 : (int)num(j, "parse-threads", 0);
        x.best_per_molecule = get(j, "best-per-molecule") != NULL;
        vsg_quat *rot = NULL;
        if (st == VSG_OK && mode == M_RIGID) {
            int n[3];
            so.placement = VSG_PLACEMENT_RIGID;
            so.box.step = num(j, "site-step", VSG_PLACE_DEFAULT_STEP);
            so.nrotations = (int)num(j, "rotations", 1000);
            so.top_poses = (int)num(j, "top-poses", 0);
            so.poses_path = poses_file[0] ? poses_file : NULL;
            if (so.top_poses > 1) so.ndevices = 1, so.devices[0] = VSG_SCREEN_CPU; /* the GPU keeps the best pose only */
            st = site_box(j, G.g, &so.box);
            if (st == VSG_OK) st = vsg_place_lattice(&so.box, n);
            rot = st == VSG_OK ? malloc(sizeof *rot * (size_t)so.nrotations) : NULL;
            if (st == VSG_OK && !rot) st = vsg_fail(VSG_E_NOMEM, "out of memory for %d rotations", so.nrotations);
            if (st == VSG_OK) st = vsg_rotations_super_fibonacci(so.nrotations, rot);
            so.rotations = rot;
            put_used(j, "rotations_used", "%d", so.nrotations);
            put_used(j, "site_step_used", "%.17g", so.box.step);
            put_used(j, "site_box", "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", so.box.center[0], so.box.center[1],
                     so.box.center[2], so.box.half[0], so.box.half[1], so.box.half[2]);
            if (st == VSG_OK && progress)
                fprintf(stderr,
                        "vsgrid: rigid placement: %d rotations x %d x %d x %d sites (step %g A) around (%.3f, %.3f, %.3f) = "
                        "%.3g poses per molecule, %s\n",
                        so.nrotations, n[0], n[1], n[2], so.box.step, so.box.center[0], so.box.center[1], so.box.center[2],
                        (double)so.nrotations * n[0] * n[1] * n[2],
                        so.devices[0] == VSG_SCREEN_CPU ? "on the CPU twin" : "on the GPU where it can (the CPU twin otherwise)");
        }
        if (sharded && sdf_path && st == VSG_OK) { /* a shard's --sdf-out: written by the pipeline, to the partial */
            so.sdf_path = poses_file;
        }
        if (st == VSG_OK) st = vsg_screen_run_extra(G.g, &so, &x, rep);
        free(rot);
    }
    /* close, merge the ranks' parts, finish a shard */
    if (tee && T.mols) { /* --best-per-molecule: the rows went to the table; now the table to the CSV */
        if (fflush(tee) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_NOMEM, "out of memory (--best-per-molecule)");
        if (st == VSG_OK && !tee_molecules(&T)) st = vsg_fail(VSG_E_IO, "cannot write %s", csv_open);
    }
    if (tee && fclose(tee) != 0 && st == VSG_OK) st = T.stopped ? vsg_fail(VSG_E_ARG, "screen: stopped by the caller") : vsg_fail(VSG_E_IO, "cannot write %s", csv_open);
    if (T.stopped && st == VSG_E_IO) st = vsg_fail(VSG_E_ARG, "screen: stopped by the caller");
    if (csv && csv != stdout && fclose(csv) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "cannot write %s", csv_open);
    if (csv == stdout && fflush(stdout) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "cannot write the CSV");
    if (poses && poses != stdout && fclose(poses) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "cannot write %s", poses_file);
    if (mpi && csv_path[0])
        st = vsg_mpi_screen_finish(st, csv_path, mode == M_FLEX ? NULL : sdf_path, mode == M_FLEX ? 0 : (long)num(j, "top", 0),
                                   poses_file[0] ? poses_file : NULL, rep);
    if (st == VSG_OK && sharded) {
        marker.rows = rep->records + j->resumed_rows;
        if (marker.rows != range.count)
            st = vsg_fail(VSG_E_DATA, "%s: the shard wrote %zu rows for its %zu records", out, marker.rows, range.count);
        if (st == VSG_OK && poses_path) st = finalize_file(poses_file, poses_path);
        if (st == VSG_OK) st = finalize_file(csv_path, out);
        if (st == VSG_OK) {
            char side[4300];
            snprintf(side, sizeof side, "%s.resume", csv_path);
            remove(side);
            st = vsg_shard_marker_write(out, &marker);
        }
    }
    vsg_mol_table_free(T.mols);
    vsg_vina_target_free(vt);
    vsg_molecule_free(receptor);
    vsg_mapset_free(G.maps);
    vsg_grid_free(G.grid);
    for (int i = 0; i < j->nlibs; i++) vsg_library_index_free(ix[i]);
    free(ix);
    return st;
}
