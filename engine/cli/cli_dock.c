/* cli_dock.c — `vsgrid dock PREFIX LIGAND -o OUT.pdbqt`: one ligand docked into a Vina or
 * Vinardo map set by vsg_dock_batch (the GPU search when there is a GPU, else its CPU twin), its
 * best poses written as PDBQT models that `vina --score_only` rescores: a PDBQT input's own lines
 * (ROOT/BRANCH tree, atom lines) with the pose's coordinates; an SDF/MOL2 input as the model the
 * search moved (AutoDock types, non-polar hydrogens merged) with the tree it used. With --scoring
 * ad4, the AutoDock4 function on an AutoGrid map set (vsg_dock_ad4_gpu on a GPU, else vsg_dock_ad4_cpu). */
#define _POSIX_C_SOURCE 200809L /* access */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cli/cli.h"
#include "engine/cli/dock_options.h"
#include "grids/base/vsgrid.h"

static const char usage[] =
    "usage: vsgrid dock PREFIX LIGAND.pdbqt|.sdf|.mol2 [--scoring vina|vinardo|ad4] [--search S]\n"
    "                   [--devices D] [--seed N] [--exhaustiveness N] [--steps N] [--poses K]\n"
    "                   [--focus-chains N] [--focus-steps N] [--rigid-macrocycles]\n"
    "                   [--min-rmsd A] [--from-input | --local-only] [--threads N] [--csv OUT.csv]\n"
    "                   [--json FILE] [--receptor REC.pdbqt] [--no-dry]\n"
    "                   [--flex FLEX.pdbqt | --flex-residues A:ARG:57,...]\n"
    "                   [--record N] [--max-torsions N] [--quiet] -o OUT.pdbqt|OUT.sdf[.gz]\n"
    "\n"
    "Docks one record of LIGAND (its only one, or --record N) into the Vina map set PREFIX.<XS type>.map (`vsgrid maps\n"
    "REC.pdbqt --scoring vina --around LIG -o PREFIX` or `vina --write_maps PREFIX`) by AutoDock\n"
    "Vina 1.2's method: Monte Carlo chains of a random change of position, orientation or one\n"
    "torsion, BFGS on the analytic gradient of the maps and the ligand's internal pairs,\n"
    "Metropolis acceptance; on the GPU when there is one (a warp a chain), else on the CPU. Bond\n"
    "lengths, angles and rings stay as in the input.\n"
    "  --scoring S        vina (default) or vinardo: must be what the maps were made with; ad4:\n"
    "                     the AutoDock4 function on an AutoGrid map set (PREFIX.maps.fld, from\n"
    "                     `vsgrid maps REC.pdbqt --scoring ad4` or autogrid4), a PDBQT ligand (an\n"
    "                     SDF/MOL2/SMILES one as prepare-ligands writes it: its charges or\n"
    "                     Gasteiger's, macrocycles rigid), on the GPU when there is one (a record\n"
    "                     over its 255 atoms or 32 torsions, or --devices cpu: the CPU): the same\n"
    "                     search over autodock4's inter + intra energy, each pose scored as\n"
    "                     autodock4's epdb scores it (score = Estimated Free Energy of\n"
    "                     Binding = inter + torsional, unbound model 'same as bound').\n"
    "                     Hydrated docking (Vina 1.2's): a ligand with W atoms (Meeko's\n"
    "                     mk_prepare_ligand.py -w) on a set with PREFIX.W.map (`vsgrid maps\n"
    "                     --hydrated`, or mapwater.py's): each W scored on the W map, no internal\n"
    "                     pairs, moved with its anchor atom; then each pose's waters judged as\n"
    "                     dry.py judges them: one closer than 2.03 A to a ligand heavy atom or a\n"
    "                     receptor atom (HD aside), or whose W map within 1 A is not below -0.3,\n"
    "                     is left out of the written pose; the others are kept after a\n"
    "                     `REMARK  STRONG water ( score: S )` (< -0.5; B-factor 30) or WEAK\n"
    "                     (B-factor 80) line. The score is not changed by that (vina's and\n"
    "                     dry.py's). The receptor: --receptor, else the fld's #MACROMOLECULE\n"
    "  --no-dry           hydrated docking: write every water unjudged, as vina writes them\n"
    "  --poses K          poses written at most (default 9), best first, none within --min-rmsd\n"
    "                     (default 1 A, heavy atoms) of a better one\n"
    "  --max-torsions N   refuse a record with more torsions (default 32, as flexible screens;\n"
    "                     exit 3): a receptor given as the ligand would search for minutes\n"
    "  --record N         the record of a multi-record LIGAND to dock (1-based); without it a\n"
    "                     LIGAND of several records is refused: `vsgrid screen PREFIX LIGAND\n"
    "                     --scoring vina --placement flexible` docks them all\n"
    "  --from-input       start every chain from the input pose instead of a random one\n"
    "  --local-only       no search: the input pose minimised in place (vina --local_only), one\n"
    "                     pose, on the CPU; with the crystal pose, tells a scoring function's\n"
    "                     miss (its minimum scores worse than the docked pose) from a search's\n"
    "  --receptor REC     (--scoring ad4: the receptor of hydrated docking's dry step only)\n"
    "                     the receptor the maps were made from (PDBQT, or a PDB to prepare): the\n"
    "                     final poses are refined on its atoms (BFGS, no map interpolation) and\n"
    "                     scored there, as vina --receptor does after its search (unless\n"
    "                     --no_refine); without it, poses are refined and scored on the maps\n"
    "                     (vina --maps). Costs a few ms a pose on the CPU (docs/PERFORMANCE.md)\n"
    "  --flex FLEX.pdbqt  flexible receptor side chains, as vina --flex: the residues of FLEX (BEGIN_RES\n"
    "                     ... END_RES, each a ROOT at CA and BRANCHes outwards: prepare_flexreceptor's\n"
    "                     _flex.pdbqt) move by their torsions with the ligand (GPU or CPU). The maps must\n"
    "                     be made from the RIGID part only (vsgrid maps REC_rigid.pdbqt --around LIG\n"
    "                     -o PREFIX) and --receptor, when given, be that rigid part (a receptor that\n"
    "                     still holds a flex atom is refused). Scores as vina 1.2's with --flex:\n"
    "                     (ligand-receptor + ligand-flex) / (1 + 0.0585 ligand torsions); flex-rigid\n"
    "                     and flex-flex energies are in intra and cancel. Each MODEL holds the ligand\n"
    "                     then the residues (BEGIN_RES ... END_RES), as vina writes them; PDBQT only\n"
    "  --flex-residues L  the same for the residues L (CHAIN:RES:NUMBER, comma-separated) of the FULL\n"
    "                     receptor given as --receptor: vsgrid cuts it as prepare_flexreceptor does (CA\n"
    "                     and side chain out, ROOT at CA, BRANCHes from CA-CB outwards) into OUT_rigid.pdbqt\n"
    "                     and OUT_flex.pdbqt next to -o OUT.pdbqt, and docks with those. PREFIX's maps must\n"
    "                     be made from OUT_rigid.pdbqt (maps of the full receptor are refused, exit 3,\n"
    "                     with the command that makes the right ones); an unknown residue is exit 3\n"
    "  --threads N        OpenMP threads (CPU search; default all)\n"
    "  -o OUT.pdbqt       the poses as MODEL/ENDMDL blocks with `REMARK VINA RESULT: score\n"
    "                     rmsd rmsd` (kcal/mol; heavy-atom RMSD to the best pose, twice) and the\n"
    "                     terms, best first; the best pose's score = what `vina --score_only`\n"
    "                     gives it (on the receptor's atoms with --receptor), the others' as\n"
    "                     vina 1.2.4+ writes them: (inter + intra - the best pose's intra) /\n"
    "                     (1 + 0.0585 torsions), so the scores are in order\n"
    "  -o OUT.sdf         the poses as the input molecule (all its atoms and bonds, merged\n"
    "                     hydrogens moved with their heavy atom, M  CHG) with the items\n"
    "                     vsgrid_score_kcal_mol and its terms, vsgrid_pose, atom.dprop.PartialCharge,\n"
    "                     atom.prop.AutoDockType, vsgrid_posebusters_valid and _failed (docs/FORMATS.md)\n"
    "  --csv OUT.csv      one row a pose: pose,score_kcal_mol,inter_kcal_mol,intra_kcal_mol,\n"
    "                     torsional_kcal_mol,search_energy_kcal_mol,num_tors,rmsd_best_A,rmsd_input_A,\n"
    "                     posebusters_valid,posebusters_failed (PoseBusters' checks of the pose:\n"
    "                     1/0 and the failed checks' names, as `vsgrid check-poses`; the receptor\n"
    "                     clash checks run with --receptor)\n"
    "                     (rmsd_input: to the input coordinates, same atom order, no symmetry)\n"
    "  --json FILE        a summary: poses, scores, chains, steps, focus chains and steps,\n"
    "                     evaluations, seconds, device\n"
    "  --quiet            no summary line\n"
    "The search (default: --search detail, or thorough in a box more than twice the ligand's\n"
    "own, a cube of 2 x (its heavy atoms' reach from their centre + 4 A), said when chosen;\n"
    "with --flex, detail):\n";

