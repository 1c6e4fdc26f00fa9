/* screen_stop.c — a stop request that a signal handler may make. Screens check it between
 * chunks, never inside one, so what they have written when they return is whole rows in input
 * order: the state `--resume` and a shard's rerun go on from. */
#include <signal.h>

#include "grids/base/vsgrid.h"

static volatile sig_atomic_t stop_requested;

void vsg_screen_stop(void) { stop_requested = 1; }

int vsg_screen_stop_requested(void) { return stop_requested != 0; }

void vsg_screen_stop_reset(void) { stop_requested = 0; }
