/* cli_bench.c — `vsgrid bench`: every screening kernel on the same molecules, each checked
 * against the CPU twin's double-precision scores, in one table (paper 003's comparison, on the
 * user's own grid and library). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "engine/cli/cli.h"

static const char bench_usage[] =
    "usage: vsgrid bench GRID LIBRARY... [options]\n"
    "\n"
    "Reads the library once (as 'vsgrid screen' prepares it), scores it with the CPU twin\n"
    "(double precision, the reference) and with every GPU kernel, and prints one row per\n"
    "kernel and precision: seconds (transfers included), atoms/s, kernel-only atoms/s (device\n"
    "events), ligands/s, speed-up over the\n"
    "CPU twin, and the error per molecule against the twin: max and median absolute error\n"
    "(kcal/mol) and relative error |error| / max(|reference|, 0.1 kcal/mol). TM filters in\n"
    "hardware with 9-bit weights and ZIP quantises coordinates: their errors are shown as they are.\n"
    "\n"
    "GRID and LIBRARY as for 'vsgrid screen'.\n"
    "  --kernels LIST          all (default) or a comma list: gm,roi,sm,tm,zip,roi-tm-zip,roi-sm-zip\n"
    "  --precision P           float | double | both (default both; kernels without double skip it)\n"
    "  --device N              GPU number (default 0)\n"
    "  --max-ligands N         read at most N records (default all)\n"
    "  --replicate N           the library N times over, one copy after the other in memory (a\n"
    "                          screen-sized input from a small library; default 1)\n"
    "  --repeat N              time each kernel N times, report the fastest (default 3)\n"
    "  --charges, --format, --temperature, --threads, --max-gpu-memory   as for screen\n"
    "  --json FILE             the table as JSON\n"
    "Exit codes: 0 ok (also when no GPU is present: only the CPU row), 2 usage, 3 bad input.\n";

typedef struct {
    const char *name;
    int dbl;
    double seconds, transfer_s, kernel_s;
    double max_abs, med_abs, max_rel, med_rel;
    int ok;
    char error[160];
} bench_row;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}

/* Scores the whole library with kernel k in slices of at most `chunk` atoms; fills out. */
static vsg_status run_kernel(vsg_scorer *s, const vsg_screen_library *lib, vsg_kernel k, int dbl,
                             vsg_score_result *out, uint32_t *start, size_t chunk, double *seconds, double *tr, double *tk)
{
    double t0 = vsg_now();
    for (size_t first = 0; first < lib->nlig;) {
        size_t n = 0;
        while (first + n < lib->nlig && n < 65536 && lib->start[first + n + 1] - lib->start[first] <= chunk) n++;
        if (n == 0) n = 1; /* a molecule larger than a chunk: on its own */
        vsg_score_batch b = vsg_screen_library_slice(lib, first, n, start);
        vsg_status st = vsg_scorer_score(s, &b, k, dbl, out + first, tr, tk);
        if (st != VSG_OK) return st;
        first += n;
    }
    *seconds = vsg_now() - t0;
    return VSG_OK;
}

static void errors_of(const vsg_score_result *r, const vsg_score_result *ref, size_t n, double *tmp, bench_row *row)
{
    row->max_abs = row->max_rel = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs(r[i].total - ref[i].total);
        if (!(d == d)) d = INFINITY;
        tmp[i] = d;
        if (d > row->max_abs) row->max_abs = d;
    }
    qsort(tmp, n, sizeof *tmp, cmp_double);
    row->med_abs = n ? tmp[n / 2] : 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs(r[i].total - ref[i].total) / fmax(fabs(ref[i].total), 0.1);
        if (!(d == d)) d = INFINITY;
        tmp[i] = d;
        if (d > row->max_rel) row->max_rel = d;
    }
    qsort(tmp, n, sizeof *tmp, cmp_double);
    row->med_rel = n ? tmp[n / 2] : 0.0;
}

