/* prep_buffers.c — the growable buffers every step of receptor preparation writes to: the
 * summary's text (prep_printf) and the output atoms with their residues (prep_emit). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/prepare/prep_model.h"

void prep_printf(sbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0)
            return;
        if (b->s && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->n + (size_t)k + 1)
            cap *= 2;
        char *t = realloc(b->s, cap);
        if (!t) {
            b->oom = 1;
            return;
        }
        b->s = t;
        b->cap = cap;
    }
}

int prep_emit(job *j, const patom *a, int res)
{
    if (j->nout == j->capout) {
        int cap = j->capout ? 2 * j->capout : 8192;
        patom *t = realloc(j->out, (size_t)cap * sizeof *t);
        int *u = realloc(j->res_of, (size_t)cap * sizeof *u);
        if (t)
            j->out = t;
        if (u)
            j->res_of = u;
        if (!t || !u)
            return 0;
        j->capout = cap;
    }
    j->res_of[j->nout] = res;
    j->out[j->nout++] = *a;
    return 1;
}
