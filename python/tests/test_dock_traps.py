"""Issue 27 in Python: the library's rule for docking results that mean nothing holds here as in
the command (a best pose outside the maps' box, maps that are 0 everywhere, maps of another
scoring function), and a screen stopped on request raises StoppedError with whole rows written,
which resume=True completes to the uninterrupted rows."""
import os

import pytest

import vsgrid
from conftest import DATA, read_csv

REC = os.path.join(DATA, "1stp_receptor.pdbqt")
BIOTIN = os.path.join(DATA, "biotin.pdbqt")
QUICK = dict(device="cpu", exhaustiveness=2, steps=30)


def _center(prefix):
    for line in open(prefix + ".C_H.map"):
        if line.startswith("CENTER"):
            return [float(v) for v in line.split()[1:4]]


def test_maps_record_their_function(tmp_path, vina_maps):
    assert open(vina_maps + ".C_H.map").readline().strip() == "GRID_PARAMETER_FILE vsgrid:vina"
    p = str(tmp_path / "vd")
    vsgrid.maps(REC, scoring="vinardo", around=BIOTIN, prefix=p, device="cpu")
    assert open(p + ".C_H.map").readline().strip() == "GRID_PARAMETER_FILE vsgrid:vinardo"
    with pytest.raises(vsgrid.DataError, match="these are Vinardo maps"):
        vsgrid.dock(p, BIOTIN, scoring="vina", **QUICK)
    with pytest.raises(vsgrid.DataError, match="these are Vina maps"):
        vsgrid.dock(vina_maps, BIOTIN, scoring="vinardo", **QUICK)
    r = vsgrid.dock(p, BIOTIN, scoring="vinardo", **QUICK)
    assert r.poses[0].score["total"] < -3


def test_dock_in_a_box_too_small(tmp_path, vina_maps):
    p = str(tmp_path / "small")
    vsgrid.maps(REC, box=_center(vina_maps) + [3, 3, 3], prefix=p, device="cpu")  # biotin folds into 5 A
    with pytest.raises(vsgrid.DataError, match="outside the maps' box"):
        vsgrid.dock(p, BIOTIN, **QUICK)
    r = vsgrid.dock(p, BIOTIN, all_records=True, **QUICK)[0]  # as a row: the error, no poses
    assert r.error and "outside the maps' box" in r.error and not r.poses


def test_dock_on_maps_of_zeros(tmp_path, vina_maps):
    p = str(tmp_path / "zero")
    for t in ("C_H", "C_P", "N_P", "N_D", "N_A", "N_DA", "O_A", "O_D", "O_DA", "O_P", "S_P"):
        with open(vina_maps + ".%s.map" % t) as f, open(p + ".%s.map" % t, "w") as g:
            for i, line in enumerate(f):
                g.write(line if i < 6 else "0\n")
    with pytest.raises(vsgrid.DataError, match="every value of its .* maps is 0"):
        vsgrid.dock(p, BIOTIN, **QUICK)


def test_dock_refuses_too_many_torsions(vina_maps):
    # a receptor PDB passed as the ligand (no ROOT to miss, as a PDBQT's) is refused at once (as
    # `vsgrid dock --max-torsions`), not searched for minutes; biotin's 5 torsions over a limit of 2 likewise, and as a row
    import time
    t0 = time.time()
    with pytest.raises(vsgrid.DataError, match=r"\d+ torsions, over max_torsions 32 \(a receptor given as the ligand"):
        vsgrid.dock(vina_maps, os.path.join(DATA, "inha", "receptor.pdb.gz"), **QUICK)
    assert time.time() - t0 < 60
    with pytest.raises(vsgrid.DataError, match="5 torsions, over max_torsions 2"):
        vsgrid.dock(vina_maps, BIOTIN, max_torsions=2, **QUICK)
    r = vsgrid.dock(vina_maps, BIOTIN, max_torsions=2, all_records=True, **QUICK)[0]
    assert r.error and "over max_torsions 2" in r.error and not r.poses and r.status == -9
    assert vsgrid.dock(vina_maps, BIOTIN, max_torsions=5, **QUICK).poses
    for bad in (-1, 1001, 2.5, True):
        with pytest.raises(ValueError, match="max_torsions"):
            vsgrid.dock(vina_maps, BIOTIN, max_torsions=bad, **QUICK)


