/* screen.h — the screening pipeline behind `vsgrid screen`, `vsgrid rescore` and `vsgrid bench`.
 *
 * One reader thread parses the libraries and prepares each record (charges, AutoDock types,
 * checks) into batches; one scorer thread per device (a GPU, or the CPU twin) scores whole
 * batches; the calling thread writes the rows. Batches come from a fixed pool, so at most
 * pool-size batches exist whatever the library size: memory stays bounded, and a slow stage
 * makes the others wait instead of queueing without end. Batches carry a sequence number and
 * the writer emits them in that order, so the output is in input order with any number of
 * devices. Every record yields exactly one row.
 *
 * With parse_threads > 1, the reader thread only cuts the input into chunks of
 * whole records and that many parse workers parse and prepare them, each into the chunk's own
 * batch of the sequence: the same rows, in the same order (screen_pipeline.c).
 */
#ifndef VSG_SCREEN_H
#define VSG_SCREEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ligands/ligand.h"
#include "ligands/place/place_cpu.h"
#include "ligands/score/score.h"
#include "grids/base/vsgrid.h"

#define VSG_SCREEN_MAX_DEVICES 16
#define VSG_SCREEN_CPU (-1) /* a "device" number: the CPU twin */

typedef enum { VSG_CHARGES_AUTO = 0, VSG_CHARGES_FILE, VSG_CHARGES_GASTEIGER } vsg_charges_mode;

/* as-is: every molecule scored where it is; rigid: placed by the exhaustive rigid-body search
 * (ligands/place/place_cpu.h, the CPU twin for now; gpu/place/place_gpu.h is the planned GPU twin). */
typedef enum { VSG_PLACEMENT_AS_IS = 0, VSG_PLACEMENT_RIGID } vsg_placement;
#define VSG_SCREEN_MAX_TOP_POSES 16 /* --top-poses: poses kept per molecule */
#define VSG_LIG_NO_POSE "no_pose"   /* rigid placement: no pose keeps every atom inside the grid */

typedef struct {
    /* input */
    const char *const *inputs;
    int ninputs;
    vsg_ligand_format format;   /* VSG_LIG_AUTO: from each file's extension */
    vsg_charges_mode charges;   /* AUTO: from the file, else Gasteiger when available */
    int max_atoms;              /* larger records get too_many_atoms (0 = 100000) */
    /* scoring */
    vsg_kernel kernel;          /* AUTO: calibrated on the first batch (see screen_scorer.c) */
    int double_precision;       /* GPU kernels in double (those that have it) */
    double tolerance;           /* AUTO: largest |error| per molecule allowed, kcal/mol */
    int ndevices;
    int devices[VSG_SCREEN_MAX_DEVICES]; /* GPU numbers, or VSG_SCREEN_CPU */
    double max_gpu_memory;      /* bytes per device (0 = what is free) */
    size_t batch_atoms;         /* cap on atoms per batch (0 = from the device) */
    /* output */
    FILE *csv;                  /* rows go here (opened by the caller) */
    const char *sdf_path;       /* NULL: no SDF */
    long top;                   /* SDF: the best N (lowest scores); 0 = every scored molecule */
    int progress;               /* a progress line on stderr */
    /* parsing: threads that parse the input in parallel, cut into chunks of whole records.
     * 0 = min(cores - scorer threads, 8), at least 1; 1 = the reader thread parses alone. */
    int parse_threads;
    /* placement (rigid: each scored molecule is placed, per ligand, in the scorer thread; the
     * CSV gains the best pose's columns, see write_csv_header in screen_pipeline.c) */
    vsg_placement placement;
    vsg_place_box box;          /* site box, resolved by the caller */
    const vsg_quat *rotations;  /* the rotation set (owned by the caller) */
    int nrotations;
    int top_poses;              /* poses kept per molecule for poses_path (0 or 1 = the best) */
    const char *poses_path;     /* NULL, or FILE.pdbqt | FILE.sdf: every molecule's best pose(s) */
} vsg_screen_options;

#define VSG_SCREEN_MAX_PARSE_THREADS 64

typedef struct {
    size_t records, scored, failed, outside;  /* outside: scored records with atoms outside */
    size_t by_code_n;
    char by_code[16][16];                     /* failure codes seen ... */
    size_t by_code_count[16];                 /* ... and how often */
    uint64_t atoms;                           /* atoms scored */
    double seconds;                           /* wall time of the pipeline */
    double parse_s, transfer_s, score_s, write_s; /* busy time of each stage */
    /* where the time went, to tell which stage sets the pace (docs/PERFORMANCE.md):
     * parse_threads as used; split_s: the one splitter thread cutting chunks; split_wait_s: it
     * waiting for a free chunk or batch (downstream is slower); scorer_busy_s: the scorer
     * threads on batches, host packing included; scorer_wait_s: the scorers waiting for a
     * batch (the parse is slower); write_wait_s: the writer waiting for the next batch */
    int parse_threads, splitters;             /* splitters: threads cutting the inputs (one per group of files) */
    double split_s, split_wait_s, scorer_busy_s, scorer_wait_s, write_wait_s;
    char kernel[32];                          /* kernel used (after AUTO) */
    char device[160];                         /* devices used */
    char precision[8];
    uint64_t poses, poses_scored;             /* rigid placement: poses tried, and scored
                                                 (the others left the grid) */
} vsg_screen_report;

