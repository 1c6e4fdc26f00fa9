/* cli_screen_options.c — the command-line pieces that `vsgrid screen` and `vsgrid rescore`
 * share: both end in the same pipeline (vsg_screen_run), so their scoring and output options,
 * the --devices list, the summary on stderr and the screen keys of the JSON report are one
 * piece of code, and the two commands cannot drift apart. What only one command has (screen's
 * --device alias, --threads, --temperature; rescore's grid options) stays with that command. */
#define _POSIX_C_SOURCE 200809L /* isatty */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "engine/cli/cli.h"
#include "engine/cli/cli_vina.h"

int vsg_cli_parse_devices(const char *cmd, const char *v, vsg_screen_options *so)
{
    so->ndevices = 0;
    if (!strcmp(v, "cpu")) {
        so->devices[so->ndevices++] = VSG_SCREEN_CPU;
        return 0;
    }
    if (!strcmp(v, "all")) {
        int n = vsg_gpu_count();
        if (vsg_mpi_active() && n > 0) {
            /* MPI (issue 7): the ranks on one host share its GPUs: local rank L of S takes the
             * GPUs i with i mod S = L, or GPU L mod n when there are fewer GPUs than ranks. */
            int L = vsg_mpi_local_rank(), S = vsg_mpi_local_size();
            for (int i = L; i < n && so->ndevices < VSG_SCREEN_MAX_DEVICES; i += S) so->devices[so->ndevices++] = i;
            if (so->ndevices == 0) so->devices[so->ndevices++] = L % n;
            return 0;
        }
        for (int i = 0; i < n && i < VSG_SCREEN_MAX_DEVICES; i++) so->devices[so->ndevices++] = i;
        if (so->ndevices == 0) so->devices[so->ndevices++] = VSG_SCREEN_CPU;
        return 0;
    }
    const char *s = v;
    while (*s) {
        char *end;
        long d = strtol(s, &end, 10);
        if (end == s || d < 0 || d > 1023 || (*end != ',' && *end != '\0'))
            return vsg_cli_usage_error(cmd, "--devices: '%s' is not all, cpu or a list of GPU numbers", v);
        if (so->ndevices == VSG_SCREEN_MAX_DEVICES)
            return vsg_cli_usage_error(cmd, "--devices: at most %d devices", VSG_SCREEN_MAX_DEVICES);
        so->devices[so->ndevices++] = (int)d;
        s = *end ? end + 1 : end;
    }
    return so->ndevices ? 0 : vsg_cli_usage_error(cmd, "--devices: empty list");
}

