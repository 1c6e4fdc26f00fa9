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
#include <stdio.h> /* FILE: screening output, CSV fields */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version ------------------------------------------------------------------------ */
/* The API's version (CMakeLists.txt reads it from here). A program built against one major
 * version runs with any library of that major version and a minor version at least as high;
 * the minor version grows when calls or fields are added at the end of a struct. */
#define VSG_VERSION_MAJOR 0
#define VSG_VERSION_MINOR 3
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
    X(VSG_E_DATA, -9, "data", "input data inconsistent (e.g. missing charges)")   \
    X(VSG_E_STOPPED, -10, "stopped", "stopped on request (vsg_screen_stop: an interrupt)")

typedef enum {
#define VSG_X_ENUM(name, value, shortname, text) name = value,
    VSG_STATUS_LIST(VSG_X_ENUM)
#undef VSG_X_ENUM
} vsg_status;

const char *vsg_status_name(vsg_status s);   /* "format" */
const char *vsg_status_text(vsg_status s);   /* "malformed or unsupported input" */
const char *vsg_last_error(void);            /* thread-local detail of the last failure */
const char *vsg_version(void);               /* "0.3.0": the library's version at run time */

/* Warnings (non-fatal: skipped records, clamped values...) go through a callback.
 * The default prints "vsgrid: warning: ..." on stderr. Pass NULL to restore it. */
typedef void (*vsg_warning_fn)(const char *message, void *user);
void vsg_set_warning_handler(vsg_warning_fn fn, void *user);
size_t vsg_warning_count(void);              /* warnings issued so far in this process */

/* For programs built on the library (the vsgrid command line reports its own failures so):
 * vsg_fail records the printf-style message as vsg_last_error() and returns `status` as given;
 * vsg_warn issues a warning through the handler above (and counts it); vsg_clear_error empties
 * vsg_last_error(). */
#if defined(__GNUC__)
#define VSG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define VSG_PRINTF(a, b)
#endif
vsg_status vsg_fail(vsg_status status, const char *fmt, ...) VSG_PRINTF(2, 3);
void vsg_warn(const char *fmt, ...) VSG_PRINTF(1, 2);
void vsg_clear_error(void);

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
    char ad_type[4];       /* AutoDock type where known (PDBQT, or assigned; Meeko's "CG0" takes 3), else "" */
    char chain;            /* ' ' when none */
    char insertion_code;   /* ' ' when none */
} vsg_atom_info;

/* Reads PQR (fixed columns or whitespace separated), PDBQT, MOL2 or PDB (plain or .gz).
 * The format comes from the extension (".pqr", ".pdbqt", ".mol2", ".pdb", then ".gz"),
 * or from `format` when it is not NULL ("pqr", "pdbqt", "mol2", "pdb").
 * PDB has no charges: it is refused with a message that says to make a PQR (pdb2pqr).
 * Returns VSG_OK; VSG_E_ARG (a NULL argument, an unknown extension or format); VSG_E_IO (cannot
 * open or read; truncated gzip); VSG_E_FORMAT (a malformed line, named by file and line);
 * VSG_E_DATA (no atoms, a PDB without charges, a non-finite or negative value); VSG_E_NOMEM. */
vsg_status vsg_molecule_read(const char *path, const char *format, vsg_molecule **out);
void vsg_molecule_free(vsg_molecule *m);
size_t vsg_molecule_atom_count(const vsg_molecule *m);
/* Atom i (0-based). VSG_OK; VSG_E_ARG for a NULL argument or i ≥ the atom count. */
vsg_status vsg_molecule_atom(const vsg_molecule *m, size_t i, vsg_atom_info *out);
double vsg_molecule_net_charge(const vsg_molecule *m);
uint32_t vsg_molecule_checksum(const vsg_molecule *m);  /* CRC-32 of the atoms' q, r, xyz */
const char *vsg_molecule_source(const vsg_molecule *m); /* path as given */
/* Writes the molecule as PQR (what vsgrid used: charges and radii), e.g. for APBS.
 * VSG_OK; VSG_E_ARG (a NULL argument); VSG_E_IO (cannot create or write the file). */
vsg_status vsg_molecule_write_pqr(const vsg_molecule *m, const char *path);

/* ---- grids -------------------------------------------------------------------------- */
typedef struct vsg_grid vsg_grid;

typedef struct {
    int n[3];              /* nodes along x, y, z */
    double origin[3];      /* Å, the node (0,0,0) */
    double spacing[3];     /* Å */
    char units[16];        /* "kT/e", "kcal/mol/e", ... */
} vsg_grid_shape;

/* Reads a .vsg, .dx or .dx.gz grid (format from the extension), or an AutoGrid .map.
 * VSG_OK; VSG_E_ARG (a NULL argument); VSG_E_IO (cannot open or read; truncated file or gzip
 * stream); VSG_E_FORMAT (an unknown extension, a malformed header or value, a .vsg of another
 * format version, a checksum that does not match); VSG_E_UNSUPPORTED (a DX variant vsgrid does
 * not read); VSG_E_LIMIT (a node count past the address space); VSG_E_NOMEM. */
vsg_status vsg_grid_read(const char *path, vsg_grid **out);
/* Writes .vsg, .dx or .dx.gz (format from the extension). VSG_OK; VSG_E_ARG (a NULL argument);
 * VSG_E_FORMAT (an unknown extension, or an AutoGrid .map: vsg_autogrid_map_write); VSG_E_IO (cannot create or write: a full disk is reported, never a
 * truncated file left as if whole); VSG_E_DATA (a non-finite value where the format forbids it);
 * VSG_E_NOMEM. */
vsg_status vsg_grid_write(const vsg_grid *g, const char *path);
void vsg_grid_free(vsg_grid *g);
vsg_status vsg_grid_shape_of(const vsg_grid *g, vsg_grid_shape *out); /* VSG_E_ARG: NULL */
/* Values, x fastest: value(i,j,k) = data[i + n0*(j + n1*k)]. The pointer stays owned by g. */
const float *vsg_grid_values(const vsg_grid *g);
/* "key = value" lines: method, parameters, version, receptor checksum, ... */
const char *vsg_grid_metadata(const vsg_grid *g);
/* Trilinear interpolation. VSG_E_ARG (and *value = 0) when the point is outside the grid. */
vsg_status vsg_grid_interpolate(const vsg_grid *g, double x, double y, double z, double *value);
/* A new grid of n[0]·n[1]·n[2] nodes (values uninitialised; units may be NULL = ""), e.g. for
 * vsg_coulomb_cpu / vsg_coulomb_gpu to fill. NULL on failure, with vsg_last_error() saying why:
 * VSG_E_ARG (a count < 1, a missing array, an origin or spacing not finite or spacing ≤ 0),
 * VSG_E_LIMIT (the node count overflows the address space), VSG_E_NOMEM. */
vsg_grid *vsg_grid_new(const int n[3], const double origin[3], const double spacing[3],
                       const char *units);
size_t vsg_grid_nodes(const vsg_grid *g);   /* n[0]·n[1]·n[2] */
/* Appends "key = value\n" to the metadata (printf-style value). Returns VSG_OK; VSG_E_ARG for
 * a missing key or value, a key with '=' or a newline, or a value that cannot be formatted;
 * VSG_E_NOMEM. */
vsg_status vsg_grid_meta_add(vsg_grid *g, const char *key, const char *fmt, ...) VSG_PRINTF(3, 4);
/* Value of key in the metadata (copied into buf, cut to len), or NULL when absent. */
const char *vsg_grid_meta_get(const vsg_grid *g, const char *key, char *buf, size_t len);

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

/* Builds the maps and solves. *out receives the finest grid (kT/e); report may be NULL.
 * Returns VSG_OK (also when max_iter ended a level unconverged: report->converged says so,
 * with a warning); VSG_E_ARG (a NULL argument, a parameter out of range, a box that holds no
 * grid, focusing from a file without one); VSG_E_IO / VSG_E_FORMAT (the focus_file grid, as
 * vsg_grid_read); VSG_E_LIMIT (the grid needs more than max_memory, or max_gpu_memory on the
 * device, or more nodes than an index holds); VSG_E_NOMEM; VSG_E_DEVICE (device GPU: no usable
 * GPU, or a CUDA error; under AUTO a GPU failure falls back to the CPU twin with a warning);
 * VSG_E_UNSUPPORTED (device GPU in a build without CUDA, MPI slabs without MPI);
 * VSG_E_CONVERGE (the iteration diverged: a change that is not finite). */
vsg_status vsg_pb_solve(const vsg_molecule *m, const vsg_pb_params *p, vsg_grid **out,
                        vsg_pb_report *report);
/* Solvation energy: solve with the parameters, then the reference (eps_out = eps_in, no
 * salt) on the same grids and focusing; ΔG = G_solv − G_ref (kT). Reports may be NULL.
 * Returns what vsg_pb_solve returns, for either solve. */
vsg_status vsg_pb_solvation(const vsg_molecule *m, const vsg_pb_params *p, double *dg_kt,
                            vsg_pb_report *solvated, vsg_pb_report *reference,
                            vsg_grid **solvated_grid);
/* Memory the solve would take (bytes), without allocating it. VSG_OK; VSG_E_ARG (as
 * vsg_pb_solve's geometry: a NULL argument, a parameter out of range). */
vsg_status vsg_pb_estimate(const vsg_molecule *m, const vsg_pb_params *p, double *bytes,
                           int n[3], double *spacing);

/* ---- energies on a grid ------------------------------------------------------------- */
typedef struct {
    double energy;               /* Σ q φ in the grid's units × e (kT for kT/e grids) */
    size_t atoms;
    size_t outside;              /* atoms outside the grid: contribute 0, counted here */
} vsg_probe_result;
/* per_atom (may be NULL) receives φ at each atom (0 outside). VSG_OK; VSG_E_ARG (a missing
 * grid, molecule or result). */
vsg_status vsg_grid_probe(const vsg_grid *g, const vsg_molecule *ligand, double *per_atom,
                          vsg_probe_result *out);

/* kT in kcal/mol at temperature T (K). */
double vsg_kt_kcal(double temperature);

/* ---- devices and processes ----------------------------------------------------------- */
/* Wall clock in seconds (monotonic; only differences mean anything). */
double vsg_now(void);

/* Number of usable CUDA devices (0 without CUDA, without a driver, or without a GPU). */
int vsg_gpu_count(void);
/* Starts the CUDA runtime and the device's primary context now (the first CUDA call of a
 * process pays ~0.2 s for both), so that a solve can report that fixed cost apart. The current
 * device is left as it was. Returns VSG_OK; VSG_E_DEVICE when the device cannot be selected or
 * started; VSG_E_UNSUPPORTED in a build without CUDA. */
vsg_status vsg_gpu_start(int device);
/* Name (NUL-terminated, cut to len; name may be NULL when len is 0) and free and total memory
 * (bytes) of a device (-1 = the first); free_bytes and total_bytes may be NULL. Returns VSG_OK;
 * VSG_E_DEVICE when there is no such device or the driver fails; VSG_E_UNSUPPORTED in a build
 * without CUDA. */
vsg_status vsg_gpu_describe(int device, char *name, size_t len, double *free_bytes,
                            double *total_bytes);

/* MPI. vsgrid touches MPI only when it was built with it AND was launched by an MPI starter
 * with more than one rank (OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_SIZE > 1 in the
 * environment). Otherwise these answer as for a single process (rank 0 of 1).
 * vsg_mpi_start initialises MPI (threads: funnelled, only the main thread calls MPI) when the
 * conditions hold. Returns 0, or nonzero when MPI_Init failed (the caller exits). Then, unless
 * OMP_NUM_THREADS is set, the host's cores are split between its ranks, and ranks > 0 send
 * stdout and stderr to /dev/null (VSG_MPI_ALL_OUTPUT=1 keeps every rank's output). */
int vsg_mpi_start(int *argc, char ***argv);
/* Agrees the exit status over the ranks (the worst one wins) and finalises MPI when it was
 * started; returns the status the process should exit with. */
int vsg_mpi_finish(int rc);
int vsg_mpi_active(void);      /* 1 when MPI was started (so the job has > 1 rank) */
int vsg_mpi_rank(void);
int vsg_mpi_size(void);
int vsg_mpi_built(void);       /* 1 when this vsgrid was built with MPI */
/* Ranks that share this host (MPI_COMM_TYPE_SHARED); 1 when MPI is not active. */
int vsg_mpi_local_size(void);
/* This rank's number among the ranks of its host (0 .. local_size − 1), for one GPU per rank:
 * MPI_COMM_TYPE_SHARED when MPI is active, else OMPI_COMM_WORLD_LOCAL_RANK / MPI_LOCALRANKID /
 * SLURM_LOCALID from the launcher, else 0. */
int vsg_mpi_local_rank(void);

/* What the last distributed PB solve did (the finest level of a `vsgrid grid` over MPI ranks,
 * z-slabs of the SOR). */
#define VSG_SOR_MPI_MAX_REPORTED 64
typedef struct {
    int ranks;                 /* MPI ranks that shared the slabs */
    int planes_min, planes_max;/* updated planes per rank */
    int iterations;
    double seconds;            /* iteration loop */
    double seconds_per_iteration;
    double comm_seconds;       /* in MPI_Waitall for the halos + in the convergence allreduce */
    double allreduce_seconds;  /* the allreduce part */
    double halo_bytes;         /* sent by this rank */
    char backend[16];
    char halo_path[8];         /* "ipc" (push into the neighbours' ghosts) or "staged" (pack/MPI/unpack) */
    int device[VSG_SOR_MPI_MAX_REPORTED]; /* each rank's GPU (−1: CPU), the first ranks */
    int host_id[VSG_SOR_MPI_MAX_REPORTED];/* ranks on one host share an id (0, 1, ...) */
} vsg_sor_mpi_stats;
/* 1 and the stats when a distributed solve (> 1 rank) has run in this process, else 0. */
int vsg_sor_mpi_last(vsg_sor_mpi_stats *out);

/* ---- Coulomb and AutoGrid electrostatic maps ------------------------------------------ */
/* The box of a grid from vsg_pb_params' box options (spacing, box_mode, fill, box_center,
 * box_size, around, padding): the finest level of a PB solve, and the box of a Coulomb grid.
 * Odd node counts (at least 3), centred on the box's centre. */
typedef struct {
    int n[3];              /* nodes along x, y, z */
    double h;              /* spacing, Å */
    double origin[3];      /* Å, the node (0,0,0) */
} vsg_level;
/* Returns VSG_OK; VSG_E_ARG for a spacing ≤ 0, an explicit box without a finite centre and
 * edges > 0, VSG_BOX_AROUND without a molecule with atoms or with padding < 0, or a fill
 * outside (0, 1]. */
vsg_status vsg_fine_level(const vsg_molecule *m, const vsg_pb_params *p, vsg_level *lv);

/* The direct Coulomb potential grid, φ(p) = Σ_i q_i f(|p − r_i|) (kcal/mol/e), computed by the
 * CPU twin (OpenMP, double) or the GPU kernel from one kernel description, so the AutoGrid-
 * compatible mode (AutoGrid4's constants, dielectric table and clamps) is defined once.
 *
 * f(r) for r clamped below at rmin (and atoms beyond `cutoff` skipped when cutoff > 0):
 *   VSG_DIEL_CONSTANT         f = scale / (eps r)
 *   VSG_DIEL_DISTANCE_4R      f = scale / (4 r · r)                      (ε = 4r)
 *   VSG_DIEL_MEHLER_SOLMAJER  f = scale / (r ε_MS(r)), ε_MS(r) = A + B / (1 + k e^{−λ B r})
 *                             (Mehler & Solmajer 1991, the sigmoidal function AutoGrid4 uses)
 * When `table` is set (AutoGrid-compatible mode), f is not computed analytically but read as
 *   f = table[min((int)(r · table_per_a), table_n − 1)] / max(r, rmin)
 * with the table index taken from the unclamped r (AutoGrid does so), i.e. the table holds
 * scale/ε at AutoGrid's distance resolution, exactly as AutoGrid looks it up. */
typedef enum {
    VSG_DIEL_CONSTANT = 0,
    VSG_DIEL_DISTANCE_4R = 1,
    VSG_DIEL_MEHLER_SOLMAJER = 2
} vsg_dielectric_model;

typedef struct {
    vsg_dielectric_model model;
    double eps;            /* VSG_DIEL_CONSTANT */
    double scale;          /* prefactor, kcal·Å/(mol·e²) (332.0637 × any coefficient) */
    double rmin;           /* Å: r < rmin is evaluated at rmin */
    double cutoff;         /* Å: atoms farther than this are skipped; 0 = all atoms */
    double *table;         /* optional scale/ε table (AutoGrid mode), owned by the kernel */
    int table_n;
    double table_per_a;    /* table entries per Å */
    int autogrid;          /* 1: AutoGrid4-compatible conventions */
    int have_center;       /* 1: atoms and nodes are placed relative to `center`, taken exactly
                              (a gpf's gridcenter: AutoGrid's distances, and so its table bins,
                              come from it); 0: relative to the grid's centre, origin + (n−1)/2·h,
                              which can differ from a gpf's centre in the last bit */
    double center[3];      /* Å, with have_center */
} vsg_coulomb_kernel;

/* Fills k for a model. autogrid = 1 selects AutoGrid4's exact conventions for the model (its
 * constants, clamps and lookup table); eps is the constant dielectric for VSG_DIEL_CONSTANT.
 * Returns VSG_OK; VSG_E_ARG for a NULL k, an unknown model or a constant dielectric that is
 * not finite and > 0; VSG_E_NOMEM (the AutoGrid table). Free with vsg_coulomb_kernel_free. */
vsg_status vsg_coulomb_kernel_make(vsg_dielectric_model model, double eps, int autogrid,
                                   vsg_coulomb_kernel *k);
void vsg_coulomb_kernel_free(vsg_coulomb_kernel *k);   /* the table; k itself is the caller's */

/* The CPU twin: fills g's values (geometry already set, vsg_grid_new) with the potential of
 * m's charges. Double precision, OpenMP over grid points. Returns VSG_OK; VSG_E_ARG for a
 * missing argument, a grid without values or a bad kernel; VSG_E_NOMEM. */
vsg_status vsg_coulomb_cpu(const vsg_molecule *m, const vsg_coulomb_kernel *k, vsg_grid *g);

/* The GPU kernel: same contract; float arithmetic with double accumulation per point where it
 * matters. device −1 = the first. *evals_per_second (may be NULL) receives atoms × grid points
 * / kernel seconds. Returns VSG_OK; VSG_E_ARG as vsg_coulomb_cpu; VSG_E_DEVICE without a
 * usable GPU or on a CUDA failure; VSG_E_LIMIT / VSG_E_NOMEM when the work does not fit the
 * device or the host; VSG_E_UNSUPPORTED in a build without CUDA. */
vsg_status vsg_coulomb_gpu(const vsg_molecule *m, const vsg_coulomb_kernel *k, vsg_grid *g, int device,
                           double *evals_per_second);

/* AutoGrid4's file formats: grid maps (.map, optionally gzipped), the AVS field file
 * (.maps.fld) with its extents file (.maps.xyz), and the grid parameter file (.gpf), as
 * autogrid4 4.2.6 reads and writes them, so that autodock4 and AutoDock-GPU read vsgrid's maps.
 * Geometry: NELEMENTS (the gpf's npts) is even and the map has NELEMENTS + 1 points per axis,
 * centred on CENTER: node (0,0,0) is at CENTER − NELEMENTS/2 · SPACING, x fastest. */
#define VSG_AG_PATH 512
#define VSG_AG_MAX_MAPS 32

/* What a .gpf says (docs/FORMATS.md lists the keywords). The box and the electrostatics are
 * used by the e map; ligand types, map names, smooth, qasp and the parameter file by the
 * AutoDock4 affinity and desolvation maps (vsg_ad4_maps_cpu). */
typedef struct {
    int npts[3];                     /* NELEMENTS per axis, even (AutoGrid rounds odd counts down) */
    double spacing;                  /* Å (AutoGrid's default 0.375 when absent) */
    double center[3];                /* Å; unset when center_auto */
    int have_npts, have_center;
    int center_auto;                 /* "gridcenter auto": mean of the receptor's atom coordinates */
    char receptor[VSG_AG_PATH];      /* "" when absent */
    char gridfld[VSG_AG_PATH];       /* "" when absent */
    char elecmap[VSG_AG_PATH];       /* "" when absent */
    int have_dielectric;
    double dielectric;               /* < 0: Mehler–Solmajer (the magnitude is ignored);
                                        > 0: constant; 0: constant 40 (AutoGrid) */
    int have_estat;
    double estat_coeff;              /* FE_coeff_estat from the gpf's parameter_file, if it sets one */
    /* AutoDock4 affinity and desolvation maps (fields added in 0.2): */
    int n_ligand_types;              /* ligand_types: one affinity map each, in this order */
    char ligand_types[VSG_AG_MAX_MAPS][4];
    int n_maps;                      /* "map" lines, in order (AutoGrid pairs the i-th with the
                                        i-th ligand type) */
    char maps[VSG_AG_MAX_MAPS][VSG_AG_PATH];
    char dsolvmap[VSG_AG_PATH];      /* "" when absent */
    int n_receptor_types;            /* receptor_types (0 when absent) */
    char receptor_types[VSG_AG_MAX_MAPS][4];
    double smooth;                   /* Å, the smoothing window (AutoGrid's default 0.5) */
    double qasp;                     /* charge part of the solvation parameter (default 0.01097) */
    char parameter_file[VSG_AG_PATH];/* the parameter_file as opened ("" when none) */
} vsg_gpf;

/* Reads a gpf; a parameter_file is looked up as written, then next to the gpf. Every keyword
 * autogrid4 4.2.6 knows is read or refused: a keyword vsgrid does not implement and that would
 * change the maps (covalentmap, nbp_r_eps, nbp_coeffs, disorder_h, fmap, sol_par,
 * use_vina_potential, types) is an error naming the line, as is an unknown keyword. Returns
 * VSG_OK; VSG_E_ARG for a NULL argument; VSG_E_IO when the gpf or its parameter_file cannot be
 * opened or read; VSG_E_FORMAT ("file:line: ...") for a malformed line or number, an unknown
 * keyword, more than VSG_AG_MAX_MAPS types or maps, truncated gzip or a line over 1 MiB;
 * VSG_E_UNSUPPORTED ("file:line: ...") for a keyword vsgrid does not implement; VSG_E_NOMEM. */
vsg_status vsg_gpf_read(const char *path, vsg_gpf *out);

/* Header lines of a map (informational for AutoDock; all three may be NULL → "none"). */
typedef struct {
    const char *gpf;                 /* GRID_PARAMETER_FILE */
    const char *fld;                 /* GRID_DATA_FILE */
    const char *macromolecule;       /* MACROMOLECULE */
} vsg_autogrid_header;

/* Writes g as an AutoGrid map: six header lines, then one value per line, x fastest, as
 * autogrid4 prints them ("%.3f" of the value rounded to 3 decimals, "0." when |v| < 1e-4).
 * Plain text only. Returns VSG_OK; VSG_E_ARG when g does not have odd node counts and the
 * same spacing on all axes, for a ".gz" path or a missing argument; VSG_E_DATA for a value
 * that is not finite; VSG_E_IO when the file cannot be written. */
vsg_status vsg_autogrid_map_write(const vsg_grid *g, const char *path, const vsg_autogrid_header *h);
/* Writes maps g[0..n) to paths[0..n) as vsg_autogrid_map_write does, several files at a time
 * (OpenMP). Returns VSG_OK or the first failing map's status and message, as that call's. */
vsg_status vsg_autogrid_maps_write(const vsg_grid *const *g, const char *const *paths, int n,
                                   const vsg_autogrid_header *h);

/* Reads a .map or .map.gz. Units: "kcal/mol/e" for electrostatic maps (name ends in ".e.map"
 * or ".e.map.gz"), "kcal/mol" otherwise. The header's file names and centre are kept in the
 * grid's metadata (autogrid_gpf, autogrid_fld, autogrid_macromolecule, autogrid_center).
 * Returns VSG_OK; VSG_E_ARG for a NULL argument; VSG_E_IO (cannot open or read);
 * VSG_E_FORMAT (malformed header or values, wrong value count, truncated gzip); VSG_E_NOMEM. */
vsg_status vsg_autogrid_map_read(const char *path, vsg_grid **out);

/* One map listed in a .maps.fld. */
typedef struct {
    char type[8];                    /* ligand atom type ("A", "OA"), or "e" / "d" */
    char file[VSG_AG_PATH];          /* map file name as written in the fld */
} vsg_fld_map;

typedef struct {
    int npts[3];                     /* NELEMENTS */
    double spacing;
    double center[3];
    char macromolecule[VSG_AG_PATH];
    char gpf[VSG_AG_PATH];
    char xyz[VSG_AG_PATH];           /* extents file named by the coord lines */
    int n_maps;
    vsg_fld_map maps[VSG_AG_MAX_MAPS];
} vsg_fld;

