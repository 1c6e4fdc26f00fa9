/* cli_dock.c — `vsgrid dock PREFIX LIGAND -o OUT.pdbqt`: one ligand docked into a Vina or
 * Vinardo map set by the CPU twin of the flexible search (vsg_dock_cpu), its best poses written
 * as PDBQT models that `vina --score_only` rescores: a PDBQT input's own lines (ROOT/BRANCH
 * tree, atom lines) with the pose's coordinates; an SDF/MOL2 input as the model the search moved
 * (AutoDock types, non-polar hydrogens merged) with the tree it used. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli/cli.h"

static const char usage[] =
    "usage: vsgrid dock PREFIX LIGAND.pdbqt|.sdf|.mol2 [--scoring vina|vinardo] [--seed N]\n"
    "                   [--exhaustiveness N] [--steps N] [--poses K] [--min-rmsd A] [--from-input]\n"
    "                   [--threads N] [--csv OUT.csv] [--json FILE] [--quiet] -o OUT.pdbqt\n"
    "\n"
    "Docks the first record of LIGAND into the Vina map set PREFIX.<XS type>.map (`vsgrid maps\n"
    "REC.pdbqt --scoring vina --around LIG -o PREFIX` or `vina --write_maps PREFIX`) by AutoDock\n"
    "Vina 1.2's method, on the CPU: Monte Carlo chains of a random change of position, orientation\n"
    "or one torsion, BFGS on the analytic gradient of the maps and the ligand's internal pairs,\n"
    "Metropolis acceptance. Bond lengths, angles and rings stay as in the input.\n"
    "  --scoring S        vina (default) or vinardo: must be what the maps were made with\n"
    "  --seed N           random seed (default 0); the same seed gives the same poses, whatever\n"
    "                     the thread count\n"
    "  --exhaustiveness N independent chains, each from a random pose in the box (default 8)\n"
    "  --steps N          Monte Carlo steps a chain (default Vina's: 105 x (50 + atoms + 10 x (6 +\n"
    "                     torsions)))\n"
    "  --poses K          poses written at most (default 9), best first, none within --min-rmsd\n"
    "                     (default 1 A, heavy atoms) of a better one\n"
    "  --from-input       start every chain from the input pose instead of a random one\n"
    "  --threads N        OpenMP threads over the chains (default all)\n"
    "  -o OUT.pdbqt       the poses as MODEL/ENDMDL blocks with `REMARK VINA RESULT: score\n"
    "                     rmsd rmsd` (kcal/mol; heavy-atom RMSD to the best pose, twice) and the\n"
    "                     terms; score = what `vina --score_only` gives the written pose\n"
    "  --csv OUT.csv      one row a pose: pose,score_kcal_mol,inter_kcal_mol,intra_kcal_mol,\n"
    "                     torsional_kcal_mol,search_energy_kcal_mol,num_tors,rmsd_best_A,rmsd_input_A\n"
    "                     (rmsd_input: to the input coordinates, same atom order, no symmetry)\n"
    "  --json FILE        a summary: poses, scores, chains, steps, evaluations, seconds\n"
    "  --quiet            no summary line\n"
    "Exit codes: 0 ok, 2 usage, 3 bad input (no map set, a ligand atom without a map, a malformed\n"
    "torsion tree), 4 memory, 1 other failure.\n";

static double rmsd_heavy(const vsg_dock_result *r, const vsg_vina_ligand *l, const double *a, const double *b)
{
    double s = 0;
    int n = 0;
    for (int i = 0; i < r->natoms; i++) {
        if (vsg_vina_ligand_xs_type(l, i) == VSG_XS_NONE) continue;
        for (int d = 0; d < 3; d++) s += (a[3 * i + d] - b[3 * i + d]) * (a[3 * i + d] - b[3 * i + d]);
        n++;
    }
    return n ? sqrt(s / n) : 0;
}

static void remarks(FILE *f, int model, const vsg_dock_pose *p, double rmsd)
{
    fprintf(f, "MODEL %d\n", model);
    fprintf(f, "REMARK VINA RESULT: %9.3f %10.3f %10.3f\n", p->score.total, rmsd, rmsd);
    fprintf(f, "REMARK INTER + INTRA:    %12.3f\nREMARK INTER:            %12.3f\nREMARK INTRA:            %12.3f\n"
               "REMARK UNBOUND:          %12.3f\n",
            p->score.inter + p->score.intra, p->score.inter, p->score.intra, p->score.unbound);
}

/* PDBQT input: the record's own lines, atom coordinates replaced (columns 31-54). */
static int write_pdbqt_record(FILE *f, const vsg_ligand *lig, const double *xyz, int natoms)
{
    int atom = 0, root_seen = 0;
    const char *p = lig->text, *end = lig->text + lig->text_len;
    /* the reader's record may begin at its first atom, after a ROOT line: put ROOT back */
    int has_endroot = 0;
    for (const char *q = p; q && q < end; q = memchr(q, '\n', (size_t)(end - q)), q = q ? q + 1 : NULL)
        if (end - q >= 7 && !memcmp(q, "ENDROOT", 7)) has_endroot = 1;
    while (p < end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        size_t len = e ? (size_t)(e - p) : (size_t)(end - p);
        const char *s = p;
        p = e ? e + 1 : end;
        while (len > 0 && s[len - 1] == '\r') len--;
        if ((len >= 5 && !memcmp(s, "MODEL", 5)) || (len >= 6 && !memcmp(s, "ENDMDL", 6))) continue;
        if (len >= 4 && !memcmp(s, "ROOT", 4)) root_seen = 1;
        if (len >= 54 && (!memcmp(s, "ATOM  ", 6) || !memcmp(s, "HETATM", 6))) {
            if (atom >= natoms) return 0;
            if (!root_seen && has_endroot) fputs("ROOT\n", f);
            root_seen = 1;
            fprintf(f, "%.30s%8.3f%8.3f%8.3f%.*s\n", s, xyz[3 * atom], xyz[3 * atom + 1], xyz[3 * atom + 2],
                    (int)(len - 54), s + 54);
            atom++;
            continue;
        }
        fprintf(f, "%.*s\n", (int)len, s);
    }
    return atom == natoms;
}

