/* templates.c — pdb2pqr's AA.xml and NA.xml residue templates (ideal coordinates with hydrogens),
 * in the protonation and terminal state of a residue (PATCHES.xml's NTERM/CTERM coordinates; the
 * DNA and 5'/3' patches of nucleotides), and Horn's
 * quaternion superposition that fits a template onto the atoms a residue has. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/prepare/prep_model.h"

static tres *g_tmpl;
static int g_ntmpl;

int prep_load_templates(void)
{
    if (g_tmpl)
        return 1;
    tres *t = calloc(40, sizeof *t);
    if (!t)
        return 0;
    int n = 0;
    for (int i = 0; vsg_ff_templates[i]; i++) {
        char rn[8], an[8], bonds[64];
        double x, y, z;
        if (sscanf(vsg_ff_templates[i], "%7s %7s %lf %lf %lf %63s", rn, an, &x, &y, &z, bonds) != 6)
            continue;
        if (n == 0 || strcmp(t[n - 1].name, rn) != 0) {
            if (n == 40)
                break;
            snprintf(t[n].name, sizeof t[n].name, "%.3s", rn);
            n++;
        }
        tres *r = &t[n - 1];
        if (r->n == MAX_TATOMS)
            continue;
        tatom *a = &r->a[r->n++];
        snprintf(a->name, sizeof a->name, "%.4s", an);
        a->x[0] = x, a->x[1] = y, a->x[2] = z;
        for (char *p = strtok(bonds, ","); p && a->nb < MAXB; p = strtok(NULL, ","))
            if (strcmp(p, "-") != 0)
                snprintf(a->bond[a->nb++], 5, "%s", p);
    }
    g_tmpl = t;
    g_ntmpl = n;
    return 1;
}

int prep_find_template(const char *resn)
{
    for (int i = 0; i < g_ntmpl; i++)
        if (strcmp(g_tmpl[i].name, resn) == 0)
            return i;
    return -1;
}

int prep_tatom_index(const tres *r, const char *name)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->a[i].name, name) == 0)
            return i;
    return -1;
}

static void tadd(tres *r, const char *name, double x, double y, double z, const char *bonded)
{
    if (r->n == MAX_TATOMS || prep_tatom_index(r, name) >= 0)
        return;
    tatom *a = &r->a[r->n++];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", name);
    a->x[0] = x, a->x[1] = y, a->x[2] = z;
    snprintf(a->bond[a->nb++], 5, "%s", bonded);
    int j = prep_tatom_index(r, bonded);
    if (j >= 0 && r->a[j].nb < MAXB)
        snprintf(r->a[j].bond[r->a[j].nb++], 5, "%s", name);
}

static void tremove(tres *r, const char *name)
{
    int i = prep_tatom_index(r, name);
    if (i < 0)
        return;
    memmove(&r->a[i], &r->a[i + 1], (size_t)(r->n - i - 1) * sizeof r->a[0]);
    r->n--;
    for (int k = 0; k < r->n; k++)
        for (int b = 0; b < r->a[k].nb; b++)
            if (strcmp(r->a[k].bond[b], name) == 0) {
                memmove(r->a[k].bond[b], r->a[k].bond[b + 1], (size_t)(r->a[k].nb - b - 1) * 5);
                r->a[k].nb--;
                b--;
            }
}

/* PATCHES.xml's nucleotide patches: DA, DC, DG are RA, RC, RG without O2' (the H2'' on C2',
 * where the ribose has its HO2', named H2'' by NA.xml); a 5' end loses its phosphate for H5T on
 * O5', a 3' end gets H3T on O3'. */
static void nucleotide_template(const pres *p, tres *out)
{
    if (p->ff[0] == 'D' && strcmp(p->ff, "DT") != 0) {
        tremove(out, "H2''");
        tremove(out, "O2'");
        tadd(out, "H2''", 6.025106, 2.060820, 3.524673, "C2'");
    }
    if (p->nterm) {
        tremove(out, "P");
        tremove(out, "O1P");
        tremove(out, "O2P");
        tadd(out, "H5T", 2.5858, 1.9226, 0.0818, "O5'");
    }
    if (p->cterm)
        tadd(out, "H3T", 5.911984, 4.450161, 3.797897, "O3'");
}

/* The template of one residue in its protonation and terminal state: PATCHES.xml's patches
 * (HID, HIE: one ring H removed; HIP: both kept; CYX, CYM: no HG; LYN: no HZ3; ASH, GLH: the
 * acid H on OD2, OE2, which AMBER.DAT names; NTERM and CTERM coordinates). */