/* Writes the AVS field file as autogrid4 does, and its .xyz extents file (path with "fld"
 * replaced by "xyz", as AutoGrid derives it). Labels: "X-affinity" for atom types,
 * "Electrostatics" for "e", "Desolvation" for "d". The maps should be listed atom types first,
 * then e, then d (AutoGrid's order, which AutoDock expects). Returns VSG_OK; VSG_E_ARG for a
 * path not ending in ".fld", a map count outside 1..VSG_AG_MAX_MAPS, a spacing ≤ 0, an odd or
 * negative NELEMENTS or a missing argument; VSG_E_IO when a file cannot be written;
 * VSG_E_NOMEM. */
vsg_status vsg_autogrid_fld_write(const char *path, const vsg_fld *f);
/* Reads a .maps.fld (geometry from its #SPACING/#NELEMENTS/#CENTER comments and dim lines,
 * maps from its label/variable lines). Returns VSG_OK; VSG_E_ARG for a NULL argument; VSG_E_IO
 * (cannot open or read); VSG_E_FORMAT (malformed or missing lines, too many maps, truncated
 * gzip); VSG_E_NOMEM. */
vsg_status vsg_autogrid_fld_read(const char *path, vsg_fld *out);

/* ---- AutoDock4 affinity and desolvation maps ------------------------------------------ */
/* The maps autogrid4 4.2.6 makes for AutoDock4: one affinity map per ligand atom type (12-6
 * van der Waals, or 12-10 hydrogen bonds with AutoGrid's directional treatment of receptor
 * donors and acceptors, the 8 Å cutoff, the `smooth` window, pair energies clamped at 1e5, plus
 * the charge-based desolvation of the pair) and the desolvation map (d). The e map is the
 * Coulomb grid in AutoGrid mode (vsg_coulomb_kernel_make with autogrid = 1). Units kcal/mol.
 * Parameters: the AD4.1_bound.dat set built in (AutoDock 4.2.6's default), or a parameter file.
 * The contract below is the CPU twin's (OpenMP over planes, double); a GPU twin fills the same
 * grids from the same inputs. */
#define VSG_AD4_MAX_TYPES 64

typedef struct {
    char type[4];        /* AutoDock type, "OA" */
    double rii;          /* Å, Rii: sum of the vdW radii of two like atoms */
    double epsii;        /* kcal/mol, vdW well depth (unweighted) */
    double vol;          /* Å³, atomic solvation volume */
    double solpar;       /* atomic solvation parameter */
    double rij_hb;       /* Å, H-bond radius (acceptors) */
    double epsij_hb;     /* kcal/mol, H-bond well depth (unweighted) */
    int hbond;           /* 0 none, 1 DS (spherical donor), 2 D1 (directional donor),
                            3 AS (spherical acceptor), 4 A1 (directional N acceptor), 5 A2 (O, S) */
} vsg_ad4_atom_par;

typedef struct {
    double coeff_vdw, coeff_hbond, coeff_estat, coeff_desolv, coeff_tors; /* FE_coeff_* */
    int n;
    vsg_ad4_atom_par atom[VSG_AD4_MAX_TYPES];
} vsg_ad4_params;

/* The built-in set: AD4.1_bound.dat of AutoDock 4.2.6 (grids/maps/ad4_parameters.c names the
 * source). Returns VSG_OK; VSG_E_ARG for NULL. */
vsg_status vsg_ad4_params_builtin(vsg_ad4_params *out);
/* Reads an AutoDock parameter file into p, as AutoDock does: FE_coeff_* lines set the
 * coefficients, an atom_par line replaces the type's entry or adds it; '#' comments and blank
 * lines are skipped, other keywords skipped with a warning. Start from vsg_ad4_params_builtin
 * for AutoGrid's behaviour.
 * Returns VSG_OK; VSG_E_ARG (NULL); VSG_E_IO (cannot open or read); VSG_E_FORMAT ("file:line:"
 * an atom_par or FE_coeff line with missing or bad numbers, an unknown hbond code, a type name
 * over 3 characters); VSG_E_LIMIT (more than VSG_AD4_MAX_TYPES types). */
vsg_status vsg_ad4_params_read(const char *path, vsg_ad4_params *p);
/* The entry of `type` (case-sensitive, as AutoDock), or NULL. */
const vsg_ad4_atom_par *vsg_ad4_params_find(const vsg_ad4_params *p, const char *type);

/* Computes, on the gpf's box (npts, spacing, gridcenter or 'auto'), one affinity map per gpf
 * ligand type (gpf->ligand_types order) and then the desolvation map, into out[0 ..
 * n_ligand_types] (new grids, "kcal/mol", owned by the caller: vsg_grid_free each; values
 * of 1e-3 or more in magnitude are rounded to 3 decimals before the float conversion, as
 * autogrid4 rounds what it writes, so vsg_autogrid_map_write prints its text). rec is a
 * PDBQT receptor (AutoDock types, charges; file order matters, as in AutoGrid's bonded-atom
 * search of ±20 atoms). threads ≤ 0: OpenMP's default. Returns VSG_OK; VSG_E_ARG (NULL, no
 * npts, no ligand types); VSG_E_DATA (a receptor atom without an AutoDock type, or with a type
 * the parameters lack: "rec.pdbqt:12: receptor type 'X' has no parameters"; a ligand type without
 * parameters; no atoms); VSG_E_UNSUPPORTED (ligand type Z, AutoGrid's covalent map); VSG_E_NOMEM.
 * On failure no grid is left in out. */
vsg_status vsg_ad4_maps_cpu(const vsg_molecule *rec, const vsg_gpf *gpf, const vsg_ad4_params *p, int threads,
                            vsg_grid **out);
/* The same maps on CUDA device `device` (< 0: device 0; gpu/maps/ad4_maps_gpu.cu): the same
 * arguments, checks, grids and metadata as vsg_ad4_maps_cpu, in double precision; the values
 * equal the CPU twin's after the 3-decimal rounding except where a value lies within ~1e-12 of
 * a rounding edge (then one step of 0.001: the sums run in another order). Returns what
 * vsg_ad4_maps_cpu returns, and VSG_E_DEVICE (no usable GPU, a bad index, a CUDA failure: run
 * the CPU twin), VSG_E_LIMIT (more than 32 ligand types, a box past the launch limits),
 * VSG_E_UNSUPPORTED (a build without CUDA). On failure no grid is left in out. */
vsg_status vsg_ad4_maps_gpu(const vsg_molecule *rec, const vsg_gpf *gpf, const vsg_ad4_params *p, int device,
                            vsg_grid **out);
/* The pair energy table AutoGrid builds for a ligand probe type and a receptor type (the vdW
 * or H-bond term only, weighted, clamped and smoothed by gpf-like `smooth`), at r Å as
 * AutoGrid looks it up (bin (int)(r·100)), without directionality or desolvation: for tests
 * and reports. Returns VSG_OK; VSG_E_ARG (NULL, r < 0); VSG_E_DATA (a type without
 * parameters). */
vsg_status vsg_ad4_pair_energy(const vsg_ad4_params *p, const char *ligand_type, const char *receptor_type,
                               double smooth, double r, double *energy);

/* ---- Vina and Vinardo maps ----------------------------------------------------------- */
/* Affinity maps of AutoDock Vina 1.2's scoring functions, one per ligand XS atom type: at
 * each node, the sum over receptor atoms within 8 Å of the weighted intermolecular terms
 * (Vina: gauss1, gauss2, repulsion, hydrophobic, non-directional hydrogen bond; Vinardo:
 * gauss, repulsion, hydrophobic, hydrogen bond) between that receptor atom and a ligand atom
 * of the map's type at the node, in kcal/mol, before Vina's torsion (N_rot) division. The
 * terms depend on the optimal distance d = r − R_i − R_j (XS radii; Vinardo's own radii).
 * Maps are written as `vina --write_maps` writes them and read back by `vina --maps PREFIX`.
 *
 * XS types (X-Score, as Vina 1.2 assigns them): carbon bonded to a heteroatom is C_P, else
 * C_H; N and O are acceptors when AutoDock typed them NA / OA, donors when bonded to an HD
 * hydrogen (metals are donors, Met_D); S, P and halogens have one type each; hydrogens have
 * none. Bonds are found by distance: i–j bonded when r < 1.1·(covalent radius i + j) and no
 * third atom is closer to both than they are to each other. */
#define VSG_XS_TYPE_LIST(X) \
    X(VSG_XS_C_H, 0, "C_H") X(VSG_XS_C_P, 1, "C_P") X(VSG_XS_N_P, 2, "N_P")            \
    X(VSG_XS_N_D, 3, "N_D") X(VSG_XS_N_A, 4, "N_A") X(VSG_XS_N_DA, 5, "N_DA")           \
    X(VSG_XS_O_P, 6, "O_P") X(VSG_XS_O_D, 7, "O_D") X(VSG_XS_O_A, 8, "O_A")             \
    X(VSG_XS_O_DA, 9, "O_DA") X(VSG_XS_S_P, 10, "S_P") X(VSG_XS_P_P, 11, "P_P")          \
    X(VSG_XS_F_H, 12, "F_H") X(VSG_XS_Cl_H, 13, "Cl_H") X(VSG_XS_Br_H, 14, "Br_H")      \
    X(VSG_XS_I_H, 15, "I_H") X(VSG_XS_Si, 16, "Si") X(VSG_XS_At, 17, "At")              \
    X(VSG_XS_Met_D, 18, "Met_D")

typedef enum {
    VSG_XS_NONE = -1, /* hydrogens (and Vina's dummy G0-G3 / W atoms): no type, no interaction */
#define VSG_X_XS(name, value, text) name = value,
    VSG_XS_TYPE_LIST(VSG_X_XS)
#undef VSG_X_XS
    VSG_XS_COUNT = 19
} vsg_xs_type;

/* "C_P" (Vina's map file suffix); NULL for a value outside 0..VSG_XS_COUNT−1. */
const char *vsg_xs_type_name(int t);
/* The type named by an XS name ("N_DA") or, when it has no XS name, the type(s) a ligand atom
 * of that AutoDock type may take ("C" and "A": C_H, C_P; "N": N_P, N_D; "NA": N_A, N_DA; "O":
 * O_P, O_D; "OA": O_A, O_DA; "S", "SA": S_P; metals: Met_D); out gets up to 2 types, *n how
 * many (0 for H and HD: hydrogens have no map). Returns VSG_OK; VSG_E_ARG for a NULL argument
 * or a name that is neither (the message names it). */
vsg_status vsg_xs_types_from_name(const char *name, vsg_xs_type out[2], int *n);
/* XS type of every atom of m (types[i], the caller's array of atom-count entries; VSG_XS_NONE
 * for hydrogens). Needs AutoDock types (PDBQT; Vina's extra metal names Cu, Fe, Na, K, Hg,
 * Co, U, Cd, Ni and "Se" as S are accepted too). Returns VSG_OK; VSG_E_ARG (a NULL argument);
 * VSG_E_DATA (an atom without an AutoDock type, or a type with no XS equivalent: the message
 * names atom, type and line); VSG_E_NOMEM. */
vsg_status vsg_xs_assign(const vsg_molecule *m, vsg_xs_type *types);

typedef enum { VSG_VINA_SCORING_VINA = 0, VSG_VINA_SCORING_VINARDO = 1 } vsg_vina_scoring;

/* One receptor–ligand atom pair at distance r: each unweighted term and the weighted sum
 * (kcal/mol), analytic (no table). Vina: gauss1 = exp(−(d/0.5)²), gauss2 = exp(−((d−3)/2)²),
 * repulsion = d² for d < 0, hydrophobic = 1 for d < 0.5 → 0 at d > 1.5 (both hydrophobic:
 * C_H, F_H, Cl_H, Br_H, I_H), hbond = 1 for d < −0.7 → 0 at d > 0 (donor–acceptor pairs),
 * weights −0.035579, −0.005156, 0.840245, −0.035069, −0.587439. Vinardo: gauss1 =
 * exp(−(d/0.8)²), repulsion d² (d < 0), hydrophobic 1 → 0 over d 0..2.5, hbond 1 → 0 over
 * d −0.6..0, weights −0.045, 0.8, −0.035, −0.6 (gauss2 = 0). Every term is 0 for r ≥ 8 Å. */
typedef struct {
    double gauss1, gauss2, repulsion, hydrophobic, hbond; /* unweighted */
    double optimal_distance;                              /* d = r − R_i − R_j, Å */
    double energy;                                        /* Σ weight·term, kcal/mol */
} vsg_vina_terms;
/* Returns VSG_OK; VSG_E_ARG (a NULL out, a type outside 0..VSG_XS_COUNT−1, an unknown
 * scoring, r < 0 or not finite). */
vsg_status vsg_vina_pair_terms(vsg_vina_scoring sf, vsg_xs_type receptor, vsg_xs_type ligand, double r,
                               vsg_vina_terms *out);

/* The box as Vina takes it (--center_x.. --size_x.., --spacing): n_voxels = ⌈size/spacing⌉,
 * made even (Vina's --force_even_voxels, which its .map format needs), so n = n_voxels + 1
 * nodes centred on center, from center − spacing·n_voxels/2. */
typedef struct {
    double center[3]; /* Å */
    double size[3];   /* Å, > 0 */
    double spacing;   /* Å, > 0; Vina's default 0.375 */
} vsg_vina_box;

typedef struct {
    vsg_vina_scoring scoring;
    /* 1 (default of vsg_vina_params_default): pair energies from Vina's table, as Vina's maps
     * hold them (sampled at r² = k/32 Å², each bin the mean of its two ends), so the maps agree
     * with `vina --write_maps` to its printed digits; 0: the analytic terms. */
    int tabulated;
} vsg_vina_params;
void vsg_vina_params_default(vsg_vina_params *p); /* vina scoring, tabulated */

/* The CPU twin (double precision, OpenMP over grid planes): maps[k] (new grids, units
 * "kcal/mol", metadata method, xs_type, vina_table) for the ligand types types[0..ntypes−1], in
 * that order; a type repeated gets its own copy. On failure maps[0..ntypes−1] are all NULL
 * (when maps and ntypes ≥ 1 were given). The GPU twin (vsg_vina_maps_gpu) takes the same
 * arguments and fills the same maps.
 * Returns VSG_OK; VSG_E_ARG (a NULL argument, ntypes < 1, a type outside the XS types, a size
 * or spacing not finite or ≤ 0 — an empty box —, an unknown scoring); VSG_E_DATA (receptor
 * typing: vsg_xs_assign); VSG_E_LIMIT (a box past 2^31 nodes a side or the address space);
 * VSG_E_NOMEM. */
vsg_status vsg_vina_maps_cpu(const vsg_molecule *receptor, const vsg_vina_box *box, const vsg_vina_params *p,
                             const vsg_xs_type *types, int ntypes, vsg_grid **maps);
/* The GPU twin (gpu/maps/vina_maps_gpu.cu): the same contract and maps, r² and its table bin
 * in double exactly as the CPU twin forms them, table values in float summed in float: within
 * max(1e-4·|cpu|, 1e-5) kcal/mol of the CPU twin per node (tests/test_gpu_vina_maps.c). device
 * −1 = the first; max_gpu_memory_bytes ≤ 0: no limit beyond the device's free memory (larger
 * grids go in z-slabs). Returns the CPU twin's statuses, and VSG_E_DEVICE without a usable GPU
 * or on a CUDA failure (callers fall back to the CPU twin); VSG_E_LIMIT when one plane of the
 * maps does not fit the memory allowed; VSG_E_UNSUPPORTED in a build without CUDA. */
vsg_status vsg_vina_maps_gpu(const vsg_molecule *receptor, const vsg_vina_box *box, const vsg_vina_params *p,
                             const vsg_xs_type *types, int ntypes, int device, double max_gpu_memory_bytes,
                             vsg_grid **maps);
/* Writes one map as `vina --write_maps` does (PREFIX.<XS type>.map): header lines
 * GRID_PARAMETER_FILE, GRID_DATA_FILE, MACROMOLECULE (macromolecule, or "NULL" as Vina writes
 * when NULL), SPACING, NELEMENTS (even voxel counts), CENTER, then one value a line ("%.4g",
 * C++'s setprecision(4)), x fastest. Returns VSG_OK; VSG_E_ARG (a NULL argument, a grid whose
 * node counts are not odd); VSG_E_IO (cannot create or write the file). */
vsg_status vsg_vina_map_write(const vsg_grid *g, const char *path, const char *macromolecule);
/* The same, naming in the header the function that made the map: scoring VSG_VINA_SCORING_VINA
 * or _VINARDO writes "GRID_PARAMETER_FILE vsgrid:vina" (":vinardo"), a value Vina's reader
 * skips; vsg_vina_target_maps refuses maps of another function than the one asked (-1: NULL,
 * as vsg_vina_map_write). VSG_E_ARG also for another scoring value. */
vsg_status vsg_vina_map_write_scored(const vsg_grid *g, const char *path, const char *macromolecule, int scoring);

/* A warning (vsg_warn; returns 1) when a receptor HETATM group (not a standard residue or water;
 * 6 or more heavy atoms) sits at the box's centre (its centroid within a quarter of the box's size
 * of the centre along each axis): a co-crystallised ligand left in the receptor fills the pocket,
 * however the box was given. The group nearest the centre is named, with rec_name (NULL: the
 * molecule's source) and who (the command, NULL: "box"). 0 when none (or a NULL argument). */
int vsg_receptor_warn_box_group(const vsg_molecule *rec, const char *rec_name, const char *who, const double center[3],
                                const double size[3]);

/* ---- receptor map sets from a box (vsgrid maps) ----------------------------------------- */
/* A whole gpf for an AutoDock4 map set on a box, as `vsgrid maps --scoring ad4` writes it beside
 * the maps (grids/maps/ad4_box.c): npts[k] = ceil(size[k]/spacing) made even (upwards: autogrid4
 * rounds an odd npts down), the centre as given, the receptor types present in rec (file order),
 * the ligand types in order with map names "map_prefix.T.map", "map_prefix.e.map",
 * "map_prefix.d.map", "map_prefix.maps.fld", smooth 0.5 and AutoDock4's distance-dependent
 * dielectric (-0.1465); receptor_path is written as the gpf's receptor. Returns VSG_OK; VSG_E_ARG
 * (NULL, spacing or size not finite and > 0, a type repeated or over 3 characters, a path over
 * VSG_AG_PATH); VSG_E_LIMIT (more than VSG_AG_MAX_MAPS − 2 types, over 100000 points an axis);
 * VSG_E_DATA (a receptor atom without an AutoDock type, "file:line: ..."; no atoms). */
vsg_status vsg_ad4_gpf_for_box(const vsg_molecule *rec, const char *receptor_path, const double center[3],
                               const double size[3], double spacing, const char *const *ligand_types, int n_types,
                               const char *map_prefix, vsg_gpf *out);
/* Writes g as a gpf autogrid4 4.2.6 reads (its keyword order; file names without their
 * directory, so autogrid4 is run in the gpf's directory; gridcenter and spacing with 3
 * decimals, as vsg_gpf_read then reads them back). comment (may be NULL) becomes '#' lines at the
 * top. Returns VSG_OK; VSG_E_ARG (NULL, no npts, map lines not one per ligand type); VSG_E_IO. */
vsg_status vsg_gpf_write(const vsg_gpf *g, const char *path, const char *comment);
/* The receptor's Poisson–Boltzmann potential on g's lattice (engine/pb/pb_map.c): PB is solved
 * with p (its box options are replaced by g's box; p->bc as given, VSG_BC_FOCUS for a box that
 * cuts the receptor) on a fine level with g's nodes, and every node of g gets
 * weight × kT(p->temperature) × φ, i.e. kcal/mol/e times the weight (AutoDock4's e map: the
 * weight FE_coeff_estat, 0.1406, as autogrid4's e map includes it). report (may be NULL)
 * receives the solve's report. Returns VSG_OK (an unconverged solve too: report->converged);
 * VSG_E_DATA when every receptor charge is 0 (a zero map would pass for a result); VSG_E_ARG
 * (NULL, a weight not finite, a grid without one spacing); what vsg_pb_solve returns. */
vsg_status vsg_pb_map_fill(const vsg_molecule *rec, const vsg_pb_params *p, double weight, vsg_grid *g,
                           vsg_pb_report *report);

/* ---- ligands and libraries ------------------------------------------------------------ */

/* A ligand library is read by a streaming reader that yields its records (molecules or docking
 * poses) in input order, from SDF (V2000/V3000), MOL2, PDBQT and PDB files, and SMILES files
 * (.smi/.ism, .csv with a smiles column: each record prepared in 3D through Open Babel, below)
 * (plain or gzip, several files, "-" for standard input).
 *
 * Contract: every input record yields exactly one vsg_ligand, whatever is wrong with it. A
 * record that cannot be scored still comes out, with status != VSG_OK, a short code and a
 * one-line message naming file, record and line; the reader then resynchronises on the next
 * record boundary ($$$$, @<TRIPOS>MOLECULE, MODEL/ENDMDL, END). A file that cannot be opened,
 * or a gzip stream that ends early, yields one record with that status (so it gets its row)
 * and reading goes on with the next file. Memory is bounded by the largest record, never by
 * the library. */
typedef enum {
    VSG_LIG_AUTO = 0, /* from the content, else the extension (.sdf/.sd/.mol, .mol2, .pdbqt, .pdb/.ent,
                         .smi/.ism, .csv, with .gz) */
    VSG_LIG_SDF,
    VSG_LIG_MOL2,
    VSG_LIG_PDBQT,
    VSG_LIG_PDB,
    VSG_LIG_SMILES, /* .smi/.ism (.gz): one "SMILES [name...]" a line, prepared in 3D (below) */
    VSG_LIG_CSV     /* .csv (.gz): a header with a column named smiles (any case), one record a line */
} vsg_ligand_format;

/* Bond orders as read: 1, 2, 3; VSG_BOND_AROMATIC for SDF type 4 and MOL2 "ar";
 * VSG_BOND_AMIDE for MOL2 "am" (single, planar). */
enum { VSG_BOND_AROMATIC = 4, VSG_BOND_AMIDE = 5 };

typedef struct {
    double x, y, z;   /* Å */
    double charge;    /* e (partial charge as read or assigned; 0 when none) */
    int line;         /* 1-based line of the atom in its file */
    int formal;       /* formal charge (SDF M  CHG / atom block, MOL2 none) */
    char name[8];     /* atom name ("C1", "CA"), may be "" */
    char element[3];  /* element symbol, capitalised ("C", "Cl"); "" when unknown */
    char ad_type[4];  /* AutoDock 4 type: from PDBQT (Meeko's macrocycle "CG0".."CG9" take three
                         characters), or assigned by vsg_ligand_assign_ad_types */
} vsg_lig_atom;

typedef struct {
    int a, b;         /* 0-based atom indices */
    int order;        /* 1, 2, 3, VSG_BOND_AROMATIC, VSG_BOND_AMIDE */
} vsg_lig_bond;

/* Short status codes, the CSV's `status` column. */
#define VSG_LIG_OK "ok"
#define VSG_LIG_PARSE "parse"           /* malformed record */
#define VSG_LIG_IO "io"                 /* file unreadable, truncated or corrupt gzip */
#define VSG_LIG_NO_ATOMS "no_atoms"
#define VSG_LIG_NO_CHARGES "no_charges" /* no charges in the file and none assigned */
#define VSG_LIG_ZERO_CHARGES "zero_charges" /* every charge exactly 0: flagged, never scored */
#define VSG_LIG_BAD_COORD "bad_coord"   /* NaN/inf coordinate */
#define VSG_LIG_NOT_3D "not_3d"         /* an SDF record with 2D coordinates (its header says 2D, every z 0) */
#define VSG_LIG_TOO_MANY "too_many_atoms"
#define VSG_LIG_TYPE "untyped"          /* AD4 scoring: an atom type with no map */
#define VSG_LIG_OUTSIDE "outside"       /* atoms outside the grid (scored by the stated rule) */
#define VSG_LIG_NO_POSE "no_pose"       /* rigid placement: no pose keeps every atom inside the grid */
/* SMILES records (VSG_LIG_SMILES, VSG_LIG_CSV, vsg_ligand_from_smiles) add: */
#define VSG_LIG_BAD_SMILES "bad_smiles"   /* Open Babel cannot parse the SMILES (or the line has none) */
#define VSG_LIG_ELEMENT "bad_element"     /* an element outside H C N O F P S Cl Br I (no Gasteiger charges) */
#define VSG_LIG_EMBED "embed_failed"      /* no sane 3D coordinates from the builder */
#define VSG_LIG_STEREO "stereo"           /* --stereo specified: the SMILES leaves a stereocentre open */
#define VSG_LIG_UNSUPPORTED "unsupported" /* a build without Open Babel: SMILES cannot be prepared */

