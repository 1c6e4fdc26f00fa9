"""SMILES from Python (issue 29): vsgrid.Smiles values and RDKit molecules without a 3D conformer
go wherever a ligand goes (read_ligands, screen, dock), written to a temporary .smi that the
library prepares as any SMILES library: one row per SMILES in list order, the library's statuses
(bad_smiles, bad_element, unsupported without Open Babel), names kept, messages naming
"<smiles>:K"; ph= and minimize= as the command's --ph and --minimize; biotin docked from its
SMILES on 1STP's Vina maps (the CPU twin, a short search, as tests/cli_smiles.sh does).

Open Babel's 3D builder (embed="openbabel", or a build without RDKit) is seeded from the clock,
so coordinates and scores are not compared to the digit (docs/FORMATS.md); statuses, names, atom
counts and record numbers are; RDKit's coordinates are compared to the bit."""
import math
import os
import subprocess

import numpy as np
import pytest

import vsgrid
from conftest import DATA, _cli, read_csv

BIOTIN = "OC(=O)CCCC[C@@H]1SC[C@@H]2NC(=O)N[C@H]12"
HAVE_OB = vsgrid.smiles_available()
needs_ob = pytest.mark.skipif(not HAVE_OB, reason="vsgrid built without Open Babel: SMILES rows are 'unsupported'")
# a short flexible search on the CPU twin, as tests/cli_smiles.sh's
DOCK = dict(scoring="vina", placement="flexible", seed=5, exhaustiveness=2, steps=4000, device="cpu")

S = vsgrid.Smiles
LIBRARY = [S("CC(=O)O", "acetic acid"), S("C1CC(", "broken"), S("C[Se]C", "selenide"),
           S("CC(=O)[O-].[Na+]", "sodium acetate")]


def test_smiles_value_refuses_what_a_smi_line_cannot_hold():
    for bad in ("", "CC O", "CCO\n", "CC\tO", "#CC", "C\rC"):
        with pytest.raises(ValueError):
            S(bad)
    with pytest.raises(ValueError, match="line break"):
        S("CCO", name="eth\nanol")
    with pytest.raises(TypeError):
        S(42)
    assert S("CCO", " ethanol ").name == "ethanol" and S("CCO", "").name is None
    assert S("CCO", "e") == S("CCO", "e") and repr(S("CCO", "e")) == "vsgrid.Smiles('CCO', name='e')"


def test_a_str_is_a_path_not_a_smiles(vina_maps):
    # "CCO" names no file format: the library refuses it as a path (no guessing)
    with pytest.raises(vsgrid.ArgumentError):
        vsgrid.read_ligands("CCO")
    with pytest.raises(ValueError, match="not both"):
        vsgrid.read_ligands([S("CCO"), os.path.join(DATA, "biotin.pdbqt")])


def test_statuses_names_and_messages_in_order():
    recs = vsgrid.read_ligands(LIBRARY)
    codes = [r["code"] for r in recs]
    assert [r["name"] for r in recs] == ["acetic acid", "broken", "selenide", "sodium acetate"]
    assert [r["source"] for r in recs] == ["<smiles>"] * 4
    assert [r["record"] for r in recs] == [1, 2, 3, 4]
    if not HAVE_OB:  # the path a build without Open Babel takes: every SMILES an unsupported row
        assert codes == ["unsupported"] * 4
        assert [r["status"] for r in recs] == [-8] * 4
        assert recs[1]["message"].startswith("<smiles>:2: record 2 (broken): this vsgrid was built without Open Babel")
        return
    assert codes == ["ok", "bad_smiles", "bad_element", "ok"]
    assert [r["status"] for r in recs] == [0, -2, -9, 0]
    assert recs[1]["message"] == "<smiles>:2: record 2 (broken): the SMILES 'C1CC(' leaves 1 branch '(' unclosed"
    assert recs[2]["message"].startswith("<smiles>:3: record 3 (selenide): element Se (atom 2)")
    assert "dropped Na+" in recs[3]["message"]
    assert [len(r["elements"]) for r in recs] == [7, 0, 0, 7]


