/* cli_prepare_ligands.c — `vsgrid prepare-ligands LIB... -o OUT.sdf|OUT.pdbqt`: a SMILES library
 * (or any library the reader takes) written as the 3D SDF the screen would dock or the PDBQT
 * ligands vina docks, one output record per input record, for users who want the prepared
 * library itself. A thin shell: the format follows from -o's extension and the work is
 * vsg_prepare_ligands (engine/screen/prepare_ligands.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli/cli.h"



static const char usage[] =
    "usage: vsgrid prepare-ligands LIBRARY... -o OUT.sdf|OUT.pdbqt [--ph X|none] [--stereo any|specified|enumerate]\n"
    "                              [--minimize N] [--embed G] [--threads N] [--format F] [--quiet]\n"
    "                              [--rigid-macrocycles]\n"
    "\n"
    "Writes each record of the libraries as the 3D molecule a screen would dock: SMILES\n"
    "(.smi/.ism/.csv, .gz) prepared by Open Babel (largest fragment, protonation at the pH,\n"
    "hydrogens, 3D build and MMFF94 steps, Gasteiger charges); other formats as read, with\n"
    "Gasteiger charges when they have none.\n"
    "  -o OUT            the format from the extension: .sdf or .pdbqt (.sdf.gz, .pdbqt.gz:\n"
    "                    gzipped); one record per input record in input order\n"
    "  -o OUT.sdf        V2000 SDF: the molecule with atom.dprop.PartialCharge (RDKit's\n"
    "                    atom property list: RDKit reads the charges as atom properties)\n"
    "                    and vsgrid_smiles, vsgrid_unassigned_stereo, vsgrid_note items; a\n"
    "                    record that failed is an empty molecule with vsgrid_status and\n"
    "                    vsgrid_message items (so record k of OUT is input record k), and\n"
    "                    one line on stderr\n"
    "  -o OUT.pdbqt      AutoDock ligands, MODEL k for input record k: the torsion tree\n"
    "                    vsgrid dock searches (ROOT/BRANCH/TORSDOF), AutoDock types (C A N\n"
    "                    NA OA SA HD ...), non-polar hydrogens merged, Gasteiger charges,\n"
    "                    REMARK VSGRID lines (record, status, source, SMILES, note); a\n"
    "                    failed record is a MODEL of REMARK lines (VSGRID STATUS and\n"
    "                    MESSAGE) without atoms. vina reads one ligand a file: split with\n"
    "                    'vina_split --input OUT.pdbqt --ligand lig_', then give vina the\n"
    "                    files with atoms (vina refuses the failed ones: 'No atoms')\n"
    "  --ph X|none       protonation at pH X by Open Babel's model (default 7.4), or the\n"
    "                    SMILES's own states (none)\n"
    "  --stereo MODE     any (default: a stereocentre the SMILES leaves open gets the 3D\n"
    "                    builder's configuration, counted in vsgrid_unassigned_stereo) or\n"
    "                    specified (such a record fails, status stereo; so does one whose\n"
    "                    specified centres the builder inverted in 5 builds, which 'any'\n"
    "                    keeps with a note and vsgrid_inverted_stereo), or enumerate (RDKit:\n"
    "                    every stereoisomer of the open centres and double bonds, up to 8,\n"
    "                    each its own record, the second on with a vsgrid_conformer item)\n"
    "  --minimize N      MMFF94 (else UFF) steps after the 3D build (default: RDKit 50\n"
    "                    iterations, Open Babel 100 steepest-descent steps; 0: none)\n"
    "  --embed GEN       the 3D conformer generator: rdkit (ETKDGv3, seeded: the same\n"
    "                    molecule every run; the default when built with RDKit) or openbabel\n"
    "                    (Open Babel's builder, clock-seeded)\n"
    "  --conformers N    OUT.sdf: up to N conformers a molecule (RDKit only), those whose\n"
    "                    rings differ (no non-aromatic ring: one), each its own record, the\n"
    "                    second on with a vsgrid_conformer item (2, 3, ...); OUT.pdbqt: the\n"
    "                    first. Default 1\n"
    "  --rigid-macrocycles  OUT.pdbqt: rings of 12..33 atoms stay rigid in the torsion tree\n"
    "                    (Meeko's --rigid_macrocycles); default: opened as Meeko opens them (a\n"
    "                    ring bond broken, its carbons typed CG0, a G0 pseudo-atom on each, the\n"
    "                    ring's single bonds BRANCHes), which vina 1.2 and vsgrid dock close\n"
    "  --threads N       records prepared in parallel (default: every core)\n"
    "  --format F        sdf | mol2 | pdbqt | pdb | smi | csv (default: from each file)\n"
    "  --quiet           no summary on stderr (failures are still reported)\n"
    "Exit 0 when the output was written (failed records included: they are counted in the\n"
    "summary); 2 usage; 3 an unreadable input; 7 SMILES input in a build without Open Babel;\n"
    "8 when records were read but none could be prepared (the output holds only failures).\n";

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
        } else if (vsg_arg_is(&a, "--rigid-macrocycles")) {
            ro.rigid_macrocycles = 1;
        } else if (vsg_arg_is(&a, "--embed")) {
            VALUE();
            if (vsg_smiles_parse_embed(v, &ro.smiles) != VSG_OK)
                return vsg_cli_usage_error("prepare-ligands", "%s", vsg_last_error());
        } else if (vsg_arg_is(&a, "--conformers")) {
            VALUE();
            if (vsg_smiles_parse_conformers(v, &ro.smiles) != VSG_OK)
                return vsg_cli_usage_error("prepare-ligands", "%s", vsg_last_error());
        } else if (vsg_arg_is(&a, "--stereo")) {
            VALUE();
            if (vsg_smiles_parse_stereo(v, &ro.smiles) != VSG_OK)
                return vsg_cli_usage_error("prepare-ligands", "%s", vsg_last_error());
        } else if (vsg_arg_is(&a, "--minimize")) {
            VALUE();
            if (vsg_smiles_parse_minimize(v, &ro.smiles) != VSG_OK)
                return vsg_cli_usage_error("prepare-ligands", "%s", vsg_last_error());
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
    if (!out) return vsg_cli_usage_error("prepare-ligands", "no output: give -o OUT.sdf or -o OUT.pdbqt");
    const int kind = vsg_pose_path_kind(out); /* 1 .sdf, 0 .pdbqt (either with .gz), -1 neither */
    if (kind < 0)
        return vsg_cli_usage_error("prepare-ligands", "-o %s: the output format comes from the extension: .sdf or .pdbqt "
                                   "(.gz: gzipped)", out);
    FILE *f = vsg_fopen_out(out, "w");
    if (!f) {
        fprintf(stderr, "vsgrid prepare-ligands: cannot write %s\n", out);
        return VSG_EXIT_INPUT;
    }
    vsg_prepare_ligands_report rep;
    vsg_status st = vsg_prepare_ligands(inputs, ninputs, &ro, kind ? VSG_LIG_SDF : VSG_LIG_PDBQT, threads, f, stderr, &rep);
    if (fclose(f) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "write error on %s", out);
    if (st != VSG_OK) {
        if (rep.records == 0) remove(out);
        return vsg_cli_fail(st);
    }
    if (!quiet) {
        char more[96] = ""; /* the SDF's records beyond one a molecule */
        if (rep.conformers)
            snprintf(more, sizeof more, " (and %zu further conformer record%s)", rep.conformers, rep.conformers > 1 ? "s" : "");
        fprintf(stderr,
                "vsgrid prepare-ligands: %zu records, %zu prepared%s, %zu failed, in %.2f s (%.1f records/s, %d "
                "threads) -> %s\n",
                rep.records, rep.written, more, rep.failed, rep.seconds,
                rep.seconds > 0 ? (double)rep.records / rep.seconds : 0.0, rep.threads, out);
    }
    if (rep.unreadable) return VSG_EXIT_INPUT;
    if (rep.records > 0 && rep.written == 0) { /* a library of failures is no library: say so in the exit code */
        fprintf(stderr, "vsgrid prepare-ligands: warning: none of the %zu records could be prepared (see the lines "
                        "above): exit 8\n", rep.records);
        return VSG_EXIT_NOTHING_SCORED;
    }
    return VSG_EXIT_OK;
}
