/* cli_info.c — `vsgrid info FILE`: what a grid, map set, ligand library or molecule file holds. */
#define _POSIX_C_SOURCE 200809L /* strdup, glob, stat */
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/cli/cli.h"

static const char usage[] =
    "usage: vsgrid info FILE [--json FILE] [--pqr OUT.pqr]\n"
    "\n"
    "Describes a grid (.vsg, .dx, .dx.gz, AutoGrid .map: dimensions, origin, spacing, units, value range,\n"
    "metadata), an AutoGrid map set (.maps.fld: its maps and whether each file is there, box,\n"
    "spacing, receptor, .gpf), a Vina map set (PREFIX with PREFIX.<type>.map files: its maps and\n"
    "box), a ligand library (.sdf, .sd, .mol, .mol2, .pdbqt, .pdb [.gz] with more than one record:\n"
    "records, molecules by name, atoms per record min/mean/max, formats, charges in the file or\n"
    "not, statuses) or a molecule (one record, or .pqr: atoms, net charge, extent, chains,\n"
    "residues, models).\n"
    "  --json FILE   the same as JSON\n"
    "  --pqr FILE    write the molecule as PQR with the charges and radii vsgrid uses\n";

static int has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A ligand library: every record read (memory: the names only). Returns -1 when the file is not
 * a library (one record: the molecule summary follows), else the exit code. */
static int info_library(const char *path, const char *json)
{
    vsg_ligand_reader *rd;
    const char *paths[1] = {path};
    if (vsg_ligand_reader_open(paths, 1, NULL, &rd) != VSG_OK) return -1;
    double t0 = vsg_now();
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    size_t records = 0, ok = 0, with_charges = 0, unnamed = 0, ncap = 0, nnames = 0;
    long amin = 0, amax = 0;
    double asum = 0.0;
    char **names = NULL, first_failure[256] = "";
    enum { NCODES = 16, NFMT = 5 };
    char codes[NCODES][16];
    size_t code_n[NCODES], ncodes = 0, fmt_n[NFMT] = {0};
    int oom = 0;
    while (vsg_ligand_reader_next(rd, &lig)) {
        records++;
        if ((int)lig.format >= 0 && (int)lig.format < NFMT) fmt_n[lig.format]++;
        if (lig.status == VSG_OK) {
            ok++;
            if (ok == 1 || lig.natoms < amin) amin = lig.natoms;
            if (ok == 1 || lig.natoms > amax) amax = lig.natoms;
            asum += lig.natoms;
            if (lig.has_charges) with_charges++;
        } else if (!first_failure[0]) {
            snprintf(first_failure, sizeof first_failure, "%s", lig.message);
        }
        const char *code = lig.status == VSG_OK ? VSG_LIG_OK : lig.code[0] ? lig.code : "failed";
        size_t c = 0;
        while (c < ncodes && strcmp(codes[c], code)) c++;
        if (c == ncodes && ncodes < NCODES) snprintf(codes[ncodes], sizeof codes[0], "%s", code), code_n[ncodes++] = 0;
        if (c < ncodes) code_n[c]++;
        if (!lig.name[0] || strspn(lig.name, " ") == strlen(lig.name)) { unnamed++; continue; }
        if (nnames == ncap) {
            size_t cap = ncap ? 2 * ncap : 1024;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown) { oom = 1; break; }
            names = grown, ncap = cap;
        }
        if (!(names[nnames] = strdup(lig.name))) { oom = 1; break; }
        nnames++;
    }
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(rd);
    int rc = 0;
    if (oom) {
        rc = vsg_cli_fail(vsg_fail(VSG_E_NOMEM, "%s: out of memory for the molecule names", path));
    } else if (records <= 1) {
        rc = -1;   /* one molecule: the molecule summary */
    } else {
        qsort(names, nnames, sizeof *names, cmp_str);
        size_t distinct = 0, most = 0, run = 0;
        const char *most_name = "";
        for (size_t i = 0; i < nnames; i++) {
            run = i && !strcmp(names[i], names[i - 1]) ? run + 1 : 1;
            if (run == 1) distinct++;
            if (run > most) most = run, most_name = names[i];
        }
        printf("%s: ligand library, %zu records: %zu ok, %zu failed\n", path, records, ok, records - ok);
        printf("  molecules  %zu distinct names", distinct);
        if (most > 1) printf(" (up to %zu records a name, e.g. '%s': protomers, tautomers or conformers)", most, most_name);
        if (unnamed) printf("; %zu records without a name", unnamed);
        printf("\n");
        if (ok) printf("  atoms      per record min %ld, mean %.1f, max %ld (ok records)\n", amin, asum / (double)ok, amax);
        printf("  formats   ");
        for (int f = 0; f < NFMT; f++)
            if (fmt_n[f]) printf(" %s %zu", vsg_ligand_format_name((vsg_ligand_format)f), fmt_n[f]);
        printf("\n");
        printf("  charges    in the file for %zu of %zu ok records%s\n", with_charges, ok,
               with_charges < ok ? " (screen's default --charges auto gives the others Gasteiger charges, "
                                                "when Open Babel is available)" : "");
        printf("  statuses  ");
        for (size_t c = 0; c < ncodes; c++) printf(" %s %zu", codes[c], code_n[c]);
        printf("\n");
        if (first_failure[0]) printf("  first failure: %s\n", first_failure);
        vsg_json j;
        FILE *jf = NULL;
        if (json && (jf = vsg_cli_json_open(json, &j, "info"))) {
            vsg_json_str(&j, "file", path);
            vsg_json_str(&j, "kind", "library");
            vsg_json_int(&j, "records", (long long)records);
            vsg_json_int(&j, "ok", (long long)ok);
            vsg_json_int(&j, "failed", (long long)(records - ok));
            vsg_json_int(&j, "molecules", (long long)distinct);
            vsg_json_int(&j, "unnamed_records", (long long)unnamed);
            vsg_json_int(&j, "most_records_per_name", (long long)most);
            vsg_json_int(&j, "atoms_min", amin);
            vsg_json_num(&j, "atoms_mean", ok ? asum / (double)ok : 0.0);
            vsg_json_int(&j, "atoms_max", amax);
            vsg_json_int(&j, "records_with_charges", (long long)with_charges);
            vsg_json_object(&j, "formats");
            for (int f = 0; f < NFMT; f++)
                if (fmt_n[f]) vsg_json_int(&j, vsg_ligand_format_name((vsg_ligand_format)f), (long long)fmt_n[f]);
            vsg_json_end(&j, '}');
            vsg_json_object(&j, "statuses");
            for (size_t c = 0; c < ncodes; c++) vsg_json_int(&j, codes[c], (long long)code_n[c]);
            vsg_json_end(&j, '}');
            vsg_cli_json_finish(&j, jf, json, vsg_now() - t0);
        }
        if (json && !jf) rc = VSG_EXIT_FAILURE;
    }
    for (size_t i = 0; i < nnames; i++) free(names[i]);
    free(names);
    return rc;
}

