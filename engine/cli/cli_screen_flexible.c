/* cli_screen_flexible.c — `vsgrid screen PREFIX LIBRARY... --scoring vina|vinardo --placement
 * flexible`: every record docked into the Vina / Vinardo map set by vsg_dock_batch (the GPU
 * search, or its CPU twin), one CSV row per input record in input order (the as-is Vina screen's
 * columns, from the best pose), the best --poses poses of each record as PDBQT MODELs or SDF records (--poses-out,
 * dock_poses.h). Records are read in chunks (2048 for the GPU, whose chains then fill it; 64 for
 * the CPU); what the record itself says (reader status, fragments, torsion count) is checked
 * first, the rest docked in one call. Record i (the CSV's 0-based index) is docked with seed
 * --seed + i, so it docks as `vsgrid dock --seed (seed + i)` would, and the rows and poses do not
 * depend on the chunk or thread count. Built on the public API only (engine/cli/ is its client). */
#define _POSIX_C_SOURCE 200809L /* isatty */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "engine/cli/cli.h"
#include "engine/cli/cli_vina.h"
#include "engine/cli/dock_options.h"
#include "engine/cli/dock_poses.h"

#define CHUNK 64        /* records docked together on the CPU */
#define CHUNK_GPU 2048  /* on the GPU: enough chains to fill it many times over */
#define CODE_DISCONNECTED "disconnected" /* an SDF/MOL2 record of several molecules */
#define DEFAULT_MAX_TORSIONS 32           /* AutoDock4's MAX_TORS */
#define DEFAULT_SEARCH "balanced"

const char vsg_cli_vina_flexible_help[] =
    "Flexible docking in the screen (--scoring vina|vinardo --placement flexible): each record is\n"
    "docked into the map set PREFIX (AutoDock Vina 1.2's method: Monte Carlo chains of a random\n"
    "change of position, orientation or one torsion, BFGS on the analytic gradient of the maps\n"
    "and the ligand's internal pairs, Metropolis acceptance; rings, bond lengths and angles as in\n"
    "the input) instead of being scored where it is. On the GPU (the default when there is one)\n"
    "one warp runs a chain and thousands of chains of many records run at once; --devices cpu\n"
    "runs the same search on the CPU (OpenMP). One row per input record, in input order, with the\n"
    "as-is columns above for the best pose (its 'vina --score_only' terms, computed in double on\n"
    "the CPU from the pose, whichever device searched); a record that cannot be docked gets its\n"
    "status and message: untyped, torsions (a malformed tree, or over --max-torsions),\n"
    "too_many_atoms, no_pose, disconnected (an SDF/MOL2 record of several molecules: a salt, a\n"
    "mixture), the reader's codes (not_3d: a 2D SDF). Record i (the index column) is docked\n"
    "with seed --seed + i: the rows repeat exactly for a seed on a device, whatever --threads or\n"
    "the batch. (--placement rigid needs an AutoDock4 map set, a .maps.fld.)\n"
    "  --max-torsions N    records with more rotatable bonds get status torsions (default 32)\n"
    "  --poses-out F.pdbqt the best --poses poses of each docked record as MODELs, in input order,\n"
    "                      with REMARK VINA RESULT (score, RMSD to the best pose) and 'REMARK\n"
    "                      VSGRID RECORD: index name'; a PDBQT record keeps its tree, an SDF/MOL2\n"
    "                      one gets the tree searched (AutoDock types, non-polar H merged)\n"
    "  --poses-out F.sdf   the same poses as the input molecule: all its atoms and bonds (a PDBQT\n"
    "                      record's inferred from distances), merged hydrogens moved with their\n"
    "                      heavy atom, M  CHG, and the items vsgrid_score_kcal_mol (and each term),\n"
    "                      vsgrid_pose, vsgrid_record, atom.dprop.PartialCharge and\n"
    "                      atom.prop.AutoDockType (RDKit's atom property lists; vsgrid reads the\n"
    "                      charges back)\n"
    "  --poses K           poses of each record written (default 1), best first, none within\n"
    "                      --min-rmsd of a better one; the CSV keeps one row (the best pose)\n"
    "  --min-rmsd A        heavy-atom RMSD under which two poses are one (default 1 A)\n"
    "  --json FILE         the screen's keys plus placement, search, seed, exhaustiveness,\n"
    "                      steps, max_torsions, dock_evaluations\n"
    "  --resume            go on with an interrupted screen: the -o file's rows (and the .sdf\n"
    "                      poses) are checked against the records and kept, the rest docked and\n"
    "                      appended, as 'vsgrid screen --resume' (same command line; exit 3 if not)\n"
    "Exit codes as 'vsgrid screen': 3 a library that cannot be opened or read (its rows are\n"
    "written, the others docked), 8 no record docked (all failed).\n"
    "The search (default --search balanced):\n";

