/* smiles_obabel.cpp — one SMILES made into a 3D, protonated molecule through the Open Babel 3
 * library: the C++ bridge for SMILES libraries (smiles_prepare.h says what comes out; vsgrid.h,
 * "Preparation of SMILES records", the steps and the choices). Built only when CMake finds
 * Open Babel; else smiles_none.c answers "unsupported".
 *
 * The result is a V2000 molfile written here (not by Open Babel's MDL writer, a shared plugin
 * object with per-call members), which the reader hands to the SDF record parser: so the
 * torsion tree, typing and formal charges of a SMILES record are those of an SDF record.
 *
 * Threads. The screen parses chunks in several threads, and Open Babel is not written for
 * that: its format, pH-model and builder objects are process-wide singletons whose SMARTS
 * patterns keep their matches inside the pattern objects, and its error log appends to one
 * list. So: the log is switched off once (std::call_once), the plugins are loaded and the pH
 * model and builder initialised once, and every step that touches shared objects (parsing,
 * protonation, the 3D build, force-field setup) holds one mutex. The minimisation, the costly
 * part, runs outside it on force-field instances of the calling thread's own
 * (OBForceField::MakeNewInstance, kept thread_local so that MMFF94's parameter files are parsed
 * once per thread, not per molecule). C++ exceptions never cross into C.
 */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include <openbabel/atom.h>
#include <openbabel/bond.h>
#include <openbabel/builder.h>
#include <openbabel/elements.h>
#include <openbabel/forcefield.h>
#include <openbabel/graphsym.h>
#include <openbabel/mol.h>
#include <openbabel/obconversion.h>
#include <openbabel/oberror.h>
#include <openbabel/obiter.h>
#include <openbabel/plugin.h>
#include <openbabel/stereo/stereo.h>
#include <openbabel/stereo/tetrahedral.h>
#include <openbabel/stereo/cistrans.h>

extern "C" {
#include "grids/base/vsgrid.h"
#include "ligands/prepare/smiles_prepare.h"
}
#include "ligands/prepare/embed_rdkit.h"
#include "ligands/prepare/protonation_rules.h" /* C++ */

/* Open Babel's shared objects (see above); charges_obabel.cpp defines it and holds it too, as
 * its charge model perceives aromaticity through the same global typers */
extern std::mutex vsg_ob_lock;

