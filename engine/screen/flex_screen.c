/* flex_screen.c — vsg_flex_screen_run (vsgrid.h, "flexible screens"): every record of the
 * libraries docked into a Vina / Vinardo map set, one row per record in input order.
 *
 * The pipeline (issue 26: every GPU of a host busy). Chunks of records go through three stages
 * that run at once on different chunks, in at most SLOTS chunk buffers (bounded memory):
 *   1. the reader thread reads a chunk, builds its SMILES records in 3D (read pending,
 *      ligands/readers/ligand_reader.h), checks what the records themselves say (precheck:
 *      reader status, fragments, torsion count; both OpenMP), and prepares the rest for the search
 *      (dock_stage_prepare: models, trees, cost-balanced GPU shares, packing; OpenMP);
 *   2. SEARCHERS threads per GPU each claim the next chunk's share of that GPU and search it
 *      (dock_stage_search, its own CUDA stream), so a GPU always has the next share queued and
 *      two kernels overlap at the tail of each;
 *   3. the calling thread waits for a chunk's shares, finishes its records (dock_stage_finish:
 *      minima in double, clustering, scores; the CPU twin for records the GPU does not take;
 *      OpenMP) and writes its rows and poses in input order.
 * Record i is docked with seed + i, and a record's result does not depend on its chunk, so the
 * rows are the same whatever the chunk size, the number of GPUs or the ranks. Without a GPU the
 * same stages run with no searcher: the CPU twin docks at stage 3, 64 records a chunk.
 *
 * Under mpirun (vsg_mpi_screen_part called first), chunk k belongs to rank k mod size: every rank
 * reads every chunk (reading is ~1e5 records/s, docking a few hundred), prepares, docks and
 * writes only its own, each after a "#vsgrid-block FIRST NROWS" line, and vsg_mpi_screen_finish
 * merges the parts (engine/screen/mpi_screen.c). */
#define _GNU_SOURCE /* open_memstream, sched_getaffinity */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "grids/base/vsgrid.h"
#include "engine/screen/dock_record.h"
#include "engine/screen/mpi_screen.h"
#include "engine/screen/screen_hydrogens.h"
#include "ligands/checks/pose_checks.h"
#include "ligands/dock/dock_stage.h"
#include "ligands/prepare/prepare_workers.h"
#include "ligands/readers/ligand_reader.h"

#define CHUNK_CPU 64       /* records docked together on the CPU at most (cpu_chunk) */
#define CHUNK_GPU 2048     /* records per GPU in a chunk: enough chains to fill it many times over */
#define CHUNK_FIRST 256    /* records per GPU in the first chunk, doubling up to CHUNK_GPU: the GPUs
                              start while the reader prepares the next (a 2048-record first chunk
                              kept 4 GPUs waiting 0.7 s) */
#define CHUNK_MPI 256      /* records a chunk under mpirun (the same on every rank: ranks own chunks
                              round-robin, so chunks must be small enough to balance them) */
#define SLOTS 4            /* chunks in flight: one read, one or two searched, one written */
#define SEARCHERS 2        /* host threads per GPU */
#define MAX_GPUS 16
#define MACROCYCLE 12                    /* ring size from which a ring is a macrocycle */

static const char *const row_cols[] = {"score_kcal_mol", "inter_kcal_mol", "intra_kcal_mol", "torsional_kcal_mol",
                                       "unbound_kcal_mol", "num_tors", "torsdof", "atoms_outside", "posebusters_valid"};
#define NCOLS 9

typedef struct {
    int ok;
    vsg_vina_score s;
    int torsdof;
    char code[16];
    char message[256];
    vsg_dock_result res;
    long evaluations;
    int macrocycle; /* atoms in the largest ring of >= MACROCYCLE atoms kept rigid (not opened); 0: none */
    int off;        /* docked, but the best pose means nothing (vsg_dock_pose_check: message says why) */
    int conformers; /* conformers docked (a SMILES record prepared with several: vsg_ligand.conformers) */
    int conformer;  /* the one whose pose is the row's (0: the record's own coordinates) */
    vsg_ligand *as; /* that conformer's record, when not the record itself (the chunk's copy) */
    int pb_valid;   /* PoseBusters' checks of the best pose: 1 valid, 0 not, -1 not run (rows not ok, or off) */
    char pb_failed[160]; /* the failed checks' names, ';'-joined */
} flex_row;

/* Records a chunk on the CPU: two a thread (8 to CHUNK_CPU), so that progress lines and an
 * interrupt come every few records on a small machine, not once a minute. */
static int cpu_chunk(void)
{
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    const int n = 2 * threads;
    return n < 8 ? 8 : n > CHUNK_CPU ? CHUNK_CPU : n;
}

/* ---- what a record says before it is docked ------------------------------------------------- */

/* The largest of the smallest rings through each ring bond of an SDF/MOL2 record (for each bond,
 * the shortest path between its ends without it, plus one); 0 without rings. */
static int largest_ring(const vsg_ligand *lig)
{
    const int n = lig->natoms, nb = lig->nbonds;
    if (n < 3 || nb < 3 || lig->format == VSG_LIG_PDBQT || lig->format == VSG_LIG_PDB) return 0;
    int *dist = malloc(sizeof(int) * (size_t)n), *queue = malloc(sizeof(int) * (size_t)n);
    int *start = calloc((size_t)n + 1, sizeof(int)), *adj = malloc(sizeof(int) * 2 * (size_t)nb);
    int *fill = calloc((size_t)n + 1, sizeof(int));
    int best = 0;
    if (!dist || !queue || !start || !adj || !fill) goto done;
    for (int k = 0; k < nb; k++) {
        const int a = lig->bonds[k].a, b = lig->bonds[k].b;
        if (a < 0 || b < 0 || a >= n || b >= n) continue;
        start[a + 1]++, start[b + 1]++;
    }
    for (int i = 0; i < n; i++) start[i + 1] += start[i];
    for (int k = 0; k < nb; k++) {
        const int a = lig->bonds[k].a, b = lig->bonds[k].b;
        if (a < 0 || b < 0 || a >= n || b >= n) continue;
        adj[start[a] + fill[a]++] = b, adj[start[b] + fill[b]++] = a;
    }
    for (int k = 0; k < nb; k++) {
        const int a = lig->bonds[k].a, b = lig->bonds[k].b;
        if (a < 0 || b < 0 || a >= n || b >= n) continue;
        for (int i = 0; i < n; i++) dist[i] = -1;
        int head = 0, tail = 0;
        dist[a] = 0, queue[tail++] = a;
        while (head < tail && dist[b] < 0) {
            const int u = queue[head++];
            for (int q = start[u]; q < start[u + 1]; q++) {
                const int w = adj[q];
                if (dist[w] >= 0 || (u == a && w == b)) continue; /* not through the bond itself */
                dist[w] = dist[u] + 1, queue[tail++] = w;
            }
        }
        if (dist[b] > 0 && dist[b] + 1 > best) best = dist[b] + 1;
    }
done:
    free(dist), free(queue), free(start), free(adj), free(fill);
    return best;
}

