"""Scores of arrays and screens of files equal the command line's CSV."""
import os

import numpy as np
import pytest

import vsgrid
from conftest import DATA, read_csv

BIOTIN = os.path.join(DATA, "biotin.pdbqt")


def test_ad4_arrays_equal_cli_screen(cli, ad4_maps, tmp_path):
    out = tmp_path / "ad4.csv"
    cli("screen", ad4_maps, BIOTIN, "--devices", "cpu", "--quiet", "-o", out)
    ref = read_csv(out)[0]
    m = vsgrid.Molecule.read(BIOTIN)
    ms = vsgrid.MapSet.load(ad4_maps)
    s = ms.score(m.coordinates, m.charges, m.ad_types)
    assert s["total"].shape == (1,)
    assert s["total"][0] == pytest.approx(float(ref["score_kcal_mol"]), abs=1e-4)
    assert s["vdw_hb"][0] == pytest.approx(float(ref["vdw_hb_kcal_mol"]), abs=1e-4)
    assert s["elec"][0] == pytest.approx(float(ref["elec_kcal_mol"]), abs=1e-4)
    assert s["desolv"][0] == pytest.approx(float(ref["desolv_kcal_mol"]), abs=1e-4)
    assert s["outside"][0] == 0
    # the same through the module-level call on the fld path
    s2 = vsgrid.score(ad4_maps, m.coordinates, m.charges, m.ad_types)
    assert s2["total"][0] == s["total"][0]


def test_poses_and_offsets(ad4_maps):
    m = vsgrid.Molecule.read(BIOTIN)
    ms = vsgrid.MapSet.load(ad4_maps)
    xyz, q, t = m.coordinates, m.charges, m.ad_types
    one = ms.score(xyz, q, t)["total"][0]
    shifted = xyz + np.array([0.5, 0.0, 0.0])
    poses = ms.score(np.stack([xyz, shifted, xyz]), q, t)["total"]
    assert poses.shape == (3,) and poses[0] == one and poses[2] == one and poses[1] != one
    # two ligands in one call: the molecule twice, atoms concatenated
    two = ms.score(np.concatenate([xyz, shifted]), np.concatenate([q, q]), t + t, offsets=[0, 18, 36])["total"]
    assert two[0] == poses[0] and two[1] == poses[1]


def test_screen_rows_equal_cli(cli, ad4_maps, tmp_path):
    out = tmp_path / "x.csv"
    cli("screen", ad4_maps, BIOTIN, "--devices", "cpu", "--quiet", "-o", out)
    ref = read_csv(out)
    rows = vsgrid.screen(ad4_maps, BIOTIN)
    assert len(rows) == len(ref) == 1
    for k, v in ref[0].items():
        got = rows[0][k]
        assert (got if got is not None else "") == pytest.approx(type(got)(v) if got is not None else "")
    assert rows[0]["status"] == "ok" and isinstance(rows[0]["score_kcal_mol"], float)


def test_vina_screen_equals_cli(cli, vina_maps, tmp_path):
    out = tmp_path / "v.csv"
    cli("screen", vina_maps, BIOTIN, "--scoring", "vina", "--quiet", "-o", out)
    ref = read_csv(out)[0]
    row = vsgrid.screen(vina_maps, BIOTIN, scoring="vina")[0]
    for k in ("score_kcal_mol", "inter_kcal_mol", "intra_kcal_mol", "torsional_kcal_mol"):
        assert row[k] == pytest.approx(float(ref[k]), abs=1e-12)
    assert row["status"] == ref["status"] == "ok"


def test_electrostatic_grid_score(coulomb_grid):
    g = vsgrid.Grid.load(coulomb_grid)
    c = np.array(g.origin) + (np.array(g.shape) - 1) / 2.0 * np.array(g.spacing)
    xyz = np.array([c, c + 1.0])
    q = np.array([0.5, -0.5])
    s = g.score(xyz, q)
    phi = g.interpolate(xyz)
    assert s["total"][0] == pytest.approx(float(np.dot(q, phi)), abs=1e-4)  # kcal/mol/e grid: factor 1
    assert s["outside"][0] == 0


