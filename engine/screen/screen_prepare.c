/* screen_prepare.c — record preparation for the screening pipeline: whether a record can be
 * scored, and its charges and AutoDock types (the order of the checks is in screen_pipeline.c). */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "engine/screen/screen_internal.h"
#include "engine/screen/screen_hydrogens.h"

/* ---- record preparation (reader thread) ------------------------------------------------------- */

int vsg_screen_map_of_type(const vsg_score_grids *g, const char *t)
{
    for (int i = 0; i < g->nmaps; i++)
        if (i != g->e_map && i != g->d_map && !strcmp(g->types[i], t)) return i;
    return -1;
}

/* Records of this process's screens that had polar hydrogens added, and the pipeline that last
 * warned: the first such record of a screen gets a warning naming it and its atoms, the others
 * are counted (rows of ok records carry no message; a screen of millions must not print
 * millions of lines). vsg_screen_hydrogens_added() gives the count, for a summary line. */
static atomic_size_t hydrogens_records;
static _Atomic(const void *) hydrogens_warned;

size_t vsg_screen_hydrogens_added(void) { return atomic_load(&hydrogens_records); }

void vsg_screen_complete_hydrogens(const void *p, vsg_ligand *lig)
{
    if (lig->status != VSG_OK) return;
    int added = 0;
    const void *last = atomic_load(&hydrogens_warned);
    const int first = last != (const void *)p;
    vsg_status st = vsg_ligand_complete_hydrogens(lig, &added, 0);
    if (st != VSG_OK) {
        vsg_ligand_fail(lig, st, VSG_LIG_PARSE, "%s:%ld: record %ld: %s", lig->source, lig->line, lig->record,
                        vsg_last_error());
        return;
    }
    if (!added) return;
    atomic_fetch_add(&hydrogens_records, 1);
    if (first && atomic_compare_exchange_strong(&hydrogens_warned, &last, (const void *)p))
        vsg_warn("%s:%ld: record %ld: %d polar hydrogen%s added (the file has no hydrogens; neutral valence, no pH "
                 "model); other records of this screen that need them get them without a warning: add them yourself "
                 "for control over protonation",
                 lig->source, lig->line, lig->record, added, added == 1 ? "" : "s");
}

/* Decides whether lig can be scored; on failure marks it (status, code, message). */
void vsg_screen_prepare(pipeline *p, vsg_ligand *lig)
{
    const vsg_screen_options *o = p->o;
    if (lig->status != VSG_OK) return;
    if (lig->natoms == 0) {
        vsg_ligand_fail(lig, VSG_E_DATA, VSG_LIG_NO_ATOMS, "%s:%ld: record %ld: no atoms", lig->source, lig->line,
                        lig->record);
        return;
    }
    for (int i = 0; i < lig->natoms; i++) {
        const vsg_lig_atom *a = &lig->atoms[i];
        if (!isfinite(a->x) || !isfinite(a->y) || !isfinite(a->z)) {
            vsg_ligand_fail(lig, VSG_E_DATA, VSG_LIG_BAD_COORD, "%s:%d: record %ld: atom %d has a non-finite coordinate",
                            lig->source, a->line, lig->record, i + 1);
            return;
        }
    }
    /* polar hydrogens a file without hydrogens left out (before charges and types: both see them) */
    vsg_screen_complete_hydrogens(p, lig);
    if (lig->status != VSG_OK) return;
    /* charges */
    int want_gasteiger = o->charges == VSG_CHARGES_GASTEIGER || (o->charges == VSG_CHARGES_AUTO && !lig->has_charges);
    if (want_gasteiger) {
        if (vsg_ligand_gasteiger_available()) {
            vsg_status st = vsg_ligand_gasteiger(lig);
            if (st != VSG_OK) {
                vsg_ligand_fail(lig, st, VSG_LIG_NO_CHARGES, "%s:%ld: record %ld: Gasteiger charges failed: %s",
                                lig->source, lig->line, lig->record, vsg_last_error());
                return;
            }
        } else if (!lig->has_charges) {
            vsg_ligand_fail(lig, VSG_E_DATA, VSG_LIG_NO_CHARGES,
                            "%s:%ld: record %ld: no partial charges in the file and this build has no Open Babel "
                            "for Gasteiger charges",
                            lig->source, lig->line, lig->record);
            return;
        } else {
            vsg_ligand_fail(lig, VSG_E_UNSUPPORTED, VSG_LIG_NO_CHARGES,
                            "%s:%ld: record %ld: --charges gasteiger needs Open Babel, absent from this build",
                            lig->source, lig->line, lig->record);
            return;
        }
    } else if (!lig->has_charges) {
        vsg_ligand_fail(lig, VSG_E_DATA, VSG_LIG_NO_CHARGES,
                        "%s:%ld: record %ld: no partial charges in the file (--charges file); try --charges gasteiger",
                        lig->source, lig->line, lig->record);
        return;
    }
    /* AutoDock types for AD4 map sets */
    if (p->g->kind == VSG_SCORE_AD4 && lig->format != VSG_LIG_PDBQT) {
        vsg_ligand_merge_nonpolar_h(lig);
        vsg_status st = vsg_ligand_assign_ad_types(lig);
        if (st != VSG_OK) {
            vsg_ligand_fail(lig, st, VSG_LIG_TYPE, "%s:%ld: record %ld: %s", lig->source, lig->line, lig->record,
                            vsg_last_error());
            return;
        }
    }
    int nonzero = 0;
    for (int i = 0; i < lig->natoms; i++) nonzero |= lig->atoms[i].charge != 0.0;
    if (!nonzero) {
        vsg_ligand_fail(lig, VSG_E_DATA, VSG_LIG_ZERO_CHARGES,
                        "%s:%ld: record %ld: every partial charge is 0 (not scored)", lig->source, lig->line,
                        lig->record);
        return;
    }
    if ((size_t)lig->natoms > p->cap_atoms) {
        vsg_ligand_fail(lig, VSG_E_LIMIT, VSG_LIG_TOO_MANY, "%s:%ld: record %ld: %d atoms, more than a batch holds (%zu)",
                        lig->source, lig->line, lig->record, lig->natoms, p->cap_atoms);
        return;
    }
    if (p->g->kind == VSG_SCORE_AD4) {
        for (int i = 0; i < lig->natoms; i++) {
            const char *t = lig->atoms[i].ad_type;
            if (vsg_screen_map_of_type(p->g, t) < 0) {
                vsg_ligand_fail(lig, VSG_E_DATA, VSG_LIG_TYPE, "%s:%d: record %ld: atom %d has type '%s', which the map set lacks",
                                lig->source, lig->atoms[i].line, lig->record, i + 1, t);
                return;
            }
        }
    }
}

