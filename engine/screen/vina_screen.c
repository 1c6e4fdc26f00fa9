/* vina_screen.c — the Vina / Vinardo screening loop (vsgrid.h, "Vina and Vinardo pose scores"):
 * records are read in order (with their text: the PDBQT torsion tree is in it), modelled and
 * scored in chunks with OpenMP on the CPU, and written one row each, in input order. Vina
 * scoring needs the whole molecule (tree, bonds, intramolecular pairs), which the batched
 * coordinate kernels of screen_pipeline.c do not carry, hence a loop of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "grids/base/vsgrid.h"
#include "engine/screen/screen_internal.h"
#include "engine/screen/screen_hydrogens.h"

#define CHUNK 256 /* records modelled and scored together */

typedef struct {
    int ok;
    int far; /* on a receptor's atoms: none within Vina's 8 Å cutoff (inter exactly 0) */
    vsg_vina_score s;
    int torsdof;
    char code[16];
    char message[256];
} vina_row;

static const char *code_of(vsg_status st)
{
    switch (st) {
    case VSG_E_DATA: return VSG_LIG_TYPE;
    case VSG_E_FORMAT: return VSG_LIG_TORSIONS;
    case VSG_E_LIMIT: return VSG_LIG_TOO_MANY;
    case VSG_E_NOMEM: return "nomem";
    default: return "error";
    }
}

static void score_one(const vsg_vina_target *t, const vsg_ligand *lig, vina_row *r)
{
    memset(r, 0, sizeof *r);
    if (lig->status != VSG_OK) {
        snprintf(r->code, sizeof r->code, "%s", lig->code);
        snprintf(r->message, sizeof r->message, "%s", lig->message);
        return;
    }
    vsg_vina_ligand *l = NULL;
    vsg_status st = vsg_vina_ligand_new(lig, &l);
    if (st == VSG_OK) {
        st = vsg_vina_score_pose(t, l, &r->s);
        vsg_vina_ligand_info info;
        vsg_vina_ligand_get_info(l, &info);
        r->torsdof = info.torsdof;
        if (st != VSG_OK) { /* a missing map: name the record too */
            char m[200];
            snprintf(m, sizeof m, "%s", vsg_last_error());
            snprintf(r->message, sizeof r->message, "%s: record %ld: %s", lig->source, lig->record, m);
            snprintf(r->code, sizeof r->code, "%s", VSG_LIG_TYPE);
        }
    } else {
        snprintf(r->code, sizeof r->code, "%s", code_of(st));
        snprintf(r->message, sizeof r->message, "%s", vsg_last_error());
    }
    vsg_vina_ligand_free(l);
    r->ok = st == VSG_OK;
    /* issue 20: a pose with no receptor atom within the cutoff is not on this receptor (a library
     * rescored as-is): its 0 is no score, so it gets status outside like a pose off the maps */
    r->far = r->ok && r->s.inter == 0.0 && lig->natoms > 0 && !vsg_vina_target_is_maps(t, NULL);
}

static void write_row(FILE *f, const vsg_ligand *lig, const vina_row *r)
{
    fprintf(f, "%zu,", lig->index);
    vsg_csv_field(f, lig->name);
    fputc(',', f);
    vsg_csv_field(f, lig->source);
    fprintf(f, ",%ld,%d,", lig->record, lig->natoms);
    if (r->ok) {
        fprintf(f, "%.4f,%.4f,%.4f,%.4f,%.4f,%g,%d,%d,", r->s.total, r->s.inter, r->s.intra, r->s.torsional, r->s.unbound,
                r->s.num_tors, r->torsdof, r->s.outside);
        if (r->s.outside > 0) {
            char msg[200];
            snprintf(msg, sizeof msg,
                     "%d heavy atoms outside the maps' box: scored with Vina's penalty (1e6 kcal/mol per A), vina "
                     "itself refuses the pose",
                     r->s.outside);
            fputs(VSG_LIG_OUTSIDE ",", f);
            vsg_csv_field(f, msg);
        } else if (r->far) {
            fputs(VSG_LIG_OUTSIDE ",no receptor atom within 8 A (Vina's cutoff) of the pose: not placed on this "
                  "receptor; dock it (screen --placement flexible)", f);
        } else {
            fputs("ok,", f);
        }
    } else {
        fputs(",,,,,,,,", f);
        vsg_csv_field(f, r->code);
        fputc(',', f);
        vsg_csv_field(f, r->message);
    }
    fputc('\n', f);
}

vsg_status vsg_vina_screen_run(const vsg_vina_target *t, const vsg_vina_screen_options *o, vsg_screen_report *rep)
{
    return vsg_vina_screen_run_extra(t, o, NULL, rep);
}

