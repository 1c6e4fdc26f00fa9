/* protonation_rules.cpp — the protonation states Open Babel's pH model gets wrong, set again
 * from literature pKa values (issue 29; docs/PERFORMANCE.md, "Protonation against DUD-E's
 * states", has the measurement).
 *
 * Open Babel's phmodel.txt protonates every sp3 amine not bonded to a heteroatom (one pKa,
 * 10) and every amidine-like group (12.5), and has no rule for heteroaryl thiols or
 * 2-aminoimidazoles. Measured against DUD-E's states these were most of the disagreements:
 * amines whose neighbours pull their pKa below 7.4 (benzylic, next to an azole, β-ether,
 * piperazines with an acyl or aryl on the other N, aminals), amidines made non-basic by an
 * acyl, aryl, cyano or sulfonyl on a nitrogen (iminothiazolidinones, acyl-amidines,
 * isothioureas, thioureas drawn as their thiol tautomer), acidic heteroaryl thiols left
 * neutral, basic 2-aminoimidazoles left neutral. The rules below set the state of these
 * groups by comparing a pKa with the pH: protonated (bases) or acid form (acids) when the pKa
 * is above the pH, neutral or anionic when not.
 *
 * The pKa values are literature values of parent compounds (water, 25 °C; Perrin, "Dissociation
 * constants of organic bases in aqueous solution", 1965/1972, and Perrin, Dempsey & Serjeant,
 * "pKa prediction for organic acids and bases", 1981, unless said), and the substituent
 * effects are the differences between such parents, added (the Perrin-Dempsey-Serjeant
 * scheme: each effect falls off by a factor of about 0.45 a bond). They are approximate to a
 * unit or so; nothing here was set to fit a single molecule of the test sets. Where the
 * literature pKa is above 7.4 (N-aryl sulfonamides 8-8.5, pyridine-2-thiol 10, 4-quinolones
 * 11), no rule changes Open Babel's neutral state, although DUD-E ionises some of them.
 */
#include "ligands/prepare/protonation_rules.h"

#include <algorithm>
#include <vector>

#include <openbabel/atom.h>
#include <openbabel/bond.h>
#include <openbabel/mol.h>
#include <openbabel/obiter.h>
#include <openbabel/parsmart.h>
#include <openbabel/ring.h>

