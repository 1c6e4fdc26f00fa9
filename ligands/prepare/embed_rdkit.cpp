/* embed_rdkit.cpp — 3D coordinates for a prepared SMILES by RDKit's ETKDGv3 and MMFF94
 * (embed_rdkit.h says what comes out). Why RDKit for this one step, when Open Babel does the
 * rest (parsing, fragments, protonation, charges): measured on DUD-E INHA SMILES
 * (docs/PERFORMANCE.md, "Issue 29"), ETKDGv3 + 50 MMFF94 iterations keeps every specified
 * stereocentre where Open Babel's builder inverts some (2 of the 32 shared crystal ligands against
 * none), leaves bonds closer to the force field's minimum than the builder + 100 steepest-descent
 * steps (0.022 A against 0.031 A at the 90th percentile; the builder alone 0.4-3 A) in less
 * time, and is seeded: the same molecule in every run, where Open Babel's builder is
 * clock-seeded.
 *
 * Threads: every call builds its own molecule and force field; RDKit keeps no shared mutable
 * state on this path (its loggers are switched off once, below). C++ exceptions never cross into
 * C. */
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <GraphMol/GraphMol.h>
#include <GraphMol/MolOps.h>
#include <GraphMol/Chirality.h>
#include <GraphMol/SmilesParse/SmilesParse.h>
#include <GraphMol/SmilesParse/SmilesWrite.h>
#include <GraphMol/DistGeomHelpers/Embedder.h>
#include <GraphMol/ForceFieldHelpers/MMFF/MMFF.h>
#include <GraphMol/ForceFieldHelpers/UFF/AtomTyper.h>
#include <GraphMol/ForceFieldHelpers/UFF/UFF.h>
#include <GraphMol/FileParsers/FileParsers.h>
#include <RDGeneral/RDLog.h>

#include "ligands/prepare/embed_rdkit.h"

