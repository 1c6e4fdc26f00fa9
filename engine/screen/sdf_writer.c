/* sdf_writer.c — SDF output that keeps the input molecule: an SDF record goes out as it was
 * read, with vsgrid's data items added before its "$$$$"; a MOL2/PDBQT/PDB record becomes a
 * V2000 molfile (atoms, bonds, formal charges) with the same items; then the charges and
 * AutoDock types as RDKit's atom property lists. Also CSV quoting, the rigid
 * move of a record (atoms and SDF text) for placed poses, and the rigid PDBQT pose writer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "engine/screen/screen.h"
#include "engine/screen/molfile_chemistry.h"

void vsg_csv_field(FILE *f, const char *s)
{
    if (!s) return;
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Start of the record's final "$$$$" line in text[0..n), or n when there is none. */
static size_t terminator_at(const char *text, size_t n)
{
    size_t end = n;
    /* skip trailing line breaks and blanks */
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r' || text[end - 1] == ' ')) end--;
    if (end >= 4 && memcmp(text + end - 4, "$$$$", 4) == 0 && (end == 4 || text[end - 5] == '\n'))
        return end - 4;
    return n;
}

static void write_tags(FILE *f, const vsg_sdf_tag *tags, int ntags)
{
    for (int i = 0; i < ntags; i++) fprintf(f, "> <vsgrid_%s>\n%s\n\n", tags[i].name, tags[i].value);
}

/* A V2000 molfile for a record that was not SDF (or has no text): element symbols and formal
 * charges as molfile_chemistry.c gives them (a MOL2 record's carboxylates, ammoniums and
 * pyridiniums charged), so that RDKit sanitises it. V2000 holds at most 999 atoms and bonds:
 * larger molecules are refused (VSG_E_LIMIT). */
static vsg_status write_v2000(FILE *f, const vsg_ligand *rec)
{
    if (rec->natoms > 999 || rec->nbonds > 999) /* (bonds inferred below are checked again) */
        return vsg_fail(VSG_E_LIMIT, "%s: record %ld: %d atoms, %d bonds: too many for a V2000 molfile",
                        rec->source ? rec->source : "?", rec->record, rec->natoms, rec->nbonds);
    /* formal charges (and a carboxylate's bond orders) go on a copy: the record stays as read */
    vsg_ligand c = *rec, *lig = &c;
    c.atoms = malloc(sizeof *c.atoms * (size_t)(rec->natoms > 0 ? rec->natoms : 1));
    c.bonds = malloc(sizeof *c.bonds * (size_t)(rec->nbonds > 0 ? rec->nbonds : 1));
    if (!c.atoms || !c.bonds) {
        free(c.atoms), free(c.bonds);
        return vsg_fail(VSG_E_NOMEM, "SDF writer: out of memory");
    }
    if (rec->natoms) memcpy(c.atoms, rec->atoms, sizeof *c.atoms * (size_t)rec->natoms);
    if (rec->nbonds) memcpy(c.bonds, rec->bonds, sizeof *c.bonds * (size_t)rec->nbonds);
    c.bonds_cap = rec->nbonds;
    vsg_status st = rec->format == VSG_LIG_PDBQT || (rec->format == VSG_LIG_PDB && rec->nbonds == 0)
                        ? vsg_molfile_complete_bonds(&c) /* PDBQT has no bonds: a molfile needs them, with orders */
                        : VSG_OK;
    if (st != VSG_OK) {
        free(c.atoms), free(c.bonds);
        return st;
    }
    if (rec->format != VSG_LIG_SDF) vsg_molfile_infer_formal(&c);
    char name[81];
    snprintf(name, sizeof name, "%.80s", lig->name);
    for (char *ch = name; *ch; ch++)
        if (*ch == '\n' || *ch == '\r') *ch = ' ';
    fprintf(f, "%s\n  vsgrid          3D\n%s record %ld\n", name, vsg_ligand_format_name(lig->format), lig->record);
    if (lig->nbonds > 999) {
        free(c.atoms), free(c.bonds);
        return vsg_fail(VSG_E_LIMIT, "%s: record %ld: %d bonds: too many for a V2000 molfile", rec->source ? rec->source : "?",
                        rec->record, lig->nbonds);
    }
    fprintf(f, "%3d%3d  0  0  0  0  0  0  0  0999 V2000\n", lig->natoms, lig->nbonds);
    int ncharged = 0;
    for (int i = 0; i < lig->natoms; i++) {
        const vsg_lig_atom *a = &lig->atoms[i];
        char el[4];
        fprintf(f, "%10.4f%10.4f%10.4f %-3s 0  0  0  0  0  0  0  0  0  0  0  0\n", a->x, a->y, a->z,
                vsg_molfile_element(a, el));
        ncharged += a->formal != 0;
    }
    for (int i = 0; i < lig->nbonds; i++) {
        const vsg_lig_bond *b = &lig->bonds[i];
        int order = b->order == VSG_BOND_AROMATIC ? 4 : b->order == VSG_BOND_AMIDE ? 1 : b->order;
        if (order < 1 || order > 4) order = 1;
        fprintf(f, "%3d%3d%3d  0\n", b->a + 1, b->b + 1, order);
    }
    /* formal charges, at most 8 per M  CHG line */
    for (int i = 0, done = 0; done < ncharged;) {
        int line = ncharged - done < 8 ? ncharged - done : 8;
        fprintf(f, "M  CHG%3d", line);
        for (int k = 0; k < line; i++) {
            if (lig->atoms[i].formal == 0) continue;
            fprintf(f, " %3d %3d", i + 1, lig->atoms[i].formal);
            k++;
        }
        fputc('\n', f);
        done += line;
    }
    fputs("M  END\n", f);
    free(c.atoms), free(c.bonds);
    return VSG_OK;
}

