"""Bad input: a clear exception, raised before C for arrays; struct layouts checked."""
import ctypes
import os

import numpy as np
import pytest

import vsgrid
from vsgrid import _lib
from conftest import DATA


def test_library_errors_carry_last_error(tmp_path):
    with pytest.raises(vsgrid.FileError) as e:
        vsgrid.Grid.load(tmp_path / "missing.vsg")
    assert "missing.vsg" in str(e.value) and e.value.status == -1 and e.value.status_name == "io"
    bad = tmp_path / "bad.dx"
    bad.write_text("object 1 class gridpositions counts x y z\n")
    with pytest.raises(vsgrid.Error) as e:
        vsgrid.Grid.load(bad)
    assert e.value.status in (-2, -8) and e.value.detail
    with pytest.raises(vsgrid.DataError):
        vsgrid.Molecule.read(os.path.join(DATA, "fas2.pqr"), format="pdb")
    assert isinstance(vsgrid.ArgumentError(-5, "x"), ValueError)


def test_wrong_arrays_raise_value_error(ad4_maps, coulomb_grid):
    ms = vsgrid.MapSet.load(ad4_maps)
    g = vsgrid.Grid.load(coulomb_grid)
    xyz = np.zeros((4, 3))
    q = np.zeros(4)
    t = ["C"] * 4
    bad = [
        (np.zeros((4, 2)), q, t),                 # not N x 3
        (np.zeros(12), q, t),                     # flat
        (np.zeros((2, 2, 4, 3)), q, t),           # 4-D
        (xyz.astype(np.int64), q, t),             # integers
        (xyz.astype(object), q, t),               # objects
        (xyz, np.zeros(5), t),                    # charges of another length
        (xyz, np.zeros((4, 1)), t),               # charges 2-D
        (xyz, q, ["C"] * 3),                      # types of another length
        (np.full((4, 3), np.nan), q, t),          # NaN
    ]
    for c, qq, tt in bad:
        with pytest.raises(ValueError):
            ms.score(c, qq, tt)
    with pytest.raises(ValueError):
        g.score(np.zeros((4, 2)), q)
    with pytest.raises(ValueError):
        ms.score(xyz, q, t, offsets=[0, 5])
    with pytest.raises(vsgrid.DataError):
        ms.score(xyz, q, ["Xx"] * 4)


def test_struct_layouts_match_library_defaults():
    p = _lib.PBParams()
    _lib.lib.vsg_pb_params_default(ctypes.byref(p))
    assert (p.spacing, p.box_mode, p.fill, p.padding) == (0.5, 0, 0.7, 8.0)
    assert (p.eps_in, p.eps_out, p.temperature, p.probe) == (2.0, 78.54, 298.15, 1.4)
    assert (p.surface, p.spline, p.bc, p.max_iter, p.check_every, p.precision, p.device, p.gpu_index) == \
        (1, 0, 2, 20000, 10, 2, 0, -1)
    assert p.max_memory == 8.0 * 2 ** 30
    d = _lib.DockParams()
    _lib.lib.vsg_dock_params_default(ctypes.byref(d))
    assert (d.seed, d.exhaustiveness, d.steps, d.poses, d.min_rmsd, d.random_start) == (0, 8, 0, 9, 1.0, 1)
    v = _lib.VinaParams()
    _lib.lib.vsg_vina_params_default(ctypes.byref(v))
    assert (v.scoring, v.tabulated) == (0, 1)
    assert vsgrid.library_version().startswith("0.")
    assert vsgrid.XS_TYPES[0] == "C_H" and vsgrid.XS_TYPES[-1] == "Met_D"


# Issue 27, item 9: messages that name what to do, as the command's (tests/cli_messages.sh).
BORON_SDF = """methylboronic_acid
     RDKit          3D

  4  3  0  0  0  0  0  0  0  0999 V2000
   14.9150    2.0360   -8.5620 C   0  0  0  0  0  0  0  0  0  0  0  0
   16.5070    1.9610   -8.6200 B   0  0  0  0  0  0  0  0  0  0  0  0
   17.3210    3.0680   -9.0750 O   0  0  0  0  0  0  0  0  0  0  0  0
   17.1290    0.9480   -7.7580 O   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
  2  3  1  0
  2  4  1  0
M  END
$$$$
"""


def test_messages_name_what_to_do(vina_maps, coulomb_grid, tmp_path):
    biotin = os.path.join(DATA, "biotin.pdbqt")
    with pytest.raises(vsgrid.Error) as e:                 # a Vina prefix screened without scoring="vina"
        vsgrid.screen(vina_maps, [biotin])
    assert "is a Vina map set" in str(e.value) and "--scoring vina" in str(e.value)
    with pytest.raises(vsgrid.ArgumentError) as e:         # flexible docking without Vina scoring
        vsgrid.screen(vina_maps, [biotin], placement="flexible")
    assert "--scoring vina" in str(e.value) and "vsgrid maps" in str(e.value)
    with pytest.raises(vsgrid.FileError) as e:             # dock on a PB/Coulomb grid
        vsgrid.dock(coulomb_grid, biotin, device="cpu")
    assert "is a PB/Coulomb grid, not a Vina map set" in str(e.value)
    assert "vsgrid maps REC.pdbqt --scoring vina --around LIG -o PREFIX" in str(e.value)
    pdb = tmp_path / "rec_pdb.pdbqt"                      # a PDB file named .pdbqt
    with open(os.path.join(DATA, "1stp_receptor.pdbqt")) as f:
        pdb.write_text("".join("%-76s%2s\n" % (l[:66], l[12:16].strip()[0]) for l in f if l.startswith("ATOM")))
    with pytest.raises(vsgrid.DataError) as e:
        vsgrid.Molecule.read(pdb)
    assert "looks like a PDB file, not PDBQT" in str(e.value) and "vsgrid prepare" in str(e.value)
    sdf = tmp_path / "boron.sdf"                          # boron: the atom, the element, the typed elements
    sdf.write_text(BORON_SDF)
    rows = vsgrid.screen(vina_maps, str(sdf), scoring="vina")
    assert rows[0]["status"] == "untyped"
    assert "atom 2 (line 6): element B has no AutoDock 4 type" in rows[0]["message"]
    assert "H C N O F P S Cl Br I" in rows[0]["message"]
