/* read_smiles.c — one record of a SMILES library: a line "SMILES [name...]" of a .smi/.ism
 * file, or a row of a CSV file with a column named smiles, prepared in 3D (vsgrid.h,
 * "Preparation of SMILES records"; the Open Babel bridge in ligands/prepare/).
 *
 * The prepared molecule comes back as the text of an SDF record (smiles_record.c: the molfile,
 * Gasteiger charges as `--charges gasteiger` would give, as an RDKit atom property list, and the
 * preparation's notes as data items), which the SDF record parser reads into the record: a
 * SMILES record is then what a 3D SDF record of the molecule would be (format SDF, its text
 * that record), so typing, formal charges and the torsion tree follow the SDF path, and SDF
 * output keeps the prepared molecule.
 *
 * Lines: a .smi/.ism line is the SMILES, blanks, then the name (the rest of the line; "line N"
 * when there is none). Blank lines and lines starting with '#' are no record; neither is a
 * first line whose first word is "smiles" (a header). A CSV file's first line is its header:
 * the SMILES column is the one named smiles (any case), the name the first column named name,
 * id or title; fields may be double-quoted ("" for a quote inside).
 *
 * A reader told to defer (ligand_reader.h) stops after the line's parsing and leaves the
 * preparation, a hundred times the reading's cost, to vsg_ligand_prepare_pending on the
 * caller's threads, in worker processes (ligands/prepare/prepare_workers.h) or its own. */
#define _POSIX_C_SOURCE 200809L /* open() */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grids/base/vsgrid.h"
#include "ligands/ligand.h"
#include "ligands/readers/inflate.h"
#include "ligands/readers/ligand_reader.h"
#include "ligands/prepare/prepare_workers.h"
#include "ligands/readers/reader_internal.h"
#include "ligands/readers/smiles_record.h"

static int same_ci(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if ((*a | 0x20) != (*b | 0x20)) return 0;
    return !*a && !*b;
}

/* Reads the CSV header's columns. */
static void csv_header(vsg_lig_ctx *c, const char *l, size_t n)
{
    char f[64];
    c->csv_state = 1;
    c->csv_smiles = c->csv_name = -1;
    for (int k = 0; vsg_csv_field_get(l, n, k, f, sizeof f); k++) {
        if (c->csv_smiles < 0 && same_ci(f, "smiles")) c->csv_smiles = k;
        else if (c->csv_name < 0 && (same_ci(f, "name") || same_ci(f, "id") || same_ci(f, "title")))
            c->csv_name = k;
    }
}

/* The header of a CSV file read from its middle (a chunk, an index entry): its first line, read
 * from the file itself. */
static void csv_header_from_file(vsg_lig_ctx *c)
{
    enum { N = 65536 };
    char *buf;
    long got;
    size_t len = 0;
    int fd;
    vsg_inflate *z;
    c->csv_state = 1;
    c->csv_smiles = c->csv_name = -1;
    if (!c->path || !strcmp(c->path, "-") || (fd = open(c->path, O_RDONLY | O_CLOEXEC)) < 0) return;
    if (!(z = vsg_inflate_open(fd))) return;
    if ((buf = malloc(N + 1)) != NULL) {
        while (len < N && (got = vsg_inflate_read(z, buf + len, N - len)) > 0) {
            len += (size_t)got;
            if (memchr(buf, '\n', len)) break;
        }
        char *nl = memchr(buf, '\n', len);
        size_t n = nl ? (size_t)(nl - buf) : len;
        if (n && buf[n - 1] == '\r') n--;
        csv_header(c, buf, n);
        free(buf);
    }
    vsg_inflate_close(z);
}

/* Prepares the record's SMILES (read at line `at`) into lig, in this process or in worker
 * `slot` of w: the prepared molecule, or lig failed naming file:line. */
static void prepare(vsg_lig_ctx *c, vsg_ligand *lig, const char *smiles, long at, vsg_prep_workers *w, int slot)
{
    vsg_smiles_record r;
    char code[16], why[200];
    vsg_status st = w ? vsg_prep_workers_make(w, slot, smiles, lig->name, &c->smi, &r)
                      : vsg_smiles_record_make(smiles, lig->name, &c->smi, &r);
    if (st != VSG_OK)
        vsg_lig_failf(c, lig, st, r.code, at, "%s", r.why);
    else if (!vsg_lig_parse_prepared(lig, r.text, c->display, c->keep_text, c->max_atoms, code, why, sizeof why))
        vsg_lig_failf(c, lig, VSG_E_DATA, code, at, "%s", why);
    else
        snprintf(lig->message, sizeof lig->message, "%s", r.note); /* has_charges: the record's charges */
    vsg_smiles_record_free(&r);
}

