/* cli_screen_options.c — the command-line pieces that `vsgrid screen` and `vsgrid rescore`
 * share: both end in the same pipeline (vsg_screen_run), so their scoring and output options,
 * the --devices list, the summary on stderr and the screen keys of the JSON report are one
 * piece of code, and the two commands cannot drift apart. What only one command has (screen's
 * --device alias, --threads, --temperature; rescore's grid options) stays with that command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli/cli.h"

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
        else return vsg_cli_usage_error(cmd, "--format: '%s' is not sdf, mol2, pdbqt or pdb", v), -1;
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
    fprintf(stderr, "  %skernel %s (%s) on %s; %.2f s (%.0f molecules/s): parse %.2f s, transfer %.2f s, score %.2f s, write %.2f s\n",
            grid_note, rep->kernel, rep->precision, rep->device, rep->seconds,
            rep->seconds > 0 ? rep->records / rep->seconds : 0.0, rep->parse_s, rep->transfer_s, rep->score_s, rep->write_s);
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
