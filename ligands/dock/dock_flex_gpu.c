/* dock_flex_gpu.c — vsg_dock_flex_gpu (vsgrid.h): a ligand and flexible receptor side chains
 * searched together on a GPU. The record is made ready as vsg_dock_flex_cpu makes it
 * (dock_prepare_flex: the ligand's tree widened with the residues' torsions, their pairs), packed
 * with the residues' atoms after the ligand's and their roots in a fixed body (dock_pack.c), its
 * chains run by the GPU search's kernel, and the chains' minima finished as the CPU twin finishes
 * its own (dock_gpu_finish_record: atoms and energies in double, dock_finish, the residues' poses):
 * the devices share every step but the chains. */
#include <stdlib.h>
#include <string.h>

#include "gpu/dock/dock_gpu.h"
#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_pack.h"

vsg_status vsg_dock_flex_gpu(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_flex *f, const vsg_dock_params *p,
                             int device, vsg_dock_result *out, vsg_flex_pose **poses)
{
    if (!out || !poses) return vsg_fail(VSG_E_ARG, "vsg_dock_flex_gpu: NULL argument");
    memset(out, 0, sizeof *out);
    *poses = NULL;
    if (!t || !lig || !f) return vsg_fail(VSG_E_ARG, "vsg_dock_flex_gpu: NULL argument");
    if (!t->is_maps) return vsg_fail(VSG_E_ARG, "vsg_dock_flex_gpu: the target must be a Vina map set (vsg_vina_target_maps)");
    vsg_dock_params P;
    vsg_status st = dock_params_resolve(p, &P);
    if (st != VSG_OK) return st;
    if ((st = dock_gpu_check_device(&device)) != VSG_OK) return st;
    const double t0 = vsg_now();
    dock_prep d;
    if ((st = dock_prepare_flex(t, lig, f, &P, &d)) != VSG_OK) {
        out->seconds = vsg_now() - t0;
        return st;
    }
    dock_gpu_batch b;
    memset(&b, 0, sizeof b);
    dock_gpu_maps *maps = NULL;
    float *res = NULL;
    long long *evals = NULL;
    vsg_flex_pose *fp = NULL;
    if (d.tree.natoms > DOCK_GPU_MAX_ATOMS || d.tree.nrot > DOCK_GPU_MAX_ROTORS) {
        st = vsg_fail(VSG_E_LIMIT, "%s: record %ld with its flex residues: %d atoms and %d torsions, over the GPU search's %d "
                      "and %d: dock it on the CPU (--devices cpu)", lig->source ? lig->source : "?", lig->record, d.tree.natoms,
                      d.tree.nrot, DOCK_GPU_MAX_ATOMS, DOCK_GPU_MAX_ROTORS);
        goto done;
    }
    if (!(fp = calloc((size_t)P.poses + 1, sizeof *fp))) st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    for (int i = 0; st == VSG_OK && i < P.poses; i++)
        if (!(fp[i].xyz = malloc(sizeof(double) * 3 * (size_t)f->L->natoms))) st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    if (st == VSG_OK) st = dock_gpu_target_maps(t, device, &maps);
    const char use = 1;
    const uint64_t seed = P.seed;
    if (st == VSG_OK) st = dock_pack(&d, &use, 1, &seed, &P, &b);
    if (st != VSG_OK) goto done;
    const int stride = 8 + b.max_rot, keep = b.keep > 1 ? b.keep : 1;
    res = malloc(sizeof(float) * (size_t)stride * (size_t)keep * (size_t)(b.nchain > 0 ? b.nchain : 1));
    evals = calloc((size_t)(b.nchain > 0 ? b.nchain : 1), sizeof *evals);
    if (!res || !evals) {
        st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
        goto done;
    }
    if ((st = dock_gpu_run(maps, &b, res, evals)) != VSG_OK) goto done;
    d.flex_out = fp;
    if ((st = dock_gpu_finish_record(t, &d, res, stride, b.nchain, keep, &P, out)) != VSG_OK) goto done;
    for (int c = 0; c < b.nchain; c++) out->evaluations += evals[c];
done:
    free(res), free(evals);
    dock_pack_release(&b);
    dock_prep_release(&d);
    out->seconds = vsg_now() - t0;
    if (st != VSG_OK) {
        vsg_flex_poses_free(fp, P.poses);
        vsg_dock_result_release(out);
        return st;
    }
    for (int i = out->npose; i < P.poses; i++) free(fp[i].xyz), fp[i].xyz = NULL;
    *poses = fp;
    return VSG_OK;
}
