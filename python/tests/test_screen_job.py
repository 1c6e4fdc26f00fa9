"""vsgrid.screen, screen_shard and dask_screen on the library's screen job (vsg_screen_job_*, the
call `vsgrid screen` makes): rows equal the command's CSV field by field (numbers exactly as the
CSV prints them, empty fields None) for as-is AutoDock4 and electrostatic screens, Vina pose
scores, rigid placement and flexible docking; the arrays form; bad options and callbacks that stop
or raise; shards whose files equal `vsgrid screen --shard K/N`'s byte for byte, resumed after a
kill; a Dask LocalCluster campaign whose rows and merged files equal one run's.

The data: the first 6 records of data/inha/library.mol2.gz docked by the command (--search fast
--exhaustiveness 2 on the CPU twin, a few seconds) into the Vina maps of data/inha/receptor.pdbqt,
and their poses (plus a record without atoms) screened as they are."""
import csv
import filecmp
import logging
import os
import re
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import vsgrid
from conftest import DATA, REPO, _cli

INHA = os.path.join(DATA, "inha")
# the flexible screen of every test: the CLI's --search fast --exhaustiveness 2 --seed 3 --devices cpu
FLEX = dict(search="fast", exhaustiveness=2, seed=3)
FLEX_CLI = ["--search", "fast", "--exhaustiveness", "2", "--seed", "3", "--devices", "cpu"]
TEXT = ("name", "source", "status", "message", "posebusters_failed")
EMPTY_SDF = "empty\n  test\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n$$$$\n"


def run_cli(*args):
    r = subprocess.run([_cli()] + [str(a) for a in args], capture_output=True, text=True)
    assert r.returncode == 0, "vsgrid %s: %s%s" % (" ".join(map(str, args)), r.stdout, r.stderr)
    return r


@pytest.fixture(scope="module")
def inha(cli, tmp_path_factory):
    """Vina and AutoDock4 maps of INHA, 6 library records, their flexible screen by the command
    (flex.csv, poses.sdf) and the poses plus an empty record (posed.sdf) for the as-is screens."""
    import gzip
    d = tmp_path_factory.mktemp("screen_job")
    text = gzip.open(os.path.join(INHA, "library.mol2.gz"), "rt").read()
    recs = ["@<TRIPOS>MOLECULE" + r for r in text.split("@<TRIPOS>MOLECULE")[1:7]]
    (d / "lib6.mol2").write_text("".join(recs))
    rec, around = os.path.join(INHA, "receptor.pdbqt"), os.path.join(INHA, "crystal_ligand.mol2")
    cli("maps", rec, "--scoring", "vina", "--around", around, "--device", "cpu", "--quiet", "-o", d / "P")
    cli("maps", rec, "--scoring", "ad4", "--around", around, "--device", "cpu", "--quiet", "-o", d / "A")
    cli("screen", d / "P", d / "lib6.mol2", "--scoring", "vina", "--placement", "flexible", *FLEX_CLI, "--quiet",
        "-o", d / "flex.csv", "--poses-out", d / "poses.sdf")
    (d / "posed.sdf").write_text((d / "poses.sdf").read_text() + EMPTY_SDF)
    return {k: str(d / v) for k, v in dict(dir=".", vina="P", fld="A.maps.fld", emap="A.e.map", lib="lib6.mol2",
                                            flex="flex.csv", poses="poses.sdf", posed="posed.sdf").items()}


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def assert_rows_equal_csv(rows, path):
    """rows (screen()'s dicts) are the CSV's rows: same columns in the same order; text columns as
    written, numbers of the value and type the CSV's text reads as, empty fields None."""
    ref = read_csv(path)
    assert len(rows) == len(ref)
    for got, want in zip(rows, ref):
        assert list(got) == list(want)
        for k, text in want.items():
            v = got[k]
            if text == "":
                assert v is None, (k, v)
            elif k in TEXT:
                assert v == text, (k, v, text)
            elif re.fullmatch(r"-?\d+", text):
                assert type(v) is int and v == int(text), (k, v, text)
            else:
                assert type(v) is float and v == float(text), (k, v, text)


