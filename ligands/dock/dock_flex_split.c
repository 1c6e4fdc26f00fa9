/* dock_flex_split.c — vsg_flex_split (vsgrid.h, "Flexible receptor side chains"): a full receptor
 * PDBQT cut into its rigid part and a flex-residue PDBQT, as prepare_flexreceptor (AutoDockTools)
 * cuts it: each named residue's CA and side chain leave the receptor (N, H, C, O stay), and become a
 * BEGIN_RES block whose ROOT is the CA and whose BRANCHes follow the side chain's rotatable bonds
 * from CA–CB outwards (the table below: the chi angles of the standard amino acids, plus the
 * hydroxyl of SER, THR and TYR and the amine of LYS, which turn their polar hydrogens). A rotor
 * whose far side holds no atom but its axis atom (a SER without its HG) is no branch, as in Vina. */
#define _POSIX_C_SOURCE 200809L /* getline, strdup */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"

static const struct {
    const char *res;
    const char *rot[5][2];
} side_rotors[] = {
    {"ARG", {{"CA", "CB"}, {"CB", "CG"}, {"CG", "CD"}, {"CD", "NE"}}},
    {"ASN", {{"CA", "CB"}, {"CB", "CG"}}},
    {"ASP", {{"CA", "CB"}, {"CB", "CG"}}},
    {"CYS", {{"CA", "CB"}, {"CB", "SG"}}},
    {"GLN", {{"CA", "CB"}, {"CB", "CG"}, {"CG", "CD"}}},
    {"GLU", {{"CA", "CB"}, {"CB", "CG"}, {"CG", "CD"}}},
    {"HIS", {{"CA", "CB"}, {"CB", "CG"}}},
    {"HID", {{"CA", "CB"}, {"CB", "CG"}}},
    {"HIE", {{"CA", "CB"}, {"CB", "CG"}}},
    {"HIP", {{"CA", "CB"}, {"CB", "CG"}}},
    {"ILE", {{"CA", "CB"}, {"CB", "CG1"}}},
    {"LEU", {{"CA", "CB"}, {"CB", "CG"}}},
    {"LYS", {{"CA", "CB"}, {"CB", "CG"}, {"CG", "CD"}, {"CD", "CE"}, {"CE", "NZ"}}},
    {"MET", {{"CA", "CB"}, {"CB", "CG"}, {"CG", "SD"}}},
    {"PHE", {{"CA", "CB"}, {"CB", "CG"}}},
    {"SER", {{"CA", "CB"}, {"CB", "OG"}}},
    {"THR", {{"CA", "CB"}, {"CB", "OG1"}}},
    {"TRP", {{"CA", "CB"}, {"CB", "CG"}}},
    {"TYR", {{"CA", "CB"}, {"CB", "CG"}, {"CZ", "OH"}}},
    {"VAL", {{"CA", "CB"}}},
};

/* Backbone atoms that stay in the rigid part (prepare_flexreceptor keeps N, its H, C, O). */
static int backbone(const char *name)
{
    static const char *const bb[] = {"N", "C", "O", "OXT", "H", "HN", "H1", "H2", "H3", "HA"};
    for (size_t i = 0; i < sizeof bb / sizeof bb[0]; i++)
        if (!strcmp(name, bb[i])) return 1;
    return 0;
}

typedef struct {
    char chain;
    char name[4];
    int number;
    int found;
} res_spec;

