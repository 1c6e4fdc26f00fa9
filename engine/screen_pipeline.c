/* screen_pipeline.c — reader → scorers → writer (the design is in screen.h).
 *
 * Threads and queues. Batches live in a fixed pool (2 per scorer + 2). The reader takes a free
 * batch, fills it with prepared records and hands it to the work queue; a scorer takes it,
 * scores it and hands it to the done queue; the writer (the calling thread) keeps batches that
 * arrive early until their turn, writes rows in sequence order and returns each batch to the
 * free queue. Only pointers move between threads, always under the queue's mutex.
 *
 * Record preparation (reader thread), in this order, each step able to fail the record with
 * its code (ligand.h): parse status from the reader; charges (--charges); AutoDock types for
 * AD4 map sets (PDBQT keeps its own; SDF/MOL2/PDB get typed after non-polar H are merged, as
 * AutoDock's ligand preparation does); all charges zero → zero_charges; more atoms than a
 * batch holds → too_many_atoms.
 *
 * Parallel parse (--parse-threads N > 1): the reader thread only inflates
 * and cuts the input into chunks of whole records (vsg_ligand_reader_next_chunk: at most
 * PARSE_CHUNK_RECORDS records, and fewer lines than a batch holds atoms, so a chunk's records
 * always fit one batch); with each chunk it takes the next batch of the sequence, so batches
 * are taken in order and a worker never waits for one. N parse workers parse each chunk with
 * the serial parsers (a chunk reader that starts at the chunk's line and record number), run
 * prepare() and fill the chunk's batch. The writer numbers the rows (index) as it writes them,
 * since only it sees them in order. The rows are the serial mode's, byte for byte
 * (tests/cli_screen_parallel.sh); only batch boundaries differ (the GPU kernel is calibrated
 * on the first batch). parse_s is then the workers' busy time summed.
 *
 * Rigid placement (o->placement == VSG_PLACEMENT_RIGID): the scorer thread places every scored
 * ligand of its batch with the CPU twin vsg_place_cpu (grids/place_cpu.h; GPU placement is not
 * there yet, gpu/place_gpu.h) and keeps its best pose(s) in the batch; a ligand with no pose
 * inside the grid gets the row status no_pose. The writer adds the best pose's columns to the
 * CSV, writes the pose(s) to --poses-out and moves the molecule's copy to its best pose before
 * the --sdf-out code sees it, so the SDF holds placed coordinates. */
#define _POSIX_C_SOURCE 200809L /* pthreads, isatty */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "reader_internal.h"
#include "screen.h"
#include "timer.h"

#define ROWS_PER_BATCH 4096
/* Records per chunk of the parallel parse: small enough that a library of a few thousand
 * molecules keeps every parse worker busy, large enough for full GPU batches (see screen.h). */
#ifndef PARSE_CHUNK_RECORDS
#define PARSE_CHUNK_RECORDS 1024
#endif

typedef struct {
    size_t index;
    long record, line;
    const char *source; /* owned by the reader, which outlives the writer */
    char name[128];
    int natoms;
    long lig;           /* index among the batch's scored ligands, −1 when not scored */
    char code[16];
    char message[256];
} row;

typedef struct {
    size_t seq;
    row *rows;
    size_t nrows;
    /* scored ligands, structure of arrays */
    uint32_t *start;
    size_t nlig;
    float *x, *y, *z, *q;
    uint8_t *type;
    size_t natoms, cap_atoms;
    vsg_score_result *res;
    vsg_ligand *copies; /* SDF output: one per scored ligand */
    size_t ncopies;
    vsg_place_pose *poses; /* rigid placement: kposes per scored ligand, best first */
    int *nposes;           /* poses kept per scored ligand (0: none) */
    int kposes;
} batch;

typedef struct {
    void **items; /* batches, or chunks of the parallel parse */
    size_t cap, head, n;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} queue;

static int queue_init(queue *q, size_t cap)
{
    q->items = calloc(cap, sizeof *q->items);
    q->cap = cap;
    q->head = q->n = 0;
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->cv, NULL);
    return q->items != NULL;
}

static void queue_free(queue *q)
{
    free(q->items);
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->cv);
}

/* The queues hold at most the pool's batches (plus NULL end markers), so push never waits. */
static void queue_push(queue *q, void *b)
{
    pthread_mutex_lock(&q->mu);
    q->items[(q->head + q->n) % q->cap] = b;
    q->n++;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
}

static void *queue_pop(queue *q)
{
    pthread_mutex_lock(&q->mu);
    while (q->n == 0) pthread_cond_wait(&q->cv, &q->mu);
    void *b = q->items[q->head];
    q->head = (q->head + 1) % q->cap;
    q->n--;
    pthread_mutex_unlock(&q->mu);
    return b;
}

typedef struct pipeline pipeline;

typedef struct {
    pipeline *p;
    vsg_scorer *scorer;
    vsg_kernel kernel; /* after calibration */
    int calibrated;
    double transfer_s, score_s;
    int fell_back;     /* batches scored by the CPU twin after a GPU error */
    uint64_t poses, poses_scored; /* rigid placement */
    pthread_t thread;
} scorer_slot;

struct pipeline {
    const vsg_score_grids *g;
    const vsg_screen_options *o;
    vsg_ligand_reader *reader;
    queue free_q, work_q, done_q;
    batch *pool;
    size_t npool;
    size_t cap_atoms;         /* per batch */
    int max_atoms;
    scorer_slot slots[VSG_SCREEN_MAX_DEVICES];
    int nslots;
    /* written by the reader, read by the writer under progress_mu */
    pthread_mutex_t progress_mu;
    size_t total_batches;     /* valid once reader_done */
    int reader_done;
    uint64_t bytes_done, bytes_total;
    double parse_s;
    vsg_status reader_error;
    /* parallel parse (nparse > 1): the reader thread only cuts chunks; parse workers parse them */
    int nparse;
    struct chunk_item *chunks;
    size_t nchunks;
    queue chunk_free_q, chunk_work_q;
    pthread_t parse_threads[VSG_SCREEN_MAX_PARSE_THREADS];
    vsg_ligand_reader_options reader_opt;
};

/* A chunk of raw records and the batch its rows go to (taken in sequence order by the splitter,
 * so a worker never waits for a batch and the writer's order needs no change). */
typedef struct chunk_item {
    vsg_lig_chunk ch;
    batch *b;
} chunk_item;

/* ---- batches ------------------------------------------------------------------------------- */

