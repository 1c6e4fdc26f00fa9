/* pb_system.h — the discretised Poisson–Boltzmann problem on one grid, as the SOR solvers
 * (CPU twin in sor_cpu.c, GPU in gpu/pb/sor_gpu.cu) see it. Both solvers take the same system
 * and the same settings, and must produce the same potential.
 *
 * Finite differences (DelPhi convention, potential φ in kT/e): for node j with the six
 * midpoint dielectrics ε_i, grid charge q_j (e) and spacing h (Å),
 *
 *     φ_j = ( Σ ε_i φ_i + 4π λ_B q_j / h ) / ( Σ ε_i + ε_solv κ_j² h² )
 *
 * with κ_j = κ where node j is ion-accessible, else 0. Nonlinear PB replaces ε_solv κ² h² φ_j
 * by ε_solv κ² h² g(φ_j), g(φ) = −Σ_s c_s z_s e^{−z_s φ} / (2I) (sinh φ for a 1:1 salt).
 *
 * Storage: checkerboard split. Node (x,y,z) has linear index L = x + nx·(y + ny·z); with nx
 * and ny odd, L's parity equals that of x+y+z, so colour c = L & 1 and the node lives at
 * phi[c][L >> 1]. A colour update reads only the other colour.
 *
 * Update: a uniform stencil everywhere (φ = Σ φ_i · u[flag]), then corrections at the
 * listed nodes: dielectric-boundary nodes (ε_i not all equal, or salt where ε ≠ ε_solv) and
 * charged nodes. Listed nodes carry VSG_NODE_LISTED in their flag; the uniform pass leaves
 * them alone and the correction pass relaxes them from their own old value, so no copy of
 * old values is needed. Box-face nodes are fixed (Dirichlet) and never updated.
 */
#ifndef VSG_PB_SYSTEM_H
#define VSG_PB_SYSTEM_H

#include <stddef.h>
#include <stdint.h>

#include <math.h>
#include <stdio.h>

#include "grids/base/vsgrid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per-node flag byte. */
enum {
    VSG_NODE_SALT = 1,     /* ion-accessible: κ_j = κ */
    VSG_NODE_LISTED = 2    /* updated by the correction list, skipped by the uniform pass */
};

/* One listed node: φ_GS = Σ w_i φ_i + s − k (g(φ_j) − φ_j). w, s, k are already divided by
 * the node's diagonal D = Σ ε_i + ε_solv κ_j² h². Neighbour order: −x, +x, −y, +y, −z, +z. */
typedef struct {
    uint64_t index;        /* index within its colour array */
    double w[6];
    double s;              /* 4π λ_B q_j / (h D) */
    double k;              /* ε_solv κ_j² h² / D (0 where no salt) */
} vsg_pb_corr;

typedef struct {
    int nx, ny, nz;        /* nx, ny odd */
    double h;              /* Å */
    double origin[3];      /* Å, node (0,0,0) */
    size_t nodes;          /* nx·ny·nz */
    size_t count[2];       /* nodes of colour 0 and 1 */
    uint8_t *flag[2];      /* per colour, VSG_NODE_* bits */
    void *phi[2];          /* per colour: double or float (precision) */
    vsg_precision precision;
    vsg_pb_corr *corr[2];  /* listed nodes of each colour, sorted by index */
    size_t ncorr[2];
    double kh2;            /* κ² h² (uniform salt nodes have ε = ε_solv) */
    int nonlinear;
    /* Ion species for g(φ): c_s (mol/L) z_s, and 2I = Σ c_s z_s². */
    int n_ions;
    double ion_molar[VSG_MAX_IONS], ion_charge[VSG_MAX_IONS];
    double two_i;
} vsg_pb_system;