/* Runs the whole pipeline. Fails (without rows) only when nothing can be scored at all: bad
 * options, a device that cannot be opened, an unwritable output; a bad record never fails it. */
vsg_status vsg_screen_run(const vsg_score_grids *g, const vsg_screen_options *o, vsg_screen_report *rep);

/* ---- the whole library in memory, prepared as the pipeline prepares it (for `vsgrid bench`) ---- */
typedef struct {
    size_t records, failed;      /* records read, and those that cannot be scored */
    size_t nlig, natoms;         /* the scorable ones */
    uint32_t *start;
    float *x, *y, *z, *q;
    uint8_t *type;
} vsg_screen_library;
/* Reads up to max_records records (0 = all) of o->inputs. */
vsg_status vsg_screen_library_load(const vsg_score_grids *g, const vsg_screen_options *o, size_t max_records,
                                   vsg_screen_library *lib);
void vsg_screen_library_free(vsg_screen_library *lib);
/* Ligands [first, first + n) as a batch; start must hold n + 1 entries (filled here). */
vsg_score_batch vsg_screen_library_slice(const vsg_screen_library *lib, size_t first, size_t n, uint32_t *start);

/* ---- scorer: one device's scoring, CPU twin or GPU (screen_scorer.c) --------------------- */
typedef struct vsg_scorer vsg_scorer;
vsg_status vsg_scorer_open(const vsg_score_grids *g, int device, double max_gpu_memory, vsg_scorer **out);
/* Atoms one batch may hold on this scorer. */
size_t vsg_scorer_capacity(const vsg_scorer *s);
int vsg_scorer_supports(const vsg_scorer *s, vsg_kernel k, int double_precision);
/* Scores b with kernel k; adds the stages' seconds to *transfer_s and *kernel_s. */
vsg_status vsg_scorer_score(vsg_scorer *s, const vsg_score_batch *b, vsg_kernel k, int double_precision,
                            vsg_score_result *out, double *transfer_s, double *kernel_s);
/* "cpu (16 threads)" or "NVIDIA H100 80GB HBM3 (GPU 0)". */
const char *vsg_scorer_name(const vsg_scorer *s);
int vsg_scorer_is_gpu(const vsg_scorer *s);
/* The scorer's GPU number, or VSG_SCREEN_CPU. */
int vsg_scorer_device(const vsg_scorer *s);
void vsg_scorer_close(vsg_scorer *s);
/* The fastest kernel on this scorer whose largest |error| per molecule against the CPU twin
 * on batch b is ≤ tolerance (kcal/mol); ref = the twin's results on b. */
vsg_kernel vsg_scorer_calibrate(vsg_scorer *s, const vsg_score_batch *b, const vsg_score_result *ref,
                                double tolerance, int double_precision);

/* ---- SDF output (sdf_writer.c) ------------------------------------------------------------ */
typedef struct {
    const char *name;   /* tag name without the "vsgrid_" prefix, e.g. "score_kcal_mol" */
    char value[64];
} vsg_sdf_tag;
/* Writes one molecule: an SDF input record as read (text kept) with the tags added before
 * its $$$$, or, for other formats, a V2000 molfile built from its atoms and bonds. */
vsg_status vsg_sdf_write_record(FILE *f, const vsg_ligand *lig, const vsg_sdf_tag *tags, int ntags);

/* Moves a molecule rigidly, x' = m·x + t (m row-major): its atoms, and the coordinates of its
 * SDF text (V2000 atom block or V3000 atom lines) so that SDF output keeps the record's other
 * fields; when the text cannot be rewritten it is dropped (output then falls back to a V2000
 * molfile built from the atoms). */
void vsg_ligand_move(vsg_ligand *lig, const double m[9], const double t[3]);
/* Writes one molecule as a rigid AutoDock ligand: MODEL model, REMARK lines (name, source and
 * the tags), ROOT, one ATOM line per atom in the molecule's order (x, y, z, partial charge
 * and AutoDock type columns; the element when it has no type), ENDROOT, TORSDOF 0, ENDMDL. */
vsg_status vsg_pdbqt_write_record(FILE *f, const vsg_ligand *lig, long model, const vsg_sdf_tag *tags, int ntags);

/* CSV field quoting (RFC 4180): quotes a field that holds a comma, quote or line break. */
void vsg_csv_field(FILE *f, const char *s);

#endif
