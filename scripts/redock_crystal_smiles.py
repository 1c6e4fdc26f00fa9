#!/usr/bin/python3
"""redock_crystal_smiles.py — the SMILES of the shared crystal ligands (issue 29's re-docking from
SMILES, scripts/bench_redock_smiles.sh), made and checked against the crystal ligands themselves.

usage: redock_crystal_smiles.py make   [--table T] [--shared DIR] [--vsgrid BIN] > crystal_ligands.smi
       redock_crystal_smiles.py check  [--table T] [--shared DIR] [--smiles F] [--prepared F.sdf]
       redock_crystal_smiles.py poses  [--table T] [--shared DIR] [--smiles F] POSES.sdf...
       redock_crystal_smiles.py sdf    [--table T] [--shared DIR] [--smiles F] [--runs N] [--out DIR]
                                       [--gzip] [--vsgrid BIN]

The complexes and their crystal ligands are data/redock_smiles/complexes.tsv (paths relative to
the shared data, VSG_SHARED_DATA or ../shared/data beside the repository; "repo:" relative to
the repository).

make   writes "SMILES name" for every complex. The bond orders come from the crystal file where
       it has them (SDF, MOL2: RDKit reads them), from vsgrid's own perception for a PDBQT (its
       polar hydrogens kept: `vsgrid prepare-ligands X.pdbqt -o X.sdf`, bonds from distances,
       orders and formal charges perceived), or from OVERRIDES below where that perception is
       wrong (each with its reason). Stereo (centres and double bonds) is then taken from the
       crystal coordinates: the SMILES's heavy atoms are matched onto the crystal's and RDKit's
       AssignStereochemistryFrom3D assigns it there. Hydrogens on N, O and S follow the crystal
       file (PDBQT: its HD atoms; SDF/MOL2: its hydrogens), so a docking of the SMILES with
       `--ph none` docks the same species as a docking of the crystal conformer.
check  validates every line of the SMILES file (default data/redock_smiles/crystal_ligands.smi)
       against its crystal ligand and prints one line a complex:
         graph   the SMILES's heavy-atom graph (elements and connectivity, bond orders, charges
                 and aromaticity dropped on both sides) is isomorphic to the crystal ligand's
                 (PDBQT: bonds from distances, covalent radii + 0.45 A; SDF/MOL2: its bonds):
                 same atom and bond counts and an RDKit substructure match
         polarH  every N, O and S carries as many hydrogens in the SMILES as in the crystal
                 file (PDBQT: HD atoms within 1.3 A; SDF/MOL2: its H atoms)
         stereo  the SMILES's stereo equals the stereo RDKit assigns from the crystal
                 coordinates through that match (same canonical isomeric SMILES)
       and, with --prepared OUT.sdf (`vsgrid prepare-ligands crystal_ligands.smi --ph none -o
       OUT.sdf`, record k = line k), the same three checks on vsgrid's prepared 3D molecule (its
       stereo from its own built coordinates): what a screen of the SMILES docks.
       Exit 1 when any check fails.
poses  prints "file record name stereo rings" for every record of the SDF files (docked poses of
       the SMILES: `vsgrid screen ... --poses-out F.sdf`, each record named as its SMILES):
       stereo 1 when its stereo, taken from its own coordinates, is its SMILES's (Open Babel's
       3D builder can invert a centre; docking changes only torsions, so a pose keeps what was
       built), else 0; rings the largest RMSD (A) of one of its ring systems, superposed, to the
       crystal's (docking keeps rings rigid: the ring conformations prepared are the ones docked).
sdf    writes the inputs of bench_redock_smiles.sh's "crystal-vsgrid" arm: the crystal arm's own
       conformers (the set's rand-k.pdbqt, k < --runs (default 3), where the table says rand, and
       the crystal file, the start of any run without a rand-k), each as an SDF that vsgrid
       prepares itself (its own torsion tree, the rules the SMILES's molecule gets), in --out
       (default data/redock_smiles/crystal_sdf) as <complex>-rand-<k>.sdf and
       <complex>-crystal.sdf (.sdf.gz with --gzip). Each holds the file's heavy atoms and its
       hydrogens on N, O and S (a PDBQT has only those; an SDF's or MOL2's other hydrogens are
       left out), in file order, with the file's coordinates; bond orders and formal charges come
       from the complex's SMILES by RDKit's AssignBondOrdersFromTemplate (the SMILES with its polar
       hydrogens explicit as the template, so that the match also pairs the hydrogens), stereo
       from the coordinates. A rand-k whose heavy-atom bonds (from distances) are not the crystal
       file's is not written (3ER5: AutoDockTools left a proline's N-C bond, 1.88 A in the
       crystal, open, and the random torsions pulled it apart): its run starts from
       <complex>-crystal.sdf. Every file is read back and checked: heavy-atom graph isomorphic to
       the SMILES's, polar hydrogens as the file's (none implicit), the same molecule as the
       SMILES (bond orders, formal charges, hydrogen counts), stereo as the SMILES, coordinates
       equal to the input's; with --vsgrid (default build/vsgrid, skipped when not executable),
       `vsgrid prepare-ligands` of the SDFs and of the SMILES (--ph none) gives the torsion count
       of vsgrid's tree of each and shows that vsgrid keeps the SDF's coordinates (no 3D
       rebuild). One table line an SDF with AutoDockTools' BRANCH count beside them. Exit 1 when
       any check fails.
Needs RDKit (/usr/bin/python3 on Debian: python3-rdkit).
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile

import numpy
from rdkit import Chem, RDLogger
from rdkit.Geometry import Point3D

RDLogger.DisableLog("rdApp.*")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Where vsgrid's bond-order perception of a PDBQT (no orders, polar H only) gives a wrong
# molecule: the SMILES written by hand from the PDB entry's chemistry and the PDBQT's HD atoms
# (stereo is still taken from the crystal). Each is checked like every other line.
OVERRIDES = {
    # N-formyl-N-hydroxylamine (reverse hydroxamate) zinc binder; its O has no HD: the
    # N-oxide anion bound to the zinc. Perceived as a nitro-like [N+](=O) with no H count change.
    "1gkc": ("CNC(=O)C(NC(=O)C(CC(C)C)CN([O-])C=O)C(C)(C)C",
             "perceived C[N+](=O)C=O: the zinc-bound N-hydroxyformamide anion"),
    # TNK-651 (6-benzyl-1-benzyloxymethyl-5-isopropyluracil), N3-H as the PDBQT's HD.
    "1jla": ("CC(C)c1c(Cc2ccccc2)n(COCc2ccccc2)c(=O)[nH]c1=O",
             "perceived an isopropylidene and an N+ (a non-aromatic uracil)"),
    # 1-naphthaleneacetic acid; neither O has an HD: the carboxylate.
    "1lrh": ("[O-]C(=O)Cc1cccc2ccccc12",
             "perceived a gem-diol C(O)O (2 H too many)"),
    # purvalanol B; the carboxylate has no HD.
    "1v0p": ("CC(C)C(CO)Nc1nc(Nc2ccc(C(=O)[O-])c(Cl)c2)c2ncn(C(C)C)c2n1",
             "perceived an iminium C=[NH+] at the sp3 C-H of the amino alcohol"),
    # the peptide Pro-His-Pro-Phe-His-Leu-psi[CH(OH)CH2]-Val-Ile-His-Lys (N-terminal Pro NH2+,
    # Lys NH3+, C-terminal carboxylate, as the PDBQT's HD atoms): the last His's C-alpha and
    # carbonyl were perceived as an enolate C=C(O-) (the crystal's C-alpha is tetrahedral and that
    # bond 1.48 A long); the rest is vsgrid's perception as it came.
    "3er5": ("CC[C@H](C)[C@H](NC(=O)[C@@H](NC(=O)C[C@H](O)[C@H](CC(C)C)NC(=O)[C@H](Cc1cnc[nH]1)NC(=O)"
             "[C@H](Cc1ccccc1)NC(=O)[C@@H]1CCCN1C(=O)[C@H](Cc1cnc[nH]1)NC(=O)[C@@H]1CCC[NH2+]1)C(C)C)"
             "C(=O)NC(Cc1cnc[nH]1)C(=O)N[C@@H](CCCC[NH3+])C(=O)[O-]",
             "perceived an enolate C=C(O-) at the last His's C-alpha and carbonyl"),
}
# Bond orders of an SDF/MOL2 corrected from the crystal's geometry.
MOL2_OVERRIDES = {
    # DUD-E's crystal_ligand.mol2 (2H7L's ligand) gives the N-cyclohexyl ring two C=C bonds
    # (a cyclohexa-2,4-dienyl, with H to match), but its ring bonds are 1.53-1.60 A long and
    # the ring is a chair: the cyclohexyl of the PDB entry's 1-cyclohexyl-5-oxopyrrolidine-3-
    # carboxamide. Same heavy-atom graph.
    "2h7l": ("O=C(Nc1cccc(Br)c1)C1CC(=O)N(C2CCCCC2)C1",
             "MOL2's cyclohexadienyl is a cyclohexyl by its bond lengths"),
}

AD_ELEMENT = {"A": "C", "C": "C", "N": "N", "NA": "N", "NS": "N", "OA": "O", "OS": "O", "O": "O",
              "SA": "S", "S": "S", "H": "H", "HD": "H", "HS": "H", "F": "F", "Cl": "Cl", "CL": "Cl",
              "Br": "Br", "BR": "Br", "I": "I", "P": "P", "Mg": "Mg", "Zn": "Zn", "Fe": "Fe"}
COVALENT = {"H": 0.31, "C": 0.76, "N": 0.71, "O": 0.66, "F": 0.57, "P": 1.07, "S": 1.05, "Cl": 1.02,
            "Br": 1.20, "I": 1.39}


def shared_dir(arg):
    return arg or os.environ.get("VSG_SHARED_DATA") or os.path.join(ROOT, "..", "shared", "data")


def resolve(path, shared):
    return os.path.join(ROOT, path[5:]) if path.startswith("repo:") else os.path.join(shared, path)


def read_table(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, crystal, receptor, box, starts = line.rstrip("\n").split("\t")
            rows.append({"name": name, "crystal": crystal, "receptor": receptor, "box": box, "starts": starts})
    return rows


class Crystal:
    """Heavy atoms (elements, coordinates), their bonds, hydrogens counted on each."""

    def __init__(self, elements, coords, bonds, hcount, mol=None):
        self.elements, self.coords, self.bonds, self.hcount, self.mol = elements, coords, bonds, hcount, mol


def dist2(a, b):
    return sum((a[i] - b[i]) ** 2 for i in range(3))


def pdbqt_atoms(path):
    """A PDBQT's atoms in file order: (element, (x, y, z))."""
    atoms = []
    with open(path) as f:
        for line in f:
            if line.startswith(("ATOM  ", "HETATM")):
                t = line[77:79].strip() if len(line) > 77 else line.split()[-1]
                el = AD_ELEMENT.get(t)
                if el is None:
                    raise ValueError(f"{path}: AutoDock type '{t}' not known here")
                atoms.append((el, (float(line[30:38]), float(line[38:46]), float(line[46:54]))))
    return atoms