static void failed(const vsg_ligand *lig, vsg_status st, const char *msg, flex_row *r)
{
    char m[200];
    snprintf(m, sizeof m, "%s", msg);
    snprintf(r->code, sizeof r->code, "%s", vsg_dock_fail_code(st, m));
    if (strstr(m, lig->source)) snprintf(r->message, sizeof r->message, "%s", m);
    else snprintf(r->message, sizeof r->message, "%s: record %ld: %s", lig->source, lig->record, m);
}

/* What the reader and the record itself already say: 1 when the record can be docked (r->torsdof
 * set), else 0 with r's code and message. */
static int precheck(const vsg_ligand *lig, int max_torsions, flex_row *r)
{
    memset(r, 0, sizeof *r);
    if (lig->status != VSG_OK) {
        snprintf(r->code, sizeof r->code, "%s", lig->code);
        snprintf(r->message, sizeof r->message, "%s", lig->message);
        return 0;
    }
    const int nfrag = vsg_record_fragments(lig);
    if (nfrag > 1) {
        snprintf(r->code, sizeof r->code, "%s", VSG_LIG_DISCONNECTED);
        snprintf(r->message, sizeof r->message,
                 "%s: record %ld: %d fragments not bonded to each other (a salt or a mixture): docking takes one molecule",
                 lig->source, lig->record, nfrag);
        return 0;
    }
    vsg_vina_ligand *l = NULL;
    vsg_status st = vsg_vina_ligand_new(lig, &l);
    if (st != VSG_OK) {
        failed(lig, st, vsg_last_error(), r);
        return 0;
    }
    vsg_vina_ligand_info info;
    vsg_vina_ligand_get_info(l, &info);
    vsg_vina_ligand_free(l);
    r->torsdof = info.torsdof;
    const int ring = largest_ring(lig);
    /* the note only when the ring stayed rigid: --rigid-macrocycles, a ring over 33 atoms, no bond
       Meeko's rules break (an opened ring, SDF/MOL2 or a Meeko PDBQT, has glue pairs) */
    if (ring >= MACROCYCLE && (info.nglue == 0 || ring > 33)) r->macrocycle = ring;
    if (info.rotors > max_torsions) {
        snprintf(r->code, sizeof r->code, "%s", VSG_LIG_TORSIONS);
        snprintf(r->message, sizeof r->message, "%s: record %ld: %d torsions, over --max-torsions %d", lig->source,
                 lig->record, info.rotors, max_torsions);
        return 0;
    }
    return 1;
}

/* The row of a record whose docking ended with st (r->res filled on VSG_OK). */
static void docked(const vsg_vina_target *t, const vsg_ligand *lig, vsg_status st, const char *msg, flex_row *r)
{
    r->evaluations = r->res.evaluations;
    if (st != VSG_OK) {
        failed(lig, st, msg, r);
        vsg_dock_result_release(&r->res);
    } else if (r->res.npose < 1) {
        snprintf(r->code, sizeof r->code, "%s", VSG_LIG_NO_POSE);
        snprintf(r->message, sizeof r->message, "%s: record %ld: the search kept no pose", lig->source, lig->record);
        vsg_dock_result_release(&r->res);
    } else {
        r->s = r->res.pose[0].score;
        r->ok = 1;
        /* outside the box, or touching no receptor atom: scored, but the row says it means nothing */
        r->off = vsg_dock_pose_check(t, &r->res, 0, r->message, sizeof r->message) != VSG_OK;
    }
}

/* Of two conformers' rows of one record, 1 when a's is the one to keep: docked, a pose that
 * means something (not off), then the lower score; b's on a tie (the earlier conformer). */
static int better(const flex_row *a, const flex_row *b)
{
    if (!a->ok) return 0;
    if (!b->ok) return 1;
    if (a->off != b->off) return b->off;
    return a->s.total < b->s.total;
}

/* ---- rows and poses ------------------------------------------------------------------------- */

/* The row's status and message (what the CSV and on_row say): for an ok row, what the
 * preparation of a SMILES record noted (lig's message), which of its conformers won, and a
 * macrocycle docked with its ring as read. */
static void row_status(const vsg_ligand *lig, const flex_row *r, const char **status, char *msg, size_t len)
{
    msg[0] = '\0';
    if (!r->ok) {
        *status = r->code;
        snprintf(msg, len, "%s", r->message);
        return;
    }
    if (r->off) { /* outside the box or away from the receptor; inside but repulsive: no pose */
        *status = r->s.outside > 0 || r->s.inter == 0 ? VSG_LIG_OUTSIDE : VSG_LIG_NO_POSE;
        snprintf(msg, len, "%s", r->message);
        return;
    }
    *status = "ok";
    size_t k = 0;
    if (lig->message[0]) k += (size_t)snprintf(msg + k, len - k, "%s", lig->message);
    if (k < len && r->conformers > 1)
        k += (size_t)snprintf(msg + k, len - k, "%sconformer %d of %d docked scored best", k ? "; " : "",
                              r->conformer + 1, r->conformers);
    if (k < len && r->macrocycle) /* docked, but its ring only as the input has it */
        snprintf(msg + k, len - k, "%sa macrocycle (ring of %d atoms) kept rigid as in the input: dock several ring conformers",
                 k ? "; " : "", r->macrocycle);
}

static void write_row(FILE *f, const vsg_ligand *lig, const flex_row *r)
{
    const char *status;
    char msg[400];
    row_status(lig, r, &status, msg, sizeof msg);
    fprintf(f, "%zu,", lig->index);
    vsg_csv_field(f, lig->name);
    fputc(',', f);
    vsg_csv_field(f, lig->source);
    fprintf(f, ",%ld,%d,", lig->record, lig->natoms);
    if (r->ok)
        fprintf(f, "%.4f,%.4f,%.4f,%.4f,%.4f,%g,%d,%d,", r->s.total, r->s.inter, r->s.intra, r->s.torsional, r->s.unbound,
                r->s.num_tors, r->torsdof, r->s.outside);
    else
        fputs(",,,,,,,,", f);
    vsg_csv_field(f, status);
    fputc(',', f);
    vsg_csv_field(f, msg);
    if (r->pb_valid >= 0) fprintf(f, ",%d,%s\n", r->pb_valid, r->pb_failed);
    else fputs(",,\n", f);
}

