#!/usr/bin/python3
"""Preparation time and conformer quality of vsgrid's SMILES preparation (Open Babel builder +
MMFF94 steepest descent, N steps) against RDKit's ETKDGv3 + MMFF94, issue 29
(docs/PERFORMANCE.md, "Issue 29").

usage: bench_smiles_prep.py VSGRID SMILES.smi [--steps 0,100,500] [--ph 7.4|none] [--embed rdkit,openbabel]

Each variant (every --embed generator at every --steps) prepares every SMILES on one thread (vsgrid prepare-ligands --threads 1: the time
its summary gives, the loop without the process start; RDKit: ETKDGv3 (randomSeed 42) then
MMFFOptimizeMolecule (200 iterations), timed in this process). Quality, per molecule, against
the same molecule fully minimised by RDKit's MMFF94 (2000 iterations) from the prepared
coordinates: heavy-atom RMSD to that local minimum (A), the MMFF94 energy above it (kcal/mol),
the largest bond-length change (A); and whether the stereocentres the SMILES specified came out
as specified (CIP labels from the 3D coordinates). Prints one line per variant: medians and
90th percentiles. Needs RDKit (/usr/bin/python3)."""
import re
import statistics
import subprocess
import sys
import time

from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem, rdMolAlign
from rdkit.Chem.MolStandardize import rdMolStandardize


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p * len(v)))] if v else float("nan")


def specified_centres(smi):
    m = Chem.MolFromSmiles(smi)
    if m is None:
        return None, {}
    Chem.AssignStereochemistry(m, cleanIt=True, force=True)
    return m, {i: c for i, c in Chem.FindMolChiralCenters(m, includeUnassigned=False, useLegacyImplementation=False)}


def quality(mol, ref_smiles):
    """(rmsd, dE, max bond change, stereo ok) of one prepared molecule (with hydrogens, 3D)."""
    props = AllChem.MMFFGetMoleculeProperties(mol)
    if props is None:
        return None
    ff = AllChem.MMFFGetMoleculeForceField(mol, props)
    e0 = ff.CalcEnergy()
    opt = Chem.Mol(mol)
    ff2 = AllChem.MMFFGetMoleculeForceField(opt, AllChem.MMFFGetMoleculeProperties(opt))
    ff2.Minimize(maxIts=2000)
    e1 = ff2.CalcEnergy()
    heavy = [a.GetIdx() for a in mol.GetAtoms() if a.GetAtomicNum() > 1]
    rmsd = rdMolAlign.AlignMol(Chem.Mol(opt), mol, atomMap=[(i, i) for i in heavy])
    c0, c1 = mol.GetConformer(), opt.GetConformer()
    db = max((abs((c0.GetAtomPosition(b.GetBeginAtomIdx()) - c0.GetAtomPosition(b.GetEndAtomIdx())).Length() -
                  (c1.GetAtomPosition(b.GetBeginAtomIdx()) - c1.GetAtomPosition(b.GetEndAtomIdx())).Length())
              for b in mol.GetBonds()), default=0.0)
    # stereo: the centres the SMILES specified keep their CIP label (charges removed on both sides)
    un = rdMolStandardize.Uncharger()
    ref, centres = specified_centres(ref_smiles)
    stereo = True
    if centres:
        m3 = un.uncharge(Chem.RemoveHs(mol))
        Chem.AssignStereochemistryFrom3D(m3)
        r = un.uncharge(ref)
        match = m3.GetSubstructMatch(r)
        got = {i: c for i, c in Chem.FindMolChiralCenters(m3, includeUnassigned=True, useLegacyImplementation=False)}
        stereo = bool(match) and all(got.get(match[i]) == c for i, c in centres.items())
    return rmsd, e0 - e1, db, stereo


def summarise(label, secs, n, failed, q):
    rm = [x[0] for x in q]
    de = [x[1] for x in q]
    db = [x[2] for x in q]
    st = sum(1 for x in q if x[3])
    print("%-28s %7.1f ms/mol  %4d ok %3d failed   RMSD to min %.2f / %.2f A   dE %6.1f / %6.1f kcal/mol   "
          "max dbond %.3f / %.3f A   stereo kept %d/%d" %
          (label, 1000.0 * secs / max(n, 1), len(q), failed, statistics.median(rm), pct(rm, 0.9),
           statistics.median(de), pct(de, 0.9), statistics.median(db), pct(db, 0.9), st, len(q)))


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    RDLogger.DisableLog("rdApp.*")
    vsgrid, smi = argv[1], argv[2]
    steps = argv[argv.index("--steps") + 1].split(",") if "--steps" in argv else ["0", "100", "500"]
    ph = argv[argv.index("--ph") + 1] if "--ph" in argv else "7.4"
    embeds = argv[argv.index("--embed") + 1].split(",") if "--embed" in argv else ["openbabel"]
    entries = [line.split()[0] for line in open(smi) if line.strip() and not line.startswith("#")]
    print("%d SMILES from %s; medians / 90th percentiles; one thread" % (len(entries), smi))
    for e, s in [(e, s) for e in embeds for s in steps]:
        out = "%s.%s.steps%s.sdf" % (smi, e, s)
        r = subprocess.run([vsgrid, "prepare-ligands", smi, "-o", out, "--threads", "1", "--minimize", s, "--ph", ph,
                            "--embed", e], capture_output=True, text=True)
        m = re.search(r"(\d+) records, (\d+) prepared, (\d+) failed, in ([0-9.]+) s", r.stderr)
        if r.returncode != 0 or not m:
            print("vsgrid failed: %s" % r.stderr[-400:])
            return 1
        secs = float(m.group(4))
        q = []
        for mol, ref in zip(Chem.SDMolSupplier(out, removeHs=False, sanitize=True), entries):
            if mol is not None and mol.GetNumAtoms() > 0:
                x = quality(mol, ref)
                if x:
                    q.append(x)
        summarise("vsgrid %s + %s MMFF steps" % ("OB builder" if e == "openbabel" else "RDKit ETKDGv3", s), secs,
                  len(entries), int(m.group(3)), q)
    # RDKit ETKDGv3 + MMFF94 (no protonation: the SMILES as given)
    secs, q, failed = 0.0, [], 0
    params = AllChem.ETKDGv3()
    params.randomSeed = 42
    for ref in entries:
        t0 = time.perf_counter()
        m = Chem.MolFromSmiles(ref)
        ok = m is not None
        if ok:
            m = Chem.AddHs(m)
            ok = AllChem.EmbedMolecule(m, params) == 0
            if ok:
                AllChem.MMFFOptimizeMolecule(m, maxIters=200)
        secs += time.perf_counter() - t0
        if not ok:
            failed += 1
            continue
        x = quality(m, ref)
        if x:
            q.append(x)
    summarise("RDKit ETKDGv3 + MMFF (200)", secs, len(entries), failed, q)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
