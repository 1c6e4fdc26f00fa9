/* prepare_ligands.c — vsg_prepare_ligands (vsgrid.h), behind `vsgrid prepare-ligands`: every
 * record of a library written as the 3D SDF record a screen would dock, or as the PDBQT ligand
 * (torsion tree, AutoDock types) vina docks (prepared_pdbqt.c), one output record per input
 * record, in input order.
 *
 * Records are parsed (SMILES: prepared) in parallel: the reader cuts the input into chunks of
 * whole records (ligands/readers/ligand_reader.h), a batch of chunks is prepared by OpenMP
 * threads, each with its own chunk reader (and its own preparing process for SMILES,
 * ligands/prepare/prepare_workers.h), and the batch is written in input order; memory is
 * bounded by one batch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "engine/screen/screen.h" /* vsg_sdf_write_record */
#include "grids/base/vsgrid.h"
#include "ligands/ligand.h"
#include "ligands/prepare/prepare_workers.h"
#include "ligands/readers/ligand_reader.h"

#define CHUNK_RECORDS 16 /* records a chunk: small, so that threads share a short library */

typedef struct {
    vsg_lig_chunk ch;
    vsg_ligand *recs;
    char **pdbqt;     /* PDBQT output: each ok record's block, made by its thread (NULL: failed) */
    size_t *pdbqt_len;
    int n, cap;
    int nomem;        /* its thread ran out of memory */
} batch_chunk;

/* Room for cap records in c (recs initialised, pdbqt NULL); 0 out of memory. */
static int grow(batch_chunk *c, int cap)
{
    vsg_ligand *t = realloc(c->recs, (size_t)cap * sizeof *t);
    if (!t) return 0;
    for (int k = c->cap; k < cap; k++) vsg_ligand_init(&t[k]);
    c->recs = t;
    char **p = realloc(c->pdbqt, (size_t)cap * sizeof *p);
    if (p) c->pdbqt = p;
    size_t *l = p ? realloc(c->pdbqt_len, (size_t)cap * sizeof *l) : NULL;
    if (l) c->pdbqt_len = l;
    if (!p || !l) return 0; /* recs grown, cap not: the records past cap were only initialised (nothing to free) */
    for (int k = c->cap; k < cap; k++) c->pdbqt[k] = NULL, c->pdbqt_len[k] = 0;
    c->cap = cap;
    return 1;
}

static void write_failed(FILE *f, const vsg_ligand *lig)
{
    fprintf(f, "%s\n  vsgrid\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n", lig->name);
    fprintf(f, "> <vsgrid_status>\n%s\n\n> <vsgrid_message>\n%s\n\n$$$$\n", lig->code, lig->message);
}

/* Charges for a record without any (not a SMILES record: those have theirs). */
static void charge(vsg_ligand *lig)
{
    if (lig->status != VSG_OK || lig->has_charges) return;
    if (vsg_ligand_gasteiger(lig) != VSG_OK)
        vsg_ligand_fail(lig, VSG_E_DATA, VSG_LIG_NO_CHARGES, "%s:%ld: record %ld: no Gasteiger charges: %s",
                        lig->source, lig->line, lig->record, vsg_last_error());
    else
        lig->has_charges = 1;
}

/* The ligand part of the record's PDBQT block, made by its thread after charge (none for a failed record). */
static vsg_status to_pdbqt(batch_chunk *c, int k)
{
    free(c->pdbqt[k]);
    c->pdbqt[k] = NULL;
    return vsg_prepared_pdbqt(&c->recs[k], &c->pdbqt[k], &c->pdbqt_len[k]);
}

/* Record k of c made ready to write, by the thread that read it: a SMILES record prepared (in
 * that thread's worker), charges, the PDBQT block. VSG_E_NOMEM only: a record's own failure is
 * its status. */
static vsg_status make_ready(batch_chunk *c, int k, const vsg_ligand_reader_options *ro, vsg_prep_workers *workers,
                             int slot, vsg_ligand_format out)
{
    vsg_ligand_prepare_pending(&c->recs[k], ro, workers, slot);
    charge(&c->recs[k]);
    return out == VSG_LIG_PDBQT ? to_pdbqt(c, k) : VSG_OK;
}

