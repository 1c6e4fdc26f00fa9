/* screen_job_internal.h — the shard marker (PATH.done) of a campaign's task, written by the
 * screen job (screen_job.c) when a shard is complete; its format is vsgrid.h's ("shards of a
 * campaign and their merge"). */
#ifndef VSG_SCREEN_JOB_INTERNAL_H
#define VSG_SCREEN_JOB_INTERNAL_H

#include <stdint.h>

#include "grids/base/vsgrid.h"

#define VSG_SHARD_MAX_RANGES 64

typedef struct {
    uint64_t fingerprint;
    size_t total;                          /* records of the whole libraries */
    vsg_record_range ranges[VSG_SHARD_MAX_RANGES];
    int nranges;
    size_t rows;
    const char *poses;                     /* writing: the pose file's path (NULL: none) */
    char poses_name[4200];                 /* reading: its name as recorded ("-": none) */
    char poses_select[64];                 /* all | top K | below S */
} vsg_shard_marker;

/* CSV.done, written atomically (a temporary file renamed); VSG_OK or VSG_E_IO. */
vsg_status vsg_shard_marker_write(const char *csv, const vsg_shard_marker *m);
/* Reads CSV.done; VSG_OK, VSG_E_IO, VSG_E_FORMAT. */
vsg_status vsg_shard_marker_read(const char *csv, vsg_shard_marker *m);

#endif