/* An AutoGrid map set: the fld's maps (and whether each file is there, next to the fld), box,
 * spacing, receptor and gpf. */
static int info_fld(const char *path, const char *json)
{
    static vsg_fld f;
    vsg_status st = vsg_autogrid_fld_read(path, &f);
    if (st != VSG_OK) return vsg_cli_fail(st);
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (int)(slash - path + 1) : 0, missing = 0;
    printf("%s: AutoGrid map set, %d maps\n", path, f.n_maps);
    printf("  box      centre %.3f %.3f %.3f Å, %d x %d x %d points, %.3f x %.3f x %.3f Å\n", f.center[0], f.center[1],
           f.center[2], f.npts[0] + 1, f.npts[1] + 1, f.npts[2] + 1, f.npts[0] * f.spacing, f.npts[1] * f.spacing,
           f.npts[2] * f.spacing);
    printf("  spacing  %.4g Å\n", f.spacing);
    if (f.macromolecule[0]) printf("  receptor %s\n", f.macromolecule);
    if (f.gpf[0]) printf("  gpf      %s\n", f.gpf);
    printf("  maps    ");
    for (int i = 0; i < f.n_maps; i++) {
        char p[2 * VSG_AG_PATH + 8];
        struct stat sb;
        snprintf(p, sizeof p, "%.*s%s", f.maps[i].file[0] == '/' ? 0 : dir_len, path, f.maps[i].file);
        int there = stat(p, &sb) == 0;
        if (!there) {   /* a gzipped map set (X.map.gz) reads the same */
            size_t l = strlen(p);
            if (l + 4 < sizeof p) memcpy(p + l, ".gz", 4), there = stat(p, &sb) == 0;
        }
        missing += !there;
        printf(" %s%s", f.maps[i].type, there ? "" : " (missing)");
    }
    printf("\n  (the types are AutoDock4 ligand atom types, e electrostatics in kcal/mol/e, d desolvation;\n"
           "   the affinity maps are in kcal/mol)\n");
    if (missing) printf("  %d map file%s named by the fld not found next to it\n", missing, missing == 1 ? "" : "s");
    vsg_json j;
    FILE *jf = NULL;
    if (json && (jf = vsg_cli_json_open(json, &j, "info"))) {
        vsg_json_str(&j, "file", path);
        vsg_json_str(&j, "kind", "autogrid_maps");
        vsg_json_array(&j, "npts");
        for (int d = 0; d < 3; d++) vsg_json_int(&j, NULL, f.npts[d]);
        vsg_json_end(&j, ']');
        vsg_json_array(&j, "center_a");
        for (int d = 0; d < 3; d++) vsg_json_num(&j, NULL, f.center[d]);
        vsg_json_end(&j, ']');
        vsg_json_num(&j, "spacing_a", f.spacing);
        vsg_json_str(&j, "macromolecule", f.macromolecule);
        vsg_json_str(&j, "gpf", f.gpf);
        vsg_json_array(&j, "maps");
        for (int i = 0; i < f.n_maps; i++) vsg_json_str(&j, NULL, f.maps[i].type);
        vsg_json_end(&j, ']');
        vsg_json_int(&j, "missing_files", missing);
        vsg_cli_json_finish(&j, jf, json, 0.0);
    }
    return json && !jf ? VSG_EXIT_FAILURE : missing ? VSG_EXIT_INPUT : 0;
}