static void batch_free(batch *b)
{
    free(b->rows);
    free(b->start);
    free(b->x);
    free(b->y);
    free(b->z);
    free(b->q);
    free(b->type);
    free(b->res);
    free(b->poses);
    free(b->nposes);
    if (b->copies) {
        for (size_t i = 0; i < ROWS_PER_BATCH; i++) vsg_ligand_release(&b->copies[i]);
        free(b->copies);
    }
}

static int batch_alloc(batch *b, size_t cap_atoms, int copies, int kposes)
{
    memset(b, 0, sizeof *b);
    b->cap_atoms = cap_atoms;
    b->rows = malloc(sizeof *b->rows * ROWS_PER_BATCH);
    b->start = malloc(sizeof *b->start * (ROWS_PER_BATCH + 1));
    b->x = malloc(sizeof(float) * cap_atoms);
    b->y = malloc(sizeof(float) * cap_atoms);
    b->z = malloc(sizeof(float) * cap_atoms);
    b->q = malloc(sizeof(float) * cap_atoms);
    b->type = malloc(cap_atoms);
    b->res = malloc(sizeof *b->res * ROWS_PER_BATCH);
    if (kposes > 0) {
        b->kposes = kposes;
        b->poses = malloc(sizeof *b->poses * ROWS_PER_BATCH * (size_t)kposes);
        b->nposes = calloc(ROWS_PER_BATCH, sizeof *b->nposes);
        if (!b->poses || !b->nposes) return 0;
    }
    if (copies) {
        b->copies = malloc(sizeof *b->copies * ROWS_PER_BATCH);
        if (b->copies)
            for (size_t i = 0; i < ROWS_PER_BATCH; i++) vsg_ligand_init(&b->copies[i]);
    }
    return b->rows && b->start && b->x && b->y && b->z && b->q && b->type && b->res && (!copies || b->copies);
}

static void batch_reset(batch *b)
{
    b->nrows = b->nlig = b->natoms = b->ncopies = 0;
    b->start[0] = 0;
}

static vsg_score_batch batch_view(const batch *b)
{
    vsg_score_batch v;
    v.nlig = b->nlig;
    v.natoms = b->natoms;
    v.start = b->start;
    v.x = b->x;
    v.y = b->y;
    v.z = b->z;
    v.q = b->q;
    v.type = b->type;
    return v;
}

/* ---- record preparation (reader thread) ------------------------------------------------------- */

static int map_of_type(const vsg_score_grids *g, const char *t)
{
    for (int i = 0; i < g->nmaps; i++)
        if (i != g->e_map && i != g->d_map && !strcmp(g->types[i], t)) return i;
    return -1;
}

/* Decides whether lig can be scored; on failure marks it (status, code, message). */
static void prepare(pipeline *p, vsg_ligand *lig)
{
    const vsg_screen_options *o = p->o;
    if (lig->status != VSG_OK) return;
    if (lig->natoms == 0) {
        vsg_ligand_fail(lig, VSG_E_DATA, VSG_LIG_NO_ATOMS, "%s:%ld: record %ld: no atoms", lig->source, lig->line,
                        lig->record);
        return;
    }
    for (int i = 0; i < lig->natoms; i++) {
        const vsg_lig_atom *a = &lig->atoms[i];
        if (!isfinite(a->x) || !isfinite(a->y) || !isfinite(a->z)) {
            vsg_ligand_fail(lig, VSG_E_DATA, VSG_LIG_BAD_COORD, "%s:%d: record %ld: atom %d has a non-finite coordinate",
                            lig->source, a->line, lig->record, i + 1);
            return;
        }
    }
    /* charges */
    int want_gasteiger = o->charges == VSG_CHARGES_GASTEIGER || (o->charges == VSG_CHARGES_AUTO && !lig->has_charges);
    if (want_gasteiger) {
        if (vsg_ligand_gasteiger_available()) {
            vsg_status st = vsg_ligand_gasteiger(lig);
            if (st != VSG_OK) {
                vsg_ligand_fail(lig, st, VSG_LIG_NO_CHARGES, "%s:%ld: record %ld: Gasteiger charges failed: %s",
                                lig->source, lig->line, lig->record, vsg_last_error());
                return;
            }
        } else if (!lig->has_charges) {
            vsg_ligand_fail(lig, VSG_E_DATA, VSG_LIG_NO_CHARGES,
                            "%s:%ld: record %ld: no partial charges in the file and this build has no Open Babel "
                            "for Gasteiger charges",
                            lig->source, lig->line, lig->record);
            return;
        } else {
            vsg_ligand_fail(lig, VSG_E_UNSUPPORTED, VSG_LIG_NO_CHARGES,
                            "%s:%ld: record %ld: --charges gasteiger needs Open Babel, absent from this build",
                            lig->source, lig->line, lig->record);
            return;
        }
    } else if (!lig->has_charges) {
        vsg_ligand_fail(lig, VSG_E_DATA, VSG_LIG_NO_CHARGES,
                        "%s:%ld: record %ld: no partial charges in the file (--charges file); try --charges gasteiger",
                        lig->source, lig->line, lig->record);
        return;
    }
    /* AutoDock types for AD4 map sets */
    if (p->g->kind == VSG_SCORE_AD4 && lig->format != VSG_LIG_PDBQT) {
        vsg_ligand_merge_nonpolar_h(lig);
        vsg_status st = vsg_ligand_assign_ad_types(lig);
        if (st != VSG_OK) {
            vsg_ligand_fail(lig, st, VSG_LIG_TYPE, "%s:%ld: record %ld: %s", lig->source, lig->line, lig->record,
                            vsg_last_error());
            return;
        }
    }
    int nonzero = 0;
    for (int i = 0; i < lig->natoms; i++) nonzero |= lig->atoms[i].charge != 0.0;
    if (!nonzero) {
        vsg_ligand_fail(lig, VSG_E_DATA, VSG_LIG_ZERO_CHARGES,
                        "%s:%ld: record %ld: every partial charge is 0 (not scored)", lig->source, lig->line,
                        lig->record);
        return;
    }
    if ((size_t)lig->natoms > p->cap_atoms) {
        vsg_ligand_fail(lig, VSG_E_LIMIT, VSG_LIG_TOO_MANY, "%s:%ld: record %ld: %d atoms, more than a batch holds (%zu)",
                        lig->source, lig->line, lig->record, lig->natoms, p->cap_atoms);
        return;
    }
    if (p->g->kind == VSG_SCORE_AD4) {
        for (int i = 0; i < lig->natoms; i++) {
            const char *t = lig->atoms[i].ad_type;
            if (map_of_type(p->g, t) < 0) {
                vsg_ligand_fail(lig, VSG_E_DATA, VSG_LIG_TYPE, "%s:%d: record %ld: atom %d has type '%s', which the map set lacks",
                                lig->source, lig->atoms[i].line, lig->record, i + 1, t);
                return;
            }
        }
    }
}

