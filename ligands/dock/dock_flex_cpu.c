/* dock_flex_cpu.c — vsg_dock_flex_cpu and vsg_dock_flex_energy (vsgrid.h, "Flexible receptor
 * side chains"): a ligand and the flex residues searched together by the CPU twin's chains on the
 * widened tree (dock_flex.c makes it; vsg_dock_flex_gpu, dock_flex_gpu.c, runs the same on a GPU),
 * and the search's energy of a pose for tests. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_method.h"

vsg_status vsg_dock_flex_cpu(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_flex *f, const vsg_dock_params *p,
                             vsg_dock_result *out, vsg_flex_pose **poses)
{
    if (!out || !poses) return vsg_fail(VSG_E_ARG, "vsg_dock_flex_cpu: NULL argument");
    memset(out, 0, sizeof *out);
    *poses = NULL;
    if (!t || !lig || !f) return vsg_fail(VSG_E_ARG, "vsg_dock_flex_cpu: NULL argument");
    if (!t->is_maps) return vsg_fail(VSG_E_ARG, "vsg_dock_flex_cpu: the target must be a Vina map set (vsg_vina_target_maps)");
    vsg_dock_params P;
    vsg_status st = dock_params_resolve(p, &P);
    if (st != VSG_OK) return st;
    const double t0 = vsg_now();
    dock_prep d;
    if ((st = dock_prepare_flex(t, lig, f, &P, &d)) != VSG_OK) {
        out->seconds = vsg_now() - t0;
        return st;
    }
    vsg_flex_pose *fp = NULL;
    st = dock_flex_poses_new(f, P.poses, &fp);
    dock_chains *store = NULL;
    dock_kept **all = NULL;
    int total = 0;
    if (st == VSG_OK)
        st = dock_chains_run(&d.tree, &d.en, t->begin, t->end, &P, d.steps, d.local_steps, &store, &all, &total,
                             &out->evaluations);
    if (st == VSG_OK) {
        d.flex_out = fp;
        st = dock_finish(t, &d, all, total, &P, out);
        out->chains = P.exhaustiveness;
    }
    dock_chains_free(store);
    dock_prep_release(&d);
    out->seconds = vsg_now() - t0;
    return dock_flex_poses_hand_off(st, fp, P.poses, out, poses);
}

double vsg_dock_flex_energy(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_flex *f, const double *lig_xyz,
                            const double *flex_xyz, double *grad)
{
    if (!t || !lig || !f || !t->is_maps) return NAN;
    vsg_dock_params P;
    vsg_dock_params_default(&P);
    dock_prep d;
    if (dock_prepare_flex(t, lig, f, &P, &d) != VSG_OK) return NAN;
    const int nl = d.tree.nlig, nf = f->L->natoms;
    double *xyz = malloc(sizeof(double) * 3 * (size_t)(nl + nf)), *g = grad ? malloc(sizeof(double) * 3 * (size_t)(nl + nf)) : NULL;
    double e = NAN;
    if (xyz && (!grad || g)) {
        memcpy(xyz, lig_xyz ? lig_xyz : d.L->xyz, sizeof(double) * 3 * (size_t)nl);
        dock_flex_model_order(f, flex_xyz, xyz + 3 * nl);
        if (!flex_xyz) memcpy(xyz + 3 * nl, f->L->xyz, sizeof(double) * 3 * (size_t)nf);
        e = dock_energy_eval(&d.en, xyz, DOCK_AUTHENTIC_CAP, g, NULL, NULL);
        if (grad) {
            memcpy(grad, g, sizeof(double) * 3 * (size_t)nl);
            for (int k = 0; k < nf; k++)
                for (int q = 0; q < 3; q++) grad[3 * (nl + k) + q] = g[3 * (nl + f->file_atom[k]) + q];
        }
    }
    free(xyz), free(g);
    dock_prep_release(&d);
    return e;
}
