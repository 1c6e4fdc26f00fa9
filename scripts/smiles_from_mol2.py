#!/usr/bin/python3
"""SMILES written from MOL2 libraries (DUD-E's), for the SMILES measurements of issue 29
(docs/PERFORMANCE.md, "Issue 29").

usage: smiles_from_mol2.py OUT_PREFIX LIB.mol2[.gz]... [--limit N]

Writes, for every MOL2 record RDKit reads (in file order, at most N in all):
  OUT_PREFIX.charged.smi   the SMILES of the MOL2's own protonation (RDKit's reading of its
                           atom types and bonds: N.4, O.co2 ... become formal charges)
  OUT_PREFIX.neutral.smi   the same molecule neutralised (rdMolStandardize.Uncharger)
  OUT_PREFIX.ref.tsv       name, net formal charge of the MOL2's state, of the neutral one
Names are "NAME_k" (k the record's 1-based number over all inputs: DUD-E repeats names for a
molecule's several protonation states). Records RDKit cannot read are counted on stderr.
Needs RDKit (/usr/bin/python3 on Debian: python3-rdkit)."""
import gzip
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem.MolStandardize import rdMolStandardize


def records(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        block = []
        for line in f:
            if line.startswith("@<TRIPOS>MOLECULE") and block:
                yield "".join(block)
                block = []
            block.append(line)
        if block:
            yield "".join(block)


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--limit")]
    limit = None
    for i, a in enumerate(argv):
        if a == "--limit":
            limit = int(argv[i + 1])
            args.remove(argv[i + 1])
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    RDLogger.DisableLog("rdApp.*")
    prefix, libs = args[0], args[1:]
    uncharger = rdMolStandardize.Uncharger()
    k = bad = n = 0
    with open(prefix + ".charged.smi", "w") as fc, open(prefix + ".neutral.smi", "w") as fn, \
            open(prefix + ".ref.tsv", "w") as fr:
        fr.write("name\tcharge_mol2\tcharge_neutral\n")
        for lib in libs:
            for block in records(lib):
                k += 1
                if limit is not None and n >= limit:
                    break
                mol = Chem.MolFromMol2Block(block, removeHs=False)
                if mol is None:
                    bad += 1
                    continue
                mol = Chem.RemoveHs(mol)
                name = "%s_%d" % (mol.GetProp("_Name").split()[0] if mol.HasProp("_Name") else "mol", k)
                neutral = uncharger.uncharge(Chem.Mol(mol))
                fc.write("%s %s\n" % (Chem.MolToSmiles(mol), name))
                fn.write("%s %s\n" % (Chem.MolToSmiles(neutral), name))
                fr.write("%s\t%d\t%d\n" % (name, Chem.GetFormalCharge(mol), Chem.GetFormalCharge(neutral)))
                n += 1
    print("%d records, %d written, %d RDKit could not read" % (k, n, bad), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