static void add_row(batch *b, const vsg_ligand *lig, long lig_index)
{
    row *r = &b->rows[b->nrows++];
    r->index = lig->index;
    r->record = lig->record;
    r->line = lig->line;
    r->source = lig->source;
    snprintf(r->name, sizeof r->name, "%s", lig->name);
    r->natoms = lig->natoms;
    r->lig = lig_index;
    snprintf(r->code, sizeof r->code, "%s", lig->status == VSG_OK ? VSG_LIG_OK : lig->code);
    snprintf(r->message, sizeof r->message, "%s", lig->status == VSG_OK ? "" : lig->message);
}

static void add_ligand(pipeline *p, batch *b, const vsg_ligand *lig)
{
    size_t a0 = b->natoms;
    for (int i = 0; i < lig->natoms; i++) {
        const vsg_lig_atom *a = &lig->atoms[i];
        b->x[a0 + i] = (float)a->x;
        b->y[a0 + i] = (float)a->y;
        b->z[a0 + i] = (float)a->z;
        b->q[a0 + i] = (float)a->charge;
        int t = p->g->kind == VSG_SCORE_AD4 ? map_of_type(p->g, a->ad_type) : -1;
        b->type[a0 + i] = t < 0 ? VSG_SCORE_NO_TYPE : (uint8_t)t;
    }
    b->natoms += (size_t)lig->natoms;
    if (b->copies) {
        if (vsg_ligand_copy(&b->copies[b->nlig], lig) != VSG_OK) {
            /* no memory for the SDF copy: keep the score, write the molecule without its text */
            b->copies[b->nlig].text_len = 0;
        }
        b->ncopies = b->nlig + 1;
    }
    add_row(b, lig, (long)b->nlig);
    b->nlig++;
    b->start[b->nlig] = (uint32_t)b->natoms;
}

/* Adds a prepared record to b as its row (and its atoms when scorable). */
static void batch_add(pipeline *p, batch *b, const vsg_ligand *lig)
{
    if (lig->status == VSG_OK) add_ligand(p, b, lig);
    else add_row(b, lig, -1);
}

/* A parse worker: parses whole chunks into their batches, runs prepare() on every record. */
static void *parse_main(void *arg)
{
    pipeline *p = arg;
    vsg_ligand_reader *rd = NULL;
    vsg_ligand lig;
    double busy = 0.0;
    vsg_ligand_init(&lig);
    if (vsg_ligand_reader_open_chunk(&p->reader_opt, &rd) != VSG_OK) rd = NULL;
    for (;;) {
        chunk_item *it = queue_pop(&p->chunk_work_q);
        if (!it) break;
        batch *b = it->b;
        double t0 = vsg_now();
        if (rd) vsg_ligand_reader_set_chunk(rd, &it->ch);
        while (rd && vsg_ligand_reader_next(rd, &lig) == 1) {
            prepare(p, &lig);
            /* chunks hold fewer lines than a batch holds atoms and fewer records than rows
             * (vsg_ligand_reader_next_chunk), so neither check can trip; kept as a guard */
            if (lig.status == VSG_OK && b->natoms + (size_t)lig.natoms > b->cap_atoms)
                vsg_ligand_fail(&lig, VSG_E_LIMIT, VSG_LIG_TOO_MANY, "%s:%ld: record %ld: no room left in the batch",
                                lig.source, lig.line, lig.record);
            if (b->nrows < ROWS_PER_BATCH) batch_add(p, b, &lig);
        }
        if (!rd && b->nrows == 0) { /* no memory for a chunk reader: say so on every chunk's behalf */
            vsg_ligand_fail(&lig, VSG_E_NOMEM, VSG_LIG_IO, "%s: out of memory for a parse worker", it->ch.source);
            lig.source = it->ch.source;
            add_row(b, &lig, -1);
        }
        busy += vsg_now() - t0;
        queue_push(&p->work_q, b);
        queue_push(&p->chunk_free_q, it);
    }
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(rd);
    pthread_mutex_lock(&p->progress_mu);
    p->parse_s += busy;
    pthread_mutex_unlock(&p->progress_mu);
    return NULL;
}

/* The reader thread of the parallel parse: inflates and cuts the input into chunks, each with
 * the next batch of the sequence, for the parse workers. Returns the batches used, or
 * (size_t)-1 when no worker could start (nothing read: the reader parses alone). */
static size_t split_main(pipeline *p)
{
    size_t seq = 0;
    int started = 0;
    for (int i = 0; i < p->nparse; i++) {
        if (pthread_create(&p->parse_threads[i], NULL, parse_main, p) != 0) break;
        started++;
    }
    if (started == 0) return (size_t)-1;
    for (;;) {
        chunk_item *it = queue_pop(&p->chunk_free_q);
        int got = vsg_ligand_reader_next_chunk(p->reader, &it->ch, PARSE_CHUNK_RECORDS, p->cap_atoms);
        if (got != 1) {
            if (got < 0) {
                p->reader_error = VSG_E_NOMEM;
                vsg_warn("screen: out of memory for a chunk of the input; the rest of it is not read");
            }
            queue_push(&p->chunk_free_q, it);
            break;
        }
        batch *b = queue_pop(&p->free_q);
        batch_reset(b);
        b->seq = seq++;
        it->b = b;
        queue_push(&p->chunk_work_q, it);
        uint64_t done = 0, total = 0;
        vsg_ligand_reader_progress(p->reader, &done, &total);
        pthread_mutex_lock(&p->progress_mu);
        p->bytes_done = done;
        p->bytes_total = total;
        pthread_mutex_unlock(&p->progress_mu);
    }
    for (int i = 0; i < started; i++) queue_push(&p->chunk_work_q, NULL);
    for (int i = 0; i < started; i++) pthread_join(p->parse_threads[i], NULL);
    return seq;
}

