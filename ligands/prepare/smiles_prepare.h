/* smiles_prepare.h — a SMILES string made into a docking-ready 3D molecule (internal): the C
 * side of the Open Babel bridge (smiles_obabel.cpp; smiles_none.c in a build without Open
 * Babel). The reader (ligands/readers/read_smiles.c) parses the molfile it returns with the
 * SDF record parser, so the torsion tree, typing and formal charges follow the SDF path. */
#ifndef VSG_SMILES_PREPARE_H
#define VSG_SMILES_PREPARE_H

#include <stddef.h>

#include "grids/base/vsgrid.h"

/* Steepest-descent steps after the 3D build when the options say 0 (docs/PERFORMANCE.md,
 * "Issue 29", has the measurement behind the number). */
#define VSG_SMILES_MIN_STEPS_DEFAULT 100

typedef struct {
    int ph_mode;    /* VSG_PH_DEFAULT, VSG_PH_AT, VSG_PH_NONE (vsgrid.h) */
    double ph;      /* with VSG_PH_AT */
    int stereo;     /* VSG_STEREO_BUILDER, VSG_STEREO_SPECIFIED, VSG_STEREO_ENUMERATE (RDKit only) */
    int min_steps;  /* 0: the conformer generator's default (VSG_SMILES_MIN_STEPS_DEFAULT steepest-descent
                     * steps after Open Babel's builder, VSG_RDKIT_FF_ITERS_DEFAULT iterations after
                     * RDKit's ETKDG); < 0: none (the generator's coordinates) */
    int max_atoms;  /* after hydrogens; 0: 999, the V2000 molfile's limit */
    int embed;      /* VSG_EMBED_DEFAULT, VSG_EMBED_RDKIT, VSG_EMBED_OPENBABEL (vsgrid.h) */
    int conformers; /* <= 1: one conformer; else up to this many that differ in their rings (RDKit
                     * only: embed_rdkit.h, vsg_rdkit_embed) */
} vsg_smiles_prep_options;

typedef struct {
    char *molfile;           /* malloc'ed V2000 molfile through "M  END\n" (free it); NULL on failure */
    char code[16];           /* on failure: a VSG_LIG_* status code */
    char why[200];           /* on failure: what went wrong, without file or line */
    int fragments;           /* disconnected parts of the SMILES */
    char dropped[96];        /* formulas of the parts dropped ("Na+, H2O"), "" when none */
    int unassigned_stereo;   /* stereocentres and stereo double bonds the SMILES left open */
    int inverted_stereo;     /* specified ones the 3D build contradicts (--stereo any keeps it) */
    int charge_in, charge_out; /* net formal charge of the kept part before and after protonation */
    const char *forcefield;  /* the minimisation's force field: "MMFF94", "UFF" or "none" */
    const char *embedder;    /* what made the 3D coordinates: "RDKit ETKDGv3" or "Open Babel" */
    char fallback[160];      /* RDKit was asked for but failed on this molecule (why): Open Babel built it */
    int nextra;              /* options' conformers > 1: further conformers, each a malloc'ed molfile of the
                                same atoms in the same order as molfile's, only the coordinates differ */
    char **extra;
    int isomers;             /* VSG_STEREO_ENUMERATE: the stereoisomers among the conformers (else 1; 0 when
                                the builder was Open Babel's, which does not enumerate) */
    int open_stereo;         /* VSG_STEREO_ENUMERATE: the open centres and double bonds RDKit found */
} vsg_smiles_prep;

/* 1 when this build can prepare SMILES (Open Babel 3 present). */
int vsg_smiles_prepare_available(void);
/* Prepares one SMILES (the string alone, no name). Returns VSG_OK with out->molfile; else the
 * status with out->code and out->why (VSG_E_FORMAT bad_smiles, VSG_E_DATA bad_element /
 * embed_failed / stereo / too_many_atoms, VSG_E_NOMEM, VSG_E_UNSUPPORTED without Open Babel).
 * Thread-safe: several threads may prepare at once. Never throws, never prints. */
vsg_status vsg_smiles_prepare(const char *smiles, const char *title, const vsg_smiles_prep_options *o,
                              vsg_smiles_prep *out);
void vsg_smiles_prep_free(vsg_smiles_prep *p);
/* The isomeric SMILES of a molfile record (a 2D drawing: stereo from its wedges and hashes),
 * malloc'ed into *smiles: VSG_OK, VSG_E_FORMAT (Open Babel cannot read it), VSG_E_UNSUPPORTED
 * (no Open Babel), VSG_E_NOMEM. Thread-safe. */
vsg_status vsg_molblock_smiles(const char *molblock, char **smiles);
/* Takes (on = 1) or gives back (0) the lock on Open Babel's process-wide objects, which every
 * Open Babel call of vsgrid holds (ligands/typing/charges_obabel.cpp): held around a fork, the
 * child's copy of it is free. A no-op without Open Babel. */
void vsg_ob_hold(int on);

#endif