const char *vsg_cli_placement_arg(int argc, char **argv)
{
    const char *v = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--placement")) v = i + 1 < argc ? argv[i + 1] : "";
        else if (!strncmp(argv[i], "--placement=", 12)) v = argv[i] + 12;
    }
    return v;
}

typedef struct {
    int ok;
    vsg_vina_score s;
    int torsdof;
    char code[16];
    char message[256];
    vsg_dock_result res;
    long evaluations;
    int macrocycle;   /* atoms in the largest ring of ≥ MACROCYCLE atoms (kept rigid); 0: none */
} flex_row;

#define MACROCYCLE 12 /* ring size from which a ring is a macrocycle (its flexibility matters) */

/* The largest of the smallest rings through each ring bond of an SDF/MOL2 record (for each bond,
 * the shortest path between its ends without it, plus one); 0 without rings. */
static int largest_ring(const vsg_ligand *lig)
{
    const int n = lig->natoms, nb = lig->nbonds;
    if (n < 3 || nb < 3 || lig->format == VSG_LIG_PDBQT || lig->format == VSG_LIG_PDB) return 0;
    int *dist = malloc(sizeof(int) * (size_t)n), *queue = malloc(sizeof(int) * (size_t)n);
    int *start = calloc((size_t)n + 1, sizeof(int)), *adj = malloc(sizeof(int) * 2 * (size_t)nb);
    int *fill = calloc((size_t)n + 1, sizeof(int));
    int best = 0;
    if (!dist || !queue || !start || !adj || !fill) goto done;
    for (int k = 0; k < nb; k++) {
        const int a = lig->bonds[k].a, b = lig->bonds[k].b;
        if (a < 0 || b < 0 || a >= n || b >= n) continue;
        start[a + 1]++, start[b + 1]++;
    }
    for (int i = 0; i < n; i++) start[i + 1] += start[i];
    for (int k = 0; k < nb; k++) {
        const int a = lig->bonds[k].a, b = lig->bonds[k].b;
        if (a < 0 || b < 0 || a >= n || b >= n) continue;
        adj[start[a] + fill[a]++] = b, adj[start[b] + fill[b]++] = a;
    }
    for (int k = 0; k < nb; k++) {
        const int a = lig->bonds[k].a, b = lig->bonds[k].b;
        if (a < 0 || b < 0 || a >= n || b >= n) continue;
        for (int i = 0; i < n; i++) dist[i] = -1;
        int head = 0, tail = 0;
        dist[a] = 0, queue[tail++] = a;
        while (head < tail && dist[b] < 0) {
            const int u = queue[head++];
            for (int q = start[u]; q < start[u + 1]; q++) {
                const int w = adj[q];
                if (dist[w] >= 0 || (u == a && w == b)) continue; /* not through the bond itself */
                dist[w] = dist[u] + 1, queue[tail++] = w;
            }
        }
        if (dist[b] > 0 && dist[b] + 1 > best) best = dist[b] + 1;
    }
done:
    free(dist), free(queue), free(start), free(adj), free(fill);
    return best;
}

static const char *code_of(vsg_status st, const char *msg)
{
    switch (st) {
    case VSG_E_DATA: return strstr(msg, "tree") ? VSG_LIG_TORSIONS : VSG_LIG_TYPE;
    case VSG_E_FORMAT: return VSG_LIG_TORSIONS;
    case VSG_E_LIMIT: return VSG_LIG_TOO_MANY;
    case VSG_E_NOMEM: return "nomem";
    default: return "error";
    }
}

