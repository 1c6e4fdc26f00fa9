/* dock_internal.h — what the flexible-docking files share (ligands/dock/): the ligand's torsion
 * tree in the form the search moves it (dock_tree.c), a conformation and its gradient, the
 * energy the search minimises (dock_energy.c), the local optimiser (dock_bfgs.c), the Monte
 * Carlo chains (dock_search.c) and the counter-based random numbers (dock_rng.h). The public
 * part is vsgrid.h's "Flexible docking (CPU twin)". */
#ifndef VSG_DOCK_INTERNAL_H
#define VSG_DOCK_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "gpu/dock/dock_gpu.h"
#include "grids/base/vsgrid.h"
#include "ligands/score/ad4_intra.h"
#include "ligands/score/vina_internal.h"
#include "ligands/torsions/torsions.h"
#include "ligands/ligand.h"

/* The ligand as the search moves it. Atoms are the Vina model's (vina_ligand.c), in its order.
 * The root body is moved as a rigid body about origin0 (the mean of its atoms in the input);
 * each rotor k turns the atoms of its subtree (sub[sub_start[k] .. sub_start[k+1])) about the
 * bond axis from atom axis[k][0] (parent side) to axis[k][1]. Rotors are listed parents before
 * children (breadth first from the root), so applying them last to first moves a subtree before
 * the bond it hangs from has moved. */
typedef struct {
    int natoms;
    const double *xyz0;     /* input coordinates (the model's), 3 per atom */
    double origin0[3];
    int nrot;
    int (*axis)[2];
    int *sub_start, *sub;
    int nheavy;
    int *heavy;             /* heavy atoms (XS-typed), for RMSD and the inter term */
    double gyration;        /* heavy atoms' radius of gyration about origin0 (Vina's mutation scale) */
    /* flexible side chains (dock_flex.c): atoms [nlig, natoms) are the flex residues', after the
     * ligand's; the rigid move (position, orientation) takes only the first nlig, the flex rotors
     * (listed after the ligand's) turn theirs, as Vina's residues have torsions and no rigid DOF */
    int nlig;               /* atoms the rigid move takes (= natoms without flex residues) */
    double *xyz_own;        /* the combined input coordinates when the tree owns them (xyz0) */
} dock_tree;

/* Builds the tree from the torsions of the record the model was made from (bodies, rotors). */
vsg_status dock_tree_build(const vsg_vina_ligand *l, const int *body, int nbodies, int nrotors, const int (*rotor)[2],
                           int root, dock_tree *t);
void dock_tree_release(dock_tree *t);

/* A conformation: root position (where origin0 goes), orientation (unit quaternion w,x,y,z)
 * and one angle per rotor, relative to the input (all zeros = the input pose at its place). */
typedef struct {
    double pos[3];
    double q[4];
    double *tor;            /* nrot */
} dock_conf;
/* A change (gradient or step): d position, rotation vector, d torsions; n = 6 + nrot floats. */

/* Coordinates of conf c into xyz (3 per atom). */
void dock_conf_apply(const dock_tree *t, const dock_conf *c, double *xyz);
/* c += alpha·d: position and torsions added, orientation turned by the rotation vector alpha·d[3..5]. */
void dock_conf_increment(const dock_tree *t, dock_conf *c, const double *d, double alpha);
void dock_quat_normalize(double q[4]);
void dock_quat_rotate(const double q[4], const double v[3], double out[3]);
/* From atom gradients g (dE/dx, 3 per atom) at coordinates xyz: the change-space gradient
 * (d/dposition = Σ g; d/drotation = Σ (x − pos) × g; d/dtorsion k = axis_k · Σ_subtree (x − x_b) × g). */
void dock_tree_gradient(const dock_tree *t, const dock_conf *c, const double *xyz, const double *g, double *out);

/* Flexible receptor side chains as Vina 1.2 models them (dock_flex.c; public: vsg_flex). Atoms are
 * the flex model's (root atoms of every residue first, then each residue's branches); f->L is the
 * Vina model of that atom set read as one torsion tree whose ROOT holds every residue's root, so
 * its pairs are Vina's other_pairs (flex_i–flex_i beyond 3 bonds, flex_i–flex_j) and its rotors
 * the residues' torsions. movable: Vina's movable atoms (not in a residue's ROOT: "inflex"). */
