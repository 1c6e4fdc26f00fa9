/* bench_bond_orders.c — the vsgrid side of scripts/bench_bond_orders.py: reads a library with
 * bond orders (TRUTH: SDF or MOL2) and the same molecules as PDB without CONECT, record by
 * record, gives both Gasteiger charges (Open Babel), AutoDock 4 types and rotatable bonds, and
 * prints one line a molecule for the script to compare:
 *   index  name  atoms  max|Δq|  types_equal  bonds(a-b:order,...)  formal(atom:charge,...)
 *   rotors_equal
 * (atoms 0-based; max|Δq| is -1 when charges failed on either side, types_equal and
 * rotors_equal -1 when typing or the torsions failed).
 * usage: bench_bond_orders TRUTH.sdf|.mol2[.gz] MOLECULES.pdb[.gz] */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "ligands/torsions/torsions.h"

static void print_line(const vsg_ligand *t, const vsg_ligand *p, size_t k)
{
    double dq = -1.0;
    int types = -1;
    if (p->status == VSG_OK && t->natoms == p->natoms && vsg_ligand_gasteiger((vsg_ligand *)t) == VSG_OK &&
        vsg_ligand_gasteiger((vsg_ligand *)p) == VSG_OK) {
        dq = 0.0;
        for (int i = 0; i < t->natoms; i++) dq = fmax(dq, fabs(t->atoms[i].charge - p->atoms[i].charge));
    }
    if (p->status == VSG_OK && t->natoms == p->natoms && vsg_ligand_assign_ad_types((vsg_ligand *)t) == VSG_OK &&
        vsg_ligand_assign_ad_types((vsg_ligand *)p) == VSG_OK) {
        types = 1;
        for (int i = 0; i < t->natoms; i++) types &= !strcmp(t->atoms[i].ad_type, p->atoms[i].ad_type);
    }
    printf("%zu\t%s\t%d\t%.4f\t%d\t", k, t->name[0] ? t->name : "-", p->natoms, dq, types);
    for (int e = 0; e < p->nbonds; e++)
        printf("%s%d-%d:%d", e ? "," : "", p->bonds[e].a, p->bonds[e].b, p->bonds[e].order);
    printf("\t");
    int first = 1;
    for (int i = 0; i < p->natoms; i++)
        if (p->atoms[i].formal) printf("%s%d:%d", first ? "" : ",", i, p->atoms[i].formal), first = 0;
    printf("%s\t", first ? "-" : "");
    vsg_torsions tt = {0}, tp = {0};
    int rotors = -1;
    if (p->status == VSG_OK && vsg_torsions_from_bonds(t, &tt) == VSG_OK && vsg_torsions_from_bonds(p, &tp) == VSG_OK)
        rotors = tt.nrotors == tp.nrotors;
    vsg_torsions_release(&tt);
    vsg_torsions_release(&tp);
    printf("%d\n", rotors);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: bench_bond_orders TRUTH.sdf|.mol2[.gz] MOLECULES.pdb[.gz]\n");
        return 2;
    }
    vsg_ligand_reader *rt, *rp;
    const char *pt[1] = {argv[1]}, *pp[1] = {argv[2]};
    if (vsg_ligand_reader_open(pt, 1, NULL, &rt) != VSG_OK || vsg_ligand_reader_open(pp, 1, NULL, &rp) != VSG_OK) {
        fprintf(stderr, "bench_bond_orders: %s\n", vsg_last_error());
        return 1;
    }
    vsg_ligand t, p;
    vsg_ligand_init(&t);
    vsg_ligand_init(&p);
    size_t k = 0;
    while (vsg_ligand_reader_next(rt, &t) == 1) {
        if (vsg_ligand_reader_next(rp, &p) != 1) {
            fprintf(stderr, "bench_bond_orders: %s has fewer records than %s\n", argv[2], argv[1]);
            return 1;
        }
        print_line(&t, &p, k++);
    }
    vsg_ligand_release(&t);
    vsg_ligand_release(&p);
    vsg_ligand_reader_close(rt);
    vsg_ligand_reader_close(rp);
    return 0;
}
