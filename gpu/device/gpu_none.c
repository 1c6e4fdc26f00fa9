/* gpu_none.c — the GPU entry points in a build without CUDA: they say so and return
 * VSG_E_UNSUPPORTED, and the callers run the CPU twin. */
#include <string.h>

#include "gpu/device/gpu.h"
#include "grids/base/vsgrid.h"

int vsg_gpu_count(void) { return 0; }

vsg_status vsg_gpu_start(int device)
{
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

void vsg_gpu_release_pool(int device) { (void)device; }

vsg_status vsg_gpu_describe(int device, char *name, size_t len, double *free_bytes,
                            double *total_bytes)
{
    if (len) name[0] = '\0';
    if (free_bytes) *free_bytes = 0;
    if (total_bytes) *total_bytes = 0;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

#include "gpu/pb/pb_gpu.h"

double vsg_sor_gpu_bytes(const vsg_pb_system *s) { return 0.0; }

vsg_status vsg_sor_gpu(vsg_pb_system *s, const vsg_sor_settings *set, vsg_sor_result *r)
{
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

#include "grids/formats/grid.h"
#include "grids/receptor/molecule.h"

vsg_status vsg_coulomb_gpu(const vsg_molecule *m, const vsg_coulomb_kernel *k, vsg_grid *g, int device,
                           double *evals_per_second)
{
    if (evals_per_second) *evals_per_second = 0.0;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

#include "gpu/pb/pb_setup_gpu.h"

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

#include "gpu/score/score_gpu.h"

vsg_status vsg_screen_gpu_open(const vsg_score_grids *g, int device, double max_gpu_memory_bytes,
                               vsg_screen_gpu **out)
{
    if (out) *out = NULL;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

size_t vsg_screen_gpu_batch_atoms(const vsg_screen_gpu *s) { return 0; }

void vsg_screen_gpu_set_launch_atoms(vsg_screen_gpu *s, size_t atoms) {}

int vsg_screen_gpu_grids_resident(const vsg_screen_gpu *s) { return 0; }

vsg_status vsg_screen_gpu_score(vsg_screen_gpu *s, const vsg_score_batch *b, vsg_kernel k, int double_precision,
                                vsg_score_result *out, vsg_screen_timing *t)
{
    if (t) memset(t, 0, sizeof *t);
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

vsg_status vsg_screen_gpu_score_box(vsg_screen_gpu *s, const vsg_score_batch *b, const float lo[3],
                                    const float hi[3], vsg_kernel k, int double_precision, vsg_score_result *out,
                                    vsg_screen_timing *t)
{
    if (t) memset(t, 0, sizeof *t);
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

vsg_status vsg_screen_gpu_rerun_last(vsg_screen_gpu *s, int repeats, double *seconds, size_t *atoms)
{
    if (seconds) *seconds = 0.0;
    if (atoms) *atoms = 0;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

void vsg_screen_gpu_close(vsg_screen_gpu *s) {}

int vsg_screen_gpu_supports(vsg_kernel k, int double_precision) { return 0; }

#include "gpu/place/place_gpu.h"

vsg_status vsg_place_gpu_open(const vsg_score_grids *g, const vsg_quat *rotations, int nrotations, int device,
                              double max_gpu_memory_bytes, vsg_place_gpu **out)
{
    if (out) *out = NULL;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

vsg_status vsg_place_gpu_run(vsg_place_gpu *s, const vsg_place_ligand *lig, const vsg_place_options *o, vsg_kernel k,
                             int double_precision, vsg_place_result *r)
{
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

void vsg_place_gpu_close(vsg_place_gpu *s) { (void)s; }

int vsg_place_gpu_supports(vsg_kernel k, int double_precision) { return 0; }

#include "gpu/surface/surface_gpu.h"

vsg_status vsg_surface_exact_gpu(int device, const vsg_alpb *k, const vsg_molecule *m, const vsg_mesh *mesh,
                                 double *phi, vsg_surface_gpu_report *rep)
{
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

vsg_status vsg_surface_hcp_gpu(int device, const vsg_hcp *h, const vsg_alpb *k, const vsg_mesh *mesh,
                               const double thr[3], double *phi, vsg_surface_gpu_report *rep)
{
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

/* ---- MPI GPU slab backend (issue 7, gpu/pb/sor_mpi_gpu.cu): without CUDA it opens nothing. ---- */
#include "gpu/pb/sor_mpi_gpu.h"

static vsg_status slab_none_open(vsg_pb_system *s, int z_lo, int z_hi, const vsg_sor_settings *set, void **ctx)
{
    (void)s, (void)z_lo, (void)z_hi, (void)set;
    *ctx = NULL;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA (GPU slab SOR)");
}

static vsg_status slab_none_sweep(void *ctx, int c, int z0, int z1, double omega, double lambda, int check)
{
    (void)ctx, (void)c, (void)z0, (void)z1, (void)omega, (void)lambda, (void)check;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA (GPU slab SOR)");
}

static double slab_none_colour_max(void *ctx)
{
    (void)ctx;
    return 0.0;
}

static vsg_status slab_none_pack(void *ctx, int c, int z, void *buf)
{
    (void)ctx, (void)c, (void)z, (void)buf;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA (GPU slab SOR)");
}

static vsg_status slab_none_unpack(void *ctx, int c, int z, const void *buf)
{
    (void)ctx, (void)c, (void)z, (void)buf;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA (GPU slab SOR)");
}

static vsg_status slab_none_close(void *ctx, vsg_pb_system *s, int keep)
{
    (void)ctx, (void)s, (void)keep;
    return VSG_OK;
}

/* No direct halo path (the optional hooks of sor_mpi.h): it never opens a slab anyway. */
const vsg_slab_backend vsg_slab_gpu = {"gpu", slab_none_open, slab_none_sweep, slab_none_colour_max,
                                       slab_none_pack, slab_none_unpack, slab_none_close,
                                       0, NULL, NULL, NULL, NULL};

void *vsg_slab_gpu_plane(void *ctx, int c, int z)
{
    (void)ctx, (void)c, (void)z;
    return NULL;
}

double vsg_slab_gpu_bytes(const vsg_pb_system *s, int z_lo, int z_hi)
{
    (void)s, (void)z_lo, (void)z_hi;
    return 0.0;
}

#include "gpu/pb/pb_dev.h"

vsg_status vsg_pb_dev_build(const vsg_molecule *m, const vsg_pb_physics *ph, const vsg_level *lv,
                            vsg_precision precision, vsg_boundary bc, vsg_pb_system *s,
                            vsg_grid_charge **charges, size_t *ncharges, double *outside, int device,
                            int depth, vsg_pb_dev **out)
{
    memset(s, 0, sizeof *s);
    *charges = NULL;
    *ncharges = 0;
    *outside = 0.0;
    *out = NULL;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

vsg_status vsg_pb_dev_guess(vsg_pb_dev *d, const vsg_pb_system *s, const vsg_grid *coarse)
{
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

vsg_status vsg_pb_dev_guess_level(vsg_pb_dev *d, const vsg_pb_system *s, const vsg_pb_dev *coarse,
                                  const vsg_pb_system *cs)
{
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

vsg_status vsg_sor_gpu_dev(vsg_pb_dev *d, const vsg_pb_system *s, const vsg_sor_settings *set,
                           vsg_sor_result *r)
{
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

vsg_status vsg_pb_dev_result(vsg_pb_dev *d, const vsg_pb_system *s, const vsg_grid_charge *charges,
                             size_t ncharges, double *energy, vsg_grid *g)
{
    *energy = 0.0;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

double vsg_pb_dev_max_source(const vsg_pb_dev *d) { return 0.0; }

void vsg_pb_dev_free(vsg_pb_dev *d) { (void)d; }

vsg_status vsg_vina_maps_gpu(const vsg_molecule *receptor, const vsg_vina_box *box, const vsg_vina_params *p,
                             const vsg_xs_type *types, int ntypes, int device, double max_gpu_memory_bytes,
                             vsg_grid **maps)
{
    if (maps)
        for (int t = 0; t < ntypes; t++) maps[t] = NULL;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

vsg_status vsg_ad4_maps_gpu(const vsg_molecule *rec, const vsg_gpf *gpf, const vsg_ad4_params *p, int device,
                            vsg_grid **out)
{
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

#include "gpu/dock/dock_gpu.h"

vsg_status dock_gpu_maps_upload(const int n[3], const double begin[3], const double end[3], const double factor[3],
                                const double *const map[VSG_XS_COUNT], const float *pair_table, int device,
                                dock_gpu_maps **out)
{
    if (out) *out = NULL;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

vsg_status dock_gpu_ad4_maps_upload(const int n[3], const double origin[3], const double spacing[3], int nmaps,
                                    const float *const *map, int e_map, int d_map, const float *elec_shape,
                                    const float *desolv_shape, int device, dock_gpu_maps **out)
{
    if (out) *out = NULL;
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

void dock_gpu_maps_free(dock_gpu_maps *m) { (void)m; }

vsg_status dock_gpu_run(dock_gpu_maps *m, const dock_gpu_batch *b, float *out, long long *evals)
{
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}

vsg_status dock_gpu_eval(dock_gpu_maps *m, const dock_gpu_batch *b, const int *rec, const float *conf, int nconf,
                         double v, float *e, float *grad)
{
    return vsg_fail(VSG_E_UNSUPPORTED, "this vsgrid was built without CUDA");
}