static void *reader_main(void *arg)
{
    pipeline *p = arg;
    size_t seq = p->nparse > 1 ? split_main(p) : (size_t)-1;
    if (seq != (size_t)-1) {
        pthread_mutex_lock(&p->progress_mu);
        p->total_batches = seq;
        p->reader_done = 1;
        pthread_mutex_unlock(&p->progress_mu);
        for (int i = 0; i < p->nslots; i++) queue_push(&p->work_q, NULL);
        pthread_mutex_lock(&p->done_q.mu);
        pthread_cond_broadcast(&p->done_q.cv);
        pthread_mutex_unlock(&p->done_q.mu);
        return NULL;
    }
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    seq = 0;
    batch *b = NULL;
    double busy = 0.0;
    for (;;) {
        if (!b) {
            b = queue_pop(&p->free_q);
            batch_reset(b);
            b->seq = seq++;
        }
        double t0 = vsg_now();
        int got = vsg_ligand_reader_next(p->reader, &lig);
        if (got == 1) prepare(p, &lig);
        busy += vsg_now() - t0;
        if (got != 1) break;
        if (lig.status == VSG_OK && b->natoms + (size_t)lig.natoms > b->cap_atoms) {
            /* full: hand it on, continue in a fresh batch */
            queue_push(&p->work_q, b);
            b = queue_pop(&p->free_q);
            batch_reset(b);
            b->seq = seq++;
        }
        batch_add(p, b, &lig);
        if (b->nrows == ROWS_PER_BATCH) {
            queue_push(&p->work_q, b);
            b = NULL;
            uint64_t done = 0, total = 0;
            vsg_ligand_reader_progress(p->reader, &done, &total);
            pthread_mutex_lock(&p->progress_mu);
            p->bytes_done = done;
            p->bytes_total = total;
            pthread_mutex_unlock(&p->progress_mu);
        }
    }
    if (b && b->nrows > 0) queue_push(&p->work_q, b);
    else if (b) { /* an empty last batch goes back unused */
        queue_push(&p->free_q, b);
        seq--;
    }
    vsg_ligand_release(&lig);
    pthread_mutex_lock(&p->progress_mu);
    p->total_batches = seq;
    p->reader_done = 1;
    p->parse_s = busy;
    pthread_mutex_unlock(&p->progress_mu);
    /* one end marker per scorer; the writer learns the count from total_batches */
    for (int i = 0; i < p->nslots; i++) queue_push(&p->work_q, NULL);
    pthread_mutex_lock(&p->done_q.mu); /* wake the writer, which may wait on an empty done queue */
    pthread_cond_broadcast(&p->done_q.cv);
    pthread_mutex_unlock(&p->done_q.mu);
    return NULL;
}

/* ---- scorers ----------------------------------------------------------------------------------- */

/* Rigid placement of every scored ligand of b (CPU twin), best pose(s) into b->poses. */
static void place_batch(scorer_slot *s, batch *b)
{
    const vsg_screen_options *o = s->p->o;
    double t0 = vsg_now();
    for (size_t i = 0; i < b->nrows; i++) {
        row *r = &b->rows[i];
        if (r->lig < 0) continue;
        size_t l = (size_t)r->lig, a0 = b->start[l];
        vsg_place_ligand pl = {b->start[l + 1] - a0, b->x + a0, b->y + a0, b->z + a0, b->q + a0, b->type + a0};
        vsg_place_options po = {o->rotations, o->nrotations, o->box, b->kposes};
        vsg_place_result pr;
        pr.top = b->poses + l * (size_t)b->kposes;
        b->nposes[l] = 0;
        vsg_status st = vsg_place_cpu(s->p->g, &pl, &po, &pr);
        if (st != VSG_OK || !pr.found) {
            r->lig = -1;
            snprintf(r->code, sizeof r->code, "%s", st != VSG_OK ? "error" : VSG_LIG_NO_POSE);
            if (st != VSG_OK)
                snprintf(r->message, sizeof r->message, "placement failed: %s", vsg_last_error());
            else
                snprintf(r->message, sizeof r->message,
                         "%s:%ld: record %ld: none of the %llu poses (%d rotations x %llu sites) keeps every atom "
                         "inside the grid",
                         r->source, r->line, r->record, (unsigned long long)pr.poses, o->nrotations,
                         (unsigned long long)(pr.poses / (uint64_t)o->nrotations));
        } else {
            b->res[l] = pr.best.score;
            b->nposes[l] = pr.ntop;
        }
        if (st == VSG_OK) {
            s->poses += pr.poses;
            s->poses_scored += pr.scored;
        }
    }
    s->score_s += vsg_now() - t0;
}

static void *scorer_main(void *arg)
{
    scorer_slot *s = arg;
    pipeline *p = s->p;
    for (;;) {
        batch *b = queue_pop(&p->work_q);
        if (!b) break;
        if (b->nlig > 0 && p->o->placement == VSG_PLACEMENT_RIGID) {
            place_batch(s, b);
        } else if (b->nlig > 0) {
            vsg_score_batch v = batch_view(b);
            if (!s->calibrated) {
                s->calibrated = 1;
                if (s->kernel == VSG_KERNEL_AUTO) {
                    /* the CPU twin's answer on this batch is the reference */
                    if (vsg_score_cpu(p->g, &v, b->res) == VSG_OK)
                        s->kernel = vsg_scorer_calibrate(s->scorer, &v, b->res, p->o->tolerance, p->o->double_precision);
                    else
                        s->kernel = VSG_KERNEL_CPU;
                }
            }
            vsg_status st = vsg_scorer_score(s->scorer, &v, s->kernel, p->o->double_precision, b->res, &s->transfer_s,
                                             &s->score_s);
            if (st != VSG_OK) {
                /* Never lose the batch: the CPU twin scores it. */
                if (!s->fell_back)
                    vsg_warn("%s: scoring failed (%s); this and failing batches are scored on the CPU",
                             vsg_scorer_name(s->scorer), vsg_last_error());
                s->fell_back++;
                double t0 = vsg_now();
                st = vsg_score_cpu(p->g, &v, b->res);
                s->score_s += vsg_now() - t0;
                if (st != VSG_OK) {
                    for (size_t i = 0; i < b->nrows; i++) {
                        if (b->rows[i].lig < 0) continue;
                        b->rows[i].lig = -1;
                        snprintf(b->rows[i].code, sizeof b->rows[i].code, "%s", "error");
                        snprintf(b->rows[i].message, sizeof b->rows[i].message, "scoring failed: %s", vsg_last_error());
                    }
                }
            }
        }
        queue_push(&p->done_q, b);
    }
    return NULL;
}

/* ---- writer -------------------------------------------------------------------------------------- */

typedef struct {
    double score;
    size_t index;
    vsg_ligand lig;
    vsg_score_result res;
    vsg_place_pose pose; /* rigid placement: the best pose */
    int posed;
} top_entry;

typedef struct {
    top_entry *e;   /* max-heap on (score, index): the worst of the kept ones on top */
    size_t n, cap;
} top_heap;

static int worse(const top_entry *a, const top_entry *b)
{
    return a->score > b->score || (a->score == b->score && a->index > b->index);
}

