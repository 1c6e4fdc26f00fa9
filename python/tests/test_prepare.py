"""Receptor preparation (vsgrid.prepare): the text and summary `vsgrid prepare` gives, byte for
byte; the summary's counts equal the numbers of the command's report (a ctypes layout that
differs from vsg_prep_summary's reads other numbers and fails here)."""
import ctypes
import gzip
import os
import re
import subprocess

import pytest

import vsgrid
from vsgrid import _lib
from conftest import DATA, REPO, _cli

INHA = os.path.join(DATA, "inha", "receptor.pdb.gz")
MBO = os.path.join(DATA, "1mbo.cif.gz")

# The 1AJJ dipeptide of tests/cli_prepare.sh (Pro 4, Cys 5), a Ca2+ ion and a water.
with open(os.path.join(REPO, "tests", "data", "1ajj_pro4_cys5.pdb")) as _f:
    DIPEPTIDE = _f.read()

# Every vsg_prep_summary count, read from the report's lines (prepare.c's summary).
REPORT_NUMBERS = [
    (r"(\d+) atoms read, (\d+) written \((\d+) hydrogens and (\d+) heavy atoms added\)",
     ("atoms_in", "atoms_out", "h_added", "heavy_added")),
    (r"(\d+) amino acids \(His: (\d+) HID, (\d+) HIE by H-bond partner; (\d+) disulfides\), "
     r"(\d+) other groups kept, (\d+) waters (dropped|kept)(?: \([^)]*\))?, (\d+) alternate locations dropped",
     ("residues", "his_hid", "his_hie", "disulfides", "het_groups", "waters", "waters_how", "altlocs_dropped")),
    (r"(\d+) HIP, (\d+) ASH, (\d+) GLH, (\d+) LYN, (\d+) CYM; states kept as named in the input: (\d+)",
     ("his_hip", "asp_ash", "glu_glh", "lys_lyn", "cys_cym", "kept_named")),
]


def report_numbers(report):
    got = {}
    for pattern, names in REPORT_NUMBERS:
        m = re.search(pattern, report)
        assert m, "no %r in the report:\n%s" % (pattern, report)
        got.update(zip(names, m.groups()))
    waters = got.pop("waters")
    got["waters_dropped"] = waters if got.pop("waters_how") == "dropped" else "0"
    counts = {k: int(v) for k, v in got.items()}
    counts["total_charge"] = float(re.search(r"total charge ([-+]\d+\.\d+) e", report).group(1))
    return counts


def run_cli(*args):
    """`vsgrid prepare ARGS`: (exit status, stderr)."""
    c = _cli()
    if not os.access(c, os.X_OK):
        pytest.skip("no vsgrid command (set VSGRID_CLI)")
    r = subprocess.run([c, "prepare"] + [str(a) for a in args], capture_output=True, text=True)
    return r.returncode, r.stderr


def has_pdbqt():
    try:
        vsgrid.prepare(os.path.join(DATA, "1mbo.cif.gz"), format="pdbqt")
    except vsgrid.UnsupportedError:
        return False
    return True


@pytest.fixture(scope="module")
def named_inha(tmp_path_factory):
    """INHA with His 24 named HIP, Asp 18 ASH and Lys 57 LYN: states kept at any pH."""
    names = {"HIS    24": "HIP", "ASP    18": "ASH", "LYS    57": "LYN"}
    lines = []
    with gzip.open(INHA, "rt") as f:
        for line in f:
            new = names.get(line[17:26]) if line.startswith("ATOM") else None
            lines.append(line[:17] + new + line[20:] if new else line)
    path = tmp_path_factory.mktemp("prep") / "inha_named.pdb"
    path.write_text("".join(lines))
    return str(path)


@pytest.fixture(scope="module")
def dipeptide(tmp_path_factory):
    path = tmp_path_factory.mktemp("prep") / "dipeptide.pdb"
    path.write_text(DIPEPTIDE)
    return str(path)