def test_python_vina_maps_equal_cli(vina_maps, tmp_path):
    prefix = tmp_path / "py" / "rec"
    grids = vsgrid.maps(os.path.join(DATA, "1stp_receptor.pdbqt"), scoring="vina", around=BIOTIN, prefix=prefix,
                        device="cpu", types=["C", "OA", "N", "SA", "HD"])
    assert sorted(grids) == sorted(["C_H", "C_P", "O_A", "O_DA", "N_P", "N_D", "S_P"])
    for t in grids:
        a = open("%s.%s.map" % (prefix, t)).read()
        b = open("%s.%s.map" % (vina_maps, t)).read()
        assert a.splitlines()[3:] == b.splitlines()[3:]  # header lines 1-3 name the files
    with pytest.raises(ValueError):
        vsgrid.maps(os.path.join(DATA, "1stp_receptor.pdbqt"), scoring="ad4", around=BIOTIN)  # no prefix


def same_files(a_prefix, b_prefix):
    """Every file of the map set a equals b's, the prefix named in the headers aside."""
    names = sorted(f for f in os.listdir(os.path.dirname(a_prefix)))
    assert names == sorted(os.listdir(os.path.dirname(b_prefix)))
    for name in names:
        a = open(os.path.join(os.path.dirname(a_prefix), name)).read().replace(a_prefix, "P")
        b = open(os.path.join(os.path.dirname(b_prefix), name)).read().replace(b_prefix, "P")
        assert a == b, name
    return names


def test_python_ad4_maps_equal_cli(ad4_maps, tmp_path):
    prefix = str(tmp_path / "ad4" / "rec")
    ms = vsgrid.maps(os.path.join(DATA, "1stp_receptor.pdbqt"), scoring="ad4", around=BIOTIN, prefix=prefix,
                     device="cpu")
    assert ms.types == ["A", "C", "NA", "OA", "N", "SA", "HD", "F", "Cl", "Br", "I", "P", "S"]
    names = same_files(ad4_maps[:-len(".maps.fld")], prefix)
    assert "rec.gpf" in names and "rec.e.map" in names and "rec.d.map" in names and "rec.maps.xyz" in names


def test_python_ad4_pb_maps_equal_cli(cli, tmp_path):
    ref = str(tmp_path / "cli" / "rec")
    cli("maps", os.path.join(DATA, "1stp_receptor.pdbqt"), "--scoring", "ad4", "--around", BIOTIN, "--device", "cpu",
        "--ligand-types", "C,OA", "--elec", "pb", "--salt", "0.15", "--quiet", "-o", ref)
    prefix = str(tmp_path / "py" / "rec")
    ms = vsgrid.maps(os.path.join(DATA, "1stp_receptor.pdbqt"), scoring="ad4", around=BIOTIN, prefix=prefix,
                     device="cpu", ligand_types=["C", "OA"], elec="pb", pb_options={"salt": 0.15})
    assert ms.types == ["C", "OA"]
    same_files(ref, prefix)
    with pytest.raises(ValueError):
        vsgrid.maps(os.path.join(DATA, "1stp_receptor.pdbqt"), scoring="ad4", around=BIOTIN, prefix=prefix,
                    ligand_types=["Xx"])


def test_rigid_placement_equals_cli(cli, ad4_maps, tmp_path):
    out, poses = tmp_path / "r.csv", tmp_path / "r.pdbqt"
    cli("screen", ad4_maps, BIOTIN, "--placement", "rigid", "--around", BIOTIN, "--rotations", 300, "--devices", "cpu",
        "--quiet", "--poses-out", poses, "-o", out)
    ref = read_csv(out)[0]
    mine = tmp_path / "py.pdbqt"
    row = vsgrid.screen(ad4_maps, BIOTIN, placement="rigid", around=BIOTIN, rotations=300, poses_out=mine)[0]
    for k in ("score_kcal_mol", "pose_index", "pose_qw", "pose_tx", "pose_ty", "pose_tz"):
        assert row[k] == pytest.approx(float(ref[k]), abs=1e-12)
    assert open(mine).read() == open(poses).read()
    with pytest.raises(ValueError):
        vsgrid.screen(ad4_maps, BIOTIN, poses_out=mine)  # poses need placement="rigid"


def test_library_warnings_captured(coulomb_grid):
    import warnings
    vsgrid.capture_warnings()
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            g = vsgrid.Grid.load(coulomb_grid)
            # the PB solve on 'auto' without a GPU warns that it runs the CPU solver
            if vsgrid.gpu_count() == 0:
                vsgrid.pb(os.path.join(DATA, "fas2.pqr"), spacing=2.0)
                assert any(issubclass(x.category, vsgrid.LibraryWarning) for x in w)
            assert g.shape
    finally:
        vsgrid.capture_warnings(False)
