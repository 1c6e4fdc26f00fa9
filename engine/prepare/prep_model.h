/* prep_model.h — internals of receptor preparation (engine/prepare/), shared by its steps:
 * pdb_model.c (reading, residues; nucleic_acids.c: nucleotides) → protonation.c (states at the
 * pH) → hydrogens.c (missing atoms and hydrogens from templates.c) → het_groups.c (cofactors,
 * ions, waters) → polar_hydrogens.c (rotatable polar H and waters' H for hydrogen bonds) →
 * ff_charges.c (PQR) or pdbqt_charges.c (PDBQT) → prepare.c (the pipeline, the text and the
 * summary; prep_buffers.c: the text and atom buffers all of them write). The force-field tables
 * are embedded in ff_data.c (generated from data/forcefields/ by embed_forcefields.py). */
#ifndef VSG_PREP_MODEL_H
#define VSG_PREP_MODEL_H

#include "grids/base/vsgrid.h"

/* NULL-terminated arrays of lines: residue templates (AA.xml, then NA.xml: "RES ATOM x y z
 * BONDS"), AMBER.DAT and PARSE.DAT ("RES ATOM charge radius [type]"). */
extern const char *const vsg_ff_templates[];
extern const char *const vsg_ff_amber[];
extern const char *const vsg_ff_parse[];

/* Template atoms and residues (ideal coordinates with hydrogens, bonds by name); input and
 * output atoms (patom); residues (pres); the input model; one preparation (job). */
enum { MAXB = 6, MAX_TATOMS = 40 };

typedef struct {
    char name[5];
    double x[3];
    char bond[MAXB][5];
    int nb;
} tatom;

typedef struct {
    char name[4];
    tatom a[MAX_TATOMS];
    int n;
} tres;

typedef struct {
    char name[5], resn[4], element[3], chain, icode, altloc;
    int resseq, het, added, line;
    double occ, x[3], q, r;
    char ad[3];
} patom;

typedef struct {
    int first, n;
    char resn[4];     /* as read */
    char ff[5];       /* the template form: HID, HIE, CYX or resn; a nucleotide's DA..DT, RA..RU */
    int kind;         /* 0 amino acid, 1 water, 2 other group, 3 nucleotide */
    int nterm, cterm, tmpl; /* a nucleotide's 5' and 3' ends */
    int prev;         /* the preceding amino acid (nucleotide: O3'–P bonded) of the chain, −1 */
} pres;

typedef struct {
    char *s;
    size_t n, cap;
    int oom;
} sbuf;

typedef struct {
    patom *a;
    int n, cap;
    pres *r;
    int nr, rcap;
} model;

typedef struct {
    model m;            /* input atoms and residues */
    patom *out;         /* output atoms */
    int nout, capout;
    int *res_of;        /* residue of each output atom */
    sbuf notes;
    vsg_prep_summary s;
    int missing_heavy, unplaced, h_dropped, extra_dropped, unknown, waters_kept;
    int organic_groups; /* HETATM groups kept that are not lone ions: a bound ligand may be one */
    int na_dna, na_rna, na_5, na_3, na_gaps; /* nucleotides; 5'/3' ends (H5T, H3T); O3'–P gaps */
} job;

static inline double prep_dist2(const double *a, const double *b)
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return dx * dx + dy * dy + dz * dz;
}

/* prep_buffers.c: text buffers, output atoms */
void prep_printf(sbuf *b, const char *fmt, ...) VSG_PRINTF(2, 3);
int prep_emit(job *j, const patom *a, int res);

/* pdb_model.c */
vsg_status prep_read_pdb(const char *path, model *m, int *altdrop);
void prep_build_residues(job *j);
int prep_is_water(const char *resn);
int prep_res_atom(const model *m, const pres *p, const char *name);

/* nucleic_acids.c: the nucleotides among the residues (kind 3, form, template, 5'/3' ends, O3'–P
 * links), called by prep_build_residues; an input atom name as the template's (O5*, H5'1, OP1,
 * C5M, ...); the other name of a phosphate O (O1P ↔ OP1, as pdb2pqr keeps the input's); PARSE
 * has no DNA */
void prep_nucleic_acids(job *j);
const char *prep_na_template_name(const char *name, char buf[5]);
const char *prep_na_other_name(const char *name);
vsg_status prep_na_check_ff(const job *j, const vsg_prep_options *o);

/* mmcif_model.c: the same model from a PDBx/mmCIF file's _atom_site (notes: chain IDs mapped
 * to one character); whether a file is mmCIF (by content, else by name) */
vsg_status prep_read_mmcif(const char *path, model *m, int *altdrop, sbuf *notes);
int prep_is_mmcif(const char *path);

/* templates.c */
int prep_load_templates(void);
int prep_find_template(const char *resn);
int prep_tatom_index(const tres *r, const char *name);
void prep_residue_template(const pres *p, tres *out);
void prep_superpose(const double (*t)[3], const double (*r)[3], int n, double R[3][3], double ct[3], double cr[3]);

/* protonation.c, hydrogens.c */
void prep_protonation(job *j, const vsg_prep_options *o);
int prep_place_residue(job *j, int r);

/* elements.c: Bondi radius; formal charge of a lone ion (99: not an ion); covalent radius (0:
 * a metal, no covalent bonds inferred) */
double prep_bondi_radius(const char *el);
int prep_ion_charge(const char *el);
double prep_covalent_radius(const char *el);

/* het_groups.c */
vsg_status prep_charge_groups(job *j, const vsg_prep_options *o);
void prep_mark_planar_rings(vsg_ligand *lig, int from);
void prep_mark_oxo_groups(vsg_ligand *lig, int from);
vsg_status prep_spread_formal_charges(vsg_ligand *lig);

/* polar_hydrogens.c: rotatable polar H (Ser, Thr, Tyr, free Cys, Lys NH3+, N-terminal NH3+) and
 * kept waters' H turned for hydrogen bonds, once every residue and group is placed */
vsg_status prep_polar_hydrogens(job *j);

/* ff_charges.c, pdbqt_charges.c */
void prep_charge_residues(job *j, const vsg_prep_options *o);
vsg_status prep_pdbqt_charges(job *j, vsg_ligand *lig);

#endif
