/* vina_maps.c — the CPU twin of Vina and Vinardo affinity maps (vsgrid.h, "Vina and Vinardo
 * maps"): double precision, OpenMP over grid planes, receptor atoms pre-selected per grid row;
 * and the map writer in `vina --write_maps`'s format. */
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grids/formats/grid.h"
#include "grids/formats/value_text.h"
#include "grids/maps/vina_terms.h"
#include "grids/receptor/molecule.h"

#ifdef _OPENMP
#include <omp.h>
#endif

void vsg_vina_params_default(vsg_vina_params *p)
{
    if (!p) return;
    memset(p, 0, sizeof *p);
    p->scoring = VSG_VINA_SCORING_VINA;
    p->tabulated = 1;
}

/* Node counts and geometry as Vina's compute_vina_maps (with --force_even_voxels) makes them. */
static vsg_status box_geometry(const vsg_vina_box *b, int n[3], double origin[3], double spacing[3])
{
    if (!(b->spacing > 0.0) || !isfinite(b->spacing))
        return vsg_fail(VSG_E_ARG, "Vina maps: spacing %g Å must be finite and > 0", b->spacing);
    for (int k = 0; k < 3; k++) {
        if (!isfinite(b->center[k])) return vsg_fail(VSG_E_ARG, "Vina maps: box center is not finite");
        if (!(b->size[k] > 0.0) || !isfinite(b->size[k]))
            return vsg_fail(VSG_E_ARG, "Vina maps: empty box: size along %c is %g Å (must be > 0)", "xyz"[k],
                            b->size[k]);
        double v = ceil(b->size[k] / b->spacing);
        if (v > 2147483600.0) return vsg_fail(VSG_E_LIMIT, "Vina maps: %.0f voxels along %c", v, "xyz"[k]);
        long voxels = (long)v;
        if (voxels % 2) voxels++;
        double span = b->spacing * (double)voxels;
        double begin = b->center[k] - span / 2.0, end = begin + span;
        n[k] = (int)voxels + 1;
        origin[k] = begin;
        spacing[k] = 1.0 / ((double)voxels / (end - begin)); /* Vina's m_factor_inv */
    }
    return VSG_OK;
}

typedef struct {
    double x, y, z;
    int type;
} rec_atom;