@needs_ob
def test_acetic_acid_prepared_at_ph():
    def one(**kw):
        r = vsgrid.read_ligands(S("CC(=O)O", "acetic acid"), **kw)[0]
        assert r["code"] == "ok" and r["has_charges"], r
        return r
    a = one()  # pH 7.4: acetate, 7 atoms with its hydrogens, charge -1
    assert sorted(a["elements"]) == ["C", "C", "H", "H", "H", "O", "O"]
    assert a["message"] == "net charge +0 -> -1 at pH 7.4"
    # Gasteiger charges (the two oxygens alike: a carboxylate); their sum is 0, not the formal
    # charge, as for every SMILES record (tests/cli_smiles.sh: biotin's anion) and vsg_ligand_gasteiger
    o = [q for q, e in zip(a["charges"], a["elements"]) if e == "O"]
    assert len(o) == 2 and abs(o[0] - o[1]) < 1e-4 and o[0] < -0.2
    assert a["coordinates"].shape == (7, 3) and np.ptp(a["coordinates"], axis=0).max() > 1.0
    assert len(one(ph=7.4)["elements"]) == 7
    n = one(ph="none")  # the SMILES's own states: acetic acid, 8 atoms, neutral
    assert len(n["elements"]) == 8 and abs(float(np.sum(n["charges"]))) < 1e-3
    assert len(one(ph=2.0)["elements"]) == 8  # below its pKa: neutral
    assert len(one(minimize=0)["elements"]) == 7 and len(one(ph="none", minimize=500)["elements"]) == 8
    for bad in (dict(ph=15), dict(ph="basic"), dict(minimize=-1), dict(minimize=2.5)):
        with pytest.raises(vsgrid.ArgumentError):
            vsgrid.read_ligands(S("CC(=O)O"), **bad)
    with pytest.raises(TypeError):
        vsgrid.read_ligands(S("CC(=O)O"), ph=True)
    # stereo="specified": an open stereocentre fails the record (code stereo); "any" builds one
    open_centre = S("CC(N)CC", "open")
    assert vsgrid.read_ligands(open_centre, stereo="specified")[0]["code"] == "stereo"
    assert vsgrid.read_ligands(open_centre, stereo="any")[0]["code"] == "ok"
    with pytest.raises(vsgrid.ArgumentError):
        vsgrid.read_ligands(open_centre, stereo="maybe")
    with pytest.raises(TypeError):
        vsgrid.read_ligands(open_centre, stereo=1)
    # embed=: the 3D conformer generator; RDKit's (the default where built) gives the same
    # coordinates every time, Open Babel's builder the same atoms
    ob = vsgrid.read_ligands(S("CCC(=O)NC1CCCCC1", "amide"), embed="openbabel")[0]
    assert ob["code"] == "ok" and len(ob["elements"]) == 28  # C9H17NO
    if vsgrid.smiles_rdkit_available():
        r1, r2 = (vsgrid.read_ligands(S("CCC(=O)NC1CCCCC1", "amide"), embed=e)[0] for e in ("rdkit", None))
        assert r1["elements"] == ob["elements"] and np.array_equal(r1["coordinates"], r2["coordinates"])
    else:
        with pytest.raises(vsgrid.UnsupportedError):
            vsgrid.read_ligands(open_centre, embed="rdkit")
    with pytest.raises(vsgrid.ArgumentError):
        vsgrid.read_ligands(open_centre, embed="corina")
    with pytest.raises(TypeError):
        vsgrid.read_ligands(open_centre, embed=2)


def test_write_smiles_is_the_library_the_module_writes(tmp_path):
    path = str(tmp_path / "lib.smi")
    vsgrid.write_smiles(LIBRARY + [S("CCO")], path)
    lines = open(path).read().splitlines()
    assert lines[0].startswith("#") and lines[1] == "CC(=O)O acetic acid" and lines[5] == "CCO CCO"
    recs = vsgrid.read_ligands(path)
    mem = vsgrid.read_ligands(LIBRARY + [S("CCO")])
    assert [r["name"] for r in recs] == [r["name"] for r in mem] == ["acetic acid", "broken", "selenide",
                                                                     "sodium acetate", "CCO"]
    assert [r["code"] for r in recs] == [r["code"] for r in mem]
    assert [len(r["elements"]) for r in recs] == [len(r["elements"]) for r in mem]
    # the file names its own line (record k on line k + 1); the list its position
    assert recs[1]["message"].startswith(path + ":3: record 2 (broken): ")
    assert mem[1]["message"].startswith("<smiles>:2: record 2 (broken): ")
    assert recs[1]["message"].split(": ", 2)[2] == mem[1]["message"].split(": ", 2)[2]