CASES = {
    "inha-amber": (INHA, {}, [], "pqr"),
    "inha-parse": (INHA, {"forcefield": "parse"}, ["--ff", "parse"], "pqr"),
    "inha-ph4": (INHA, {"ph": 4.0}, ["--ph", "4.0"], "pqr"),
    "1mbo-cif-ph11": (MBO, {"ph": 11.0}, ["--ph", "11"], "pqr"),
    "1mbo-cif-waters-parse": (MBO, {"keep_waters": True, "forcefield": "parse"},
                              ["--keep-waters", "--ff", "parse"], "pqr"),
    "named": ("named", {"ph": 9.0}, ["--ph", "9"], "pqr"),
    "1mbo-pdbqt": (MBO, {}, [], "pdbqt"),
    "inha-pdbqt": (INHA, {}, [], "pdbqt"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_prepare_equals_command(case, tmp_path, named_inha):
    src, kwargs, args, fmt = CASES[case]
    src = named_inha if src == "named" else src
    if fmt == "pdbqt" and not has_pdbqt():
        pytest.skip("PDBQT: this libvsgrid has no Open Babel")
    ref = tmp_path / ("cli." + fmt)
    rc, err = run_cli(src, "-o", ref, *args)
    assert rc == 0, err
    out = tmp_path / ("py." + fmt)
    r = vsgrid.prepare(src, out=out, **kwargs)
    assert r.format == fmt
    assert ref.read_bytes() == out.read_bytes()      # REMARK names the input: the same
    assert r.text.encode() == ref.read_bytes()
    assert r.report + "wrote %s\n" % ref == err
    want = report_numbers(err)
    assert r.total_charge == pytest.approx(want.pop("total_charge"), abs=5e-5)
    assert r.counts == want                            # every count of vsg_prep_summary
    assert {k: getattr(r, k) for k in want} == want


def test_options_layout_matches_library_defaults():
    o = _lib.PrepOptions(ph=-1.0, ff=9, format=9, keep_waters=9)
    _lib.lib.vsg_prep_options_default(ctypes.byref(o))
    assert (o.ph, o.ff, o.format, o.keep_waters) == (7.4, _lib.VSG_PREP_AMBER, _lib.VSG_PREP_PQR, 0)
    assert ctypes.sizeof(_lib.PrepOptions) == 24 and ctypes.sizeof(_lib.PrepSummary) == 88   # LP64


def test_summary_numbers(named_inha):
    """Known numbers, so the layout check above compares non-zero fields."""
    r = vsgrid.prepare(INHA, ph=4.0)
    assert (r.atoms_in, r.atoms_out, r.h_added, r.residues, r.het_groups) == (1857, 3706 + 5 + 13 + 10, 1849 + 28,
                                                                               241, 1)
    assert (r.his_hip, r.asp_ash, r.glu_glh, r.lys_lyn, r.cys_cym, r.kept_named) == (5, 13, 10, 0, 0, 0)
    m = vsgrid.prepare(MBO, ph=11.0)
    assert (m.waters_dropped, m.altlocs_dropped, m.his_hid, m.his_hie, m.lys_lyn) == (334, 10, 5, 7, 19)
    n = vsgrid.prepare(named_inha, ph=9.0)
    assert (n.kept_named, n.his_hip, n.asp_ash, n.lys_lyn) == (3, 0, 0, 0)   # named: not the pH's


def test_total_charge_and_waters(dipeptide):
    r = vsgrid.prepare(dipeptide)
    assert r.total_charge == pytest.approx(2.0, abs=1e-4)    # NPRO + CCYS 0, Ca2+ +2
    assert (r.atoms_out, r.waters_dropped) == (29, 1) and "HOH" not in r.text
    w = vsgrid.prepare(dipeptide, keep_waters=True)
    assert (w.atoms_out, w.waters_dropped) == (32, 0)          # O, H1, H2 of the water
    assert len(re.findall(r"^HETATM.{11}HOH", w.text, re.M)) == 3
    assert w.total_charge == pytest.approx(2.0, abs=1e-4)
    assert "1 waters kept" in w.report and "1 waters dropped" in r.report


def test_molecule_of_prepared_text(dipeptide):
    for r in (vsgrid.prepare(INHA), vsgrid.prepare(dipeptide, forcefield="parse", keep_waters=True)):
        atoms = [line for line in r.text.splitlines() if line.startswith(("ATOM", "HETATM"))]
        m = r.molecule()
        assert len(m) == len(atoms) == r.atoms_out
        text_charge = sum(float(line[54:62]) for line in atoms)
        assert m.net_charge == pytest.approx(text_charge, abs=1e-6)
        assert m.net_charge == pytest.approx(r.total_charge, abs=1e-3)
        assert m.charges[0] == pytest.approx(float(atoms[0][54:62]))
    assert vsgrid.prepare(INHA).total_charge == pytest.approx(-5.0, abs=1e-3)   # protein -4, NAD -1


def test_pdbqt_molecule_and_format_choice(tmp_path):
    if not has_pdbqt():
        with pytest.raises(vsgrid.UnsupportedError) as e:
            vsgrid.prepare(MBO, format="pdbqt")
        assert "Open Babel" in str(e.value)
        pytest.skip("PDBQT: this libvsgrid has no Open Babel")
    r = vsgrid.prepare(MBO, out=tmp_path / "rec.pdbqt")
    assert r.format == "pdbqt" and (tmp_path / "rec.pdbqt").read_text() == r.text
    m = r.molecule()
    assert len(m) == r.atoms_out == 1535
    assert "Fe" in m.ad_types and "" not in m.ad_types
    assert vsgrid.prepare(MBO).format == "pqr"
    vsgrid.prepare(MBO, out=tmp_path / "rec.txt", format="pdbqt")
    assert (tmp_path / "rec.txt").read_bytes() == (tmp_path / "rec.pdbqt").read_bytes()


def test_molecule_read_takes_mmcif():
    m = vsgrid.Molecule.read(MBO)
    assert len(m) == vsgrid.prepare(MBO).atoms_out
    assert m.net_charge == pytest.approx(vsgrid.prepare(MBO).total_charge, abs=1e-3)


def test_errors(tmp_path, dipeptide):
    with pytest.raises(vsgrid.FileError) as e:
        vsgrid.prepare(tmp_path / "missing.pdb")
    assert "missing.pdb" in str(e.value) and e.value.status_name == "io"
    lines = DIPEPTIDE.splitlines(True)
    lines[2] = lines[2].replace("   2.242", "   2.2x2")
    bad = tmp_path / "bad.pdb"
    bad.write_text("".join(lines))
    with pytest.raises(vsgrid.FormatError) as e:
        vsgrid.prepare(bad)
    assert "bad.pdb:3" in str(e.value)
    rc, err = run_cli(bad, "-o", tmp_path / "bad.pqr")
    assert rc == 3 and e.value.detail in err
    with pytest.raises(ValueError):
        vsgrid.prepare(dipeptide, forcefield="charmm")
    with pytest.raises(ValueError):
        vsgrid.prepare(dipeptide, format="mol2")
    with pytest.raises(ValueError):
        vsgrid.prepare(dipeptide, out=tmp_path / "x.csv")
    with pytest.raises(ValueError):
        vsgrid.prepare(dipeptide, out=tmp_path / "x.pqr", format="pdbqt")
    with pytest.raises(vsgrid.ArgumentError) as e:
        vsgrid.prepare(dipeptide, ph=15)
    assert "pH" in str(e.value)
    assert not (tmp_path / "x.pqr").exists()
    with pytest.raises(vsgrid.FileError):
        vsgrid.prepare(dipeptide, out=tmp_path / "no" / "dir.pqr")
