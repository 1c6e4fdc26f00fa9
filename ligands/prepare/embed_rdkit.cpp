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
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>

#include <GraphMol/GraphMol.h>
#include <GraphMol/MolOps.h>
#include <GraphMol/SmilesParse/SmilesParse.h>
#include <GraphMol/DistGeomHelpers/Embedder.h>
#include <GraphMol/ForceFieldHelpers/MMFF/MMFF.h>
#include <GraphMol/ForceFieldHelpers/UFF/AtomTyper.h>
#include <GraphMol/ForceFieldHelpers/UFF/UFF.h>
#include <GraphMol/FileParsers/FileParsers.h>
#include <RDGeneral/RDLog.h>

#include "ligands/prepare/embed_rdkit.h"

namespace {
std::once_flag logs_once;

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

/* iters of MMFF94 (non-bonded pairs within 10 A, as RDKit's MMFFOptimizeMolecule), else UFF; the force field's name, "none" when neither has parameters */
const char *relax(RDKit::ROMol &m, int iters)
{
    RDKit::MMFF::MMFFMolProperties props(m);
    if (props.isValid()) {
        std::unique_ptr<ForceFields::ForceField> ff(RDKit::MMFF::constructForceField(m, &props, 10.0));
        ff->initialize();
        ff->minimize(iters);
        return "MMFF94";
    }
    if (RDKit::UFF::getAtomTypes(m).second) {
        RDKit::UFF::UFFOptimizeMolecule(m, iters);
        return "UFF";
    }
    return "none";
}

void embed(const char *smiles, int seed, int max_tries, int ff_iters, vsg_rdkit_embedding *out)
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
    RDKit::MolOps::addHs(*mol);
    RDKit::DGeomHelpers::EmbedParameters p = RDKit::DGeomHelpers::ETKDGv3;
    p.numThreads = 1; /* the caller's threads and processes do the parallel work */
    int conf = -1;
    for (int k = 0; k < (max_tries > 0 ? max_tries : 1); k++) {
        mol->clearConformers();
        p.randomSeed = seed + k;
        p.useRandomCoords = false;
        conf = RDKit::DGeomHelpers::EmbedMolecule(*mol, p);
        if (conf < 0) { /* eigenvalue embedding fails on some strained systems: random starts */
            p.useRandomCoords = true;
            conf = RDKit::DGeomHelpers::EmbedMolecule(*mol, p);
        }
        out->tries = k + 1;
        if (conf < 0) continue;
        if ((out->inverted = contradicted(*mol)) == 0) break;
    }
    if (conf < 0) {
        std::snprintf(out->why, sizeof out->why, "RDKit's ETKDG found no 3D embedding in %d tries", out->tries);
        return;
    }
    const int iters = ff_iters == 0 ? VSG_RDKIT_FF_ITERS_DEFAULT : ff_iters;
    out->forcefield = iters > 0 ? relax(*mol, iters) : "none";
    const std::string text = RDKit::MolToMolBlock(*mol, true, -1, true);
    out->molfile = static_cast<char *>(std::malloc(text.size() + 1));
    if (!out->molfile) throw std::bad_alloc();
    std::memcpy(out->molfile, text.c_str(), text.size() + 1);
}
} // namespace

extern "C" int vsg_rdkit_available(void) { return 1; }

extern "C" int vsg_rdkit_embed(const char *smiles, int seed, int max_tries, int ff_iters, vsg_rdkit_embedding *out)
{
    if (!out) return -1;
    std::memset(out, 0, sizeof *out);
    out->forcefield = "none";
    if (!smiles || !*smiles) {
        std::snprintf(out->why, sizeof out->why, "no SMILES");
        return -1;
    }
    try {
        /* RDKit's warnings ("UFFTYPER", kekulization) would go to stderr from every thread;
         * vsgrid says what failed itself */
        std::call_once(logs_once, [] { boost::logging::disable_logs("rdApp.*"); });
        embed(smiles, seed, max_tries, ff_iters, out);
    } catch (const std::bad_alloc &) {
        std::free(out->molfile);
        out->molfile = nullptr;
        std::snprintf(out->why, sizeof out->why, "out of memory embedding the molecule");
    } catch (const std::exception &e) {
        std::free(out->molfile);
        out->molfile = nullptr;
        std::snprintf(out->why, sizeof out->why, "RDKit failed embedding the molecule: %.100s", e.what());
    } catch (...) {
        std::free(out->molfile);
        out->molfile = nullptr;
        std::snprintf(out->why, sizeof out->why, "RDKit failed embedding the molecule");
    }
    return out->molfile ? 0 : -1;
}
