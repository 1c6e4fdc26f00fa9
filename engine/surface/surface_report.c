/* surface_report.c — the per-vertex and per-residue tables of `vsgrid surface` (CSV, so
 * spreadsheets and pandas read them). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "grids/receptor/molecule.h"
#include "grids/surface/alpb.h"
#include "grids/surface/hcp.h"

static FILE *open_out(const char *path)
{
    return strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
}
static vsg_status close_out(FILE *f, const char *path)
{
    int bad = ferror(f);
    if (f != stdout) bad |= fclose(f) != 0;
    else bad |= fflush(f) != 0;
    return bad ? vsg_fail(VSG_E_IO, "%s: write failed", path) : VSG_OK;
}
static char chain_char(char c) { return c == ' ' ? '-' : c; }

vsg_status vsg_surface_write_vertices(const char *path, const vsg_molecule *m, const vsg_mesh *mesh,
                                      const double *phi, double kt_kcal)
{
    FILE *f = open_out(path);
    if (!f) return vsg_fail(VSG_E_IO, "%s: cannot write: %s", path, strerror(errno));
    fputs("vertex,x,y,z,nx,ny,nz,atom,residue_name,residue_number,chain,potential_kT_e,potential_kcal_mol_e\n", f);
    for (size_t v = 0; v < mesh->nvert; v++) {
        const float *x = &mesh->xyz[3 * v], *n = &mesh->normal[3 * v];
        int32_t a = mesh->atom ? mesh->atom[v] : -1;
        const vsg_atom *at = a >= 0 && (size_t)a < m->n ? &m->atoms[a] : NULL;
        fprintf(f, "%zu,%.3f,%.3f,%.3f,%.4f,%.4f,%.4f,%d,%s,%d,%c,%.6g,%.6g\n", v + 1, x[0], x[1], x[2], n[0], n[1],
                n[2], at ? a + 1 : 0, at ? at->residue_name : "", at ? at->residue_number : 0,
                at ? chain_char(at->chain) : '-', phi[v] / kt_kcal, phi[v]);
    }
    return close_out(f, path);
}

vsg_status vsg_surface_write_residues(const char *path, const vsg_molecule *m, const vsg_hcp *h,
                                      const vsg_mesh *mesh, const double *phi, double kt_kcal)
{
    size_t nr = h->nres;
    uint32_t *res_of = malloc((m->n ? m->n : 1) * sizeof *res_of);
    double *area = calloc(mesh->nvert ? mesh->nvert : 1, sizeof *area);
    double *sum_a = calloc(nr, sizeof *sum_a), *sum_ap = calloc(nr, sizeof *sum_ap);
    double *lo = malloc(nr * sizeof *lo), *hi = malloc(nr * sizeof *hi);
    size_t *count = calloc(nr, sizeof *count);
    if (!res_of || !area || !sum_a || !sum_ap || !lo || !hi || !count) {
        free(res_of), free(area), free(sum_a), free(sum_ap), free(lo), free(hi), free(count);
        return vsg_fail(VSG_E_NOMEM, "out of memory (residue table)");
    }
    for (size_t r = 0; r < nr; r++) {
        lo[r] = INFINITY, hi[r] = -INFINITY;
        for (uint32_t i = h->res[r].first; i < h->res[r].first + h->res[r].count; i++) res_of[h->atom_index[i]] = (uint32_t)r;
    }
    vsg_mesh_area(mesh, area);
    for (size_t v = 0; v < mesh->nvert; v++) {
        int32_t a = mesh->atom ? mesh->atom[v] : -1;
        if (a < 0 || (size_t)a >= m->n) continue;
        uint32_t r = res_of[a];
        count[r]++;
        sum_a[r] += area[v];
        sum_ap[r] += area[v] * phi[v];
        lo[r] = fmin(lo[r], phi[v]);
        hi[r] = fmax(hi[r], phi[v]);
    }
    vsg_status st = VSG_OK;
    FILE *f = open_out(path);
    if (!f) st = vsg_fail(VSG_E_IO, "%s: cannot write: %s", path, strerror(errno));
    if (f) {
        fputs("residue,chain,residue_name,residue_number,insertion,segment,model,atoms,vertices,area_A2,"
              "mean_kT_e,min_kT_e,max_kT_e,mean_kcal_mol_e\n", f);
        for (size_t r = 0; r < nr; r++) {
            const vsg_atom *a = &m->atoms[h->atom_index[h->res[r].first]];
            if (count[r]) {
                double mean = sum_a[r] > 0 ? sum_ap[r] / sum_a[r] : NAN;
                fprintf(f, "%zu,%c,%s,%d,%c,%d,%d,%u,%zu,%.3f,%.5g,%.5g,%.5g,%.5g\n", r + 1, chain_char(a->chain),
                        a->residue_name, a->residue_number, a->insertion_code == ' ' ? '-' : a->insertion_code,
                        a->segment, a->model, h->res[r].count, count[r], sum_a[r], mean / kt_kcal, lo[r] / kt_kcal,
                        hi[r] / kt_kcal, mean);
            } else {
                fprintf(f, "%zu,%c,%s,%d,%c,%d,%d,%u,0,0,,,,\n", r + 1, chain_char(a->chain), a->residue_name,
                        a->residue_number, a->insertion_code == ' ' ? '-' : a->insertion_code, a->segment, a->model,
                        h->res[r].count);
            }
        }
        st = close_out(f, path);
    }
    free(res_of), free(area), free(sum_a), free(sum_ap), free(lo), free(hi), free(count);
    return st;
}