/* lib repeated r times over, in place. */
static vsg_status replicate_library(vsg_screen_library *lib, size_t r)
{
    const size_t nl = lib->nlig, na = lib->natoms;
    if (na * r > UINT32_MAX) return vsg_fail(VSG_E_LIMIT, "bench: %zu atoms x %zu replicas is too many", na, r);
    uint32_t *start = malloc(sizeof *start * (nl * r + 1));
    float *x = malloc(sizeof(float) * na * r), *y = malloc(sizeof(float) * na * r), *z = malloc(sizeof(float) * na * r),
          *q = malloc(sizeof(float) * na * r);
    uint8_t *type = malloc(na * r);
    if (!start || !x || !y || !z || !q || !type) {
        free(start), free(x), free(y), free(z), free(q), free(type);
        return vsg_fail(VSG_E_NOMEM, "bench: out of memory for %zu replicas of %zu atoms", r, na);
    }
    for (size_t k = 0; k < r; k++) {
        memcpy(x + k * na, lib->x, sizeof(float) * na);
        memcpy(y + k * na, lib->y, sizeof(float) * na);
        memcpy(z + k * na, lib->z, sizeof(float) * na);
        memcpy(q + k * na, lib->q, sizeof(float) * na);
        memcpy(type + k * na, lib->type, na);
        for (size_t l = 0; l < nl; l++) start[k * nl + l] = (uint32_t)(k * na) + lib->start[l];
    }
    start[nl * r] = (uint32_t)(na * r);
    free(lib->start), free(lib->x), free(lib->y), free(lib->z), free(lib->q), free(lib->type);
    lib->start = start, lib->x = x, lib->y = y, lib->z = z, lib->q = q, lib->type = type;
    lib->nlig = nl * r;
    lib->natoms = na * r;
    return VSG_OK;
}

int vsg_cmd_bench(int argc, char **argv)
{
    const char *cmd = "bench";
    const char *grid_path = NULL, *json = NULL, *kernels = "all", *prec = "both";
    static const char *inputs[1024];
    int ninputs = 0, device = 0, replicate = 1, repeat = 3, threads = 0;
    double max_ligands = 0, temperature = 298.15, x;
    vsg_screen_options so;
    memset(&so, 0, sizeof so);
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i], *v;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(bench_usage, stdout);
            return 0;
        }
        if (arg[0] != '-' || !strcmp(arg, "-")) {
            if (!grid_path) grid_path = arg;
            else if (ninputs < 1024) inputs[ninputs++] = arg;
            continue;
        }
