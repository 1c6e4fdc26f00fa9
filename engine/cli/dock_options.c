/* dock_options.c — the docking search's options (dock_options.h). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli/dock_options.h"

const char vsg_cli_dock_options_help[] =
    "  --search S          effort: fast (64 chains x 40 steps, then 8 focus chains x 160),\n"
    "                      balanced (128 x 40, 16 x 160), detail (128 x 60, 16 x 240), thorough\n"
    "                      (512 x 240: boxes much larger than the ligand, e.g. 30 A cubes;\n"
    "                      docs/PERFORMANCE.md), or vina (Vina 1.2's: 8 chains of 105 x (50 + atoms\n"
    "                      + 10 x (6 + torsions)) steps, 20 minima kept a chain); each chain starts\n"
    "                      from a random position, orientation and torsions in the box, each focus\n"
    "                      chain from one of the best chains' minima\n"
    "  --exhaustiveness N  Monte Carlo chains a record (overrides --search's)\n"
    "  --steps N           steps a chain (overrides --search's)\n"
    "  --focus-chains N    chains that continue from the best chains' minima once the others\n"
    "                      are done (overrides --search's; 0: none; with --exhaustiveness or\n"
    "                      --steps the default is none)\n"
    "  --focus-steps N     steps of a focus chain (overrides --search's; default 4 x --steps)\n"
    "  --devices D         all (default: every GPU, else the CPU; `dock` of a record of 16\n"
    "                      chains or fewer, as --search vina's 8, on the CPU: a core each runs\n"
    "                      them 3-4x faster than GPU warps), gpu (every GPU; an error without\n"
    "                      one), cpu (the same search on the CPU), or GPU numbers (0,1)\n"
    "  --seed N            random seed (default 0); the same seed gives the same poses on a\n"
    "                      device, whatever the thread count or batch\n"
    "  --ph X|none         a SMILES ligand (.smi/.ism/.csv) is protonated at pH X by Open Babel's\n"
    "                      model (default 7.4), or keeps the SMILES's states (none)\n"
    "  --minimize N        a SMILES ligand's force-field steps after its 3D build (default:\n"
    "                      RDKit 50 MMFF94 iterations, Open Babel 100 steps; 0: none)\n"
    "  --embed rdkit|openbabel  a SMILES ligand's 3D conformer generator (default: RDKit's ETKDG\n"
    "                      when built with RDKit, else Open Babel's builder)\n"
    "  --stereo any|specified  a SMILES ligand's open or (after 5 builds) inverted stereocentres:\n"
    "                      docked as built with a note (any, default) or refused (specified)\n"
    "  --rigid-macrocycles an SDF/MOL2/SMILES ligand's rings of 12..33 atoms stay rigid (as before\n"
    "                      issue 28; Meeko's --rigid_macrocycles). Default: each such ring is\n"
    "                      opened at the bond Meeko breaks (CGk carbons, Gk glue atoms), its\n"
    "                      single bonds rotate and Vina 1.2's glue term closes it; the poses\n"
    "                      are written with the ring closed. PDBQT ligands keep their own tree\n";

void vsg_cli_dock_opts_init(vsg_cli_dock_opts *o, const char *search)
{
    memset(o, 0, sizeof *o);
    o->search = search;
    o->devices = "all";
    o->focus_chains = -1;
}

int vsg_cli_dock_option(vsg_args *a, const char *cmd, vsg_cli_dock_opts *o)
{
    const char *v;
    double x;
    if (vsg_arg_is(a, "--search")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        vsg_dock_params p;
        vsg_dock_params_default(&p);
        if (vsg_dock_params_preset(&p, v) != VSG_OK)
            return vsg_cli_usage_error(cmd, "--search: '%s' is not fast, balanced, detail, thorough or vina", v), -1;
        o->search = v;
        return 1;
    }
    if (vsg_arg_is(a, "--devices") || vsg_arg_is(a, "--device")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        o->devices = v;
        return 1;
    }
    if (vsg_arg_is(a, "--ph")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (vsg_smiles_parse_ph(v, &o->smiles) != VSG_OK) return vsg_cli_usage_error(cmd, "%s", vsg_last_error()), -1;
        return 1;
    }
    if (vsg_arg_is(a, "--stereo")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (vsg_smiles_parse_stereo(v, &o->smiles) != VSG_OK) return vsg_cli_usage_error(cmd, "%s", vsg_last_error()), -1;
        if (o->smiles.stereo == VSG_STEREO_ENUMERATE) /* one ligand, one docking: the isomers are a screen's */
            return vsg_cli_usage_error(cmd, "--stereo enumerate: 'vsgrid screen MAPS LIG.smi --placement flexible "
                                            "--stereo enumerate' docks every stereoisomer and keeps the best"), -1;
        return 1;
    }
    if (vsg_arg_is(a, "--embed")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (vsg_smiles_parse_embed(v, &o->smiles) != VSG_OK) return vsg_cli_usage_error(cmd, "%s", vsg_last_error()), -1;
        return 1;
    }
    if (vsg_arg_is(a, "--minimize")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (vsg_smiles_parse_minimize(v, &o->smiles) != VSG_OK)
            return vsg_cli_usage_error(cmd, "%s", vsg_last_error()), -1;
        return 1;
    }
    if (vsg_arg_is(a, "--rigid-macrocycles")) {
        o->rigid_macrocycles = 1;
        return 1;
    }
    if (vsg_arg_is(a, "--seed")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        char *end;
        unsigned long long s = strtoull(v, &end, 10);
        if (!isdigit((unsigned char)v[0]) || *end) return vsg_cli_usage_error(cmd, "--seed: '%s' is not an integer >= 0", v), -1;
        o->seed = (uint64_t)s;
        return 1;
    }
    if (vsg_arg_is(a, "--focus-chains") || vsg_arg_is(a, "--focus-steps")) {
        const char *name = a->name;
        const int chains = !strcmp(name, "--focus-chains");
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (!vsg_parse_number(v, &x) || x != floor(x) || x < (chains ? 0 : 1) || x > 1e6)
            return vsg_cli_usage_error(cmd, "%s: '%s' is not an integer in %d..1000000", name, v, chains ? 0 : 1), -1;
        if (chains) o->focus_chains = (int)x;
        else o->focus_steps = (int)x;
        return 1;
    }
    if (vsg_arg_is(a, "--exhaustiveness") || vsg_arg_is(a, "--steps")) {
        const char *name = a->name;
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (!vsg_parse_number(v, &x) || x != floor(x) || x < 1 || x > 1e6)
            return vsg_cli_usage_error(cmd, "%s: '%s' is not an integer in 1..1000000", name, v), -1;
        if (!strcmp(name, "--exhaustiveness")) o->chains = (int)x;
        else o->steps = (int)x;
        return 1;
    }
    return 0;
}

