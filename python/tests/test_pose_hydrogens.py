"""Poses that keep everything (issue 27 items 5 and 7): a ligand without hydrogens gets its polar
hydrogens (with a warning) in Python's dock as in `vsgrid dock`, and DockResult.to_rdkit() places
every hydrogen from the pose: merged non-polar hydrogens 1.0-1.2 Å from their carbon, added polar
hydrogens on the copy; every molecule sanitises."""
import os
import warnings

import numpy as np
import pytest

import vsgrid
from conftest import DATA

Chem = pytest.importorskip("rdkit.Chem")
XIAP = os.path.join(DATA, "xiap_actives_docked.sdf.gz")


def _first_xiap():
    import gzip
    with gzip.open(XIAP, "rt") as f:
        text = f.read().split("$$$$\n")[0] + "$$$$\n"
    return Chem.MolFromMolBlock(text.split("$$$$")[0], removeHs=False)


def _ch_lengths(m):
    c = m.GetConformer().GetPositions()
    return [np.linalg.norm(c[b.GetBeginAtomIdx()] - c[b.GetEndAtomIdx()]) for b in m.GetBonds()
            if {b.GetBeginAtom().GetAtomicNum(), b.GetEndAtom().GetAtomicNum()} == {1, 6}]


def test_to_rdkit_moves_merged_hydrogens(vina_maps):
    mol = _first_xiap()
    assert any(a.GetAtomicNum() == 1 for a in mol.GetAtoms())
    r = vsgrid.dock(vina_maps, mol, search="fast", device="cpu", seed=1, poses=2)
    for k in range(len(r.poses)):
        m = r.to_rdkit(mol, pose=k)
        Chem.SanitizeMol(m)
        ch = _ch_lengths(m)
        assert ch and 1.0 <= min(ch) and max(ch) <= 1.2, (min(ch), max(ch))


def test_dock_adds_polar_hydrogens(vina_maps, capfd):
    mol = Chem.RemoveHs(_first_xiap())
    assert not any(a.GetAtomicNum() == 1 for a in mol.GetAtoms())
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = vsgrid.dock(vina_maps, mol, search="fast", device="cpu", seed=1, poses=1)
    said = [str(x.message) for x in w] + [capfd.readouterr().err]  # a Python warning, or the library's stderr
    assert any("polar hydrogen" in t for t in said), said
    assert r.added_hydrogens, "no hydrogens added"
    m = r.to_rdkit(mol)
    Chem.SanitizeMol(m)
    assert m.GetNumAtoms() == mol.GetNumAtoms() + len(r.added_hydrogens)
    c = m.GetConformer().GetPositions()
    for h in range(mol.GetNumAtoms(), m.GetNumAtoms()):
        heavy = m.GetAtomWithIdx(h).GetNeighbors()[0]
        d = np.linalg.norm(c[h] - c[heavy.GetIdx()])
        assert 0.9 < d < 1.4, d
    # each added hydrogen sits on a heavy atom RDKit gives a hydrogen to
    for heavy in r.added_hydrogens:
        assert mol.GetAtomWithIdx(heavy).GetTotalNumHs() >= 1


def test_to_rdkit_of_a_molecule_without_hydrogens_sanitises(vina_maps):
    """RDKit's RemoveHs keeps each atom's hydrogen count: the polar hydrogens vsgrid added come
    back as atoms of the copy, which must still sanitise to the same molecule."""
    Chem = pytest.importorskip("rdkit.Chem")
    from rdkit.Chem import AllChem
    mh = Chem.AddHs(Chem.MolFromSmiles("OC(=O)CCCC[C@@H]1SC[C@@H]2NC(=O)N[C@H]12"))
    assert AllChem.EmbedMolecule(mh, randomSeed=1) == 0
    m = Chem.RemoveHs(mh)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = vsgrid.dock(vina_maps, m, search="fast", device="cpu", seed=1, poses=1)
    assert sorted(r.added_hydrogens) == [0, 11, 14]
    p = r.to_rdkit(m)
    Chem.SanitizeMol(p)
    assert p.GetNumAtoms() == m.GetNumAtoms() + 3
    assert Chem.MolToSmiles(Chem.RemoveHs(p)) == Chem.MolToSmiles(m)
