/* smiles_record.h — a SMILES made into the text of a docking-ready SDF record (internal;
 * smiles_record.c), and that text read back into a record. The SMILES reader (read_smiles.c)
 * makes it in its own process or has a preparing process make it (prepare_workers.h). */
#ifndef VSG_SMILES_RECORD_H
#define VSG_SMILES_RECORD_H

#include <stddef.h>

#include "grids/base/vsgrid.h"
#include "ligands/prepare/smiles_prepare.h"

typedef struct {
    char *text;      /* malloc'ed SDF record: molfile, atom.dprop.PartialCharge, vsgrid_smiles,
                        vsgrid_unassigned_stereo, vsgrid_note when there is one, $$$$. NULL on failure */
    char code[16];   /* VSG_LIG_OK, or the failure's VSG_LIG_* code */
    char why[200];   /* on failure: what went wrong, without file or line */
    char note[256];  /* ok: what the preparation did that a user should know ("" when nothing) */
} vsg_smiles_record;

/* Prepares smiles (name: the record's title) with o: VSG_OK with out->text, else the status
 * with out->code and out->why. Thread-safe as vsg_smiles_prepare is. Free with _free. */
vsg_status vsg_smiles_record_make(const char *smiles, const char *name, const vsg_smiles_prep_options *o,
                                  vsg_smiles_record *out);
void vsg_smiles_record_free(vsg_smiles_record *r);

/* Reads a prepared record's text into lig with the SDF parser, keeping lig's record, line and
 * name (the SMILES line's); every atom's line becomes the record's. 1 ok; else 0 with code (16
 * bytes) and why set and lig's status left for the caller to fail with its own file:line. */
int vsg_lig_parse_prepared(vsg_ligand *lig, const char *text, const char *display, int keep_text, int max_atoms,
                           char *code, char *why, size_t whylen);

#endif
