"""Fixtures: the vsgrid command (VSGRID_CLI, else the build tree) makes the reference files the
Python module's results are compared with."""
import csv
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The package from this tree (python/vsgrid), unless VSGRID_TEST_INSTALLED=1 tests an installed copy.
if os.environ.get("VSGRID_TEST_INSTALLED") != "1":
    sys.path.insert(0, os.path.join(REPO, "python"))
DATA = os.path.join(REPO, "data")


def _cli():
    c = os.environ.get("VSGRID_CLI")
    if not c and os.environ.get("VSGRID_LIB"):
        c = os.path.join(os.path.dirname(os.environ["VSGRID_LIB"]), "vsgrid")
    if not c:
        c = os.path.join(REPO, "build", "vsgrid")
    return c


@pytest.fixture(scope="session")
def cli():
    c = _cli()
    if not os.access(c, os.X_OK):
        pytest.skip("no vsgrid command (set VSGRID_CLI)")

    def run(*args):
        r = subprocess.run([c] + [str(a) for a in args], capture_output=True, text=True)
        assert r.returncode == 0, "vsgrid %s: %s%s" % (" ".join(map(str, args)), r.stdout, r.stderr)
        return r.stdout
    return run


@pytest.fixture(scope="session")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("vsgrid_py")


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="session")
def vina_maps(cli, work):
    """Vina maps of 1STP around its biotin, by `vsgrid maps` (prefix)."""
    prefix = work / "vina" / "rec"
    cli("maps", os.path.join(DATA, "1stp_receptor.pdbqt"), "--scoring", "vina", "--around",
        os.path.join(DATA, "biotin.pdbqt"), "--device", "cpu", "--quiet", "-o", prefix)
    return str(prefix)


@pytest.fixture(scope="session")
def ad4_maps(cli, work):
    """The AutoDock4 map set of 1STP around its biotin, by `vsgrid maps --scoring ad4` (fld)."""
    prefix = work / "ad4" / "rec"
    cli("maps", os.path.join(DATA, "1stp_receptor.pdbqt"), "--scoring", "ad4", "--around",
        os.path.join(DATA, "biotin.pdbqt"), "--device", "cpu", "--quiet", "-o", prefix)
    return str(prefix) + ".maps.fld"


@pytest.fixture(scope="session")
def coulomb_grid(cli, work):
    """`vsgrid grid data/fas2.pqr --method coulomb --spacing 1` as .vsg."""
    path = work / "fas2_coulomb.vsg"
    cli("grid", os.path.join(DATA, "fas2.pqr"), "--method", "coulomb", "--spacing", "1.0", "--device", "cpu",
        "--quiet", "-o", path)
    return str(path)
