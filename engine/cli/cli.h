/* cli.h — pieces shared by the subcommands of the vsgrid command line. The CLI is a thin
 * layer over vsgrid.h: it parses options, calls the library, prints and writes reports. */
#ifndef VSG_CLI_H
#define VSG_CLI_H

#include "engine/report/json.h"
#include "grids/base/vsgrid.h"

/* Exit codes (documented in README and --help). */
enum {
    VSG_EXIT_OK = 0,
    VSG_EXIT_FAILURE = 1,      /* anything else */
    VSG_EXIT_USAGE = 2,        /* bad command line */
    VSG_EXIT_INPUT = 3,        /* unreadable or malformed input file */
    VSG_EXIT_LIMIT = 4,        /* memory limit or out of memory */
    VSG_EXIT_DEVICE = 5,       /* GPU requested but unusable */
    VSG_EXIT_CONVERGE = 6,     /* solver did not converge */
    VSG_EXIT_UNSUPPORTED = 7,  /* feature not in this build */
    VSG_EXIT_NOTHING_SCORED = 8, /* screen/rescore: rows written, but no record scored inside the grid;
                                    prepare-ligands: records read, none prepared;
                                    dock: the best pose outside the box or away from the receptor */
    VSG_EXIT_INTERRUPTED = 130  /* screen stopped by SIGINT/SIGTERM: the rows written are whole (--resume) */
};

int vsg_cli_exit_code(vsg_status s);
/* Prints "vsgrid: <last error>" (or the status text) and returns the exit code. */
int vsg_cli_fail(vsg_status s);
int vsg_cli_usage_error(const char *cmd, const char *fmt, ...);

/* Iterates "--name value" / "--name=value" options. */
typedef struct {
    int argc, i;
    char **argv;
    const char *name;     /* current option, e.g. "--spacing" */
    const char *inline_value;
} vsg_args;
int vsg_arg_is(vsg_args *a, const char *name);               /* flag without value */
const char *vsg_arg_value(vsg_args *a, const char *cmd);     /* NULL (after an error message) if missing */
int vsg_parse_number(const char *s, double *out);
int vsg_parse_size(const char *s, double *bytes);             /* "8G", "512M", "1000000" */
int vsg_parse_list(const char *s, double *out, int n);        /* "1,2,3" exactly n numbers */

/* PB options: returns 1 if a[i] was one of them (value consumed), 0 if not, −1 on error. */
int vsg_cli_pb_option(vsg_args *a, const char *cmd, vsg_pb_params *p, const char **around_path,
                      int *quiet);
/* Applies options that act on the whole set (--ion-radius); call after parsing. */
void vsg_cli_pb_finish(vsg_pb_params *p);
extern const char vsg_cli_pb_help[];

/* Coulomb grids (`grid --method coulomb`, `rescore --method coulomb`): the dielectric's name for
 * reports, and a warning when PB-only options differ from the command's defaults `d`. */
const char *vsg_cli_dielectric_name(const vsg_coulomb_kernel *k, char *buf, size_t len);
void vsg_cli_warn_pb_only(const vsg_pb_params *p, const vsg_pb_params *d);
/* Receptor atoms within `reach` Å of the box [lo, hi]: 0 means every affinity map is zero (a box
 * away from the receptor), which the map commands warn about instead of writing it silently. */
size_t vsg_cli_atoms_near_box(const vsg_molecule *m, const double lo[3], const double hi[3], double reach);

/* End of a screen or rescore run (issue 20: no silent wrong answer), after its summary: one line
 * on stderr (printed under --quiet too) and the exit code. VSG_EXIT_INPUT when a record has
 * status io (the line names the libraries that cannot be opened; their rows are written and the
 * other libraries screened); else VSG_EXIT_NOTHING_SCORED when records were read but none was
 * scored inside the grid (all outside, or all failed: a warning naming --placement, or
 * `vsgrid rescore` for poses); else 0. rep may be NULL (no report: 0). */
