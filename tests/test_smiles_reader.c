/* test_smiles_reader.c — SMILES libraries as ligand records (issue 29): bad SMILES become a row
 * with a status and a file:line message, salts are stripped, pH 7.4 charges acids and amines,
 * the 3D geometry is sane, CSV columns, chunked parsing in several threads equals the serial
 * reader, and a build without Open Babel answers "unsupported" for every record. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "ligands/ligand.h"
#include "ligands/prepare/prepare_workers.h"
#include "ligands/readers/ligand_reader.h"
#include "tests/check.h"

static int net_formal(const vsg_ligand *l)
{
    int q = 0;
    for (int i = 0; i < l->natoms; i++) q += l->atoms[i].formal;
    return q;
}

static int count_el(const vsg_ligand *l, const char *el)
{
    int n = 0;
    for (int i = 0; i < l->natoms; i++) n += !strcmp(l->atoms[i].element, el);
    return n;
}

/* Every bond within 0.1 A of a typical length for its elements and order (single/double/
 * aromatic/triple), hydrogens included: the builder and the minimisation made a sane molecule. */
static double typical(const char *a, const char *b, int order)
{
    const char *x = strcmp(a, b) < 0 ? a : b, *y = strcmp(a, b) < 0 ? b : a;
    int h = !strcmp(x, "H") || !strcmp(y, "H");
    if (h) return !strcmp(x, "C") || !strcmp(y, "C") ? 1.09 : !strcmp(x, "N") || !strcmp(y, "N") ? 1.02 : 0.97;
    if (!strcmp(x, "C") && !strcmp(y, "C")) return order == 2 ? 1.34 : order == 3 ? 1.20 : order == 4 ? 1.39 : 1.52;
    /* (an aromatic ring's Kekule single bonds are 1.39, a conjugated single bond 1.46-1.49: below) */
    if (!strcmp(x, "C") && !strcmp(y, "O")) return order == 2 ? 1.23 : 1.36;
    if (!strcmp(x, "C") && !strcmp(y, "N")) return order == 2 ? 1.29 : order == 3 ? 1.16 : 1.44;
    return -1;
}

static int max_bond_error(const vsg_ligand *l, double *worst)
{
    int checked = 0;
    *worst = 0;
    for (int e = 0; e < l->nbonds; e++) {
        const vsg_lig_atom *a = &l->atoms[l->bonds[e].a], *b = &l->atoms[l->bonds[e].b];
        double d0 = typical(a->element, b->element, l->bonds[e].order);
        if (d0 < 0) continue;
        /* a C-O / C-N single bond next to a double one (acid, amide) is shorter: 1.25-1.36 */
        double d = sqrt((a->x - b->x) * (a->x - b->x) + (a->y - b->y) * (a->y - b->y) + (a->z - b->z) * (a->z - b->z));
        double err = fabs(d - d0);
        if (!strcmp(a->element, "C") && !strcmp(b->element, "C") && l->bonds[e].order == 1) {
            if (fabs(d - 1.39) < err) err = fabs(d - 1.39); /* aromatic */
            if (fabs(d - 1.48) < err) err = fabs(d - 1.48); /* between sp2 atoms */
        }
        if ((!strcmp(a->element, "O") || !strcmp(b->element, "O") || !strcmp(a->element, "N") || !strcmp(b->element, "N")) &&
            d > 1.22 && d < 1.46)
            err = 0;
        if (err > *worst) *worst = err;
        checked++;
    }
    return checked;
}

static const char LIB[] = "# a comment, then a blank line\n"
                          "\n"
                          "CC(=O)O acetic acid\n"
                          "CC(=O)[O-].[Na+] sodium acetate\n"
                          "CCCN\n"
                          "C1CC( broken\n"
                          "c1ccccc1C(=O)NC benzamide\n"
                          "CC[Si](C)(C)C silane\n"
                          "C[C@@H](N)C(=O)O L-alanine\n"
                          "CC(N)CC open centre\n";

