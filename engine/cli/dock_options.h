/* dock_options.h — the docking search's command-line options, one parser for `vsgrid dock` and
 * `vsgrid screen --placement flexible` (and rescore's docking): --search, --exhaustiveness,
 * --steps, --focus-chains, --focus-steps, --seed, --devices. */
#ifndef VSG_CLI_DOCK_OPTIONS_H
#define VSG_CLI_DOCK_OPTIONS_H

#include "engine/cli/cli.h"
#include "grids/base/vsgrid.h"

typedef struct {
    const char *search;   /* preset name; NULL (dock's init): none given, the box decides (dock_search_for_box) */
    const char *devices;  /* all | gpu | cpu | GPU numbers */
    int chains, steps;    /* explicit overrides; 0 = the preset's */
    int focus_chains;     /* explicit override; -1 = the preset's */
    int focus_steps;      /* explicit override; 0 = the preset's */
    uint64_t seed;
    vsg_smiles_options smiles; /* --ph: a SMILES ligand's preparation */
    int rigid_macrocycles;     /* --rigid-macrocycles */
} vsg_cli_dock_opts;

/* Defaults: search preset (NULL: chosen later by the box, as `dock` does; detail until then),
 * devices "all", seed 0. */
void vsg_cli_dock_opts_init(vsg_cli_dock_opts *o, const char *search);
/* 1 when a->argv[a->i] was one of the options above (consumed), 0 when not, −1 on a usage error
 * (already printed). */
int vsg_cli_dock_option(vsg_args *a, const char *cmd, vsg_cli_dock_opts *o);
/* 1 when an option set the search's effort (--search, --exhaustiveness, --steps, --focus-*). */
int vsg_cli_dock_effort_given(const vsg_cli_dock_opts *o);
/* The parameters and device the options mean (p keeps its other fields). 0, or the usage exit
 * code after a message. */
int vsg_cli_dock_apply(const char *cmd, const vsg_cli_dock_opts *o, vsg_dock_params *p, vsg_device *device);
/* "C chains x S steps", then " + F focus chains x T" when the search ran focus chains: the effort of
 * a finished search (r: its chains and steps; p: the focus chains it was given), for summaries. */
const char *vsg_cli_dock_effort(const vsg_dock_params *p, const vsg_dock_result *r, char *buf, size_t n);
/* After a single-record GPU call that returned st under `device`: 1 when the record is to be
 * docked on the CPU instead (over the GPU's atoms or torsions, VSG_E_LIMIT, and the GPU not asked
 * for; said on stderr unless quiet), else 0 (st is the call's outcome). */
int vsg_cli_dock_gpu_fallback(vsg_status st, vsg_device device, int quiet);
/* The options' help lines (two-column, for --help). */
extern const char vsg_cli_dock_options_help[];

#endif