struct vsg_flex {
    char *path;
    vsg_vina_ligand *L;      /* atoms, XS types, pairs */
    vsg_torsions tor;        /* bodies, rotors */
    int root;                /* the body of the residues' roots (fixed) */
    int nres;
    char *movable;           /* natoms */
    int nmov;                /* movable heavy atoms, listed in mov */
    int *mov;
    int nmov_all;            /* movable atoms, hydrogens too (Vina's num_movable_atoms share) */
    int *file_atom;          /* natoms: the model index of the file's k-th atom line */
    /* the file as read, for writing poses: each line, and the model atom of ATOM/HETATM lines */
    int nlines;
    char **lines;
    int *line_atom;          /* nlines: model atom or −1 */
};

/* The flex part of a docking energy: the pairs it adds to the ligand's (indices into the
 * combined coordinates: ligand atoms first, then the flex model's at offset nlig). */
typedef struct {
    const struct vsg_flex *f;
    int nlig;
    int nlf;                 /* ligand heavy × flex movable heavy pairs (Vina's inter_pairs) */
    int (*lf)[2];
} dock_flex_energy;

/* The search's energy: inter (maps, trilinear, each atom curled at cap v) + intra (pairs, the
 * pair energy linear in r² between Vina's r² samples, curled at v). Smooth pair tables for the
 * type pairs the ligand has are built once. */
typedef struct {
    const vsg_vina_target *t;
    const vsg_vina_ligand *l;
    const dock_tree *tree;
    double *pair_table;      /* per model pair type slot: VINA_TABLE_BINS + 1 samples */
    const struct dock_ad4 *ad4; /* not NULL: the AutoDock4 energy instead (dock_energy_ad4.c) */
    int on_atoms;            /* inter on the receptor's atoms (dock_atoms_inter) instead of the maps:
                                the final refinement, when the map set carries its receptor */
    double slope;            /* on_atoms: kcal/mol per Å outside the maps' box */
    int slot[VSG_XS_COUNT][VSG_XS_COUNT];
    const dock_flex_energy *flex; /* not NULL: flexible side chains (dock_flex.c): inter += ligand–flex
                                     pairs; intra += flex atoms on the maps (or atoms) + flex pairs */
} dock_energy;

vsg_status dock_energy_init(dock_energy *e, const vsg_vina_target *t, const vsg_vina_ligand *l, const dock_tree *tree);
/* The same with flex residues' terms (fe not NULL; fe and tree outlive e). */
vsg_status dock_energy_init_flex(dock_energy *e, const vsg_vina_target *t, const vsg_vina_ligand *l, const dock_tree *tree,
                                 const dock_flex_energy *fe);
void dock_energy_release(dock_energy *e);
/* Energy at xyz; when g is not NULL it receives dE/dx (3 per atom). inter and intra (may be NULL) get the parts.
 * With flex residues xyz and g hold tree->natoms atoms (ligand then flex). */
double dock_energy_eval(const dock_energy *e, const double *xyz, double cap, double *g, double *inter, double *intra);

/* One atom's inter energy on the receptor's atoms of a map set that has them (t->samples), the
 * atom clamped into the maps' box plus slope·(Å outside); curled at v; grad (may be NULL) gets dE/dx. */
double dock_atoms_inter(const vsg_vina_target *t, int xs, const double p[3], double v, double slope, double grad[3]);

/* An AutoGrid map set and AD4 parameters (vsgrid.h's opaque vsg_ad4_target; dock_energy_ad4.c),
 * with its maps on each GPU once the GPU search has used them (dock_ad4_gpu.c). */
#define DOCK_AD4_DEVICES 16
struct vsg_ad4_target {
    vsg_mapset *maps;
    const vsg_score_grids *g;
    vsg_ad4_params par;
    double lo[3], hi[3], center[3];
    pthread_mutex_t gpu_mu;
    dock_gpu_maps *gpu[DOCK_AD4_DEVICES];
};

/* The AutoDock4 energy (dock_energy_ad4.c): inter on an AutoGrid map set (type map + q·e + |q|·d
 * per atom, hydrogens included) + autodock4's intramolecular pairs; what dock_energy_eval
 * returns when e->ad4 is set. */
struct dock_ad4 {
    const vsg_ad4_target *t;
    int natoms;
    uint8_t *type;   /* type map of each atom */
    double *q;
    ad4_intra_tables intra;
};
double dock_ad4_eval(const struct dock_ad4 *a, const double *xyz, double cap, double *g, double *inter, double *intra);
/* The error for record atom i whose AutoDock type has no map in the set (a W water's says how the
 * W map is made): VSG_E_DATA naming file:line and record. */