/* Fragments of an SDF/MOL2 record's bond graph (PDBQT records carry no bonds: 1). */
static int fragments(const vsg_ligand *lig)
{
    if (lig->format == VSG_LIG_PDBQT || lig->format == VSG_LIG_PDB || lig->natoms < 2) return 1;
    int *up = malloc(sizeof(int) * (size_t)lig->natoms);
    if (!up) return 1;
    for (int i = 0; i < lig->natoms; i++) up[i] = i;
    int n = lig->natoms;
    for (int k = 0; k < lig->nbonds; k++) {
        int a = lig->bonds[k].a, b = lig->bonds[k].b;
        if (a < 0 || b < 0 || a >= lig->natoms || b >= lig->natoms) continue;
        while (up[a] != a) a = up[a] = up[up[a]];
        while (up[b] != b) b = up[b] = up[up[b]];
        if (a != b) up[a] = b, n--;
    }
    free(up);
    return n;
}

static void failed(const vsg_ligand *lig, vsg_status st, const char *msg, flex_row *r)
{
    char m[200];
    snprintf(m, sizeof m, "%s", msg);
    snprintf(r->code, sizeof r->code, "%s", code_of(st, m));
    if (strstr(m, lig->source)) snprintf(r->message, sizeof r->message, "%s", m);
    else snprintf(r->message, sizeof r->message, "%s: record %ld: %s", lig->source, lig->record, m);
}

/* What the reader and the record itself already say: 1 when the record can be docked (r->torsdof
 * set), else 0 with r's code and message. */
static int precheck(const vsg_ligand *lig, int max_torsions, flex_row *r)
{
    memset(r, 0, sizeof *r);
    if (lig->status != VSG_OK) {
        snprintf(r->code, sizeof r->code, "%s", lig->code);
        snprintf(r->message, sizeof r->message, "%s", lig->message);
        return 0;
    }
    const int nfrag = fragments(lig);
    if (nfrag > 1) {
        snprintf(r->code, sizeof r->code, "%s", CODE_DISCONNECTED);
        snprintf(r->message, sizeof r->message,
                 "%s: record %ld: %d fragments not bonded to each other (a salt or a mixture): docking takes one molecule",
                 lig->source, lig->record, nfrag);
        return 0;
    }
    vsg_vina_ligand *l = NULL;
    vsg_status st = vsg_vina_ligand_new(lig, &l);
    if (st != VSG_OK) {
        failed(lig, st, vsg_last_error(), r);
        return 0;
    }
    vsg_vina_ligand_info info;
    vsg_vina_ligand_get_info(l, &info);
    vsg_vina_ligand_free(l);
    r->torsdof = info.torsdof;
    const int ring = largest_ring(lig);
    if (ring >= MACROCYCLE) r->macrocycle = ring;
    if (info.rotors > max_torsions) {
        snprintf(r->code, sizeof r->code, "%s", VSG_LIG_TORSIONS);
        snprintf(r->message, sizeof r->message, "%s: record %ld: %d torsions, over --max-torsions %d", lig->source,
                 lig->record, info.rotors, max_torsions);
        return 0;
    }
    return 1;
}

/* The row of a record whose docking ended with st (r->res filled on VSG_OK). */
static void docked(const vsg_ligand *lig, vsg_status st, const char *msg, flex_row *r)
{
    r->evaluations = r->res.evaluations;
    if (st != VSG_OK) {
        failed(lig, st, msg, r);
        vsg_dock_result_release(&r->res);
    } else if (r->res.npose < 1) {
        snprintf(r->code, sizeof r->code, "%s", VSG_LIG_NO_POSE);
        snprintf(r->message, sizeof r->message, "%s: record %ld: the search kept no pose", lig->source, lig->record);
        vsg_dock_result_release(&r->res);
    } else {
        r->s = r->res.pose[0].score;
        r->ok = 1;
    }
}

