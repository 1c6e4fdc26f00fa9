#!/usr/bin/python3
"""Protonation states of vsgrid's SMILES preparation against a public reference tool,
Dimorphite-DL (Ropp et al. 2019, J Cheminform 11:14: SMARTS sites with a mean pKa and standard
deviation each), issue 29 (docs/PERFORMANCE.md, "Protonation against Dimorphite-DL").

usage: protonation_vs_dimorphite.py VSGRID PREFIX... --dimorphite PATH
           [--ph 7.4] [--precision 0] [--within P] [--threads 2] [--examples 3]

PATH is Dimorphite-DL's program, run as a reference tool, never part of vsgrid: its
dimorphite_dl.py (1.x, RDKit only) or the folder holding its dimorphite_dl package (2.x, which
imports loguru). It runs with this interpreter (/usr/bin/python3 on Debian has RDKit) at
--min_ph = --max_ph = PH and --pka_precision PRECISION (default 0: every site's state is its mean
pKa against the pH, so one state a molecule; where it still gives several, the first is used and
the molecules are counted). With --within P, Dimorphite runs again at precision P (its default is
1: a site whose mean +- P standard deviations spans the pH is given both states, at most 128
states a molecule) and a table says how often vsgrid's and the library's net charge is that of one
of those states (lenient: a molecule with several uncertain sites gets a range of charges).

Each PREFIX.neutral.smi, PREFIX.charged.smi and PREFIX.ref.tsv come from
scripts/smiles_from_mol2.py or scripts/smiles_from_sdf.py (as for scripts/smiles_protonation.py):
the library's molecules neutralised by RDKit's Uncharger, the library's own states and their net
charges. vsgrid protonates the neutral SMILES (`prepare-ligands --ph PH --minimize 0`), Dimorphite
protonates the same SMILES, and the states are compared molecule by molecule:
  net        the net formal charge (vsgrid's M  CHG lines, as smiles_protonation.py reads them);
  per site   the formal charges of the ionisable groups, each group's atoms summed: the heavy
             atoms of every state are mapped onto the neutral molecule's (same graph, bond
             orders, charges and hydrogens ignored) and each atom is put in the first class of
             CLASSES whose pattern (on the neutral molecule) holds it, the rest in "other".
The library's own states (DUD-E's MOL2, ZINC's SDF, XIAP's dude_smiles) are compared with
Dimorphite the same way: how far the two references agree with each other.

Prints markdown: one row a set (agreements); the disagreements whose every differing class is one
of LIMITS (Dimorphite entries whose state contradicts the literature for these groups), counted by
entry, and the agreement if those are set aside; then per set the disagreements of vsgrid and
Dimorphite by class (a molecule counted in each class whose charge differs) with the commonest
(vsgrid, Dimorphite) charges of the class and a few examples, and the library's disagreements
with Dimorphite by class. Writes PREFIX.dimorphite.phPH.smi (Dimorphite's states: SMILES, name)
and PREFIX.dimorphite.phPH.tsv (name, SMILES, the three net charges, Dimorphite's SMILES, the classes
differing with their charges, vsgrid's / Dimorphite's and the library's / Dimorphite's)."""
import collections
import os
import subprocess
import sys

from rdkit import Chem, RDLogger

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from smiles_protonation import net_charges  # noqa: E402

# name, SMARTS on the neutral molecule (implicit hydrogens), which atoms of a match form the site:
# "all" the match, "first" its first atom, "cn" the first atom and its nitrogen neighbours,
# "ring5" every aromatic five-membered ring holding a matched n
CLASSES = [
    ("carboxylic acids", "[CX3](=O)[OX2H1]", "all"),
    ("phosphates/sulfonic acids", "[PX4,SX4;!$(S(=O)(=O)[#7])](=O)[OX2H1]", "all"),
    ("azoles/tetrazoles", "[n;r5]", "ring5"),
    ("amidines/guanidines", "[CX3;!a](=[NX2;!a])[#7]", "cn"),
    ("sulfonamides", "[SX4](=O)(=O)[NX3]", "all"),
    ("phenols", "[OX2H1]c1ccccc1", "first"),
    ("hydroxy-heteroarenes", "[OX2H1]a", "first"),
    ("thiols/thiones", "[$([SX2H1]),$([SX1]=[#6])]", "first"),
    ("imides", "[NX3+0;!a](C=[O,S])C=[O,S]", "first"),
    ("amides/ureas/carbamates N", "[NX3+0;!a][CX3]=[O,S]", "first"),
    ("anilines/N-aryl amines", "[NX3+0;!a]a", "first"),
    ("amines", "[NX3+0;!a;!$(N[#7,#8,#16,#15])][#6]", "first"),
    ("azines/pyridones (6-ring n)", "[n]", "first"),
]

