/* molecule.c — the atom list every reader fills, the checks every format must pass, and the
 * public molecule API (read by format, query, checksum, write back as PQR). */
#include "grids/receptor/molecule.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "grids/base/vsgrid.h"

#define DUPLICATE_TOL 1e-6   /* Å: closer than this on every axis is the same position */
#define COORD_LIMIT 1e6      /* Å: beyond any structure; keeps the cell keys below in range */

vsg_molecule *vsg_molecule_new(const char *source, const char *format)
{
    vsg_molecule *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    snprintf(m->source, sizeof m->source, "%s", source ? source : "");
    snprintf(m->format, sizeof m->format, "%s", format ? format : "");
    return m;
}

vsg_status vsg_molecule_push(vsg_molecule *m, const vsg_atom *a)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 1024;
        vsg_atom *p;
        if (cap > (size_t)-1 / sizeof *p) return vsg_fail(VSG_E_NOMEM, "%s: too many atoms", m->source);
        p = realloc(m->atoms, cap * sizeof *p);
        if (!p) return vsg_fail(VSG_E_NOMEM, "%s: out of memory at atom %zu", m->source, m->n + 1);
        m->atoms = p;
        m->cap = cap;
    }
    m->atoms[m->n++] = *a;
    return VSG_OK;
}

void vsg_molecule_bounds(const vsg_molecule *m, int with_radii, double lo[3], double hi[3])
{
    size_t i;
    int d;
    if (!m || m->n == 0) {
        for (d = 0; d < 3; d++) lo[d] = hi[d] = 0.0;
        return;
    }
    for (d = 0; d < 3; d++) lo[d] = HUGE_VAL, hi[d] = -HUGE_VAL;
    for (i = 0; i < m->n; i++) {
        const vsg_atom *a = &m->atoms[i];
        double r = with_radii ? a->radius : 0.0, p[3];
        p[0] = a->x, p[1] = a->y, p[2] = a->z;
        for (d = 0; d < 3; d++) {
            if (p[d] - r < lo[d]) lo[d] = p[d] - r;
            if (p[d] + r > hi[d]) hi[d] = p[d] + r;
        }
    }
}

double vsg_molecule_max_radius(const vsg_molecule *m)
{
    double r = 0.0;
    size_t i;
    if (!m) return 0.0;
    for (i = 0; i < m->n; i++)
        if (m->atoms[i].radius > r) r = m->atoms[i].radius;
    return r;
}

/* ---- checks common to all formats ---------------------------------------------------- */

static uint64_t mix64(uint64_t x)
{
    /* splitmix64 finaliser: cell keys are small consecutive integers, buckets must not be */
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

static uint64_t cell_hash(int model, long long cx, long long cy, long long cz)
{
    return mix64((uint64_t)cx * UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)cy * UINT64_C(0xc2b2ae3d27d4eb4f) ^
                 (uint64_t)cz * UINT64_C(0x165667b19e3779f9) ^ (uint64_t)model);
}

/* Two atoms of one model at the same place make a zero distance in every Coulomb sum.
 * Atoms go into a hash table of cells CELL_TOLS tolerances wide: a pair within the
 * tolerance lies in the same or an adjacent cell, and an atom's ±tolerance box touches
 * (1 + 2/CELL_TOLS)³ ≈ 2 cells on average. The table keeps each cell's full hash, so
 * atoms are only read for real candidates: O(n), as receptors reach 500k atoms. A cell
 * holds at most (CELL_TOLS + 1)³ atoms that are not duplicates, which bounds the work
 * even for hostile input.
 * Random slots would cost a cache and TLB miss per lookup (half the reading time at 500k
 * atoms), so cells of one ~4 Å block share a run of REGION slots: consecutive atoms of a
 * file are neighbours in space and reuse the same cache lines. */
#define CELL_TOLS 8
#define BLOCK_SHIFT 19 /* 2^19 cells of 8e-6 Å: 4.2 Å blocks */
#define REGION 16

typedef struct {
    uint64_t key;   /* cell hash */
    size_t atom;    /* index + 1; 0 = empty slot */
} cell_slot;

static long long block_of(long long c)
{
    return c >= 0 ? c >> BLOCK_SHIFT : -((-c - 1) >> BLOCK_SHIFT) - 1; /* floor division */
}

