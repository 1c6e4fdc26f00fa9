/* cli_prepare_ligands.c — `vsgrid prepare-ligands LIB... -o OUT.sdf`: a SMILES library (or any
 * library the reader takes) written as the 3D SDF the screen would dock, one output record per
 * input record, for users who want the prepared library itself.
 *
 * Records are parsed (prepared) in parallel: the reader cuts the input into chunks of whole
 * records (ligands/readers/ligand_reader.h), a batch of chunks is prepared by OpenMP threads,
 * each with its own chunk reader, and the batch is written in input order; memory is bounded by
 * one batch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "engine/cli/cli.h"
#include "engine/screen/screen.h" /* vsg_sdf_write_record */
#include "ligands/ligand.h"
#include "ligands/readers/ligand_reader.h"



static const char usage[] =
    "usage: vsgrid prepare-ligands LIBRARY... -o OUT.sdf [--ph X|none] [--stereo any|specified]\n"
    "                              [--minimize N] [--threads N] [--format F] [--quiet]\n"
    "\n"
    "Writes each record of the libraries as the 3D molecule a screen would dock: SMILES\n"
    "(.smi/.ism/.csv, .gz) prepared by Open Babel (largest fragment, protonation at the pH,\n"
    "hydrogens, 3D build and MMFF94 steps, Gasteiger charges); other formats as read, with\n"
    "Gasteiger charges when they have none.\n"
    "  -o OUT.sdf        V2000 SDF, one record per input record in input order: the molecule\n"
    "                    with atom.dprop.PartialCharge (RDKit's atom property list: RDKit\n"
    "                    reads the charges as atom properties) and vsgrid_smiles,\n"
    "                    vsgrid_unassigned_stereo, vsgrid_note items; a record that failed is\n"
    "                    an empty molecule with vsgrid_status and vsgrid_message items (so\n"
    "                    record k of OUT is input record k), and one line on stderr\n"
    "  --ph X|none       protonation at pH X by Open Babel's model (default 7.4), or the\n"
    "                    SMILES's own states (none)\n"
    "  --stereo MODE     any (default: a stereocentre the SMILES leaves open gets the 3D\n"
    "                    builder's configuration, counted in vsgrid_unassigned_stereo) or\n"
    "                    specified (such a record fails, status stereo)\n"
    "  --minimize N      MMFF94 (else UFF) steepest-descent steps after the build (default\n"
    "                    100; 0: the builder's coordinates)\n"
    "  --threads N       records prepared in parallel (default: every core)\n"
    "  --format F        sdf | mol2 | pdbqt | pdb | smi | csv (default: from each file)\n"
    "  --quiet           no summary on stderr (failures are still reported)\n"
    "Exit 0 when the output was written (failed records included: they are counted in the\n"
    "summary); 2 usage; 3 an unreadable input; 7 SMILES input in a build without Open Babel.\n";

#define CHUNK_RECORDS 16 /* records a chunk: small, so that threads share a short library */

typedef struct {
    vsg_lig_chunk ch;
    vsg_ligand *recs;
    int n, cap;
} batch_chunk;

static void write_failed(FILE *f, const vsg_ligand *lig)
{
    fprintf(f, "%s\n  vsgrid\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n", lig->name);
    fprintf(f, "> <vsgrid_status>\n%s\n\n> <vsgrid_message>\n%s\n\n$$$$\n", lig->code, lig->message);
}

/* Charges for a record without any (not a SMILES record: those have theirs). */
static void charge(vsg_ligand *lig)
{
    if (lig->status != VSG_OK || lig->has_charges) return;
    if (vsg_ligand_gasteiger(lig) != VSG_OK)
        vsg_ligand_fail(lig, VSG_E_DATA, VSG_LIG_NO_CHARGES, "%s:%ld: record %ld: no Gasteiger charges: %s",
                        lig->source, lig->line, lig->record, vsg_last_error());
    else
        lig->has_charges = 1;
}

static int write_record(FILE *f, vsg_ligand *lig)
{
    if (lig->status != VSG_OK) {
        write_failed(f, lig);
        return 0;
    }
    if (lig->text && lig->text_len && strstr(lig->text, "atom.dprop.PartialCharge")) { /* a SMILES record */
        fwrite(lig->text, 1, lig->text_len, f);
        return 1;
    }
    vsg_sdf_tag tag = {"prepared", "1"};
    return vsg_sdf_write_record(f, lig, &tag, 1) == VSG_OK;
}

