/* profile.h — VSG_PROFILE=1: the time of each phase of a PB solve on stderr, to see where a
 * solve's fixed costs go (docs/PERFORMANCE.md). Off by default; costs one getenv once. */
#ifndef VSG_PROFILE_H
#define VSG_PROFILE_H

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when VSG_PROFILE is set to something other than "0". */
int vsg_profiling(void);
/* When profiling: prints "vsgrid profile:   WHAT  S s" with S the seconds since *mark; then
 * (always) sets *mark to now. */
void vsg_profile_phase(double *mark, const char *what);

#ifdef __cplusplus
}
#endif
#endif
