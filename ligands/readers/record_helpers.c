/* record_helpers.c — what every format parser does to a record: number it, fail it with the
 * file, line and record in the message, grow its arrays, copy its name and fields, read its
 * element symbols and tell a non-finite number from a malformed one (reader_internal.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "ligands/readers/reader_internal.h"

void vsg_lig_begin(vsg_lig_ctx *c, vsg_ligand *lig)
{
    lig->record = ++c->record;
    lig->line = c->src.line > 0 ? c->src.line : 1;
}

void vsg_lig_failf(vsg_lig_ctx *c, vsg_ligand *lig, vsg_status st, const char *code, long line,
                   const char *fmt, ...)
{
    char what[224];
    va_list ap;
    if (lig->status != VSG_OK) return; /* the first failure is the one to fix */
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (lig->name[0])
        vsg_ligand_fail(lig, st, code, "%s:%ld: record %ld (%.40s): %s", c->display, line, lig->record,
                        lig->name, what);
    else
        vsg_ligand_fail(lig, st, code, "%s:%ld: record %ld: %s", c->display, line, lig->record, what);
}

void vsg_lig_fail_input(vsg_lig_ctx *c, vsg_ligand *lig)
{
    vsg_status st = c->src.err ? c->src.err : VSG_E_IO;
    if (lig->record == 0) {
        lig->record = ++c->record;
        lig->line = c->src.line + 1;
    }
    lig->status = VSG_OK; /* a broken input outranks what it broke */
    vsg_lig_failf(c, lig, st, st == VSG_E_FORMAT ? VSG_LIG_PARSE : VSG_LIG_IO, c->src.line + 1, "%s",
                  c->src.err_msg[0] ? c->src.err_msg : "read error");
}

static int grow(void **buf, int *cap, int n, size_t sz)
{
    int c;
    void *p;
    if (n <= *cap) return 1;
    c = *cap > 0 ? *cap : 64;
    while (c < n) c = c > (1 << 28) ? n : c * 2;
    p = realloc(*buf, (size_t)c * sz);
    if (!p) return 0;
    *buf = p;
    *cap = c;
    return 1;
}

int vsg_lig_reserve_atoms(vsg_lig_ctx *c, vsg_ligand *lig, int n)
{
    if (grow((void **)&lig->atoms, &lig->atoms_cap, n, sizeof *lig->atoms)) return 1;
    vsg_lig_failf(c, lig, VSG_E_NOMEM, VSG_LIG_TOO_MANY, c->src.line, "out of memory for %d atoms", n);
    return 0;
}

int vsg_lig_reserve_bonds(vsg_lig_ctx *c, vsg_ligand *lig, int n)
{
    if (grow((void **)&lig->bonds, &lig->bonds_cap, n, sizeof *lig->bonds)) return 1;
    vsg_lig_failf(c, lig, VSG_E_NOMEM, VSG_LIG_TOO_MANY, c->src.line, "out of memory for %d bonds", n);
    return 0;
}

void vsg_lig_set_name(char *dst, size_t cap, const char *s, size_t n)
{
    size_t i;
    while (n > 0 && (*s == ' ' || *s == '\t')) s++, n--;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (n > cap - 1) n = cap - 1;
    for (i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        dst[i] = ch < 0x20 || ch == 0x7f ? ' ' : (char)ch;
    }
    dst[n] = '\0';
}

void vsg_lig_copy_field(char *dst, size_t cap, const char *s, size_t n)
{
    while (n > 0 && (*s == ' ' || *s == '\t')) s++, n--;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (n > cap - 1) n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

void vsg_lig_element(char el[3], const char *s, size_t n)
{
    /* every element symbol, as "Xx" pairs ("H " for one letter) */
    static const char table[] =
        "H HeLiBeB C N O F NeNaMgAlSiP S ClArK CaScTiV CrMnFeCoNiCuZnGaGeAsSeBrKrRbSrY ZrNbMo"
        "TcRuRhPdAgCdInSnSbTeI XeCsBaLaCePrNdPmSmEuGdTbDyHoErTmYbLuHfTaW ReOsIrPtAuHgTlPbBiPo"
        "AtRnFrRaAcThPaU NpPuAmCmBkCfEsFmMdNoLrRfDbSgBhHsMtDsRgCnNhFlMcLvTsOg";
    char a, b;
    size_t i;
    while (n > 0 && (*s == ' ' || *s == '\t')) s++, n--;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    el[0] = '\0';
    if (n == 0 || n > 2) return;
    a = s[0] >= 'a' && s[0] <= 'z' ? (char)(s[0] - 32) : s[0];
    b = n == 2 ? (s[1] >= 'A' && s[1] <= 'Z' ? (char)(s[1] + 32) : s[1]) : ' ';
    for (i = 0; i + 1 < sizeof table; i += 2)
        if (table[i] == a && table[i + 1] == b) {
            el[0] = a;
            el[1] = b == ' ' ? '\0' : b;
            el[2] = '\0';
            return;
        }
}

int vsg_lig_is_nonfinite(const char *s, size_t n)
{
    char buf[64], *end;
    double v;
    while (n > 0 && (*s == ' ' || *s == '\t')) s++, n--;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (n == 0 || n >= sizeof buf) return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    v = strtod(buf, &end);
    return end == buf + n && !isfinite(v);
}

void vsg_lig_bad_number(vsg_lig_ctx *c, vsg_ligand *lig, long line, const char *what, const char *s,
                        size_t n)
{
    int shown = (int)(n > 24 ? 24 : n);
    if (vsg_lig_is_nonfinite(s, n))
        vsg_lig_failf(c, lig, VSG_E_DATA, VSG_LIG_BAD_COORD, line, "%s is not finite: '%.*s'", what, shown, s);
    else
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, line, "bad %s '%.*s'", what, shown, s);
}

/* vsgrid.h: field k of a CSV line, unquoted and trimmed (the SMILES reader's .csv, the screen's own
 * rows). */
int vsg_csv_field_get(const char *l, size_t n, int k, char *dst, size_t cap)
{
    size_t i = 0, o = 0;
    for (size_t e = 0; e < n; e++) /* the line ends at a NUL or a line break */
        if (!l[e] || l[e] == '\n' || l[e] == '\r') { n = e; break; }
    int col = 0;
    for (;;) {
        int quoted = i < n && l[i] == '"';
        if (quoted) i++;
        o = 0;
        while (i < n) {
            char ch = l[i];
            if (quoted && ch == '"') {
                if (i + 1 < n && l[i + 1] == '"') {
                    i++; /* "" is a quote */
                } else {
                    quoted = 0;
                    i++;
                    continue;
                }
            } else if (!quoted && ch == ',') {
                break;
            }
            if (col == k && o + 1 < cap) dst[o++] = ch;
            i++;
        }
        if (col == k) {
            while (o > 0 && (dst[o - 1] == ' ' || dst[o - 1] == '\t')) o--;
            size_t s = 0;
            while (s < o && (dst[s] == ' ' || dst[s] == '\t')) s++;
            memmove(dst, dst + s, o - s);
            dst[o - s] = '\0';
            return 1;
        }
        if (i >= n) return 0;
        i++; /* the comma */
        col++;
    }
}

void vsg_lig_smiles_options(const vsg_smiles_options *s, int max_atoms, vsg_smiles_prep_options *out)
{
    out->ph_mode = s->ph_mode;
    out->ph = s->ph;
    out->stereo = s->stereo;
    out->min_steps = s->min_steps;
    out->embed = s->embed;
    out->conformers = s->conformers;
    out->max_atoms = max_atoms;
}
