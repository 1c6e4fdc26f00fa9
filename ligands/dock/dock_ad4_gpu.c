/* dock_ad4_gpu.c — vsg_dock_ad4_gpu (vsgrid.h): docking with the AutoDock4 function on a GPU.
 * The record is made ready as the CPU twin makes it (dock_ad4_prepare), packed with its map
 * types, charges and autodock4's pairs (dock_pack_ad4), its chains run by the GPU search's kernel
 * (gpu/dock/dock_gpu.cu, its AutoDock4 branch), and each chain's kept minima come back as
 * conformations whose coordinates and energies the host recomputes in double before the CPU
 * twin's ranking, clustering and epdb scoring (dock_ad4_finish): the devices share every step
 * but the chains, as vsg_dock_batch's GPU path does for the Vina function. */
#include <stdlib.h>
#include <string.h>

#include "gpu/dock/dock_gpu.h"
#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_method.h"
#include "ligands/dock/dock_pack.h"

/* autodock4's pair shapes (ad4_intra.h) in float, as the kernel reads them. */
static vsg_status shapes(const ad4_intra_tables *it, float **elec, float **desolv)
{
    *elec = malloc(sizeof(float) * DOCK_GPU_AD4_SHAPE_SAMPLES);
    *desolv = malloc(sizeof(float) * DOCK_GPU_AD4_SHAPE_SAMPLES);
    if (!*elec || !*desolv) return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    for (int k = 0; k < DOCK_GPU_AD4_SHAPE_SAMPLES; k++) (*elec)[k] = (float)it->elec_shape[k], (*desolv)[k] = (float)it->desolv_shape[k];
    return VSG_OK;
}

/* The target's maps on `device`, uploaded on first use and kept with the target. */
static vsg_status device_maps(const vsg_ad4_target *tc, const ad4_intra_tables *it, int device, dock_gpu_maps **out)
{
    vsg_ad4_target *t = (vsg_ad4_target *)tc; /* the cache is the target's, not its contents */
    if (device < 0 || device >= DOCK_AD4_DEVICES) return vsg_fail(VSG_E_ARG, "dock: GPU %d out of range", device);
    const vsg_score_grids *g = t->g;
    if (g->nmaps > DOCK_GPU_MAX_MAPS)
        return vsg_fail(VSG_E_LIMIT, "dock: the GPU search takes at most %d maps (this set has %d): dock on the CPU",
                        DOCK_GPU_MAX_MAPS, g->nmaps);
    vsg_status st = VSG_OK;
    pthread_mutex_lock(&t->gpu_mu);
    if (!t->gpu[device]) {
        float *elec = NULL, *desolv = NULL;
        st = shapes(it, &elec, &desolv);
        if (st == VSG_OK)
            st = dock_gpu_ad4_maps_upload(g->n, g->origin, g->spacing, g->nmaps, g->maps, g->e_map, g->d_map, elec, desolv,
                                          device, &t->gpu[device]);
        free(elec), free(desolv);
    }
    if (st == VSG_OK) *out = t->gpu[device];
    pthread_mutex_unlock(&t->gpu_mu);
    return st;
}

vsg_status vsg_dock_ad4_gpu(const vsg_ad4_target *t, const vsg_ligand *lig, const vsg_dock_params *p, int device,
                            vsg_dock_result *out, vsg_ad4_score *scores)
{
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_dock_ad4_gpu: NULL argument");
    memset(out, 0, sizeof *out);
    if (!t || !lig) return vsg_fail(VSG_E_ARG, "vsg_dock_ad4_gpu: NULL argument");
    vsg_dock_params P;
    vsg_status st = dock_params_resolve(p, &P);
    if (st != VSG_OK) return st;
    if ((st = dock_gpu_check_device(&device)) != VSG_OK) return st;
    const double t0 = vsg_now();
    dock_ad4_prep d;
    dock_gpu_batch b;
    memset(&b, 0, sizeof b);
    dock_gpu_maps *maps = NULL;
    float *res = NULL;
    dock_gpu_kept_set ks;
    memset(&ks, 0, sizeof ks);
    if ((st = dock_ad4_prepare(t, lig, &P, &d)) != VSG_OK) goto prepared_nothing;
    if ((st = dock_gpu_check_size(lig, &d.tree, "")) != VSG_OK) goto done;
    if ((st = device_maps(t, &d.A.intra, device, &maps)) != VSG_OK) goto done;
    if ((st = dock_pack_ad4(&d, P.seed, &P, &b)) != VSG_OK) goto done;
    long evaluations = 0;
    if ((st = dock_gpu_run_record(maps, &b, &res, &evaluations)) != VSG_OK) goto done;
    int stride, keep;
    dock_gpu_layout(&b, &stride, &keep);
    if ((st = dock_gpu_kept(&d.tree, &d.en, res, stride, b.nchain, keep, &ks)) != VSG_OK) goto done;
    st = dock_ad4_finish(t, lig, &d, ks.all, ks.total, &P, out, scores);
    out->evaluations = evaluations; /* the finish counts none of its own */
done:
    dock_gpu_kept_free(&ks);
    free(res);
    dock_pack_release(&b);
    dock_ad4_prep_release(&d);
prepared_nothing:
    out->seconds = vsg_now() - t0;
    if (st != VSG_OK) vsg_dock_result_release(out);
    return st;
}