/* "A:THR:315[,B:LYS:12...]" */
static vsg_status parse_spec(const char *spec, res_spec **out, int *n)
{
    *out = NULL, *n = 0;
    int cap = 0;
    const char *p = spec;
    while (*p) {
        const char *e = strchr(p, ',');
        const size_t len = e ? (size_t)(e - p) : strlen(p);
        char item[64];
        if (len == 0 || len >= sizeof item) {
            free(*out);
            return vsg_fail(VSG_E_ARG, "--flex-residues: '%s' is not CHAIN:RES:NUMBER[,...] (e.g. A:ARG:57)", spec);
        }
        memcpy(item, p, len), item[len] = '\0';
        char chain[8], name[8];
        int num, used = 0;
        if (sscanf(item, "%7[^:]:%7[^:]:%d%n", chain, name, &num, &used) != 3 || used != (int)len || strlen(chain) != 1 ||
            strlen(name) > 3) {
            free(*out);
            return vsg_fail(VSG_E_ARG, "--flex-residues: '%s' is not CHAIN:RES:NUMBER (e.g. A:ARG:57; one-letter chain)", item);
        }
        if (*n == cap) {
            cap = cap ? 2 * cap : 4;
            res_spec *nr = realloc(*out, sizeof *nr * (size_t)cap);
            if (!nr) { free(*out); return vsg_fail(VSG_E_NOMEM, "flex: out of memory"); }
            *out = nr;
        }
        res_spec *r = &(*out)[(*n)++];
        memset(r, 0, sizeof *r);
        r->chain = chain[0], r->number = num;
        for (size_t k = 0; k < 3 && name[k]; k++) r->name[k] = (char)toupper((unsigned char)name[k]);
        p += len + (e ? 1 : 0);
    }
    if (*n == 0) return vsg_fail(VSG_E_ARG, "--flex-residues: empty");
    return VSG_OK;
}

static void field(const char *s, size_t a, size_t b, char *out, size_t cap)
{
    size_t k = 0, n = strlen(s);
    for (size_t i = a; i < b && i < n && k + 1 < cap; i++)
        if (s[i] != ' ') out[k++] = s[i];
    out[k] = '\0';
}

static double cov(const char *type)
{
    switch (type[0]) {
    case 'H': return 0.37;
    case 'N': return 0.75;
    case 'O': return 0.73;
    case 'S': return 1.02;
    default: return 0.77;
    }
}

typedef struct {
    int line;        /* index into lines */
    char name[8], type[4];
    double x[3];
    int body;        /* −1 until assigned */
} fatom;

/* Writes body b's atoms, then its branches (recursively), renumbering serials. */
static void write_body(FILE *o, char **lines, fatom *a, int na, int b, int (*rot)[2], int nrot, int *serial, int *ser_of)
{
    /* the body's axis atom first (BRANCH names it as the next serial), then the rest in file order */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < na; i++) {
            if (a[i].body != b || ser_of[i]) continue;
            int axis = 0;
            for (int k = 0; k < nrot; k++) axis |= rot[k][1] == i;
            if ((pass == 0) != (axis != 0)) continue;
            ser_of[i] = ++*serial;
            fprintf(o, "%.6s%5d%s\n", lines[a[i].line], ser_of[i], lines[a[i].line] + 11);
        }
    for (int k = 0; k < nrot; k++) {
        if (a[rot[k][0]].body != b) continue;
        const int child = a[rot[k][1]].body;
        fprintf(o, "BRANCH %3d %3d\n", ser_of[rot[k][0]], *serial + 1);
        write_body(o, lines, a, na, child, rot, nrot, serial, ser_of);
        fprintf(o, "ENDBRANCH %3d %3d\n", ser_of[rot[k][0]], ser_of[rot[k][1]]);
    }
}

