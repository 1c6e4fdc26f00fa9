/* sdf_writer.c — SDF output that keeps the input molecule: an SDF record goes out as it was
 * read, with vsgrid's data items added before its "$$$$"; a MOL2/PDBQT/PDB record becomes a
 * V2000 molfile (atoms, bonds, formal charges) with the same items. Also CSV quoting. */
#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "screen.h"

void vsg_csv_field(FILE *f, const char *s)
{
    if (!s) return;
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Start of the record's final "$$$$" line in text[0..n), or n when there is none. */
static size_t terminator_at(const char *text, size_t n)
{
    size_t end = n;
    /* skip trailing line breaks and blanks */
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r' || text[end - 1] == ' ')) end--;
    if (end >= 4 && memcmp(text + end - 4, "$$$$", 4) == 0 && (end == 4 || text[end - 5] == '\n'))
        return end - 4;
    return n;
}

static void write_tags(FILE *f, const vsg_sdf_tag *tags, int ntags)
{
    for (int i = 0; i < ntags; i++) fprintf(f, "> <vsgrid_%s>\n%s\n\n", tags[i].name, tags[i].value);
}

/* A V2000 molfile for a record that was not SDF (or has no text). Element symbols fall back
 * to the first letters of the AutoDock type or the name. V2000 holds at most 999 atoms and
 * bonds: larger molecules are refused (VSG_E_LIMIT). */
static vsg_status write_v2000(FILE *f, const vsg_ligand *lig)
{
    if (lig->natoms > 999 || lig->nbonds > 999)
        return vsg_fail(VSG_E_LIMIT, "%s: record %ld: %d atoms, %d bonds: too many for a V2000 molfile",
                        lig->source ? lig->source : "?", lig->record, lig->natoms, lig->nbonds);
    char name[81];
    snprintf(name, sizeof name, "%.80s", lig->name);
    for (char *c = name; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    fprintf(f, "%s\n  vsgrid          3D\n%s record %ld\n", name, vsg_ligand_format_name(lig->format), lig->record);
    fprintf(f, "%3d%3d  0  0  0  0  0  0  0  0999 V2000\n", lig->natoms, lig->nbonds);
    int ncharged = 0;
    for (int i = 0; i < lig->natoms; i++) {
        const vsg_lig_atom *a = &lig->atoms[i];
        char el[4] = "";
        if (a->element[0]) {
            snprintf(el, sizeof el, "%s", a->element);
        } else if (a->ad_type[0]) {
            /* AutoDock types: A → C, OA → O, NA → N, SA → S, HD → H; Cl, Br keep two letters */
            if (!strcmp(a->ad_type, "A")) strcpy(el, "C");
            else if (!strcmp(a->ad_type, "Cl") || !strcmp(a->ad_type, "Br") || !strcmp(a->ad_type, "Zn") ||
                     !strcmp(a->ad_type, "Fe") || !strcmp(a->ad_type, "Mg") || !strcmp(a->ad_type, "Mn") ||
                     !strcmp(a->ad_type, "Ca"))
                snprintf(el, sizeof el, "%s", a->ad_type);
            else
                snprintf(el, sizeof el, "%c", a->ad_type[0]);
        } else {
            snprintf(el, sizeof el, "%c", a->name[0] ? a->name[0] : 'C');
        }
        fprintf(f, "%10.4f%10.4f%10.4f %-3s 0  0  0  0  0  0  0  0  0  0  0  0\n", a->x, a->y, a->z, el);
        ncharged += a->formal != 0;
    }
    for (int i = 0; i < lig->nbonds; i++) {
        const vsg_lig_bond *b = &lig->bonds[i];
        int order = b->order == VSG_BOND_AROMATIC ? 4 : b->order == VSG_BOND_AMIDE ? 1 : b->order;
        if (order < 1 || order > 4) order = 1;
        fprintf(f, "%3d%3d%3d  0\n", b->a + 1, b->b + 1, order);
    }
    /* formal charges, at most 8 per M  CHG line */
    for (int i = 0, done = 0; done < ncharged;) {
        int line = ncharged - done < 8 ? ncharged - done : 8;
        fprintf(f, "M  CHG%3d", line);
        for (int k = 0; k < line; i++) {
            if (lig->atoms[i].formal == 0) continue;
            fprintf(f, " %3d %3d", i + 1, lig->atoms[i].formal);
            k++;
        }
        fputc('\n', f);
        done += line;
    }
    fputs("M  END\n", f);
    return VSG_OK;
}

vsg_status vsg_sdf_write_record(FILE *f, const vsg_ligand *lig, const vsg_sdf_tag *tags, int ntags)
{
    if (!f || !lig) return vsg_fail(VSG_E_ARG, "SDF writer: NULL file or molecule");
    if (lig->format == VSG_LIG_SDF && lig->text && lig->text_len > 0) {
        size_t cut = terminator_at(lig->text, lig->text_len);
        fwrite(lig->text, 1, cut, f);
        if (cut > 0 && lig->text[cut - 1] != '\n') fputc('\n', f);
        /* the data items of the input stay; ours follow them */
    } else {
        vsg_status st = write_v2000(f, lig);
        if (st != VSG_OK) return st;
    }
    write_tags(f, tags, ntags);
    fputs("$$$$\n", f);
    return ferror(f) ? vsg_fail(VSG_E_IO, "SDF writer: write error") : VSG_OK;
}
