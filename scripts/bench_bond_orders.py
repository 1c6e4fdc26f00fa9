#!/usr/bin/python3
"""bench_bond_orders.py — how well vsgrid perceives bond orders of PDB ligands without CONECT
(ligands/bond_orders.c), measured against molecules whose orders are known.

For each set (DUD-E INHA actives + decoys, MOL2; the RDKit EGFR set, SDF) and with all
hydrogens, only those not on carbon (polar, as PDBQT keeps them) or none, the molecules are written
as PDB without CONECT (RDKit's MolToPDBBlock, CONECT lines dropped; hydrogens removed by RDKit),
read by vsgrid, and compared per
molecule with the same molecules read from their MOL2/SDF (scripts/bench_bond_orders.c prints
vsgrid's side):
  bonds    every bond equal: aromatic vs aromatic (RDKit's model on both sides), else the same
           order; the bond set itself must be equal too (distance inference)
  charges  Gasteiger charges (Open Babel) within 0.01 e on every atom
  types    AutoDock 4 types equal on every atom
  rotors   the same number of rotatable bonds (single, acyclic, not terminal, not amide C-N)
With fewer hydrogens the reference is the same file with those hydrogens removed (MOL2: the atom
and bond lines dropped; SDF: RDKit's), read by vsgrid the same way.

INHA's reference charges come from its MOL2 as vsgrid reads it, which has no formal charges
(MOL2 carries none); the row "inha (sdf)" compares with the same molecules written by RDKit
as SDF, which carry the formal charges RDKit's MOL2 parser gives them (N.4 +1, O.co2 -1).

usage: bench_bond_orders.py HELPER [--shared DIR] [--work DIR] [--limit N] [--sets inha,egfr]
       [--check ROW] [--min-bonds F] [--min-charges F] [--min-types F] [--min-bonds-no-h F]
       [--failures N]
HELPER is the bench_bond_orders executable (built with the project). With --min-*, the exit
status is 1 when a fraction of the row ROW (default: the first, e.g. "inha (sdf)") is below
it: with hydrogens, and --min-bonds-no-h without (tests/cli_bond_orders.sh uses this).
"""
import argparse
import gzip
import os
import subprocess
import sys

from rdkit import Chem, RDLogger

RDLogger.DisableLog("rdApp.*")


def mol2_blocks(path):
    text = gzip.open(path, "rt").read() if path.endswith(".gz") else open(path).read()
    return ["@<TRIPOS>MOLECULE" + b for b in text.split("@<TRIPOS>MOLECULE")[1:]]


def mol2_without_h(block, polar_kept=False):
    """The MOL2 record without its hydrogen atoms (polar_kept: those on carbon only) and their
    bonds, atoms renumbered."""
    out, section, keep, atoms, bonds = [], None, {}, [], []
    element = {}
    for line in block.split("@<TRIPOS>ATOM")[-1].split("@<TRIPOS>")[0].splitlines()[1:]:
        f = line.split()
        if len(f) >= 6:
            element[int(f[0])] = f[5].split(".")[0]
    hydrogen_on_carbon = set()
    for line in block.split("@<TRIPOS>BOND")[-1].splitlines()[1:]:
        f = line.split()
        if len(f) >= 4 and not line.startswith("@"):
            a, b = int(f[1]), int(f[2])
            if element.get(a) == "H" and element.get(b) == "C":
                hydrogen_on_carbon.add(a)
            if element.get(b) == "H" and element.get(a) == "C":
                hydrogen_on_carbon.add(b)
    for line in block.splitlines():
        if line.startswith("@<TRIPOS>"):
            section = line.strip()
            if section not in ("@<TRIPOS>ATOM", "@<TRIPOS>BOND"):
                out.append(line)
            continue
        f = line.split()
        if section == "@<TRIPOS>ATOM" and f:
            if f[5].split(".")[0] != "H" or (polar_kept and int(f[0]) not in hydrogen_on_carbon):
                keep[int(f[0])] = len(keep) + 1
                atoms.append(f)
        elif section == "@<TRIPOS>BOND" and f:
            if int(f[1]) in keep and int(f[2]) in keep:
                bonds.append(f)
        else:
            out.append(line)
    counts = out[2].split()
    out[2] = "%5d %5d %s" % (len(atoms), len(bonds), " ".join(counts[2:]))
    out.append("@<TRIPOS>ATOM")
    for f in atoms:
        out.append("%7d %-8s %10s %10s %10s %-6s %s" % (keep[int(f[0])], f[1], f[2], f[3], f[4], f[5], " ".join(f[6:])))
    out.append("@<TRIPOS>BOND")
    for k, f in enumerate(bonds, 1):
        out.append("%6d %5d %5d %s" % (k, keep[int(f[1])], keep[int(f[2])], f[3]))
    return "\n".join(out) + "\n"


