/* screen_pipeline.c — reader → scorers → writer (the design is in screen.h). Record preparation
 * is in screen_prepare.c, what is written (CSV rows, SDF tags, the best-N set) in
 * screen_output.c, the shared types in screen_internal.h.
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
 * Several splitters (several inputs, from 8 parse workers; splitters_for): one splitter reads
 * and cuts ~1–2 GB/s, which a handful of workers keep up with, so a library in many files gets
 * a splitter per group of files: splitter j cuts inputs j, j + nsplit, ... with a reader of its
 * own. Its batches carry (input, chunk) and the writer takes them in that order; each splitter
 * holds at most `quota` batches not yet written, and the pool holds every quota, so the
 * splitter whose input the writer waits for can always take a batch (split_one). Rows are the
 * one-splitter rows byte for byte (tests/cli_screen_parallel.sh, run with 1 and 3 splitters).
 *
 * Rigid placement (o->placement == VSG_PLACEMENT_RIGID): the scorer thread places every scored
 * ligand of its batch, on its GPU (gpu/place/place_gpu.h: GM, float, best pose) when it has one and
 * one pose per molecule is asked, else with the CPU twin vsg_place_cpu (vsgrid.h, "placement"), and
 * keeps its best pose(s) in the batch; a ligand with no pose
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

#include "grids/base/vsgrid.h"
#include "engine/screen/screen_hydrogens.h"
#include "ligands/readers/ligand_reader.h"
#include "engine/screen/screen.h"
#include "grids/base/mpi_env.h" /* MPI (issue 7) */
#include "engine/screen/mpi_screen.h"
#include "engine/screen/screen_internal.h"
#include "gpu/place/place_gpu.h"
#include "ligands/score/ad4_intra.h"

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

/* ---- batches ------------------------------------------------------------------------------- */

static void batch_free(batch *b)
{
    free(b->rows);
    vsg_batch_free(&b->at);
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
    if (vsg_batch_init(&b->at, ROWS_PER_BATCH, cap_atoms) != VSG_OK) return 0;
    b->rows = malloc(sizeof *b->rows * ROWS_PER_BATCH);
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
    return b->rows && b->res && (!copies || b->copies);
}

static void batch_reset(batch *b)
{
    b->nrows = b->ncopies = 0;
    vsg_batch_reset(&b->at);
}

static vsg_score_batch batch_view(const batch *b) { return vsg_batch_view(&b->at); }

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
    r->has_ad4_intra = 0;
    r->ad4_intra = 0.0;
}

static void add_ligand(pipeline *p, batch *b, const vsg_ligand *lig)
{
    vsg_batch *at = &b->at;
    const size_t a0 = at->natoms, l = at->nlig;
    for (int i = 0; i < lig->natoms; i++) {
        const vsg_lig_atom *a = &lig->atoms[i];
        at->x[a0 + i] = (float)a->x;
        at->y[a0 + i] = (float)a->y;
        at->z[a0 + i] = (float)a->z;
        at->q[a0 + i] = (float)a->charge;
        int t = p->g->kind == VSG_SCORE_AD4 ? vsg_screen_map_of_type(p->g, a->ad_type) : -1;
        at->type[a0 + i] = t < 0 ? VSG_SCORE_NO_TYPE : (uint8_t)t;
    }
    vsg_batch_commit(at, (size_t)lig->natoms);
    if (b->copies) {
        if (vsg_ligand_copy(&b->copies[l], lig) != VSG_OK) {
            /* no memory for the SDF copy: keep the score, write the molecule without its text */
            b->copies[l].text_len = 0;
        }
        b->ncopies = l + 1;
    }
    add_row(b, lig, (long)l);
    /* AD4 rows carry the pose's internal energy, term (2) of autodock4's epdb, with the built-in
     * AD4.1 parameters; it needs the PDBQT torsion tree, so other formats leave it empty */
    if (p->g->kind == VSG_SCORE_AD4 && lig->format == VSG_LIG_PDBQT && lig->text) {
        vsg_ad4_params par;
        vsg_ad4_intra_result in;
        row *r = &b->rows[b->nrows - 1];
        if (vsg_ad4_params_builtin(&par) == VSG_OK && vsg_ad4_intra(lig, &par, &in) == VSG_OK)
            r->has_ad4_intra = 1, r->ad4_intra = in.total;
    }
}

/* Reader j's position in its inputs, for the progress line (read by the writer thread): the
 * one reader (j 0), or splitter j's of several; each thread reports its own, the line sums. */