static const char usage_end[] =
    "AutoDock-GPU's 26 complexes (30 A boxes, one H200): the default re-docks 76% of top poses\n"
    "within 2 A (detail alone 72%, thorough 78%; vina 1.2.3 79%), 1.4 s a ligand. One ligand on a\n"
    "GPU leaves it mostly idle: more chains cost about the same time (--exhaustiveness 2048: 74% top\n"
    "/ 81% best of 9; AutoDock4 function 65% / 79%; docs/PERFORMANCE.md).\n"
    "A result that cannot mean what it says is refused, with nothing written: maps of another\n"
    "scoring function than --scoring (vsgrid maps records it), maps that are 0 everywhere, a best\n"
    "pose with atoms outside the maps' box (a box too small: its score would be Vina's penalty)\n"
    "or touching no receptor atom (a box beyond the receptor).\n"
    "Exit codes: 0 ok, 2 usage (an -o that is not .pdbqt or .sdf, a multi-record LIGAND without\n"
    "--record, --flex with SDF output, --local-only or ad4), 3 bad input (no map set, maps\n"
    "of another function or all 0, a ligand or flex atom without a map, a malformed torsion tree or\n"
    "flex file: the message names file:line; a --receptor holding flex atoms), 4 memory, 8 the best pose outside the box or\n"
    "away from the receptor, 1 other failure (a GPU asked for and missing).\n";

/* The record dock docks: record N (--record), or the file's only one (a second is refused: which
 * was meant?); both docking functions read it here. VSG_EXIT_OK, or the exit code after a message. */
/* --ph, for a SMILES ligand: both docking paths read the ligand with it */
static vsg_smiles_options dock_smiles;
static int dock_rigid_macrocycles; /* --rigid-macrocycles */
static int dock_max_torsions = VSG_DEFAULT_MAX_TORSIONS; /* --max-torsions, as a flexible screen's */

/* A record with more torsions than --max-torsions is refused before a search of minutes: a
 * receptor given as the ligand (arguments swapped) has hundreds; a flexible screen's rows say
 * the same (status torsions). 1 when refused (said on stderr). */
static int too_many_torsions(const vsg_vina_ligand *vl, const char *ligpath)
{
    vsg_vina_ligand_info info;
    vsg_vina_ligand_get_info(vl, &info);
    if (info.rotors <= dock_max_torsions) return 0;
    fprintf(stderr, "vsgrid dock: %s: %d torsions, over --max-torsions %d (a receptor given as the ligand? raise "
                    "--max-torsions to dock it)\n", ligpath, info.rotors, dock_max_torsions);
    return 1;
}

static int read_record(vsg_ligand_reader *rd, const char *ligpath, const char *prefix, long record, vsg_ligand *lig)
{
    long got = 0;
    int more;
    while ((more = vsg_ligand_reader_next(rd, lig)) == 1 && ++got < (record ? record : 1)) {}
    if (more != 1) {
        if (record) fprintf(stderr, "vsgrid dock: %s: no record %ld (the file has %ld)\n", ligpath, record, got);
        else fprintf(stderr, "vsgrid dock: %s: no record\n", ligpath);
        return record ? VSG_EXIT_USAGE : VSG_EXIT_INPUT;
    }
    lig->rigid_macrocycles = dock_rigid_macrocycles; /* also the --flex path's reader (cli_dock_flex.c) */
    if (!record) { /* a second record: which one was meant? */
        vsg_ligand next;
        vsg_ligand_init(&next);
        more = vsg_ligand_reader_next(rd, &next);
        vsg_ligand_release(&next);
        if (more == 1) {
            fprintf(stderr, "vsgrid dock: %s holds more than one record: dock docks one; choose it with --record N, "
                            "or dock them all with `vsgrid screen %s %s --scoring vina --placement flexible "
                            "--poses-out POSES.sdf -o RESULTS.csv`\n", ligpath, prefix, ligpath);
            return VSG_EXIT_USAGE;
        }
    }
    if (lig->status != VSG_OK) {
        fprintf(stderr, "vsgrid dock: %s\n", lig->message);
        return vsg_cli_exit_code(lig->status);
    }
    return VSG_EXIT_OK;
}

