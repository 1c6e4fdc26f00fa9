/* surface_pipeline.c — chooses the device and runs the exact or HCP surface potential. */
#include "grids/surface/alpb.h"
#include "grids/surface/hcp.h"
#include "grids/base/vsgrid.h"

#include <math.h>
#include <string.h>

#include "gpu/device/gpu.h"
#include "grids/receptor/molecule.h"
#include "gpu/surface/surface_gpu.h"

void vsg_surface_options_default(vsg_surface_options *o)
{
    memset(o, 0, sizeof *o);
    vsg_alpb_params_default(&o->alpb);
    o->mode = VSG_SURFACE_HCP;
    o->thresholds[0] = VSG_HCP_RESIDUE_THRESHOLD;
    o->thresholds[1] = VSG_HCP_CHAIN_THRESHOLD;
    o->thresholds[2] = VSG_HCP_COMPLEX_THRESHOLD;
    o->device = VSG_DEVICE_AUTO;
}

vsg_status vsg_surface_potential(const vsg_molecule *m, const vsg_hcp *h_in, const vsg_mesh *mesh,
                                 const vsg_surface_options *o, double *phi, vsg_surface_report *r)
{
    double t0 = vsg_now();
    memset(r, 0, sizeof *r);
    vsg_status st = vsg_alpb_setup(&o->alpb, m, &r->k);
    if (st != VSG_OK) return st;
    vsg_hcp *own = NULL;
    const vsg_hcp *h = h_in;
    if (!h) {
        st = vsg_hcp_build(m, &own);
        if (st != VSG_OK) return st;
        h = own;
    }
    r->nres = h->nres, r->nchain = h->nchain, r->ncplx = h->ncplx;
    int use_gpu = 0;
    if (o->device != VSG_DEVICE_CPU) {
        int count = vsg_gpu_count();
        if (count > o->gpu_index) use_gpu = 1;
        else if (o->device == VSG_DEVICE_GPU) {
            vsg_hcp_free(own);
            return vsg_fail(VSG_E_DEVICE, count ? "GPU %d requested but only %d present" : "GPU %d requested but no CUDA GPU is usable",
                            o->gpu_index, count);
        }
    }
    double inf[3] = {INFINITY, INFINITY, INFINITY};
    const double *thr = o->mode == VSG_SURFACE_HCP ? o->thresholds : inf;
    if (use_gpu) {
        vsg_surface_gpu_report g;
        vsg_gpu_describe(o->gpu_index, r->device_name, sizeof r->device_name, NULL, NULL);
        st = o->mode == VSG_SURFACE_HCP ? vsg_surface_hcp_gpu(o->gpu_index, h, &r->k, mesh, thr, phi, &g)
                                        : vsg_surface_exact_gpu(o->gpu_index, &r->k, m, mesh, phi, &g);
        if (st == VSG_OK) {
            r->on_gpu = 1;
            r->pairs = g.pairs;
            r->kernel_seconds = g.kernel_seconds;
            r->device_bytes = g.device_bytes;
        } else if (o->device == VSG_DEVICE_AUTO && st != VSG_E_NOMEM) {
            vsg_warn("GPU surface potential failed (%s); using the CPU twin", vsg_last_error());
            use_gpu = 0;
        }
    }
    if (!use_gpu) {
        double t1 = vsg_now();
        strcpy(r->device_name, "CPU (OpenMP, double)");
        if (o->mode == VSG_SURFACE_HCP) {
            st = vsg_hcp_potential_cpu(h, &r->k, mesh, thr, phi, &r->pairs);
        } else {
            size_t charged = 0;
            for (size_t i = 0; i < m->n; i++) charged += m->atoms[i].charge != 0.0;
            st = vsg_alpb_exact_cpu(&r->k, m, mesh, phi);
            r->pairs = (double)charged * (double)mesh->nvert;
        }
        r->kernel_seconds = vsg_now() - t1;
    }
    vsg_hcp_free(own);
    r->seconds = vsg_now() - t0;
    return st;
}