def test_stopped_screen_resumes(tmp_path, vina_maps):
    lib = os.path.join(DATA, "inha", "library.mol2.gz")
    full = tmp_path / "full.csv"
    part = tmp_path / "part.csv"
    rows = vsgrid.screen(vina_maps, lib, scoring="vina", output=str(full))
    assert len(rows) == 124
    vsgrid.stop_screens()
    try:
        with pytest.raises(vsgrid.StoppedError):
            vsgrid.screen(vina_maps, lib, scoring="vina", output=str(part))
    finally:
        vsgrid.reset_stop()
    assert len(read_csv(part)) < 124  # whole rows of a prefix (here none: stopped before the first chunk)
    vsgrid.screen(vina_maps, lib, scoring="vina", output=str(part), resume=True)
    assert open(part).read() == open(full).read()


def test_dock_one_record_of_several(tmp_path, vina_maps):
    two = tmp_path / "two.pdbqt"
    text = open(BIOTIN).read()
    two.write_text(text + text)
    with pytest.raises(vsgrid.ArgumentError, match="more than one record"):
        vsgrid.dock(vina_maps, str(two), **QUICK)
    with pytest.raises(vsgrid.ArgumentError, match="no record 3 .the file has 2"):
        vsgrid.dock(vina_maps, str(two), record=3, **QUICK)
    one = vsgrid.dock(vina_maps, BIOTIN, **QUICK)
    second = vsgrid.dock(vina_maps, str(two), record=2, **QUICK)
    assert second.record == 2 and second.poses[0].score == one.poses[0].score
    assert len(vsgrid.dock(vina_maps, str(two), all_records=True, **QUICK)) == 2


def test_maps_warn_of_a_ligand_left_in_the_pocket(tmp_path):
    import warnings
    lines = [ln for ln in open(REC) if not ln.startswith("END")]
    lig = [ln for ln in open(BIOTIN) if ln.startswith(("ATOM", "HETATM"))]
    holo = tmp_path / "holo.pdbqt"
    holo.write_text("".join(lines) + "".join("HETATM" + ln[6:17] + "BTN" + ln[20:] for ln in lig))
    xyz = [[float(ln[30:38]), float(ln[38:46]), float(ln[46:54])] for ln in lig]
    c = [sum(p[k] for p in xyz) / len(xyz) for k in range(3)]
    vsgrid.capture_warnings()
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            vsgrid.maps(str(holo), box=c + [20, 20, 20], types=["C_H"], device="cpu")
            assert any("HETATM group BTN" in str(x.message) for x in w)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            vsgrid.maps(REC, box=c + [20, 20, 20], types=["C_H"], device="cpu")
            assert not any("HETATM group" in str(x.message) for x in w)
    finally:
        vsgrid.capture_warnings(False)


def test_dock_search_chosen_by_the_box(tmp_path, vina_maps):
    """No search given: detail in a box around the ligand, thorough in a 30 A box (over twice the
    ligand's own), as `vsgrid dock` chooses, each record's with all_records; a search given is kept."""
    r = vsgrid.dock(vina_maps, BIOTIN, device="cpu", poses=1)
    assert r.search == "detail" and r.chains == 128 and r.steps == 60
    p = str(tmp_path / "big")
    vsgrid.maps(REC, box=_center(vina_maps) + [30, 30, 30], prefix=p, device="cpu")
    r = vsgrid.dock(p, BIOTIN, device="cpu", poses=1, search="fast")
    assert r.search == "fast" and r.chains == 64
    r = vsgrid.dock(p, BIOTIN, device="cpu", poses=1, exhaustiveness=4, steps=10)
    assert r.chains == 4 and r.steps == 10
    (r,) = vsgrid.dock(p, [BIOTIN], device="cpu", poses=1, all_records=True)  # the one thorough search (CPU: ~10 s)
    assert r.search == "thorough" and r.chains == 512 and r.steps == 240 and r.poses[0].score["total"] < -5
