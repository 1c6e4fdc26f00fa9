/* main.c — the vsgrid command: dispatch to the subcommands. */
#include <stdio.h>
#include <string.h>

#include "engine/cli/cli.h"
#include "grids/base/vsgrid.h"  /* vsg_mpi_* (issue 7) */

int vsg_cmd_check_poses(int argc, char **argv); /* cli_check_poses.c: PoseBusters' pose checks */

static const char usage[] =
    "vsgrid — GPU virtual-screening scoring engine: receptor electrostatics on grids\n"
    "\n"
    "usage: vsgrid COMMAND [options]   (vsgrid COMMAND --help for each command's options)\n"
    "\n"
    "commands:\n"
    "  grid RECEPTOR -o OUT.vsg      solve Poisson-Boltzmann, write the potential grid (kT/e);\n"
    "                                --method coulomb, or --gpf F.gpf --autogrid-maps P: the\n"
    "                                whole AutoDock4 map set a gpf asks for (as autogrid4)\n"
    "  energy RECEPTOR [--solvation] [--ligand LIG]\n"
    "                                total, solvation and interaction energies (kT, kcal/mol)\n"
    "  probe GRID LIGAND             potential at a ligand's atoms and Σ q·φ\n"
    "  info FILE                     describe a grid, molecule, ligand library or map set\n"
    "  screen GRID LIBRARY... -o RESULTS.csv\n"
    "                                score ligand libraries / docking poses on a grid or an\n"
    "                                AutoGrid map set, one CSV row per record\n"
    "  rescore RECEPTOR POSES... -o RESULTS.csv\n"
    "                                score docking poses in one command: on a PB or Coulomb\n"
    "                                grid built around them, with --scoring ad4 (autodock4's\n"
    "                                epdb) or vina|vinardo (vina --score_only)\n"
    "  maps RECEPTOR.pdbqt --box ...|--around LIG --scoring ad4|vina|vinardo -o PREFIX\n"
    "                                a receptor's whole map set: AutoDock4 (as autogrid4) or\n"
    "                                Vina / Vinardo (as vina --write_maps); --elec pb\n"
    "  dock PREFIX LIGAND -o OUT.pdbqt\n"
    "                                dock a flexible ligand into a Vina map set (GPU, else CPU)\n"
    "  prepare IN.pdb|IN.cif -o OUT.pqr|OUT.pdbqt\n"
    "                                receptor preparation: hydrogens, protonation, AMBER/PARSE\n"
    "                                or Gasteiger charges, HETATM groups kept (as pdb2pqr)\n"
    "  prepare-ligands LIB.smi -o OUT.sdf|OUT.pdbqt\n"
    "                                a SMILES library as the 3D, protonated, charged SDF a\n"
    "                                screen docks, or as PDBQT ligands (torsion tree) for vina\n"
    "                                (Open Babel; --ph X|none, --threads N)\n"
    "  rmsd REF POSES                symmetry-aware heavy-atom RMSD of each pose against a\n"
    "                                reference pose (CSV: index,name,rmsd); --no-symmetry\n"
    "  check-poses POSES...          PoseBusters' checks of each pose (bond lengths, angles,\n"
    "                                flat rings, stereo, clashes, --receptor, the box): CSV\n"
    "  enrich RESULTS.csv --actives LIST\n"
    "                                how well a screen ranks known actives: ROC AUC, logAUC,\n"
    "                                EF 0.5-5%, BEDROC with bootstrap CIs; --png ROC.png\n"
    "  surface RECEPTOR -o OUT.ply   electrostatic potential on the molecular surface (ALPB,\n"
    "                                HCP), a coloured mesh and pictures\n"
    "  render GRID --slice z=V -o OUT.png\n"
    "                                a slice of a grid as a picture\n"
    "  bench GRID LIBRARY            every screening kernel on the same input against the\n"
    "                                CPU twin: time, throughput, error\n"
    "  index LIBRARY...              index libraries once (LIBRARY.vsgidx): each shard of a\n"
    "                                campaign (screen --shard K/N) starts at its first record\n"
    "  merge SHARD.csv... -o OUT.csv join a campaign's shards into the files one run writes\n"
    "                                (CSV, poses), a global top K (--top, --best-per-molecule)\n"
    "\n"
    "  --version                     print the version\n"
    "\n"
    "Units: Å, e, kT/e (PB potentials), kcal/mol and kT (energies); 298.15 K by default.\n"
    "Exit codes: 0 ok, 1 other failure, 2 usage, 3 bad input, 4 memory limit, 5 GPU,\n"
    "            6 not converged, 7 not in this build, 8 nothing scored inside the grid (a\n"
    "            screen) or a pose outside the box (dock), 130 a screen interrupted (its rows\n"
    "            are whole: --resume goes on).\n";

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        fputs(usage, stdout);
        return argc < 2 ? VSG_EXIT_USAGE : 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("vsgrid %s%s\n", vsg_version(), vsg_mpi_built() ? " (MPI)" : "");  /* MPI: issue 7 */
        /* what this build can do: scripts and tests read this line */
        const int gpus = vsg_gpu_count();
        printf("features: MPI %s, Open Babel (Gasteiger charges, PDBQT preparation) %s, RDKit (SMILES 3D) %s, GPUs %d\n",
               vsg_mpi_built() ? "yes" : "no", vsg_ligand_gasteiger_available() ? "yes" : "no",
               vsg_smiles_rdkit_available() ? "yes" : "no", gpus);
        return 0;
    }
    const char *cmd = argv[1];
    int (*run)(int, char **) = NULL;
    if (!strcmp(cmd, "grid")) run = vsg_cmd_grid;
    else if (!strcmp(cmd, "energy")) run = vsg_cmd_energy;
    else if (!strcmp(cmd, "screen")) run = vsg_cmd_screen;
    else if (!strcmp(cmd, "rescore")) run = vsg_cmd_rescore;
    else if (!strcmp(cmd, "bench")) run = vsg_cmd_bench;
    else if (!strcmp(cmd, "probe")) run = vsg_cmd_probe;
    else if (!strcmp(cmd, "info")) run = vsg_cmd_info;
    else if (!strcmp(cmd, "surface")) run = vsg_cmd_surface;
    else if (!strcmp(cmd, "render")) run = vsg_cmd_render;
    else if (!strcmp(cmd, "maps")) run = vsg_cmd_maps;
    else if (!strcmp(cmd, "dock")) run = vsg_cmd_dock;
    else if (!strcmp(cmd, "rmsd")) run = vsg_cmd_rmsd;
    else if (!strcmp(cmd, "check-poses")) run = vsg_cmd_check_poses;
    else if (!strcmp(cmd, "prepare")) run = vsg_cmd_prepare;
    else if (!strcmp(cmd, "prepare-ligands")) run = vsg_cmd_prepare_ligands;
    else if (!strcmp(cmd, "enrich")) run = vsg_cmd_enrich;
    else if (!strcmp(cmd, "index")) run = vsg_cmd_index;
    else if (!strcmp(cmd, "merge")) run = vsg_cmd_merge;
    /* MPI (issue 7): initialised only in an MPI build launched with > 1 rank (mpi_env.h). */
    if (run && vsg_mpi_start(&argc, &argv) != 0) return VSG_EXIT_FAILURE;
    if (run) return vsg_mpi_finish(run(argc - 1, argv + 1));
    fprintf(stderr, "vsgrid: unknown command '%s'\n\n", cmd);
    fputs(usage, stderr);
    return VSG_EXIT_USAGE;
}
