/* zip.h — the ZIP atom format of paper 003 (gpu/score/score_gpu.cu decodes it in the kernels), packed
 * on the host, and the matching unpack the CPU uses to predict ZIP's result: the CPU twin on
 * the unpacked batch gives what the ZIP kernels compute, up to float rounding.
 *
 * 10 bytes per atom, structure of arrays:
 *  - coordinates: 3 × uint16 k per atom, x' = fmaf(k, quantum, lo) per axis (one correctly
 *    rounded operation, on the host as on the device, so both decode the same bits). The frame
 *    is the box of the batch's finite coordinates, quantum = (hi − lo)/65535 per axis (rounded
 *    to float). k is the nearest step, so |k·quantum − (x − lo)| ≤ quantum/2,
 *    and the decode rounds once: |x' − x| ≤ quantum/2 + 2^-24·(|lo| + 65536·quantum), returned
 *    per axis by vsg_zip_coord_error. A 24 Å pocket: quantum 3.7e-4 Å, error ≤ 1.9e-4 Å (+ ~1e-5 Å).
 *  - charge and type: one uint32 = (Q << 8) | type byte, Q a signed 24-bit integer =
 *    round(q · 2^20): charge quantum 2^-20 e = 9.5e-7 e, error ≤ 2^-21 e = 4.8e-7 e, range
 *    |q| ≤ (2^23 − 1)/2^20 ≈ 7.9999995 e (beyond, or not finite: VSG_E_DATA).
 *  - the type byte (also the plain format's type array, gpu/score/score_gpu.cu): bits 0–6 the map index
 *    (0–31), VSG_ZIP_TYPE_NONE for VSG_SCORE_NO_TYPE, VSG_ZIP_TYPE_BAD for an atom with a NaN or
 *    infinite coordinate (outside, contributes 0, as the twin says; its k are 0); bit 7
 *    (VSG_ZIP_HEAD) marks the first atom of each non-empty ligand, which is how the kernels find
 *    ligand boundaries without a per-atom ligand index.
 *
 * The error this makes in a score: per atom ≤ |q|·Σ_axes (err_axis/spacing_axis)·(largest
 * difference between neighbouring nodes along that axis in the cells the atom moves through)
 * + 2^-21·|φ| (tests/test_gpu_screen.c checks exactly this bound against the twin). */
#ifndef VSG_ZIP_H
#define VSG_ZIP_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "grids/base/vsgrid.h"

#define VSG_ZIP_STEPS 65535                 /* quanta across the box per axis */
#define VSG_ZIP_CHARGE_SCALE 1048576.0      /* 2^20 per e */
#define VSG_ZIP_CHARGE_LIMIT 8388607        /* 2^23 − 1 */
#define VSG_ZIP_CHARGE_ERROR (0.5 / 1048576.0) /* e */
#define VSG_ZIP_TYPE_NONE 0x7F
#define VSG_ZIP_TYPE_BAD 0x7E
#define VSG_ZIP_TYPE_MASK 0x7F
#define VSG_ZIP_HEAD 0x80

typedef struct {
    float lo[3];      /* Å: box corner (k = 0) */
    float quantum[3]; /* Å per step; 0 when the box is flat along that axis */
} vsg_zip_frame;

/* The frame of a box (lo > hi, no finite atom: lo = 0, quantum = 0). */
void vsg_zip_frame_make(const float lo[3], const float hi[3], vsg_zip_frame *f);
/* Largest |x' − x| along an axis for coordinates inside the frame's box (Å). */
double vsg_zip_coord_error(const vsg_zip_frame *f, int axis);

/* Decoding, shared with the kernels (they use __fmaf_rn, the same correctly rounded FMA). */
static inline float vsg_zip_decode_coord(uint16_t k, float quantum, float lo) { return fmaf((float)k, quantum, lo); }
static inline float vsg_zip_decode_charge(uint32_t w)
{
    int32_t v = (int32_t)(w >> 8);
    if (v & 0x800000) v -= 0x1000000;
    return (float)v * (float)(1.0 / VSG_ZIP_CHARGE_SCALE);
}

/* Type bytes (with head flags) of ligands [l0, l1) of b, atom start[l0] + i going to out[i].
 * VSG_E_ARG for a type index that is neither < 0x7E nor VSG_SCORE_NO_TYPE. */
vsg_status vsg_zip_type_bytes(const vsg_score_batch *b, size_t l0, size_t l1, uint8_t *out);

/* Packs ligands [l0, l1) of b (atom start[l0] + i to index i). VSG_E_DATA for a charge out of
 * range (message names atom and ligand), VSG_E_ARG for a finite coordinate outside the frame's
 * box by more than one quantum or a bad type index. OpenMP over atoms. */
vsg_status vsg_zip_pack(const vsg_zip_frame *f, const vsg_score_batch *b, size_t l0, size_t l1, uint16_t *kx,
                        uint16_t *ky, uint16_t *kz, uint32_t *qt);

/* The inverse: n atoms back to float coordinates, charges and vsgrid.h score types (head flags
 * dropped, VSG_ZIP_TYPE_NONE → VSG_SCORE_NO_TYPE, VSG_ZIP_TYPE_BAD → NaN coordinates). */
void vsg_zip_unpack(const vsg_zip_frame *f, size_t n, const uint16_t *kx, const uint16_t *ky, const uint16_t *kz,
                    const uint32_t *qt, float *x, float *y, float *z, float *q, uint8_t *type);

#endif