vsg_status vsg_vina_maps_cpu(const vsg_molecule *receptor, const vsg_vina_box *box, const vsg_vina_params *p,
                             const vsg_xs_type *types, int ntypes, vsg_grid **maps)
{
    if (!receptor || !box || !p || !types || !maps) return vsg_fail(VSG_E_ARG, "vsg_vina_maps_cpu: NULL argument");
    if (ntypes < 1) return vsg_fail(VSG_E_ARG, "vsg_vina_maps_cpu: no ligand types asked for");
    for (int t = 0; t < ntypes; t++) maps[t] = NULL;
    if (p->scoring != VSG_VINA_SCORING_VINA && p->scoring != VSG_VINA_SCORING_VINARDO)
        return vsg_fail(VSG_E_ARG, "vsg_vina_maps_cpu: unknown scoring %d", (int)p->scoring);
    for (int t = 0; t < ntypes; t++)
        if ((int)types[t] < 0 || types[t] >= VSG_XS_COUNT)
            return vsg_fail(VSG_E_ARG, "vsg_vina_maps_cpu: ligand type %d is not an XS type", (int)types[t]);
    int n[3];
    double origin[3], h[3];
    vsg_status st = box_geometry(box, n, origin, h);
    if (st != VSG_OK) return st;
    if ((double)n[0] * (double)n[1] * (double)n[2] * (double)sizeof(float) > (double)SIZE_MAX / 2)
        return vsg_fail(VSG_E_LIMIT, "Vina maps: %d x %d x %d nodes exceed the address space", n[0], n[1], n[2]);

    size_t na = receptor->n, nr = 0;
    vsg_xs_type *xs = malloc((na ? na : 1) * sizeof *xs);
    rec_atom *ra = malloc((na ? na : 1) * sizeof *ra);
    double *table = p->tabulated ? malloc((size_t)VSG_XS_COUNT * (size_t)ntypes * VSG_VINA_TABLE_BINS * sizeof *table)
                                 : NULL;
    if (!xs || !ra || (p->tabulated && !table)) {
        free(xs), free(ra), free(table);
        return vsg_fail(VSG_E_NOMEM, "Vina maps: out of memory");
    }
    st = vsg_xs_assign(receptor, xs);
    if (st != VSG_OK) {
        free(xs), free(ra), free(table);
        return st;
    }
    /* Receptor atoms with a type and within the cutoff of the box, in file order (Vina's order
     * of summation). */
    const double c2 = VSG_VINA_CUTOFF * VSG_VINA_CUTOFF;
    for (size_t i = 0; i < na; i++) {
        if (xs[i] == VSG_XS_NONE) continue;
        const double q[3] = {receptor->atoms[i].x, receptor->atoms[i].y, receptor->atoms[i].z};
        double dd = 0.0;
        for (int k = 0; k < 3; k++) {
            double lo = origin[k], hi = origin[k] + h[k] * (n[k] - 1);
            double e = q[k] < lo ? lo - q[k] : q[k] > hi ? q[k] - hi : 0.0;
            dd += e * e;
        }
        if (dd > c2) continue;
        ra[nr].x = q[0], ra[nr].y = q[1], ra[nr].z = q[2], ra[nr].type = xs[i];
        nr++;
    }
    free(xs);
    if (table)
        for (int r = 0; r < VSG_XS_COUNT; r++)
            for (int t = 0; t < ntypes; t++)
                vsg_vina_table_fill(p->scoring, r, types[t],
                                    table + ((size_t)r * (size_t)ntypes + (size_t)t) * VSG_VINA_TABLE_BINS);

    for (int t = 0; t < ntypes && st == VSG_OK; t++) {
        maps[t] = vsg_grid_new(n, origin, h, "kcal/mol");
        if (!maps[t]) st = vsg_fail(VSG_E_NOMEM, "Vina maps: no memory for %d x %d x %d nodes", n[0], n[1], n[2]);
        else if ((st = vsg_grid_meta_add(maps[t], "method", "%s", p->scoring ? "vinardo" : "vina")) == VSG_OK &&
                 (st = vsg_grid_meta_add(maps[t], "xs_type", "%s", vsg_xs_type_name(types[t]))) == VSG_OK)
            st = vsg_grid_meta_add(maps[t], "vina_table", "%s", p->tabulated ? "tabulated" : "analytic");
    }
    int alloc_failed = 0;
    if (st == VSG_OK) {
        const size_t plane = (size_t)n[0] * (size_t)n[1];
#pragma omp parallel
        {
            size_t *row = malloc((nr ? nr : 1) * sizeof *row), *pl = malloc((nr ? nr : 1) * sizeof *pl);
            double *acc = malloc((size_t)ntypes * sizeof *acc);
            if (!row || !pl || !acc) {
#pragma omp atomic write
                alloc_failed = 1;
            } else {
#pragma omp for schedule(dynamic, 1)
                for (int z = 0; z < n[2]; z++) {
                    const double pz = origin[2] + h[2] * z;
                    size_t npl = 0;
                    for (size_t a = 0; a < nr; a++)
                        if (fabs(ra[a].z - pz) <= VSG_VINA_CUTOFF) pl[npl++] = a;
                    for (int y = 0; y < n[1]; y++) {
                        const double py = origin[1] + h[1] * y;
                        size_t nrow = 0;
                        for (size_t q = 0; q < npl; q++) {
                            const rec_atom *A = &ra[pl[q]];
                            double dy = A->y - py, dz = A->z - pz;
                            if (dy * dy + dz * dz <= c2) row[nrow++] = pl[q];
                        }
                        for (int x = 0; x < n[0]; x++) {
                            const double px = origin[0] + h[0] * x;
                            for (int t = 0; t < ntypes; t++) acc[t] = 0.0;
                            for (size_t q = 0; q < nrow; q++) {
                                const rec_atom *A = &ra[row[q]];
                                double dx = A->x - px, dy = A->y - py, dz = A->z - pz;
                                double r2 = dx * dx + dy * dy + dz * dz;
                                if (r2 > c2) continue;
                                if (table) {
                                    size_t bin = (size_t)(VSG_VINA_TABLE_FACTOR * r2);
                                    const double *tb = table + (size_t)A->type * (size_t)ntypes * VSG_VINA_TABLE_BINS + bin;
                                    for (int t = 0; t < ntypes; t++) acc[t] += tb[(size_t)t * VSG_VINA_TABLE_BINS];
                                } else {
                                    double r = sqrt(r2);
                                    for (int t = 0; t < ntypes; t++)
                                        acc[t] += vsg_vina_pair_energy(p->scoring, A->type, types[t], r);
                                }
                            }
                            size_t idx = (size_t)x + (size_t)n[0] * (size_t)y + plane * (size_t)z;
                            for (int t = 0; t < ntypes; t++) maps[t]->data[idx] = (float)acc[t];
                        }
                    }
                }
            }
            free(row), free(pl), free(acc);
        }
        if (alloc_failed) st = vsg_fail(VSG_E_NOMEM, "Vina maps: out of memory for the per-thread atom lists");
    }
    free(ra), free(table);
    if (st != VSG_OK)
        for (int t = 0; t < ntypes; t++) vsg_grid_free(maps[t]), maps[t] = NULL;
    return st;
}

