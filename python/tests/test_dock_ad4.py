"""dock(scoring="ad4"): the AutoDock4 function as `vsgrid dock --scoring ad4` docks with it (the
same calls: the same poses and epdb terms for the same record, seed and search, on the CPU twin;
on the GPU when there is one), its refusals (a Vina map set, a second record, a bad SMILES as a
row), and its terms adding up as autodock4's estimated free energy."""
import os

import pytest

import vsgrid
from conftest import DATA, read_csv

BIOTIN = os.path.join(DATA, "biotin.pdbqt")
QUICK = dict(exhaustiveness=4, steps=40, seed=1)


def test_same_as_the_command(cli, ad4_maps, work):
    prefix = ad4_maps[:-len(".maps.fld")]
    csv = work / "ad4_cli.csv"
    cli("dock", prefix, BIOTIN, "--scoring", "ad4", "--devices", "cpu", "--exhaustiveness", 4, "--steps", 40, "--seed", 1,
        "--quiet", "-o", work / "ad4_cli.pdbqt", "--csv", csv)
    rows = read_csv(csv)
    d = vsgrid.dock(prefix, BIOTIN, scoring="ad4", device="cpu", **QUICK)
    assert len(d.poses) == len(rows)
    for p, row in zip(d.poses, rows):
        assert p.score["total"] == pytest.approx(float(row["score_kcal_mol"]), abs=6e-5)
        assert p.score["elec"] == pytest.approx(float(row["elec_kcal_mol"]), abs=6e-5)
        # the estimated free energy: inter + intra + torsional - unbound, unbound = intra
        s = p.score
        assert s["total"] == pytest.approx(s["inter"] + s["intra"] + s["torsional"] - s["unbound"], abs=1e-9)
        assert s["torsional"] == pytest.approx(0.2983 * s["torsdof"], abs=1e-9)
    assert [p.score["total"] for p in d.poses] == sorted(p.score["total"] for p in d.poses)
    # the fld itself names the set as well as its prefix
    assert vsgrid.dock(ad4_maps, BIOTIN, scoring="ad4", device="cpu", **QUICK).poses[0].score["total"] == d.poses[0].score["total"]


def test_on_the_gpu(ad4_maps):
    if vsgrid.gpu_count() < 1:
        with pytest.raises(vsgrid.DeviceError, match="no GPU"):
            vsgrid.dock(ad4_maps, BIOTIN, scoring="ad4", device="gpu", **QUICK)
        return
    g = vsgrid.dock(ad4_maps, BIOTIN, scoring="ad4", device="gpu", **QUICK)
    c = vsgrid.dock(ad4_maps, BIOTIN, scoring="ad4", device="cpu", **QUICK)
    assert g.poses[0].score["total"] < c.poses[0].score["total"] + 0.5  # one search, float on the GPU


def test_refusals_and_rows(ad4_maps, vina_maps, tmp_path):
    with pytest.raises(vsgrid.FormatError, match="is a Vina map set"):
        vsgrid.dock(vina_maps, BIOTIN, scoring="ad4", device="cpu", **QUICK)
    with pytest.raises(ValueError, match="receptor"):
        vsgrid.dock(ad4_maps, BIOTIN, scoring="ad4", receptor=os.path.join(DATA, "1stp_receptor.pdbqt"))
    two = tmp_path / "two.pdbqt"
    two.write_text(open(BIOTIN).read() * 2)
    with pytest.raises(vsgrid.ArgumentError, match="more than one record"):
        vsgrid.dock(ad4_maps, str(two), scoring="ad4", device="cpu", **QUICK)
    rs = vsgrid.dock(ad4_maps, str(two), scoring="ad4", device="cpu", all_records=True, **QUICK)
    assert [r.record for r in rs] == [1, 2] and all(r.poses for r in rs)
    with pytest.raises(vsgrid.DataError, match="over max_torsions 2"):
        vsgrid.dock(ad4_maps, BIOTIN, scoring="ad4", device="cpu", max_torsions=2, **QUICK)
    if vsgrid.smiles_available():
        smi = tmp_path / "two.smi"
        smi.write_text("OC(=O)CCCCC1SCC2NC(=O)NC12 biotin\nC1CC(( bad\n")
        good, bad = vsgrid.dock(ad4_maps, str(smi), scoring="ad4", device="cpu", all_records=True, **QUICK)
        assert good.poses and good.poses[0].score["total"] < -4
        assert bad.error and "two.smi:2" in bad.error and not bad.poses


def test_local_only(cli, ad4_maps, vina_maps, work):
    """local_only=True: the input pose minimised in place, as `vsgrid dock --local-only`, with the
    AutoDock4 function and with Vina's; one pose near the input."""
    prefix = ad4_maps[:-len(".maps.fld")]
    for scoring, maps in (("ad4", prefix), ("vina", vina_maps)):
        csv = work / ("local_%s.csv" % scoring)
        cli("dock", maps, BIOTIN, "--scoring", scoring, "--local-only", "--quiet", "-o", work / ("local_%s.pdbqt" % scoring),
            "--csv", csv)
        row = read_csv(csv)[0]
        d = vsgrid.dock(maps, BIOTIN, scoring=scoring, local_only=True)
        assert len(d.poses) == 1 and d.poses[0].rmsd_input < 1.0
        assert d.poses[0].score["total"] == pytest.approx(float(row["score_kcal_mol"]), abs=6e-4)
    with pytest.raises(ValueError, match="not with flex"):
        vsgrid.dock(vina_maps, BIOTIN, local_only=True, flex=BIOTIN)


def test_ad4_maps_given_to_vina(ad4_maps):
    prefix = ad4_maps[:-len(".maps.fld")]
    with pytest.raises(vsgrid.FormatError, match="is an AutoDock4 map set: dock on it with scoring='ad4'"):
        vsgrid.dock(prefix, BIOTIN, device="cpu", **QUICK)
