"""RDKit molecules are taken where a ligand is taken, and score as their SDF file does."""
import os

import numpy as np
import pytest

import vsgrid
from conftest import DATA

Chem = pytest.importorskip("rdkit.Chem")

BIOTIN = os.path.join(DATA, "biotin.pdbqt")


@pytest.fixture(scope="module")
def posed_sdf(cli, vina_maps, tmp_path_factory):
    """A docked biotin as SDF by `vsgrid dock` (charges and AutoDock types as atom properties)."""
    path = tmp_path_factory.mktemp("rdkit") / "biotin.sdf"
    cli("dock", vina_maps, BIOTIN, "--devices", "cpu", "--search", "fast", "--seed", 1, "--poses", 2, "--quiet",
        "-o", path)
    return str(path)


def mols(path):
    return [m for m in Chem.SDMolSupplier(path, removeHs=False)]


def test_rdkit_scores_like_its_sdf(posed_sdf, vina_maps, ad4_maps):
    ms = mols(posed_sdf)
    assert len(ms) == 2 and all(m is not None for m in ms)
    for target, scoring in ((vina_maps, "vina"), (ad4_maps, None)):
        a = vsgrid.screen(target, ms, scoring=scoring)
        b = vsgrid.screen(target, posed_sdf, scoring=scoring)
        assert len(a) == len(b) == 2
        for ra, rb in zip(a, b):
            assert ra["status"] == rb["status"] == "ok"
            assert ra["score_kcal_mol"] == rb["score_kcal_mol"]
            assert ra["source"] == "<rdkit>"
    one = vsgrid.screen(vina_maps, ms[0], scoring="vina")
    assert len(one) == 1


def test_rdkit_gasteiger_when_no_charges(vina_maps):
    m = Chem.AddHs(Chem.MolFromSmiles("OC(=O)CCCC[C@@H]1SC[C@@H]2NC(=O)N[C@H]12"))
    from rdkit.Chem import AllChem
    assert AllChem.EmbedMolecule(m, randomSeed=7) == 0
    recs = vsgrid.read_ligands(m)
    assert recs[0]["has_charges"] and recs[0]["status"] == 0
    assert abs(float(np.sum(recs[0]["charges"]))) < 1e-3  # Gasteiger charges of a neutral molecule


def test_rdkit_dock_and_pose_back(posed_sdf, vina_maps):
    m = mols(posed_sdf)[0]
    a = vsgrid.dock(vina_maps, m, search="fast", device="cpu", seed=5, poses=1)
    b = vsgrid.dock(vina_maps, posed_sdf, record=1, search="fast", device="cpu", seed=5, poses=1)  # its first pose
    assert a.poses[0].score["total"] == b.poses[0].score["total"]
    placed = a.to_rdkit(m)
    xyz = placed.GetConformer().GetPositions()
    assert np.allclose(xyz[a.record_atom], a.poses[0].coordinates)


def test_rdkit_conformers_are_records(vina_maps):
    from rdkit.Chem import AllChem
    m = Chem.AddHs(Chem.MolFromSmiles("OC(=O)CCCC[C@@H]1SC[C@@H]2NC(=O)N[C@H]12"))
    assert len(AllChem.EmbedMultipleConfs(m, 3, randomSeed=7)) == 3
    recs = vsgrid.read_ligands(m)
    assert len(recs) == 3
    for cid, r in enumerate(recs):
        assert np.allclose(r["coordinates"], m.GetConformer(cid).GetPositions(), atol=1e-4)
    rows = vsgrid.screen(vina_maps, m, scoring="vina")
    assert [r["record"] for r in rows] == [1, 2, 3]