static void publish_progress(pipeline *p, int j, vsg_ligand_reader *rd)
{
    uint64_t done = 0, total = 0;
    vsg_ligand_reader_progress(rd, &done, &total);
    pthread_mutex_lock(&p->progress_mu);
    p->split_done[j] = done;
    p->split_total[j] = total;
    p->bytes_done = p->bytes_total = 0;
    for (int i = 0; i < p->nsplit; i++) p->bytes_done += p->split_done[i], p->bytes_total += p->split_total[i];
    pthread_mutex_unlock(&p->progress_mu);
}

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
            vsg_screen_prepare(p, &lig);
            /* chunks hold fewer lines than a batch holds atoms and fewer records than rows
             * (vsg_ligand_reader_next_chunk), so neither check can trip; kept as a guard */
            if (lig.status == VSG_OK && !vsg_batch_fits(&b->at, (size_t)lig.natoms))
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

/* One splitter of the parallel parse. With one splitter (nsplit 1) it cuts every input, and
 * its batches are numbered in sequence (seq), the writer's order. With several, splitter j cuts
 * inputs j, j + nsplit, ... with a reader of its own; its batches carry (input, chunk), the
 * writer's order then, and it holds at most `quota` batches not yet written. A batch is taken
 * before a chunk item: chunk items come back from the parse workers whatever the writer does,
 * so a splitter never holds an item while it waits for a batch. */
typedef struct {
    pipeline *p;
    int j;
    size_t seq;          /* batches handed out */
    double split, wait;  /* busy cutting, and waiting for a batch or chunk item */
} splitter;

static void quota_take(pipeline *p, int j)
{
    pthread_mutex_lock(&p->quota_mu);
    while (p->outstanding[j] >= p->quota) pthread_cond_wait(&p->quota_cv, &p->quota_mu);
    p->outstanding[j]++;
    pthread_mutex_unlock(&p->quota_mu);
}

static void quota_give(pipeline *p, int j)
{
    pthread_mutex_lock(&p->quota_mu);
    p->outstanding[j]--;
    pthread_cond_broadcast(&p->quota_cv);
    pthread_mutex_unlock(&p->quota_mu);
}

static void *split_one(void *arg)
{
    splitter *a = arg;
    pipeline *p = a->p;
    const int j = a->j, multi = p->nsplit > 1;
    vsg_ligand_reader *rd = multi ? p->split_readers[j] : p->reader;
    int file = j;    /* the input being cut (several splitters) */
    long chunk = 0;  /* its next chunk */
    for (;;) {
        double t0 = vsg_now();
        if (multi) quota_take(p, j);
        batch *b = queue_pop(&p->free_q);
        chunk_item *it = queue_pop(&p->chunk_free_q);
        double t1 = vsg_now();
        int got = p->cancelled ? 0 : vsg_ligand_reader_next_chunk(rd, &it->ch, PARSE_CHUNK_RECORDS, p->cap_atoms);
        double t2 = vsg_now();
        a->wait += t1 - t0;
        a->split += t2 - t1;
        if (got != 1) {
            queue_push(&p->chunk_free_q, it);
            if (got < 0) {
                pthread_mutex_lock(&p->progress_mu);
                p->reader_error = VSG_E_NOMEM;
                pthread_mutex_unlock(&p->progress_mu);
                vsg_warn("screen: out of memory for a chunk of the input; the rest of it is not read");
            }
            if (got < 0 && multi && file < p->o->ninputs) {
                /* the writer waits for every input's last chunk: close this splitter's inputs
                 * with empty ones (rows already written stay) */
                for (; file < p->o->ninputs; file += p->nsplit, chunk = 0) {
                    batch_reset(b);
                    b->file = file, b->chunk = chunk, b->last_in_file = 1, b->splitter = j;
                    queue_push(&p->work_q, b);
                    a->seq++;
                    if (file + p->nsplit < p->o->ninputs) {
                        quota_take(p, j);
                        b = queue_pop(&p->free_q);
                    }
                }
                break;
            }
            queue_push(&p->free_q, b);
            if (multi) quota_give(p, j);
            break;
        }
        batch_reset(b);
        b->seq = a->seq++;
        b->file = file, b->chunk = chunk, b->last_in_file = it->ch.last_in_file, b->splitter = j;
        if (it->ch.last_in_file) file += p->nsplit, chunk = 0;
        else chunk++;
        it->b = b;
        queue_push(&p->chunk_work_q, it);
        publish_progress(p, j, rd);
    }
    return NULL;
}