/* SDF/MOL2 input: the model's atoms (m, typed and merged as the search had them) under the tree. */
static void atom_line(FILE *f, const vsg_ligand *m, const double *xyz, int i, const int *serial)
{
    const vsg_lig_atom *a = &m->atoms[i];
    const char *name = a->name[0] ? a->name : a->element;
    fprintf(f, "ATOM  %5d %-4.4s LIG L   1    %8.3f%8.3f%8.3f  1.00  0.00    %6.3f %-2s\n", serial[i], name, xyz[3 * i],
            xyz[3 * i + 1], xyz[3 * i + 2], a->charge, a->ad_type);
}

static void write_branch(FILE *f, const vsg_ligand *m, const vsg_dock_result *r, const double *xyz, int body,
                         const int *serial)
{
    for (int i = 0; i < r->natoms; i++)
        if (r->body[i] == body) atom_line(f, m, xyz, i, serial);
    for (int k = 0; k < r->rotors; k++) {
        const int a = r->rotor[k][0], b = r->rotor[k][1];
        if (r->body[a] != body) continue;
        fprintf(f, "BRANCH %3d %3d\n", serial[a], serial[b]);
        write_branch(f, m, r, xyz, r->body[b], serial);
        fprintf(f, "ENDBRANCH %3d %3d\n", serial[a], serial[b]);
    }
}

