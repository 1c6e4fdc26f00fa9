/* vsgrid.h — public C API of vsgrid, a GPU virtual-screening scoring engine.
 *
 * Conventions (see README.md, "Units"):
 *   lengths Å, charges e, potentials kT/e at the run's temperature (PB grids) or kcal/mol/e
 *   (Coulomb / AutoGrid grids), energies in kT and kcal/mol.
 *
 * Every function returns a vsg_status. VSG_OK is 0, errors are negative. On error the
 * detail ("file.pqr:12: bad charge 'x.y'") is in vsg_last_error(), a thread-local message.
 * The library never calls exit() or abort() on user input; corrupt files never crash it.
 * Handles are opaque and owned by the caller, who frees them with the matching *_free().
 */
#ifndef VSGRID_H
#define VSGRID_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version ------------------------------------------------------------------------ */
/* The API's version (CMakeLists.txt reads it from here). A program built against one major
 * version runs with any library of that major version and a minor version at least as high;
 * the minor version grows when calls or fields are added at the end of a struct. */
#define VSG_VERSION_MAJOR 0
#define VSG_VERSION_MINOR 2
#define VSG_VERSION_PATCH 0
#define VSG_VERSION_NUMBER (VSG_VERSION_MAJOR * 10000 + VSG_VERSION_MINOR * 100 + VSG_VERSION_PATCH)

/* ---- status ------------------------------------------------------------------------- */
/* One list, expanded into the enum and the names, so they never drift apart (libuv). */
#define VSG_STATUS_LIST(X)                                                        \
    X(VSG_OK, 0, "ok", "success")                                                 \
    X(VSG_E_IO, -1, "io", "file could not be opened, read or written")            \
    X(VSG_E_FORMAT, -2, "format", "malformed or unsupported input")               \
    X(VSG_E_NOMEM, -3, "nomem", "out of host memory")                             \
    X(VSG_E_DEVICE, -4, "device", "GPU unavailable or GPU error")                 \
    X(VSG_E_ARG, -5, "arg", "invalid argument or option")                         \
    X(VSG_E_LIMIT, -6, "limit", "request exceeds a memory or size limit")         \
    X(VSG_E_CONVERGE, -7, "converge", "solver did not converge")                  \
    X(VSG_E_UNSUPPORTED, -8, "unsupported", "feature not available in this build") \
    X(VSG_E_DATA, -9, "data", "input data inconsistent (e.g. missing charges)")

typedef enum {
#define VSG_X_ENUM(name, value, shortname, text) name = value,
    VSG_STATUS_LIST(VSG_X_ENUM)
#undef VSG_X_ENUM
} vsg_status;

const char *vsg_status_name(vsg_status s);   /* "format" */
const char *vsg_status_text(vsg_status s);   /* "malformed or unsupported input" */
const char *vsg_last_error(void);            /* thread-local detail of the last failure */
const char *vsg_version(void);               /* "0.2.0": the library's version at run time */

/* Warnings (non-fatal: skipped records, clamped values...) go through a callback.
 * The default prints "vsgrid: warning: ..." on stderr. Pass NULL to restore it. */
typedef void (*vsg_warning_fn)(const char *message, void *user);
void vsg_set_warning_handler(vsg_warning_fn fn, void *user);
size_t vsg_warning_count(void);              /* warnings issued so far in this process */

/* ---- molecules ---------------------------------------------------------------------- */
typedef struct vsg_molecule vsg_molecule;

typedef struct {
    double x, y, z;        /* Å */
    double charge;         /* e */
    double radius;         /* Å */
    int serial;            /* atom serial number as read */
    int residue_number;
    int model;             /* MODEL number, 1 when the file has none */
    int segment;           /* 0-based count of TER records before this atom: the chain or
                              strand when files carry no chain IDs (GEM's nucleosome) */
    int line;              /* 1-based line in the source file */
    char name[5];          /* atom name, e.g. "CA" */
    char residue_name[5];  /* e.g. "ALA" */
    char element[3];       /* e.g. "C", "Fe" */
    char ad_type[3];       /* AutoDock type where known (PDBQT, or assigned), else "" */
    char chain;            /* ' ' when none */
    char insertion_code;   /* ' ' when none */
} vsg_atom_info;

/* Reads PQR (fixed columns or whitespace separated), PDBQT, MOL2 or PDB (plain or .gz).
 * The format comes from the extension (".pqr", ".pdbqt", ".mol2", ".pdb", then ".gz"),
 * or from `format` when it is not NULL ("pqr", "pdbqt", "mol2", "pdb").
 * PDB has no charges: it is refused with a message that says to make a PQR (pdb2pqr). */
