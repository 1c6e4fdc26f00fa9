/* screen_output.c — what the screening pipeline writes: CSV rows, SDF data items, the counts
 * by status, and the best-N set behind --top. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "engine/screen/screen_internal.h"

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
                       size_t index)
{
    top_entry cand;
    cand.score = res->total;
    cand.index = index;
    if (h->n == h->cap) {
        if (!worse(&h->e[0], &cand)) return;
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