/* Solver settings shared by both twins. */
typedef struct {
    double omega;          /* over-relaxation factor at the start */
    int adapt;             /* raise ω from the observed convergence rate (vsg_sor_adapt) */
    double tol;            /* stop when max |Δφ| (kT/e) over a check iteration ≤ tol */
    int max_iter;
    int check_every;       /* convergence tested on iterations it with (it+1) % check_every == 0 */
    int threads;           /* CPU: 0 = OpenMP default */
    int progress;          /* print progress on stderr */
    int gpu_index;         /* GPU: device number */
    double max_gpu_bytes;  /* GPU: cap on device memory (0 = free memory) */
} vsg_sor_settings;

typedef struct {
    int iterations;
    double final_change;   /* max |Δφ| of the last check */
    double omega;          /* ω at the end (after adaptation) */
    int converged;
    double seconds;        /* iteration loop only */
    double device_bytes;   /* GPU: device memory used */
    size_t pattern_nodes;  /* GPU: listed nodes the stencil updated from the pattern table */
    char device[64];
} vsg_sor_result;

/* Nonlinear schedule (Rocchia, Alexov & Honig 2001: the nonlinearity enters gradually):
 * the factor λ on (g(φ) − φ) for iteration `it`, counted from the start of the solve. The
 * first VSG_NL_LINEAR iterations are linear; λ then rises linearly to 1 over VSG_NL_RAMP
 * iterations. Convergence is not declared before λ = 1. */
#define VSG_NL_LINEAR 100
#define VSG_NL_RAMP 200
static inline double vsg_nl_lambda(int it)
{
    if (it < VSG_NL_LINEAR) return 0.0;
    if (it >= VSG_NL_LINEAR + VSG_NL_RAMP) return 1.0;
    return (double)(it - VSG_NL_LINEAR + 1) / (double)VSG_NL_RAMP;
}

/* Adaptive ω (after Hageman & Young's adaptive SOR), shared by both twins so that they take
 * the same decisions from the same convergence checks. The box's Jacobi spectral radius
 * overestimates the real one (salt screens, the low-dielectric interior is small), and SOR with
 * ω above the optimum converges only at rate ω − 1. So start below the optimum, from the
 * spectral radius of a box of half the size (salt included), observe the asymptotic decay rate
 * r of the max change between checks, and when two successive rates agree, estimate the Jacobi
 * radius μ = (r + ω − 1)/(ω √r) and move ω up to 2/(1 + √(1 − μ²)). Above the optimum r ≈ ω − 1
 * and the estimate gives ω back: ω never goes down. Linear phase only. */
typedef struct {
    double omega;
    double prev_change, prev_rate;
    int updates;
} vsg_sor_adapt;

#define VSG_ADAPT_MAX_UPDATES 8
static inline double vsg_omega_from_rho(double rho) { return 2.0 / (1.0 + sqrt(1.0 - rho * rho)); }

static inline void vsg_sor_adapt_init(vsg_sor_adapt *a, double omega0)
{
    a->omega = omega0;
    a->prev_change = 0.0;
    a->prev_rate = 0.0;
    a->updates = 0;
}

/* Called on every check with the max change and the iterations since the previous check. */
static inline double vsg_sor_adapt_step(vsg_sor_adapt *a, double change, int span, int linear_phase)
{
    double rate = 0.0;
    if (a->prev_change > 0.0 && change > 0.0 && span > 0) rate = pow(change / a->prev_change, 1.0 / span);
    if (linear_phase && a->updates < VSG_ADAPT_MAX_UPDATES && rate > 0.0 && rate < 1.0 &&
        a->prev_rate > 0.0 && fabs(rate - a->prev_rate) < 0.1 * (1.0 - rate) &&
        rate > a->omega - 1.0 + 0.05 * (2.0 - a->omega)) {
        double mu = (rate + a->omega - 1.0) / (a->omega * sqrt(rate));
        if (mu < 1.0) {
            double w = vsg_omega_from_rho(mu);
            if (w > a->omega + 1e-4) {
                a->omega = w;
                a->updates++;
                rate = 0.0;  /* rates measured with the old ω are stale */
            }
        }
    }
    a->prev_rate = rate;
    a->prev_change = change;
    return a->omega;
}

/* What both twins do after a check iteration, in one place so that their decisions cannot
 * drift apart: divergence, progress line, convergence (nonlinear: only at full λ), ω update. */
