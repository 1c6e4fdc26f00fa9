/* screen_output.c — what the screening pipeline writes: CSV rows, SDF data items, the counts
 * by status, and the best-N set behind --top. */
#define _POSIX_C_SOURCE 200809L /* getline, truncate */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "engine/screen/screen_internal.h"
#include <unistd.h>

/* ---- writer -------------------------------------------------------------------------------------- */

static int worse(const top_entry *a, const top_entry *b)
{
    return a->score > b->score || (a->score == b->score && a->index > b->index);
}

static void heap_sift_down(top_heap *h, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && worse(&h->e[l], &h->e[m])) m = l;
        if (r < h->n && worse(&h->e[r], &h->e[m])) m = r;
        if (m == i) return;
        top_entry t = h->e[i];
        h->e[i] = h->e[m];
        h->e[m] = t;
        i = m;
    }
}

static void heap_sift_up(top_heap *h, size_t i)
{
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!worse(&h->e[i], &h->e[parent])) return;
        top_entry t = h->e[i];
        h->e[i] = h->e[parent];
        h->e[parent] = t;
        i = parent;
    }
}

/* Offers a scored molecule to the best-N set. */
void vsg_top_offer(top_heap *h, const vsg_ligand *lig, const vsg_score_result *res, const vsg_place_pose *pp,
                       size_t index, int by_name)
{
    top_entry cand;
    cand.score = res->total;
    cand.index = index;
    if (h->n == h->cap && !worse(&h->e[0], &cand)) return;
    if (by_name) /* --best-per-molecule: a name already kept keeps its best record only */
        for (size_t i = 0; i < h->n; i++) {
            if (strcmp(h->e[i].lig.name, lig->name) != 0) continue;
            if (!worse(&h->e[i], &cand)) return;
            if (vsg_ligand_copy(&h->e[i].lig, lig) != VSG_OK) return;
            h->e[i].score = cand.score;
            h->e[i].index = index;
            h->e[i].res = *res;
            h->e[i].posed = pp != NULL;
            if (pp) h->e[i].pose = *pp;
            heap_sift_down(h, i); /* better: no longer above its children */
            return;
        }
    if (h->n == h->cap) {
        if (vsg_ligand_copy(&h->e[0].lig, lig) != VSG_OK) return;
        h->e[0].score = cand.score;
        h->e[0].index = index;
        h->e[0].res = *res;
        h->e[0].posed = pp != NULL;
        if (pp) h->e[0].pose = *pp;
        heap_sift_down(h, 0);
        return;
    }
    top_entry *e = &h->e[h->n];
    vsg_ligand_init(&e->lig);
    if (vsg_ligand_copy(&e->lig, lig) != VSG_OK) {
        vsg_ligand_release(&e->lig);
        return;
    }
    e->score = cand.score;
    e->index = index;
    e->res = *res;
    e->posed = pp != NULL;
    if (pp) e->pose = *pp;
    h->n++;
    heap_sift_up(h, h->n - 1);
}

static int by_score(const void *a, const void *b)
{
    const top_entry *x = a, *y = b;
    return worse(x, y) ? 1 : worse(y, x) ? -1 : 0;
}

int vsg_screen_score_tags(vsg_sdf_tag *t, const vsg_score_grids *g, const vsg_score_result *r, long rank)
{
    int n = 0;
    t[n].name = "score_kcal_mol";
    snprintf(t[n++].value, sizeof t[0].value, "%.4f", r->total);
    if (g->kind == VSG_SCORE_AD4) {
        t[n].name = "vdw_hb_kcal_mol";
        snprintf(t[n++].value, sizeof t[0].value, "%.4f", r->vdw_hb);
        t[n].name = "elec_kcal_mol";
        snprintf(t[n++].value, sizeof t[0].value, "%.4f", r->elec);
        t[n].name = "desolv_kcal_mol";
        snprintf(t[n++].value, sizeof t[0].value, "%.4f", r->desolv);
    }
    t[n].name = "atoms_outside";
    snprintf(t[n++].value, sizeof t[0].value, "%d", r->outside);
    if (rank > 0) {
        t[n].name = "rank";
        snprintf(t[n++].value, sizeof t[0].value, "%ld", rank);
    }
    return n;
}

