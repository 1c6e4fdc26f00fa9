/* errors.h — how the library reports failures: set the thread-local message, return the status. */
#ifndef VSG_ERRORS_H
#define VSG_ERRORS_H

/* vsg_fail, vsg_warn, vsg_clear_error and VSG_PRINTF are public (vsgrid.h, "status"). */
#include "grids/base/vsgrid.h"

#endif
