/* protonation_rules.h — vsgrid's protonation rules applied after Open Babel's pH model
 * (OBMol::CorrectForPH, phmodel.txt) to a SMILES record (internal, C++: smiles_obabel.cpp
 * calls it). protonation_rules.cpp says which groups, with which literature pKa, and why. */
#ifndef VSG_PROTONATION_RULES_H
#define VSG_PROTONATION_RULES_H

namespace OpenBabel {
class OBMol;
}

/* Sets the state of the groups the rules know at pH ph: protonated where the rule's pKa is
 * above ph, neutral (bases) or deprotonated (acids) where it is not; other atoms keep the pH
 * model's state. The molecule has implicit hydrogens (as CorrectForPH leaves it). Returns how
 * many atoms changed charge. The caller holds vsg_ob_lock (Open Babel's aromaticity and ring
 * perception and the rules' SMARTS objects are process-wide). */
int vsg_protonation_rules(OpenBabel::OBMol &mol, double ph);

#endif
