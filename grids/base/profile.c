/* profile.c — VSG_PROFILE phase times (profile.h). */
#include "grids/base/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"

int vsg_profiling(void)
{
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("VSG_PROFILE");
        on = e && *e && strcmp(e, "0") != 0;
    }
    return on;
}

void vsg_profile_phase(double *mark, const char *what)
{
    const double now = vsg_now();
    if (vsg_profiling()) fprintf(stderr, "vsgrid profile:   %-34s %.4f s\n", what, now - *mark);
    *mark = now;
}