typedef enum { VSG_SOR_GO_ON = 0, VSG_SOR_CONVERGED = 1, VSG_SOR_DIVERGED = 2 } vsg_sor_verdict;
typedef struct {
    vsg_sor_adapt adapt;
    double omega;          /* ω for the next iterations */
    int last_check;        /* iteration count at the previous check */
    int show;              /* progress line on stderr */
    double last_print;
} vsg_sor_schedule;

static inline void vsg_sor_schedule_init(vsg_sor_schedule *sc, const vsg_sor_settings *set, int show, double now)
{
    vsg_sor_adapt_init(&sc->adapt, set->omega);
    sc->omega = set->omega;
    sc->last_check = 0;
    sc->show = show;
    sc->last_print = now;
}

/* `done` = iterations completed, `lambda` = the nonlinear factor they used. */
static inline vsg_sor_verdict vsg_sor_after_check(vsg_sor_schedule *sc, const vsg_sor_settings *set,
                                                  int nonlinear, int done, double lambda, double change,
                                                  double now)
{
    if (!isfinite(change)) return VSG_SOR_DIVERGED;
    if (sc->show && now - sc->last_print > 1.0) {
        sc->last_print = now;
        fprintf(stderr, "\r  iteration %6d  max change %.3e kT/e", done, change);
    }
    if (change <= set->tol && (!nonlinear || lambda >= 1.0)) return VSG_SOR_CONVERGED;
    if (set->adapt)
        sc->omega = vsg_sor_adapt_step(&sc->adapt, change, done - sc->last_check, !nonlinear || lambda == 0.0);
    sc->last_check = done;
    return VSG_SOR_GO_ON;
}

/* Helpers on the layout. */
static inline size_t vsg_pb_linear(const vsg_pb_system *s, int x, int y, int z)
{
    return (size_t)x + (size_t)s->nx * ((size_t)y + (size_t)s->ny * (size_t)z);
}

/* The geometry only (sizes, counts, spacing, origin, precision): no arrays, all NULL. For a
 * system that lives on the GPU (gpu/pb/pb_dev.h). */
vsg_status vsg_pb_system_shape(vsg_pb_system *s, int nx, int ny, int nz, double h,
                               const double origin[3], vsg_precision precision);
/* The shape, then flags and phi (zeroed); corrections empty. */
vsg_status vsg_pb_system_alloc(vsg_pb_system *s, int nx, int ny, int nz, double h,
                               const double origin[3], vsg_precision precision);
void vsg_pb_system_free(vsg_pb_system *s);
double vsg_pb_get(const vsg_pb_system *s, size_t linear);
void vsg_pb_set(vsg_pb_system *s, size_t linear, double v);
/* Bytes the system uses (flags, potential, corrections). */
double vsg_pb_system_bytes(const vsg_pb_system *s);

/* Optimal SOR factor from the Jacobi spectral radius of the box (Dirichlet faces). */
double vsg_sor_omega(int nx, int ny, int nz);
/* The adaptive start: the spectral radius of a box of half the size, with the salt term. */
double vsg_sor_omega_start(const vsg_pb_system *s);

/* CPU twin (grids/pb/sor_cpu.c). */
vsg_status vsg_sor_cpu(vsg_pb_system *s, const vsg_sor_settings *set, vsg_sor_result *r);

/* g(φ) and g'(φ) for the system's ions. */
static inline void vsg_pb_ion_term(const vsg_pb_system *s, double phi, double *g, double *dg);

#ifdef __cplusplus
}
#endif

#include <math.h>
static inline void vsg_pb_ion_term(const vsg_pb_system *s, double phi, double *g, double *dg)
{
    double sg = 0.0, sd = 0.0;
    for (int i = 0; i < s->n_ions; i++) {
        double z = s->ion_charge[i], c = s->ion_molar[i];
        double e = exp(-z * phi);
        sg -= c * z * e;
        sd += c * z * z * e;
    }
    *g = sg / s->two_i;
    *dg = sd / s->two_i;
}

#endif
