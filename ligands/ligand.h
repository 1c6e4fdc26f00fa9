/* ligand.h — one record of a ligand library and the streaming reader that yields them: the
 * public part (vsg_ligand, vsg_ligand_reader, formats, AutoDock typing, Gasteiger charges) is
 * in grids/base/vsgrid.h, with the reader's contract; here are the library's own helpers. */
#ifndef VSG_LIGAND_H
#define VSG_LIGAND_H

#include <stddef.h>
#include <stdint.h>

#include "grids/base/vsgrid.h"

/* Deep copy (for queues): dst's buffers are grown as needed. VSG_E_ARG, VSG_E_NOMEM. */
vsg_status vsg_ligand_copy(vsg_ligand *dst, const vsg_ligand *src);
/* Marks lig as failed: status, code and a printf-style message. */
void vsg_ligand_fail(vsg_ligand *lig, vsg_status st, const char *code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