# Dimorphite-DL entries whose state at pH 7.4 contradicts the literature for the groups they catch
# here: (classes, +1 when Dimorphite's charge is the higher / -1 the lower, what happens). A
# disagreement is put down to them when every class differing is one of them, in that direction.
LIMITS = [
    ({"amides/ureas/carbamates N", "imides", "sulfonamides"}, +1,
     "an N without H bonded to C=O or SO2 protonated: its amide, imide and sulfonamide patterns need an "
     "N-H, so the amine pattern (pKa 8.16) takes it (documented by Dimorphite for tertiary amides)"),
    ({"anilines/N-aryl amines"}, +1,
     "an N-aryl amine protonated: its aniline patterns' [!H] rejects a substituent with exactly one H "
     "(a CH), so the amine pattern (pKa 8.16) takes the N"),
    ({"amides/ureas/carbamates N"}, -1,
     "an acyl N-H next to N, O or S deprotonated (Amide_electronegative, pKa 3.49): acyl hydrazones, "
     "hydrazides, N-alkoxy amides (literature 9-12)"),
    ({"phenols"}, -1, "a phenol deprotonated (one pKa for all phenols, 7.07 +- 3.28; literature 8-10 for most)"),
    ({"azoles/tetrazoles", "azines/pyridones (6-ring n)"}, -1,
     "an aromatic N-H deprotonated (one pKa for all, 7.17 +- 2.95): (benz)imidazoles, pyrazoles, "
     "indazoles, triazoles, pyrimidinones, quinazolinones (literature 9-14)"),
]


def run_dimorphite(path, smi, out, ph, precision):
    """Dimorphite-DL's states of the records of smi: {name: [SMILES...]} in its output order."""
    ph = float(ph)
    if path.endswith(".py"):  # 1.x: the program, output "SMILES<TAB>name"
        subprocess.run([sys.executable, "-W", "ignore", path, "--smiles_file", smi, "--min_ph", str(ph),
                        "--max_ph", str(ph), "--pka_precision", str(precision), "--silent",
                        "--output_file", out], check=True)
        sep = "\t"
    else:  # 2.x: the package under path, through its protonate_smiles(); output "SMILES,name"
        env = dict(os.environ)
        env["PYTHONPATH"] = path + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        code = ("import sys\nfrom dimorphite_dl import protonate_smiles\n"
                "with open(sys.argv[2], 'w') as f:\n"
                "    for s in protonate_smiles(sys.argv[1], ph_min=%r, ph_max=%r, precision=%r, "
                "label_identifiers=True):\n        f.write(s + '\\n')\n" % (ph, ph, float(precision)))
        subprocess.run([sys.executable, "-W", "ignore", "-c", code, smi, out], check=True, env=env)
        sep = ","
    states = collections.defaultdict(list)
    with open(out) as f:
        for line in f:
            line = line.rstrip("\n")
            if line:
                s, name = line.split(sep, 1)
                states[name.split()[0] if name.split() else ""].append(s)
    return states


def sdf_blocks(path):
    with open(path) as f:
        return [b for b in f.read().split("$$$$\n") if b.strip()]


def skeleton(mol):
    """Heavy-atom graph of mol (single bonds, no charges or hydrogens), and its atoms' charges."""
    rw = Chem.RWMol(mol)
    for i in sorted((a.GetIdx() for a in rw.GetAtoms() if a.GetAtomicNum() == 1), reverse=True):
        rw.RemoveAtom(i)
    charges = [a.GetFormalCharge() for a in rw.GetAtoms()]
    for a in rw.GetAtoms():
        a.SetFormalCharge(0)
        a.SetIsAromatic(False)
        a.SetNoImplicit(True)
        a.SetNumExplicitHs(0)
        a.SetIsotope(0)
        a.SetChiralTag(Chem.ChiralType.CHI_UNSPECIFIED)
    for b in rw.GetBonds():
        b.SetBondType(Chem.BondType.SINGLE)
        b.SetIsAromatic(False)
        b.SetStereo(Chem.BondStereo.STEREONONE)
    m = rw.GetMol()
    m.UpdatePropertyCache(strict=False)
    Chem.GetSymmSSSR(m)  # the same rings in both graphs (FastFindRings' differ on bridged systems)
    return m, charges


