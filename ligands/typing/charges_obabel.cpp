/* charges_obabel.cpp — Gasteiger–Marsili partial charges through the Open Babel 3 library:
 * the small C++ bridge that keeps C++ out of the rest of vsgrid. Built only when CMake finds
 * Open Babel (else ligands/typing/charges_none.c answers "unsupported").
 *
 * The molecule is rebuilt as an OBMol from the record's elements, coordinates, formal charges
 * and bonds. Aromatic bonds (SDF type 4, MOL2 "ar") are flagged aromatic and given a Kekulé
 * structure by Open Babel, as its own readers do, and aromaticity and hybridisation are then
 * perceived again; so the charges equal `obabel -imol2 x -omol2 --partialcharge gasteiger`
 * on the same file. Records without any hydrogen atom get Open Babel's typical implicit
 * hydrogens (as its SDF reader gives them); their charges are folded into the heavy atoms
 * by Open Babel, as it does for such input.
 *
 * The charges replace atoms[].charge. lig->has_charges is left as it was: it means "charges
 * came from the file"; the caller knows it asked for Gasteiger charges.
 *
 * Open Babel's charge models keep their results inside one shared plugin object, so calls
 * are serialised with a mutex (vsg_ob_lock, shared with the SMILES preparation); C++ exceptions never cross into C.
 */
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#include <openbabel/atom.h>
#include <openbabel/bond.h>
#include <openbabel/chargemodel.h>
#include <openbabel/elements.h>
#include <openbabel/kekulize.h>
#include <openbabel/mol.h>
#include <openbabel/obfunctions.h>
#include <openbabel/plugin.h>

extern "C" {
#include "grids/base/vsgrid.h"
#include "ligands/ligand.h"
}

/* Open Babel's process-wide objects (charge models, the aromaticity and atom typers with their
 * SMARTS patterns) are guarded by one lock, shared with ligands/prepare/smiles_obabel.cpp. */
std::mutex vsg_ob_lock;

/* Taken around a fork (ligands/prepare/prepare_workers.c), so that the child's copy is free. */
extern "C" void vsg_ob_hold(int on)
{
    if (on) vsg_ob_lock.lock();
    else vsg_ob_lock.unlock();
}

namespace {

/* Fills mol from lig; returns VSG_OK or VSG_E_DATA (with the message set). */
vsg_status build_molecule(const vsg_ligand *lig, OpenBabel::OBMol &mol)
{
    using namespace OpenBabel;
    bool any_hydrogen = false, any_aromatic = false;
    mol.BeginModify();
    for (int i = 0; i < lig->natoms; i++) {
        const vsg_lig_atom &src = lig->atoms[i];
        unsigned int z = src.element[0] ? OBElements::GetAtomicNum(src.element) : 0;
        if (z == 0)
            return vsg_fail(VSG_E_DATA, "atom %d (%s): unknown element '%s' for Gasteiger charges", i + 1, src.name,
                            src.element);
        OBAtom *atom = mol.NewAtom();
        atom->SetAtomicNum(z);
        atom->SetVector(src.x, src.y, src.z);
        atom->SetFormalCharge(src.formal);
        /* The partial charges stay 0 before the iteration (Open Babel's Gasteiger starts from them
         * and does not seed formal charges), so a charged molecule's charges add up to 0 as
         * Open Babel's and AutoDockTools' Gasteiger charges do (the AD4 calibration's); RDKit's and
         * Meeko's, seeded with formal charges, add up to the molecule's charge. vsgrid prepare
         * spreads the formal charge of receptor HETATM groups itself (prep_spread_formal_charges). */
        any_hydrogen |= z == 1;
    }
    for (int e = 0; e < lig->nbonds; e++) {
        const vsg_lig_bond &b = lig->bonds[e];
        if (b.a < 0 || b.a >= lig->natoms || b.b < 0 || b.b >= lig->natoms || b.a == b.b)
            return vsg_fail(VSG_E_DATA, "bond %d joins atoms %d and %d of a %d-atom molecule", e + 1, b.a + 1,
                            b.b + 1, lig->natoms);
        bool aromatic = b.order == VSG_BOND_AROMATIC;
        int order = b.order == 2 || b.order == 3 ? b.order : 1;
        if (!mol.AddBond(b.a + 1, b.b + 1, order, aromatic ? OB_AROMATIC_BOND : 0))
            return vsg_fail(VSG_E_DATA, "bond %d (atoms %d-%d) was refused by Open Babel (duplicate?)", e + 1,
                            b.a + 1, b.b + 1);
        if (aromatic) {
            any_aromatic = true;
            mol.GetAtom(b.a + 1)->SetAromatic();
            mol.GetAtom(b.b + 1)->SetAromatic();
        }
    }
    mol.EndModify();
    if (!any_hydrogen)
        for (OBAtomIterator it = mol.BeginAtoms(); it != mol.EndAtoms(); ++it)
            OBAtomAssignTypicalImplicitHydrogens(*it);
    if (any_aromatic) {
        mol.SetAromaticPerceived(); /* the flags above are the input's, for the Kekulé step */
        OBKekulize(&mol);
    }
    if (lig->format == VSG_LIG_MOL2) {
        /* Open Babel's MOL2 reader keeps the file's aromaticity instead of perceiving it:
         * the atoms and bonds of "ar" ring bonds (a carboxylate's "ar" bonds do not count). */
        for (OBAtomIterator it = mol.BeginAtoms(); it != mol.EndAtoms(); ++it)
            (*it)->SetAromatic(false);
        for (int e = 0; e < lig->nbonds; e++) {
            OBBond *bond = mol.GetBond(e);
            bond->SetAromatic(false);
            if (lig->bonds[e].order == VSG_BOND_AROMATIC && bond->IsInRing()) {
                bond->SetAromatic();
                bond->GetBeginAtom()->SetAromatic();
                bond->GetEndAtom()->SetAromatic();
            }
        }
        mol.SetAromaticPerceived();
    } else {
        mol.SetAromaticPerceived(false); /* perceived afresh, as Open Babel's SDF reader does */
    }
    /* hybridisation and atom types are perceived afresh, as after reading a file */
    mol.SetHybridizationPerceived(false);
    mol.SetAtomTypesPerceived(false);
    mol.SetPartialChargesPerceived(false);
    return VSG_OK;
}
} // namespace