/* First slot to probe for a cell, and the cell's key. */
static size_t home_slot(int model, const long long c[3], size_t mask, uint64_t *key)
{
    uint64_t block = cell_hash(model, block_of(c[0]), block_of(c[1]), block_of(c[2]));
    *key = cell_hash(model, c[0], c[1], c[2]);
    return (size_t)(block * REGION + (*key & (REGION - 1))) & mask;
}

static vsg_status check_duplicates(const vsg_molecule *m)
{
    const double cell = CELL_TOLS * DUPLICATE_TOL;
    size_t nb = 64, i;
    cell_slot *table;
    while (nb < 2 * m->n) nb *= 2;
    table = calloc(nb, sizeof *table);
    if (!table) return vsg_fail(VSG_E_NOMEM, "%s: out of memory", m->source);
    for (i = 0; i < m->n; i++) {
        const vsg_atom *a = &m->atoms[i];
        double p[3];
        long long lo[3], hi[3], c[3];
        uint64_t key;
        size_t pos;
        int d;
        p[0] = a->x, p[1] = a->y, p[2] = a->z;
        for (d = 0; d < 3; d++) {
            lo[d] = (long long)floor((p[d] - DUPLICATE_TOL) / cell);
            hi[d] = (long long)floor((p[d] + DUPLICATE_TOL) / cell);
        }
        for (c[0] = lo[0]; c[0] <= hi[0]; c[0]++)
            for (c[1] = lo[1]; c[1] <= hi[1]; c[1]++)
                for (c[2] = lo[2]; c[2] <= hi[2]; c[2]++)
                    for (pos = home_slot(a->model, c, nb - 1, &key); table[pos].atom;
                         pos = (pos + 1) & (nb - 1)) {
                        const vsg_atom *b;
                        if (table[pos].key != key) continue;
                        b = &m->atoms[table[pos].atom - 1];
                        if (b->model == a->model && fabs(b->x - a->x) <= DUPLICATE_TOL &&
                            fabs(b->y - a->y) <= DUPLICATE_TOL && fabs(b->z - a->z) <= DUPLICATE_TOL) {
                            vsg_status st = vsg_fail(VSG_E_DATA,
                                "%s:%d: atom '%s' is at the same position as atom '%s' of line %d "
                                "(%.3f, %.3f, %.3f)", m->source, a->line, a->name, b->name, b->line,
                                a->x, a->y, a->z);
                            free(table);
                            return st;
                        }
                    }
        for (d = 0; d < 3; d++) c[d] = (long long)floor(p[d] / cell);
        for (pos = home_slot(a->model, c, nb - 1, &key); table[pos].atom; pos = (pos + 1) & (nb - 1)) {}
        table[pos].key = key;
        table[pos].atom = i + 1;
    }
    free(table);
    return VSG_OK;
}

static vsg_status check_atoms(const vsg_molecule *m)
{
    size_t i, zero_h = 0;
    int is_pqr = strcmp(m->format, "pqr") == 0;
    vsg_status st;
    if (m->n == 0) return vsg_fail(VSG_E_FORMAT, "%s: no atoms", m->source);
    for (i = 0; i < m->n; i++) {
        const vsg_atom *a = &m->atoms[i];
        if (!isfinite(a->charge))
            return vsg_fail(VSG_E_DATA, "%s:%d: atom '%s' has no charge", m->source, a->line, a->name);
        if (!isfinite(a->radius))
            return vsg_fail(VSG_E_DATA, "%s:%d: atom '%s' has no radius", m->source, a->line, a->name);
        if (!(fabs(a->x) < COORD_LIMIT && fabs(a->y) < COORD_LIMIT && fabs(a->z) < COORD_LIMIT))
            return vsg_fail(VSG_E_DATA, "%s:%d: atom '%s' lies %g Å or more from the origin",
                            m->source, a->line, a->name, COORD_LIMIT);
        if (a->radius < 0.0)
            return vsg_fail(VSG_E_DATA, "%s:%d: atom '%s' has a negative radius (%g)", m->source,
                            a->line, a->name, a->radius);
        if (a->radius == 0.0) {
            /* Some force fields (PARSE, AMBER's hydroxyl H) give hydrogens no radius. */
            if (!is_pqr || strcmp(a->element, "H") != 0)
                return vsg_fail(VSG_E_DATA, "%s:%d: atom '%s' has radius 0 (only hydrogens may)",
                                m->source, a->line, a->name);
            zero_h++;
        }
    }
    st = check_duplicates(m);
    if (st == VSG_OK && zero_h)
        vsg_warn("%s: %zu hydrogen atom%s with radius 0: they keep their charge but add no volume",
                 m->source, zero_h, zero_h == 1 ? "" : "s");
    return st;
}