def assert_arrays_equal_csv(arrays, path):
    ref = read_csv(path)
    with open(path, newline="") as f:
        header = next(csv.reader(f))
    assert list(arrays) == header
    for k, a in arrays.items():
        assert a.shape == (len(ref),)
        if k in ("index", "record", "atoms"):
            assert a.dtype == np.int64 and a.tolist() == [int(r[k]) for r in ref]
        elif k in TEXT:
            assert a.dtype == object and a.tolist() == [r[k] for r in ref]
        else:
            assert a.dtype == np.float64
            want = np.array([float(r[k]) if r[k] != "" else np.nan for r in ref])
            assert np.array_equal(a, want, equal_nan=True), k


# ---- (a) rows equal the command's CSV ----------------------------------------------------
@pytest.mark.parametrize("kind", ["ad4", "elec", "vina"])
def test_asis_rows_equal_cli(inha, kind, tmp_path):
    target = {"ad4": inha["fld"], "elec": inha["emap"], "vina": inha["vina"]}[kind]
    extra = ["--scoring", "vina"] if kind == "vina" else ["--devices", "cpu"]
    ref = tmp_path / "cli.csv"
    run_cli("screen", target, inha["posed"], *extra, "--quiet", "-o", ref)
    kw = dict(scoring="vina") if kind == "vina" else {}
    mine = tmp_path / "py.csv"
    rows = vsgrid.screen(target, inha["posed"], output=mine, **kw)
    assert_rows_equal_csv(rows, ref)
    assert filecmp.cmp(mine, ref, shallow=False)  # output= writes the command's bytes
    assert rows[-1]["status"] == "no_atoms" and rows[-1]["score_kcal_mol"] is None
    assert sum(r["status"] == "ok" for r in rows) >= 5
    if kind == "ad4":
        assert rows[0]["ad4_intra"] is None and list(rows[0])[-1] == "ad4_intra"  # after message, as in the CSV


def test_flexible_rows_equal_cli(inha, tmp_path):
    mine, poses = tmp_path / "py.csv", tmp_path / "py.sdf"
    rows = vsgrid.screen(inha["vina"], inha["lib"], scoring="vina", placement="flexible", device="cpu",
                         output=mine, poses_out=poses, **FLEX)
    assert_rows_equal_csv(rows, inha["flex"])
    assert [r["status"] for r in rows] == ["ok"] * 6
    assert any(type(r["num_tors"]) is float for r in rows) and any(type(r["num_tors"]) is int for r in rows)
    assert filecmp.cmp(mine, inha["flex"], shallow=False)
    assert filecmp.cmp(poses, inha["poses"], shallow=False)
    # the pose file without a CSV (rows in memory only)
    only = tmp_path / "only.sdf"
    again = vsgrid.screen(inha["vina"], inha["lib"], scoring="vina", placement="flexible", poses_out=only, **FLEX)
    assert again == rows and filecmp.cmp(only, inha["poses"], shallow=False)


def test_rigid_and_best_per_molecule_rows_equal_cli(inha, tmp_path):
    ref = tmp_path / "rigid.csv"
    run_cli("screen", inha["fld"], inha["posed"], "--placement", "rigid", "--rotations", 24, "--site-step", 2,
            "--devices", "cpu", "--quiet", "-o", ref)
    rows = vsgrid.screen(inha["fld"], inha["posed"], placement="rigid", rotations=24, step=2.0)
    assert_rows_equal_csv(rows, ref)
    assert type(rows[0]["pose_index"]) is int and type(rows[0]["pose_qw"]) is float
    ref = tmp_path / "best.csv"
    run_cli("screen", inha["fld"], inha["posed"], "--best-per-molecule", "--devices", "cpu", "--quiet", "-o", ref)
    rows = vsgrid.screen(inha["fld"], inha["posed"], best_per_molecule=True)
    assert_rows_equal_csv(rows, ref)
    assert list(rows[0])[-2:] == ["ad4_intra", "records"] and len(rows) == 6  # CHEMBL424724 twice
    # Vina pose scores grouped by name too (issue 27): the same rows as the command's
    ref = tmp_path / "vbest.csv"
    run_cli("screen", inha["vina"], inha["posed"], "--scoring", "vina", "--best-per-molecule", "--quiet", "-o", ref)
    rows = vsgrid.screen(inha["vina"], inha["posed"], scoring="vina", best_per_molecule=True)
    assert_rows_equal_csv(rows, ref)
    assert list(rows[0])[-1] == "records" and len(rows) == 6