extern "C" int vsg_ligand_gasteiger_available(void) { return 1; }

extern "C" vsg_status vsg_ligand_gasteiger(vsg_ligand *lig)
{
    if (!lig)
        return vsg_fail(VSG_E_ARG, "vsg_ligand_gasteiger: no ligand");
    if (lig->natoms <= 0)
        return VSG_OK;
    try {
        using namespace OpenBabel;
        OBMol mol;
        vsg_status st = build_molecule(lig, mol);
        if (st != VSG_OK)
            return st;
        std::lock_guard<std::mutex> hold(vsg_ob_lock);
        /* The charge models live in a plugin library; OBPlugin::GetPlugin loads it on first
         * use (OBChargeModel::FindType does not, from a program that has no OBConversion). */
        OBChargeModel *model = static_cast<OBChargeModel *>(OBPlugin::GetPlugin("charges", "gasteiger"));
        if (!model)
            return vsg_fail(VSG_E_UNSUPPORTED, "Open Babel has no 'gasteiger' charge model (plugins not found?)");
        if (!model->ComputeCharges(mol)) {
            /* name the atom that most likely stopped it: an element Gasteiger-Marsili has no parameters for */
            static const char *const known[] = {"H", "C", "N", "O", "S", "P", "F", "Cl", "Br", "I", nullptr};
            for (int i = 0; i < lig->natoms; i++) {
                const vsg_lig_atom *a = &lig->atoms[i];
                bool ok = false;
                for (int k = 0; known[k] && !ok; k++) ok = !strcmp(a->element, known[k]);
                if (!ok)
                    return vsg_fail(VSG_E_DATA,
                                    "no Gasteiger charges: atom %d ('%s', line %d) is %s, which the Gasteiger-Marsili "
                                    "method has no parameters for (it covers H C N O S P F Cl Br I): leave the "
                                    "molecule out, or give its charges in the file (--charges file)",
                                    i + 1, a->name, a->line, a->element[0] ? a->element : "an unknown element");
            }
            return vsg_fail(VSG_E_DATA, "Open Babel could not compute Gasteiger charges for this molecule");
        }
        if ((int)mol.NumAtoms() != lig->natoms)
            return vsg_fail(VSG_E_DATA, "Open Babel changed the atom count (%u, expected %d)", mol.NumAtoms(),
                            lig->natoms);
        for (int i = 0; i < lig->natoms; i++)
            lig->atoms[i].charge = mol.GetAtom(i + 1)->GetPartialCharge();
        return VSG_OK;
    } catch (const std::bad_alloc &) {
        return vsg_fail(VSG_E_NOMEM, "out of memory computing Gasteiger charges (%d atoms)", lig->natoms);
    } catch (...) {
        return vsg_fail(VSG_E_DATA, "Open Babel failed computing Gasteiger charges");
    }
}
