/* dock_ad4_dry.c — the dry step of hydrated docking (vsgrid.h, "Hydrated docking"): each W water
 * of a docked pose judged as AutoDock Vina's dry.py judges it (clashes with the ligand or the
 * receptor, its W-map score around it), to be kept (strong, weak) or left out of the written pose. */
#include <math.h>
#include <string.h>

#include "ligands/dock/dock_internal.h"

const char *vsg_water_class_name(vsg_water_class c)
{
    switch (c) {
    case VSG_WATER_STRONG: return "STRONG";
    case VSG_WATER_WEAK: return "WEAK";
    case VSG_WATER_DISPLACED: return "DISPLC";
    case VSG_WATER_LIGAND_CLASH: return "LIGAND_CLASH";
    case VSG_WATER_RECEPTOR_CLASH: return "RECEPTOR_CLASH";
    }
    return "?";
}

/* dry.py's pdb_atom_type: the letters of the atom name; "H" (with the type's leading H) marks a
 * hydrogen its ligand clash test skips. */
static int dry_hydrogen(const vsg_lig_atom *a)
{
    if (a->ad_type[0] == 'H') return 1;
    char letters[8];
    int n = 0;
    for (const char *c = a->name; *c && n < 7; c++)
        if ((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z')) letters[n++] = *c;
    letters[n] = '\0';
    return !strcmp(letters, "H");
}

/* dry.py's getpoints, as the published (Python 3) script computes it: the map's box is taken as
 * centre ± (nodes / 2) · spacing, a float division that the Python 2 original made an integer
 * one, so the box starts half a node below the grid's first node; the node "nearest" p is
 * round((p − that start) / spacing) (round half to even, Python 3's round); the score is the
 * lowest W-map value of the cube of ±k nodes (k = round(1 Å / spacing), at least 1) around it,
 * clipped to the grid (where dry.py's `break` drops the whole scan: 999, displaced); 0 (its
 * False) when p is not strictly inside that box. The documented scores of Vina's hydrated
 * example (solution/1uw6_ligand_ad4_out_DRY_SCORED.pdbqt) are these, all 18 (the true
 * nearest node would change 6 scores and 2 classes). */
static double dry_score(const vsg_score_grids *g, const float *w, const double p[3])
{
    int c[3], k[3];
    for (int d = 0; d < 3; d++) {
        const double center = g->origin[d] + 0.5 * (g->n[d] - 1) * g->spacing[d];
        const double lo = center - g->n[d] / 2.0 * g->spacing[d], hi = center + g->n[d] / 2.0 * g->spacing[d];
        if (!(p[d] > lo && p[d] < hi)) return 0.0;
        c[d] = (int)nearbyint((p[d] - lo) / g->spacing[d]);
        k[d] = (int)nearbyint(VSG_DRY_SCAN / g->spacing[d]);
        if (k[d] < 1) k[d] = 1;
    }
    double best = 999; /* dry.py's start: a scan that sees no node leaves it, and the water is displaced */
    const size_t nx = (size_t)g->n[0], nxy = nx * (size_t)g->n[1];
    for (int z = c[2] - k[2]; z <= c[2] + k[2]; z++) {
        if (z < 0 || z >= g->n[2]) continue;
        for (int y = c[1] - k[1]; y <= c[1] + k[1]; y++) {
            if (y < 0 || y >= g->n[1]) continue;
            for (int x = c[0] - k[0]; x <= c[0] + k[0]; x++) {
                if (x < 0 || x >= g->n[0]) continue;
                const double v = w[(size_t)x + nx * (size_t)y + nxy * (size_t)z];
                if (v < best) best = v;
            }
        }
    }
    return best;
}

vsg_status vsg_ad4_dry(const vsg_ad4_target *t, const vsg_molecule *rec, const vsg_ligand *lig, const double *xyz,
                       vsg_water_verdict *out, int *nwater)
{
    if (nwater) *nwater = 0;
    if (!t || !lig || !out || !nwater) return vsg_fail(VSG_E_ARG, "vsg_ad4_dry: NULL argument");
    const uint8_t wi = vsg_mapset_type_index(t->maps, "W");
    int any = 0;
    for (int i = 0; i < lig->natoms; i++) any |= !strcmp(lig->atoms[i].ad_type, "W");
    if (!any) return VSG_OK;
    if (wi == VSG_SCORE_NO_TYPE)
        return vsg_fail(VSG_E_DATA, "the map set has no W map: the dry step scores each water on it (PREFIX.W.map)");
    const vsg_score_grids *g = t->g;
    const size_t nrec = rec ? vsg_molecule_atom_count(rec) : 0;
    int nw = 0;
#define XYZ(i, d) (xyz ? xyz[3 * (i) + (d)] : (d) == 0 ? lig->atoms[i].x : (d) == 1 ? lig->atoms[i].y : lig->atoms[i].z)
    for (int i = 0; i < lig->natoms; i++) {
        if (strcmp(lig->atoms[i].ad_type, "W")) continue;
        const double p[3] = {XYZ(i, 0), XYZ(i, 1), XYZ(i, 2)};
        vsg_water_verdict v = {i, VSG_WATER_DISPLACED, NAN};
        int clash = 0;
        for (int j = 0; j < lig->natoms && !clash; j++) { /* dry.py's selfoverlap: < CLASH */
            if (j == i || !strcmp(lig->atoms[j].ad_type, "W") || dry_hydrogen(&lig->atoms[j])) continue;
            const double dx = p[0] - XYZ(j, 0), dy = p[1] - XYZ(j, 1), dz = p[2] - XYZ(j, 2);
            clash = dx * dx + dy * dy + dz * dz < VSG_DRY_CLASH * VSG_DRY_CLASH;
        }
        if (clash) v.cls = VSG_WATER_LIGAND_CLASH;
        for (size_t r = 0; r < nrec && !clash; r++) { /* targetoverlap: <= CLASH, HD skipped */
            vsg_atom_info a;
            if (vsg_molecule_atom(rec, r, &a) != VSG_OK || !strcmp(a.ad_type, "HD")) continue;
            const double dx = p[0] - a.x, dy = p[1] - a.y, dz = p[2] - a.z;
            if (dx * dx + dy * dy + dz * dz <= VSG_DRY_CLASH * VSG_DRY_CLASH) clash = 1, v.cls = VSG_WATER_RECEPTOR_CLASH;
        }
        if (!clash) {
            v.score = dry_score(g, g->maps[wi], p);
            v.cls = v.score < VSG_DRY_STRONG ? VSG_WATER_STRONG : v.score < VSG_DRY_WEAK ? VSG_WATER_WEAK : VSG_WATER_DISPLACED;
        }
        out[nw++] = v;
    }
#undef XYZ
    *nwater = nw;
    return VSG_OK;
}
