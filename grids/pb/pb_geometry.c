/* pb_geometry.c — the grid box (fill, explicit, around a ligand) and the focusing levels. */
#include <math.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "grids/pb/pb_geometry.h"

/* Node count for an edge length: APBS's convention nodes = length/spacing + 1, rounded to
 * the nearest integer and then up to an odd count (the checkerboard split needs odd nx, ny). */
static int nodes_for(double length, double h)
{
    double v = floor(length / h + 0.5) + 1.0;
    if (v > 1e7) v = 1e7;
    int n = (int)v;
    if (n < 3) n = 3;
    return n | 1;
}

static void place(vsg_level *lv, const double centre[3])
{
    for (int d = 0; d < 3; d++) lv->origin[d] = centre[d] - 0.5 * (lv->n[d] - 1) * lv->h;
}

vsg_status vsg_fine_level(const vsg_molecule *m, const vsg_pb_params *p, vsg_level *lv)
{
    memset(lv, 0, sizeof *lv);
    if (!(p->spacing > 0.0) || !isfinite(p->spacing)) return vsg_fail(VSG_E_ARG, "spacing must be > 0 Å");
    lv->h = p->spacing;
    double lo[3], hi[3], centre[3];
    if (p->box_mode == VSG_BOX_EXPLICIT) {
        for (int d = 0; d < 3; d++) {
            if (!(p->box_size[d] > 0.0) || !isfinite(p->box_center[d]))
                return vsg_fail(VSG_E_ARG, "--box needs a finite centre and edge lengths > 0");
            lv->n[d] = nodes_for(p->box_size[d], lv->h);
            centre[d] = p->box_center[d];
        }
    } else if (p->box_mode == VSG_BOX_AROUND) {
        if (!p->around || p->around->n == 0) return vsg_fail(VSG_E_ARG, "--around needs a molecule with atoms");
        if (!(p->padding >= 0.0)) return vsg_fail(VSG_E_ARG, "--padding must be >= 0 Å");
        vsg_molecule_bounds(p->around, 0, lo, hi);
        for (int d = 0; d < 3; d++) {
            lv->n[d] = nodes_for(hi[d] - lo[d] + 2.0 * p->padding, lv->h);
            centre[d] = 0.5 * (lo[d] + hi[d]);
        }
    } else {
        if (!(p->fill > 0.0 && p->fill <= 1.0)) return vsg_fail(VSG_E_ARG, "--fill must be in (0, 1]");
        /* DelPhi's perfil: the molecule (with radii) spans `fill` of a cubic box's edge. */
        vsg_molecule_bounds(m, 1, lo, hi);
        double edge = 0.0;
        for (int d = 0; d < 3; d++) {
            edge = hi[d] - lo[d] > edge ? hi[d] - lo[d] : edge;
            centre[d] = 0.5 * (lo[d] + hi[d]);
        }
        int n = nodes_for(edge / p->fill, lv->h);
        lv->n[0] = lv->n[1] = lv->n[2] = n;
    }
    place(lv, centre);
    return VSG_OK;
}

static int contains(const vsg_level *outer, const vsg_level *inner, double margin)
{
    for (int d = 0; d < 3; d++) {
        double olo = outer->origin[d] + margin, ohi = outer->origin[d] + (outer->n[d] - 1) * outer->h - margin;
        double ilo = inner->origin[d], ihi = inner->origin[d] + (inner->n[d] - 1) * inner->h;
        if (ilo < olo - 1e-9 || ihi > ohi + 1e-9) return 0;
    }
    return 1;
}

vsg_status vsg_focus_levels(const vsg_molecule *m, const vsg_level *fine, vsg_level *levels,
                            int *count)
{
    /* Coarsest box: 1.7× the molecule's extent (with radii) and at least extent + 20 Å, as
     * APBS users set cglen, grown to hold the fine box with two coarse spacings to spare;
     * same node counts as the fine grid. */
    double lo[3], hi[3], len[3], centre[3];
    vsg_molecule_bounds(m, 1, lo, hi);
    vsg_level coarse = *fine;
    double hc = fine->h;
    for (int d = 0; d < 3; d++) {
        double ext = hi[d] - lo[d];
        len[d] = fmax(1.7 * ext, ext + 20.0);
        double flo = fine->origin[d], fhi = fine->origin[d] + (fine->n[d] - 1) * fine->h;
        double clo = fmin(0.5 * (lo[d] + hi[d]) - 0.5 * len[d], flo);
        double chi = fmax(0.5 * (lo[d] + hi[d]) + 0.5 * len[d], fhi);
        len[d] = chi - clo;
        centre[d] = 0.5 * (clo + chi);
        double need = len[d] / (fine->n[d] - 1);
        hc = need > hc ? need : hc;
    }
    /* Spare room so the fine box stays off the coarse faces. */
    hc *= 1.0 + 4.0 / (fmin(fine->n[0], fmin(fine->n[1], fine->n[2])) - 1);
    if (hc <= fine->h * 1.05) {
        levels[0] = *fine;
        *count = 1;
        return VSG_OK;
    }
    coarse.h = hc;
    place(&coarse, centre);
    /* Each step refines the spacing by at most 4× (APBS's advice for focusing). */
    int steps = (int)ceil(log(hc / fine->h) / log(4.0) - 1e-9);
    if (steps < 1) steps = 1;
    if (steps + 1 > VSG_MAX_LEVELS) return vsg_fail(VSG_E_ARG, "focusing would need %d levels", steps + 1);
    levels[0] = coarse;
    for (int k = 1; k < steps; k++) {
        vsg_level *lv = &levels[k];
        const vsg_level *prev = &levels[k - 1];
        *lv = *fine;
        lv->h = hc * pow(fine->h / hc, (double)k / steps);
        double fc[3];
        for (int d = 0; d < 3; d++) fc[d] = fine->origin[d] + 0.5 * (fine->n[d] - 1) * fine->h;
        place(lv, fc);
        for (int d = 0; d < 3; d++) {  /* slide inside the previous box */
            double l = (lv->n[d] - 1) * lv->h;
            double plo = prev->origin[d] + prev->h, phi = prev->origin[d] + (prev->n[d] - 1) * prev->h - prev->h;
            if (lv->origin[d] < plo) lv->origin[d] = plo;
            if (lv->origin[d] + l > phi) lv->origin[d] = phi - l;
        }
    }
    levels[steps] = *fine;
    *count = steps + 1;
    for (int k = 1; k <= steps; k++)
        if (!contains(&levels[k - 1], &levels[k], levels[k - 1].h))
            return vsg_fail(VSG_E_ARG, "focusing: level %d does not fit inside level %d", k + 1, k);
    return VSG_OK;
}
