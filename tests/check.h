/* check.h — assertions that stay on in every build type and print both values.
 * A test returns 0 (pass), 1 (fail) or 77 (skipped, with a reason on stdout). */
#ifndef VSG_CHECK_H
#define VSG_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int check_failures;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            check_failures++;                                                        \
        }                                                                            \
    } while (0)

/* |a − b| ≤ tol */
#define CHECK_NEAR(a, b, tol)                                                              \
    do {                                                                                   \
        double ca_ = (double)(a), cb_ = (double)(b), ct_ = (double)(tol);                  \
        if (!(fabs(ca_ - cb_) <= ct_)) {                                                   \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.10g, %s = %.10g, |diff| %.3g > %.3g\n", \
                    __FILE__, __LINE__, #a, ca_, #b, cb_, fabs(ca_ - cb_), ct_);           \
            check_failures++;                                                              \
        }                                                                                  \
    } while (0)

/* |a − b| ≤ rel·|b| */
#define CHECK_REL(a, b, rel)                                                                \
    do {                                                                                    \
        double ca_ = (double)(a), cb_ = (double)(b), cr_ = (double)(rel);                   \
        if (!(fabs(ca_ - cb_) <= cr_ * fabs(cb_))) {                                        \
            fprintf(stderr, "%s:%d: CHECK_REL failed: %s = %.10g, %s = %.10g, rel %.3g > %.3g\n", \
                    __FILE__, __LINE__, #a, ca_, #b, cb_, fabs(ca_ - cb_) / fabs(cb_), cr_); \
            check_failures++;                                                               \
        }                                                                                   \
    } while (0)

#define CHECK_STATUS(expr, expected)                                                      \
    do {                                                                                  \
        int cs_ = (int)(expr);                                                            \
        if (cs_ != (int)(expected)) {                                                     \
            fprintf(stderr, "%s:%d: CHECK_STATUS failed: %s = %d, expected %d (%s)\n",   \
                    __FILE__, __LINE__, #expr, cs_, (int)(expected), vsg_last_error());   \
            check_failures++;                                                             \
        }                                                                                 \
    } while (0)

#define CHECK_CONTAINS(haystack, needle)                                                    \
    do {                                                                                    \
        const char *ch_ = (haystack);                                                       \
        if (!ch_ || !strstr(ch_, (needle))) {                                               \
            fprintf(stderr, "%s:%d: CHECK_CONTAINS failed: \"%s\" does not contain \"%s\"\n", \
                    __FILE__, __LINE__, ch_ ? ch_ : "(null)", (needle));                    \
            check_failures++;                                                               \
        }                                                                                   \
    } while (0)

#define CHECK_EXIT() return check_failures ? 1 : 0

/* The whole test is skipped (77), its reason on stdout first ("skipped: ..."); checks that
 * already failed make it a failure instead. */
#define SKIP(...)                                                           \
    do {                                                                    \
        printf("skipped: ");                                                \
        printf(__VA_ARGS__);                                                \
        printf("\n");                                                       \
        fflush(stdout);                                                     \
        if (check_failures) {                                               \
            fprintf(stderr, "%d checks failed before the skip\n", check_failures); \
            return 1;                                                       \
        }                                                                   \
        return 77;                                                          \
    } while (0)

/* The test goes on without the checks WHAT (WHY): one line ctest's log keeps and
 * tests/skip_report.sh lists, e.g. VSG_SKIP_PART("the 1IEP case", VSG_NO_SHARED). */
#define VSG_SKIP_PART(what, why)                              \
    do {                                                      \
        printf("SKIPPED-PART: %s (%s)\n", (what), (why));     \
        fflush(stdout);                                       \
    } while (0)
#define VSG_NO_SHARED "no ../shared/data; set VSG_SHARED_DATA"

/* $VSG_SHARED_DATA when set (NULL when it does not exist: set it to a missing folder to run
 * without the real data), else ../shared/data when present, else NULL. */
static inline const char *shared_data_dir(void)
{
    static char path[1024];
    struct stat st;
    const char *env = getenv("VSG_SHARED_DATA");
    if (env && *env) return stat(env, &st) == 0 ? env : NULL;
    snprintf(path, sizeof path, "%s/../shared/data", VSG_SOURCE_DIR);
    if (stat(path, &st) == 0) return path;
    return NULL;
}

/* Path under the source tree (data/...). */
static inline const char *source_path(const char *rel)
{
    static char path[4][1024];
    static int slot;
    slot = (slot + 1) % 4;
    snprintf(path[slot], sizeof path[slot], "%s/%s", VSG_SOURCE_DIR, rel);
    return path[slot];
}

/* A scratch directory for the test's files. */
static inline const char *scratch_path(const char *name)
{
    static char path[4][1024];
    static int slot;
    slot = (slot + 1) % 4;
    snprintf(path[slot], sizeof path[slot], "%s/%s", VSG_BINARY_DIR, name);
    return path[slot];
}

#endif
