/* embed_rdkit_none.c — the build has no RDKit: SMILES are built by Open Babel's builder alone
 * (embed_rdkit.h). */
#include <stdio.h>
#include <string.h>

#include "ligands/prepare/embed_rdkit.h"

int vsg_rdkit_available(void) { return 0; }

int vsg_rdkit_smiles_error(const char *smiles, char *why, size_t len)
{
    (void)smiles;
    if (why && len) why[0] = '\0';
    return 0;
}

int vsg_rdkit_embed(const char *smiles, int seed, int max_tries, int ff_iters, int conformers, int enumerate,
                    vsg_rdkit_embedding *out)
{
    (void)smiles, (void)seed, (void)max_tries, (void)ff_iters, (void)conformers, (void)enumerate;
    if (out) {
        memset(out, 0, sizeof *out);
        out->forcefield = "none";
        snprintf(out->why, sizeof out->why, "this vsgrid was built without RDKit");
    }
    return -1;
}