/* A record left for vsg_ligand_prepare_pending: parsed, not prepared; its SMILES is its text. */
static void defer(vsg_lig_ctx *c, vsg_ligand *lig, const char *smiles, long at)
{
    size_t n = strlen(smiles);
    if (n + 1 > lig->text_cap) {
        char *t = realloc(lig->text, n + 1);
        if (!t) {
            vsg_lig_failf(c, lig, VSG_E_NOMEM, VSG_LIG_TOO_MANY, at, "out of memory for the SMILES");
            return;
        }
        lig->text = t;
        lig->text_cap = n + 1;
    }
    memcpy(lig->text, smiles, n + 1);
    lig->text_len = n;
    snprintf(lig->code, sizeof lig->code, "%s", VSG_LIG_PENDING);
}

void vsg_lig_smiles_into(vsg_lig_ctx *c, vsg_ligand *lig, const char *smiles, long at)
{
    if (c->defer_smiles) defer(c, lig, smiles, at);
    else prepare(c, lig, smiles, at, NULL, 0);
}

int vsg_lig_read_smiles(vsg_lig_ctx *c, vsg_ligand *lig)
{
    char *line;
    size_t len;
    int r;
    for (;;) {
        r = vsg_lig_next(c, lig, &line, &len);
        if (r < 0) return 1; /* the input error is the record */
        if (r == 0) return 0;
        if (c->format == VSG_LIG_CSV && c->src.line == 1) csv_header(c, line, len);
        if (vsg_lig_smiles_is_record(c->format, c->src.line, line, len)) break;
        vsg_lig_drop_text(lig);
    }
    vsg_lig_begin(c, lig);
    const long at = c->src.line;
    size_t cap = len + 1;
    char *smiles = malloc(cap), *name = malloc(cap);
    if (!smiles || !name) {
        free(smiles);
        free(name);
        vsg_lig_failf(c, lig, VSG_E_NOMEM, VSG_LIG_TOO_MANY, at, "out of memory for the SMILES line");
        return 1;
    }
    smiles[0] = name[0] = '\0';
    if (c->format == VSG_LIG_CSV) {
        if (!c->csv_state) csv_header_from_file(c);
        if (c->csv_smiles < 0) {
            vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, at,
                          "the CSV header (line 1) has no column named smiles");
            goto done;
        }
        vsg_csv_field_get(line, len, c->csv_smiles, smiles, cap);
        if (c->csv_name >= 0) vsg_csv_field_get(line, len, c->csv_name, name, cap);
    } else {
        size_t i = 0, b;
        while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
        b = i;
        while (i < len && line[i] != ' ' && line[i] != '\t') i++;
        memcpy(smiles, line + b, i - b);
        smiles[i - b] = '\0';
        while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
        memcpy(name, line + i, len - i);
        name[len - i] = '\0';
    }
    if (name[0]) vsg_lig_set_name(lig->name, sizeof lig->name, name, strlen(name));
    if (!lig->name[0]) snprintf(lig->name, sizeof lig->name, "line %ld", at);
    if (!smiles[0]) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_BAD_SMILES, at, "no SMILES on the line");
        goto done;
    }
    if (c->defer_smiles) defer(c, lig, smiles, at);
    else prepare(c, lig, smiles, at, NULL, 0);
done:
    free(smiles);
    free(name);
    return 1;
}

int vsg_ligand_is_pending(const vsg_ligand *lig)
{
    return lig && lig->status == VSG_OK && !strcmp(lig->code, VSG_LIG_PENDING);
}

vsg_status vsg_ligand_prepare_pending(vsg_ligand *lig, const vsg_ligand_reader_options *opt, vsg_prep_workers *w,
                                      int slot)
{
    if (!lig) return vsg_fail(VSG_E_ARG, "vsg_ligand_prepare_pending: NULL record");
    if (!vsg_ligand_is_pending(lig)) return lig->status;
    vsg_ligand_reader_options o = opt ? *opt : (vsg_ligand_reader_options){.format = VSG_LIG_AUTO};
    vsg_lig_ctx c; /* what the reader's context held for the record's file, rebuilt: read-only here */
    memset(&c, 0, sizeof c);
    c.path = lig->source ? lig->source : "<memory>";
    c.display = strcmp(c.path, "-") ? c.path : "<stdin>";
    c.format = VSG_LIG_SMILES;
    c.keep_text = o.keep_text;
    c.max_atoms = o.max_atoms > 0 ? o.max_atoms : VSG_LIG_MAX_ATOMS_DEFAULT;
    vsg_lig_smiles_options(&o.smiles, c.max_atoms, &c.smi);
    char *smiles = lig->text ? strdup(lig->text) : NULL;
    strcpy(lig->code, VSG_LIG_OK);
    if (!smiles) {
        vsg_lig_failf(&c, lig, VSG_E_NOMEM, VSG_LIG_TOO_MANY, lig->line, "out of memory for the SMILES");
        return lig->status;
    }
    vsg_lig_drop_text(lig);
    prepare(&c, lig, smiles, lig->line, w, slot);
    free(smiles);
    return lig->status;
}
