/* vina_target.c — the receptor side of a Vina pose score: a map set as `vina --maps PREFIX`
 * reads it (cache.cpp's read_vina_map: SPACING, NELEMENTS, CENTER header lines, then one value
 * a line, x fastest; the box begins at CENTER − NELEMENTS·SPACING/2), or the receptor's atoms
 * XS-typed and sorted into 8 Å cells, for the explicit-atom sum `vina --receptor --score_only`
 * makes. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/score/vina_internal.h"

void vsg_vina_target_free(vsg_vina_target *t)
{
    if (!t) return;
    if (t->dock_cache_free) t->dock_cache_free(t->dock_cache);
    vina_tables_release(&t->tables);
    for (int i = 0; i < VSG_XS_COUNT; i++) free(t->map[i]);
    free(t->rxyz);
    free(t->rtype);
    free(t->cell_start);
    free(t->samples);
    free(t);
}

int vsg_vina_target_has_type(const vsg_vina_target *t, vsg_xs_type x)
{
    if (!t || x < 0 || x >= VSG_XS_COUNT) return 0;
    return !t->is_maps || t->map[x] != NULL;
}

vsg_vina_scoring vsg_vina_target_scoring(const vsg_vina_target *t)
{
    return t ? t->tables.sf : VSG_VINA_SCORING_VINA;
}

int vsg_vina_target_is_maps(const vsg_vina_target *t, vsg_vina_box *box)
{
    if (!t || !t->is_maps) return 0;
    if (box) {
        for (int d = 0; d < 3; d++) {
            box->center[d] = 0.5 * (t->begin[d] + t->end[d]);
            box->size[d] = t->end[d] - t->begin[d];
        }
        box->spacing = t->spacing;
    }
    return 1;
}

/* The scoring function a map's header names: vsgrid writes "GRID_PARAMETER_FILE vsgrid:vina" or
 * ":vinardo" there (vsg_vina_map_write_scored; vina and every reader of the format skip the value);
 * -1 when it names none (vina --write_maps writes NULL). */
static int header_scoring(const char *line)
{
    const char *v = line + strlen("GRID_PARAMETER_FILE");
    while (*v == ' ' || *v == '\t') v++;
    if (strncmp(v, "vsgrid:", 7)) return -1;
    v += 7;
    size_t n = strcspn(v, " \t\r\n");
    if (n == 4 && !strncmp(v, "vina", 4)) return VSG_VINA_SCORING_VINA;
    if (n == 7 && !strncmp(v, "vinardo", 7)) return VSG_VINA_SCORING_VINARDO;
    return -1;
}

/* One map file. geo[0..6]: spacing, n_voxels x3, center x3 as read; values into *out; *scoring
 * the function its header names (-1: none); *nonzero whether any value is not 0. */