static void write_tree(FILE *f, const vsg_ligand *m, const vsg_dock_result *r, const double *xyz, const int *serial)
{
    fprintf(f, "REMARK Name = %s\nROOT\n", m->name);
    for (int i = 0; i < r->natoms; i++)
        if (r->body[i] == r->root) atom_line(f, m, xyz, i, serial);
    fprintf(f, "ENDROOT\n");
    for (int k = 0; k < r->rotors; k++) {
        const int a = r->rotor[k][0], b = r->rotor[k][1];
        if (r->body[a] != r->root) continue;
        fprintf(f, "BRANCH %3d %3d\n", serial[a], serial[b]);
        write_branch(f, m, r, xyz, r->body[b], serial);
        fprintf(f, "ENDBRANCH %3d %3d\n", serial[a], serial[b]);
    }
    fprintf(f, "TORSDOF %d\n", r->rotors);
}

int vsg_cmd_dock(int argc, char **argv)
{
    const char *prefix = NULL, *ligpath = NULL, *outpath = NULL, *csvpath = NULL, *json = NULL, *v;
    vsg_vina_scoring sf = VSG_VINA_SCORING_VINA;
    vsg_dock_params p;
    vsg_dock_params_default(&p);
    int quiet = 0;
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        double x;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) { fputs(usage, stdout); return 0; }
        if (vsg_arg_is(&a, "--scoring")) {
            if (!(v = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE;
            if (!strcmp(v, "vina")) sf = VSG_VINA_SCORING_VINA;
            else if (!strcmp(v, "vinardo")) sf = VSG_VINA_SCORING_VINARDO;
            else return vsg_cli_usage_error("dock", "--scoring: '%s' is not vina or vinardo", v);
            continue;
        }
        if (vsg_arg_is(&a, "--seed")) {
            if (!(v = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE;
            char *end;
            unsigned long long s = strtoull(v, &end, 10);
            if (!isdigit((unsigned char)v[0]) || *end) return vsg_cli_usage_error("dock", "--seed: '%s' is not an integer >= 0", v);
            p.seed = (uint64_t)s;
            continue;
        }
        int *ip = vsg_arg_is(&a, "--exhaustiveness") ? &p.exhaustiveness : vsg_arg_is(&a, "--steps") ? &p.steps
                  : vsg_arg_is(&a, "--poses") ? &p.poses : vsg_arg_is(&a, "--threads") ? &p.threads : NULL;
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
        if (vsg_arg_is(&a, "--from-input")) { p.random_start = 0; continue; }
        if (vsg_arg_is(&a, "--quiet")) { quiet = 1; continue; }
        if (vsg_arg_is(&a, "--csv")) { if (!(csvpath = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--json")) { if (!(json = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE; continue; }
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

    vsg_vina_target *t = NULL;
    vsg_status st = vsg_vina_target_maps(prefix, sf, &t);
    if (st != VSG_OK) return vsg_cli_fail(st);
    const char *paths[1] = {ligpath};
    vsg_ligand_reader_options ro = {VSG_LIG_AUTO, 1, 0};
    vsg_ligand_reader *rd = NULL;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    vsg_dock_result res;
    memset(&res, 0, sizeof res);
    vsg_vina_ligand *vl = NULL;
    int rc = VSG_EXIT_OK, *serial = NULL;
    FILE *f = NULL, *csv = NULL;
    if ((st = vsg_ligand_reader_open(paths, 1, &ro, &rd)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if (vsg_ligand_reader_next(rd, &lig) != 1) {
        fprintf(stderr, "vsgrid dock: %s: no record\n", ligpath);
        rc = VSG_EXIT_INPUT;
        goto done;
    }
    if (lig.status != VSG_OK) {
        fprintf(stderr, "vsgrid dock: %s\n", lig.message);
        rc = vsg_cli_exit_code(lig.status);
        goto done;
    }
    if ((st = vsg_vina_ligand_new(&lig, &vl)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if ((st = vsg_dock_cpu(t, &lig, &p, &res)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    const int pdbqt = lig.format == VSG_LIG_PDBQT;
    if (!pdbqt) { /* the atoms as the model has them: typed, non-polar hydrogens merged */
        if ((st = vsg_ligand_assign_ad_types(&lig)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
        vsg_ligand_merge_nonpolar_h(&lig);
        if (lig.natoms != res.natoms) {
            fprintf(stderr, "vsgrid dock: %s: %d atoms after the hydrogen merge, the model has %d\n", ligpath, lig.natoms,
                    res.natoms);
            rc = VSG_EXIT_FAILURE;
            goto done;
        }
    }
    serial = malloc(sizeof(int) * (size_t)res.natoms);
    if (!serial) { rc = vsg_cli_fail(vsg_fail(VSG_E_NOMEM, "out of memory")); goto done; }
    for (int i = 0; i < res.natoms; i++) serial[i] = i + 1;
    if (!(f = fopen(outpath, "w"))) { fprintf(stderr, "vsgrid dock: cannot write %s\n", outpath); rc = VSG_EXIT_FAILURE; goto done; }
    if (csvpath && !(csv = fopen(csvpath, "w"))) { fprintf(stderr, "vsgrid dock: cannot write %s\n", csvpath); rc = VSG_EXIT_FAILURE; goto done; }
    if (csv) fprintf(csv, "pose,score_kcal_mol,inter_kcal_mol,intra_kcal_mol,torsional_kcal_mol,search_energy_kcal_mol,"
                          "num_tors,rmsd_best_A,rmsd_input_A\n");
    for (int k = 0; k < res.npose; k++) {
        const vsg_dock_pose *ps = &res.pose[k];
        const double rb = rmsd_heavy(&res, vl, ps->xyz, res.pose[0].xyz);
        remarks(f, k + 1, ps, rb);
        if (pdbqt) {
            if (!write_pdbqt_record(f, &lig, ps->xyz, res.natoms)) {
                fprintf(stderr, "vsgrid dock: %s: the record's atom lines do not match its model\n", ligpath);
                rc = VSG_EXIT_FAILURE;
                goto done;
            }
        } else {
            write_tree(f, &lig, &res, ps->xyz, serial);
        }
        fprintf(f, "ENDMDL\n");
        if (csv)
            fprintf(csv, "%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.2f,%.3f,%.3f\n", k + 1, ps->score.total, ps->score.inter,
                    ps->score.intra, ps->score.torsional, ps->energy, ps->score.num_tors, rb, ps->rmsd_input);
    }
    if (ferror(f) || (csv && ferror(csv))) { fprintf(stderr, "vsgrid dock: write error\n"); rc = VSG_EXIT_FAILURE; goto done; }
    if (!quiet)
        printf("dock: %s: %d poses, best %.3f kcal/mol (inter %.3f, intra %.3f), %d torsions, %d chains x %d steps, "
               "%ld evaluations, %.2f s\n",
               ligpath, res.npose, res.pose[0].score.total, res.pose[0].score.inter, res.pose[0].score.intra, res.rotors,
               res.chains, res.steps, res.evaluations, res.seconds);
    if (json) {
        vsg_json j;
        FILE *jf = vsg_cli_json_open(json, &j, "dock");
        if (!jf) { rc = VSG_EXIT_FAILURE; goto done; }
        vsg_json_str(&j, "ligand", ligpath);
        vsg_json_str(&j, "scoring", sf == VSG_VINA_SCORING_VINA ? "vina" : "vinardo");
        vsg_json_int(&j, "seed", (long long)p.seed);
        vsg_json_int(&j, "chains", res.chains);
        vsg_json_int(&j, "steps", res.steps);
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
    free(serial);
    vsg_dock_result_release(&res);
    vsg_vina_ligand_free(vl);
    vsg_ligand_release(&lig);
    if (rd) vsg_ligand_reader_close(rd);
    vsg_vina_target_free(t);
    return rc;
}
