/* test_value_text.c — the fast map-value text (grids/formats/value_text.c) against printf:
 * vsg_text_fixed3 must equal printf("%.3f\n") for every float, ties (x·1000 = n + ½, e.g.
 * 0.0625) and signs included; vsg_text_autogrid equals autogrid4's rule; vsg_text_write_values
 * writes exactly what one fprintf per value writes; vsg_autogrid_maps_write (maps side by side)
 * writes what one map at a time writes, and names a failing path. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "grids/base/vsgrid.h"
#include "grids/formats/grid.h"
#include "grids/formats/value_text.h"

static uint64_t rng = 88172645463325252ull;
static uint32_t next32(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static int same_fixed3(float x)
{
    char a[64], b[64];
    size_t n = vsg_text_fixed3(x, a);
    a[n] = 0;
    snprintf(b, sizeof b, "%.3f\n", (double)x);
    if (strcmp(a, b)) {
        fprintf(stderr, "fixed3(%.9g): '%s' printf '%s'\n", (double)x, a, b);
        return 0;
    }
    return 1;
}

static void autogrid_ref(double v, char *o)
{
    if (fabs(v) < 0.0001) strcpy(o, "0.\n");
    else snprintf(o, 64, "%.3f\n", (double)(float)(floor(v * 1000.0 + 0.5) / 1000.0));
}

int main(void)
{
    /* ties and edges */
    const float edge[] = {0.0f, -0.0f, 0.0625f, -0.0625f, 0.0005f, -0.0005f, 0.1875f, 2.5e-4f, 1e5f, -1e5f,
                          123456.789f, 0.9995f, 9.9995f, 1e-30f, 3e38f, -3e38f, 16777216.f, 0.001f, 1.0f};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) CHECK(same_fixed3(edge[i]));
    /* every multiple of 1/16 up to 64 (all of them ties or exact) */
    for (int k = -1024; k <= 1024; k++) CHECK(same_fixed3((float)k / 16.f));
    /* random bit patterns (finite) and random map-like values */
    int bad = 0;
    for (int i = 0; i < 2000000 && bad < 5; i++) {
        uint32_t u = next32();
        float x;
        memcpy(&x, &u, sizeof x);
        if (!isfinite(x)) continue;
        if (!same_fixed3(x)) bad++;
        float y = (float)((int)(next32() % 2000001) - 1000000) / 1000.f * (float)(1 + next32() % 100);
        if (!same_fixed3(y)) bad++;
    }
    CHECK(bad == 0);
    bad = 0;
    for (int i = 0; i < 1000000 && bad < 5; i++) {
        double v = ((double)next32() / 4294967296.0 - 0.5) * (i % 3 ? 2e-3 : 2e4);
        float fv = (float)v;
        char a[64], b[64];
        size_t n = vsg_text_autogrid((double)fv, a);
        a[n] = 0;
        autogrid_ref((double)fv, b);
        if (strcmp(a, b)) fprintf(stderr, "autogrid(%.9g): '%s' ref '%s'\n", (double)fv, a, b), bad++;
    }
    CHECK(bad == 0);

    /* a whole grid, both styles, against one fprintf per value */
    const size_t plane = 37 * 41;
    const int nz = 29;
    float *v = malloc(plane * nz * sizeof *v);
    for (size_t i = 0; i < plane * nz; i++) v[i] = (float)(((double)next32() / 4294967296.0 - 0.5) * 30.0);
    v[5] = 1e5f, v[6] = 0.00005f, v[7] = -2.5e-4f;
    for (int style = 0; style < 2; style++) {
        FILE *a = tmpfile(), *b = tmpfile();
        CHECK(vsg_text_write_values(a, v, plane, nz, (vsg_text_style)style) == 0);
        for (size_t i = 0; i < plane * nz; i++) {
            char o[64];
            if (style == VSG_TEXT_AUTOGRID) autogrid_ref((double)v[i], o);
            else snprintf(o, sizeof o, "%.4g\n", (double)v[i]);
            fputs(o, b);
        }
        long la = ftell(a), lb = ftell(b);
        CHECK(la == lb && la > 0);
        char *ba = malloc((size_t)la + 1), *bb = malloc((size_t)lb + 1);
        rewind(a), rewind(b);
        CHECK(fread(ba, 1, (size_t)la, a) == (size_t)la && fread(bb, 1, (size_t)lb, b) == (size_t)lb);
        CHECK(la == lb && memcmp(ba, bb, (size_t)la) == 0);
        free(ba), free(bb);
        fclose(a), fclose(b);
    }
    free(v);

    /* several maps written side by side equal the same maps written one by one; a failing path
     * gives its own status and message */
    {
        const int n[3] = {21, 23, 19};
        const double o[3] = {1, 2, 3}, h[3] = {0.375, 0.375, 0.375};
        vsg_grid *g[3];
        const char *pa[3] = {"vt_par0.map", "vt_par1.map", "vt_par2.map"};
        const char *pb[3] = {"vt_ser0.map", "vt_ser1.map", "vt_ser2.map"};
        for (int m = 0; m < 3; m++) {
            g[m] = vsg_grid_new(n, o, h, "kcal/mol");
            for (size_t i = 0; i < vsg_grid_nodes(g[m]); i++)
                g[m]->data[i] = (float)(((double)next32() / 4294967296.0 - 0.5) * (m + 1) * 10.0);
            CHECK(vsg_autogrid_map_write(g[m], pb[m], NULL) == VSG_OK);
        }
        CHECK(vsg_autogrid_maps_write((const vsg_grid *const *)g, pa, 3, NULL) == VSG_OK);
        for (int m = 0; m < 3; m++) {
            FILE *a = fopen(pa[m], "rb"), *b = fopen(pb[m], "rb");
            CHECK(a && b);
            int same = a && b;
            for (int ca = 0, cb = 0; same && (ca != EOF || cb != EOF);) {
                ca = fgetc(a), cb = fgetc(b);
                same = ca == cb;
            }
            CHECK(same);
            if (a) fclose(a);
            if (b) fclose(b);
            remove(pa[m]), remove(pb[m]);
        }
        const char *badp[3] = {"vt_ok.map", "no_such_dir/vt.map", "vt_ok2.map"};
        CHECK(vsg_autogrid_maps_write((const vsg_grid *const *)g, badp, 3, NULL) == VSG_E_IO);
        CHECK(strstr(vsg_last_error(), "no_such_dir/vt.map") != NULL);
        remove(badp[0]), remove(badp[2]);
        for (int m = 0; m < 3; m++) vsg_grid_free(g[m]);
    }
    if (check_failures) return 1;
    printf("value_text: fixed3 equals printf on edges, ties, 4M random floats; grids equal fprintf\n");
    return 0;
}
