/* cli_index.c — `vsgrid index LIBRARY...`: a library index (LIBRARY.vsgidx) for each ligand
 * library, so that the tasks of a campaign (`vsgrid screen --shard K/N`, Slurm job arrays) start
 * reading at their first record without scanning the file before it (issue 26). The index is
 * vsg_library_index_build's (one pass, lines only, no parsing); its format is in docs/FORMATS.md
 * ("Library index (.vsgidx)"). */
#define _POSIX_C_SOURCE 200809L /* stat() */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/cli/cli.h"

#define CMD "index"

static const char usage[] =
    "usage: vsgrid index LIBRARY... [--every N] [--format F] [-o INDEX] [--json FILE] [--quiet]\n"
    "\n"
    "Indexes ligand libraries for campaigns cut into shards (a Slurm job array, `vsgrid screen\n"
    "--shard K/N`): where every N-th record starts, and how many records each library yields,\n"
    "so that a task reads only its own records, without scanning the file before them. One pass\n"
    "over each file, lines only (no molecule is parsed); for a gzipped library the offsets are\n"
    "of its inflated text, and a task still inflates the file up to its first record (that is\n"
    "its cost: no parsing).\n"
    "\n"
    "LIBRARY: SDF, MOL2, PDBQT or PDB, plain or .gz (the format from the content, else the\n"
    "extension, as `vsgrid screen` reads it). Standard input cannot be indexed.\n"
    "\n"
    "Options:\n"
    "  --every N       records between index entries (default 1024): a task that starts in\n"
    "                  the middle of a file skips at most N-1 records by scanning lines\n"
    "  --format F      read the libraries as sdf, mol2, pdbqt or pdb (as `screen --format F`;\n"
    "                  the index records it, and a screen that reads the file otherwise\n"
    "                  refuses the index)\n"
    "  -o INDEX        where to write the index (one LIBRARY only; default LIBRARY.vsgidx,\n"
    "                  beside the library)\n"
    "  --json FILE     a summary: per library its records, entries, seconds and MB/s\n"
    "  --quiet         no line per library on stderr\n"
    "\n"
    "The index records the library's size and modification time: a screen refuses an index of\n"
    "a file changed since (run `vsgrid index` again). Per library it prints\n"
    "  LIBRARY: R records, E entries (every N), S s, X MB/s -> INDEX\n"
    "where MB/s is of the file as stored (compressed bytes for .gz).\n"
    "\n"
    "Exit codes: 0 ok, 2 usage, 3 a library that cannot be read (no index written for it; the\n"
    "others are indexed), 4 out of memory, 1 other failure (an index that cannot be written).\n";

typedef struct {
    const char *library, *index;
    size_t records, entries;
    double seconds, bytes;
    int ok;
} index_row;

/* A readable regular file (its size in *bytes), else 0 with the reason printed. */
static int readable(const char *path, double *bytes)
{
    struct stat sb;
    FILE *f;
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "vsgrid %s: %s: cannot open: %s\n", CMD, path, strerror(errno));
        return 0;
    }
    if (!S_ISREG(sb.st_mode)) {
        fprintf(stderr, "vsgrid %s: %s: not a regular file\n", CMD, path);
        return 0;
    }
    f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "vsgrid %s: %s: cannot open: %s\n", CMD, path, strerror(errno));
        return 0;
    }
    fclose(f);
    *bytes = (double)sb.st_size;
    return 1;
}