int vsg_cli_screen_verdict(const char *cmd, const char *const *inputs, int ninputs, const vsg_screen_report *rep);
/* Receptors whose charges are all zero (issue 20): a command that needs charges (PB, Coulomb,
 * AutoGrid e-map) refuses them with a message naming the likely cause, unless allowed
 * (--allow-zero-charges: then a warning). Returns 0 (go on) or VSG_EXIT_INPUT (message printed). */
int vsg_cli_check_charges(const char *cmd, const char *path, const vsg_molecule *m, int allow);
/* A receptor named on the command line (cli_receptor.c): read, a PDB prepared first into
 * `format` with its summary on stderr unless quiet. */
vsg_status vsg_cli_read_receptor(const char *path, vsg_prep_format format, int quiet, vsg_molecule **m);
/* For an AutoDock4 map set, whose gpf names the receptor file: a PDB is prepared into a PDBQT
 * written at keep, and *used points to keep; any other receptor is used as it is (*used = path). */
vsg_status vsg_cli_receptor_pdbqt(const char *path, const char *keep, int quiet, const char **used);
/* VSG_OK, or a failure that says how to make a grid when path names a receptor file (.pdb,
 * .pqr, .pdbqt, .mol2, .cif) where screen expects a grid or map set. */
vsg_status vsg_cli_receptor_not_grid(const char *path);
/* The ligand of --around: PQR, PDBQT and MOL2 as the molecule readers read them (every atom; a
 * PDBQT whose types the receptor reader refuses, Meeko's W or CG0/G0 pseudo-atoms, by the ligand
 * reader: its first record); any other ligand format (SDF, a crystal ligand's PDB, .gz) by its
 * first record. */
vsg_status vsg_cli_read_around(const char *path, vsg_molecule **m);
/* A warning (and 1) when most heavy atoms of the box's ligand coincide (< 1 Å) with receptor
 * atoms: a co-crystallised ligand kept in the receptor (vsgrid prepare keeps HETATM groups)
 * fills the pocket the box is around. 0 otherwise. */
int vsg_cli_warn_ligand_in_receptor(const char *cmd, const vsg_molecule *rec, const char *rec_path,
                                    const vsg_molecule *lig, const char *lig_path);
/* A warning (and 1) when a receptor HETATM group (not a standard residue or water; 6 or more
 * heavy atoms) sits at the box's centre (its centroid within a quarter of the box's size of the
 * centre along each axis): a co-crystallised ligand left in the receptor fills the pocket however
 * the box was given (--box too). The group nearest the centre is named; 0 when none. */
int vsg_cli_warn_group_in_box(const char *cmd, const vsg_molecule *rec, const char *rec_path, const double center[3],
                              const double size[3]);
/* The same for poses to rescore: the first record of the file poses against the receptor. */
int vsg_cli_warn_poses_in_receptor(const char *cmd, const vsg_molecule *rec, const char *rec_path, const char *poses);
/* Distance (Å) from the box [lo, hi] to the nearest receptor atom (0 inside; INFINITY without atoms). */
double vsg_cli_box_distance(const vsg_molecule *m, const double lo[3], const double hi[3]);
/* An output path that cannot be written (its folder missing or read-only, or a folder itself):
 * checked before a long computation. Returns 0 or VSG_EXIT_FAILURE (message printed). The
 * file is not created. */
int vsg_cli_check_output(const char *cmd, const char *path);

/* JSON pieces. */
void vsg_cli_json_pb(vsg_json *j, const vsg_pb_params *p, const vsg_pb_report *r);
FILE *vsg_cli_json_open(const char *path, vsg_json *j, const char *command);
void vsg_cli_json_finish(vsg_json *j, FILE *f, const char *path, double seconds);