int vsg_cli_dock_effort_given(const vsg_cli_dock_opts *o)
{
    return o->search || o->chains || o->steps || o->focus_chains >= 0 || o->focus_steps;
}

int vsg_cli_dock_apply(const char *cmd, const vsg_cli_dock_opts *o, vsg_dock_params *p, vsg_device *device)
{
    vsg_dock_params_effort(p, o->search ? o->search : "detail", o->chains, o->steps, o->focus_chains, o->focus_steps);
    p->seed = o->seed;
    p->ngpus = 0;
    *device = VSG_DEVICE_AUTO;
    const char *d = o->devices;
    if (!strcmp(d, "all") || !strcmp(d, "auto")) return 0;
    if (!strcmp(d, "cpu")) {
        *device = VSG_DEVICE_CPU;
        return 0;
    }
    *device = VSG_DEVICE_GPU;
    if (!strcmp(d, "gpu")) return 0;
    vsg_screen_options so;
    memset(&so, 0, sizeof so);
    if (vsg_cli_parse_devices(cmd, d, &so)) return VSG_EXIT_USAGE;
    p->ngpus = so.ndevices < 16 ? so.ndevices : 16;
    for (int i = 0; i < p->ngpus; i++) p->gpus[i] = so.devices[i];
    return 0;
}

const char *vsg_cli_dock_effort(const vsg_dock_params *p, const vsg_dock_result *r, char *buf, size_t n)
{
    if (r->steps == 0) { /* vsg_dock_local (--local-only): no chain ran, focus chains neither */
        snprintf(buf, n, "the input pose minimised in place (no search)");
        return buf;
    }
    const int k = snprintf(buf, n, "%d chains x %d steps", r->chains, r->steps);
    if (p->focus_chains > 0 && k >= 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, " + %d focus chains x %d", p->focus_chains,
                 p->focus_steps ? p->focus_steps : 4 * r->steps);
    return buf;
}

int vsg_cli_dock_gpu_fallback(vsg_status st, vsg_device device, int quiet)
{
    if (st != VSG_E_LIMIT || device != VSG_DEVICE_AUTO) return 0;
    if (!quiet) fprintf(stderr, "vsgrid dock: %s; docking on the CPU\n", vsg_last_error());
    return 1;
}