vsg_status dock_ad4_no_map(const vsg_ligand *lig, int i);

/* Scratch a chain owns (no allocation inside the search loop). */
typedef struct {
    const dock_tree *tree;
    const dock_energy *en;
    int n;                   /* 6 + nrot */
    double *xyz, *g_atoms;   /* 3·natoms each */
    double *h;               /* n·n inverse Hessian */
    double *g, *g_new, *p, *y, *hy, *tor_buf; /* n each; tor_buf 2·nrot for the trial conformations */
    long evals;
} dock_work;

vsg_status dock_work_init(dock_work *w, const dock_tree *t, const dock_energy *en);
void dock_work_release(dock_work *w);
/* Energy and change-space gradient of c (into grad, n floats). */
double dock_eval(dock_work *w, const dock_conf *c, double cap, double *grad);
/* BFGS as Vina's quasi_newton: at most max_steps iterations, backtracking line search; c is
 * replaced by the minimum found (never worse than the start); returns its energy. */
double dock_bfgs(dock_work *w, dock_conf *c, int max_steps, double cap);
/* --local-only's minimisation: dock_bfgs rounds of max_steps at the refining cap until the
 * energy stops falling (at most 21); c becomes that minimum; returns its energy. */
double dock_bfgs_settle(dock_work *w, dock_conf *c, int max_steps);

/* ---- one record made ready, the minima the chains kept, the result (dock_prepare.c, dock_finish.c) ---- */

/* vsg_dock_params with its defaults filled in and checked (VSG_E_ARG names the bad field). */
vsg_status dock_params_resolve(const vsg_dock_params *p, vsg_dock_params *out);

/* A record made ready to dock: its Vina model, torsion tree (root chosen), search energy, and
 * the search's steps resolved for its size. */
typedef struct {
    vsg_vina_ligand *L;
    vsg_ligand work;        /* SDF/MOL2: the typed, merged copy the model was built from */
    vsg_torsions tor;
    dock_tree tree;
    dock_energy en;
    int root;
    int *record_atom;       /* natoms: each model atom's index in the record */
    int steps, local_steps, chain_keep;
    const struct vsg_flex *flex;   /* flexible side chains, or NULL */
    dock_flex_energy fe;
    vsg_flex_pose *flex_out; /* dock_finish fills it (P->poses entries) when set */
} dock_prep;

vsg_status dock_prepare(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_dock_params *P, dock_prep *d);
/* Its first half, which needs no target: the model, the record's atom map, the torsions and the
 * tree with its root (energy, flex and steps left zero), for writing the tree (vsg_dock_tree). */
vsg_status dock_prepare_tree(const vsg_ligand *lig, dock_prep *d);
/* The same with flexible side chains (flex NULL: dock_prepare): the tree and energy take the flex
 * residues' atoms and torsions, steps count their movable atoms and torsions as Vina does. */
vsg_status dock_prepare_flex(const vsg_vina_target *t, const vsg_ligand *lig, const struct vsg_flex *flex,
                             const vsg_dock_params *P, dock_prep *d);

/* dock_flex.c: the tree of ligand + flex residues (lig's tree widened: tree takes ownership of
 * nothing of f), the flex energy's pair list, and the flex terms of a pose as `vina --score_only`
 * forms them (ligand–flex pairs, flex on the rigid receptor, flex pairs; each curled at 1000). */
vsg_status dock_flex_tree(const struct vsg_flex *f, dock_tree *t);
vsg_status dock_flex_energy_init(const struct vsg_flex *f, const vsg_vina_ligand *lig, const dock_tree *t,
                                 dock_flex_energy *fe);
void dock_flex_energy_release(dock_flex_energy *fe);
/* Adds the flex terms at xyz (combined) to *inter and *intra (see dock_energy); g may be NULL. */
void dock_flex_eval(const dock_energy *e, const double *xyz, double cap, double *g, double *inter, double *intra);
/* dock_finish's flex part of pose scoring: fp's terms at flex_model_xyz (model order) with the
 * ligand at shadow->xyz added into score; fp->xyz gets the coordinates in file order. */
void dock_flex_finish_pose(const vsg_vina_target *t, const struct vsg_flex *f, const vsg_vina_ligand *shadow,
                           const double *flex_model_xyz, vsg_vina_score *score, vsg_flex_pose *fp, vsg_status *st);
/* flex_xyz (the flex file's atom order) in the flex model's order, into buf (3 per atom); the
 * model's own coordinates when flex_xyz is NULL. Returns what holds them. */
