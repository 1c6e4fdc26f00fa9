"""Docking reproduces `vsgrid dock` for the same seed (CPU twin)."""
import os

import numpy as np
import pytest

import vsgrid
from conftest import DATA, read_csv

BIOTIN = os.path.join(DATA, "biotin.pdbqt")


def test_dock_equals_cli(cli, vina_maps, tmp_path):
    out, csvp = tmp_path / "d.pdbqt", tmp_path / "d.csv"
    cli("dock", vina_maps, BIOTIN, "--devices", "cpu", "--search", "fast", "--seed", 3, "--poses", 3, "--quiet",
        "--csv", csvp, "-o", out)
    ref = read_csv(csvp)
    r = vsgrid.dock(vina_maps, BIOTIN, search="fast", device="cpu", seed=3, poses=3)
    assert len(r.poses) == len(ref) == 3
    assert r.chains == 64 and r.steps == 40 and r.rotors == 5 and r.natoms == 18
    for p, row in zip(r.poses, ref):
        assert round(p.score["total"], 3) == float(row["score_kcal_mol"])
        assert round(p.score["inter"], 3) == float(row["inter_kcal_mol"])
        assert round(p.score["intra"], 3) == float(row["intra_kcal_mol"])
        assert round(p.energy, 3) == float(row["search_energy_kcal_mol"])
        assert round(p.rmsd_input, 3) == float(row["rmsd_input_A"])
        assert p.coordinates.shape == (18, 3)
        # PoseBusters' checks: the CSV's columns
        assert p.posebusters_valid == (row["posebusters_valid"] == "1")
        assert ";".join(p.posebusters_failed) == row["posebusters_failed"]
    # the written PDBQT's first model holds the best pose's coordinates (record order for PDBQT)
    atoms = []
    for line in open(out):
        if line.startswith("ENDMDL"):
            break
        if line.startswith(("ATOM", "HETATM")):
            atoms.append([float(line[30:38]), float(line[38:46]), float(line[46:54])])
    assert np.allclose(np.array(atoms), r.poses[0].coordinates[np.argsort(r.record_atom)], atol=1e-3)


def test_dock_other_seed_differs(vina_maps):
    a = vsgrid.dock(vina_maps, BIOTIN, search="fast", device="cpu", seed=3, poses=1, exhaustiveness=8, steps=20)
    b = vsgrid.dock(vina_maps, BIOTIN, search="fast", device="cpu", seed=3, poses=1, exhaustiveness=8, steps=20)
    assert a.poses[0].score == b.poses[0].score and np.array_equal(a.poses[0].coordinates, b.poses[0].coordinates)
    assert a.chains == 8 and a.steps == 20


def test_dock_bad_arguments(vina_maps):
    with pytest.raises(vsgrid.ArgumentError):
        vsgrid.dock(vina_maps, BIOTIN, search="exhaustive")
    with pytest.raises(ValueError):
        vsgrid.dock(vina_maps, BIOTIN, device="tpu")
    with pytest.raises(vsgrid.FileError):
        vsgrid.dock(vina_maps + "_missing", BIOTIN)


def test_dock_receptor_refines_on_atoms(cli, vina_maps, tmp_path):
    """receptor=: the final poses refined and scored on the receptor's atoms, as `dock --receptor`;
    scores in order; the best pose's is --score_only's on the atoms (vsgrid rescore)."""
    rec = os.path.join(DATA, "1stp_receptor.pdbqt")
    csvp, out = tmp_path / "r.csv", tmp_path / "r.pdbqt"
    cli("dock", vina_maps, BIOTIN, "--devices", "cpu", "--search", "fast", "--seed", 3, "--poses", 3, "--quiet",
        "--receptor", rec, "--csv", csvp, "-o", out)
    ref = read_csv(csvp)
    r = vsgrid.dock(vina_maps, BIOTIN, search="fast", device="cpu", seed=3, poses=3, receptor=rec)
    plain = vsgrid.dock(vina_maps, BIOTIN, search="fast", device="cpu", seed=3, poses=3)
    assert [round(p.score["total"], 3) for p in r.poses] == [float(row["score_kcal_mol"]) for row in ref]
    # the receptor's clash tests join the pose checks: the CSV's columns again
    assert [(p.posebusters_valid, ";".join(p.posebusters_failed)) for p in r.poses] == \
        [(row["posebusters_valid"] == "1", row["posebusters_failed"]) for row in ref]
    assert r.poses[0].posebusters_valid is True
    totals = [p.score["total"] for p in r.poses]
    assert totals == sorted(totals) and totals != [p.score["total"] for p in plain.poses]
    assert all(p.score["unbound"] == r.poses[0].score["intra"] for p in r.poses)
    with pytest.raises(vsgrid.FileError):
        vsgrid.dock(vina_maps, BIOTIN, search="fast", device="cpu", receptor=str(tmp_path / "missing.pdbqt"))


def test_screen_receptor_equals_dock(vina_maps):
    """screen(..., receptor=) refines each record's poses on the atoms: the row's score is dock's."""
    rec = os.path.join(DATA, "1stp_receptor.pdbqt")
    rows = vsgrid.screen(vina_maps, BIOTIN, scoring="vina", placement="flexible", search="fast", device="cpu",
                         seed=3, receptor=rec)
    r = vsgrid.dock(vina_maps, BIOTIN, search="fast", device="cpu", seed=3, poses=1, receptor=rec)
    assert len(rows) == 1 and abs(rows[0]["score_kcal_mol"] - r.poses[0].score["total"]) < 1e-3