def test_rdkit_molecules_without_conformers_go_as_smiles_in_order():
    Chem = pytest.importorskip("rdkit.Chem")
    from rdkit.Chem import AllChem
    flat = Chem.MolFromSmiles("CC(=O)O")
    flat.SetProp("_Name", "acetic (RDKit)")
    twod = Chem.MolFromSmiles("CCN")  # a 2D depiction only: prepared from its SMILES too
    AllChem.Compute2DCoords(twod)
    emb = Chem.AddHs(Chem.MolFromSmiles("CCO"))
    emb.SetProp("_Name", "ethanol 3D")
    assert len(AllChem.EmbedMultipleConfs(emb, 2, randomSeed=7)) == 2  # two records, as conformers are
    unnamed = Chem.MolFromSmiles("OCC(=O)O")
    items = [S("CC(=O)O", "acetic acid"), emb, flat, S("C1CC(", "broken"), twod, emb, unnamed]
    recs = vsgrid.read_ligands(items)
    assert [r["name"] for r in recs] == ["acetic acid", "ethanol 3D", "ethanol 3D", "acetic (RDKit)", "broken",
                                         "CCN", "ethanol 3D", "ethanol 3D", "O=C(O)CO"]
    assert [r["source"] for r in recs] == ["<smiles>", "<rdkit>", "<rdkit>", "<rdkit>", "<smiles>", "<rdkit>",
                                           "<rdkit>", "<rdkit>", "<rdkit>"]
    assert [r["record"] for r in recs] == list(range(1, 10))
    # the embedded molecule as it is: its conformers' coordinates, its 9 atoms
    for r, cid in ((recs[1], 0), (recs[2], 1), (recs[6], 0)):
        assert r["code"] == "ok" and np.allclose(r["coordinates"], emb.GetConformer(cid).GetPositions(), atol=1e-4)
    if not HAVE_OB:
        assert [r["code"] for r in recs] == ["unsupported", "ok", "ok", "unsupported", "unsupported", "unsupported",
                                             "ok", "ok", "unsupported"]
        assert recs[3]["message"].startswith("<rdkit>:3: record 4 (acetic (RDKit)): this vsgrid was built without")
        return
    assert [r["code"] for r in recs] == ["ok", "ok", "ok", "ok", "bad_smiles", "ok", "ok", "ok", "ok"]
    # acetate 7, ethanol 9, acetate 7, ethylammonium 11, glycolate 8 atoms
    assert [len(r["elements"]) for r in recs] == [7, 9, 9, 7, 0, 11, 9, 9, 8]
    # a message names the molecule's position in the list (the 4th ligand), the record its row
    assert recs[4]["message"] == "<smiles>:4: record 5 (broken): the SMILES 'C1CC(' leaves 1 branch '(' unclosed"
    # ph="none": the molecules' own states (acetic acid 8 atoms), the embedded one untouched
    assert [len(r["elements"]) for r in vsgrid.read_ligands([flat, emb], ph="none")] == [8, 9, 9]