int vsg_cli_screen_option(vsg_args *a, const char *cmd, vsg_screen_options *so, vsg_screen_outputs *out,
                          const char **devices)
{
    const char *v;
    double x;
#define VALUE() do { if (!(v = vsg_arg_value(a, cmd))) return -1; } while (0)
    if (vsg_arg_is(a, "-o") || vsg_arg_is(a, "--output")) { VALUE(); out->csv = v; }
    else if (vsg_arg_is(a, "--sdf-out")) { VALUE(); out->sdf = v; }
    else if (vsg_arg_is(a, "--json")) { VALUE(); out->json = v; }
    else if (vsg_arg_is(a, "--top")) {
        VALUE();
        if (!vsg_parse_number(v, &x) || x < 1 || x > 1e9 || x != (long)x)
            return vsg_cli_usage_error(cmd, "--top: '%s' is not a whole number >= 1", v), -1;
        out->top = (long)x;
    } else if (vsg_arg_is(a, "--format")) {
        VALUE();
        if (!strcmp(v, "sdf")) so->format = VSG_LIG_SDF;
        else if (!strcmp(v, "mol2")) so->format = VSG_LIG_MOL2;
        else if (!strcmp(v, "pdbqt")) so->format = VSG_LIG_PDBQT;
        else if (!strcmp(v, "pdb")) so->format = VSG_LIG_PDB;
        else if (!strcmp(v, "smi")) so->format = VSG_LIG_SMILES;
        else if (!strcmp(v, "csv")) so->format = VSG_LIG_CSV;
        else return vsg_cli_usage_error(cmd, "--format: '%s' is not sdf, mol2, pdbqt, pdb, smi or csv", v), -1;
    } else if (vsg_arg_is(a, "--ph")) {
        VALUE();
        if (vsg_smiles_parse_ph(v, &so->smiles) != VSG_OK) return vsg_cli_usage_error(cmd, "%s", vsg_last_error()), -1;
    } else if (vsg_arg_is(a, "--minimize")) {
        VALUE();
        if (vsg_smiles_parse_minimize(v, &so->smiles) != VSG_OK)
            return vsg_cli_usage_error(cmd, "%s", vsg_last_error()), -1;
    } else if (vsg_arg_is(a, "--stereo")) {
        VALUE();
        if (vsg_smiles_parse_stereo(v, &so->smiles) != VSG_OK)
            return vsg_cli_usage_error(cmd, "%s", vsg_last_error()), -1;
        if (so->smiles.stereo == VSG_STEREO_ENUMERATE)
            return vsg_cli_usage_error(cmd, "--stereo enumerate needs --placement flexible (every isomer docked, the best kept)"), -1;
    } else if (vsg_arg_is(a, "--embed")) {
        VALUE();
        if (vsg_smiles_parse_embed(v, &so->smiles) != VSG_OK)
            return vsg_cli_usage_error(cmd, "%s", vsg_last_error()), -1;
    } else if (vsg_arg_is(a, "--charges")) {
        VALUE();
        if (!strcmp(v, "auto")) so->charges = VSG_CHARGES_AUTO;
        else if (!strcmp(v, "file")) so->charges = VSG_CHARGES_FILE;
        else if (!strcmp(v, "gasteiger")) so->charges = VSG_CHARGES_GASTEIGER;
        else return vsg_cli_usage_error(cmd, "--charges: '%s' is not auto, file or gasteiger", v), -1;
    } else if (vsg_arg_is(a, "--max-atoms")) {
        VALUE();
        if (!vsg_parse_number(v, &x) || x < 1 || x > 1e7)
            return vsg_cli_usage_error(cmd, "--max-atoms: '%s' is not a number in [1, 1e7]", v), -1;
        so->max_atoms = (int)x;
    } else if (vsg_arg_is(a, "--kernel")) {
        VALUE();
        so->kernel = vsg_kernel_from_name(v);
        if (so->kernel == VSG_KERNEL_COUNT)
            return vsg_cli_usage_error(cmd, "--kernel: '%s' is not auto, cpu, gm, roi, sm, tm, zip, roi-tm-zip or roi-sm-zip", v), -1;
    } else if (vsg_arg_is(a, "--tolerance")) {
        VALUE();
        if (!vsg_parse_number(v, &x) || !(x > 0)) return vsg_cli_usage_error(cmd, "--tolerance: '%s' is not a number > 0", v), -1;
        so->tolerance = x;
    } else if (vsg_arg_is(a, "--precision")) {
        VALUE();
        if (!strcmp(v, "float")) so->double_precision = 0;
        else if (!strcmp(v, "double")) so->double_precision = 1;
        else return vsg_cli_usage_error(cmd, "--precision: '%s' is not float or double", v), -1;
    } else if (vsg_arg_is(a, "--devices")) { VALUE(); *devices = v; }
    else if (vsg_arg_is(a, "--batch-atoms")) {
        VALUE();
        if (!vsg_parse_number(v, &x) || x < 64 || x > 1e9)
            return vsg_cli_usage_error(cmd, "--batch-atoms: '%s' is not a number in [64, 1e9]", v), -1;
        so->batch_atoms = (size_t)x;
    } else {
        return 0;
    }
#undef VALUE
    return 1;
}