# ---- (b) arrays -----------------------------------------------------------------------------
def test_as_arrays_shapes_and_dtypes(inha, tmp_path):
    ref = tmp_path / "ad4.csv"
    a = vsgrid.screen(inha["fld"], inha["posed"], as_arrays=True, output=ref)
    assert_arrays_equal_csv(a, ref)
    assert a["status"][-1] == "no_atoms" and np.isnan(a["score_kcal_mol"][-1]) and a["message"][0] == ""
    assert all(type(x) is str for x in a["name"])
    rows = vsgrid.screen(inha["fld"], inha["posed"])
    assert vsgrid._arrays_to_rows(a) == rows  # the two forms hold the same rows
    v = vsgrid.screen(inha["vina"], inha["lib"], scoring="vina", placement="flexible", as_arrays=True, **FLEX)
    assert_arrays_equal_csv(v, inha["flex"])
    assert v["num_tors"].dtype == np.float64 and v["torsdof"].dtype == np.float64


# ---- (c) bad options ------------------------------------------------------------------------
def test_bad_options_raise_argument_error_with_the_message(inha, tmp_path):
    cases = [
        (dict(bogus_option=1), "unknown option '--bogus-option'"),
        (dict(scoring="vina", placement="flexible", exhaustiveness=0),
         "--exhaustiveness: '0' is not an integer in 1..1000000"),
        (dict(placement="flexible"), "--placement flexible docks on a Vina or Vinardo map set"),
        (dict(rotations=10), "need --placement rigid"),
        (dict(scoring="vina", placement="rigid"), "rigid placement works on an AutoDock4 map set"),
        (dict(charges="none"), "--charges: 'none' is not auto, file or gasteiger"),
        (dict(scoring="vina", placement="flexible", poses_out=str(tmp_path / "p.txt")),
         "--poses-out: '%s' is not a .pdbqt or .sdf file" % (tmp_path / "p.txt")),
    ]
    for kw, message in cases:
        target = inha["vina"] if kw.get("scoring") == "vina" else inha["fld"]
        with pytest.raises(vsgrid.ArgumentError) as e:
            vsgrid.screen(target, inha["posed"], **kw)
        assert message in str(e.value) and message in e.value.detail and e.value.status_name == "arg", (kw, e.value)
        assert isinstance(e.value, ValueError)
    # the command says the same
    r = subprocess.run([_cli(), "screen", inha["vina"], inha["posed"], "--scoring", "vina", "--placement", "flexible",
                        "--exhaustiveness", "0", "-o", tmp_path / "x.csv"], capture_output=True, text=True)
    assert r.returncode == 2 and "--exhaustiveness: '0' is not an integer in 1..1000000" in r.stderr
    # a library that cannot be opened is a row (status io), as in the command's CSV (which then exits 3)
    row, = vsgrid.screen(inha["fld"], tmp_path / "missing.sdf")
    assert row["status"] == "io" and "missing.sdf: cannot open" in row["message"] and row["score_kcal_mol"] is None
    with pytest.raises(vsgrid.FileError):
        vsgrid.screen(tmp_path / "missing.maps.fld", inha["posed"])
    with pytest.raises(ValueError):
        vsgrid.screen_shard(inha["fld"], [inha["posed"]], "3/3")  # K < N
    assert not os.listdir(tmp_path)  # nothing written on a refusal


# ---- (d) callbacks that stop or raise --------------------------------------------------------
class Boom(Exception):
    pass