/* ---- public API -------------------------------------------------------------------- */

typedef vsg_status (*reader_fn)(const char *, vsg_molecule *);

static const struct {
    const char *name;
    reader_fn read;
} formats[] = {
    {"pqr", vsg_read_pqr},
    {"pdbqt", vsg_read_pdbqt},
    {"mol2", vsg_read_mol2},
    {"pdb", vsg_read_pdb},
};
#define N_FORMATS (sizeof formats / sizeof formats[0])

static int same_nocase(const char *a, const char *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i])) return 0;
    return 1;
}

/* Index in formats[] from the extension, ".gz" stripped; -1 if unknown. */
static int format_from_path(const char *path, char *ext, size_t ext_len)
{
    size_t n = strlen(path), i, e;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    n -= (size_t)(base - path);
    if (n > 3 && same_nocase(base + n - 3, ".gz", 3)) n -= 3;
    for (e = n; e > 0 && base[e - 1] != '.'; e--) {}
    snprintf(ext, ext_len, "%.*s", e > 0 ? (int)(n - e + 1) : 0, base + (e > 0 ? e - 1 : 0));
    if (e == 0) return -1;
    for (i = 0; i < N_FORMATS; i++)
        if (n - e == strlen(formats[i].name) && same_nocase(base + e, formats[i].name, n - e))
            return (int)i;
    return -1;
}

vsg_status vsg_molecule_read(const char *path, const char *format, vsg_molecule **out)
{
    vsg_molecule *m;
    vsg_status st;
    int f = -1;
    size_t i;
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_molecule_read: NULL output");
    *out = NULL;
    if (!path || !*path) return vsg_fail(VSG_E_ARG, "vsg_molecule_read: no path");
    if (format) {
        for (i = 0; i < N_FORMATS; i++)
            if (strlen(format) == strlen(formats[i].name) &&
                same_nocase(format, formats[i].name, strlen(format)))
                f = (int)i;
        if (f < 0)
            return vsg_fail(VSG_E_ARG, "unknown molecule format '%s' (supported: pqr, pdbqt, mol2, pdb)",
                            format);
    } else if (strcmp(path, "-") == 0) {
        return vsg_fail(VSG_E_ARG, "standard input has no extension: name its format "
                                   "(pqr, pdbqt, mol2, pdb)");
    } else {
        char ext[32];
        f = format_from_path(path, ext, sizeof ext);
        if (f < 0 && !ext[0])
            return vsg_fail(VSG_E_FORMAT, "%s: no file extension to tell the molecule format by "
                            "(supported: .pqr, .pdbqt, .mol2, .pdb, each optionally .gz)", path);
        if (f < 0)
            return vsg_fail(VSG_E_FORMAT,
                            "%s: unknown molecule file extension '%s' (supported: .pqr, .pdbqt, "
                            ".mol2, .pdb, each optionally .gz)", path, ext);
    }
    m = vsg_molecule_new(path, formats[f].name);
    if (!m) return vsg_fail(VSG_E_NOMEM, "%s: out of memory", path);
    st = formats[f].read(path, m);
    if (st == VSG_OK) st = check_atoms(m);
    if (st != VSG_OK) {
        vsg_molecule_free(m);
        return st;
    }
    *out = m;
    return VSG_OK;
}

void vsg_molecule_free(vsg_molecule *m)
{
    if (!m) return;
    free(m->atoms);
    free(m);
}

size_t vsg_molecule_atom_count(const vsg_molecule *m) { return m ? m->n : 0; }

vsg_status vsg_molecule_atom(const vsg_molecule *m, size_t i, vsg_atom_info *out)
{
    if (!m || !out) return vsg_fail(VSG_E_ARG, "vsg_molecule_atom: NULL argument");
    if (i >= m->n)
        return vsg_fail(VSG_E_ARG, "vsg_molecule_atom: index %zu out of range (%zu atoms)", i, m->n);
    *out = m->atoms[i];
    return VSG_OK;
}

double vsg_molecule_net_charge(const vsg_molecule *m)
{
    /* Neumaier summation: 500k charges of ±0.5 should still add up to an integer */
    double s = 0.0, c = 0.0;
    size_t i;
    if (!m) return 0.0;
    for (i = 0; i < m->n; i++) {
        double q = m->atoms[i].charge, t = s + q;
        c += fabs(s) >= fabs(q) ? (s - t) + q : (q - t) + s;
        s = t;
    }
    return s + c;
}