namespace {
using namespace OpenBabel;

std::once_flag ob_once;
bool ob_ready = false;
OBForceField *proto_mmff = nullptr, *proto_uff = nullptr; /* plugin prototypes: only cloned */

void ob_init()
{
    /* messages would go to stderr from any thread, into one unguarded list; vsgrid says what
     * failed itself */
    obErrorLog.StopLogging();
    OBConversion conv;
    if (!conv.SetInFormat("smi")) return;
    proto_mmff = static_cast<OBForceField *>(OBPlugin::GetPlugin("forcefields", "MMFF94"));
    proto_uff = static_cast<OBForceField *>(OBPlugin::GetPlugin("forcefields", "UFF"));
    /* the pH model reads phmodel.txt and the builder its fragment library on first use, into
     * process-wide objects: done here, once, so that no two threads race to do it */
    OBMol m;
    if (!conv.ReadString(&m, "CC(=O)O")) return;
    m.CorrectForPH(7.4);
    OBBuilder builder;
    builder.Build(m, false);
    ob_ready = true;
}

struct fail {
    vsg_status st;
    const char *code;
    std::string why;
};

int heavy_atoms(OBMol &m)
{
    int n = 0;
    FOR_ATOMS_OF_MOL(a, m) n += a->GetAtomicNum() > 1;
    return n;
}

int net_charge(OBMol &m)
{
    int q = 0;
    FOR_ATOMS_OF_MOL(a, m) q += a->GetFormalCharge();
    return q;
}

/* a fragment's formula, with its charge as Open Babel writes it ("Na+", "Cl-", "H2O") */
std::string formula(OBMol &m) { return m.GetFormula(); }

constexpr int BUILD_TRIES = 5; /* builds a molecule gets to keep its specified stereo */

/* The configurations the SMILES specified, to check the 3D build against. */
struct specified_stereo {
    std::vector<OBTetrahedralStereo::Config> tetra;
    std::vector<OBCisTransStereo::Config> cistrans;
};

specified_stereo specified(OBMol &m)
{
    specified_stereo s;
    for (OBGenericData *d : m.GetAllData(OBGenericDataType::StereoData)) {
        OBStereoBase *sb = dynamic_cast<OBStereoBase *>(d);
        if (!sb || !sb->IsSpecified()) continue;
        if (sb->GetType() == OBStereo::Tetrahedral) s.tetra.push_back(static_cast<OBTetrahedralStereo *>(sb)->GetConfig());
        else if (sb->GetType() == OBStereo::CisTrans) s.cistrans.push_back(static_cast<OBCisTransStereo *>(sb)->GetConfig());
    }
    return s;
}

/* Specified configurations the built coordinates contradict: stereo perceived from the 3D
 * coordinates of a copy, unit by unit. A unit the perception does not find (not stereogenic
 * by the graph's symmetry) is no contradiction. Open Babel's builder inverts a few: ring-fusion
 * quaternary centres, adjacent centres on a ring (docs/PERFORMANCE.md, "Issue 29"). */
int contradicted(const OBMol &built, const specified_stereo &s)
{
    if (s.tetra.empty() && s.cistrans.empty()) return 0;
    OBMol probe(built);
    probe.DeleteData(OBGenericDataType::StereoData);
    StereoFrom3D(&probe, true);
    OBStereoFacade f(&probe);
    int bad = 0;
    for (const OBTetrahedralStereo::Config &c : s.tetra)
        if (f.HasTetrahedralStereo(c.center) && !(f.GetTetrahedralStereo(c.center)->GetConfig() == c)) bad++;
    for (const OBCisTransStereo::Config &c : s.cistrans) {
        OBAtom *b = probe.GetAtomById(c.begin), *e = probe.GetAtomById(c.end);
        OBBond *bond = b && e ? probe.GetBond(b, e) : nullptr;
        if (bond && f.HasCisTransStereo(bond->GetId()) && !(f.GetCisTransStereo(bond->GetId())->GetConfig() == c)) bad++;
    }
    return bad;
}

/* Stereocentres and stereo double bonds that the SMILES leaves open: the stereogenic units
 * (Open Babel's perception over the graph's symmetry classes) that carry no specified
 * configuration (the SMILES reader records only the ones written). */
int unassigned_stereo(OBMol &m)
{
    std::vector<unsigned int> classes;
    OBGraphSym sym(&m);
    sym.GetSymmetry(classes);
    OBStereoUnitSet units = FindStereogenicUnits(&m, classes);
    OBStereoFacade facade(&m);
    int n = 0;
    for (const OBStereoUnit &u : units) {
        if (u.type == OBStereo::Tetrahedral) {
            OBTetrahedralStereo *ts = facade.HasTetrahedralStereo(u.id) ? facade.GetTetrahedralStereo(u.id) : nullptr;
            n += !ts || !ts->GetConfig().specified;
        } else if (u.type == OBStereo::CisTrans) {
            OBCisTransStereo *ct = facade.HasCisTransStereo(u.id) ? facade.GetCisTransStereo(u.id) : nullptr;
            n += !ct || !ct->GetConfig().specified;
        }
    }
    return n;
}

/* The elements a docked ligand may hold here: those Gasteiger-Marsili has parameters for. */
bool element_ok(unsigned z)
{
    return z == 1 || z == 6 || z == 7 || z == 8 || z == 9 || z == 15 || z == 16 || z == 17 || z == 35 || z == 53;
}

/* A coordinate as the molfile writes it: -0.0000 is 0.0000 */
double tidy(double v) { return std::fabs(v) < 5e-5 ? 0.0 : v; }

/* The V2000 molfile of m (3D, explicit hydrogens, Kekulé bond orders as Open Babel keeps them,
 * formal charges in M  CHG lines). */
std::string molfile(OBMol &m, const char *title, const char *embedder)
{
    std::string s;
    char line[128];
    std::string t = title ? title : "";
    for (char &ch : t)
        if ((unsigned char)ch < 32) ch = ' ';
    if (t.size() > 80) t.resize(80);
    s += t + "\n";
    s += "  vsgrid          3D\n"; /* program name in columns 3-10, dimension code in 21-22 */
    s += std::string("prepared from SMILES by vsgrid (3D: ") + embedder + ")\n";
    std::snprintf(line, sizeof line, "%3u%3u  0  0  0  0  0  0  0  0999 V2000\n", m.NumAtoms(), m.NumBonds());
    s += line;
    std::vector<std::pair<int, int>> charged;
    FOR_ATOMS_OF_MOL(a, m) {
        std::snprintf(line, sizeof line, "%10.4f%10.4f%10.4f %-3s 0  0  0  0  0  0  0  0  0  0  0  0\n", tidy(a->GetX()),
                      tidy(a->GetY()), tidy(a->GetZ()), OBElements::GetSymbol(a->GetAtomicNum()));
        s += line;
        if (a->GetFormalCharge()) charged.emplace_back((int)a->GetIdx(), a->GetFormalCharge());
    }
    FOR_BONDS_OF_MOL(b, m) {
        std::snprintf(line, sizeof line, "%3u%3u%3u  0\n", b->GetBeginAtomIdx(), b->GetEndAtomIdx(), b->GetBondOrder());
        s += line;
    }
    for (size_t i = 0; i < charged.size(); i += 8) {
        size_t n = charged.size() - i < 8 ? charged.size() - i : 8;
        std::snprintf(line, sizeof line, "M  CHG%3zu", n);
        s += line;
        for (size_t k = 0; k < n; k++) {
            std::snprintf(line, sizeof line, " %3d %3d", charged[i + k].first, charged[i + k].second);
            s += line;
        }
        s += "\n";
    }
    s += "M  END\n";
    return s;
}

/* The builder's result is used only when every coordinate is finite and no two bonded atoms
 * sit on top of each other (a builder that gave up leaves atoms at the origin). */
bool geometry_sane(OBMol &m)
{
    FOR_ATOMS_OF_MOL(a, m)
        if (!std::isfinite(a->GetX()) || !std::isfinite(a->GetY()) || !std::isfinite(a->GetZ())) return false;
    FOR_BONDS_OF_MOL(b, m)
        if (!(b->GetLength() > 0.5)) return false;
    return true;
}

/* The neighbour of x (not y) that a torsion about x-y is measured from: one with heavy
 * neighbours of its own first (the skeleton, not a carbonyl O), then carbon, then the lowest
 * index; so an amide's Ca-C-N-C comes out anti (trans amide), a chain extended. */
OBAtom *reference_neighbour(OBAtom *x, OBAtom *y)
{
    OBAtom *best = nullptr;
    int best_key = -1;
    FOR_NBORS_OF_ATOM(n, x) {
        if (&*n == y) continue;
        int key = (n->GetHvyDegree() > 1) * 4 + (n->GetAtomicNum() == 6) * 2 + (n->GetAtomicNum() > 1);
        if (key > best_key) best = &*n, best_key = key; /* ties: the first, the lowest index */
    }
    return best;
}

/* Open Babel's builder points each new bond in a random direction, seeded from the clock
 * (vector3::randomUnitVector with OBRandom::TimeSeed: srand(microseconds)), so the torsions of
 * acyclic single bonds (hydrogens of terminal groups included) and the molecule's orientation
 * differ from run to run. So that a library gives nearly the same molecules in every run and
 * thread count, each such torsion is set here, bond by bond, to the first clash-free angle of a
 * fixed list (measured from reference neighbours), before the minimisation, and the result is
 * put in its inertial frame after it (orient). What is left is the builder's own jitter of
 * ring and fragment geometry (about 0.003 A), which the minimisation carries on: coordinates
 * agree between runs to about 0.1-0.4 A, not to the byte (docs/FORMATS.md, "SMILES"). */
void set_torsions(OBMol &m)
{
    /* Which of an atom's equivalent hydrogens went where is random too (an amine's two, a
     * methylene's): the first two (by index) are swapped when they make a left-handed turn
     * with the lowest-index heavy neighbour, so the same hydrogen gets the same place in every
     * run (a flat NH2 has no handedness: its torsion below places it). */
    FOR_ATOMS_OF_MOL(c, m) {
        std::vector<OBAtom *> hs;
        OBAtom *ref = nullptr;
        FOR_NBORS_OF_ATOM(n, &*c) {
            if (n->GetAtomicNum() == 1) hs.push_back(&*n);
            else if (!ref || n->GetIdx() < ref->GetIdx()) ref = &*n;
        }
        if (hs.size() < 2 || !ref) continue;
        if (hs[1]->GetIdx() < hs[0]->GetIdx()) std::swap(hs[0], hs[1]);
        const vector3 o = c->GetVector(), u = ref->GetVector() - o, v = hs[0]->GetVector() - o, w = hs[1]->GetVector() - o;
        if (dot(u, cross(v, w)) < -0.1) {
            const vector3 t = hs[0]->GetVector();
            hs[0]->SetVector(hs[1]->GetVector());
            hs[1]->SetVector(t);
        }
    }
    /* bond counts between atoms (breadth-first from each), for the clash test below */
    const int n = (int)m.NumAtoms();
    std::vector<int> topo((size_t)n * n, 99);
    for (int s0 = 0; s0 < n; s0++) {
        std::vector<int> queue{s0};
        topo[(size_t)s0 * n + s0] = 0;
        for (size_t q = 0; q < queue.size(); q++) {
            const int at = queue[q], dist = topo[(size_t)s0 * n + at];
            if (dist >= 3) continue; /* only "within 3 bonds" matters */
            FOR_NBORS_OF_ATOM(nb, m.GetAtom(at + 1)) {
                const int k = (int)nb->GetIdx() - 1;
                if (topo[(size_t)s0 * n + k] > dist + 1) topo[(size_t)s0 * n + k] = dist + 1, queue.push_back(k);
            }
        }
    }
    std::vector<OBBond *> bonds;
    FOR_BONDS_OF_MOL(b, m) bonds.push_back(&*b);
    for (OBBond *b : bonds) {
        if (b->GetBondOrder() != 1 || b->IsInRing()) continue;
        OBAtom *x = b->GetBeginAtom(), *y = b->GetEndAtom();
        if (x->GetExplicitDegree() < 2 || y->GetExplicitDegree() < 2) continue;
        OBAtom *a = reference_neighbour(x, y), *d = reference_neighbour(y, x);
        if (!a || !d) continue;
        /* a linear neighbour (sp, nitrile) has no torsion */
        if (x->GetAngle(a, y) > 170.0 || y->GetAngle(x, d) > 170.0) continue;
        /* the first angle of a fixed list that makes no gross clash (atoms more than 3 bonds
         * apart closer than 2.2 A between heavy atoms, 1.2 A with a hydrogen: far from what
         * the builder's jitter could tip either way), else the least bad: extended and
         * staggered first; planar first between two sp2 atoms (amides, aryl carbonyls); the
         * minimisation relaxes the rest */
        static const double sp3[] = {180, 60, -60, 120, -120, 90, -90, 0};
        static const double sp2[] = {180, 0, 150, -150, 30, -30, 90, -90};
        const double *cand = x->GetHyb() == 2 && y->GetHyb() == 2 ? sp2 : sp3;
        std::vector<int> side;
        m.FindChildren(side, x->GetIdx(), y->GetIdx());
        side.push_back((int)y->GetIdx());
        std::vector<char> moving((size_t)n, 0);
        for (int i : side) moving[(size_t)i - 1] = 1;
        double best_score = -1e9, best_angle = 180;
        for (int k = 0; k < 8; k++) {
            m.SetTorsion(a, x, y, d, cand[k] * M_PI / 180.0);
            double score = 1e9;
            for (int i = 0; i < n; i++) {
                if (!moving[(size_t)i]) continue;
                OBAtom *ai = m.GetAtom(i + 1);
                for (int j = 0; j < n; j++) {
                    if (moving[(size_t)j] || topo[(size_t)i * n + j] <= 3) continue;
                    OBAtom *aj = m.GetAtom(j + 1);
                    const double want = ai->GetAtomicNum() == 1 || aj->GetAtomicNum() == 1 ? 2.0 : 3.0;
                    const double dd = ai->GetDistance(aj) - want;
                    if (dd < score) score = dd;
                }
            }
            if (score > best_score) best_score = score, best_angle = cand[k];
            if (score >= -0.8) break; /* no gross clash: the list's order decides */
        }
        m.SetTorsion(a, x, y, d, best_angle * M_PI / 180.0);
    }
}

/* The molecule in its inertial frame with each axis's sign fixed by the molecule itself (the
 * sign of the third moment along it, else of the first atom off the plane through the centre):
 * eigenvectors come with either sign, which would make the same molecule come out mirrored
 * through an axis from run to run. Two axes are flipped at a time (a rotation by 180 degrees),
 * never one: that would invert the molecule's stereocentres. */
void orient(OBMol &m)
{
    m.ToInertialFrame();
    int flip[3] = {0, 0, 0};
    for (int k = 0; k < 2; k++) {
        double m3 = 0, first = 0;
        FOR_ATOMS_OF_MOL(a, m) {
            double v = k == 0 ? a->GetX() : a->GetY();
            m3 += v * v * v;
            if (first == 0 && std::fabs(v) > 1e-3) first = v;
        }
        flip[k] = std::fabs(m3) > 1e-6 ? m3 < 0 : first < 0;
    }
    flip[2] = flip[0] != flip[1];
    FOR_ATOMS_OF_MOL(a, m)
        a->SetVector(flip[0] ? -a->GetX() : a->GetX(), flip[1] ? -a->GetY() : a->GetY(),
                     flip[2] ? -a->GetZ() : a->GetZ());
}

thread_local std::unique_ptr<OBForceField> my_mmff, my_uff; /* this thread's own instances */
thread_local std::ostream no_log(nullptr);                    /* a stream that writes nothing */

/* A force field of this thread's own: Open Babel 3.1.1's MakeNewInstance leaves the copy's log
 * level and log stream uninitialised (only the plugin prototype, a static object, has them zero),
 * and Setup then writes its atom-type table through that garbage pointer whenever the garbage
 * level is nonzero: a segfault in OBForceField::PrintTypes that came and went with the heap's
 * contents (the SMILES of PDBbind 1K9Q and 1IMX in `vsgrid screen`; valgrind: "depends on
 * uninitialised value" in PrintTypes). Both are set here, logging off. */
OBForceField *own_instance(OBForceField *proto)
{
    OBForceField *ff = proto->MakeNewInstance();
    if (ff) {
        ff->SetLogFile(&no_log);
        ff->SetLogLevel(OBFF_LOGLVL_NONE);
    }
    return ff;
}

/* Minimises m in place by steps steepest-descent steps of MMFF94, else UFF; returns the force
 * field used ("none" when neither takes the molecule). Called holding vsg_ob_lock, for the setup
 * (it perceives types through shared patterns); the steps run without it. */
const char *minimise(OBMol &m, int steps, std::unique_lock<std::mutex> &hold)
{
    OBForceField *ff = nullptr;
    const char *name = "none";
    {
        if (!my_mmff && proto_mmff) my_mmff.reset(own_instance(proto_mmff));
        if (my_mmff && my_mmff->Setup(m)) {
            ff = my_mmff.get();
            name = "MMFF94";
        } else {
            if (!my_uff && proto_uff) my_uff.reset(own_instance(proto_uff));
            if (my_uff && my_uff->Setup(m)) {
                ff = my_uff.get();
                name = "UFF";
            }
        }
    }
    hold.unlock();
    if (!ff) return "none";
    /* a rough geometry is the aim, as obabel --gen3d's: cut-offs, pairs updated every 10 steps */
    ff->EnableCutOff(true);
    ff->SetVDWCutOff(10.0);
    ff->SetElectrostaticCutOff(20.0);
    ff->SetUpdateFrequency(10);
    ff->SteepestDescent(steps, 1.0e-4);
    ff->UpdateCoordinates(m);
    return name;
}

/* 3D coordinates by Open Babel's builder (vsgrid's conformer generator without RDKit, or with
 * --embed openbabel), hydrogens added, acyclic torsions set (set_torsions). The builder places
 * each new bond at random (clock-seeded), so a build that contradicts the SMILES's stereo is
 * built again; after BUILD_TRIES the record fails (--stereo specified) or keeps the last build
 * with a note (any). The first build is of the heavy atoms (fast); a build that contradicts the
 * SMILES's stereo is redone with the hydrogens added first, which the builder then places with
 * the heavy atoms and which keeps more specified centres (heavy atoms alone, it got 6 of the 32
 * shared crystal ligands wrong; hydrogens first, 2: docs/PERFORMANCE.md, "Issue 29"), but costs
 * a quarter more time, so only where needed. Called holding vsg_ob_lock. */
void build_with_openbabel(OBMol &mol, const vsg_smiles_prep_options *o, vsg_smiles_prep *out)
{
    const OBMol heavy(mol);
    const specified_stereo spec_heavy = specified(mol);
    OBMol hydrogenated; /* made only for a second build */
    specified_stereo spec_h;
    int wrong = 0;
    bool hydrogens_built = false;
    for (int k = 0; k < BUILD_TRIES; k++) {
        hydrogens_built = k > 0;
        if (k == 1) {
            hydrogenated = heavy;
            hydrogenated.AddHydrogens(false, false);
            spec_h = specified(hydrogenated);
        }
        if (k > 0) mol = hydrogenated;
        OBBuilder builder;
        if (!builder.Build(mol, false))
            throw fail{VSG_E_DATA, VSG_LIG_EMBED, "Open Babel's 3D builder failed on this molecule"};
        if ((wrong = contradicted(mol, hydrogens_built ? spec_h : spec_heavy)) == 0) break;
    }
    if (wrong && o->stereo == VSG_STEREO_SPECIFIED)
        throw fail{VSG_E_DATA, VSG_LIG_STEREO,
                   "Open Babel's 3D builder inverted " + std::to_string(wrong) +
                       " specified stereocentre(s) or double bond(s) in each of " + std::to_string(BUILD_TRIES) +
                       " builds (--stereo specified)"};
    out->inverted_stereo = wrong; /* --stereo any: docked as built, and said so */
    mol.SetDimension(3);
    if (!hydrogens_built) mol.AddHydrogens(false, false); /* placed on the built heavy atoms */
    set_torsions(mol);
}

/* The seed of RDKit's embedding: one number for every molecule, so that a record's conformer
 * depends on its SMILES alone (not on the thread, the worker or the record's position). The
 * bench switch VSG_RDKIT_SEED=N replaces it, to measure how much a benchmark owes to one
 * conformer a molecule (REDOCKS of scripts/gpu_embed_and_depth.sh, which sets it for
 * scripts/bench_redock_smiles.sh). */
int rdkit_seed()
{
    static const int seed = [] {
        const char *e = std::getenv("VSG_RDKIT_SEED");
        char *end = nullptr;
        const long v = e ? std::strtol(e, &end, 10) : 0;
        return e && end != e && *end == '\0' && v >= 0 && v < 1000000 ? (int)v : 42;
    }();
    return seed;
}

bool use_rdkit(const vsg_smiles_prep_options *o)
{
    return o->embed == VSG_EMBED_RDKIT || (o->embed == VSG_EMBED_DEFAULT && vsg_rdkit_available());
}

/* The protonated molecule as a Kekulé isomeric SMILES, for RDKit: Kekulé, so that the two
 * toolkits' aromaticity models never meet (RDKit perceives its own from the bond orders);
 * called holding vsg_ob_lock. "" when Open Babel cannot write it. */
std::string kekule_smiles(OBMol &m)
{
    OBConversion conv;
    if (!conv.SetOutFormat("smi")) return "";
    conv.AddOption("k", OBConversion::OUTOPTIONS);
    conv.AddOption("n", OBConversion::OUTOPTIONS);
    std::string s = conv.WriteString(&m, true);
    const size_t end = s.find_first_of(" \t\r\n");
    if (end != std::string::npos) s.resize(end);
    return s;
}

/* 3D coordinates by RDKit's ETKDG (embed_rdkit.h) into m, replacing it with the embedded
 * molecule (every hydrogen explicit, minimised); true when that worked and the molecule came
 * back with the same heavy atoms and net charge; else m is unchanged and why says what failed
 * (the caller builds with Open Babel instead). Called holding vsg_ob_lock (hold), which the
 * embedding itself does not need and runs without. */
bool embed_with_rdkit(OBMol &m, const vsg_smiles_prep_options *o, vsg_smiles_prep *out, std::string &why,
                      std::unique_lock<std::mutex> &hold, std::vector<double> &extra)
{
    const std::string smi = kekule_smiles(m);
    if (smi.empty()) {
        why = "Open Babel could not write the protonated SMILES for RDKit";
        return false;
    }
    vsg_rdkit_embedding e;
    hold.unlock();
    const int rc = vsg_rdkit_embed(smi.c_str(), rdkit_seed(), BUILD_TRIES, o->min_steps, o->conformers,
                                   o->stereo == VSG_STEREO_ENUMERATE, &e);
    hold.lock();
    if (rc != 0) {
        why = e.why;
        return false;
    }
    OBMol back;
    OBConversion conv;
    const bool read = conv.SetInFormat("mol") && conv.ReadString(&back, e.molfile);
    std::free(e.molfile);
    if (!read || heavy_atoms(back) != heavy_atoms(m) || net_charge(back) != net_charge(m)) {
        std::free(e.extra);
        why = "RDKit's molecule did not come back as the one sent";
        return false;
    }
    if (e.nextra > 0 && e.natoms == (int)back.NumAtoms()) /* the molfile's atoms, in its order */
        extra.assign(e.extra, e.extra + 3 * (size_t)e.natoms * (size_t)e.nextra);
    std::free(e.extra);
    m = back;
    out->inverted_stereo = e.inverted;
    out->isomers = e.isomers;
    out->open_stereo = e.open_stereo;
    out->forcefield = e.forcefield;
    out->embedder = "RDKit ETKDGv3";
    return true;
}

/* Branches the SMILES opens and never closes (outside bracket atoms): Open Babel's parser
 * accepts "c1ccccc1(C" as toluene where RDKit and the grammar refuse it (an unclosed ring, a
 * stray ')' or an open bracket it does refuse). 0 when balanced. */
int unclosed_branches(const char *smiles)
{
    int depth = 0, bracket = 0;
    for (const char *c = smiles; *c; c++) {
        if (bracket) {
            bracket = *c != ']';
            continue;
        }
        if (*c == '[') bracket = 1;
        else if (*c == '(') depth++;
        else if (*c == ')' && depth > 0) depth--;
    }
    return depth;
}

/* The whole preparation; throws fail. */
void prepare(const char *smiles, const char *title, const vsg_smiles_prep_options *o, vsg_smiles_prep *out)
{
    OBMol mol;
    const int max_atoms = o->max_atoms > 0 && o->max_atoms < 999 ? o->max_atoms : 999;
    if (const int open = unclosed_branches(smiles))
        throw fail{VSG_E_FORMAT, VSG_LIG_BAD_SMILES, "the SMILES '" + std::string(smiles).substr(0, 60) + "' leaves " +
                                                         std::to_string(open) + " branch" + (open > 1 ? "es" : "") +
                                                         " '(' unclosed"};
    char why[160];
    if (vsg_rdkit_smiles_error(smiles, why, sizeof why)) /* the stricter parser's word, where built */
        throw fail{VSG_E_FORMAT, VSG_LIG_BAD_SMILES,
                   "RDKit refuses the SMILES '" + std::string(smiles).substr(0, 60) + "': " + why};
    std::unique_lock<std::mutex> hold(vsg_ob_lock); /* all but the minimisation's steps */
    {
        OBConversion conv;
        conv.SetInFormat("smi");
        if (!conv.ReadString(&mol, smiles) || mol.NumAtoms() == 0)
            throw fail{VSG_E_FORMAT, VSG_LIG_BAD_SMILES, std::string("Open Babel cannot parse the SMILES '") +
                                                             std::string(smiles).substr(0, 60) + "'"};
    }
    /* the largest fragment by heavy atoms: salts, counter-ions and solvents go */
    std::vector<OBMol> parts = mol.Separate();
    out->fragments = (int)parts.size();
    if (parts.size() > 1) {
        size_t best = 0;
        int best_heavy = -1;
        for (size_t i = 0; i < parts.size(); i++) {
            int h = heavy_atoms(parts[i]);
            if (h > best_heavy) best = i, best_heavy = h;
        }
        std::string dropped;
        for (size_t i = 0; i < parts.size(); i++)
            if (i != best) dropped += (dropped.empty() ? "" : ", ") + formula(parts[i]);
        std::snprintf(out->dropped, sizeof out->dropped, "%s", dropped.c_str());
        mol = parts[best];
    }
    /* Open Babel 3.1.1's builder crashes (OBBuilder::CorrectStereoBonds) on a stereo double
     * bond with an end that has no heavy neighbour but its partner ("[H]/N=C/C", an imine's
     * N-H: DUD-E INHA decoy ZINC43560520): such stereo only places a hydrogen, and is dropped */
    mol.DeleteHydrogens();
    for (OBGenericData *d : mol.GetAllData(OBGenericDataType::StereoData)) {
        OBStereoBase *sb = dynamic_cast<OBStereoBase *>(d);
        if (!sb || sb->GetType() != OBStereo::CisTrans) continue;
        const OBCisTransStereo::Config cfg = static_cast<OBCisTransStereo *>(sb)->GetConfig();
        OBAtom *b = mol.GetAtomById(cfg.begin), *e = mol.GetAtomById(cfg.end);
        if (!b || !e || b->GetHvyDegree() < 2 || e->GetHvyDegree() < 2) mol.DeleteData(d);
    }
    out->unassigned_stereo = unassigned_stereo(mol);
    if (o->stereo == VSG_STEREO_SPECIFIED && out->unassigned_stereo > 0)
        throw fail{VSG_E_DATA, VSG_LIG_STEREO,
                   std::to_string(out->unassigned_stereo) +
                       " stereocentre(s) or stereo double bond(s) left unassigned by the SMILES (--stereo specified)"};
    FOR_ATOMS_OF_MOL(a, mol)
        if (!element_ok(a->GetAtomicNum()))
            throw fail{VSG_E_DATA, VSG_LIG_ELEMENT,
                       std::string("element ") + OBElements::GetSymbol(a->GetAtomicNum()) +
                           " (atom " + std::to_string(a->GetIdx()) +
                           ") is not one vsgrid docks (H C N O F P S Cl Br I: Gasteiger-Marsili's)"};
    out->charge_in = net_charge(mol);
    bool by_rdkit = false;
    std::vector<double> extra; /* further conformers' coordinates (RDKit, o->conformers > 1) */
    {
        if (o->ph_mode != VSG_PH_NONE) {
            const double ph = o->ph_mode == VSG_PH_AT ? o->ph : 7.4;
            mol.CorrectForPH(ph);
            vsg_protonation_rules(mol, ph); /* the groups phmodel.txt gets wrong (protonation_rules.cpp) */
        }
        out->charge_out = net_charge(mol);
        unsigned implicit = 0;
        FOR_ATOMS_OF_MOL(a, mol) implicit += a->GetImplicitHCount();
        if ((int)(mol.NumAtoms() + implicit) > max_atoms)
            throw fail{VSG_E_DATA, VSG_LIG_TOO_MANY,
                       std::to_string(mol.NumAtoms()) + " atoms with hydrogens, more than " +
                           std::to_string(max_atoms)};
        std::string why_not_rdkit;
        const bool want_rdkit = use_rdkit(o);
        by_rdkit = want_rdkit && embed_with_rdkit(mol, o, out, why_not_rdkit, hold, extra);
        if (!by_rdkit && want_rdkit)
            std::snprintf(out->fallback, sizeof out->fallback, "%s", why_not_rdkit.c_str());
        if (by_rdkit && out->inverted_stereo && o->stereo == VSG_STEREO_SPECIFIED)
            throw fail{VSG_E_DATA, VSG_LIG_STEREO,
                       "RDKit's embedding contradicted " + std::to_string(out->inverted_stereo) +
                           " specified stereocentre(s) or double bond(s) in each of " + std::to_string(BUILD_TRIES) +
                           " tries (--stereo specified)"};
        if (!by_rdkit)
            build_with_openbabel(mol, o, out);
    }
    if ((int)mol.NumAtoms() > max_atoms)
        throw fail{VSG_E_DATA, VSG_LIG_TOO_MANY,
                   std::to_string(mol.NumAtoms()) + " atoms with hydrogens, more than " + std::to_string(max_atoms)};
    if (!geometry_sane(mol))
        throw fail{VSG_E_DATA, VSG_LIG_EMBED,
                   std::string(by_rdkit ? "RDKit's embedding" : "Open Babel's 3D builder") +
                       " left atoms without coordinates or bonded atoms on top of each other"};
    hold.unlock(); /* the molecule is ours alone from here, but for the force-field setup */
    const int steps = o->min_steps == 0 ? VSG_SMILES_MIN_STEPS_DEFAULT : o->min_steps;
    if (!by_rdkit) out->forcefield = "none"; /* RDKit's embedding was minimised by RDKit */
    if (!by_rdkit && steps > 0) {
        OBMol built(mol); /* kept in case the minimisation breaks the geometry */
        hold.lock();
        out->forcefield = minimise(mol, steps, hold);
        if (!geometry_sane(mol)) {
            mol = built;
            out->forcefield = "none";
        }
    }
    OBMol unoriented; /* further conformers are oriented each on its own */
    if (!extra.empty()) unoriented = mol;
    orient(mol); /* centred, principal axes: the same orientation in every run */
    std::string text = molfile(mol, title, out->embedder);
    out->molfile = static_cast<char *>(std::malloc(text.size() + 1));
    if (!out->molfile) throw std::bad_alloc();
    std::memcpy(out->molfile, text.c_str(), text.size() + 1);
    const size_t n = mol.NumAtoms(), nextra = extra.size() / (3 * (n ? n : 1));
    if (nextra == 0) return;
    out->extra = static_cast<char **>(std::calloc(nextra, sizeof *out->extra));
    if (!out->extra) throw std::bad_alloc();
    for (size_t k = 0; k < nextra; k++) {
        OBMol c(unoriented);
        const double *x = extra.data() + 3 * n * k;
        FOR_ATOMS_OF_MOL(a, c) {
            const size_t i = a->GetIdx() - 1;
            a->SetVector(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
        }
        if (!geometry_sane(c)) continue;
        orient(c);
        const std::string t = molfile(c, title, out->embedder);
        if (!(out->extra[out->nextra] = static_cast<char *>(std::malloc(t.size() + 1)))) throw std::bad_alloc();
        std::memcpy(out->extra[out->nextra++], t.c_str(), t.size() + 1);
    }
}
} // namespace

extern "C" int vsg_smiles_prepare_available(void) { return 1; }

extern "C" void vsg_smiles_prep_free(vsg_smiles_prep *p)
{
    if (!p) return;
    std::free(p->molfile);
    p->molfile = nullptr;
    for (int k = 0; k < p->nextra; k++) std::free(p->extra[k]);
    std::free(p->extra);
    p->extra = nullptr;
    p->nextra = 0;
}

extern "C" vsg_status vsg_smiles_prepare(const char *smiles, const char *title, const vsg_smiles_prep_options *o,
                                         vsg_smiles_prep *out)
{
    static const vsg_smiles_prep_options defaults = {VSG_PH_DEFAULT, 7.4, VSG_STEREO_BUILDER, 0, 0, VSG_EMBED_DEFAULT, 1};
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_smiles_prepare: no result");
    std::memset(out, 0, sizeof *out);
    out->forcefield = "none";
    out->embedder = "Open Babel";
    std::snprintf(out->code, sizeof out->code, "%s", VSG_LIG_OK);
    if (!smiles || !*smiles) {
        std::snprintf(out->code, sizeof out->code, "%s", VSG_LIG_BAD_SMILES);
        std::snprintf(out->why, sizeof out->why, "no SMILES");
        return VSG_E_FORMAT;
    }
    try {
        std::call_once(ob_once, ob_init);
        if (!ob_ready) {
            std::snprintf(out->code, sizeof out->code, "%s", VSG_LIG_UNSUPPORTED);
            std::snprintf(out->why, sizeof out->why,
                          "Open Babel's SMILES format or pH model could not be loaded (plugins or data not found? "
                          "BABEL_LIBDIR, BABEL_DATADIR)");
            return VSG_E_UNSUPPORTED;
        }
        prepare(smiles, title, o ? o : &defaults, out);
        return VSG_OK;
    } catch (const fail &f) {
        vsg_smiles_prep_free(out);
        std::snprintf(out->code, sizeof out->code, "%s", f.code);
        std::snprintf(out->why, sizeof out->why, "%s", f.why.c_str());
        return f.st;
    } catch (const std::bad_alloc &) {
        vsg_smiles_prep_free(out);
        std::snprintf(out->code, sizeof out->code, "%s", VSG_LIG_TOO_MANY);
        std::snprintf(out->why, sizeof out->why, "out of memory preparing the molecule");
        return VSG_E_NOMEM;
    } catch (...) {
        vsg_smiles_prep_free(out);
        std::snprintf(out->code, sizeof out->code, "%s", VSG_LIG_EMBED);
        std::snprintf(out->why, sizeof out->why, "Open Babel failed preparing the molecule");
        return VSG_E_DATA;
    }
}

extern "C" vsg_status vsg_molblock_smiles(const char *molblock, char **smiles)
{
    if (!molblock || !smiles) return VSG_E_ARG;
    *smiles = nullptr;
    try {
        std::call_once(ob_once, ob_init);
        if (!ob_ready) return VSG_E_UNSUPPORTED;
        std::string text;
        {
            std::lock_guard<std::mutex> hold(vsg_ob_lock);
            OBConversion conv;
            OBMol mol;
            /* the MDL reader takes the drawing's wedges and hashes as stereo; "smi" writes it */
            if (!conv.SetInAndOutFormats("mol", "smi") || !conv.ReadString(&mol, molblock) || mol.NumAtoms() == 0)
                return VSG_E_FORMAT;
            text = conv.WriteString(&mol, true);
        }
        const size_t end = text.find_first_of(" \t\r\n");
        if (end != std::string::npos) text.resize(end);
        if (text.empty()) return VSG_E_FORMAT;
        *smiles = static_cast<char *>(std::malloc(text.size() + 1));
        if (!*smiles) return VSG_E_NOMEM;
        std::memcpy(*smiles, text.c_str(), text.size() + 1);
        return VSG_OK;
    } catch (const std::bad_alloc &) {
        return VSG_E_NOMEM;
    } catch (...) {
        return VSG_E_FORMAT;
    }
}