static void test_records(void)
{
    vsg_ligand_reader *r = NULL;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    vsg_ligand_reader_options o = {.format = VSG_LIG_SMILES, .keep_text = 1};
    CHECK_STATUS(vsg_ligand_reader_open_memory(LIB, strlen(LIB), VSG_LIG_SMILES, &o, &r), VSG_OK);
    const char *names[] = {"acetic acid", "sodium acetate", "line 5", "broken", "benzamide", "silane", "L-alanine",
                           "open centre"};
    const long lines[] = {3, 4, 5, 6, 7, 8, 9, 10};
    int k = 0;
    while (vsg_ligand_reader_next(r, &lig)) {
        CHECK(k < 8);
        if (k >= 8) break;
        CHECK(!strcmp(lig.name, names[k]));
        CHECK(lig.line == lines[k]);
        CHECK(lig.record == k + 1);
        if (k == 3) { /* bad SMILES: a row with its status and where it is */
            CHECK(lig.status == VSG_E_FORMAT);
            CHECK(!strcmp(lig.code, VSG_LIG_BAD_SMILES));
            CHECK_CONTAINS(lig.message, "<memory>:6:");
            CHECK_CONTAINS(lig.message, "C1CC(");
        } else if (k == 5) {
            CHECK(!strcmp(lig.code, VSG_LIG_ELEMENT));
            CHECK_CONTAINS(lig.message, "<memory>:8:");
            CHECK_CONTAINS(lig.message, "Si");
        } else {
            CHECK(lig.status == VSG_OK);
            if (lig.status != VSG_OK) fprintf(stderr, "record %d: %s\n", k + 1, lig.message);
            CHECK(lig.format == VSG_LIG_SDF); /* prepared: an SDF record */
            CHECK(lig.has_charges);
            CHECK(lig.text && strstr(lig.text, "atom.dprop.PartialCharge") && strstr(lig.text, "$$$$"));
            double worst;
            CHECK(max_bond_error(&lig, &worst) > 0);
            CHECK(worst < 0.1);
            if (worst >= 0.1) fprintf(stderr, "record %d: a bond %.3f A from typical\n", k + 1, worst);
            double z = 0; /* 3D: not flat */
            for (int i = 0; i < lig.natoms; i++) z += fabs(lig.atoms[i].z - lig.atoms[0].z);
            CHECK(lig.natoms < 4 || z > 0.1);
        }
        if (k == 0 || k == 1) { /* acetate at pH 7.4, the salt's sodium gone */
            CHECK(net_formal(&lig) == -1);
            CHECK(count_el(&lig, "Na") == 0);
            CHECK(count_el(&lig, "H") == 3);
            CHECK(lig.natoms == 7);
        }
        if (k == 1) CHECK_CONTAINS(lig.message, "dropped Na+");
        if (k == 2) { /* propylamine: ammonium */
            CHECK(net_formal(&lig) == 1);
            CHECK(count_el(&lig, "H") == 10);
        }
        if (k == 4) CHECK(net_formal(&lig) == 0); /* an amide stays neutral */
        if (k == 6) CHECK(net_formal(&lig) == 0 && count_el(&lig, "N") == 1); /* zwitterion */
        if (k == 7) CHECK_CONTAINS(lig.message, "1 unassigned stereocentre");
        k++;
    }
    CHECK(k == 8);
    size_t failed;
    CHECK(vsg_ligand_reader_count(r, &failed) == 8 && failed == 2);
    vsg_ligand_reader_close(r);

    /* --ph none keeps the SMILES's states */
    vsg_ligand_reader_options on = {.format = VSG_LIG_SMILES};
    CHECK_STATUS(vsg_smiles_parse_ph("none", &on.smiles), VSG_OK);
    CHECK_STATUS(vsg_ligand_from_smiles("CC(=O)O", "acid", &on, &lig), VSG_OK);
    CHECK(net_formal(&lig) == 0 && count_el(&lig, "H") == 4 && !strcmp(lig.name, "acid"));
    CHECK_STATUS(vsg_ligand_from_smiles("CC(=O)O", NULL, NULL, &lig), VSG_OK);
    CHECK(net_formal(&lig) == -1 && !strcmp(lig.name, "line 1") && !strcmp(lig.source, "<memory>"));
    /* pH 1: the acid stays an acid, the amine is charged */
    CHECK_STATUS(vsg_smiles_parse_ph("1", &on.smiles), VSG_OK);
    CHECK_STATUS(vsg_ligand_from_smiles("NCCC(=O)O", NULL, &on, &lig), VSG_OK);
    CHECK(net_formal(&lig) == 1);
    /* a hydrogen atom in a stereo double bond (DUD-E INHA decoy ZINC43560520) crashed Open
     * Babel 3.1.1's builder */
    CHECK_STATUS(vsg_ligand_from_smiles("[H]/N=C1\\S[C@H]2CCCC2=C1c1nc(-c2ccccc2Br)no1", NULL, NULL, &lig), VSG_OK);
    CHECK_STATUS(vsg_ligand_from_smiles("[H]/C=C/C", NULL, NULL, &lig), VSG_OK);
    CHECK(lig.natoms == 9);
    CHECK(vsg_smiles_parse_ph("15", &on.smiles) == VSG_E_ARG);
    CHECK(vsg_smiles_parse_ph("seven", &on.smiles) == VSG_E_ARG);
    CHECK(vsg_ligand_from_smiles("CC O", NULL, NULL, &lig) == VSG_E_FORMAT);
    CHECK(vsg_ligand_from_smiles(NULL, NULL, NULL, &lig) == VSG_E_ARG);
    /* stereo specified: an open centre fails the record */
    vsg_ligand_reader_options os = {.format = VSG_LIG_SMILES, .smiles = {.stereo = VSG_STEREO_SPECIFIED}};
    CHECK(vsg_ligand_from_smiles("CC(N)CC", NULL, &os, &lig) == VSG_E_DATA);
    CHECK(!strcmp(lig.code, VSG_LIG_STEREO));
    CHECK_STATUS(vsg_ligand_from_smiles("C[C@H](N)CC", NULL, &os, &lig), VSG_OK);
    vsg_ligand_release(&lig);
}

