/* cli_screen_flexible.c — `vsgrid screen PREFIX LIBRARY... --scoring vina|vinardo --placement
 * flexible`: the options of a flexible screen, handed to vsg_flex_screen_run (vsgrid.h, "flexible
 * screens"; engine/screen/flex_screen.c), which docks every record, one CSV row per input record
 * in input order, with the best --poses poses of each record as PDBQT MODELs or SDF records
 * (--poses-out). Under mpirun the ranks share the chunks and rank 0 merges the parts. The run
 * itself is the screen job's (vsg_cli_screen_command); here are the flexible screen's help and
 * the --placement lookup. */
#define _POSIX_C_SOURCE 200809L /* isatty */
#include <stdio.h>
#include <string.h>


#include "engine/cli/cli.h"
#include "engine/cli/cli_vina.h"
#include "grids/base/vsgrid.h"


const char vsg_cli_vina_flexible_help[] =
    "Flexible docking in the screen (--scoring vina|vinardo --placement flexible): each record is\n"
    "docked into the map set PREFIX (AutoDock Vina 1.2's method: Monte Carlo chains of a random\n"
    "change of position, orientation or one torsion, BFGS on the analytic gradient of the maps\n"
    "and the ligand's internal pairs, Metropolis acceptance; rings, bond lengths and angles as in\n"
    "the input) instead of being scored where it is. On the GPU (the default when there is one)\n"
    "one warp runs a chain and thousands of chains of many records run at once; --devices cpu\n"
    "runs the same search on the CPU (OpenMP). One row per input record, in input order, with the\n"
    "as-is columns above for the best pose (its 'vina --score_only' terms, computed in double on\n"
    "the CPU from the pose, whichever device searched); a record that cannot be docked gets its\n"
    "status and message: untyped, torsions (a malformed tree, or over --max-torsions),\n"
    "too_many_atoms, no_pose, disconnected (an SDF/MOL2 record of several molecules: a salt, a\n"
    "mixture), the reader's codes (not_3d: a 2D SDF). Record i (the index column) is docked\n"
    "with seed --seed + i: the rows repeat exactly for a seed on a device, whatever --threads or\n"
    "the batch. Two columns follow message: posebusters_valid (1 when an ok row's best pose passes\n"
    "PoseBusters' checks: bonds, angles, flat rings, stereo, internal clashes, inside the box, and\n"
    "with --receptor no receptor clash and within 5 A of it; 'vsgrid check-poses') and\n"
    "posebusters_failed (the failed checks' names, ';'-joined); the summary counts the valid.\n"
    "(--placement rigid needs an AutoDock4 map set, a .maps.fld.)\n"
    "  --max-torsions N    records with more rotatable bonds get status torsions (default 32)\n"
    "  --receptor REC      the receptor the maps were made from (PDBQT, or a PDB to prepare):\n"
    "                      each record's final poses are refined on its atoms and scored there\n"
    "                      (vina --receptor's last step), not on the maps; costs CPU time\n"
    "                      (docs/PERFORMANCE.md); the pose checks add its clash tests\n"
    "  --poses-out F.pdbqt the best --poses poses of each docked record as MODELs, in input order,\n"
    "                      with REMARK VINA RESULT (score, RMSD to the best pose) and 'REMARK\n"
    "                      VSGRID RECORD: index name'; a PDBQT record keeps its tree, an SDF/MOL2\n"
    "                      one gets the tree searched (AutoDock types, non-polar H merged)\n"
    "  --poses-out F.sdf   the same poses as the input molecule: all its atoms and bonds (a PDBQT\n"
    "                      record's inferred from distances), merged hydrogens moved with their\n"
    "                      heavy atom, M  CHG, and the items vsgrid_score_kcal_mol (and each term),\n"
    "                      vsgrid_pose, vsgrid_record, atom.dprop.PartialCharge and\n"
    "                      atom.prop.AutoDockType (RDKit's atom property lists; vsgrid reads the\n"
    "                      charges back), vsgrid_posebusters_valid and _failed (each pose's checks)\n"
    "  --poses K           poses of each record written (default 1), best first, none within\n"
    "                      --min-rmsd of a better one; the CSV keeps one row (the best pose)\n"
    "  --poses-top K       poses of the K best-scored records only (score, then index), best\n"
    "                      first, written at the end (their text held in memory: K records)\n"
    "  --poses-below S     poses of the records scoring S kcal/mol or better only, in input order\n"
    "  --min-rmsd A        heavy-atom RMSD under which two poses are one (default 1 A)\n"
    "  --json FILE         the screen's keys plus placement, search, seed, exhaustiveness,\n"
    "                      steps, focus_chains, focus_steps, max_torsions, dock_evaluations\n"
    "  --resume            go on with an interrupted screen: the -o file's rows (and the .sdf\n"
    "                      poses) are checked against the records and kept, the rest docked and\n"
    "                      appended, as 'vsgrid screen --resume' (same command line; exit 3 if not)\n"
    "Exit codes as 'vsgrid screen': 3 a library that cannot be opened or read (its rows are\n"
    "written, the others docked), 8 no record docked (all failed).\n"
    "The search (default --search balanced):\n";

const char *vsg_cli_placement_arg(int argc, char **argv)
{
    const char *v = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--placement")) v = i + 1 < argc ? argv[i + 1] : "";
        else if (!strncmp(argv[i], "--placement=", 12)) v = argv[i] + 12;
    }
    return v;
}

int vsg_cli_vina_flexible_command(int argc, char **argv, const char *cmd)
{
    return vsg_cli_screen_command(argc, argv, cmd); /* the screen job runs every kind of screen */
}
