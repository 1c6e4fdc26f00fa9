/* grid_batch.c — see grid_batch.h. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/cli/cli.h"    /* VSG_EXIT_* */
#include "engine/cli/grid_batch.h"
#include "grids/base/vsgrid.h"

void vsg_batch_name(const char *path, char *out, size_t len)
{
    if (!len) return;
    const char *s = strrchr(path, '/');
    s = s ? s + 1 : path;
    size_t n = strlen(s);
    if (n > 3 && !strcmp(s + n - 3, ".gz")) n -= 3;
    for (size_t i = n; i > 1; i--)
        if (s[i - 1] == '.') {
            n = i - 1;
            break;
        }
    if (n >= len) n = len - 1;
    memcpy(out, s, n);
    out[n] = '\0';
}

int vsg_batch_subst(const char *pattern, const char *name, char *out, size_t len)
{
    size_t o = 0, nl = strlen(name);
    for (const char *p = pattern; *p; p++) {
        if (p[0] == '{' && p[1] == '}') {
            if (o + nl >= len) return 0;
            memcpy(out + o, name, nl);
            o += nl;
            p++;
        } else {
            if (o + 1 >= len) return 0;
            out[o++] = *p;
        }
    }
    if (o >= len) return 0;
    out[o] = '\0';
    return 1;
}

vsg_status vsg_batch_make_dirs(const char *file)
{
    char d[4096];
    const char *slash = strrchr(file, '/');
    if (!slash || slash == file) return VSG_OK;
    size_t n = (size_t)(slash - file);
    if (n >= sizeof d) return vsg_fail(VSG_E_IO, "%s: directory name too long", file);
    memcpy(d, file, n);
    d[n] = '\0';
    for (size_t i = 1; i <= n; i++) {
        if (d[i] != '/' && d[i] != '\0') continue;
        const char c = d[i];
        d[i] = '\0';
        if (mkdir(d, 0777) != 0 && errno != EEXIST)
            return vsg_fail(VSG_E_IO, "cannot make directory %s for %s: %s", d, file, strerror(errno));
        d[i] = c;
    }
    return VSG_OK;
}

vsg_status vsg_batch_read_list(const char *path, char ***paths, size_t *n)
{
    *paths = NULL;
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f) return vsg_fail(VSG_E_IO, "%s: cannot open receptor list: %s", path, strerror(errno));
    char line[4096];
    size_t cap = 0, count = 0, lineno = 0;
    char **v = NULL;
    vsg_status st = VSG_OK;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t l = strlen(line);
        if (l == sizeof line - 1 && line[l - 1] != '\n' && !feof(f)) {
            st = vsg_fail(VSG_E_FORMAT, "%s, line %zu: path longer than %zu characters", path, lineno, sizeof line - 2);
            break;
        }
        char *b = line, *e = line + l;
        while (b < e && isspace((unsigned char)*b)) b++;
        while (e > b && isspace((unsigned char)e[-1])) e--;
        if (b == e || *b == '#') continue;
        *e = '\0';
        if (count == cap) {
            size_t nc = cap ? 2 * cap : 16;
            char **nv = realloc(v, nc * sizeof *nv);
            if (!nv) { st = vsg_fail(VSG_E_NOMEM, "out of memory reading %s", path); break; }
            v = nv;
            cap = nc;
        }
        const size_t bl = (size_t)(e - b) + 1;
        if (!(v[count] = malloc(bl))) { st = vsg_fail(VSG_E_NOMEM, "out of memory reading %s", path); break; }
        memcpy(v[count], b, bl);
        count++;
    }
    if (st == VSG_OK && ferror(f)) st = vsg_fail(VSG_E_IO, "%s: read error", path);
    fclose(f);
    if (st == VSG_OK && !count) st = vsg_fail(VSG_E_FORMAT, "%s: no receptors listed", path);
    if (st != VSG_OK) {
        for (size_t i = 0; i < count; i++) free(v[i]);
        free(v);
        return st;
    }
    *paths = v;
    *n = count;
    return VSG_OK;
}

