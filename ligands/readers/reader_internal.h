/* reader_internal.h — what the ligand reader (ligand_reader.c) shares with the record parsers
 * of each format (read_sdf.c, read_mol2_lib.c, read_pdbqt_lib.c, read_pdb_lib.c): the per-file
 * parse context over its line source (line_source.h), the record helpers (record_helpers.c)
 * and a fast strict number parser. Not a public header. */
#ifndef VSG_READER_INTERNAL_H
#define VSG_READER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/ligand.h"
#include "ligands/prepare/smiles_prepare.h"
#include "ligands/readers/line_source.h"

typedef struct {
    vsg_lig_src src;
    const char *path;         /* as given ("-" for standard input) */
    const char *display;      /* for messages ("<stdin>" for "-") */
    char base[96];            /* file name without folders and extensions, for fallback names */
    vsg_ligand_format format;
    int keep_text, max_atoms;
    long record;              /* records started in this file */
    size_t text_mark;         /* lig->text_len before the last line was appended (for unread) */
    char file_name[128];      /* PDB/PDBQT: a name given outside any MODEL */
    int file_name_rank;       /* 2 "REMARK  Name =", 1 COMPND, 0 none */
    int *ids;                 /* SDF V3000: atom ids as written */
    int ids_cap;
    char *join;               /* SDF V3000: a logical line joined from continuations */
    size_t join_cap;
    vsg_smiles_prep_options smi; /* SMILES/CSV: how records are prepared */
    int csv_state;            /* CSV: 0 header not read, 1 read */
    int csv_smiles, csv_name; /* CSV: 0-based columns of the SMILES and the name (-1: none) */
    int defer_smiles;         /* SMILES/CSV: records left pending (vsg_ligand_reader_defer_smiles) */
} vsg_lig_ctx;

/* ---- the record's input ---------------------------------------------------------------- */

/* Marks lig as failed by the input error of the source (status io, overriding a parse error). */
void vsg_lig_fail_input(vsg_lig_ctx *c, vsg_ligand *lig);

/* Next line of the file, NUL-terminated, without its end of line; the pointer is valid until the
 * next call. Appends it to lig->text when keeping text. 1 line, 0 end of file, <0 input error
 * (lig is then marked io: the caller just ends the record). */
static inline int vsg_lig_next(vsg_lig_ctx *c, vsg_ligand *lig, char **line, size_t *len)
{
    vsg_lig_src *s = &c->src;
    int r;
    if (s->pushed) {
        s->pushed = 0;
        *line = s->last;
        *len = s->last_len;
        s->line++;
        r = 1;
    } else {
        char *p = s->buf + s->pos;
        char *nl = s->pos < s->end ? memchr(p, '\n', s->end - s->pos) : NULL;
        if (nl) {
            size_t n = (size_t)(nl - p);
            s->pos += n + 1;
            if (n > 0 && p[n - 1] == '\r') n--;
            p[n] = '\0';
            *line = p;
            *len = n;
            s->line++;
            r = 1;
        } else {
            r = vsg_lig_src_slow(s, line, len);
        }
        if (r == 1) s->last = *line, s->last_len = *len;
    }
    if (r == 1 && c->keep_text) {
        size_t need = lig->text_len + *len + 2;
        c->text_mark = lig->text_len;
        if (need > lig->text_cap) {
            size_t cap = lig->text_cap ? lig->text_cap : 4096;
            char *t;
            while (cap < need) cap *= 2;
            t = realloc(lig->text, cap);
            if (!t) return 1; /* text is a convenience: the record itself goes on */
            lig->text = t;
            lig->text_cap = cap;
        }
        memcpy(lig->text + lig->text_len, *line, *len);
        lig->text_len += *len;
        lig->text[lig->text_len++] = '\n';
        lig->text[lig->text_len] = '\0';
    }
    if (r < 0) vsg_lig_fail_input(c, lig);
    return r;
}

/* Hands the line last returned out again on the next call (it belongs to the next record). */
static inline void vsg_lig_unread(vsg_lig_ctx *c, vsg_ligand *lig)
{
    c->src.pushed = 1;
    c->src.line--;
    if (c->keep_text && lig->text_len > c->text_mark) {
        lig->text_len = c->text_mark;
        if (lig->text) lig->text[lig->text_len] = '\0';
    }
}

/* Forgets the text kept so far (lines that belong to no record). */
static inline void vsg_lig_drop_text(vsg_ligand *lig)
{
    lig->text_len = 0;
    if (lig->text) lig->text[0] = '\0';
}

/* ---- records ---------------------------------------------------------------------------- */