static void test_csv(void)
{
    static const char csv[] = "ID,SMILES,activity\n"
                              "a1,CCO,1\n"
                              "\"b, quoted\",\"c1ccccc1O\",2\n"
                              "c3,,3\n";
    vsg_ligand_reader *r = NULL;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    CHECK_STATUS(vsg_ligand_reader_open_memory(csv, strlen(csv), VSG_LIG_CSV, NULL, &r), VSG_OK);
    CHECK(vsg_ligand_reader_next(r, &lig) && lig.status == VSG_OK && !strcmp(lig.name, "a1") && lig.line == 2);
    CHECK(vsg_ligand_reader_next(r, &lig) && lig.status == VSG_OK && !strcmp(lig.name, "b, quoted"));
    CHECK(count_el(&lig, "O") == 1 && count_el(&lig, "C") == 6);
    CHECK(vsg_ligand_reader_next(r, &lig) && !strcmp(lig.code, VSG_LIG_BAD_SMILES));
    CHECK_CONTAINS(lig.message, "<memory>:4:");
    CHECK(!vsg_ligand_reader_next(r, &lig));
    vsg_ligand_reader_close(r);
    static const char nocol[] = "name,structure\nx,CCO\n";
    CHECK_STATUS(vsg_ligand_reader_open_memory(nocol, strlen(nocol), VSG_LIG_CSV, NULL, &r), VSG_OK);
    CHECK(vsg_ligand_reader_next(r, &lig) && lig.status == VSG_E_FORMAT);
    CHECK_CONTAINS(lig.message, "no column named smiles");
    vsg_ligand_reader_close(r);
    vsg_ligand_release(&lig);
}

/* A file cut into chunks and parsed by two threads at once gives the serial reader's records. */
typedef struct {
    const vsg_lig_chunk *ch;
    int n;
    vsg_ligand recs[32];
} job;

static void *parse_chunk(void *arg)
{
    job *j = arg;
    vsg_ligand_reader *cr = NULL;
    vsg_ligand_reader_options o = {.format = VSG_LIG_AUTO, .keep_text = 1};
    if (vsg_ligand_reader_open_chunk(&o, &cr) != VSG_OK) return NULL;
    vsg_ligand_reader_set_chunk(cr, j->ch);
    while (j->n < 32 && vsg_ligand_reader_next(cr, &j->recs[j->n])) j->n++;
    vsg_ligand_reader_close(cr);
    return NULL;
}

