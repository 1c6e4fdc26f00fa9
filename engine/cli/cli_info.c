/* cli_info.c — `vsgrid info FILE`: what a grid or molecule file holds. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/cli/cli.h"

static const char usage[] =
    "usage: vsgrid info FILE [--json FILE] [--pqr OUT.pqr]\n"
    "\n"
    "Describes a grid (.vsg, .dx, .dx.gz, AutoGrid .map: dimensions, origin, spacing, units, value range,\n"
    "metadata) or a molecule (.pqr, .pdbqt, .mol2 [.gz]: atoms, net charge, extent,\n"
    "chains, residues, models).\n"
    "  --json FILE   the same as JSON\n"
    "  --pqr FILE    write the molecule as PQR with the charges and radii vsgrid uses\n";

static int has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

int vsg_cmd_info(int argc, char **argv)
{
    const char *path = NULL, *json = NULL, *pqr = NULL;
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) { fputs(usage, stdout); return 0; }
        if (vsg_arg_is(&a, "--json")) { if (!(json = vsg_arg_value(&a, "info"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--pqr")) { if (!(pqr = vsg_arg_value(&a, "info"))) return VSG_EXIT_USAGE; continue; }
        if (arg[0] == '-' && arg[1]) return vsg_cli_usage_error("info", "unknown option %s", arg);
        if (path) return vsg_cli_usage_error("info", "one file at a time");
        path = arg;
    }
    if (!path) return vsg_cli_usage_error("info", "no file given");
    double t0 = vsg_now();
    vsg_json j;
    FILE *jf = NULL;
    if (has_suffix(path, ".vsg") || has_suffix(path, ".dx") || has_suffix(path, ".dx.gz") || has_suffix(path, ".map") ||
        has_suffix(path, ".map.gz")) {
        vsg_grid *g;
        vsg_status st = vsg_grid_read(path, &g);
        if (st != VSG_OK) return vsg_cli_fail(st);
        vsg_grid_shape s;
        vsg_grid_shape_of(g, &s);
        const float *v = vsg_grid_values(g);
        size_t n = (size_t)s.n[0] * s.n[1] * s.n[2];
        double lo = INFINITY, hi = -INFINITY, sum = 0.0;
        for (size_t i = 0; i < n; i++) {
            lo = v[i] < lo ? v[i] : lo;
            hi = v[i] > hi ? v[i] : hi;
            sum += v[i];
        }
        printf("%s: grid %d x %d x %d (%zu nodes)\n", path, s.n[0], s.n[1], s.n[2], n);
        printf("  origin   %.4f %.4f %.4f Å\n", s.origin[0], s.origin[1], s.origin[2]);
        printf("  spacing  %.6g %.6g %.6g Å\n", s.spacing[0], s.spacing[1], s.spacing[2]);
        printf("  extent   %.3f x %.3f x %.3f Å\n", (s.n[0] - 1) * s.spacing[0], (s.n[1] - 1) * s.spacing[1],
               (s.n[2] - 1) * s.spacing[2]);
        printf("  units    %s\n  values   min %.6g  max %.6g  mean %.6g\n", s.units, lo, hi, sum / (double)n);
        const char *meta = vsg_grid_metadata(g);
        if (meta && *meta) {
            printf("  metadata:\n");
            for (const char *l = meta; *l;) {
                const char *e = strchr(l, '\n');
                int len = e ? (int)(e - l) : (int)strlen(l);
                printf("    %.*s\n", len, l);
                l += len + (e ? 1 : 0);
            }
        }
        if (json && (jf = vsg_cli_json_open(json, &j, "info"))) {
            vsg_json_str(&j, "file", path);
            vsg_json_str(&j, "kind", "grid");
            vsg_json_array(&j, "nodes");
            for (int d = 0; d < 3; d++) vsg_json_int(&j, NULL, s.n[d]);
            vsg_json_end(&j, ']');
            vsg_json_array(&j, "origin_a");
            for (int d = 0; d < 3; d++) vsg_json_num(&j, NULL, s.origin[d]);
            vsg_json_end(&j, ']');
            vsg_json_array(&j, "spacing_a");
            for (int d = 0; d < 3; d++) vsg_json_num(&j, NULL, s.spacing[d]);
            vsg_json_end(&j, ']');
            vsg_json_str(&j, "units", s.units);
            vsg_json_num(&j, "min", lo);
            vsg_json_num(&j, "max", hi);
            vsg_json_num(&j, "mean", sum / (double)n);
            vsg_json_str(&j, "metadata", meta ? meta : "");
            vsg_cli_json_finish(&j, jf, json, vsg_now() - t0);
        }
        vsg_grid_free(g);
        return json && !jf ? VSG_EXIT_FAILURE : 0;
    }
    vsg_molecule *m;
    vsg_status st = vsg_molecule_read(path, NULL, &m);
    if (st != VSG_OK) return vsg_cli_fail(st);
    size_t n = vsg_molecule_atom_count(m), residues = 0, models = 0;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    char chains[64] = "";
    vsg_atom_info prev;
    memset(&prev, 0, sizeof prev);
    for (size_t i = 0; i < n; i++) {
        vsg_atom_info ai;
        vsg_molecule_atom(m, i, &ai);
        double p[3] = {ai.x, ai.y, ai.z};
        for (int d = 0; d < 3; d++) { lo[d] = fmin(lo[d], p[d]); hi[d] = fmax(hi[d], p[d]); }
        if (i == 0 || ai.residue_number != prev.residue_number || ai.chain != prev.chain ||
            ai.insertion_code != prev.insertion_code || ai.model != prev.model)
            residues++;
        if (i == 0 || ai.model != prev.model) models++;
        if (ai.chain != ' ' && !strchr(chains, ai.chain) && strlen(chains) < sizeof chains - 1) {
            size_t k = strlen(chains);
            chains[k] = ai.chain;
            chains[k + 1] = '\0';
        }
        prev = ai;
    }
    printf("%s: %zu atoms, %zu residues, %zu model%s, chains '%s'\n", path, n, residues, models, models == 1 ? "" : "s", chains);
    printf("  net charge %+.4f e\n", vsg_molecule_net_charge(m));
    printf("  extent %.3f..%.3f  %.3f..%.3f  %.3f..%.3f Å (atom centres)\n", lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
    printf("  crc32 %08x\n", (unsigned)vsg_molecule_checksum(m));
    int rc = 0;
    if (pqr) {
        st = vsg_molecule_write_pqr(m, pqr);
        if (st != VSG_OK) rc = vsg_cli_fail(st);
        else printf("  wrote %s\n", pqr);
    }
    if (json && (jf = vsg_cli_json_open(json, &j, "info"))) {
        vsg_json_str(&j, "file", path);
        vsg_json_str(&j, "kind", "molecule");
        vsg_json_int(&j, "atoms", (long long)n);
        vsg_json_int(&j, "residues", (long long)residues);
        vsg_json_int(&j, "models", (long long)models);
        vsg_json_str(&j, "chains", chains);
        vsg_json_num(&j, "net_charge_e", vsg_molecule_net_charge(m));
        vsg_cli_json_finish(&j, jf, json, vsg_now() - t0);
    }
    vsg_molecule_free(m);
    if (json && !jf) rc = VSG_EXIT_FAILURE;
    return rc;
}
