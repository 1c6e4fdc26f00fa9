/* grid_ahead.c — a grid made by a helper thread (grid_ahead.h). */
#include "grids/formats/grid_ahead.h"

#include <stdio.h>
#include <string.h>

#include "grids/base/vsgrid.h"

static void *make(void *arg)
{
    vsg_grid_ahead *a = arg;
    a->grid = vsg_grid_new(a->n, a->origin, a->spacing, a->units);
    if (a->grid) memset(a->grid->data, 0, vsg_grid_nodes(a->grid) * sizeof(float)); /* the page faults, here */
    return NULL;
}

void vsg_grid_ahead_start(vsg_grid_ahead *a, const int n[3], const double origin[3], double spacing,
                          const char *units)
{
    memset(a, 0, sizeof *a);
    memcpy(a->n, n, sizeof a->n);
    memcpy(a->origin, origin, sizeof a->origin);
    for (int d = 0; d < 3; d++) a->spacing[d] = spacing;
    snprintf(a->units, sizeof a->units, "%s", units);
    a->started = pthread_create(&a->thread, NULL, make, a) == 0;
}

vsg_grid *vsg_grid_ahead_finish(vsg_grid_ahead *a)
{
    if (a->started) pthread_join(a->thread, NULL);
    else make(a);
    a->started = 0;
    if (!a->grid) {
        /* The thread's own message may have gone with it: say it here. */
        vsg_fail(VSG_E_NOMEM, "out of memory (a %dx%dx%d potential grid)", a->n[0], a->n[1], a->n[2]);
        return NULL;
    }
    vsg_grid *g = a->grid;
    a->grid = NULL;
    return g;
}