vsg_status vsg_molecule_read(const char *path, const char *format, vsg_molecule **out);
void vsg_molecule_free(vsg_molecule *m);
size_t vsg_molecule_atom_count(const vsg_molecule *m);
vsg_status vsg_molecule_atom(const vsg_molecule *m, size_t i, vsg_atom_info *out);
double vsg_molecule_net_charge(const vsg_molecule *m);
uint32_t vsg_molecule_checksum(const vsg_molecule *m);  /* CRC-32 of the atoms' q, r, xyz */
const char *vsg_molecule_source(const vsg_molecule *m); /* path as given */
/* Writes the molecule as PQR (what vsgrid used: charges and radii), e.g. for APBS. */
vsg_status vsg_molecule_write_pqr(const vsg_molecule *m, const char *path);

/* ---- grids -------------------------------------------------------------------------- */
typedef struct vsg_grid vsg_grid;

typedef struct {
    int n[3];              /* nodes along x, y, z */
    double origin[3];      /* Å, the node (0,0,0) */
    double spacing[3];     /* Å */
    char units[16];        /* "kT/e", "kcal/mol/e", ... */
} vsg_grid_shape;

/* Reads a .vsg, .dx or .dx.gz grid (format from the extension). */
vsg_status vsg_grid_read(const char *path, vsg_grid **out);
/* Writes .vsg, .dx or .dx.gz (format from the extension). */
vsg_status vsg_grid_write(const vsg_grid *g, const char *path);
void vsg_grid_free(vsg_grid *g);
vsg_status vsg_grid_shape_of(const vsg_grid *g, vsg_grid_shape *out);
/* Values, x fastest: value(i,j,k) = data[i + n0*(j + n1*k)]. The pointer stays owned by g. */
const float *vsg_grid_values(const vsg_grid *g);
/* "key = value" lines: method, parameters, version, receptor checksum, ... */
const char *vsg_grid_metadata(const vsg_grid *g);
/* Trilinear interpolation. VSG_E_ARG (and *value = 0) when the point is outside the grid. */
vsg_status vsg_grid_interpolate(const vsg_grid *g, double x, double y, double z, double *value);

/* ---- Poisson–Boltzmann ---------------------------------------------------------------- */
typedef enum { VSG_SURFACE_VDW = 0, VSG_SURFACE_SES = 1, VSG_SURFACE_SMOOTH = 2 } vsg_surface;
typedef enum { VSG_SPLINE_SPL0 = 0, VSG_SPLINE_SPL2 = 1 } vsg_charge_spline;
typedef enum {
    VSG_BC_ZERO = 0, VSG_BC_SDH = 1, VSG_BC_MDH = 2, VSG_BC_DIPOLE = 3,
    VSG_BC_FOCUS = 4,      /* automatic focusing */
    VSG_BC_FOCUS_FILE = 5  /* focusing from a coarser .vsg/.dx grid (focus_file) */
} vsg_boundary;
typedef enum { VSG_DEVICE_AUTO = 0, VSG_DEVICE_CPU = 1, VSG_DEVICE_GPU = 2 } vsg_device;
typedef enum {
    VSG_PRECISION_DOUBLE = 0,
    VSG_PRECISION_FLOAT = 1,
    VSG_PRECISION_AUTO = 2    /* float on the GPU, double on the CPU */
} vsg_precision;
typedef enum { VSG_BOX_FILL = 0, VSG_BOX_EXPLICIT = 1, VSG_BOX_AROUND = 2 } vsg_box_mode;

#define VSG_MAX_IONS 8
typedef struct {
    double charge;         /* e, e.g. +1, -1, +2 */
    double molar;          /* mol/L */
    double radius;         /* Å, ion-exclusion radius */
} vsg_ion;