static void write_row(FILE *f, const vsg_ligand *lig, int natoms, const flex_row *r)
{
    fprintf(f, "%zu,", lig->index);
    vsg_csv_field(f, lig->name);
    fputc(',', f);
    vsg_csv_field(f, lig->source);
    fprintf(f, ",%ld,%d,", lig->record, natoms);
    if (r->ok) {
        fprintf(f, "%.4f,%.4f,%.4f,%.4f,%.4f,%g,%d,%d,", r->s.total, r->s.inter, r->s.intra, r->s.torsional, r->s.unbound,
                r->s.num_tors, r->torsdof, r->s.outside);
        if (r->s.outside > 0) {
            char msg[200];
            snprintf(msg, sizeof msg, "%d heavy atoms of the best pose outside the maps' box (Vina's penalty)", r->s.outside);
            fputs(VSG_LIG_OUTSIDE ",", f);
            vsg_csv_field(f, msg);
        } else {
            fputs("ok,", f);
            if (r->macrocycle) { /* docked, but its ring only as the input has it */
                char msg[200];
                snprintf(msg, sizeof msg, "a macrocycle (ring of %d atoms) kept rigid as in the input: dock several ring conformers",
                         r->macrocycle);
                vsg_csv_field(f, msg);
            }
        }
    } else {
        fputs(",,,,,,,,", f);
        vsg_csv_field(f, r->code);
        fputc(',', f);
        vsg_csv_field(f, r->message);
    }
    fputc('\n', f);
}

static void count_code(vsg_screen_report *rep, const char *code)
{
    for (size_t i = 0; i < rep->by_code_n; i++)
        if (!strcmp(rep->by_code[i], code)) { rep->by_code_count[i]++; return; }
    if (rep->by_code_n < 16) {
        snprintf(rep->by_code[rep->by_code_n], sizeof rep->by_code[0], "%s", code);
        rep->by_code_count[rep->by_code_n++] = 1;
    }
}

/* Writes the poses of a docked record (r->res, up to p.poses of them) as PDBQT MODELs numbered on
 * from *model, or as SDF records. Returns VSG_OK or why not. */
static vsg_status write_poses(FILE *f, int sdf, vsg_ligand *lig, const vsg_dock_result *res, int *model)
{
    vsg_status st = VSG_OK;
    if (sdf) {
        vsg_cli_sdf_mol *m = NULL;
        if ((st = vsg_cli_sdf_mol_new(lig, res, &m)) != VSG_OK) return st;
        for (int k = 0; k < res->npose && st == VSG_OK; k++)
            if (!vsg_cli_sdf_write_pose(f, m, res, k, (long)lig->index)) st = vsg_fail(VSG_E_IO, "write error on the poses");
        vsg_cli_sdf_mol_free(m);
        return st;
    }
    vsg_vina_ligand *vl = NULL; /* for the heavy atoms of the RMSD to the best pose */
    if (res->npose > 1 && (st = vsg_vina_ligand_new(lig, &vl)) != VSG_OK) return st;
    st = vsg_cli_dock_model_ligand(lig, res);
    for (int k = 0; k < res->npose && st == VSG_OK; k++) {
        const double rb = k ? vsg_cli_dock_rmsd_heavy(res, vl, res->pose[k].xyz, res->pose[0].xyz) : 0.0;
        if (!vsg_cli_dock_write_model(f, lig, res, k, ++*model, rb, (long)lig->index))
            st = vsg_fail(VSG_E_DATA, "%s: record %ld: the record's atom lines do not match its model", lig->source,
                          lig->record);
    }
    vsg_vina_ligand_free(vl);
    return st;
}