static vsg_status read_map(const char *path, double geo[7], double **out, int *scoring, int *nonzero)
{
    *scoring = -1;
    *nonzero = 0;
    FILE *f = fopen(path, "r");
    if (!f) return vsg_fail(VSG_E_IO, "%s: %s", path, strerror(errno));
    char line[512];
    long ln = 0;
    int have = 0;
    size_t count = 0, total = 0;
    double *v = NULL;
    vsg_status st = VSG_OK;
    while (fgets(line, sizeof line, f)) {
        ln++;
        if (ln <= 6) {
            if (!strncmp(line, "GRID_PARAMETER_FILE", 19)) *scoring = header_scoring(line);
            else if (!strncmp(line, "SPACING", 7)) {
                if (sscanf(line + 7, "%lf", &geo[0]) != 1 || !(geo[0] > 0)) { st = vsg_fail(VSG_E_FORMAT, "%s:%ld: bad SPACING", path, ln); break; }
                have |= 1;
            } else if (!strncmp(line, "NELEMENTS", 9)) {
                int a, b, c;
                if (sscanf(line + 9, "%d %d %d", &a, &b, &c) != 3 || a < 2 || b < 2 || c < 2 || a % 2 || b % 2 || c % 2 ||
                    a > 100000 || b > 100000 || c > 100000) {
                    st = vsg_fail(VSG_E_FORMAT, "%s:%ld: bad NELEMENTS (three even voxel counts >= 2)", path, ln);
                    break;
                }
                geo[1] = a, geo[2] = b, geo[3] = c;
                have |= 2;
            } else if (!strncmp(line, "CENTER", 6)) {
                if (sscanf(line + 6, "%lf %lf %lf", &geo[4], &geo[5], &geo[6]) != 3) { st = vsg_fail(VSG_E_FORMAT, "%s:%ld: bad CENTER", path, ln); break; }
                have |= 4;
            }
            if (ln == 6) {
                if (have != 7) { st = vsg_fail(VSG_E_FORMAT, "%s: not a Vina map (SPACING, NELEMENTS, CENTER in the first 6 lines)", path); break; }
                total = (size_t)(geo[1] + 1) * (size_t)(geo[2] + 1) * (size_t)(geo[3] + 1);
                v = malloc(sizeof *v * total);
                if (!v) { st = vsg_fail(VSG_E_NOMEM, "%s: out of memory for %zu values", path, total); break; }
            }
            continue;
        }
        char *end;
        double x = strtod(line, &end);
        while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n') end++;
        if (end == line || *end || !isfinite(x)) { st = vsg_fail(VSG_E_FORMAT, "%s:%ld: bad value", path, ln); break; }
        if (count == total) { st = vsg_fail(VSG_E_FORMAT, "%s:%ld: more values than NELEMENTS gives (%zu)", path, ln, total); break; }
        if (x != 0) *nonzero = 1;
        v[count++] = x;
    }
    if (st == VSG_OK && ferror(f)) st = vsg_fail(VSG_E_IO, "%s: read error", path);
    if (st == VSG_OK && ln < 6) st = vsg_fail(VSG_E_FORMAT, "%s: not a Vina map (header ends at line %ld)", path, ln);
    if (st == VSG_OK && count != total) st = vsg_fail(VSG_E_FORMAT, "%s: %zu values, NELEMENTS gives %zu", path, count, total);
    fclose(f);
    if (st != VSG_OK) {
        free(v);
        return st;
    }
    *out = v;
    return VSG_OK;
}

/* No PREFIX.<type>.map: say what PREFIX is when it is another kind of grid, and how to make Vina maps. */
static vsg_status no_vina_maps(const char *prefix)
{
    static const char *const kinds[][2] = {
        {".vsg", "a PB/Coulomb grid"}, {".dx", "a PB/Coulomb grid (OpenDX)"}, {".dx.gz", "a PB/Coulomb grid (OpenDX)"},
        {".maps.fld", "an AutoDock4 map set"}, {".map", "one map file"}, {".map.gz", "one map file"}};
    const char *make = "docking and Vina scores need a Vina map set: make one with 'vsgrid maps REC.pdbqt --scoring "
                       "vina --around LIG -o PREFIX' and give PREFIX (the name before .C_H.map)";
    size_t lp = strlen(prefix);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t ls = strlen(kinds[i][0]);
        if (lp <= ls || strcmp(prefix + lp - ls, kinds[i][0]) != 0) continue;
        /* a file name given where the prefix goes: the prefix itself when it names Vina maps
           (m.maps.fld, m.C_H.map for m), else what the file is, when there is one */
        char base[4096], probe[4200];
        snprintf(base, sizeof base, "%.*s", (int)(lp - ls), prefix);
        for (int cut = 0; cut < 2; cut++) {
            snprintf(probe, sizeof probe, "%s.C_H.map", base);
            FILE *f = fopen(probe, "r");
            if (f) {
                fclose(f);
                return vsg_fail(VSG_E_IO, "%s is a file name, not a map set's prefix: give %s (the name before .C_H.map)",
                                prefix, base);
            }
            char *dot = strrchr(base, '.');
            if (!dot || strchr(dot, '/')) break;
            *dot = '\0'; /* m.C_H.map given: its set's prefix is m */
        }
        FILE *f = fopen(prefix, "r");
        if (!f) return vsg_fail(VSG_E_IO, "no Vina map set \"%s\": no such file or map prefix; %s", prefix, make);
        fclose(f);
        return vsg_fail(VSG_E_IO, "%s is %s, not a Vina map set: %s", prefix, kinds[i][1], make);
    }
    return vsg_fail(VSG_E_IO, "no Vina map with prefix \"%s\" (%s.C_H.map, ...): %s", prefix, prefix, make);
}

