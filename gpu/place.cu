// place.cu — the GPU rigid-body pose search (contract and planned design in place_gpu.h).
// Not implemented yet: every entry point says so and returns VSG_E_UNSUPPORTED, and the
// screening pipeline places molecules with the CPU twin (grids/place_cpu.c).
extern "C" {
#include "errors.h" /* C headers without their own extern "C" guard */
#include "rotations.h"
#include "score.h"
}
#include "place_gpu.h"

extern "C" vsg_status vsg_place_gpu_open(const vsg_score_grids *g, const vsg_quat *rotations, int nrotations,
                                         int device, double max_gpu_memory_bytes, vsg_place_gpu **out)
{
    (void)g;
    (void)rotations;
    (void)nrotations;
    (void)device;
    (void)max_gpu_memory_bytes;
    if (out) *out = NULL;
    return vsg_fail(VSG_E_UNSUPPORTED, "GPU rigid placement is not implemented yet (the CPU twin places)");
}

extern "C" vsg_status vsg_place_gpu_run(vsg_place_gpu *s, const vsg_place_ligand *lig, const vsg_place_options *o,
                                        vsg_kernel k, int double_precision, vsg_place_result *r)
{
    (void)s;
    (void)lig;
    (void)o;
    (void)k;
    (void)double_precision;
    (void)r;
    return vsg_fail(VSG_E_UNSUPPORTED, "GPU rigid placement is not implemented yet (the CPU twin places)");
}

extern "C" void vsg_place_gpu_close(vsg_place_gpu *s) { (void)s; }

extern "C" int vsg_place_gpu_supports(vsg_kernel k, int double_precision)
{
    (void)k;
    (void)double_precision;
    return 0;
}