vsg_status vsg_flex_split(const char *receptor, const char *residues, const char *rigid_out, const char *flex_out)
{
    if (!receptor || !residues || !rigid_out || !flex_out) return vsg_fail(VSG_E_ARG, "vsg_flex_split: NULL argument");
    res_spec *rs = NULL;
    int nrs = 0;
    vsg_status st = parse_spec(residues, &rs, &nrs);
    if (st != VSG_OK) return st;
    FILE *in = fopen(receptor, "r");
    if (!in) { free(rs); return vsg_fail(VSG_E_IO, "%s: cannot open: %s", receptor, strerror(errno)); }
    char **lines = NULL, *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    int nl = 0, lcap = 0;
    while ((len = getline(&buf, &cap, in)) >= 0) {
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r')) buf[--len] = '\0';
        if (nl == lcap) {
            lcap = lcap ? 2 * lcap : 1024;
            char **n2 = realloc(lines, sizeof *n2 * (size_t)lcap);
            if (!n2) { st = vsg_fail(VSG_E_NOMEM, "flex: out of memory"); break; }
            lines = n2;
        }
        if (!(lines[nl] = strdup(buf))) { st = vsg_fail(VSG_E_NOMEM, "flex: out of memory"); break; }
        nl++;
    }
    free(buf);
    fclose(in);
    char *drop = st == VSG_OK ? calloc((size_t)nl + 1, 1) : NULL;
    fatom *a = st == VSG_OK ? malloc(sizeof *a * (size_t)(nl + 1)) : NULL;
    int *ser_of = st == VSG_OK ? calloc((size_t)nl + 1, sizeof(int)) : NULL;
    FILE *fo = NULL, *ro = NULL;
    if (st == VSG_OK && (!drop || !a || !ser_of)) st = vsg_fail(VSG_E_NOMEM, "flex: out of memory");
    if (st == VSG_OK && !(fo = fopen(flex_out, "w"))) st = vsg_fail(VSG_E_IO, "%s: cannot write: %s", flex_out, strerror(errno));
    for (int r = 0; r < nrs && st == VSG_OK; r++) {
        res_spec *R = &rs[r];
        int na = 0, first_line = -1;
        char other[8] = ""; /* the residue name found there instead (rn's size) */
        for (int i = 0; i < nl; i++) {
            const char *s = lines[i];
            if (strncmp(s, "ATOM", 4) && strncmp(s, "HETATM", 6)) continue;
            if (strlen(s) < 54) continue;
            char rn[8], num[8];
            field(s, 17, 20, rn, sizeof rn), field(s, 22, 26, num, sizeof num);
            if (s[21] != R->chain || atoi(num) != R->number) continue;
            if (strcmp(rn, R->name)) { snprintf(other, sizeof other, "%s", rn); first_line = i; continue; }
            fatom *x = &a[na];
            field(s, 12, 16, x->name, sizeof x->name);
            if (backbone(x->name)) continue;
            field(s, 77, 80, x->type, sizeof x->type);
            char c[3][10];
            for (int d = 0; d < 3; d++) {
                memcpy(c[d], s + 30 + 8 * d, 8), c[d][8] = '\0';
                x->x[d] = atof(c[d]);
            }
            x->line = i, x->body = -1;
            na++;
        }
        if (na == 0) {
            st = other[0] ? vsg_fail(VSG_E_DATA, "%s:%d: residue %c %d is %s, not %s (--flex-residues %c:%s:%d)", receptor,
                                     first_line + 1, R->chain, R->number, other, R->name, R->chain, R->name, R->number)
                          : vsg_fail(VSG_E_DATA, "%s: no residue %s %d in chain %c (--flex-residues %c:%s:%d)", receptor,
                                     R->name, R->number, R->chain, R->chain, R->name, R->number);
            break;
        }
        size_t t = 0;
        while (t < sizeof side_rotors / sizeof side_rotors[0] && strcmp(side_rotors[t].res, R->name)) t++;
        if (t == sizeof side_rotors / sizeof side_rotors[0]) {
            st = vsg_fail(VSG_E_DATA, "%s:%d: residue %c:%s:%d has no rotatable side chain vsgrid knows (ARG ASN ASP CYS GLN "
                          "GLU HIS ILE LEU LYS MET PHE SER THR TRP TYR VAL)", receptor, a[0].line + 1, R->chain, R->name,
                          R->number);
            break;
        }
        int ca = -1;
        for (int i = 0; i < na; i++)
            if (!strcmp(a[i].name, "CA")) ca = i;
        if (ca < 0) { st = vsg_fail(VSG_E_DATA, "%s: residue %c:%s:%d has no CA", receptor, R->chain, R->name, R->number); break; }
        /* rotors by name; bonds by distance within the residue; bodies by a walk from CA that stops at rotors */
        int rot[5][2], nrot = 0;
        for (int k = 0; k < 5 && side_rotors[t].rot[k][0]; k++) {
            int p = -1, q = -1;
            for (int i = 0; i < na; i++) {
                if (!strcmp(a[i].name, side_rotors[t].rot[k][0])) p = i;
                if (!strcmp(a[i].name, side_rotors[t].rot[k][1])) q = i;
            }
            if (p >= 0 && q >= 0) rot[nrot][0] = p, rot[nrot][1] = q, nrot++;
        }
        int *stack = malloc(sizeof(int) * (size_t)(na + 1));
        if (!stack) { st = vsg_fail(VSG_E_NOMEM, "flex: out of memory"); break; }
        int nbody = 0;
        /* bodies in walk order: CA's, then each rotor's far side (rotors are listed from CA outwards) */
        for (int k = -1; k < nrot; k++) {
            const int start = k < 0 ? ca : rot[k][1];
            if (a[start].body >= 0) continue;
            int sp = 0;
            stack[sp++] = start;
            a[start].body = nbody;
            while (sp) {
                const int i = stack[--sp];
                for (int j = 0; j < na; j++) {
                    if (a[j].body >= 0) continue;
                    double r2 = 0;
                    for (int d = 0; d < 3; d++) r2 += (a[i].x[d] - a[j].x[d]) * (a[i].x[d] - a[j].x[d]);
                    const double bl = 1.1 * (cov(a[i].type) + cov(a[j].type));
                    if (r2 >= bl * bl) continue;
                    int cut = 0;
                    for (int m = 0; m < nrot; m++)
                        cut |= (rot[m][0] == i && rot[m][1] == j) || (rot[m][0] == j && rot[m][1] == i);
                    if (cut) continue;
                    a[j].body = nbody;
                    stack[sp++] = j;
                }
            }
            nbody++;
        }
        free(stack);
        /* a rotor whose far side is its axis atom alone joins its parent (Vina merges such a branch) */
        for (int k = nrot - 1; k >= 0; k--) {
            const int b = a[rot[k][1]].body;
            int count = 0, sub = 0;
            for (int i = 0; i < na; i++) count += a[i].body == b;
            for (int m = 0; m < nrot; m++) sub |= m != k && a[rot[m][0]].body == b;
            if (count > 1 || sub) continue;
            a[rot[k][1]].body = a[rot[k][0]].body;
            for (int m = k; m + 1 < nrot; m++) rot[m][0] = rot[m + 1][0], rot[m][1] = rot[m + 1][1];
            nrot--;
        }
        for (int i = 0; i < na; i++)
            if (a[i].body < 0) {
                st = vsg_fail(VSG_E_DATA, "%s:%d: atom %s of %c:%s:%d is bonded to none of its side chain", receptor,
                              a[i].line + 1, a[i].name, R->chain, R->name, R->number);
                break;
            }
        if (st != VSG_OK) break;
        fprintf(fo, "BEGIN_RES %3s %c%4d\nROOT\n", R->name, R->chain, R->number);
        for (int i = 0; i < na; i++) ser_of[i] = 0;
        int serial = 0;
        for (int i = 0; i < na; i++)
            if (a[i].body == a[ca].body) {
                ser_of[i] = ++serial;
                fprintf(fo, "%.6s%5d%s\n", lines[a[i].line], serial, lines[a[i].line] + 11);
            }
        fprintf(fo, "ENDROOT\n");
        for (int k = 0; k < nrot; k++) {
            if (a[rot[k][0]].body != a[ca].body) continue;
            fprintf(fo, "BRANCH %3d %3d\n", ser_of[rot[k][0]], serial + 1);
            write_body(fo, lines, a, na, a[rot[k][1]].body, rot, nrot, &serial, ser_of);
            fprintf(fo, "ENDBRANCH %3d %3d\n", ser_of[rot[k][0]], ser_of[rot[k][1]]);
        }
        fprintf(fo, "END_RES %3s %c%4d\n", R->name, R->chain, R->number);
        for (int i = 0; i < na; i++) drop[a[i].line] = 1;
    }
    if (fo && fclose(fo) && st == VSG_OK) st = vsg_fail(VSG_E_IO, "%s: write error", flex_out);
    if (st == VSG_OK && !(ro = fopen(rigid_out, "w"))) st = vsg_fail(VSG_E_IO, "%s: cannot write: %s", rigid_out, strerror(errno));
    for (int i = 0; i < nl && st == VSG_OK; i++)
        if (!drop[i]) fprintf(ro, "%s\n", lines[i]);
    if (ro && fclose(ro) && st == VSG_OK) st = vsg_fail(VSG_E_IO, "%s: write error", rigid_out);
    for (int i = 0; i < nl; i++) free(lines[i]);
    free(lines), free(drop), free(a), free(ser_of), free(rs);
    return st;
}