vsg_status vsg_vina_target_maps(const char *prefix, vsg_vina_scoring sf, vsg_vina_target **out)
{
    if (!out || !prefix) return vsg_fail(VSG_E_ARG, "vsg_vina_target_maps: NULL argument");
    *out = NULL;
    vsg_vina_target *t = calloc(1, sizeof *t);
    if (!t) return vsg_fail(VSG_E_NOMEM, "out of memory");
    vsg_status st = vina_tables_build(sf, &t->tables);
    if (st != VSG_OK) {
        free(t);
        return st;
    }
    t->is_maps = 1;
    size_t plen = strlen(prefix);
    char *path = malloc(plen + 16);
    if (!path) {
        vsg_vina_target_free(t);
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    double first[7] = {0};
    int found = 0, nonzero = 0, made_by = -1;
    char first_path[64] = "", made_by_path[64] = "";
    for (int x = 0; x < VSG_XS_COUNT && st == VSG_OK; x++) {
        snprintf(path, plen + 16, "%s.%s.map", prefix, vsg_xs_type_name(x));
        FILE *probe = fopen(path, "r");
        if (!probe) continue; /* absent: Vina skips it too */
        fclose(probe);
        double geo[7];
        int scoring, any;
        st = read_map(path, geo, &t->map[x], &scoring, &any);
        if (st != VSG_OK) break;
        nonzero |= any;
        if (scoring >= 0 && made_by >= 0 && scoring != made_by) {
            st = vsg_fail(VSG_E_DATA, "%s: made with %s, but %s.%s.map with %s: one map set holds one scoring function",
                          path, scoring ? "vinardo" : "vina", prefix, made_by_path, made_by ? "vinardo" : "vina");
            break;
        }
        if (scoring >= 0 && made_by < 0) made_by = scoring, snprintf(made_by_path, sizeof made_by_path, "%s", vsg_xs_type_name(x));
        if (!found) {
            memcpy(first, geo, sizeof geo);
            snprintf(first_path, sizeof first_path, "%s", vsg_xs_type_name(x));
        } else {
            for (int i = 0; i < 7; i++)
                if (geo[i] != first[i]) {
                    st = vsg_fail(VSG_E_DATA, "%s: its box (SPACING, NELEMENTS, CENTER) differs from %s.%s.map's", path,
                                  prefix, first_path);
                    break;
                }
        }
        found++;
    }
    free(path);
    if (st == VSG_OK && !found) st = no_vina_maps(prefix);
    /* Maps of one function scored with another's ligand terms give numbers of neither. */
    if (st == VSG_OK && made_by >= 0 && made_by != (int)sf)
        st = vsg_fail(VSG_E_DATA,
                      "%s: these are %s maps (their headers say so) but the scoring asked for is %s: use --scoring %s, or "
                      "make %s maps (vsgrid maps REC --scoring %s -o PREFIX)",
                      prefix, made_by ? "Vinardo" : "Vina", sf ? "vinardo" : "vina", made_by ? "vinardo" : "vina",
                      sf ? "Vinardo" : "Vina", sf ? "vinardo" : "vina");
    /* Every value 0: no receptor atom within 8 A of the box; every pose would score 0 (or intra only). */
    if (st == VSG_OK && !nonzero)
        st = vsg_fail(VSG_E_DATA,
                      "%s: every value of its %d maps is 0: their box lies beyond 8 A of every receptor atom (nothing "
                      "to dock against); make the maps over the pocket: vsgrid maps REC --around LIG -o PREFIX",
                      prefix, found);
    if (st != VSG_OK) {
        vsg_vina_target_free(t);
        return st;
    }
    /* Vina's grid::init, from read_vina_map's begin and end */
    t->spacing = first[0];
    for (int d = 0; d < 3; d++) {
        double halfspan = first[1 + d] * first[0] / 2.0;
        t->n[d] = (int)first[1 + d] + 1;
        t->begin[d] = first[4 + d] - halfspan;
        t->end[d] = first[4 + d] + halfspan;
        t->factor[d] = (t->n[d] - 1) / (t->end[d] - t->begin[d]);
        t->factor_inv[d] = 1 / t->factor[d];
    }
    *out = t;
    return VSG_OK;
}

vsg_status vsg_vina_target_receptor(const vsg_molecule *rec, vsg_vina_scoring sf, vsg_vina_target **out)
{
    if (!out || !rec) return vsg_fail(VSG_E_ARG, "vsg_vina_target_receptor: NULL argument");
    *out = NULL;
    size_t n = vsg_molecule_atom_count(rec);
    vsg_vina_target *t = calloc(1, sizeof *t);
    vsg_xs_type *xs = malloc(sizeof *xs * (n ? n : 1));
    int *cell = malloc(sizeof *cell * (n ? n : 1));
    vsg_status st = !t || !xs || !cell ? vsg_fail(VSG_E_NOMEM, "out of memory") : VSG_OK;
    if (st == VSG_OK) st = vina_tables_build(sf, &t->tables);
    if (st == VSG_OK) st = vsg_xs_assign(rec, xs);
    int m = 0;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    if (st == VSG_OK) {
        t->rxyz = malloc(sizeof *t->rxyz * 3 * (n ? n : 1));
        t->rtype = malloc(sizeof *t->rtype * (n ? n : 1));
        if (!t->rxyz || !t->rtype) st = vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    for (size_t i = 0; st == VSG_OK && i < n; i++) {
        if (xs[i] == VSG_XS_NONE) continue; /* hydrogens do not interact */
        vsg_atom_info a;
        vsg_molecule_atom(rec, i, &a);
        const double p[3] = {a.x, a.y, a.z};
        for (int d = 0; d < 3; d++) {
            if (p[d] < lo[d]) lo[d] = p[d];
            if (p[d] > hi[d]) hi[d] = p[d];
        }
        memcpy(&t->rxyz[3 * m], p, sizeof p);
        t->rtype[m++] = xs[i];
    }
    if (st == VSG_OK && m == 0) st = vsg_fail(VSG_E_DATA, "receptor %s: no atom with an XS type", vsg_molecule_source(rec));
    size_t ncells = 1;
    if (st == VSG_OK) {
        for (int d = 0; d < 3; d++) {
            t->cell_lo[d] = lo[d];
            t->ncell[d] = (int)floor((hi[d] - lo[d]) / 8.0) + 1;
            ncells *= (size_t)t->ncell[d];
        }
        t->cell_start = calloc(ncells + 1, sizeof *t->cell_start);
        if (!t->cell_start) st = vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    if (st == VSG_OK) { /* counting sort of the atoms by cell, file order kept within a cell */
        double *sx = malloc(sizeof *sx * 3 * (size_t)m);
        int *stype = malloc(sizeof *stype * (size_t)m), *fill = calloc(ncells, sizeof *fill);
        if (!sx || !stype || !fill) st = vsg_fail(VSG_E_NOMEM, "out of memory");
        for (int i = 0; st == VSG_OK && i < m; i++) {
            int c[3];
            for (int d = 0; d < 3; d++) {
                c[d] = (int)floor((t->rxyz[3 * i + d] - lo[d]) / 8.0);
                if (c[d] >= t->ncell[d]) c[d] = t->ncell[d] - 1;
            }
            cell[i] = c[0] + t->ncell[0] * (c[1] + t->ncell[1] * c[2]);
            t->cell_start[cell[i] + 1]++;
        }
        if (st == VSG_OK) {
            for (size_t c = 0; c < ncells; c++) t->cell_start[c + 1] += t->cell_start[c];
            for (int i = 0; i < m; i++) {
                int at = t->cell_start[cell[i]] + fill[cell[i]]++;
                memcpy(&sx[3 * at], &t->rxyz[3 * i], 3 * sizeof *sx);
                stype[at] = t->rtype[i];
            }
            free(t->rxyz);
            free(t->rtype);
            t->rxyz = sx, t->rtype = stype;
            sx = NULL, stype = NULL;
        }
        free(sx), free(stype), free(fill);
    }
    free(xs);
    free(cell);
    if (st != VSG_OK) {
        vsg_vina_target_free(t);
        return st;
    }
    t->nrec = m;
    *out = t;
    return VSG_OK;
}

/* Whether the receptor a (atoms) is the one the maps of t were made from: at up to ~4,000 nodes of
 * one map, spread over the box, the map's value against the same sum over a's atoms (the maps
 * hold exactly that sum). A wrong receptor (another protein, another conformation, a moved
 * frame) makes the poses' refinement and scores mean nothing, so it is refused: VSG_E_DATA when
 * most informative nodes (|value| between 0.01 and 2 kcal/mol on either side) differ by > 0.05. */
static vsg_status receptor_matches_maps(const vsg_vina_target *t, const vsg_vina_target *a, const char *source)
{
    int x = -1;
    for (int k = 0; k < VSG_XS_COUNT && x < 0; k++)
        if (t->map[k]) x = k;
    if (x < 0) return VSG_OK;
    const size_t nodes = (size_t)t->n[0] * (size_t)t->n[1] * (size_t)t->n[2];
    const size_t stride = nodes / 4000 + 1;
    long used = 0, off = 0;
    for (size_t i = 0; i < nodes; i += stride) {
        const int ix = (int)(i % (size_t)t->n[0]), iy = (int)(i / (size_t)t->n[0] % (size_t)t->n[1]),
                  iz = (int)(i / ((size_t)t->n[0] * (size_t)t->n[1]));
        const double q[3] = {t->begin[0] + ix * t->spacing, t->begin[1] + iy * t->spacing, t->begin[2] + iz * t->spacing};
        const double m = t->map[x][i], e = vina_atoms_sum(a, x, q);
        const double big = fabs(m) > fabs(e) ? fabs(m) : fabs(e);
        if (!(big > 0.01 && big < 2)) continue;
        used++;
        off += fabs(m - e) > 0.05;
    }
    if (used >= 20 && 2 * off > used)
        return vsg_fail(VSG_E_DATA, "receptor %s is not the one the maps were made from: at %ld of %ld grid points of the "
                        "%s map its atoms give another value (over 0.05 kcal/mol apart); give --receptor the file the "
                        "maps were made from", source, off, used, vsg_xs_type_name((vsg_xs_type)x));
    return VSG_OK;
}

vsg_status vsg_vina_target_add_receptor(vsg_vina_target *t, const vsg_molecule *rec)
{
    if (!t || !rec) return vsg_fail(VSG_E_ARG, "vsg_vina_target_add_receptor: NULL argument");
    if (!t->is_maps) return vsg_fail(VSG_E_ARG, "vsg_vina_target_add_receptor: the target must be a Vina map set");
    if (t->rxyz) return vsg_fail(VSG_E_ARG, "vsg_vina_target_add_receptor: the map set has its receptor already");
    vsg_vina_target *a = NULL;
    vsg_status st = vsg_vina_target_receptor(rec, t->tables.sf, &a);
    if (st != VSG_OK) return st;
    const size_t per = VINA_TABLE_BINS + 1;
    double *samples = malloc(sizeof *samples * per * VSG_XS_COUNT * VSG_XS_COUNT);
    if (!samples) {
        vsg_vina_target_free(a);
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    for (int x = 0; x < VSG_XS_COUNT; x++)
        for (int y = x; y < VSG_XS_COUNT; y++) {
            double *xy = samples + ((size_t)x * VSG_XS_COUNT + (size_t)y) * per;
            double *yx = samples + ((size_t)y * VSG_XS_COUNT + (size_t)x) * per;
            for (size_t k = 0; k < per; k++) {
                vsg_vina_terms e;
                const double r = sqrt((double)k / VINA_TABLE_FACTOR);
                xy[k] = yx[k] = vsg_vina_pair_terms(t->tables.sf, (vsg_xs_type)x, (vsg_xs_type)y, r, &e) == VSG_OK ? e.energy : 0;
            }
        }
    st = receptor_matches_maps(t, a, vsg_molecule_source(rec));
    if (st != VSG_OK) {
        free(samples);
        vsg_vina_target_free(a);
        return st;
    }
    /* the receptor's atoms move into the map set; the map set keeps its maps and tables */
    t->nrec = a->nrec, t->rxyz = a->rxyz, t->rtype = a->rtype, t->cell_start = a->cell_start;
    memcpy(t->cell_lo, a->cell_lo, sizeof t->cell_lo);
    memcpy(t->ncell, a->ncell, sizeof t->ncell);
    t->samples = samples;
    a->rxyz = NULL, a->rtype = NULL, a->cell_start = NULL;
    vsg_vina_target_free(a);
    return VSG_OK;
}

int vsg_vina_target_has_receptor(const vsg_vina_target *t)
{
    return t && t->rxyz != NULL;
}
