/* grid_batch.h — several receptors in one `vsgrid grid` process: their names, the output
 * names made from a pattern, the list file, and the table and CSV that give every receptor a
 * row with its status. One process for the lot starts the CUDA runtime and the GPU's context
 * once (0.2–0.35 s on an H100), which is most of a single small grid's time to solution. */
#ifndef VSG_GRID_BATCH_H
#define VSG_GRID_BATCH_H

#include <stddef.h>
#include <stdio.h>

#include "grids/base/vsgrid.h"

/* What {} stands for in output names: the receptor's file name without its directory, a
 * trailing .gz and then one extension ("runs/achbp.pqr.gz" → "achbp"). */
void vsg_batch_name(const char *path, char *out, size_t len);

/* out = pattern with every "{}" replaced by name. 0 when it did not fit in len. */
int vsg_batch_subst(const char *pattern, const char *name, char *out, size_t len);

/* Makes the directories of a file's path that do not exist yet (as mkdir -p of its dirname). */
vsg_status vsg_batch_make_dirs(const char *file);

/* The receptor paths of a list file: one per line; blank lines and lines starting with '#'
 * are skipped, surrounding white space is removed. The caller frees each path and the array. */
vsg_status vsg_batch_read_list(const char *path, char ***paths, size_t *n);

/* One receptor's outcome. */
typedef struct {
    const char *path;
    char name[128];
    int rc;               /* exit code of this receptor alone (0 ok) */
    char message[256];    /* the error, when rc != 0 */
    int n[3];             /* grid nodes per axis (0 when it failed before the box) */
    int iterations;       /* finest level's (PB) */
    double solve_seconds; /* time to solution (PB) or compute time (Coulomb) */
    double device_start_seconds;
    double energy_kt;     /* total grid energy (PB) */
    double seconds;       /* the receptor's whole turn: read, solve, write */
    char device[64];
} vsg_batch_row;

/* "ok", "bad input", "memory limit", ... for an exit code. */
const char *vsg_batch_status(int rc);

/* The table of all rows, and one line of totals, to f. */
void vsg_batch_print(FILE *f, const vsg_batch_row *rows, size_t n, int pb);

/* The rows as CSV (header first); fields with a comma, quote or newline are quoted. */
vsg_status vsg_batch_write_csv(const char *path, const vsg_batch_row *rows, size_t n);

/* An AutoDock4 map set from a gpf (`vsgrid maps --scoring ad4`, cli_grid.c): the same code as
 * `vsgrid grid RECEPTOR --gpf GPF --autogrid-maps PREFIX` with pb's device, threads and memory
 * options, and with elec_pb the PB e map (pb's physics; elec_weight ≤ 0: FE_coeff_estat).
 * Returns the exit code. */
typedef struct {
    const char *receptor, *gpf, *prefix, *json;
    vsg_pb_params pb;
    int elec_pb, quiet;
    int box_checked; /* the caller already warned when no receptor atom is near its box */
    double elec_weight;
} vsg_cli_mapset_job;
int vsg_cli_ad4_mapset(const vsg_cli_mapset_job *job);

#endif
