/* charges_none.c — Gasteiger–Marsili charges in a build without Open Babel: the entry points
 * exist so that callers link, and say plainly that the feature is absent. CMake compiles
 * ligands/typing/charges_obabel.cpp instead when it finds Open Babel 3. */
#include "grids/base/vsgrid.h"
#include "ligands/ligand.h"
#include "ligands/prepare/smiles_prepare.h"

int vsg_ligand_gasteiger_available(void) { return 0; }

void vsg_ob_hold(int on) { (void)on; } /* no Open Babel, no lock */

vsg_status vsg_ligand_gasteiger(vsg_ligand *lig)
{
    (void)lig;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without Open Babel; use --charges file");
}