/* name resolved against the folder of file (when relative) into out; 1 when readable. */
static int beside(const char *file, const char *name, char *out, size_t len)
{
    const char *slash = strrchr(file, '/');
    if (name[0] != '/' && slash) snprintf(out, len, "%.*s%s", (int)(slash - file) + 1, file, name);
    else snprintf(out, len, "%s", name);
    return name[0] && access(out, R_OK) == 0;
}

/* The receptor of the dry step (hydrated docking): --receptor; else the `receptor` of PREFIX.gpf
 * (vsgrid maps writes its full path there); else the fld's #MACROMOLECULE (a bare name, as
 * autogrid4 writes it), beside the fld or in the working folder. NULL after a message. */
static vsg_molecule *dry_receptor(const char *fld, const char *recpath, int quiet)
{
    char path[4096 + VSG_AG_PATH], tried[3 * (4096 + VSG_AG_PATH)] = "";
    if (!recpath) {
        const size_t len = strlen(fld), cut = len > 9 && !strcmp(fld + len - 9, ".maps.fld") ? len - 9 : len;
        char gpf_path[4200];
        snprintf(gpf_path, sizeof gpf_path, "%.*s.gpf", (int)cut, fld);
        vsg_gpf *g = malloc(sizeof *g);
        vsg_fld *f = malloc(sizeof *f);
        if (g && access(gpf_path, R_OK) == 0 && vsg_gpf_read(gpf_path, g) == VSG_OK && g->receptor[0]) {
            if (beside(gpf_path, g->receptor, path, sizeof path)) recpath = path;
            else snprintf(tried, sizeof tried, "%s (%s's receptor)", path, gpf_path);
        }
        vsg_clear_error();
        if (!recpath && f && vsg_autogrid_fld_read(fld, f) == VSG_OK && f->macromolecule[0]) {
            if (beside(fld, f->macromolecule, path, sizeof path) || beside("", f->macromolecule, path, sizeof path))
                recpath = path;
            else snprintf(tried + strlen(tried), sizeof tried - strlen(tried), "%s%s (%s's #MACROMOLECULE)",
                          tried[0] ? ", " : "", f->macromolecule, fld);
        }
        vsg_clear_error();
        free(g), free(f);
        if (!recpath) {
            fprintf(stderr, "vsgrid dock: the dry step of hydrated docking needs the receptor, and %s%s: give "
                            "--receptor REC.pdbqt (or --no-dry)\n",
                    tried[0] ? "none of these can be read: " : "the map set names none", tried);
            return NULL;
        }
    }
    vsg_molecule *rec = NULL;
    const vsg_status st = vsg_cli_read_receptor(recpath, VSG_PREP_PDBQT, quiet, &rec);
    if (st != VSG_OK) {
        vsg_cli_fail(st);
        return NULL;
    }
    return rec;
}

/* Writes pose k as vsg_pose_write_pdbqt does, then applies the dry step's verdicts v[0..nw) as
 * dry.py writes them: removed waters left out; kept ones after a `REMARK  STRONG water ( score:
 * -0.92 )` line with B-factor 30.00 (STRONG) or 80.00 (WEAK); a REMARK VSGRID WATERS line after
 * MODEL sums them up. 1, or 0 as vsg_pose_write_pdbqt. */
static int write_dry_pose(FILE *f, const vsg_ligand *lig, const vsg_dock_result *res, int k, double rb,
                          const vsg_water_verdict *v, int nw)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return 0;
    const int ok = vsg_pose_write_pdbqt(m, lig, res, k, k + 1, rb, -1);
    if (fclose(m) != 0 || !ok) {
        free(buf);
        return 0;
    }
    int count[5] = {0, 0, 0, 0, 0};
    for (int w = 0; w < nw; w++) count[v[w].cls]++;
    int atom = 0;
    for (char *line = buf, *next; line && *line; line = next) {
        char *nl = strchr(line, '\n');
        next = nl ? nl + 1 : NULL;
        const int n = nl ? (int)(nl - line) : (int)strlen(line);
        if (!strncmp(line, "ATOM", 4) || !strncmp(line, "HETATM", 6)) {
            const vsg_water_verdict *wv = NULL;
            for (int w = 0; w < nw && !wv; w++)
                if (v[w].atom == atom) wv = &v[w];
            atom++;
            if (wv && wv->cls != VSG_WATER_STRONG && wv->cls != VSG_WATER_WEAK) continue;
            if (wv) {
                fprintf(f, "REMARK  %s water ( score: %.2f )\n", wv->cls == VSG_WATER_STRONG ? "STRONG" : "WEAK  ", wv->score);
                if (n >= 66) {
                    fprintf(f, "%.*s%s%.*s\n", 60, line, wv->cls == VSG_WATER_STRONG ? " 30.00" : " 80.00", n - 66, line + 66);
                    continue;
                }
            }
        }
        fprintf(f, "%.*s\n", n, line);
        if (!strncmp(line, "MODEL", 5))
            fprintf(f, "REMARK VSGRID WATERS: %d kept (%d strong, %d weak), %d removed (%d displaced, %d on the ligand, "
                       "%d on the receptor): dry.py's rules\n", count[0] + count[1], count[0], count[1],
                    count[2] + count[3] + count[4], count[2], count[3], count[4]);
    }
    free(buf);
    return 1;
}

static const char *dock_search_for_box(const double box_size[3], const vsg_ligand *lig, const vsg_cli_dock_opts *o,
                                       vsg_dock_params *p, int quiet);

/* --scoring ad4: one PDBQT record docked on an AutoGrid map set (vsg_dock_ad4_gpu, or its CPU
 * twin), its poses written over the record's own lines with autodock4's terms. */