/* One record. A plain struct: its buffers are owned by the record (vsg_ligand_init, then
 * vsg_ligand_release), the source string by the reader. */
typedef struct {
    /* identity */
    size_t index;          /* 0-based position over all inputs, in input order */
    const char *source;    /* path as given ("-" = stdin); owned by the reader, valid until close */
    long record;           /* 1-based record number within its file */
    long line;             /* 1-based line where the record starts */
    vsg_ligand_format format;
    char name[128];        /* SDF title line, MOL2 molecule name, PDBQT "REMARK Name =" or
                              COMPND, else ""; control characters replaced by blanks */
    /* content */
    int natoms, nbonds;
    vsg_lig_atom *atoms;   /* owned; capacity managed by the reader */
    vsg_lig_bond *bonds;
    int atoms_cap, bonds_cap;
    int has_charges;       /* 1 when charges came from the file (MOL2/PDBQT columns, SDF tags) */
    int model;             /* PDBQT/PDB MODEL number, 0 when none */
    /* the record's text exactly as read (keep_text), for SDF output that keeps the molecule */
    char *text;
    size_t text_len, text_cap;
    /* outcome */
    vsg_status status;     /* VSG_OK, or why this record cannot be scored */
    char code[16];         /* one of VSG_LIG_* */
    char message[256];     /* "path:line: record N: what is wrong" (empty when ok) */
    /* preparation: 1 keeps rings of 12..33 atoms rigid in an SDF/MOL2/SMILES record's Vina model
       and torsion tree; 0 (the default) opens them as Meeko does (a closure bond broken, CGk/Gk
       glue atoms, the ring's single bonds rotatable: docs/FORMATS.md, "Macrocycles"). The
       reader sets it from vsg_ligand_reader_options.rigid_macrocycles. */
    int rigid_macrocycles;
    /* further conformers of the same molecule (a SMILES record prepared with
       vsg_smiles_options.conformers > 1): nconformers sets of natoms x, y, z (Å, atoms in
       atoms[]'s order), owned; the record's own coordinates are the first conformer. */
    int nconformers;
    double *conformers;
} vsg_ligand;

/* Preparation of SMILES records (ligands/prepare/smiles_obabel.cpp, through Open Babel 3), each in
 * this order: parse; keep the largest fragment by heavy atoms (ties: the first written), the
 * others named in the record's note; count the stereocentres and stereo double bonds the SMILES
 * leaves unassigned (VSG_STEREO_BUILDER: each gets the configuration the conformer generator
 * makes; VSG_STEREO_SPECIFIED: the record fails, status
 * VSG_LIG_STEREO); protonate at the pH by Open Babel's pH model (phmodel.txt: its acid/base
 * SMARTS with pKa values, OBMol::CorrectForPH) and then vsgrid's rules for the groups it gets
 * wrong (ligands/prepare/protonation_rules.cpp: amines, amidine-like groups, heteroaryl thiols,
 * 2-aminoimidazoles, each a literature pKa against the pH), unless VSG_PH_NONE; hydrogens; 3D
 * coordinates (embed): VSG_EMBED_RDKIT, RDKit's ETKDGv3 (seeded: the same SMILES gives the same
 * conformer in every run), then min_steps iterations of MMFF94 (UFF without MMFF94 parameters;
 * default 50), re-embedded with the next seed while it contradicts a specified centre (up to 5
 * times); or VSG_EMBED_OPENBABEL, Open Babel's fragment builder (OBBuilder, clock-seeded), then
 * min_steps steepest-descent steps of MMFF94 (UFF without MMFF94 parameters; default 100), as
 * `obabel --gen3d fast` does; VSG_EMBED_DEFAULT: RDKit when the build has it
 * (vsg_smiles_rdkit_available), else Open Babel, and Open Babel too for a molecule RDKit cannot
 * embed (said in the note); Gasteiger charges (as vsg_ligand_gasteiger). The record then is
 * what a 3D SDF record of that molecule would be: format VSG_LIG_SDF, its text (keep_text) the
 * prepared molfile with the charges as an RDKit atom property list and the preparation's notes
 * as data items; has_charges 1. An ok record's
 * message holds the preparation's note ("kept the largest of 2 fragments (dropped Na+); 1
 * unassigned stereocentre; net charge 0 -> -1 at pH 7.4"), empty when there is nothing to say. */
enum { VSG_PH_DEFAULT = 0, VSG_PH_AT = 1, VSG_PH_NONE = 2 };
enum { VSG_STEREO_BUILDER = 0, VSG_STEREO_SPECIFIED = 1, VSG_STEREO_ENUMERATE = 2 };
enum { VSG_EMBED_DEFAULT = 0, VSG_EMBED_RDKIT = 1, VSG_EMBED_OPENBABEL = 2 };
#define VSG_SMILES_MAX_CONFORMERS 20 /* vsg_smiles_options.conformers at most */
typedef struct {
    int ph_mode;    /* VSG_PH_DEFAULT (pH 7.4), VSG_PH_AT (at ph), VSG_PH_NONE (the SMILES's own states) */
    double ph;      /* with VSG_PH_AT */
    int stereo;     /* VSG_STEREO_BUILDER (0), VSG_STEREO_SPECIFIED, or VSG_STEREO_ENUMERATE (RDKit only: every
                       stereoisomer of the open centres and double bonds, up to 8, each a conformer in
                       vsg_ligand.conformers, the first the record's own; the note says how many) */
    int min_steps;  /* force-field steps after the 3D build: 0 the default (RDKit 50, Open Babel 100), < 0 none */
    int embed;      /* the 3D conformer generator: VSG_EMBED_DEFAULT (0), VSG_EMBED_RDKIT, VSG_EMBED_OPENBABEL */
    int conformers; /* 0 or 1: one conformer a record. N > 1 (RDKit's embedding only): up to N conformers
                       whose rings differ (a ring's shape is what docking cannot change; a molecule
                       without a non-aromatic ring gets one), kept in vsg_ligand.conformers; the
                       flexible screen docks each and keeps the best (docs/FORMATS.md, "Conformers") */
} vsg_smiles_options;

typedef struct {
    vsg_ligand_format format; /* VSG_LIG_AUTO: from each file's extension; "-" needs a format */
    int keep_text;            /* keep each record's text in vsg_ligand.text */
    int max_atoms;            /* records with more atoms get VSG_LIG_TOO_MANY (0 = 100000) */
    vsg_smiles_options smiles; /* how SMILES/CSV records are prepared (all 0: the defaults) */
    int rigid_macrocycles;    /* stamped on each record (vsg_ligand.rigid_macrocycles) */
} vsg_ligand_reader_options;


typedef struct vsg_ligand_reader vsg_ligand_reader;

/* Opens a reader over paths[0..npaths) read in order; opt may be NULL (defaults). Returns
 * VSG_OK; VSG_E_ARG: out or paths NULL, npaths < 1, an empty path, an unknown format in opt,
 * or (format AUTO) a path whose extension names no format, "-" included; VSG_E_NOMEM.
 * Unreadable files are not an error here: they become records with status VSG_E_IO. */
vsg_status vsg_ligand_reader_open(const char *const *paths, int npaths, const vsg_ligand_reader_options *opt,
                                  vsg_ligand_reader **out);
/* Fills *lig with the next record (its buffers are reused: initialise with
 * vsg_ligand_init, free with vsg_ligand_release). Returns 1 with a record (check
 * lig->status), 0 after the last record of the last file. */
int vsg_ligand_reader_next(vsg_ligand_reader *r, vsg_ligand *lig);
/* Records and failed records so far. */
size_t vsg_ligand_reader_count(const vsg_ligand_reader *r, size_t *failed);
/* Bytes consumed so far over all inputs (compressed bytes for .gz), and the total size of the
 * regular files among the inputs (0 when unknown), for progress and ETA. */
void vsg_ligand_reader_progress(const vsg_ligand_reader *r, uint64_t *done, uint64_t *total);
void vsg_ligand_reader_close(vsg_ligand_reader *r);

void vsg_ligand_init(vsg_ligand *lig);
void vsg_ligand_release(vsg_ligand *lig);
/* The format a path implies (VSG_LIG_AUTO when unknown). */
vsg_ligand_format vsg_ligand_format_of(const char *path);
const char *vsg_ligand_format_name(vsg_ligand_format f);   /* "sdf", ... */

/* AutoDock 4 atom types from elements and bonds (SDF/MOL2 input; PDBQT keeps its own):
 * C/A (aromatic carbon), N/NA (acceptor), OA, SA, HD (polar H) / H, F, Cl, Br, I, P, ...
 * Returns VSG_OK; VSG_E_ARG: lig NULL; VSG_E_DATA: a bond that names a missing atom or has a
 * bad order, or an element AutoDock has no type for (the message names the atom);
 * VSG_E_NOMEM. */
vsg_status vsg_ligand_assign_ad_types(vsg_ligand *lig);
/* AutoDock's ligand preparation merges non-polar hydrogens into their heavy atom (charge
 * added, atom removed); AD4 maps assume it. Keeps atom order otherwise. */
void vsg_ligand_merge_nonpolar_h(vsg_ligand *lig);
/* The first record of a ligand file of any format the ligand reader takes (SDF, MOL2, PDBQT, PDB;
 * .gz) as a molecule: coordinates, charges as read, radii by element, AutoDock types (assigned
 * for SDF/MOL2 records with bonds). For boxes around a ligand (vsg_pb_params.around). Returns
 * VSG_OK; the reader's status with its message (VSG_E_IO, VSG_E_FORMAT, ...); VSG_E_DATA (no
 * record, no atoms); VSG_E_NOMEM. */
vsg_status vsg_ligand_file_molecule(const char *path, vsg_molecule **out);
/* ---- record selection and library indexes (ligands/readers/library_index.c) ----------- */
/* A campaign cuts its libraries into slices of records (shards for a scheduler's tasks, ranks):
 * a range is records [first, first + count) numbered over all inputs from 0, as the reader
 * numbers them (vsg_ligand.index). */
typedef struct {
    size_t first, count;
} vsg_record_range;

/* An index of one library file: every `every` records, where a record starts (uncompressed byte
 * offset, line, record number in the file, the PDB/PDBQT name state a chunk carries), and how
 * many records the file yields (the reader's count: an unreadable or empty file yields one).
 * Made once by `vsgrid index` (vsg_library_index_build + _write: FILE.vsgidx beside the file, or
 * any path), it lets a task start reading at its first record without scanning the file before
 * it. An index knows the size and modification time of the file it was made from and is
 * refused for any other (vsg_library_index_read). */
typedef struct vsg_library_index vsg_library_index;
/* Scans path once (lines only, no parsing) with the reader's options ro (format; NULL:
 * defaults). every: records between entries (0 = 1024). Returns VSG_OK; VSG_E_ARG;
 * VSG_E_NOMEM. A file that cannot be read is indexed as the reader sees it (one io record). */
vsg_status vsg_library_index_build(const char *path, const vsg_ligand_reader_options *ro, long every,
                                   vsg_library_index **out);
/* Writes / reads an index file (text). _read checks that it was made from `library` as it is
 * now (size and modification time): VSG_E_DATA otherwise (the message says to run `vsgrid
 * index` again); VSG_E_IO; VSG_E_FORMAT (not an index). */
vsg_status vsg_library_index_write(const vsg_library_index *ix, const char *path);
vsg_status vsg_library_index_read(const char *path, const char *library, vsg_library_index **out);
/* Records the indexed file yields; entries (places where a task can start reading) it holds. */
size_t vsg_library_index_records(const vsg_library_index *ix);
size_t vsg_library_index_entries(const vsg_library_index *ix);
void vsg_library_index_free(vsg_library_index *ix);
/* The default index path of a library: "PATH.vsgidx" (in buf). */
const char *vsg_library_index_path(const char *library, char *buf, size_t len);

/* Restricts an open reader, before its first record, to the records of ranges[0..n) (sorted,
 * not overlapping), numbered as in a full read (index, record, line, name, messages: the very
 * records a full read yields). Files before a range are skipped whole when their record count
 * is known (an index), and a range starts at the index entry before it: a plain file is read
 * from that byte offset, a gzipped one inflated from its start and the bytes before dropped
 * (inflating is the cost: no parsing). idx[i] (may be NULL, or idx NULL) is input i's index;
 * without one the records before a range are cut at record boundaries by scanning lines, not
 * parsed. Returns VSG_OK; VSG_E_ARG (a reader already read from, unsorted or overlapping
 * ranges, an index of another file). Past the last range vsg_ligand_reader_next returns 0. */
vsg_status vsg_ligand_reader_select(vsg_ligand_reader *r, const vsg_record_range *ranges, int n,
                                    const vsg_library_index *const *idx);
/* Records of all inputs: from the indexes where given, else by scanning (lines only). */
vsg_status vsg_library_count(const char *const *paths, int npaths, const vsg_ligand_reader_options *ro,
                             const vsg_library_index *const *idx, size_t *records);

/* Bonds of a record from its distances, for records that carry none (PDBQT; a PDB without
 * CONECT gets them from the reader): Open Babel's rule, bonded when 0.4 Å < d < r_cov(a) +
 * r_cov(b) + 0.45 Å, each hydrogen keeping its nearest partner. *pairs (malloc'ed; free it)
 * gets 2 atom indices per bond, *npairs the count. Returns VSG_OK, VSG_E_ARG or VSG_E_NOMEM. */
vsg_status vsg_ligand_bonds_by_distance(const vsg_ligand *lig, int **pairs, int *npairs);
/* Gasteiger–Marsili charges through Open Babel. _available: 1 when this build has Open Babel.
 * vsg_ligand_gasteiger returns VSG_OK; VSG_E_ARG: lig NULL; VSG_E_DATA: an unknown element, a
 * bad or duplicate bond, or Open Babel failed on the molecule; VSG_E_NOMEM; VSG_E_UNSUPPORTED:
 * no Open Babel in this build (or its charge plugins were not found). */
int vsg_ligand_gasteiger_available(void);
vsg_status vsg_ligand_gasteiger(vsg_ligand *lig);
/* SMILES preparation (ligands/prepare/; "Preparation of SMILES records" above).
 * vsg_smiles_available: 1 when this build can prepare SMILES (Open Babel 3 present); without it
 * every SMILES record fails with status VSG_LIG_UNSUPPORTED (VSG_E_UNSUPPORTED).
 * vsg_smiles_parse_ph: "none" (VSG_PH_NONE) or a number in [0, 14] (VSG_PH_AT) into o->ph_mode
 * and o->ph, the rest of *o unchanged; VSG_OK, or VSG_E_ARG (o untouched, message set).
 * vsg_smiles_parse_minimize: a whole number of force-field steps in [0, 100000] into
 * o->min_steps (0: none, stored as -1), as _parse_ph answers.
 * vsg_smiles_parse_stereo: "any" (VSG_STEREO_BUILDER), "specified" or "enumerate" (VSG_E_UNSUPPORTED
 * in a build without RDKit) into o->stereo, likewise.
 * vsg_smiles_parse_embed: "rdkit" (VSG_EMBED_RDKIT) or "openbabel" into o->embed, likewise;
 * VSG_E_UNSUPPORTED for "rdkit" in a build without RDKit.
 * vsg_smiles_parse_conformers: a whole number in [1, VSG_SMILES_MAX_CONFORMERS] into
 * o->conformers, as _parse_ph answers; VSG_E_UNSUPPORTED for more than 1 in a build without
 * RDKit. The reader refuses (VSG_E_ARG) conformers > 1 or VSG_STEREO_ENUMERATE with
 * VSG_EMBED_OPENBABEL.
 * vsg_smiles_rdkit_available: 1 when this build embeds with RDKit's ETKDG (RDKit's C++ library
 * found at build time, VSG_RDKIT).
 * vsg_ligand_from_smiles: one SMILES string (name may be NULL: "line 1") prepared into *lig
 * (vsg_ligand_init'ed), as a record of a .smi file "<memory>" would be (source "<memory>",
 * record 1); opt may be NULL (defaults; its format is ignored). Returns lig->status: VSG_OK;
 * VSG_E_FORMAT (bad_smiles); VSG_E_DATA (bad_element, embed_failed, stereo, too_many_atoms,
 * no_charges); VSG_E_UNSUPPORTED (unsupported: no Open Babel); VSG_E_NOMEM; VSG_E_ARG (lig or
 * smiles NULL, nothing done). lig->message says why, or holds the preparation's note. */
/* Every record of inputs[0..n) written to f (`vsgrid prepare-ligands`,
 * engine/screen/prepare_ligands.c), in input order, one output record per input record, as out
 * says:
 *   VSG_LIG_SDF: the SDF record a screen would dock: a SMILES record as prepared (its molfile
 *     with atom.dprop.PartialCharge, vsgrid_smiles, vsgrid_unassigned_stereo, vsgrid_note items);
 *     another record as read, with Gasteiger charges when it has none; a failed record as an
 *     empty molecule with vsgrid_status and vsgrid_message items.
 *   VSG_LIG_PDBQT: the AutoDock ligand vina docks, record k (from 0) as `MODEL k+1`: `REMARK
 *     VSGRID RECORD: k name`, `REMARK VSGRID STATUS: ok`, `REMARK VSGRID SOURCE: file:line
 *     record N`, a SMILES record's `REMARK VSGRID SMILES:` and `NOTE:`, then the torsion tree
 *     `vsgrid dock` searches (vsg_dock_tree: ROOT at the central rigid body, a BRANCH per
 *     rotatable bond, TORSDOF their count), AutoDock types (vsg_ligand_assign_ad_types),
 *     non-polar hydrogens merged, Gasteiger charges (the record's own when it has them); a PDBQT
 *     record keeps its own tree and lines. A failed record (the reader's statuses, and those a
 *     tree adds: disconnected, untyped, torsions, too_many_atoms) is a MODEL of REMARK lines
 *     (STATUS code, SOURCE, MESSAGE, Name) without atoms. vina reads one ligand a file without
 *     MODEL lines: vina_split cuts the file into them.
 * A failed record also gets the line "code: message" on log (may be NULL). Records are prepared
 * by `threads` OpenMP threads (0: every core), a batch of chunks at a time (memory bounded by a
 * batch). opt: the reader's options (NULL: defaults; keep_text is forced on). Returns VSG_OK
 * (failed records included: rep counts them; rep->unreadable the io ones); VSG_E_UNSUPPORTED
 * (SMILES input in a build without Open Babel, nothing written); VSG_E_ARG (out neither SDF nor
 * PDBQT, no input or f); the reader's open status; VSG_E_IO (a write error); VSG_E_NOMEM. */
typedef struct {
    size_t records, written, failed, unreadable;
    double seconds;  /* the preparation loop's wall time */
    int threads;
    size_t conformers; /* SDF output: further conformer records written (--conformers, --stereo enumerate) */
} vsg_prepare_ligands_report;
vsg_status vsg_prepare_ligands(const char *const *inputs, int ninputs, const vsg_ligand_reader_options *opt,
                               vsg_ligand_format out, int threads, FILE *f, FILE *log, vsg_prepare_ligands_report *rep);
int vsg_smiles_available(void);
vsg_status vsg_smiles_parse_ph(const char *v, vsg_smiles_options *o);
vsg_status vsg_smiles_parse_minimize(const char *v, vsg_smiles_options *o);
vsg_status vsg_smiles_parse_stereo(const char *v, vsg_smiles_options *o);
vsg_status vsg_smiles_parse_embed(const char *v, vsg_smiles_options *o);
vsg_status vsg_smiles_parse_conformers(const char *v, vsg_smiles_options *o);
int vsg_smiles_rdkit_available(void);
vsg_status vsg_ligand_from_smiles(const char *smiles, const char *name, const vsg_ligand_reader_options *opt,
                                  vsg_ligand *lig);
/* Polar hydrogens a record's file left out (ligands/typing/polar_hydrogens.c): in an SDF, MOL2 or
 * PDB record without any hydrogen atom (one with hydrogens is left as its author protonated it),
 * N, O and S atoms whose valence (bond orders, aromatic bonds by a Kekulé
 * structure, formal charges; MOL2 N.4 and O.co2 from the record's text) is not filled get their
 * hydrogens at ideal geometry, as Open Babel's -h would at neutral valence (no pH model; a MOL2
 * record whose partial charges add up to a whole net charge keeps that charge).
 * Non-polar hydrogens are not added (Vina and AD4 merge them). The hydrogens are appended to the
 * record's atoms and bonds (an SDF record's text gets them too); charges read from the file are
 * then dropped (has_charges 0: they describe the molecule without them). PDBQT records and
 * records with a status are left alone. *added (may be NULL) gets the count; warn: 1 issues a
 * warning (vsg_warn) naming the record and the atoms when hydrogens were added. Returns VSG_OK;
 * VSG_E_ARG (lig NULL); VSG_E_DATA (a bond naming a missing atom); VSG_E_NOMEM. */
vsg_status vsg_ligand_complete_hydrogens(vsg_ligand *lig, int *added, int warn);

/* ---- scoring arrays of coordinates on receptor grids ----------------------------------- */
/* The contract shared by the CPU twin (vsg_score_cpu, double precision, OpenMP) and the GPU
 * kernels. Two kinds of score:
 *  - VSG_SCORE_ELEC: E = elec_factor · Σ_i q_i φ(r_i) with φ trilinearly interpolated in one
 *    grid (a PB grid in kT/e: elec_factor = kT in kcal/mol; a Coulomb grid in kcal/mol/e:
 *    elec_factor = 1).
 *  - VSG_SCORE_AD4: the AutoDock4 intermolecular energy of a pose on an AutoGrid map set,
 *    E = Σ_i [ map_{type(i)}(r_i) + q_i e(r_i) + |q_i| d(r_i) ] (kcal/mol), as autodock4's
 *    epdb reports it.
 *
 * Interpolation (both kinds, every kernel): u = (x − origin)/spacing per axis, i0 = ⌊u⌋ clamped
 * to [0, n − 2] (so a point on the upper face interpolates in the last cell), t = u − i0, the
 * usual product of (1 − t) and t weights over the 8 corners.
 *
 * Outside the grid (a coordinate outside [origin, origin + (n − 1)·spacing]; NaN counts as
 * outside): counted in vsg_score_result.outside in both kinds.
 *  - ELEC: the atom contributes 0.
 *  - AD4: autodock4's rule (documented with its source in ligands/score/score_cpu.c), so that the
 *    energy equals what autodock4 reports for the same pose. */
#define VSG_SCORE_MAX_MAPS 32
#define VSG_SCORE_NO_TYPE 255 /* batch type of an atom with no type map (ELEC, or untyped) */

typedef enum { VSG_SCORE_ELEC = 0, VSG_SCORE_AD4 = 1 } vsg_score_kind;

/* The receptor grids, all of one shape; the values stay owned by the caller. */
typedef struct {
    vsg_score_kind kind;
    int n[3];                               /* nodes per axis (≥ 2 each) */
    double origin[3];                       /* Å, node (0,0,0) */
    double spacing[3];                      /* Å */
    int nmaps;                              /* ELEC: 1; AD4: type maps + e + d */
    const float *maps[VSG_SCORE_MAX_MAPS];  /* n0·n1·n2 values each, x fastest */
    char types[VSG_SCORE_MAX_MAPS][4];      /* AD4: the AutoDock type of each map ("C", "OA",
                                               "e", "d"); ELEC: "" */
    int e_map, d_map;                       /* AD4: indices of the e and d maps; ELEC: e_map = 0,
                                               d_map = −1 */
    double elec_factor;                     /* ELEC: kcal/mol per (e · grid unit); AD4: 1 */
} vsg_score_grids;

/* A batch of ligands, atoms contiguous (structure of arrays). */
typedef struct {
    size_t nlig;
    size_t natoms;
    const uint32_t *start;  /* nlig + 1 offsets: ligand l owns atoms [start[l], start[l+1]) */
    const float *x, *y, *z; /* Å, the grids' frame */
    const float *q;         /* e */
    const uint8_t *type;    /* AD4: index into maps of the atom's type map (VSG_SCORE_NO_TYPE:
                               none, the type term is 0); ELEC: may be NULL */
} vsg_score_batch;

typedef struct {
    double total;   /* kcal/mol */
    double elec;    /* kcal/mol: Σ q φ (ELEC), Σ q e (AD4) */
    double vdw_hb;  /* AD4: Σ map_type; ELEC: 0 */
    double desolv;  /* AD4: Σ |q| d; ELEC: 0 */
    int outside;    /* atoms outside the grid */
} vsg_score_result;

/* Kernel variants (paper 003). CPU = the double-precision twin, the reference. */
typedef enum {
    VSG_KERNEL_AUTO = 0,
    VSG_KERNEL_CPU,
    VSG_KERNEL_GM,         /* grids in global memory, one thread per atom */
    VSG_KERNEL_ROI,        /* only the batch's region of the grid on the device */
    VSG_KERNEL_SM,         /* the region staged in shared memory */
    VSG_KERNEL_TM,         /* texture objects, hardware trilinear filtering (9-bit weights) */
    VSG_KERNEL_ZIP,        /* coordinates as 3 × uint16 from the batch box, charge/type packed */
    VSG_KERNEL_ROI_TM_ZIP,
    VSG_KERNEL_ROI_SM_ZIP,
    VSG_KERNEL_COUNT
} vsg_kernel;