/* The row handed to on_row: the CSV's fields, numbers as the CSV prints them (4 decimals). */
static int call_row(const vsg_screen_extra *x, const vsg_ligand *lig, const flex_row *r)
{
    const char *status;
    char msg[400];
    row_status(lig, r, &status, msg, sizeof msg);
    double v[NCOLS];
    for (int k = 0; k < NCOLS; k++) v[k] = NAN;
    if (r->ok) {
        const double t[5] = {r->s.total, r->s.inter, r->s.intra, r->s.torsional, r->s.unbound};
        for (int k = 0; k < 5; k++) { /* the number the CSV prints */
            char b[64];
            snprintf(b, sizeof b, "%.4f", t[k]);
            v[k] = strtod(b, NULL);
        }
        v[5] = r->s.num_tors, v[6] = r->torsdof, v[7] = r->s.outside;
        if (r->pb_valid >= 0) v[8] = r->pb_valid;
    }
    static const char *const text_cols[] = {"posebusters_failed"};
    const char *texts[1] = {r->pb_valid >= 0 ? r->pb_failed : ""};
    vsg_screen_row row = {lig->index, lig->name, lig->source, lig->record, lig->natoms, NCOLS, row_cols, v, status, msg,
                          1, text_cols, texts};
    return x->on_row(x->row_ctx, &row);
}

/* PoseBusters' checks of pose k of res (vsg_dock_pose_checks in t's box): 1 valid, 0 not (failed
 * names the failed checks), -1 when they could not run. */
static int check_pose(const vsg_pose_checker *pc, const vsg_vina_target *t, const vsg_dock_result *res, int k,
                      char *failed, size_t len)
{
    vsg_pose_check_result cr;
    if (vsg_dock_pose_checks(pc, t, res, k, &cr) != VSG_OK) return -1;
    vsg_pose_check_failed(&cr, failed, len);
    return cr.valid;
}

/* Writes the poses of a docked record (r->res, up to its npose) as PDBQT MODELs numbered on from
 * *model, or as SDF records, each with PoseBusters' checks (vsgrid_posebusters_valid and _failed
 * items) when pc is given (t: the box). Returns VSG_OK or why not. */
static vsg_status write_poses(FILE *f, int sdf, vsg_ligand *lig, const vsg_dock_result *res, int *model,
                              const vsg_pose_checker *pc, const vsg_vina_target *t)
{
    vsg_status st = VSG_OK;
    if (sdf) {
        vsg_pose_sdf *m = NULL;
        if ((st = vsg_pose_sdf_new(lig, res, &m)) != VSG_OK) return st;
        for (int k = 0; k < res->npose && st == VSG_OK; k++) {
            char items[320] = "", failed[200];
            const int valid = pc ? check_pose(pc, t, res, k, failed, sizeof failed) : -1;
            if (valid >= 0)
                snprintf(items, sizeof items, "> <vsgrid_posebusters_valid>\n%d\n\n> <vsgrid_posebusters_failed>\n%s\n\n",
                         valid, failed);
            if (!vsg_pose_sdf_write_items(f, m, res, k, (long)lig->index, items[0] ? items : NULL))
                st = vsg_fail(VSG_E_IO, "write error on the poses");
        }
        vsg_pose_sdf_free(m);
        return st;
    }
    vsg_vina_ligand *vl = NULL; /* for the heavy atoms of the RMSD to the best pose */
    if (res->npose > 1 && (st = vsg_vina_ligand_new(lig, &vl)) != VSG_OK) return st;
    st = vsg_pose_model_ligand(lig, res);
    for (int k = 0; k < res->npose && st == VSG_OK; k++) {
        const double rb = k ? vsg_pose_rmsd_heavy(res, vl, res->pose[k].xyz, res->pose[0].xyz) : 0.0;
        if (!vsg_pose_write_pdbqt(f, lig, res, k, ++*model, rb, (long)lig->index))
            st = vsg_fail(VSG_E_DATA, "%s: record %ld: the record's atom lines do not match its model", lig->source,
                          lig->record);
    }
    vsg_vina_ligand_free(vl);
    return st;
}

/* --poses-top: the best records' poses, rendered, kept until the end (a max-heap on score). */
typedef struct {
    double score;
    size_t index;
    char *text;
    size_t len;
} kept_poses;
typedef struct {
    kept_poses *e;
    long n, cap;
} poses_heap;

static int worse(const kept_poses *a, const kept_poses *b) /* a ranks after b */
{
    return a->score != b->score ? a->score > b->score : a->index > b->index;
}

static void heap_sift_down(poses_heap *h, long i)
{
    for (;;) {
        long l = 2 * i + 1, r = l + 1, w = i;
        if (l < h->n && worse(&h->e[l], &h->e[w])) w = l;
        if (r < h->n && worse(&h->e[r], &h->e[w])) w = r;
        if (w == i) return;
        kept_poses t = h->e[i];
        h->e[i] = h->e[w], h->e[w] = t, i = w;
    }
}

static void heap_sift_up(poses_heap *h, long i)
{
    while (i > 0) {
        long p = (i - 1) / 2;
        if (!worse(&h->e[i], &h->e[p])) return;
        kept_poses t = h->e[i];
        h->e[i] = h->e[p], h->e[p] = t, i = p;
    }
}

/* Offers a record's poses; renders them only when they enter the best `cap`. */
static vsg_status heap_offer(poses_heap *h, int sdf, vsg_ligand *lig, const vsg_dock_result *res, double score,
                             const vsg_pose_checker *pc, const vsg_vina_target *t)
{
    kept_poses k = {score, lig->index, NULL, 0};
    if (h->n == h->cap && !worse(&h->e[0], &k)) return VSG_OK;
    FILE *m = open_memstream(&k.text, &k.len);
    if (!m) return vsg_fail(VSG_E_NOMEM, "out of memory (--poses-top)");
    int model = 0;
    vsg_status st = write_poses(m, sdf, lig, res, &model, pc, t);
    if (fclose(m) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_NOMEM, "out of memory (--poses-top)");
    if (st != VSG_OK) {
        free(k.text);
        return st;
    }
    if (h->n == h->cap) {
        free(h->e[0].text);
        h->e[0] = k;
        heap_sift_down(h, 0);
    } else {
        h->e[h->n] = k;
        heap_sift_up(h, h->n++);
    }
    return VSG_OK;
}

static int by_rank(const void *pa, const void *pb)
{
    const kept_poses *a = pa, *b = pb;
    return worse(a, b) ? 1 : worse(b, a) ? -1 : 0;
}

/* Copies PDBQT text with every MODEL line renumbered from ++*model, keeping the line's form. */
static void write_renumbered(FILE *f, const char *s, size_t len, long *model)
{
    const char *end = s + len;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const size_t n = nl ? (size_t)(nl - s) + 1 : (size_t)(end - s);
        if (n >= 6 && !memcmp(s, "MODEL ", 6)) {
            if (n > 6 && s[6] == ' ') fprintf(f, "MODEL %8ld\n", ++*model);
            else fprintf(f, "MODEL %ld\n", ++*model);
        } else {
            fwrite(s, 1, n, f);
        }
        s += n;
    }
}

