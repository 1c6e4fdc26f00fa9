/* cli_surface.c — `vsgrid surface`: placeholder until the surface pipeline lands. */
#include <stdio.h>

#include "cli.h"

int vsg_cmd_surface(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("vsgrid surface: not implemented yet\n", stderr);
    return VSG_EXIT_UNSUPPORTED;
}
