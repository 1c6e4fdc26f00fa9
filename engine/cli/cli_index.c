/* cli_index.c — `vsgrid index LIBRARY...`: (being written) */
#include <stdio.h>

#include "engine/cli/cli.h"

int vsg_cmd_index(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "vsgrid index: not yet\n");
    return VSG_EXIT_UNSUPPORTED;
}
