/* timer.c — monotonic wall clock. */
#define _POSIX_C_SOURCE 200809L
#include "grids/base/vsgrid.h"

#include <time.h>

double vsg_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