static void test_chunks(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/smiles_chunks.smi", VSG_BINARY_DIR);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(LIB, f);
    fputs("CCOC(=O)c1ccccc1N ethyl anthranilate\nOC1CCCCC1\n", f);
    fclose(f);
    const char *paths[1] = {path};
    vsg_ligand_reader_options o = {.format = VSG_LIG_AUTO, .keep_text = 1};
    /* serial */
    vsg_ligand_reader *r = NULL;
    vsg_ligand serial[16];
    int ns = 0;
    CHECK_STATUS(vsg_ligand_reader_open(paths, 1, &o, &r), VSG_OK);
    CHECK(vsg_ligand_reader_format(r, 0) == VSG_LIG_SMILES);
    for (int i = 0; i < 16; i++) vsg_ligand_init(&serial[i]);
    while (ns < 16 && vsg_ligand_reader_next(r, &serial[ns])) ns++;
    vsg_ligand_reader_close(r);
    CHECK(ns == 10);
    /* chunks of 4 records, two threads */
    CHECK_STATUS(vsg_ligand_reader_open(paths, 1, &o, &r), VSG_OK);
    CHECK(vsg_ligand_reader_splittable(r));
    vsg_lig_chunk ch[4];
    memset(ch, 0, sizeof ch);
    int nc = 0;
    while (nc < 4 && vsg_ligand_reader_next_chunk(r, &ch[nc], 4, 1000) == 1) nc++;
    CHECK(nc == 3);
    long counted = 0;
    for (int c = 0; c < nc; c++) counted += vsg_lig_chunk_count(&ch[c], &o);
    CHECK(counted == 10);
    static job jobs[4];
    pthread_t th[4];
    for (int c = 0; c < nc; c++) {
        jobs[c].ch = &ch[c];
        jobs[c].n = 0;
        for (int i = 0; i < 32; i++) vsg_ligand_init(&jobs[c].recs[i]);
        CHECK(pthread_create(&th[c], NULL, parse_chunk, &jobs[c]) == 0);
    }
    for (int c = 0; c < nc; c++) pthread_join(th[c], NULL);
    int k = 0;
    for (int c = 0; c < nc; c++)
        for (int i = 0; i < jobs[c].n; i++, k++) {
            const vsg_ligand *a = &serial[k < 16 ? k : 15], *b = &jobs[c].recs[i];
            CHECK(k < ns && a->record == b->record && a->line == b->line && !strcmp(a->name, b->name));
            CHECK(!strcmp(a->code, b->code) && !strcmp(a->message, b->message) && a->natoms == b->natoms);
            /* The same molecule in any thread: the same atoms, elements, charges (Gasteiger:
             * from the graph, within 0.02 e) and bonds, each bond's length within 0.1 A. Not the
             * same coordinates to the byte: Open Babel's builder draws bond directions from a
             * clock-seeded generator (docs/FORMATS.md, "SMILES"); vsgrid fixes torsions and
             * orientation, and the conformers of a run agree to a few tenths of an A mostly. */
            int same = a->natoms == b->natoms && a->nbonds == b->nbonds;
            double worst = 0;
            for (int t = 0; same && t < a->natoms; t++)
                same = !strcmp(a->atoms[t].element, b->atoms[t].element) &&
                       fabs(a->atoms[t].charge - b->atoms[t].charge) < 0.02;
            for (int e = 0; same && e < a->nbonds; e++) {
                const vsg_lig_bond *ea = &a->bonds[e], *eb = &b->bonds[e];
                same = ea->a == eb->a && ea->b == eb->b && ea->order == eb->order;
                const vsg_lig_atom *p = &a->atoms[ea->a], *q = &a->atoms[ea->b];
                const vsg_lig_atom *r2 = &b->atoms[ea->a], *u = &b->atoms[ea->b];
                double da = hypot(hypot(p->x - q->x, p->y - q->y), p->z - q->z);
                double db = hypot(hypot(r2->x - u->x, r2->y - u->y), r2->z - u->z);
                if (fabs(da - db) > worst) worst = fabs(da - db);
            }
            CHECK(same);
            CHECK(worst < 0.1);
            if (worst >= 0.1) fprintf(stderr, "record %ld: a bond differs by %.3f A between runs\n", a->record, worst);
        }
    CHECK(k == ns);
    for (int c = 0; c < nc; c++) {
        for (int i = 0; i < 32; i++) vsg_ligand_release(&jobs[c].recs[i]);
        vsg_lig_chunk_free(&ch[c]);
    }
    for (int i = 0; i < 16; i++) vsg_ligand_release(&serial[i]);
    vsg_ligand_reader_close(r);
    /* the index (counts without preparing) agrees */
    size_t records = 0;
    CHECK_STATUS(vsg_library_count(paths, 1, &o, NULL, &records), VSG_OK);
    CHECK(records == 10);
}

/* Deferred preparation (the flexible screen's): records come out pending, with name, record and
 * line, and vsg_ligand_prepare_pending makes each what the reader would have made of it, in this
 * process (w NULL) or in worker processes (two, taking turns). */
