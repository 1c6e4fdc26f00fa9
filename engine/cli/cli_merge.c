/* cli_merge.c — `vsgrid merge PART.csv... -o OUT.csv`: the shards of a campaign (the tasks of a
 * Slurm job array, each a `vsgrid screen --shard K/N`) joined into the files one uninterrupted
 * screen writes, after checking that they are all there, once, of one screen and finished
 * (vsg_screen_merge, vsgrid.h "shards of a campaign and their merge"). */
#define _POSIX_C_SOURCE 200809L /* glob, opendir, strdup */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/cli/cli.h"

#define CMD "merge"

static const char usage[] =
    "usage: vsgrid merge PART.csv... -o OUT.csv[.gz] [--poses-out P.sdf|P.pdbqt[.gz]]\n"
    "                    [--best-per-molecule] [--top K --top-out TOP.csv] [--poses-top K]\n"
    "                    [--allow-partial] [--json F] [--quiet]\n"
    "\n"
    "Joins the shards of a campaign (`vsgrid screen ... --shard K/N` or --records, one task of a\n"
    "job array each) into exactly the files one uninterrupted screen of the whole libraries\n"
    "writes: the CSV rows in record order under one header, the poses in the same order.\n"
    "\n"
    "PART      a shard's CSV (PATH; its marker PATH.done beside it says the shard finished),\n"
    "          or the marker PATH.done itself, or a folder (every PATH.done in it), or a quoted\n"
    "          glob pattern ('shards/*': expanded here, for more shards than a command line\n"
    "          holds; markers, pose files, .partial and .resume files it meets are not parts).\n"
    "          Any order; .gz parts are read as they are.\n"
    "\n"
    "Checked before anything is written (exit 3, the message names the part):\n"
    "  - every part has its marker (a PATH.partial without PATH.done: an unfinished shard);\n"
    "  - every marker has the same fingerprint (the screen's options and libraries) and the\n"
    "    same records_total T;\n"
    "  - the parts' ranges cover records 0 to T-1 exactly once: a gap is a missing or\n"
    "    unfinished shard (named when its PATH.partial lies beside the parts), an overlap a\n"
    "    shard given twice or shards of two different cuts.\n"
    "Checked while merging (exit 3; the outputs are then removed):\n"
    "  - every part has the same header, and its rows are its ranges' records in order (the\n"
    "    index column) and no more: a truncated or foreign CSV is refused;\n"
    "  - each pose file's records (REMARK VSGRID RECORD / vsgrid_record) lie in its shard's\n"
    "    ranges, in order, and it does not end inside a pose.\n"
    "\n"
    "Options:\n"
    "  -o, --output OUT.csv  the merged CSV ('-': standard output; .gz: gzip, level 6)\n"
    "  --poses-out P         the merged poses (.sdf or .pdbqt, .gz too; the shards' pose files\n"
    "                        named in their markers): records in order, PDBQT MODELs numbered\n"
    "                        1, 2, 3... over the whole file, every other line as written\n"
    "  --best-per-molecule   the CSV as `vsgrid screen --best-per-molecule` writes it: one row\n"
    "                        per name, its best-scored record's (lowest score_kcal_mol among\n"
    "                        status ok/outside; ties and nothing scored: the first), in the\n"
    "                        order of each name's first record, plus a last column records\n"
    "  --top K --top-out F   F gets the best K rows (lowest score, ties by lower index; scored\n"
    "                        rows only), best first, under the CSV's header; with\n"
    "                        --best-per-molecule the best K names, each its best row and its\n"
    "                        records count (a second pass over the parts counts them)\n"
    "  --poses-top K         only the poses of the best K records (their first pose's score),\n"
    "                        best first; shards that kept their own best K (poses_select top\n"
    "                        K) are merged so by default\n"
    "  --allow-partial       merge the finished shards only: missing or unfinished ones are\n"
    "                        named in warnings and their records counted as missing (exit 0)\n"
    "  --json F              parts, rows, records_total, missing, poses, seconds, rates\n"
    "  --quiet               no summary line\n"
    "\n"
    "Memory: one CSV record and one record's poses at a time, whatever the number of rows;\n"
    "--top K keeps K rows (with --best-per-molecule K names and their rows); --poses-top K keeps\n"
    "K records' poses; --best-per-molecule keeps one row per name, as the single run does.\n"
    "Outputs are written as OUT.merging and renamed to OUT when the merge succeeded.\n"
    "A summary line on stderr: parts, rows, poses, seconds, rows/s and MB/s (of the parts' CSV\n"
    "files as stored: compressed for .gz parts).\n"
    "\n"
    "Exit codes: 0 merged; 2 usage; 3 a missing, doubled, unfinished, foreign or cut part (the\n"
    "message names it) or an unreadable one; 4 out of memory; 1 an output that cannot be written.\n";