namespace {
using namespace OpenBabel;

/* ---- amines ---------------------------------------------------------------------------- */

/* Parents: methylamine 10.6, ethylamine 10.7 (primary); dimethylamine 10.7, diethylamine 11.0,
 * piperidine 11.1, pyrrolidine 11.3 (secondary); trimethylamine 9.8, N-methylpiperidine 10.1,
 * N,N-dimethylethylamine 10.2 (tertiary: less solvated as cations). */
const double AMINE_PKA[4] = {0.0, 10.6, 11.0, 10.1}; /* by the number of carbons on N */
/* The same substituent lowers a more substituted amine less: a benzyl -1.3 on methylamine
 * (benzylamine 9.34), -1.15 on dimethylamine (N-methylbenzylamine 9.58), -0.9 on trimethylamine
 * (N,N-dimethylbenzylamine 8.93); lidocaine's Et2N-CH2-C(=O)N 7.9 against glycinamide's
 * H2N-CH2-C(=O)N 8.0 says the same. The effects below are primary amines'; times this. */
const double AMINE_SCALE[4] = {0.0, 1.0, 0.9, 0.7};
constexpr double FALLOFF = 0.45;                         /* one bond further: the effect times this */

/* An effect measured 3 bonds from the N (on the carbon beyond the α-carbon: 2-X-ethylamines)
 * expressed 2 bonds from it, where the table below keeps every effect. */
constexpr double at2(double three_bonds) { return three_bonds / FALLOFF; }

bool sp3_carbon(OBAtom *a) { return a->GetAtomicNum() == 6 && !a->IsAromatic() && !a->HasNonSingleBond(); }

/* An aliphatic amine the model covers: every heavy neighbour an sp3 carbon, no H-less
 * quaternary cation. Anilines, amides, enamines, amidines, hydrazines, hydroxylamines are not
 * amines here (Open Babel's model or the rules below decide them). */
bool aliphatic_amine(OBAtom *n)
{
    if (n->GetAtomicNum() != 7 || n->IsAromatic() || n->HasNonSingleBond()) return false;
    const int q = n->GetFormalCharge();
    if (q != 0 && q != 1) return false;
    int c = 0;
    FOR_NBORS_OF_ATOM(x, n) {
        if (x->GetAtomicNum() == 1) continue;
        if (!sp3_carbon(&*x)) return false;
        c++;
    }
    if (c < 1 || c > 3) return false;
    return !(q == 1 && n->GetImplicitHCount() + n->ExplicitHydrogenCount() == 0u);
}

bool has_double_to(OBAtom *a, unsigned z)
{
    FOR_BONDS_OF_ATOM(b, a)
        if (b->GetBondOrder() == 2 && !b->IsAromatic() && b->GetNbrAtom(a)->GetAtomicNum() == z) return true;
    return false;
}

bool has_anionic_oxygen(OBAtom *a)
{
    FOR_NBORS_OF_ATOM(x, a) if (x->GetAtomicNum() == 8 && x->GetFormalCharge() < 0) return true;
    return false;
}

/* aromatic heteroatoms bonded to an aromatic atom (the ring atoms flanking an attachment) */
int aromatic_hetero_neighbours(OBAtom *a)
{
    int k = 0;
    FOR_NBORS_OF_ATOM(x, a) k += x->IsAromatic() && x->GetAtomicNum() != 6 && x->GetAtomicNum() != 1;
    return k;
}

/* The effect on an amine's pKa of atom z, 2 bonds from the N (bonded to an α-carbon), when z is
 * not an sp3 carbon; basic amine N's are the caller's. */
double effect2(OBAtom *z)
{
    const int e = z->GetAtomicNum();
    if (z->IsAromatic()) {
        if (e != 6) return at2(-1.4); /* an azole N on the carbon: as an amide N, below */
        /* benzylamine 9.3 (-1.3); 2-picolylamine 8.8, furfurylamine 8.9 (-1.8: -0.5 more for a
         * ring heteroatom next to the attachment) */
        return -1.3 - 0.6 * aromatic_hetero_neighbours(z);
    }
    switch (e) {
    case 6:
        FOR_BONDS_OF_ATOM(b, z) {
            if (b->GetBondOrder() == 3)
                return b->GetNbrAtom(z)->GetAtomicNum() == 7 ? -5.3  /* aminoacetonitrile 5.3 */
                                                             : -2.5; /* propargylamine 8.2 */
        }
        if (has_double_to(z, 8) || has_double_to(z, 16) || has_double_to(z, 7))
            return has_anionic_oxygen(z) ? -1.0  /* glycine's amine 9.6, as a carboxylate */
                                         : -2.7; /* glycinamide 8.0, glycine ethyl ester 7.7 */
        if (has_double_to(z, 6)) return -1.1;    /* allylamine 9.5 */
        return 0.0;
    case 8: return at2(-1.2); /* 2-methoxyethylamine 9.4, ethanolamine 9.5; morpholine 8.4 (two) */
    case 7: return at2(-1.4); /* an N-aryl or N-acyl N: 1-phenylpiperazine 8.8-9.0, 1-acetylpiperazine
                               * 7.9 (two paths each; -1.1 and -1.6 a path) */
    case 16:
        return (has_double_to(z, 8) ? at2(-2.5)   /* 2-(methylsulfonyl)ethylamine ~8.1 */
                                    : at2(-1.0)); /* 2-(methylthio)ethylamine ~9.6 */
    case 9: return at2(-1.7);                     /* 2-fluoroethylamine 9.0, 2,2,2-trifluoro 5.7 */
    case 17:
    case 35:
    case 53: return at2(-1.8); /* 2-chloroethylamine 8.8 */
    default: return 0.0;
    }
}

/* Basic N: unprotonated, its pull on a neighbour amine (ethylenediamine's first pKa 9.9,
 * piperazine's 9.7: -0.8 a path, 3 bonds); once protonated, 2.6 more (ethylenediamine's second
 * pKa 6.9, piperazine's 5.3). */
const double BASIC_N3 = -0.8, AMMONIUM_EXTRA3 = -2.6;

struct amine {
    OBAtom *n;
    double pka;
    std::vector<std::pair<int, double>> links; /* other amine, extra effect once it is protonated */
};

/* pKa of every aliphatic amine, then protonation from the most basic down, each protonated
 * amine lowering the others near it (the diamines' second pKa). */
int amines(OBMol &mol, double ph)
{
    std::vector<amine> am;
    std::vector<int> index(mol.NumAtoms() + 1, -1);
    FOR_ATOMS_OF_MOL(a, mol)
        if (aliphatic_amine(&*a)) {
            index[a->GetIdx()] = (int)am.size();
            am.push_back({&*a, 0.0, {}});
        }
    for (size_t i = 0; i < am.size(); i++) {
        OBAtom *n = am[i].n;
        int carbons = 0;
        double pka = 0.0;
        auto link = [&](OBAtom *other, double extra) {
            am[i].links.push_back({index[other->GetIdx()], extra});
        };
        FOR_NBORS_OF_ATOM(ca, n) { /* every path N-Cα-z and N-Cα-Cβ-y counts once */
            if (ca->GetAtomicNum() == 1) continue;
            carbons++;
            FOR_NBORS_OF_ATOM(z, &*ca) {
                if (&*z == n || z->GetAtomicNum() == 1) continue;
                if (index[z->GetIdx()] >= 0) { /* an aminal: N-C-N */
                    pka += at2(BASIC_N3);
                    link(&*z, at2(AMMONIUM_EXTRA3));
                } else if (sp3_carbon(&*z)) {
                    FOR_NBORS_OF_ATOM(y, &*z) {
                        if (&*y == &*ca || &*y == n || y->GetAtomicNum() == 1 || sp3_carbon(&*y)) continue;
                        if (index[y->GetIdx()] >= 0) {
                            pka += BASIC_N3;
                            link(&*y, AMMONIUM_EXTRA3);
                        } else
                            pka += FALLOFF * effect2(&*y);
                    }
                } else
                    pka += effect2(&*z);
            }
        }
        am[i].pka = AMINE_PKA[carbons] + AMINE_SCALE[carbons] * pka;
    }
    int changed = 0;
    std::vector<bool> done(am.size(), false);
    for (size_t k = 0; k < am.size(); k++) {
        int best = -1;
        for (size_t i = 0; i < am.size(); i++)
            if (!done[i] && (best < 0 || am[i].pka > am[best].pka)) best = (int)i;
        done[best] = true;
        OBAtom *n = am[best].n;
        const bool on = am[best].pka > ph;
        if (on) /* the neighbours' pKa fall, once a path */
            for (amine &other : am)
                for (auto &l : other.links)
                    if (l.first == best) other.pka += l.second;
        if (on && n->GetFormalCharge() == 0) {
            n->SetFormalCharge(1);
            n->SetImplicitHCount(n->GetImplicitHCount() + 1);
            changed++;
        } else if (!on && n->GetFormalCharge() == 1 && n->GetImplicitHCount() > 0) {
            n->SetFormalCharge(0);
            n->SetImplicitHCount(n->GetImplicitHCount() - 1);
            changed++;
        }
    }
    return changed;
}

/* ---- amidines, guanidines, isothioureas -------------------------------------------------- */

/* The effect of a substituent x on an amidine N (x not the amidine carbon). */
double amidine_n_effect(OBAtom *x)
{
    const int e = x->GetAtomicNum();
    if (x->IsAromatic()) /* phenylguanidine 10.8 (-2.8); 2-guanidinobenzimidazole 7.1,
                          * 2-guanidinothiazoles ~7 (-6.5: a ring N or S next to the attachment) */
        return aromatic_hetero_neighbours(x) ? -6.5 : -2.8;
    switch (e) {
    case 6:
        FOR_BONDS_OF_ATOM(b, x)
            if (b->GetBondOrder() == 3) return -14.0; /* cyanoguanidine -0.4 */
        if (has_double_to(x, 8) || has_double_to(x, 16)) return -5.3; /* acetylguanidine 8.3 */
        if (has_double_to(x, 7)) return -2.0;                         /* biguanide 11.5 */
        if (has_double_to(x, 6)) {
            /* an enamine: as an aryl, or as an acyl when the C=C goes on to a C=O (a vinylogous
             * amide) */
            FOR_BONDS_OF_ATOM(b, x) {
                if (b->GetBondOrder() != 2) continue;
                OBAtom *w = b->GetNbrAtom(x);
                FOR_NBORS_OF_ATOM(v, w) if (&*v != x && (has_double_to(&*v, 8) || has_double_to(&*v, 16))) return -5.3;
            }
            return -2.8;
        }
        return 0.0; /* N-alkyl: N-methylguanidine 13.4 */
    case 7: return x->HasNonSingleBond() ? -5.5 /* a guanylhydrazone: guanabenz 8.1 */
                                         : -2.6; /* aminoguanidine 11.0 */
    case 8: return -7.0;                         /* benzamidoxime 4.8 against benzamidine 11.6 */
    case 16: return has_double_to(x, 8) ? -12.0 : -2.8; /* sulfonyl: sulfaguanidine, not basic */
    default: return 0.0;
    }
}

/* Every non-aromatic C(=N)(N) group: its pKa from the parent (acetamidine 12.4, guanidine
 * 13.6, S-methylisothiourea 9.8, O-methylisourea 9.7; thiourea -1 and urea 0.1 when the
 * SMILES draws them as their thiol or enol tautomer) and the substituents on its nitrogens
 * (benzamidine 11.6: -0.8 for an aryl or vinyl on the carbon). */
int amidines(OBMol &mol, double ph)
{
    int changed = 0;
    FOR_ATOMS_OF_MOL(c, mol) {
        if (c->GetAtomicNum() != 6 || c->IsAromatic() || c->GetFormalCharge() != 0 || c->GetHvyDegree() != 3) continue;
        OBAtom *nd = nullptr;
        std::vector<OBAtom *> ns;
        std::vector<OBAtom *> others;
        int doubles = 0;
        FOR_BONDS_OF_ATOM(b, &*c) {
            OBAtom *x = b->GetNbrAtom(&*c);
            if (b->GetBondOrder() == 2) {
                doubles++;
                if (x->GetAtomicNum() == 7 && !x->IsAromatic()) nd = x;
            } else if (b->GetBondOrder() == 1 && x->GetAtomicNum() == 7)
                ns.push_back(x);
            else if (x->GetAtomicNum() != 1)
                others.push_back(x);
        }
        if (doubles != 1 || !nd || ns.empty()) continue;
        double pka = ns.size() >= 2 ? 13.6 : 12.4;
        for (OBAtom *x : others) {
            const int hx = x->GetImplicitHCount() + x->ExplicitHydrogenCount();
            if (x->GetAtomicNum() == 16) pka = hx ? -1.0 : 9.8;
            else if (x->GetAtomicNum() == 8) pka = hx ? 0.1 : 9.7;
            else if (x->GetAtomicNum() == 6 && (x->IsAromatic() || has_double_to(x, 6))) pka -= 0.8;
        }
        std::vector<OBAtom *> group(ns);
        group.push_back(nd);
        for (OBAtom *n : group)
            FOR_NBORS_OF_ATOM(x, n) if (&*x != &*c && x->GetAtomicNum() != 1) pka += amidine_n_effect(&*x);
        OBAtom *charged = nullptr;
        bool other_charge = false;
        for (OBAtom *n : group) {
            if (n->GetFormalCharge() == 1) charged = n;
            else if (n->GetFormalCharge() != 0) other_charge = true;
        }
        if (other_charge) continue;
        if (pka > ph && !charged) {
            nd->SetFormalCharge(1);
            nd->SetImplicitHCount(nd->GetImplicitHCount() + 1);
            changed++;
        } else if (pka <= ph && charged && charged->GetImplicitHCount() > 0) {
            charged->SetFormalCharge(0);
            charged->SetImplicitHCount(charged->GetImplicitHCount() - 1);
            changed++;
        }
    }
    return changed;
}

/* ---- heteroaryl thiols ----------------------------------------------------------------------- */

/* The smallest aromatic ring of atom a: its size and heteroatom count. */
bool aromatic_ring(OBMol &mol, OBAtom *a, int *size, int *hetero)
{
    OBRing *best = nullptr;
    for (OBRing *r : mol.GetSSSR())
        if (r->IsAromatic() && r->IsMember(a) && (!best || r->Size() < best->Size())) best = r;
    if (!best) return false;
    *size = (int)best->Size();
    *hetero = 0;
    for (int idx : best->_path) {
        const int e = mol.GetAtom(idx)->GetAtomicNum();
        *hetero += e != 6;
    }
    return true;
}

/* Whether the smallest aromatic ring of a has a C=O on it (a pyrimidinone, not a pyrimidine). */
bool ring_carbonyl(OBMol &mol, OBAtom *a)
{
    OBRing *best = nullptr;
    for (OBRing *r : mol.GetSSSR())
        if (r->IsAromatic() && r->IsMember(a) && (!best || r->Size() < best->Size())) best = r;
    if (!best) return false;
    for (int idx : best->_path)
        if (has_double_to(mol.GetAtom(idx), 8)) return true;
    return false;
}

/* Thiols on an aromatic carbon (or the C=S of their thione tautomer with a ring N-H): in a
 * five-membered ring of two or more heteroatoms about pKa 6.5 (2-mercaptobenzothiazole 7.0,
 * 1,2,4-triazole-3-thiols 6.5-7.5, 1,3,4-thiadiazole-2-thiols ~5.5, 1-phenyltetrazole-5-thiol
 * 3.7); between two ring N of a six-membered ring 7.1 (2-mercaptopyrimidine). Pyridine-2-thiol
 * (10.0), imidazole-2-thiols (~11) and benzenethiol (6.6, but rare and aryl thiolates are not
 * DUD-E's) are left to Open Babel. */
int thiols(OBMol &mol, double ph)
{
    int changed = 0;
    FOR_ATOMS_OF_MOL(s, mol) {
        if (s->GetAtomicNum() != 16 || s->GetHvyDegree() != 1) continue;
        OBBond *b = nullptr;
        FOR_BONDS_OF_ATOM(bb, &*s) if (bb->GetNbrAtom(&*s)->GetAtomicNum() != 1) b = &*bb;
        OBAtom *c = b->GetNbrAtom(&*s);
        if (c->GetAtomicNum() != 6 || !c->IsAromatic()) continue;
        int size = 0, hetero = 0;
        if (!aromatic_ring(mol, c, &size, &hetero)) continue;
        int ring_n = 0;
        OBAtom *nh = nullptr; /* the thione's ring N-H */
        FOR_NBORS_OF_ATOM(x, c) {
            if (x->GetAtomicNum() != 7 || !x->IsAromatic()) continue;
            ring_n++;
            if (x->GetImplicitHCount() > 0 && x->GetFormalCharge() == 0) nh = &*x;
        }
        double pka;
        if (size == 5 && hetero >= 2) pka = 6.5;
        else if (size == 6 && ring_n >= 2 && !ring_carbonyl(mol, c)) pka = 7.1;
        else continue; /* a 2-thiouracil (7.5) is no pyrimidine-2-thiol */
        const bool thiol = b->GetBondOrder() == 1;
        OBAtom *h_on = thiol ? &*s : nh; /* the atom that gives up the proton */
        if (pka < ph && h_on && h_on->GetFormalCharge() == 0 && h_on->GetImplicitHCount() > 0) {
            h_on->SetFormalCharge(-1);
            h_on->SetImplicitHCount(h_on->GetImplicitHCount() - 1);
            changed++;
        } else if (pka >= ph && thiol && s->GetFormalCharge() == -1) {
            s->SetFormalCharge(0);
            s->SetImplicitHCount(s->GetImplicitHCount() + 1);
            changed++;
        }
    }
    return changed;
}

/* ---- 2-aminoimidazoles ----------------------------------------------------------------------- */

/* 2-aminoimidazole's ring N takes a proton at pKa 8.5 (the amidine made aromatic; imidazole
 * itself 7.0, which Open Babel's model has). Benzo-fused ones (2-aminobenzimidazole 7.5) and
 * acylated amino groups are not matched. Only the protonation: a neutral input stays neutral
 * above pH 8.5, as Open Babel leaves it. */
int aminoimidazoles(OBMol &mol, double ph)
{
    /* Open Babel's SMARTS objects keep their matches inside: one made once, used under the
     * caller's lock */
    static OBSmartsPattern pat;
    static const bool ok = pat.Init("[nX2;r5;+0]1:c(-[NX3;!$(N[#6,#16]=[O,S,N])]):[nX3;r5]:[c;R1]:[c;R1]:1");
    if (!ok || !(8.5 > ph) || !pat.Match(mol)) return 0;
    int changed = 0;
    for (const std::vector<int> &m : pat.GetUMapList()) {
        OBAtom *n = mol.GetAtom(m[0]);
        if (n->GetFormalCharge() != 0) continue;
        n->SetFormalCharge(1);
        n->SetImplicitHCount(n->GetImplicitHCount() + 1);
        changed++;
    }
    return changed;
}

} // namespace

int vsg_protonation_rules(OpenBabel::OBMol &mol, double ph)
{
    /* the groups do not overlap: an amine here has only sp3 carbons on it, an amidine's N has
     * the amidine carbon, a thiol's S and an aminoimidazole's ring N neither */
    int changed = thiols(mol, ph);
    changed += aminoimidazoles(mol, ph);
    changed += amidines(mol, ph);
    changed += amines(mol, ph);
    if (changed) mol.SetAromaticPerceived(false); /* charges changed: perceive again if asked */
    return changed;
}