int vsg_cli_screen_finish(const char *cmd, const char *devices, vsg_screen_options *so)
{
    int r = vsg_cli_parse_devices(cmd, devices, so);
    if (r) return r;
    if (so->kernel == VSG_KERNEL_CPU) { /* the CPU kernel runs on the CPU, whatever --devices says */
        so->ndevices = 1;
        so->devices[0] = VSG_SCREEN_CPU;
    }
    return 0;
}

void vsg_cli_screen_bind(vsg_screen_options *so, const vsg_screen_outputs *out, FILE *csv, int quiet)
{
    so->csv = csv;
    so->sdf_path = out->sdf;
    so->top = out->top;
    so->progress = !quiet;
}

void vsg_cli_screen_summary(const vsg_screen_report *rep, const char *grid_note, const vsg_screen_outputs *out)
{
    fprintf(stderr, "vsgrid: %zu records: %zu scored (%zu with atoms outside the grid), %zu failed", rep->records,
            rep->scored, rep->outside, rep->failed);
    for (size_t i = 0; i < rep->by_code_n; i++)
        fprintf(stderr, "%s%s %zu", i ? ", " : " (", rep->by_code[i], rep->by_code_count[i]);
    fprintf(stderr, "%s\n", rep->by_code_n ? ")" : "");
    if (rep->poses_checked) /* flexible screens: PoseBusters' checks of the ok rows' best poses */
        fprintf(stderr, "  %llu of %llu best poses PoseBusters-valid (%.1f%%)\n", (unsigned long long)rep->poses_valid,
                (unsigned long long)rep->poses_checked, 100.0 * (double)rep->poses_valid / (double)rep->poses_checked);
    /* a rate under one a second reads as seconds a molecule ("0 molecules/s" said nothing) */
    const double rate = rep->seconds > 0 ? rep->records / rep->seconds : 0.0;
    char rate_s[48];
    if (rate >= 1 || rep->records == 0) snprintf(rate_s, sizeof rate_s, "%.0f molecules/s", rate);
    else snprintf(rate_s, sizeof rate_s, "%.3g s a molecule", rep->seconds / (double)rep->records);
    fprintf(stderr, "  %skernel %s (%s) on %s; %.2f s (%s): parse %.2f s, transfer %.2f s, score %.2f s, write %.2f s\n",
            grid_note, rep->kernel, rep->precision, rep->device, rep->seconds, rate_s, rep->parse_s, rep->transfer_s,
            rep->score_s, rep->write_s);
    if (strcmp(out->csv, "-")) fprintf(stderr, "vsgrid: wrote %s\n", out->csv);
    if (out->sdf) fprintf(stderr, "vsgrid: wrote %s\n", out->sdf);
}

void vsg_cli_json_screen(vsg_json *j, const char *score, const char *const *libraries, int nlibraries,
                         const vsg_screen_report *rep)
{
    vsg_json_str(j, "score", score);
    vsg_json_array(j, "libraries");
    for (int i = 0; i < nlibraries; i++) vsg_json_str(j, NULL, libraries[i]);
    vsg_json_end(j, ']');
    vsg_json_int(j, "records", (long long)rep->records);
    vsg_json_int(j, "scored", (long long)rep->scored);
    vsg_json_int(j, "failed", (long long)rep->failed);
    vsg_json_int(j, "with_atoms_outside", (long long)rep->outside);
    if (rep->poses_checked) {
        vsg_json_int(j, "poses_checked", (long long)rep->poses_checked);
        vsg_json_int(j, "poses_posebusters_valid", (long long)rep->poses_valid);
    }
    vsg_json_object(j, "failed_by_status");
    for (size_t i = 0; i < rep->by_code_n; i++) vsg_json_int(j, rep->by_code[i], (long long)rep->by_code_count[i]);
    vsg_json_end(j, '}');
    vsg_json_int(j, "atoms_scored", (long long)rep->atoms);
    vsg_json_str(j, "kernel", rep->kernel);
    vsg_json_str(j, "precision", rep->precision);
    vsg_json_str(j, "device", rep->device);
    vsg_json_num(j, "pipeline_seconds", rep->seconds);
    vsg_json_num(j, "parse_seconds", rep->parse_s);
    vsg_json_num(j, "transfer_seconds", rep->transfer_s);
    vsg_json_num(j, "score_seconds", rep->score_s);
    vsg_json_num(j, "write_seconds", rep->write_s);
    vsg_json_int(j, "parse_threads", rep->parse_threads);
    vsg_json_int(j, "splitters", rep->splitters);
    vsg_json_num(j, "split_seconds", rep->split_s);
    vsg_json_num(j, "split_wait_seconds", rep->split_wait_s);
    vsg_json_num(j, "scorer_busy_seconds", rep->scorer_busy_s);
    vsg_json_num(j, "scorer_wait_seconds", rep->scorer_wait_s);
    vsg_json_num(j, "write_wait_seconds", rep->write_wait_s);
    vsg_json_num(j, "molecules_per_second", rep->seconds > 0 ? rep->records / rep->seconds : 0.0);
    vsg_json_num(j, "atoms_per_second", rep->seconds > 0 ? (double)rep->atoms / rep->seconds : 0.0);
}