/* The pose's tags (rigid placement): index, rotation quaternion, translation (x' = R·x + T). */
int vsg_screen_pose_tags(vsg_sdf_tag *t, const vsg_place_pose *pp, long pose_rank)
{
    int n = 0;
    t[n].name = "pose_index";
    snprintf(t[n++].value, sizeof t[0].value, "%llu", (unsigned long long)pp->pose);
    t[n].name = "pose_quaternion_wxyz";
    snprintf(t[n++].value, sizeof t[0].value, "%.6f %.6f %.6f %.6f", pp->q.w, pp->q.x, pp->q.y, pp->q.z);
    t[n].name = "pose_translation";
    snprintf(t[n++].value, sizeof t[0].value, "%.4f %.4f %.4f", pp->translation[0], pp->translation[1],
             pp->translation[2]);
    if (pose_rank > 0) {
        t[n].name = "pose_rank";
        snprintf(t[n++].value, sizeof t[0].value, "%ld", pose_rank);
    }
    return n;
}

/* Rigid placement adds, after the score terms: pose_index (rotation × sites + site), the
 * rotation as a unit quaternion pose_qw..pose_qz and the translation pose_tx..pose_tz of the
 * rigid motion x' = R·x + T that takes the input coordinates to the best pose. */
void vsg_screen_csv_header(FILE *f, const vsg_score_grids *g, int rigid)
{
    fputs("index,name,source,record,atoms,score_kcal_mol,", f);
    if (g->kind == VSG_SCORE_AD4) fputs("vdw_hb_kcal_mol,elec_kcal_mol,desolv_kcal_mol,", f);
    else fputs("elec_kcal_mol,", f);
    if (rigid) fputs("pose_index,pose_qw,pose_qx,pose_qy,pose_qz,pose_tx,pose_ty,pose_tz,", f);
    fputs(g->kind == VSG_SCORE_AD4 ? "atoms_outside,status,message,ad4_intra\n" : "atoms_outside,status,message\n", f);
}

void vsg_screen_csv_row(FILE *f, const vsg_score_grids *g, int rigid, const row *r, const vsg_score_result *res,
                          const vsg_place_pose *pp)
{
    fprintf(f, "%zu,", r->index);
    vsg_csv_field(f, r->name);
    fputc(',', f);
    vsg_csv_field(f, r->source);
    fprintf(f, ",%ld,%d,", r->record, r->natoms);
    if (res) {
        fprintf(f, "%.4f,", res->total);
        if (g->kind == VSG_SCORE_AD4) fprintf(f, "%.4f,%.4f,%.4f,", res->vdw_hb, res->elec, res->desolv);
        else fprintf(f, "%.4f,", res->elec);
        if (rigid && pp)
            fprintf(f, "%llu,%.6f,%.6f,%.6f,%.6f,%.4f,%.4f,%.4f,", (unsigned long long)pp->pose, pp->q.w, pp->q.x,
                    pp->q.y, pp->q.z, pp->translation[0], pp->translation[1], pp->translation[2]);
        else if (rigid)
            fputs(",,,,,,,,", f);
        fprintf(f, "%d,", res->outside);
        if (res->outside > 0) {
            char msg[160];
            snprintf(msg, sizeof msg, "%d of %d atoms outside the grid (%s)", res->outside, r->natoms,
                     g->kind == VSG_SCORE_AD4 ? "scored by AutoDock's rule" : "they contribute 0");
            fputs(VSG_LIG_OUTSIDE ",", f);
            vsg_csv_field(f, msg);
        } else {
            fputs("ok,", f);
        }
    } else {
        fputs(g->kind == VSG_SCORE_AD4 ? ",,,,," : ",,,", f);
        if (rigid) fputs(",,,,,,,,", f);
        vsg_csv_field(f, r->code);
        fputc(',', f);
        vsg_csv_field(f, r->message);
    }
    /* last, so that the columns before it keep their numbers: autodock4's internal energy */
    if (g->kind == VSG_SCORE_AD4) {
        if (r->has_ad4_intra) fprintf(f, ",%.4f", r->ad4_intra);
        else fputc(',', f);
    }
    fputc('\n', f);
}

void vsg_screen_count_code(vsg_screen_report *rep, const char *code)
{
    for (size_t i = 0; i < rep->by_code_n; i++)
        if (!strcmp(rep->by_code[i], code)) {
            rep->by_code_count[i]++;
            return;
        }
    if (rep->by_code_n < 16) {
        snprintf(rep->by_code[rep->by_code_n], sizeof rep->by_code[0], "%s", code);
        rep->by_code_count[rep->by_code_n++] = 1;
    }
}


