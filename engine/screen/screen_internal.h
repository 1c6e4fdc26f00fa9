/* screen_internal.h — the screening pipeline's own types and the pieces its files share
 * (engine/screen/screen_pipeline.c: threads and queues; screen_prepare.c: record preparation;
 * screen_output.c: CSV rows, SDF tags and the best-N set; screen_library.c: the library in
 * memory for `vsgrid bench`). Not part of the public API. */
#ifndef VSG_SCREEN_INTERNAL_H
#define VSG_SCREEN_INTERNAL_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "ligands/score/batch.h"
#include "grids/base/vsgrid.h"
#include "ligands/readers/ligand_reader.h"
#include "engine/screen/screen.h"

#define ROWS_PER_BATCH 4096
#define VSG_SCREEN_MAX_SPLITTERS 16
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
    int has_ad4_intra;  /* AD4 map sets, PDBQT records: autodock4's internal energy (ad4_intra.c) */
    double ad4_intra;
} row;

typedef struct {
    size_t seq;
    /* several splitters (one per group of input files): the writer's order is (file, chunk) */
    int file;            /* the input it came from */
    long chunk;          /* its chunk number within that input */
    int last_in_file;    /* the input's last chunk */
    int splitter;        /* whose quota it counts against until written */
    row *rows;
    size_t nrows;
    vsg_batch at;       /* the scored ligands' atoms (ligands/score/batch.h), ROWS_PER_BATCH ligands at most */
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

typedef struct pipeline pipeline;

typedef struct {
    pipeline *p;
    vsg_scorer *scorer;
    vsg_kernel kernel; /* after calibration */
    int calibrated;
    double transfer_s, score_s;
    double busy_s, wait_s;   /* the thread's time on batches (packing included), and waiting for one */
    int fell_back;     /* batches scored by the CPU twin after a GPU error */
    uint64_t poses, poses_scored; /* rigid placement */
    struct vsg_place_gpu *pg;     /* rigid placement on this scorer's GPU (opened on first use) */
    int pg_off;                   /* 1: place on the CPU twin (no GPU, top-k > 1, or a GPU failure) */
    pthread_t thread;
} scorer_slot;

struct pipeline {
    const vsg_score_grids *g;
    const vsg_screen_options *o;
    const vsg_screen_extra *x; /* never NULL */
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
    volatile int cancelled;   /* the writer could not write (or its caller stopped it): read no more */
    uint64_t bytes_done, bytes_total;
    double parse_s;
    double split_s;           /* the splitter's time cutting chunks (parallel parse) */
    double split_wait_s;      /* ... and waiting for a free chunk or batch (back-pressure) */
    vsg_status reader_error;
    /* parallel parse (nparse > 1): the reader thread only cuts chunks; parse workers parse them */
    int nparse;
    struct chunk_item *chunks;
    size_t nchunks;
    queue chunk_free_q, chunk_work_q;
    pthread_t parse_threads[VSG_SCREEN_MAX_PARSE_THREADS];
    vsg_ligand_reader_options reader_opt;
    /* several splitters (nsplit > 1, several input files, no MPI split): splitter j reads inputs
     * j, j + nsplit, ... with a reader of its own, and may hold at most quota batches that are
     * not yet written (outstanding[j], under quota_mu), so the splitter the writer waits on can
     * always take a free batch */
    int nsplit;
    int nworkers;                 /* parse workers running */
    vsg_ligand_reader *split_readers[VSG_SCREEN_MAX_SPLITTERS];
    int outstanding[VSG_SCREEN_MAX_SPLITTERS];
    int quota;
    pthread_mutex_t quota_mu;
    pthread_cond_t quota_cv;
    uint64_t split_done[VSG_SCREEN_MAX_SPLITTERS], split_total[VSG_SCREEN_MAX_SPLITTERS];
};

/* A chunk of raw records and the batch its rows go to (taken in sequence order by the splitter,
 * so a worker never waits for a batch and the writer's order needs no change). */
typedef struct chunk_item {
    vsg_lig_chunk ch;
    batch *b;
} chunk_item;


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


/* screen_prepare.c */
int vsg_screen_map_of_type(const vsg_score_grids *g, const char *t);
void vsg_screen_prepare(pipeline *p, vsg_ligand *lig);

/* screen_output.c */
void vsg_screen_csv_header(FILE *f, const vsg_score_grids *g, int rigid);
void vsg_screen_csv_row(FILE *f, const vsg_score_grids *g, int rigid, const row *r, const vsg_score_result *res,
                        const vsg_place_pose *pp);
void vsg_screen_count_code(vsg_screen_report *rep, const char *code);
int vsg_screen_score_tags(vsg_sdf_tag *t, const vsg_score_grids *g, const vsg_score_result *r, long rank);
int vsg_screen_pose_tags(vsg_sdf_tag *t, const vsg_place_pose *pp, long pose_rank);
/* by_name (--best-per-molecule): the set holds different names, each at its best record */
void vsg_top_offer(top_heap *h, const vsg_ligand *lig, const vsg_score_result *res, const vsg_place_pose *pp,
                   size_t index, int by_name);
void vsg_top_sort(top_heap *h);

/* --best-per-molecule: records grouped by name (protomers, tautomers, conformers). Each name keeps
 * the row of its best-scored record (lowest score; ties and no scored record: the first) and its
 * record count; vsg_mol_write writes them in the order of each name's first record, the count as
 * a last column `records`. vsg_mol_offer: text, the row without its newline; returns 0 without memory. */
typedef struct mol_table mol_table;
mol_table *vsg_mol_table_new(void);
int vsg_mol_offer(mol_table *t, const char *name, const char *text, int scored, double score);
void vsg_mol_write(const mol_table *t, FILE *f);
void vsg_mol_table_free(mol_table *t);

#endif