/* ---- --scoring vina | vinardo (screen and rescore) ------------------------------------------ */
/* Vina scores need whole molecules (torsion tree, intramolecular pairs), which the batched
 * coordinate pipeline above does not carry: they go through vsg_vina_screen_run, on the CPU. */

const char vsg_cli_vina_help[] =
    "Vina and Vinardo (--scoring vina | vinardo): what 'vina --score_only' prints for each pose,\n"
    "computed on the CPU (OpenMP; no GPU kernel), term by term: score_kcal_mol (the estimated\n"
    "free energy of binding = (inter + intra - unbound) / (1 + 0.05846 N_rot)), inter_kcal_mol\n"
    "(1), intra_kcal_mol (2), torsional_kcal_mol (3), unbound_kcal_mol (4), num_tors (Vina's\n"
    "N_rot), torsdof, atoms_outside, status, message. screen takes a Vina map set PREFIX\n"
    "(PREFIX.<XS type>.map from 'vsgrid maps --scoring vina|vinardo' or 'vina --write_maps';\n"
    "scored on the maps as 'vina --maps PREFIX --score_only'); rescore takes the receptor PDBQT\n"
    "and scores on its atoms as 'vina --receptor R --score_only --autobox' (no maps needed: vina\n"
    "itself scores on explicit atoms there). PDBQT poses keep their torsion tree; SDF/MOL2 get\n"
    "AutoDock types, non-polar H merged and rotatable bonds as Meeko counts them, rings of 12..33\n"
    "atoms opened as Meeko opens them (CG0/G0; --rigid-macrocycles keeps them rigid). Options:\n"
    "-o FILE.csv, --json FILE, --quiet, --format F, --max-atoms N, --threads N (not under mpirun),\n"
    "--resume (as 'vsgrid screen --resume': the rows already in -o FILE kept, the rest appended),\n"
    "--best-per-molecule (screen: one row per name, its best-scored record's, plus a column records;\n"
    "also with --placement flexible).\n";

const char *vsg_cli_scoring_arg(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--scoring")) return i + 1 < argc ? argv[i + 1] : "";
        if (!strncmp(argv[i], "--scoring=", 10)) return argv[i] + 10;
    }
    return NULL;
}

int vsg_cli_vina_command(int argc, char **argv, const char *cmd, int rescore)
{
    const double t0 = vsg_now();
    static const char *inputs[4096];
    const char *target = NULL;
    int ninputs = 0, quiet = 0, threads = 0;
    vsg_screen_extra ext; /* --resume */
    memset(&ext, 0, sizeof ext);
    vsg_screen_outputs out;
    memset(&out, 0, sizeof out);
    vsg_vina_screen_options vo;
    memset(&vo, 0, sizeof vo);
    vsg_vina_scoring sf = VSG_VINA_SCORING_VINA;
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i], *v;
        double x;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(vsg_cli_vina_help, stdout);
            return -2;
        }
        if (arg[0] != '-' || !strcmp(arg, "-")) {
            if (!target) target = arg;
            else if (ninputs < (int)(sizeof inputs / sizeof inputs[0])) inputs[ninputs++] = arg;
            else return vsg_cli_usage_error(cmd, "too many pose files (at most %d)", (int)(sizeof inputs / sizeof inputs[0]));
            continue;
        }
