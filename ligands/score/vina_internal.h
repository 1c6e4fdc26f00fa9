/* vina_internal.h — what the Vina pose-score files share (vina_ligand.c, vina_tables.c,
 * vina_target.c, vina_score.c); the public part is vsgrid.h's "Vina and Vinardo pose scores". */
#ifndef VSG_VINA_INTERNAL_H
#define VSG_VINA_INTERNAL_H

#include "grids/base/vsgrid.h"

#define VINA_CUTOFF_SQR 64.0   /* Å²: Vina's 8 Å cutoff */
#define VINA_TABLE_FACTOR 32.0 /* table bins per Å² of r² */
#define VINA_TABLE_BINS 2048   /* bins below the cutoff: ⌊32 r²⌋ for r² < 64 */
#define VINA_CURL 1000.0       /* Vina's "authentic_v": positive energies e → e·v/(v + e) */
#define VINA_SLOPE 1e6         /* kcal/mol per Å outside the box */

struct vsg_vina_ligand {
    int natoms;
    double *xyz;         /* 3 per atom */
    vsg_xs_type *xs;     /* VSG_XS_NONE for hydrogens */
    int *line;           /* file line of each atom, for messages */
    int npairs;
    int (*pair)[2];
    int nglue;           /* macrocycle glue pairs: glue[k][0] a Gk pseudo-atom, glue[k][1] a CGk carbon */
    int (*glue)[2];
    vsg_vina_ligand_info info;
};

/* One r² table per XS type pair (symmetric), Vina's precalculate "fast" values. */
typedef struct {
    vsg_vina_scoring sf;
    double *bins;        /* VSG_XS_COUNT² × VINA_TABLE_BINS, [(a·VSG_XS_COUNT + b)·BINS + k] */
} vina_tables;

vsg_status vina_tables_build(vsg_vina_scoring sf, vina_tables *t);
void vina_tables_release(vina_tables *t);
/* The pair energy at r² < 64 (the caller checks the cutoff). */
static inline double vina_table_eval(const vina_tables *t, int a, int b, double r2)
{
    return t->bins[((size_t)a * VSG_XS_COUNT + (size_t)b) * VINA_TABLE_BINS + (size_t)(VINA_TABLE_FACTOR * r2)];
}
/* Vina's curl with v = 1000 (positive energies are softened, negative ones kept). */
static inline double vina_curl(double e)
{
    return e > 0 ? e * (VINA_CURL / (VINA_CURL + e)) : e;
}

/* conf_independent's num_tors_div, 1 + w·N_rot: the stored weight is 5·w/0.1 − 1, read back as
 * 0.1·(x + 1), the operations in Vina's order (the last bits matter for equality with vina). */
static inline double vina_num_tors_div(double num_tors)
{
    const double weight = 0.1 * ((5 * VSG_VINA_WEIGHT_ROT / 0.1 - 1) + 1);
    return 1 + weight * num_tors / 5.0;
}

/* The sum of the score table's pair energies of a ligand atom of XS type xs at q with every typed
 * receptor atom within 8 Å (t has receptor atoms): what a Vina map holds at a node, uncurled. */
double vina_atoms_sum(const struct vsg_vina_target *t, int xs, const double q[3]);
/* One atom of XS type xs at p scored as vsg_vina_score_pose scores a ligand atom (on the maps, or
 * on the receptor's atoms in the maps' box), curled, with Vina's out-of-box penalty (*outside
 * counts it): flex residues' atoms (ligands/dock/dock_flex.c). The map of xs must exist. */
double vina_score_atom(const struct vsg_vina_target *t, int xs, const double p[3], int *outside);

struct vsg_vina_target {
    vina_tables tables;
    int is_maps;
    /* map set: Vina's grid geometry (begin, end, factor) and one map per XS type (NULL: absent) */
    int n[3];            /* nodes per axis */
    double begin[3], end[3], factor[3], factor_inv[3], spacing;
    double *map[VSG_XS_COUNT];
    /* receptor: XS-typed atoms sorted into cells of 8 Å */
    int nrec;
    double *rxyz;
    int *rtype;
    double cell_lo[3];
    int ncell[3];
    int *cell_start;     /* ncell product + 1 offsets into the sorted atoms */
    /* a map set with its receptor's atoms too (vsg_vina_target_add_receptor): each XS type
     * pair's energy at r² = k/32 Å² (k = 0 .. VINA_TABLE_BINS; the analytic terms), the
     * linear-in-r² function that final poses are refined on (dock_energy_atoms.c) */
    double *samples;
    /* what the docking batch keeps with the target between calls (ligands/dock/dock_batch.c:
     * the float pair table and the map sets on each GPU), freed with it */
    void *dock_cache;
    void (*dock_cache_free)(void *);
};

#endif