static void test_deferred(vsg_prep_workers *w)
{
    vsg_ligand_reader *r = NULL, *d = NULL;
    vsg_ligand a, b;
    vsg_ligand_init(&a);
    vsg_ligand_init(&b);
    vsg_ligand_reader_options o = {.format = VSG_LIG_SMILES, .keep_text = 1};
    CHECK_STATUS(vsg_ligand_reader_open_memory(LIB, strlen(LIB), VSG_LIG_SMILES, &o, &r), VSG_OK);
    CHECK_STATUS(vsg_ligand_reader_open_memory(LIB, strlen(LIB), VSG_LIG_SMILES, &o, &d), VSG_OK);
    vsg_ligand_reader_defer_smiles(d, 1);
    int n = 0;
    while (vsg_ligand_reader_next(r, &a)) {
        CHECK(vsg_ligand_reader_next(d, &b) == 1);
        n++;
        CHECK(vsg_ligand_is_pending(&b));
        CHECK(b.natoms == 0 && b.status == VSG_OK);
        CHECK(!strcmp(a.name, b.name) && a.line == b.line && a.record == b.record && a.index == b.index);
        CHECK(vsg_ligand_prepare_pending(&b, &o, w, n % 2) == a.status);
        CHECK(!vsg_ligand_is_pending(&b));
        CHECK(!strcmp(a.code, b.code));
        CHECK(!strcmp(a.message, b.message)); /* failures name the same file:line */
        if (strcmp(a.message, b.message)) fprintf(stderr, "deferred: '%s' vs '%s'\n", a.message, b.message);
        CHECK(a.natoms == b.natoms && a.nbonds == b.nbonds && a.has_charges == b.has_charges);
        CHECK(a.format == b.format);
        CHECK((a.text && strstr(a.text, "$$$$")) == (b.text && strstr(b.text, "$$$$")));
        CHECK(vsg_ligand_prepare_pending(&b, &o, w, 0) == b.status); /* a prepared record is left alone */
    }
    CHECK(n == 8);
    CHECK(vsg_ligand_reader_next(d, &b) == 0);
    vsg_ligand_release(&a);
    vsg_ligand_release(&b);
    vsg_ligand_reader_close(r);
    vsg_ligand_reader_close(d);
}

/* conformers > 1 (RDKit): ring conformers kept in vsg_ligand.conformers, the same atoms, other
 * coordinates with the same bond lengths; none for a molecule without a non-aromatic ring; the
 * first conformer is the one conformers = 1 gives; vsg_ligand_copy copies them. */