#define VALUE() do { if (!(v = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE; } while (0)
        if (vsg_arg_is(&a, "--quiet")) quiet = 1;
        else if (vsg_arg_is(&a, "--resume")) ext.resume = 1;
        else if (vsg_arg_is(&a, "--rigid-macrocycles")) vo.rigid_macrocycles = 1;
        else if (vsg_arg_is(&a, "--scoring")) {
            VALUE();
            if (!strcmp(v, "vina")) sf = VSG_VINA_SCORING_VINA;
            else if (!strcmp(v, "vinardo")) sf = VSG_VINA_SCORING_VINARDO;
            else return vsg_cli_usage_error(cmd, "--scoring: '%s' is not vina or vinardo", v);
        } else if (vsg_arg_is(&a, "-o") || vsg_arg_is(&a, "--output")) { VALUE(); out.csv = v; }
        else if (vsg_arg_is(&a, "--json")) { VALUE(); out.json = v; }
        else if (vsg_arg_is(&a, "--format")) {
            VALUE();
            if (!strcmp(v, "sdf")) vo.format = VSG_LIG_SDF;
            else if (!strcmp(v, "mol2")) vo.format = VSG_LIG_MOL2;
            else if (!strcmp(v, "pdbqt")) vo.format = VSG_LIG_PDBQT;
            else if (!strcmp(v, "pdb")) vo.format = VSG_LIG_PDB;
            else if (!strcmp(v, "smi")) vo.format = VSG_LIG_SMILES;
            else if (!strcmp(v, "csv")) vo.format = VSG_LIG_CSV;
            else return vsg_cli_usage_error(cmd, "--format: '%s' is not sdf, mol2, pdbqt, pdb, smi or csv", v);
        } else if (vsg_arg_is(&a, "--ph")) {
            VALUE();
            if (vsg_smiles_parse_ph(v, &vo.smiles) != VSG_OK) return vsg_cli_usage_error(cmd, "%s", vsg_last_error());
        } else if (vsg_arg_is(&a, "--minimize")) {
            VALUE();
            if (vsg_smiles_parse_minimize(v, &vo.smiles) != VSG_OK) return vsg_cli_usage_error(cmd, "%s", vsg_last_error());
        } else if (vsg_arg_is(&a, "--stereo")) {
            VALUE();
            if (vsg_smiles_parse_stereo(v, &vo.smiles) != VSG_OK) return vsg_cli_usage_error(cmd, "%s", vsg_last_error());
            if (vo.smiles.stereo == VSG_STEREO_ENUMERATE)
                return vsg_cli_usage_error(cmd, "--stereo enumerate needs --placement flexible (every isomer docked, the best kept)");
        } else if (vsg_arg_is(&a, "--embed")) {
            VALUE();
            if (vsg_smiles_parse_embed(v, &vo.smiles) != VSG_OK) return vsg_cli_usage_error(cmd, "%s", vsg_last_error());
        } else if (vsg_arg_is(&a, "--max-atoms")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || x < 1 || x > 1e7) return vsg_cli_usage_error(cmd, "--max-atoms: '%s' is not a number in [1, 1e7]", v);
            vo.max_atoms = (int)x;
        } else if (vsg_arg_is(&a, "--threads")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || x < 1 || x > 4096) return vsg_cli_usage_error(cmd, "--threads: '%s' is not a number >= 1", v);
            threads = (int)x;
        } else {
            return vsg_cli_usage_error(cmd, "%s does not apply to --scoring vina|vinardo (scored on the CPU; see --help)", arg);
        }