static void heap_sift_down(top_heap *h, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && worse(&h->e[l], &h->e[m])) m = l;
        if (r < h->n && worse(&h->e[r], &h->e[m])) m = r;
        if (m == i) return;
        top_entry t = h->e[i];
        h->e[i] = h->e[m];
        h->e[m] = t;
        i = m;
    }
}

static void heap_sift_up(top_heap *h, size_t i)
{
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!worse(&h->e[i], &h->e[parent])) return;
        top_entry t = h->e[i];
        h->e[i] = h->e[parent];
        h->e[parent] = t;
        i = parent;
    }
}

/* Offers a scored molecule to the best-N set. */
static void heap_offer(top_heap *h, const vsg_ligand *lig, const vsg_score_result *res, const vsg_place_pose *pp,
                       size_t index)
{
    top_entry cand;
    cand.score = res->total;
    cand.index = index;
    if (h->n == h->cap) {
        if (!worse(&h->e[0], &cand)) return;
        if (vsg_ligand_copy(&h->e[0].lig, lig) != VSG_OK) return;
        h->e[0].score = cand.score;
        h->e[0].index = index;
        h->e[0].res = *res;
        h->e[0].posed = pp != NULL;
        if (pp) h->e[0].pose = *pp;
        heap_sift_down(h, 0);
        return;
    }
    top_entry *e = &h->e[h->n];
    vsg_ligand_init(&e->lig);
    if (vsg_ligand_copy(&e->lig, lig) != VSG_OK) {
        vsg_ligand_release(&e->lig);
        return;
    }
    e->score = cand.score;
    e->index = index;
    e->res = *res;
    e->posed = pp != NULL;
    if (pp) e->pose = *pp;
    h->n++;
    heap_sift_up(h, h->n - 1);
}

static int by_score(const void *a, const void *b)
{
    const top_entry *x = a, *y = b;
    return worse(x, y) ? 1 : worse(y, x) ? -1 : 0;
}

static int fill_tags(vsg_sdf_tag *t, const vsg_score_grids *g, const vsg_score_result *r, long rank)
{
    int n = 0;
    t[n].name = "score_kcal_mol";
    snprintf(t[n++].value, sizeof t[0].value, "%.4f", r->total);
    if (g->kind == VSG_SCORE_AD4) {
        t[n].name = "vdw_hb_kcal_mol";
        snprintf(t[n++].value, sizeof t[0].value, "%.4f", r->vdw_hb);
        t[n].name = "elec_kcal_mol";
        snprintf(t[n++].value, sizeof t[0].value, "%.4f", r->elec);
        t[n].name = "desolv_kcal_mol";
        snprintf(t[n++].value, sizeof t[0].value, "%.4f", r->desolv);
    }
    t[n].name = "atoms_outside";
    snprintf(t[n++].value, sizeof t[0].value, "%d", r->outside);
    if (rank > 0) {
        t[n].name = "rank";
        snprintf(t[n++].value, sizeof t[0].value, "%ld", rank);
    }
    return n;
}

/* The pose's tags (rigid placement): index, rotation quaternion, translation (x' = R·x + T). */
static int fill_pose_tags(vsg_sdf_tag *t, const vsg_place_pose *pp, long pose_rank)
{
    int n = 0;
    t[n].name = "pose_index";
    snprintf(t[n++].value, sizeof t[0].value, "%llu", (unsigned long long)pp->pose);
    t[n].name = "pose_quaternion_wxyz";
    snprintf(t[n++].value, sizeof t[0].value, "%.6f %.6f %.6f %.6f", pp->q.w, pp->q.x, pp->q.y, pp->q.z);
    t[n].name = "pose_translation";
    snprintf(t[n++].value, sizeof t[0].value, "%.4f %.4f %.4f", pp->translation[0], pp->translation[1],
             pp->translation[2]);
    if (pose_rank > 0) {
        t[n].name = "pose_rank";
        snprintf(t[n++].value, sizeof t[0].value, "%ld", pose_rank);
    }
    return n;
}

/* Rigid placement adds, after the score terms: pose_index (rotation × sites + site), the
 * rotation as a unit quaternion pose_qw..pose_qz and the translation pose_tx..pose_tz of the
 * rigid motion x' = R·x + T that takes the input coordinates to the best pose. */
static void write_csv_header(FILE *f, const vsg_score_grids *g, int rigid)
{
    fputs("index,name,source,record,atoms,score_kcal_mol,", f);
    if (g->kind == VSG_SCORE_AD4) fputs("vdw_hb_kcal_mol,elec_kcal_mol,desolv_kcal_mol,", f);
    else fputs("elec_kcal_mol,", f);
    if (rigid) fputs("pose_index,pose_qw,pose_qx,pose_qy,pose_qz,pose_tx,pose_ty,pose_tz,", f);
    fputs("atoms_outside,status,message\n", f);
}

