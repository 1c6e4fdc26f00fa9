/* prepared_pdbqt.c — one prepared record as the PDBQT block of `vsgrid prepare-ligands -o
 * OUT.pdbqt` (screen.h, vsg_prepared_pdbqt): MODEL k (k = the record's index over all inputs +
 * 1, so model k of the file is input record k), REMARK lines saying what the record is and how
 * it fared, the ligand with the torsion tree `vsgrid dock` searches (vsg_dock_tree, written by
 * the pose writer's vsg_pose_write_pdbqt_ligand: one tree, one writer), ENDMDL. The ligand part
 * is made by the thread that prepared the record; MODEL and the record index are written by the
 * writer, which alone knows the index over all inputs (a chunk reader counts from its chunk).
 *
 * Why a MODEL for every record, a failed one included: AutoDock Vina reads one ligand a file
 * (`--ligand`, `--batch`) and refuses MODEL lines; its vina_split cuts a multi-MODEL file into
 * those files and refuses any line outside a MODEL. So a failure can only stay visible, in input
 * order, as a MODEL of REMARK lines; vina_split makes it a file without atoms, which vina refuses
 * ("No atoms in this ligand"), and vsgrid's own reader reads it as a no_atoms record, so the
 * record count and order survive every step. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/screen/dock_record.h"
#include "engine/screen/screen.h"
#include "grids/base/vsgrid.h"
#include "ligands/ligand.h"
#include "ligands/readers/ligand_reader.h"
#include "ligands/torsions/torsions.h"

/* The value line of SD data item `name` in an SDF record's text (a SMILES record's vsgrid_smiles),
 * into buf; "" when absent. */
static const char *sd_item(const vsg_ligand *lig, const char *name, char *buf, size_t cap)
{
    char key[64];
    buf[0] = '\0';
    if (!lig->text || lig->format != VSG_LIG_SDF) return buf;
    const int kn = snprintf(key, sizeof key, "> <%s>\n", name);
    const char *end = lig->text + lig->text_len;
    for (const char *p = lig->text; p && p + kn < end; p = memchr(p, '\n', (size_t)(end - p)), p = p ? p + 1 : NULL) {
        if (memcmp(p, key, (size_t)kn) != 0) continue;
        const char *v = p + kn, *e = memchr(v, '\n', (size_t)(end - v));
        size_t n = e ? (size_t)(e - v) : (size_t)(end - v);
        if (n >= cap) n = cap - 1;
        memcpy(buf, v, n);
        buf[n] = '\0';
        break;
    }
    return buf;
}

void vsg_prepared_pdbqt_write(FILE *f, const vsg_ligand *lig, size_t index, const char *body, size_t len)
{
    fprintf(f, "MODEL %8zu\n", index + 1);
    fprintf(f, "REMARK VSGRID RECORD: %zu %s\n", index, lig->name);
    if (lig->status == VSG_OK && body) {
        fwrite(body, 1, len, f);
    } else {
        fprintf(f, "REMARK VSGRID STATUS: %s\n", lig->status == VSG_OK ? "error" : lig->code);
        fprintf(f, "REMARK VSGRID SOURCE: %s:%ld record %ld\n", lig->source ? lig->source : "?", lig->line, lig->record);
        fprintf(f, "REMARK VSGRID MESSAGE: %s\n", lig->message);
        if (lig->name[0]) fprintf(f, "REMARK Name = %s\n", lig->name);
    }
    fputs("ENDMDL\n", f);
}

/* Fails lig with the status and code of a docking failure, its message naming file, line and record. */
static void fail_tree(vsg_ligand *lig, vsg_status st, const char *why)
{
    char m[200];
    snprintf(m, sizeof m, "%s", why);
    const char *code = vsg_dock_fail_code(st, m);
    if (lig->source && strstr(m, lig->source)) vsg_ligand_fail(lig, st, code, "%s", m); /* it names the record already */
    else vsg_ligand_fail(lig, st, code, "%s:%ld: record %ld: %s", lig->source, lig->line, lig->record, m);
}