/* Further conformer k (from 0) of a prepared SMILES record: its text with the atom block's
 * coordinates (columns 1-30 of the 4 + natoms first lines) replaced, and a vsgrid_conformer item
 * (k + 2) before its $$$$. */
static void write_conformer(FILE *f, const vsg_ligand *lig, int k)
{
    const double *x = lig->conformers + 3 * (size_t)lig->natoms * (size_t)k;
    const char *s = lig->text, *end = lig->text + lig->text_len;
    for (int line = 0; s < end; line++) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const size_t n = nl ? (size_t)(nl - s) + 1 : (size_t)(end - s);
        const int atom = line - 4;
        if (atom >= 0 && atom < lig->natoms && n > 30) {
            fprintf(f, "%10.4f%10.4f%10.4f", x[3 * atom], x[3 * atom + 1], x[3 * atom + 2]);
            fwrite(s + 30, 1, n - 30, f);
        } else if (n >= 4 && !memcmp(s, "$$$$", 4)) {
            fprintf(f, "> <vsgrid_conformer>\n%d\n\n", k + 2);
            fwrite(s, 1, n, f);
        } else {
            fwrite(s, 1, n, f);
        }
        s += n;
    }
}

static int write_record(FILE *f, vsg_ligand *lig, size_t index, vsg_ligand_format out, const char *block, size_t len)
{
    if (out == VSG_LIG_PDBQT) {
        vsg_prepared_pdbqt_write(f, lig, index, block, len);
        return lig->status == VSG_OK && block;
    }
    if (lig->status != VSG_OK) {
        write_failed(f, lig);
        return 0;
    }
    if (lig->text && lig->text_len && strstr(lig->text, "atom.dprop.PartialCharge")) { /* a SMILES record */
        fwrite(lig->text, 1, lig->text_len, f);
        for (int k = 0; k < lig->nconformers && lig->conformers; k++) write_conformer(f, lig, k);
        return 1;
    }
    vsg_sdf_tag tag = {"prepared", "1"};
    return vsg_sdf_write_record(f, lig, &tag, 1) == VSG_OK;
}

