/* ligand.c — the vsg_ligand record itself: initialisation, release, deep copy (the pipeline
 * queues copies), marking a record failed, and the format implied by a file name. */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grids/base/vsgrid.h"
#include "ligands/ligand.h"

void vsg_ligand_init(vsg_ligand *lig)
{
    if (!lig) return;
    memset(lig, 0, sizeof *lig);
    lig->status = VSG_OK;
    strcpy(lig->code, VSG_LIG_OK);
}

void vsg_ligand_release(vsg_ligand *lig)
{
    if (!lig) return;
    free(lig->atoms);
    free(lig->bonds);
    free(lig->text);
    free(lig->conformers);
    vsg_ligand_init(lig);
}

/* Grows *buf to hold n elements of size sz (capacity in *cap); 0 on failure. */
static int grow(void **buf, int *cap, int n, size_t sz)
{
    void *p;
    int c;
    if (n <= *cap) return 1;
    c = *cap > 0 ? *cap : 64;
    while (c < n) c = c > (1 << 29) ? n : c * 2;
    p = realloc(*buf, (size_t)c * sz);
    if (!p) return 0;
    *buf = p;
    *cap = c;
    return 1;
}

vsg_status vsg_ligand_copy(vsg_ligand *dst, const vsg_ligand *src)
{
    vsg_lig_atom *atoms;
    vsg_lig_bond *bonds;
    char *text;
    int acap, bcap;
    size_t tcap;
    if (!dst || !src) return vsg_fail(VSG_E_ARG, "vsg_ligand_copy: NULL argument");
    if (dst == src) return VSG_OK;
    if (src->natoms < 0 || src->nbonds < 0) return vsg_fail(VSG_E_ARG, "vsg_ligand_copy: negative counts");
    double *conf = NULL;
    if (src->nconformers > 0 && src->conformers) {
        const size_t n = 3 * (size_t)src->natoms * (size_t)src->nconformers;
        if (!(conf = malloc(sizeof *conf * n))) return vsg_fail(VSG_E_NOMEM, "out of memory copying a ligand's conformers");
        memcpy(conf, src->conformers, sizeof *conf * n);
    }
    if (!grow((void **)&dst->atoms, &dst->atoms_cap, src->natoms, sizeof *dst->atoms) ||
        !grow((void **)&dst->bonds, &dst->bonds_cap, src->nbonds, sizeof *dst->bonds))
        return free(conf), vsg_fail(VSG_E_NOMEM, "out of memory copying a ligand of %d atoms", src->natoms);
    if (src->text && src->text_len + 1 > dst->text_cap) {
        char *t = realloc(dst->text, src->text_len + 1);
        if (!t) return free(conf), vsg_fail(VSG_E_NOMEM, "out of memory copying a ligand's text");
        dst->text = t;
        dst->text_cap = src->text_len + 1;
    }
    /* keep dst's buffers, take everything else from src */
    atoms = dst->atoms, bonds = dst->bonds, text = dst->text;
    acap = dst->atoms_cap, bcap = dst->bonds_cap, tcap = dst->text_cap;
    free(dst->conformers);
    *dst = *src;
    dst->conformers = conf;
    dst->nconformers = conf ? src->nconformers : 0;
    dst->atoms = atoms, dst->bonds = bonds, dst->text = text;
    dst->atoms_cap = acap, dst->bonds_cap = bcap, dst->text_cap = tcap;
    if (src->natoms) memcpy(dst->atoms, src->atoms, (size_t)src->natoms * sizeof *src->atoms);
    if (src->nbonds) memcpy(dst->bonds, src->bonds, (size_t)src->nbonds * sizeof *src->bonds);
    if (src->text) {
        memcpy(dst->text, src->text, src->text_len);
        dst->text[src->text_len] = '\0';
    } else {
        dst->text_len = 0;
        if (dst->text) dst->text[0] = '\0';
    }
    return VSG_OK;
}

void vsg_ligand_fail(vsg_ligand *lig, vsg_status st, const char *code, const char *fmt, ...)
{
    va_list ap;
    if (!lig) return;
    lig->status = st;
    snprintf(lig->code, sizeof lig->code, "%s", code ? code : VSG_LIG_PARSE);
    va_start(ap, fmt);
    vsnprintf(lig->message, sizeof lig->message, fmt, ap);
    va_end(ap);
}

vsg_ligand_format vsg_ligand_format_of(const char *path)
{
    static const struct {
        const char *ext;
        vsg_ligand_format f;
    } table[] = {{"sdf", VSG_LIG_SDF},     {"sd", VSG_LIG_SDF},   {"mol", VSG_LIG_SDF},
                 {"mol2", VSG_LIG_MOL2},   {"ml2", VSG_LIG_MOL2}, {"pdbqt", VSG_LIG_PDBQT},
                 {"pdb", VSG_LIG_PDB},     {"ent", VSG_LIG_PDB},  {"smi", VSG_LIG_SMILES},
                 {"ism", VSG_LIG_SMILES},  {"csv", VSG_LIG_CSV}};
    const char *slash, *dot, *end;
    size_t i, n;
    if (!path) return VSG_LIG_AUTO;
    slash = strrchr(path, '/');
    if (slash) path = slash + 1;
    end = path + strlen(path);
    if (end - path > 3 && strcasecmp(end - 3, ".gz") == 0) end -= 3;
    for (dot = end; dot > path && dot[-1] != '.'; dot--) {}
    if (dot == path) return VSG_LIG_AUTO;
    n = (size_t)(end - dot);
    for (i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strlen(table[i].ext) == n && strncasecmp(dot, table[i].ext, n) == 0) return table[i].f;
    return VSG_LIG_AUTO;
}

const char *vsg_ligand_format_name(vsg_ligand_format f)
{
    switch (f) {
    case VSG_LIG_SDF: return "sdf";
    case VSG_LIG_MOL2: return "mol2";
    case VSG_LIG_PDBQT: return "pdbqt";
    case VSG_LIG_PDB: return "pdb";
    case VSG_LIG_SMILES: return "smi";
    case VSG_LIG_CSV: return "csv";
    default: return "auto";
    }
}
