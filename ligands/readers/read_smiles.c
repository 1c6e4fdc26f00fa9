/* read_smiles.c — one record of a SMILES library: a line "SMILES [name...]" of a .smi/.ism
 * file, or a row of a CSV file with a column named smiles, prepared in 3D (vsgrid.h,
 * "Preparation of SMILES records"; the Open Babel bridge in ligands/prepare/).
 *
 * The prepared molecule comes back as a V2000 molfile, which the SDF record parser reads into
 * the record: a SMILES record is then what a 3D SDF record of the molecule would be (format
 * SDF, its text the molfile), so typing, formal charges and the torsion tree follow the SDF
 * path, and SDF output keeps the prepared molecule. Gasteiger charges are computed here, as
 * `--charges gasteiger` would, and written into the text as an RDKit atom property list, with
 * the preparation's notes as data items.
 *
 * Lines: a .smi/.ism line is the SMILES, blanks, then the name (the rest of the line; "line N"
 * when there is none). Blank lines and lines starting with '#' are no record; neither is a
 * first line whose first word is "smiles" (a header). A CSV file's first line is its header:
 * the SMILES column is the one named smiles (any case), the name the first column named name,
 * id or title; fields may be double-quoted ("" for a quote inside).
 *
 * A reader told to defer (ligand_reader.h) stops after the line's parsing and leaves the
 * preparation, a hundred times the reading's cost, to vsg_ligand_prepare_pending on the
 * caller's threads. */
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
#include "ligands/readers/reader_internal.h"

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

/* The preparation's note for an ok record (lig->message) and the SD data items. */
static void note(const vsg_smiles_prep *p, const vsg_smiles_prep_options *o, char *dst, size_t cap)
{
    size_t k = 0;
    dst[0] = '\0';
    if (p->dropped[0])
        k += (size_t)snprintf(dst + k, cap - k, "kept the largest of %d fragments (dropped %s)", p->fragments,
                              p->dropped);
    if (k < cap && p->unassigned_stereo)
        k += (size_t)snprintf(dst + k, cap - k, "%s%d unassigned stereocentre%s (the 3D builder's configuration)",
                              k ? "; " : "", p->unassigned_stereo, p->unassigned_stereo > 1 ? "s" : "");
    if (k < cap && p->charge_in != p->charge_out)
        k += (size_t)snprintf(dst + k, cap - k, "%snet charge %+d -> %+d at pH %.1f", k ? "; " : "", p->charge_in,
                              p->charge_out, o->ph_mode == VSG_PH_AT ? o->ph : 7.4);
    if (k < cap && !strcmp(p->forcefield, "UFF"))
        snprintf(dst + k, cap - k, "%sminimised with UFF (no MMFF94 parameters)", k ? "; " : "");
}

/* Appends s to the record's text (keep_text); 0 out of memory. */
static int text_add(vsg_ligand *lig, const char *s)
{
    size_t n = strlen(s);
    if (lig->text_len + n + 1 > lig->text_cap) {
        size_t cap = lig->text_cap ? lig->text_cap : 4096;
        while (cap < lig->text_len + n + 1) cap *= 2;
        char *t = realloc(lig->text, cap);
        if (!t) return 0;
        lig->text = t;
        lig->text_cap = cap;
    }
    memcpy(lig->text + lig->text_len, s, n + 1);
    lig->text_len += n;
    return 1;
}

/* The record's text after its "M  END": the charges (RDKit's atom property list, which RDKit
 * and vsgrid's SDF reader both take), the SMILES and the note; then $$$$. */
static void text_items(vsg_ligand *lig, const char *smiles, const vsg_smiles_prep *p, const char *why)
{
    char num[32];
    int ok = text_add(lig, "> <atom.dprop.PartialCharge>\n");
    for (int i = 0; ok && i < lig->natoms; i++) {
        snprintf(num, sizeof num, "%s%.4f", i ? " " : "", lig->atoms[i].charge);
        ok = text_add(lig, num);
    }
    ok = ok && text_add(lig, "\n\n> <vsgrid_smiles>\n") && text_add(lig, smiles) && text_add(lig, "\n\n");
    snprintf(num, sizeof num, "%d", p->unassigned_stereo);
    ok = ok && text_add(lig, "> <vsgrid_unassigned_stereo>\n") && text_add(lig, num) && text_add(lig, "\n\n");
    if (ok && why[0]) ok = text_add(lig, "> <vsgrid_note>\n") && text_add(lig, why) && text_add(lig, "\n\n");
    if (ok) text_add(lig, "$$$$\n");
}