def load(set_name, shared, limit):
    """(name, RDKit molecule with H, MOL2 block or None) for each molecule of the set."""
    items = []
    if set_name == "inha":
        for part in ("actives_final", "decoys_final"):
            for block in mol2_blocks(os.path.join(shared, "dude/inha/%s.mol2.gz" % part)):
                items.append((block.splitlines()[1].strip(), Chem.MolFromMol2Block(block, removeHs=False), block))
    else:
        with gzip.open(os.path.join(shared, "ligands_rdkit/egfr.sdf.gz")) as f:
            for m in Chem.ForwardSDMolSupplier(f, removeHs=False):
                items.append((m.GetProp("_Name") if m else "?", m, None))
    items = [it for it in items if it[1] is not None]
    return items[:limit] if limit else items


def pdb_block(mol, name):
    mol.SetProp("_Name", name)
    return "".join(l + "\n" for l in Chem.MolToPDBBlock(mol).splitlines() if not l.startswith("CONECT"))


def bonds_right(truth, line_bonds, line_formal, hydrogens):
    """Whether vsgrid's bonds (and charges) give the reference's bonds, RDKit perceiving both."""
    mine = Chem.RWMol()
    formal = dict(tuple(map(int, f.split(":"))) for f in line_formal.split(",")) if line_formal != "-" else {}
    for a in truth.GetAtoms():
        atom = Chem.Atom(a.GetAtomicNum())
        atom.SetFormalCharge(formal.get(a.GetIdx(), 0))
        atom.SetNoImplicit(hydrogens == "all" or (hydrogens == "polar" and a.GetAtomicNum() != 6))
        mine.AddAtom(atom)
    types = {1: Chem.BondType.SINGLE, 2: Chem.BondType.DOUBLE, 3: Chem.BondType.TRIPLE}
    pairs = set()
    for f in line_bonds.split(",") if line_bonds else []:
        ab, order = f.split(":")
        a, b = map(int, ab.split("-"))
        mine.AddBond(a, b, types.get(int(order), Chem.BondType.SINGLE))
        pairs.add((min(a, b), max(a, b)))
    if pairs != {(min(b.GetBeginAtomIdx(), b.GetEndAtomIdx()), max(b.GetBeginAtomIdx(), b.GetEndAtomIdx()))
                 for b in truth.GetBonds()}:
        return False, "bond set"
    try:
        Chem.SanitizeMol(mine)
    except Exception as e:  # an impossible valence: a wrong order
        return False, "sanitize: %s" % str(e).splitlines()[0]
    # resonance forms are equal: the bonds of a carboxylate, nitro, sulfonate or phosphate group
    # to its terminal oxygens compare as a multiset of (order, oxygen charge)
    def group_of(b):
        for a, o in ((b.GetBeginAtom(), b.GetEndAtom()), (b.GetEndAtom(), b.GetBeginAtom())):
            terminal = [n for n in a.GetNeighbors() if n.GetAtomicNum() == 8 and n.GetDegree() == 1]
            if o.GetAtomicNum() == 8 and o.GetDegree() == 1 and len(terminal) >= 2:
                return a.GetIdx()
        return None

    def group_forms(mol, bonds):
        forms = {}
        for b in bonds:
            g = group_of(b)
            if g is not None:
                o = b.GetEndAtom() if b.GetBeginAtomIdx() == g else b.GetBeginAtom()
                forms.setdefault(g, []).append((str(b.GetBondType()), mol.GetAtomWithIdx(o.GetIdx()).GetFormalCharge()))
        return {g: sorted(f) for g, f in forms.items()}

    if group_forms(truth, truth.GetBonds()) != group_forms(mine, [mine.GetBondBetweenAtoms(b.GetBeginAtomIdx(),
                                                                                          b.GetEndAtomIdx())
                                                                  for b in truth.GetBonds()]):
        return False, "charged group"
    for b in truth.GetBonds():
        if group_of(b) is not None:
            continue
        m = mine.GetBondBetweenAtoms(b.GetBeginAtomIdx(), b.GetEndAtomIdx())
        if b.GetIsAromatic() != m.GetIsAromatic() or (not b.GetIsAromatic() and b.GetBondType() != m.GetBondType()):
            return False, "bond %d-%d %s, vsgrid %s" % (b.GetBeginAtomIdx(), b.GetEndAtomIdx(), b.GetBondType(),
                                                       m.GetBondType())
    return True, ""


