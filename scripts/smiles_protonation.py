#!/usr/bin/python3
"""Protonation states of vsgrid's SMILES preparation (Open Babel's pH model and vsgrid's rules
after it, ligands/prepare/protonation_rules.cpp) against a library's own, issue 29
(docs/PERFORMANCE.md, "Issue 29").

usage: smiles_protonation.py VSGRID PREFIX... [--ph 7.4] [--threads N]

Each PREFIX.neutral.smi and PREFIX.ref.tsv come from scripts/smiles_from_mol2.py (DUD-E's MOL2)
or scripts/smiles_from_sdf.py (an SDF's own states, or an SD tag's SMILES): the library's
molecules neutralised by RDKit's Uncharger, and the net formal charge of each in the library's
own protonation. vsgrid protonates the neutral SMILES (`prepare-ligands --minimize 0`: the
coordinates do not matter here); the net formal charges (M  CHG) are compared molecule by
molecule. Prints, per set, the fraction agreeing, the table of (reference, vsgrid) charges and
the disagreements by the ionisable groups the molecule holds (SMARTS below, on the neutral form),
then one summary line a set; writes each set's disagreements to PREFIX.phPH.disagree.tsv (name,
SMILES, reference charge, vsgrid charge, groups). Needs RDKit for the group classes only."""
import collections
import subprocess
import sys

GROUPS = [  # name, SMARTS on the neutral molecule
    ("carboxylic acid", "[CX3](=O)[OX2H1]"),
    ("tetrazole", "c1nnn[nH]1"),
    ("acyl/aryl sulfonamide NH", "[SX4](=O)(=O)[NX3H1]"),
    ("phosphate/phosphonate", "P(=O)[OX2H1]"),
    ("sulfonic acid", "S(=O)(=O)[OX2H1]"),
    ("phenol", "[OX2H1]c"),
    ("heteroaryl thiol/thione", "[$([SX2H1]c),$([SX1]=c),$([SX1]=C[#7])]"),
    ("imide/acyl-NH-acyl", "C(=O)[NH1]C(=O)"),
    ("primary aliphatic amine", "[NX3;H2;!$(N[#6]=[#7,#8,#16]);!$(Na)][CX4]"),
    ("secondary aliphatic amine", "[NX3;H1;!$(N[#6]=[#7,#8,#16]);!$(Na);!$(NS(=O)=O)]([CX4])[CX4]"),
    ("tertiary aliphatic amine", "[NX3;H0;!$(N[#6]=[#7,#8,#16]);!$(Na);!$(NS(=O)=O)]([CX4])([CX4])[CX4]"),
    ("amidine/guanidine", "[NX3;!$(NC=O)][CX3]=[NX2;!$(N=CN=*)]"),
    ("acyl-amidine/isothiourea", "[$([NX2]=C([#7,#16])[#7]C=[O,S]),$([NX2](C=[O,S])=C[#7]),$([NX2]=C(S)[#7])]"),
    ("aniline/N-aryl amine", "[NX3;!$(NC=[O,S]);!$(NS=O)]a"),
    ("pyridine-like n", "[nX2;r6]"),
    ("imidazole-like", "[nX2;r5]:[c,n]:[nX3H1;r5]"),
]


def net_charges(sdf):
    """Net formal charge of each record of an SDF (M  CHG lines), None for empty records."""
    out, q, atoms = [], 0, 0
    with open(sdf) as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        # a record: header (3 lines), counts line
        if i + 3 >= len(lines):
            break
        atoms = int(lines[i + 3][:3])
        q = 0
        j = i + 4
        while j < len(lines) and not lines[j].startswith("$$$$"):
            if lines[j].startswith("M  CHG"):
                v = lines[j].split()[3:]
                q += sum(int(v[k + 1]) for k in range(0, len(v), 2))
            j += 1
        out.append(q if atoms > 0 else None)
        i = j + 1
    return out


def measure(vsgrid, prefix, ph, threads, pats, Chem):
    """One set: prints its tables, writes its disagreements; returns (agree, prepared, failed)."""
    ref = []
    with open(prefix + ".ref.tsv") as f:
        next(f)
        for line in f:
            name, qm, qn = line.rstrip("\n").split("\t")
            ref.append((name, int(qm)))
    smiles = [line.split()[0] for line in open(prefix + ".neutral.smi")]
    out = prefix + ".ph%s.sdf" % ph
    subprocess.run([vsgrid, "prepare-ligands", prefix + ".neutral.smi", "-o", out, "--ph", ph, "--minimize", "0",
                    "--threads", threads, "--quiet"], check=True, stderr=subprocess.DEVNULL)
    got = net_charges(out)
    assert len(got) == len(ref), (len(got), len(ref))
    agree = failed = 0
    table = collections.Counter()
    classes = collections.Counter()
    examples = {}
    with open(prefix + ".ph%s.disagree.tsv" % ph, "w") as fd:
        fd.write("name\tsmiles\tcharge_ref\tcharge_vsgrid\tgroups\n")
        for (name, qr), qv, smi in zip(ref, got, smiles):
            if qv is None:
                failed += 1
                continue
            table[(qr, qv)] += 1
            if qr == qv:
                agree += 1
                continue
            groups = []
            if Chem:
                m = Chem.MolFromSmiles(smi)
                groups = [n for n, p in pats if m is not None and m.HasSubstructMatch(p)]
            key = "%s: reference %+d, vsgrid %+d" % (" + ".join(groups) or "no listed group", qr, qv)
            classes[key] += 1
            examples.setdefault(key, "%s %s" % (smi, name))
            fd.write("%s\t%s\t%d\t%d\t%s\n" % (name, smi, qr, qv, " + ".join(groups)))
    n = len(ref) - failed
    print("== %s, pH %s: %d molecules (%d failed to prepare); net charge agrees on %d = %.1f%%" %
          (prefix, ph, len(ref), failed, agree, 100.0 * agree / max(n, 1)))
    print("\n(reference net charge, vsgrid net charge): molecules")
    for (qr, qv), c in sorted(table.items()):
        print("  (%+d, %+d): %d" % (qr, qv, c))
    print("\ndisagreements by the ionisable groups present (count, example):")
    for key, c in classes.most_common(20):
        print("  %4d  %s\n        e.g. %s" % (c, key, examples[key]))
    print()
    return agree, n, failed


def main(argv):
    args = list(argv[1:])
    opts = {"--ph": "7.4", "--threads": "2"}
    for k in opts:
        if k in args:
            i = args.index(k)
            opts[k] = args[i + 1]
            del args[i:i + 2]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    vsgrid, prefixes = args[0], args[1:]
    try:
        from rdkit import Chem, RDLogger
        RDLogger.DisableLog("rdApp.*")
        pats = [(n, Chem.MolFromSmarts(s)) for n, s in GROUPS]
    except ImportError:
        Chem, pats = None, []
    rows = [(p,) + measure(vsgrid, p, opts["--ph"], opts["--threads"], pats, Chem) for p in prefixes]
    print("| set | pH | agree / prepared | % | failed |")
    print("|---|--:|--:|--:|--:|")
    for p, agree, n, failed in rows:
        print("| %s | %s | %d / %d | %.1f | %d |" % (p, opts["--ph"], agree, n, 100.0 * agree / max(n, 1), failed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