/* The reader thread of the parallel parse (vsg_screen_run started its workers): runs the
 * splitter(s), which read (and inflate) and cut the inputs into chunks, each with a batch, for
 * the parse workers, then ends the workers. Returns the batches used. split_s is the busiest
 * splitter's time. */
static size_t split_main(pipeline *p)
{
    const int started = p->nworkers;
    splitter sp[VSG_SCREEN_MAX_SPLITTERS];
    pthread_t tid[VSG_SCREEN_MAX_SPLITTERS];
    int running[VSG_SCREEN_MAX_SPLITTERS];
    for (int j = 0; j < p->nsplit; j++) {
        sp[j] = (splitter){p, j, 0, 0.0, 0.0};
        running[j] = p->nsplit > 1 && pthread_create(&tid[j], NULL, split_one, &sp[j]) == 0;
    }
    for (int j = 0; j < p->nsplit; j++) /* one splitter, or one whose thread did not start: here */
        if (!running[j]) split_one(&sp[j]);
    size_t batches = 0;
    for (int j = 0; j < p->nsplit; j++) {
        if (running[j]) pthread_join(tid[j], NULL);
        batches += sp[j].seq;
        if (sp[j].split > p->split_s) p->split_s = sp[j].split;
        if (sp[j].wait > p->split_wait_s) p->split_wait_s = sp[j].wait;
    }
    for (int i = 0; i < started; i++) queue_push(&p->chunk_work_q, NULL);
    for (int i = 0; i < started; i++) pthread_join(p->parse_threads[i], NULL);
    return batches;
}