static void write_csv_row(FILE *f, const vsg_score_grids *g, int rigid, const row *r, const vsg_score_result *res,
                          const vsg_place_pose *pp)
{
    fprintf(f, "%zu,", r->index);
    vsg_csv_field(f, r->name);
    fputc(',', f);
    vsg_csv_field(f, r->source);
    fprintf(f, ",%ld,%d,", r->record, r->natoms);
    if (res) {
        fprintf(f, "%.4f,", res->total);
        if (g->kind == VSG_SCORE_AD4) fprintf(f, "%.4f,%.4f,%.4f,", res->vdw_hb, res->elec, res->desolv);
        else fprintf(f, "%.4f,", res->elec);
        if (rigid && pp)
            fprintf(f, "%llu,%.6f,%.6f,%.6f,%.6f,%.4f,%.4f,%.4f,", (unsigned long long)pp->pose, pp->q.w, pp->q.x,
                    pp->q.y, pp->q.z, pp->translation[0], pp->translation[1], pp->translation[2]);
        else if (rigid)
            fputs(",,,,,,,,", f);
        fprintf(f, "%d,", res->outside);
        if (res->outside > 0) {
            char msg[160];
            snprintf(msg, sizeof msg, "%d of %d atoms outside the grid (%s)", res->outside, r->natoms,
                     g->kind == VSG_SCORE_AD4 ? "scored by AutoDock's rule" : "they contribute 0");
            fputs(VSG_LIG_OUTSIDE ",", f);
            vsg_csv_field(f, msg);
        } else {
            fputs("ok,", f);
        }
    } else {
        fputs(g->kind == VSG_SCORE_AD4 ? ",,,,," : ",,,", f);
        if (rigid) fputs(",,,,,,,,", f);
        vsg_csv_field(f, r->code);
        fputc(',', f);
        vsg_csv_field(f, r->message);
    }
    fputc('\n', f);
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

static void show_progress(pipeline *p, const vsg_screen_report *rep, double t0, int final)
{
    pthread_mutex_lock(&p->progress_mu);
    uint64_t done = p->bytes_done, total = p->bytes_total;
    pthread_mutex_unlock(&p->progress_mu);
    double el = vsg_now() - t0;
    double rate = el > 0 ? rep->records / el : 0.0;
    char eta[32] = "";
    if (total > 0 && done > 0 && !final) {
        double left = el * ((double)total / (double)done - 1.0);
        if (left < 0) left = 0;
        snprintf(eta, sizeof eta, ", %.0f%%, ETA %d:%02d", 100.0 * done / total, (int)(left / 60), (int)left % 60);
    }
    fprintf(stderr, "\rvsgrid: %zu records, %zu failed, %.1fk/s%s   %s", rep->records, rep->failed, rate / 1000.0, eta,
            final ? "\n" : "");
    fflush(stderr);
}

vsg_status vsg_screen_run(const vsg_score_grids *g, const vsg_screen_options *o, vsg_screen_report *rep)
{
    memset(rep, 0, sizeof *rep);
    if (!g || !o || !o->csv || o->ninputs < 1 || o->ndevices < 1 || o->ndevices > VSG_SCREEN_MAX_DEVICES)
        return vsg_fail(VSG_E_ARG, "screen: bad arguments");
    const double t_start = vsg_now();
    vsg_status st = VSG_OK;
    pipeline p;
    memset(&p, 0, sizeof p);
    p.g = g;
    p.o = o;
    pthread_mutex_init(&p.progress_mu, NULL);

    /* scorers */
    size_t cap = o->batch_atoms ? o->batch_atoms : (size_t)-1;
    for (int i = 0; i < o->ndevices; i++) {
        scorer_slot *s = &p.slots[i];
        s->p = &p;
        st = vsg_scorer_open(g, o->devices[i], o->max_gpu_memory, &s->scorer);
        if (st != VSG_OK) goto out_scorers;
        p.nslots++;
        size_t c = vsg_scorer_capacity(s->scorer);
        if (c < cap) cap = c;
        vsg_kernel k = o->kernel;
        if (k != VSG_KERNEL_AUTO && !vsg_scorer_supports(s->scorer, k, o->double_precision)) {
            st = vsg_fail(VSG_E_UNSUPPORTED, "kernel %s%s is not available on %s", vsg_kernel_name(k),
                          o->double_precision ? " in double precision" : "", vsg_scorer_name(s->scorer));
            goto out_scorers;
        }
        if (!vsg_scorer_is_gpu(s->scorer)) k = VSG_KERNEL_CPU;
        s->kernel = k;
    }
    if (cap < 1024) cap = 1024;
    if (cap > ((size_t)1 << 30)) cap = (size_t)1 << 30;
    p.cap_atoms = cap;

    /* parse threads: as asked, else the cores the scorers leave, at most 8 */
    p.nparse = o->parse_threads;
    if (p.nparse <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        p.nparse = (int)(cores - p.nslots < 8 ? cores - p.nslots : 8);
    }
    if (p.nparse < 1) p.nparse = 1;
    if (p.nparse > VSG_SCREEN_MAX_PARSE_THREADS) p.nparse = VSG_SCREEN_MAX_PARSE_THREADS;

    /* rigid placement: the rotations and box are the caller's; poses kept per molecule */
    const int rigid = o->placement == VSG_PLACEMENT_RIGID;
    const int kposes = o->top_poses > 1 ? o->top_poses : 1;
    const int poses_sdf = o->poses_path && vsg_ligand_format_of(o->poses_path) == VSG_LIG_SDF;
    if (rigid && (!o->rotations || o->nrotations < 1 || kposes > VSG_SCREEN_MAX_TOP_POSES)) {
        st = vsg_fail(VSG_E_ARG, "screen: rigid placement without rotations, or more than %d poses per molecule",
                      VSG_SCREEN_MAX_TOP_POSES);
        goto out_scorers;
    }
    if (o->poses_path && !rigid) {
        st = vsg_fail(VSG_E_ARG, "screen: --poses-out needs --placement rigid");
        goto out_scorers;
    }

    /* batches and queues */
    p.npool = 2 * (size_t)p.nslots + 2 + (p.nparse > 1 ? (size_t)p.nparse : 0); /* a batch per chunk in work */
    p.pool = calloc(p.npool, sizeof *p.pool);
    if (!p.pool || !queue_init(&p.free_q, p.npool + 1) || !queue_init(&p.work_q, p.npool + VSG_SCREEN_MAX_DEVICES + 1) ||
        !queue_init(&p.done_q, p.npool + 1)) {
        st = vsg_fail(VSG_E_NOMEM, "screen: out of memory for the queues");
        goto out_pool;
    }
    for (size_t i = 0; i < p.npool; i++) {
        if (!batch_alloc(&p.pool[i], cap, o->sdf_path != NULL || o->poses_path != NULL, rigid ? kposes : 0)) {
            st = vsg_fail(VSG_E_NOMEM, "screen: out of host memory for batches of %zu atoms", cap);
            goto out_pool;
        }
        queue_push(&p.free_q, &p.pool[i]);
    }

    vsg_ligand_reader_options ro;
    memset(&ro, 0, sizeof ro);
    ro.format = o->format;
    ro.keep_text = o->sdf_path != NULL || poses_sdf;
    ro.max_atoms = o->max_atoms;
    st = vsg_ligand_reader_open(o->inputs, o->ninputs, &ro, &p.reader);
    if (st != VSG_OK) goto out_pool;
    p.reader_opt = ro;
    if (p.nparse > 1 && !vsg_ligand_reader_splittable(p.reader)) p.nparse = 1;
    if (p.nparse > 1) {
        p.nchunks = (size_t)p.nparse + 2;
        p.chunks = calloc(p.nchunks, sizeof *p.chunks);
        if (!p.chunks || !queue_init(&p.chunk_free_q, p.nchunks + 1) ||
            !queue_init(&p.chunk_work_q, p.nchunks + (size_t)p.nparse + 1)) {
            st = vsg_fail(VSG_E_NOMEM, "screen: out of memory for the parse queues");
            goto out_reader;
        }
        for (size_t i = 0; i < p.nchunks; i++) queue_push(&p.chunk_free_q, &p.chunks[i]);
    }

    FILE *sdf = NULL;
    if (o->sdf_path) {
        sdf = fopen(o->sdf_path, "w");
        if (!sdf) {
            st = vsg_fail(VSG_E_IO, "cannot write %s: %s", o->sdf_path, strerror(errno));
            goto out_reader;
        }
    }
    FILE *poses_f = NULL;
    if (o->poses_path) {
        poses_f = fopen(o->poses_path, "w");
        if (!poses_f) {
            st = vsg_fail(VSG_E_IO, "cannot write %s: %s", o->poses_path, strerror(errno));
            if (sdf) fclose(sdf);
            goto out_reader;
        }
    }
    long poses_model = 0;
    vsg_ligand scratch; /* a pose of --poses-out, moved from the molecule's copy */
    vsg_ligand_init(&scratch);
    top_heap heap = {NULL, 0, 0};
    if (sdf && o->top > 0) {
        heap.cap = (size_t)o->top;
        heap.e = calloc(heap.cap, sizeof *heap.e);
        if (!heap.e) {
            st = vsg_fail(VSG_E_NOMEM, "screen: out of memory for the best %ld molecules", o->top);
            fclose(sdf);
            if (poses_f) fclose(poses_f);
            goto out_reader;
        }
    }

    pthread_t reader_thread;
    if (pthread_create(&reader_thread, NULL, reader_main, &p) != 0) {
        st = vsg_fail(VSG_E_NOMEM, "screen: cannot start the reader thread");
        free(heap.e);
        if (sdf) fclose(sdf);
        if (poses_f) fclose(poses_f);
        goto out_reader;
    }
    int started = 0;
    for (int i = 0; i < p.nslots; i++) {
        if (pthread_create(&p.slots[i].thread, NULL, scorer_main, &p.slots[i]) != 0) break;
        started++;
    }
    if (started == 0) {
        /* cannot happen in practice; the reader's end markers would then wait forever */
        vsg_warn("screen: no scorer thread could start");
        abort();
    }

    /* the writer */
    write_csv_header(o->csv, g, rigid);
    batch **early = calloc(p.npool, sizeof *early);
    size_t next = 0;
    double write_busy = 0.0, last_show = 0.0;
    const int show = o->progress && isatty(2);
    vsg_sdf_tag tags[16];
    for (;;) {
        pthread_mutex_lock(&p.progress_mu);
        int finished = p.reader_done && next == p.total_batches;
        pthread_mutex_unlock(&p.progress_mu);
        if (finished) break;
        /* the batch `next` may already be waiting */
        batch *b = NULL;
        for (size_t i = 0; early && i < p.npool; i++)
            if (early[i] && early[i]->seq == next) {
                b = early[i];
                early[i] = NULL;
                break;
            }
        if (!b) {
            pthread_mutex_lock(&p.done_q.mu);
            while (p.done_q.n == 0) {
                pthread_mutex_lock(&p.progress_mu);
                int fin = p.reader_done && next == p.total_batches;
                pthread_mutex_unlock(&p.progress_mu);
                if (fin) break;
                pthread_cond_wait(&p.done_q.cv, &p.done_q.mu);
            }
            if (p.done_q.n == 0) {
                pthread_mutex_unlock(&p.done_q.mu);
                continue;
            }
            b = p.done_q.items[p.done_q.head];
            p.done_q.head = (p.done_q.head + 1) % p.done_q.cap;
            p.done_q.n--;
            pthread_mutex_unlock(&p.done_q.mu);
            if (b->seq != next) {
                for (size_t i = 0; i < p.npool; i++)
                    if (!early[i]) {
                        early[i] = b;
                        break;
                    }
                continue;
            }
        }
        double t0 = vsg_now();
        for (size_t i = 0; i < b->nrows; i++) {
            row *r = &b->rows[i];
            if (p.nparse > 1) r->index = rep->records; /* chunks number their records from 0 */
            const vsg_score_result *res = r->lig >= 0 ? &b->res[r->lig] : NULL;
            const vsg_place_pose *pp = res && rigid ? b->poses + (size_t)r->lig * (size_t)b->kposes : NULL;
            write_csv_row(o->csv, g, rigid, r, res, pp);
            rep->records++;
            if (res && pp && b->copies) {
                vsg_ligand *lg = &b->copies[r->lig];
                for (int k = 0; poses_f && k < b->nposes[r->lig]; k++) {
                    if (vsg_ligand_copy(&scratch, lg) != VSG_OK) {
                        vsg_warn("%s: record %ld: pose not written: %s", r->source, r->record, vsg_last_error());
                        continue;
                    }
                    double m[9];
                    vsg_quat_to_matrix(&pp[k].q, m);
                    vsg_ligand_move(&scratch, m, pp[k].translation);
                    int nt = fill_tags(tags, g, &pp[k].score, 0);
                    nt += fill_pose_tags(tags + nt, &pp[k], b->nposes[r->lig] > 1 ? k + 1 : 0);
                    vsg_status ws = poses_sdf ? vsg_sdf_write_record(poses_f, &scratch, tags, nt)
                                              : vsg_pdbqt_write_record(poses_f, &scratch, ++poses_model, tags, nt);
                    if (ws != VSG_OK)
                        vsg_warn("%s: record %ld not written to %s: %s", r->source, r->record, o->poses_path,
                                 vsg_last_error());
                }
                /* the copy becomes the best pose for --sdf-out */
                double m[9];
                vsg_quat_to_matrix(&pp[0].q, m);
                vsg_ligand_move(lg, m, pp[0].translation);
            }
            if (res) {
                rep->scored++;
                rep->outside += res->outside > 0;
                rep->atoms += (uint64_t)r->natoms;
                if (sdf && b->copies) {
                    if (heap.e) {
                        heap_offer(&heap, &b->copies[r->lig], res, pp, r->index);
                    } else {
                        int nt = fill_tags(tags, g, res, 0);
                        if (pp) nt += fill_pose_tags(tags + nt, pp, 0);
                        if (vsg_sdf_write_record(sdf, &b->copies[r->lig], tags, nt) != VSG_OK)
                            vsg_warn("%s: record %ld not written to %s: %s", r->source, r->record, o->sdf_path,
                                     vsg_last_error());
                    }
                }
            } else {
                rep->failed++;
                count_code(rep, r->code);
            }
        }
        write_busy += vsg_now() - t0;
        next++;
        queue_push(&p.free_q, b);
        if (show && vsg_now() - last_show > 0.5) {
            show_progress(&p, rep, t_start, 0);
            last_show = vsg_now();
        }
    }
    free(early);
    pthread_join(reader_thread, NULL);
    for (int i = 0; i < started; i++) pthread_join(p.slots[i].thread, NULL);
    if (show) show_progress(&p, rep, t_start, 1);

    if (heap.e) {
        qsort(heap.e, heap.n, sizeof *heap.e, by_score);
        for (size_t i = 0; i < heap.n; i++) {
            int nt = fill_tags(tags, g, &heap.e[i].res, (long)i + 1);
            if (heap.e[i].posed) nt += fill_pose_tags(tags + nt, &heap.e[i].pose, 0);
            if (vsg_sdf_write_record(sdf, &heap.e[i].lig, tags, nt) != VSG_OK)
                vsg_warn("%s: not written: %s", o->sdf_path, vsg_last_error());
            vsg_ligand_release(&heap.e[i].lig);
        }
        free(heap.e);
    }
    vsg_ligand_release(&scratch);
    if (poses_f && fclose(poses_f) != 0) st = vsg_fail(VSG_E_IO, "cannot write %s: %s", o->poses_path, strerror(errno));
    if (sdf && fclose(sdf) != 0) st = vsg_fail(VSG_E_IO, "cannot write %s: %s", o->sdf_path, strerror(errno));
    if (fflush(o->csv) != 0 || ferror(o->csv)) st = vsg_fail(VSG_E_IO, "write error on the CSV output");

    /* report */
    rep->parse_s = p.parse_s;
    rep->write_s = write_busy;
    size_t dl = 0;
    for (int i = 0; i < p.nslots; i++) {
        rep->transfer_s += p.slots[i].transfer_s;
        rep->poses += p.slots[i].poses;
        rep->poses_scored += p.slots[i].poses_scored;
        rep->score_s += p.slots[i].score_s;
        int n = snprintf(rep->device + dl, sizeof rep->device - dl, "%s%s", i ? ", " : "", vsg_scorer_name(p.slots[i].scorer));
        if (n > 0 && (size_t)n < sizeof rep->device - dl) dl += (size_t)n;
    }
    snprintf(rep->kernel, sizeof rep->kernel, "%s", vsg_kernel_name(p.slots[0].kernel));
    snprintf(rep->precision, sizeof rep->precision, "%s",
             p.slots[0].kernel == VSG_KERNEL_CPU || o->double_precision ? "double" : "float");

out_reader:
    if (p.chunks)
        for (size_t i = 0; i < p.nchunks; i++) vsg_lig_chunk_free(&p.chunks[i].ch);
    free(p.chunks);
    if (p.chunk_free_q.items) queue_free(&p.chunk_free_q);
    if (p.chunk_work_q.items) queue_free(&p.chunk_work_q);
    vsg_ligand_reader_close(p.reader);
out_pool:
    if (p.pool)
        for (size_t i = 0; i < p.npool; i++) batch_free(&p.pool[i]);
    free(p.pool);
    if (p.free_q.items) queue_free(&p.free_q);
    if (p.work_q.items) queue_free(&p.work_q);
    if (p.done_q.items) queue_free(&p.done_q);
out_scorers:
    for (int i = 0; i < p.nslots; i++) vsg_scorer_close(p.slots[i].scorer);
    pthread_mutex_destroy(&p.progress_mu);
    rep->seconds = vsg_now() - t_start;
    return st;
}

/* ---- the whole library in memory, for `vsgrid bench` -------------------------------------------- */

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 1;
    size_t n = *cap ? *cap : 4096;
    while (n < need) n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q) return 0;
    *p = q;
    *cap = n;
    return 1;
}