def atom_charges(template, mol):
    """Formal charge of each atom of the neutral molecule in state mol; None if not mappable."""
    if mol is None:
        return None
    sk, q = skeleton(mol)
    if sk.GetNumAtoms() != template.GetNumAtoms():
        return None
    match = sk.GetSubstructMatch(template)
    if not match:
        return None
    return [q[j] for j in match]


def site_classes(neutral, pats):
    """Class name of each atom of the neutral molecule (first class claiming it, else 'other')."""
    cls = ["other"] * neutral.GetNumAtoms()
    rings = [r for r in neutral.GetRingInfo().AtomRings()
             if len(r) == 5 and all(neutral.GetAtomWithIdx(i).GetIsAromatic() for i in r)]
    for name, pat, how in pats:
        for m in neutral.GetSubstructMatches(pat):
            if how == "all":
                atoms = m
            elif how == "first":
                atoms = m[:1]
            elif how == "cn":
                atoms = [m[0]] + [n.GetIdx() for n in neutral.GetAtomWithIdx(m[0]).GetNeighbors()
                                  if n.GetAtomicNum() == 7]
            else:  # ring5
                atoms = [i for r in rings if m[0] in r for i in r]
            if any(cls[i] != "other" for i in atoms[:1]):
                continue
            for i in atoms:
                if cls[i] == "other":
                    cls[i] = name
    return cls


def class_sums(cls, q):
    out = collections.Counter()
    for c, v in zip(cls, q):
        out[c] += v
    return out


def mol_from_smiles(s):
    m = Chem.MolFromSmiles(s)
    return m if m is not None else Chem.MolFromSmiles(s, sanitize=False)


