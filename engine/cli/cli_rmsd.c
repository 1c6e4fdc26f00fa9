/* cli_rmsd.c — `vsgrid rmsd REF POSES...`: heavy-atom RMSD of every pose record against a
 * reference pose (a crystal ligand), symmetry-aware by default (vsg_ligand_rmsd), the measure
 * of docking success (< 2 Å). One CSV row per record, so a failed record keeps its row. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/cli/cli.h"

static const char usage[] =
    "usage: vsgrid rmsd REF POSES... [--no-symmetry]\n"
    "\n"
    "Heavy-atom RMSD, without superposition, of every record (SDF/MOL2 molecule, PDBQT/PDB\n"
    "MODEL) of POSES against the first record of REF: the docking measure (success < 2 A).\n"
    "Prints CSV to stdout: index,name,rmsd (index 1-based over the records of POSES, rmsd in A;\n"
    "empty for a record that cannot be compared, with its reason on stderr).\n"
    "  REF, POSES     SDF, MOL2, PDBQT or PDB (plain or .gz); the formats may differ and list\n"
    "                 atoms in different orders. Hydrogens are ignored (PDBQT types H, HD too),\n"
    "                 and hydrated docking's W waters\n"
    "  --no-symmetry  atoms compared in file order (heavy atom k with heavy atom k; elements\n"
    "                 must agree): the plain RMSD. Default: symmetry-aware, the minimum over\n"
    "                 every correspondence of the two heavy-atom bond graphs that keeps\n"
    "                 elements and bonds (a carboxylate's oxygens, a phenyl's flip), as obrms\n"
    "                 and RDKit's CalcRMS; bonds are the record's (SDF, MOL2) or inferred from\n"
    "                 distances (PDBQT, PDB): covalent radii + 0.45 A\n"
    "A summary line (records, best RMSD) goes to stderr. Exit 0 when every record was\n"
    "compared; 3 when REF is unreadable or a pose could not be compared (its row is empty).\n";

static int is_h(const vsg_lig_atom *a)
{
    return !strcmp(a->element, "H") || !strcmp(a->element, "D") || !strcmp(a->ad_type, "HD") ||
           !strcmp(a->ad_type, "H") || !strcmp(a->ad_type, "HS") ||
           !strcmp(a->ad_type, "W"); /* a hydrated-docking water: a pseudo-atom, not the ligand's */
}

/* Heavy atoms in file order; elements must agree pairwise. */
static int plain_rmsd(const vsg_ligand *r, const vsg_ligand *p, double *out, char *why, size_t len)
{
    int i = 0, j = 0, n = 0;
    double s = 0;
    for (;;) {
        while (i < r->natoms && is_h(&r->atoms[i])) i++;
        while (j < p->natoms && is_h(&p->atoms[j])) j++;
        if (i == r->natoms || j == p->natoms) break;
        const vsg_lig_atom *a = &r->atoms[i++], *b = &p->atoms[j++];
        if (strcmp(a->element, b->element)) {
            snprintf(why, len, "heavy atom %d is %s in the reference, %s in the pose (--no-symmetry compares in file order)",
                     n + 1, a->element, b->element);
            return 0;
        }
        s += (a->x - b->x) * (a->x - b->x) + (a->y - b->y) * (a->y - b->y) + (a->z - b->z) * (a->z - b->z);
        n++;
    }
    while (i < r->natoms && is_h(&r->atoms[i])) i++;
    while (j < p->natoms && is_h(&p->atoms[j])) j++;
    if (i != r->natoms || j != p->natoms || n == 0) {
        int nr = 0, np = 0;
        for (int k = 0; k < r->natoms; k++) nr += !is_h(&r->atoms[k]);
        for (int k = 0; k < p->natoms; k++) np += !is_h(&p->atoms[k]);
        snprintf(why, len, "%d heavy atoms in the reference, %d in the pose", nr, np);
        return 0;
    }
    *out = sqrt(s / n);
    return 1;
}