const char *vsg_kernel_name(vsg_kernel k);          /* "gm", "roi-tm-zip", ...; "unknown" */
vsg_kernel vsg_kernel_from_name(const char *name);  /* VSG_KERNEL_COUNT when unknown or NULL */

/* Fills g from a grid (ELEC): elec_factor from its units ("kT/e" → kT at temperature_k in
 * kcal/mol, "kcal/mol/e" → 1). The values stay owned by grid. Returns VSG_OK; VSG_E_ARG: a
 * NULL argument or temperature_k ≤ 0 for a kT/e grid; VSG_E_DATA: other units, fewer than 2
 * nodes on an axis, or a bad spacing. */
vsg_status vsg_score_grids_from_grid(const vsg_grid *grid, double temperature_k, vsg_score_grids *g);

/* The CPU twin: out[l] for every ligand of the batch, in double precision. Returns VSG_OK;
 * VSG_E_ARG: a NULL argument, bad grids (kind, geometry, maps, e_map/d_map) or a bad batch
 * (offsets, missing arrays, an AD4 atom whose type is not a type map). */
vsg_status vsg_score_cpu(const vsg_score_grids *g, const vsg_score_batch *b, vsg_score_result *out);

/* ---- AutoGrid map sets ------------------------------------------------------------------ */
/* An AutoGrid4 map set (the .maps.fld and every map it lists) loaded into memory, ready to
 * score AutoDock4 poses with vsg_score_cpu, a scorer or vsg_screen_run.
 *
 * The fld names one map per ligand atom type ("A", "C", "OA", ...) plus the electrostatic "e"
 * and desolvation "d" maps. Map files are looked up relative to the fld's folder, as written
 * and then with ".gz" appended (AutoGrid writes plain maps; data sets often ship them gzipped
 * under the names the fld gives without ".gz"). All maps must have one shape (node counts,
 * origin, spacing), which must also be the fld's; otherwise the read fails with a message that
 * names both files. */
typedef struct vsg_mapset vsg_mapset; /* opaque, owns its maps */

/* Reads fld_path and its maps. Returns VSG_OK; VSG_E_ARG: a NULL argument, a path not ending in
 * .fld, or an fld listing no map or too many; VSG_E_IO: the fld or a map missing or
 * unreadable; VSG_E_FORMAT: a malformed file, a type listed twice, a type name over 3
 * characters, no "e" or no "d" map, more than VSG_SCORE_MAX_MAPS maps; VSG_E_DATA: maps of
 * different shapes, a map that disagrees with the fld's geometry, fewer than 2 nodes on an
 * axis; VSG_E_NOMEM. */
vsg_status vsg_mapset_read(const char *fld_path, vsg_mapset **out);
void vsg_mapset_free(vsg_mapset *m);

/* The maps as score grids: kind VSG_SCORE_AD4, the type maps in the fld's order with their
 * AutoDock type names, then e_map and d_map, elec_factor 1. Valid until vsg_mapset_free. */
const vsg_score_grids *vsg_mapset_grids(const vsg_mapset *m);

/* Index into grids->maps of the type map of an AutoDock atom type ("OA"; exact, case-sensitive
 * as AutoDock's types are), or VSG_SCORE_NO_TYPE when the set has no map for it. "e" and "d"
 * are not atom types and never match. */
uint8_t vsg_mapset_type_index(const vsg_mapset *m, const char *ad_type);
/* The same lookup on any AD4 score grids (VSG_SCORE_NO_TYPE for ELEC grids). */
uint8_t vsg_score_grids_type_index(const vsg_score_grids *g, const char *ad_type);

/* The map file read for grids->maps[i] (the path as resolved, ".gz" included), or NULL. */
const char *vsg_mapset_map_path(const vsg_mapset *m, int i);
/* Adds the map file path (AutoGrid text, vsg_autogrid_map_read) as the map of AutoDock type type,
 * after the set's type maps (e and d move up one): how a map the fld does not list joins the set
 * (the W map of hydrated docking, which mapwater.py writes beside an autogrid4 set without
 * listing it). Returns VSG_OK; VSG_E_ARG (NULL, not a type name, a type the set has);
 * vsg_autogrid_map_read's errors; VSG_E_DATA (not the set's grid); VSG_E_FORMAT (over
 * VSG_SCORE_MAX_MAPS); VSG_E_NOMEM. */
vsg_status vsg_mapset_add_map(vsg_mapset *m, const char *type, const char *path);

/* ---- placement: exhaustive rigid-body pose search -------------------------------------- */
/* Rotations: a deterministic, near-uniform set of N unit quaternions, the super-Fibonacci
 * spiral of M. Alexa, "Super-Fibonacci Spirals: Fast, Low-Discrepancy Sampling of SO(3)", CVPR
 * 2022. Member i (0 ≤ i < N) is built from s = i + 1/2, r = √(s/N), R = √(1 − s/N),
 * α = 2π s/φ, β = 2π s/ψ with φ = √2 and ψ the real root > 1 of ψ⁴ = ψ + 4
 * (ψ ≈ 1.5337511687552043):  q_i = (w, x, y, z) = (r sin α, r cos α, R sin β, R cos β).
 * Every N gives a near-uniform set, and member i depends only on (i, N) (the GPU generates any
 * member from its index alone). Coverage is measured in tests/test_place_cpu.c.
 *
 * Poses. The ligand is rigid (one conformation). Its centroid c is the plain mean of its atom
 * positions (no mass or charge weights). A pose is a rotation R (one member of a rotation set)
 * and a site point s (one node of the site lattice below); its atoms are
 *     x'_i = R · (x_i − c) + s,
 * i.e. the rigid motion x' = R·x + T with T = s − R·c (what the CSV reports). The pose's
 * coordinates are rounded to float, as every batch is, and scored by vsg_score_cpu, so the
 * interpolation is the screening twin's, bit for bit.
 *
 * Site lattice. Per axis d, n_d = ⌊2·half_d/step⌋ + 1 points, centred on the box centre:
 * p_d(i) = center_d + (i − (n_d − 1)/2)·step, i = 0 .. n_d − 1. Site index
 * = ix + n_x·(iy + n_y·iz) (x fastest). Pose index = rotation index × n_sites + site index.
 *
 * Outside the grid. A pose with any atom outside the grid (the scoring contract's closed
 * interval, tested on the float coordinates that are scored) is rejected: never scored as if
 * inside, never kept. Poses whose rotated bounding box clearly leaves the grid are rejected
 * before scoring (a lenient test, 1e-3 Å, so that the scorer's own outside count decides the
 * rest).
 *
 * Best pose: the lowest total; ties go to the lowest pose index. Top-k: the k best in that
 * order. Both are independent of the number of threads. */
typedef struct {
    double w, x, y, z; /* unit quaternion; q and −q are the same rotation */
} vsg_quat;

/* The largest rotation set vsg_rotations_super_fibonacci accepts. */
#define VSG_ROTATIONS_MAX 10000000

/* Fills out[0 .. n) with the super-Fibonacci set of n rotations (normalised in double).
 * Returns VSG_OK; VSG_E_ARG: n < 1, n > VSG_ROTATIONS_MAX or out NULL. */
vsg_status vsg_rotations_super_fibonacci(int n, vsg_quat *out);
/* Row-major rotation matrix of a unit quaternion: v' = m · v. */
void vsg_quat_to_matrix(const vsg_quat *q, double m[9]);
/* Angle (radians, in [0, π]) of the rotation that takes a to b: 2 acos |a·b|. */
double vsg_quat_angle(const vsg_quat *a, const vsg_quat *b);

#define VSG_PLACE_DEFAULT_STEP 1.0       /* Å */
#define VSG_PLACE_MAX_POSES 1000000000000000ull /* per molecule: rotations × sites */

/* The box of site points (where the centroid may go). */
typedef struct {
    double center[3]; /* Å */
    double half[3];   /* Å, half-extents (≥ 0) */
    double step;      /* Å between site points (> 0) */
} vsg_place_box;

/* One ligand, as in a vsg_score_batch (x, y, z in the grids' frame). */
typedef struct {
    size_t natoms;
    const float *x, *y, *z, *q;
    const uint8_t *type; /* AD4: type-map index per atom; ELEC: may be NULL */
} vsg_place_ligand;

typedef struct {
    uint64_t pose;          /* rotation × n_sites + site */
    int rotation;           /* index into the rotation set */
    uint64_t site;          /* index into the site lattice */
    vsg_quat q;             /* the rotation R */
    double site_point[3];   /* s: where the centroid goes, Å */
    double translation[3];  /* T = s − R·c: x' = R·x + T on the input coordinates, Å */
    vsg_score_result score;
} vsg_place_pose;

typedef struct {
    const vsg_quat *rotations;
    int nrotations;
    vsg_place_box box;
    int top_k;              /* poses to keep in vsg_place_result.top (0 = the best only) */
} vsg_place_options;

typedef struct {
    int found;              /* 0 when every pose had an atom outside the grid (best unset) */
    vsg_place_pose best;
    vsg_place_pose *top;    /* caller's array of top_k entries (may be NULL when top_k = 0) */
    int ntop;               /* filled, best first (≤ top_k, fewer when fewer poses fit) */
    uint64_t poses;         /* rotations × sites */
    uint64_t scored;        /* poses scored */
    uint64_t rejected;      /* poses with an atom outside the grid (poses − scored + outside) */
    double centroid[3];     /* c */
} vsg_place_result;

/* Site lattice size along each axis. Returns VSG_OK; VSG_E_ARG: a bad box (step ≤ 0, negative
 * or non-finite half-extents, more than 10^6 points on an axis). */
vsg_status vsg_place_lattice(const vsg_place_box *box, int n[3]);
/* Position of site `site` of that lattice. */
void vsg_place_site_point(const vsg_place_box *box, const int n[3], uint64_t site, double p[3]);

/* The CPU twin of the search: every (rotation, site) pose; r->top must hold o->top_k entries.
 * Returns VSG_OK (also for a ligand with no pose inside the grid: r->found = 0); VSG_E_ARG:
 * a NULL argument, no rotations, a bad box, top_k < 0 or top without room, a ligand without
 * atoms, an AD4 ligand without types, a non-finite coordinate, or vsg_score_cpu's checks;
 * VSG_E_LIMIT: more than VSG_PLACE_MAX_POSES poses, or a ligand too large for one pose chunk;
 * VSG_E_NOMEM. */
vsg_status vsg_place_cpu(const vsg_score_grids *g, const vsg_place_ligand *lig, const vsg_place_options *o,
                         vsg_place_result *r);
/* x' = R·x + T of a pose, in double (to write the pose's coordinates). */
void vsg_place_transform(const vsg_place_pose *p, const double x[3], double out[3]);

/* ---- screening a library ---------------------------------------------------------------- */
/* The screening pipeline (behind `vsgrid screen`, `vsgrid rescore` and `vsgrid bench`): one
 * reader thread parses the libraries and prepares each record (charges, AutoDock types,
 * checks) into batches; one scorer thread per device (a GPU, or the CPU twin) scores whole
 * batches; the calling thread writes the rows. Memory stays bounded whatever the library size.
 * The output is in input order with any number of devices, and every record yields exactly
 * one CSV row. With parse_threads > 1 the reader thread only cuts the input into chunks of
 * whole records that parse workers parse and prepare: the same rows, in the same order. */
#define VSG_SCREEN_MAX_DEVICES 16
#define VSG_SCREEN_CPU (-1) /* a "device" number: the CPU twin */
#define VSG_SCREEN_MAX_PARSE_THREADS 64
#define VSG_SCREEN_MAX_TOP_POSES 16 /* top_poses: poses kept per molecule */

typedef enum { VSG_CHARGES_AUTO = 0, VSG_CHARGES_FILE, VSG_CHARGES_GASTEIGER } vsg_charges_mode;

/* as-is: every molecule scored where it is; rigid: placed by the exhaustive rigid-body search
 * (above; on the GPU with the GM kernel in float where it can, else the CPU twin). Placement
 * needs a score with a steric term: an AutoDock4 map set (VSG_SCORE_AD4), never a lone
 * electrostatic grid (PB or Coulomb), on which ligands sink into the protein. */
typedef enum { VSG_PLACEMENT_AS_IS = 0, VSG_PLACEMENT_RIGID } vsg_placement;
/* The message of that refusal: what to run instead. */
#define VSG_SCREEN_STERIC_HINT                                                                          \
    "rigid placement needs a steric term, which an electrostatic grid (PB or Coulomb) lacks: ligands " \
    "would sink into the protein. Make a map set with 'vsgrid maps RECEPTOR.pdbqt --scoring ad4 "      \
    "--around LIGAND -o P' (add --elec pb for PB electrostatics) and place on P.maps.fld"

typedef struct {
    /* input */
    const char *const *inputs;
    int ninputs;
    vsg_ligand_format format;   /* VSG_LIG_AUTO: from each file's extension */
    vsg_charges_mode charges;   /* AUTO: from the file, else Gasteiger when available */
    int max_atoms;              /* larger records get too_many_atoms (0 = 100000) */
    /* scoring */
    vsg_kernel kernel;          /* AUTO: calibrated on the first batch (vsg_scorer_calibrate) */
    int double_precision;       /* GPU kernels in double (those that have it) */
    double tolerance;           /* AUTO: largest |error| per molecule allowed, kcal/mol */
    int ndevices;
    int devices[VSG_SCREEN_MAX_DEVICES]; /* GPU numbers, or VSG_SCREEN_CPU */
    double max_gpu_memory;      /* bytes per device (0 = what is free) */
    size_t batch_atoms;         /* cap on atoms per batch (0 = from the device) */
    /* output */
    FILE *csv;                  /* rows go here (opened by the caller) */
    const char *sdf_path;       /* NULL: no SDF */
    long top;                   /* SDF: the best N (lowest scores); 0 = every scored molecule */
    int progress;               /* a progress line on stderr */
    /* parsing: threads that parse the input in parallel, cut into chunks of whole records.
     * 0 = min(cores - scorer threads, 8), at least 1; 1 = the reader thread parses alone. */
    int parse_threads;
    /* placement (rigid: each scored molecule is placed, per ligand, in the scorer thread; the
     * CSV gains the best pose's columns, see write_csv_header in screen_pipeline.c) */
    vsg_placement placement;
    vsg_place_box box;          /* site box, resolved by the caller */
    const vsg_quat *rotations;  /* the rotation set (owned by the caller) */
    int nrotations;
    int top_poses;              /* poses kept per molecule for poses_path (0 or 1 = the best) */
    const char *poses_path;     /* NULL, or FILE.pdbqt | FILE.sdf: every molecule's best pose(s) */
    vsg_smiles_options smiles;  /* SMILES inputs' preparation (all 0: the defaults) */
} vsg_screen_options;

typedef struct {
    size_t records, scored, failed, outside;  /* outside: scored records with atoms outside */
    size_t by_code_n;
    char by_code[16][16];                     /* failure codes seen ... */
    size_t by_code_count[16];                 /* ... and how often */
    uint64_t atoms;                           /* atoms scored */
    double seconds;                           /* wall time of the pipeline */
    double parse_s, transfer_s, score_s, write_s; /* busy time of each stage */
    /* where the time went, to tell which stage sets the pace (docs/PERFORMANCE.md):
     * parse_threads as used; split_s: the one splitter thread cutting chunks; split_wait_s: it
     * waiting for a free chunk or batch (downstream is slower); scorer_busy_s: the scorer
     * threads on batches, host packing included; scorer_wait_s: the scorers waiting for a
     * batch (the parse is slower); write_wait_s: the writer waiting for the next batch */
    int parse_threads, splitters;             /* splitters: threads cutting the inputs (one per group of files) */
    double split_s, split_wait_s, scorer_busy_s, scorer_wait_s, write_wait_s;
    char kernel[32];                          /* kernel used (after AUTO) */
    char device[160];                         /* devices used */
    char precision[8];
    uint64_t poses, poses_scored;             /* rigid placement: poses tried, and scored
                                                 (the others left the grid) */
    uint64_t poses_checked, poses_valid;      /* flexible: ok rows' best poses checked as PoseBusters
                                                 does (vsg_dock_pose_checks), and those valid */
} vsg_screen_report;

/* Runs the whole pipeline. Fails (without rows) only when nothing can be scored at all; a bad
 * record never fails it (it gets its row). Returns VSG_OK; VSG_E_ARG: NULL arguments, no
 * inputs or devices, rigid placement without rotations or with too many poses or on grids
 * without a steric term (kind VSG_SCORE_ELEC: the message is VSG_SCREEN_STERIC_HINT), poses_path
 * without rigid placement, or the reader's VSG_E_ARG (vsg_ligand_reader_open); VSG_E_UNSUPPORTED:
 * a GPU in a build without CUDA, or a kernel the device lacks; VSG_E_DEVICE, VSG_E_LIMIT: a GPU
 * that cannot be opened or holds too little; VSG_E_IO: the SDF or poses file cannot be written,
 * or a write error on the CSV; VSG_E_NOMEM. */
vsg_status vsg_screen_run(const vsg_score_grids *g, const vsg_screen_options *o, vsg_screen_report *rep);

/* --resume (engine/screen/screen_output.c): an interrupted screen goes on from the rows its CSV holds.
 * Every screen writing a CSV file also writes CSV.resume, its fingerprint: the command line
 * (vsg_resume_fingerprint: every argument but --resume, --quiet, --progress, --json F and
 * --parse-threads N, which change no row). vsg_resume_prepare checks and cuts the files of an
 * interrupted run: the fingerprint must be the one given; the CSV's complete rows (a last line
 * without its newline is dropped) must be the library's first records, index, name, source and
 * record columns in order (the inputs are read with ro); the SDF files hold one record (sdf) or
 * one group of pose records (poses: a group starts at a record without a vsgrid_pose_rank (or
 * flexible: vsgrid_pose) tag or
 * with rank 1; poses_grouped: the last group may be cut, so it is done again) per row whose
 * status is ok or outside, in row order; records after the last complete one are cut, and so
 * are the rows whose SDF records are missing. Only when every check passes are the files
 * truncated to what is kept; *kept is then the number of rows kept (the records to skip).
 * Returns VSG_OK; VSG_E_FORMAT or VSG_E_DATA: the files do not belong to this screen (message
 * set; nothing written); VSG_E_IO; VSG_E_NOMEM. */
typedef struct {
    const char *csv, *sdf, *poses; /* paths; sdf and poses NULL when not written */
    int poses_grouped;             /* several pose records per row */
    const char *fingerprint;
    const char *const *inputs;
    int ninputs;
    vsg_ligand_reader_options ro;
    /* a slice (a shard's records; NULL: from the first record): the rows are those of these
     * records, and *kept counts the rows kept (the records to skip are then the first *kept) */
    const vsg_record_range *ranges;
    int nranges;
    const vsg_library_index *const *index;
} vsg_resume_spec;
void vsg_resume_fingerprint(int argc, char **argv, char *buf, size_t len);
vsg_status vsg_resume_sidecar_write(const char *csv, const char *fingerprint);
vsg_status vsg_resume_prepare(const vsg_resume_spec *s, size_t *kept);

/* The pipeline's options that the public vsg_screen_options does not carry (its layout is part of
 * the ABI: the Python module mirrors it), for `vsgrid screen`:
 * resume: the first resume_skip records already have their rows (and SDF records): they are read
 *   but neither scored nor written, no CSV header is written and the SDF and poses files are
 *   appended to (the caller checked and cut them, vsg_resume_prepare; parsing is then serial);
 * best_per_molecule: records grouped by name, one CSV row per name (its best-scored record's,
 *   written at the end with a last column `records`); top then counts different names.
 * vsg_screen_run(g, o, rep) is vsg_screen_run_extra(g, o, NULL, rep); its statuses are vsg_screen_run's. */
/* A row of a screen as the library hands it to a caller (on_row below), the CSV's row in
 * memory: the identity columns, the numeric columns between `atoms` and `status` by name
 * (empty fields NaN; e.g. a Vina screen's score_kcal_mol, inter_kcal_mol, ..., atoms_outside),
 * the status and its message; then the text columns the CSV has last (ntext, their names and
 * values: a flexible screen's posebusters_failed; none elsewhere). Numeric columns the CSV
 * prints after message (ad4_intra, records, posebusters_valid) are among cols. Valid during the
 * call only. */
typedef struct {
    size_t index;
    const char *name, *source;
    long record;
    int atoms;
    int ncols;
    const char *const *cols;
    const double *values;
    const char *status, *message;
    int ntext;
    const char *const *text_cols;
    const char *const *texts;
} vsg_screen_row;
/* Called once per row, in input order, from the thread that writes the rows; a nonzero return
 * stops the screen (it then returns VSG_E_ARG, "stopped by the caller"). */
typedef int (*vsg_screen_row_fn)(void *ctx, const vsg_screen_row *row);

typedef struct {
    int resume;
    size_t resume_skip;
    int best_per_molecule;
    /* issue 26: campaigns */
    const vsg_record_range *ranges; /* only these records (sorted, disjoint; NULL: all), numbered */
    int nranges;                    /* as in the whole library (vsg_ligand_reader_select) */
    const vsg_library_index *const *index; /* per input (may be NULL), for ranges */
    vsg_screen_row_fn on_row;       /* every row also (or only: csv NULL) handed here */
    void *row_ctx;
    int no_header;                  /* the CSV without its header line */
} vsg_screen_extra;
vsg_status vsg_screen_run_extra(const vsg_score_grids *g, const vsg_screen_options *o, const vsg_screen_extra *x,
                                vsg_screen_report *rep);

/* Screening over MPI ranks (`mpirun -np N vsgrid screen`; see docs): the library's batches go
 * round-robin over the ranks, each rank writes its rows (and SDF and pose records) to part files,
 * and rank 0 merges them in row order. Without MPI these are pass-throughs.
 * vsg_mpi_screen_part: the CSV path this rank writes: `csv` itself when MPI is not active; else
 * the part file "CSV.rankK.part" (in buf; "vsgrid-screen.rankK.part" for '-'), and the split is
 * switched on for the next vsg_screen_run. */
const char *vsg_mpi_screen_part(const char *csv, char *buf, size_t len);
/* After vsg_screen_run (its CSV closed): agrees the status over the ranks, sums the report's
 * counts (records: every rank counts all), and rank 0 merges the parts into `csv` ('-':
 * standard output), `sdf` (NULL: none; top > 0: the best `top`) and `poses` (NULL: none);
 * every rank removes its parts. Returns the agreed status: `st` as given without MPI (or
 * without the split) and whenever st is not VSG_OK; else VSG_OK, or VSG_E_IO: this rank's part
 * could not be written, another rank failed, a part cannot be read or the merged file cannot
 * be written (rank 0), or rank 0 could not merge (the other ranks); VSG_E_FORMAT: a part that
 * is not a screening part or ends inside a block; VSG_E_DATA: parts that disagree on the rows;
 * VSG_E_NOMEM. */
vsg_status vsg_mpi_screen_finish(vsg_status st, const char *csv, const char *sdf, long top, const char *poses,
                                 vsg_screen_report *rep);

/* ---- shards of a campaign and their merge (engine/screen/screen_merge.c) ------------------ */
/* A shard is one task's slice of a screen (`vsgrid screen ... --shard K/N` or --records): its
 * CSV (header and the rows of its records, as the single run writes them, index column global)
 * and pose file are written as PATH.partial while it runs, renamed to PATH when every record has
 * its row, and then PATH.done (the marker, written atomically last) says so:
 *     vsgrid-shard 1
 *     fingerprint HEX        (FNV-1a 64 of the screen's options without shard and output paths:
 *                             equal for every shard of one screen)
 *     records_total T        (records of the whole libraries)
 *     range FIRST COUNT      (the shard's records; one line per range)
 *     rows R
 *     csv NAME               (the CSV's file name, beside the marker)
 *     poses NAME|-           (its pose file, beside it; - without)
 *     poses_select all|top K|below S
 * vsg_screen_merge joins shards into the files one uninterrupted run writes: the CSV rows in
 * index order (header once), the poses in the same order (PDBQT MODEL numbers renumbered from 1),
 * gzip where a path ends in .gz (inputs too). It checks every part's marker (same fingerprint and
 * total, ranges that cover [0, T) once: a missing, doubled or unfinished shard is an error naming
 * it) and that each part's rows are its ranges' indices in order. Memory: one row and one pose
 * record at a time; `top` keeps `top` rows (best_per_molecule: `top` names and their best rows;
 * the whole best_per_molecule CSV keeps one entry per name, as the single run does). */