/* A Vina map prefix (PREFIX.<XS type>.map): the maps found and the first one's box. -1 when
 * there is none. */
static int info_vina_prefix(const char *prefix, const char *json)
{
    char pat[4200];
    glob_t gl;
    memset(&gl, 0, sizeof gl);
    snprintf(pat, sizeof pat, "%s.*.map", prefix);
    int flags = glob(pat, 0, NULL, &gl) == 0 ? GLOB_APPEND : 0;
    snprintf(pat, sizeof pat, "%s.*.map.gz", prefix);
    (void)glob(pat, flags, NULL, &gl);
    if (gl.gl_pathc == 0) { globfree(&gl); return -1; }
    vsg_grid *g = NULL;
    vsg_status st = vsg_autogrid_map_read(gl.gl_pathv[0], &g);
    if (st != VSG_OK) { globfree(&gl); return vsg_cli_fail(st); }
    vsg_grid_shape s;
    vsg_grid_shape_of(g, &s);
    size_t pl = strlen(prefix) + 1;
    printf("%s: map set (Vina or AutoGrid prefix), %zu maps\n", prefix, (size_t)gl.gl_pathc);
    printf("  box      origin %.3f %.3f %.3f Å, %d x %d x %d points, spacing %.4g Å\n", s.origin[0], s.origin[1],
           s.origin[2], s.n[0], s.n[1], s.n[2], s.spacing[0]);
    printf("  maps    ");
    for (size_t i = 0; i < gl.gl_pathc; i++) {
        const char *t = gl.gl_pathv[i] + pl;
        printf(" %.*s", (int)(strstr(t, ".map") - t), t);
    }
    printf("\n  (affinity maps in kcal/mol per atom of that type; e and d as AutoGrid's; box from the "
           "first map's header)\n");
    vsg_json j;
    FILE *jf = NULL;
    if (json && (jf = vsg_cli_json_open(json, &j, "info"))) {
        vsg_json_str(&j, "file", prefix);
        vsg_json_str(&j, "kind", "map_prefix");
        vsg_json_array(&j, "maps");
        for (size_t i = 0; i < gl.gl_pathc; i++) {
            char t[64];
            const char *b = gl.gl_pathv[i] + pl;
            snprintf(t, sizeof t, "%.*s", (int)(strstr(b, ".map") - b), b);
            vsg_json_str(&j, NULL, t);
        }
        vsg_json_end(&j, ']');
        vsg_json_array(&j, "nodes");
        for (int d = 0; d < 3; d++) vsg_json_int(&j, NULL, s.n[d]);
        vsg_json_end(&j, ']');
        vsg_json_num(&j, "spacing_a", s.spacing[0]);
        vsg_cli_json_finish(&j, jf, json, 0.0);
    }
    vsg_grid_free(g);
    globfree(&gl);
    return json && !jf ? VSG_EXIT_FAILURE : 0;
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
    if (has_suffix(path, ".fld")) return info_fld(path, json);
    struct stat sb;
    if (stat(path, &sb) != 0) {
        int rc = info_vina_prefix(path, json);
        if (rc >= 0) return rc;
    }
    if (!pqr && vsg_ligand_format_of(path) != VSG_LIG_AUTO) {
        int rc = info_library(path, json);
        if (rc >= 0) return rc;
    }
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
