/* dock_prepare.c — a record made ready to dock (dock_internal.h), shared by the CPU chains and
 * the GPU batch: the parameters' defaults, the Vina model of the record, its torsion tree with a
 * central root, the search energy, and the steps Vina would take for its size. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/dock/dock_internal.h"

#define DOCK_DEFAULT_KEEP 20 /* minima a CPU chain keeps by default (Vina: its --num_modes habit) */

void vsg_dock_params_default(vsg_dock_params *p)
{
    if (!p) return;
    memset(p, 0, sizeof *p);
    p->exhaustiveness = 8;
    p->poses = 9;
    p->min_rmsd = 1.0;
    p->random_start = 1;
}

void vsg_dock_result_release(vsg_dock_result *r)
{
    if (!r) return;
    if (r->pose)
        for (int i = 0; i < r->npose; i++) free(r->pose[i].xyz);
    free(r->pose);
    free(r->record_atom);
    free(r->body);
    free(r->rotor);
    memset(r, 0, sizeof *r);
}

vsg_status dock_params_resolve(const vsg_dock_params *p, vsg_dock_params *out)
{
    vsg_dock_params P;
    if (p) P = *p;
    else vsg_dock_params_default(&P);
    /* benchmark switches (docs/PERFORMANCE.md, "Benchmark and test switches"): the focus chains'
     * moves and starts, for measuring them against the presets' */
    const char *fa = getenv("VSG_FOCUS_AMPLITUDE");
    if (fa && *fa) {
        char *end;
        P.focus_amplitude = strtod(fa, &end);
        if (*end || !(P.focus_amplitude >= 0) || !(P.focus_amplitude <= 1))
            return vsg_fail(VSG_E_ARG, "VSG_FOCUS_AMPLITUDE: '%s' is not a fraction in 0..1", fa);
    }
    if (P.exhaustiveness < 0 || P.exhaustiveness > 1000000 || P.steps < 0 || P.steps > 1000000 || P.local_steps < 0 ||
        P.local_steps > 1000000 || P.poses < 0 || P.poses > 1000000 || P.chain_keep < 0 || P.chain_keep > 1000 ||
        P.focus_chains < 0 || P.focus_chains > 1000000 || P.focus_steps < 0 || P.focus_steps > 1000000 ||
        !(P.min_rmsd >= 0) || !isfinite(P.min_rmsd) || !(P.focus_amplitude >= 0) || !(P.focus_amplitude <= 1))
        return vsg_fail(VSG_E_ARG, "dock: exhaustiveness, steps, local_steps, poses, focus_chains and focus_steps must be in 0..10^6, chain_keep in "
                                   "0..1000, min_rmsd finite and >= 0, focus_amplitude in 0..1");
    if (P.exhaustiveness == 0) P.exhaustiveness = 8;
    if (P.poses == 0) P.poses = 9;
    if (P.chain_keep == 0) P.chain_keep = DOCK_DEFAULT_KEEP;
    if (P.focus_amplitude == 0) P.focus_amplitude = 1; /* the exploring chains' moves */
    *out = P;
    return VSG_OK;
}

/* The record the model was built from (vsg_vina_ligand_new's: PDBQT as is; SDF/MOL2 typed, non-polar
 * hydrogens merged) and each of its atoms' index in lig. */