/* Reads the prepared molfile into lig with the SDF parser: 1 ok, else 0 (lig failed). */
static int read_molfile(vsg_lig_ctx *c, vsg_ligand *lig, const char *mol)
{
    vsg_lig_ctx sub;
    const long record = lig->record, line = lig->line;
    char name[sizeof lig->name];
    size_t n = strlen(mol);
    memcpy(name, lig->name, sizeof name);
    memset(&sub, 0, sizeof sub);
    sub.path = c->path;
    sub.display = c->display;
    sub.format = VSG_LIG_SDF;
    sub.keep_text = c->keep_text;
    sub.max_atoms = c->max_atoms;
    sub.src.mem = mol;
    sub.src.mem_len = n;
    sub.src.cap = VSG_LIG_SRC_CHUNK / 4 + n + 2; /* the whole molfile without growing */
    if (!(sub.src.buf = malloc(sub.src.cap))) {
        vsg_lig_failf(c, lig, VSG_E_NOMEM, VSG_LIG_TOO_MANY, line, "out of memory for the prepared molecule");
        return 0;
    }
    vsg_lig_drop_text(lig); /* the record's text becomes the molfile */
    int got = vsg_lig_read_sdf(&sub, lig);
    vsg_lig_src_close(&sub.src);
    free(sub.ids);
    free(sub.join);
    lig->record = record;
    lig->line = line;
    memcpy(lig->name, name, sizeof name);
    if (!got || lig->status != VSG_OK) { /* a molfile of ours that our parser refuses: say so */
        char why[160], code[16];
        snprintf(why, sizeof why, "%.150s", got ? lig->message : "empty");
        snprintf(code, sizeof code, "%s", got ? lig->code : VSG_LIG_EMBED);
        lig->status = VSG_OK;
        vsg_lig_failf(c, lig, VSG_E_DATA, code, line, "the prepared molfile was refused (%s)", why);
        return 0;
    }
    for (int i = 0; i < lig->natoms; i++) lig->atoms[i].line = (int)line; /* the atoms' line is the SMILES's */
    return 1;
}

/* Prepares the record's SMILES (read at line `at`) into lig: the prepared molecule, or lig failed. */
static void prepare(vsg_lig_ctx *c, vsg_ligand *lig, const char *smiles, long at)
{
    vsg_smiles_prep p;
    vsg_status st = vsg_smiles_prepare(smiles, lig->name, &c->smi, &p);
    if (st != VSG_OK) {
        vsg_lig_failf(c, lig, st, p.code, at, "%s", p.why);
        return;
    }
    if (read_molfile(c, lig, p.molfile)) {
        char why[sizeof lig->message];
        st = vsg_ligand_gasteiger(lig);
        if (st != VSG_OK) {
            vsg_lig_failf(c, lig, st, VSG_LIG_NO_CHARGES, at, "no Gasteiger charges: %s", vsg_last_error());
        } else {
            lig->has_charges = 1; /* the preparation's: as if the file had them */
            note(&p, &c->smi, why, sizeof why);
            if (c->keep_text) {
                /* the parser kept the molfile through M  END: the items and $$$$ follow it */
                text_items(lig, smiles, &p, why);
            }
            snprintf(lig->message, sizeof lig->message, "%s", why);
        }
    }
    vsg_smiles_prep_free(&p);
}

/* A record left for vsg_ligand_prepare_pending: parsed, not prepared; its SMILES is its text. */
static void defer(vsg_lig_ctx *c, vsg_ligand *lig, const char *smiles, long at)
{
    vsg_lig_drop_text(lig);
    if (!text_add(lig, smiles)) {
        vsg_lig_failf(c, lig, VSG_E_NOMEM, VSG_LIG_TOO_MANY, at, "out of memory for the SMILES");
        return;
    }
    snprintf(lig->code, sizeof lig->code, "%s", VSG_LIG_PENDING);
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
    else prepare(c, lig, smiles, at);
done:
    free(smiles);
    free(name);
    return 1;
}

int vsg_ligand_is_pending(const vsg_ligand *lig)
{
    return lig && lig->status == VSG_OK && !strcmp(lig->code, VSG_LIG_PENDING);
}

vsg_status vsg_ligand_prepare_pending(vsg_ligand *lig, const vsg_ligand_reader_options *opt)
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
    c.max_atoms = o.max_atoms > 0 ? o.max_atoms : 100000;
    c.smi.ph_mode = o.smiles.ph_mode;
    c.smi.ph = o.smiles.ph;
    c.smi.stereo = o.smiles.stereo;
    c.smi.min_steps = o.smiles.min_steps;
    c.smi.max_atoms = c.max_atoms;
    char *smiles = lig->text ? strdup(lig->text) : NULL;
    strcpy(lig->code, VSG_LIG_OK);
    if (!smiles) {
        vsg_lig_failf(&c, lig, VSG_E_NOMEM, VSG_LIG_TOO_MANY, lig->line, "out of memory for the SMILES");
        return lig->status;
    }
    vsg_lig_drop_text(lig);
    prepare(&c, lig, smiles, lig->line);
    free(smiles);
    return lig->status;
}
