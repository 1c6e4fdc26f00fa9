#!/usr/bin/python3
"""Neutral SMILES and reference charges from an SDF library, for the protonation measurement of
issue 29 (scripts/smiles_protonation.py; docs/PERFORMANCE.md, "Issue 29"): the SDF sibling of
scripts/smiles_from_mol2.py, writing the same three files.

usage: smiles_from_sdf.py OUT_PREFIX LIB.sdf[.gz]... [--ref-tag TAG]

The reference state of a record is the record itself (its formal charges: a library written with
its own protonation, e.g. ZINC's), or with --ref-tag the SMILES in that SD tag (e.g. dude_smiles).
Writes, for every record RDKit reads:
  OUT_PREFIX.charged.smi   the reference state's SMILES
  OUT_PREFIX.neutral.smi   the same molecule neutralised (rdMolStandardize.Uncharger): vsgrid's input
  OUT_PREFIX.ref.tsv       name, net formal charge of the reference state, of the neutral one
Names are "NAME_k" (k the record's 1-based number; NAME the title, else the tag id or name).
Needs RDKit (/usr/bin/python3 on Debian: python3-rdkit)."""
import gzip
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem.MolStandardize import rdMolStandardize


def main(argv):
    args = list(argv[1:])
    tag = None
    if "--ref-tag" in args:
        i = args.index("--ref-tag")
        tag = args[i + 1]
        del args[i:i + 2]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    RDLogger.DisableLog("rdApp.*")
    prefix, libs = args[0], args[1:]
    uncharger = rdMolStandardize.Uncharger()
    k = bad = n = 0
    with open(prefix + ".charged.smi", "w") as fc, open(prefix + ".neutral.smi", "w") as fn, \
            open(prefix + ".ref.tsv", "w") as fr:
        fr.write("name\tcharge_ref\tcharge_neutral\n")
        for lib in libs:
            stream = gzip.open(lib, "rb") if lib.endswith(".gz") else open(lib, "rb")
            for mol in Chem.ForwardSDMolSupplier(stream, removeHs=False):
                k += 1
                title = None
                if mol is not None:
                    if mol.HasProp("_Name") and mol.GetProp("_Name").split():
                        title = mol.GetProp("_Name").split()[0]
                    for p in ("id", "name", "dude_id"):
                        if title is None and mol.HasProp(p) and mol.GetProp(p).split():
                            title = mol.GetProp(p).split()[0]
                    if tag is not None:
                        mol = Chem.MolFromSmiles(mol.GetProp(tag)) if mol.HasProp(tag) else None
                if mol is None:
                    bad += 1
                    continue
                mol = Chem.RemoveHs(mol)
                name = "%s_%d" % (title or "mol", k)
                neutral = uncharger.uncharge(Chem.Mol(mol))
                fc.write("%s %s\n" % (Chem.MolToSmiles(mol), name))
                fn.write("%s %s\n" % (Chem.MolToSmiles(neutral), name))
                fr.write("%s\t%d\t%d\n" % (name, Chem.GetFormalCharge(mol), Chem.GetFormalCharge(neutral)))
                n += 1
    print("%d records, %d written, %d RDKit could not read" % (k, n, bad), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
