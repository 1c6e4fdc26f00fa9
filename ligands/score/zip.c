/* zip.c — packing and unpacking of the ZIP atom format (zip.h) and the type bytes shared with
 * the plain GPU format. The packing loops run over atoms with OpenMP; the head flags are set
 * afterwards by one pass over the ligands. */
#include <math.h>
#include <string.h>

#include "ligands/score/batch.h" /* VSG_BATCH_PARALLEL_MIN */
#include "grids/base/vsgrid.h"
#include "ligands/score/zip.h"

void vsg_zip_frame_make(const float lo[3], const float hi[3], vsg_zip_frame *f)
{
    for (int d = 0; d < 3; d++) {
        if (!(lo[d] <= hi[d]) || !isfinite(lo[d]) || !isfinite(hi[d])) { /* no finite atom */
            f->lo[d] = 0.0f;
            f->quantum[d] = 0.0f;
            continue;
        }
        f->lo[d] = lo[d];
        f->quantum[d] = (float)(((double)hi[d] - (double)lo[d]) / VSG_ZIP_STEPS);
    }
}

double vsg_zip_coord_error(const vsg_zip_frame *f, int axis)
{
    const double q = f->quantum[axis];
    return 0.5 * q + ldexp(fabs((double)f->lo[axis]) + 65536.0 * q, -24);
}

/* The type byte of one atom, without the head flag; 0xFF for an invalid type index. */
static inline uint8_t type_byte(const vsg_score_batch *b, size_t i)
{
    if (!isfinite(b->x[i]) || !isfinite(b->y[i]) || !isfinite(b->z[i])) return VSG_ZIP_TYPE_BAD;
    if (!b->type) return VSG_ZIP_TYPE_NONE;
    uint8_t t = b->type[i];
    if (t == VSG_SCORE_NO_TYPE) return VSG_ZIP_TYPE_NONE;
    return t < VSG_ZIP_TYPE_BAD ? t : 0xFF;
}

/* Sets the head flag on the first atom of every non-empty ligand of [l0, l1). */
static void mark_heads(const vsg_score_batch *b, size_t l0, size_t l1, uint8_t *bytes, uint32_t *words)
{
    const size_t a0 = b->start[l0];
    for (size_t l = l0; l < l1; l++) {
        if (b->start[l + 1] == b->start[l]) continue;
        size_t i = b->start[l] - a0;
        if (bytes) bytes[i] |= VSG_ZIP_HEAD;
        if (words) words[i] |= VSG_ZIP_HEAD;
    }
}

static vsg_status bad_type(const vsg_score_batch *b, long long atom)
{
    return vsg_fail(VSG_E_ARG, "GPU batch: atom %lld has type index %d (a map index < %d or %d for none)", atom,
                    (int)b->type[atom], VSG_ZIP_TYPE_BAD, VSG_SCORE_NO_TYPE);
}

vsg_status vsg_zip_type_bytes(const vsg_score_batch *b, size_t l0, size_t l1, uint8_t *out)
{
    if (!b || !out || l0 > l1 || l1 > b->nlig) return vsg_fail(VSG_E_ARG, "GPU batch: bad type-byte request");
    if (l0 == l1) return VSG_OK;
    const long long a0 = b->start[l0], a1 = b->start[l1];
    long long bad = -1;
#pragma omp parallel for schedule(static) reduction(max : bad) if (a1 - a0 >= VSG_BATCH_PARALLEL_MIN)
    for (long long i = a0; i < a1; i++) {
        uint8_t t = type_byte(b, (size_t)i);
        if (t == 0xFF && i > bad) bad = i;
        out[i - a0] = t;
    }
    if (bad >= 0) return bad_type(b, bad);
    mark_heads(b, l0, l1, out, NULL);
    return VSG_OK;
}