static vsg_status model_record(const vsg_ligand *lig, vsg_ligand *work, const vsg_ligand **src, int *map, int nmodel)
{
    if (lig->format == VSG_LIG_PDBQT) {
        *src = lig;
        for (int i = 0; i < nmodel; i++) map[i] = i;
        return VSG_OK;
    }
    vsg_status st = vsg_ligand_copy(work, lig);
    if (st == VSG_OK) st = vsg_ligand_assign_ad_types(work);
    if (st != VSG_OK) return st;
    vsg_ligand_merge_nonpolar_h(work);
    const int opened = vsg_macrocycle_open(work, NULL); /* as vsg_vina_ligand_new opens it */
    if (opened < 0) return VSG_E_NOMEM;
    *src = work;
    const int nglue = 2 * opened, nrec = nmodel - nglue; /* the Gk pseudo-atoms come last: no record atom */
    int j = 0; /* the merge keeps the order of the atoms it keeps */
    for (int i = 0; i < lig->natoms && j < nrec; i++)
        if (lig->atoms[i].x == work->atoms[j].x && lig->atoms[i].y == work->atoms[j].y &&
            lig->atoms[i].z == work->atoms[j].z && !strcmp(lig->atoms[i].name, work->atoms[j].name))
            map[j++] = i;
    if (j != nrec || work->natoms != nmodel) return vsg_fail(VSG_E_DATA, "dock: the model's atoms do not match the record's");
    for (; j < nmodel; j++) map[j] = -1;
    return VSG_OK;
}

/* The root of an SDF/MOL2 record's tree: the body whose largest hanging subtree has the fewest
 * atoms (the tree's centre, as ligand preparation chooses a central root: a torsion then swings
 * at most half the molecule); ties: the larger body, then the lower index. */
static vsg_status central_body(const vsg_torsions *tor, int *root)
{
    const int nb = tor->nbodies, nr = tor->nrotors;
    int *count = calloc((size_t)nb + 1, sizeof(int)), *worst = calloc((size_t)nb + 1, sizeof(int));
    int *stack = malloc(sizeof(int) * ((size_t)nb + 1));
    char *side = malloc((size_t)nb + 1);
    if (!count || !worst || !stack || !side) {
        free(count), free(worst), free(stack), free(side);
        return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    }
    int total = 0;
    for (int i = 0; i < tor->natoms; i++) count[tor->body[i]]++, total++;
    for (int k = 0; k < nr; k++) { /* the bodies on the child side of rotor k, without crossing it */
        memset(side, 0, (size_t)nb);
        int sp = 0, atoms = 0;
        stack[sp++] = tor->body[tor->rotor[k][1]];
        side[stack[0]] = 1;
        while (sp) {
            const int b = stack[--sp];
            atoms += count[b];
            for (int r = 0; r < nr; r++) {
                if (r == k) continue;
                const int x = tor->body[tor->rotor[r][0]], y = tor->body[tor->rotor[r][1]];
                const int o = x == b ? y : y == b ? x : -1;
                if (o >= 0 && !side[o]) side[o] = 1, stack[sp++] = o;
            }
        }
        for (int b = 0; b < nb; b++) {
            const int hang = side[b] ? total - atoms : atoms;
            if (hang > worst[b]) worst[b] = hang;
        }
    }
    int best = 0;
    for (int b = 1; b < nb; b++)
        if (worst[b] < worst[best] || (worst[b] == worst[best] && count[b] > count[best])) best = b;
    *root = best;
    free(count), free(worst), free(stack), free(side);
    return VSG_OK;
}

void dock_prep_release(dock_prep *d)
{
    if (!d) return;
    dock_energy_release(&d->en);
    dock_flex_energy_release(&d->fe);
    dock_tree_release(&d->tree);
    vsg_torsions_release(&d->tor);
    vsg_ligand_release(&d->work);
    vsg_vina_ligand_free(d->L);
    free(d->record_atom);
    memset(d, 0, sizeof *d);
    vsg_ligand_init(&d->work);
}

vsg_status dock_prepare(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_dock_params *P, dock_prep *d)
{
    return dock_prepare_flex(t, lig, NULL, P, d);
}

