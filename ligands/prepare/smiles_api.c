/* smiles_api.c — the public calls around SMILES preparation that need no Open Babel themselves
 * (vsgrid.h): whether it is there, the --ph value, and one SMILES from memory through the
 * same reader a .smi file goes through (so its record is the file's, to the byte). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/textio.h"
#include "grids/base/vsgrid.h"
#include "ligands/ligand.h"
#include "ligands/prepare/embed_rdkit.h"
#include "ligands/prepare/smiles_prepare.h"
#include "ligands/readers/ligand_reader.h"

int vsg_smiles_available(void) { return vsg_smiles_prepare_available(); }

vsg_status vsg_smiles_parse_ph(const char *v, vsg_smiles_options *o)
{
    double x;
    if (!v || !o) return vsg_fail(VSG_E_ARG, "vsg_smiles_parse_ph: NULL argument");
    if (!strcmp(v, "none")) {
        o->ph_mode = VSG_PH_NONE;
        return VSG_OK;
    }
    if (!vsg_parse_double(v, strlen(v), &x) || !(x >= 0.0 && x <= 14.0))
        return vsg_fail(VSG_E_ARG, "--ph: '%s' is not a pH in [0, 14] nor 'none'", v);
    o->ph_mode = VSG_PH_AT;
    o->ph = x;
    return VSG_OK;
}

vsg_status vsg_smiles_parse_minimize(const char *v, vsg_smiles_options *o)
{
    double x;
    if (!v || !o) return vsg_fail(VSG_E_ARG, "vsg_smiles_parse_minimize: NULL argument");
    if (!vsg_parse_double(v, strlen(v), &x) || !(x >= 0 && x <= 100000) || x != (int)x)
        return vsg_fail(VSG_E_ARG, "--minimize: '%s' is not a whole number in [0, 100000]", v);
    o->min_steps = x == 0 ? -1 : (int)x; /* 0 in the options is the default */
    return VSG_OK;
}

vsg_status vsg_smiles_parse_stereo(const char *v, vsg_smiles_options *o)
{
    if (!v || !o) return vsg_fail(VSG_E_ARG, "vsg_smiles_parse_stereo: NULL argument");
    if (!strcmp(v, "any")) o->stereo = VSG_STEREO_BUILDER;
    else if (!strcmp(v, "specified")) o->stereo = VSG_STEREO_SPECIFIED;
    else if (!strcmp(v, "enumerate")) {
        if (!vsg_smiles_rdkit_available())
            return vsg_fail(VSG_E_UNSUPPORTED, "--stereo enumerate: this vsgrid was built without RDKit (VSG_RDKIT)");
        o->stereo = VSG_STEREO_ENUMERATE;
    } else return vsg_fail(VSG_E_ARG, "--stereo: '%s' is not any, specified or enumerate", v);
    return VSG_OK;
}

vsg_status vsg_smiles_parse_embed(const char *v, vsg_smiles_options *o)
{
    if (!v || !o) return vsg_fail(VSG_E_ARG, "vsg_smiles_parse_embed: NULL argument");
    if (!strcmp(v, "rdkit")) {
        if (!vsg_smiles_rdkit_available())
            return vsg_fail(VSG_E_UNSUPPORTED, "--embed rdkit: this vsgrid was built without RDKit (VSG_RDKIT)");
        o->embed = VSG_EMBED_RDKIT;
    } else if (!strcmp(v, "openbabel")) o->embed = VSG_EMBED_OPENBABEL;
    else return vsg_fail(VSG_E_ARG, "--embed: '%s' is not rdkit or openbabel", v);
    return VSG_OK;
}

vsg_status vsg_smiles_parse_conformers(const char *v, vsg_smiles_options *o)
{
    double x;
    if (!v || !o) return vsg_fail(VSG_E_ARG, "vsg_smiles_parse_conformers: NULL argument");
    if (!vsg_parse_double(v, strlen(v), &x) || !(x >= 1 && x <= VSG_SMILES_MAX_CONFORMERS) || x != (int)x)
        return vsg_fail(VSG_E_ARG, "--conformers: '%s' is not a whole number in [1, %d]", v, VSG_SMILES_MAX_CONFORMERS);
    if (x > 1 && !vsg_smiles_rdkit_available())
        return vsg_fail(VSG_E_UNSUPPORTED, "--conformers: this vsgrid was built without RDKit (VSG_RDKIT)");
    o->conformers = (int)x;
    return VSG_OK;
}

int vsg_smiles_rdkit_available(void) { return vsg_smiles_prepare_available() && vsg_rdkit_available(); }

vsg_status vsg_ligand_from_smiles(const char *smiles, const char *name, const vsg_ligand_reader_options *opt,
                                  vsg_ligand *lig)
{
    vsg_ligand_reader_options o = opt ? *opt : (vsg_ligand_reader_options){.format = VSG_LIG_SMILES};
    vsg_ligand_reader *r = NULL;
    if (!smiles || !lig) return vsg_fail(VSG_E_ARG, "vsg_ligand_from_smiles: NULL argument");
    /* one line: the SMILES's own blanks or line breaks would make it another record */
    if (strpbrk(smiles, " \t\r\n") || (name && strpbrk(name, "\r\n"))) {
        vsg_ligand_fail(lig, VSG_E_FORMAT, VSG_LIG_BAD_SMILES, "<memory>:1: a SMILES has no blank or line break: '%.60s'",
                        smiles);
        lig->record = lig->line = 1;
        lig->source = "<memory>";
        return lig->status;
    }
    size_t n = strlen(smiles) + (name ? strlen(name) : 0) + 3;
    char *text = malloc(n);
    if (!text) return vsg_fail(VSG_E_NOMEM, "out of memory for a SMILES");
    snprintf(text, n, "%s%s%s\n", smiles, name && *name ? " " : "", name ? name : "");
    o.format = VSG_LIG_SMILES;
    vsg_status st = vsg_ligand_reader_open_memory(text, strlen(text), VSG_LIG_SMILES, &o, &r);
    if (st == VSG_OK) {
        if (!vsg_ligand_reader_next(r, lig)) st = vsg_fail(VSG_E_FORMAT, "no SMILES record");
        else st = lig->status;
        lig->source = "<memory>"; /* the reader's copy goes with it */
        vsg_ligand_reader_close(r);
    }
    free(text);
    return st;
}