/* A PDBQT record is an AutoDock ligand already: its tree is checked (vsg_torsions_from_pdbqt: the
 * BRANCH/ENDBRANCH balance, the atoms it names), not rebuilt, and its own lines are written (the
 * pose writer's PDBQT path reads only r->natoms), so that what the Vina model refuses but AutoDock
 * docks stays, a hydrated ligand's W waters. *xyz gets the record's coordinates (free it). */
static vsg_status pdbqt_as_is(const vsg_ligand *lig, vsg_dock_result *r, double **xyz)
{
    memset(r, 0, sizeof *r);
    vsg_torsions t;
    vsg_status st = vsg_torsions_from_pdbqt(lig, &t);
    if (st != VSG_OK) return st;
    vsg_torsions_release(&t);
    if (!(*xyz = malloc(sizeof(double) * 3 * (size_t)(lig->natoms > 0 ? lig->natoms : 1))))
        return vsg_fail(VSG_E_NOMEM, "out of memory for a PDBQT record");
    for (int i = 0; i < lig->natoms; i++) {
        (*xyz)[3 * i] = lig->atoms[i].x;
        (*xyz)[3 * i + 1] = lig->atoms[i].y;
        (*xyz)[3 * i + 2] = lig->atoms[i].z;
    }
    r->natoms = lig->natoms;
    return VSG_OK;
}

vsg_status vsg_prepared_pdbqt(vsg_ligand *lig, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    if (lig->status != VSG_OK) return VSG_OK;
    const int nfrag = vsg_record_fragments(lig);
    if (nfrag > 1) {
        vsg_ligand_fail(lig, VSG_E_DATA, VSG_LIG_DISCONNECTED,
                        "%s:%ld: record %ld: %d fragments not bonded to each other (a salt or a mixture): a torsion "
                        "tree holds one molecule",
                        lig->source, lig->line, lig->record, nfrag);
        return VSG_OK;
    }
    char smiles[1024];
    sd_item(lig, "vsgrid_smiles", smiles, sizeof smiles); /* before the typing rewrites the record */
    vsg_dock_result r;
    double *xyz = NULL;
    vsg_status st = lig->format == VSG_LIG_PDBQT ? pdbqt_as_is(lig, &r, &xyz) : vsg_dock_tree(lig, &r);
    if (st != VSG_OK) {
        if (st == VSG_E_NOMEM) return st;
        fail_tree(lig, st, vsg_last_error());
        vsg_clear_error();
        return VSG_OK;
    }
    /* the model's atoms as the tree has them: AutoDock types, non-polar hydrogens merged (their
     * charges folded into the carbon), as AutoDock's ligand preparation and vina expect (a PDBQT
     * record: left as it is) */
    if ((st = vsg_pose_model_ligand(lig, &r)) != VSG_OK) {
        vsg_dock_result_release(&r);
        free(xyz);
        if (st == VSG_E_NOMEM) return st;
        fail_tree(lig, st, vsg_last_error());
        vsg_clear_error();
        return VSG_OK;
    }
    FILE *f = open_memstream(text, len);
    if (!f) {
        vsg_dock_result_release(&r);
        free(xyz);
        return vsg_fail(VSG_E_NOMEM, "out of memory for a PDBQT record");
    }
    fprintf(f, "REMARK VSGRID STATUS: %s\n", VSG_LIG_OK);
    fprintf(f, "REMARK VSGRID SOURCE: %s:%ld record %ld\n", lig->source ? lig->source : "?", lig->line, lig->record);
    if (smiles[0]) fprintf(f, "REMARK VSGRID SMILES: %s\n", smiles);
    if (lig->message[0]) fprintf(f, "REMARK VSGRID NOTE: %s\n", lig->message); /* an ok record's preparation note */
    const int ok = vsg_pose_write_pdbqt_ligand(f, lig, &r, xyz ? xyz : r.pose[0].xyz, 1);
    const int bad = ferror(f);
    fclose(f);
    vsg_dock_result_release(&r);
    free(xyz);
    if (bad) {
        free(*text);
        *text = NULL;
        *len = 0;
        return vsg_fail(VSG_E_NOMEM, "out of memory for a PDBQT record");
    }
    if (!ok) { /* a PDBQT record whose atom lines do not match its model */
        free(*text);
        *text = NULL;
        *len = 0;
        vsg_ligand_fail(lig, VSG_E_FORMAT, VSG_LIG_TORSIONS, "%s:%ld: record %ld: its atom lines do not match its tree",
                        lig->source, lig->line, lig->record);
    }
    return VSG_OK;
}

