/* errors.c — status names, thread-local last error, warning callback. */
#include "grids/base/vsgrid.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#if defined(_OPENMP)
#include <omp.h>
#endif

static _Thread_local char last_error[1024];
static vsg_warning_fn warning_fn;
static void *warning_user;
static size_t warnings_issued;

const char *vsg_status_name(vsg_status s)
{
    switch (s) {
#define VSG_X_NAME(name, value, shortname, text) case name: return shortname;
        VSG_STATUS_LIST(VSG_X_NAME)
#undef VSG_X_NAME
    }
    return "unknown";
}

const char *vsg_status_text(vsg_status s)
{
    switch (s) {
#define VSG_X_TEXT(name, value, shortname, text) case name: return text;
        VSG_STATUS_LIST(VSG_X_TEXT)
#undef VSG_X_TEXT
    }
    return "unknown status";
}

const char *vsg_last_error(void) { return last_error; }

const char *vsg_version(void) { return VSG_VERSION; }

void vsg_clear_error(void) { last_error[0] = '\0'; }

vsg_status vsg_fail(vsg_status status, const char *fmt, ...)
{
    /* formatted aside first: callers often pass vsg_last_error() itself as an argument (a message
     * wrapped with its context), which would be read while it is overwritten */
    char msg[sizeof last_error];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    memcpy(last_error, msg, sizeof last_error);
    return status;
}

void vsg_set_warning_handler(vsg_warning_fn fn, void *user)
{
    warning_fn = fn;
    warning_user = user;
}

size_t vsg_warning_count(void) { return warnings_issued; }

void vsg_warn(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
#if defined(_OPENMP)
#pragma omp atomic
#endif
    warnings_issued++;
    if (warning_fn)
        warning_fn(msg, warning_user);
    else
        fprintf(stderr, "vsgrid: warning: %s\n", msg);
}