def measure(vsgrid, dimorphite, prefix, ph, precision, within, threads, nex, pats):
    names, smiles = [], []
    for line in open(prefix + ".neutral.smi"):
        s, name = line.split()[:2]
        smiles.append(s)
        names.append(name)
    ref_net = {}
    with open(prefix + ".ref.tsv") as f:
        next(f)
        for line in f:
            v = line.rstrip("\n").split("\t")
            ref_net[v[0]] = int(v[1])
    ref_smi = {}
    if os.path.exists(prefix + ".charged.smi"):
        for line in open(prefix + ".charged.smi"):
            s, name = line.split()[:2]
            ref_smi[name] = s
    sdf = prefix + ".ph%s.sdf" % ph
    subprocess.run([vsgrid, "prepare-ligands", prefix + ".neutral.smi", "-o", sdf, "--ph", ph, "--minimize", "0",
                    "--threads", threads, "--quiet"], check=True, stderr=subprocess.DEVNULL)
    vs_net = net_charges(sdf)
    blocks = sdf_blocks(sdf)
    assert len(vs_net) == len(names) == len(blocks), (len(vs_net), len(names), len(blocks))
    di = run_dimorphite(dimorphite, prefix + ".neutral.smi", prefix + ".dimorphite.ph%s.smi" % ph, ph, precision)
    wide = {}
    if within is not None:
        for name, ss in run_dimorphite(dimorphite, prefix + ".neutral.smi", prefix + ".dimorphite.ph%s.p%s.smi" %
                                       (ph, within), ph, within).items():
            wide[name] = set(Chem.GetFormalCharge(m) for m in map(mol_from_smiles, ss) if m is not None)

    pairs = [("vsgrid", "dimorphite"), ("library", "dimorphite"), ("library", "vsgrid")]
    st = {p: collections.Counter() for p in pairs}
    bycls = {p: collections.Counter() for p in pairs}
    trans = {p: collections.Counter() for p in pairs}
    examples = collections.defaultdict(list)
    several = unmapped = 0
    with open(prefix + ".dimorphite.ph%s.tsv" % ph, "w") as fo:
        fo.write("name\tsmiles\tcharge_library\tcharge_vsgrid\tcharge_dimorphite\tdimorphite_smiles\t"
                 "differing_classes_vsgrid/dimorphite\tdiffering_classes_library/dimorphite\n")
        for k, (name, smi) in enumerate(zip(names, smiles)):
            neutral = Chem.MolFromSmiles(smi)
            states = di.get(name, [])
            if len(states) > 1:
                several += 1
            dsmi = states[0] if states else None
            dmol = mol_from_smiles(dsmi) if dsmi else None
            net = {"library": ref_net[name], "vsgrid": vs_net[k],
                   "dimorphite": Chem.GetFormalCharge(dmol) if dmol is not None else None}
            q = {}
            if neutral is not None:
                tmpl, _ = skeleton(neutral)
                cls = site_classes(neutral, pats)
                vmol = Chem.MolFromMolBlock(blocks[k], sanitize=False, removeHs=False) if vs_net[k] is not None else None
                rmol = mol_from_smiles(ref_smi[name]) if name in ref_smi else None
                for tool, m in (("vsgrid", vmol), ("dimorphite", dmol), ("library", rmol)):
                    a = atom_charges(tmpl, m)
                    if a is not None:
                        q[tool] = class_sums(cls, a)
            diff = {}
            for p in pairs:
                a, b = p
                if net[a] is None or net[b] is None:
                    st[p]["failed"] += 1
                    continue
                st[p]["n"] += 1
                if b == "dimorphite" and net[a] in wide.get(name, ()):
                    st[p]["within"] += 1
                if a in q and b in q:
                    st[p]["mapped"] += 1
                    dcls = sorted(c for c in set(q[a]) | set(q[b]) if q[a][c] != q[b][c])
                    if not dcls:
                        st[p]["sites"] += 1
                else:
                    dcls = None
                    unmapped += p == pairs[0]
                if net[a] == net[b]:
                    st[p]["net"] += 1
                    if dcls:
                        st[p]["compensating"] += 1
                    continue
                if dcls is None:
                    dcls = ["(atoms not mapped)"]
                diff[p] = ["%s %+d/%+d" % (c, q[a][c], q[b][c]) if a in q and b in q else c for c in dcls]
                if b == "dimorphite" and a in q and b in q:
                    why = []
                    for c in dcls:
                        hit = [i for i, (cs, sign, _) in enumerate(LIMITS)
                               if c in cs and (q[b][c] - q[a][c]) * sign > 0]
                        why.append(hit[0] if hit else None)
                    if None not in why:
                        st[p]["limits"] += 1
                        for i in set(why):
                            st[p]["limit%d" % i] += 1
                for c in dcls:
                    bycls[p][c] += 1
                    if a in q and b in q:
                        trans[p][(c, q[a][c], q[b][c])] += 1
                    if p == pairs[0] and len(examples[c]) < nex:
                        examples[c].append((name, smi, net[a], net[b], dsmi,
                                            "%+d/%+d" % (q[a][c], q[b][c]) if a in q and b in q else "?"))
            fo.write("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" % (
                name, smi, net["library"], net["vsgrid"], net["dimorphite"], dsmi,
                "; ".join(diff.get(pairs[0], [])), "; ".join(diff.get(pairs[1], []))))
    nw = sorted(len(v) for v in wide.values())
    return dict(nwide=nw[len(nw) // 2] if nw else None, st=st, bycls=bycls, trans=trans, examples=examples, several=several, unmapped=unmapped,
                records=len(names), pairs=pairs)


def pct(a, n):
    return "%d (%.1f%%)" % (a, 100.0 * a / n) if n else "-"


def main(argv):
    args = list(argv[1:])
    opts = {"--ph": "7.4", "--precision": "0", "--within": None, "--threads": "2", "--examples": "3", "--dimorphite": None}
    for k in opts:
        if k in args:
            i = args.index(k)
            opts[k] = args[i + 1]
            del args[i:i + 2]
    if len(args) < 2 or not opts["--dimorphite"]:
        print(__doc__, file=sys.stderr)
        return 2
    RDLogger.DisableLog("rdApp.*")
    pats = [(n, Chem.MolFromSmarts(s), how) for n, s, how in CLASSES]
    vsgrid, prefixes = args[0], args[1:]
    res = [(p, measure(vsgrid, opts["--dimorphite"], p, opts["--ph"], opts["--precision"], opts["--within"],
                       opts["--threads"],
                       int(opts["--examples"]), pats)) for p in prefixes]
    print("Dimorphite-DL %s at pH %s, pKa precision %s; net = the same net formal charge, "
          "sites = the same charge on every ionisable class\n" % (opts["--dimorphite"], opts["--ph"],
                                                                  opts["--precision"]))
    print("| set | records | vsgrid = Dimorphite, net | vsgrid = Dimorphite, sites | library = Dimorphite, net "
          "| library = Dimorphite, sites | library = vsgrid, net | Dimorphite gave several states | not compared |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for p, r in res:
        vd, ld, lv = (r["st"][x] for x in r["pairs"])
        print("| %s | %d | %s | %s | %s | %s | %s | %d | %d |" % (
            os.path.basename(p), r["records"], pct(vd["net"], vd["n"]), pct(vd["sites"], vd["mapped"]),
            pct(ld["net"], ld["n"]), pct(ld["sites"], ld["mapped"]), pct(lv["net"], lv["n"]), r["several"],
            vd["failed"] + r["unmapped"]))
    print("\nDisagreements with Dimorphite put down to its entries that contradict the literature here "
          "(every class differing is one of these, in this direction; a record may count under several):\n")
    print("| Dimorphite-DL entry | " + " | ".join("%s: vsgrid | %s: library" % ((os.path.basename(p),) * 2)
                                                 for p, _ in res) + " |")
    print("|---|" + "--:|--:|" * len(res))
    for i, (_, _, text) in enumerate(LIMITS):
        print("| %s | " % text + " | ".join("%d | %d" % tuple(r["st"][x]["limit%d" % i] for x in r["pairs"][:2])
                                            for _, r in res) + " |")
    print("| **net charge agrees, or differs only in these** | " + " | ".join(
        "%s | %s" % tuple(pct(r["st"][x]["net"] + r["st"][x]["limits"], r["st"][x]["n"]) for x in r["pairs"][:2])
        for _, r in res) + " |")
    if opts["--within"] is not None:
        print("\nWithin Dimorphite's uncertainty (precision %s: the net charge is one of its states)\n" % opts["--within"])
        print("| set | vsgrid's net charge among Dimorphite's | library's among Dimorphite's "
              "| median number of distinct net charges Dimorphite gives |")
        print("|---|--:|--:|--:|")
        for p, r in res:
            vd, ld = (r["st"][x] for x in r["pairs"][:2])
            print("| %s | %s | %s | %s |" % (os.path.basename(p), pct(vd["within"], vd["n"]), pct(ld["within"], ld["n"]),
                                         r["nwide"]))
    for p, r in res:
        vdp, ldp = r["pairs"][0], r["pairs"][1]
        vd = r["st"][vdp]
        print("\n**%s**: vsgrid and Dimorphite differ in net charge on %d of %d records (%d more agree in net "
              "charge but not site by site); the library and Dimorphite on %d.\n" % (
                  os.path.basename(p), vd["n"] - vd["net"], vd["n"], vd["compensating"],
                  r["st"][ldp]["n"] - r["st"][ldp]["net"]))
        print("| class whose charge differs | vsgrid vs Dimorphite: records | commonest (vsgrid, Dimorphite) "
              "charges of the class | library vs Dimorphite: records | commonest (library, Dimorphite) |")
        print("|---|--:|---|--:|---|")
        keys = sorted(set(r["bycls"][vdp]) | set(r["bycls"][ldp]),
                      key=lambda c: (-r["bycls"][vdp][c], -r["bycls"][ldp][c], c))
        for c in keys:
            def top(pair):
                t = sorted(((n, a, b) for (cc, a, b), n in r["trans"][pair].items() if cc == c), reverse=True)[:3]
                return ", ".join("(%+d, %+d) %d" % (a, b, n) for n, a, b in t)
            print("| %s | %d | %s | %d | %s |" % (c, r["bycls"][vdp][c], top(vdp), r["bycls"][ldp][c], top(ldp)))
        print("\nexamples (vsgrid vs Dimorphite; name, neutral SMILES, net vsgrid / Dimorphite, the class's "
              "charges vsgrid / Dimorphite, Dimorphite's state):")
        for c in keys:
            for name, smi, qa, qb, dsmi, cq in r["examples"].get(c, []):
                print("- %s: %s `%s` %+d / %+d (%s) `%s`" % (c, name, smi, qa, qb, cq, dsmi))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
