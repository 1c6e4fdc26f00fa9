/* smiles_record.c — a SMILES made into the SDF record a screen docks: Open Babel's prepared
 * molfile (ligands/prepare/), Gasteiger charges, and the data items that say what was done,
 * all as text (smiles_record.h). Text, so that the record crosses a pipe from a preparing
 * process (ligands/prepare/prepare_workers.c) as it would come from an SDF file, and the
 * reader parses it with the SDF record parser either way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "ligands/ligand.h"
#include "ligands/readers/reader_internal.h"
#include "ligands/readers/smiles_record.h"

/* The preparation's note for an ok record (its message, and a data item). */
static void note(const vsg_smiles_prep *p, const vsg_smiles_prep_options *o, char *dst, size_t cap)
{
    size_t k = 0;
    dst[0] = '\0';
    if (p->dropped[0])
        k += (size_t)snprintf(dst + k, cap - k, "kept the largest of %d fragments (dropped %s)", p->fragments,
                              p->dropped);
    if (k < cap && p->unassigned_stereo && o->stereo == VSG_STEREO_ENUMERATE && p->isomers > 0 && p->open_stereo > 3)
        k += (size_t)snprintf(dst + k, cap - k,
                              "%s%d unassigned stereocentre%s: %d stereoisomer%s, the combinations of the first 3 of %d "
                              "open centres and double bonds, the others fixed (--stereo enumerate)",
                              k ? "; " : "", p->unassigned_stereo, p->unassigned_stereo > 1 ? "s" : "", p->isomers,
                              p->isomers > 1 ? "s" : "", p->open_stereo);
    else if (k < cap && p->unassigned_stereo && o->stereo == VSG_STEREO_ENUMERATE && p->isomers > 0)
        k += (size_t)snprintf(dst + k, cap - k, "%s%d unassigned stereocentre%s: %d stereoisomer%s (--stereo enumerate)",
                              k ? "; " : "", p->unassigned_stereo, p->unassigned_stereo > 1 ? "s" : "", p->isomers,
                              p->isomers > 1 ? "s" : "");
    else if (k < cap && p->unassigned_stereo)
        k += (size_t)snprintf(dst + k, cap - k, "%s%d unassigned stereocentre%s (the conformer generator's configuration%s)",
                              k ? "; " : "", p->unassigned_stereo, p->unassigned_stereo > 1 ? "s" : "",
                              o->stereo == VSG_STEREO_ENUMERATE ? ": Open Babel's builder does not enumerate" : "");
    if (k < cap && p->inverted_stereo)
        k += (size_t)snprintf(dst + k, cap - k,
                              "%sthe 3D builder inverted %d specified stereocentre%s or double bond%s: docked as built",
                              k ? "; " : "", p->inverted_stereo, p->inverted_stereo > 1 ? "s" : "",
                              p->inverted_stereo > 1 ? "s" : "");
    if (k < cap && p->charge_in != p->charge_out)
        k += (size_t)snprintf(dst + k, cap - k, "%snet charge %+d -> %+d at pH %.1f", k ? "; " : "", p->charge_in,
                              p->charge_out, o->ph_mode == VSG_PH_AT ? o->ph : 7.4);
    if (k < cap && p->fallback[0])
        k += (size_t)snprintf(dst + k, cap - k, "%s3D by Open Babel's builder (%s)", k ? "; " : "", p->fallback);
    if (k < cap && !strcmp(p->forcefield, "UFF"))
        snprintf(dst + k, cap - k, "%sminimised with UFF (no MMFF94 parameters)", k ? "; " : "");
}

/* Appends s to the record's text; 0 out of memory. */
static int text_add(vsg_ligand *lig, const char *s)
{
    size_t n = strlen(s);
    if (lig->text_len + n + 1 > lig->text_cap) {
        size_t cap = lig->text_cap ? lig->text_cap : 4096;
        while (cap < lig->text_len + n + 1) cap *= 2;
        char *t = realloc(lig->text, cap);
        if (!t) return 0;
        lig->text = t;
        lig->text_cap = cap;
    }
    memcpy(lig->text + lig->text_len, s, n + 1);
    lig->text_len += n;
    return 1;
}