namespace {
std::once_flag logs_once;

/* RDKit's warnings ("UFFTYPER", kekulization) would go to stderr from every thread; vsgrid says
 * what failed itself */
void quiet_logs() { std::call_once(logs_once, [] { boost::logging::disable_logs("rdApp.*"); }); }

/* Specified configurations the embedded coordinates contradict: CIP labels of the centres and
 * E/Z of the double bonds the SMILES specified (kept on ref from its parse), against those
 * perceived from ref's coordinates, on a copy. ETKDG enforces tetrahedral chirality, so this is a guard, not a
 * search. */
int contradicted(const RDKit::ROMol &ref)
{
    RDKit::RWMol probe(ref); /* the SMILES's labels stay on ref; the copy's come from 3D */
    RDKit::MolOps::assignStereochemistryFrom3D(probe, -1, true);
    int bad = 0;
    for (const RDKit::Atom *a : ref.atoms()) {
        std::string want, got;
        if (!a->getPropIfPresent(RDKit::common_properties::_CIPCode, want)) continue;
        if (!probe.getAtomWithIdx(a->getIdx())->getPropIfPresent(RDKit::common_properties::_CIPCode, got) || got != want)
            bad++;
    }
    for (const RDKit::Bond *b : ref.bonds()) {
        const RDKit::Bond::BondStereo want = b->getStereo();
        if (want != RDKit::Bond::STEREOE && want != RDKit::Bond::STEREOZ) continue;
        if (probe.getBondWithIdx(b->getIdx())->getStereo() != want) bad++;
    }
    return bad;
}

/* Conformer conf's force field (initialised): MMFF94, else UFF where MMFF94 lacks a parameter,
 * each with the non-bonded pairs RDKit's MMFFOptimizeMolecule / UFFOptimizeMolecule take (within
 * 10 times their minimum distance); *name says which ("none" and null when neither types m).
 * The force field moves the conformer's own positions. */
std::unique_ptr<ForceFields::ForceField> force_field(RDKit::ROMol &m, int conf, const char **name)
{
    std::unique_ptr<ForceFields::ForceField> ff;
    *name = "none";
    RDKit::MMFF::MMFFMolProperties props(m);
    if (props.isValid()) {
        ff.reset(RDKit::MMFF::constructForceField(m, &props, 10.0, conf));
        *name = "MMFF94";
    } else if (RDKit::UFF::getAtomTypes(m).second) {
        ff.reset(RDKit::UFF::constructForceField(m, 10.0, conf));
        *name = "UFF";
    }
    if (ff) ff->initialize();
    return ff;
}

/* iters iterations of force_field's minimiser on conformer conf; the force field's name */
const char *relax(RDKit::ROMol &m, int iters, int conf = -1)
{
    const char *name;
    std::unique_ptr<ForceFields::ForceField> ff = force_field(m, conf, &name);
    if (ff) ff->minimize(iters);
    return name;
}

/* Conformer conf's energy by force_field (kcal/mol); 0 when neither force field types m */
double energy(RDKit::ROMol &m, int conf)
{
    const char *name;
    std::unique_ptr<ForceFields::ForceField> ff = force_field(m, conf, &name);
    return ff ? ff->calcEnergy() : 0.0;
}

/* A conformer's coordinates appended to v */
void append(const RDKit::Conformer &c, std::vector<double> &v)
{
    for (unsigned i = 0; i < c.getNumAtoms(); i++) {
        const RDGeom::Point3D q = c.getAtomPos(i);
        v.push_back(q.x), v.push_back(q.y), v.push_back(q.z);
    }
}

/* The torsions that tell ring conformations apart: each non-aromatic single ring bond b-c, with
 * the first neighbour of b (not c) and of c (not b) that is a ring atom; empty without such a
 * bond. The choice of neighbours is arbitrary but the same for every conformer. */
std::vector<std::array<unsigned, 4>> ring_torsions(const RDKit::ROMol &m)
{
    std::vector<std::array<unsigned, 4>> t;
    const RDKit::RingInfo *ri = m.getRingInfo();
    for (const RDKit::Bond *b : m.bonds()) {
        if (b->getIsAromatic() || b->getBondType() != RDKit::Bond::SINGLE || !ri->numBondRings(b->getIdx())) continue;
        const unsigned i = b->getBeginAtomIdx(), j = b->getEndAtomIdx();
        int a = -1, d = -1;
        for (const RDKit::Atom *n : m.atomNeighbors(b->getBeginAtom()))
            if (n->getIdx() != j && ri->numAtomRings(n->getIdx()) && a < 0) a = (int)n->getIdx();
        for (const RDKit::Atom *n : m.atomNeighbors(b->getEndAtom()))
            if (n->getIdx() != i && ri->numAtomRings(n->getIdx()) && d < 0) d = (int)n->getIdx();
        if (a >= 0 && d >= 0) t.push_back({(unsigned)a, i, j, (unsigned)d});
    }
    return t;
}

double dihedral(const RDKit::Conformer &c, const std::array<unsigned, 4> &q)
{
    const RDGeom::Point3D p0 = c.getAtomPos(q[0]), p1 = c.getAtomPos(q[1]), p2 = c.getAtomPos(q[2]),
                          p3 = c.getAtomPos(q[3]);
    const RDGeom::Point3D b0 = p0 - p1, b1 = p2 - p1, b2 = p3 - p2;
    RDGeom::Point3D n1 = b1;
    n1.normalize();
    const RDGeom::Point3D v = b0 - n1 * b0.dotProduct(n1), w = b2 - n1 * b2.dotProduct(n1);
    const double x = v.dotProduct(w), y = n1.crossProduct(v).dotProduct(w);
    return std::atan2(y, x) * 180.0 / M_PI;
}

/* 1 when the two conformers' ring torsions all lie within VSG_RDKIT_RING_TORSION_DIFF */
bool same_rings(const RDKit::Conformer &a, const RDKit::Conformer &b, const std::vector<std::array<unsigned, 4>> &t)
{
    for (const auto &q : t) {
        double d = std::fabs(dihedral(a, q) - dihedral(b, q));
        if (d > 180.0) d = 360.0 - d;
        if (d > VSG_RDKIT_RING_TORSION_DIFF) return false;
    }
    return true;
}

/* conformers > 1: further conformers of mol (its first conformer embedded and relaxed), whose
 * rings differ from the first's and each other's (embed_rdkit.h), appended to extra (x, y, z of
 * every atom, conformer after conformer). */
void further_conformers(RDKit::RWMol &mol, int seed, int iters, int conformers, std::vector<double> &extra)
{
    const auto tors = ring_torsions(mol);
    if (tors.empty()) return;
    RDKit::RWMol cand(mol);
    cand.clearConformers();
    RDKit::DGeomHelpers::EmbedParameters p = RDKit::DGeomHelpers::ETKDGv3;
    p.numThreads = 1;
    p.randomSeed = seed + 1000;
    const RDKit::INT_VECT ids =
        RDKit::DGeomHelpers::EmbedMultipleConfs(cand, VSG_RDKIT_CANDIDATES_PER_CONFORMER * conformers, p);
    if (ids.empty()) return;
    std::vector<std::pair<double, int>> order; /* energy, conformer id */
    double lowest = energy(mol, -1);
    for (int id : ids) {
        if (iters > 0) relax(cand, iters, id);
        RDKit::ROMol one(cand, false, id);
        if (contradicted(one)) continue;
        const double e = energy(cand, id);
        order.emplace_back(e, id);
        lowest = std::min(lowest, e);
    }
    std::sort(order.begin(), order.end());
    std::vector<const RDKit::Conformer *> kept{&mol.getConformer()};
    for (const auto &c : order) {
        if ((int)kept.size() >= conformers) break;
        if (c.first > lowest + VSG_RDKIT_ENERGY_WINDOW) break;
        const RDKit::Conformer &conf = cand.getConformer(c.second);
        bool distinct = true;
        for (const RDKit::Conformer *k : kept) distinct = distinct && !same_rings(*k, conf, tors);
        if (distinct) kept.push_back(&conf);
    }
    for (size_t k = 1; k < kept.size(); k++) append(*kept[k], extra);
}

/* The stereoisomers of mol's open centres and double bonds (RDKit's findPotentialStereo: ring
 * cis/trans included), each once (by canonical isomeric SMILES), at most
 * VSG_RDKIT_MAX_ISOMERS, in the order of the bit patterns (centre k takes bit k: clockwise 0,
 * anticlockwise 1; a double bond trans 0, cis 1); empty when mol has no open centre. */
std::vector<std::unique_ptr<RDKit::RWMol>> stereoisomers(const RDKit::RWMol &mol, int *nopen)
{
    std::vector<std::unique_ptr<RDKit::RWMol>> out;
    std::vector<RDKit::Chirality::StereoInfo> open;
    for (const auto &si : RDKit::Chirality::findPotentialStereo(mol))
        if (si.specified == RDKit::Chirality::StereoSpecified::Unspecified &&
            (si.type == RDKit::Chirality::StereoType::Atom_Tetrahedral ||
             (si.type == RDKit::Chirality::StereoType::Bond_Double && si.controllingAtoms.size() == 4 &&
              si.controllingAtoms[0] != RDKit::Chirality::StereoInfo::NOATOM &&
              si.controllingAtoms[2] != RDKit::Chirality::StereoInfo::NOATOM)))
            open.push_back(si);
    *nopen = (int)open.size();
    if (open.empty() || open.size() > 16) return out;
    std::vector<std::string> seen;
    for (unsigned bits = 0; bits < (1u << open.size()) && out.size() < VSG_RDKIT_MAX_ISOMERS; bits++) {
        std::unique_ptr<RDKit::RWMol> m(new RDKit::RWMol(mol));
        for (size_t k = 0; k < open.size(); k++) {
            const bool one = (bits >> k) & 1u;
            if (open[k].type == RDKit::Chirality::StereoType::Atom_Tetrahedral) {
                m->getAtomWithIdx(open[k].centeredOn)
                    ->setChiralTag(one ? RDKit::Atom::CHI_TETRAHEDRAL_CCW : RDKit::Atom::CHI_TETRAHEDRAL_CW);
            } else {
                RDKit::Bond *b = m->getBondWithIdx(open[k].centeredOn);
                b->setStereoAtoms(open[k].controllingAtoms[0], open[k].controllingAtoms[2]);
                b->setStereo(one ? RDKit::Bond::STEREOCIS : RDKit::Bond::STEREOTRANS);
            }
        }
        RDKit::MolOps::assignStereochemistry(*m, false, true); /* CIP labels (contradicted checks them); cleanIt
                                                                  would drop the double bonds' cis/trans */
        const std::string smi = RDKit::MolToSmiles(*m);
        if (std::find(seen.begin(), seen.end(), smi) != seen.end()) continue;
        seen.push_back(smi);
        out.push_back(std::move(m));
    }
    return out;
}

/* mol (hydrogens added) embedded by ETKDGv3 from seed, up to max_tries times while the result
 * contradicts a specified centre (tries and inverted into out); false when no embedding was
 * found. */
bool embed_with_hydrogens(RDKit::RWMol &mol, int seed, int max_tries, vsg_rdkit_embedding *out)
{
    RDKit::DGeomHelpers::EmbedParameters p = RDKit::DGeomHelpers::ETKDGv3;
    p.numThreads = 1; /* the caller's threads and processes do the parallel work */
    int conf = -1;
    for (int k = 0; k < (max_tries > 0 ? max_tries : 1); k++) {
        mol.clearConformers();
        p.randomSeed = seed + k;
        p.useRandomCoords = false;
        conf = RDKit::DGeomHelpers::EmbedMolecule(mol, p);
        if (conf < 0) { /* eigenvalue embedding fails on some strained systems: random starts */
            p.useRandomCoords = true;
            conf = RDKit::DGeomHelpers::EmbedMolecule(mol, p);
        }
        out->tries = k + 1;
        if (conf < 0) continue;
        if ((out->inverted = contradicted(mol)) == 0) break;
    }
    return conf >= 0;
}

/* 1 unless VSG_RDKIT_EMBED_HYDROGENS=1 asks for every embedding with its hydrogens (the bench
 * switch that measures heavy-atoms-first against it, docs/PERFORMANCE.md) */
bool heavy_atoms_first()
{
    static const bool on = [] {
        const char *e = std::getenv("VSG_RDKIT_EMBED_HYDROGENS");
        return !(e && std::strcmp(e, "1") == 0);
    }();
    return on;
}

/* *mol (no hydrogens yet) with its hydrogens added and 3D coordinates, tries and inverted into
 * out; false when no embedding was found. Why not every hydrogen in the embedding: the
 * distance-geometry force field's cost grows with the square of the atoms it places, and a
 * drug-like molecule is half hydrogens, so embedding without most of them and placing those on
 * the embedded atoms (addHs(addCoords)) is 2-3 times faster (docs/PERFORMANCE.md, "Issue 29").
 * The hydrogens of non-aromatic ring atoms stay in the embedding: their distance bounds are what
 * make a substituent of a saturated ring equatorial (2H7L's N-cyclohexyl: 34 of 40 seeds with
 * them, 13 without, 35 with every hydrogen) and a ring pucker right. The force field relaxes the
 * placed hydrogens with the rest afterwards. When that embedding fails or contradicts a specified centre (rare:
 * strained or crowded systems), the molecule is embedded with every hydrogen, with the retries.
 * The same molecule comes out in the same atom order (hydrogens appended) in every run. */
bool embed_tries(std::unique_ptr<RDKit::RWMol> &mol, int seed, int max_tries, vsg_rdkit_embedding *out)
{
    if (heavy_atoms_first()) {
        std::unique_ptr<RDKit::RWMol> first(new RDKit::RWMol(*mol));
        if (!first->getRingInfo()->isInitialized()) RDKit::MolOps::findSSSR(*first); /* the parse's, else */
        const RDKit::RingInfo *ri = first->getRingInfo();
        RDKit::UINT_VECT ring; /* non-aromatic ring atoms */
        for (const RDKit::Atom *a : first->atoms())
            if (!a->getIsAromatic() && ri->numAtomRings(a->getIdx())) ring.push_back(a->getIdx());
        if (!ring.empty()) RDKit::MolOps::addHs(*first, false, false, &ring);
        RDKit::DGeomHelpers::EmbedParameters p = RDKit::DGeomHelpers::ETKDGv3;
        p.numThreads = 1;
        p.randomSeed = seed;
        if (RDKit::DGeomHelpers::EmbedMolecule(*first, p) >= 0) {
            RDKit::MolOps::addHs(*first, false, true);
            if (contradicted(*first) == 0) {
                out->tries = 1, out->inverted = 0;
                mol = std::move(first);
                return true;
            }
        }
    }
    RDKit::MolOps::addHs(*mol);
    return embed_with_hydrogens(*mol, seed, max_tries, out);
}

void embed(const char *smiles, int seed, int max_tries, int ff_iters, int conformers, int enumerate,
           vsg_rdkit_embedding *out)
{
    std::unique_ptr<RDKit::RWMol> mol;
    try {
        mol.reset(RDKit::SmilesToMol(smiles));
    } catch (const std::exception &) {
        mol.reset();
    }
    if (!mol) {
        std::snprintf(out->why, sizeof out->why, "RDKit cannot read the protonated SMILES '%.60s'", smiles);
        return;
    }
    std::vector<std::unique_ptr<RDKit::RWMol>> isomers;
    if (enumerate) isomers = stereoisomers(*mol, &out->open_stereo);
    if (isomers.empty()) isomers.push_back(std::move(mol)); /* the molecule as the SMILES has it */
    out->isomers = (int)isomers.size();
    /* the record's molecule: the first stereoisomer that can be embedded with its own
       configuration (a bridged ring's impossible one, e.g. norbornane's bridgeheads the other
       way round, cannot: it is left out as below, not the whole record failed); when none can,
       the first as its embedding left it (one that contradicts its stereo: out->inverted) */
    size_t first = 0;
    bool embedded = false, embedded0 = false;
    int tries0 = 0, inverted0 = 0;
    for (; first < isomers.size(); first++) {
        const bool ok = embed_tries(isomers[first], seed, max_tries, out);
        if (first == 0) embedded0 = ok, tries0 = out->tries, inverted0 = out->inverted;
        if (ok && !out->inverted) {
            embedded = true;
            break;
        }
        out->isomers--;
    }
    if (!embedded) first = 0, out->isomers = 1, embedded = embedded0, out->tries = tries0, out->inverted = inverted0;
    mol = std::move(isomers[first]);
    if (!embedded) {
        std::snprintf(out->why, sizeof out->why, "RDKit's ETKDG found no 3D embedding in %d tries", out->tries);
        return;
    }
    const int iters = ff_iters == 0 ? VSG_RDKIT_FF_ITERS_DEFAULT : ff_iters;
    out->forcefield = iters > 0 ? relax(*mol, iters) : "none";
    std::vector<double> extra;
    if (conformers > 1) further_conformers(*mol, seed, iters, conformers, extra);
    /* the other stereoisomers: each embedded as the first (hydrogens added in the same order, so
       the same atoms), then its own ring conformers; one that cannot be embedded is left out */
    vsg_rdkit_embedding scratch;
    for (size_t k = first + 1; k < isomers.size(); k++) {
        std::memset(&scratch, 0, sizeof scratch);
        if (!embed_tries(isomers[k], seed, max_tries, &scratch) || scratch.inverted ||
            isomers[k]->getNumAtoms() != mol->getNumAtoms()) {
            out->isomers--;
            continue;
        }
        RDKit::RWMol &m = *isomers[k];
        if (iters > 0) relax(m, iters);
        append(m.getConformer(), extra);
        if (conformers > 1) further_conformers(m, seed, iters, conformers, extra);
    }
    const std::string text = RDKit::MolToMolBlock(*mol, true, -1, true);
    out->molfile = static_cast<char *>(std::malloc(text.size() + 1));
    if (!out->molfile) throw std::bad_alloc();
    std::memcpy(out->molfile, text.c_str(), text.size() + 1);
    const size_t n = mol->getNumAtoms();
    if (!extra.empty() && n > 0) {
        out->extra = static_cast<double *>(std::malloc(sizeof(double) * extra.size()));
        if (!out->extra) throw std::bad_alloc();
        std::memcpy(out->extra, extra.data(), sizeof(double) * extra.size());
        out->natoms = (int)n;
        out->nextra = (int)(extra.size() / (3 * n));
    }
}
} // namespace

