/* ad4_plan.c — what both twins of the AutoDock4 maps need before the sums (ad4_maps.h,
 * ad4_plan): the gpf's checks and their messages, the probes' parameters, the box centre (the
 * gpf's, or the mean of the atoms for 'gridcenter auto'), the receptor sites relative to it with
 * AutoGrid's bond vectors, the receptor types in order of appearance, the pair and desolvation
 * tables, and the lattice. One source, so the CPU and the GPU maps start from the same bits. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grids/maps/ad4_maps.h"
#include "grids/receptor/molecule.h"

void ad4_plan_free(ad4_plan *pl)
{
    if (!pl) return;
    free(pl->s), free(pl->tab), free(pl->sol);
    pl->s = NULL, pl->tab = pl->sol = NULL;
}

int ad4_name_class(const char *t)
{
    if (!strcmp(t, "HD")) return 1;
    if (!strcmp(t, "H")) return 2;
    if (!strcmp(t, "OA") || !strcmp(t, "SA")) return 3;
    return 0;
}

vsg_status ad4_plan_make(const vsg_molecule *rec, const vsg_gpf *gpf, const vsg_ad4_params *p, ad4_plan *pl)
{
    if (!pl) return vsg_fail(VSG_E_ARG, "ad4 maps: NULL argument");
    memset(pl, 0, sizeof *pl);
    if (!rec || !gpf || !p) return vsg_fail(VSG_E_ARG, "ad4 maps: NULL argument");
    const int nmap = gpf->n_ligand_types;
    if (nmap < 1) return vsg_fail(VSG_E_ARG, "ad4 maps: the gpf names no ligand_types");
    if (!gpf->have_npts) return vsg_fail(VSG_E_ARG, "ad4 maps: the gpf has no npts");
    if (!(gpf->spacing > 0.0)) return vsg_fail(VSG_E_ARG, "ad4 maps: spacing must be > 0");
    if (!(gpf->smooth >= 0.0)) return vsg_fail(VSG_E_ARG, "ad4 maps: smooth must be >= 0");
    if (nmap > VSG_AG_MAX_MAPS) return vsg_fail(VSG_E_LIMIT, "ad4 maps: %d ligand types (at most %d)", nmap, VSG_AG_MAX_MAPS);
    const size_t na = rec->n;
    if (na == 0) return vsg_fail(VSG_E_DATA, "ad4 maps: the receptor has no atoms");
    pl->nmap = nmap, pl->na = na;

    /* ligand (probe) parameters */
    for (int m = 0; m < nmap; m++) {
        if (!strcmp(gpf->ligand_types[m], "Z"))
            return vsg_fail(VSG_E_UNSUPPORTED, "ad4 maps: ligand type Z (a covalent map) is not implemented in vsgrid");
        pl->lig[m] = vsg_ad4_params_find(p, gpf->ligand_types[m]);
        if (!pl->lig[m])
            return vsg_fail(VSG_E_DATA,
                            "ad4 maps: ligand type '%s' has no parameters (add an atom_par line to a parameter_file)",
                            gpf->ligand_types[m]);
    }

    /* the box centre: the gpf's, or the mean of the atoms ('gridcenter auto') */
    for (int d = 0; d < 3; d++) pl->centre[d] = gpf->center[d];
    if (!gpf->have_center) {
        double sum[3] = {0, 0, 0};
        for (size_t i = 0; i < na; i++) sum[0] += rec->atoms[i].x, sum[1] += rec->atoms[i].y, sum[2] += rec->atoms[i].z;
        for (int d = 0; d < 3; d++) pl->centre[d] = sum[d] / (double)na;
    }

    /* receptor sites and the receptor types, in order of appearance */
    ad4_site *s = pl->s = calloc(na, sizeof *s);
    if (!s) return vsg_fail(VSG_E_NOMEM, "ad4 maps: out of memory for %zu atoms", na);
    for (size_t i = 0; i < na; i++) {
        const vsg_atom *a = &rec->atoms[i];
        if (!a->ad_type[0]) {
            ad4_plan_free(pl);
            return vsg_fail(VSG_E_DATA, "%s:%d: atom has no AutoDock type (AutoDock4 maps need a PDBQT receptor: make one "
                            "with 'vsgrid prepare %s -o REC.pdbqt')", rec->source, a->line, rec->source);
        }
        const vsg_ad4_atom_par *pa = vsg_ad4_params_find(p, a->ad_type);
        if (!pa) {
            ad4_plan_free(pl);
            return vsg_fail(VSG_E_DATA,
                            "%s:%d: receptor type '%s' has no parameters (add an atom_par line to a parameter_file)",
                            rec->source, a->line, a->ad_type);
        }
        int t = 0;
        while (t < pl->nrt && pl->rtype[t] != pa) t++;
        if (t == pl->nrt) pl->rtype[pl->nrt++] = pa;
        for (int d = 0; d < 3; d++) s[i].x[d] = (d == 0 ? a->x : d == 1 ? a->y : a->z) - pl->centre[d];
        s[i].vol = pa->vol, s[i].solpar = pa->solpar, s[i].absq = fabs(a->charge);
        s[i].type = t, s[i].hbond = pa->hbond, s[i].name_class = ad4_name_class(a->ad_type);
    }
    /* autogrid4 stops when the receptor has a type its receptor_types line lacks */
    for (int t = 0; gpf->n_receptor_types > 0 && t < pl->nrt; t++) {
        int k = 0;
        while (k < gpf->n_receptor_types && strcmp(gpf->receptor_types[k], pl->rtype[t]->type)) k++;
        if (k == gpf->n_receptor_types)
            vsg_warn("ad4 maps: receptor type '%s' is not in the gpf's receptor_types (autogrid4 would stop)",
                     pl->rtype[t]->type);
    }
    ad4_hbond_vectors(s, na);

    /* the tables */
    pl->tab = malloc(sizeof(double) * (size_t)nmap * (size_t)pl->nrt * AD4_NEINT);
    pl->sol = malloc(sizeof(double) * AD4_NEINT);
    if (!pl->tab || !pl->sol) {
        ad4_plan_free(pl);
        return vsg_fail(VSG_E_NOMEM, "ad4 maps: out of memory for the tables");
    }
    ad4_pair_tables(p, pl->lig, nmap, pl->rtype, pl->nrt, gpf->smooth, pl->tab);
    ad4_desolv_table(p, pl->sol);

    /* the lattice: npts + 1 nodes a side (odd npts rounded down), centred on the centre */
    pl->h = gpf->spacing;
    for (int d = 0; d < 3; d++) {
        pl->ne[d] = gpf->npts[d] / 2;
        pl->n[d] = 2 * pl->ne[d] + 1;
        pl->origin[d] = pl->centre[d] - pl->ne[d] * pl->h;
    }
    return VSG_OK;
}