#define VALUE() do { v = vsg_arg_value(&a, cmd); if (!v) return VSG_EXIT_USAGE; } while (0)
#define NUMBER(lo, hi) do { VALUE(); if (!vsg_parse_number(v, &x) || x < (lo) || x > (hi)) return vsg_cli_usage_error(cmd, "%s: '%s' is out of range", a.name, v); } while (0)
        if (vsg_arg_is(&a, "--kernels")) { VALUE(); kernels = v; }
        else if (vsg_arg_is(&a, "--precision")) {
            VALUE();
            if (strcmp(v, "float") && strcmp(v, "double") && strcmp(v, "both"))
                return vsg_cli_usage_error(cmd, "--precision: '%s' is not float, double or both", v);
            prec = v;
        } else if (vsg_arg_is(&a, "--device")) { NUMBER(0, 1023); device = (int)x; }
        else if (vsg_arg_is(&a, "--max-ligands")) { NUMBER(1, 1e12); max_ligands = x; }
        else if (vsg_arg_is(&a, "--replicate")) { NUMBER(1, 1e6); replicate = (int)x; }
        else if (vsg_arg_is(&a, "--repeat")) { NUMBER(1, 100); repeat = (int)x; }
        else if (vsg_arg_is(&a, "--threads")) { NUMBER(1, 4096); threads = (int)x; }
        else if (vsg_arg_is(&a, "--temperature")) { NUMBER(1e-3, 1e5); temperature = x; }
        else if (vsg_arg_is(&a, "--max-gpu-memory")) {
            VALUE();
            if (!vsg_parse_size(v, &so.max_gpu_memory)) return vsg_cli_usage_error(cmd, "--max-gpu-memory: '%s' is not a size", v);
        } else if (vsg_arg_is(&a, "--json")) { VALUE(); json = v; }
        else if (vsg_arg_is(&a, "--format")) {
            VALUE();
            so.format = !strcmp(v, "sdf") ? VSG_LIG_SDF : !strcmp(v, "mol2") ? VSG_LIG_MOL2
                        : !strcmp(v, "pdbqt") ? VSG_LIG_PDBQT : !strcmp(v, "pdb") ? VSG_LIG_PDB : VSG_LIG_AUTO;
            if (so.format == VSG_LIG_AUTO) return vsg_cli_usage_error(cmd, "--format: '%s' is not sdf, mol2, pdbqt or pdb", v);
        } else if (vsg_arg_is(&a, "--charges")) {
            VALUE();
            if (!strcmp(v, "auto")) so.charges = VSG_CHARGES_AUTO;
            else if (!strcmp(v, "file")) so.charges = VSG_CHARGES_FILE;
            else if (!strcmp(v, "gasteiger")) so.charges = VSG_CHARGES_GASTEIGER;
            else return vsg_cli_usage_error(cmd, "--charges: '%s' is not auto, file or gasteiger", v);
        } else {
            return vsg_cli_usage_error(cmd, "unknown option '%s'", arg);
        }
#undef NUMBER
#undef VALUE
    }
    if (!grid_path || ninputs == 0) return vsg_cli_usage_error(cmd, "give a GRID and at least one LIBRARY");
    int want[VSG_KERNEL_COUNT] = {0};
    if (!strcmp(kernels, "all")) {
        for (int k = VSG_KERNEL_GM; k < VSG_KERNEL_COUNT; k++) want[k] = 1;
    } else {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", kernels);
        for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
            vsg_kernel k = vsg_kernel_from_name(t);
            if (k == VSG_KERNEL_COUNT || k == VSG_KERNEL_AUTO)
                return vsg_cli_usage_error(cmd, "--kernels: '%s' is not a kernel name", t);
            want[k] = 1;
        }
    }
#ifdef _OPENMP
    if (threads > 0) omp_set_num_threads(threads);