typedef struct {
    char **v;
    int n, cap;
} str_list;

static int push(str_list *l, const char *s)
{
    if (l->n == l->cap) {
        int nc = l->cap ? 2 * l->cap : 64;
        char **t = realloc(l->v, sizeof *t * (size_t)nc);
        if (!t) return 0;
        l->v = t, l->cap = nc;
    }
    if (!(l->v[l->n] = strdup(s))) return 0;
    l->n++;
    return 1;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int ends_with(const char *s, const char *suffix)
{
    const size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* A folder: the CSV of every PATH.done in it, in name order. Returns 0 or an exit code. */
static int add_folder(str_list *parts, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "vsgrid " CMD ": cannot read the folder %s: %s\n", dir, strerror(errno));
        return VSG_EXIT_INPUT;
    }
    str_list found = {NULL, 0, 0};
    struct dirent *e;
    int rc = 0;
    const size_t dl = strlen(dir);
    while ((e = readdir(d)) != NULL && rc == 0) {
        if (!ends_with(e->d_name, ".done") || e->d_name[0] == '.') continue;
        char path[4200];
        snprintf(path, sizeof path, "%s%s%.*s", dir, dl && dir[dl - 1] == '/' ? "" : "/",
                 (int)(strlen(e->d_name) - 5), e->d_name);
        if (!push(&found, path)) rc = VSG_EXIT_LIMIT;
    }
    closedir(d);
    if (rc == 0 && found.n == 0) {
        fprintf(stderr, "vsgrid " CMD ": %s holds no finished shard (no PATH.done marker)\n", dir);
        rc = VSG_EXIT_INPUT;
    }
    if (found.n) qsort(found.v, (size_t)found.n, sizeof *found.v, by_name);
    for (int i = 0; i < found.n; i++) {
        if (rc == 0 && !push(parts, found.v[i])) rc = VSG_EXIT_LIMIT;
        free(found.v[i]);
    }
    free(found.v);
    return rc;
}

/* One PART argument: a file, a folder, or a pattern. Returns 0 or an exit code. */
static int add_part(str_list *parts, const char *arg)
{
    struct stat sb;
    if (stat(arg, &sb) == 0 && S_ISDIR(sb.st_mode)) return add_folder(parts, arg);
    if (stat(arg, &sb) != 0 && strpbrk(arg, "*?[")) {
        glob_t g;
        const int r = glob(arg, 0, NULL, &g);
        if (r == GLOB_NOMATCH) {
            fprintf(stderr, "vsgrid " CMD ": no file matches %s\n", arg);
            return VSG_EXIT_INPUT;
        }
        if (r != 0) return VSG_EXIT_LIMIT;
        int rc = 0;
        for (size_t i = 0; i < g.gl_pathc && rc == 0; i++) {
            const char *p = g.gl_pathv[i];
            /* a pattern over a shard folder also meets the markers, unfinished files, pose files
               and --resume sidecars: the shards are the CSVs (a marker names its CSV; what is
               unfinished shows as a gap) */
            if (ends_with(p, ".partial") || ends_with(p, ".resume") || ends_with(p, ".sdf") || ends_with(p, ".pdbqt") ||
                ends_with(p, ".sdf.gz") || ends_with(p, ".pdbqt.gz") || strstr(p, ".merging"))
                continue;
            if (ends_with(p, ".done")) {
                char csv[4200];
                snprintf(csv, sizeof csv, "%.*s", (int)(strlen(p) - 5), p);
                int dup = 0;
                for (size_t k = 0; k < g.gl_pathc && !dup; k++) dup = !strcmp(g.gl_pathv[k], csv);
                if (dup) continue;
            }
            if (!push(parts, p)) rc = VSG_EXIT_LIMIT;
        }
        globfree(&g);
        return rc;
    }
    return push(parts, arg) ? 0 : VSG_EXIT_LIMIT;
}

