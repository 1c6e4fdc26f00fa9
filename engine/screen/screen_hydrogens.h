/* screen_hydrogens.h — the count of screened records that had polar hydrogens added
 * (engine/screen/screen_prepare.c), for the screen's summary line. */
#ifndef VSG_SCREEN_HYDROGENS_H
#define VSG_SCREEN_HYDROGENS_H

#include <stddef.h>

#include "grids/base/vsgrid.h"

/* Records of this process's screens so far whose file had no hydrogens and that got their polar
 * hydrogens (vsg_ligand_complete_hydrogens); take it before and after a screen for its count. */
size_t vsg_screen_hydrogens_added(void);
/* Completes lig's polar hydrogens for the screen `screen` (any pointer that identifies it): the
 * first record of a screen that gets some is named in a warning, the others counted; a record
 * whose bonds are broken gets a status. Every screen kind calls it before its checks. */
void vsg_screen_complete_hydrogens(const void *screen, vsg_ligand *lig);

#endif