vsg_status dock_prepare_tree(const vsg_ligand *lig, dock_prep *d)
{
    memset(d, 0, sizeof *d);
    vsg_ligand_init(&d->work);
    vsg_status st = vsg_vina_ligand_new(lig, &d->L);
    if (st != VSG_OK) return st;
    const int n = d->L->natoms;
    const vsg_ligand *src = NULL;
    d->record_atom = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!d->record_atom) { st = vsg_fail(VSG_E_NOMEM, "dock: out of memory"); goto fail; }
    if ((st = model_record(lig, &d->work, &src, d->record_atom, n)) != VSG_OK) goto fail;
    st = lig->format == VSG_LIG_PDBQT ? vsg_torsions_from_pdbqt(src, &d->tor) : vsg_torsions_from_bonds(src, &d->tor);
    if (st != VSG_OK) goto fail;
    if (d->tor.natoms != n) { st = vsg_fail(VSG_E_DATA, "dock: torsion tree and model differ in atoms"); goto fail; }
    if (lig->format != VSG_LIG_PDBQT && (st = central_body(&d->tor, &d->root)) != VSG_OK) goto fail;
    if ((st = dock_tree_build(d->L, d->tor.body, d->tor.nbodies, d->tor.nrotors, (const int(*)[2])d->tor.rotor, d->root,
                              &d->tree)) != VSG_OK)
        goto fail;
    return VSG_OK;
fail:
    dock_prep_release(d);
    return st;
}

vsg_status dock_prepare_flex(const vsg_vina_target *t, const vsg_ligand *lig, const struct vsg_flex *flex,
                             const vsg_dock_params *P, dock_prep *d)
{
    vsg_status st = dock_prepare_tree(lig, d);
    if (st != VSG_OK) return st;
    const int n = d->L->natoms;
    int movable = n; /* Vina's num_movable_atoms: the ligand's, and the flex residues' outside their ROOTs */
    if (flex) {
        d->flex = flex;
        if ((st = dock_flex_tree(flex, &d->tree)) != VSG_OK) goto fail;
        if ((st = dock_flex_energy_init(flex, d->L, &d->tree, &d->fe)) != VSG_OK) goto fail;
        movable += flex->nmov_all;
    }
    if ((st = dock_energy_init_flex(&d->en, t, d->L, &d->tree, flex ? &d->fe : NULL)) != VSG_OK) goto fail;
    /* Vina's heuristic: movable atoms + 10 × degrees of freedom (6 + every torsion, flex ones too) */
    d->steps = P->steps ? P->steps : 70 * 3 * (50 + movable + 10 * (6 + d->tree.nrot)) / 2;
    d->local_steps = P->local_steps ? P->local_steps : (25 + movable) / 3;
    d->chain_keep = P->chain_keep;
    return VSG_OK;
fail:
    dock_prep_release(d);
    return st;
}

/* Chains × steps of each preset, then focus chains (of 4 × steps each: focus_steps 0, so that an
 * overridden --steps scales them too; vsgrid.h): measured in
 * docs/PERFORMANCE.md ("Flexible docking", "Issue 28: focus chains"). On DUD-E INHA (2,389
 * records, --receptor, NVIDIA H200, 2026-11-28) the best score within 0.1 kcal/mol of vina's
 * minimum on 48 records: without focus chains balanced 96 x 40 46% at 292/s, detail 128 x 60 60%
 * at 171/s; with them fast 65% at 309/s, balanced 73% at 208/s, detail 79% at 128/s. More
 * exploring chains buy less: on the CPU twin 128 x 40 reaches 62% where 96 x 40 + 8 x 160, the
 * same steps, reaches 73%. With the faster kernel (2026-11-29, H200) balanced took 128 exploring
 * chains instead of 96 (issue 28's depth target, "Issue 28: the default re-tuned"): 172 of 192
 * (90%, seeds 0, 7, 3, 11) within 0.1 kcal/mol at 204-207 records/s, against 96 x 40's 80% at
 * 241/s; more focus steps (16 x 200: 92% at 193/s) or fewer exploring chains (112 or 120 x 40,
 * 16 x 200-240: 79-90%) did not do better at 200/s. */