vsg_status vsg_vina_map_write(const vsg_grid *g, const char *path, const char *macromolecule)
{
    return vsg_vina_map_write_scored(g, path, macromolecule, -1);
}

vsg_status vsg_vina_map_write_scored(const vsg_grid *g, const char *path, const char *macromolecule, int scoring)
{
    if (!g || !path) return vsg_fail(VSG_E_ARG, "vsg_vina_map_write: NULL argument");
    if (scoring != -1 && scoring != VSG_VINA_SCORING_VINA && scoring != VSG_VINA_SCORING_VINARDO)
        return vsg_fail(VSG_E_ARG, "vsg_vina_map_write_scored: scoring %d is not vina, vinardo or -1", scoring);
    for (int k = 0; k < 3; k++)
        if (g->n[k] < 1 || g->n[k] % 2 == 0)
            return vsg_fail(VSG_E_ARG, "%s: a Vina map needs an odd node count along each axis (an even voxel count); "
                            "%c has %d nodes", path, "xyz"[k], g->n[k]);
    FILE *f = fopen(path, "w");
    if (!f) return vsg_fail(VSG_E_IO, "cannot create %s: %s", path, strerror(errno));
    double c[3];
    for (int k = 0; k < 3; k++) c[k] = g->origin[k] + g->spacing[k] * (g->n[k] - 1) * 0.5;
    /* the function that made the map, where Vina's reader skips a value (vina writes NULL): docking
     * and screens check it (vsg_vina_target_maps) */
    fprintf(f, "GRID_PARAMETER_FILE %s\nGRID_DATA_FILE NULL\nMACROMOLECULE %s\n",
            scoring < 0 ? "NULL" : scoring == VSG_VINA_SCORING_VINARDO ? "vsgrid:vinardo" : "vsgrid:vina",
            macromolecule ? macromolecule : "NULL");
    fprintf(f, "SPACING %g\nNELEMENTS %d %d %d\nCENTER %g %g %g\n", g->spacing[0], g->n[0] - 1, g->n[1] - 1,
            g->n[2] - 1, c[0], c[1], c[2]);
    /* Formatting is most of the cost: planes are formatted in parallel (value_text.c). */
    int bad = vsg_text_write_values(f, g->data, (size_t)g->n[0] * (size_t)g->n[1], g->n[2], VSG_TEXT_G4) != 0;
    bad = bad || ferror(f);
    if (fclose(f) != 0 || bad) {
        remove(path);
        return vsg_fail(VSG_E_IO, "error writing %s (disk full?)", path);
    }
    return VSG_OK;
}
