/* dock_gpu.h — the GPU twin of the docking search's chains (ligands/dock/dock_search.c), in
 * gpu/dock/dock_gpu.cu (CUDA builds; gpu/device/gpu_none.c answers VSG_E_UNSUPPORTED without
 * CUDA). The host side (ligands/dock/dock_batch.c) prepares each record as the CPU twin does
 * (dock_prepare), packs the batch below, runs it here, and finishes each record's kept minima
 * on the CPU (dock_finish), so both devices share every step but the chains.
 *
 * Packing: atoms of a record are ordered by rigid body; body 0 is the root and body k + 1 hangs
 * from rotor k; rotors are in the tree's order (parents before children), so the body frames
 * can be formed in one pass and the subtree sums of the gradient in one reverse pass. Each atom's
 * intramolecular partners (both directions: an atom's lane sums its own forces, no atomics, so
 * results repeat bit for bit) carry the XS type pair's row of the pair table, or for a macrocycle
 * glue pair (Meeko's Gk with its CGk) DOCK_GPU_GLUE_ROW (+ 1 for Vinardo): no table, the glue
 * function of ligands/score/vina_glue.h.
 *
 * The AutoDock4 function (dock --scoring ad4; ligands/dock/dock_energy_ad4.c is its CPU twin) runs
 * in the same chains when the batch carries atom charges: every atom, hydrogens too, reads its type
 * map plus q·e + |q|·d (three maps of an AutoGrid set, trilinear; autodock4's 2·500·|r − c|²
 * outside the grid), and each intramolecular partner carries its electrostatic and desolvation
 * scales and its vdW/H-bond table (a row of the batch's vdw_table) instead of an XS pair row; the
 * pair energy is autodock4's r² tables, linear between bins, uncurled, as on the CPU.
 *
 * Flexible side chains (Vina's --flex): their atoms follow the ligand's, their roots in a fixed body
 * (dock_gpu_record.fixed) from which their rotors hang; their movable heavy atoms read the maps,
 * and the ligand–flex and flex–flex pairs are partners with XS rows like the ligand's own.
 *
 * Limits: a record of at most DOCK_GPU_MAX_ATOMS atoms and DOCK_GPU_MAX_ROTORS rotors (one byte
 * per atom index; a body mask); larger records are docked by the CPU twin instead. */
#ifndef VSG_DOCK_GPU_H
#define VSG_DOCK_GPU_H

#include <stdint.h>

#include "grids/base/vsgrid.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DOCK_GPU_MAX_ATOMS 255
#define DOCK_GPU_MAX_ROTORS 32
#define DOCK_GPU_TABLE_SAMPLES 2049 /* VINA_TABLE_BINS + 1 */
#define DOCK_GPU_GLUE_ROW (VSG_XS_COUNT * VSG_XS_COUNT) /* a partner's row: glue pair (Vina; + 1 Vinardo) */
#define DOCK_GPU_MAX_MAPS 32 /* map slots: Vina's VSG_XS_COUNT, or an AutoGrid set's VSG_SCORE_MAX_MAPS */
#define DOCK_GPU_AD4_VDW_SAMPLES 2048    /* autodock4's NEINT: r² bins of 1/32 Å² below its 8 Å cutoff */
#define DOCK_GPU_AD4_SHAPE_SAMPLES 16384 /* autodock4's NDIEL: the electrostatic and desolvation shapes */
#define DOCK_GPU_MAX_KEEP 32 /* distinct minima a GPU chain keeps at most (vsg_dock_params.chain_keep above it: 32) */

/* One record of a batch: offsets into the batch's arrays. */
typedef struct {
    int natoms, nrot;
    int atom0;            /* atoms atom0 .. atom0 + natoms − 1 */
    int body0;            /* body_start[body0 .. body0 + nrot + 1] (relative to atom0) */
    int pstart0;          /* partner_start[pstart0 .. pstart0 + natoms] (absolute partner indices) */
    int rotor0;           /* rotors rotor0 .. rotor0 + nrot − 1 */
    int work0, work_rows; /* work[work0 + 32·row + lane]: the atoms lane sums the energy of */
    int chain0, nchain;   /* the record's chains in the launch */
    int steps, local_steps;
    int stream0;          /* chain c of the launch draws from stream stream0 + c (focus chains
                             continue after the record's exploring chains' streams) */
    int focus_steps;      /* steps of each focus chain */
    float origin0[3];     /* the root's centre in the input (where pos puts it) */
    double gyration;      /* heavy atoms' radius of gyration (the orientation move's scale) */
    uint64_t seed;        /* the record's seed: chain c draws from dock_rng_for(seed, c) */
    int fixed;            /* 1: body nrot + 1 is fixed (identity frame: flexible side chains' roots, whose
                             rotors hang from it; neither the rigid move nor the root's gradient sees it) */
} dock_gpu_record;