const char *vsg_batch_status(int rc)
{
    switch (rc) {
    case VSG_EXIT_OK: return "ok";
    case VSG_EXIT_USAGE: return "usage";
    case VSG_EXIT_INPUT: return "bad input";
    case VSG_EXIT_LIMIT: return "memory limit";
    case VSG_EXIT_DEVICE: return "GPU error";
    case VSG_EXIT_CONVERGE: return "not converged";
    case VSG_EXIT_UNSUPPORTED: return "unsupported";
    }
    return "failed";
}

void vsg_batch_print(FILE *f, const vsg_batch_row *rows, size_t n, int pb)
{
    size_t ok = 0, w = 8;
    double start = 0.0, solve = 0.0, whole = 0.0;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(rows[i].name);
        if (l > w) w = l;
    }
    if (w > 40) w = 40;
    fprintf(f, "vsgrid: %zu receptors\n  %-*s  %-13s  %-13s  %5s  %10s  %10s  %16s\n", n, (int)w, "receptor", "status",
            "grid", pb ? "iter" : "", pb ? "solve (s)" : "compute (s)", "whole (s)", pb ? "energy (kT)" : "");
    for (size_t i = 0; i < n; i++) {
        const vsg_batch_row *r = &rows[i];
        char grid[40] = "-", it[16] = "", sv[24] = "-", en[32] = "";
        if (r->n[0]) snprintf(grid, sizeof grid, "%dx%dx%d", r->n[0], r->n[1], r->n[2]);
        if (r->rc == VSG_EXIT_OK || r->rc == VSG_EXIT_CONVERGE) {
            snprintf(sv, sizeof sv, "%.3f", r->solve_seconds);
            if (pb) {
                snprintf(it, sizeof it, "%d", r->iterations);
                snprintf(en, sizeof en, "%.2f", r->energy_kt);
            }
        }
        fprintf(f, "  %-*.*s  %-13s  %-13s  %5s  %10s  %10.3f  %16s\n", (int)w, (int)w, r->name, vsg_batch_status(r->rc),
                grid, it, sv, r->seconds, en);
        if (r->rc == VSG_EXIT_OK) ok++;
        start += r->device_start_seconds;
        solve += r->solve_seconds;
        whole += r->seconds;
    }
    fprintf(f, "  %zu of %zu done; solves %.3f s in all", ok, n, solve);
    if (start > 0.0) fprintf(f, ", of which %.3f s started the GPU (once for the lot)", start);
    fprintf(f, "; %.3f s in all\n", whole);
}

vsg_status vsg_batch_write_csv(const char *path, const vsg_batch_row *rows, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f) return vsg_fail(VSG_E_IO, "cannot write %s: %s", path, strerror(errno));
    fputs("receptor,name,status,exit_code,nx,ny,nz,iterations,solve_seconds,device_start_seconds,total_energy_kt,"
          "device,seconds,message\n",
          f);
    for (size_t i = 0; i < n; i++) {
        const vsg_batch_row *r = &rows[i];
        vsg_csv_field(f, r->path);
        fputc(',', f);
        vsg_csv_field(f, r->name);
        fprintf(f, ",%s,%d,%d,%d,%d,%d,%.6f,%.6f,%.10g,", vsg_batch_status(r->rc), r->rc, r->n[0], r->n[1], r->n[2],
                r->iterations, r->solve_seconds, r->device_start_seconds, r->energy_kt);
        vsg_csv_field(f, r->device);
        fprintf(f, ",%.6f,", r->seconds);
        vsg_csv_field(f, r->message);
        fputc('\n', f);
    }
    if (fclose(f) != 0) return vsg_fail(VSG_E_IO, "error writing %s", path);
    return VSG_OK;
}