void prep_residue_template(const pres *p, tres *out)
{
    *out = g_tmpl[p->tmpl];
    if (strcmp(p->ff, "HID") == 0)
        tremove(out, "HE2");
    else if (strcmp(p->ff, "HIE") == 0)
        tremove(out, "HD1");
    else if (strcmp(p->ff, "CYX") == 0 || strcmp(p->ff, "CYM") == 0)
        tremove(out, "HG");
    else if (strcmp(p->ff, "LYN") == 0)
        tremove(out, "HZ3");
    else if (strcmp(p->ff, "ASH") == 0)
        tadd(out, "HD2", 2.105, -3.427, 1.930, "OD2");
    else if (strcmp(p->ff, "GLH") == 0)
        tadd(out, "HE2", 1.977, -4.036, 3.680, "OE2");
    if (p->kind == 3) {
        nucleotide_template(p, out);
        return;
    }
    if (p->nterm) {
        int pro = strcmp(p->ff, "PRO") == 0;
        tremove(out, "H");
        tadd(out, "H", 0.934, 1.811, 0.000, "N");
        tadd(out, "H2", 1.746, 0.653, -0.817, "N");
        if (!pro) /* pdb2pqr's N-terminal Pro has H and H2 */
            tadd(out, "H3", 1.746, 0.653, 0.817, "N");
    }
    if (p->cterm)
        tadd(out, "OXT", -1.529, 1.858, 0.695, "C");
}

static void jacobi4(double a[4][4], double v[4][4], double d[4])
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            v[i][j] = i == j;
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = 0;
        for (int p = 0; p < 4; p++)
            for (int q = p + 1; q < 4; q++)
                off += a[p][q] * a[p][q];
        if (off < 1e-22)
            break;
        for (int p = 0; p < 4; p++)
            for (int q = p + 1; q < 4; q++) {
                if (fabs(a[p][q]) < 1e-30)
                    continue;
                double th = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < 4; k++) {
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 4; k++) {
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 4; k++) {
                    double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
    }
    for (int i = 0; i < 4; i++)
        d[i] = a[i][i];
}

/* Rotation R and centroids so that R (t − ct) + cr maps the template points t[] onto r[]. */
void prep_superpose(const double (*t)[3], const double (*r)[3], int n, double R[3][3], double ct[3],
                      double cr[3])
{
    ct[0] = ct[1] = ct[2] = cr[0] = cr[1] = cr[2] = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            ct[k] += t[i][k] / n, cr[k] += r[i][k] / n;
    double S[3][3] = {{0}};
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                S[a][b] += (t[i][a] - ct[a]) * (r[i][b] - cr[b]);
    double N[4][4] = {
        {S[0][0] + S[1][1] + S[2][2], S[1][2] - S[2][1], S[2][0] - S[0][2], S[0][1] - S[1][0]},
        {S[1][2] - S[2][1], S[0][0] - S[1][1] - S[2][2], S[0][1] + S[1][0], S[2][0] + S[0][2]},
        {S[2][0] - S[0][2], S[0][1] + S[1][0], -S[0][0] + S[1][1] - S[2][2], S[1][2] + S[2][1]},
        {S[0][1] - S[1][0], S[2][0] + S[0][2], S[1][2] + S[2][1], -S[0][0] - S[1][1] + S[2][2]}};
    double V[4][4], d[4];
    jacobi4(N, V, d);
    int m = 0;
    for (int i = 1; i < 4; i++)
        if (d[i] > d[m])
            m = i;
    double q0 = V[0][m], q1 = V[1][m], q2 = V[2][m], q3 = V[3][m];
    R[0][0] = q0 * q0 + q1 * q1 - q2 * q2 - q3 * q3;
    R[0][1] = 2 * (q1 * q2 - q0 * q3);
    R[0][2] = 2 * (q1 * q3 + q0 * q2);
    R[1][0] = 2 * (q1 * q2 + q0 * q3);
    R[1][1] = q0 * q0 - q1 * q1 + q2 * q2 - q3 * q3;
    R[1][2] = 2 * (q2 * q3 - q0 * q1);
    R[2][0] = 2 * (q1 * q3 - q0 * q2);
    R[2][1] = 2 * (q2 * q3 + q0 * q1);
    R[2][2] = q0 * q0 - q1 * q1 - q2 * q2 + q3 * q3;
}