vsg_status vsg_vina_screen_run_extra(const vsg_vina_target *t, const vsg_vina_screen_options *o,
                                     const vsg_screen_extra *x, vsg_screen_report *rep)
{
    const int resume = x && x->resume;
    const size_t skip = resume ? x->resume_skip : 0;
    if (!t || !o || !rep || !o->csv || !o->inputs || o->ninputs < 1)
        return vsg_fail(VSG_E_ARG, "vsg_vina_screen_run: NULL argument or no inputs");
    memset(rep, 0, sizeof *rep);
    const double t0 = vsg_now();
    vsg_ligand_reader_options ro = {.format = o->format, .keep_text = 1, .max_atoms = o->max_atoms, .smiles = o->smiles,
                                    .rigid_macrocycles = o->rigid_macrocycles};
    vsg_ligand_reader *rd = NULL;
    vsg_status st = vsg_ligand_reader_open(o->inputs, o->ninputs, &ro, &rd);
    if (st == VSG_OK && x && x->ranges) st = vsg_ligand_reader_select(rd, x->ranges, x->nranges, x->index);
    if (st != VSG_OK) {
        vsg_ligand_reader_close(rd);
        return st;
    }
    vsg_ligand *chunk = malloc(sizeof *chunk * CHUNK);
    vina_row *rows = malloc(sizeof *rows * CHUNK);
    if (!chunk || !rows) {
        free(chunk), free(rows);
        vsg_ligand_reader_close(rd);
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    for (int i = 0; i < CHUNK; i++) vsg_ligand_init(&chunk[i]);
    if (!resume && !(x && x->no_header)) /* --resume: the header and the first `skip` rows are written */
        fputs("index,name,source,record,atoms,score_kcal_mol,inter_kcal_mol,intra_kcal_mol,torsional_kcal_mol,"
              "unbound_kcal_mol,num_tors,torsdof,atoms_outside,status,message\n",
              o->csv);
    fflush(o->csv); /* a run stopped at once leaves its header: --resume takes it */
    const size_t h0 = vsg_screen_hydrogens_added();
    for (;;) {
        if (vsg_screen_stop_requested()) { /* between chunks: the rows written are whole */
            st = vsg_fail(VSG_E_STOPPED, "screen stopped after %zu records (their rows are written)", rep->records);
            break;
        }
        double a = vsg_now();
        int n = 0;
        while (n < CHUNK && vsg_ligand_reader_next(rd, &chunk[n]) == 1)
            if (!resume || chunk[n].index >= skip) n++; /* --resume: records done are read, not scored */
        double b = vsg_now();
        rep->parse_s += b - a;
        if (n == 0) break;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
        for (int i = 0; i < n; i++) {
            vsg_screen_complete_hydrogens(o, &chunk[i]); /* a file without hydrogens: its polar ones */
            score_one(t, &chunk[i], &rows[i]);
        }
        double c = vsg_now();
        rep->score_s += c - b;
        for (int i = 0; i < n; i++) {
            rep->records++;
            if (rows[i].ok) {
                rep->scored++;
                rep->atoms += (uint64_t)chunk[i].natoms;
                if (rows[i].s.outside > 0 || rows[i].far) rep->outside++;
            } else {
                rep->failed++;
                vsg_screen_count_code(rep, rows[i].code);
            }
            write_row(o->csv, &chunk[i], &rows[i]);
        }
        fflush(o->csv); /* each chunk on disk once written (a killed shard resumes from it) */
        rep->write_s += vsg_now() - c;
        if (o->progress) fprintf(stderr, "\rvsgrid: %zu records", rep->records);
        if (n < CHUNK || ferror(o->csv)) break; /* a write error, or the rows' caller stopped */
    }
    if (o->progress) fputc('\n', stderr);
    if (vsg_screen_hydrogens_added() > h0)
        vsg_warn("%zu records had polar hydrogens added (their files had none)", vsg_screen_hydrogens_added() - h0);
    for (int i = 0; i < CHUNK; i++) vsg_ligand_release(&chunk[i]);
    free(chunk), free(rows);
    vsg_ligand_reader_close(rd);
    if ((fflush(o->csv) != 0 || ferror(o->csv)) && st == VSG_OK) st = vsg_fail(VSG_E_IO, "write error on the CSV output");
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    snprintf(rep->device, sizeof rep->device, "cpu (%d thread%s)", threads, threads == 1 ? "" : "s");
    snprintf(rep->kernel, sizeof rep->kernel, "%s", vsg_vina_target_scoring(t) == VSG_VINA_SCORING_VINARDO ? "vinardo" : "vina");
    snprintf(rep->precision, sizeof rep->precision, "double");
    rep->parse_threads = 1;
    rep->seconds = vsg_now() - t0;
    return st;
}
