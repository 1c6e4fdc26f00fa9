/* prepare.c — receptor preparation: a PDB file to a PQR (AMBER or PARSE charges and radii) or
 * a PDBQT (Gasteiger charges, AutoDock 4 types), the way pdb2pqr prepares proteins when it
 * does not titrate. See vsgrid.h ("receptor preparation") for the contract.
 *
 * Method. Atoms are read up to the first END/ENDMDL; alternate locations keep the highest
 * occupancy (the first on a tie). Standard amino acids are matched to pdb2pqr's AA.xml
 * templates (ideal coordinates with hydrogens): every template atom the residue lacks is
 * placed by superposing (Horn's quaternion fit) the template's atoms near it in the bond graph
 * on the residue's atoms, heavy atoms first; the backbone amide H bisects C(i−1)–N–CA. Termini:
 * the first amino acid of each chain gets NH3+ (H, H2, H3; Pro H, H2), the last OXT (built
 * when absent); gaps inside a chain are not termini (as pdb2pqr). Protonation states at the pH
 * from model pKa values (protonation.c); Cys pairs with SG–SG < 2.5 Å are CYX; a neutral His is
 * HID or HIE by hydrogen-bond partners near the ring nitrogens. Charges and radii come from
 * pdb2pqr's AMBER.DAT / PARSE.DAT with its name rules (AMBER.names / PARSE.names).
 * Nucleotides (nucleic_acids.c): NA.xml's templates, 5' ends without phosphate, AMBER charges.
 * Other HETATM groups: bonds from distances, Gasteiger charges (Open Babel), Bondi radii;
 * single metal ions their formal charge. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/textio.h"
#include "grids/base/vsgrid.h"
#include "engine/prepare/prep_model.h"

static void pdb_name(const char *name, char out[6])
{
    if (strlen(name) >= 4 || isdigit((unsigned char)name[0]))
        snprintf(out, 6, "%-4.4s", name);
    else
        snprintf(out, 6, " %-3s", name);
}

void vsg_prep_options_default(vsg_prep_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->ph = 7.4;
    o->ff = VSG_PREP_AMBER;
    o->format = VSG_PREP_PQR;
}

void vsg_prep_summary_free(vsg_prep_summary *s)
{
    if (s) {
        free(s->report);
        s->report = NULL;
    }
}

static void release_job(job *j)
{
    free(j->m.a);
    free(j->m.r);
    free(j->out);
    free(j->res_of);
    free(j->notes.s);
    free(j->s.report);
}

vsg_status vsg_receptor_prepare(const char *path, const vsg_prep_options *opt, char **text,
                                vsg_prep_summary *summary)
{
    if (!path || !text)
        return vsg_fail(VSG_E_ARG, "vsg_receptor_prepare: path and text are required");
    *text = NULL;
    vsg_prep_options o;
    vsg_prep_options_default(&o);
    if (opt)
        o = *opt;
    if ((o.ff != VSG_PREP_AMBER && o.ff != VSG_PREP_PARSE) || (o.format != VSG_PREP_PQR && o.format != VSG_PREP_PDBQT) ||
        !(o.ph >= 0 && o.ph <= 14))
        return vsg_fail(VSG_E_ARG, "vsg_receptor_prepare: bad options (force field, format, or pH outside 0..14)");
    if (o.format == VSG_PREP_PDBQT && !vsg_ligand_gasteiger_available())
        return vsg_fail(VSG_E_UNSUPPORTED, "PDBQT preparation needs Gasteiger charges: this vsgrid was built "
                                           "without Open Babel (libopenbabel-dev)");
    if (!prep_load_templates())
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    job j;
    memset(&j, 0, sizeof j);
    vsg_status st = prep_is_mmcif(path) ? prep_read_mmcif(path, &j.m, &j.s.altlocs_dropped, &j.notes)
                                        : prep_read_pdb(path, &j.m, &j.s.altlocs_dropped);
    if (st != VSG_OK) {
        release_job(&j);
        return st;
    }
    j.s.atoms_in = j.m.n;
    prep_build_residues(&j);
    if (!j.m.r) {
        release_job(&j);
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    st = prep_na_check_ff(&j, &o);
    if (st != VSG_OK) {
        release_job(&j);
        return st;
    }
    prep_protonation(&j, &o);
    for (int r = 0; r < j.m.nr; r++)
        if (j.m.r[r].kind == 0 || j.m.r[r].kind == 3) {
            j.s.residues += j.m.r[r].kind == 0;
            if (!prep_place_residue(&j, r)) {
                release_job(&j);
                return vsg_fail(VSG_E_NOMEM, "out of memory");
            }
        }
    st = prep_charge_groups(&j, &o);
    if (st == VSG_OK)
        st = prep_polar_hydrogens(&j);
    if (st == VSG_OK && o.format == VSG_PREP_PQR)
        prep_charge_residues(&j, &o);
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    if (st == VSG_OK && o.format == VSG_PREP_PDBQT)
        st = prep_pdbqt_charges(&j, &lig);
    vsg_ligand_release(&lig);
    if (st != VSG_OK) {
        release_job(&j);
        return st;
    }
    /* text */
    sbuf out = {0};
    prep_printf(&out, "REMARK   1 %s by vsgrid prepare from %s\n",
              o.format == VSG_PREP_PQR ? (o.ff == VSG_PREP_PARSE ? "PQR, PARSE charges and radii"
                                                                 : "PQR, AMBER charges and radii")
                                       : "PDBQT, Gasteiger charges, AutoDock 4 types",
              path);
    int serial = 0;
    double total = 0;
    for (int i = 0; i < j.nout; i++) {
        const patom *a = &j.out[i];
        if (a->ad[0] == '-')
            continue;
        char nm[6];
        pdb_name(a->name, nm);
        serial++;
        total += a->q;
        if (o.format == VSG_PREP_PQR)
            prep_printf(&out, "%-6s%5d %s %-3s %c%4d%c   %8.3f%8.3f%8.3f %7.4f %6.4f\n", a->het ? "HETATM" : "ATOM",
                      serial % 100000, nm, a->resn, a->chain, a->resseq, a->icode, a->x[0], a->x[1], a->x[2], a->q,
                      a->r);
        else
            prep_printf(&out, "%-6s%5d %s %-3s %c%4d%c   %8.3f%8.3f%8.3f%6.2f%6.2f    %6.3f %-2s\n",
                      a->het ? "HETATM" : "ATOM", serial % 100000, nm, a->resn, a->chain, a->resseq, a->icode,
                      a->x[0], a->x[1], a->x[2], 1.0, 0.0, a->q, a->ad[0] ? a->ad : a->element);
    }
    prep_printf(&out, "END\n");
    j.s.atoms_out = serial;
    j.s.total_charge = total;
    /* summary */
    sbuf rep = {0};
    prep_printf(&rep, "prepared %s: %d atoms read, %d written (%d hydrogens and %d heavy atoms added)\n", path,
              j.s.atoms_in, j.s.atoms_out, j.s.h_added, j.s.heavy_added);
    prep_printf(&rep, "  %d amino acids (His: %d HID, %d HIE by H-bond partner; %d disulfides), %d other groups kept, "
                    "%d waters %s, %d alternate locations dropped, %d input hydrogens rebuilt\n",
              j.s.residues, j.s.his_hid, j.s.his_hie, j.s.disulfides, j.s.het_groups,
              o.keep_waters ? j.waters_kept : j.s.waters_dropped,
              o.keep_waters ? "kept (hydrogens added, oriented for H-bonds)" : "dropped",
              j.s.altlocs_dropped, j.h_dropped);
    if (j.na_dna + j.na_rna)
        prep_printf(&rep, "  %d nucleotides (%d DNA, %d RNA): %d 5' ends (phosphate removed, H5T), %d 3' ends (H3T), "
                          "%d breaks in the O3'-P links (not ends)\n",
                    j.na_dna + j.na_rna, j.na_dna, j.na_rna, j.na_5, j.na_3, j.na_gaps);
    if (j.missing_heavy)
        prep_printf(&rep, "  %d missing heavy atoms rebuilt from templates\n", j.missing_heavy);
    prep_printf(&rep, "  pH %.1f (model pKa values, no titration): %d HIP, %d ASH, %d GLH, %d LYN, %d CYM; states kept as "
                      "named in the input: %d\n",
                o.ph, j.s.his_hip, j.s.asp_ash, j.s.glu_glh, j.s.lys_lyn, j.s.cys_cym, j.s.kept_named);
    if (j.notes.s)
        prep_printf(&rep, "%s", j.notes.s);
    if (j.organic_groups) /* a co-crystallised ligand fills the pocket it is docked into */
        prep_printf(&rep, "  note: the %d HETATM group%s above %s part of the receptor: keep cofactors, but remove a bound "
                          "ligand's lines before docking into its site\n",
                    j.organic_groups, j.organic_groups > 1 ? "s" : "", j.organic_groups > 1 ? "are" : "is");
    prep_printf(&rep, "  total charge %+.4f e\n", total);
    if (out.oom || rep.oom) {
        free(out.s);
        free(rep.s);
        release_job(&j);
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    *text = out.s;
    if (summary) {
        *summary = j.s;
        summary->report = rep.s;
        j.s.report = NULL;
    } else
        free(rep.s);
    release_job(&j);
    return VSG_OK;
}