/* The record's text after its "M  END": the charges (RDKit's atom property list, which RDKit
 * and vsgrid's SDF reader both take), the SMILES and the note; then $$$$. 0 out of memory. */
static int text_items(vsg_ligand *lig, const char *smiles, const vsg_smiles_prep *p, const char *why)
{
    char num[32];
    int ok = text_add(lig, "> <atom.dprop.PartialCharge>\n");
    for (int i = 0; ok && i < lig->natoms; i++) {
        snprintf(num, sizeof num, "%s%.4f", i ? " " : "", lig->atoms[i].charge);
        ok = text_add(lig, num);
    }
    ok = ok && text_add(lig, "\n\n> <vsgrid_smiles>\n") && text_add(lig, smiles) && text_add(lig, "\n\n");
    snprintf(num, sizeof num, "%d", p->unassigned_stereo);
    ok = ok && text_add(lig, "> <vsgrid_unassigned_stereo>\n") && text_add(lig, num) && text_add(lig, "\n\n");
    snprintf(num, sizeof num, "%d", p->inverted_stereo);
    ok = ok && text_add(lig, "> <vsgrid_inverted_stereo>\n") && text_add(lig, num) && text_add(lig, "\n\n");
    if (ok && why[0]) ok = text_add(lig, "> <vsgrid_note>\n") && text_add(lig, why) && text_add(lig, "\n\n");
    return ok && text_add(lig, "$$$$\n");
}

/* The further conformers (p->extra) as records after the first (lig's text, its items from
 * offset items on): each its own molfile, the first's items, a vsgrid_conformer item (2, 3,
 * ...). 0 out of memory. */
static int extra_records(vsg_ligand *lig, size_t items, const vsg_smiles_prep *p)
{
    if (p->nextra < 1) return 1;
    const size_t first_len = lig->text_len;
    char *tail = malloc(first_len - items + 1); /* the items without their $$$$ line */
    if (!tail) return 0;
    memcpy(tail, lig->text + items, first_len - items);
    tail[first_len - items] = '\0';
    char *end = strstr(tail, "$$$$");
    if (end) *end = '\0';
    int ok = 1;
    for (int k = 0; ok && k < p->nextra; k++) {
        char num[64];
        snprintf(num, sizeof num, "> <vsgrid_conformer>\n%d\n\n$$$$\n", k + 2);
        ok = text_add(lig, p->extra[k]) && text_add(lig, tail) && text_add(lig, num);
    }
    free(tail);
    return ok;
}