/* Atoms of the molfile at the start of an SDF record's text (V2000 counts line; V3000 COUNTS), −1 when unknown. */
static int text_atoms(const char *t, size_t n)
{
    size_t i = 0;
    for (int line = 0; line < 3 && i < n; i++)
        if (t[i] == '\n') line++;
    if (i + 3 > n) return -1;
    char buf[4] = {t[i], t[i + 1], t[i + 2], 0};
    int v = atoi(buf);
    if (i + 39 <= n && !memcmp(t + i + 34, "V3000", 5)) {
        for (size_t k = i; k + 16 < n; k++)
            if (!memcmp(t + k, "M  V30 COUNTS ", 14)) return atoi(t + k + 14);
        return -1;
    }
    return v;
}

static int has_item(const char *t, size_t n, const char *key)
{
    const size_t kl = strlen(key);
    for (size_t i = 0; i + kl <= n; i++)
        if (t[i] == '<' && !memcmp(t + i, key, kl)) return 1;
    return 0;
}

/* Which molfile atom each of the record's atoms is, for a V2000 record whose non-polar hydrogens
 * were merged for scoring (fewer atoms than its molfile): an atom's line in the file less the
 * record's first line and its 4 header lines. idx gets n entries; 0 when the lines do not give
 * increasing atoms of the molfile (then the lists are left out). */
static int molfile_index(const vsg_ligand *lig, int ntext, int *idx)
{
    size_t i = 0;
    for (int line = 0; line < 3 && i < lig->text_len; i++)
        if (lig->text[i] == '\n') line++;
    if (i + 39 > lig->text_len || memcmp(lig->text + i + 34, "V2000", 5)) return 0;
    for (int k = 0; k < lig->natoms; k++) {
        idx[k] = (int)(lig->atoms[k].line - lig->line - 4);
        if (idx[k] < 0 || idx[k] >= ntext || (k && idx[k] <= idx[k - 1])) return 0;
    }
    return 1;
}

/* RDKit's atom property lists (atom.dprop.PartialCharge, atom.prop.AutoDockType): the charges the
 * record was scored with and its AutoDock types, in the molfile's atom order. When its non-polar
 * hydrogens were merged for scoring, each carbon carries its hydrogens' charge (as scored) and the
 * hydrogens 0 and type H, so the list still covers every atom and sums to the molecule's charge.
 * Left out when the input already has the item, the record has no charges / untyped atoms, or its
 * atoms cannot be matched to the molfile's. */
