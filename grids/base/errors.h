/* errors.h — how the library reports failures: set the thread-local message, return the status. */
#ifndef VSG_ERRORS_H
#define VSG_ERRORS_H

#include "grids/base/vsgrid.h"

#if defined(__GNUC__)
#define VSG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define VSG_PRINTF(a, b)
#endif

/* Records the message (printf-style) as vsg_last_error() and returns `status`. */
vsg_status vsg_fail(vsg_status status, const char *fmt, ...) VSG_PRINTF(2, 3);
/* Issues a warning through the handler (see vsg_set_warning_handler). */
void vsg_warn(const char *fmt, ...) VSG_PRINTF(1, 2);
/* Clears the thread-local message. */
void vsg_clear_error(void);

#endif