void vsg_top_sort(top_heap *h)
{
    qsort(h->e, h->n, sizeof *h->e, by_score);
}

/* ---- --resume (vsgrid.h) --------------------------------------------------------------------- */

void vsg_resume_fingerprint(int argc, char **argv, char *buf, size_t len)
{
    size_t n = 0;
    if (len) buf[0] = '\0';
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--resume") || !strcmp(a, "--quiet") || !strcmp(a, "--progress")) continue;
        if (!strncmp(a, "--json=", 7) || !strncmp(a, "--parse-threads=", 16)) continue;
        if (!strcmp(a, "--json") || !strcmp(a, "--parse-threads")) {
            i++;
            continue;
        }
        int w = snprintf(buf + n, len - n, "%s\n", a);
        if (w < 0 || (size_t)w >= len - n) break;
        n += (size_t)w;
    }
}

static void sidecar_path(const char *csv, char *buf, size_t len) { snprintf(buf, len, "%s.resume", csv); }

vsg_status vsg_resume_sidecar_write(const char *csv, const char *fingerprint)
{
    char path[4200];
    sidecar_path(csv, path, sizeof path);
    FILE *f = fopen(path, "w");
    if (!f) return vsg_fail(VSG_E_IO, "cannot write %s: %s", path, strerror(errno));
    fprintf(f, "vsgrid-resume 1\n%s", fingerprint);
    if (fclose(f) != 0) return vsg_fail(VSG_E_IO, "cannot write %s", path);
    return VSG_OK;
}

/* One CSV row (RFC 4180: a quoted field may hold line breaks) into *line; returns its length,
 * 0 at the end; *complete: it ends with its newline. */
static size_t csv_row_read(FILE *f, char **line, size_t *cap, int *complete)
{
    size_t n = 0;
    int quotes = 0;
    char *part = NULL;
    size_t pcap = 0;
    ssize_t got;
    *complete = 0;
    while ((got = getline(&part, &pcap, f)) > 0) {
        if (n + (size_t)got + 1 > *cap) {
            size_t nc = (n + (size_t)got + 1) * 2;
            char *t = realloc(*line, nc);
            if (!t) break;
            *line = t, *cap = nc;
        }
        memcpy(*line + n, part, (size_t)got + 1);
        n += (size_t)got;
        for (ssize_t i = 0; i < got; i++) quotes ^= part[i] == '"';
        if (part[got - 1] != '\n') break; /* the end of the file, inside a line */
        if (!quotes) {
            *complete = 1;
            break;
        }
    }
    free(part);
    return n;
}

typedef struct {
    size_t *v;
    size_t n, cap;
} size_list;

static int list_push(size_list *l, size_t x)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 1024;
        size_t *t = realloc(l->v, sizeof *t * nc);
        if (!t) return 0;
        l->v = t, l->cap = nc;
    }
    l->v[l->n++] = x;
    return 1;
}