static const struct {
    const char *name;
    int chains, steps, keep, focus_chains, focus_steps;
    double focus_amplitude;
} presets[] = {
    {"fast", 64, 40, 1, 8, 0, 0},
    {"balanced", 128, 40, 1, 16, 0, 0},
    {"detail", 128, 60, 1, 16, 0, 0},
    {"thorough", 512, 240, 1, 0, 0, 0}, /* large boxes (AutoDock-GPU's 30 A set: 78% of top poses < 2 A
                                        against detail's 65%), about 1 s a ligand alone on an H100 */
    {"vina", 8, 0, 20, 0, 0, 0},
};

vsg_status vsg_dock_params_preset(vsg_dock_params *p, const char *name)
{
    if (!p || !name) return vsg_fail(VSG_E_ARG, "vsg_dock_params_preset: NULL argument");
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (!strcmp(name, presets[i].name)) {
            p->exhaustiveness = presets[i].chains, p->steps = presets[i].steps, p->chain_keep = presets[i].keep;
            p->focus_chains = presets[i].focus_chains, p->focus_steps = presets[i].focus_steps;
            p->focus_amplitude = presets[i].focus_amplitude;
            return VSG_OK;
        }
    return vsg_fail(VSG_E_ARG, "search preset '%s' is not fast, balanced, detail, thorough or vina", name);
}

vsg_status vsg_dock_params_effort(vsg_dock_params *p, const char *preset, int chains, int steps, int focus_chains,
                                  int focus_steps)
{
    if (!p) return vsg_fail(VSG_E_ARG, "vsg_dock_params_effort: NULL argument");
    vsg_status st = vsg_dock_params_preset(p, preset ? preset : "balanced");
    if (st != VSG_OK) return st;
    if (chains > 0) p->exhaustiveness = chains;
    if (steps > 0) p->steps = steps;
    /* an exact effort: a preset's focus chains of 4 x an overridden --steps 3000 would cost many
     * times the rest (focus chains then only when asked for) */
    if (chains > 0 || steps > 0) p->focus_chains = 0;
    if (focus_chains >= 0) p->focus_chains = focus_chains;
    if (focus_steps > 0) p->focus_steps = focus_steps;
    return VSG_OK;
}

double vsg_dock_box_ratio(const double box_size[3], const vsg_ligand *lig)
{
    if (!box_size || !lig) return 0;
    double c[3] = {0, 0, 0}, reach = 0;
    int n = 0;
    for (int i = 0; i < lig->natoms; i++) {
        if (!strcmp(lig->atoms[i].element, "H")) continue;
        c[0] += lig->atoms[i].x, c[1] += lig->atoms[i].y, c[2] += lig->atoms[i].z, n++;
    }
    if (!n) return 0;
    for (int d = 0; d < 3; d++) c[d] /= n;
    for (int i = 0; i < lig->natoms; i++) {
        if (!strcmp(lig->atoms[i].element, "H")) continue;
        const double dx = lig->atoms[i].x - c[0], dy = lig->atoms[i].y - c[1], dz = lig->atoms[i].z - c[2];
        reach = fmax(reach, sqrt(dx * dx + dy * dy + dz * dz));
    }
    /* the ligand's own box: every heavy atom within reach of the centre in any orientation, plus
     * a 4 A margin each side (vina's autobox margin) */
    const double side = 2 * (reach + 4);
    return box_size[0] * box_size[1] * box_size[2] / (side * side * side);
}

const char *vsg_dock_default_search(double box_ratio)
{
    return box_ratio > VSG_DOCK_LARGE_BOX ? "thorough" : "detail";
}

int vsg_dock_below_thorough(const vsg_dock_params *p)
{
    vsg_dock_params t;
    vsg_dock_params_default(&t);
    vsg_dock_params_preset(&t, "thorough");
    return (long)p->exhaustiveness * (p->steps ? p->steps : 1) < (long)t.exhaustiveness * t.steps;
}