/* The loop: reads, docks and writes chunk by chunk. Returns VSG_OK or a whole-run failure. */
static vsg_status run(const vsg_vina_target *t, const char *const *inputs, int ninputs, vsg_ligand_format format,
                      int max_atoms, int max_torsions, const vsg_dock_params *p, vsg_device device, FILE *csv, FILE *poses,
                      int sdf, int progress, vsg_screen_report *rep, long *evaluations, int resume, size_t skip)
{
    memset(rep, 0, sizeof *rep);
    *evaluations = 0;
    const double t0 = vsg_now();
    vsg_ligand_reader_options ro = {format, 1, max_atoms};
    vsg_ligand_reader *rd = NULL;
    vsg_status st = vsg_ligand_reader_open(inputs, ninputs, &ro, &rd);
    if (st != VSG_OK) return st;
    const int gpu = device == VSG_DEVICE_GPU || (device == VSG_DEVICE_AUTO && vsg_gpu_count() > 0);
    int ngpu = p->ngpus > 0 ? p->ngpus : vsg_gpu_count();
    if (ngpu < 1) ngpu = 1;
    const int chunk_n = gpu ? CHUNK_GPU * ngpu : CHUNK; /* each GPU gets a full share */
    vsg_ligand *chunk = malloc(sizeof *chunk * (size_t)chunk_n);
    flex_row *rows = calloc((size_t)chunk_n, sizeof *rows);
    const vsg_ligand **ligs = malloc(sizeof *ligs * (size_t)chunk_n);
    uint64_t *seeds = malloc(sizeof *seeds * (size_t)chunk_n);
    int *slot = malloc(sizeof *slot * (size_t)chunk_n);
    char *ok = malloc((size_t)chunk_n);
    vsg_dock_result *res = calloc((size_t)chunk_n, sizeof *res);
    vsg_status *sts = malloc(sizeof *sts * (size_t)chunk_n);
    char(*msgs)[256] = malloc(sizeof *msgs * (size_t)chunk_n);
    if (!chunk || !rows || !ligs || !seeds || !slot || !ok || !res || !sts || !msgs) {
        free(chunk), free(rows), free(ligs), free(seeds), free(slot), free(ok), free(res), free(sts), free(msgs);
        vsg_ligand_reader_close(rd);
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    for (int i = 0; i < chunk_n; i++) vsg_ligand_init(&chunk[i]);
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    if (!resume) /* --resume: the header and the first `skip` rows are written */
        fputs("index,name,source,record,atoms,score_kcal_mol,inter_kcal_mol,intra_kcal_mol,torsional_kcal_mol,"
              "unbound_kcal_mol,num_tors,torsdof,atoms_outside,status,message\n",
              csv);
    int model = 0;
    for (;;) {
        double a = vsg_now();
        int n = 0;
        while (n < chunk_n && vsg_ligand_reader_next(rd, &chunk[n]) == 1)
            if (!resume || chunk[n].index >= skip) n++; /* --resume: records done are read, not docked */
        double b = vsg_now();
        rep->parse_s += b - a;
        if (n == 0) break;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 8)
#endif
        for (int i = 0; i < n; i++) ok[i] = (char)precheck(&chunk[i], max_torsions, &rows[i]);
        int m = 0;
        for (int i = 0; i < n; i++)
            if (ok[i]) ligs[m] = &chunk[i], seeds[m] = p->seed + (uint64_t)chunk[i].index, slot[m++] = i;
        vsg_status bst = vsg_dock_batch(t, ligs, m, seeds, p, device, res, sts, msgs);
        if (bst != VSG_OK) { /* the whole batch could not run (no GPU, out of memory): every row says so */
            for (int k = 0; k < m; k++) sts[k] = bst, snprintf(msgs[k], sizeof msgs[k], "%s", vsg_last_error());
            if (st == VSG_OK && bst != VSG_E_NOMEM) st = bst;
        }
        for (int k = 0; k < m; k++) {
            flex_row *r = &rows[slot[k]];
            r->res = res[k];
            memset(&res[k], 0, sizeof res[k]);
            docked(&chunk[slot[k]], sts[k], msgs[k], r);
        }
        double c = vsg_now();
        rep->score_s += c - b;
        for (int i = 0; i < n; i++) {
            flex_row *r = &rows[i];
            rep->records++;
            *evaluations += r->evaluations;
            if (r->ok) {
                rep->scored++;
                rep->atoms += (uint64_t)chunk[i].natoms;
                if (r->s.outside > 0) rep->outside++;
            } else {
                rep->failed++;
                count_code(rep, r->code);
            }
            write_row(csv, &chunk[i], chunk[i].natoms, r);
            if (r->ok && poses && st == VSG_OK) st = write_poses(poses, sdf, &chunk[i], &r->res, &model);
            vsg_dock_result_release(&r->res);
        }
        rep->write_s += vsg_now() - c;
        if (progress) fprintf(stderr, "\rvsgrid: %zu records docked", rep->records);
        if (n < chunk_n || st != VSG_OK) break;
    }
    if (progress) fputc('\n', stderr);
    for (int i = 0; i < chunk_n; i++) vsg_ligand_release(&chunk[i]);
    free(chunk), free(rows), free(ligs), free(seeds), free(slot), free(ok), free(res), free(sts), free(msgs);
    vsg_ligand_reader_close(rd);
    if (st == VSG_OK && (fflush(csv) != 0 || ferror(csv))) st = vsg_fail(VSG_E_IO, "write error on the CSV output");
    if (st == VSG_OK && poses && (fflush(poses) != 0 || ferror(poses))) st = vsg_fail(VSG_E_IO, "write error on the poses");
    if (gpu) {
        char name[96] = "GPU";
        const int g0 = p->ngpus > 0 ? p->gpus[0] : 0, ng = p->ngpus > 0 ? p->ngpus : vsg_gpu_count();
        vsg_gpu_describe(g0, name, sizeof name, NULL, NULL);
        snprintf(rep->device, sizeof rep->device, "%d x %s", ng, name);
        snprintf(rep->precision, sizeof rep->precision, "float");
    } else {
        snprintf(rep->device, sizeof rep->device, "cpu (%d thread%s)", threads, threads == 1 ? "" : "s");
        snprintf(rep->precision, sizeof rep->precision, "double");
    }
    snprintf(rep->kernel, sizeof rep->kernel, "%s flexible docking",
             vsg_vina_target_scoring(t) == VSG_VINA_SCORING_VINARDO ? "vinardo" : "vina");
    rep->parse_threads = 1;
    rep->seconds = vsg_now() - t0;
    return st;
}