typedef struct {
    const char *const *parts;  /* the shards' CSV paths (their PATH.done beside them) */
    int nparts;
    const char *csv;           /* merged CSV (NULL: none), '-' standard output */
    const char *poses;         /* merged poses (.sdf/.pdbqt, .gz), NULL: none */
    int best_per_molecule;     /* the CSV as `--best-per-molecule` writes it */
    long top;                  /* > 0: top_csv gets the best `top` rows (lowest score), best first */
    const char *top_csv;
    long poses_top;            /* > 0: only the best poses_top records' poses (as --poses-top) */
    int allow_partial;         /* 1: merge the finished shards only, saying which records lack */
} vsg_merge_options;
typedef struct {
    size_t parts, rows, records_total, poses, missing;
    double seconds;
} vsg_merge_report;
/* Returns VSG_OK; VSG_E_ARG; VSG_E_IO (a part or output unreadable / unwritable); VSG_E_FORMAT
 * (a part that is not a shard CSV, a bad marker); VSG_E_DATA (shards of different screens, gaps,
 * overlaps, unfinished shards, rows out of order: the message names the part); VSG_E_NOMEM. */
vsg_status vsg_screen_merge(const vsg_merge_options *o, vsg_merge_report *rep);
/* Files that may be gzipped (engine/screen/gz_file.c): a path ending in .gz is written through
 * zlib (level 6) / read through inflate, any other as a plain file; '-' is stdout / stdin. The
 * FILE* works with every stdio call; fclose flushes and closes the gzip stream. */
FILE *vsg_fopen_out(const char *path, const char *mode);
FILE *vsg_fopen_in(const char *path);

/* The whole library in memory, prepared as the pipeline prepares it (for `vsgrid bench`).
 * A plain struct; its arrays are owned by it (vsg_screen_library_free). */
typedef struct {
    size_t records, failed;      /* records read, and those that cannot be scored */
    size_t nlig, natoms;         /* the scorable ones */
    uint32_t *start;
    float *x, *y, *z, *q;
    uint8_t *type;
} vsg_screen_library;
/* Reads up to max_records records (0 = all) of o->inputs (format, charges, max_atoms and
 * batch_atoms of o are used). Returns VSG_OK; VSG_E_ARG: vsg_ligand_reader_open's; VSG_E_NOMEM
 * (lib is then empty). */
vsg_status vsg_screen_library_load(const vsg_score_grids *g, const vsg_screen_options *o, size_t max_records,
                                   vsg_screen_library *lib);
void vsg_screen_library_free(vsg_screen_library *lib);
/* Ligands [first, first + n) as a batch; start must hold n + 1 entries (filled here). */
vsg_score_batch vsg_screen_library_slice(const vsg_screen_library *lib, size_t first, size_t n, uint32_t *start);

/* A scorer: one device's scoring, the CPU twin or a GPU. The grids must outlive it. */
typedef struct vsg_scorer vsg_scorer;
/* device: a GPU number or VSG_SCREEN_CPU. Returns VSG_OK; VSG_E_NOMEM; for a GPU also
 * VSG_E_UNSUPPORTED (a build without CUDA), VSG_E_DEVICE (no such GPU, or a CUDA error),
 * VSG_E_LIMIT (the grids do not fit the device or max_gpu_memory), VSG_E_ARG (bad grids). */
vsg_status vsg_scorer_open(const vsg_score_grids *g, int device, double max_gpu_memory, vsg_scorer **out);
/* Atoms one batch may hold on this scorer. */
size_t vsg_scorer_capacity(const vsg_scorer *s);
/* 1 when the scorer runs kernel k in that precision (VSG_KERNEL_CPU: always). */
int vsg_scorer_supports(const vsg_scorer *s, vsg_kernel k, int double_precision);
/* Scores b with kernel k; adds the stages' seconds to *transfer_s and *kernel_s (each may be
 * NULL). Returns VSG_OK; VSG_E_ARG: vsg_score_cpu's checks, or a batch the GPU kernels refuse
 * (bad types, coordinates outside a ZIP frame); VSG_E_UNSUPPORTED: a kernel the device lacks;
 * VSG_E_DATA: a charge ZIP cannot hold; VSG_E_LIMIT: a batch over the capacity; VSG_E_DEVICE:
 * a CUDA error; VSG_E_NOMEM. */
vsg_status vsg_scorer_score(vsg_scorer *s, const vsg_score_batch *b, vsg_kernel k, int double_precision,
                            vsg_score_result *out, double *transfer_s, double *kernel_s);
/* "cpu (16 threads)" or "NVIDIA H100 80GB HBM3 (GPU 0)". */
const char *vsg_scorer_name(const vsg_scorer *s);
int vsg_scorer_is_gpu(const vsg_scorer *s);
/* The scorer's GPU number, or VSG_SCREEN_CPU. */
int vsg_scorer_device(const vsg_scorer *s);
void vsg_scorer_close(vsg_scorer *s);
/* The fastest kernel on this scorer whose largest |error| per molecule against the CPU twin
 * on batch b is ≤ tolerance (kcal/mol); ref = the twin's results on b. VSG_KERNEL_CPU on the
 * CPU, for an empty batch, or when no GPU kernel is within tolerance. */
vsg_kernel vsg_scorer_calibrate(vsg_scorer *s, const vsg_score_batch *b, const vsg_score_result *ref,
                                double tolerance, int double_precision);

/* CSV field quoting (RFC 4180): writes s, quoted when it holds a comma, quote or line break. */
void vsg_csv_field(FILE *f, const char *s);
/* The reverse: field k (0-based) of the CSV line l[0 .. n) (stops at n, a NUL or a line break),
 * unquoted ("" a quote) and trimmed of blanks, into dst (cut to cap − 1 bytes). 1 when the line
 * has field k, else 0. */
int vsg_csv_field_get(const char *l, size_t n, int k, char *dst, size_t cap);

/* ---- Vina and Vinardo pose scores ------------------------------------------------------ */
/* What `vina --score_only` (AutoDock Vina 1.2.3) prints for a pose, term by term, computed on
 * the CPU in double precision (ligands/score/vina_*.c, ligands/torsions/torsions.c):
 *   (1) inter: Σ over the ligand's heavy atoms of its energy with the receptor, each atom's sum
 *       "curled" as Vina does (e > 0 becomes e·1000/(1000 + e)), from either
 *       - a map set (`vina --write_maps` / `vsgrid maps` files PREFIX.<XS type>.map): Vina's
 *         trilinear interpolation, a coordinate outside the box clamped to its face plus a
 *         penalty of 10^6 kcal/mol per Å outside (what `vina --maps` does), or
 *       - the receptor's atoms (what `vina --receptor --score_only` does: explicit atoms, no
 *         maps): every XS-typed receptor atom within 8 Å, pair energies from Vina's r² table
 *         (bin ⌊32 r²⌋ holds the mean of the energies at both ends of the bin);
 *   (2) intra: the same table over the ligand's intramolecular pairs (below), each curled;
 *   (4) unbound: Vina's unbound system, for --score_only the pose's own intra, so (2) − (4) = 0;
 *   total = (inter + intra − unbound) / (1 + w·N_rot), w = 0.05846 (Vina and Vinardo's default
 *       weight_rot), the "Estimated Free Energy of Binding"; (3) torsional = total − (inter +
 *       intra − unbound).
 * The ligand model is Vina's. Rigid bodies: PDBQT's ROOT and each BRANCH (a BRANCH with no atom
 * besides its axis atom and no sub-branch joins its parent, as Vina merges it); SDF/MOL2: the
 * pieces left when the rotatable bonds are cut (below). Two atoms are rigid relative to each
 * other when one body, widened by the atoms across its rotatable bonds, holds both. Bonds are
 * Vina's: rigid pairs closer than 1.1 × the sum of covalent radii with no third rigid atom
 * closer to both. Pairs: atoms not rigid relative to each other, more than 3 bonds apart
 * (Vina's depth-first walk over the bonds), both with an XS type (no hydrogens). N_rot (Vina's
 * num_tors) = ½ Σ over heavy atoms of their rotatable bonds to heavy atoms that have more than
 * one heavy neighbour (a terminal rotor, a hydroxyl or a methyl, counts ½; not TORSDOF).
 * XS types of ligand atoms follow Vina: carbon bonded to a heteroatom is C_P, N/O typed NA/OA
 * are acceptors, N/O bonded to an HD hydrogen donors, metals Met_D.
 * SDF/MOL2 records get AutoDock types (vsg_ligand_assign_ad_types), their non-polar hydrogens
 * merged, and rotatable bonds as Meeko and Open Babel choose them: single (not aromatic; a
 * MOL2 "am" bond is single), not in a ring, both atoms with another neighbour (polar hydrogens
 * count), and not the C–N bond of an amide (a carbon double-bonded to O; thioamide and thiourea
 * C(=S)–N bonds rotate, as in both); TORSDOF is their count.
 * Macrocycles as Meeko prepares them (the ring opened at one bond, its two carbons typed CGk,
 * each carrying a pseudo-atom Gk where its partner was; k = 0..3) are Vina ≥ 1.2.4's model: CGk
 * is a carbon (its map C_P, as Vina types it: bonded to Gk, a heteroatom to Vina, as CGk is to
 * its other neighbours, which are C_P too; its pairs not hydrophobic), Gk has no map and no pair
 * but the glue pair with the other CGk (counted in nglue; the docking search adds 50 kcal/mol/Å ×
 * their distance, Vina's linearattraction, so docked rings close; no score term), and the pairs
 * across the closure bond (1-2, 1-3, 1-4 of the closed ring) are dropped. A Gk must be bonded to
 * one atom, a CGk, and each CGk to a Gk (VSG_E_DATA otherwise).
 * Not modelled here: hydrated-docking waters (W): such an atom is untyped. Flexible receptor
 * residues: vsg_flex (below, "Flexible receptor side chains"). */
#define VSG_VINA_MAX_ATOMS 4096 /* ligand atoms a model takes (Vina's pair matrices are n²) */
#define VSG_VINA_WEIGHT_ROT 0.05846
#define VSG_LIG_TORSIONS "torsions"     /* a malformed PDBQT torsion tree (BRANCH, TORSDOF) */

typedef struct vsg_vina_ligand vsg_vina_ligand; /* opaque: atoms, XS types, bonds, pairs */

typedef struct {
    int natoms;       /* atoms of the model (SDF/MOL2: after the non-polar hydrogen merge) */
    int heavy_atoms;
    int bodies;       /* rigid bodies */
    int rotors;       /* rotatable bonds between bodies (active torsions) */
    int torsdof;      /* PDBQT: TORSDOF as written (0 when absent); SDF/MOL2: rotors */
    double num_tors;  /* Vina's N_rot (above) */
    int nbonds;       /* Vina's bonds */
    int npairs;       /* intramolecular pairs */
    int nglue;        /* macrocycle glue pairs (Gk with the other CGk; above) */
} vsg_vina_ligand_info;

/* The Vina model of one record (PDBQT: the torsion tree is read from lig->text, so the reader
 * needs keep_text; without a ROOT the record is one rigid body). Returns VSG_OK; VSG_E_ARG (a
 * NULL argument, a record whose status is not VSG_OK, a PDBQT record without its text);
 * VSG_E_FORMAT (a malformed tree: a BRANCH atom that is not in its branch, unbalanced
 * BRANCH/ENDBRANCH, TORSDOF twice or malformed, tree atoms that are not the record's atoms);
 * VSG_E_DATA (no atoms; an atom with no XS type: unknown AutoDock type, glue or water atoms;
 * SDF/MOL2 typing failures or a bond naming a missing atom); VSG_E_LIMIT (over
 * VSG_VINA_MAX_ATOMS atoms); VSG_E_NOMEM. The message names the record, the atom and its line. */
vsg_status vsg_vina_ligand_new(const vsg_ligand *lig, vsg_vina_ligand **out);
void vsg_vina_ligand_free(vsg_vina_ligand *l);
/* The model's counts (zeros for NULL). */
void vsg_vina_ligand_get_info(const vsg_vina_ligand *l, vsg_vina_ligand_info *info);
/* XS type of atom i (VSG_XS_NONE for hydrogens and for i out of range). */
vsg_xs_type vsg_vina_ligand_xs_type(const vsg_vina_ligand *l, int i);
/* Intramolecular pair k (0 ≤ k < npairs): its atoms, i < j. VSG_OK; VSG_E_ARG (NULL, k out of
 * range). */
vsg_status vsg_vina_ligand_pair(const vsg_vina_ligand *l, int k, int *i, int *j);
/* The box `vina --autobox` makes around the model: centre = mean of all its atoms (hydrogens
 * too), size = ⌈2 (max |x − centre| + 4 Å)⌉ per axis, spacing 0.375. VSG_E_ARG for NULL. */
vsg_status vsg_vina_ligand_autobox(const vsg_vina_ligand *l, vsg_vina_box *box);

typedef struct {
    double total;     /* estimated free energy of binding, kcal/mol */
    double inter;     /* (1) ligand–receptor */
    double intra;     /* (2) ligand internal */
    double torsional; /* (3) total − (inter + intra − unbound) */
    double unbound;   /* (4) */
    double num_tors;  /* N_rot used */
    int outside;      /* heavy atoms outside the box (scored with Vina's penalty) */
} vsg_vina_score;

/* The receptor side: a Vina map set or the receptor's atoms, with its scoring function. */
typedef struct vsg_vina_target vsg_vina_target;
/* Reads PREFIX.<XS type>.map for every XS type present (as `vina --maps PREFIX`; types absent
 * are missing, vsg_vina_target_has_type). Returns VSG_OK; VSG_E_ARG (NULL, an unknown scoring);
 * VSG_E_IO (no map with that prefix, or one unreadable); VSG_E_FORMAT (a malformed map: header,
 * odd NELEMENTS, a bad or missing value, extra values); VSG_E_DATA (maps of different boxes; maps
 * whose header names another scoring function than sf, vsg_vina_map_write_scored, or two
 * functions; maps that are 0 everywhere: a box beyond 8 A of every receptor atom);
 * VSG_E_NOMEM. Messages name the file (and line). */
vsg_status vsg_vina_target_maps(const char *prefix, vsg_vina_scoring sf, vsg_vina_target **out);
/* XS-types the receptor (vsg_xs_assign) and keeps its typed atoms, in 8 Å cells. Returns VSG_OK;
 * VSG_E_ARG (NULL, an unknown scoring); vsg_xs_assign's VSG_E_DATA; VSG_E_NOMEM. */
vsg_status vsg_vina_target_receptor(const vsg_molecule *rec, vsg_vina_scoring sf, vsg_vina_target **out);
/* Gives a map set (vsg_vina_target_maps) its receptor's atoms too, as `vina --receptor` has
 * both: docking then refines its final poses on the atoms (BFGS, Vina 1.2's dock() unless
 * --no_refine: ligands/dock/dock_refine.c) and every pose score (vsg_vina_score_pose) is taken
 * on the atoms in the maps' box, not interpolated on the maps. rec must be the receptor the maps
 * were made from: a sample of one map's nodes is compared with the sum over its atoms, and most
 * of them disagreeing by over 0.05 kcal/mol is VSG_E_DATA (another protein or frame). Returns
 * VSG_OK; VSG_E_ARG (NULL, not a map set, a receptor already given); VSG_E_DATA;
 * vsg_vina_target_receptor's errors. */
vsg_status vsg_vina_target_add_receptor(vsg_vina_target *maps, const vsg_molecule *rec);
/* 1 when t has receptor atoms (a receptor target, or a map set given them). */
int vsg_vina_target_has_receptor(const vsg_vina_target *t);
void vsg_vina_target_free(vsg_vina_target *t);
/* 1 when the target can score type t (a receptor: every type; a map set: its maps). */
int vsg_vina_target_has_type(const vsg_vina_target *t, vsg_xs_type t_type);
vsg_vina_scoring vsg_vina_target_scoring(const vsg_vina_target *t);
/* 1 for a map set; then box (may be NULL) gets its centre, size (n_voxels·spacing) and spacing. */
int vsg_vina_target_is_maps(const vsg_vina_target *t, vsg_vina_box *box);

/* Scores one pose. On a receptor target the box (for Vina's out-of-box penalty) is the pose's
 * autobox, as `vina --score_only --autobox` makes it, so no atom is outside; on a map set with
 * its receptor's atoms, the atoms in the maps' box. Returns VSG_OK;
 * VSG_E_ARG (NULL); VSG_E_DATA (a map set without the map of one of the ligand's types: the
 * message names the type and the atom). */
vsg_status vsg_vina_score_pose(const vsg_vina_target *t, const vsg_vina_ligand *l, vsg_vina_score *out);

/* The screening loop of `vsgrid screen PREFIX --scoring vina|vinardo` and `vsgrid rescore
 * --scoring vina|vinardo`: reads the libraries in order (keep_text on), builds each record's
 * model and scores it (OpenMP over chunks of records, on the CPU), and writes one CSV row per
 * input record, in input order: index,name,source,record,atoms,score_kcal_mol,inter_kcal_mol,
 * intra_kcal_mol,torsional_kcal_mol,unbound_kcal_mol,num_tors,torsdof,atoms_outside,status,
 * message. Status: ok; outside (atoms outside the map box: scored with Vina's penalty, which
 * vina itself refuses; on a receptor target, no receptor atom within Vina's 8 Å cutoff of the
 * pose, whose 0 is then no score, and rep->outside counts it); the reader's codes; untyped (an
 * atom with no XS type, or no map for its type); torsions (a malformed tree); too_many_atoms
 * (over VSG_VINA_MAX_ATOMS). */
typedef struct {
    const char *const *inputs;
    int ninputs;
    vsg_ligand_format format; /* VSG_LIG_AUTO: from each file's extension */
    int max_atoms;            /* reader's limit (0 = 100000) */
    FILE *csv;                /* rows go here (opened by the caller) */
    int progress;             /* a progress line on stderr */
    vsg_smiles_options smiles; /* SMILES inputs' preparation (all 0: the defaults) */
    int rigid_macrocycles;    /* 1: rings of 12..33 atoms stay rigid (vsg_ligand.rigid_macrocycles) */
} vsg_vina_screen_options;
/* Fills rep's counts (records, scored, failed, outside, by_code, atoms, seconds, score_s,
 * device "cpu (N threads)", kernel "vina"/"vinardo", precision "double"). Returns VSG_OK;
 * VSG_E_ARG (NULL, no inputs, the reader's VSG_E_ARG); VSG_E_IO (a write error on the CSV);
 * VSG_E_NOMEM. A bad record never fails the run: it gets its row. */
vsg_status vsg_vina_screen_run(const vsg_vina_target *t, const vsg_vina_screen_options *o, vsg_screen_report *rep);
/* The same with x's resume (vsg_screen_extra; best_per_molecule is not used); x NULL: none. */
vsg_status vsg_vina_screen_run_extra(const vsg_vina_target *t, const vsg_vina_screen_options *o,
                                     const vsg_screen_extra *x, vsg_screen_report *rep);

/* ---- Flexible docking (CPU twin) ------------------------------------------------------- */
/* Docks one ligand into a Vina or Vinardo map set by AutoDock Vina 1.2's method, on the CPU
 * (ligands/dock/): the ligand is the Vina model of its record (vsg_vina_ligand_new: PDBQT's
 * ROOT/BRANCH tree, or the rotatable bonds of an SDF/MOL2 record) moved by its position,
 * orientation and torsions; the input's bond lengths, angles and rings are kept. Each of
 * `exhaustiveness` independent Monte Carlo chains starts from a random position in the box, a
 * random orientation and random torsions (or from the input pose), then repeats `steps` times:
 * perturb one of position (up to 2 Å), orientation (up to 2 Å at the radius of gyration) or one
 * torsion (a new random angle), minimise locally (BFGS over position, rotation vector and
 * torsions, with the analytic gradient of the trilinear maps and of the intramolecular pairs;
 * positive energies softened as e·10/(10 + e) while hunting, as Vina's search does), and accept by
 * Metropolis at 1.2 kcal/mol; an accepted pose that is the chain's best (or while the chain has
 * fewer than chain_keep) is refined with the full energies and kept. The search minimises inter + intra;
 * the poses are ranked by it, those within min_rmsd (heavy atoms, same atom order) of a better
 * one dropped, the best `poses` refined on the receptor's atoms when the map set has them
 * (vsg_vina_target_add_receptor; Vina's final refinement) and returned with their `vina
 * --score_only` terms (vsg_vina_score_pose on the pose), in the order of inter + intra. Chains run in parallel (OpenMP), each with its own
 * counter-based random stream (splitmix64 of seed and chain), and are merged in chain order:
 * the result depends only on the inputs and seed, never on the thread count or the time.
 * Focus chains (focus_chains > 0): when the exploring chains are done, their chains are ranked by
 * their best minimum (energy, then chain) and focus chain j continues, for focus_steps steps, from
 * the best minimum of the (j mod chains)-th of them, with its own random stream (chain number
 * exhaustiveness + j); the minima it keeps join that chain's kept minima (as the chain's own
 * would: a better one within min_rmsd replaces, chain_keep at most). The exploring chains find
 * the basins; long chains from the best ones reach their bottoms, as Vina's long chains do. With
 * focus_amplitude f < 1 a focus chain's moves are small (f·2 Å; a torsion ± f·180° from its
 * value): it walks the basin's neighbouring minima (0.2–0.8 Å apart, 0.1–0.3 kcal/mol deeper,
 * which Vina's thousands of steps a chain reach and 40-step chains miss) instead of leaving it.
 * Measured (docs/PERFORMANCE.md, "Small focus moves"): at 0.1 the best score reaches Vina's
 * minimum more often in a pocket-sized box, but in a box much larger than the ligand the focus
 * chains' exploring is missed and fewer crystal poses are found: the presets keep 1. */
typedef struct {
    uint64_t seed;         /* default 0 */
    int exhaustiveness;    /* Monte Carlo chains (default 8, as Vina) */
    int steps;             /* steps per chain; 0 (default) = Vina 1.2's 70·3·(50 + atoms + 10·(6 + rotors))/2 */
    int local_steps;       /* BFGS iterations a step; 0 (default) = Vina's (25 + atoms)/3 */
    int poses;             /* poses returned at most (default 9) */
    double min_rmsd;       /* Å, poses closer than this are one (default 1) */
    int random_start;      /* 1 (default): each chain from a random pose; 0: from the input pose */
    int threads;           /* OpenMP threads over the chains; 0 (default) = all */
    int chain_keep;        /* distinct minima each chain keeps (0 = 20, Vina's habit; the GPU keeps
                              up to 32, by the same rule over the atoms with a map type; with focus
                              chains and more than 1, a focus chain's lowest minimum replaces its
                              start chain's lowest on the GPU, where the CPU twin merges all) */
    int ngpus;             /* vsg_dock_batch on the GPU: the GPUs to share the records (0 = all) */
    int gpus[16];
    int focus_chains;      /* chains that, after the exploring chains, continue from their best
                              minima (0, default: none; see below; the presets set it, and
                              vsg_dock_params_effort leaves it at 0 for an exact effort) */
    int focus_steps;       /* steps of each focus chain (0: 4 × steps) */
    double focus_amplitude; /* the focus chains' moves as a fraction of the exploring chains' (0,
                              default, and the presets: 1, the same moves): position and
                              orientation by up to f·2 Å, and a torsion turned by up to ±f·180°
                              from its value instead of drawn anew (see below) */
} vsg_dock_params;
void vsg_dock_params_default(vsg_dock_params *p);

typedef struct {
    double *xyz;           /* 3·natoms, Å, the model's atoms in its order (PDBQT: the record's),
                              rounded to 0.001 Å as PDBQT writes them: score is the written pose's */
    vsg_vina_score score;  /* the pose's terms as `vina --score_only` gives them (vsg_vina_score_pose:
                              on the maps, or on the receptor's atoms when the map set has them);
                              total as Vina ≥ 1.2.4's docking output: (inter + intra − unbound) /
                              (1 + w·N_rot), unbound = the best pose's intra, so pose 0's total is its
                              --score_only total and the poses' totals are in order */
    double energy;         /* inter + intra the search minimised (intra on linear-in-r² pairs; on
                              the receptor's atoms after the final refinement when it ran) */
    double rmsd_input;     /* heavy-atom RMSD to the input pose, same atom order (no symmetry), Å */
} vsg_dock_pose;

typedef struct {
    int natoms;            /* model atoms (SDF/MOL2: non-polar hydrogens merged) */
    int *record_atom;      /* natoms: index of each model atom in the input record */
    int rotors;            /* torsions searched */
    int *body;             /* natoms: rigid body of each model atom (0 .. bodies − 1) */
    int root;              /* the body moved as a whole (PDBQT: ROOT; else the tree's centre: the body
                              whose largest hanging subtree has the fewest atoms) */
    int (*rotor)[2];       /* rotors: model atoms across each rotatable bond, parent side first,
                              parents before children (the tree a PDBQT writer needs) */
    int npose;             /* ≤ poses, ≥ 1 on success */
    vsg_dock_pose *pose;   /* best first */
    int chains, steps, local_steps;
    long evaluations;      /* energy and gradient evaluations over all chains */
    double seconds;
} vsg_dock_result;