static void test_conformers(void)
{
    vsg_ligand one, four, copy;
    vsg_ligand_init(&one), vsg_ligand_init(&four), vsg_ligand_init(&copy);
    vsg_ligand_reader_options o = {.format = VSG_LIG_SMILES};
    CHECK(vsg_smiles_parse_conformers("0", &o.smiles) == VSG_E_ARG);
    CHECK(vsg_smiles_parse_conformers("2.5", &o.smiles) == VSG_E_ARG);
    CHECK(vsg_smiles_parse_conformers("21", &o.smiles) == VSG_E_ARG);
    CHECK_STATUS(vsg_smiles_parse_conformers("4", &o.smiles), VSG_OK);
    CHECK(o.smiles.conformers == 4);
    const char *cyc = "OC1CCC(CC1)NC(=O)c1ccccc1";
    CHECK_STATUS(vsg_ligand_from_smiles(cyc, "cyc", NULL, &one), VSG_OK);
    CHECK_STATUS(vsg_ligand_from_smiles(cyc, "cyc", &o, &four), VSG_OK);
    CHECK(one.nconformers == 0 && !one.conformers);
    CHECK(four.nconformers >= 1 && four.nconformers <= 3 && four.conformers && four.natoms == one.natoms);
    double moved = 0, bond = 0;
    for (int i = 0; i < one.natoms; i++) { /* the first conformer is conformers = 1's */
        CHECK(fabs(one.atoms[i].x - four.atoms[i].x) < 1e-9 && fabs(one.atoms[i].z - four.atoms[i].z) < 1e-9);
        CHECK(!strcmp(one.atoms[i].element, four.atoms[i].element));
    }
    for (int k = 0; k < four.nconformers; k++) {
        const double *x = four.conformers + 3 * (size_t)four.natoms * (size_t)k;
        for (int b = 0; b < four.nbonds; b++) { /* rigid bonds: lengths within 0.05 A of the first's */
            const int i = four.bonds[b].a, j = four.bonds[b].b;
            const vsg_lig_atom *p = &four.atoms[i], *q = &four.atoms[j];
            const double d0 = sqrt(pow(p->x - q->x, 2) + pow(p->y - q->y, 2) + pow(p->z - q->z, 2));
            const double d1 = sqrt(pow(x[3 * i] - x[3 * j], 2) + pow(x[3 * i + 1] - x[3 * j + 1], 2) +
                                   pow(x[3 * i + 2] - x[3 * j + 2], 2));
            if (fabs(d1 - d0) > bond) bond = fabs(d1 - d0);
        }
        /* internal distances differ somewhere (not a rotated copy): O1 to the amide N */
        const int a = 0, b = 7;
        const double d0 = sqrt(pow(four.atoms[a].x - four.atoms[b].x, 2) + pow(four.atoms[a].y - four.atoms[b].y, 2) +
                               pow(four.atoms[a].z - four.atoms[b].z, 2));
        const double d1 = sqrt(pow(x[3 * a] - x[3 * b], 2) + pow(x[3 * a + 1] - x[3 * b + 1], 2) +
                               pow(x[3 * a + 2] - x[3 * b + 2], 2));
        if (fabs(d1 - d0) > moved) moved = fabs(d1 - d0);
    }
    CHECK(bond < 0.05);
    CHECK(moved > 0.1);
    CHECK_STATUS(vsg_ligand_copy(&copy, &four), VSG_OK);
    CHECK(copy.nconformers == four.nconformers && copy.conformers != four.conformers &&
          !memcmp(copy.conformers, four.conformers, sizeof(double) * 3 * (size_t)four.natoms * (size_t)four.nconformers));
    CHECK_STATUS(vsg_ligand_from_smiles("Oc1ccccc1", NULL, &o, &four), VSG_OK); /* no ring to vary: none */
    CHECK(four.nconformers == 0 && !four.conformers);
    /* --stereo enumerate: an open centre and an open double bond, 4 isomers (one conformer each,
       no ring); a fully specified molecule, one; the note says so */
    vsg_ligand_reader_options e = {.format = VSG_LIG_SMILES};
    CHECK(vsg_smiles_parse_stereo("both", &e.smiles) == VSG_E_ARG);
    CHECK_STATUS(vsg_smiles_parse_stereo("enumerate", &e.smiles), VSG_OK);
    CHECK(e.smiles.stereo == VSG_STEREO_ENUMERATE);
    CHECK_STATUS(vsg_ligand_from_smiles("CC=CC(N)CC", NULL, &e, &four), VSG_OK);
    CHECK(four.nconformers == 3);
    CHECK_CONTAINS(four.message, "2 unassigned stereocentres: 4 stereoisomers (--stereo enumerate)");
    CHECK_STATUS(vsg_ligand_from_smiles("CC(N)C(O)C(F)C(Cl)CC", NULL, &e, &four), VSG_OK); /* 4 open: 8 of 16 */
    CHECK(four.nconformers == 7);
    CHECK_CONTAINS(four.message, "8 stereoisomers, the combinations of the first 3 of 4 open centres");
    CHECK_STATUS(vsg_ligand_from_smiles("C[C@@H](O)[C@H](N)C", NULL, &e, &four), VSG_OK);
    CHECK(four.nconformers == 0);
    vsg_ligand_release(&one), vsg_ligand_release(&four), vsg_ligand_release(&copy);
}

int main(void)
{
    if (!vsg_smiles_available()) {
        /* no Open Babel: every SMILES record is a row saying so */
        vsg_ligand lig;
        vsg_ligand_init(&lig);
        CHECK(vsg_ligand_from_smiles("CCO", NULL, NULL, &lig) == VSG_E_UNSUPPORTED);
        CHECK(!strcmp(lig.code, VSG_LIG_UNSUPPORTED));
        CHECK_CONTAINS(lig.message, "<memory>:1:");
        vsg_ligand_release(&lig);
        if (check_failures) return 1;
        printf("skipped: built without Open Babel (the unsupported rows checked)\n");
        return 77;
    }
    test_records();
    test_csv();
    test_chunks();
    test_deferred(NULL);
    if (vsg_smiles_rdkit_available()) test_conformers();
    else printf("conformers: skipped (built without RDKit)\n");
    vsg_prep_workers *w = vsg_prep_workers_start(2); /* the same records from worker processes */
    CHECK(w && vsg_prep_workers_count(w) == 2);
    test_deferred(w);
    vsg_prep_workers_stop(w);
    if (check_failures) {
        printf("%d failure(s)\n", check_failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