int vsg_cli_vina_flexible_command(int argc, char **argv, const char *cmd)
{
    const double t0 = vsg_now();
    static const char *inputs[4096];
    const char *target = NULL, *poses_path = NULL;
    int ninputs = 0, quiet = 0, resume = 0, threads = 0, max_atoms = 0, max_torsions = DEFAULT_MAX_TORSIONS;
    vsg_ligand_format format = VSG_LIG_AUTO;
    vsg_screen_outputs out;
    memset(&out, 0, sizeof out);
    vsg_dock_params p;
    vsg_dock_params_default(&p);
    p.poses = 1; /* --poses: the best pose unless more are written */
    vsg_cli_dock_opts dopt;
    vsg_cli_dock_opts_init(&dopt, DEFAULT_SEARCH);
    vsg_vina_scoring sf = VSG_VINA_SCORING_VINA;
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i], *v;
        double x;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(vsg_cli_vina_help, stdout);
            fputs(vsg_cli_vina_flexible_help, stdout);
            fputs(vsg_cli_dock_options_help, stdout);
            return -2;
        }
        if (arg[0] != '-' || !strcmp(arg, "-")) {
            if (!target) target = arg;
            else if (ninputs < (int)(sizeof inputs / sizeof inputs[0])) inputs[ninputs++] = arg;
            else return vsg_cli_usage_error(cmd, "too many library files (at most %d)", (int)(sizeof inputs / sizeof inputs[0]));
            continue;
        }