/* Docks lig (PDBQT records need the reader's keep_text, for their tree) into the map set t
 * (vsg_vina_target_maps; its scoring function is the search's). p may be NULL (defaults). On
 * failure *out is empty (vsg_dock_result_release is still safe). Returns VSG_OK; VSG_E_ARG (a
 * NULL target, record or out; a target of receptor atoms rather than maps; exhaustiveness, steps,
 * local_steps or poses < 0 or over 10⁶, min_rmsd negative or not finite; and
 * vsg_vina_ligand_new's VSG_E_ARG); vsg_vina_ligand_new's VSG_E_FORMAT, VSG_E_DATA, VSG_E_LIMIT;
 * VSG_E_DATA (a heavy atom whose XS type has no map: the message names atom and type; a torsion
 * tree that is not connected); VSG_E_NOMEM. */
vsg_status vsg_dock_cpu(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_dock_params *p,
                        vsg_dock_result *out);
void vsg_dock_result_release(vsg_dock_result *r);
/* Vina's --local_only: the input pose minimised in place (BFGS over position, orientation and
 * torsions on the maps, from the record's own coordinates, Vina's (25 + atoms)/3 iterations or
 * p->local_steps), no search; one pose with its `vina --score_only` terms, on the CPU. Tells a
 * scoring function's miss (the crystal pose minimised scores worse than the docked one) from a
 * search's. p may be NULL; exhaustiveness, steps, poses and seed are not used. Returns as
 * vsg_dock_cpu. */
vsg_status vsg_dock_local(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_dock_params *p,
                          vsg_dock_result *out);
/* The model and torsion tree vsg_dock_cpu would move for lig, without a target or a search:
 * natoms, record_atom, rotors, body, root and rotor as a docking result has them, and one pose,
 * the record's own coordinates (the model's atoms), whose score is left zero. What the PDBQT
 * writers take (vsg_pose_write_pdbqt_ligand) to write a ligand for docking (`vsgrid
 * prepare-ligands -o OUT.pdbqt`). Returns VSG_OK; VSG_E_ARG (NULL, and vsg_vina_ligand_new's);
 * vsg_vina_ligand_new's VSG_E_FORMAT, VSG_E_DATA, VSG_E_LIMIT; VSG_E_DATA (a torsion tree that
 * is not connected: a record of several molecules); VSG_E_NOMEM. */
vsg_status vsg_dock_tree(const vsg_ligand *lig, vsg_dock_result *out);

/* Docks n records at once, record i with seed seeds[i] (seeds NULL: p->seed + i), as vsg_dock_cpu
 * with that seed would run its search. VSG_DEVICE_GPU: on the GPU (gpu/dock/), one warp per Monte Carlo chain, the
 * chains of many records in one launch, single precision, the same moves, random streams and
 * acceptance as the CPU twin; its poses are re-scored on the CPU (vsg_vina_score_pose), so a
 * pose's score is the same whichever device found it. VSG_DEVICE_CPU: vsg_dock_cpu on each
 * record, in parallel over records. VSG_DEVICE_AUTO: vsg_dock_auto_device's choice (the GPU
 * when one is usable and a record has more than 16 chains, else the CPU).
 * Several GPUs (p->gpus, or all) share a batch's records by their estimated cost (chains × steps ×
 * atoms and pairs), longest first to the least loaded GPU, so none waits long for another.
 * status[i] and out[i] are each record's (on failure out[i] is empty and message[i], when message
 * is not NULL, says why in one line). Returns VSG_OK when the batch ran (some records may have
 * failed); VSG_E_ARG (NULL target/records/out/status, n < 0); VSG_E_DEVICE (VSG_DEVICE_GPU asked and
 * no GPU, or the GPU failed); VSG_E_NOMEM. */
/* The device VSG_DEVICE_AUTO docks records on with params p (vsg_dock_params_default's values
 * where p leaves them 0): VSG_DEVICE_CPU when no GPU is usable, or when a record's chains
 * (exhaustiveness + focus_chains) are VSG_DOCK_AUTO_CPU_CHAINS or fewer: a host core runs a chain
 * 3-4 times as fast as a GPU warp, so a host of 8 or more cores docks them sooner (`--search
 * vina`, 8 chains, one ligand on a 16-core H200 host: 4.2 s against 11.8 s on the GPU,
 * docs/PERFORMANCE.md); else VSG_DEVICE_GPU. The record's own effort alone decides, never the
 * thread count or the batch, so a seed's poses do not depend on them. Flexible screens keep
 * their batches on the GPU: this is vsg_dock_batch's rule only. */
#define VSG_DOCK_AUTO_CPU_CHAINS 16
vsg_device vsg_dock_auto_device(const vsg_dock_params *p);
vsg_status vsg_dock_batch(const vsg_vina_target *t, const vsg_ligand *const *ligs, int n, const uint64_t *seeds,
                          const vsg_dock_params *p, vsg_device device, vsg_dock_result *out, vsg_status *status,
                          char (*message)[256]);
/* Whether pose k of r (docked into t) means what its score says (ligands/dock/dock_check.c).
 * VSG_OK; VSG_E_DATA when heavy atoms of the pose lie outside the maps' box (its score is then
 * Vina's out-of-box penalty: a box too small for the ligand), its intermolecular energy is
 * repulsive (> 0: the ligand does not fit the box or the pocket) or the pose touches no receptor
 * atom (its intermolecular term is exactly 0: every map is 0 where it lies); msg (len bytes, may
 * be NULL) says which, with the box's size and the ligand's span, and the command that makes
 * maps that work. VSG_E_ARG for NULL or k out of range. `vsgrid dock` exits 8 on it, flexible
 * screens give the row status outside (no_pose for a repulsive pose inside the box), Python's
 * dock raises. */
vsg_status vsg_dock_pose_check(const vsg_vina_target *t, const vsg_dock_result *r, int k, char *msg, size_t len);

/* ---- Flexible receptor side chains (CPU; issue 28 item 2) -------------------------------- */
/* Side chains that move with the ligand, as AutoDock Vina 1.2 docks them (`vina --receptor
 * rigid.pdbqt --flex flex.pdbqt`; src/lib/model.cpp, parse_pdbqt.cpp, cache.cpp, vina.cpp):
 * the flex file holds one BEGIN_RES ... END_RES block a residue (prepare_flexreceptor's output),
 * each a torsion tree: a ROOT (the CA, which stays where it is) and BRANCHes (CA–CB outwards).
 * A residue has torsions only, no position or orientation. The model (ligands/dock/dock_flex.c):
 *   atoms: a residue's ROOT atoms and the first atom of each branch off the ROOT (the CB, on the
 *     CA–CB axis) are fixed (Vina's "inflex": never scored against the receptor or the ligand);
 *     every other atom is movable;
 *   flex–rigid: each movable heavy atom on the maps, which must be made from the RIGID receptor
 *     only (`vsgrid maps rigid.pdbqt ...`: with the side chains in the maps they would score
 *     against themselves), with Vina's out-of-box penalty (flex atoms must lie in the box);
 *   flex–ligand: every movable heavy flex atom with every ligand heavy atom (Vina's inter_pairs;
 *     no bond exclusion: different molecules);
 *   flex–flex: pairs free to move relative to each other and more than 3 bonds apart, within a
 *     residue and between residues (Vina's other_pairs); the fixed atoms of all residues are fixed
 *     relative to each other, as in Vina;
 *   search energy: ligand inter + ligand intra + all three, curled as the ligand's terms;
 *   the pose's score, as Vina 1.2 reports it: inter = ligand–rigid + ligand–flex, intra =
 *     ligand intra + flex–rigid + flex–flex, total = (inter + intra − unbound) / (1 + w·N_rot)
 *     with N_rot the ligand's only (conf_independent.cpp counts ligand atoms: flex torsions add
 *     no penalty), unbound = intra of the pose (--score_only) or of the best pose (docking): so a
 *     pose's affinity is (ligand–rigid + ligand–flex) / (1 + w·N_rot), flex–rigid and flex–flex
 *     cancel, as in `vina --score_only --flex`.
 * XS types by Vina's rules over the flex file's bonds, except a ROOT CA, which is C_P (Vina bonds
 * it to the backbone N of the rigid part). Differences from Vina: another ROOT atom's type sees
 * only the flex file's bonds (a ROOT atom meets only flex atoms of other residues and its own
 * beyond 3 bonds); poses are made
 * distinct by the ligand's heavy atoms only (Vina counts the flex atoms too). The GPU search does
 * not take flex residues (`vsgrid dock` runs them on the CPU). */
typedef struct vsg_flex vsg_flex; /* opaque: the flex residues' atoms, torsions, pairs and file lines */

typedef struct {
    int residues;      /* BEGIN_RES blocks */
    int natoms;        /* atom lines */
    int movable_heavy; /* movable heavy atoms (above): scored on the maps and with the ligand */
    int torsions;      /* rotatable bonds searched */
    int npairs;        /* flex–flex pairs */
} vsg_flex_info;

/* One docked pose's flex residues (vsg_dock_flex_cpu). */
typedef struct {
    double *xyz;          /* 3·natoms, the file's atom order, rounded to 0.001 Å as written */
    double ligand_flex;   /* ligand–flex pair energy: part of the pose's score.inter */
    double flex_rigid;    /* flex atoms on the rigid receptor (maps, or atoms): part of score.intra */
    double flex_intra;    /* flex–flex pairs: part of score.intra */
    int outside;          /* movable flex heavy atoms outside the box (Vina's penalty) */
} vsg_flex_pose;

/* Reads a flex-residue PDBQT (vina --flex). Lines outside residues: REMARK, WARNING or blank;
 * in a residue ROOT/ENDROOT, BRANCH a b/ENDBRANCH a b (serial numbers of this residue's atoms:
 * a read before, b in the branch), ATOM/HETATM, REMARK, END_RES. Returns VSG_OK; VSG_E_ARG (NULL);
 * VSG_E_IO (cannot open or read); VSG_E_FORMAT (anything else: a missing END_RES or ENDROOT, an
 * unbalanced BRANCH, a BRANCH atom not in its residue, MODEL, a malformed atom line, no residue),
 * the message "path:line: ..."; VSG_E_DATA (an atom type Vina does not type, named with its line);
 * VSG_E_NOMEM. */
vsg_status vsg_flex_read(const char *path, vsg_flex **out);
void vsg_flex_free(vsg_flex *f);
void vsg_flex_get_info(const vsg_flex *f, vsg_flex_info *info); /* zeros for NULL */
/* Refuses a rigid receptor that still holds the flex atoms (a full receptor given as --receptor
 * or mapped: the side chains would score against themselves): any movable flex atom within 0.5 Å
 * of a receptor atom is VSG_E_DATA naming the flex file's line and the receptor's atom. VSG_OK;
 * VSG_E_ARG (NULL). */
vsg_status vsg_flex_check_rigid(const vsg_flex *f, const vsg_molecule *rigid);
/* Cuts a full receptor PDBQT into its rigid part (rigid_out) and a flex-residue PDBQT (flex_out)
 * as prepare_flexreceptor does: each residue of `residues` ("A:ARG:57,B:THR:315": chain, name,
 * number) leaves the receptor with its CA and side chain (its N, H, C and O stay), and becomes a
 * BEGIN_RES block, ROOT = CA, BRANCHes along the side chain's rotatable bonds from CA–CB outwards:
 * the chi angles of ARG ASN ASP CYS GLN GLU HIS ILE LEU LYS MET PHE SER THR TRP TYR VAL, with
 * the hydroxyls of SER THR TYR and the amine of LYS (their polar hydrogens); a branch that would
 * hold only its axis atom joins its parent. Maps for docking with them must be made from
 * rigid_out. Returns VSG_OK; VSG_E_ARG (NULL, a malformed residue list); VSG_E_IO; VSG_E_DATA (a
 * residue not in the file, or of another name, "FILE:LINE: residue A 57 is LYS, not ARG"; one
 * without a known rotatable side chain, ALA GLY PRO; no CA); VSG_E_NOMEM. */
vsg_status vsg_flex_split(const char *receptor, const char *residues, const char *rigid_out, const char *flex_out);
/* Refuses maps that cannot dock the flex residues: a movable flex heavy atom outside the maps' box
 * at its input place (maps of another receptor or box: every pose would score the out-of-box
 * penalty), or on a map value over 8 kcal/mol (maps made from a receptor that still held the side
 * chains: its own copy's repulsion) is VSG_E_DATA naming the flex file's line. VSG_OK (also for a
 * receptor target); VSG_E_ARG (NULL). */
vsg_status vsg_flex_check_maps(const vsg_vina_target *t, const vsg_flex *f);
/* Writes the flex residues at xyz (3·natoms, the file's order; NULL: as read) as the file's own
 * lines with the coordinates replaced (BEGIN_RES ... END_RES), as vina writes them after the
 * ligand in each MODEL. Returns 1, or 0 on a write error. */
int vsg_flex_write_pdbqt(FILE *out, const vsg_flex *f, const double *xyz);

/* Scores a ligand model at its coordinates with the flex residues at flex_xyz (file order; NULL:
 * as read), as `vina --score_only --flex` scores them (above): score gets the totals, terms (may be
 * NULL) the flex parts (terms->xyz is left NULL). Returns VSG_OK; VSG_E_ARG (NULL); VSG_E_DATA (a
 * map set without the map of a ligand or flex atom's type). */
vsg_status vsg_flex_score_pose(const vsg_vina_target *t, const vsg_vina_ligand *l, const vsg_flex *f,
                               const double *flex_xyz, vsg_vina_score *score, vsg_flex_pose *terms);

/* vsg_dock_cpu with the flex residues f searched with the ligand: their torsions join the
 * ligand's (random at a random start, 0 from the input; one of them a mutation's choice as
 * Vina's), steps and BFGS iterations count their movable atoms and torsions as Vina's do, and
 * each pose's score is Vina's with flex (above). *poses gets out->npose entries (the residues at
 * each pose and their terms), freed with vsg_flex_poses_free. Returns as vsg_dock_cpu, plus
 * VSG_E_ARG (f NULL) and VSG_E_DATA (a flex atom whose XS type has no map). */
vsg_status vsg_dock_flex_cpu(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_flex *f,
                             const vsg_dock_params *p, vsg_dock_result *out, vsg_flex_pose **poses);
/* The same search on CUDA device `device` (< 0: device 0; ligands/dock/dock_flex_gpu.c): the
 * residues' atoms follow the ligand's in the GPU search's records, their roots fixed, their
 * movable heavy atoms on the maps and their pairs with the ligand's (gpu/dock/dock_gpu.cu); then
 * the CPU twin's finish. Returns as vsg_dock_flex_cpu, plus VSG_E_LIMIT (ligand and residues over
 * the GPU search's atoms or torsions, dock_gpu.h), VSG_E_DEVICE (no usable GPU, a CUDA failure)
 * and VSG_E_UNSUPPORTED (no CUDA). */
vsg_status vsg_dock_flex_gpu(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_flex *f,
                             const vsg_dock_params *p, int device, vsg_dock_result *out, vsg_flex_pose **poses);
void vsg_flex_poses_free(vsg_flex_pose *poses, int n);
/* The search's energy (inter + intra with the flex terms in, positive parts curled at Vina's
 * authentic 1000, as final poses are refined) of lig's model at lig_xyz (3 per
 * model atom; NULL: as read) with the flex residues at flex_xyz (file order; NULL: as read), and
 * its gradient (grad: 3 per model atom, then 3 per flex atom in file order; may be NULL): for
 * tests. NaN when it cannot be computed. */
double vsg_dock_flex_energy(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_flex *f, const double *lig_xyz,
                            const double *flex_xyz, double *grad);

/* ---- Flexible docking with the AutoDock4 function (GPU and CPU twin) ----------------------------------- */
/* Docks a PDBQT ligand (an SDF/MOL2/SMILES record through vsg_ligand_as_pdbqt) on an AutoGrid map set (`vsgrid maps REC.pdbqt --scoring ad4`, autogrid4)
 * by vsg_dock_cpu's search (the same chains, moves, BFGS, acceptance, random streams and
 * parameters) over the energy autodock4 4.2.6 minimises: the intermolecular energy of every atom
 * on the maps (type map + q·e + |q|·d, trilinear, autodock4's 2·500·|r − c|² outside the grid)
 * plus autodock4's intramolecular energy (its non-bonded pairs and r² tables, taken linear in r²
 * between table bins so that the optimiser has a slope), both with analytic gradients
 * (ligands/dock/dock_energy_ad4.c). Each pose is then scored as autodock4's epdb scores the
 * written pose (vsg_ad4_score_pose) and the poses are ranked by that estimated free energy of
 * binding. vsg_dock_ad4_gpu runs the same search on a GPU. */
typedef struct vsg_ad4_target vsg_ad4_target; /* opaque: an AutoGrid map set and AD4 parameters */

/* Reads the map set fld_path (.maps.fld, vsg_mapset_read) and the AD4 parameters
 * (parameter_file NULL: AD4.1_bound.dat built in; else read over it, vsg_ad4_params_read).
 * Returns VSG_OK; VSG_E_ARG (NULL); vsg_mapset_read's and vsg_ad4_params_read's errors. */
vsg_status vsg_ad4_target_read(const char *fld_path, const char *parameter_file, vsg_ad4_target **out);
void vsg_ad4_target_free(vsg_ad4_target *t);
/* The grid's corners (Å): the box random starts are drawn in. VSG_E_ARG for NULL. */
vsg_status vsg_ad4_target_box(const vsg_ad4_target *t, double lo[3], double hi[3]);

/* autodock4's terms of one pose, as its epdb prints them for that pose. */
typedef struct {
    double total;         /* Estimated Free Energy of Binding = (1) + (2) + (3) − (4) = inter + torsional */
    double inter;         /* (1) Final Intermolecular Energy = vdw_hb_desolv + elec */
    double vdw_hb_desolv; /* its "vdW + Hbond + desolv Energy" (outside atoms: + 500·|r − c|² each) */
    double elec;          /* its "Electrostatic Energy" (outside atoms: + 500·|r − c|² each) */
    double intra;         /* (2) Final Total Internal Energy (vsg_ad4_intra) */
    double torsional;     /* (3) FE_coeff_tors (0.2983) × TORSDOF */
    double unbound;       /* (4) = (2): the unbound model "same as bound", AutoDock 4.2's default, as a
                             docking run reports it (a single-point epdb prints 0 here and so adds (2)
                             to its estimated free energy) */
    int torsdof;
    int outside;          /* atoms outside the grid */
} vsg_ad4_score;

/* Scores lig (a PDBQT record read with keep_text) at coordinates xyz (3 per record atom; NULL:
 * the record's own). Returns VSG_OK; VSG_E_ARG (NULL, not PDBQT or no text); VSG_E_DATA (an
 * atom type without a map or without AD4 parameters); vsg_ad4_intra's errors. */
vsg_status vsg_ad4_score_pose(const vsg_ad4_target *t, const vsg_ligand *lig, const double *xyz, vsg_ad4_score *out);

/* Docks lig into t. p may be NULL (defaults; steps 0 = Vina's count for the ligand's size).
 * out as vsg_dock_cpu fills it (model atoms = the record's atoms, in order), with each pose's
 * score holding autodock4's terms (total, inter, intra, torsional, unbound; num_tors = TORSDOF)
 * and energy the search's inter + intra; poses best estimated free energy first. scores (may
 * be NULL; room for p->poses entries) gets each pose's terms in full. Returns VSG_OK; VSG_E_ARG
 * (NULL; a record that is not PDBQT read with keep_text; bad parameters as vsg_dock_cpu);
 * VSG_E_DATA (an atom type without a map or parameters); vsg_vina_ligand_new's errors;
 * VSG_E_NOMEM. */
vsg_status vsg_dock_ad4_cpu(const vsg_ad4_target *t, const vsg_ligand *lig, const vsg_dock_params *p, vsg_dock_result *out,
                            vsg_ad4_score *scores);
/* No search: lig's own pose minimised in place (BFGS on the same energy until it stops falling,
 * torsions, position and orientation free), one pose scored as vsg_dock_ad4_cpu scores its poses:
 * `vsgrid dock --scoring ad4 --local-only`, which tells the AutoDock4 function's misses (the
 * crystal pose's minimum scores worse than the docked pose) from the search's. Returns as
 * vsg_dock_ad4_cpu. */
vsg_status vsg_dock_ad4_local(const vsg_ad4_target *t, const vsg_ligand *lig, const vsg_dock_params *p, vsg_dock_result *out,
                              vsg_ad4_score *scores);
/* The same search on CUDA device `device` (< 0: device 0; ligands/dock/dock_ad4_gpu.c): the CPU
 * twin's chains, moves, BFGS, acceptance and random streams in single precision, one warp a
 * chain (gpu/dock/dock_gpu.cu), then the same ranking, clustering and epdb scoring in double: the
 * results equal the CPU twin's in quality, not to the bit. Returns as vsg_dock_ad4_cpu, plus
 * VSG_E_LIMIT (a record over the GPU search's atoms or torsions, dock_gpu.h; a set of more than
 * 32 maps), VSG_E_DEVICE (no usable GPU, a CUDA failure) and VSG_E_UNSUPPORTED (no CUDA). */
vsg_status vsg_dock_ad4_gpu(const vsg_ad4_target *t, const vsg_ligand *lig, const vsg_dock_params *p, int device,
                            vsg_dock_result *out, vsg_ad4_score *scores);
/* An SDF, MOL2 or SMILES record made the PDBQT record these calls take, in place: the ligand
 * `vsgrid prepare-ligands -o OUT.pdbqt` writes for it (AutoDock types, non-polar hydrogens merged
 * with their charges, the torsion tree `vsgrid dock` searches), read back with its text kept;
 * its index, source, record, line and name stay. Charges: the record's own (MOL2, SDF atom
 * properties, a prepared SMILES), else Gasteiger's (vsg_ligand_gasteiger). A PDBQT record, or a
 * failed one, is left as it is. Returns VSG_OK; VSG_E_ARG (NULL); VSG_E_UNSUPPORTED (no charges
 * and no Open Babel: AutoDock4's electrostatics need them); vsg_ligand_gasteiger's errors; the
 * record's own failure (a tree it cannot have: disconnected, untyped) as its status, with its
 * message; VSG_E_NOMEM. (engine/screen/prepared_pdbqt.c) */
vsg_status vsg_ligand_as_pdbqt(vsg_ligand *lig);
/* The search's energy of lig at xyz (3 per record atom), uncurled, and its gradient (grad, 3 per
 * atom, may be NULL): for tests and tools. NaN when it cannot be computed. */
double vsg_dock_ad4_energy(const vsg_ad4_target *t, const vsg_ligand *lig, const double *xyz, double *grad);

/* ---- Hydrated docking (AutoDock4 function; Vina 1.2's and AutoDock-GPU's W atoms) ---------------
 * Forli & Olson's method (J. Med. Chem. 2012, 55, 623) as AutoDock Vina 1.2 documents it
 * ("Hydrated docking": Meeko `mk_prepare_ligand.py -w`, autogrid4, mapwater.py, `vina --scoring
 * ad4`, dry.py) and AutoDock-GPU runs it:
 *  - the ligand PDBQT carries W pseudo-atoms (Meeko: charge 0, 2.0 Å from each polar hydrogen HD
 *    along its bond, 3.0 Å from each acceptor NA/OA/SA, listed in the anchor's ROOT/BRANCH body
 *    so that they move with it). A W has no bond, no intramolecular pair (Vina gives W zero
 *    parameters, AutoDock-GPU drops its pairs: the same energy), does not count in TORSDOF (the
 *    file's) nor as a heavy atom (RMSD, clustering), and its intermolecular energy is the W map's
 *    value (+ q·e + |q|·d, 0 for Meeko's q = 0), trilinear, as every other atom's. A W that is not
 *    within VSG_W_ANCHOR_TOL of 2.0 Å from an HD or of 3.0 Å from an NA/OA/SA/N/O/S atom of its own
 *    body is refused (VSG_E_DATA, "file:line: ..."): it would not move with any polar atom.
 *  - the W map: vsg_ad4_water_map_write, from the OA and HD maps (`vsgrid maps --hydrated`).
 *  - after docking, each pose's waters are judged as dry.py judges them (vsg_ad4_dry); those
 *    displaced or clashing are left out of the written pose, the others kept and labelled.
 *    The reported energy is the docking energy (every water's W-map term included), unchanged by
 *    the dry step, as vina's output and dry.py's leave it. The GPU does not take W atoms; the
 *    Vina and Vinardo functions refuse them (vsg_vina_ligand_new). */