const double *dock_flex_model_order(const vsg_flex *f, const double *flex_xyz, double *buf);
/* A flex docking call's poses (dock_flex.c): n entries of f's atoms for the search to fill (and
 * one spare, zeroed), and, at the call's end, the hand-off: on success the found ones
 * (out->npose) to *poses and the unused entries' coordinates freed; on failure (st) the poses
 * and out released. Returns st. */
vsg_status dock_flex_poses_new(const vsg_flex *f, int n, vsg_flex_pose **out);
vsg_status dock_flex_poses_hand_off(vsg_status st, vsg_flex_pose *fp, int n, vsg_dock_result *out, vsg_flex_pose **poses);
/* The terms `vina --score_only` adds for flex residues at flex_xyz with the ligand at lig_xyz. */
vsg_status dock_flex_score(const vsg_vina_target *t, const struct vsg_flex *f, const vsg_vina_ligand *lig,
                           const double *lig_xyz, const double *flex_xyz, vsg_flex_pose *out);
void dock_prep_release(dock_prep *d);

/* One minimum a chain kept: its conformation, energy and heavy-atom coordinates (for RMSD). */
typedef struct {
    double e;
    double pos[3], q[4];
    double *tor;   /* nrot */
    double *heavy; /* 3·nheavy */
    int chain, order;
} dock_kept;

/* The Monte Carlo chains of vsg_dock_cpu (dock_search.c) on any energy: P->exhaustiveness
 * chains of `steps` steps, random starts inside [begin, end] (or the input pose), each keeping
 * P->chain_keep minima; *all gets the kept minima of every chain in chain order (*total of
 * them), owned by *store until dock_chains_free. */
typedef struct dock_chains dock_chains;
vsg_status dock_chains_run(const dock_tree *tree, const dock_energy *en, const double begin[3], const double end[3],
                           const vsg_dock_params *P, int steps, int local_steps, dock_chains **store, dock_kept ***all,
                           int *total, long *evals);
void dock_chains_free(dock_chains *c);

/* Merges the kept minima (any order; ranked by energy, then chain, then order), drops those
 * within P->min_rmsd of a better one, and fills out with the best P->poses: coordinates
 * rounded as PDBQT writes them, their search energy and `vina --score_only` score, the tree.
 * out->record_atom is taken from d. */
vsg_status dock_finish(const vsg_vina_target *t, dock_prep *d, dock_kept **all, int total, const vsg_dock_params *P,
                       vsg_dock_result *out);
/* The tree part of a result, from d: natoms, rotors (the ligand's nrotors first rotors of the
 * tree, flex ones after them), root, body, rotor; out->record_atom is taken from d. */
vsg_status dock_result_tree(dock_prep *d, int nrotors, vsg_dock_result *out);
/* Refines the np picked minima on the receptor's atoms of t (t->rxyz; dock_refine.c), in place:
 * conformation, heavy-atom coordinates and energy (inter on the atoms + intra); evals (may be
 * NULL) gets the energy evaluations added. */
vsg_status dock_refine_on_atoms(const vsg_vina_target *t, dock_prep *d, dock_kept **pick, int np, long *evals);
/* A PDBQT record made ready for the AutoDock4 search (dock_energy_ad4.c): its model (atoms = the
 * record's, in order), torsions, tree (root body 0), energy and the steps resolved for its size. */
typedef struct {
    vsg_vina_ligand *L;
    vsg_torsions tor;
    dock_tree tree;
    struct dock_ad4 A;
    dock_energy en;
    int steps, local_steps;
} dock_ad4_prep;
vsg_status dock_ad4_prepare(const vsg_ad4_target *t, const vsg_ligand *lig, const vsg_dock_params *P, dock_ad4_prep *d);
void dock_ad4_prep_release(dock_ad4_prep *d);
/* The kept minima of every chain (any order) into out as vsg_dock_ad4_cpu returns it: ranked by
 * the search's energy, made distinct by RMSD, the best P->poses scored as autodock4's epdb and
 * ordered by that free energy; scores (may be NULL) gets each pose's terms. */
vsg_status dock_ad4_finish(const vsg_ad4_target *t, const vsg_ligand *lig, dock_ad4_prep *d, dock_kept **all, int total,
                           const vsg_dock_params *P, vsg_dock_result *out, vsg_ad4_score *scores);

/* Heavy-atom RMSD between two kept coordinate lists (same order). */
double dock_rmsd_heavy(const double *a, const double *b, int nheavy);

#endif
