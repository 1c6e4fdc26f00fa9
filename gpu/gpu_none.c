/* gpu_none.c — the GPU entry points in a build without CUDA: they say so and return
 * VSG_E_UNSUPPORTED, and the callers run the CPU twin. */
#include <string.h>

#include "gpu.h"
#include "errors.h"

int vsg_gpu_count(void) { return 0; }

vsg_status vsg_gpu_describe(int device, char *name, size_t len, double *free_bytes,
                            double *total_bytes)
{
    if (len) name[0] = '\0';
    if (free_bytes) *free_bytes = 0;
    if (total_bytes) *total_bytes = 0;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

#include "pb_gpu.h"

double vsg_sor_gpu_bytes(const vsg_pb_system *s) { return 0.0; }

vsg_status vsg_sor_gpu(vsg_pb_system *s, const vsg_sor_settings *set, vsg_sor_result *r)
{
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

#include "coulomb.h"

vsg_status vsg_coulomb_gpu(const vsg_molecule *m, const vsg_coulomb_kernel *k, vsg_grid *g, int device,
                           double *evals_per_second)
{
    if (evals_per_second) *evals_per_second = 0.0;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

#include "pb_setup_gpu.h"

vsg_status vsg_pb_build_gpu(const vsg_molecule *m, const vsg_pb_physics *ph, const vsg_level *lv,
                            vsg_precision precision, vsg_boundary bc, vsg_pb_system *s,
                            vsg_grid_charge **charges, size_t *ncharges, double *outside, int device,
                            double *seconds)
{
    if (seconds) *seconds = 0.0;
    memset(s, 0, sizeof *s);
    *charges = NULL;
    *ncharges = 0;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}
