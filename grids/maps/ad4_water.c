/* ad4_water.c — the W map of hydrated docking (vsgrid.h, "Hydrated docking"), computed as
 * AutoDock Vina's example/autodock_scripts/mapwater.py computes it with its defaults (mode BEST,
 * which runs its function `best`; weight 0.6, OA and HD weights 1, entropy −0.2; Forli & Olson,
 * J. Med. Chem. 2012, 55, 623):
 *
 *     W = −0.2                       when OA > 0 or HD > 0 (a probe that does not fit: the
 *                                     "entropy" penalty of a water left in place)
 *       = 0.6 · min(OA, HD)           otherwise
 *
 * node by node on the OA and HD maps as their files print them (mapwater.py reads the text, not
 * the maps as computed), written with mapwater.py's "%1.4f" under the OA map's six header lines,
 * copied byte for byte. The arithmetic is the same double arithmetic as Python's, so the file is
 * the one mapwater.py writes from the same two maps. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"

#define HEADER_LINES 6 /* GRID_PARAMETER_FILE .. CENTER, as autogrid4 writes them */
#define MAX_LINE 4096

double vsg_ad4_water_value(double oa, double hd)
{
    /* mapwater.py's best(): weights applied first (1 and 1 by default), then the rule */
    oa *= VSG_W_MAP_OA_WEIGHT;
    hd *= VSG_W_MAP_HD_WEIGHT;
    if (oa > 0 || hd > 0) return VSG_W_MAP_ENTROPY;
    return (oa < hd ? oa : hd) * VSG_W_MAP_WEIGHT;
}

typedef struct {
    FILE *f;
    const char *path;
    long line;
    char header[HEADER_LINES][MAX_LINE];
    long n; /* nodes the header's NELEMENTS promise */
} map_text;

static vsg_status open_map(map_text *m, const char *path)
{
    memset(m, 0, sizeof *m);
    m->path = path;
    if (!(m->f = fopen(path, "r"))) return vsg_fail(VSG_E_IO, "%s: cannot open (%s)", path, strerror(errno));
    int nx = -1, ny = -1, nz = -1;
    for (int i = 0; i < HEADER_LINES; i++) {
        m->line++;
        if (!fgets(m->header[i], MAX_LINE, m->f))
            return vsg_fail(VSG_E_FORMAT, "%s:%ld: the map ends inside its %d header lines", path, m->line, HEADER_LINES);
        if (!strchr(m->header[i], '\n') && !feof(m->f))
            return vsg_fail(VSG_E_FORMAT, "%s:%ld: header line longer than %d characters", path, m->line, MAX_LINE - 1);
        if (!strncmp(m->header[i], "NELEMENTS", 9) && sscanf(m->header[i] + 9, "%d %d %d", &nx, &ny, &nz) != 3)
            return vsg_fail(VSG_E_FORMAT, "%s:%ld: malformed NELEMENTS line", path, m->line);
    }
    if (nx < 1 || ny < 1 || nz < 1 || nx > 4096 || ny > 4096 || nz > 4096)
        return vsg_fail(VSG_E_FORMAT, "%s: no usable NELEMENTS line in the %d header lines (an AutoGrid .map?)", path,
                        HEADER_LINES);
    m->n = (long)(nx + 1) * (ny + 1) * (nz + 1); /* NELEMENTS counts intervals: odd, +1 node each axis */
    return VSG_OK;
}

/* The next value (one a line, as autogrid4 writes them); *got 0 at the end of the file. */
static vsg_status next_value(map_text *m, double *v, int *got)
{
    char buf[256];
    *got = 0;
    m->line++;
    if (!fgets(buf, sizeof buf, m->f)) {
        if (ferror(m->f)) return vsg_fail(VSG_E_IO, "%s: read error", m->path);
        return VSG_OK;
    }
    char *end;
    errno = 0;
    *v = strtod(buf, &end);
    while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n') end++;
    if (end == buf || *end || errno == ERANGE || !isfinite(*v))
        return vsg_fail(VSG_E_FORMAT, "%s:%ld: not a map value: '%.40s'", m->path, m->line, buf);
    *got = 1;
    return VSG_OK;
}