#define VSG_W_MAP_WEIGHT 0.6     /* mapwater.py's default_weight */
#define VSG_W_MAP_ENTROPY (-0.2) /* its ENTROPY: a node where OA or HD is > 0 */
#define VSG_W_MAP_OA_WEIGHT 1.0  /* its O_weight */
#define VSG_W_MAP_HD_WEIGHT 1.0  /* its hd_boost */
#define VSG_W_ANCHOR_TOL 0.5     /* Å around Meeko's 2.0 (HD) and 3.0 (acceptor) distances */

/* One W map node from the OA and HD map values there (mapwater.py's mode BEST, function best):
 * VSG_W_MAP_ENTROPY when either is > 0, else VSG_W_MAP_WEIGHT · min(OA, HD). */
double vsg_ad4_water_value(double oa, double hd);

typedef struct {
    long nodes;             /* values written */
    long from_oa, from_hd;  /* nodes that took OA's or HD's value (mapwater.py's "OA/HD points") */
    double lowest, highest; /* the map's range */
} vsg_ad4_water_stats;

/* Writes w_path as mapwater.py writes it from the AutoGrid maps oa_path and hd_path (plain
 * text): the OA map's 6 header lines as they are, then vsg_ad4_water_value of each node of the
 * two files' printed values, "%1.4f" a line. stats may be NULL. Returns VSG_OK; VSG_E_ARG (NULL);
 * VSG_E_IO (cannot read or write); VSG_E_FORMAT (no NELEMENTS in the header, a value that is not
 * a number: "file:line"); VSG_E_DATA (the two maps differ in SPACING/NELEMENTS/CENTER or in
 * length, or the length is not NELEMENTS'). On failure no w_path is left behind. */
vsg_status vsg_ad4_water_map_write(const char *oa_path, const char *hd_path, const char *w_path, vsg_ad4_water_stats *stats);

/* The AD4 model of a record (vsg_vina_ligand_new's, for the AutoDock4 function): the same, but W
 * atoms accepted and checked as above. Same returns. */
vsg_status vsg_vina_ligand_new_ad4(const vsg_ligand *lig, vsg_vina_ligand **out);

/* dry.py's verdict on one water of a pose (AutoDock-Vina example/autodock_scripts/dry.py; its
 * constants: CLASH 2.03 Å, the W map's best node within 1 Å, STRONG < −0.5, WEAK < −0.3). */
typedef enum {
    VSG_WATER_STRONG = 0,        /* kept: best W-map value < −0.5 kcal/mol */
    VSG_WATER_WEAK = 1,          /* kept: < −0.3 */
    VSG_WATER_DISPLACED = 2,     /* removed: ≥ −0.3, or outside the grid (dry.py's score 0) */
    VSG_WATER_LIGAND_CLASH = 3,  /* removed: < 2.03 Å from a ligand heavy atom (H, HD skipped) */
    VSG_WATER_RECEPTOR_CLASH = 4 /* removed: ≤ 2.03 Å from a receptor atom that is not HD */
} vsg_water_class;
#define VSG_DRY_CLASH 2.03          /* Å, dry.py's CLASH */
#define VSG_DRY_SCAN 1.0            /* Å, dry.py's getpoints distance */
#define VSG_DRY_STRONG (-0.5)       /* kcal/mol, WAFFINITY_STRONG */
#define VSG_DRY_WEAK (-0.3)         /* kcal/mol, WAFFINITY_WEAK */

typedef struct {
    int atom;            /* the W's index in the record (0-based) */
    vsg_water_class cls;
    double score;        /* dry.py's score: the lowest W-map node within ±round(1 Å / spacing) nodes
                            (at least 1) of the water's node, per axis, clipped to the grid; the
                            water's node as the published dry.py finds it (its box starts half a node
                            low: dock_energy_ad4.c's dry_score); 0 outside the grid; NaN for a clash */
} vsg_water_verdict;

/* Judges the waters of lig at xyz (3 per record atom; NULL: the record's own) as dry.py does:
 * first the ligand clash, then the receptor clash (rec may be NULL: that check is then skipped,
 * as dry.py without -r), then the W map's score and class. out needs room for one entry per W
 * atom of lig; *nwater gets their number (0 for a dry ligand). The map scores are the published
 * dry.py's (Vina's documented example: all 18 equal). Where vsgrid does what dry.py means rather
 * than what it does: the two clash tests pick waters by their AutoDock type W (dry.py picks them
 * by atom name "W", which Meeko's waters, named "WAT", never have: on Meeko's files its clash
 * tests remove nothing, and a water 1.2 Å from a receptor oxygen is kept when a node within 1 Å
 * scores well); each pose is judged alone (dry.py reads a multi-MODEL file as one pose, so one
 * pose's atoms would remove another's water); the scan is clipped at the grid's edges (dry.py's
 * `break` drops it there). Returns VSG_OK; VSG_E_ARG (NULL); VSG_E_DATA (t has no W map). */
vsg_status vsg_ad4_dry(const vsg_ad4_target *t, const vsg_molecule *rec, const vsg_ligand *lig, const double *xyz,
                       vsg_water_verdict *out, int *nwater);
/* "STRONG", "WEAK", "DISPLC", "LIGAND_CLASH", "RECEPTOR_CLASH" (dry.py's words where it has them). */
const char *vsg_water_class_name(vsg_water_class c);

/* ---- a screen as one call (engine/screen/screen_job.c) ------------------------------------ */
/* Everything `vsgrid screen` does, as a library call that the command and the Python module
 * share (issue 26): options set by their command-line names without the dashes, values as text
 * (flags "1" or "0"), then one run:
 *   target (GRID, .maps.fld or Vina map-set PREFIX), library (each call adds one), output
 *   (-o: the CSV; .gz: gzipped; '-': stdout), scoring, placement, format, max-atoms, threads,
 *   progress, resume, best-per-molecule, sdf-out, top, charges, kernel, tolerance, precision,
 *   batch-atoms, max-gpu-memory, parse-threads, temperature, devices (device), box, around,
 *   padding, site-step, rotations, top-poses, poses-out, search, exhaustiveness, steps, seed,
 *   poses, min-rmsd, max-torsions, poses-top, poses-below, and for campaigns:
 *   shard "K/N"   task K (0-based) of N screens records [K T / N, (K + 1) T / N) of the T records
 *                 of the libraries (their LIBRARY.vsgidx indexes, `vsgrid index`, spare it the
 *                 scan before its slice); records "A:B" the records A <= index < B. Its CSV (and
 *                 pose or SDF file) are written as PATH.partial, renamed to PATH (gzipped when
 *                 PATH ends in .gz) when every record of the slice has its row, and PATH.done (the
 *                 marker vsg_screen_merge reads) is written last. Run again after any kill, the same
 *                 task goes on from its partial files (rows checked against the records, a cut row
 *                 dropped; poses other than SDF, and --poses-top, start the slice again), and a
 *                 finished task returns at once (info "shard_state" "done").
 * The meaning of each option is `vsgrid screen --help`'s. A value is checked when it is set
 * (VSG_E_ARG with "--NAME: 'VALUE' is not ..."); combinations when the job runs.
 * The kinds of screen: as-is (score each record where it is on a PB/Coulomb grid or AutoDock4
 * map set), rigid (placement rigid on a map set), vina (scoring vina|vinardo: pose scores),
 * flexible (scoring vina|vinardo, placement flexible: every record docked). */
typedef struct vsg_screen_job vsg_screen_job;
vsg_status vsg_screen_job_new(vsg_screen_job **out);
void vsg_screen_job_free(vsg_screen_job *j);
/* 0: no such option; 1: a flag; 2: an option with a value. ("o" is "output".) */
int vsg_screen_job_key(const char *name);
vsg_status vsg_screen_job_set(vsg_screen_job *j, const char *name, const char *value);
/* Every row also handed to fn in input order as it is written (output may then be unset: rows
 * in memory only; not under mpirun). */
vsg_status vsg_screen_job_on_row(vsg_screen_job *j, vsg_screen_row_fn fn, void *ctx);
/* The checks run makes before it reads anything: options that do not go together (VSG_E_ARG with
 * the message), or VSG_OK. */
vsg_status vsg_screen_job_check(const vsg_screen_job *j);
/* Runs the screen. rep: as the loop's (records: rows written by this run; a resumed run's kept
 * rows are info "resumed_rows"). Returns VSG_OK; VSG_E_ARG (options that do not go together,
 * a grid kind the screen cannot use, stopped by on_row: the message says which); VSG_E_IO,
 * VSG_E_FORMAT (the target or an output); VSG_E_DATA (a shard's marker or partial files of
 * another screen, rows that do not match the records on resume); VSG_E_DEVICE; VSG_E_NOMEM;
 * the loops' statuses. Bad records never fail it: they get their rows. */
vsg_status vsg_screen_job_run(vsg_screen_job *j, vsg_screen_report *rep);
/* After a run: "kind" (as-is, rigid, vina, flexible), "shard_state" ("" not a shard, new,
 * resumed, done: finished before), "resumed_rows", "first", "count", "records_total" (a
 * shard's slice), "evaluations" (flexible), "output", "poses_file", "libraries"; any option's
 * value as set (NULL when unset). The string is valid until the next call. */
const char *vsg_screen_job_info(const vsg_screen_job *j, const char *what);
/* Library i as given (NULL out of range). */
const char *vsg_screen_job_library(const vsg_screen_job *j, int i);

/* ---- stopping a screen (engine/screen/screen_stop.c) ------------------------------------- */
/* Asks every running screen (as-is, rigid, Vina pose scores, flexible; vsg_screen_job_run) to
 * stop: each reads no further record, writes and flushes the rows of the records it has already
 * scored (whole rows, in order), and returns VSG_E_STOPPED, so `--resume` (a shard: the same
 * command again) goes on from them. Async-signal-safe: a SIGINT/SIGTERM handler may call it (the
 * vsgrid command does, and exits 130). A request stays until vsg_screen_stop_reset(). */
void vsg_screen_stop(void);
int vsg_screen_stop_requested(void);
void vsg_screen_stop_reset(void);

/* ---- flexible screens (engine/screen/flex_screen.c) --------------------------------------- */
/* Rotatable bonds a docked record may have unless told otherwise (AutoDock4's MAX_TORS): flexible
 * screens' max_torsions = 0, `vsgrid dock` and Python's dock() refuse a record with more. */
#define VSG_DEFAULT_MAX_TORSIONS 32

/* Every record of the libraries docked into a Vina / Vinardo map set (vsg_dock_batch's search),
 * one row per input record in input order: index,name,source,record,atoms,score_kcal_mol,
 * inter_kcal_mol,intra_kcal_mol,torsional_kcal_mol,unbound_kcal_mol,num_tors,torsdof,
 * atoms_outside,status,message (the best pose's `vina --score_only` terms),
 * posebusters_valid,posebusters_failed (ok rows: PoseBusters' checks of the best pose,
 * vsg_dock_pose_checks, and the failed checks' names; poses written as SDF carry them as
 * vsgrid_posebusters_valid/_failed items), or the record's failure: the reader's codes, disconnected (an SDF/MOL2 record of several molecules),
 * untyped, torsions (a malformed tree, or over max_torsions), too_many_atoms, no_pose. Record i
 * (its index) is docked with seed dock->seed + i, so rows depend on neither the batch, the
 * threads, the device count nor the ranks (under mpirun, with vsg_mpi_screen_part: chunks go
 * round-robin over the ranks as in vsg_screen_run).
 * On GPUs the work is a pipeline: a reader thread reads and prepares chunks (OpenMP), one thread
 * per GPU searches each chunk's share of it (records shared by estimated cost), and the calling
 * thread finishes (OpenMP) and writes them, so host work overlaps the searches; at most a few
 * chunks are in flight, so memory stays bounded whatever the library. */
typedef struct {
    const char *const *inputs;
    int ninputs;
    vsg_ligand_format format;  /* VSG_LIG_AUTO: from each file */
    int max_atoms;             /* reader's limit (0 = 100000) */
    int max_torsions;          /* records with more rotatable bonds get status torsions (0 = VSG_DEFAULT_MAX_TORSIONS) */
    vsg_dock_params dock;      /* the search (vsg_dock_params_preset); dock.ngpus/gpus: the GPUs */
    vsg_device device;         /* AUTO: every GPU (dock.gpus), else the CPU twin */
    FILE *csv;                 /* rows (NULL: only on_row) */
    FILE *poses;               /* NULL, or each docked record's best dock.poses poses */
    int poses_sdf;             /* 1: SDF records (vsg_pose_sdf_write), 0: PDBQT models */
    long poses_top;            /* > 0: only the best poses_top records' poses, best first (score,
                                  then index), written at the end (held in memory meanwhile) */
    int poses_below;           /* 1: only records scoring <= poses_max_score (input order) */
    double poses_max_score;
    int progress;              /* a progress line on stderr */
    vsg_smiles_options smiles; /* SMILES inputs' preparation (all 0: the defaults) */
    int rigid_macrocycles;     /* 1: rings of 12..33 atoms stay rigid (vsg_ligand.rigid_macrocycles) */
    const vsg_molecule *receptor; /* NULL, or the receptor the maps were made from: PoseBusters'
                                  receptor checks (clash, within 5 Å) join the pose checks */
} vsg_flex_screen_options;
/* rep: records, scored, failed, outside, by_code, atoms, seconds, parse_s (reading), score_s
 * (the search, device time), write_s, device, kernel ("vina flexible docking"), precision;
 * *evaluations (may be NULL): energy evaluations summed. x may be NULL (resume, ranges, on_row,
 * no_header; best_per_molecule is refused here). Returns VSG_OK; VSG_E_ARG (NULL, no inputs,
 * not a map set, bad parameters, stopped by on_row); VSG_E_DEVICE (VSG_DEVICE_GPU and no usable
 * GPU); VSG_E_IO (a write error); VSG_E_NOMEM. A bad record never fails the run. */
vsg_status vsg_flex_screen_run(const vsg_vina_target *t, const vsg_flex_screen_options *o, const vsg_screen_extra *x,
                               vsg_screen_report *rep, long *evaluations);

/* Search presets, the effort knob of screens (chains × steps a chain, then focus chains × their
 * steps; each chain keeps its best, chain_keep 1, the GPU's way): "fast" (64 × 40, 8 × 160),
 * "balanced" (128 × 40, 16 × 160), "detail" (128 × 60, 16 × 240), "thorough" (512 × 240, for
 * boxes much larger than the ligand), measured in docs/PERFORMANCE.md, and "vina" (Vina 1.2's: 8
 * chains of its size-dependent steps, 20 minima kept a chain). Sets exhaustiveness, steps,
 * chain_keep, focus_chains, focus_steps of p, leaving the rest. VSG_E_ARG for an unknown name. */
vsg_status vsg_dock_params_preset(vsg_dock_params *p, const char *name);
/* The search's effort as `dock` and `screen` take it: preset (NULL: "balanced"), then chains and
 * steps (0: the preset's), focus_chains (< 0: the preset's, but none when chains or steps is given:
 * those set the effort exactly) and focus_steps (0: the preset's). Leaves the rest of p. VSG_OK;
 * VSG_E_ARG (NULL p, an unknown preset). */
vsg_status vsg_dock_params_effort(vsg_dock_params *p, const char *preset, int chains, int steps, int focus_chains,
                                  int focus_steps);
/* How much room the docking box leaves the ligand: the box's volume (box_size, Å) over that of the
 * ligand's own box, a cube of side 2 × (its heavy atoms' largest distance from their centre + 4 Å).
 * A pocket box made with `vsgrid maps --around LIG` is about 1; AutoDock-GPU's 30 Å benchmark
 * boxes are 2-9 times a drug-sized ligand's. 0 for a ligand without heavy atoms. */
double vsg_dock_box_ratio(const double box_size[3], const vsg_ligand *lig);
/* Boxes over this ratio are large: the pocket presets (fast, balanced, detail) miss poses there. */
#define VSG_DOCK_LARGE_BOX 2.0
/* The preset a one-record dock searches with when none is given (`vsgrid dock`, Python's dock()):
 * "thorough" in a large box (box_ratio > VSG_DOCK_LARGE_BOX), else "detail". On AutoDock-GPU's 26
 * complexes this re-docks 59 of 78 top poses within 2 Å against detail's 56, and at least AutoDock
 * Vina's rate in every torsion class (docs/PERFORMANCE.md, "dock's default search"); thorough costs about
 * 10 times detail on the CPU and about the same on a GPU, which one record leaves mostly idle. */
const char *vsg_dock_default_search(double box_ratio);
/* 1 when p's exploring chains take fewer steps in all (chains × steps) than thorough's: a pocket
 * preset's effort, which a large box deserves a warning for. */
int vsg_dock_below_thorough(const vsg_dock_params *p);

/* ---- writing docked poses (engine/screen/dock_poses.c) ----------------------------------- */
/* PDBQT: a pose is one MODEL/ENDMDL block that `vina --score_only`, autodock4 and `vsgrid screen
 * --scoring vina` rescore: `REMARK VINA RESULT: score rmsd rmsd`, the score terms, then a PDBQT
 * record's own lines (ROOT/BRANCH tree, atom lines) with the pose's coordinates, or, for an
 * SDF/MOL2 record, the model the search moved (AutoDock types, non-polar hydrogens merged) under
 * the tree it used. SDF: the input molecule itself (all its atoms and bonds; a PDBQT record's
 * inferred from distances), the model's atoms at their docked coordinates and each hydrogen the
 * model merged moved rigidly with the body of its heavy atom. */
/* Heavy-atom RMSD between two coordinate sets of the model's atoms (same order, no symmetry). */
double vsg_pose_rmsd_heavy(const vsg_dock_result *r, const vsg_vina_ligand *l, const double *a, const double *b);
/* Makes lig (the record docked) writable by vsg_pose_write_pdbqt: a PDBQT record is left as it
 * is (it needs the reader's keep_text); an SDF/MOL2 record gets its AutoDock types and its
 * non-polar hydrogens merged, as the model has them. Returns VSG_OK; the typing's status;
 * VSG_E_DATA when the atom count then differs from the model's. */
vsg_status vsg_pose_model_ligand(vsg_ligand *lig, const vsg_dock_result *r);
/* Writes pose k of r as MODEL `model`: the REMARK lines (rmsd printed twice on the VINA RESULT
 * line; record >= 0: `REMARK VSGRID RECORD: index name` after them, the screen's CSV index and
 * the record's name, and `REMARK Name = name` for a PDBQT record without one), then the record
 * or the tree, then ENDMDL. Returns 1; 0 when the PDBQT record's atom lines do not match the
 * model (the block is then incomplete). */
int vsg_pose_write_pdbqt(FILE *f, const vsg_ligand *lig, const vsg_dock_result *r, int k, int model, double rmsd,
                         long record);
/* The ligand part of such a block, at xyz (3 per model atom; a pose's, or vsg_dock_tree's input
 * pose): a PDBQT record's own lines with the coordinates replaced (name 1: after a `REMARK Name =
 * name` line when the record has none), or, for an SDF/MOL2 record made writable by
 * vsg_pose_model_ligand, `REMARK Name = name`, ROOT ... ENDROOT, BRANCH a b ... ENDBRANCH a b
 * (serial numbers: model atom + 1), TORSDOF (r->rotors); no MODEL, no ENDMDL. Returns 1; 0 when
 * a PDBQT record's atom lines do not match the model. */
int vsg_pose_write_pdbqt_ligand(FILE *f, const vsg_ligand *lig, const vsg_dock_result *r, const double *xyz, int name);
/* SDF poses. vsg_pose_sdf_new takes the record as read (before vsg_pose_model_ligand) and r, the
 * result of docking it; it types a copy of the atoms (AutoDock types) and, for MOL2/PDBQT
 * records, infers formal charges (N with 4 neighbours, valence 4 or a pyridinium's: +1; a
 * carboxylate's aromatic C-O bonds: C=O and C-O-; MOL2: an O or S with one single bond, an N
 * with two: -1). A Meeko macrocycle PDBQT (G0..G9 pseudo-atoms) is written as Meeko's export
 * writes it: without its G atoms (the molfile has the atoms of the molecule only; the PDBQT
 * poses keep them, as vina's do) and with each CGk–CGk closure bond restored (perceived with the
 * other bonds from the input's closed geometry, else added as single), so the ring is closed.
 * Returns VSG_OK; VSG_E_LIMIT (over 999 atoms); the typing's status;
 * VSG_E_NOMEM. vsg_pose_sdf_write writes pose k of r as one V2000 record: title = the record's
 * name, M  CHG, then the data items vsgrid_score_kcal_mol, vsgrid_inter_kcal_mol,
 * vsgrid_intra_kcal_mol, vsgrid_torsional_kcal_mol, vsgrid_unbound_kcal_mol,
 * vsgrid_atoms_outside, vsgrid_pose (k + 1), vsgrid_record (record >= 0),
 * atom.dprop.PartialCharge (the record's charges, when it has any) and atom.prop.AutoDockType
 * (RDKit's atom property lists), then $$$$. Returns 1; 0 on a write error or out of memory. */
typedef struct vsg_pose_sdf vsg_pose_sdf;
vsg_status vsg_pose_sdf_new(const vsg_ligand *rec, const vsg_dock_result *r, vsg_pose_sdf **out);
void vsg_pose_sdf_free(vsg_pose_sdf *m);
int vsg_pose_sdf_write(FILE *f, const vsg_pose_sdf *m, const vsg_dock_result *r, int k, long record);
/* The same, with more SD items (items: "> <name>\nvalue\n\n" text, written as given before the
 * record's end; NULL: none), as `vsgrid dock -o OUT.sdf` adds PoseBusters' checks. */
int vsg_pose_sdf_write_items(FILE *f, const vsg_pose_sdf *m, const vsg_dock_result *r, int k, long record, const char *items);
/* 1 when path ends in .sdf (any case; also .sdf.gz), 0 for .pdbqt (.pdbqt.gz), -1 otherwise. */
int vsg_pose_path_kind(const char *path);

/* ---- pose checks as PoseBusters makes them (ligands/checks/) ------------------------------ */
/* Whether a ligand pose is physically plausible, by the checks of PoseBusters (Buttenschoen,
 * Morris & Deane, Chem. Sci. 2024) with the tolerances of its "dock" configuration
 * (ligands/checks/pose_checks.h names each and its source): bond lengths and bond angles within
 * distance-geometry bounds, 5- and 6-membered aromatic rings and C=C double bonds flat (≤ 0.25 Å
 * from their plane), tetrahedral stereo centres keeping their handedness, no internal clash
 * (atoms 3 or more bonds apart), no clash with the receptor (heavy-atom distance ≥ 0.75 × the
 * sum of van der Waals radii), some heavy atom within 5 Å of the receptor, every heavy atom
 * inside the box. Hydrogens are not checked. The ideal geometry is the reference record's own
 * (PoseBusters takes RDKit's from UFF): bond bounds d0 ± 0.01 Å and 1-3 bounds d0 ± 0.04 Å, a
 * bond or angle failing more than 25 % outside them. vsgrid's torsion-space search keeps bond
 * lengths, angles and rings by construction; the checks still measure them, so poses from other
 * tools (a vina PDBQT, an SDF) are checked the same way. The reference's bonds are its record's,
 * or (PDBQT, PDB) inferred from distances with orders perceived from the geometry. */
typedef enum { VSG_CHECK_NOT_RUN = -1, VSG_CHECK_FAIL = 0, VSG_CHECK_PASS = 1 } vsg_check_state;

typedef struct {
    int valid;                 /* 1 when no check that ran failed (and some heavy atom was placed) */
    int bond_lengths;          /* vsg_check_state of each check; NOT_RUN when there is nothing to check */
    int nbonds, bad_bonds;     /* heavy-atom bonds checked, and failing */
    double bond_ratio;         /* the pose/reference length ratio furthest from 1 (1 with no bonds) */
    int bond_angles;
    int nangles, bad_angles;
    double angle_deviation;    /* largest |pose angle − reference angle|, degrees */
    int aromatic_flatness;
    int nrings, bad_rings;
    double ring_deviation;     /* largest atom distance to its ring's plane, Å */
    int double_bond_flatness;
    int ndouble, bad_double;
    double double_bond_deviation; /* Å, the same for C=C with their neighbours */
    int stereo;
    int ncentres, inverted;    /* tetrahedral centres checked; inverted or flattened */
    int internal_clash;
    int npairs, internal_clashes;
    double internal_ratio;     /* smallest distance / lower bound over pairs 3+ bonds apart (NaN: none) */
    int receptor_clash;
    int receptor_clashes;      /* ligand–receptor heavy-atom pairs below 0.75 of their radii's sum */
    double receptor_ratio;     /* smallest distance / radii sum (NaN without a receptor) */
    double receptor_distance;  /* smallest heavy-atom distance, Å (NaN without a receptor) */
    int near_receptor;         /* receptor_distance ≤ 5 Å */
    int inside_box;
    int atoms_outside;         /* heavy atoms outside [box_lo, box_hi] (−1 without a box) */
} vsg_pose_check_result;