/* A CSV field: quoted when it holds a comma, a quote or starts/ends with a blank. */
static void csv_field(const char *s)
{
    size_t n = strlen(s);
    if (!strpbrk(s, ",\"") && (n == 0 || (s[0] != ' ' && s[n - 1] != ' '))) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"') putchar('"');
        putchar(*s);
    }
    putchar('"');
}

int vsg_cmd_rmsd(int argc, char **argv)
{
    const char *ref_path = NULL, *poses[64];
    int nposes = 0, symmetry = 1;
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) { fputs(usage, stdout); return 0; }
        if (vsg_arg_is(&a, "--no-symmetry")) { symmetry = 0; continue; }
        if (arg[0] == '-' && arg[1]) return vsg_cli_usage_error("rmsd", "unknown option %s", arg);
        if (!ref_path) ref_path = arg;
        else if (nposes < (int)(sizeof poses / sizeof poses[0])) poses[nposes++] = arg;
        else return vsg_cli_usage_error("rmsd", "at most %d POSES files", (int)(sizeof poses / sizeof poses[0]));
    }
    if (!ref_path || !nposes) return vsg_cli_usage_error("rmsd", "needs REF and POSES");

    vsg_ligand_reader_options ro = {.format = VSG_LIG_AUTO, .keep_text = 0, .max_atoms = 0};
    vsg_ligand_reader *rd = NULL;
    vsg_ligand ref, lig;
    vsg_ligand_init(&ref);
    vsg_ligand_init(&lig);
    int rc = VSG_EXIT_OK;
    vsg_status st = vsg_ligand_reader_open(&ref_path, 1, &ro, &rd);
    if (st != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if (vsg_ligand_reader_next(rd, &ref) != 1) {
        fprintf(stderr, "vsgrid rmsd: %s: no record\n", ref_path);
        rc = VSG_EXIT_INPUT;
        goto done;
    }
    if (ref.status != VSG_OK) {
        fprintf(stderr, "vsgrid rmsd: %s\n", ref.message);
        rc = vsg_cli_exit_code(ref.status);
        goto done;
    }
    vsg_ligand_reader_close(rd);
    rd = NULL;
    if ((st = vsg_ligand_reader_open(poses, nposes, &ro, &rd)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    puts("index,name,rmsd");
    long records = 0, failed = 0, best_at = 0;
    double best = HUGE_VAL;
    while (vsg_ligand_reader_next(rd, &lig) == 1) {
        records++;
        double r = 0;
        char why[300] = "";
        int ok = 0;
        if (lig.status != VSG_OK) {
            snprintf(why, sizeof why, "%s", lig.message);
        } else if (symmetry) {
            vsg_clear_error();
            ok = vsg_ligand_rmsd(&ref, &lig, &r) == VSG_OK;
            if (!ok) snprintf(why, sizeof why, "%s", vsg_last_error());
        } else {
            ok = plain_rmsd(&ref, &lig, &r, why, sizeof why);
        }
        printf("%ld,", records);
        csv_field(lig.name);
        if (ok) printf(",%.4f\n", r);
        else printf(",\n");
        if (!ok) {
            failed++;
            fprintf(stderr, "vsgrid rmsd: %s record %ld: %s\n", lig.source ? lig.source : "", lig.record, why);
        } else if (r < best) {
            best = r, best_at = records;
        }
    }
    if (fflush(stdout) != 0) { fprintf(stderr, "vsgrid rmsd: error writing the CSV\n"); rc = VSG_EXIT_FAILURE; goto done; }
    if (records == 0) {
        fprintf(stderr, "vsgrid rmsd: no records in POSES\n");
        rc = VSG_EXIT_INPUT;
        goto done;
    }
    if (best_at)
        fprintf(stderr, "rmsd: %ld records, best %.3f A (record %ld)%s\n", records, best, best_at,
                symmetry ? ", symmetry-aware" : ", file order");
    if (failed) {
        fprintf(stderr, "vsgrid rmsd: %ld of %ld records could not be compared\n", failed, records);
        rc = VSG_EXIT_INPUT;
    }
done:
    vsg_ligand_reader_close(rd);
    vsg_ligand_release(&ref);
    vsg_ligand_release(&lig);
    return rc;
}
