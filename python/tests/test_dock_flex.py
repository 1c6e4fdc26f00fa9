"""dock(flex=...): flexible receptor side chains as `vsgrid dock --flex` docks with them (the same
calls: the same poses, scores and residue terms for the same record, seed and search on the CPU
twin; the GPU when there is one), the residues' CA and CB unmoved, and the refusals."""
import gzip
import os
import shutil

import pytest

import vsgrid
from conftest import DATA, read_csv

FLEXD = os.path.join(DATA, "flex")
LIG = os.path.join(FLEXD, "1iep_ligand.pdbqt")
FLEX = os.path.join(FLEXD, "1fpu_receptor_flex.pdbqt")
QUICK = dict(exhaustiveness=8, steps=40, seed=1, poses=3)


@pytest.fixture(scope="module")
def rigid_maps(cli, tmp_path_factory):
    d = tmp_path_factory.mktemp("flex")
    rigid = d / "rigid.pdbqt"
    with gzip.open(os.path.join(FLEXD, "1fpu_receptor_rigid.pdbqt.gz"), "rb") as f, open(rigid, "wb") as o:
        shutil.copyfileobj(f, o)
    cli("maps", rigid, "--scoring", "vina", "--box", "15.190,53.903,16.917,20,20,20", "--device", "cpu", "--quiet",
        "-o", d / "m")
    return str(d / "m"), str(rigid), d


def test_same_as_the_command(cli, rigid_maps):
    prefix, rigid, d = rigid_maps
    cli("dock", prefix, LIG, "--flex", FLEX, "--receptor", rigid, "--devices", "cpu", "--exhaustiveness", 8, "--steps", 40,
        "--seed", 1, "--poses", 3, "--quiet", "-o", d / "c.pdbqt", "--csv", d / "c.csv")
    rows = read_csv(d / "c.csv")
    r = vsgrid.dock(prefix, LIG, flex=FLEX, receptor=rigid, device="cpu", **QUICK)
    assert len(r.poses) == len(rows)
    for p, row in zip(r.poses, rows):
        assert p.score["total"] == pytest.approx(float(row["score_kcal_mol"]), abs=6e-4)
        assert p.flex["ligand_flex"] == pytest.approx(float(row["ligand_flex_kcal_mol"]), abs=6e-4)
        assert p.flex["flex_rigid"] == pytest.approx(float(row["flex_rigid_kcal_mol"]), abs=6e-4)
        xyz = [tuple(float(v) for v in a) for a in p.flex["coordinates"]]
        assert len(xyz) == 5
        assert xyz[0] == pytest.approx((13.079, 52.503, 8.093)) and xyz[1] == pytest.approx((13.429, 52.900, 9.553))
    if vsgrid.gpu_count() > 0:
        g = vsgrid.dock(prefix, LIG, flex=FLEX, receptor=rigid, device="gpu", **QUICK)
        assert g.poses[0].score["total"] < r.poses[0].score["total"] + 1.0  # one search, float on the GPU
    else:
        with pytest.raises(vsgrid.DeviceError, match="no GPU"):
            vsgrid.dock(prefix, LIG, flex=FLEX, device="gpu", **QUICK)


def test_refusals(rigid_maps, tmp_path):
    prefix, rigid, d = rigid_maps
    with pytest.raises(ValueError, match="not scoring='ad4'"):
        vsgrid.dock(prefix, LIG, flex=FLEX, scoring="ad4")
    with pytest.raises(vsgrid.FileError):
        vsgrid.dock(prefix, LIG, flex=str(tmp_path / "none.pdbqt"), device="cpu", **QUICK)
    bad = tmp_path / "bad_flex.pdbqt"  # a residue that never ends
    bad.write_text("".join(l for l in open(FLEX) if not l.startswith("END_RES")))
    with pytest.raises(vsgrid.Error, match="END_RES"):
        vsgrid.dock(prefix, LIG, flex=str(bad), device="cpu", **QUICK)