#define VALUE() do { if (!(v = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE; } while (0)
        const int dr = vsg_cli_dock_option(&a, cmd, &dopt);
        if (dr < 0) return VSG_EXIT_USAGE;
        if (dr > 0) continue;
        if (vsg_arg_is(&a, "--quiet")) quiet = 1;
        else if (vsg_arg_is(&a, "--resume")) resume = 1;
        else if (vsg_arg_is(&a, "--scoring")) {
            VALUE();
            if (!strcmp(v, "vina")) sf = VSG_VINA_SCORING_VINA;
            else if (!strcmp(v, "vinardo")) sf = VSG_VINA_SCORING_VINARDO;
            else return vsg_cli_usage_error(cmd, "--scoring: '%s' is not vina or vinardo", v);
        } else if (vsg_arg_is(&a, "--placement")) {
            VALUE();
            if (strcmp(v, "flexible")) return vsg_cli_usage_error(cmd, "--placement: '%s' here is not flexible", v);
        } else if (vsg_arg_is(&a, "-o") || vsg_arg_is(&a, "--output")) { VALUE(); out.csv = v; }
        else if (vsg_arg_is(&a, "--json")) { VALUE(); out.json = v; }
        else if (vsg_arg_is(&a, "--poses-out")) { VALUE(); poses_path = v; }
        else if (vsg_arg_is(&a, "--poses")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || x != floor(x) || x < 1 || x > 1000)
                return vsg_cli_usage_error(cmd, "--poses: '%s' is not an integer in 1..1000", v);
            p.poses = (int)x;
        } else if (vsg_arg_is(&a, "--min-rmsd")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || !(x >= 0) || x > 100)
                return vsg_cli_usage_error(cmd, "--min-rmsd: '%s' is not a distance in 0..100 A", v);
            p.min_rmsd = x;
        }
        else if (vsg_arg_is(&a, "--format")) {
            VALUE();
            if (!strcmp(v, "sdf")) format = VSG_LIG_SDF;
            else if (!strcmp(v, "mol2")) format = VSG_LIG_MOL2;
            else if (!strcmp(v, "pdbqt")) format = VSG_LIG_PDBQT;
            else if (!strcmp(v, "pdb")) format = VSG_LIG_PDB;
            else return vsg_cli_usage_error(cmd, "--format: '%s' is not sdf, mol2, pdbqt or pdb", v);
        } else if (vsg_arg_is(&a, "--max-torsions")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || x != floor(x) || x < 0 || x > 1000)
                return vsg_cli_usage_error(cmd, "--max-torsions: '%s' is not an integer in 0..1000", v);
            max_torsions = (int)x;
        } else if (vsg_arg_is(&a, "--max-atoms") || vsg_arg_is(&a, "--threads")) {
            const char *name = a.name;
            VALUE();
            if (!vsg_parse_number(v, &x) || x != floor(x) || x < 1 || x > 1e6)
                return vsg_cli_usage_error(cmd, "%s: '%s' is not an integer in 1..1000000", name, v);
            if (!strcmp(name, "--max-atoms")) max_atoms = (int)x;
            else threads = (int)x;
        } else {
            return vsg_cli_usage_error(cmd, "%s does not apply to --placement flexible (see --help)", arg);
        }
#undef VALUE
    }
    vsg_device device = VSG_DEVICE_AUTO;
    if (vsg_cli_dock_apply(cmd, &dopt, &p, &device)) return VSG_EXIT_USAGE;
    if (vsg_mpi_active()) return vsg_cli_usage_error(cmd, "--placement flexible runs in one process: not under mpirun");
    if (!target) return vsg_cli_usage_error(cmd, "no map-set PREFIX given");
    if (ninputs == 0) return vsg_cli_usage_error(cmd, "no LIBRARY given");
    if (!out.csv) return vsg_cli_usage_error(cmd, "no output: give -o RESULTS.csv ('-' for standard output)");
    const int sdf = poses_path ? vsg_cli_pose_path_kind(poses_path) : 0;
    if (sdf < 0) return vsg_cli_usage_error(cmd, "--poses-out: '%s' is not a .pdbqt or .sdf file", poses_path);
    if (resume && (!strcmp(out.csv, "-") || (poses_path && !sdf)))
        return vsg_cli_usage_error(cmd, "--resume needs -o FILE.csv, and --poses-out as .sdf");
    for (int i = 0; i < ninputs; i++)
        if (!strcmp(inputs[i], "-") && format == VSG_LIG_AUTO) return vsg_cli_usage_error(cmd, "reading standard input needs --format");
#ifdef _OPENMP
    if (threads > 0) omp_set_num_threads(threads);
#else
    (void)threads;