static int parse_count(const char *name, const char *v, long *out)
{
    double x;
    if (!vsg_parse_number(v, &x) || x != floor(x) || x < 1 || x > 1e12)
        return vsg_cli_usage_error(CMD, "%s: '%s' is not a count in 1..10^12", name, v);
    *out = (long)x;
    return 0;
}

int vsg_cmd_merge(int argc, char **argv)
{
    const double t0 = vsg_now();
    str_list parts = {NULL, 0, 0};
    vsg_merge_options mo;
    memset(&mo, 0, sizeof mo);
    const char *json = NULL;
    int quiet = 0, rc = 0;
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc && rc == 0; a.i++) {
        const char *arg = argv[a.i], *v;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(usage, stdout);
            rc = -1;
            break;
        }
        if (arg[0] != '-' || !arg[1]) {
            rc = add_part(&parts, arg);
            continue;
        }
#define VALUE()                                              \
    do {                                                     \
        if (!(v = vsg_arg_value(&a, CMD))) rc = VSG_EXIT_USAGE; \
    } while (0)
        if (vsg_arg_is(&a, "--quiet")) quiet = 1;
        else if (vsg_arg_is(&a, "--best-per-molecule")) mo.best_per_molecule = 1;
        else if (vsg_arg_is(&a, "--allow-partial")) mo.allow_partial = 1;
        else if (vsg_arg_is(&a, "-o") || vsg_arg_is(&a, "--output")) { VALUE(); if (!rc) mo.csv = v; }
        else if (vsg_arg_is(&a, "--poses-out")) { VALUE(); if (!rc) mo.poses = v; }
        else if (vsg_arg_is(&a, "--top-out")) { VALUE(); if (!rc) mo.top_csv = v; }
        else if (vsg_arg_is(&a, "--json")) { VALUE(); if (!rc) json = v; }
        else if (vsg_arg_is(&a, "--top")) { VALUE(); if (!rc) rc = parse_count("--top", v, &mo.top); }
        else if (vsg_arg_is(&a, "--poses-top")) { VALUE(); if (!rc) rc = parse_count("--poses-top", v, &mo.poses_top); }
        else rc = vsg_cli_usage_error(CMD, "unknown option %s", arg);
