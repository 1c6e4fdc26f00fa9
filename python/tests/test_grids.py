"""Grids: loading, saving and building match the command line."""
import os
import re

import numpy as np
import pytest

import vsgrid
from conftest import DATA


def info(cli, path):
    out = cli("info", path)
    n = [int(x) for x in re.search(r"grid (\d+) x (\d+) x (\d+)", out).groups()]
    origin = [float(x) for x in re.search(r"origin\s+(\S+) (\S+) (\S+)", out).groups()]
    spacing = [float(x) for x in re.search(r"spacing\s+(\S+) (\S+) (\S+)", out).groups()]
    units = re.search(r"units\s+(\S+)", out).group(1)
    vmin, vmax, mean = [float(x) for x in re.search(r"min (\S+)\s+max (\S+)\s+mean (\S+)", out).groups()]
    return n, origin, spacing, units, vmin, vmax, mean


def test_load_matches_info(cli, coulomb_grid):
    g = vsgrid.Grid.load(coulomb_grid)
    n, origin, spacing, units, vmin, vmax, mean = info(cli, coulomb_grid)
    assert list(g.shape) == n
    assert np.allclose(g.origin, origin, atol=1e-4)
    assert np.allclose(g.spacing, spacing)
    assert g.units == units == "kcal/mol/e"
    v = g.values
    assert v.shape == tuple(n) and v.dtype == np.float32
    assert v.min() == pytest.approx(vmin, abs=1e-3)
    assert v.max() == pytest.approx(vmax, abs=1e-3)
    assert float(v.mean(dtype=np.float64)) == pytest.approx(mean, rel=1e-5)
    assert g.metadata["method"] == "coulomb"


def test_values_layout_and_interpolation(coulomb_grid):
    g = vsgrid.Grid.load(coulomb_grid)
    v = g.values
    i, j, k = 3, 7, 11
    p = np.array(g.origin) + np.array([i, j, k]) * np.array(g.spacing)
    assert g.interpolate(p[None, :])[0] == pytest.approx(float(v[i, j, k]), abs=1e-5)
    assert np.isnan(g.interpolate(np.array([[1e4, 0.0, 0.0]]))[0])


def test_view_outlives_grid(coulomb_grid):
    v = vsgrid.Grid.load(coulomb_grid).values  # the grid object is gone; the view keeps it alive
    assert np.isfinite(v).all() and v.sum() != 0


def test_save_formats(coulomb_grid, tmp_path, cli):
    g = vsgrid.Grid.load(coulomb_grid)
    for name in ("a.vsg", "a.dx", "a.dx.gz"):
        g.save(tmp_path / name)
        h = vsgrid.Grid.load(tmp_path / name)
        assert h.shape == g.shape
        assert np.allclose(h.values, g.values, rtol=1e-5, atol=1e-5)
    g.save(tmp_path / "a.e.map")  # AutoGrid text, 3 decimals
    h = vsgrid.Grid.load(tmp_path / "a.e.map")
    assert np.allclose(h.values, g.values, atol=6e-4)
    assert info(cli, str(tmp_path / "a.vsg"))[0] == list(g.shape)


def test_from_array_roundtrip(tmp_path):
    a = np.arange(3 * 4 * 5, dtype=np.float64).reshape(3, 4, 5)
    g = vsgrid.Grid.from_array(a, origin=(1.0, 2.0, 3.0), spacing=0.5, units="kT/e")
    g.save(tmp_path / "r.vsg")
    h = vsgrid.Grid.load(tmp_path / "r.vsg")
    assert h.shape == (3, 4, 5) and h.units == "kT/e"
    assert np.array_equal(h.values, a.astype(np.float32))
    assert h.interpolate(np.array([[1.5, 2.0, 3.0]]))[0] == pytest.approx(a[1, 0, 0])


def test_coulomb_equals_cli(coulomb_grid):
    ref = vsgrid.Grid.load(coulomb_grid)
    g = vsgrid.coulomb(os.path.join(DATA, "fas2.pqr"), spacing=1.0, device="cpu")
    assert g.shape == ref.shape and np.allclose(g.origin, ref.origin, atol=1e-9)
    assert np.array_equal(g.values, ref.values)


def test_pb_equals_cli(cli, tmp_path):
    path = tmp_path / "pb.vsg"
    cli("grid", os.path.join(DATA, "fas2.pqr"), "--spacing", "1.0", "--salt", "0.15", "--device", "cpu", "--quiet",
        "-o", path)
    ref = vsgrid.Grid.load(path)
    g = vsgrid.pb(vsgrid.Molecule.read(os.path.join(DATA, "fas2.pqr")), spacing=1.0, salt=0.15, device="cpu")
    assert g.units == "kT/e" and g.shape == ref.shape
    assert g.report["converged"] == 1 and g.report["iterations"] > 0
    assert np.abs(g.values - ref.values).max() < 1e-4


def test_molecule_arrays():
    m = vsgrid.Molecule.read(os.path.join(DATA, "biotin.pdbqt"))
    assert len(m) == 18
    assert m.coordinates.shape == (18, 3) and m.coordinates.dtype == np.float64
    assert m.ad_types[:3] == ["C", "OA", "OA"]
    assert m.charges[1] == pytest.approx(-0.648)
    assert m.net_charge == pytest.approx(float(m.charges.sum()))