int vsg_cmd_index(int argc, char **argv)
{
    const char *out = NULL, *json = NULL;
    long every = 1024;
    int quiet = 0, rc = VSG_EXIT_OK, nlib = 0;
    vsg_ligand_reader_options ro = {.format = VSG_LIG_AUTO, .keep_text = 0, .max_atoms = 0};
    vsg_args a = {argc, 1, argv, NULL, NULL};
    const char **libs = calloc((size_t)(argc > 1 ? argc : 1), sizeof *libs);
    if (!libs) return vsg_cli_fail(vsg_fail(VSG_E_NOMEM, "out of memory"));
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i], *v;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(usage, stdout);
            free(libs);
            return VSG_EXIT_OK;
        }
        if (vsg_arg_is(&a, "--every")) {
            char *end;
            if (!(v = vsg_arg_value(&a, CMD))) goto usage_error;
            errno = 0;
            every = strtol(v, &end, 10);
            if (end == v || *end || errno || every < 1) {
                vsg_cli_usage_error(CMD, "--every: '%s' is not a whole number >= 1", v);
                goto usage_error;
            }
        } else if (vsg_arg_is(&a, "--format")) {
            if (!(v = vsg_arg_value(&a, CMD))) goto usage_error;
            if (!strcmp(v, "sdf")) ro.format = VSG_LIG_SDF;
            else if (!strcmp(v, "mol2")) ro.format = VSG_LIG_MOL2;
            else if (!strcmp(v, "pdbqt")) ro.format = VSG_LIG_PDBQT;
            else if (!strcmp(v, "pdb")) ro.format = VSG_LIG_PDB;
            else {
                vsg_cli_usage_error(CMD, "--format: '%s' is not sdf, mol2, pdbqt or pdb", v);
                goto usage_error;
            }
        } else if (vsg_arg_is(&a, "-o") || vsg_arg_is(&a, "--output")) {
            if (!(out = vsg_arg_value(&a, CMD))) goto usage_error;
        } else if (vsg_arg_is(&a, "--json")) {
            if (!(json = vsg_arg_value(&a, CMD))) goto usage_error;
        } else if (vsg_arg_is(&a, "--quiet") || vsg_arg_is(&a, "-q")) {
            quiet = 1;
        } else if (arg[0] == '-' && arg[1]) {
            vsg_cli_usage_error(CMD, "unknown option %s", arg);
            goto usage_error;
        } else if (!strcmp(arg, "-")) {
            vsg_cli_usage_error(CMD, "standard input cannot be indexed: give a file");
            goto usage_error;
        } else {
            libs[nlib++] = arg;
        }
    }
    if (nlib == 0) {
        vsg_cli_usage_error(CMD, "needs a LIBRARY");
        goto usage_error;
    }
    if (out && nlib > 1) {
        vsg_cli_usage_error(CMD, "-o names one index: give one LIBRARY (or leave -o out: LIBRARY.vsgidx each)");
        goto usage_error;
    }
    if (out && vsg_cli_check_output(CMD, out) != 0) {
        free(libs);
        return VSG_EXIT_FAILURE;
    }

    index_row *rows = calloc((size_t)nlib, sizeof *rows);
    char (*paths)[4096] = calloc((size_t)nlib, sizeof *paths);
    const double t0 = vsg_now();
    size_t total_records = 0;
    if (!rows || !paths) {
        free(rows);
        free(paths);
        free(libs);
        return vsg_cli_fail(vsg_fail(VSG_E_NOMEM, "out of memory"));
    }
    for (int i = 0; i < nlib; i++) {
        index_row *row = &rows[i];
        vsg_library_index *ix = NULL;
        vsg_status st;
        row->library = libs[i];
        if (out) {
            row->index = out;
        } else if (!(row->index = vsg_library_index_path(libs[i], paths[i], sizeof paths[i]))) {
            fprintf(stderr, "vsgrid %s: %s: path too long\n", CMD, libs[i]);
            rc = VSG_EXIT_FAILURE;
            continue;
        }
        if (!readable(libs[i], &row->bytes)) { /* the API would index it as one io record */
            if (rc == VSG_EXIT_OK) rc = VSG_EXIT_INPUT;
            continue;
        }
        const double t = vsg_now();
        int writing = 0;
        st = vsg_library_index_build(libs[i], &ro, every, &ix);
        if (st == VSG_OK) writing = 1, st = vsg_library_index_write(ix, row->index);
        row->seconds = vsg_now() - t;
        if (st != VSG_OK) {
            int code = vsg_cli_fail(st);
            if (writing && code == VSG_EXIT_INPUT) code = VSG_EXIT_FAILURE; /* the index's file, not the input */
            if (rc == VSG_EXIT_OK || code == VSG_EXIT_LIMIT) rc = code;
            vsg_library_index_free(ix);
            if (st == VSG_E_NOMEM) break;
            continue;
        }
        row->records = vsg_library_index_records(ix);
        row->entries = vsg_library_index_entries(ix);
        row->ok = 1;
        total_records += row->records;
        vsg_library_index_free(ix);
        if (!quiet)
            fprintf(stderr, "%s: %zu records, %zu entries (every %ld), %.3f s, %.1f MB/s -> %s\n", libs[i], row->records,
                    row->entries, every, row->seconds,
                    row->seconds > 0 ? row->bytes / 1e6 / row->seconds : 0.0, row->index);
    }
    if (json) {
        vsg_json j;
        FILE *f = vsg_cli_json_open(json, &j, CMD);
        if (f) {
            vsg_json_int(&j, "every", every);
            vsg_json_int(&j, "records", (long long)total_records);
            vsg_json_array(&j, "libraries");
            for (int i = 0; i < nlib; i++) {
                const index_row *row = &rows[i];
                vsg_json_object(&j, NULL);
                vsg_json_str(&j, "library", row->library);
                vsg_json_bool(&j, "indexed", row->ok);
                if (row->ok) {
                    vsg_json_str(&j, "index", row->index);
                    vsg_json_int(&j, "records", (long long)row->records);
                    vsg_json_int(&j, "entries", (long long)row->entries);
                    vsg_json_num(&j, "bytes", row->bytes);
                    vsg_json_num(&j, "seconds", row->seconds);
                    vsg_json_num(&j, "mb_per_second", row->seconds > 0 ? row->bytes / 1e6 / row->seconds : 0.0);
                }
                vsg_json_end(&j, '}');
            }
            vsg_json_end(&j, ']');
            vsg_cli_json_finish(&j, f, json, vsg_now() - t0);
        } else if (rc == VSG_EXIT_OK) {
            rc = VSG_EXIT_FAILURE;
        }
    }
    free(rows);
    free(paths);
    free(libs);
    return rc;

usage_error:
    free(libs);
    return VSG_EXIT_USAGE;
}
