/* cli_merge.c — `vsgrid merge SHARD.csv... -o OUT.csv`: (being written) */
#include <stdio.h>

#include "engine/cli/cli.h"

int vsg_cmd_merge(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "vsgrid merge: not yet\n");
    return VSG_EXIT_UNSUPPORTED;
}