extern "C" int vsg_rdkit_available(void) { return 1; }

extern "C" int vsg_rdkit_smiles_error(const char *smiles, char *why, size_t len)
{
    if (why && len) why[0] = '\0';
    if (!smiles || !*smiles) return 0;
    quiet_logs();
    try {
        std::unique_ptr<RDKit::RWMol> m(RDKit::SmilesToMol(smiles));
        if (m) return 0;
        if (why && len) std::snprintf(why, len, "not valid SMILES for RDKit's parser");
    } catch (const std::exception &e) { /* sanitisation: valence, kekulization */
        if (why && len) std::snprintf(why, len, "%s", e.what());
    } catch (...) {
        if (why && len) std::snprintf(why, len, "RDKit refused it");
    }
    return 1;
}

extern "C" int vsg_rdkit_embed(const char *smiles, int seed, int max_tries, int ff_iters, int conformers,
                               int enumerate, vsg_rdkit_embedding *out)
{
    if (!out) return -1;
    std::memset(out, 0, sizeof *out);
    out->forcefield = "none";
    if (!smiles || !*smiles) {
        std::snprintf(out->why, sizeof out->why, "no SMILES");
        return -1;
    }
    try {
        quiet_logs();
        embed(smiles, seed, max_tries, ff_iters, conformers, enumerate, out);
    } catch (const std::bad_alloc &) {
        std::free(out->molfile), std::free(out->extra);
        out->molfile = nullptr, out->extra = nullptr, out->nextra = 0;
        std::snprintf(out->why, sizeof out->why, "out of memory embedding the molecule");
    } catch (const std::exception &e) {
        std::free(out->molfile), std::free(out->extra);
        out->molfile = nullptr, out->extra = nullptr, out->nextra = 0;
        std::snprintf(out->why, sizeof out->why, "RDKit failed embedding the molecule: %.100s", e.what());
    } catch (...) {
        std::free(out->molfile), std::free(out->extra);
        out->molfile = nullptr, out->extra = nullptr, out->nextra = 0;
        std::snprintf(out->why, sizeof out->why, "RDKit failed embedding the molecule");
    }
    return out->molfile ? 0 : -1;
}