def read_pdbqt(path):
    atoms = pdbqt_atoms(path)
    heavy = [i for i, (el, _) in enumerate(atoms) if el != "H"]
    index = {a: k for k, a in enumerate(heavy)}
    bonds = []
    for x in range(len(heavy)):
        for y in range(x + 1, len(heavy)):
            (ea, pa), (eb, pb) = atoms[heavy[x]], atoms[heavy[y]]
            if dist2(pa, pb) < (COVALENT[ea] + COVALENT[eb] + 0.45) ** 2:
                bonds.append((x, y))
    hcount = [0] * len(heavy)
    for i, (el, p) in enumerate(atoms):
        if el != "H":
            continue
        near = min(heavy, key=lambda j: dist2(p, atoms[j][1]))
        if dist2(p, atoms[near][1]) < 1.3 ** 2:
            hcount[index[near]] += 1
    return Crystal([atoms[i][0] for i in heavy], [atoms[i][1] for i in heavy], bonds, hcount)


def read_bonded(path):
    mol = Chem.MolFromMol2File(path, removeHs=False) if path.endswith(".mol2") else \
        Chem.MolFromMolFile(path, removeHs=False)
    if mol is None:
        raise ValueError(f"{path}: RDKit cannot read it")
    heavy = [a.GetIdx() for a in mol.GetAtoms() if a.GetAtomicNum() != 1]
    index = {a: k for k, a in enumerate(heavy)}
    conf = mol.GetConformer()
    bonds = [(index[b.GetBeginAtomIdx()], index[b.GetEndAtomIdx()]) for b in mol.GetBonds()
             if b.GetBeginAtomIdx() in index and b.GetEndAtomIdx() in index]
    hcount = [sum(1 for n in mol.GetAtomWithIdx(i).GetNeighbors() if n.GetAtomicNum() == 1) for i in heavy]
    coords = [tuple(conf.GetAtomPosition(i)) for i in heavy]
    return Crystal([mol.GetAtomWithIdx(i).GetSymbol() for i in heavy], coords, bonds, hcount, mol)