#undef VALUE
    }
    if (vsg_mpi_active()) /* every rank would write every row: one process scores the whole library */
        return vsg_cli_usage_error(cmd, "--scoring vina|vinardo runs in one process: not under mpirun");
    if (!target) return vsg_cli_usage_error(cmd, rescore ? "no RECEPTOR given" : "no map-set PREFIX given");
    if (ninputs == 0) return vsg_cli_usage_error(cmd, "no POSES given");
    if (!out.csv) return vsg_cli_usage_error(cmd, "no output: give -o RESULTS.csv ('-' for standard output)");
    if (ext.resume && !strcmp(out.csv, "-")) return vsg_cli_usage_error(cmd, "--resume needs -o FILE.csv");
    for (int i = 0; i < ninputs; i++)
        if (!strcmp(inputs[i], "-") && vo.format == VSG_LIG_AUTO) return vsg_cli_usage_error(cmd, "reading standard input needs --format");
#ifdef _OPENMP
    if (threads > 0) omp_set_num_threads(threads);
#else
    (void)threads;
#endif
    vsg_vina_target *t = NULL;
    vsg_molecule *rec = NULL;
    vsg_status st;
    if (rescore) {
        st = vsg_cli_read_receptor(target, VSG_PREP_PDBQT, quiet, &rec); /* a PDB: prepared */
        if (st == VSG_OK && ninputs > 0) vsg_cli_warn_poses_in_receptor(cmd, rec, target, inputs[0]);
        if (st == VSG_OK) st = vsg_vina_target_receptor(rec, sf, &t);
    } else {
        st = vsg_cli_receptor_not_grid(target);
        if (st == VSG_OK) st = vsg_vina_target_maps(target, sf, &t);
    }
    vsg_molecule_free(rec);
    if (st != VSG_OK) return vsg_cli_fail(st);
    /* --resume (vsgrid.h, vsg_resume_prepare): the rows written are checked and kept */
    static char fingerprint[60000];
    vsg_resume_fingerprint(argc, argv, fingerprint, sizeof fingerprint);
    if (ext.resume) {
        vsg_resume_spec rs = {out.csv, NULL, NULL, 0, fingerprint, inputs, ninputs, {.format = vo.format, .max_atoms = vo.max_atoms, .smiles = vo.smiles}, NULL, 0, NULL};
        st = vsg_resume_prepare(&rs, &ext.resume_skip);
        if (st != VSG_OK) {
            fprintf(stderr, "vsgrid %s: --resume: %s\n", cmd, vsg_last_error());
            vsg_vina_target_free(t);
            return st == VSG_E_NOMEM ? VSG_EXIT_LIMIT : VSG_EXIT_INPUT;
        }
        if (!quiet) fprintf(stderr, "vsgrid: resuming %s after its %zu rows\n", out.csv, ext.resume_skip);
    } else if (strcmp(out.csv, "-") && vsg_resume_sidecar_write(out.csv, fingerprint) != VSG_OK) {
        vsg_warn("%s (--resume will not work on this run)", vsg_last_error());
    }
    FILE *csv = strcmp(out.csv, "-") ? fopen(out.csv, ext.resume ? "a" : "w") : stdout;
    if (!csv) {
        fprintf(stderr, "vsgrid: cannot write %s\n", out.csv);
        vsg_vina_target_free(t);
        return VSG_EXIT_INPUT;
    }
    vo.inputs = inputs;
    vo.ninputs = ninputs;
    vo.csv = csv;
    vo.progress = !quiet && isatty(2);
    vsg_screen_report rep;
    st = vsg_vina_screen_run_extra(t, &vo, &ext, &rep);
    if (csv != stdout && fclose(csv) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "cannot write %s", out.csv);
    if (st != VSG_OK) {
        vsg_vina_target_free(t);
        return vsg_cli_fail(st);
    }
    if (!quiet) {
        vsg_cli_screen_summary(&rep, rescore ? "on the receptor's atoms; " : "on the maps; ", &out);
        fprintf(stderr, "  score_kcal_mol: %s's estimated free energy of binding of each pose as given, (inter + intra - "
                        "unbound) / (1 + w N_rot), as 'vina --score_only'; each term in its own column\n",
                sf == VSG_VINA_SCORING_VINARDO ? "Vinardo" : "Vina");
    }
    if (out.json) {
        vsg_json j;
        FILE *f = vsg_cli_json_open(out.json, &j, cmd);
        if (f) {
            vsg_json_str(&j, rescore ? "receptor" : "maps", target);
            vsg_cli_json_screen(&j, sf == VSG_VINA_SCORING_VINARDO ? "vinardo" : "vina", inputs, ninputs, &rep);
            vsg_cli_json_finish(&j, f, out.json, vsg_now() - t0);
        }
    }
    vsg_vina_target_free(t);
    return vsg_cli_screen_verdict(cmd, inputs, ninputs, &rep); /* issue 20: io rows, nothing scored inside */
}

