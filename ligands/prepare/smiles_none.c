/* smiles_none.c — SMILES preparation in a build without Open Babel: the entry points exist so
 * that callers link, and every SMILES record says plainly that the feature is absent (status
 * unsupported). CMake compiles ligands/prepare/smiles_obabel.cpp instead when it finds Open
 * Babel 3. */
#include <stdio.h>
#include <string.h>

#include "ligands/prepare/smiles_prepare.h"

int vsg_smiles_prepare_available(void) { return 0; }

vsg_status vsg_smiles_prepare(const char *smiles, const char *title, const vsg_smiles_prep_options *o,
                              vsg_smiles_prep *out)
{
    (void)smiles;
    (void)title;
    (void)o;
    if (!out) return VSG_E_ARG;
    memset(out, 0, sizeof *out);
    out->forcefield = out->embedder = "none";
    snprintf(out->code, sizeof out->code, "%s", VSG_LIG_UNSUPPORTED);
    snprintf(out->why, sizeof out->why,
             "this vsgrid was built without Open Babel, which SMILES input needs: give 3D SDF/MOL2/PDBQT, or "
             "rebuild with Open Babel 3 (VSG_OPENBABEL)");
    return VSG_E_UNSUPPORTED;
}

void vsg_smiles_prep_free(vsg_smiles_prep *p)
{
    (void)p;
}

vsg_status vsg_molblock_smiles(const char *molblock, char **smiles)
{
    (void)molblock;
    if (smiles) *smiles = NULL;
    return VSG_E_UNSUPPORTED;
}