static vsg_status heap_write(poses_heap *h, FILE *f, int sdf)
{
    qsort(h->e, (size_t)h->n, sizeof *h->e, by_rank);
    long model = 0;
    for (long i = 0; i < h->n; i++) {
        if (sdf) fwrite(h->e[i].text, 1, h->e[i].len, f);
        else write_renumbered(f, h->e[i].text, h->e[i].len, &model);
    }
    return ferror(f) ? vsg_fail(VSG_E_IO, "write error on the poses") : VSG_OK;
}

static void heap_free(poses_heap *h)
{
    for (long i = 0; i < h->n; i++) free(h->e[i].text);
    free(h->e);
}

/* ---- the pipeline --------------------------------------------------------------------------- */

enum { SLOT_FREE = 0, SLOT_READY };

typedef struct {
    int state;
    size_t seq;
    int n;              /* records read */
    int mine;           /* docked by this rank (always, without MPI) */
    int searches_left;  /* GPU shares (one per GPU) not yet searched */
    vsg_ligand *recs;   /* cap records, buffers reused */
    flex_row *rows;
    char *ok;
    const vsg_ligand **ligs; /* the m records to dock (a record's further conformers among them) */
    uint64_t *seeds;
    int *slot;          /* ligs[k] is recs[slot[k]] */
    int *conf;          /* ... or its conformer conf[k] (0: the record itself, else vars[var[k]]) */
    int *var;
    int m, mcap;        /* ligs, seeds, slot, conf, var: room for mcap */
    vsg_ligand *vars;   /* further conformers as records of their own (copies), nvars of them */
    int nvars, vars_cap;
    dock_stage *stage;
    vsg_status st;      /* the chunk could not be prepared at all */
    char err[256];
} chunk;

typedef struct {
    const vsg_vina_target *t;
    const vsg_flex_screen_options *o;
    vsg_dock_params P;
    vsg_device device;
    int max_torsions;
    int ngpu, gpus[MAX_GPUS];
    int cap;                     /* records a chunk (the buffers') */
    int ramp;                    /* records of the first chunk, doubling up to cap (0: cap throughout) */
    int resume;
    size_t skip;
    vsg_ligand_reader *rd;
    vsg_ligand_reader_options ro; /* the reader's: pending SMILES records are prepared with them */
    vsg_prep_workers *workers;   /* SMILES inputs: the preparing processes, one a stage-1 thread */
    chunk slot[SLOTS];
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t next_read;            /* the chunk the reader fills next */
    size_t nchunks;              /* SIZE_MAX until the reader is done */
    size_t next_search[MAX_GPUS];
    int stop;                    /* the writer failed: everyone stops */
    size_t as_read;              /* --conformers / --stereo enumerate asked for, but a record of a 3D file:
                                    docked as read (said once at the end) */
    /* where the time goes */
    double parse_s, prepare_s, search_s[MAX_GPUS], search_wait_s, write_wait_s;
} flex_pipe;

static void chunk_release(chunk *c, int cap)
{
    if (c->recs)
        for (int i = 0; i < cap; i++) vsg_ligand_release(&c->recs[i]);
    free(c->recs), free(c->rows), free(c->ok), free(c->ligs), free(c->seeds), free(c->slot), free(c->conf), free(c->var);
    for (int i = 0; i < c->vars_cap; i++) vsg_ligand_release(&c->vars[i]);
    free(c->vars);
    dock_stage_free(c->stage);
    memset(c, 0, sizeof *c);
}

static int chunk_alloc(chunk *c, int cap)
{
    memset(c, 0, sizeof *c);
    c->recs = malloc(sizeof *c->recs * (size_t)cap);
    c->rows = calloc((size_t)cap, sizeof *c->rows);
    c->ok = malloc((size_t)cap);
    c->ligs = malloc(sizeof *c->ligs * (size_t)cap);
    c->seeds = malloc(sizeof *c->seeds * (size_t)cap);
    c->slot = malloc(sizeof *c->slot * (size_t)cap);
    c->conf = malloc(sizeof *c->conf * (size_t)cap);
    c->var = malloc(sizeof *c->var * (size_t)cap);
    c->mcap = cap;
    if (!c->recs || !c->rows || !c->ok || !c->ligs || !c->seeds || !c->slot || !c->conf || !c->var) {
        free(c->recs), c->recs = NULL;
        chunk_release(c, 0);
        return 0;
    }
    for (int i = 0; i < cap; i++) vsg_ligand_init(&c->recs[i]);
    return 1;
}

/* Records of chunk seq: the ramp of the first chunks, then cap (a function of seq alone, so every
 * rank of an MPI run cuts the same chunks). */
static int chunk_records(const flex_pipe *p, size_t seq)
{
    if (p->ramp <= 0) return p->cap;
    long n = (long)p->ramp;
    for (size_t s = 0; s < seq && n < p->cap; s++) n *= 2;
    return n < p->cap ? (int)n : p->cap;
}

/* Room for m entries to dock in c; 0 out of memory. */
static int chunk_room(chunk *c, int m)
{
    if (m <= c->mcap) return 1;
    int cap = c->mcap * 2 > m ? c->mcap * 2 : m;
    const vsg_ligand **l = realloc(c->ligs, sizeof *l * (size_t)cap);
    if (l) c->ligs = l;
    uint64_t *s = realloc(c->seeds, sizeof *s * (size_t)cap);
    if (s) c->seeds = s;
    int *a = realloc(c->slot, sizeof *a * (size_t)cap);
    if (a) c->slot = a;
    int *b = realloc(c->conf, sizeof *b * (size_t)cap);
    if (b) c->conf = b;
    int *v = realloc(c->var, sizeof *v * (size_t)cap);
    if (v) c->var = v;
    if (!l || !s || !a || !b || !v) return 0;
    c->mcap = cap;
    return 1;
}

/* Record i of c added to what its chunk docks: the record with seed + index, and each of its
 * further conformers (vsg_ligand.conformers) as a copy of the record with that conformer's
 * coordinates, seeded apart (the record's own entry, and so a record without conformers, docks
 * as before). VSG_E_NOMEM only. */