int vsg_cmd_prepare_ligands(int argc, char **argv)
{
    const char *out = NULL, *v;
    const char *inputs[4096];
    int ninputs = 0, quiet = 0, threads = 0;
    vsg_ligand_reader_options ro = {.format = VSG_LIG_AUTO, .keep_text = 1};
    double x;
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
#define VALUE() do { if (!(v = vsg_arg_value(&a, "prepare-ligands"))) return VSG_EXIT_USAGE; } while (0)
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(usage, stdout);
            return VSG_EXIT_OK;
        } else if (vsg_arg_is(&a, "-o") || vsg_arg_is(&a, "--output")) {
            VALUE();
            out = v;
        } else if (vsg_arg_is(&a, "--ph")) {
            VALUE();
            if (vsg_smiles_parse_ph(v, &ro.smiles) != VSG_OK)
                return vsg_cli_usage_error("prepare-ligands", "%s", vsg_last_error());
        } else if (vsg_arg_is(&a, "--stereo")) {
            VALUE();
            if (!strcmp(v, "any")) ro.smiles.stereo = VSG_STEREO_BUILDER;
            else if (!strcmp(v, "specified")) ro.smiles.stereo = VSG_STEREO_SPECIFIED;
            else return vsg_cli_usage_error("prepare-ligands", "--stereo: '%s' is not any or specified", v);
        } else if (vsg_arg_is(&a, "--minimize")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || x < 0 || x > 100000 || x != (int)x)
                return vsg_cli_usage_error("prepare-ligands", "--minimize: '%s' is not a whole number in [0, 100000]", v);
            ro.smiles.min_steps = x == 0 ? -1 : (int)x;
        } else if (vsg_arg_is(&a, "--threads")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || x < 1 || x > 4096 || x != (int)x)
                return vsg_cli_usage_error("prepare-ligands", "--threads: '%s' is not a whole number >= 1", v);
            threads = (int)x;
        } else if (vsg_arg_is(&a, "--format")) {
            VALUE();
            vsg_ligand_format f = !strcmp(v, "smi") ? VSG_LIG_SMILES : !strcmp(v, "csv") ? VSG_LIG_CSV
                                : !strcmp(v, "sdf") ? VSG_LIG_SDF : !strcmp(v, "mol2") ? VSG_LIG_MOL2
                                : !strcmp(v, "pdbqt") ? VSG_LIG_PDBQT : !strcmp(v, "pdb") ? VSG_LIG_PDB : VSG_LIG_AUTO;
            if (f == VSG_LIG_AUTO)
                return vsg_cli_usage_error("prepare-ligands", "--format: '%s' is not sdf, mol2, pdbqt, pdb, smi or csv", v);
            ro.format = f;
        } else if (vsg_arg_is(&a, "--quiet")) {
            quiet = 1;
        } else if (arg[0] == '-' && arg[1]) {
            return vsg_cli_usage_error("prepare-ligands", "unknown option '%s'", arg);
        } else {
            if (ninputs >= (int)(sizeof inputs / sizeof inputs[0]))
                return vsg_cli_usage_error("prepare-ligands", "more than 4096 libraries");
            inputs[ninputs++] = arg;
        }
#undef VALUE
    }
    if (ninputs == 0) return vsg_cli_usage_error("prepare-ligands", "no LIBRARY given");
    if (!out) return vsg_cli_usage_error("prepare-ligands", "no output: give -o OUT.sdf");
    if (vsg_ligand_format_of(out) != VSG_LIG_SDF)
        return vsg_cli_usage_error("prepare-ligands",
                                   "-o %s: only SDF output (.sdf) for now; PDBQT with its torsion tree is not written "
                                   "yet (Meeko's mk_prepare_ligand.py takes the SDF)", out);
    vsg_ligand_reader *rd = NULL;
    vsg_status st = vsg_ligand_reader_open(inputs, ninputs, &ro, &rd);
    if (st != VSG_OK) return vsg_cli_fail(st);
    for (int i = 0; i < ninputs; i++) {
        vsg_ligand_format f = vsg_ligand_reader_format(rd, i);
        if ((f == VSG_LIG_SMILES || f == VSG_LIG_CSV) && !vsg_smiles_available()) {
            vsg_ligand_reader_close(rd);
            fprintf(stderr, "vsgrid prepare-ligands: %s: SMILES input needs Open Babel, absent from this build\n",
                    inputs[i]);
            return VSG_EXIT_UNSUPPORTED;
        }
    }
    FILE *f = strcmp(out, "-") ? fopen(out, "w") : stdout;
    if (!f) {
        vsg_ligand_reader_close(rd);
        fprintf(stderr, "vsgrid prepare-ligands: cannot write %s\n", out);
        return VSG_EXIT_INPUT;
    }