typedef struct {
    /* geometry */
    double spacing;              /* Å (default 0.5) */
    vsg_box_mode box_mode;       /* default VSG_BOX_FILL */
    double fill;                 /* molecule extent / box edge, (0,1] (default 0.7) */
    double box_center[3];        /* Å, VSG_BOX_EXPLICIT */
    double box_size[3];          /* Å edge lengths, VSG_BOX_EXPLICIT; nodes = size/spacing + 1 */
    const vsg_molecule *around;  /* VSG_BOX_AROUND: box = this molecule's extent + padding */
    double padding;              /* Å (default 8) */
    /* physics */
    double eps_in, eps_out;      /* default 2, 78.54 */
    double temperature;          /* K (default 298.15) */
    int n_ions;                  /* species; 0 = no salt */
    vsg_ion ions[VSG_MAX_IONS];
    vsg_surface surface;         /* default SES */
    double probe;                /* Å (default 1.4) */
    vsg_charge_spline spline;    /* default SPL0 */
    vsg_boundary bc;             /* default MDH */
    const char *focus_file;      /* VSG_BC_FOCUS_FILE */
    int nonlinear;               /* 0 linear, 1 nonlinear PB */
    /* solver */
    double tol;                  /* max |Δφ| kT/e between checks; 0 = default (1e-6 double; float:
                                    max(1e-4, 8 ε_float max|s|), the float resolution of the
                                    largest potential, s the largest charge-node source term) */
    int max_iter;                /* default 20000 per level */
    int check_every;             /* default 10 */
    vsg_precision precision;     /* default AUTO: float on the GPU, double on the CPU */
    vsg_device device;           /* default AUTO */
    int gpu_index;               /* --device N; -1 = first */
    int threads;                 /* 0 = OpenMP default */
    double max_memory;           /* bytes the solver may allocate (default 8 GiB) */
    double max_gpu_memory;       /* bytes on the device (0 = all free memory) */
    int progress;                /* print progress on stderr */
} vsg_pb_params;

void vsg_pb_params_default(vsg_pb_params *p);

typedef struct {
    int levels;                  /* 1, or the number of focusing levels */
    int n[3];                    /* finest grid */
    double spacing;              /* finest grid, Å */
    double origin[3];
    int iterations;              /* finest level */
    int total_iterations;        /* all levels */
    double final_change;         /* kT/e, finest level */
    double tol;                  /* kT/e, the tolerance used on the finest level */
    int converged;
    double seconds;              /* wall time of the whole solve (time to solution) */
    double device_start_seconds; /* of seconds: starting the CUDA runtime and the GPU's context,
                                    which a process pays once (0 on the CPU) */
    double seconds_per_iteration;/* finest level */
    double setup_seconds;
    double omega;
    double bytes_per_node;       /* solver memory per grid node */
    double peak_bytes;           /* largest allocation of the solver at once (estimate) */
    double energy_kt;            /* ½ Σ q φ over grid charges in the finest box */
    double charge_in_box;        /* e assigned to the finest grid */
    double charge_outside;       /* e of charges outside the finest grid */
    long boundary_nodes;         /* dielectric-boundary corrections */
    long charged_nodes;
    long pattern_nodes;          /* GPU: listed nodes the stencil updated from its pattern table */
    double debye_length;         /* Å, 0 without salt */
    double kt_kcal;              /* kT in kcal/mol at this temperature */
    char device[64];             /* "cpu (2 threads)" or the GPU's name */
    char precision[8];
} vsg_pb_report;

/* Builds the maps and solves. *out receives the finest grid (kT/e). */
vsg_status vsg_pb_solve(const vsg_molecule *m, const vsg_pb_params *p, vsg_grid **out,
                        vsg_pb_report *report);
/* Solvation energy: solve with the parameters, then the reference (eps_out = eps_in, no
 * salt) on the same grids and focusing; ΔG = G_solv − G_ref (kT). Reports may be NULL. */
vsg_status vsg_pb_solvation(const vsg_molecule *m, const vsg_pb_params *p, double *dg_kt,
                            vsg_pb_report *solvated, vsg_pb_report *reference,
                            vsg_grid **solvated_grid);
/* Memory the solve would take (bytes), without allocating it. */
vsg_status vsg_pb_estimate(const vsg_molecule *m, const vsg_pb_params *p, double *bytes,
                           int n[3], double *spacing);

/* ---- energies on a grid ------------------------------------------------------------- */
typedef struct {
    double energy;               /* Σ q φ in the grid's units × e (kT for kT/e grids) */
    size_t atoms;
    size_t outside;              /* atoms outside the grid: contribute 0, counted here */
} vsg_probe_result;
/* per_atom (may be NULL) receives φ at each atom (0 outside). */
vsg_status vsg_grid_probe(const vsg_grid *g, const vsg_molecule *ligand, double *per_atom,
                          vsg_probe_result *out);

/* kT in kcal/mol at temperature T (K). */
double vsg_kt_kcal(double temperature);

/* ==== SECTION devices (API helper B) ==== */

/* ==== SECTION Coulomb and AutoGrid electrostatic maps (API helper B) ==== */

/* ==== SECTION ligands, map sets, scoring, screening, placement (API helper A) ==== */

/* ==== SECTION surface potential, pictures and meshes (API helper B) ==== */

#ifdef __cplusplus
}
#endif
#endif /* VSGRID_H */