vsg_status vsg_ad4_water_map_write(const char *oa_path, const char *hd_path, const char *w_path, vsg_ad4_water_stats *stats)
{
    if (stats) memset(stats, 0, sizeof *stats);
    if (!oa_path || !hd_path || !w_path) return vsg_fail(VSG_E_ARG, "vsg_ad4_water_map_write: NULL argument");
    map_text *oa = malloc(sizeof *oa), *hd = malloc(sizeof *hd); /* 2 × 24 KB of header: off the stack */
    FILE *out = NULL;
    vsg_status st = VSG_OK;
    if (!oa || !hd) {
        free(oa), free(hd);
        return vsg_fail(VSG_E_NOMEM, "W map: out of memory");
    }
    memset(oa, 0, sizeof *oa), memset(hd, 0, sizeof *hd);
    if ((st = open_map(oa, oa_path)) != VSG_OK || (st = open_map(hd, hd_path)) != VSG_OK) goto done;
    /* the two maps must be one grid: mapwater.py pairs them line by line without looking */
    for (int i = 3; i < HEADER_LINES; i++) /* SPACING, NELEMENTS, CENTER */
        if (strcmp(oa->header[i], hd->header[i])) {
            st = vsg_fail(VSG_E_DATA, "%s:%d and %s:%d differ (%.*s): the OA and HD maps are not one grid", oa_path, i + 1,
                          hd_path, i + 1, (int)strcspn(oa->header[i], "\r\n"), oa->header[i]);
            goto done;
        }
    if (!(out = fopen(w_path, "w"))) {
        st = vsg_fail(VSG_E_IO, "%s: cannot write (%s)", w_path, strerror(errno));
        goto done;
    }
    for (int i = 0; i < HEADER_LINES; i++) fputs(oa->header[i], out);
    long n = 0, from_oa = 0, from_hd = 0;
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (;;) {
        double a = 0, h = 0;
        int ga, gh;
        if ((st = next_value(oa, &a, &ga)) != VSG_OK || (st = next_value(hd, &h, &gh)) != VSG_OK) goto done;
        if (!ga || !gh) {
            if (ga != gh) {
                st = vsg_fail(VSG_E_DATA, "%s ends after %ld values, %s goes on: the OA and HD maps differ in size",
                              ga ? hd_path : oa_path, n, ga ? oa_path : hd_path);
                goto done;
            }
            break;
        }
        const double w = vsg_ad4_water_value(a, h);
        /* mapwater.py's counts: points that took OA's value and those that took HD's */
        if (!(a * VSG_W_MAP_OA_WEIGHT > 0 || h * VSG_W_MAP_HD_WEIGHT > 0)) {
            if (a * VSG_W_MAP_OA_WEIGHT < h * VSG_W_MAP_HD_WEIGHT) from_oa++;
            else from_hd++;
        }
        if (w < lo) lo = w;
        if (w > hi) hi = w;
        fprintf(out, "%1.4f\n", w);
        n++;
    }
    if (n != oa->n) {
        st = vsg_fail(VSG_E_DATA, "%s: %ld values where NELEMENTS promises %ld", oa_path, n, oa->n);
        goto done;
    }
    if (stats) {
        stats->nodes = n;
        stats->from_oa = from_oa;
        stats->from_hd = from_hd;
        stats->lowest = lo;
        stats->highest = hi;
    }
done:
    if (oa->f) fclose(oa->f);
    if (hd->f) fclose(hd->f);
    if (out) {
        const int bad = ferror(out);
        if ((fclose(out) != 0 || bad) && st == VSG_OK) st = vsg_fail(VSG_E_IO, "%s: write error", w_path);
    }
    if (st != VSG_OK && out) remove(w_path); /* never leave half a map that a later dock would read */
    free(oa), free(hd);
    return st;
}
