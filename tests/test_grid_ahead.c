/* test_grid_ahead.c — the grid a helper thread makes while the GPU works (grids/formats/grid_ahead.h):
 * the asked shape, origin, spacing and units, every value zero (the thread touched and cleared
 * each page; also when the allocator hands back a dirty block), the same when started and
 * finished at once, and a clear failure for a grid that cannot be allocated. */
#include <string.h>

#include "check.h"
#include "grids/formats/grid_ahead.h"

static void check_grid(const int n[3], double h)
{
    const double origin[3] = {-1.5, 2.25, 3.0};
    vsg_grid_ahead a;
    vsg_grid_ahead_start(&a, n, origin, h, "kT/e");
    vsg_grid *g = vsg_grid_ahead_finish(&a);
    CHECK(g != NULL);
    if (!g) return;
    CHECK(g->n[0] == n[0] && g->n[1] == n[1] && g->n[2] == n[2]);
    CHECK(g->origin[0] == origin[0] && g->origin[1] == origin[1] && g->origin[2] == origin[2]);
    CHECK(g->spacing[0] == h && g->spacing[1] == h && g->spacing[2] == h);
    CHECK(strcmp(g->units, "kT/e") == 0);
    size_t nonzero = 0;
    for (size_t i = 0; i < vsg_grid_nodes(g); i++) nonzero += g->data[i] != 0.0f;
    CHECK(nonzero == 0);
    vsg_grid_free(g);
}

/* The clear must be the thread's doing, not the luck of fresh pages: a grid of 80 KiB (above
 * glibc's per-thread cache, below its mmap threshold) is filled with garbage and freed, and the
 * next helper thread, which takes over the finished one's arena, normally gets that block
 * back. Without the clear in grid_ahead.c this fails. */
static void check_reuse(void)
{
    const int n[3] = {9, 9, 250};
    const double origin[3] = {0, 0, 0};
    size_t nonzero = 0;
    for (int round = 0; round < 4; round++) {
        vsg_grid_ahead a;
        vsg_grid_ahead_start(&a, n, origin, 0.5, "kT/e");
        vsg_grid *g = vsg_grid_ahead_finish(&a);
        CHECK(g != NULL);
        if (!g) return;
        for (size_t i = 0; i < vsg_grid_nodes(g); i++) nonzero += g->data[i] != 0.0f;
        memset(g->data, 0xA5, vsg_grid_nodes(g) * sizeof(float));
        vsg_grid_free(g);
    }
    CHECK(nonzero == 0);
}

int main(void)
{
    const int small[3] = {3, 5, 7}, large[3] = {129, 65, 33};
    check_grid(small, 0.5);
    check_grid(large, 0.25);
    check_reuse();
    /* Past the address space: the thread's allocation fails and finish says so. */
    const int huge[3] = {2000000000, 2000000000, 2000000000};
    const double origin[3] = {0, 0, 0};
    vsg_grid_ahead a;
    vsg_grid_ahead_start(&a, huge, origin, 1.0, "kT/e");
    CHECK(vsg_grid_ahead_finish(&a) == NULL);
    CHECK(strstr(vsg_last_error(), "potential grid") != NULL);
    CHECK_EXIT();
}