#endif
    vsg_vina_target *t = NULL;
    vsg_status st = vsg_cli_receptor_not_grid(target);
    if (st == VSG_OK) st = vsg_vina_target_maps(target, sf, &t);
    if (st != VSG_OK) return vsg_cli_fail(st);
    /* --resume (vsgrid.h, vsg_resume_prepare): the rows written are checked and kept, the rest docked */
    static char fingerprint[60000];
    size_t skip = 0;
    vsg_resume_fingerprint(argc, argv, fingerprint, sizeof fingerprint);
    if (resume) {
        vsg_resume_spec rs = {out.csv, NULL, poses_path, p.poses > 1, fingerprint, inputs, ninputs, {format, 0, max_atoms}};
        st = vsg_resume_prepare(&rs, &skip);
        if (st != VSG_OK) {
            fprintf(stderr, "vsgrid %s: --resume: %s\n", cmd, vsg_last_error());
            vsg_vina_target_free(t);
            return st == VSG_E_NOMEM ? VSG_EXIT_LIMIT : VSG_EXIT_INPUT;
        }
        if (!quiet) fprintf(stderr, "vsgrid: resuming %s after its %zu rows\n", out.csv, skip);
    } else if (strcmp(out.csv, "-") && vsg_resume_sidecar_write(out.csv, fingerprint) != VSG_OK) {
        vsg_warn("%s (--resume will not work on this run)", vsg_last_error());
    }
    FILE *csv = strcmp(out.csv, "-") ? fopen(out.csv, resume ? "a" : "w") : stdout;
    FILE *poses = NULL;
    if (!csv || (poses_path && !(poses = fopen(poses_path, resume ? "a" : "w")))) {
        fprintf(stderr, "vsgrid: cannot write %s\n", csv ? poses_path : out.csv);
        if (csv && csv != stdout) fclose(csv);
        vsg_vina_target_free(t);
        return VSG_EXIT_INPUT;
    }
    vsg_screen_report rep;
    long evaluations = 0;
    st = run(t, inputs, ninputs, format, max_atoms, max_torsions, &p, device, csv, poses, sdf, !quiet && isatty(2), &rep,
             &evaluations, resume, skip);
    if (csv != stdout && fclose(csv) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "cannot write %s", out.csv);
    if (poses && fclose(poses) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "cannot write %s", poses_path);
    if (st != VSG_OK) {
        vsg_vina_target_free(t);
        return vsg_cli_fail(st);
    }
    out.sdf = poses_path; /* the summary's "wrote" line */
    if (!quiet) {
        vsg_cli_screen_summary(&rep, "on the maps; ", &out);
        fprintf(stderr, "  score_kcal_mol: %s's estimated free energy of binding of each record's best docked pose, "
                        "(inter + intra - unbound) / (1 + w N_rot), rescored as 'vina --score_only'\n",
                sf == VSG_VINA_SCORING_VINARDO ? "Vinardo" : "Vina");
    }
    if (out.json) {
        vsg_json j;
        FILE *f = vsg_cli_json_open(out.json, &j, cmd);
        if (f) {
            vsg_json_str(&j, "maps", target);
            vsg_cli_json_screen(&j, sf == VSG_VINA_SCORING_VINARDO ? "vinardo" : "vina", inputs, ninputs, &rep);
            vsg_json_str(&j, "placement", "flexible");
            vsg_json_int(&j, "seed", (long long)p.seed);
            vsg_json_str(&j, "search", dopt.search);
            vsg_json_int(&j, "exhaustiveness", p.exhaustiveness);
            vsg_json_int(&j, "steps", p.steps); /* 0: Vina's default for each record's size */
            vsg_json_int(&j, "max_torsions", max_torsions);
            vsg_json_int(&j, "dock_evaluations", evaluations);
            if (poses_path) vsg_json_str(&j, "poses_out", poses_path);
            vsg_json_int(&j, "poses", p.poses);
            vsg_cli_json_finish(&j, f, out.json, vsg_now() - t0);
        }
    }
    vsg_vina_target_free(t);
    return vsg_cli_screen_verdict(cmd, inputs, ninputs, &rep); /* issue 20: io rows, nothing docked */
}
