/* cli_prepare.c — `vsgrid prepare IN.pdb -o OUT.pqr|OUT.pdbqt`: receptor preparation
 * (vsg_receptor_prepare, engine/prepare/): hydrogens, protonation, charges and radii or
 * AutoDock types, DNA/RNA, HETATM groups kept, waters dropped; one summary on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli/cli.h"

static const char usage[] =
    "usage: vsgrid prepare IN.pdb|IN.cif -o OUT.pqr|OUT.pdbqt [--ff amber|parse] [--ph 7.4] [--keep-waters]\n"
    "                      [--json FILE] [--quiet]\n"
    "\n"
    "Prepares a receptor from a PDB or mmCIF file (plain or .gz; first model) as pdb2pqr does without\n"
    "titration: hydrogens from pdb2pqr's residue templates (ideal geometry superposed on each\n"
    "residue; missing heavy atoms rebuilt the same way), Lys/Arg +, Asp/Glu -, charged N and C\n"
    "termini at each chain's ends, S-S bonded Cys as CYX, His as HID or HIE by its best\n"
    "hydrogen-bond partner; alternate locations: highest occupancy (first on a tie). Rotatable\n"
    "polar H (Ser, Thr, Tyr, free Cys, Lys and N-terminal NH3+) are turned for hydrogen bonds.\n"
    "Cofactors, metals and other HETATM groups are kept: metal and halide ions with their formal\n"
    "charge, other groups with Gasteiger charges (Open Babel) and Bondi radii. Waters are dropped.\n"
    "DNA and RNA (DA DC DG DT, RA RC RG RU, A C G U written RA..RU) as pdb2pqr: NA.xml's\n"
    "templates, each chain's first nucleotide a 5' end (phosphate removed, H5T), its last a 3' end\n"
    "(H3T); OP1/OP2 or O1P/O2P and O5*-style names read; AMBER charges (-1 per phosphate), PARSE\n"
    "for RNA only (PARSE has no DNA: refused, exit 7; pdb2pqr writes no DNA atom with it).\n"
    "PDBx/mmCIF (.cif, .mmcif, or any file that opens a data_ block): the _atom_site table's author\n"
    "fields, as the entry's PDB file gives them; chain IDs longer than one character get a free\n"
    "one (the summary says which).\n"
    "  -o OUT          .pqr: AMBER (default) or PARSE charges and radii (pdb2pqr's tables);\n"
    "                  .pdbqt: Gasteiger charges and AutoDock 4 types, polar H kept, non-polar H\n"
    "                  merged into their carbons (as AutoDock's receptor preparation)\n"
    "  --ff NAME       amber | parse (PQR only; default amber)\n"
    "  --ph PH         pH (default 7.4: the states above) for Asp, Glu (ASH, GLH at pH <= 4.4), His\n"
    "                  (HIP at <= 6.5), free Cys (CYM above 8.5) and Lys (LYN above 10.0): fixed model\n"
    "                  pKa values as OpenMM's addHydrogens, not a pKa prediction (for that: PROPKA,\n"
    "                  e.g. pdb2pqr --titration-state-method propka); termini, Arg, Tyr stay as above.\n"
    "                  Residues named HID, HIE, HIP, ASH, GLH, LYN, CYM, CYX (or HSD, HSE, HSP) in\n"
    "                  the input keep that state at any pH\n"
    "  --keep-waters   keep HOH/WAT: two H each (TIP3P geometry) turned for hydrogen bonds, the\n"
    "                  force field's water charges (PDBQT: OA and HD)\n"
    "  --json FILE     summary as JSON\n"
    "  --quiet         no summary (warnings and errors still go to stderr)\n"
    "A summary (atoms added, groups kept, missing atoms, total charge) goes to stderr.\n"
    "Exit 0 ok, 2 usage, 3 bad input, 7 PDBQT without Open Babel in this build, or PARSE on DNA.\n";

int vsg_cmd_prepare(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *json = NULL;
    int quiet = 0;
    vsg_prep_options o;
    vsg_prep_options_default(&o);
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i], *v;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) { fputs(usage, stdout); return 0; }
        if (vsg_arg_is(&a, "--keep-waters")) { o.keep_waters = 1; continue; }
        if (vsg_arg_is(&a, "--quiet")) { quiet = 1; continue; }
        if (vsg_arg_is(&a, "-o") || vsg_arg_is(&a, "--output")) {
            if (!(v = vsg_arg_value(&a, "prepare"))) return VSG_EXIT_USAGE;
            out = v;
            continue;
        }
        if (vsg_arg_is(&a, "--json")) {
            if (!(v = vsg_arg_value(&a, "prepare"))) return VSG_EXIT_USAGE;
            json = v;
            continue;
        }
        if (vsg_arg_is(&a, "--ff")) {
            if (!(v = vsg_arg_value(&a, "prepare"))) return VSG_EXIT_USAGE;
            if (!strcmp(v, "amber") || !strcmp(v, "AMBER")) o.ff = VSG_PREP_AMBER;
            else if (!strcmp(v, "parse") || !strcmp(v, "PARSE")) o.ff = VSG_PREP_PARSE;
            else return vsg_cli_usage_error("prepare", "--ff must be amber or parse, not '%s'", v);
            continue;
        }
        if (vsg_arg_is(&a, "--ph")) {
            if (!(v = vsg_arg_value(&a, "prepare"))) return VSG_EXIT_USAGE;
            if (!vsg_parse_number(v, &o.ph) || o.ph < 0 || o.ph > 14)
                return vsg_cli_usage_error("prepare", "--ph must be a number in 0..14, not '%s'", v);
            continue;
        }
        if (arg[0] == '-' && arg[1]) return vsg_cli_usage_error("prepare", "unknown option %s", arg);
        if (in) return vsg_cli_usage_error("prepare", "one input PDB or mmCIF file (got '%s' and '%s')", in, arg);
        in = arg;
    }
    if (!in || !out) return vsg_cli_usage_error("prepare", "needs IN.pdb|IN.cif and -o OUT.pqr|OUT.pdbqt");
    size_t n = strlen(out);
    if (n >= 6 && !strcmp(out + n - 6, ".pdbqt")) o.format = VSG_PREP_PDBQT;
    else if (n >= 4 && !strcmp(out + n - 4, ".pqr")) o.format = VSG_PREP_PQR;
    else return vsg_cli_usage_error("prepare", "-o must end in .pqr or .pdbqt ('%s')", out);

    char *text = NULL;
    vsg_prep_summary s;
    memset(&s, 0, sizeof s);
    vsg_status st = vsg_receptor_prepare(in, &o, &text, &s);
    if (st != VSG_OK) return vsg_cli_fail(st);
    FILE *f = fopen(out, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "vsgrid prepare: cannot write %s\n", out);
        free(text);
        vsg_prep_summary_free(&s);
        return VSG_EXIT_FAILURE;
    }
    if (!quiet) {
        fputs(s.report, stderr);
        fprintf(stderr, "wrote %s\n", out);
    }
    if (json) {
        vsg_json j;
        FILE *jf = vsg_cli_json_open(json, &j, "prepare");
        if (jf) {
            vsg_json_str(&j, "input", in);
            vsg_json_str(&j, "output", out);
            vsg_json_int(&j, "atoms_in", s.atoms_in);
            vsg_json_int(&j, "atoms_out", s.atoms_out);
            vsg_json_int(&j, "hydrogens_added", s.h_added);
            vsg_json_int(&j, "heavy_atoms_added", s.heavy_added);
            vsg_json_int(&j, "het_groups", s.het_groups);
            vsg_json_int(&j, "waters_dropped", s.waters_dropped);
            vsg_json_int(&j, "residues", s.residues);
            vsg_json_int(&j, "altlocs_dropped", s.altlocs_dropped);
            vsg_json_int(&j, "disulfides", s.disulfides);
            vsg_json_num(&j, "ph", o.ph);
            vsg_json_object(&j, "states"); /* the states the pH gave, and the input's named ones */
            vsg_json_int(&j, "HID", s.his_hid);
            vsg_json_int(&j, "HIE", s.his_hie);
            vsg_json_int(&j, "HIP", s.his_hip);
            vsg_json_int(&j, "ASH", s.asp_ash);
            vsg_json_int(&j, "GLH", s.glu_glh);
            vsg_json_int(&j, "LYN", s.lys_lyn);
            vsg_json_int(&j, "CYM", s.cys_cym);
            vsg_json_int(&j, "kept_as_named", s.kept_named);
            vsg_json_end(&j, '}');
            vsg_json_num(&j, "total_charge_e", s.total_charge);
            vsg_cli_json_finish(&j, jf, json, 0);
        }
    }
    free(text);
    vsg_prep_summary_free(&s);
    return VSG_EXIT_OK;
}