/* Starts a record at the line last read: counts it, sets record/line, clears the content. */
void vsg_lig_begin(vsg_lig_ctx *c, vsg_ligand *lig);
/* Marks lig failed (first failure wins) with "path:line: record N (name): what". */
void vsg_lig_failf(vsg_lig_ctx *c, vsg_ligand *lig, vsg_status st, const char *code, long line,
                   const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/* Room for n atoms / bonds (VSG_E_NOMEM marks the record failed). */
int vsg_lig_reserve_atoms(vsg_lig_ctx *c, vsg_ligand *lig, int n);
int vsg_lig_reserve_bonds(vsg_lig_ctx *c, vsg_ligand *lig, int n);
/* Name from a field: trimmed, control characters as blanks, cut to fit. */
void vsg_lig_set_name(char *dst, size_t cap, const char *s, size_t n);
/* Element symbol from text ("CL" or "cl" → "Cl"); "" when it is no element. */
void vsg_lig_element(char el[3], const char *s, size_t n);
/* Copies a trimmed field into a small fixed buffer. */
void vsg_lig_copy_field(char *dst, size_t cap, const char *s, size_t n);
/* A coordinate or charge field that failed to parse: 1 when it is NaN/inf (bad_coord), else 0. */
int vsg_lig_is_nonfinite(const char *s, size_t n);
/* Fails lig for the coordinate field (bad_coord for NaN/inf, parse otherwise). */
void vsg_lig_bad_number(vsg_lig_ctx *c, vsg_ligand *lig, long line, const char *what, const char *s,
                        size_t n);
/* "x", "y" or "z" */
static inline const char *vsg_lig_axis(int i) { return i == 0 ? "x" : i == 1 ? "y" : "z"; }

/* The record parsers: 1 with a record in lig (maybe failed), 0 when the file has no more. */
int vsg_lig_read_sdf(vsg_lig_ctx *c, vsg_ligand *lig);
int vsg_lig_read_mol2(vsg_lig_ctx *c, vsg_ligand *lig);
int vsg_lig_read_pdbqt(vsg_lig_ctx *c, vsg_ligand *lig);
int vsg_lig_read_pdb(vsg_lig_ctx *c, vsg_ligand *lig);
int vsg_lig_read_smiles(vsg_lig_ctx *c, vsg_ligand *lig); /* SMILES and CSV (read_smiles.c) */
/* Records with more atoms fail too_many_atoms when the options say 0. */
#define VSG_LIG_MAX_ATOMS_DEFAULT 100000
/* The SMILES preparation's options from the reader's (record_helpers.c): one mapping for the
 * reader's own contexts and for records prepared apart (vsg_ligand_prepare_pending). */
void vsg_lig_smiles_options(const vsg_smiles_options *s, int max_atoms, vsg_smiles_prep_options *out);
/* Makes lig (its name, record and line set) the record of that SMILES, read at line `at`:
 * prepared, or pending when the reader defers (read_smiles.c; a 2D SDF record, read_sdf.c). */
void vsg_lig_smiles_into(vsg_lig_ctx *c, vsg_ligand *lig, const char *smiles, long at);

/* A SMILES or CSV line is a record unless it is blank, a comment ('#' first), the CSV header
 * (line 1), or a first line whose first word is "smiles" (any case: a .smi file's header).
 * Shared by the parser and the splitter so that both count alike. */
static inline int vsg_lig_smiles_is_record(vsg_ligand_format f, long lineno, const char *l, size_t n)
{
    size_t i = 0;
    while (i < n && (l[i] == ' ' || l[i] == '\t')) i++;
    if (i == n || l[i] == '#') return 0;
    if (lineno == 1) {
        static const char w[] = "smiles";
        size_t k;
        if (f == VSG_LIG_CSV) return 0;
        for (k = 0; k < 6 && i + k < n && (l[i + k] | 0x20) == w[k]; k++) {}
        if (k == 6 && (i + 6 == n || l[i + 6] == ' ' || l[i + 6] == '\t')) return 0;
    }
    return 1;
}

/* PDB and PDBQT records (read_pdb_lib.c): MODEL/ENDMDL, END (and, for PDBQT outside a MODEL,
 * TORSDOF) delimit records; parse_atom reads one ATOM/HETATM line into lig->atoms[natoms]
 * (room reserved) and increments natoms, or marks lig failed and returns 0. */
typedef int (*vsg_lig_atom_fn)(vsg_lig_ctx *c, vsg_ligand *lig, const char *line, size_t len);
int vsg_lig_read_models(vsg_lig_ctx *c, vsg_ligand *lig, vsg_lig_atom_fn parse_atom, int torsdof_ends);
/* The x, y, z columns (31-54) of a PDB/PDBQT ATOM/HETATM line; 0 (the record failed with a
 * message) when the line is short or a number is malformed. */
int vsg_lig_pdb_coords(vsg_lig_ctx *c, vsg_ligand *lig, const char *line, size_t len, double v[3]);
/* The same structure one line at a time (for the splitter): ends_before when the record open
 * ends before this line (MODEL; step the line again), ends_after when it ends with it; names
 * given outside any record are tracked as the parser tracks them (ctx file_name). */
typedef struct {
    int open, in_model;
    char file_name[128];
    int file_name_rank;
} vsg_lig_models_state;
void vsg_lig_models_step(vsg_lig_models_state *st, const char *line, size_t len, int torsdof_ends, int *ends_before,
                         int *ends_after);

/* ---- numbers ---------------------------------------------------------------------------- */

int vsg_parse_double(const char *s, size_t len, double *out); /* grids/base/textio.h */

/* Strict decimal parser for fixed-format fields ("  -12.3456"): the common plain form in one
 * pass, exactly rounded like strtod (one division of exact values); anything else (exponents,
 * long mantissas) goes to vsg_parse_double. 1 ok, 0 not a finite number. */
static inline int vsg_lig_double(const char *s, size_t n, double *out)
{
    static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
                                 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const char *p = s, *e = s + n;
    uint64_t m = 0;
    int digits = 0, frac = 0, neg = 0;
    while (p < e && *p == ' ') p++;
    while (e > p && e[-1] == ' ') e--;
    if (p < e && (*p == '-' || *p == '+')) neg = *p++ == '-';
    for (; p < e && (unsigned)(*p - '0') < 10u; p++) m = m * 10 + (uint64_t)(*p - '0'), digits++;
    if (p < e && *p == '.')
        for (p++; p < e && (unsigned)(*p - '0') < 10u; p++) m = m * 10 + (uint64_t)(*p - '0'), digits++, frac++;
    if (p != e || digits == 0 || digits > 15) return vsg_parse_double(s, n, out);
    *out = frac ? (double)m / p10[frac] : (double)m;
    if (neg) *out = -*out;
    return 1;
}

/* The coordinates of atom lig->natoms + 1 from the fields s[0..2] (n[i] characters each): 1, or
 * 0 after failing the record with "bad x coordinate of atom N: '...'". */
static inline int vsg_lig_atom_xyz(vsg_lig_ctx *c, vsg_ligand *lig, const char *const *s, const size_t *n,
                                   double v[3])
{
    for (int i = 0; i < 3; i++)
        if (!vsg_lig_double(s[i], n[i], &v[i])) {
            char what[48];
            snprintf(what, sizeof what, "%s coordinate of atom %d", vsg_lig_axis(i), lig->natoms + 1);
            vsg_lig_bad_number(c, lig, c->src.line, what, s[i], n[i]);
            return 0;
        }
    return 1;
}

/* Strict integer of a fixed field (blanks around allowed). 1 ok, 0 bad. */
static inline int vsg_lig_int(const char *s, size_t n, int *out)
{
    const char *p = s, *e = s + n;
    int neg = 0, digits = 0;
    long v = 0;
    while (p < e && *p == ' ') p++;
    while (e > p && e[-1] == ' ') e--;
    if (p < e && (*p == '-' || *p == '+')) neg = *p++ == '-';
    for (; p < e && (unsigned)(*p - '0') < 10u; p++) {
        v = v * 10 + (*p - '0');
        if (++digits > 9) return 0;
    }
    if (p != e || digits == 0) return 0;
    *out = (int)(neg ? -v : v);
    return 1;
}

/* Blank-separated fields of a line (pointers into it); returns the count (max stored). */
static inline int vsg_lig_fields(const char *s, size_t n, const char **f, size_t *fl, int max)
{
    size_t i = 0;
    int k = 0;
    while (i < n) {
        size_t b;
        while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
        if (i >= n) break;
        b = i;
        while (i < n && s[i] != ' ' && s[i] != '\t') i++;
        if (k < max) f[k] = s + b, fl[k] = i - b;
        k++;
    }
    return k;
}

static inline int vsg_lig_blank(const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t') return 0;
    return 1;
}

/* Record boundaries, shared by the parsers and the splitter so that both cut alike:
 * an SDF record ends with its "$$$$" line, a MOL2 record starts at "@<TRIPOS>MOLECULE". */
static inline int vsg_lig_is_sdf_end(const char *l, size_t n)
{
    return n >= 4 && memcmp(l, "$$$$", 4) == 0 && vsg_lig_blank(l + 4, n - 4);
}
static inline int vsg_lig_is_mol2_start(const char *l, size_t n)
{
    return n >= 17 && memcmp(l, "@<TRIPOS>MOLECULE", 17) == 0 && vsg_lig_blank(l + 17, n - 17);
}

/* 1 if the line starts with `word` followed by a blank or nothing. */
static inline int vsg_lig_is(const char *line, size_t len, const char *word, size_t wn)
{
    return len >= wn && memcmp(line, word, wn) == 0 && (len == wn || line[wn] == ' ' || line[wn] == '\t');
}

#endif