int vsg_cli_screen_verdict(const char *cmd, const char *const *inputs, int ninputs, const vsg_screen_report *rep)
{
    if (!rep) return 0;
    size_t io = 0;
    for (size_t i = 0; i < rep->by_code_n; i++)
        if (!strcmp(rep->by_code[i], VSG_LIG_IO)) io += rep->by_code_count[i];
    if (io > 0) {
        char names[1024] = "";
        size_t len = 0;
        int bad = 0;
        for (int i = 0; i < ninputs; i++) {
            if (!strcmp(inputs[i], "-")) continue;
            FILE *f = fopen(inputs[i], "rb");
            if (f) {
                fclose(f);
                continue;
            }
            if (bad++ < 8 && len + strlen(inputs[i]) + 8 < sizeof names)
                len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "", inputs[i]);
        }
        if (bad > 0)
            fprintf(stderr, "vsgrid %s: error: %d of %d librar%s cannot be opened: %s%s (check the path%s; the other "
                            "libraries were screened, every record has its row): exit %d\n",
                    cmd, bad, ninputs, ninputs == 1 ? "y" : "ies", names, bad > 8 ? ", ..." : "", bad == 1 ? "" : "s",
                    VSG_EXIT_INPUT);
        else
            fprintf(stderr, "vsgrid %s: error: %zu record%s could not be read (status io: a truncated or corrupt file; "
                            "see the message column): exit %d\n",
                    cmd, io, io == 1 ? "" : "s", VSG_EXIT_INPUT);
        return VSG_EXIT_INPUT;
    }
    if (rep->records > 0 && rep->scored <= rep->outside) {
        if (rep->scored > 0 && strstr(rep->kernel, "flexible")) /* docked, yet outside: the box is the trouble */
            fprintf(stderr, "vsgrid %s: warning: no record was docked inside the maps' box and against the receptor (all "
                            "%zu docked records are 'outside': see the message column): make maps whose box holds the "
                            "ligands, over the pocket (vsgrid maps REC --around LIG --padding 8): exit %d\n",
                    cmd, rep->scored, VSG_EXIT_NOTHING_SCORED);
        else if (rep->scored > 0)
            fprintf(stderr, "vsgrid %s: warning: no record was scored inside the grid (all %zu scored records have atoms "
                            "outside it): the molecules are not in the pocket. Dock or place them (screen --placement "
                            "flexible|rigid), or build the grid around them (vsgrid rescore): exit %d\n",
                    cmd, rep->scored, VSG_EXIT_NOTHING_SCORED);
        else
            fprintf(stderr, "vsgrid %s: warning: none of the %zu records could be scored (see the status and message "
                            "columns): exit %d\n",
                    cmd, rep->records, VSG_EXIT_NOTHING_SCORED);
        return VSG_EXIT_NOTHING_SCORED;
    }
    return 0;
}