/* The ligand that owns atom i (binary search in start[]). */
static size_t ligand_of(const vsg_score_batch *b, size_t i)
{
    size_t lo = 0, hi = b->nlig; /* start[lo] ≤ i < start[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->start[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

vsg_status vsg_zip_pack(const vsg_zip_frame *f, const vsg_score_batch *b, size_t l0, size_t l1, uint16_t *kx,
                        uint16_t *ky, uint16_t *kz, uint32_t *qt)
{
    if (!f || !b || !kx || !ky || !kz || !qt || l0 > l1 || l1 > b->nlig)
        return vsg_fail(VSG_E_ARG, "ZIP pack: bad arguments");
    if (l0 == l1) return VSG_OK;
    const long long a0 = b->start[l0], a1 = b->start[l1];
    uint16_t *const k[3] = {kx, ky, kz};
    const float *const p[3] = {b->x, b->y, b->z};
    double inv[3], slack[3];
    for (int d = 0; d < 3; d++) {
        inv[d] = f->quantum[d] > 0.0f ? 1.0 / f->quantum[d] : 0.0;
        slack[d] = 1.0; /* steps a finite coordinate may lie outside the box (rounding) */
    }
    long long bad_charge = -1, bad_coord = -1, bad_t = -1;
#pragma omp parallel for schedule(static) reduction(max : bad_charge, bad_coord, bad_t) \
    if (a1 - a0 >= VSG_BATCH_PARALLEL_MIN)
    for (long long i = a0; i < a1; i++) {
        const long long o = i - a0;
        uint8_t t = type_byte(b, (size_t)i);
        if (t == 0xFF) {
            if (i > bad_t) bad_t = i;
            t = VSG_ZIP_TYPE_NONE;
        }
        for (int d = 0; d < 3; d++) {
            double s = 0.0;
            if (t != VSG_ZIP_TYPE_BAD) {
                s = rint(((double)p[d][i] - (double)f->lo[d]) * inv[d]);
                if (s < -slack[d] || s > VSG_ZIP_STEPS + slack[d]) {
                    if (i > bad_coord) bad_coord = i;
                }
                if (s < 0.0) s = 0.0;
                if (s > VSG_ZIP_STEPS) s = VSG_ZIP_STEPS;
            }
            k[d][o] = (uint16_t)s;
        }
        double qv = rint((double)b->q[i] * VSG_ZIP_CHARGE_SCALE);
        if (!(fabs(qv) <= VSG_ZIP_CHARGE_LIMIT)) { /* NaN fails too */
            if (i > bad_charge) bad_charge = i;
            qv = 0.0;
        }
        qt[o] = ((uint32_t)(int32_t)qv << 8) | t;
    }
    if (bad_t >= 0) return bad_type(b, bad_t);
    if (bad_charge >= 0)
        return vsg_fail(VSG_E_DATA, "ZIP pack: atom %lld of ligand %zu has charge %g e, outside ZIP's range of "
                                    "+-%.7f e (use a non-ZIP kernel)",
                        bad_charge, ligand_of(b, (size_t)bad_charge), (double)b->q[bad_charge],
                        VSG_ZIP_CHARGE_LIMIT / VSG_ZIP_CHARGE_SCALE);
    if (bad_coord >= 0)
        return vsg_fail(VSG_E_ARG, "ZIP pack: atom %lld (%g, %g, %g) lies outside the batch box", bad_coord,
                        (double)b->x[bad_coord], (double)b->y[bad_coord], (double)b->z[bad_coord]);
    mark_heads(b, l0, l1, NULL, qt);
    return VSG_OK;
}

void vsg_zip_unpack(const vsg_zip_frame *f, size_t n, const uint16_t *kx, const uint16_t *ky, const uint16_t *kz,
                    const uint32_t *qt, float *x, float *y, float *z, float *q, uint8_t *type)
{
    const long long nn = (long long)n;
#pragma omp parallel for schedule(static) if (nn >= VSG_BATCH_PARALLEL_MIN)
    for (long long i = 0; i < nn; i++) {
        const uint8_t t = (uint8_t)(qt[i] & VSG_ZIP_TYPE_MASK);
        q[i] = vsg_zip_decode_charge(qt[i]);
        if (t == VSG_ZIP_TYPE_BAD) {
            x[i] = y[i] = z[i] = NAN;
            type[i] = VSG_SCORE_NO_TYPE;
            continue;
        }
        x[i] = vsg_zip_decode_coord(kx[i], f->quantum[0], f->lo[0]);
        y[i] = vsg_zip_decode_coord(ky[i], f->quantum[1], f->lo[1]);
        z[i] = vsg_zip_decode_coord(kz[i], f->quantum[2], f->lo[2]);
        type[i] = t == VSG_ZIP_TYPE_NONE ? VSG_SCORE_NO_TYPE : t;
    }
}