def read_crystal(path):
    return read_bonded(path) if path.endswith((".sdf", ".mol", ".mol2")) else read_pdbqt(path)


def generic(elements, bonds):
    """A bare graph: elements and single bonds, no charges, no hydrogens, no aromaticity."""
    m = Chem.RWMol()
    for el in elements:
        a = Chem.Atom(el)
        a.SetNoImplicit(True)
        m.AddAtom(a)
    for x, y in bonds:
        m.AddBond(x, y, Chem.BondType.SINGLE)
    m = m.GetMol()
    Chem.SanitizeMol(m)  # ring information: substructure matching needs it
    return m


def mol_graph(mol):
    heavy = [a.GetIdx() for a in mol.GetAtoms() if a.GetAtomicNum() != 1]
    index = {a: k for k, a in enumerate(heavy)}
    bonds = [(index[b.GetBeginAtomIdx()], index[b.GetEndAtomIdx()]) for b in mol.GetBonds()
             if b.GetBeginAtomIdx() in index and b.GetEndAtomIdx() in index]
    return heavy, generic([mol.GetAtomWithIdx(i).GetSymbol() for i in heavy], bonds)


def match_graph(mol, cr):
    """mol's heavy atoms -> crystal heavy atoms (a dict of atom indices), or (None, reason)."""
    heavy, g = mol_graph(mol)
    c = generic(cr.elements, cr.bonds)
    if g.GetNumAtoms() != c.GetNumAtoms() or g.GetNumBonds() != c.GetNumBonds():
        return None, f"{g.GetNumAtoms()} heavy atoms / {g.GetNumBonds()} bonds against the crystal's " \
                     f"{c.GetNumAtoms()} / {c.GetNumBonds()}"
    m = c.GetSubstructMatch(g)
    if not m:
        return None, "not isomorphic to the crystal's heavy-atom graph"
    return {heavy[k]: m[k] for k in range(len(heavy))}, ""


def polar_h_diffs(mol, mapping, cr, explicit=False):
    out = []
    for i, j in mapping.items():
        a = mol.GetAtomWithIdx(i)
        if a.GetSymbol() not in ("N", "O", "S"):
            continue
        n = sum(1 for x in a.GetNeighbors() if x.GetAtomicNum() == 1) if explicit else a.GetTotalNumHs()
        if n != cr.hcount[j]:
            out.append(f"{a.GetSymbol()}{i + 1}: {n} H, crystal {cr.hcount[j]}")
    return out


def angle_sum(p, ns):
    """Sum of the three bond angles at p (degrees): 360 flat (sp2), about 328 tetrahedral."""
    def ang(a, b):
        va = [a[i] - p[i] for i in range(3)]
        vb = [b[i] - p[i] for i in range(3)]
        c = sum(va[i] * vb[i] for i in range(3)) / math.sqrt(sum(x * x for x in va) * sum(x * x for x in vb))
        return math.degrees(math.acos(max(-1.0, min(1.0, c))))
    return ang(ns[0], ns[1]) + ang(ns[0], ns[2]) + ang(ns[1], ns[2])