#endif

    /* grids */
    vsg_mapset *maps = NULL;
    vsg_grid *grid = NULL;
    vsg_score_grids elec;
    const vsg_score_grids *g = NULL;
    vsg_status st;
    size_t gl = strlen(grid_path);
    if (gl > 4 && !strcmp(grid_path + gl - 4, ".fld")) {
        st = vsg_mapset_read(grid_path, &maps);
        if (st == VSG_OK) g = vsg_mapset_grids(maps);
    } else {
        st = vsg_grid_read(grid_path, &grid);
        if (st == VSG_OK) st = vsg_score_grids_from_grid(grid, temperature, &elec);
        if (st == VSG_OK) g = &elec;
    }
    if (st != VSG_OK) {
        vsg_mapset_free(maps);
        vsg_grid_free(grid);
        return vsg_cli_fail(st);
    }
    so.inputs = inputs;
    so.ninputs = ninputs;
    vsg_screen_library lib;
    st = vsg_screen_library_load(g, &so, (size_t)max_ligands, &lib);
    if (st != VSG_OK || lib.nlig == 0) {
        if (st == VSG_OK) st = vsg_fail(VSG_E_DATA, "bench: none of the %zu records can be scored", lib.records);
        vsg_screen_library_free(&lib);
        vsg_mapset_free(maps);
        vsg_grid_free(grid);
        return vsg_cli_fail(st);
    }
    printf("bench: %s, %zu records (%zu cannot be scored), %zu ligands, %zu atoms (%.1f per ligand), x%d\n", grid_path,
           lib.records, lib.failed, lib.nlig, lib.natoms, (double)lib.natoms / lib.nlig, replicate);
    /* Replicas are laid out in memory one after the other, so batches are as large as a real
     * screen's (not one call per copy of a small library). */
    if (replicate > 1) {
        st = replicate_library(&lib, (size_t)replicate);
        if (st != VSG_OK) {
            vsg_screen_library_free(&lib);
            vsg_mapset_free(maps);
            vsg_grid_free(grid);
            return vsg_cli_fail(st);
        }
    }

    vsg_score_result *ref = malloc(sizeof *ref * lib.nlig), *res = malloc(sizeof *res * lib.nlig);
    double *tmp = malloc(sizeof *tmp * lib.nlig);
    uint32_t *start = malloc(sizeof *start * 65537);
    bench_row rows[2 * VSG_KERNEL_COUNT];
    int nrows = 0;
    vsg_scorer *cpu = NULL, *gpu = NULL;
    if (!ref || !res || !tmp || !start) {
        st = vsg_fail(VSG_E_NOMEM, "bench: out of memory");
        goto done;
    }
    st = vsg_scorer_open(g, VSG_SCREEN_CPU, 0, &cpu);
    if (st != VSG_OK) goto done;
    /* the reference, timed like the others */
    {
        bench_row *r = &rows[nrows++];
        memset(r, 0, sizeof *r);
        r->name = "cpu";
        r->dbl = 1;
        r->seconds = INFINITY;
        for (int rep = 0; rep < (repeat < 2 ? repeat : 2); rep++) {
            double s = 0, tr = 0, tk = 0;
            st = run_kernel(cpu, &lib, VSG_KERNEL_CPU, 1, ref, start, 1u << 18, &s, &tr, &tk);
            if (st != VSG_OK) goto done;
            if (s < r->seconds) r->seconds = s, r->kernel_s = tk;
        }
        r->ok = 1;
    }
    printf("reference: %s\n", vsg_scorer_name(cpu));
    if (vsg_gpu_count() > device && vsg_scorer_open(g, device, so.max_gpu_memory, &gpu) == VSG_OK) {
        printf("GPU: %s, batches of up to %zu atoms\n", vsg_scorer_name(gpu), vsg_scorer_capacity(gpu));
        for (int k = VSG_KERNEL_GM; k < VSG_KERNEL_COUNT; k++) {
            if (!want[k]) continue;
            for (int dbl = 0; dbl < 2; dbl++) {
                if ((dbl && !strcmp(prec, "float")) || (!dbl && !strcmp(prec, "double"))) continue;
                if (!vsg_scorer_supports(gpu, (vsg_kernel)k, dbl)) continue;
                bench_row *r = &rows[nrows++];
                memset(r, 0, sizeof *r);
                r->name = vsg_kernel_name((vsg_kernel)k);
                r->dbl = dbl;
                r->seconds = INFINITY;
                size_t chunk = vsg_scorer_capacity(gpu);
                for (int rep = 0; rep < repeat + 1; rep++) { /* +1: a warm-up */
                    double s = 0, tr = 0, tk = 0;
                    vsg_status ks = run_kernel(gpu, &lib, (vsg_kernel)k, dbl, res, start, chunk, &s, &tr, &tk);
                    if (ks != VSG_OK) {
                        snprintf(r->error, sizeof r->error, "%s", vsg_last_error());
                        break;
                    }
                    if (rep > 0 && s < r->seconds) r->seconds = s, r->transfer_s = tr, r->kernel_s = tk;
                    r->ok = 1;
                }
                if (r->ok) errors_of(res, ref, lib.nlig, tmp, r);
            }
        }
    } else {
        printf("GPU: none usable (%s); only the CPU twin is measured\n",
               vsg_gpu_count() > device ? vsg_last_error() : "no CUDA device");
    }

    /* the table */
    const double atoms = (double)lib.natoms, ligs = (double)lib.nlig; /* replicas included */
    printf("\n%-11s %-6s %10s %10s %10s %11s %11s %11s %9s %10s %10s %10s %10s\n", "kernel", "prec", "seconds", "kernel_s",
           "xfer_s", "atoms/s", "kernel at/s", "ligands/s", "xCPU", "max_abs", "med_abs", "max_rel", "med_rel");
    for (int i = 0; i < nrows; i++) {
        const bench_row *r = &rows[i];
        if (!r->ok) {
            printf("%-11s %-6s  failed: %s\n", r->name, r->dbl ? "double" : "float", r->error);
            continue;
        }
        printf("%-11s %-6s %10.4f %10.6f %10.6f %11.3e %11.3e %11.3e %9.1f %10.2e %10.2e %10.2e %10.2e\n", r->name,
               r->dbl ? "double" : "float", r->seconds, r->kernel_s, r->transfer_s, atoms / r->seconds,
               r->kernel_s > 0 ? atoms / r->kernel_s : 0.0, ligs / r->seconds, rows[0].seconds / r->seconds, r->max_abs,
               r->med_abs, r->max_rel, r->med_rel);
    }
    printf("errors per molecule against the CPU twin (kcal/mol); rel = |error| / max(|reference|, 0.1)\n");

    if (json) {
        vsg_json j;
        FILE *f = vsg_cli_json_open(json, &j, "bench");
        if (f) {
            vsg_json_str(&j, "grid", grid_path);
            vsg_json_int(&j, "ligands", (long long)lib.nlig);
            vsg_json_int(&j, "atoms", (long long)lib.natoms);
            vsg_json_int(&j, "replicate", replicate);
            vsg_json_str(&j, "reference", vsg_scorer_name(cpu));
            vsg_json_str(&j, "gpu", gpu ? vsg_scorer_name(gpu) : "");
            vsg_json_array(&j, "kernels");
            for (int i = 0; i < nrows; i++) {
                const bench_row *r = &rows[i];
                vsg_json_object(&j, NULL);
                vsg_json_str(&j, "kernel", r->name);
                vsg_json_str(&j, "precision", r->dbl ? "double" : "float");
                vsg_json_bool(&j, "ok", r->ok);
                if (r->ok) {
                    vsg_json_num(&j, "seconds", r->seconds);
                    vsg_json_num(&j, "kernel_seconds", r->kernel_s);
                    vsg_json_num(&j, "transfer_seconds", r->transfer_s);
                    vsg_json_num(&j, "atoms_per_second", atoms / r->seconds);
                    vsg_json_num(&j, "ligands_per_second", ligs / r->seconds);
                    vsg_json_num(&j, "speedup_over_cpu", rows[0].seconds / r->seconds);
                    vsg_json_num(&j, "max_abs_error_kcal_mol", r->max_abs);
                    vsg_json_num(&j, "median_abs_error_kcal_mol", r->med_abs);
                    vsg_json_num(&j, "max_rel_error", r->max_rel);
                    vsg_json_num(&j, "median_rel_error", r->med_rel);
                } else {
                    vsg_json_str(&j, "error", r->error);
                }
                vsg_json_end(&j, '}');
            }
            vsg_json_end(&j, ']');
            vsg_cli_json_finish(&j, f, json, 0.0);
        }
    }

done:
    vsg_scorer_close(cpu);
    vsg_scorer_close(gpu);
    free(ref);
    free(res);
    free(tmp);
    free(start);
    vsg_screen_library_free(&lib);
    vsg_mapset_free(maps);
    vsg_grid_free(grid);
    return st == VSG_OK ? 0 : vsg_cli_fail(st);
}