/* ---- an SDF/MOL2/SMILES record as the PDBQT record the AutoDock4 function docks ------------- */

vsg_status vsg_ligand_as_pdbqt(vsg_ligand *lig)
{
    if (!lig) return vsg_fail(VSG_E_ARG, "vsg_ligand_as_pdbqt: NULL record");
    if (lig->status != VSG_OK || lig->format == VSG_LIG_PDBQT) return VSG_OK;
    const char *src = lig->source ? lig->source : "?";
    vsg_status st;
    /* AutoDock4's electrostatics and desolvation weigh every atom by its charge: a record
     * without charges of its own gets Gasteiger's, or is refused (never all zeros) */
    if (!lig->has_charges) {
        if (!vsg_ligand_gasteiger_available())
            return vsg_fail(VSG_E_UNSUPPORTED, "%s:%ld: record %ld: no partial charges, and this build has no Open Babel "
                            "for Gasteiger's: the AutoDock4 function needs them (give a PDBQT, or a MOL2 with charges)",
                            src, lig->line, lig->record);
        if ((st = vsg_ligand_gasteiger(lig)) != VSG_OK) return st;
    }
    char *text = NULL;
    size_t len = 0;
    if ((st = vsg_prepared_pdbqt(lig, &text, &len)) != VSG_OK) return st;
    if (lig->status != VSG_OK || !text) {
        free(text);
        return vsg_fail(lig->status != VSG_OK ? lig->status : VSG_E_FORMAT, "%s",
                        lig->message[0] ? lig->message : "the record has no torsion tree");
    }
    /* the text read back as a PDBQT record (its text kept: the tree AutoDock4's function reads) */
    vsg_ligand_reader_options ro;
    memset(&ro, 0, sizeof ro);
    ro.format = VSG_LIG_PDBQT, ro.keep_text = 1;
    vsg_ligand_reader *rd = NULL;
    vsg_ligand out;
    vsg_ligand_init(&out);
    st = vsg_ligand_reader_open_memory(text, len, VSG_LIG_PDBQT, &ro, &rd);
    if (st == VSG_OK && vsg_ligand_reader_next(rd, &out) != 1)
        st = vsg_fail(VSG_E_FORMAT, "%s:%ld: record %ld: its PDBQT could not be read back", src, lig->line, lig->record);
    if (st == VSG_OK && out.status != VSG_OK)
        st = vsg_fail(out.status, "%s:%ld: record %ld: its PDBQT: %s", src, lig->line, lig->record, out.message);
    vsg_ligand_reader_close(rd);
    free(text);
    if (st != VSG_OK) {
        vsg_ligand_release(&out);
        return st;
    }
    /* the record keeps who it is: its file, number, line and name */
    out.index = lig->index, out.source = lig->source, out.record = lig->record, out.line = lig->line;
    memcpy(out.name, lig->name, sizeof out.name);
    out.rigid_macrocycles = lig->rigid_macrocycles;
    vsg_ligand_release(lig);
    *lig = out;
    return VSG_OK;
}