uint32_t vsg_molecule_checksum(const vsg_molecule *m)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    size_t i;
    if (!m) return (uint32_t)crc;
    for (i = 0; i < m->n; i++) {
        const vsg_atom *a = &m->atoms[i];
        double v[5];
        v[0] = a->x, v[1] = a->y, v[2] = a->z, v[3] = a->charge, v[4] = a->radius;
        crc = crc32(crc, (const Bytef *)v, (uInt)sizeof v);
    }
    return (uint32_t)crc;
}

const char *vsg_molecule_source(const vsg_molecule *m) { return m ? m->source : ""; }

/* ---- PQR output ------------------------------------------------------------------------ */

/* Appends printf output, first inserting a space if it would touch the previous field: the
 * PDB columns hold for ordinary values, and APBS's whitespace tokenizer sees every field
 * even when a value outgrows its column (x = -100.123, 6-digit serials). */
static void put(char *line, size_t *pos, size_t cap, const char *fmt, ...) VSG_PRINTF(4, 5);
static void put(char *line, size_t *pos, size_t cap, const char *fmt, ...)
{
    char tmp[64];
    va_list ap;
    int k;
    va_start(ap, fmt);
    k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k <= 0) return;
    if (*pos > 0 && line[*pos - 1] != ' ' && tmp[0] != ' ' && *pos + 1 < cap) line[(*pos)++] = ' ';
    if (*pos + (size_t)k >= cap) k = (int)(cap - 1 - *pos);
    memcpy(line + *pos, tmp, (size_t)k);
    *pos += (size_t)k;
    line[*pos] = '\0';
}

vsg_status vsg_molecule_write_pqr(const vsg_molecule *m, const char *path)
{
    FILE *fp;
    gzFile gz = NULL;
    size_t i, n = path ? strlen(path) : 0;
    int ok = 1;
    if (!m || !path || !*path) return vsg_fail(VSG_E_ARG, "vsg_molecule_write_pqr: NULL argument");
    if (n > 3 && same_nocase(path + n - 3, ".gz", 3)) {
        fp = NULL;
        errno = 0;
        gz = gzopen(path, "wb6");
        if (!gz)
            return vsg_fail(VSG_E_IO, "%s: cannot create: %s", path, errno ? strerror(errno) : "zlib error");
    } else {
        fp = fopen(path, "w");
        if (!fp) return vsg_fail(VSG_E_IO, "%s: cannot create: %s", path, strerror(errno));
    }
    for (i = 0; i <= m->n + 1 && ok; i++) {
        char line[160];
        size_t pos = 0;
        if (i == 0) {
            snprintf(line, sizeof line, "REMARK   1 PQR written by vsgrid %s from %.100s\n",
                     vsg_version(), m->source);
        } else if (i == m->n + 1) {
            snprintf(line, sizeof line, "END\n");
        } else {
            const vsg_atom *a = &m->atoms[i - 1];
            double xyz[3];
            int d;
            xyz[0] = a->x, xyz[1] = a->y, xyz[2] = a->z;
            line[0] = '\0';
            /* Always "ATOM": APBS reads "HETATM12345" as one token. */
            put(line, &pos, sizeof line, "ATOM  %5d", a->serial);
            /* PDB alignment: names shorter than 4 start in column 14 */
            put(line, &pos, sizeof line, strlen(a->name) < 4 ? "  %-3s" : " %-4s", a->name);
            put(line, &pos, sizeof line, " %-3s", a->residue_name);
            put(line, &pos, sizeof line, " %c", a->chain ? a->chain : ' ');
            /* the insertion code sticks to the number ("52A"): APBS reads it with %d */
            put(line, &pos, sizeof line, "%4d%c   ", a->residue_number,
                a->insertion_code ? a->insertion_code : ' ');
            for (d = 0; d < 3; d++) put(line, &pos, sizeof line, "%8.3f", xyz[d]);
            put(line, &pos, sizeof line, "%8.4f", a->charge);
            put(line, &pos, sizeof line, "%7.4f\n", a->radius);
        }
        if (gz) ok = gzputs(gz, line) >= 0;
        else ok = fputs(line, fp) >= 0;
    }
    if (gz) {
        if (gzclose(gz) != Z_OK) ok = 0;
    } else if (fclose(fp) != 0) {
        ok = 0;
    }
    if (!ok) return vsg_fail(VSG_E_IO, "%s: write failed: %s", path, strerror(errno));
    return VSG_OK;
}