def test_screen_rows_equal_the_commands_of_the_same_smi(vina_maps, tmp_path):
    lib = [S(BIOTIN, "biotin")] + LIBRARY
    path = tmp_path / "lib.smi"
    vsgrid.write_smiles(lib, path)
    r = subprocess.run([_cli(), "screen", vina_maps, path, "--scoring", "vina", "--placement", "flexible",
                        "--seed", "5", "--exhaustiveness", "2", "--steps", "4000", "--devices", "cpu", "--threads", "1",
                        "--quiet", "-o", tmp_path / "cli.csv"], capture_output=True, text=True)
    assert r.returncode == (0 if HAVE_OB else 8), r.stderr  # 8: no record scored (all unsupported)
    ref = read_csv(tmp_path / "cli.csv")
    rows = vsgrid.screen(vina_maps, lib, threads=1, **DOCK)
    assert len(rows) == len(ref) == 5
    for r, c in zip(rows, ref):
        assert (r["index"], r["name"], r["atoms"], r["status"]) == (int(c["index"]), c["name"], int(c["atoms"]),
                                                                    c["status"])
        assert r["source"] == "<smiles>" and c["source"] == str(path)
        if c["status"] == "ok":  # the preparation's note ("net charge +0 -> -1 at pH 7.4"), no place
            assert r["message"] == c["message"]
        elif c["message"]:  # the same message, the file's path:line as the list's <smiles>:K
            k = r["record"]
            assert c["message"].startswith("%s:%d: record %d " % (path, k + 1, k))
            assert r["message"] == c["message"].replace("%s:%d:" % (path, k + 1), "<smiles>:%d:" % k, 1)
    expect = ["ok", "ok", "bad_smiles", "bad_element", "ok"] if HAVE_OB else ["unsupported"] * 5
    assert [r["status"] for r in rows] == expect
    assert [r["record"] for r in rows] == [1, 2, 3, 4, 5]
    if HAVE_OB:
        assert [r["atoms"] for r in rows] == [31, 7, 0, 0, 7]
        assert -15 < rows[0]["score_kcal_mol"] < -4  # biotin from its SMILES, as the command's row
        assert rows[2]["message"] == "<smiles>:3: record 3 (broken): the SMILES 'C1CC(' leaves 1 branch '(' unclosed"
    # the arrays form and ph / minimize as keywords (the screen job's ph and minimize keys)
    a = vsgrid.screen(vina_maps, lib[:2], threads=2, as_arrays=True, ph="none", minimize=0, **DOCK)
    assert list(a["source"]) == ["<smiles>", "<smiles>"] and list(a["record"]) == [1, 2]
    if HAVE_OB:
        assert list(a["status"]) == ["ok", "ok"] and list(a["atoms"]) == [32, 8]  # biotin and acetic acid, neutral
        assert math.isfinite(a["score_kcal_mol"][0])
    with pytest.raises(vsgrid.ArgumentError):
        vsgrid.screen(vina_maps, lib[:1], ph=15, **DOCK)


@needs_ob
def test_dock_biotin_from_smiles(vina_maps):
    Chem = pytest.importorskip("rdkit.Chem")
    r = vsgrid.dock(vina_maps, S(BIOTIN, "biotin"), search="fast", exhaustiveness=2, steps=4000, seed=5,
                    device="cpu", poses=3)
    assert r.name == "biotin" and r.source == "<smiles>" and r.record == 1
    assert "net charge +0 -> -1 at pH 7.4" in r.note
    assert r.natoms == 18 and r.rotors == 5  # the docking model: non-polar hydrogens merged, 5 torsions
    best = r.poses[0].score["total"]
    assert math.isfinite(best) and -15 < best < -4, best
    # the pose on the molecule docked (Open Babel's atoms): biotin's anion, its stereo kept
    m = r.to_rdkit()
    assert m.GetNumAtoms() == 31 and Chem.GetFormalCharge(m) == -1
    assert np.allclose(m.GetConformer().GetPositions()[r.record_atom], r.poses[0].coordinates)
    Chem.AssignStereochemistryFrom3D(m)
    ref = Chem.MolFromSmiles("[O-]C(=O)CCCC[C@@H]1SC[C@@H]2NC(=O)N[C@H]12")
    assert Chem.MolToSmiles(Chem.RemoveHs(m)) == Chem.MolToSmiles(ref)
    # the same from an RDKit molecule without coordinates; to_rdkit refuses its atoms (not those docked)
    mol = Chem.MolFromSmiles(BIOTIN)
    mol.SetProp("_Name", "biotin (RDKit)")
    q = vsgrid.dock(vina_maps, mol, search="fast", exhaustiveness=2, steps=4000, seed=5, device="cpu", poses=1,
                    ph="none")
    assert q.name == "biotin (RDKit)" and q.source == "<rdkit>" and q.natoms == 19  # the neutral acid: +1 H
    assert math.isfinite(q.poses[0].score["total"])
    with pytest.raises(ValueError, match="prepared from a SMILES"):
        q.to_rdkit(mol)
    # a SMILES that cannot be prepared raises its status's error, naming <smiles>:1
    with pytest.raises(vsgrid.FormatError, match=r"<smiles>:1: record 1 \(broken\)"):
        vsgrid.dock(vina_maps, S("C1CC(", "broken"), search="fast", device="cpu")
    with pytest.raises(vsgrid.DataError, match="element Se"):
        vsgrid.dock(vina_maps, S("C[Se]C"), search="fast", device="cpu")


