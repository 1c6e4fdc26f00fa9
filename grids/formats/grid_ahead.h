/* grid_ahead.h — a float grid allocated, and each of its pages touched, by a helper thread while
 * the caller does other work. The first touch of a fresh buffer costs a page fault per 4 KiB:
 * ~0.3 s for the 540 MB potential of a 513³ PB level, which the GPU solver would otherwise pay
 * after its last iteration, when it copies the answer into the grid (docs/PERFORMANCE.md). Started
 * before the GPU build, it is done before the answer comes back. Without a thread (none could be
 * started) the grid is made when it is asked for. */
#ifndef VSG_GRID_AHEAD_H
#define VSG_GRID_AHEAD_H

#include <pthread.h>

#include "grids/formats/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    pthread_t thread;
    int started;
    int n[3];
    double origin[3], spacing[3];
    char units[16];
    vsg_grid *grid;
} vsg_grid_ahead;

/* Starts making an n grid (values zero). */
void vsg_grid_ahead_start(vsg_grid_ahead *a, const int n[3], const double origin[3], double spacing,
                          const char *units);
/* The grid (the caller owns it), or NULL with vsg_last_error set when it could not be allocated.
 * Must be called once for every start. */
vsg_grid *vsg_grid_ahead_finish(vsg_grid_ahead *a);

#ifdef __cplusplus
}
#endif

#endif