static void write_atom_lists(FILE *f, const vsg_ligand *lig, int from_text)
{
    if (lig->natoms < 1) return;
    const int ntext = from_text ? text_atoms(lig->text, lig->text_len) : lig->natoms;
    if (ntext < lig->natoms) return;
    int *idx = malloc(sizeof *idx * (size_t)lig->natoms);
    if (!idx) return;
    int ok = 1;
    if (ntext == lig->natoms)
        for (int k = 0; k < lig->natoms; k++) idx[k] = k;
    else
        ok = molfile_index(lig, ntext, idx);
    int charged = lig->has_charges, typed = 1;
    for (int i = 0; i < lig->natoms; i++) charged |= lig->atoms[i].charge != 0.0, typed &= lig->atoms[i].ad_type[0] != 0;
    if (ok && charged && !(from_text && has_item(lig->text, lig->text_len, "<atom.dprop.PartialCharge>"))) {
        fputs("> <atom.dprop.PartialCharge>\n", f);
        for (int i = 0, k = 0; i < ntext; i++) {
            const int here = k < lig->natoms && idx[k] == i;
            fprintf(f, "%s%.6g", i ? " " : "", here ? lig->atoms[k].charge : 0.0);
            k += here;
        }
        fputs("\n\n", f);
    }
    if (ok && typed && !(from_text && has_item(lig->text, lig->text_len, "<atom.prop.AutoDockType>"))) {
        fputs("> <atom.prop.AutoDockType>\n", f);
        for (int i = 0, k = 0; i < ntext; i++) {
            const int here = k < lig->natoms && idx[k] == i;
            fprintf(f, "%s%s", i ? " " : "", here ? lig->atoms[k].ad_type : "H");
            k += here;
        }
        fputs("\n\n", f);
    }
    free(idx);
}

vsg_status vsg_sdf_write_record(FILE *f, const vsg_ligand *lig, const vsg_sdf_tag *tags, int ntags)
{
    if (!f || !lig) return vsg_fail(VSG_E_ARG, "SDF writer: NULL file or molecule");
    if (lig->format == VSG_LIG_SDF && lig->text && lig->text_len > 0) {
        size_t cut = terminator_at(lig->text, lig->text_len);
        fwrite(lig->text, 1, cut, f);
        if (cut > 0 && lig->text[cut - 1] != '\n') fputc('\n', f);
        /* the data items of the input stay; ours follow them */
    } else {
        vsg_status st = write_v2000(f, lig);
        if (st != VSG_OK) return st;
    }
    write_tags(f, tags, ntags);
    write_atom_lists(f, lig, lig->format == VSG_LIG_SDF && lig->text && lig->text_len > 0);
    fputs("$$$$\n", f);
    return ferror(f) ? vsg_fail(VSG_E_IO, "SDF writer: write error") : VSG_OK;
}

/* ---- placed poses ------------------------------------------------------------------------- */

typedef struct {
    char *p;
    size_t n, cap;
    int ok;
} text_buf;

static void put(text_buf *b, const char *s, size_t n)
{
    if (!b->ok) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->n + n + 1) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->ok = 0;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void move_point(const double m[9], const double t[3], const double x[3], double out[3])
{
    for (int d = 0; d < 3; d++) out[d] = m[3 * d] * x[0] + m[3 * d + 1] * x[1] + m[3 * d + 2] * x[2] + t[d];
}

/* A fixed-width number of the V2000 atom block, strictly (blanks around it allowed). */
static int fixed_number(const char *s, int width, double *v)
{
    char buf[16];
    memcpy(buf, s, (size_t)width);
    buf[width] = '\0';
    char *end;
    *v = strtod(buf, &end);
    if (end == buf) return 0;
    while (*end == ' ') end++;
    return *end == '\0' && isfinite(*v);
}

