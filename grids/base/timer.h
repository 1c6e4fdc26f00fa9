/* timer.h — wall clock in seconds (monotonic): vsg_now is public (vsgrid.h, "devices and
 * processes"). */
#ifndef VSG_TIMER_H
#define VSG_TIMER_H
#include "grids/base/vsgrid.h"
#endif