vsg_status vsg_prepare_ligands(const char *const *inputs, int ninputs, const vsg_ligand_reader_options *opt,
                               vsg_ligand_format out, int threads, FILE *f, FILE *log, vsg_prepare_ligands_report *rep)
{
    vsg_ligand_reader_options ro = opt ? *opt : (vsg_ligand_reader_options){.format = VSG_LIG_AUTO};
    vsg_prepare_ligands_report dummy;
    if (!rep) rep = &dummy;
    memset(rep, 0, sizeof *rep);
    if (!inputs || ninputs < 1 || !f) return vsg_fail(VSG_E_ARG, "vsg_prepare_ligands: no input or output");
    if (out != VSG_LIG_SDF && out != VSG_LIG_PDBQT)
        return vsg_fail(VSG_E_ARG, "vsg_prepare_ligands: output format %s: only sdf or pdbqt", vsg_ligand_format_name(out));
    ro.keep_text = 1;
    vsg_ligand_reader *rd = NULL;
    vsg_status st = vsg_ligand_reader_open(inputs, ninputs, &ro, &rd);
    if (st != VSG_OK) return st;
    for (int i = 0; i < ninputs; i++) {
        vsg_ligand_format fmt = vsg_ligand_reader_format(rd, i);
        if ((fmt == VSG_LIG_SMILES || fmt == VSG_LIG_CSV) && !vsg_smiles_available()) {
            vsg_ligand_reader_close(rd);
            return vsg_fail(VSG_E_UNSUPPORTED, "%s: SMILES input needs Open Babel, absent from this build", inputs[i]);
        }
    }
#ifdef _OPENMP
    if (threads > 0) omp_set_num_threads(threads);
    const int nt = omp_get_max_threads();
#else
    (void)threads;
    const int nt = 1;
#endif
    /* Open Babel prepares one molecule at a time in a process: worker processes, one a thread */
    vsg_prep_workers *workers = vsg_prep_workers_for(rd, ninputs, nt);
    vsg_ligand_reader_defer_smiles(rd, 1);
    const int nbatch = 4 * nt; /* chunks a batch: enough for the threads to share unequal chunks */
    batch_chunk *b = calloc((size_t)nbatch, sizeof *b);
    st = b ? VSG_OK : vsg_fail(VSG_E_NOMEM, "out of memory for the preparation's batch");
    const double t0 = vsg_now();
    const int split = vsg_ligand_reader_splittable(rd);
    while (st == VSG_OK) {
        int nc = 0;
        if (split) {
            while (nc < nbatch) {
                int got = vsg_ligand_reader_next_chunk(rd, &b[nc].ch, CHUNK_RECORDS, 1u << 20);
                if (got < 0) st = vsg_fail(VSG_E_NOMEM, "out of memory for a chunk of records");
                if (got <= 0) break;
                nc++;
            }
            if (nc == 0) break;
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt)
            for (int c = 0; c < nc; c++) {
                vsg_ligand_reader *cr = NULL;
#ifdef _OPENMP
                const int slot = omp_get_thread_num();
#else
                const int slot = 0;
#endif
                b[c].n = 0;
                b[c].nomem = 0;
                if (vsg_ligand_reader_open_chunk(&ro, &cr) != VSG_OK) continue;
                vsg_ligand_reader_set_chunk(cr, &b[c].ch);
                vsg_ligand_reader_defer_smiles(cr, 1);
                for (;;) {
                    if (b[c].n == b[c].cap && !grow(&b[c], b[c].cap ? 2 * b[c].cap : CHUNK_RECORDS)) {
                        b[c].nomem = 1;
                        break;
                    }
                    if (!vsg_ligand_reader_next(cr, &b[c].recs[b[c].n])) break;
                    if (make_ready(&b[c], b[c].n, &ro, workers, slot, out) == VSG_E_NOMEM) b[c].nomem = 1;
                    b[c].n++;
                }
                vsg_ligand_reader_close(cr);
            }
            for (int c = 0; c < nc; c++)
                if (b[c].nomem) st = vsg_fail(VSG_E_NOMEM, "out of memory for a batch of prepared records");
        } else { /* standard input of a CSV: one thread */
            if (!b[0].cap && !grow(&b[0], 1)) {
                st = vsg_fail(VSG_E_NOMEM, "out of memory for a record");
                break;
            }
            b[0].n = vsg_ligand_reader_next(rd, &b[0].recs[0]);
            if (!b[0].n) break;
            if ((st = make_ready(&b[0], 0, &ro, workers, 0, out)) != VSG_OK) break;
            nc = 1;
        }
        if (st != VSG_OK) break; /* a batch short of memory is not written: the output would lack records */
        for (int c = 0; c < nc; c++)
            for (int k = 0; k < b[c].n; k++) {
                vsg_ligand *lig = &b[c].recs[k];
                const size_t index = rep->records++; /* over all inputs (a chunk's records count from 0) */
                if (lig->status != VSG_OK) {
                    rep->failed++;
                    if (log) fprintf(log, "%s: %s\n", lig->code, lig->message);
                    if (!strcmp(lig->code, VSG_LIG_IO)) rep->unreadable++;
                }
                const int ok = write_record(f, lig, index, out, b[c].pdbqt ? b[c].pdbqt[k] : NULL,
                                            b[c].pdbqt_len ? b[c].pdbqt_len[k] : 0);
                rep->written += (size_t)ok;
                if (ok && out == VSG_LIG_SDF && lig->conformers) rep->conformers += (size_t)lig->nconformers;
            }
    }
    rep->seconds = vsg_now() - t0;
    rep->threads = nt;
    if (st == VSG_OK && ferror(f)) st = vsg_fail(VSG_E_IO, "write error on the prepared library");
    for (int c = 0; b && c < nbatch; c++) {
        for (int k = 0; k < b[c].cap; k++) {
            vsg_ligand_release(&b[c].recs[k]);
            free(b[c].pdbqt[k]);
        }
        free(b[c].recs);
        free(b[c].pdbqt);
        free(b[c].pdbqt_len);
        vsg_lig_chunk_free(&b[c].ch);
    }
    free(b);
    vsg_ligand_reader_close(rd);
    vsg_prep_workers_stop(workers);
    return st;
}