int vsg_lig_parse_prepared(vsg_ligand *lig, const char *text, const char *display, int keep_text, int max_atoms,
                           char *code, char *why, size_t whylen)
{
    vsg_lig_ctx sub;
    const long record = lig->record, line = lig->line;
    char name[sizeof lig->name];
    size_t n = strlen(text);
    memcpy(name, lig->name, sizeof name);
    memset(&sub, 0, sizeof sub);
    sub.path = sub.display = display;
    sub.format = VSG_LIG_SDF;
    sub.keep_text = keep_text;
    sub.max_atoms = max_atoms > 0 ? max_atoms : VSG_LIG_MAX_ATOMS_DEFAULT;
    sub.src.mem = text;
    sub.src.mem_len = n;
    sub.src.cap = VSG_LIG_SRC_CHUNK / 4 + n + 2; /* the whole record without growing */
    if (!(sub.src.buf = malloc(sub.src.cap))) {
        snprintf(code, 16, "%s", VSG_LIG_TOO_MANY);
        snprintf(why, whylen, "out of memory for the prepared molecule");
        return 0;
    }
    vsg_lig_drop_text(lig); /* the record's text becomes the prepared one */
    free(lig->conformers);
    lig->conformers = NULL, lig->nconformers = 0;
    int got = vsg_lig_read_sdf(&sub, lig);
    sub.keep_text = 0; /* the record's text is the first conformer's */
    lig->record = record;
    lig->line = line;
    memcpy(lig->name, name, sizeof name);
    if (!got || lig->status != VSG_OK) { /* a record of ours that our parser refuses: say so */
        snprintf(code, 16, "%s", got ? lig->code : VSG_LIG_EMBED);
        snprintf(why, whylen, "the prepared molfile was refused (%.150s)", got ? lig->message : "empty");
        lig->status = VSG_OK;
        strcpy(lig->code, VSG_LIG_OK);
        lig->message[0] = '\0';
        vsg_lig_src_close(&sub.src);
        free(sub.ids);
        free(sub.join);
        return 0;
    }
    for (int i = 0; i < lig->natoms; i++) lig->atoms[i].line = (int)line; /* the atoms' line is the SMILES's */
    /* further conformers (vsg_smiles_options.conformers): the records after the first, the same
       atoms in the same order, only their coordinates kept */
    vsg_ligand more;
    vsg_ligand_init(&more);
    for (;;) {
        more.natoms = more.nbonds = 0;
        more.status = VSG_OK;
        if (vsg_lig_read_sdf(&sub, &more) != 1) break;
        int same = more.status == VSG_OK && more.natoms == lig->natoms;
        for (int i = 0; same && i < lig->natoms; i++) same = !strcmp(more.atoms[i].element, lig->atoms[i].element);
        if (!same) continue; /* a conformer that does not match is dropped (never the case for ours) */
        double *c = realloc(lig->conformers, sizeof *c * 3 * (size_t)lig->natoms * (size_t)(lig->nconformers + 1));
        if (!c) break;
        lig->conformers = c;
        c += 3 * (size_t)lig->natoms * (size_t)lig->nconformers++;
        for (int i = 0; i < lig->natoms; i++)
            c[3 * i] = more.atoms[i].x, c[3 * i + 1] = more.atoms[i].y, c[3 * i + 2] = more.atoms[i].z;
    }
    vsg_ligand_release(&more);
    vsg_lig_src_close(&sub.src);
    free(sub.ids);
    free(sub.join);
    return 1;
}

vsg_status vsg_smiles_record_make(const char *smiles, const char *name, const vsg_smiles_prep_options *o,
                                  vsg_smiles_record *out)
{
    memset(out, 0, sizeof *out);
    strcpy(out->code, VSG_LIG_OK);
    vsg_smiles_prep p;
    vsg_status st = vsg_smiles_prepare(smiles, name, o, &p);
    if (st != VSG_OK) {
        snprintf(out->code, sizeof out->code, "%s", p.code);
        snprintf(out->why, sizeof out->why, "%s", p.why);
        return st;
    }
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    snprintf(lig.name, sizeof lig.name, "%s", name ? name : "");
    lig.record = lig.line = 1;
    if (!vsg_lig_parse_prepared(&lig, p.molfile, "<prepared>", 1, o->max_atoms, out->code, out->why, sizeof out->why)) {
        st = VSG_E_DATA;
    } else if ((st = vsg_ligand_gasteiger(&lig)) != VSG_OK) {
        snprintf(out->code, sizeof out->code, "%s", VSG_LIG_NO_CHARGES);
        snprintf(out->why, sizeof out->why, "no Gasteiger charges: %.170s", vsg_last_error());
    } else {
        note(&p, o, out->note, sizeof out->note);
        /* the parser kept the molfile through M  END: the items and $$$$ follow it */
        const size_t items = lig.text_len;
        if (!text_items(&lig, smiles, &p, out->note)) {
            st = VSG_E_NOMEM;
            snprintf(out->code, sizeof out->code, "%s", VSG_LIG_TOO_MANY);
            snprintf(out->why, sizeof out->why, "out of memory for the prepared record");
        } else if (!extra_records(&lig, items, &p)) {
            st = VSG_E_NOMEM;
            snprintf(out->code, sizeof out->code, "%s", VSG_LIG_TOO_MANY);
            snprintf(out->why, sizeof out->why, "out of memory for the prepared record");
        } else {
            out->text = lig.text; /* ours now */
            lig.text = NULL;
            lig.text_len = lig.text_cap = 0;
        }
    }
    vsg_ligand_release(&lig);
    vsg_smiles_prep_free(&p);
    return st;
}

void vsg_smiles_record_free(vsg_smiles_record *r)
{
    if (!r) return;
    free(r->text);
    r->text = NULL;
}