/* The reference's topology (bonds, angles, rings, stereo centres, clash bounds) and the
 * receptor's heavy atoms, made once for the poses of one molecule. reference: the ligand record
 * as read (the input that was docked: its geometry is the ideal); receptor may be NULL (the
 * receptor checks are then NOT_RUN). Returns VSG_OK; VSG_E_ARG (NULL reference or out);
 * VSG_E_DATA (no atoms, a coordinate not finite, a bond naming a missing atom); VSG_E_LIMIT (over
 * 20000 atoms); VSG_E_NOMEM. */
typedef struct vsg_pose_checker vsg_pose_checker;
vsg_status vsg_pose_checker_new(const vsg_ligand *reference, const vsg_molecule *receptor, vsg_pose_checker **out);
/* Checks one pose: pose_xyz holds 3 coordinates for every atom of the reference, in its order; an
 * atom the pose does not have (a hydrogen merged away) is NaN, and what involves it is skipped.
 * box_lo/box_hi (Å) may be NULL (inside_box NOT_RUN). Returns VSG_OK, or VSG_E_ARG for NULL. */
vsg_status vsg_pose_checker_run(const vsg_pose_checker *c, const double *pose_xyz, const double box_lo[3],
                                const double box_hi[3], vsg_pose_check_result *out);
/* Atoms the checker's reference has (the length of pose_xyz / 3); 0 for NULL. */
int vsg_pose_checker_atoms(const vsg_pose_checker *c);
void vsg_pose_checker_free(vsg_pose_checker *c);
/* The two calls above in one, for a single pose. Returns as they do. */
vsg_status vsg_pose_checks(const vsg_ligand *reference, const double *pose_xyz, const vsg_molecule *receptor,
                           const double box_lo[3], const double box_hi[3], vsg_pose_check_result *out);
/* "pass", "fail" or "not_run". */
const char *vsg_check_state_name(int state);
/* The checks of pose k of a docking result (vsg_dock_batch, vsg_dock_local) of c's reference (the
 * record docked: the pose's atoms are placed on the record's through r->record_atom; merged
 * hydrogens are not checked), inside the box of t when t is a map set (t may be NULL: no box
 * check). Returns VSG_OK; VSG_E_ARG (NULL, no pose k); VSG_E_NOMEM. */
vsg_status vsg_dock_pose_checks(const vsg_pose_checker *c, const vsg_vina_target *t, const vsg_dock_result *r, int k,
                                vsg_pose_check_result *out);
/* The names of the checks r failed, joined by ';' in the order of vsg_pose_check_result
 * (bond_lengths, bond_angles, aromatic_flatness, double_bond_flatness, stereo, internal_clash,
 * receptor_clash, near_receptor, inside_box) into buf ("" when none failed); returns its length. */
size_t vsg_pose_check_failed(const vsg_pose_check_result *r, char *buf, size_t len);

/* ---- Symmetry-aware RMSD ---------------------------------------------------------------- */
/* Heavy-atom RMSD between two poses of the same molecule without superposition (the measure of
 * docking success), minimised over every correspondence of the two heavy-atom bond graphs that
 * keeps elements and bonds (the molecule's symmetries: a carboxylate's oxygens, a phenyl's
 * flip), as obrms, RDKit's CalcRMS and spyrmsd compute it. The records may come from different
 * formats and list atoms in different orders (a crystal MOL2 against a docked PDBQT); bonds are
 * the record's (SDF/MOL2) or inferred from distances (PDBQT, PDB without CONECT). Returns VSG_OK
 * with *rmsd; VSG_E_ARG (NULL); VSG_E_DATA (the heavy-atom graphs differ: the message says how). */
vsg_status vsg_ligand_rmsd(const vsg_ligand *ref, const vsg_ligand *pose, double *rmsd);

/* ---- surface potential, pictures and meshes ------------------------------------------- */
/* Triangulated molecular surfaces: the points where `vsgrid surface` evaluates the
 * electrostatic potential, and the mesh its PLY/PNG outputs draw.
 *
 * A mesh is closed and consistently oriented: every undirected edge belongs to exactly two
 * triangles, which traverse it in opposite directions; triangles are counter-clockwise seen
 * from the solvent, so (b − a) × (c − a) points outward. Normals are unit vectors pointing
 * into the solvent. Each vertex carries the index of its nearest atom (0-based, in the
 * molecule's order), from which the residue and chain follow. The arrays are the mesh's
 * (vsg_mesh_free frees them with it). */
typedef struct {
    size_t nvert, nface;
    float *xyz;       /* 3·nvert, Å */
    float *normal;    /* 3·nvert, unit, outward */
    int32_t *atom;    /* nvert: nearest atom (0-based), −1 when unknown */
    uint32_t *tri;    /* 3·nface vertex indices (0-based), counter-clockwise from outside */
} vsg_mesh;

/* Allocates a mesh with room for nvert vertices and nface faces (arrays uninitialised;
 * atom[] set to −1). NULL when out of memory or the sizes overflow. */
vsg_mesh *vsg_mesh_new(size_t nvert, size_t nface);
void vsg_mesh_free(vsg_mesh *m);

typedef struct {
    double probe;          /* solvent probe radius, Å (default 1.4; 0 = van der Waals surface) */
    double spacing;        /* lattice spacing, Å (default 0.8: ~6.7 vertices per Å², twice MSMS density 3); finer = more vertices */
    double max_bytes;      /* memory the builder may take (0 = no limit); the builder works in
                              bounded slabs and coarsens nothing silently: over the limit it
                              fails with VSG_E_LIMIT and a message naming the memory needed */
} vsg_ses_options;
void vsg_ses_options_default(vsg_ses_options *o);

/* Solvent-excluded (probe > 0) or van der Waals (probe = 0) surface of the molecule's atoms
 * (centres and radii), triangulated on a lattice. Atoms with radius ≤ 0 are skipped. Returns
 * VSG_OK; VSG_E_ARG for a probe outside [0, 100] Å, a spacing outside [0.01, 10] Å or a
 * negative max_bytes; VSG_E_DATA for an atom with a non-finite position or radius, or no atom
 * with a radius > 0; VSG_E_LIMIT over max_bytes or 2^32 vertices (or a lattice too large);
 * VSG_E_NOMEM. */
vsg_status vsg_ses_mesh(const vsg_molecule *m, const vsg_ses_options *o, vsg_mesh **out);

/* MSMS output pair (what GEM reads): `vert` lines "x y z nx ny nz face sphere type" after a
 * 3-line header whose last line starts with the vertex count; `face` lines "v1 v2 v3 type
 * sphere" (1-based) after a 3-line header. Plain or gzip. The MSMS sphere number (1-based)
 * becomes atom (0-based). Normals are normalised as read; MSMS orders faces
 * counter-clockwise from outside. Returns VSG_OK; VSG_E_IO when a file cannot be opened or
 * read; VSG_E_FORMAT ("file:line: ...": bad counts, fields or numbers, a zero normal, indices
 * out of range, a file shorter or longer than its header, truncated gzip); VSG_E_NOMEM. */
vsg_status vsg_msms_read(const char *vert_path, const char *face_path, vsg_mesh **out);

/* Topology check: counts undirected edges not shared by exactly two faces (open or
 * non-manifold) and edges whose two faces traverse them in the same direction
 * (inconsistent orientation). Also returns the Euler characteristic V − E + F. */
typedef struct {
    size_t edges, boundary_or_nonmanifold, misoriented, unused_vertices;
    long euler;
} vsg_mesh_topology;
/* Returns VSG_OK; VSG_E_ARG for a face naming a vertex out of range; VSG_E_LIMIT over 2^31
 * vertices; VSG_E_NOMEM. */
vsg_status vsg_mesh_check(const vsg_mesh *m, vsg_mesh_topology *t);

/* Total area (Å²) and enclosed volume (Å³, divergence theorem; positive when oriented
 * outward). Per-vertex area = one third of the area of each incident triangle (area may be
 * NULL). */
double vsg_mesh_area(const vsg_mesh *m, double *vertex_area);
double vsg_mesh_volume(const vsg_mesh *m);

/* The analytic linearized Poisson–Boltzmann (ALPB) potential on a molecular surface (Sigalov,
 * Fenley & Onufriev 2006; Fenley, Gordon & Onufriev 2008), from the molecule's effective
 * electrostatic size A; grids/surface/alpb.h has the formulas and the GEM conventions that
 * gem_compat reproduces. */
typedef struct {
    double eps_in, eps_out;   /* default 1 and 80 (GEM's) */
    double salt;              /* mol/L of 1:1 salt (default 0.15) */
    double ion_radius;        /* Å: ion-exclusion offset along the normal (default 2.0) */
    double projection;        /* Å: evaluation point = vertex + projection·normal (default 0) */
    double A;                 /* Å: effective electrostatic size; ≤ 0 = estimate from atoms */
    double temperature;       /* K (default 298.15) */
    int gem_compat;           /* GEM's constants and region rule */
} vsg_alpb_params;
void vsg_alpb_params_default(vsg_alpb_params *p);

/* The constants a run used (derived once from vsg_alpb_params and the molecule). */
typedef struct {
    int region;               /* 1, 2 or 3 (the same for every vertex: r is global) */
    double A, r, rprime, r0;
    double kappa;             /* Å⁻¹ */
    double coulomb;           /* kcal·Å/(mol·e²): 332 (GEM) or 332.0637 */
    double inv_eps_in;
    double c_out;             /* (1+α)/((1+αβ)ε_out) */
    double c_const;           /* the region's charge-independent term (see alpb.c) */
    double s2A2;              /* region 1: (1/ε_in − 1/ε_out)/((1+αβ)A) · A² */
    double C, A2;             /* region 1: (A²−r0²)(A²−r²) and A² */
    double projection, ion_radius;
    double kt_kcal;           /* R·T, kcal/mol, to convert to kT/e */
} vsg_alpb;

/* Hierarchical Charge Partitioning (Anandakrishnan & Onufriev 2010): the molecule as a
 * hierarchy complex ⊃ chain/strand ⊃ residue ⊃ atom built from its records (a residue is a
 * run of atoms with the same model, TER segment, chain, residue number, insertion code and
 * name; a chain a run of residues with the same model, segment and chain; a complex a run of
 * chains with the same model). Far away, a component is represented by at most two point
 * charges (its positive and its negative charge at their centres). Opaque. */
typedef struct vsg_hcp vsg_hcp;
#define VSG_HCP_RESIDUE_THRESHOLD 10.0
#define VSG_HCP_CHAIN_THRESHOLD 70.0
#define VSG_HCP_COMPLEX_THRESHOLD 150.0

/* Returns VSG_OK; VSG_E_DATA for a molecule without atoms; VSG_E_LIMIT over 2^32 atoms;
 * VSG_E_NOMEM. */
vsg_status vsg_hcp_build(const vsg_molecule *m, vsg_hcp **out);
/* The same with the levels given: groups[3·i + 0..2] = residue, chain and complex ids of atom
 * i (groups NULL = from the records); a component is a run of consecutive atoms with the same
 * id (nesting is enforced: a new complex starts a new chain, a new chain a new residue).
 * Statuses as vsg_hcp_build. */
vsg_status vsg_hcp_build_grouped(const vsg_molecule *m, const uint32_t *groups, vsg_hcp **out);
/* Reads a user grouping file (`vsgrid surface --groups`): one line per atom in the receptor's
 * order, "RESIDUE CHAIN COMPLEX" labels; '#' comments. *out = 3·natoms ids (free()). Returns
 * VSG_OK; VSG_E_IO (cannot open or read); VSG_E_FORMAT ("file:line: ..." for a line without 3
 * labels, a line count other than natoms, truncated gzip); VSG_E_NOMEM. */
vsg_status vsg_hcp_read_groups(const char *path, size_t natoms, uint32_t **out);
void vsg_hcp_free(vsg_hcp *h);

/* The surface-potential pipeline behind `vsgrid surface`: potentials at the vertices of a
 * mesh, exact (all pairs) or HCP, on the GPU (float) or the CPU twin (double). */
typedef enum { VSG_SURFACE_EXACT = 0, VSG_SURFACE_HCP = 1 } vsg_surface_mode;

typedef struct {
    vsg_alpb_params alpb;
    vsg_surface_mode mode;
    double thresholds[3];     /* residue, chain, complex (Å) */
    vsg_device device;        /* auto: GPU when one is usable, else the CPU twin */
    int gpu_index;
} vsg_surface_options;
void vsg_surface_options_default(vsg_surface_options *o);

typedef struct {
    vsg_alpb k;               /* the constants used (A, region, κ...) */
    int on_gpu;
    char device_name[128];
    double pairs;             /* charge–vertex pair evaluations */
    double kernel_seconds;    /* evaluation alone (GPU kernel, or the CPU loop) */
    double seconds;           /* with setup and transfers */
    double device_bytes;
    size_t nres, nchain, ncplx;
} vsg_surface_report;

/* phi[v] (mesh->nvert entries) in kcal/(mol·e). h may be NULL (built here when needed). With
 * VSG_DEVICE_AUTO a GPU failure other than VSG_E_NOMEM falls back to the CPU twin with a
 * warning. Returns VSG_OK; VSG_E_ARG for bad ALPB parameters; VSG_E_DATA for a molecule
 * without atoms, or whose electrostatic size A cannot be estimated (no atoms with radii); VSG_E_DEVICE when
 * VSG_DEVICE_GPU was asked and that GPU is missing or fails; VSG_E_LIMIT / VSG_E_NOMEM when
 * the work does not fit (host or GPU memory). */
vsg_status vsg_surface_potential(const vsg_molecule *m, const vsg_hcp *h, const vsg_mesh *mesh,
                                 const vsg_surface_options *o, double *phi, vsg_surface_report *r);

/* Per-vertex CSV in vertex input order: vertex,x,y,z,nx,ny,nz,atom,residue_name,
 * residue_number,chain,potential_kT_e,potential_kcal_mol_e (atom 1-based, 0 when unknown).
 * path "-" is standard output. Returns VSG_OK; VSG_E_IO when the file cannot be written. */
vsg_status vsg_surface_write_vertices(const char *path, const vsg_molecule *m, const vsg_mesh *mesh,
                                      const double *phi_kcal, double kt_kcal);

/* Per-residue table: the vertices whose nearest atom belongs to each residue; area = their
 * share (one third of each incident triangle); mean is area-weighted; residues without
 * surface vertices are listed with 0 vertices (buried). h from vsg_hcp_build*. path "-" is
 * standard output. Returns VSG_OK; VSG_E_IO when the file cannot be written; VSG_E_NOMEM. */
vsg_status vsg_surface_write_residues(const char *path, const vsg_molecule *m, const vsg_hcp *h,
                                      const vsg_mesh *mesh, const double *phi_kcal, double kt_kcal);

/* Pictures (PNG, zlib only) and meshes (PLY). Colours are red–white–blue: red negative, white
 * 0, blue positive, over the range lo..hi. */

/* Writes rgb (3·width·height bytes, rows top to bottom, R G B per pixel) as a PNG.
 * Returns VSG_OK; VSG_E_ARG for a missing path or pixels or a bad size (width, height in
 * 1..2^24); VSG_E_IO when the file cannot be written (the message names it); VSG_E_NOMEM. */
vsg_status vsg_png_write_rgb(const char *path, const uint8_t *rgb, int width, int height);

/* Writes m as "binary_little_endian 1.0" PLY:
 *   element vertex: float x y z nx ny nz, float potential, uchar red green blue
 *   element face:   list uchar int vertex_indices
 * potential may be NULL (then 0 is written and the vertices are white). Header comments name
 * the generator, the units of `potential` (units may be NULL) and the colour range. Byte order
 * is little-endian on every host. Returns VSG_OK; VSG_E_ARG for a missing path or mesh arrays,
 * indices out of range or a mesh too large for int32; VSG_E_IO when the file cannot be
 * written; VSG_E_NOMEM. */
vsg_status vsg_ply_write(const char *path, const vsg_mesh *m, const float *potential, double lo, double hi,
                         const char *units);

#define VSG_RENDER_TILE_DEFAULT 400
/* A picture of a potential-coloured mesh from six sides (orthographic views along the axes,
 * tiled 3 × 2: front (viewer on +z), back (−z), left (−x); right (+x), top (+y), bottom (−y)),
 * each `tile` pixels square (≤ 0: VSG_RENDER_TILE_DEFAULT; 32..4096), all at one scale, with
 * per-vertex colours (potential NULL: white), Lambert + ambient shading from the normals, a
 * label per view and, with a potential, a colour bar with the units underneath. Writes a PNG.
 * Returns VSG_OK; VSG_E_ARG for a missing argument or mesh array, bad indices or tile size;
 * VSG_E_IO when the file cannot be written; VSG_E_NOMEM. */
vsg_status vsg_render_mesh_png(const char *path, const vsg_mesh *m, const float *potential, double lo, double hi,
                               const char *units, int tile);
/* The same picture into memory: *rgb (malloc'ed, free() it) of *width × *height pixels.
 * Statuses as vsg_render_mesh_png, without VSG_E_IO. */
vsg_status vsg_render_mesh_rgb(const vsg_mesh *m, const float *potential, double lo, double hi, const char *units,
                               int tile, uint8_t **rgb, int *width, int *height);

/* A picture of one plane of a potential grid: the potential in the red–white–blue scale, the
 * molecule's outline, axes, position and a colour bar. */
typedef struct {
    int axis;                     /* 0 = x, 1 = y, 2 = z: the plane is {axis = position} */
    double position;              /* Å; must lie within the grid along that axis */
    double lo, hi;                /* colour range; lo ≥ hi (e.g. both 0) = automatic (below) */
    int scale;                    /* pixels per grid spacing, 1..64; 0 = automatic (~600 px) */
    const vsg_molecule *outline;  /* atoms (centres, radii) to outline, or NULL */
    const char *caption;          /* extra text after the slice position (e.g. the file), or NULL */
} vsg_slice_options;

typedef struct {
    int width, height;            /* the picture, pixels */
    int plot_x, plot_y;           /* top-left pixel of the potential part */
    int plot_width, plot_height;  /* the potential part, pixels */
    double lo, hi;                /* colour range used */
    double vmin, vmax;            /* potential on the slice */
    int atoms_cut;                /* atoms whose sphere the plane cuts */
    long outline_pixels;          /* pixels drawn black as outline */
} vsg_slice_report;

/* The automatic colour range, from the 2nd and 98th percentiles p2, p98 of the finite values
 * (a few extreme nodes, such as an AutoGrid affinity map's clamped repulsion, do not wash the
 * picture out): potentials (kT/e, kcal/mol/e, no units) symmetric about 0 at max(|p2|, |p98|);
 * energy maps (kcal/mol) symmetric at |p2| when p2 < 0 (repulsion clamped), else p2..p98; 1 when
 * all values are 0 or none is finite. */
void vsg_slice_auto_range(const char *units, const float *values, size_t n, double *lo, double *hi);

/* Samples the plane by trilinear interpolation at each pixel centre (each grid node covers
 * scale × scale pixels; the horizontal and vertical axes are y,z for an x slice, x,z for y,
 * x,y for z), draws the boundary of the union of the atoms' discs cut by the plane in black,
 * and writes a PNG with title, axis names and end coordinates, and a colour bar. r may be
 * NULL. Returns VSG_OK; VSG_E_ARG when an argument is missing, the plane is outside the grid
 * or the options are bad (the message says why); VSG_E_LIMIT for a picture over 64 Mpixels;
 * VSG_E_IO when the file cannot be written; VSG_E_NOMEM. */
vsg_status vsg_render_slice_png(const char *path, const vsg_grid *g, const vsg_slice_options *o,
                                vsg_slice_report *r);
/* The same picture into memory: *rgb (malloc'ed, free() it), size in r->width × r->height (r
 * is required here). Statuses as vsg_render_slice_png, without VSG_E_IO. */
vsg_status vsg_render_slice_rgb(const vsg_grid *g, const vsg_slice_options *o, uint8_t **rgb,
                                vsg_slice_report *r);

/* Atoms to outline on a slice (centres and radii; charges are not needed): a PDB file's
 * (".pdb", ".ent", plain or ".gz") ATOM/HETATM coordinates (columns 31-54) up to the first END
 * or ENDMDL, with radii by element (columns 77-78, else the atom name's first letter), or any
 * file vsg_molecule_read reads; a radius ≤ 0 falls back to the element's, then 1.8 Å. Returns
 * VSG_OK; the statuses of vsg_molecule_read; for a PDB: VSG_E_IO (cannot open or read),
 * VSG_E_FORMAT (bad coordinates, no ATOM/HETATM records, truncated gzip), VSG_E_NOMEM. */
vsg_status vsg_outline_read(const char *path, vsg_molecule **out);

/* ---- receptor preparation: PDB → PQR or PDBQT (engine/prepare/) ------------------------- */
/* Hydrogens from pdb2pqr's residue templates (superposed on each residue's heavy atoms; missing
 * heavy atoms are rebuilt the same way), at pH 7.4 the protonation pdb2pqr gives without
 * titration (Lys/Arg +, Asp/Glu −, charged termini at each chain's ends, Cys in S–S bonds as CYX,
 * His HID or HIE by its best hydrogen-bond partner; other pH: ph below), alternate locations
 * resolved (highest occupancy, then first), waters dropped unless keep_waters, every other HETATM
 * group kept.
 * PQR: AMBER or PARSE charges and radii on standard residues (pdb2pqr's tables, embedded),
 * metals their formal charge, other groups Gasteiger charges and Bondi radii. PDBQT: Gasteiger
 * charges over the whole structure, AutoDock 4 types, non-polar hydrogens merged. */
typedef enum { VSG_PREP_PQR = 0, VSG_PREP_PDBQT = 1 } vsg_prep_format;
typedef enum { VSG_PREP_AMBER = 0, VSG_PREP_PARSE = 1 } vsg_prep_forcefield;
typedef struct {
    double ph;                  /* 7.4; states from fixed model pKa values, as OpenMM's addHydrogens
                                   (Asp, Glu 4.4, His 6.5, Cys 8.5, Lys 10.0; no pKa prediction):
                                   at 7.4 the states above; names like HIP, ASH in the input win */
    vsg_prep_forcefield ff;     /* PQR charges and radii */
    vsg_prep_format format;
    int keep_waters;            /* 0: drop HOH/WAT */
} vsg_prep_options;

typedef struct {
    int atoms_in, atoms_out;    /* heavy and H atoms read (after altloc), atoms written */
    int h_added, heavy_added;   /* hydrogens and missing heavy atoms built */
    int residues, het_groups, waters_dropped, altlocs_dropped;
    int his_hid, his_hie, disulfides;
    double total_charge;        /* e, the written charges */
    char *report;               /* multi-line summary (malloc'ed; vsg_prep_summary_free) */
    int his_hip, asp_ash, glu_glh, lys_lyn, cys_cym; /* states the pH gave (model pKa values) */
    int kept_named;             /* amino acids whose input name was a state (HID ... CYX): kept */
} vsg_prep_summary;

void vsg_prep_options_default(vsg_prep_options *o);
/* Prepares the PDB or PDBx/mmCIF file at path (plain or .gz; mmCIF by content: a data_ block)
 * (mmcif_model.c); *text receives the PQR or PDBQT (malloc'ed,
 * free() it); summary may be NULL. Returns VSG_OK; VSG_E_IO (cannot read), VSG_E_FORMAT (no
 * ATOM/HETATM records, bad coordinates), VSG_E_ARG, VSG_E_UNSUPPORTED (PDBQT in a build without
 * Open Babel), VSG_E_DATA (PDBQT: Gasteiger failed on the structure), VSG_E_NOMEM. A PQR's
 * HETATM group that cannot have Gasteiger charges (no Open Babel, or it fails) is kept with
 * charges 0, and the summary says so. */
vsg_status vsg_receptor_prepare(const char *path, const vsg_prep_options *opt, char **text,
                                vsg_prep_summary *summary);
void vsg_prep_summary_free(vsg_prep_summary *s);
/* A receptor for any command: a PDB file (".pdb", ".ent", plain or ".gz": vsg_receptor_is_pdb;
 * also PDBx/mmCIF: ".cif", ".mmcif", or a data_ block)
 * is prepared with the default options into `format` (PQR with AMBER charges and radii for
 * potentials, PDBQT for AutoDock/Vina maps) and read; *report (when report is not NULL) then
 * receives the summary (malloc'ed, free() it; NULL for other files). Any other file is read by
 * vsg_molecule_read. Statuses: those of vsg_receptor_prepare and vsg_molecule_read; VSG_E_IO
 * when the temporary file (in $TMPDIR, else /tmp) cannot be written. */
int vsg_receptor_is_pdb(const char *path);
vsg_status vsg_receptor_read(const char *path, vsg_prep_format format, vsg_molecule **out, char **report);

#ifdef __cplusplus
}
#endif
#endif /* VSGRID_H */
