/* receptor_read.c — a receptor for any command: a PDB or PDBx/mmCIF file is prepared
 * (vsg_receptor_prepare) into a temporary PQR or PDBQT and read back; any other file is read as
 * it is. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grids/base/vsgrid.h"
#include "engine/prepare/prep_model.h"

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

int vsg_receptor_is_pdb(const char *path)
{
    if (!path)
        return 0;
    return ends_with(path, ".pdb") || ends_with(path, ".ent") || ends_with(path, ".pdb.gz") ||
           ends_with(path, ".ent.gz") || ends_with(path, ".PDB") || ends_with(path, ".PDB.gz") || prep_is_mmcif(path);
}

vsg_status vsg_receptor_read(const char *path, vsg_prep_format format, vsg_molecule **out, char **report)
{
    if (report)
        *report = NULL;
    if (!path || !out)
        return vsg_fail(VSG_E_ARG, "vsg_receptor_read: path and out are required");
    if (!vsg_receptor_is_pdb(path))
        return vsg_molecule_read(path, NULL, out);
    vsg_prep_options o;
    vsg_prep_options_default(&o);
    o.format = format;
    char *text = NULL;
    vsg_prep_summary s;
    memset(&s, 0, sizeof s);
    vsg_status st = vsg_receptor_prepare(path, &o, &text, &s);
    if (st != VSG_OK)
        return st;
    const char *dir = getenv("TMPDIR");
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s/vsgrid-receptor-XXXXXX", dir && dir[0] ? dir : "/tmp");
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    int written = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0) /* closed on every path, a failed write too */
        written = 0;
    if (!written) {
        if (f == NULL && fd >= 0)
            close(fd);
        if (fd >= 0)
            remove(tmp);
        free(text);
        vsg_prep_summary_free(&s);
        return vsg_fail(VSG_E_IO, "%s: cannot write the prepared receptor to a temporary file in %s", path,
                        dir && dir[0] ? dir : "/tmp");
    }
    free(text);
    st = vsg_molecule_read(tmp, format == VSG_PREP_PDBQT ? "pdbqt" : "pqr", out);
    remove(tmp);
    if (st == VSG_OK && report) {
        *report = s.report;
        s.report = NULL;
    }
    vsg_prep_summary_free(&s);
    return st;
}