def geometry_diffs(mol, mapping, cr):
    """Where the SMILES's bond orders disagree with the crystal's geometry: a carbon with three
    heavy neighbours that is trigonal (sp2) in the SMILES but pyramidal in the crystal (angle sum
    < 345) or tetrahedral in the SMILES but flat (> 355); a C=C or C=N double bond (not aromatic)
    longer than 1.45 A, C=O longer than 1.38 A; a single bond between two sp3 carbons shorter
    than 1.43 A."""
    out = []
    xyz = lambda i: cr.coords[mapping[i]]  # noqa: E731
    for a in mol.GetAtoms():
        heavy = [n.GetIdx() for n in a.GetNeighbors() if n.GetAtomicNum() != 1]
        if a.GetSymbol() == "C" and len(heavy) == 3:
            s = angle_sum(xyz(a.GetIdx()), [xyz(n) for n in heavy])
            sp2 = a.GetHybridization() in (Chem.HybridizationType.SP2, Chem.HybridizationType.SP)
            if sp2 and s < 345:
                out.append(f"C{a.GetIdx() + 1} trigonal in the SMILES, pyramidal in the crystal ({s:.0f} deg)")
            if not sp2 and s > 355:
                out.append(f"C{a.GetIdx() + 1} tetrahedral in the SMILES, flat in the crystal ({s:.0f} deg)")
    for b in mol.GetBonds():
        i, j = b.GetBeginAtom(), b.GetEndAtom()
        if i.GetAtomicNum() == 1 or j.GetAtomicNum() == 1:
            continue
        d = math.sqrt(dist2(xyz(i.GetIdx()), xyz(j.GetIdx())))
        pair = "".join(sorted(i.GetSymbol() + j.GetSymbol()))
        if b.GetBondType() == Chem.BondType.DOUBLE and not b.GetIsAromatic():
            if (pair in ("CC", "CN") and d > 1.45) or (pair == "CO" and d > 1.38):
                out.append(f"{i.GetSymbol()}{i.GetIdx() + 1}={j.GetSymbol()}{j.GetIdx() + 1} {d:.2f} A long")
        if b.GetBondType() == Chem.BondType.SINGLE and pair == "CC" and d < 1.43 and \
                i.GetHybridization() == j.GetHybridization() == Chem.HybridizationType.SP3:
            out.append(f"C{i.GetIdx() + 1}-C{j.GetIdx() + 1} (sp3-sp3) {d:.2f} A short")
    return out


def stereo_from_coords(mol, coords_of):
    """A copy of mol (heavy atoms) with its stereo taken from coordinates coords_of(atom index)."""
    m = Chem.RWMol(Chem.RemoveHs(mol))
    for a in m.GetAtoms():
        a.SetChiralTag(Chem.ChiralType.CHI_UNSPECIFIED)
    for b in m.GetBonds():
        b.SetStereo(Chem.BondStereo.STEREONONE)
        b.SetBondDir(Chem.BondDir.NONE)
    conf = Chem.Conformer(m.GetNumAtoms())
    for a in m.GetAtoms():
        conf.SetAtomPosition(a.GetIdx(), Point3D(*coords_of(a.GetIdx())))
    m.RemoveAllConformers()
    m.AddConformer(conf, assignId=True)
    Chem.AssignStereochemistryFrom3D(m, replaceExistingTags=True)
    for a in m.GetAtoms():  # a phosphate's or phosphinate's P (O= and O- are one by resonance)
        if a.GetSymbol() not in ("C", "N"):
            a.SetChiralTag(Chem.ChiralType.CHI_UNSPECIFIED)
    m = m.GetMol()
    m.RemoveAllConformers()
    return m


def candidate(row, shared, vsgrid):
    """The SMILES before stereo, and where its bond orders came from."""
    name, path = row["name"], resolve(row["crystal"], shared)
    if name in OVERRIDES:
        return OVERRIDES[name][0], "by hand: vsgrid " + OVERRIDES[name][1]
    if name in MOL2_OVERRIDES:
        return MOL2_OVERRIDES[name][0], "by hand: " + MOL2_OVERRIDES[name][1]
    if path.endswith((".sdf", ".mol2")):
        mol = read_bonded(path).mol
        return Chem.MolToSmiles(Chem.RemoveAllHs(mol)), "RDKit from the " + path.rsplit(".", 1)[1].upper()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "x.sdf")
        subprocess.run([vsgrid, "prepare-ligands", path, "-o", out, "--threads", "1", "--quiet"], check=True)
        mol = Chem.MolFromMolFile(out, removeHs=False)
    if mol is None:
        raise ValueError(f"{name}: RDKit cannot read vsgrid's SDF of {path}")
    return Chem.MolToSmiles(Chem.RemoveHs(mol)), "vsgrid's bond-order perception of the PDBQT"


def make(args, rows, shared):
    for row in rows:
        smi, how = candidate(row, shared, args.vsgrid)
        mol = Chem.MolFromSmiles(smi)
        cr = read_crystal(resolve(row["crystal"], shared))
        mapping, why = match_graph(mol, cr)
        if mapping is None:
            sys.exit(f"{row['name']}: {why} ({smi})")
        final = Chem.MolToSmiles(stereo_from_coords(mol, lambda i: cr.coords[mapping[i]]))
        print(f"{final} {row['name']}")
        print(f"{row['name']}: {how}", file=sys.stderr)