vsg_status vsg_screen_library_load(const vsg_score_grids *g, const vsg_screen_options *o, size_t max_records,
                                   vsg_screen_library *lib)
{
    memset(lib, 0, sizeof *lib);
    pipeline p;
    memset(&p, 0, sizeof p);
    p.g = g;
    p.o = o;
    p.cap_atoms = o->batch_atoms ? o->batch_atoms : 1u << 20;
    vsg_ligand_reader_options ro;
    memset(&ro, 0, sizeof ro);
    ro.format = o->format;
    ro.max_atoms = o->max_atoms;
    vsg_status st = vsg_ligand_reader_open(o->inputs, o->ninputs, &ro, &p.reader);
    if (st != VSG_OK) return st;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    size_t cap_lig = 0, cap_at[5] = {0, 0, 0, 0, 0}, cap_type = 0;
    while ((max_records == 0 || lib->records < max_records) && vsg_ligand_reader_next(p.reader, &lig) == 1) {
        lib->records++;
        prepare(&p, &lig);
        if (lig.status != VSG_OK) {
            lib->failed++;
            continue;
        }
        size_t na = lib->natoms + (size_t)lig.natoms;
        if (!grow((void **)&lib->start, &cap_lig, lib->nlig + 2, sizeof *lib->start) ||
            !grow((void **)&lib->x, &cap_at[0], na, sizeof(float)) || !grow((void **)&lib->y, &cap_at[1], na, sizeof(float)) ||
            !grow((void **)&lib->z, &cap_at[2], na, sizeof(float)) || !grow((void **)&lib->q, &cap_at[3], na, sizeof(float)) ||
            !grow((void **)&lib->type, &cap_type, na, 1)) {
            st = vsg_fail(VSG_E_NOMEM, "bench: out of memory for %zu atoms", na);
            break;
        }
        if (lib->nlig == 0) lib->start[0] = 0;
        for (int i = 0; i < lig.natoms; i++) {
            const vsg_lig_atom *a = &lig.atoms[i];
            size_t k = lib->natoms + (size_t)i;
            lib->x[k] = (float)a->x;
            lib->y[k] = (float)a->y;
            lib->z[k] = (float)a->z;
            lib->q[k] = (float)a->charge;
            int t = g->kind == VSG_SCORE_AD4 ? map_of_type(g, a->ad_type) : -1;
            lib->type[k] = t < 0 ? VSG_SCORE_NO_TYPE : (uint8_t)t;
        }
        lib->natoms = na;
        lib->nlig++;
        lib->start[lib->nlig] = (uint32_t)na;
    }
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(p.reader);
    if (st != VSG_OK) vsg_screen_library_free(lib);
    return st;
}

void vsg_screen_library_free(vsg_screen_library *lib)
{
    free(lib->start);
    free(lib->x);
    free(lib->y);
    free(lib->z);
    free(lib->q);
    free(lib->type);
    memset(lib, 0, sizeof *lib);
}

vsg_score_batch vsg_screen_library_slice(const vsg_screen_library *lib, size_t first, size_t n, uint32_t *start)
{
    vsg_score_batch b;
    const uint32_t a0 = lib->start[first];
    for (size_t i = 0; i <= n; i++) start[i] = lib->start[first + i] - a0;
    b.nlig = n;
    b.natoms = start[n];
    b.start = start;
    b.x = lib->x + a0;
    b.y = lib->y + a0;
    b.z = lib->z + a0;
    b.q = lib->q + a0;
    b.type = lib->type + a0;
    return b;
}