#undef VALUE
    }
    if (rc == 0) {
        if (parts.n == 0) rc = vsg_cli_usage_error(CMD, "no PART given (the shards' CSV files, or their folder)");
        else if (!mo.csv && !mo.top_csv && !mo.poses)
            rc = vsg_cli_usage_error(CMD, "no output: give -o OUT.csv (and/or --top-out, --poses-out)");
        else if ((mo.top > 0) != (mo.top_csv != NULL))
            rc = vsg_cli_usage_error(CMD, "--top K and --top-out FILE go together");
        else if (mo.poses_top > 0 && !mo.poses) rc = vsg_cli_usage_error(CMD, "--poses-top needs --poses-out");
        else if (mo.poses && !(ends_with(mo.poses, ".sdf") || ends_with(mo.poses, ".pdbqt") ||
                               ends_with(mo.poses, ".sdf.gz") || ends_with(mo.poses, ".pdbqt.gz")))
            rc = vsg_cli_usage_error(CMD, "--poses-out: '%s' is not a .sdf or .pdbqt file (.gz too)", mo.poses);
        else if (parts.n > 1000000) rc = vsg_cli_usage_error(CMD, "%d parts: more than 1000000", parts.n);
    }
    const char *outs[3] = {mo.csv, mo.top_csv, mo.poses};
    for (int k = 0; k < 3 && rc == 0; k++) rc = vsg_cli_check_output(CMD, outs[k]);
    vsg_merge_report rep;
    memset(&rep, 0, sizeof rep);
    double bytes = 0;
    if (rc == 0) {
        mo.parts = (const char *const *)parts.v;
        mo.nparts = parts.n;
        const vsg_status st = vsg_screen_merge(&mo, &rep);
        if (st != VSG_OK) {
            const char *msg = vsg_last_error();
            fprintf(stderr, "vsgrid " CMD ": %s\n", msg && *msg ? msg : vsg_status_text(st));
            /* an output that cannot be written is a failure of its own (1), not a bad part (3) */
            rc = st == VSG_E_IO && msg && !strncmp(msg, "cannot write", 12) ? VSG_EXIT_FAILURE : vsg_cli_exit_code(st);
        }
    }
    if (rc == 0) {
        for (int i = 0; i < parts.n; i++) { /* the parts as stored, for the MB/s */
            char csv[4200];
            struct stat sb;
            snprintf(csv, sizeof csv, "%s", parts.v[i]);
            if (ends_with(csv, ".done")) csv[strlen(csv) - 5] = '\0';
            if (stat(csv, &sb) == 0) bytes += (double)sb.st_size;
        }
        const double s = rep.seconds > 0 ? rep.seconds : 1e-9;
        if (!quiet) {
            fprintf(stderr, "merge: %zu parts, %zu rows of %zu records", rep.parts, rep.rows, rep.records_total);
            if (rep.missing) fprintf(stderr, " (%zu missing)", rep.missing);
            if (mo.poses) fprintf(stderr, ", %zu poses", rep.poses);
            fprintf(stderr, " in %.2f s (%.0f rows/s, %.1f MB/s of parts as stored)\n", rep.seconds,
                    (double)rep.rows / s, bytes / s / 1e6);
        }
        if (json) {
            vsg_json j;
            FILE *f = vsg_cli_json_open(json, &j, CMD);
            if (f) {
                vsg_json_int(&j, "parts", (long long)rep.parts);
                vsg_json_int(&j, "rows", (long long)rep.rows);
                vsg_json_int(&j, "records_total", (long long)rep.records_total);
                vsg_json_int(&j, "missing", (long long)rep.missing);
                vsg_json_int(&j, "poses", (long long)rep.poses);
                if (mo.csv) vsg_json_str(&j, "output", mo.csv);
                if (mo.poses) vsg_json_str(&j, "poses_out", mo.poses);
                if (mo.top_csv) vsg_json_str(&j, "top_out", mo.top_csv);
                vsg_json_int(&j, "top", mo.top);
                vsg_json_int(&j, "poses_top", mo.poses_top);
                vsg_json_bool(&j, "best_per_molecule", mo.best_per_molecule);
                vsg_json_bool(&j, "allow_partial", mo.allow_partial);
                vsg_json_num(&j, "input_bytes", bytes);
                vsg_json_num(&j, "rows_per_second", (double)rep.rows / s);
                vsg_json_num(&j, "megabytes_per_second", bytes / s / 1e6);
                vsg_json_num(&j, "merge_seconds", rep.seconds);
                vsg_cli_json_finish(&j, f, json, vsg_now() - t0);
            }
        }
    }
    for (int i = 0; i < parts.n; i++) free(parts.v[i]);
    free(parts.v);
    return rc < 0 ? 0 : rc;
}
