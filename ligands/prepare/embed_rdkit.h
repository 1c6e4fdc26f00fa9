/* embed_rdkit.h — 3D coordinates for a prepared SMILES by RDKit's ETKDG (internal): the
 * conformer generator of SMILES preparation when the build has RDKit's C++ library
 * (embed_rdkit.cpp; embed_rdkit_none.c answers "not built" otherwise). smiles_obabel.cpp
 * protonates with Open Babel, hands the result here as a SMILES, and reads the molfile back. */
#ifndef VSG_EMBED_RDKIT_H
#define VSG_EMBED_RDKIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Force-field iterations after the embedding when the options say 0 (RDKit's MMFF94 BFGS
 * iterations). docs/PERFORMANCE.md, "Issue 29", measured 0, 50, 100 and 200: 50 bring the
 * bond lengths within 0.02 A of the force field's minimum (90th percentile; ETKDG alone 0.13)
 * for a tenth more time than none, so that 16 cores prepare faster than one GPU docks; 200
 * reach the minimum (0.007 A) at nearly twice the time of none. */
#define VSG_RDKIT_FF_ITERS_DEFAULT 50

typedef struct {
    char *molfile;          /* malloc'ed V2000 molfile, every hydrogen explicit, Kekulé bonds; NULL on failure */
    const char *forcefield; /* "MMFF94", "UFF" or "none" */
    int inverted;           /* specified centres / double bonds the last embedding contradicts */
    int tries;              /* embeddings made (a contradicting one is redone with the next seed) */
    char why[160];          /* on failure: what went wrong */
    /* conformers > 1: the further conformers kept (vsg_rdkit_embed), each natoms x, y, z in the
       molfile's atom order; malloc'ed, NULL when none */
    int natoms, nextra;
    double *extra;
    int isomers;            /* enumerate: the stereoisomers embedded (the first is molfile's; then, after
                               the first's ring conformers, each other's first conformer and its own
                               ring conformers in extra); 1 otherwise */
    int open_stereo;        /* enumerate: the open centres and double bonds found (more than 3: only the
                               first 3's combinations are enumerated, the rest fixed) */
} vsg_rdkit_embedding;

/* Candidates embedded for further conformers, per conformer asked for (conformers > 1), and
 * the ring torsion (degrees) by which a candidate must differ from every conformer kept, and
 * the force-field energy window (kcal/mol) above the lowest within which it must lie: see
 * vsg_rdkit_embed. */
#define VSG_RDKIT_CANDIDATES_PER_CONFORMER 4
#define VSG_RDKIT_RING_TORSION_DIFF 45.0
#define VSG_RDKIT_ENERGY_WINDOW 10.0
/* enumerate (vsg_rdkit_embed): stereoisomers of the centres and double bonds the SMILES leaves
 * open, at most this many (the first 3 open centres' 8 combinations) */
#define VSG_RDKIT_MAX_ISOMERS 8

/* 1 when this build has RDKit. */
int vsg_rdkit_available(void);
/* 1 when RDKit's SMILES parser with its sanitisation refuses smiles (why: its reason, e.g. "Can't
 * kekulize mol" or "Explicit valence for atom # 1 C, 5, is greater than permitted"), 0 when it
 * reads it or the build has no RDKit. Open Babel's parser takes some of what RDKit refuses and
 * makes a molecule of it (pentavalent carbon, an aromatic ring that cannot be kekulized, "C==C"),
 * which nothing should dock. Thread-safe; never throws, never prints. */
int vsg_rdkit_smiles_error(const char *smiles, char *why, size_t len);
/* Embeds smiles (hydrogens added here) with ETKDGv3 seeded by seed (the same SMILES and seed give
 * the same coordinates, whatever the thread): its heavy atoms and the hydrogens of its non-aromatic
 * ring atoms first, the other hydrogens placed on them;
 * when that fails or contradicts the specified stereo, with its hydrogens, up to max_tries
 * embeddings (seed, seed+1, ...) until the specified stereo holds, then ff_iters iterations of MMFF94 (UFF when MMFF94 lacks a
 * parameter; < 0: none; 0: VSG_RDKIT_FF_ITERS_DEFAULT). Returns 0 with out->molfile, or -1 with
 * out->why (RDKit cannot read the SMILES, or no embedding was found). Thread-safe; never
 * throws, never prints. */
int vsg_rdkit_embed(const char *smiles, int seed, int max_tries, int ff_iters, int conformers, int enumerate,
                    vsg_rdkit_embedding *out);
/* enumerate != 0: every stereoisomer of the open centres and double bonds (up to
 * VSG_RDKIT_MAX_ISOMERS, each once) is embedded, the first as molfile, the others in extra
 * (isomers says how many), each with its ring conformers when conformers > 1.
 * conformers > 1 (vsg_rdkit_embed): what docking cannot change in a conformer is its rings'
 * shape (a ring's bonds are never rotated), so further conformers are kept only when their
 * rings differ. VSG_RDKIT_CANDIDATES_PER_CONFORMER x conformers candidates are embedded (ETKDGv3,
 * seeded from seed + 1000) and minimised as the first; a candidate that contradicts a specified
 * centre, lies more than VSG_RDKIT_ENERGY_WINDOW above the lowest energy, or has every torsion
 * of its non-aromatic ring bonds within VSG_RDKIT_RING_TORSION_DIFF of a conformer already kept
 * is dropped; the rest are kept lowest energy first, up to conformers - 1 of them beside the
 * first (which is the conformer conformers <= 1 gives). A molecule without non-aromatic rings
 * gets none. */

#ifdef __cplusplus
}
#endif
#endif
