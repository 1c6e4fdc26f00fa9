/* hcp.h — Hierarchical Charge Partitioning (Anandakrishnan & Onufriev 2010; paper 004).
 *
 * The molecule is a hierarchy complex ⊃ chain/strand ⊃ residue ⊃ atom built from its
 * records: a residue is a run of atoms with the same (model, TER segment, chain, residue
 * number, insertion code, residue name); a chain a run of residues with the same (model,
 * segment, chain); a complex a run of chains with the same model. Far away, a component is
 * represented by at most two point charges: its positive charge at the centre of its
 * positive charges and its negative charge at the centre of its negative charges, which
 * reproduces the component's monopole and dipole exactly. A vertex uses a component's
 * approximation when its distance to the component's geometric centre is ≥ that level's
 * threshold (residue 10 Å, chain 70 Å, complex 150 Å by default), and opens it otherwise.
 * Thresholds of +∞ give the exact all-pairs sum. */
#ifndef VSG_HCP_H
#define VSG_HCP_H

#include <stddef.h>
#include <stdint.h>

#include "grids/surface/alpb.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double c[3];        /* geometric centre (the distance test) */
    double q[2];        /* positive and negative approximate charges (0 when absent) */
    double p[2][3];     /* their positions */
    uint32_t first;     /* first child: atom (residue level), residue (chain), chain (complex) */
    uint32_t count;     /* number of children */
} vsg_hcp_component;

/* The handle vsg_hcp (opaque in vsgrid.h), the thresholds, vsg_hcp_build, _build_grouped,
 * _read_groups and _free are public (vsgrid.h). */
struct vsg_hcp {
    size_t natoms, nres, nchain, ncplx;
    double *atom;                 /* 4·natoms: x, y, z, q in hierarchy (= file) order */
    uint32_t *atom_index;         /* natoms: index into the molecule */
    vsg_hcp_component *res, *chain, *cplx;
};

/* Surface potential (kcal/(mol·e)) at each vertex with thresholds thr[0..2] (residue,
 * chain, complex; Å). *pairs (may be NULL) receives the number of charge–vertex pair
 * evaluations, for throughput reports. Double precision, OpenMP. */
vsg_status vsg_hcp_potential_cpu(const vsg_hcp *h, const vsg_alpb *k, const vsg_mesh *mesh,
                                 const double thr[3], double *phi, double *pairs);

/* Relative RMS difference √(Σ(a−b)²/Σb²), the measure of paper 004's table IV. */
double vsg_relative_rms(const double *a, const double *b, size_t n);

#ifdef __cplusplus
}
#endif

#endif