static vsg_status add_record(const flex_pipe *p, chunk *c, int i)
{
    const vsg_ligand *rec = &c->recs[i];
    const int nconf = 1 + (rec->nconformers > 0 && rec->conformers ? rec->nconformers : 0);
    if (!chunk_room(c, c->m + nconf)) return vsg_fail(VSG_E_NOMEM, "out of memory for a chunk's conformers");
    const uint64_t seed = p->P.seed + (uint64_t)rec->index;
    c->ligs[c->m] = rec, c->seeds[c->m] = seed, c->slot[c->m] = i, c->conf[c->m] = 0, c->var[c->m++] = -1;
    for (int k = 1; k < nconf; k++) {
        if (c->nvars == c->vars_cap) {
            const int cap = c->vars_cap ? 2 * c->vars_cap : 64;
            vsg_ligand *v = realloc(c->vars, sizeof *v * (size_t)cap);
            if (!v) return vsg_fail(VSG_E_NOMEM, "out of memory for a chunk's conformers");
            for (int q = c->vars_cap; q < cap; q++) vsg_ligand_init(&v[q]);
            c->vars = v, c->vars_cap = cap;
        }
        vsg_ligand *v = &c->vars[c->nvars];
        vsg_status st = vsg_ligand_copy(v, rec);
        if (st != VSG_OK) return st;
        const double *x = rec->conformers + 3 * (size_t)rec->natoms * (size_t)(k - 1);
        for (int a = 0; a < v->natoms; a++) v->atoms[a].x = x[3 * a], v->atoms[a].y = x[3 * a + 1], v->atoms[a].z = x[3 * a + 2];
        free(v->conformers);
        v->conformers = NULL, v->nconformers = 0;
        c->ligs[c->m] = NULL; /* set once every copy is made: vars may move as it grows (read_chunk) */
        c->seeds[c->m] = seed + (uint64_t)k * 0x9E3779B97F4A7C15ull, c->slot[c->m] = i;
        c->conf[c->m] = k, c->var[c->m++] = c->nvars++;
    }
    return VSG_OK;
}

/* Stage 1: a chunk read, checked and prepared. */
static void read_chunk(flex_pipe *p, chunk *c)
{
    const double a = vsg_now();
    int n = 0;
    const int want = chunk_records(p, c->seq);
    while (n < want && vsg_ligand_reader_next(p->rd, &c->recs[n]) == 1)
        if (!p->resume || c->recs[n].index >= p->skip) n++; /* --resume: records done are read, not docked */
    const double b = vsg_now();
    c->n = n, c->m = 0, c->st = VSG_OK, c->err[0] = '\0', c->stage = NULL;
    c->mine = vsg_mpi_owns_batch(c->seq);
    if (n > 0 && c->mine) {
        const int team = p->workers ? vsg_prep_workers_count(p->workers) : 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 8) num_threads(team > 0 ? team : omp_get_max_threads())
#endif
        for (int i = 0; i < n; i++) {
#ifdef _OPENMP
            const int slot = omp_get_thread_num();
#else
            const int slot = 0;
#endif
            /* a SMILES record: built in 3D here, by this thread's preparing process */
            vsg_ligand_prepare_pending(&c->recs[i], &p->ro, p->workers, slot);
            vsg_screen_complete_hydrogens(p, &c->recs[i]); /* a file without hydrogens: its polar ones */
            c->ok[i] = (char)precheck(&c->recs[i], p->max_torsions, &c->rows[i]);
        }
        c->nvars = 0;
        const int variants = p->ro.smiles.conformers > 1 || p->ro.smiles.stereo == VSG_STEREO_ENUMERATE;
        size_t as_read = 0;
        for (int i = 0; i < n && c->st == VSG_OK; i++)
            if (c->ok[i]) {
                c->st = add_record(p, c, i);
                /* a prepared SMILES record (or 2D drawing) has its SMILES item; a 3D file's has not */
                as_read += variants && !(c->recs[i].text && strstr(c->recs[i].text, "> <vsgrid_smiles>"));
            }
        pthread_mutex_lock(&p->mu);
        p->as_read += as_read;
        pthread_mutex_unlock(&p->mu);
        for (int k = 0; k < c->m; k++) /* the copies are where they stay */
            if (c->conf[k]) c->ligs[k] = &c->vars[c->var[k]];
        if (c->st != VSG_OK) {
            snprintf(c->err, sizeof c->err, "%s", vsg_last_error());
            c->m = 0;
            for (int i = 0; i < n; i++)
                if (c->ok[i]) { /* every row says so */
                    c->ok[i] = 0;
                    snprintf(c->rows[i].code, sizeof c->rows[i].code, "%s", vsg_dock_fail_code(c->st, c->err));
                    snprintf(c->rows[i].message, sizeof c->rows[i].message, "%s", c->err);
                }
            c->st = VSG_OK;
        }
        if (c->m > 0) {
            c->st = dock_stage_prepare(p->t, c->ligs, c->m, c->seeds, &p->P, p->device, &c->stage);
            if (c->st != VSG_OK) snprintf(c->err, sizeof c->err, "%s", vsg_last_error());
        }
    }
    pthread_mutex_lock(&p->mu);
    p->parse_s += b - a;
    p->prepare_s += vsg_now() - b;
    pthread_mutex_unlock(&p->mu);
}

static void *reader_main(void *arg)
{
    flex_pipe *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        chunk *c = &p->slot[p->next_read % SLOTS];
        while (!p->stop && c->state != SLOT_FREE) pthread_cond_wait(&p->cv, &p->mu);
        const int stop = p->stop;
        c->seq = p->next_read;
        pthread_mutex_unlock(&p->mu);
        if (stop) break;
        read_chunk(p, c);
        pthread_mutex_lock(&p->mu);
        const int last = c->n < chunk_records(p, c->seq);
        if (c->n > 0) {
            c->searches_left = p->ngpu;
            c->state = SLOT_READY;
            p->next_read++;
        }
        if (last) p->nchunks = p->next_read;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        if (last) break;
    }
    return NULL;
}

typedef struct {
    flex_pipe *p;
    int g; /* which GPU (index into p->gpus and each stage's shares) */
} searcher_arg;

/* Stage 2: one of a GPU's searcher threads; claims each chunk's share of its GPU in turn. */
static void *searcher_main(void *arg)
{
    flex_pipe *p = ((searcher_arg *)arg)->p;
    const int g = ((searcher_arg *)arg)->g;
    dock_stage_warm(p->t, p->gpus[g]); /* while the reader prepares the first chunk */
    for (;;) {
        pthread_mutex_lock(&p->mu);
        const double w0 = vsg_now();
        size_t seq;
        for (;;) {
            seq = p->next_search[g];
            if (p->stop || seq >= p->nchunks) break;
            if (seq < p->next_read) break; /* ready (the reader advances next_read once it is) */
            pthread_cond_wait(&p->cv, &p->mu);
        }
        const int done = p->stop || seq >= p->nchunks;
        if (!done) p->next_search[g]++;
        p->search_wait_s += vsg_now() - w0;
        chunk *c = &p->slot[seq % SLOTS];
        pthread_mutex_unlock(&p->mu);
        if (done) break;
        const double a = vsg_now();
        if (c->stage && g < dock_stage_shares(c->stage)) dock_stage_search(c->stage, g); /* outcome kept for finish */
        pthread_mutex_lock(&p->mu);
        p->search_s[g] += vsg_now() - a;
        c->searches_left--;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    return NULL;
}

/* Outputs and counters of stage 3. */
typedef struct {
    FILE *csv, *poses;
    int sdf, model;
    poses_heap heap;
    vsg_screen_report *rep;
    long evaluations;
    double finish_s; /* finishing (and, without a GPU, docking) the chunks */
    const vsg_screen_extra *x;
    vsg_pc_receptor *pcrec; /* the receptor's heavy atoms around the box for the pose checks (NULL: none) */
    int box_checked;        /* the box against the first chunk's records (warn_large_box) */
} writer;

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A box several times the records' own (AutoDock-GPU's 30 A cubes, a whole-domain box): the
 * presets below thorough were tuned on pocket boxes and miss poses there (docs/PERFORMANCE.md,
 * issue 28; `dock` searches with thorough there by itself, a screen keeps one preset for all).
 * Said once, from the median of the first chunk's records, while the screen goes on. */