def read_smi(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                smi, name = line.split()[:2]
                out.append((smi, name))
    return out


def cip_diff(want, got):
    """How the stereo of got differs from want's (two SMILES of one constitution): 'k of n
    centres inverted' and the double bonds that flipped, through RDKit's CIP labels."""
    a, b = Chem.MolFromSmiles(want), Chem.MolFromSmiles(got)
    m = b.GetSubstructMatch(a) if a is not None and b is not None else ()
    if not m:
        return f"{got} != {want}"
    for x in (a, b):
        Chem.AssignStereochemistry(x, cleanIt=True, force=True)
    centres = [i for i in range(a.GetNumAtoms()) if a.GetAtomWithIdx(i).HasProp("_CIPCode")]
    inv = [i for i in centres if not b.GetAtomWithIdx(m[i]).HasProp("_CIPCode")
           or b.GetAtomWithIdx(m[i]).GetProp("_CIPCode") != a.GetAtomWithIdx(i).GetProp("_CIPCode")]
    flipped = sum(1 for bd in a.GetBonds() if bd.GetStereo() != Chem.BondStereo.STEREONONE and
                  (lambda o: o is None or o.GetStereo() != bd.GetStereo())(
                      b.GetBondBetweenAtoms(m[bd.GetBeginAtomIdx()], m[bd.GetEndAtomIdx()])))
    out = f"{len(inv)} of {len(centres)} centres inverted" + \
        (" (" + ", ".join(f"{a.GetAtomWithIdx(i).GetSymbol()}{i + 1} {a.GetAtomWithIdx(i).GetProp('_CIPCode')}"
                          for i in inv) + " in the SMILES's atom order)" if inv else "")
    return out + (f", {flipped} double bond(s) flipped" if flipped else "")


def check_one(mol, cr, explicit_h, coords_of=None, want=None, geometry=True):
    """[graph, polarH, stereo(, geometry)] verdicts ('ok' or the reason) of mol against the crystal."""
    mapping, why = match_graph(mol, cr)
    if mapping is None:
        return ["FAIL " + why, "-", "-"] + (["-"] if geometry else [])
    d = polar_h_diffs(mol, mapping, cr, explicit_h)
    g = geometry_diffs(mol, mapping, cr) if geometry else None
    heavy_map = {k: v for k, v in enumerate(sorted(mapping))}  # RemoveHs keeps heavy atoms in order
    ref = want if want is not None else Chem.MolToSmiles(Chem.RemoveHs(mol))
    if coords_of is None:
        coords_of = lambda i: cr.coords[mapping[heavy_map[i]]]  # noqa: E731 (crystal's coordinates)
    got = Chem.MolToSmiles(stereo_from_coords(mol, coords_of))
    v = ["ok", "ok" if not d else "FAIL " + "; ".join(d), "ok" if got == ref else "FAIL " + cip_diff(ref, got)]
    return v + (["ok" if not g else "FAIL " + "; ".join(g)] if geometry else [])


def check(args, rows, shared):
    smis = read_smi(args.smiles)
    by_name = {r["name"]: r for r in rows}
    prepared = []
    if args.prepared:
        prepared = list(Chem.SDMolSupplier(args.prepared, removeHs=False, sanitize=True))
    bad = 0
    print("| complex | crystal ligand | heavy atoms | graph | polar H | stereo | bond orders vs geometry |"
          + (" prepared: graph | polar H | stereo |" if args.prepared else ""))
    print("|---|---|--:|---|---|---|---|" + ("---|---|---|" if args.prepared else ""))
    for k, (smi, name) in enumerate(smis):
        row = by_name.get(name)
        if row is None:
            print(f"| {name} | not in the table | | FAIL | | | |")
            bad += 1
            continue
        cr = read_crystal(resolve(row["crystal"], shared))
        mol = Chem.MolFromSmiles(smi)
        if mol is None:
            v = ["FAIL unparsable", "-", "-", "-"]
        elif len(Chem.GetMolFrags(mol)) != 1:
            v = ["FAIL several fragments", "-", "-", "-"]
        else:
            v = check_one(mol, cr, False)
        p = []
        if args.prepared:
            pm = prepared[k] if k < len(prepared) else None
            if pm is None or pm.GetNumAtoms() == 0:
                p = ["FAIL not prepared", "-", "-"]
            else:
                want = Chem.MolToSmiles(Chem.MolFromSmiles(smi))
                pconf = Chem.RemoveHs(pm).GetConformer()
                p = check_one(pm, cr, True, lambda i: tuple(pconf.GetAtomPosition(i)), want, geometry=False)
        bad += any(x.startswith("FAIL") for x in v + p)
        print(f"| {name} | {row['crystal'].replace('repo:', '')} | {len(cr.elements)} | " + " | ".join(v + p) + " |")
    print(f"\n{len(smis)} SMILES, {len(smis) - bad} pass every check", file=sys.stderr)
    return 1 if bad else 0


def ring_systems(mol):
    """Fused rings as one: sets of atom indices."""
    systems = []
    for ring in mol.GetRingInfo().AtomRings():
        s = set(ring)
        for t in [t for t in systems if t & s]:
            s |= t
            systems.remove(t)
        systems.append(s)
    return systems


def superposed_rmsd(p, q):
    """RMSD of two point lists after the best rigid superposition (Kabsch)."""
    n = len(p)
    cp = [sum(x[i] for x in p) / n for i in range(3)]
    cq = [sum(x[i] for x in q) / n for i in range(3)]
    a = [[x[i] - cp[i] for i in range(3)] for x in p]
    b = [[x[i] - cq[i] for i in range(3)] for x in q]
    h = numpy.array(a).T @ numpy.array(b)
    u, _, vt = numpy.linalg.svd(h)
    d = numpy.sign(numpy.linalg.det(vt.T @ u.T))
    r = vt.T @ numpy.diag([1.0, 1.0, d]) @ u.T
    diff = numpy.array(a) @ r.T - numpy.array(b)
    return math.sqrt(float((diff ** 2).sum()) / n)


def poses(args, rows, shared):
    """One line a record of each POSES file: "file record name stereo rings". stereo: 1 when the
    record's stereo (from its own coordinates) is its SMILES's (the line of --smiles with the
    record's name), else 0; rings: the largest RMSD, after superposition, of a ring system of the
    record (fused rings as one, with the atoms bonded to them; heavy atoms) to the same atoms of
    the crystal ligand: docking keeps rings rigid, so a ring conformation other than the
    crystal's (a pucker, a substituent axial instead of equatorial) cannot reach the crystal pose."""
    smis = {name: smi for smi, name in read_smi(args.smiles)}
    by_name = {r["name"]: r for r in rows}
    crystals = {}
    for path in args.poses:
        for k, pm in enumerate(Chem.SDMolSupplier(path, removeHs=False, sanitize=True)):
            name = pm.GetProp("_Name").split()[0] if pm is not None and pm.HasProp("_Name") else ""
            if pm is None or name not in smis:
                print(f"{path}\t{k + 1}\t{name or '-'}\t\t")
                continue
            m = Chem.RemoveHs(pm)
            conf = m.GetConformer()
            xyz = lambda i: tuple(conf.GetAtomPosition(i))  # noqa: E731
            got = Chem.MolToSmiles(stereo_from_coords(m, xyz))
            ok = int(got == Chem.MolToSmiles(Chem.MolFromSmiles(smis[name])))
            rings = ""
            if name in by_name:
                if name not in crystals:
                    crystals[name] = read_crystal(resolve(by_name[name]["crystal"], shared))
                cr = crystals[name]
                mapping, _ = match_graph(m, cr)
                if mapping is not None:
                    # every correspondence of the graphs (a flipped phenyl, a carboxylate): the
                    # best one for each ring system
                    heavy, g = mol_graph(m)
                    maps = generic(cr.elements, cr.bonds).GetSubstructMatches(g, uniquify=False, maxMatches=1000)
                    maps = [{heavy[k]: mm[k] for k in range(len(heavy))} for mm in maps] or [mapping]
                    worst = 0.0
                    for system in ring_systems(m):
                        atoms = set(system)
                        for i in system:
                            atoms |= {n.GetIdx() for n in m.GetAtomWithIdx(i).GetNeighbors()}
                        atoms = sorted(atoms)
                        worst = max(worst, min(superposed_rmsd([xyz(i) for i in atoms], [cr.coords[mm[i]] for i in atoms])
                                               for mm in maps))
                    rings = f"{worst:.2f}"
            print(f"{path}\t{k + 1}\t{name}\t{ok}\t{rings}")
    return 0


def source_atoms(path):
    """The atoms of a crystal-arm input as vsgrid's SDF will have them: heavy atoms and the
    hydrogens on N, O and S, in file order (a PDBQT has only those; an SDF's or MOL2's other
    hydrogens are left out: vsgrid merges non-polar hydrogens into their carbons anyway), as
    (elements, coords, bonds). PDBQT: heavy-atom bonds from distances (read_pdbqt's rule), each
    H bonded to its nearest heavy atom (within 1.3 A); SDF/MOL2: the file's bonds."""
    if path.endswith((".sdf", ".mol", ".mol2")):
        mol = read_bonded(path).mol
        keep = [a.GetIdx() for a in mol.GetAtoms() if a.GetAtomicNum() != 1
                or any(n.GetSymbol() in ("N", "O", "S") for n in a.GetNeighbors())]
        index = {a: k for k, a in enumerate(keep)}
        conf = mol.GetConformer()
        bonds = [(index[b.GetBeginAtomIdx()], index[b.GetEndAtomIdx()]) for b in mol.GetBonds()
                 if b.GetBeginAtomIdx() in index and b.GetEndAtomIdx() in index]
        return ([mol.GetAtomWithIdx(i).GetSymbol() for i in keep], [tuple(conf.GetAtomPosition(i)) for i in keep],
                bonds)
    atoms = pdbqt_atoms(path)
    heavy = [i for i, (el, _) in enumerate(atoms) if el != "H"]
    bonds = []
    for x in range(len(heavy)):
        for y in range(x + 1, len(heavy)):
            (ea, pa), (eb, pb) = atoms[heavy[x]], atoms[heavy[y]]
            if dist2(pa, pb) < (COVALENT[ea] + COVALENT[eb] + 0.45) ** 2:
                bonds.append((heavy[x], heavy[y]))
    for i, (el, p) in enumerate(atoms):
        if el == "H":
            near = min(heavy, key=lambda j: dist2(p, atoms[j][1]))
            if dist2(p, atoms[near][1]) >= 1.3 ** 2 or atoms[near][0] not in ("N", "O", "S"):
                raise ValueError(f"{path}: hydrogen {i + 1} not on an N, O or S within 1.3 A")
            bonds.append((min(i, near), max(i, near)))
    return [a[0] for a in atoms], [a[1] for a in atoms], sorted(bonds)


def crystal_arm_sources(row, shared, runs):
    """The crystal arm's inputs of a complex, as bench_redock_smiles.sh picks them: [(label,
    path, path as the table writes it)]: "rand-k" (the set's rand-k.pdbqt, k < runs, where the
    table says rand and the file exists) and "crystal" (the crystal file: the start of the runs
    without a rand-k)."""
    out = []
    if row["starts"] == "rand":
        for k in range(runs):
            rel = os.path.join(os.path.dirname(row["crystal"]), f"rand-{k}.pdbqt")
            if os.path.isfile(resolve(rel, shared)):
                out.append((f"rand-{k}", resolve(rel, shared), rel))
    return out + [("crystal", resolve(row["crystal"], shared), row["crystal"])]


def crystal_sdf_mol(smi, path, name):
    """The molecule of SMILES smi on the atoms and coordinates of path (heavy atoms and the
    hydrogens on N, O and S, in file order: source_atoms): bond orders and formal charges from
    the SMILES by RDKit's AssignBondOrdersFromTemplate, the template being the SMILES with its
    N, O and S hydrogens explicit (so the graph match also matches the file's polar hydrogens
    to the SMILES's), stereo from the coordinates."""
    from rdkit.Chem import AllChem
    elements, coords, bonds = source_atoms(path)
    m = Chem.RWMol()
    for el in elements:
        m.AddAtom(Chem.Atom(el))
    for x, y in bonds:
        m.AddBond(x, y, Chem.BondType.SINGLE)
    conf = Chem.Conformer(len(elements))
    for i, p in enumerate(coords):
        conf.SetAtomPosition(i, Point3D(*p))
    m.AddConformer(conf, assignId=True)
    m = m.GetMol()
    m.UpdatePropertyCache(strict=False)
    Chem.FastFindRings(m)
    tmpl = Chem.MolFromSmiles(smi)
    polar = [a.GetIdx() for a in tmpl.GetAtoms() if a.GetSymbol() in ("N", "O", "S") and a.GetTotalNumHs()]
    tmpl = Chem.AddHs(tmpl, onlyOnAtoms=tuple(polar)) if polar else tmpl
    if tmpl.GetNumAtoms() != m.GetNumAtoms() or tmpl.GetNumBonds() != m.GetNumBonds():
        raise ValueError(f"{name}: {path}: {m.GetNumAtoms()} atoms / {m.GetNumBonds()} bonds (heavy and polar H) "
                         f"against the SMILES's {tmpl.GetNumAtoms()} / {tmpl.GetNumBonds()}")
    out = Chem.Mol(AllChem.AssignBondOrdersFromTemplate(tmpl, m))
    Chem.AssignStereochemistryFrom3D(out, replaceExistingTags=True)
    out.SetProp("_Name", name)
    return out


def read_sdf_text(path):
    import gzip
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return f.read()


def verify_sdf(path, smi, src):
    """[graph, polarH, charges, stereo, coords] verdicts of a crystal-vsgrid SDF against its SMILES
    and its source file; coords: the largest deviation (A) of any atom from the source's."""
    mol = Chem.MolFromMolBlock(read_sdf_text(path), removeHs=False, sanitize=True)
    if mol is None:
        return ["FAIL RDKit cannot read it", "-", "-", "-", "-"]
    ref = Chem.MolFromSmiles(smi)
    v = []
    heavy = Chem.RemoveHs(mol)
    g = generic([a.GetSymbol() for a in heavy.GetAtoms()], [(b.GetBeginAtomIdx(), b.GetEndAtomIdx()) for b in heavy.GetBonds()])
    gr = generic([a.GetSymbol() for a in ref.GetAtoms()], [(b.GetBeginAtomIdx(), b.GetEndAtomIdx()) for b in ref.GetBonds()])
    iso = g.GetNumAtoms() == gr.GetNumAtoms() and g.GetNumBonds() == gr.GetNumBonds() and g.HasSubstructMatch(gr)
    v.append("ok" if iso else "FAIL not isomorphic to the SMILES's heavy-atom graph")
    # hydrogens: explicit atoms on N, O, S as the source file's, no implicit one there, as the SMILES
    cr = read_crystal(src)
    mapping, _ = match_graph(mol, cr)
    d = polar_h_diffs(mol, mapping, cr, explicit=True) if mapping else ["no match"]
    d += [f"{a.GetSymbol()}{a.GetIdx() + 1}: implicit H" for a in mol.GetAtoms()
          if a.GetSymbol() in ("N", "O", "S") and a.GetNumImplicitHs()]
    v.append("ok" if not d else "FAIL " + "; ".join(d))
    # bond orders, formal charges and hydrogen counts: the same molecule as the SMILES
    same = Chem.MolToSmiles(heavy, isomericSmiles=False) == Chem.MolToSmiles(ref, isomericSmiles=False)
    q = [a.GetFormalCharge() for a in mol.GetAtoms() if a.GetFormalCharge()]
    qs = " ".join(f"{c:+d}" for c in sorted(q)) or "none"
    v.append(f"ok ({qs})" if same else f"FAIL {Chem.MolToSmiles(heavy, isomericSmiles=False)} (charges {qs})")
    hconf = heavy.GetConformer()
    got = Chem.MolToSmiles(stereo_from_coords(heavy, lambda i: tuple(hconf.GetAtomPosition(i))))
    want = Chem.MolToSmiles(ref)
    v.append("ok" if got == want else "FAIL " + cip_diff(want, got))
    elements, coords, _ = source_atoms(src)
    conf = mol.GetConformer()
    if [a.GetSymbol() for a in mol.GetAtoms()] != elements:
        v.append("FAIL atoms differ from the source's")
    else:
        d2 = [sum((conf.GetAtomPosition(i)[j] - coords[i][j]) ** 2 for j in range(3)) for i in range(len(coords))]
        v.append(f"{math.sqrt(sum(d2) / len(d2)):.4f} / {math.sqrt(max(d2)):.4f}")
    return v


def adt_branches(path):
    if not path.endswith(".pdbqt"):
        return "-"
    with open(path) as f:
        return str(sum(1 for line in f if line.startswith("BRANCH")))


def vsgrid_models(vsgrid, inputs, extra, tmp):
    """`vsgrid prepare-ligands INPUTS -o X.pdbqt` (EXTRA arguments): per input record (MODEL k),
    (torsdof, {serial: (type, x, y, z)})."""
    out = os.path.join(tmp, "prepared.pdbqt")
    subprocess.run([vsgrid, "prepare-ligands", *inputs, "-o", out, "--threads", str(os.cpu_count() or 1), "--quiet",
                    *extra], check=True)
    models, cur = [], None
    with open(out) as f:
        for line in f:
            if line.startswith("MODEL"):
                cur = [None, {}]
                models.append(cur)
            elif line.startswith("TORSDOF"):
                cur[0] = int(line.split()[1])
            elif line.startswith(("ATOM  ", "HETATM")):
                cur[1][int(line[6:11])] = (line[77:79].strip(), float(line[30:38]), float(line[38:46]),
                                           float(line[46:54]))
    return models


def sdf(args, rows, shared):
    """Writes the crystal-vsgrid arm's SDFs (OUT/<complex>-<label>.sdf[.gz]) and verifies each
    (read back): the table on stdout."""
    import gzip
    smis = {name: smi for smi, name in read_smi(args.smiles)}
    by_name = {r["name"]: r for r in rows}
    os.makedirs(args.out, exist_ok=True)
    ext = ".sdf.gz" if args.gzip else ".sdf"
    done, skipped = [], []
    for row in rows:
        name = row["name"]
        if name not in smis:
            sys.exit(f"{name}: no SMILES in {args.smiles}")
        crystal_bonds = None
        for label, src, rel in crystal_arm_sources(row, shared, args.runs):
            if label != "crystal":
                # a rand-k whose heavy-atom bonds (from distances) are not the crystal file's: a
                # ring AutoDockTools left open (3ER5: a proline's N-C bond, 1.88 A in the crystal,
                # its torsions then randomised) cannot carry the SMILES's graph; its runs start from
                # the crystal file's conformer, as the crystal arm's do without a rand-k
                if crystal_bonds is None:
                    crystal_bonds = set(read_crystal(resolve(row["crystal"], shared)).bonds)
                diff = set(read_pdbqt(src).bonds) ^ crystal_bonds
                if diff:
                    skipped.append((name, label, src, rel, diff))
                    continue
            mol = crystal_sdf_mol(smis[name], src, name)
            text = Chem.MolToMolBlock(mol, kekulize=True) + "> <vsgrid_crystal_source>\n" + rel + "\n\n$$$$\n"
            path = os.path.join(args.out, f"{name}-{label}{ext}")
            if args.gzip:
                with open(path, "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as z:
                    z.write(text.encode())
            else:
                with open(path, "w") as f:
                    f.write(text)
            done.append((name, label, src, rel, path))
    # vsgrid's own preparation of them (and of the SMILES): its torsion trees; coordinates kept?
    tors_sdf, tors_smi, kept = {}, {}, {}
    if args.vsgrid and os.access(args.vsgrid, os.X_OK):
        with tempfile.TemporaryDirectory() as tmp:
            models = vsgrid_models(args.vsgrid, [d[-1] for d in done], [], tmp)
            for (name, label, src, rel, path), (tors, atoms) in zip(done, models):
                tors_sdf[name, label] = tors
                mol = Chem.MolFromMolBlock(read_sdf_text(path), removeHs=False, sanitize=False)
                conf = mol.GetConformer()
                # a macrocycle's G pseudo-atoms (appended, typed G0..G3) are not the record's
                real = {s: a for s, a in atoms.items() if not (a[0].startswith("G") and a[0][1:].isdigit())}
                if len(real) != mol.GetNumAtoms():
                    kept[name, label] = f"FAIL {len(real)} atoms, the SDF {mol.GetNumAtoms()}"
                    continue
                dev = max(abs(conf.GetAtomPosition(s - 1)[j] - a[1 + j]) for s, a in real.items() for j in range(3))
                kept[name, label] = f"{dev:.3f}"
            smi_file = os.path.join(tmp, "smiles.smi")
            names = [r["name"] for r in rows]
            with open(smi_file, "w") as f:
                for n in names:
                    f.write(f"{smis[n]} {n}\n")
            for n, (tors, _) in zip(names, vsgrid_models(args.vsgrid, [smi_file], ["--ph", "none"], tmp)):
                tors_smi[n] = tors
    bad = 0
    print("| complex | input (the crystal arm's) | atoms (heavy + polar H) | graph as the SMILES | polar H as the file "
          "| bonds and charges as the SMILES | stereo as the SMILES | coordinates vs the input: RMSD / largest (A) "
          "| torsions: ADT's PDBQT (BRANCH) | vsgrid from this SDF | vsgrid from the SMILES | vsgrid's model vs the SDF: largest (A) |")
    print("|---|---|--:|---|---|---|---|--:|--:|--:|--:|--:|")
    for name, label, src, rel, path in done:
        v = verify_sdf(path, smis[name], src)
        if not v[4].startswith("FAIL") and float(v[4].split(" / ")[1]) > 0.0005:
            v[4] = "FAIL " + v[4]
        k = kept.get((name, label), "-")
        if not k.startswith(("FAIL", "-")) and float(k) > 0.0015:
            k = "FAIL " + k  # vsgrid rebuilt or moved the atoms (PDBQT: 3 decimals)
        bad += any(x.startswith("FAIL") for x in v + [k])
        mol = Chem.MolFromMolBlock(read_sdf_text(path), removeHs=False, sanitize=False)
        nh = sum(1 for a in mol.GetAtoms() if a.GetAtomicNum() == 1)
        print(f"| {name} | {rel.replace('repo:', '')} "
              f"| {mol.GetNumAtoms() - nh} + {nh} | " + " | ".join(v) +
              f" | {adt_branches(src)} | {tors_sdf.get((name, label), '-')} | {tors_smi.get(name, '-')} | {k} |")
    for name, label, src, rel, diff in skipped:
        cr = read_crystal(resolve(by_name[name]["crystal"], shared))
        ra = read_pdbqt(src)
        what = "; ".join(f"heavy atoms {cr.elements[x]}{x + 1} and {cr.elements[y]}{y + 1}: {math.sqrt(dist2(cr.coords[x], cr.coords[y])):.2f} A "
                         f"in the crystal file, {math.sqrt(dist2(ra.coords[x], ra.coords[y])):.2f} A here" for x, y in sorted(diff))
        print(f"\n{name} {label}: not written: its bonds are not the crystal file's ({what}); "
              f"its run starts from {name}-crystal{ext}")
    print(f"\n{len(done)} SDFs in {args.out}, {len(done) - bad} pass every check; {len(skipped)} rand-k not written "
          f"(bonds not the crystal file's)", file=sys.stderr)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["make", "check", "poses", "sdf"])
    ap.add_argument("poses", nargs="*", help="poses: SDF files of docked SMILES")
    ap.add_argument("--table", default=os.path.join(ROOT, "data", "redock_smiles", "complexes.tsv"))
    ap.add_argument("--smiles", default=os.path.join(ROOT, "data", "redock_smiles", "crystal_ligands.smi"))
    ap.add_argument("--shared", default=None)
    ap.add_argument("--vsgrid", default=os.path.join(ROOT, "build", "vsgrid"))
    ap.add_argument("--prepared", default=None)
    ap.add_argument("--out", default=os.path.join(ROOT, "data", "redock_smiles", "crystal_sdf"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--gzip", action="store_true")
    args = ap.parse_intermixed_args()
    rows = read_table(args.table)
    shared = shared_dir(args.shared)
    if args.mode == "poses":
        return poses(args, rows, shared)
    if args.mode == "sdf":
        return sdf(args, rows, shared)
    if args.mode == "make":
        make(args, rows, shared)
        return 0
    return check(args, rows, shared)


if __name__ == "__main__":
    sys.exit(main())