static int dock_ad4(const char *prefix, const char *ligpath, const char *outpath, const char *csvpath, long record,
                    int local_only, const char *recpath, int sdf, vsg_device device, const vsg_dock_params *given, int quiet,
                    int no_dry, const char *json, const vsg_cli_dock_opts *dopt)
{
    vsg_dock_params P = *given; /* the search: the box may choose it (dock_search_for_box) */
    const vsg_dock_params *p = &P;
    const char *search = dopt->search ? dopt->search : "detail";
    if (sdf) return vsg_cli_usage_error("dock", "--scoring ad4 writes PDBQT (-o OUT.pdbqt): the input's own lines, or "
                                        "an SDF/MOL2/SMILES record's as prepare-ligands writes them");
    char fld[4096];
    const size_t len = strlen(prefix);
    snprintf(fld, sizeof fld, "%s%s", prefix, len > 4 && !strcmp(prefix + len - 4, ".fld") ? "" : ".maps.fld");
    vsg_ad4_target *t = NULL;
    char vina_map[4200];
    snprintf(vina_map, sizeof vina_map, "%s.C_H.map", prefix);
    if (access(fld, F_OK) != 0 && access(vina_map, F_OK) == 0) /* the common slip: a Vina map set given to the AD4 function */
        return vsg_cli_fail(vsg_fail(VSG_E_FORMAT, "%s is a Vina map set; --scoring ad4 docks on an AutoDock4 map set: "
                                     "'vsgrid maps REC.pdbqt --scoring ad4 --around LIG -o PREFIX' makes PREFIX.maps.fld", prefix));
    vsg_status st = vsg_ad4_target_read(fld, NULL, &t);
    if (st != VSG_OK) return vsg_cli_fail(st);
    const char *paths[1] = {ligpath};
    vsg_ligand_reader_options ro = {.format = VSG_LIG_AUTO, .keep_text = 1, .max_atoms = 0, .smiles = dock_smiles,
                                    .rigid_macrocycles = dock_rigid_macrocycles};
    vsg_ligand_reader *rd = NULL;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    vsg_dock_result res;
    memset(&res, 0, sizeof res);
    vsg_vina_ligand *vl = NULL;
    vsg_ad4_score *sc = calloc((size_t)p->poses + 1, sizeof *sc);
    vsg_molecule *rec = NULL;           /* the dry step's receptor */
    vsg_water_verdict *verdict = NULL;  /* nw a pose */
    int kept[3] = {0, 0, 0};            /* the best pose's strong, weak, removed waters */
    FILE *f = NULL, *csv = NULL;
    int rc = VSG_EXIT_OK;
    if (!sc) { rc = vsg_cli_fail(vsg_fail(VSG_E_NOMEM, "dock: out of memory")); goto done; }
    if ((st = vsg_ligand_reader_open(paths, 1, &ro, &rd)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if ((rc = read_record(rd, ligpath, prefix, record, &lig)) != VSG_EXIT_OK) goto done;
    /* an SDF/MOL2/SMILES record: docked as the PDBQT prepare-ligands writes for it (AutoDock
     * types, charges, its tree), which the poses are written as */
    if (lig.format != VSG_LIG_PDBQT) {
        lig.rigid_macrocycles = 1; /* Meeko's CGk/Gk glue atoms have no AutoDock4 map */
        if ((st = vsg_ligand_complete_hydrogens(&lig, NULL, 1)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
        if ((st = vsg_ligand_as_pdbqt(&lig)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    }
    int nw = 0; /* hydrated docking: the record's W atoms */
    for (int i = 0; i < lig.natoms; i++) nw += !strcmp(lig.atoms[i].ad_type, "W");
    if (recpath && !nw) {
        rc = vsg_cli_usage_error("dock", "--receptor is not available with --scoring ad4 (poses are scored on the AutoGrid "
                                 "maps, as autodock4 scores them); it names the receptor of hydrated docking's dry step, "
                                 "and %s has no W atom", ligpath);
        goto done;
    }
    if ((st = vsg_vina_ligand_new_ad4(&lig, &vl)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if (too_many_torsions(vl, ligpath)) { rc = VSG_EXIT_INPUT; goto done; }
    if (!local_only) {
        double lo[3], hi[3];
        vsg_ad4_target_box(t, lo, hi);
        const double size[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
        search = dock_search_for_box(size, &lig, dopt, &P, quiet);
    }
    if (nw && !no_dry && !(rec = dry_receptor(fld, recpath, quiet))) { rc = VSG_EXIT_INPUT; goto done; }
    if (nw && !(verdict = calloc((size_t)nw * ((size_t)p->poses + 1), sizeof *verdict))) {
        rc = vsg_cli_fail(vsg_fail(VSG_E_NOMEM, "dock: out of memory"));
        goto done;
    }
    /* the GPU when asked for or present; a record over its limits falls back to the CPU unless the
     * GPU was asked for */
    int on_gpu = !local_only && (device == VSG_DEVICE_GPU || (device == VSG_DEVICE_AUTO && vsg_gpu_count() > 0));
    if (local_only) { /* the input pose minimised in place: the CPU's BFGS */
        if ((st = vsg_dock_ad4_local(t, &lig, p, &res, sc)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    }
    if (on_gpu) {
        st = vsg_dock_ad4_gpu(t, &lig, p, -1, &res, sc);
        if (vsg_cli_dock_gpu_fallback(st, device, quiet)) {
            on_gpu = 0;
        } else if (st != VSG_OK) {
            rc = vsg_cli_fail(st);
            goto done;
        }
    }
    if (!on_gpu && !local_only && (st = vsg_dock_ad4_cpu(t, &lig, p, &res, sc)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    /* never a meaningless best score (the Vina path's rule, vsg_dock_pose_check): outside the grid,
     * repulsive (no room in the box or the pocket), or touching no receptor atom */
    if (sc[0].outside || !(sc[0].inter < 0)) {
        fprintf(stderr, "vsgrid dock: %s: best %.3f kcal/mol means nothing: %s; make AD4 maps over the pocket with room "
                        "for the ligand (vsgrid maps REC --scoring ad4 --around LIG)\n", ligpath, sc[0].total,
                sc[0].outside ? "atoms lie outside the maps' grid"
                : sc[0].inter > 0 ? "the pose clashes with the receptor (intermolecular energy repulsive): the ligand "
                                    "does not fit the box or the pocket"
                                  : "the pose touches no receptor atom");
        rc = VSG_EXIT_NOTHING_SCORED;
        goto done;
    }
    for (int k = 1; k < res.npose; k++) /* later poses that mean nothing are not results either */
        if (sc[k].outside || !(sc[k].inter < 0)) {
            for (int j = k; j < res.npose; j++) free(res.pose[j].xyz), res.pose[j].xyz = NULL;
            res.npose = k;
            break;
        }
    if (!(f = vsg_fopen_out(outpath, "w"))) { fprintf(stderr, "vsgrid dock: cannot write %s\n", outpath); rc = VSG_EXIT_FAILURE; goto done; }
    if (csvpath && !(csv = fopen(csvpath, "w"))) { fprintf(stderr, "vsgrid dock: cannot write %s\n", csvpath); rc = VSG_EXIT_FAILURE; goto done; }
    if (csv) fprintf(csv, "pose,score_kcal_mol,inter_kcal_mol,vdw_hb_desolv_kcal_mol,elec_kcal_mol,intra_kcal_mol,"
                          "torsional_kcal_mol,unbound_kcal_mol,search_energy_kcal_mol,torsdof,rmsd_best_A,rmsd_input_A%s\n",
                     nw && !no_dry ? ",waters_strong,waters_weak,waters_removed" : "");
    for (int k = 0; k < res.npose; k++) {
        const vsg_dock_pose *ps = &res.pose[k];
        const double rb = vsg_pose_rmsd_heavy(&res, vl, ps->xyz, res.pose[0].xyz);
        vsg_water_verdict *v = verdict ? verdict + (size_t)k * (size_t)nw : NULL;
        int nv = 0, cnt[3] = {0, 0, 0};
        if (nw && !no_dry) { /* dry.py's judgement of this pose's waters */
            if ((st = vsg_ad4_dry(t, rec, &lig, ps->xyz, v, &nv)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
            for (int w = 0; w < nv; w++) cnt[v[w].cls == VSG_WATER_STRONG ? 0 : v[w].cls == VSG_WATER_WEAK ? 1 : 2]++;
            if (k == 0) memcpy(kept, cnt, sizeof kept);
        }
        if (nv ? !write_dry_pose(f, &lig, &res, k, rb, v, nv) : !vsg_pose_write_pdbqt(f, &lig, &res, k, k + 1, rb, -1)) {
            fprintf(stderr, "vsgrid dock: %s: the record's atom lines do not match its model\n", ligpath);
            rc = VSG_EXIT_FAILURE;
            goto done;
        }
        if (csv) {
            fprintf(csv, "%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%d,%.3f,%.3f", k + 1, sc[k].total, sc[k].inter,
                    sc[k].vdw_hb_desolv, sc[k].elec, sc[k].intra, sc[k].torsional, sc[k].unbound, ps->energy,
                    sc[k].torsdof, rb, ps->rmsd_input);
            if (nw && !no_dry) fprintf(csv, ",%d,%d,%d", cnt[0], cnt[1], cnt[2]);
            fputc('\n', csv);
        }
    }
    if (ferror(f) || (csv && ferror(csv))) { fprintf(stderr, "vsgrid dock: write error\n"); rc = VSG_EXIT_FAILURE; goto done; }
    char effort[96];
    if (!quiet)
        printf("dock: %s: %d poses, best %.3f kcal/mol (AutoDock4: inter %.3f, intra %.3f, torsional %.3f), %d torsions, "
               "%s, %ld evaluations, %.2f s on the %s\n",
               ligpath, res.npose, sc[0].total, sc[0].inter, sc[0].intra, sc[0].torsional, res.rotors,
               vsg_cli_dock_effort(p, &res, effort, sizeof effort), res.evaluations, res.seconds, on_gpu ? "GPU" : "CPU");
    if (json) { /* the Vina path's summary, with the AutoDock4 function's scores */
        vsg_json j;
        FILE *jf = vsg_cli_json_open(json, &j, "dock");
        if (!jf) { rc = VSG_EXIT_FAILURE; goto done; }
        vsg_json_str(&j, "ligand", ligpath);
        vsg_json_str(&j, "scoring", "ad4");
        vsg_json_int(&j, "seed", (long long)p->seed);
        vsg_json_str(&j, "search", search);
        vsg_json_str(&j, "device", on_gpu ? "gpu" : "cpu");
        vsg_json_int(&j, "chains", res.chains);
        vsg_json_int(&j, "steps", res.steps);
        const int focus = res.steps ? p->focus_chains : 0; /* --local-only: no chain ran, focus chains neither */
        vsg_json_int(&j, "focus_chains", focus);
        vsg_json_int(&j, "focus_steps", focus ? (p->focus_steps ? p->focus_steps : 4 * res.steps) : 0);
        vsg_json_int(&j, "torsions", res.rotors);
        vsg_json_int(&j, "evaluations", res.evaluations);
        vsg_json_array(&j, "poses");
        for (int k = 0; k < res.npose; k++) vsg_json_num(&j, NULL, sc[k].total);
        vsg_json_end(&j, ']');
        vsg_json_num(&j, "score", sc[0].total);
        vsg_cli_json_finish(&j, jf, json, res.seconds);
    }
    if (!quiet && nw && no_dry)
        printf("dock: hydrated: %d W atoms a pose, their W-map terms in the scores; all written, unjudged (--no-dry)\n", nw);
    else if (!quiet && nw)
        printf("dock: hydrated: %d W atoms a pose, their W-map terms in the scores (as vina --scoring ad4 reports them); "
               "the best pose's waters by dry.py's rules: %d strong, %d weak kept, %d removed (displaced or clashing)\n",
               nw, kept[0], kept[1], kept[2]);
done:
    vsg_molecule_free(rec);
    free(verdict);
    if (f && fclose(f) && rc == VSG_EXIT_OK) rc = VSG_EXIT_FAILURE;
    if (csv && fclose(csv) && rc == VSG_EXIT_OK) rc = VSG_EXIT_FAILURE;
    free(sc);
    vsg_dock_result_release(&res);
    vsg_vina_ligand_free(vl);
    vsg_ligand_release(&lig);
    if (rd) vsg_ligand_reader_close(rd);
    vsg_ad4_target_free(t);
    return rc;
}

/* PoseBusters' checks of pose k: 1 when valid; failed gets the failed checks' names ("not_run"
 * when the checks could not run). */
static int check_pose(const vsg_pose_checker *c, const vsg_vina_target *t, const vsg_dock_result *r, int k, char *failed,
                      size_t len)
{
    vsg_pose_check_result pc;
    if (vsg_dock_pose_checks(c, t, r, k, &pc) != VSG_OK) {
        snprintf(failed, len, "not_run");
        return 0;
    }
    vsg_pose_check_failed(&pc, failed, len);
    return pc.valid;
}

/* The search in a box of box_size (Å) for lig. With no effort option in o, the preset
 * vsg_dock_default_search picks for the box set in p: thorough in a box over
 * VSG_DOCK_LARGE_BOX times the ligand's own (AutoDock-GPU's 30 Å cubes), where the pocket presets
 * miss poses vina finds (docs/PERFORMANCE.md, issue 28), said unless quiet; else detail. With an
 * effort given, a pocket preset's effort in such a box gets the advice instead. Returns the
 * name the summaries give the search. */
static const char *dock_search_for_box(const double box_size[3], const vsg_ligand *lig, const vsg_cli_dock_opts *o,
                                       vsg_dock_params *p, int quiet)
{
    const double ratio = vsg_dock_box_ratio(box_size, lig);
    if (!vsg_cli_dock_effort_given(o)) {
        const char *preset = vsg_dock_default_search(ratio);
        vsg_dock_params_effort(p, preset, 0, 0, -1, 0);
        if (!quiet && strcmp(preset, "detail"))
            fprintf(stderr, "vsgrid dock: the box (%.1f x %.1f x %.1f A) is %.1f times the ligand's own: searching with %s "
                            "(%d chains x %d steps; --search detail for the pocket preset)\n",
                    box_size[0], box_size[1], box_size[2], ratio, preset, p->exhaustiveness, p->steps);
        return preset;
    }
    if (ratio > VSG_DOCK_LARGE_BOX && vsg_dock_below_thorough(p))
        vsg_warn("the maps' box (%.1f x %.1f x %.1f A) is %.1f times the ligand's own: the search presets fast, balanced "
                 "and detail were tuned on pocket boxes and miss poses in boxes this large; --search thorough (the "
                 "default here) re-docks as often as vina there, or make maps around the pocket (vsgrid maps REC "
                 "--around LIG)",
                 box_size[0], box_size[1], box_size[2], ratio);
    return o->search ? o->search : "detail"; /* --exhaustiveness/--steps alone: detail's, overridden */
}

int vsg_cmd_dock(int argc, char **argv)
{
    const char *prefix = NULL, *ligpath = NULL, *outpath = NULL, *csvpath = NULL, *json = NULL, *recpath = NULL, *v;
    const char *flexpath = NULL; /* --flex: flexible side chains (cli_dock_flex.c) */
    const char *flexres = NULL;  /* --flex-residues: cut from the full --receptor */
    vsg_vina_scoring sf = VSG_VINA_SCORING_VINA;
    int ad4 = 0; /* --scoring ad4: vsg_dock_ad4_cpu on an AutoGrid map set */
    vsg_dock_params p;
    vsg_dock_params_default(&p);
    int quiet = 0;
    long record = 0; /* --record N; 0: the file must hold one */
    int local_only = 0;
    int no_dry = 0; /* hydrated docking: write every water, unjudged (as vina writes them, for dry.py) */
    vsg_cli_dock_opts dopt;
    vsg_cli_dock_opts_init(&dopt, NULL); /* the search: the box decides (dock_search_for_box) */
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        double x;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(usage, stdout), fputs(vsg_cli_dock_options_help, stdout), fputs(usage_end, stdout);
            return 0;
        }
        const int dr = vsg_cli_dock_option(&a, "dock", &dopt);
        if (dr < 0) return VSG_EXIT_USAGE;
        if (dr > 0) continue;
        if (vsg_arg_is(&a, "--scoring")) {
            if (!(v = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE;
            ad4 = !strcmp(v, "ad4");
            if (!strcmp(v, "vina")) sf = VSG_VINA_SCORING_VINA;
            else if (!strcmp(v, "vinardo")) sf = VSG_VINA_SCORING_VINARDO;
            else if (!ad4) return vsg_cli_usage_error("dock", "--scoring: '%s' is not vina, vinardo or ad4", v);
            continue;
        }
        int *ip = vsg_arg_is(&a, "--poses") ? &p.poses : vsg_arg_is(&a, "--threads") ? &p.threads : NULL;
        if (ip) {
            const char *name = a.name;
            if (!(v = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE;
            if (!vsg_parse_number(v, &x) || x != floor(x) || x < 1 || x > 1e6)
                return vsg_cli_usage_error("dock", "%s: '%s' is not an integer in 1..1000000", name, v);
            *ip = (int)x;
            continue;
        }
        if (vsg_arg_is(&a, "--min-rmsd")) {
            if (!(v = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE;
            if (!vsg_parse_number(v, &p.min_rmsd) || !(p.min_rmsd >= 0) || !isfinite(p.min_rmsd))
                return vsg_cli_usage_error("dock", "--min-rmsd: '%s' is not a number >= 0", v);
            continue;
        }
        if (vsg_arg_is(&a, "--max-torsions")) {
            if (!(v = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE;
            if (!vsg_parse_number(v, &x) || x != floor(x) || x < 0 || x > 1000)
                return vsg_cli_usage_error("dock", "--max-torsions: '%s' is not a count (0-1000)", v);
            dock_max_torsions = (int)x;
            continue;
        }
        if (vsg_arg_is(&a, "--record")) {
            if (!(v = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE;
            if (!vsg_parse_number(v, &x) || x != floor(x) || x < 1 || x > 1e12)
                return vsg_cli_usage_error("dock", "--record: '%s' is not a record number (1, 2, ...)", v);
            record = (long)x;
            continue;
        }
        if (vsg_arg_is(&a, "--from-input")) { p.random_start = 0; continue; }
        if (vsg_arg_is(&a, "--local-only")) { local_only = 1; continue; }
        if (vsg_arg_is(&a, "--no-dry")) { no_dry = 1; continue; }
        if (vsg_arg_is(&a, "--quiet")) { quiet = 1; continue; }
        if (vsg_arg_is(&a, "--csv")) { if (!(csvpath = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--json")) { if (!(json = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--receptor")) { if (!(recpath = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--flex")) { if (!(flexpath = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--flex-residues")) { if (!(flexres = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "-o") || vsg_arg_is(&a, "--output")) {
            if (!(outpath = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE;
            continue;
        }
        if (arg[0] == '-' && arg[1]) return vsg_cli_usage_error("dock", "unknown option '%s'", arg);
        if (!prefix) prefix = arg;
        else if (!ligpath) ligpath = arg;
        else return vsg_cli_usage_error("dock", "one map set and one ligand file ('%s' is a third)", arg);
    }
    if (!prefix || !ligpath) return vsg_cli_usage_error("dock", "needs a map set PREFIX and a LIGAND file");
    if (!outpath) return vsg_cli_usage_error("dock", "needs -o OUT.pdbqt");
    /* the extension says what is written: PDBQT text in a .mol2 opens as garbage elsewhere */
    if (vsg_pose_path_kind(outpath) < 0)
        return vsg_cli_usage_error("dock", "-o '%s': dock writes PDBQT (.pdbqt) or SDF (.sdf), gzipped when the "
                                   "name ends in .gz; name the file so", outpath);
    const int sdf = vsg_pose_path_kind(outpath) == 1;
    vsg_pose_sdf *sm = NULL;
    vsg_device device = VSG_DEVICE_AUTO;
    if (vsg_cli_dock_apply("dock", &dopt, &p, &device)) return VSG_EXIT_USAGE;
    dock_smiles = dopt.smiles;
    dock_rigid_macrocycles = dopt.rigid_macrocycles;
    if (no_dry && !ad4) return vsg_cli_usage_error("dock", "--no-dry is for hydrated docking (--scoring ad4)");
    char rigid_out[4200], flex_out[4200];
    if (flexres) { /* the full receptor cut into its rigid part and the flex residues, next to OUT */
        if (flexpath) return vsg_cli_usage_error("dock", "--flex and --flex-residues: one or the other");
        if (!recpath) return vsg_cli_usage_error("dock", "--flex-residues needs the full receptor as --receptor REC.pdbqt");
        size_t n = strlen(outpath);
        if (n > 6 && !strcmp(outpath + n - 6, ".pdbqt")) n -= 6;
        snprintf(rigid_out, sizeof rigid_out, "%.*s_rigid.pdbqt", (int)n, outpath);
        snprintf(flex_out, sizeof flex_out, "%.*s_flex.pdbqt", (int)n, outpath);
        vsg_status fst = vsg_flex_split(recpath, flexres, rigid_out, flex_out);
        if (fst != VSG_OK) return vsg_cli_fail(fst);
        if (!quiet) fprintf(stderr, "vsgrid dock: %s cut into %s (rigid part: the maps' receptor) and %s\n", recpath,
                            rigid_out, flex_out);
        flexpath = flex_out, recpath = rigid_out;
    }
    if (flexpath) { /* flexible side chains: the GPU search or its CPU twin, as for the ligand alone */
        if (ad4) return vsg_cli_usage_error("dock", "--flex is not available with --scoring ad4 (the Vina and Vinardo functions take it)");
        if (local_only) return vsg_cli_usage_error("dock", "--flex is not available with --local-only");
        if (sdf) return vsg_cli_usage_error("dock", "--flex writes PDBQT (-o OUT.pdbqt): each MODEL the ligand and the flex residues, as vina writes them");
        if (json) return vsg_cli_usage_error("dock", "--json is not available with --flex yet (use --csv)");
        const int frc = vsg_cli_dock_flex(prefix, ligpath, flexpath, outpath, csvpath, record, recpath, sf, &p, device, quiet,
                                          read_record);
        if (frc == VSG_EXIT_INPUT && flexres)
            fprintf(stderr, "vsgrid dock: with --flex-residues the maps must be the rigid part's: vsgrid maps %s --scoring %s "
                            "--around %s -o %s (or your box), then dock again\n", rigid_out,
                    sf == VSG_VINA_SCORING_VINA ? "vina" : "vinardo", ligpath, prefix);
        return frc;
    }
    if (ad4)
        return dock_ad4(prefix, ligpath, outpath, csvpath, record, local_only, recpath, sdf, device, &p, quiet, no_dry, json,
                        &dopt);

    vsg_vina_target *t = NULL;
    vsg_molecule *rec = NULL; /* --receptor: refinement, and the pose checks' clashes */
    vsg_status st = vsg_cli_receptor_not_grid(prefix);
    if (st == VSG_OK) st = vsg_vina_target_maps(prefix, sf, &t);
    if (st != VSG_OK && !t) { /* the converse slip of dock_ad4's: an AutoDock4 map set given to a Vina function */
        char fld[4200], why[1024];
        snprintf(fld, sizeof fld, "%s.maps.fld", prefix);
        snprintf(why, sizeof why, "%s", vsg_last_error()); /* copied: vsg_fail writes where it lies */
        if (access(fld, F_OK) == 0) st = vsg_fail(st, "%s; %s is an AutoDock4 map set: dock on it with --scoring ad4", why, fld);
    }
    if (st == VSG_OK && recpath) { /* Vina's final refinement on the receptor's atoms */
        st = vsg_cli_read_receptor(recpath, VSG_PREP_PDBQT, quiet, &rec);
        if (st == VSG_OK) st = vsg_vina_target_add_receptor(t, rec);
    }
    if (st != VSG_OK) {
        vsg_molecule_free(rec);
        vsg_vina_target_free(t);
        return vsg_cli_fail(st);
    }
    vsg_pose_checker *checker = NULL;
    const char *paths[1] = {ligpath};
    vsg_ligand_reader_options ro = {.format = VSG_LIG_AUTO, .keep_text = 1, .max_atoms = 0, .smiles = dock_smiles,
                                    .rigid_macrocycles = dock_rigid_macrocycles};
    vsg_ligand_reader *rd = NULL;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    vsg_dock_result res;
    memset(&res, 0, sizeof res);
    vsg_vina_ligand *vl = NULL;
    int rc = VSG_EXIT_OK;
    FILE *f = NULL, *csv = NULL;
    if ((st = vsg_ligand_reader_open(paths, 1, &ro, &rd)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if ((rc = read_record(rd, ligpath, prefix, record, &lig)) != VSG_EXIT_OK) goto done;
    /* a file without hydrogens: its polar ones at neutral valence, with a warning (else wrong Vina types) */
    if ((st = vsg_ligand_complete_hydrogens(&lig, NULL, 1)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if ((st = vsg_vina_ligand_new(&lig, &vl)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if (!local_only && too_many_torsions(vl, ligpath)) { rc = VSG_EXIT_INPUT; goto done; }
    const char *search = dopt.search ? dopt.search : "detail";
    if (!local_only) {
        vsg_vina_box b;
        vsg_vina_target_is_maps(t, &b);
        search = dock_search_for_box(b.size, &lig, &dopt, &p, quiet);
    }
    {
        const vsg_ligand *one[1] = {&lig};
        const uint64_t seed = p.seed;
        vsg_status rst = VSG_OK;
        char msg[1][256];
        if (local_only) { /* the input pose minimised in place: the CPU's one BFGS */
            rst = vsg_dock_local(t, &lig, &p, &res);
            if (rst != VSG_OK) snprintf(msg[0], sizeof msg[0], "%s", vsg_last_error());
            device = VSG_DEVICE_CPU;
        } else if ((st = vsg_dock_batch(t, one, 1, &seed, &p, device, &res, &rst, msg)) != VSG_OK) {
            rc = vsg_cli_fail(st);
            goto done;
        }
        if (rst != VSG_OK) {
            fprintf(stderr, "vsgrid dock: %s\n", msg[0]);
            rc = vsg_cli_exit_code(rst);
            goto done;
        }
    }
    {
        char why[320];
        if (vsg_dock_pose_check(t, &res, 0, why, sizeof why) != VSG_OK) { /* never a meaningless best score */
            fprintf(stderr, "vsgrid dock: %s: best %.3f kcal/mol means nothing: %s\n", ligpath, res.pose[0].score.total, why);
            rc = VSG_EXIT_NOTHING_SCORED;
            goto done;
        }
        for (int k = 1; k < res.npose; k++) /* later poses that leave the box or the receptor are not results either */
            if (vsg_dock_pose_check(t, &res, k, NULL, 0) != VSG_OK) {
                for (int j = k; j < res.npose; j++) free(res.pose[j].xyz), res.pose[j].xyz = NULL;
                res.npose = k;
                break;
            }
    }
    const int on_gpu = device == VSG_DEVICE_GPU || (device == VSG_DEVICE_AUTO && vsg_dock_auto_device(&p) == VSG_DEVICE_GPU);
    /* PoseBusters' checks of each pose against the record as read (before the PDBQT writer types it) */
    if ((st = vsg_pose_checker_new(&lig, rec, &checker)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    int nvalid = 0;
    /* SDF: the record as read; PDBQT: an SDF/MOL2 record as the model has it (typed, non-polar hydrogens merged) */
    if (sdf && (st = vsg_pose_sdf_new(&lig, &res, &sm)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if (!sdf && (st = vsg_pose_model_ligand(&lig, &res)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if (!(f = vsg_fopen_out(outpath, "w"))) { fprintf(stderr, "vsgrid dock: cannot write %s\n", outpath); rc = VSG_EXIT_FAILURE; goto done; }
    if (csvpath && !(csv = fopen(csvpath, "w"))) { fprintf(stderr, "vsgrid dock: cannot write %s\n", csvpath); rc = VSG_EXIT_FAILURE; goto done; }
    if (csv) fprintf(csv, "pose,score_kcal_mol,inter_kcal_mol,intra_kcal_mol,torsional_kcal_mol,search_energy_kcal_mol,"
                          "num_tors,rmsd_best_A,rmsd_input_A,posebusters_valid,posebusters_failed\n");
    for (int k = 0; k < res.npose; k++) {
        const vsg_dock_pose *ps = &res.pose[k];
        char failed[200];
        const int valid = check_pose(checker, t, &res, k, failed, sizeof failed);
        nvalid += valid;
        const double rb = vsg_pose_rmsd_heavy(&res, vl, ps->xyz, res.pose[0].xyz);
        char items[320];
        snprintf(items, sizeof items, "> <vsgrid_posebusters_valid>\n%d\n\n> <vsgrid_posebusters_failed>\n%s\n\n", valid, failed);
        if (sdf ? !vsg_pose_sdf_write_items(f, sm, &res, k, -1, items) : !vsg_pose_write_pdbqt(f, &lig, &res, k, k + 1, rb, -1)) {
            fprintf(stderr, "vsgrid dock: %s: the record's atom lines do not match its model\n", ligpath);
            rc = VSG_EXIT_FAILURE;
            goto done;
        }
        if (csv)
            fprintf(csv, "%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.2f,%.3f,%.3f,%d,%s\n", k + 1, ps->score.total, ps->score.inter,
                    ps->score.intra, ps->score.torsional, ps->energy, ps->score.num_tors, rb, ps->rmsd_input, valid,
                    failed[0] ? failed : "");
    }
    if (ferror(f) || (csv && ferror(csv))) { fprintf(stderr, "vsgrid dock: write error\n"); rc = VSG_EXIT_FAILURE; goto done; }
    char effort[96];
    if (!quiet)
        printf("dock: %s: %d poses (%d PoseBusters-valid%s), best %.3f kcal/mol (inter %.3f, intra %.3f), %d torsions, "
               "%s, %ld evaluations, %.2f s on the %s\n",
               ligpath, res.npose, nvalid, rec ? "" : "; receptor clashes not checked: give --receptor", res.pose[0].score.total,
               res.pose[0].score.inter, res.pose[0].score.intra, res.rotors, vsg_cli_dock_effort(&p, &res, effort, sizeof effort),
               res.evaluations, res.seconds, on_gpu ? "GPU" : "CPU");
    if (json) {
        vsg_json j;
        FILE *jf = vsg_cli_json_open(json, &j, "dock");
        if (!jf) { rc = VSG_EXIT_FAILURE; goto done; }
        vsg_json_str(&j, "ligand", ligpath);
        vsg_json_str(&j, "scoring", sf == VSG_VINA_SCORING_VINA ? "vina" : "vinardo");
        vsg_json_int(&j, "seed", (long long)p.seed);
        vsg_json_str(&j, "search", search);
        vsg_json_str(&j, "device", on_gpu ? "gpu" : "cpu");
        vsg_json_int(&j, "chains", res.chains);
        vsg_json_int(&j, "steps", res.steps);
        const int focus = res.steps ? p.focus_chains : 0; /* --local-only: no chain ran, focus chains neither */
        vsg_json_int(&j, "focus_chains", focus);
        vsg_json_int(&j, "focus_steps", focus ? (p.focus_steps ? p.focus_steps : 4 * res.steps) : 0);
        vsg_json_int(&j, "torsions", res.rotors);
        vsg_json_int(&j, "evaluations", res.evaluations);
        vsg_json_array(&j, "poses");
        for (int k = 0; k < res.npose; k++) vsg_json_num(&j, NULL, res.pose[k].score.total);
        vsg_json_end(&j, ']');
        vsg_json_num(&j, "score", res.pose[0].score.total);
        vsg_cli_json_finish(&j, jf, json, res.seconds);
    }
done:
    if (f && fclose(f) && rc == VSG_EXIT_OK) rc = VSG_EXIT_FAILURE;
    if (csv && fclose(csv) && rc == VSG_EXIT_OK) rc = VSG_EXIT_FAILURE;
    vsg_pose_sdf_free(sm);
    vsg_pose_checker_free(checker);
    vsg_molecule_free(rec);
    vsg_dock_result_release(&res);
    vsg_vina_ligand_free(vl);
    vsg_ligand_release(&lig);
    if (rd) vsg_ligand_reader_close(rd);
    vsg_vina_target_free(t);
    return rc;
}
