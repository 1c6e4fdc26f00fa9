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
    vsg_flex_pose *fp = NULL;
    if ((st = dock_gpu_check_size(lig, &d.tree, " with its flex residues")) != VSG_OK) goto done;
    st = dock_flex_poses_new(f, P.poses, &fp);
    if (st == VSG_OK) st = dock_gpu_target_maps(t, device, &maps);
    const char use = 1;
    const uint64_t seed = P.seed;
    if (st == VSG_OK) st = dock_pack(&d, &use, 1, &seed, &P, &b);
    if (st != VSG_OK) goto done;
    long evaluations = 0;
    if ((st = dock_gpu_run_record(maps, &b, &res, &evaluations)) != VSG_OK) goto done;
    int stride, keep;
    dock_gpu_layout(&b, &stride, &keep);
    d.flex_out = fp;
    if ((st = dock_gpu_finish_record(t, &d, res, stride, b.nchain, keep, &P, out)) != VSG_OK) goto done;
    out->evaluations += evaluations;
done:
    free(res);
    dock_pack_release(&b);
    dock_prep_release(&d);
    out->seconds = vsg_now() - t0;
    return dock_flex_poses_hand_off(st, fp, P.poses, out, poses);
}
