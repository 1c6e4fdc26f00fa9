/* main.c — the vsgrid command: dispatch to the subcommands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpu.h"

static const char usage[] =
    "vsgrid — GPU virtual-screening scoring engine: receptor electrostatics on grids\n"
    "\n"
    "usage: vsgrid COMMAND [options]   (vsgrid COMMAND --help for each command's options)\n"
    "\n"
    "commands:\n"
    "  grid RECEPTOR -o OUT.vsg      solve Poisson-Boltzmann, write the potential grid (kT/e)\n"
    "  energy RECEPTOR [--solvation] [--ligand LIG]\n"
    "                                total, solvation and interaction energies (kT, kcal/mol)\n"
    "  probe GRID LIGAND             potential at a ligand's atoms and Σ q·φ\n"
    "  info FILE                     describe a grid or molecule file\n"
    "  screen GRID LIBRARY... -o RESULTS.csv\n"
    "                                score ligand libraries / docking poses on a grid or an\n"
    "                                AutoGrid map set, one CSV row per record\n"
    "  rescore RECEPTOR POSES... -o RESULTS.csv\n"
    "                                build a PB or Coulomb grid around docking poses and\n"
    "                                score them (screen's CSV), in one command\n"
    "  bench GRID LIBRARY            every screening kernel on the same input against the\n"
    "                                CPU twin: time, throughput, error\n"
    "\n"
    "  --version                     print the version\n"
    "\n"
    "Units: Å, e, kT/e (PB potentials), kcal/mol and kT (energies); 298.15 K by default.\n"
    "Exit codes: 0 ok, 1 other failure, 2 usage, 3 bad input, 4 memory limit, 5 GPU,\n"
    "            6 not converged, 7 not in this build.\n";

/* The GPU a command line names (--device N / --devices N[,...]), else 0. */
static int gpu_index(int argc, char **argv)
{
    for (int i = 2; i + 1 < argc; i++)
        if ((!strcmp(argv[i], "--device") || !strcmp(argv[i], "--devices")) && argv[i + 1][0] >= '0' &&
            argv[i + 1][0] <= '9')
            return atoi(argv[i + 1]);
    return 0;
}

/* --device cpu / --devices cpu / --kernel cpu, or help: no GPU context needed. */
static int wants_cpu_only(int argc, char **argv)
{
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return 1;
        if (i + 1 < argc && (!strcmp(argv[i], "--device") || !strcmp(argv[i], "--devices") ||
                             !strcmp(argv[i], "--kernel")) && !strcmp(argv[i + 1], "cpu"))
            return 1;
        if (!strcmp(argv[i], "--device=cpu") || !strcmp(argv[i], "--devices=cpu") || !strcmp(argv[i], "--kernel=cpu"))
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        fputs(usage, stdout);
        return argc < 2 ? VSG_EXIT_USAGE : 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("vsgrid %s\n", vsg_version());
        return 0;
    }
    const char *cmd = argv[1];
    int (*run)(int, char **) = NULL;
    int gpu_command = 1; /* commands that may use a GPU: its context is made while they read input */
    if (!strcmp(cmd, "grid")) run = vsg_cmd_grid;
    else if (!strcmp(cmd, "energy")) run = vsg_cmd_energy;
    else if (!strcmp(cmd, "screen")) run = vsg_cmd_screen;
    else if (!strcmp(cmd, "rescore")) run = vsg_cmd_rescore;
    else if (!strcmp(cmd, "bench")) run = vsg_cmd_bench;
    else if (!strcmp(cmd, "probe")) run = vsg_cmd_probe, gpu_command = 0;
    else if (!strcmp(cmd, "info")) run = vsg_cmd_info, gpu_command = 0;
    if (run) {
        if (gpu_command && !wants_cpu_only(argc, argv)) vsg_gpu_warmup_start(gpu_index(argc, argv));
        int rc = run(argc - 1, argv + 1);
        vsg_gpu_warmup_join();
        return rc;
    }
    fprintf(stderr, "vsgrid: unknown command '%s'\n\n", cmd);
    fputs(usage, stderr);
    return VSG_EXIT_USAGE;
}