@pytest.mark.skipif(HAVE_OB, reason="this build prepares SMILES (Open Babel)")
def test_without_open_babel_smiles_are_unsupported(vina_maps):
    rows = vsgrid.screen(vina_maps, [S("CCO", "ethanol"), S("C1CC(")], **DOCK)
    assert [r["status"] for r in rows] == ["unsupported", "unsupported"]
    assert rows[0]["message"].startswith("<smiles>:1: record 1 (ethanol): this vsgrid was built without Open Babel")
    with pytest.raises(vsgrid.UnsupportedError):
        vsgrid.dock(vina_maps, S("CCO"), search="fast", device="cpu")


def test_in_memory_ligands_where_a_file_is_needed(vina_maps):
    # a box needs coordinates; a campaign's libraries are files its tasks and merge name
    with pytest.raises(ValueError, match="3D coordinates"):
        vsgrid.maps(os.path.join(DATA, "1stp_receptor.pdbqt"), scoring="vina", around=S(BIOTIN), types=["C"])
    with pytest.raises(TypeError, match="write_smiles"):
        vsgrid.screen_shard(vina_maps, [S("CCO")], 0, 1, scoring="vina")
    with pytest.raises(TypeError, match="write_smiles"):
        vsgrid.dask_screen(None, vina_maps, S("CCO"), 1, scoring="vina")


@needs_ob
def test_dock_macrocycle_opened_or_rigid(vina_maps):
    """A 12-membered ring from SMILES is opened as Meeko opens it (two glue atoms, its ring bonds
    rotatable) unless rigid_macrocycles=True, as `vsgrid dock --rigid-macrocycles`."""
    kw = dict(search="fast", exhaustiveness=2, steps=500, seed=1, device="cpu", poses=1)
    opened = vsgrid.dock(vina_maps, S("OC1CCCCCCCCCCC1", "cyclododecanol"), **kw)
    rigid = vsgrid.dock(vina_maps, S("OC1CCCCCCCCCCC1", "cyclododecanol"), rigid_macrocycles=True, **kw)
    assert opened.natoms == rigid.natoms + 2 and opened.rotors > rigid.rotors == 1
    assert math.isfinite(opened.poses[0].score["total"]) and math.isfinite(rigid.poses[0].score["total"])


@pytest.mark.skipif(not vsgrid.smiles_rdkit_available(), reason="built without RDKit")
def test_screen_conformers_and_stereoisomers(vina_maps):
    """conformers=N and stereo="enumerate" (RDKit) dock several starting molecules of a record and
    keep the best: one row a record, its message saying which conformer won; the first conformer
    is the record's own, so the best is never worse than conformers=1's row; phenol has one."""
    lib = [S("OC1CCC(CC1)NC(=O)c1ccccc1", "cyc"), S("Oc1ccccc1", "phenol")]
    one = vsgrid.screen(vina_maps, lib, **DOCK)
    three = vsgrid.screen(vina_maps, lib, conformers=3, **DOCK)
    assert [r["status"] for r in three] == ["ok", "ok"]
    assert " of " in three[0]["message"] and "docked scored best" in three[0]["message"]
    assert three[0]["score_kcal_mol"] <= one[0]["score_kcal_mol"] + 1e-4
    assert three[1] == one[1]
    both = vsgrid.screen(vina_maps, lib, conformers=2, stereo="enumerate", **DOCK)
    assert "2 stereoisomers (--stereo enumerate)" in both[0]["message"]
    with pytest.raises(vsgrid.ArgumentError):
        vsgrid.screen(vina_maps, lib, conformers=0, **DOCK)