static void warn_large_box(const flex_pipe *p, const chunk *c)
{
    if (c->m < 1 || !vsg_dock_below_thorough(&p->P)) return;
    vsg_vina_box b;
    if (!vsg_vina_target_is_maps(p->t, &b)) return;
    double *r = malloc(sizeof *r * (size_t)c->m);
    if (!r) return;
    for (int k = 0; k < c->m; k++) r[k] = vsg_dock_box_ratio(b.size, c->ligs[k]);
    qsort(r, (size_t)c->m, sizeof *r, by_value);
    const double median = r[c->m / 2];
    free(r);
    char whose[64];
    if (c->m == 1) snprintf(whose, sizeof whose, "the first record's own box");
    else snprintf(whose, sizeof whose, "the records' own box (the median of the first %d)", c->m);
    if (median > VSG_DOCK_LARGE_BOX)
        vsg_warn("the maps' box (%.1f x %.1f x %.1f A) is %.1f times %s: the search presets were tuned "
                 "on pocket boxes and miss poses in boxes this large (AutoDock-GPU's 30 A set: balanced 69%% of top "
                 "poses within 2 A, thorough 78%%); make maps around the pocket (vsgrid maps REC --around LIG -o "
                 "PREFIX), or --search thorough (16 times balanced's search)",
                 b.size[0], b.size[1], b.size[2], median, whose);
}

static void count_code(vsg_screen_report *rep, const char *code)
{
    for (size_t i = 0; i < rep->by_code_n; i++)
        if (!strcmp(rep->by_code[i], code)) {
            rep->by_code_count[i]++;
            return;
        }
    if (rep->by_code_n < 16) {
        snprintf(rep->by_code[rep->by_code_n], sizeof rep->by_code[0], "%s", code);
        rep->by_code_count[rep->by_code_n++] = 1;
    }
}

/* Stage 3 on one chunk: finished, written, its results released. */
static vsg_status write_chunk(flex_pipe *p, chunk *c, writer *w)
{
    const vsg_flex_screen_options *o = p->o;
    vsg_status st = VSG_OK;
    vsg_screen_report *rep = w->rep;
    if (!c->mine) { /* MPI: another rank's rows */
        rep->records += (size_t)c->n;
        return VSG_OK;
    }
    if (!w->box_checked && c->m > 0) w->box_checked = 1, warn_large_box(p, c);
    if (c->m > 0) {
        vsg_dock_result *res = calloc((size_t)c->m, sizeof *res);
        vsg_status *sts = malloc(sizeof *sts * (size_t)c->m);
        char(*msgs)[256] = malloc(sizeof *msgs * (size_t)c->m);
        if (!res || !sts || !msgs) st = vsg_fail(VSG_E_NOMEM, "out of memory");
        vsg_status bst = st == VSG_OK ? c->st : VSG_OK;
        if (st == VSG_OK && bst == VSG_OK) {
            const double f0 = vsg_now();
            bst = dock_stage_finish(c->stage, res, sts, msgs);
            w->finish_s += vsg_now() - f0;
            if (bst != VSG_OK) snprintf(c->err, sizeof c->err, "%s", vsg_last_error());
        }
        if (st == VSG_OK && bst != VSG_OK) { /* the whole chunk could not run: every row says so */
            for (int k = 0; k < c->m; k++) sts[k] = bst, snprintf(msgs[k], sizeof msgs[k], "%s", c->err);
            if (bst != VSG_E_NOMEM) st = vsg_fail(bst, "%s", c->err);
        }
        for (int k = 0; res && sts && msgs && k < c->m; k++) { /* a record's entries are together, its own first */
            flex_row *r = &c->rows[c->slot[k]];
            if (c->conf[k] == 0) {
                r->res = res[k];
                memset(&res[k], 0, sizeof res[k]);
                docked(p->t, &c->recs[c->slot[k]], sts[k], msgs[k], r);
                r->conformers = 1, r->conformer = 0, r->as = NULL;
                continue;
            }
            vsg_ligand *as = &c->vars[c->var[k]];
            flex_row t;
            memset(&t, 0, sizeof t);
            t.torsdof = r->torsdof, t.macrocycle = r->macrocycle;
            t.res = res[k];
            memset(&res[k], 0, sizeof res[k]);
            docked(p->t, as, sts[k], msgs[k], &t);
            const long evaluations = r->evaluations + t.evaluations;
            const int conformers = r->conformers + 1;
            if (better(&t, r)) {
                vsg_dock_result_release(&r->res);
                *r = t;
                r->conformer = c->conf[k], r->as = as;
            } else {
                vsg_dock_result_release(&t.res);
            }
            r->evaluations = evaluations, r->conformers = conformers;
        }
        free(res), free(sts), free(msgs);
        dock_stage_free(c->stage);
        c->stage = NULL;
        if (st != VSG_OK && st != VSG_E_DEVICE) return st;
    }
    long block = -1;
    if (vsg_mpi_screen_split()) {
        if (w->csv) fprintf(w->csv, "#vsgrid-block %zu %d\n", rep->records, c->n);
        if (w->poses) block = vsg_mpi_block_open(w->poses, rep->records, (size_t)c->n);
    }
    vsg_status wst = VSG_OK;
    for (int i = 0; i < c->n; i++) {
        flex_row *r = &c->rows[i];
        vsg_ligand *lig = &c->recs[i];
        rep->records++;
        w->evaluations += r->evaluations;
        if (r->ok) {
            rep->scored++;
            rep->atoms += (uint64_t)lig->natoms;
            if (r->off) rep->outside++;
        } else {
            rep->failed++;
            count_code(rep, r->code);
        }
        vsg_ligand *as = r->as ? r->as : lig; /* the conformer the poses were docked from */
        /* PoseBusters' checks against the conformer as docked (its geometry is the ideal) */
        vsg_pose_checker *pc = NULL;
        r->pb_valid = -1;
        if (r->ok && !r->off && vsg_pc_checker_new_shared(as, w->pcrec, &pc) == VSG_OK &&
            (r->pb_valid = check_pose(pc, p->t, &r->res, 0, r->pb_failed, sizeof r->pb_failed)) >= 0) {
            rep->poses_checked++;
            rep->poses_valid += (uint64_t)r->pb_valid;
        }
        if (w->csv) write_row(w->csv, lig, r);
        if (w->x && w->x->on_row && wst == VSG_OK && call_row(w->x, lig, r) != 0)
            wst = vsg_fail(VSG_E_ARG, "flexible screen: stopped by the caller");
        if (r->ok && w->poses && wst == VSG_OK) {
            if (o->poses_top > 0) wst = heap_offer(&w->heap, w->sdf, as, &r->res, r->s.total, pc, p->t);
            else if (!o->poses_below || r->s.total <= o->poses_max_score)
                wst = write_poses(w->poses, w->sdf, as, &r->res, &w->model, pc, p->t);
        }
        vsg_pose_checker_free(pc);
        vsg_dock_result_release(&r->res);
    }
    if (block >= 0) vsg_mpi_block_close(w->poses, block);
    /* each chunk on disk once written: a task killed later loses none of it (shards resume from it) */
    if (w->poses && !w->heap.e) fflush(w->poses);
    if (w->csv && (fflush(w->csv) != 0 || ferror(w->csv)) && wst == VSG_OK) /* or the rows' caller stopped */
        wst = vsg_fail(VSG_E_IO, "write error on the CSV output");
    return st != VSG_OK ? st : wst;
}