/* A batch in host memory, as dock_gpu_run uploads it. */
typedef struct {
    int nrec, nchain;
    dock_gpu_record *rec;
    int *record_of;       /* host only: the caller's index of each packed record */
    int natoms;           /* over the batch */
    float *atom_xyz;      /* 3 per atom: input coordinates */
    int8_t *atom_type;    /* XS type; −1: a hydrogen (no map, no pairs) */
    uint8_t *atom_body;
    int nbody_start;
    int *body_start;      /* per record nrot + 2 entries: atoms of body b are [start[b], start[b+1]) */
    int npartner_start;
    int *partner_start;
    int npartner;
    uint32_t *partner;    /* partner atom (low 8 bits, record-relative) | XS pair row << 8
                             (DOCK_GPU_GLUE_ROW, + 1 for Vinardo: a macrocycle glue pair) */
    int nrotor;
    int *rotor;           /* 4 per rotor: parent body, parent-side atom, child-side atom, 0 */
    float *rotor_axis;    /* 3 per rotor: unit axis, parent side to child side, input frame */
    float *rotor_point;   /* 3 per rotor: the child-side atom in the input (the axis' point) */
    int nwork;
    uint8_t *work;        /* per record 32 × work_rows atom indices (255: none), so that each lane
                             gets about the same number of map reads and pair partners */
    int max_atoms, max_rot;
    int random_start;
    int focus_chains;     /* focus chains a record (vsgrid.h, vsg_dock_params), run as a second
                             launch from the first's best minima; their better minima replace the
                             minimum of the chain they started from, as the CPU twin's merge does
                             with one minimum kept a chain */
    int keep;             /* distinct minima a chain keeps (1 .. DOCK_GPU_MAX_KEEP; 0 is 1): a new
                             minimum within min_rmsd (over the atoms with a map type) of a kept one
                             replaces it when lower, else joins while there is room, else replaces
                             the highest when lower (the CPU twin's kept_add). With focus chains a
                             focus chain's lowest minimum replaces its start chain's lowest when
                             lower (the chain's other minima stay) */
    float min_rmsd;       /* Å */
    double focus_amplitude; /* the focus chains' moves, a fraction (0, 1] of the exploring chains'
                               (1: the same; vsg_dock_params.focus_amplitude, resolved) */
    /* The AutoDock4 function (all NULL for Vina's): atom_type is then each atom's map in the
     * AutoGrid set (every atom has one) and a partner's row (the bits above its atom) its table in
     * vdw_table. */
    float *atom_charge;   /* per atom */
    uint8_t *atom_heavy;  /* per atom: 1 if it counts in the RMSD between kept minima (the tree's heavy atoms:
                             the ligand's); may be set for Vina records too (flex residues: not theirs) */
    float *partner_coef;  /* 2 per partner: electrostatic and desolvation scales (ad4_intra.h) */
    int nvdw;
    float *vdw_table;     /* nvdw × DOCK_GPU_AD4_VDW_SAMPLES: autodock4's smoothed 12-6/12-10 values */
} dock_gpu_batch;

/* A Vina map set and the intramolecular pair table on one device. */
typedef struct dock_gpu_maps dock_gpu_maps;

/* Uploads the maps present (float) and the pair table (VSG_XS_COUNT² rows of
 * DOCK_GPU_TABLE_SAMPLES, the CPU twin's samples in float). */
vsg_status dock_gpu_maps_upload(const int n[3], const double begin[3], const double end[3], const double factor[3],
                                const double *const map[VSG_XS_COUNT], const float *pair_table, int device,
                                dock_gpu_maps **out);
/* An AutoGrid map set for the AutoDock4 function: nmaps float maps (the type maps, e_map and d_map
 * among them) of n nodes on the grid origin + i·spacing, and autodock4's electrostatic and
 * desolvation shapes (DOCK_GPU_AD4_SHAPE_SAMPLES each; ad4_intra.h). */
vsg_status dock_gpu_ad4_maps_upload(const int n[3], const double origin[3], const double spacing[3], int nmaps,
                                    const float *const *map, int e_map, int d_map, const float *elec_shape,
                                    const float *desolv_shape, int device, dock_gpu_maps **out);
void dock_gpu_maps_free(dock_gpu_maps *m);

/* Runs every chain of the batch. out: per chain, keep slots (b->keep, at least 1) of 8 +
 * b->max_rot floats: a kept minimum's energy, position (3), orientation (w, x, y, z), torsions
 * (nrot); energy +inf in a slot the chain did not fill; the slots in no particular order.
 * evals (may be NULL): energy evaluations per chain. */
vsg_status dock_gpu_run(dock_gpu_maps *m, const dock_gpu_batch *b, float *out, long long *evals);

/* The search's energy and change-space gradient of nconf conformations (8 + b->max_rot floats
 * each, as dock_gpu_run writes them, the energy slot ignored) of record rec[i] at cap v, one
 * warp each: e[i] and grad[i·(6 + b->max_rot) ..] — the GPU side of the twins' energy test. */
vsg_status dock_gpu_eval(dock_gpu_maps *m, const dock_gpu_batch *b, const int *rec, const float *conf, int nconf,
                         double v, float *e, float *grad);

#ifdef __cplusplus
}
#endif
#endif