KINDS = {
    "as-is": lambda inha: ((inha["fld"], inha["posed"]), {}),
    "vina": lambda inha: ((inha["vina"], inha["posed"]), dict(scoring="vina")),
    "flexible": lambda inha: ((inha["vina"], inha["lib"]), dict(scoring="vina", placement="flexible", **FLEX)),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_on_row_streams_stops_and_raises(inha, kind, tmp_path):
    args, kw = KINDS[kind](inha)
    seen = []
    report = vsgrid.screen(*args, on_row=seen.append, **kw)
    assert seen == vsgrid.screen(*args, **kw)
    assert report["records"] == len(seen) and report["kind"] == kind
    t0 = time.perf_counter()
    calls = []

    def stop(row):
        calls.append(row["index"])
        return False
    with pytest.raises(vsgrid.ArgumentError, match="stopped by the caller"):
        vsgrid.screen(*args, on_row=stop, output=tmp_path / "stopped.csv", **kw)
    assert calls == [0]  # never called again

    def boom(row):
        calls.append(row["index"])
        if row["index"] == 1:
            raise Boom("no more rows")
    with pytest.raises(Boom, match="no more rows"):
        vsgrid.screen(*args, on_row=boom, **kw)
    assert calls == [0, 0, 1]
    assert time.perf_counter() - t0 < 60  # nothing hangs
    assert vsgrid.screen(*args, **kw) == seen  # and the next screen runs as before


# ---- (e) shards ------------------------------------------------------------------------------
def test_screen_shard_rows_and_files_equal_cli(inha, tmp_path):
    cli_dir, py_dir = tmp_path / "cli", tmp_path / "py"
    cli_dir.mkdir()
    py_dir.mkdir()
    rows = []
    for k in range(3):
        run_cli("screen", inha["vina"], inha["lib"], "--scoring", "vina", "--placement", "flexible", *FLEX_CLI,
                "--shard", "%d/3" % k, "--quiet", "-o", cli_dir / ("shard_%d.csv" % k),
                "--poses-out", cli_dir / ("shard_%d.sdf" % k))
        part = vsgrid.screen_shard(inha["vina"], [inha["lib"]], k, 3, output=py_dir / ("shard_%d.csv" % k),
                                   scoring="vina", placement="flexible", devices="cpu",
                                   poses_out=py_dir / ("shard_%d.sdf" % k), **FLEX)
        assert_rows_equal_csv(part, cli_dir / ("shard_%d.csv" % k))
        rows += part
    assert_rows_equal_csv(rows, inha["flex"])  # the shards' rows are the whole screen's
    names = sorted(os.listdir(cli_dir))
    assert names == sorted(os.listdir(py_dir)) and "shard_2.csv.done" in names and len(names) == 9
    for name in names:
        assert filecmp.cmp(cli_dir / name, py_dir / name, shallow=False), name
    # a finished task returns at once, its rows read back, its files untouched
    stamp = os.stat(py_dir / "shard_1.csv").st_mtime_ns
    again = vsgrid.screen_shard(inha["vina"], [inha["lib"]], "1/3", output=py_dir / "shard_1.csv", scoring="vina",
                                placement="flexible", devices="cpu", poses_out=py_dir / "shard_1.sdf", **FLEX)
    assert again == rows[2:4] and os.stat(py_dir / "shard_1.csv").st_mtime_ns == stamp
    # without output: the rows, nothing left behind; as arrays
    a = vsgrid.screen_shard(inha["vina"], [inha["lib"]], "2/3", scoring="vina", placement="flexible",
                            devices="cpu", as_arrays=True, **FLEX)
    assert a["index"].tolist() == [4, 5] and vsgrid._arrays_to_rows(a) == rows[4:]
    # another screen's marker: refused
    with pytest.raises(vsgrid.DataError, match="another screen"):
        vsgrid.screen_shard(inha["vina"], [inha["lib"]], "1/3", output=py_dir / "shard_1.csv", scoring="vina",
                            placement="flexible", devices="cpu", poses_out=py_dir / "shard_1.sdf", search="fast",
                            exhaustiveness=3)


KILLED = textwrap.dedent("""
    import os, sys
    sys.path.insert(0, sys.argv[1])
    import vsgrid
    call = vsgrid._Rows.__call__
    def dying(self, ctx, p):  # killed inside the screen, after its 100th row
        if self.count == 100:
            os._exit(9)
        return call(self, ctx, p)
    vsgrid._Rows.__call__ = dying
    vsgrid.screen_shard(sys.argv[2], [sys.argv[3]], "1/2", output=sys.argv[4], scoring="vina")
""")


def test_screen_shard_resumes_after_a_kill(inha, tmp_path, capfd):
    lib = tmp_path / "many.sdf"
    lib.write_text(open(inha["poses"]).read() * 50 + EMPTY_SDF)  # 301 records: shard 1/2 has 151
    ref = tmp_path / "cli" / "shard_1.csv"
    ref.parent.mkdir()
    run_cli("screen", inha["vina"], lib, "--scoring", "vina", "--shard", "1/2", "--quiet", "-o", ref)
    out = tmp_path / "py" / "shard_1.csv"
    out.parent.mkdir()
    r = subprocess.run([sys.executable, "-c", KILLED, os.path.join(REPO, "python"), inha["vina"], str(lib), str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 9, r.stderr
    partial = tmp_path / "py" / "shard_1.csv.partial"
    assert not out.exists() and partial.exists()
    kept = open(partial).read().count("\n") - 1
    assert 0 < kept < 151, kept  # rows on disk when it died (the rest lost in buffers)
    rows = vsgrid.screen_shard(inha["vina"], [str(lib)], "1/2", output=out, scoring="vina", progress=True)
    assert "resuming" in capfd.readouterr().err
    assert_rows_equal_csv(rows, ref)
    assert rows[0]["index"] == 150 and rows[-1]["status"] == "no_atoms"
    for name in ("shard_1.csv", "shard_1.csv.done"):
        assert filecmp.cmp(tmp_path / "cli" / name, tmp_path / "py" / name, shallow=False), name
    assert sorted(os.listdir(tmp_path / "py")) == ["shard_1.csv", "shard_1.csv.done"]


# ---- (f) a Dask campaign ------------------------------------------------------------------------
def test_dask_screen_flexible_equals_one_run(inha, tmp_path):
    distributed = pytest.importorskip("distributed", reason="no dask distributed (apt-get install python3-distributed)")
    import warnings
    out = tmp_path / "campaign"
    opts = dict(scoring="vina", placement="flexible", devices="cpu", threads=1, poses_out="poses.sdf", **FLEX)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # tornado 6.2 under distributed 2022.12
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                      host="127.0.0.1", local_directory=str(tmp_path / "dask"),
                                      silence_logs=logging.ERROR) as cluster, distributed.Client(cluster) as client:
            arrays = vsgrid.dask_screen(client, inha["vina"], [inha["lib"]], 3, output_dir=out, **opts)
            workers = client.run(os.getpid)
            rows = vsgrid.dask_screen(client, inha["vina"], [inha["lib"]], 3, as_arrays=False,
                                      **dict(opts, poses_out=None))
    assert os.getpid() not in workers.values()
    assert_arrays_equal_csv(arrays, inha["flex"])
    assert_rows_equal_csv(rows, inha["flex"])
    shards = ["shard_%d%s" % (k, s) for k in range(3) for s in (".csv", ".csv.done", "_poses.sdf")]
    for k in range(3):
        assert_rows_equal_csv(vsgrid._arrays_to_rows({c: a[2 * k:2 * k + 2] for c, a in arrays.items()}),
                              out / ("shard_%d.csv" % k))
    if not vsgrid._lib.has("vsg_screen_merge"):
        assert sorted(os.listdir(out)) == sorted(shards)
        pytest.skip("the library has no vsg_screen_merge yet: the merged files are not checked")
    assert sorted(os.listdir(out)) == sorted(shards + ["all.csv", "all_poses.sdf"])
    assert filecmp.cmp(out / "all.csv", inha["flex"], shallow=False)
    assert filecmp.cmp(out / "all_poses.sdf", inha["poses"], shallow=False)