/* Scoring and output options shared by `screen` and `rescore` (cli_screen_options.c). */
typedef struct {
    const char *csv, *sdf, *json; /* -o (required; '-' = stdout), --sdf-out, --json */
    long top;                     /* --top (0 = all) */
} vsg_screen_outputs;
/* "all" | "cpu" | "0,1,...": fills so->devices; 0, or the usage exit code after a message. */
int vsg_cli_parse_devices(const char *cmd, const char *v, vsg_screen_options *so);
/* As vsg_cli_pb_option: 1 consumed, 0 not one of them, −1 error (message printed). --devices
 * is only recorded in *devices; vsg_cli_screen_finish parses it once all options are read. */
int vsg_cli_screen_option(vsg_args *a, const char *cmd, vsg_screen_options *so, vsg_screen_outputs *out,
                          const char **devices);
/* Parses --devices and applies --kernel cpu (CPU only); 0 or the usage exit code. */
int vsg_cli_screen_finish(const char *cmd, const char *devices, vsg_screen_options *so);
/* Hands the output options to the pipeline: the open CSV, --sdf-out, --top, progress unless quiet. */
void vsg_cli_screen_bind(vsg_screen_options *so, const vsg_screen_outputs *out, FILE *csv, int quiet);
/* The two summary lines on stderr and the files written; grid_note ("" or e.g. "grid 1.2 s on
 * cpu; ") goes before the kernel on the second line. */
void vsg_cli_screen_summary(const vsg_screen_report *rep, const char *grid_note, const vsg_screen_outputs *out);
/* The screen report's JSON keys, from "score" (elec | ad4) and "libraries" to atoms_per_second. */
void vsg_cli_json_screen(vsg_json *j, const char *score, const char *const *libraries, int nlibraries,
                         const vsg_screen_report *rep);

int vsg_cmd_grid(int argc, char **argv);
int vsg_cmd_energy(int argc, char **argv);
int vsg_cmd_probe(int argc, char **argv);
int vsg_cmd_info(int argc, char **argv);
int vsg_cmd_screen(int argc, char **argv);
int vsg_cmd_bench(int argc, char **argv);
int vsg_cmd_rescore(int argc, char **argv);
int vsg_cmd_surface(int argc, char **argv);   /* cli_surface.c */
int vsg_cmd_render(int argc, char **argv);    /* cli_render.c */
int vsg_cmd_maps(int argc, char **argv);      /* cli_maps.c: Vina / Vinardo maps */
int vsg_cmd_dock(int argc, char **argv);      /* cli_dock.c: flexible docking on Vina maps */
int vsg_cmd_rmsd(int argc, char **argv);      /* cli_rmsd.c: symmetry-aware pose RMSD */
int vsg_cmd_prepare(int argc, char **argv);   /* cli_prepare.c: PDB -> PQR / PDBQT receptor */
int vsg_cmd_prepare_ligands(int argc, char **argv); /* cli_prepare_ligands.c: SMILES -> 3D SDF */
int vsg_cmd_enrich(int argc, char **argv);    /* cli_enrich.c: ROC AUC, logAUC, EF, BEDROC of a screen */
int vsg_cmd_index(int argc, char **argv);     /* cli_index.c: library indexes for shards */
int vsg_cmd_merge(int argc, char **argv);     /* cli_merge.c: a campaign's shards joined */

/* `vsgrid dock ... --flex FLEX.pdbqt` (cli_dock_flex.c): the search with flexible side chains (on
 * the GPU as `dock` chooses one, else the CPU), poses written with the residues; read_record is
 * cli_dock.c's. Returns the exit code. */
int vsg_cli_dock_flex(const char *prefix, const char *ligpath, const char *flexpath, const char *outpath,
                      const char *csvpath, long record, const char *recpath, vsg_vina_scoring sf, const vsg_dock_params *p,
                      vsg_device device, int quiet, int (*read_record)(vsg_ligand_reader *, const char *, const char *, long, vsg_ligand *));

#endif