/* The record's molfile text with every atom coordinate moved; 0 when it does not parse. */
static int move_text(const vsg_ligand *lig, const double m[9], const double t[3], text_buf *out)
{
    const char *s = lig->text, *end = lig->text + lig->text_len;
    int line = 0, v3000 = 0, in_atoms = 0, molfile_done = 0;
    long v2000_atoms = 0;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *le = nl ? nl + 1 : end; /* line with its break */
        size_t len = (size_t)(le - s), body = len;
        while (body > 0 && (s[body - 1] == '\n' || s[body - 1] == '\r')) body--;
        if (!molfile_done && line == 3) {
            if (body < 6) return 0;
            v3000 = strstr(s, "V3000") != NULL && (size_t)(strstr(s, "V3000") - s) < body;
            if (!v3000) {
                char cnt[4] = {s[0], s[1], s[2], '\0'};
                v2000_atoms = strtol(cnt, NULL, 10);
                if (v2000_atoms < 0) return 0;
            }
            put(out, s, len);
        } else if (!molfile_done && !v3000 && line >= 4 && line < 4 + v2000_atoms) {
            double x[3], y[3];
            if (body < 30 || !fixed_number(s, 10, &x[0]) || !fixed_number(s + 10, 10, &x[1]) ||
                !fixed_number(s + 20, 10, &x[2]))
                return 0;
            move_point(m, t, x, y);
            char num[64];
            int k = snprintf(num, sizeof num, "%10.4f%10.4f%10.4f", y[0], y[1], y[2]);
            if (k != 30) return 0; /* a coordinate beyond the V2000 field width */
            put(out, num, 30);
            put(out, s + 30, len - 30);
        } else if (!molfile_done && v3000 && body >= 17 && !strncmp(s, "M  V30 BEGIN ATOM", 17)) {
            in_atoms = 1;
            put(out, s, len);
        } else if (!molfile_done && v3000 && body >= 15 && !strncmp(s, "M  V30 END ATOM", 15)) {
            in_atoms = 0;
            put(out, s, len);
        } else if (!molfile_done && in_atoms) {
            char idx[32], type[64];
            double x[3], y[3];
            int used = 0;
            char lb[512];
            if (body >= sizeof lb || body < 7 || strncmp(s, "M  V30 ", 7)) return 0;
            memcpy(lb, s, body);
            lb[body] = '\0';
            if (sscanf(lb + 7, "%31s %63s %lf %lf %lf%n", idx, type, &x[0], &x[1], &x[2], &used) != 5) return 0;
            move_point(m, t, x, y);
            char head[192];
            int k = snprintf(head, sizeof head, "M  V30 %s %s %.4f %.4f %.4f", idx, type, y[0], y[1], y[2]);
            if (k < 0 || (size_t)k >= sizeof head) return 0;
            put(out, head, (size_t)k);
            put(out, s + 7 + used, len - 7 - (size_t)used);
        } else {
            if (line >= 3 && body >= 6 && !strncmp(s, "M  END", 6)) molfile_done = 1;
            put(out, s, len);
        }
        line++;
        s = le;
    }
    return molfile_done && out->ok;
}

void vsg_ligand_move(vsg_ligand *lig, const double m[9], const double t[3])
{
    for (int i = 0; i < lig->natoms; i++) {
        vsg_lig_atom *a = &lig->atoms[i];
        double x[3] = {a->x, a->y, a->z}, y[3];
        move_point(m, t, x, y);
        a->x = y[0];
        a->y = y[1];
        a->z = y[2];
    }
    if (lig->format != VSG_LIG_SDF || !lig->text || lig->text_len == 0) return;
    text_buf b = {NULL, 0, 0, 1};
    if (move_text(lig, m, t, &b)) { /* the record owns the new text (ligand.c frees text) */
        free(lig->text);
        lig->text = b.p;
        lig->text_len = b.n;
        lig->text_cap = b.cap;
        return;
    }
    free(b.p);
    lig->text_len = 0; /* unparsable: the V2000 fallback writes the moved atoms */
}

vsg_status vsg_pdbqt_write_record(FILE *f, const vsg_ligand *lig, long model, const vsg_sdf_tag *tags, int ntags)
{
    if (!f || !lig) return vsg_fail(VSG_E_ARG, "PDBQT writer: NULL file or molecule");
    if (lig->natoms > 99999)
        return vsg_fail(VSG_E_LIMIT, "PDBQT writer: %d atoms, more than a PDBQT serial holds", lig->natoms);
    fprintf(f, "MODEL %8ld\n", model);
    char name[129];
    snprintf(name, sizeof name, "%s", lig->name);
    for (char *c = name; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    fprintf(f, "REMARK  Name = %s\n", name);
    fprintf(f, "REMARK  vsgrid source = %s record %ld\n", lig->source ? lig->source : "?", lig->record);
    for (int i = 0; i < ntags; i++) fprintf(f, "REMARK  vsgrid %s = %s\n", tags[i].name, tags[i].value);
    fputs("ROOT\n", f);
    for (int i = 0; i < lig->natoms; i++) {
        const vsg_lig_atom *a = &lig->atoms[i];
        const char *type = a->ad_type[0] ? a->ad_type : a->element[0] ? a->element : "C";
        char an[8];
        if (a->name[0]) snprintf(an, sizeof an, "%.4s", a->name);
        else snprintf(an, sizeof an, "%.2s%d", type, (i + 1) % 100);
        /* PDB convention: names shorter than 4 characters start in column 14 */
        char col[12];
        snprintf(col, sizeof col, strlen(an) < 4 ? " %-3s" : "%-4s", an);
        fprintf(f, "ATOM  %5d %-4s LIG L   1    %8.3f%8.3f%8.3f  1.00  0.00    %6.3f %-2s\n", i + 1, col, a->x, a->y,
                a->z, a->charge, type);
    }
    fputs("ENDROOT\nTORSDOF 0\nENDMDL\n", f);
    return ferror(f) ? vsg_fail(VSG_E_IO, "PDBQT writer: write error") : VSG_OK;
}
