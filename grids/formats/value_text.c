/* value_text.c — grid values as text, one per line, the way AutoGrid and Vina print them, fast:
 * planes are formatted in parallel (OpenMP) into their own buffers and written in order. For an
 * AutoGrid map the formatting was nearly all of a map set's time (fprintf, ~150 ns a value, one
 * thread: 15 maps of a 193³ box took longer than computing them); here "%.3f" is formed from
 * integers, exactly as glibc's printf forms it (tests/test_value_text.c compares every case). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/formats/value_text.h"

#ifdef _OPENMP
#include <omp.h>
#else
static int omp_in_parallel(void) { return 0; }
#endif

#define AG_PRECISION 0.0001 /* autogrid.h PRECISION: smaller |values| print as "0." */
#define SLOT 48             /* characters a value may take in the fast forms (fallback: snprintf) */
#define BATCH_BYTES (64u << 20)

size_t vsg_text_fixed3(float x, char *o)
{
    /* x·1000 is exact in double (24 + 10 significant bits), so rounding it half to even is
     * printf's rounding of the exact decimal value of x. */
    const double t = (double)x * 1000.0, a = fabs(t);
    if (!(a < 1e15)) return (size_t)snprintf(o, SLOT, "%.3f\n", (double)x);
    const double f = floor(a), d = a - f;
    uint64_t k = (uint64_t)f;
    if (d > 0.5 || (d == 0.5 && (k & 1u))) k++;
    char *p = o;
    if (signbit(x)) *p++ = '-';
    char digits[24];
    int n = 0;
    uint64_t ip = k / 1000u;
    do {
        digits[n++] = (char)('0' + ip % 10u);
        ip /= 10u;
    } while (ip);
    while (n) *p++ = digits[--n];
    const unsigned fr = (unsigned)(k % 1000u);
    p[0] = '.', p[1] = (char)('0' + fr / 100u), p[2] = (char)('0' + fr / 10u % 10u), p[3] = (char)('0' + fr % 10u);
    p[4] = '\n';
    return (size_t)(p + 5 - o);
}

size_t vsg_text_autogrid(double v, char *o)
{
    if (fabs(v) < AG_PRECISION) {
        memcpy(o, "0.\n", 3);
        return 3;
    }
    return vsg_text_fixed3((float)(floor(v * 1000.0 + 0.5) / 1000.0), o);
}

static size_t format_one(vsg_text_style style, float v, char *o)
{
    if (style == VSG_TEXT_AUTOGRID) return vsg_text_autogrid((double)v, o);
    return (size_t)snprintf(o, SLOT, "%.4g\n", (double)v);
}

int vsg_text_write_values(FILE *f, const float *v, size_t plane, int nz, vsg_text_style style)
{
    if (!f || (!v && plane && nz > 0)) return -1;
    if (plane == 0 || nz <= 0) return 0;
    /* A value's room: 16 characters hold every "%.4g" and every "%.3f" below 1e9 (the usual
     * case: a smaller buffer is fewer fresh pages to fault in, which cost more than the
     * formatting on a pocket box); else 48. */
    size_t slot = 16;
    if (style == VSG_TEXT_AUTOGRID) {
        float big = 0.f;
        const size_t n = plane * (size_t)nz;
#pragma omp parallel for reduction(max : big) schedule(static)
        for (size_t i = 0; i < n; i++) {
            const float a = fabsf(v[i]);
            if (!(a < 1e8f)) big = 1e30f; /* also NaN */
        }
        if (big > 0.f) slot = SLOT;
    }
    /* inside another parallel region (maps written side by side) a few planes at a time */
    int batch = (int)((omp_in_parallel() ? BATCH_BYTES / 16 : BATCH_BYTES) / (slot * plane));
    if (batch < 1) batch = 1;
    if (batch > nz) batch = nz;
    char *buf = malloc((size_t)batch * slot * plane);
    size_t *len = malloc((size_t)batch * sizeof *len);
    int bad = 0;
    if (!buf || !len) { /* no memory for the fast path: one value at a time */
        char o[SLOT];
        for (size_t i = 0; i < plane * (size_t)nz && !bad; i++)
            bad = fwrite(o, 1, format_one(style, v[i], o), f) == 0;
        free(buf), free(len);
        return bad ? -1 : 0;
    }
    for (int z0 = 0; z0 < nz && !bad; z0 += batch) {
        const int nb = z0 + batch <= nz ? batch : nz - z0;
#pragma omp parallel for schedule(static)
        for (int b = 0; b < nb; b++) {
            char *o = buf + (size_t)b * slot * plane;
            const float *p = v + plane * (size_t)(z0 + b);
            size_t k = 0;
            for (size_t i = 0; i < plane; i++) k += format_one(style, p[i], o + k);
            len[b] = k;
        }
        for (int b = 0; b < nb && !bad; b++) bad = fwrite(buf + (size_t)b * slot * plane, 1, len[b], f) != len[b];
    }
    free(buf), free(len);
    return bad ? -1 : 0;
}