/* The file offsets after each complete record (or group of pose records) of an SDF file. */
static vsg_status sdf_groups(const char *path, int grouped, size_list *ends)
{
    FILE *f = fopen(path, "rb");
    if (!f) return errno == ENOENT ? VSG_OK : vsg_fail(VSG_E_IO, "cannot read %s: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0, off = 0, pending = 0;
    int have_pending = 0, in_record = 0, rank_next = 0;
    long rank = 0;
    ssize_t got;
    vsg_status st = VSG_OK;
    while ((got = getline(&line, &cap, f)) > 0) {
        off += (size_t)got;
        if (line[got - 1] != '\n') break;
        if (!in_record) in_record = 1, rank = 0;
        if (rank_next) {
            rank = strtol(line, NULL, 10);
            rank_next = 0;
        } else if (!strncmp(line, "> <vsgrid_pose_rank>", 20) || /* rigid placement; flexible: */
                   (!strncmp(line, "> <vsgrid_pose>", 15) && (line[15] == '\n' || line[15] == '\r'))) {
            rank_next = 1;
        } else if (!strncmp(line, "$$$$", 4) && (line[4] == '\n' || line[4] == '\r')) {
            in_record = 0;
            if (!grouped) {
                if (!list_push(ends, off)) st = vsg_fail(VSG_E_NOMEM, "out of memory");
            } else {
                if (rank <= 1 && have_pending && !list_push(ends, pending)) st = vsg_fail(VSG_E_NOMEM, "out of memory");
                pending = off, have_pending = 1; /* the last group may be cut: done again */
            }
            if (st != VSG_OK) break;
        }
    }
    free(line);
    fclose(f);
    return st;
}

static vsg_status cut_file(const char *path, size_t len)
{
    if (truncate(path, (off_t)len) != 0 && errno != ENOENT)
        return vsg_fail(VSG_E_IO, "cannot cut %s: %s", path, strerror(errno));
    return VSG_OK;
}

vsg_status vsg_resume_prepare(const vsg_resume_spec *s, size_t *kept)
{
    *kept = 0;
    char path[4200];
    sidecar_path(s->csv, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f)
        return vsg_fail(VSG_E_FORMAT, "%s: no %s beside it (written by every screen): it was not written by a vsgrid "
                                      "screen that can be resumed; run without --resume",
                        s->csv, path);
    char want[65536], have[65536];
    snprintf(want, sizeof want, "vsgrid-resume 1\n%s", s->fingerprint);
    size_t hn = fread(have, 1, sizeof have - 1, f);
    have[hn] = '\0';
    fclose(f);
    if (strcmp(want, have) != 0)
        return vsg_fail(VSG_E_DATA, "%s was written by a screen with other options or libraries (%s records them): "
                                    "resume with the same command line, or run without --resume",
                        s->csv, path);
    f = fopen(s->csv, "rb");
    if (!f) return vsg_fail(VSG_E_FORMAT, "cannot read %s: %s", s->csv, strerror(errno));
    vsg_ligand_reader *rd = NULL;
    vsg_status st = vsg_ligand_reader_open(s->inputs, s->ninputs, &s->ro, &rd);
    if (st == VSG_OK && s->ranges) st = vsg_ligand_reader_select(rd, s->ranges, s->nranges, s->index);
    if (st != VSG_OK) {
        vsg_ligand_reader_close(rd);
        fclose(f);
        return st;
    }
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    size_list rows = {NULL, 0, 0}, emit = {NULL, 0, 0}, sdf_ends = {NULL, 0, 0}, pose_ends = {NULL, 0, 0};
    char *line = NULL, fld[5][256];
    size_t cap = 0, off = 0, header_end = 0;
    int complete = 0, status_col = -1;
    size_t n = csv_row_read(f, &line, &cap, &complete);
    if (!complete) {
        st = vsg_fail(VSG_E_FORMAT, "%s has no complete header line: nothing to resume (run without --resume)", s->csv);
    } else {
        header_end = off = n;
        for (int k = 0; vsg_csv_field_get(line, strlen(line), k, fld[0], sizeof fld[0]); k++)
            if (!strcmp(fld[0], "status")) status_col = k;
        if (strncmp(line, "index,name,source,record,", 25) != 0 || status_col < 0)
            st = vsg_fail(VSG_E_FORMAT, "%s is not a vsgrid screen's CSV (its header)", s->csv);
    }
    while (st == VSG_OK && (n = csv_row_read(f, &line, &cap, &complete)) > 0 && complete) {
        int ok = 1;
        for (int k = 0; k < 4 && ok; k++) ok = vsg_csv_field_get(line, strlen(line), k, fld[k], sizeof fld[k]);
        if (ok) ok = vsg_csv_field_get(line, strlen(line), status_col, fld[4], sizeof fld[4]);
        const size_t r = rows.n;
        if (!ok) {
            st = vsg_fail(VSG_E_FORMAT, "%s: row %zu is not a screen row", s->csv, r + 1);
            break;
        }
        if (vsg_ligand_reader_next(rd, &lig) != 1) {
            st = vsg_fail(VSG_E_DATA, "%s: row %zu (%s) has no record in the libraries: they hold %zu records",
                          s->csv, r + 1, fld[1], r);
            break;
        }
        char idx[32], rec[32];
        snprintf(idx, sizeof idx, "%zu", lig.index);
        snprintf(rec, sizeof rec, "%ld", lig.record);
        const char *nm = lig.name;
        int name_ok = !strcmp(fld[1], nm);
        if (strcmp(fld[0], idx) || !name_ok || strcmp(fld[2], lig.source ? lig.source : "") || strcmp(fld[3], rec)) {
            st = vsg_fail(VSG_E_DATA,
                          "%s: row %zu (index %s, name %s, %s record %s) is not the libraries' record %zu (name %s, "
                          "%s record %ld): not the same library",
                          s->csv, r + 1, fld[0], fld[1], fld[2], fld[3], lig.index, nm, lig.source ? lig.source : "",
                          lig.record);
            break;
        }
        off += n;
        if (!list_push(&rows, off) ||
            ((!strcmp(fld[4], "ok") || !strcmp(fld[4], "outside")) && !list_push(&emit, r)))
            st = vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    free(line);
    fclose(f);
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(rd);
    if (st == VSG_OK && s->sdf) st = sdf_groups(s->sdf, 0, &sdf_ends);
    if (st == VSG_OK && s->poses) st = sdf_groups(s->poses, s->poses_grouped, &pose_ends);
    if (st == VSG_OK) {
        size_t e = emit.n, k = rows.n;
        if (s->sdf && sdf_ends.n < e) e = sdf_ends.n;
        if (s->poses && pose_ends.n < e) e = pose_ends.n;
        if (e < emit.n) k = emit.v[e]; /* the first row whose SDF record is missing, and after */
        st = cut_file(s->csv, k ? rows.v[k - 1] : header_end);
        if (st == VSG_OK && s->sdf) st = cut_file(s->sdf, e ? sdf_ends.v[e - 1] : 0);
        if (st == VSG_OK && s->poses) st = cut_file(s->poses, e ? pose_ends.v[e - 1] : 0);
        if (st == VSG_OK) *kept = k;
    }
    free(rows.v), free(emit.v), free(sdf_ends.v), free(pose_ends.v);
    return st;
}

/* ---- --best-per-molecule (screen_internal.h) ------------------------------------------------------ */

typedef struct {
    char *name, *row; /* the best record's row, without its newline */
    double score;
    int scored;
    size_t count;
} mol_entry;

struct mol_table {
    mol_entry *e; /* in the order of each name's first record */
    size_t n, cap;
    size_t *slot; /* open addressing: entry + 1, 0 empty */
    size_t nslot;
};

mol_table *vsg_mol_table_new(void) { return calloc(1, sizeof(mol_table)); }

static size_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (size_t)h;
}

static int mol_rehash(mol_table *t)
{
    size_t ns = t->nslot ? 2 * t->nslot : 1024;
    size_t *sl = calloc(ns, sizeof *sl);
    if (!sl) return 0;
    for (size_t i = 0; i < t->n; i++) {
        size_t k = name_hash(t->e[i].name) & (ns - 1);
        while (sl[k]) k = (k + 1) & (ns - 1);
        sl[k] = i + 1;
    }
    free(t->slot);
    t->slot = sl, t->nslot = ns;
    return 1;
}

int vsg_mol_offer(mol_table *t, const char *name, const char *text, int scored, double score)
{
    if (2 * (t->n + 1) > t->nslot && !mol_rehash(t)) return 0;
    size_t k = name_hash(name) & (t->nslot - 1);
    for (; t->slot[k]; k = (k + 1) & (t->nslot - 1)) {
        mol_entry *e = &t->e[t->slot[k] - 1];
        if (strcmp(e->name, name) != 0) continue;
        e->count++;
        if (scored && (!e->scored || score < e->score)) { /* ties: the earlier record stays */
            char *r = strdup(text);
            if (!r) return 0;
            free(e->row);
            e->row = r, e->score = score, e->scored = 1;
        }
        return 1;
    }
    if (t->n == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 1024;
        mol_entry *ne = realloc(t->e, sizeof *ne * nc);
        if (!ne) return 0;
        t->e = ne, t->cap = nc;
    }
    mol_entry *e = &t->e[t->n];
    e->name = strdup(name);
    e->row = strdup(text);
    if (!e->name || !e->row) {
        free(e->name), free(e->row);
        return 0;
    }
    e->score = score, e->scored = scored, e->count = 1;
    t->slot[k] = ++t->n;
    return 1;
}

void vsg_mol_write(const mol_table *t, FILE *f)
{
    for (size_t i = 0; i < t->n; i++) fprintf(f, "%s,%zu\n", t->e[i].row, t->e[i].count);
}

void vsg_mol_table_free(mol_table *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->n; i++) free(t->e[i].name), free(t->e[i].row);
    free(t->e), free(t->slot), free(t);
}