#ifdef _OPENMP
    if (threads > 0) omp_set_num_threads(threads);
    const int nt = omp_get_max_threads();
#else
    (void)threads;
    const int nt = 1;
#endif
    const int nbatch = 4 * nt; /* chunks a batch: enough for the threads to share unequal chunks */
    batch_chunk *b = calloc((size_t)nbatch, sizeof *b);
    int rc = b ? VSG_EXIT_OK : VSG_EXIT_LIMIT;
    size_t records = 0, failed = 0, written = 0;
    const double t0 = vsg_now();
    const int split = vsg_ligand_reader_splittable(rd);
    while (rc == VSG_EXIT_OK) {
        int nc = 0;
        if (split) {
            while (nc < nbatch) {
                int got = vsg_ligand_reader_next_chunk(rd, &b[nc].ch, CHUNK_RECORDS, 1u << 20);
                if (got < 0) rc = VSG_EXIT_LIMIT;
                if (got <= 0) break;
                nc++;
            }
            if (nc == 0) break;
#pragma omp parallel for schedule(dynamic, 1)
            for (int c = 0; c < nc; c++) {
                vsg_ligand_reader *cr = NULL;
                b[c].n = 0;
                if (vsg_ligand_reader_open_chunk(&ro, &cr) != VSG_OK) continue;
                vsg_ligand_reader_set_chunk(cr, &b[c].ch);
                for (;;) {
                    if (b[c].n == b[c].cap) {
                        int cap = b[c].cap ? 2 * b[c].cap : CHUNK_RECORDS;
                        vsg_ligand *t = realloc(b[c].recs, (size_t)cap * sizeof *t);
                        if (!t) break;
                        for (int k = b[c].cap; k < cap; k++) vsg_ligand_init(&t[k]);
                        b[c].recs = t;
                        b[c].cap = cap;
                    }
                    if (!vsg_ligand_reader_next(cr, &b[c].recs[b[c].n])) break;
                    charge(&b[c].recs[b[c].n]);
                    b[c].n++;
                }
                vsg_ligand_reader_close(cr);
            }
        } else { /* memory or standard input: one thread */
            if (!b[0].cap) {
                b[0].recs = malloc(sizeof *b[0].recs);
                if (!b[0].recs) { rc = VSG_EXIT_LIMIT; break; }
                b[0].cap = 1;
                vsg_ligand_init(&b[0].recs[0]);
            }
            b[0].n = vsg_ligand_reader_next(rd, &b[0].recs[0]);
            if (!b[0].n) break;
            charge(&b[0].recs[0]);
            nc = 1;
        }
        for (int c = 0; c < nc; c++)
            for (int k = 0; k < b[c].n; k++) {
                vsg_ligand *lig = &b[c].recs[k];
                records++;
                if (lig->status != VSG_OK) {
                    failed++;
                    fprintf(stderr, "vsgrid prepare-ligands: %s: %s\n", lig->code, lig->message);
                    if (lig->code[0] && !strcmp(lig->code, VSG_LIG_IO)) rc = VSG_EXIT_INPUT;
                }
                written += (size_t)write_record(f, lig);
            }
    }
    const double secs = vsg_now() - t0;
    if (ferror(f) || (f != stdout && fclose(f) != 0)) {
        fprintf(stderr, "vsgrid prepare-ligands: write error on %s\n", out);
        rc = VSG_EXIT_FAILURE;
    }
    for (int c = 0; b && c < nbatch; c++) {
        for (int k = 0; k < b[c].cap; k++) vsg_ligand_release(&b[c].recs[k]);
        free(b[c].recs);
        vsg_lig_chunk_free(&b[c].ch);
    }
    free(b);
    vsg_ligand_reader_close(rd);
    if (!quiet)
        fprintf(stderr,
                "vsgrid prepare-ligands: %zu records, %zu prepared, %zu failed, in %.2f s (%.1f records/s, %d "
                "threads) -> %s\n",
                records, written, failed, secs, secs > 0 ? (double)records / secs : 0.0, nt, out);
    return rc;
}