def strip(mol, hydrogens):
    """mol with all its hydrogens, those not on carbon (polar), or none; atom order kept."""
    if hydrogens == "all":
        return Chem.Mol(mol)
    if hydrogens == "none":
        return Chem.RemoveHs(mol)
    rw = Chem.RWMol(mol)
    for a in sorted((a.GetIdx() for a in mol.GetAtoms()
                     if a.GetAtomicNum() == 1 and a.GetNeighbors()[0].GetAtomicNum() == 6), reverse=True):
        rw.RemoveAtom(a)
    for a in rw.GetAtoms():  # the carbons' hydrogens become implicit, not radicals
        if a.GetAtomicNum() == 6:
            a.SetNoImplicit(False)
            a.SetNumRadicalElectrons(0)
    m = rw.GetMol()
    Chem.SanitizeMol(m)
    return m


def run_set(args, label, items, truth_kind, hydrogens):
    tag = "%s_%s_%s" % (label, truth_kind, hydrogens)
    truth_path = os.path.join(args.work, tag + (".mol2" if truth_kind == "mol2" else ".sdf"))
    pdb_path = os.path.join(args.work, tag + ".pdb")
    mols = []
    with open(pdb_path, "w") as pdb, open(truth_path, "w") as truth:
        writer = None if truth_kind == "mol2" else Chem.SDWriter(truth)
        for name, mol, block in items:
            m = strip(mol, hydrogens)
            mols.append((name, m))
            pdb.write(pdb_block(Chem.Mol(m), name))
            if writer:
                m.SetProp("_Name", name)
                writer.write(m)
            else:
                truth.write(block if hydrogens == "all" else mol2_without_h(block, hydrogens == "polar"))
        if writer:
            writer.close()
    out = subprocess.run([args.helper, truth_path, pdb_path], capture_output=True, text=True, check=True).stdout
    ok_b = ok_q = ok_t = ok_r = 0
    failures = []
    for line, (name, m) in zip(out.splitlines(), mols):
        f = line.split("\t")
        right, why = bonds_right(m, f[5], f[6], hydrogens)
        ok_b += right
        ok_q += 0 <= float(f[3]) <= 0.01
        ok_t += f[4] == "1"
        ok_r += f[7] == "1"
        if not right:
            failures.append("%s: %s (%s)" % (name, why, Chem.MolToSmiles(Chem.RemoveHs(m))))
    n = len(mols)
    return n, ok_b / n, ok_q / n, ok_t / n, ok_r / n, failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("helper")
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--shared", default=os.environ.get("VSG_SHARED_DATA", os.path.join(here, "..", "shared", "data")))
    ap.add_argument("--work", default="/tmp/bench_bond_orders")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--sets", default="inha,egfr")
    ap.add_argument("--min-bonds", type=float, default=0.0)
    ap.add_argument("--min-charges", type=float, default=0.0)
    ap.add_argument("--min-types", type=float, default=0.0)
    ap.add_argument("--min-bonds-no-h", type=float, default=0.0)
    ap.add_argument("--check", default="", help="the row the --min-* limits apply to (default: the first)")
    ap.add_argument("--failures", type=int, default=0, help="list the first N molecules with a wrong bond")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rows = []
    for label in args.sets.split(","):
        items = load(label, args.shared, args.limit)
        kinds = ["mol2", "sdf"] if label == "inha" else ["sdf"]
        for hydrogens in ("all", "polar", "none"):
            for kind in kinds:
                rows.append(("%s (%s)" % (label, kind), hydrogens) + run_set(args, label, items, kind, hydrogens))
    print("%-12s %-5s %6s %8s %8s %8s %8s" % ("set", "H", "mols", "bonds", "charges", "types", "rotors"))
    for r in rows:
        print("%-12s %-5s %6d %7.1f%% %7.1f%% %7.1f%% %7.1f%%" % (r[0], r[1], r[2], 100 * r[3], 100 * r[4], 100 * r[5],
                                                              100 * r[6]))
    if args.failures:
        for r in rows:
            for line in r[7][:args.failures]:
                print("%s H=%s %s" % (r[0], r[1], line))
    label = args.check or rows[0][0]
    with_h = [r for r in rows if r[0] == label and r[1] == "all"]
    without_h = [r for r in rows if r[0] == label and r[1] == "none"]
    if not with_h:
        print("FAIL: no row '%s'" % label)
        return 1
    h, noh = with_h[0], without_h[0]
    low = [(what, got, need) for what, got, need in (("bonds (H)", h[3], args.min_bonds),
                                                     ("charges (H)", h[4], args.min_charges),
                                                     ("types (H)", h[5], args.min_types),
                                                     ("bonds (no H)", noh[3], args.min_bonds_no_h)) if got < need]
    for what, got, need in low:
        print("FAIL: %s %s: %.3f < %.3f" % (label, what, got, need))
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())