static void *reader_main(void *arg)
{
    pipeline *p = arg;
    if (p->nparse > 1) { /* parse workers running (vsg_screen_run) */
        const size_t batches = split_main(p);
        pthread_mutex_lock(&p->progress_mu);
        p->total_batches = batches;
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
    size_t seq = 0;
    batch *b = NULL;
    double busy = 0.0;
    for (;;) {
        if (!b) {
            b = queue_pop(&p->free_q);
            batch_reset(b);
            b->seq = seq++;
        }
        double t0 = vsg_now();
        int got = p->cancelled ? 0 : vsg_ligand_reader_next(p->reader, &lig);
        if (got == 1 && p->x->resume && lig.index < p->x->resume_skip) { /* --resume: its row is written */
            busy += vsg_now() - t0;
            continue;
        }
        if (got == 1) vsg_screen_prepare(p, &lig);
        busy += vsg_now() - t0;
        if (got != 1) break;
        if (lig.status == VSG_OK && !vsg_batch_fits(&b->at, (size_t)lig.natoms)) {
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
            publish_progress(p, 0, p->reader);
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

/* One ligand placed on the scorer's GPU (gpu/place/place_gpu.h: GM kernel, float, best pose only).
 * Anything else, or a GPU failure (warned once), sends this and later ligands to the CPU twin. */
static vsg_status place_on_gpu(scorer_slot *s, const vsg_place_ligand *pl, const vsg_place_options *po,
                               vsg_place_result *pr)
{
    const vsg_screen_options *o = s->p->o;
    if (!s->pg) {
        if (!vsg_scorer_is_gpu(s->scorer) || po->top_k > 1 || !vsg_place_gpu_supports(VSG_KERNEL_GM, 0)) {
            s->pg_off = 1;
            return VSG_E_UNSUPPORTED;
        }
        vsg_status st = vsg_place_gpu_open(s->p->g, o->rotations, o->nrotations, vsg_scorer_device(s->scorer),
                                           o->max_gpu_memory, &s->pg);
        if (st != VSG_OK) {
            vsg_warn("%s: GPU placement unavailable (%s): placing on the CPU", vsg_scorer_name(s->scorer),
                     vsg_last_error());
            s->pg_off = 1;
            return st;
        }
    }
    vsg_status st = vsg_place_gpu_run(s->pg, pl, po, VSG_KERNEL_GM, 0, pr);
    if (st != VSG_OK) {
        vsg_warn("%s: GPU placement failed (%s): placing on the CPU from here on", vsg_scorer_name(s->scorer),
                 vsg_last_error());
        s->pg_off = 1;
    }
    return st;
}

/* Rigid placement of every scored ligand of b (CPU twin), best pose(s) into b->poses. */
static void place_batch(scorer_slot *s, batch *b)
{
    const vsg_screen_options *o = s->p->o;
    double t0 = vsg_now();
    for (size_t i = 0; i < b->nrows; i++) {
        row *r = &b->rows[i];
        if (r->lig < 0) continue;
        size_t l = (size_t)r->lig, a0 = b->at.start[l];
        vsg_place_ligand pl = {b->at.start[l + 1] - a0, b->at.x + a0, b->at.y + a0, b->at.z + a0, b->at.q + a0, b->at.type + a0};
        vsg_place_options po = {o->rotations, o->nrotations, o->box, b->kposes};
        vsg_place_result pr;
        pr.top = b->poses + l * (size_t)b->kposes;
        b->nposes[l] = 0;
        vsg_status st = VSG_E_UNSUPPORTED;
        if (!s->pg_off) st = place_on_gpu(s, &pl, &po, &pr);
        if (st != VSG_OK) st = vsg_place_cpu(s->p->g, &pl, &po, &pr);
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
        double t0 = vsg_now();
        batch *b = queue_pop(&p->work_q);
        double t1 = vsg_now();
        s->wait_s += t1 - t0;
        if (!b) break;
        if (!vsg_mpi_owns_batch(b->seq)) { /* MPI (issue 7): another rank scores this batch */
            queue_push(&p->done_q, b);
            continue;
        }
        if (b->at.nlig > 0 && p->o->placement == VSG_PLACEMENT_RIGID) {
            place_batch(s, b);
        } else if (b->at.nlig > 0) {
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
                double tc = vsg_now();
                st = vsg_score_cpu(p->g, &v, b->res);
                s->score_s += vsg_now() - tc;
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
        s->busy_s += vsg_now() - t1;
        queue_push(&p->done_q, b);
    }
    if (s->pg) vsg_place_gpu_close(s->pg); /* on the thread that used it */
    s->pg = NULL;
    return NULL;
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
    char rs[32]; /* thousands a second for screens, seconds a molecule for slow placement */
    if (rate >= 1000) snprintf(rs, sizeof rs, "%.1fk/s", rate / 1000.0);
    else if (rate >= 1 || rep->records == 0) snprintf(rs, sizeof rs, "%.1f/s", rate);
    else snprintf(rs, sizeof rs, "%.3g s a molecule", el / (double)rep->records);
    fprintf(stderr, "\rvsgrid: %zu records, %zu failed, %s%s   %s", rep->records, rep->failed, rs, eta, final ? "\n" : "");
    fflush(stderr);
}

/* The writer's place in the output order: batch `next` of the sequence (one splitter), or chunk
 * `chunk` of input `file` (several splitters). */
typedef struct {
    size_t next;
    int file;
    long chunk;
} write_order;

static int is_next(const pipeline *p, const write_order *w, const batch *b)
{
    return p->nsplit > 1 ? b->file == w->file && b->chunk == w->chunk : b->seq == w->next;
}

static void advance(pipeline *p, write_order *w, const batch *b)
{
    if (p->nsplit > 1) {
        if (b->last_in_file) w->file++, w->chunk = 0;
        else w->chunk++;
        quota_give(p, b->splitter);
    } else {
        w->next++;
    }
}

static int writer_done(pipeline *p, const write_order *w)
{
    pthread_mutex_lock(&p->progress_mu);
    int done = p->nsplit > 1 ? w->file >= p->o->ninputs : p->reader_done && w->next == p->total_batches;
    pthread_mutex_unlock(&p->progress_mu);
    return done;
}

/* Several splitters (VSG_SCREEN_MAX_SPLITTERS at most): with several inputs and parse workers,
 * one per four workers (a splitter cuts MOL2 at ~2 GB/s and inflates gzip at ~1 GB/s, a worker
 * parses ~0.4 GB/s), never more than the inputs; one under the MPI split, whose batch owners
 * follow the one sequence. VSG_SCREEN_SPLITTERS=N overrides it (benchmarks). */
#define SPLIT_LOOKAHEAD 48
#define SPLIT_BATCH_ATOMS ((size_t)1 << 18)

static int splitters_for(const vsg_screen_options *o, int nparse)
{
    if (nparse <= 1 || o->ninputs <= 1 || vsg_mpi_screen_split()) return 1;
    int s = nparse / 4;
    const char *e = getenv("VSG_SCREEN_SPLITTERS");
    if (e && atoi(e) > 0) s = atoi(e);
    if (s > o->ninputs) s = o->ninputs;
    if (s > VSG_SCREEN_MAX_SPLITTERS) s = VSG_SCREEN_MAX_SPLITTERS;
    return s < 1 ? 1 : s;
}

vsg_status vsg_screen_run(const vsg_score_grids *g, const vsg_screen_options *o, vsg_screen_report *rep)
{
    return vsg_screen_run_extra(g, o, NULL, rep);
}

/* --best-per-molecule ranks by the score as the row prints it (its 6th field), so that `vsgrid merge
 * --best-per-molecule`, which reads rows, picks the very same record (issue 26). */
static double printed_score(const char *text)
{
    int field = 0, quoted = 0;
    for (const char *c = text; *c; c++) {
        if (*c == '"') quoted = !quoted;
        else if (*c == ',' && !quoted && ++field == 5) return strtod(c + 1, NULL);
    }
    return 0.0;
}

vsg_status vsg_screen_run_extra(const vsg_score_grids *g, const vsg_screen_options *o, const vsg_screen_extra *x,
                                vsg_screen_report *rep)
{
    static const vsg_screen_extra none;
    if (!x) x = &none;
    memset(rep, 0, sizeof *rep);
    if (!g || !o || !o->csv || o->ninputs < 1 || o->ndevices < 1 || o->ndevices > VSG_SCREEN_MAX_DEVICES)
        return vsg_fail(VSG_E_ARG, "screen: bad arguments");
    const double t_start = vsg_now();
    vsg_status st = VSG_OK;
    pipeline p;
    memset(&p, 0, sizeof p);
    p.g = g;
    p.o = o;
    p.x = x;
    pthread_mutex_init(&p.progress_mu, NULL);
    pthread_mutex_init(&p.quota_mu, NULL);
    pthread_cond_init(&p.quota_cv, NULL);

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
    if (x->resume) p.nparse = 1; /* --resume: the one reader skips the records done, by their index */

    /* rigid placement: the rotations and box are the caller's; poses kept per molecule */
    const int rigid = o->placement == VSG_PLACEMENT_RIGID;
    const int kposes = o->top_poses > 1 ? o->top_poses : 1;
    const int poses_sdf = o->poses_path && vsg_ligand_format_of(o->poses_path) == VSG_LIG_SDF;
    if (rigid && (!o->rotations || o->nrotations < 1 || kposes > VSG_SCREEN_MAX_TOP_POSES)) {
        st = vsg_fail(VSG_E_ARG, "screen: rigid placement without rotations, or more than %d poses per molecule",
                      VSG_SCREEN_MAX_TOP_POSES);
        goto out_scorers;
    }
    /* An electrostatic grid has no repulsion: placed on one, ligands sink into the protein (atoms
     * 0.1–0.25 Å from receptor atoms, scores of −350 to −466 kcal/mol measured on PB grids). */
    if (rigid && g->kind != VSG_SCORE_AD4) {
        st = vsg_fail(VSG_E_ARG, "%s", VSG_SCREEN_STERIC_HINT);
        goto out_scorers;
    }
    if (o->poses_path && !rigid) {
        st = vsg_fail(VSG_E_ARG, "screen: --poses-out needs --placement rigid");
        goto out_scorers;
    }

    /* batches and queues */
    p.npool = 2 * (size_t)p.nslots + 2 + (p.nparse > 1 ? (size_t)p.nparse : 0); /* a batch per chunk in work */
    p.nsplit = splitters_for(o, p.nparse);
    if (p.nsplit > 1) {
        /* each splitter's quota, and a pool that holds them all (split_one). The writer takes
         * inputs in order, so a splitter on a later input runs ahead only as far as its quota:
         * SPLIT_LOOKAHEAD batches (chunks of ~1000 records, batches of at most
         * SPLIT_BATCH_ATOMS atoms: ~1.5 MB each in use) */
        p.quota = (int)((p.npool + (size_t)p.nsplit - 1) / (size_t)p.nsplit) + 1;
        if (p.quota < SPLIT_LOOKAHEAD) p.quota = SPLIT_LOOKAHEAD;
        p.npool = (size_t)p.quota * (size_t)p.nsplit;
        /* never below what one splitter's batches take (the reader's --max-atoms), so that a
         * record's too_many_atoms row does not depend on the number of splitters */
        size_t floor_atoms = o->max_atoms > 0 && (size_t)o->max_atoms > SPLIT_BATCH_ATOMS ? (size_t)o->max_atoms
                                                                                          : SPLIT_BATCH_ATOMS;
        if (cap > floor_atoms) p.cap_atoms = cap = floor_atoms;
    }

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
    ro.keep_text = o->sdf_path != NULL || poses_sdf || g->kind == VSG_SCORE_AD4; /* AD4: ad4_intra's tree */
    ro.max_atoms = o->max_atoms;
    ro.smiles = o->smiles;
    st = vsg_ligand_reader_open(o->inputs, o->ninputs, &ro, &p.reader);
    if (st == VSG_OK && x->ranges) { /* a shard's records (issue 26): the one reader reads them */
        st = vsg_ligand_reader_select(p.reader, x->ranges, x->nranges, x->index);
        p.nparse = 1;
    }
    if (st != VSG_OK) goto out_pool;
    p.reader_opt = ro;
    if (p.nparse > 1 && !vsg_ligand_reader_splittable(p.reader)) p.nparse = 1;
    if (p.nparse <= 1) p.nsplit = 1;
    if (p.nsplit > 1) { /* splitter j: inputs j, j + nsplit, ..., each with a reader of its own */
        const char **paths = malloc(sizeof *paths * (size_t)o->ninputs);
        int ok = paths != NULL;
        for (int j = 0; ok && j < p.nsplit; j++) {
            int n = 0;
            for (int i = j; i < o->ninputs; i += p.nsplit) paths[n++] = o->inputs[i];
            ok = vsg_ligand_reader_open(paths, n, &ro, &p.split_readers[j]) == VSG_OK; /* it copies the paths */
        }
        free(paths);
        if (!ok) { /* no memory: one splitter, as with one input */
            for (int j = 0; j < p.nsplit; j++) vsg_ligand_reader_close(p.split_readers[j]), p.split_readers[j] = NULL;
            p.nsplit = 1;
        }
    }
    if (p.nparse > 1) {
        p.nchunks = (size_t)p.nparse + 2 + (size_t)p.nsplit; /* one in each splitter's hands */
        p.chunks = calloc(p.nchunks, sizeof *p.chunks);
        if (!p.chunks || !queue_init(&p.chunk_free_q, p.nchunks + 1) ||
            !queue_init(&p.chunk_work_q, p.nchunks + (size_t)p.nparse + 1)) {
            st = vsg_fail(VSG_E_NOMEM, "screen: out of memory for the parse queues");
            goto out_reader;
        }
        for (size_t i = 0; i < p.nchunks; i++) queue_push(&p.chunk_free_q, &p.chunks[i]);
    }

    FILE *sdf = NULL;
    char part_path[4200]; /* MPI (issue 7): under the split, SDF and poses go to this rank's parts */
    if (o->sdf_path) {
        sdf = fopen(vsg_mpi_part_path(o->sdf_path, part_path, sizeof part_path), x->resume ? "a" : "w");
        if (!sdf) {
            st = vsg_fail(VSG_E_IO, "cannot write %s: %s", o->sdf_path, strerror(errno));
            goto out_reader;
        }
    }
    FILE *poses_f = NULL;
    if (o->poses_path) {
        poses_f = fopen(vsg_mpi_part_path(o->poses_path, part_path, sizeof part_path), x->resume ? "a" : "w");
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

    /* the parse workers, before the reader and writer: without any, one reader parses alone */
    for (int i = 0; p.nparse > 1 && i < p.nparse; i++) {
        if (pthread_create(&p.parse_threads[i], NULL, parse_main, &p) != 0) break;
        p.nworkers++;
    }
    if (p.nworkers == 0) p.nparse = 1, p.nsplit = 1;
    pthread_t reader_thread;
    if (pthread_create(&reader_thread, NULL, reader_main, &p) != 0) {
        st = vsg_fail(VSG_E_NOMEM, "screen: cannot start the reader thread");
        for (int i = 0; i < p.nworkers; i++) queue_push(&p.chunk_work_q, NULL);
        for (int i = 0; i < p.nworkers; i++) pthread_join(p.parse_threads[i], NULL);
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
    mol_table *mols = NULL; /* --best-per-molecule: rows kept by name, written at the end */
    char *rowbuf = NULL;
    size_t rowlen = 0;
    if (x->best_per_molecule) {
        FILE *m = open_memstream(&rowbuf, &rowlen);
        if (m) vsg_screen_csv_header(m, g, rigid);
        if (m && fclose(m) == 0 && rowlen > 0) fprintf(o->csv, "%.*s,records\n", (int)rowlen - 1, rowbuf);
        free(rowbuf), rowbuf = NULL;
        mols = vsg_mol_table_new();
        if (!mols) st = vsg_fail(VSG_E_NOMEM, "screen: out of memory for --best-per-molecule");
    } else if (!x->resume && !x->no_header) {
        vsg_screen_csv_header(o->csv, g, rigid);
        fflush(o->csv); /* a run stopped at once leaves its header: --resume takes it */
    }
    batch **early = calloc(p.npool, sizeof *early);
    int stopping = 0; /* vsg_screen_stop seen: nothing more is written */
    const size_t h0 = vsg_screen_hydrogens_added();
    write_order wo = {0, 0, 0};
    double write_busy = 0.0, write_wait = 0.0, last_show = 0.0;
    const int show = o->progress && isatty(2);
    vsg_sdf_tag tags[16];
    for (;;) {
        if (writer_done(&p, &wo)) break;
        /* the next batch may already be waiting */
        batch *b = NULL;
        for (size_t i = 0; early && i < p.npool; i++)
            if (early[i] && is_next(&p, &wo, early[i])) {
                b = early[i];
                early[i] = NULL;
                break;
            }
        if (!b) {
            double tw = vsg_now();
            pthread_mutex_lock(&p.done_q.mu);
            while (p.done_q.n == 0) {
                if (writer_done(&p, &wo)) break;
                pthread_cond_wait(&p.done_q.cv, &p.done_q.mu);
            }
            if (p.done_q.n == 0) {
                pthread_mutex_unlock(&p.done_q.mu);
                write_wait += vsg_now() - tw;
                continue;
            }
            b = p.done_q.items[p.done_q.head];
            p.done_q.head = (p.done_q.head + 1) % p.done_q.cap;
            p.done_q.n--;
            pthread_mutex_unlock(&p.done_q.mu);
            write_wait += vsg_now() - tw;
            if (!is_next(&p, &wo, b)) {
                for (size_t i = 0; i < p.npool; i++)
                    if (!early[i]) {
                        early[i] = b;
                        break;
                    }
                continue;
            }
        }
        /* an interrupt (vsg_screen_stop): the readers stop, and no batch after this point is
         * written, so the CSV holds whole rows of a prefix of the input (what --resume reads) */
        if (!stopping && vsg_screen_stop_requested()) stopping = 1, p.cancelled = 1;
        if (stopping) {
            advance(&p, &wo, b);
            queue_push(&p.free_q, b);
            continue;
        }
        double t0 = vsg_now();
        /* MPI (issue 7): another rank's batch only moves the row count on; ours is announced
         * with its first row number for the merge (mpi_env.h). */
        const int mpi_skip = !vsg_mpi_owns_batch(b->seq);
        long sdf_block = -1, poses_block = -1; /* where the SDF and pose parts' block headers are */
        if (!mpi_skip && vsg_mpi_screen_split()) {
            fprintf(o->csv, "#vsgrid-block %zu %zu\n", rep->records, b->nrows);
            if (sdf && !heap.e) sdf_block = vsg_mpi_block_open(sdf, rep->records, b->nrows);
            if (poses_f) poses_block = vsg_mpi_block_open(poses_f, rep->records, b->nrows);
        }
        if (mpi_skip) rep->records += b->nrows;
        for (size_t i = 0; i < b->nrows && !mpi_skip; i++) {
            row *r = &b->rows[i];
            if (p.nparse > 1) r->index = rep->records; /* chunks number their records from 0 */
            const vsg_score_result *res = r->lig >= 0 ? &b->res[r->lig] : NULL;
            const vsg_place_pose *pp = res && rigid ? b->poses + (size_t)r->lig * (size_t)b->kposes : NULL;
            if (!x->best_per_molecule) {
                vsg_screen_csv_row(o->csv, g, rigid, r, res, pp);
            } else if (mols) {
                FILE *m = open_memstream(&rowbuf, &rowlen);
                if (m) vsg_screen_csv_row(m, g, rigid, r, res, pp);
                if (!m || fclose(m) != 0 || rowlen == 0 ||
                    (rowbuf[rowlen - 1] = '\0', !vsg_mol_offer(mols, r->name, rowbuf, res != NULL, res ? printed_score(rowbuf) : 0.0))) {
                    st = vsg_fail(VSG_E_NOMEM, "screen: out of memory for --best-per-molecule");
                    vsg_mol_table_free(mols);
                    mols = NULL;
                }
                free(rowbuf), rowbuf = NULL;
            }
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
                    int nt = vsg_screen_score_tags(tags, g, &pp[k].score, 0);
                    nt += vsg_screen_pose_tags(tags + nt, &pp[k], b->nposes[r->lig] > 1 ? k + 1 : 0);
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
                        vsg_top_offer(&heap, &b->copies[r->lig], res, pp, r->index, x->best_per_molecule);
                    } else {
                        int nt = vsg_screen_score_tags(tags, g, res, 0);
                        if (pp) nt += vsg_screen_pose_tags(tags + nt, pp, 0);
                        if (vsg_sdf_write_record(sdf, &b->copies[r->lig], tags, nt) != VSG_OK)
                            vsg_warn("%s: record %ld not written to %s: %s", r->source, r->record, o->sdf_path,
                                     vsg_last_error());
                    }
                }
            } else {
                rep->failed++;
                vsg_screen_count_code(rep, r->code);
            }
        }
        if (sdf_block >= 0) vsg_mpi_block_close(sdf, sdf_block); /* MPI (issue 7) */
        if (poses_block >= 0) vsg_mpi_block_close(poses_f, poses_block);
        if (ferror(o->csv)) p.cancelled = 1; /* a write error, or the rows' caller stopped: no more reading */
        if (x->resume || x->ranges) { /* a resumable run (a shard): each batch on disk once written */
            fflush(o->csv);
            if (sdf && !heap.e) fflush(sdf);
            if (poses_f) fflush(poses_f);
        }
        write_busy += vsg_now() - t0;
        advance(&p, &wo, b); /* reads b: before b goes back */
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
        vsg_top_sort(&heap);
        for (size_t i = 0; i < heap.n; i++) {
            int nt = vsg_screen_score_tags(tags, g, &heap.e[i].res, (long)i + 1);
            const int rank_tag = nt - 1; /* the vsgrid_rank tag comes last among the score tags */
            if (heap.e[i].posed) nt += vsg_screen_pose_tags(tags + nt, &heap.e[i].pose, 0);
            /* MPI (issue 7): this rank's best go to its part with their row and score; rank 0
             * keeps the best of all and numbers them */
            vsg_status ws = vsg_mpi_screen_split()
                                ? vsg_mpi_top_write(sdf, heap.e[i].score, heap.e[i].index, &heap.e[i].lig, tags, nt, rank_tag)
                                : vsg_sdf_write_record(sdf, &heap.e[i].lig, tags, nt);
            if (ws != VSG_OK)
                vsg_warn("%s: not written: %s", o->sdf_path, vsg_last_error());
            vsg_ligand_release(&heap.e[i].lig);
        }
        free(heap.e);
    }
    if (mols && !stopping) vsg_mol_write(mols, o->csv); /* stopped: no molecule's best is known */
    vsg_mol_table_free(mols);
    vsg_ligand_release(&scratch);
    if (poses_f && fclose(poses_f) != 0) st = vsg_fail(VSG_E_IO, "cannot write %s: %s", o->poses_path, strerror(errno));
    if (sdf && fclose(sdf) != 0) st = vsg_fail(VSG_E_IO, "cannot write %s: %s", o->sdf_path, strerror(errno));
    if (fflush(o->csv) != 0 || ferror(o->csv)) st = vsg_fail(VSG_E_IO, "write error on the CSV output");
    if (stopping && st == VSG_OK)
        st = vsg_fail(VSG_E_STOPPED, "screen stopped after %zu records (their rows are written)", rep->records);
    if (vsg_screen_hydrogens_added() > h0)
        vsg_warn("%zu records had polar hydrogens added (their files had none)", vsg_screen_hydrogens_added() - h0);

    /* report */
    rep->parse_s = p.parse_s;
    rep->write_s = write_busy;
    rep->write_wait_s = write_wait;
    rep->parse_threads = p.nparse;
    rep->splitters = p.nparse > 1 ? p.nsplit : 0;
    rep->split_s = p.split_s;
    rep->split_wait_s = p.split_wait_s;
    size_t dl = 0;
    for (int i = 0; i < p.nslots; i++) {
        rep->transfer_s += p.slots[i].transfer_s;
        rep->poses += p.slots[i].poses;
        rep->poses_scored += p.slots[i].poses_scored;
        rep->score_s += p.slots[i].score_s;
        rep->scorer_busy_s += p.slots[i].busy_s;
        rep->scorer_wait_s += p.slots[i].wait_s;
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
    for (int j = 0; j < VSG_SCREEN_MAX_SPLITTERS; j++) vsg_ligand_reader_close(p.split_readers[j]);
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
    pthread_mutex_destroy(&p.quota_mu);
    pthread_cond_destroy(&p.quota_cv);
    rep->seconds = vsg_now() - t_start;
    return st;
}