vsg_status vsg_flex_screen_run(const vsg_vina_target *t, const vsg_flex_screen_options *o, const vsg_screen_extra *x,
                               vsg_screen_report *rep, long *evaluations)
{
    if (!t || !o || !rep || !o->inputs || o->ninputs < 1)
        return vsg_fail(VSG_E_ARG, "vsg_flex_screen_run: NULL argument or no inputs");
    if (!vsg_vina_target_is_maps(t, NULL))
        return vsg_fail(VSG_E_ARG, "vsg_flex_screen_run: the target must be a Vina map set (vsg_vina_target_maps)");
    if (x && x->best_per_molecule) return vsg_fail(VSG_E_ARG, "vsg_flex_screen_run: best_per_molecule is not supported");
    if (o->poses_top > 0 && vsg_mpi_screen_split())
        return vsg_fail(VSG_E_ARG, "poses of the best records only (--poses-top) are chosen over the whole run: not "
                                   "under mpirun (run shards and 'vsgrid merge --poses-top')");
    if (o->poses_top < 0) return vsg_fail(VSG_E_ARG, "vsg_flex_screen_run: poses_top < 0");
    memset(rep, 0, sizeof *rep);
    if (evaluations) *evaluations = 0;
    const double t0 = vsg_now();
    static flex_pipe zero;
    flex_pipe *p = malloc(sizeof *p);
    if (!p) return vsg_fail(VSG_E_NOMEM, "out of memory");
    *p = zero;
    p->t = t, p->o = o, p->P = o->dock, p->device = o->device;
    p->max_torsions = o->max_torsions > 0 ? o->max_torsions : VSG_DEFAULT_MAX_TORSIONS;
    p->resume = x && x->resume;
    p->skip = p->resume ? x->resume_skip : 0;
    p->nchunks = SIZE_MAX;
    /* which GPUs, and the chunk size */
    const int count = vsg_gpu_count();
    const int gpu = o->device == VSG_DEVICE_GPU || (o->device == VSG_DEVICE_AUTO && count > 0);
    if (gpu) {
        if (p->P.ngpus > 0)
            for (int g = 0; g < p->P.ngpus && g < MAX_GPUS; g++) p->gpus[p->ngpu++] = p->P.gpus[g];
        else
            for (int g = 0; g < count && g < MAX_GPUS; g++) p->gpus[p->ngpu++] = g;
        if (p->ngpu == 0) {
            free(p);
            return vsg_fail(VSG_E_DEVICE, "flexible screen: no GPU found");
        }
        p->P.ngpus = p->ngpu; /* the stages share over exactly these, in this order */
        for (int g = 0; g < p->ngpu; g++) p->P.gpus[g] = p->gpus[g];
    }
    p->cap = vsg_mpi_screen_split() ? CHUNK_MPI : gpu ? CHUNK_GPU * p->ngpu : cpu_chunk();
    if (gpu && !vsg_mpi_screen_split()) p->ramp = CHUNK_FIRST * p->ngpu;
    const char *forced = getenv("VSG_FLEX_CHUNK"); /* a test switch: records a chunk (rows must not change) */
    if (forced && atoi(forced) > 0) p->cap = atoi(forced), p->ramp = 0;
    if (gpu && vsg_mpi_active()) { /* mpirun binds each of 2 or fewer ranks to one core by default */
        cpu_set_t set;
        const long cores = sysconf(_SC_NPROCESSORS_ONLN);
        if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) < 2 && cores > 2)
            vsg_warn("rank %d may run on %d core of the host's %ld (mpirun binds each rank to a core by default "
                     "when there are 2 ranks or fewer): the host's work of a flexible screen then starves its GPU. "
                     "Give mpirun --bind-to none (or --map-by slot:PE=N)", vsg_mpi_rank(), CPU_COUNT(&set), cores);
    }
    vsg_ligand_reader_options ro = {.format = o->format, .keep_text = 1, .max_atoms = o->max_atoms, .smiles = o->smiles,
                                    .rigid_macrocycles = o->rigid_macrocycles};
    vsg_status st = vsg_ligand_reader_open(o->inputs, o->ninputs, &ro, &p->rd);
    if (st == VSG_OK && x && x->ranges) st = vsg_ligand_reader_select(p->rd, x->ranges, x->nranges, x->index);
    /* SMILES records are read here and prepared by stage 1's threads, the reading thread alone
     * being a hundred times too slow for a GPU; and only by the rank that docks them */
    p->ro = ro;
    if (st == VSG_OK) {
        vsg_ligand_reader_defer_smiles(p->rd, 1);
        int team = 1;
#ifdef _OPENMP
        team = omp_get_max_threads();
#endif
        p->workers = vsg_prep_workers_for(p->rd, o->ninputs, team); /* before any thread of ours */
    }
    if (st != VSG_OK) {
        vsg_ligand_reader_close(p->rd);
        free(p);
        return st;
    }
    for (int s = 0; s < SLOTS && st == VSG_OK; s++)
        if (!chunk_alloc(&p->slot[s], p->cap)) st = vsg_fail(VSG_E_NOMEM, "out of memory for the flexible screen");
    writer w;
    memset(&w, 0, sizeof w);
    w.csv = o->csv, w.poses = o->poses, w.sdf = o->poses_sdf, w.rep = rep, w.x = x;
    if (st == VSG_OK && o->receptor) { /* the receptor's heavy atoms within reach of the box, once for every pose */
        double lo[3], hi[3];
        vsg_pc_target_box(t, lo, hi); /* (a map set: checked above) */
        st = vsg_pc_receptor_new(o->receptor, lo, hi, 16.0, &w.pcrec); /* 8 Å past the box, and a pose's atoms outside it */
    }
    if (st == VSG_OK && o->poses_top > 0) {
        w.heap.cap = o->poses_top;
        w.heap.e = calloc((size_t)o->poses_top, sizeof *w.heap.e);
        if (!w.heap.e) st = vsg_fail(VSG_E_NOMEM, "out of memory for --poses-top %ld", o->poses_top);
    }
    if (st == VSG_OK && o->csv && !(x && (x->resume || x->no_header)))
        fputs("index,name,source,record,atoms,score_kcal_mol,inter_kcal_mol,intra_kcal_mol,torsional_kcal_mol,"
              "unbound_kcal_mol,num_tors,torsdof,atoms_outside,status,message,posebusters_valid,posebusters_failed\n",
              o->csv);
    if (st == VSG_OK && o->csv) fflush(o->csv); /* a run stopped at once leaves its header: --resume takes it */
    pthread_t reader, searchers[MAX_GPUS * SEARCHERS];
    searcher_arg sargs[MAX_GPUS];
    int started = 0, nsearch = 0;
    if (st == VSG_OK) {
        pthread_mutex_init(&p->mu, NULL);
        pthread_cond_init(&p->cv, NULL);
        started = pthread_create(&reader, NULL, reader_main, p) == 0;
        if (!started) st = vsg_fail(VSG_E_NOMEM, "flexible screen: cannot start the reader thread");
        for (int g = 0; started && g < p->ngpu; g++) {
            sargs[g].p = p, sargs[g].g = g;
            for (int k = 0; k < SEARCHERS; k++)
                if (pthread_create(&searchers[nsearch], NULL, searcher_main, &sargs[g]) == 0) nsearch++;
        }
        if (started && p->ngpu > 0 && nsearch < p->ngpu) { /* too few threads: a GPU would never be searched */
            pthread_mutex_lock(&p->mu);
            p->stop = 1;
            pthread_cond_broadcast(&p->cv);
            pthread_mutex_unlock(&p->mu);
            st = vsg_fail(VSG_E_NOMEM, "flexible screen: cannot start the GPU threads");
        }
    }
    /* stage 3, in order */
    const double t_start = vsg_now();
    const size_t h0 = vsg_screen_hydrogens_added();
    for (size_t seq = 0; st == VSG_OK; seq++) {
        if (vsg_screen_stop_requested()) { /* an interrupt: the chunks written stay, no other is waited for */
            st = vsg_fail(VSG_E_STOPPED, "flexible screen stopped after %zu records (their rows are written)", rep->records);
            break;
        }
        pthread_mutex_lock(&p->mu);
        const double w0 = vsg_now();
        chunk *c = &p->slot[seq % SLOTS];
        while (!(seq < p->next_read && c->searches_left == 0) && seq < p->nchunks) pthread_cond_wait(&p->cv, &p->mu);
        p->write_wait_s += vsg_now() - w0;
        const int done = seq >= p->nchunks;
        pthread_mutex_unlock(&p->mu);
        if (done) break;
        const double a = vsg_now();
        st = write_chunk(p, c, &w);
        rep->write_s += vsg_now() - a;
        if (o->progress) {
            const double el = vsg_now() - t_start;
            fprintf(stderr, "\rvsgrid: %zu records docked, %.1f s, %.2f records/s", rep->records, el,
                    el > 0 ? (double)rep->records / el : 0.0);
        }
        pthread_mutex_lock(&p->mu);
        c->state = SLOT_FREE;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    if (started) {
        pthread_mutex_lock(&p->mu);
        if (st != VSG_OK) p->stop = 1;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        pthread_join(reader, NULL);
        for (int k = 0; k < nsearch; k++) pthread_join(searchers[k], NULL);
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
    }
    if (o->progress && rep->records) fputc('\n', stderr);
    if (p->as_read)
        vsg_warn("%zu record%s came from 3D files: --conformers and --stereo enumerate make SMILES records (and 2D "
                 "drawings) only, so %s docked as read, one conformer each", p->as_read, p->as_read > 1 ? "s" : "",
                 p->as_read > 1 ? "these were" : "it was");
    if (vsg_screen_hydrogens_added() > h0)
        vsg_warn("%zu records had polar hydrogens added (their files had none)", vsg_screen_hydrogens_added() - h0);
    if (st == VSG_OK && w.heap.e && w.poses) st = heap_write(&w.heap, w.poses, w.sdf);
    heap_free(&w.heap);
    vsg_pc_receptor_free(w.pcrec);
    for (int s = 0; s < SLOTS; s++) chunk_release(&p->slot[s], p->cap);
    vsg_ligand_reader_close(p->rd);
    vsg_prep_workers_stop(p->workers);
    if (st == VSG_OK && o->csv && (fflush(o->csv) != 0 || ferror(o->csv)))
        st = vsg_fail(VSG_E_IO, "write error on the CSV output");
    if (st == VSG_OK && o->poses && (fflush(o->poses) != 0 || ferror(o->poses)))
        st = vsg_fail(VSG_E_IO, "write error on the poses");
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    if (gpu) {
        char name[96] = "GPU";
        vsg_gpu_describe(p->gpus[0], name, sizeof name, NULL, NULL);
        snprintf(rep->device, sizeof rep->device, "%d x %s", p->ngpu, name);
        snprintf(rep->precision, sizeof rep->precision, "float");
    } else {
        snprintf(rep->device, sizeof rep->device, "cpu (%d thread%s)", threads, threads == 1 ? "" : "s");
        snprintf(rep->precision, sizeof rep->precision, "double");
    }
    snprintf(rep->kernel, sizeof rep->kernel, "%s flexible docking",
             vsg_vina_target_scoring(t) == VSG_VINA_SCORING_VINARDO ? "vinardo" : "vina");
    rep->parse_threads = 1;
    rep->parse_s = p->parse_s;
    rep->split_s = p->prepare_s;      /* the reader thread's checks and search preparation */
    for (int g = 0; g < p->ngpu; g++) rep->score_s += p->search_s[g];
    if (p->ngpu == 0) rep->score_s = w.finish_s, rep->write_s -= w.finish_s; /* the CPU twin docks at finish */
    rep->scorer_busy_s = rep->score_s;
    rep->scorer_wait_s = p->search_wait_s;
    rep->write_wait_s = p->write_wait_s;
    rep->seconds = vsg_now() - t0;
    if (evaluations) *evaluations = w.evaluations;
    if (getenv("VSG_DOCK_TIMES")) { /* a bench switch: where the screen's time goes */
        fprintf(stderr, "flex screen: %.2f s wall; read %.2f s, check+prepare %.2f s (reader thread); finish+write %.2f s, "
                        "waiting %.2f s (writer); searchers waiting %.2f s; GPU busy",
                rep->seconds, p->parse_s, p->prepare_s, rep->write_s, p->write_wait_s, p->search_wait_s);
        for (int g = 0; g < p->ngpu; g++) fprintf(stderr, " %.2f", p->search_s[g]);
        fprintf(stderr, " s (sum over its %d threads)\n", SEARCHERS);
    }
    free(p);
    return st;
}

