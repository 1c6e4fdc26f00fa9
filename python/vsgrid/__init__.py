"""vsgrid from Python: receptor preparation, grids, map sets, scores, screens and docking over the
public C API.

A thin ctypes layer over ``libvsgrid.so`` (grids/base/vsgrid.h, the one contract): no compiler
step. numpy is used when present (arrays in and out); RDKit molecules are accepted where a
ligand is taken when RDKit is installed, and so are SMILES strings, as :class:`Smiles` values (a
``str`` is always a path): both are prepared in 3D by the library (Open Babel) as a .smi library
is.

The library is found from, in order: the environment variable ``VSGRID_LIB`` (a path), a
``libvsgrid.so*`` next to this package (an installed copy), the repository's build tree
(``build/libvsgrid.so``), then ``ctypes.util.find_library("vsgrid")``.

Example::

    import vsgrid
    g = vsgrid.Grid.load("site.vsg")
    g.shape, g.origin, g.spacing, g.units
    phi = g.values                       # numpy view, g.values[i, j, k] is node (i, j, k)
    rec = vsgrid.Molecule.read("receptor.pqr")
    prep = vsgrid.prepare("1abc.cif.gz", out="receptor.pqr", ph=7.0)   # prep.report, prep.molecule()
    pb = vsgrid.pb(rec, spacing=0.5, salt=0.15)
    vsgrid.maps("receptor.pdbqt", scoring="vina", around="ligand.pdbqt", prefix="maps/rec")
    rows = vsgrid.screen("maps/rec", "library.sdf", scoring="vina")
    rows = vsgrid.screen("maps/rec", "library.sdf", scoring="vina", placement="flexible", search="fast")
    arrays = vsgrid.screen("site.maps.fld", "library.sdf", as_arrays=True)   # a numpy array per column
    part = vsgrid.screen_shard("maps/rec", ["library.sdf"], 3, 100, output="shard_3.csv", scoring="vina")
    arrays = vsgrid.dask_screen(client, "maps/rec", ["library.sdf"], 100, output_dir="out", scoring="vina")
    result = vsgrid.dock("maps/rec", "ligand.sdf", search="fast", seed=1)
    result.poses[0].score["total"], result.poses[0].coordinates
    rows = vsgrid.screen("maps/rec", [vsgrid.Smiles("CC(=O)O", "acetic acid"), rdkit_mol], scoring="vina",
                         placement="flexible", ph=7.4)     # SMILES and unembedded RDKit molecules
    vsgrid.read_ligands(vsgrid.Smiles("CC(=O)O"))[0]["elements"]   # acetate at pH 7.4: 7 atoms

Every failure of the C library raises :class:`Error` (a subclass per status: :class:`FileError`,
:class:`FormatError`, :class:`ArgumentError`, ...) whose message is ``vsg_last_error()``;
arrays of the wrong shape or type raise ``ValueError`` before any C call.
"""
import array as _array
import contextlib
import csv as _csv
import ctypes
import numbers as _numbers
import os
import re as _re
import shutil
import tempfile

from . import _lib
from ._lib import lib as _L

try:
    import numpy as _np
except ImportError:  # numpy is optional: lists then
    _np = None

__all__ = ["Error", "FileError", "FormatError", "NoMemoryError", "DeviceError", "ArgumentError", "LimitError",
           "ConvergenceError", "UnsupportedError", "DataError", "StoppedError", "stop_screens", "reset_stop", "Molecule", "Grid", "MapSet", "DockResult",
           "Pose", "PreparedReceptor", "prepare", "coulomb", "pb", "maps", "score", "screen", "screen_shard",
           "dask_screen", "merge_shards", "dock",
           "read_ligands", "rdkit_to_sdf", "Smiles", "write_smiles", "smiles_available", "smiles_rdkit_available",
           "capture_warnings", "LibraryWarning", "version", "library_version", "library_path", "gpu_count",
           "XS_TYPES"]

__version__ = "0.3.0"
library_path = _lib.path


def library_version():
    """The C library's version at run time ("0.3.0")."""
    return _L.vsg_version().decode()


version = library_version


def gpu_count():
    """Usable CUDA devices (0 in a build without CUDA or on a machine without a GPU)."""
    return int(_L.vsg_gpu_count())


XS_TYPES = [_L.vsg_xs_type_name(i).decode() for i in range(19)]


# ---- warnings ----------------------------------------------------------------------------
class LibraryWarning(UserWarning):
    """A warning of the C library (a skipped record, a GPU fallback, an unconverged level...)."""


_warning_callback = None


def capture_warnings(enable=True):
    """Route the library's warnings to Python's ``warnings`` module (:class:`LibraryWarning`),
    e.g. so that a notebook shows them (by default they are printed on the process's stderr,
    which a notebook kernel does not show). ``capture_warnings(False)`` restores stderr."""
    global _warning_callback
    import warnings

    if enable:
        def _on_warning(message, user):
            warnings.warn(_s(message) if message else "", LibraryWarning, stacklevel=2)
        _warning_callback = _lib.WARNING_FN(_on_warning)  # kept alive: the library holds it
        _L.vsg_set_warning_handler(ctypes.cast(_warning_callback, ctypes.c_void_p), None)
    else:
        _L.vsg_set_warning_handler(None, None)
        _warning_callback = None


# ---- errors ------------------------------------------------------------------------------
class Error(Exception):
    """A vsgrid call failed. ``status`` is the vsg_status (negative int), ``status_name`` its
    short name ("io", "format", ...), ``detail`` the library's ``vsg_last_error()``."""

    def __init__(self, status, detail):
        self.status = status
        self.status_name = _lib.STATUS_NAMES.get(status, str(status))
        self.detail = detail
        super().__init__("%s (%s)" % (detail or _L.vsg_status_text(status).decode(), self.status_name))


class FileError(Error, OSError):
    """VSG_E_IO: a file could not be opened, read or written."""


class FormatError(Error):
    """VSG_E_FORMAT: malformed or unsupported input."""


class NoMemoryError(Error, MemoryError):
    """VSG_E_NOMEM: out of host memory."""


class DeviceError(Error):
    """VSG_E_DEVICE: GPU unavailable or GPU error."""


class ArgumentError(Error, ValueError):
    """VSG_E_ARG: invalid argument or option."""


class LimitError(Error):
    """VSG_E_LIMIT: the request exceeds a memory or size limit."""


class ConvergenceError(Error):
    """VSG_E_CONVERGE: the solver did not converge."""


class UnsupportedError(Error):
    """VSG_E_UNSUPPORTED: a feature this build lacks (CUDA, Open Babel, MPI)."""


class DataError(Error):
    """VSG_E_DATA: input data inconsistent (missing charges, untyped atoms, ...)."""


class StoppedError(Error):
    """VSG_E_STOPPED: a screen stopped on request (:func:`stop_screens`, or a signal to the
    process); the rows it wrote are whole, and ``resume=True`` goes on from them."""


_ERRORS = {-1: FileError, -2: FormatError, -3: NoMemoryError, -4: DeviceError, -5: ArgumentError, -6: LimitError,
           -7: ConvergenceError, -8: UnsupportedError, -9: DataError, -10: StoppedError}


def stop_screens():
    """Asks every screen running in this process to stop between chunks (vsg_screen_stop; safe
    from another thread or a signal handler): each writes the rows of the records it scored and
    raises :class:`StoppedError`. The request holds until :func:`reset_stop`."""
    _L.vsg_screen_stop()


def reset_stop():
    """Clears a :func:`stop_screens` request, so that screens run again."""
    _L.vsg_screen_stop_reset()


def _error(status, detail=None):
    if detail is None:
        d = _L.vsg_last_error()
        detail = d.decode(errors="replace") if d else ""
    return _ERRORS.get(status, Error)(status, detail)


def _check(status):
    if status != _lib.VSG_OK:
        raise _error(status)


def _b(path):
    return os.fsencode(os.fspath(path))


def _s(raw):
    return raw.decode(errors="replace") if isinstance(raw, bytes) else raw


# ---- arrays ------------------------------------------------------------------------------
def _need_numpy(what):
    if _np is None:
        raise ImportError("vsgrid: %s needs numpy (apt-get install python3-numpy)" % what)


def _float_array(a, name, last=None, ndim=None):
    """a as a float array, checked: a ValueError (before any C call) for a non-numeric type or a
    wrong shape."""
    arr = _np.asarray(a)
    if arr.dtype.kind not in "f":
        raise ValueError("%s: expected floating-point values (float64), got dtype %s" % (name, arr.dtype))
    if ndim is not None and arr.ndim not in (ndim if isinstance(ndim, tuple) else (ndim,)):
        raise ValueError("%s: expected %s dimensions, got shape %s" % (name, ndim, arr.shape))
    if last is not None and (arr.ndim == 0 or arr.shape[-1] != last):
        raise ValueError("%s: expected shape (..., %d), got %s" % (name, last, arr.shape))
    if not _np.all(_np.isfinite(arr)):
        raise ValueError("%s: values must be finite" % name)
    return arr


# ---- molecules ---------------------------------------------------------------------------
class Molecule:
    """A receptor or ligand as vsg_molecule_read reads it (PQR, PDBQT, MOL2; PDB through
    vsg_receptor_read, prepared into PQR or PDBQT). Coordinates and charges come out as numpy
    arrays (copies)."""

    def __init__(self, handle, source=None):
        self._h = ctypes.c_void_p(handle)
        self.source = source

    @classmethod
    def read(cls, path, format=None, prepare="pqr"):
        """Reads a molecule. A PDB file (".pdb", ".ent", plain or gzipped) or a PDBx/mmCIF file
        (".cif", ".mmcif", plain or gzipped, or any file that opens a data_ block) is prepared
        first, as `vsgrid prepare` does with its default options, into ``prepare`` ("pqr": AMBER
        charges and radii, for potentials; "pdbqt": AutoDock types, for maps); :func:`prepare`
        takes the other options and returns the summary."""
        h = ctypes.c_void_p()
        p = os.fspath(path)
        if format is None and (p.lower().endswith((".pdb", ".ent", ".pdb.gz", ".ent.gz"))
                               or _L.vsg_receptor_is_pdb(_b(p))):
            kinds = {"pqr": 0, "pdbqt": 1}
            if prepare not in kinds:
                raise ValueError("prepare: 'pqr' or 'pdbqt', not %r" % (prepare,))
            rep = ctypes.c_void_p()
            st = _L.vsg_receptor_read(_b(p), kinds[prepare], ctypes.byref(h), ctypes.byref(rep))
            if rep.value:
                _lib.libc.free(rep)
            _check(st)
        else:
            _check(_L.vsg_molecule_read(_b(p), format.encode() if format else None, ctypes.byref(h)))
        return cls(h.value, p)

    def __del__(self):
        h = getattr(self, "_h", None)
        if h is not None and h.value:
            _L.vsg_molecule_free(h)
            self._h = None

    def __len__(self):
        return int(_L.vsg_molecule_atom_count(self._h))

    def atoms(self):
        """Every atom as a dict (x, y, z, charge, radius, name, residue_name, residue_number,
        chain, element, ad_type, serial, line)."""
        out = []
        a = _lib.AtomInfo()
        for i in range(len(self)):
            _check(_L.vsg_molecule_atom(self._h, i, ctypes.byref(a)))
            out.append({"x": a.x, "y": a.y, "z": a.z, "charge": a.charge, "radius": a.radius, "name": _s(a.name),
                        "residue_name": _s(a.residue_name), "residue_number": a.residue_number,
                        "chain": _s(a.chain), "element": _s(a.element), "ad_type": _s(a.ad_type),
                        "serial": a.serial, "line": a.line})
        return out

    def _column(self, key):
        return [a[key] for a in self.atoms()]

    @property
    def coordinates(self):
        """N×3 float64 array of the atoms' positions (Å), a copy."""
        rows = [(a["x"], a["y"], a["z"]) for a in self.atoms()]
        return _np.array(rows, dtype=_np.float64).reshape(-1, 3) if _np is not None else rows

    @property
    def charges(self):
        """N charges (e), a copy."""
        c = self._column("charge")
        return _np.array(c, dtype=_np.float64) if _np is not None else c

    @property
    def radii(self):
        c = self._column("radius")
        return _np.array(c, dtype=_np.float64) if _np is not None else c

    @property
    def ad_types(self):
        """AutoDock types (PDBQT), "" where unknown."""
        return self._column("ad_type")

    @property
    def elements(self):
        return self._column("element")

    @property
    def net_charge(self):
        return float(_L.vsg_molecule_net_charge(self._h))

    def write_pqr(self, path):
        """Writes the molecule as PQR (charges and radii vsgrid used)."""
        _check(_L.vsg_molecule_write_pqr(self._h, _b(path)))

    def __repr__(self):
        return "<vsgrid.Molecule %s: %d atoms>" % (self.source, len(self))


def _molecule(m, prepare="pqr"):
    return m if isinstance(m, Molecule) else Molecule.read(m, prepare=prepare)


# ---- receptor preparation ----------------------------------------------------------------
_PREP_FORMATS = {"pqr": _lib.VSG_PREP_PQR, "pdbqt": _lib.VSG_PREP_PDBQT}
_PREP_FORCEFIELDS = {"amber": _lib.VSG_PREP_AMBER, "parse": _lib.VSG_PREP_PARSE}


class PreparedReceptor:
    """A receptor prepared by :func:`prepare`: ``text`` (the PQR or PDBQT), ``report`` (the
    summary `vsgrid prepare` prints), ``format`` ("pqr" or "pdbqt"), ``total_charge`` (e) and
    every count of the C library's ``vsg_prep_summary`` under its name: atoms_in, atoms_out,
    h_added, heavy_added, residues, het_groups, waters_dropped, altlocs_dropped, his_hid, his_hie,
    disulfides, his_hip, asp_ash, glu_glh, lys_lyn, cys_cym, kept_named (``counts`` has them as
    a dict)."""

    def __init__(self, source, fmt, raw, summary):
        self.source = source
        self.format = fmt
        self._raw = raw
        self.text = raw.decode("utf-8", errors="surrogateescape")
        self.report = _s(summary.report or b"")
        self.total_charge = float(summary.total_charge)
        self.counts = {name: int(getattr(summary, name)) for name in _lib.PREP_COUNTS}
        for name, value in self.counts.items():
            setattr(self, name, value)

    def write(self, path):
        """Writes the text, the bytes `vsgrid prepare -o` writes."""
        try:
            with open(path, "wb") as f:
                f.write(self._raw)
        except OSError as e:
            raise FileError(-1, "cannot write %s: %s" % (os.fspath(path), e.strerror or e)) from e

    def molecule(self):
        """The prepared receptor as a :class:`Molecule` (read back through a temporary file, as
        the library's own vsg_receptor_read does)."""
        fd, tmp = tempfile.mkstemp(prefix="vsgrid-prepared-", suffix="." + self.format)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(self._raw)
            m = Molecule.read(tmp, format=self.format)
        finally:
            os.remove(tmp)
        m.source = self.source
        return m

    def __repr__(self):
        return "<vsgrid.PreparedReceptor %s: %s, %d atoms, total charge %+.4f e>" % (
            self.source, self.format, self.atoms_out, self.total_charge)


def _prep_format(out, format):
    if format is not None:
        _choice(_PREP_FORMATS, format, "format")
    if out is None:
        return format or "pqr"
    low = os.fspath(out).lower()
    by_name = "pdbqt" if low.endswith(".pdbqt") else "pqr" if low.endswith(".pqr") else None
    if format is None and by_name is None:
        raise ValueError("out: must end in .pqr or .pdbqt (or give format=), not %r" % (os.fspath(out),))
    if format is not None and by_name is not None and by_name != format:
        raise ValueError("format %r but out %r ends in .%s" % (format, os.fspath(out), by_name))
    return format or by_name


def prepare(path, out=None, forcefield="amber", format=None, ph=7.4, keep_waters=False):
    """Prepares a receptor from a PDB or PDBx/mmCIF file (plain or gzipped) as `vsgrid prepare`
    does: hydrogens, protonation at ``ph`` (model pKa values), charges and radii (``forcefield``
    "amber" or "parse", for PQR) or Gasteiger charges and AutoDock types (PDBQT), HETATM groups
    kept, waters dropped unless ``keep_waters``. ``format`` is "pqr" or "pdbqt": by default from
    ``out``'s extension, else "pqr". When ``out`` is given the file is written too. Returns a
    :class:`PreparedReceptor` (``text``, ``report``, the counts, ``total_charge``, ``write()``,
    ``molecule()``). Raises FileError (unreadable input), FormatError (a malformed record, named
    by file:line), ArgumentError/ValueError (bad options), UnsupportedError (PDBQT in a build
    without Open Babel)."""
    fmt = _prep_format(out, format)
    o = _lib.PrepOptions()
    _L.vsg_prep_options_default(ctypes.byref(o))
    o.ff = _choice(_PREP_FORCEFIELDS, forcefield, "forcefield")
    o.format = _PREP_FORMATS[fmt]
    o.ph = float(ph)
    o.keep_waters = 1 if keep_waters else 0
    p = os.fspath(path)
    text = ctypes.c_void_p()
    summary = _lib.PrepSummary()
    st = _L.vsg_receptor_prepare(_b(p), ctypes.byref(o), ctypes.byref(text), ctypes.byref(summary))
    try:
        _check(st)
        r = PreparedReceptor(p, fmt, ctypes.string_at(text), summary)
    finally:
        if text.value:
            _lib.libc.free(text)
        _L.vsg_prep_summary_free(ctypes.byref(summary))
    if out is not None:
        r.write(out)
    return r


# ---- grids -------------------------------------------------------------------------------
class Grid:
    """A 3-D grid (potential or map): node (i, j, k) is at ``origin + (i, j, k) * spacing``.

    ``values`` is a numpy view of the grid's own memory (no copy), indexed ``values[i, j, k]``
    (x fastest in memory, so the array is Fortran-ordered); it keeps the grid alive, and writing
    into it changes the grid. Without numpy, ``values`` is a list (a copy, x fastest)."""

    def __init__(self, handle):
        if not handle:
            raise _error(-3)
        self._h = ctypes.c_void_p(handle)
        self.report = None

    @classmethod
    def load(cls, path):
        """Reads a .vsg, .dx or .dx.gz grid or an AutoGrid/Vina .map (.map.gz)."""
        h = ctypes.c_void_p()
        _check(_L.vsg_grid_read(_b(path), ctypes.byref(h)))
        return cls(h.value)

    read = load

    def save(self, path):
        """Writes .vsg, .dx or .dx.gz (vsg_grid_write), or an AutoGrid .map (odd node counts and
        one spacing: vsg_autogrid_map_write)."""
        p = os.fspath(path)
        if p.endswith(".map"):
            _check(_L.vsg_autogrid_map_write(self._h, _b(p), None))
        else:
            _check(_L.vsg_grid_write(self._h, _b(p)))

    write = save

    @classmethod
    def from_array(cls, values, origin, spacing, units=""):
        """A new grid holding ``values`` (shape (nx, ny, nz), indexed [i, j, k]; copied)."""
        _need_numpy("Grid.from_array")
        v = _float_array(values, "values", ndim=3)
        sp = spacing if hasattr(spacing, "__len__") else (spacing,) * 3
        n = (ctypes.c_int * 3)(*v.shape)
        h = _L.vsg_grid_new(n, (ctypes.c_double * 3)(*map(float, origin)), (ctypes.c_double * 3)(*map(float, sp)),
                            units.encode())
        if not h:
            raise _error(-5)
        g = cls(h)
        g.values[...] = v
        return g

    def __del__(self):
        h = getattr(self, "_h", None)
        if h is not None and h.value:
            _L.vsg_grid_free(h)
            self._h = None

    def _shape(self):
        s = _lib.GridShape()
        _check(_L.vsg_grid_shape_of(self._h, ctypes.byref(s)))
        return s

    @property
    def shape(self):
        """Node counts (nx, ny, nz)."""
        return tuple(self._shape().n)

    @property
    def origin(self):
        """Position of node (0, 0, 0), Å."""
        return tuple(self._shape().origin)

    @property
    def spacing(self):
        """Spacing per axis, Å."""
        return tuple(self._shape().spacing)

    @property
    def units(self):
        """"kT/e" (PB), "kcal/mol/e" (Coulomb, e maps), "kcal/mol" (affinity maps)."""
        return _s(self._shape().units)

    @property
    def metadata(self):
        """The grid's "key = value" metadata as a dict (method, parameters, receptor checksum...)."""
        text = _L.vsg_grid_metadata(self._h)
        out = {}
        for line in (_s(text) or "").splitlines():
            if "=" in line:
                k, v = line.split("=", 1)
                out[k.strip()] = v.strip()
        return out

    @property
    def values(self):
        n = self.shape
        total = n[0] * n[1] * n[2]
        ptr = _L.vsg_grid_values(self._h)
        if not ptr:
            raise _error(-5, "grid without values")
        if _np is None:
            return ptr[:total]
        buf = (ctypes.c_float * total).from_address(ctypes.addressof(ptr.contents))
        buf._vsgrid_owner = self  # the view keeps the grid alive
        return _np.ctypeslib.as_array(buf).reshape(n, order="F")

    def interpolate(self, points):
        """Trilinear values at points (N×3, Å); NaN outside the grid."""
        _need_numpy("Grid.interpolate")
        pts = _float_array(points, "points", last=3).reshape(-1, 3)
        out = _np.empty(len(pts))
        v = ctypes.c_double()
        for i, (x, y, z) in enumerate(pts):
            st = _L.vsg_grid_interpolate(self._h, float(x), float(y), float(z), ctypes.byref(v))
            out[i] = v.value if st == 0 else _np.nan
        _L.vsg_clear_error()
        return out

    def score(self, coordinates, charges, temperature=298.15, offsets=None):
        """Electrostatic energy E = f Σ q φ(r) (kcal/mol; f = kT for a kT/e grid, 1 for
        kcal/mol/e) of poses: see :func:`score`."""
        g = _lib.ScoreGrids()
        _check(_L.vsg_score_grids_from_grid(self._h, float(temperature), ctypes.byref(g)))
        return _score(g, coordinates, charges, None, offsets, self)

    def __repr__(self):
        s = self._shape()
        return "<vsgrid.Grid %dx%dx%d, origin %s, spacing %s, %s>" % (
            tuple(s.n) + (tuple(round(x, 4) for x in s.origin), tuple(s.spacing), _s(s.units)))


_DEVICES = {"auto": 0, "cpu": 1, "gpu": 2}


def _device(device):
    if isinstance(device, int) and not isinstance(device, bool):
        return 2, device
    if device not in _DEVICES:
        raise ValueError("device: 'auto', 'cpu', 'gpu' or a GPU number, not %r" % (device,))
    return _DEVICES[device], -1


def _box_params(p, spacing, box, around, padding, fill):
    """Fills the box options of a vsg_pb_params; returns objects that must outlive the call."""
    keep = []
    if spacing is not None:
        p.spacing = float(spacing)
    if box is not None and around is not None:
        raise ValueError("give box or around, not both")
    if box is not None:
        b = list(box)
        if len(b) == 2:
            b = list(b[0]) + list(b[1])
        if len(b) != 6:
            raise ValueError("box: (cx, cy, cz, sx, sy, sz) or ((cx, cy, cz), (sx, sy, sz))")
        p.box_mode = 1
        p.box_center[:] = [float(x) for x in b[:3]]
        p.box_size[:] = [float(x) for x in b[3:]]
    elif around is not None:
        m = _molecule(around)
        keep.append(m)
        p.box_mode = 2
        p.around = m._h.value
        if padding is not None:
            p.padding = float(padding)
    if fill is not None:
        p.fill = float(fill)
    return keep


def coulomb(receptor, spacing=0.5, box=None, around=None, padding=None, fill=None, dielectric="mehler-solmajer",
            autogrid=False, device="auto"):
    """The direct Coulomb potential grid of a receptor (kcal/mol/e), as `vsgrid grid --method
    coulomb`: the box from ``box`` ((cx, cy, cz, sx, sy, sz), Å), ``around`` (a molecule or file:
    its extent plus ``padding``, default 8 Å) or else the receptor's extent / ``fill`` (0.7);
    ``dielectric`` "mehler-solmajer" (default), "4r" or a constant (a number); ``autogrid`` True
    for AutoGrid4's exact conventions; ``device`` "auto" (the GPU when usable, else the CPU
    twin), "cpu", "gpu" or a GPU number."""
    m = _molecule(receptor)
    p = _lib.PBParams()
    _L.vsg_pb_params_default(ctypes.byref(p))
    keep = _box_params(p, spacing, box, around, padding, fill)
    lv = _lib.Level()
    _check(_L.vsg_fine_level(m._h, ctypes.byref(p), ctypes.byref(lv)))
    if dielectric in ("mehler-solmajer", "ms"):
        model, eps = 2, 0.0
    elif dielectric == "4r":
        model, eps = 1, 0.0
    elif isinstance(dielectric, (int, float)) and dielectric > 0:
        model, eps = 0, float(dielectric)
    else:
        raise ValueError("dielectric: 'mehler-solmajer', '4r' or a number > 0, not %r" % (dielectric,))
    h = _L.vsg_grid_new(lv.n, lv.origin, (ctypes.c_double * 3)(lv.h, lv.h, lv.h), b"kcal/mol/e")
    if not h:
        raise _error(-3)
    g = Grid(h)
    k = _lib.CoulombKernel()
    _check(_L.vsg_coulomb_kernel_make(model, eps, 1 if autogrid else 0, ctypes.byref(k)))
    try:
        kind, gpu = _device(device)
        st = -8
        if kind == 2 or (kind == 0 and gpu_count() > 0):
            st = _L.vsg_coulomb_gpu(m._h, ctypes.byref(k), g._h, gpu, None)
            if st != 0 and kind == 2:
                _check(st)
        if st != 0:
            _check(_L.vsg_coulomb_cpu(m._h, ctypes.byref(k), g._h))
    finally:
        _L.vsg_coulomb_kernel_free(ctypes.byref(k))
    del keep
    return g


_SURFACES = {"vdw": 0, "ses": 1, "smooth": 2}
_BCS = {"zero": 0, "sdh": 1, "mdh": 2, "dipole": 3, "focus": 4}
_PRECISIONS = {"double": 0, "float": 1, "auto": 2}


def _choice(table, value, name):
    if value not in table:
        raise ValueError("%s: one of %s, not %r" % (name, ", ".join(table), value))
    return table[value]


def pb(receptor, spacing=0.5, box=None, around=None, padding=None, fill=None, eps_in=2.0, eps_out=78.54,
       temperature=298.15, salt=None, ions=None, ion_radius=2.0, surface="ses", probe=1.4, bc="mdh",
       nonlinear=False, tol=0.0, max_iter=20000, precision="auto", device="auto", threads=0):
    """The receptor's Poisson–Boltzmann potential (kT/e), as `vsgrid grid`: box options as in
    :func:`coulomb`; ``salt`` a 1:1 salt (mol/L, ions of ``ion_radius`` Å) or ``ions`` a list of
    (charge, molar, radius); ``surface`` "ses", "vdw" or "smooth"; ``bc`` "mdh", "sdh",
    "dipole", "zero" or "focus" (automatic focusing); ``precision`` "auto", "double" or
    "float"; ``device`` "auto", "cpu", "gpu" or a GPU number. The returned grid's ``report``
    holds the solve's report (iterations, converged, seconds, energy_kt, device, ...)."""
    m = _molecule(receptor)
    p = _lib.PBParams()
    _L.vsg_pb_params_default(ctypes.byref(p))
    keep = _box_params(p, spacing, box, around, padding, fill)
    _pb_options(p, dict(eps_in=eps_in, eps_out=eps_out, temperature=temperature, salt=salt, ions=ions,
                        ion_radius=ion_radius, surface=surface, probe=probe, bc=bc, nonlinear=nonlinear, tol=tol,
                        max_iter=max_iter, precision=precision, threads=threads))
    p.device, p.gpu_index = _device(device)
    h = ctypes.c_void_p()
    rep = _lib.PBReport()
    _check(_L.vsg_pb_solve(m._h, ctypes.byref(p), ctypes.byref(h), ctypes.byref(rep)))
    g = Grid(h.value)
    g.report = _struct_dict(rep)
    del keep
    return g


_PB_KEYS = ("eps_in", "eps_out", "temperature", "salt", "ions", "ion_radius", "surface", "probe", "bc", "nonlinear",
            "tol", "max_iter", "precision", "threads")


def _pb_options(p, o):
    """Sets the physics and solver options of a vsg_pb_params from pb()'s keywords (those given)."""
    unknown = set(o) - set(_PB_KEYS)
    if unknown:
        raise ValueError("unknown PB option(s): %s" % ", ".join(sorted(unknown)))
    d = dict(eps_in=p.eps_in, eps_out=p.eps_out, temperature=p.temperature, salt=None, ions=None, ion_radius=2.0,
             probe=p.probe, nonlinear=p.nonlinear, tol=p.tol, max_iter=p.max_iter, threads=p.threads)
    d.update(o)
    eps_in, eps_out, temperature = d["eps_in"], d["eps_out"], d["temperature"]
    salt, ions, ion_radius = d["salt"], d["ions"], d["ion_radius"]
    p.eps_in, p.eps_out, p.temperature = float(eps_in), float(eps_out), float(temperature)
    species = []
    if salt:
        species += [(1.0, float(salt), float(ion_radius)), (-1.0, float(salt), float(ion_radius))]
    for ion in ions or []:
        species.append(tuple(float(x) for x in ion))
    if len(species) > _lib.VSG_MAX_IONS:
        raise ValueError("at most %d ion species" % _lib.VSG_MAX_IONS)
    p.n_ions = len(species)
    for i, (q, c, r) in enumerate(species):
        p.ions[i].charge, p.ions[i].molar, p.ions[i].radius = q, c, r
    if "surface" in d:
        p.surface = _choice(_SURFACES, d["surface"], "surface")
    p.probe = float(d["probe"])
    if "bc" in d:
        p.bc = _choice(_BCS, d["bc"], "bc")
    p.nonlinear = 1 if d["nonlinear"] else 0
    p.tol = float(d["tol"])
    p.max_iter = int(d["max_iter"])
    if "precision" in d:
        p.precision = _choice(_PRECISIONS, d["precision"], "precision")
    p.threads = int(d["threads"])


def _struct_dict(s):
    out = {}
    for name, _t in s._fields_:
        v = getattr(s, name)
        if isinstance(v, bytes):
            v = _s(v)
        elif hasattr(v, "__len__") and not isinstance(v, str):
            v = list(v)
        out[name] = v
    return out


# ---- AutoDock4 map sets and scores of arrays ---------------------------------------------
class MapSet:
    """An AutoGrid4 map set (.maps.fld and its maps), for AutoDock4 scores of poses."""

    def __init__(self, handle, path):
        self._h = ctypes.c_void_p(handle)
        self.path = path

    @classmethod
    def load(cls, fld_path):
        h = ctypes.c_void_p()
        _check(_L.vsg_mapset_read(_b(fld_path), ctypes.byref(h)))
        return cls(h.value, os.fspath(fld_path))

    read = load

    def __del__(self):
        h = getattr(self, "_h", None)
        if h is not None and h.value:
            _L.vsg_mapset_free(h)
            self._h = None

    @property
    def types(self):
        """The ligand atom types that have a map ("A", "C", "OA", ...), in the fld's order."""
        g = _L.vsg_mapset_grids(self._h).contents
        return [_s(g.types[i].value) for i in range(g.nmaps) if i not in (g.e_map, g.d_map)]

    def map(self, type_name):
        """The map of one type ("OA", or "e" / "d") as a Grid (read from its file)."""
        g = _L.vsg_mapset_grids(self._h).contents
        for i in range(g.nmaps):
            if _s(g.types[i].value) == type_name:
                return Grid.load(_s(_L.vsg_mapset_map_path(self._h, i)))
        raise KeyError(type_name)

    def score(self, coordinates, charges, types, offsets=None):
        """AutoDock4 intermolecular energies (as autodock4's epdb) of poses: see :func:`score`."""
        g = _L.vsg_mapset_grids(self._h).contents
        if types is None:
            raise ValueError("types: an AutoDock type per atom is needed on a map set")
        idx = []
        for t in types:
            k = _L.vsg_mapset_type_index(self._h, str(t).encode())
            if k == _lib.VSG_SCORE_NO_TYPE:
                raise DataError(-9, "atom type '%s' has no map in %s" % (t, self.path))
            idx.append(k)
        return _score(g, coordinates, charges, idx, offsets, self)

    def __repr__(self):
        return "<vsgrid.MapSet %s: %s>" % (self.path, ",".join(self.types))


def _score(grids, coordinates, charges, type_index, offsets, owner):
    _need_numpy("scoring arrays")
    xyz = _float_array(coordinates, "coordinates", last=3, ndim=(2, 3))
    q = _float_array(charges, "charges", ndim=1)
    natoms = xyz.shape[-2]
    if q.shape[0] != natoms:
        raise ValueError("charges: %d values for %d atoms" % (q.shape[0], natoms))
    if type_index is not None and len(type_index) != natoms:
        raise ValueError("types: %d values for %d atoms" % (len(type_index), natoms))
    if xyz.ndim == 3:  # P poses of one molecule
        npose = xyz.shape[0]
        if offsets is not None:
            raise ValueError("offsets: only with 2-D coordinates")
        start = _np.arange(npose + 1, dtype=_np.uint32) * natoms
        flat = xyz.reshape(-1, 3)
        qq = _np.tile(q, npose)
        tt = _np.tile(_np.asarray(type_index, dtype=_np.uint8), npose) if type_index is not None else None
    else:
        if offsets is None:
            start = _np.array([0, natoms], dtype=_np.uint32)
        else:
            start = _np.asarray(offsets)
            if start.ndim != 1 or start.dtype.kind not in "iu" or len(start) < 2 or start[0] != 0 \
                    or start[-1] != natoms or _np.any(_np.diff(start) < 0):
                raise ValueError("offsets: L+1 increasing integers from 0 to the atom count %d" % natoms)
            start = start.astype(_np.uint32)
        flat, qq = xyz, q
        tt = _np.asarray(type_index, dtype=_np.uint8) if type_index is not None else None
    nlig = len(start) - 1
    # The C batch is float32 structure-of-arrays (what every kernel scores): these are copies.
    x = _np.ascontiguousarray(flat[:, 0], dtype=_np.float32)
    y = _np.ascontiguousarray(flat[:, 1], dtype=_np.float32)
    z = _np.ascontiguousarray(flat[:, 2], dtype=_np.float32)
    qf = _np.ascontiguousarray(qq, dtype=_np.float32)
    b = _lib.ScoreBatch()
    b.nlig, b.natoms = nlig, len(flat)
    b.start = start.ctypes.data_as(_lib.c_uint32_p)
    b.x, b.y, b.z = (a.ctypes.data_as(_lib.c_float_p) for a in (x, y, z))
    b.q = qf.ctypes.data_as(_lib.c_float_p)
    if tt is not None:
        tt = _np.ascontiguousarray(tt)
        b.type = tt.ctypes.data_as(_lib.c_uint8_p)
    res = (_lib.ScoreResult * nlig)()
    _check(_L.vsg_score_cpu(ctypes.byref(grids), ctypes.byref(b), res))
    out = {k: _np.array([getattr(r, k) for r in res]) for k in ("total", "elec", "vdw_hb", "desolv")}
    out["outside"] = _np.array([r.outside for r in res], dtype=_np.int64)
    del owner
    return out


def score(target, coordinates, charges, types=None, offsets=None, temperature=298.15):
    """Scores poses given as arrays, on the CPU twin (double precision).

    ``target``: a :class:`Grid` (electrostatics, E = f·Σ q φ), a :class:`MapSet` or a path (a
    .maps.fld, or a grid file). ``coordinates``: N×3 float64 (one pose) or P×N×3 (P poses of
    the same atoms); ``charges``: N; ``types``: N AutoDock types (map sets only);
    ``offsets``: with N×3 coordinates holding several ligands, L+1 atom offsets.
    Returns a dict of arrays, one entry a pose or ligand: total, elec, vdw_hb, desolv
    (kcal/mol) and outside (atoms outside the grid). The coordinates are copied into float32
    arrays (the C batch's type), so a score equals the screen's for the same atoms."""
    if not isinstance(target, (Grid, MapSet)):
        p = os.fspath(target)
        target = MapSet.load(p) if p.endswith(".fld") else Grid.load(p)
    if isinstance(target, MapSet):
        return target.score(coordinates, charges, types, offsets)
    return target.score(coordinates, charges, temperature, offsets)


# ---- Vina / Vinardo map sets -------------------------------------------------------------
def _autobox(ligand, padding):
    """vina --autobox around a ligand file or RDKit molecule: (center, size)."""
    with _LigandFile(ligand) as path:
        xyz = [tuple(c) for c in _records(path)[0]["coordinates"]]
    n = len(xyz)
    c = [sum(p[k] for p in xyz) / n for k in range(3)]
    import math
    size = [math.ceil(2 * (max(abs(p[k] - c[k]) for p in xyz) + padding)) for k in range(3)]
    return c, size


def maps(receptor, scoring="vina", box=None, around=None, padding=4.0, spacing=0.375, types=None, prefix=None,
         device="auto", analytic=False, ligand_types=None, elec=None, elec_weight=None, pb_options=None):
    """A receptor's Vina or Vinardo map set on a box, as `vsgrid maps --scoring vina|vinardo`:
    one affinity map per ligand XS type (``types``: XS or AutoDock names; default all 19),
    written to ``prefix``.<type>.map when ``prefix`` is given (then `vsgrid.dock(prefix, ...)`
    and `vina --maps prefix` read them). The box is ``box`` = (cx, cy, cz, sx, sy, sz) or
    ``around`` a ligand (file or RDKit molecule; vina's --autobox with ``padding``).
    Returns a dict XS type -> :class:`Grid`.

    ``scoring="ad4"``: the AutoDock4 map set `vsgrid maps --scoring ad4 -o PREFIX` writes (the
    same files: PREFIX.gpf, one PREFIX.<T>.map per ligand type, PREFIX.e.map, PREFIX.d.map,
    PREFIX.maps.fld/.xyz), composed here from the public calls the command uses
    (vsg_ad4_gpf_for_box, vsg_gpf_write/read, the Coulomb e map in AutoGrid mode or
    vsg_pb_map_fill, vsg_ad4_maps_cpu/gpu, vsg_autogrid_maps_write, vsg_autogrid_fld_write).
    ``ligand_types``: AutoDock types (default A,C,NA,OA,N,SA,HD,F,Cl,Br,I,P,S then the
    ``around`` ligand's other types); ``elec`` "coulomb" (default) or "pb" (the receptor's
    PB potential, ``pb_options`` as keywords of :func:`pb`: eps_in, eps_out, salt, ...;
    ``elec_weight`` default AutoDock4's 0.1406). Returns the :class:`MapSet`."""
    sf = {"vina": 0, "vinardo": 1}
    if scoring == "ad4":
        if types is not None:
            raise ValueError("types names Vina's XS types: for ad4 give ligand_types")
        if prefix is None:
            raise ValueError("scoring='ad4' writes a map set: give prefix")
        return _ad4_maps(receptor, box, around, padding, spacing, ligand_types, prefix, device, elec, elec_weight,
                         pb_options or {})
    if elec is not None or ligand_types is not None or pb_options:
        raise ValueError("elec, ligand_types and pb_options are for scoring='ad4'")
    if scoring not in sf:
        raise ValueError("scoring: 'vina', 'vinardo' or 'ad4', not %r" % (scoring,))
    if (box is None) == (around is None):
        raise ValueError("give exactly one of box and around")
    vb = _lib.VinaBox()
    if box is not None:
        b = list(box)
        if len(b) == 2:
            b = list(b[0]) + list(b[1])
        if len(b) != 6:
            raise ValueError("box: (cx, cy, cz, sx, sy, sz)")
        vb.center[:], vb.size[:] = [float(v) for v in b[:3]], [float(v) for v in b[3:]]
    else:
        c, s = _autobox(around, float(padding))
        vb.center[:], vb.size[:] = c, [float(v) for v in s]
    vb.spacing = float(spacing)
    xs = []
    for t in (types or XS_TYPES):
        out2 = (ctypes.c_int * 2)()
        n = ctypes.c_int()
        _check(_L.vsg_xs_types_from_name(str(t).encode(), out2, ctypes.byref(n)))
        for k in range(n.value):
            if out2[k] not in xs:
                xs.append(out2[k])
    if not xs:
        raise ValueError("types: no XS type")
    m = Molecule.read(receptor, prepare="pdbqt") if not isinstance(receptor, Molecule) else receptor
    # a co-crystallised ligand left in the receptor at the box's centre: warned, as `vsgrid maps` does
    _L.vsg_receptor_warn_box_group(m._h, None, b"maps", vb.center, vb.size)
    vp = _lib.VinaParams()
    _L.vsg_vina_params_default(ctypes.byref(vp))
    vp.scoring = sf[scoring]
    vp.tabulated = 0 if analytic else 1
    tv = (ctypes.c_int * len(xs))(*xs)
    out = (ctypes.c_void_p * len(xs))()
    kind, gpu = _device(device)
    st = -8
    if kind == 2 or (kind == 0 and gpu_count() > 0):
        st = _L.vsg_vina_maps_gpu(m._h, ctypes.byref(vb), ctypes.byref(vp), tv, len(xs), gpu,
                                  0.0, ctypes.cast(out, ctypes.POINTER(ctypes.c_void_p)))
        if st != 0 and kind == 2:
            _check(st)
    if st != 0:
        _check(_L.vsg_vina_maps_cpu(m._h, ctypes.byref(vb), ctypes.byref(vp), tv, len(xs),
                                    ctypes.cast(out, ctypes.POINTER(ctypes.c_void_p))))
    grids = {XS_TYPES[t]: Grid(out[i]) for i, t in enumerate(xs)}
    if prefix is not None:
        d = os.path.dirname(os.fspath(prefix))
        if d:
            os.makedirs(d, exist_ok=True)
        macro = os.path.basename(m.source or "receptor").encode()
        for t, g in grids.items():
            _check(_L.vsg_vina_map_write_scored(g._h, _b("%s.%s.map" % (os.fspath(prefix), t)), macro, sf[scoring]))
    return grids


_AD4_DEFAULT_TYPES = ["A", "C", "NA", "OA", "N", "SA", "HD", "F", "Cl", "Br", "I", "P", "S"]


def _ad4_maps(receptor, box, around, padding, spacing, ligand_types, prefix, device, elec, elec_weight, pb_options):
    elec = elec or "coulomb"
    if elec not in ("coulomb", "pb"):
        raise ValueError("elec: 'coulomb' or 'pb', not %r" % (elec,))
    if (box is None) == (around is None):
        raise ValueError("give exactly one of box and around")
    par = _lib.Ad4Params()
    _check(_L.vsg_ad4_params_builtin(ctypes.byref(par)))
    types = []
    if ligand_types is not None:
        for t in ligand_types:
            if not _L.vsg_ad4_params_find(ctypes.byref(par), str(t).encode()):
                raise ValueError("ligand_types: '%s' has no AutoDock4 parameters (AD4.1_bound.dat)" % t)
            if t not in types:
                types.append(str(t))
    else:
        types = list(_AD4_DEFAULT_TYPES)
        if around is not None:
            with _LigandFile(around) as apath:
                if apath.endswith((".sdf", ".sd", ".mol", ".sdf.gz")):
                    extra = [t for r in _records(apath)[:1] for t in r["ad_types"]]
                else:
                    extra = Molecule.read(apath).ad_types
            for t in extra:
                if t and t not in types:
                    if not _L.vsg_ad4_params_find(ctypes.byref(par), t.encode()):
                        raise DataError(-9, "around: ligand AutoDock type '%s' has no AutoDock4 parameters: "
                                            "give ligand_types" % t)
                    types.append(t)
    if not types or len(types) > _lib.VSG_AG_MAX_MAPS - 2:
        raise ValueError("ligand_types: 1 to %d types" % (_lib.VSG_AG_MAX_MAPS - 2))
    if box is not None:
        b = list(box)
        if len(b) == 2:
            b = list(b[0]) + list(b[1])
        if len(b) != 6 or not all(x > 0 for x in b[3:]):
            raise ValueError("box: (cx, cy, cz, sx, sy, sz) with sizes > 0")
        center, size = [float(v) for v in b[:3]], [float(v) for v in b[3:]]
    else:
        center, size = _autobox(around, float(padding))
        size = [float(v) for v in size]
    rec_path = os.fspath(receptor.source if isinstance(receptor, Molecule) else receptor)
    m = receptor if isinstance(receptor, Molecule) else Molecule.read(rec_path, prepare="pdbqt")
    for a in m.atoms():
        if not a["ad_type"] or not _L.vsg_ad4_params_find(ctypes.byref(par), a["ad_type"].encode()):
            raise DataError(-9, "%s:%d: receptor atom '%s' has AutoDock type '%s', which AD4.1_bound.dat lacks"
                            % (rec_path, a["line"], a["name"], a["ad_type"]))
    prefix = os.fspath(prefix)
    pbase = os.path.basename(prefix)
    rec_in_gpf = rec_path
    if not rec_path.startswith("/"):
        absr = os.path.realpath(rec_path)
        if len(absr) < 128:
            rec_in_gpf = absr
    tv = (ctypes.c_char_p * len(types))(*[t.encode() for t in types])
    gpf = _lib.Gpf()
    _check(_L.vsg_ad4_gpf_for_box(m._h, rec_in_gpf.encode(), (ctypes.c_double * 3)(*center),
                                  (ctypes.c_double * 3)(*size), float(spacing), tv, len(types), pbase.encode(),
                                  ctypes.byref(gpf)))
    note = ("written by vsgrid %s: maps %s --scoring ad4 (box center %.3f %.3f %.3f, size %g %g %g A)\n"
            "autogrid4 -p %s.gpf, run in this directory, makes the same maps%s"
            % (library_version(), rec_path, center[0], center[1], center[2], size[0], size[1], size[2], pbase,
               "\nexcept the e map: vsgrid's is the Poisson-Boltzmann potential (--elec pb), autogrid4's is Coulomb's"
               if elec == "pb" else ""))
    gpf_path = prefix + ".gpf"
    if os.path.dirname(gpf_path):
        os.makedirs(os.path.dirname(gpf_path), exist_ok=True)
    _check(_L.vsg_gpf_write(ctypes.byref(gpf), _b(gpf_path), note.encode()))
    # From here as `vsgrid grid --gpf PREFIX.gpf --autogrid-maps PREFIX` (the gpf read back: its
    # 3-decimal centre and spacing are what autogrid4 would use).
    gp = _lib.Gpf()
    _check(_L.vsg_gpf_read(_b(gpf_path), ctypes.byref(gp)))
    c = list(gp.center)
    if gp.center_auto:
        c = list(m.coordinates.mean(axis=0)) if _np is not None else c
    h = gp.spacing
    n = [gp.npts[d] + 1 for d in range(3)]
    origin = [c[d] - (gp.npts[d] // 2) * h for d in range(3)]
    g = Grid(_L.vsg_grid_new((ctypes.c_int * 3)(*n), (ctypes.c_double * 3)(*origin), (ctypes.c_double * 3)(h, h, h),
                             b"kcal/mol/e"))
    kind, gpu = _device(device)
    use_gpu = kind == 2 or (kind == 0 and gpu_count() > 0)
    if elec == "pb":
        p = _lib.PBParams()
        _L.vsg_pb_params_default(ctypes.byref(p))
        opts = dict(pb_options)
        _pb_options(p, opts)
        if p.bc != 5:
            p.bc = 4
        if p.precision == 2:
            p.precision = 0
        p.device, p.gpu_index = kind, gpu
        weight = float(elec_weight) if elec_weight else (gp.estat_coeff if gp.have_estat else par.coeff_estat)
        rep = _lib.PBReport()
        _check(_L.vsg_pb_map_fill(m._h, ctypes.byref(p), weight, g._h, ctypes.byref(rep)))
    else:
        model, eps = 2, 0.0
        if gp.have_dielectric and gp.dielectric >= 0.0:
            model, eps = 0, gp.dielectric
        k = _lib.CoulombKernel()
        _check(_L.vsg_coulomb_kernel_make(model, eps, 1, ctypes.byref(k)))
        try:
            if gp.have_estat:
                ratio = 332.0 * gp.estat_coeff / k.scale
                k.scale *= ratio
                for i in range(k.table_n if k.table else 0):
                    k.table[i] *= ratio
            k.have_center = 1
            k.center[:] = c
            st = -8
            if use_gpu:
                st = _L.vsg_coulomb_gpu(m._h, ctypes.byref(k), g._h, gpu, None)
                if st != 0 and kind == 2:
                    _check(st)
            if st != 0:
                _check(_L.vsg_coulomb_cpu(m._h, ctypes.byref(k), g._h))
        finally:
            _L.vsg_coulomb_kernel_free(ctypes.byref(k))
    if gp.parameter_file:
        _check(_L.vsg_ad4_params_read(gp.parameter_file, ctypes.byref(par)))
    nad4 = gp.n_ligand_types + 1
    out = (ctypes.c_void_p * nad4)()
    st = -8
    if use_gpu:
        st = _L.vsg_ad4_maps_gpu(m._h, ctypes.byref(gp), ctypes.byref(par), gpu, out)
        if st != 0 and kind == 2:
            _check(st)
    if st != 0:
        _check(_L.vsg_ad4_maps_cpu(m._h, ctypes.byref(gp), ctypes.byref(par), 0, out))
    ad4 = [Grid(out[i]) for i in range(nad4)]
    tnames = [gp.ligand_types[i].value.decode() for i in range(gp.n_ligand_types)]
    fldp = prefix + ".maps.fld"
    paths = [prefix + ".e.map"] + ["%s.%s.map" % (prefix, t) for t in tnames] + [prefix + ".d.map"]
    grids = [g] + ad4
    hd = _lib.AutogridHeader(_b(gpf_path), os.path.basename(fldp).encode(), os.path.basename(rec_path).encode())
    _check(_L.vsg_autogrid_maps_write((ctypes.c_void_p * len(grids))(*[x._h.value for x in grids]),
                                      (ctypes.c_char_p * len(paths))(*[_b(x) for x in paths]), len(paths),
                                      ctypes.byref(hd)))
    f = _lib.Fld()
    f.spacing = h
    for d in range(3):
        f.npts[d] = n[d] - 1
        f.center[d] = origin[d] + 0.5 * (n[d] - 1) * h
    f.macromolecule = os.path.basename(rec_path).encode()
    f.gpf = _b(gpf_path)
    entries = [(t, "%s.%s.map" % (pbase, t)) for t in tnames] + [("e", os.path.basename(paths[0])),
                                                               ("d", "%s.d.map" % pbase)]
    f.n_maps = len(entries)
    for i, (t, fn) in enumerate(entries):
        f.maps[i].type, f.maps[i].file = t.encode(), fn.encode()
    _check(_L.vsg_autogrid_fld_write(_b(fldp), ctypes.byref(f)))
    if elec == "pb":
        lines = open(fldp).read().split("\n")
        note = ("# vsgrid: the e map is the Poisson-Boltzmann potential (kcal/mol/e) x %.4g (eps_in %g, eps_out %g), "
                "not autogrid4's Coulomb map" % (weight, p.eps_in, p.eps_out))
        with open(fldp, "w") as fh:
            fh.write("\n".join(lines[:1] + [note] + lines[1:]))
    return MapSet.load(fldp)


# ---- ligands: files, SMILES and RDKit molecules ------------------------------------------
def _is_rdkit(mol):
    return type(mol).__module__.startswith("rdkit")


def smiles_available():
    """Whether this library can prepare SMILES (built with Open Babel 3: vsg_smiles_available).
    Without it every SMILES record (a .smi/.ism/.csv library, a :class:`Smiles`, an RDKit molecule
    without a 3D conformer) is a row with status ``unsupported``."""
    return _lib.has("vsg_smiles_available") and bool(_L.vsg_smiles_available())


def smiles_rdkit_available():
    """Whether this library builds SMILES in 3D with RDKit's ETKDG (vsg_smiles_rdkit_available;
    else with Open Babel's builder): the default of ``embed``."""
    return _lib.has("vsg_smiles_rdkit_available") and bool(_L.vsg_smiles_rdkit_available())


class Smiles:
    """A SMILES string given as a ligand: ``vsgrid.Smiles("CC(=O)O", name="acetic acid")``.

    Accepted wherever a ligand or a library is (:func:`screen`, :func:`dock`,
    :func:`read_ligands`), alone or in a list, mixed with RDKit molecules, in order. A plain
    ``str`` is always a path, so a SMILES is said to be one by this value; it is written to a
    temporary ``.smi`` file ("SMILES name" a line) that the C library reads as it reads any SMILES
    library: each record prepared in 3D through Open Babel (largest fragment, protonation at
    ``ph``, hydrogens, 3D build and ``minimize`` force-field steps, Gasteiger charges), one
    row per SMILES with the library's statuses (``bad_smiles``, ``bad_element``,
    ``embed_failed``, ``unsupported`` without Open Babel, ...). The rows' ``source`` is
    ``"<smiles>"``, their ``record`` the position in the list (from 1, counted over the
    records of the whole list), and a message names ``<smiles>:K``, K the SMILES's 1-based
    position in the list given (where a file's message names file:line).

    ``text``: one SMILES, no blank, tab or line break (a .smi line is "SMILES name": a blank
    would start the name, so it is refused here with ValueError, as vsg_ligand_from_smiles refuses
    it) and not starting with ``#`` (a comment line); whether it parses is Open Babel's call, and
    a SMILES it cannot parse is a ``bad_smiles`` row, not an exception. ``name``: the record's
    name (any text without a line break; at most 127 bytes kept); without one the name is the
    SMILES itself."""

    __slots__ = ("text", "name")

    def __init__(self, text, name=None):
        if isinstance(text, bytes):
            text = text.decode()
        if not isinstance(text, str):
            raise TypeError("Smiles: text is a str, not %s" % type(text).__name__)
        bad = next((c for c in text if c in " \t\r\n\v\f\0"), None)
        if not text or bad is not None or text.startswith("#"):
            why = ("is empty" if not text else "starts with '#' (a comment line in a .smi file)"
                   if bad is None else "has a blank or line break (%r)" % bad)
            raise ValueError("Smiles: %r %s: a SMILES is one word; give the name as name=" % (text[:60], why))
        if name is not None:
            name = str(name)
            if any(c in name for c in "\r\n\0"):
                raise ValueError("Smiles: name %r has a line break" % name[:60])
            name = name.strip() or None
        self.text = text
        self.name = name

    def __eq__(self, other):
        return isinstance(other, Smiles) and (self.text, self.name) == (other.text, other.name)

    def __hash__(self):
        return hash((self.text, self.name))

    def __repr__(self):
        return "vsgrid.Smiles(%r%s)" % (self.text, ", name=%r" % self.name if self.name else "")


def _has_3d(mol):
    """An RDKit molecule with a 3D conformer (one without, or with 2D ones only, goes as SMILES)."""
    return any(c.Is3D() for c in mol.GetConformers())


def _smiles_line(item):
    """(SMILES, name) of a Smiles or an RDKit molecule (its isomeric SMILES, its _Name)."""
    if isinstance(item, Smiles):
        return item.text, item.name or item.text
    from rdkit import Chem
    text = Chem.MolToSmiles(item)
    if not text:
        raise ValueError("an RDKit molecule without atoms")
    name = item.GetProp("_Name") if item.HasProp("_Name") else ""
    name = " ".join(name.split())  # no line break in a .smi line
    return text, name or text


def _smiles_lines(items, positions=None, what="ligand"):
    """The text of a .smi file of Smiles values and RDKit molecules: a comment line (so that no
    first record can be taken for a header), then record k on line k + 1. A failure names the
    item by its position (``positions``: in the caller's list)."""
    out = ["# SMILES written by vsgrid's Python module (record k on line k + 1)\n"]
    for k, item in enumerate(items):
        try:
            text, name = _smiles_line(item)
        except ValueError as e:
            raise ValueError("%s %d: %s" % (what, positions[k] if positions else k + 1, e)) from None
        out.append("%s %s\n" % (text, name))
    return "".join(out)


def write_smiles(ligands, path):
    """Writes :class:`Smiles` values and RDKit molecules (as their isomeric SMILES, named by
    ``_Name``; coordinates are not kept) as a .smi file every vsgrid call and command reads (a
    comment line, then "SMILES name" a line: record k on line k + 1), e.g. a library for
    :func:`screen_shard` or :func:`dask_screen`, whose libraries are files."""
    items = [ligands] if isinstance(ligands, Smiles) or _is_rdkit(ligands) else list(ligands)
    if not all(isinstance(m, Smiles) or _is_rdkit(m) for m in items):
        raise TypeError("write_smiles: vsgrid.Smiles values or RDKit molecules")
    text = _smiles_lines(items)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def rdkit_to_sdf(mols, path, charges="gasteiger", conformers="all"):
    """Writes RDKit molecules to an SDF that vsgrid reads with their partial charges, one record
    per conformer (``conformers="all"``, in conformer order) or of the default conformer only
    (``conformers="first"``); hydrogens as the molecule has them. Charges: each atom's
    "PartialCharge" property (what vsgrid's own SDF carries), else its "_GasteigerCharge", else
    Gasteiger charges computed here by RDKit (``charges="gasteiger"``; ``charges="file"``
    refuses a molecule without them), written as the atom property list
    ``atom.dprop.PartialCharge``. A molecule without a conformer is refused (ValueError): screen,
    dock and read_ligands take it as its SMILES instead."""
    from rdkit import Chem
    from rdkit.Chem import AllChem
    w = Chem.SDWriter(os.fspath(path))
    try:
        for mol in mols:
            m = Chem.Mol(mol)
            if m.GetNumConformers() == 0:
                raise ValueError("RDKit molecule without coordinates (embed it first: AllChem.EmbedMolecule; "
                                 "screen, dock and read_ligands take it as its SMILES)")
            have = all(a.HasProp("PartialCharge") for a in m.GetAtoms())
            if not have:
                if all(a.HasProp("_GasteigerCharge") for a in m.GetAtoms()):
                    q = [a.GetDoubleProp("_GasteigerCharge") for a in m.GetAtoms()]
                elif charges == "gasteiger":
                    AllChem.ComputeGasteigerCharges(m)
                    q = [a.GetDoubleProp("_GasteigerCharge") for a in m.GetAtoms()]
                else:
                    raise ValueError("RDKit molecule without PartialCharge atom properties")
                for a, v in zip(m.GetAtoms(), q):
                    a.SetDoubleProp("PartialCharge", float(v))
            Chem.CreateAtomDoublePropertyList(m, "PartialCharge")
            ids = [c.GetId() for c in m.GetConformers()] if conformers == "all" else [-1]
            for cid in ids:
                w.write(m, confId=cid)
    finally:
        w.close()


_SMILES_LABEL, _RDKIT_LABEL = "<smiles>", "<rdkit>"
_IN_MEMORY = "files or in-memory ligands (vsgrid.Smiles values, RDKit molecules), not both"


class _Ligands:
    """The paths of a ligand argument, as a context manager: a path or paths as given; in-memory
    ligands (:class:`Smiles`, RDKit molecules) written, in order, to temporary files: each run of
    consecutive RDKit molecules with a 3D conformer to an SDF (one record per conformer, as
    rdkit_to_sdf), each run of SMILES and RDKit molecules without one (their isomeric SMILES) to a
    .smi. The library reads the files in order, so the records keep the list's order; ``relabel``
    then gives each record the identity of the list: source "<smiles>" or "<rdkit>", the record
    counted over the list, and a message naming "<smiles>:K" (K the position in the list) for
    the temporary file's "path:line". ``need_3d`` (a box around a ligand) refuses what has no
    coordinates."""

    def __init__(self, ligand, what="ligand", need_3d=False):
        self.ligand, self.what, self.need_3d = ligand, what, need_3d
        self.paths, self.tmpdir, self.files = [], None, {}

    def __enter__(self):
        lig, what = self.ligand, self.what
        if isinstance(lig, (str, bytes, os.PathLike)):
            self.paths = [os.fsdecode(os.fspath(lig))]
            return self
        items = [lig] if isinstance(lig, Smiles) or _is_rdkit(lig) else list(lig)
        mem = [isinstance(m, Smiles) or _is_rdkit(m) for m in items]
        if not items:
            raise ValueError("%s: no ligand given" % what)
        if not any(mem):
            if not all(isinstance(p, (str, bytes, os.PathLike)) for p in items):
                raise TypeError("%s: a path, a list of paths, a vsgrid.Smiles, an RDKit molecule, or a list of "
                                "them" % what)
            self.paths = [os.fsdecode(os.fspath(p)) for p in items]
            return self
        if not all(mem):
            raise ValueError("%s: %s" % (what, _IN_MEMORY))
        runs = []  # [kind, [(position, item)]]
        for pos, m in enumerate(items, 1):
            kind = "sdf" if _is_rdkit(m) and _has_3d(m) else "smi"
            if kind == "smi" and self.need_3d:
                raise ValueError("%s: needs 3D coordinates: a file or an RDKit molecule with a 3D conformer, not %s"
                                 % (what, "a SMILES" if isinstance(m, Smiles) else "a molecule without one"))
            if runs and runs[-1][0] == kind:
                runs[-1][1].append((pos, m))
            else:
                runs.append([kind, [(pos, m)]])
        self.tmpdir = tempfile.mkdtemp(prefix="vsgrid-ligands-")
        offset = 0
        try:
            for k, (kind, members) in enumerate(runs):
                path = os.path.join(self.tmpdir, "part%d.%s" % (k, kind))
                if kind == "sdf":
                    rdkit_to_sdf([m for _, m in members], path)
                    recs = [(pos, _RDKIT_LABEL) for pos, m in members for _ in range(m.GetNumConformers())]
                else:
                    text = _smiles_lines([m for _, m in members], [pos for pos, _ in members], what)
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(text)
                    recs = [(pos, _SMILES_LABEL if isinstance(m, Smiles) else _RDKIT_LABEL) for pos, m in members]
                self.paths.append(path)
                self.files[path] = (offset, recs)
                offset += len(recs)
        except BaseException:
            self.__exit__()
            raise
        return self

    def relabel(self, source, record, message):
        """(source, record, message) of a record read from the paths, as the caller knows it."""
        ent = self.files.get(source)
        if ent is None or not 1 <= record <= len(ent[1]):
            return source, record, message
        offset, recs = ent
        pos, label = recs[record - 1]
        if message and message.startswith(source + ":"):
            rest = message[len(source) + 1:]
            m = _RECORD_AT.match(rest)
            if m:
                message = "%s:%d: record %d%s" % (label, pos, offset + record, rest[m.end():])
            else:
                message = label + ":" + rest
        return label, offset + record, message

    def describe(self):
        """What the ligands are, for a message: the path, or the in-memory list."""
        if not self.files:
            return ", ".join(self.paths)
        return "the ligands given"

    def __exit__(self, *exc):
        if self.tmpdir:
            shutil.rmtree(self.tmpdir, ignore_errors=True)
            self.tmpdir = None
        return False


_RECORD_AT = _re.compile(r"\d+: record (\d+)")


class _LigandFile(_Ligands):
    """One path with 3D coordinates for a ligand argument (a box around it): the path as given, or
    a temporary SDF of RDKit molecules with conformers."""

    def __init__(self, ligand, what="around"):
        super().__init__(ligand, what, need_3d=True)

    def __enter__(self):
        super().__enter__()
        if len(self.paths) != 1:
            self.__exit__()
            raise ValueError("%s: one file or RDKit molecules" % self.what)
        return self.paths[0]


def _smiles_option(v, name):
    """ph / minimize / stereo as the reader's and the screen job's text: "none", a number, a word."""
    if name in ("stereo", "embed"):
        if not isinstance(v, str):
            raise TypeError("%s: %s, not %r" % (name, "'any' or 'specified'" if name == "stereo" else
                                                "'rdkit' or 'openbabel'", v))
        return v
    if isinstance(v, bool) or v is None:
        raise TypeError("%s: a number%s, not %r" % (name, " or 'none'" if name == "ph" else "", v))
    return _option_text(v)


def _reader_options(keep_text, ph=None, minimize=None, stereo=None, embed=None, rigid_macrocycles=False):
    o = _lib.LigandReaderOptions(0, 1 if keep_text else 0, 0)
    o.rigid_macrocycles = 1 if rigid_macrocycles else 0
    for v, name, fn in ((ph, "ph", "vsg_smiles_parse_ph"), (minimize, "minimize", "vsg_smiles_parse_minimize"),
                        (stereo, "stereo", "vsg_smiles_parse_stereo"), (embed, "embed", "vsg_smiles_parse_embed")):
        if v is None:
            continue
        if not _lib.has(fn):
            raise ImportError("vsgrid: %s has no %s (an older library: rebuild it)" % (library_path, fn))
        _check(getattr(_L, fn)(_smiles_option(v, name).encode(), ctypes.byref(o.smiles)))
    return o


class _Reader:
    def __init__(self, paths, keep_text=True, ph=None, minimize=None, stereo=None, embed=None,
                 rigid_macrocycles=False):
        arr = (ctypes.c_char_p * len(paths))(*[_b(p) for p in paths])
        self._paths = arr
        o = _reader_options(keep_text, ph, minimize, stereo, embed, rigid_macrocycles)
        self.h = ctypes.c_void_p()
        _check(_L.vsg_ligand_reader_open(arr, len(paths), ctypes.byref(o), ctypes.byref(self.h)))

    def __iter__(self):
        while True:
            lig = _lib.Ligand()
            _L.vsg_ligand_init(ctypes.byref(lig))
            if _L.vsg_ligand_reader_next(self.h, ctypes.byref(lig)) != 1:
                _L.vsg_ligand_release(ctypes.byref(lig))
                return
            yield lig

    def close(self):
        if self.h and self.h.value:
            _L.vsg_ligand_reader_close(self.h)
            self.h = None


def _records(paths, relabel=None, ph=None, minimize=None, stereo=None, embed=None):
    """Every record of ligand files as dicts (name, source, record, status, code, message,
    coordinates, charges, elements, ad_types)."""
    r = _Reader([paths] if isinstance(paths, str) else paths, keep_text=False, ph=ph, minimize=minimize, stereo=stereo,
                embed=embed)
    out = []
    try:
        for lig in r:
            atoms = [lig.atoms[i] for i in range(lig.natoms)]
            source, record, message = _s(lig.source), lig.record, _s(lig.message)
            if relabel is not None:
                source, record, message = relabel(source, record, message)
            out.append({"name": _s(lig.name), "source": source, "record": record, "status": lig.status,
                        "code": _s(lig.code), "message": message, "has_charges": bool(lig.has_charges),
                        "coordinates": [(a.x, a.y, a.z) for a in atoms], "charges": [a.charge for a in atoms],
                        "elements": [_s(a.element) for a in atoms], "ad_types": [_s(a.ad_type) for a in atoms]})
            _L.vsg_ligand_release(ctypes.byref(lig))
    finally:
        r.close()
    return out


def read_ligands(ligand, ph=None, minimize=None, stereo=None, embed=None):
    """The records of ligand files (SDF, MOL2, PDBQT, PDB; SMILES .smi/.ism/.csv, prepared in 3D),
    :class:`Smiles` values or RDKit molecules (a molecule without a 3D conformer as its SMILES),
    as vsgrid's reader yields them, one per input record in input order: a list of dicts with
    name, source ("<smiles>"/"<rdkit>" for in-memory ligands), record, status (0 = ok), code
    ("ok", "bad_smiles", ...), message (why a record failed; for a prepared SMILES the
    preparation's note, e.g. "net charge +0 -> -1 at pH 7.4"), has_charges, coordinates (N×3
    array), charges, elements, ad_types.

    SMILES preparation: ``ph`` a pH in [0, 14] (default 7.4) or "none" (the SMILES's own
    protonation states); ``minimize`` the force-field steps after the 3D build (default: RDKit's
    50 MMFF94 iterations, Open Babel's 100 steps; 0: none), ``stereo`` "any" (default: open or
    inverted stereocentres docked as built, with a note) or "specified" (such a record fails, code
    stereo), ``embed`` the 3D conformer generator, "rdkit" (ETKDG, the default when the library
    has RDKit: :func:`smiles_rdkit_available`) or "openbabel", as the command's --ph, --minimize,
    --stereo and --embed."""
    with _Ligands(ligand) as lf:
        recs = _records(lf.paths, lf.relabel, ph=ph, minimize=minimize, stereo=stereo, embed=embed)
    if _np is not None:
        for r in recs:
            r["coordinates"] = _np.array(r["coordinates"], dtype=_np.float64).reshape(-1, 3)
            r["charges"] = _np.array(r["charges"], dtype=_np.float64)
    return recs


# ---- screens -----------------------------------------------------------------------------
# Every screen is one vsg_screen_job (vsgrid.h, "a screen as one call"), the very call `vsgrid
# screen` makes: options by the command's names, values as text, the rows handed to a callback
# (vsg_screen_row: the CSV's rows, the numeric columns as numbers, NaN for empty fields).

# How the CSV prints its numeric columns, so that a row's numbers come out as the CSV's text reads:
# whole numbers ("%d": int), num_tors ("%g": int when whole), the rest with decimals (float).
_INT_COLUMNS = frozenset(("atoms_outside", "torsdof", "pose_index", "records", "posebusters_valid"))
_G_COLUMNS = frozenset(("num_tors",))
# numeric columns the CSV prints after status and message (last, so the others keep their numbers)
_TRAILING_COLUMNS = frozenset(("ad4_intra", "records", "posebusters_valid"))
# text columns the CSV prints last (vsg_screen_row's texts): a flexible screen's failed pose checks
_TEXT_COLUMNS = frozenset(("posebusters_failed",))
_IDENTITY = ("index", "name", "source", "record", "atoms")
_NAN = float("nan")


def _column_kind(name):
    return 1 if name in _INT_COLUMNS else 2 if name in _G_COLUMNS else 0


def _number(v, kind):
    if v != v:  # NaN: an empty field
        return None
    if kind == 1 or (kind == 2 and v.is_integer()):
        return int(v)
    return v


class _Rows:
    """Collects a screen's rows: as dicts (a list), as columns (``as_arrays``: lists and a flat
    array of the numbers, no dict per row), or passed one by one to ``on_row``. Used as the
    vsg_screen_row_fn (``__call__``) and, for a shard finished before, fed from its CSV
    (``add_csv``). An exception in the caller's function, or any other, stops the screen (the
    callback returns nonzero) and is kept in ``error`` to be raised after the run."""

    def __init__(self, as_arrays=False, on_row=None, relabel=None):
        self.on_row = on_row
        self.as_arrays = bool(as_arrays) and on_row is None
        if self.as_arrays:
            _need_numpy("as_arrays")
        self.relabel = relabel  # in-memory ligands: (source, record, message) as the caller knows them
        self.error = None
        self.names = None
        self.text_names = []
        self.rows = []
        self.count = 0
        if self.as_arrays:
            self.cols = {k: [] for k in ("index", "name", "source", "record", "atoms", "status", "message")}
            self.values = _array.array("d")

    def set_columns(self, names, text_names=()):
        self.names = list(names)
        self.text_names = list(text_names)
        if self.as_arrays:
            for t in self.text_names:
                self.cols.setdefault(t, [])
        self.n = len(self.names)
        self.kinds = [_column_kind(c) for c in self.names]
        k = self.n
        while k > 0 and self.names[k - 1] in _TRAILING_COLUMNS:
            k -= 1
        self.lead = k  # names[:lead] lie between atoms and status, names[lead:] after message

    def _row(self, index, name, source, record, atoms, v, status, message, texts=()):
        if self.relabel is not None:
            source, record, message = self.relabel(source, record, message)
        row = {"index": index, "name": name or None, "source": source or None, "record": record,
               "atoms": atoms}
        names, kinds, lead = self.names, self.kinds, self.lead
        for i in range(lead):
            row[names[i]] = _number(v[i], kinds[i])
        row["status"] = status or None
        row["message"] = message or None
        for i in range(lead, self.n):
            row[names[i]] = _number(v[i], kinds[i])
        for k, t in enumerate(self.text_names):
            row[t] = (texts[k] if k < len(texts) else "") or None
        return row

    def _add_texts(self, texts):
        for k, t in enumerate(self.text_names):
            self.cols[t].append(texts[k] if k < len(texts) else "")

    def _take(self, row):
        if self.on_row is not None:
            return 1 if self.on_row(row) is False else 0
        self.rows.append(row)
        return 0

    def __call__(self, ctx, p):
        try:
            r = p.contents
            n = r.ncols
            if self.names is None:
                self.set_columns([r.cols[i].decode() for i in range(n)],
                                 [r.text_cols[i].decode() for i in range(r.ntext)])
            texts = [_s(r.texts[i]) for i in range(r.ntext)]
            self.count += 1
            if self.as_arrays:
                c = self.cols
                source, record, message = _s(r.source), r.record, _s(r.message)
                if self.relabel is not None:
                    source, record, message = self.relabel(source, record, message)
                c["index"].append(r.index)
                c["name"].append(_s(r.name))
                c["source"].append(source)
                c["record"].append(record)
                c["atoms"].append(r.atoms)
                c["status"].append(_s(r.status))
                c["message"].append(message)
                self._add_texts(texts)
                if n == self.n:
                    self.values.frombytes(ctypes.string_at(r.values, 8 * n))
                else:  # never for one screen's rows (one header); padded to be safe
                    self.values.extend([r.values[i] if i < n else _NAN for i in range(self.n)])
                return 0
            v = r.values[:n]
            if n < self.n:  # never for one screen's rows (one header); padded to be safe
                v += [_NAN] * (self.n - n)
            return self._take(self._row(r.index, _s(r.name), _s(r.source), r.record, r.atoms, v, _s(r.status),
                                        _s(r.message), texts))
        except BaseException as e:  # KeyboardInterrupt too: the screen stops, the error is raised after
            if self.error is None:
                self.error = e
            return 1

    def add_csv(self, header, fields):
        """One row of a screen's CSV (the csv module's fields), as the callback would get it."""
        if self.names is None:
            st = header.index("status")
            after = range(st + 2, len(header))
            self._csv_at = list(range(5, st)) + [i for i in after if header[i] not in _TEXT_COLUMNS]
            self._csv_text = [i for i in after if header[i] in _TEXT_COLUMNS]
            self._csv_status = st
            self.set_columns([header[i] for i in self._csv_at], [header[i] for i in self._csv_text])
        v = [float(fields[i]) if i < len(fields) and fields[i] != "" else _NAN for i in self._csv_at]
        texts = [fields[i] if i < len(fields) else "" for i in self._csv_text]
        st = self._csv_status
        index, record, atoms = int(fields[0]), int(fields[3]), int(fields[4])
        status, message = fields[st], fields[st + 1] if st + 1 < len(fields) else ""
        self.count += 1
        if self.as_arrays:
            c = self.cols
            source = fields[2]
            if self.relabel is not None:
                source, record, message = self.relabel(source, record, message)
            for k, x in zip(("index", "name", "source", "record", "atoms", "status", "message"),
                            (index, fields[1], source, record, atoms, status, message)):
                c[k].append(x)
            self._add_texts(texts)
            self.values.extend(v)
            return 0
        return self._take(self._row(index, fields[1], fields[2], record, atoms, v, status, message, texts))

    def result(self):
        if not self.as_arrays:
            return self.rows
        return _columns_to_arrays(self.cols, self.names or [], self.values, getattr(self, "lead", 0),
                                  self.text_names)


def _object_array(values):
    a = _np.empty(len(values), dtype=object)
    a[:] = values
    return a


def _columns_to_arrays(cols, names, values, lead, text_names=()):
    n = len(cols["index"])
    out = {"index": _np.array(cols["index"], dtype=_np.int64), "name": _object_array(cols["name"]),
           "source": _object_array(cols["source"]), "record": _np.array(cols["record"], dtype=_np.int64),
           "atoms": _np.array(cols["atoms"], dtype=_np.int64)}
    v = _np.frombuffer(values, dtype=_np.float64).reshape(n, len(names)) if names else _np.empty((n, 0))
    for i in range(lead):
        out[names[i]] = v[:, i].copy()
    out["status"] = _object_array(cols["status"])
    out["message"] = _object_array(cols["message"])
    for i in range(lead, len(names)):
        out[names[i]] = v[:, i].copy()
    for t in text_names:
        out[t] = _object_array(cols[t])
    return out


def _arrays_to_rows(arrays):
    """The dict rows of screen()'s list form from its arrays (as_arrays=True) form."""
    keys = list(arrays)
    n = len(arrays["index"]) if "index" in arrays else 0
    cols = []
    for k in keys:
        a = arrays[k]
        if k in ("index", "record", "atoms"):
            cols.append([int(x) for x in a])
        elif a.dtype == object:
            cols.append([x or None for x in a])
        else:
            kind = _column_kind(k)
            cols.append([_number(float(x), kind) for x in a])
    return [{k: c[i] for k, c in zip(keys, cols)} for i in range(n)]


def _concat_arrays(parts):
    """One dict of arrays from several (shards in order); a shard without rows has no numeric
    columns: it adds nothing."""
    full = [p for p in parts if len(p["index"])]
    keys = list((full or parts or [{}])[0].keys())
    if not keys:
        return {}
    out = {}
    for k in keys:
        arrs = [p[k] for p in full] if full else [p[k] for p in parts if k in p]
        out[k] = _np.concatenate(arrs) if arrs else _np.empty(0)
    return out


def _read_screen_csv(path, rows):
    """Feeds the rows of a screen's CSV (plain or .gz) to a _Rows."""
    import gzip
    p = os.fspath(path)
    with (gzip.open(p, "rt", newline="") if p.endswith(".gz") else open(p, newline="")) as f:
        reader = _csv.reader(f)
        header = next(reader, None)
        if header is None:
            return rows
        for fields in reader:
            if fields and not fields[0].startswith("#"):
                rows.add_csv(header, fields)
    return rows


# options: screen()'s keywords whose command-line names are not theirs with dashes
_OPTION_NAMES = {"step": "site-step", "o": "output", "device": "devices"}


def _option_text(v):
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, _numbers.Integral):
        return str(int(v))
    if isinstance(v, _numbers.Real):
        return repr(float(v))
    if isinstance(v, (str, bytes, os.PathLike)):
        return os.fsdecode(os.fspath(v))
    if isinstance(v, (list, tuple)) or (_np is not None and isinstance(v, _np.ndarray)):
        flat = []
        for x in v:  # ((cx, cy, cz), (sx, sy, sz)) as well as (cx, ..., sz)
            flat.extend(x if isinstance(x, (list, tuple)) else [x])
        return ",".join(_option_text(x) for x in flat)
    return str(v)


def _devices_text(device):
    if isinstance(device, str):
        return {"auto": "all"}.get(device, device)
    return _option_text(device)


def _option_items(options):
    """(name, text) pairs of keyword options: `vsgrid screen`'s names with underscores for dashes
    ("max_torsions" is --max-torsions; "step" --site-step), values as text (flags True/False, lists
    comma-joined); None leaves an option out."""
    out = []
    for key, v in options.items():
        if v is None:
            continue
        name = _OPTION_NAMES.get(key, key.replace("_", "-"))
        out.append((name, _devices_text(v) if name == "devices" else _option_text(v)))
    return out


_JOB_INFO = ("kind", "shard_state", "resumed_rows", "first", "count", "records_total", "evaluations", "output",
             "poses_file")


def _need_job():
    if not _lib.has("vsg_screen_job_new"):
        raise ImportError("vsgrid: %s has no vsg_screen_job_* calls (an older library: rebuild it)" % library_path)


def _run_job(target, libraries, items, rows=None):
    """Runs one screen job: target, libraries, then the options (name, text) in order; every row to
    ``rows`` (a _Rows). Returns (the report as a dict, the job's info as a dict). Raises the module's
    exception of the job's status with its message, or the exception raised in the callback."""
    _need_job()
    j = ctypes.c_void_p()
    _check(_L.vsg_screen_job_new(ctypes.byref(j)))
    try:
        for name, text in [("target", target)] + [("library", p) for p in libraries] + list(items):
            _check(_L.vsg_screen_job_set(j, name.encode(), os.fsencode(text)))
        fn = None
        if rows is not None:
            fn = _lib.SCREEN_ROW_FN(rows)  # alive until the run returns
            _check(_L.vsg_screen_job_on_row(j, fn, None))
        rep = _lib.ScreenReport()
        st = _L.vsg_screen_job_run(j, ctypes.byref(rep))
        err = _error(st) if st != _lib.VSG_OK else None
        if rows is not None and rows.error is not None:
            e, rows.error = rows.error, None
            raise e
        if err is not None:
            raise err
        info = {}
        for k in _JOB_INFO:
            v = _L.vsg_screen_job_info(j, k.encode())
            v = _s(v) if v is not None else None
            info[k] = int(v) if v and v.isdigit() else v
    finally:
        _L.vsg_screen_job_free(j)
    report = _struct_dict(rep)
    report["by_code"] = {_s(rep.by_code[i].value): rep.by_code_count[i] for i in range(rep.by_code_n)}
    del report["by_code_n"], report["by_code_count"]
    report.update(info)
    return report


def _ligand_paths(ligands, what):
    """A campaign's libraries: files only (every task, the shards' fingerprint and the merge name
    them), so in-memory ligands are refused with the way to make them a file."""
    items = [ligands] if isinstance(ligands, (str, bytes, os.PathLike, Smiles)) or _is_rdkit(ligands) else list(ligands)
    if any(isinstance(p, Smiles) or _is_rdkit(p) for p in items):
        raise TypeError("%s: libraries are files (every task and the merge name them): write the SMILES or RDKit "
                        "molecules to one first (vsgrid.write_smiles(ligands, 'lib.smi'), vsgrid.rdkit_to_sdf)" % what)
    return [os.fsdecode(os.fspath(p)) for p in items]


def screen(target, ligands, scoring=None, charges="auto", device="cpu", temperature=298.15, sdf_out=None, top=0,
           progress=False, placement="as-is", box=None, around=None, padding=2.0, step=1.0, rotations=1000,
           top_poses=0, poses_out=None, search=None, seed=None, exhaustiveness=None, steps=None, poses=None,
           max_torsions=None, output=None, as_arrays=False, on_row=None, ph=None, minimize=None, stereo=None, embed=None,
           conformers=None, **options):
    """Screens ligands as `vsgrid screen` does, through the library's screen job
    (vsg_screen_job_run: the command's own call), and returns their rows, one per input record in
    input order: the columns of the CSV (index, name, source, record, atoms, score_kcal_mol, ...,
    status, message). By default a list of dicts (numbers as int/float as the CSV prints them,
    empty fields None); with ``as_arrays=True`` a dict of numpy arrays, one per column: index,
    record, atoms int64; name, source, status, message object arrays of str ("" for empty); every
    other column float64 (NaN for empty).

    ``ligands``: a library file (SDF, MOL2, PDBQT, PDB, SMILES .smi/.ism/.csv; .gz) or a list of
    them; or in-memory ligands: a :class:`Smiles`, an RDKit molecule, or a list of them (in any
    mix, not with paths). An RDKit molecule with a 3D conformer is scored as it is (one row per
    conformer); one without (no conformer, or 2D ones only) goes as its isomeric SMILES and its
    _Name, prepared in 3D as a :class:`Smiles` is. Their rows keep the list's order, with source
    "<rdkit>" or "<smiles>", record counted over the list from 1, and messages naming
    "<smiles>:K" / "<rdkit>:K", K the ligand's position in the list (files are named file:line).
    SMILES preparation: ``ph`` a pH in [0, 14] (default 7.4) or "none" (the SMILES's own
    protonation states), ``minimize`` the force-field steps after the 3D build (default: RDKit
    50, Open Babel 100; 0: none), ``stereo`` ("any" or "specified"), ``embed`` ("rdkit" or
    "openbabel"), ``conformers`` (with ``placement="flexible"``: up to that many ring conformers of
    each molecule docked, the best-scoring kept), the command's --ph, --minimize, --stereo, --embed
    and --conformers (ArgumentError when out of range).

    ``target``: a .maps.fld path or :class:`MapSet` (AutoDock4 scores), a grid path or
    :class:`Grid` (electrostatics: PB in kT/e at ``temperature``, Coulomb in kcal/mol/e), or,
    with ``scoring="vina"|"vinardo"``, a Vina map-set prefix (`vsgrid screen PREFIX
    --scoring vina`: pose scores, on the CPU). ``device``: "cpu" (the CPU twin; the default
    here), "auto" (every GPU, else the CPU) or a GPU number or list of them. ``sdf_out``: also
    write the scored molecules (the best ``top``) as SDF. ``output``: also write the CSV there
    (the bytes `vsgrid screen -o` writes; .gz: gzipped).

    ``placement="rigid"`` (AutoDock4 map sets): every molecule placed by the exhaustive
    rigid-body search, as `vsgrid screen --placement rigid`: ``rotations`` super-Fibonacci
    rotations (1000) times site points ``step`` Å apart (1.0) in the site box: ``box`` (cx, cy,
    cz, sx, sy, sz), ``around`` a ligand (its first record's atom extent plus ``padding``, 2 Å),
    or the grid's box less 2 Å a side; ``poses_out`` (.pdbqt or .sdf) gets each molecule's best
    ``top_poses`` poses; the rows gain the best pose's columns.

    ``placement="flexible"`` with ``scoring="vina"|"vinardo"`` (a Vina map-set prefix): every
    record docked, as `vsgrid screen --placement flexible`: ``search`` "fast", "balanced"
    (default), "detail", "thorough" or "vina", ``exhaustiveness``, ``steps``, ``focus_chains`` and
    ``focus_steps`` overriding the preset,
    ``seed`` (record i is docked with seed + i), ``poses`` poses a record to ``poses_out``
    (.pdbqt or .sdf), ``max_torsions`` (32; more: status torsions), ``receptor`` (the receptor
    the maps were made from: each record's final poses refined and scored on its atoms, and its
    clash tests joining the pose checks). Flexible rows end with posebusters_valid (1 when an ok
    row's best pose passes PoseBusters' checks) and posebusters_failed (the failed checks'
    names, ";"-joined), as the command's CSV.

    Any other option of `vsgrid screen` is a keyword by its command-line name with underscores
    (``format="mol2"``, ``threads=4``, ``min_rmsd=1.5``, ``poses_top=100``,
    ``best_per_molecule=True``, ``kernel="gm"``, ``parse_threads=1``, ...; flags True).

    ``on_row``: a function called with each row (a dict) as the library writes it, in input order,
    from the calling thread; the rows are then not kept and screen() returns the run's report (a
    dict: records, scored, failed, by_code, seconds, kind, ...). A function that returns False
    stops the screen (ArgumentError "stopped by the caller"); one that raises stops it and its
    exception is raised. Bad options raise :class:`ArgumentError` (a ValueError) with the
    library's message; unreadable files FileError; a bad record never raises (it gets its row)."""
    if scoring not in (None, "ad4", "elec", "vina", "vinardo"):
        raise ValueError("scoring: None (from the target), 'ad4', 'elec', 'vina' or 'vinardo', not %r" % (scoring,))
    pose_scores = scoring in ("vina", "vinardo") and placement != "flexible"
    opts = {}
    if scoring in ("ad4", "vina", "vinardo"):
        opts["scoring"] = scoring
    if placement != "as-is":
        opts["placement"] = placement
    if charges != "auto":
        opts["charges"] = charges
    if device is not None and not pose_scores:  # Vina pose scores run on the CPU
        opts["devices"] = device
    if temperature != 298.15:
        opts["temperature"] = temperature
    opts.update(sdf_out=sdf_out, top=top if top else None, progress=True if progress else None, box=box)
    if padding != 2.0:
        opts["padding"] = padding
    if step != 1.0:
        opts["site-step"] = step
    if rotations != 1000:
        opts["rotations"] = rotations
    opts.update(top_poses=top_poses if top_poses else None, poses_out=poses_out, search=search, seed=seed,
                exhaustiveness=exhaustiveness, steps=steps, poses=poses, max_torsions=max_torsions, output=output)
    if ph is not None:
        opts["ph"] = _smiles_option(ph, "ph")
    if minimize is not None:
        opts["minimize"] = _smiles_option(minimize, "minimize")
    if stereo is not None:
        opts["stereo"] = _smiles_option(stereo, "stereo")
    if embed is not None:
        opts["embed"] = _smiles_option(embed, "embed")
    if conformers is not None:
        opts["conformers"] = _smiles_option(conformers, "conformers")
    opts.update(options)
    with contextlib.ExitStack() as stack:
        lf = stack.enter_context(_Ligands(ligands, "ligands"))
        files = lf.paths
        if around is not None:
            opts["around"] = stack.enter_context(_LigandFile(around))
        if opts.get("output") is None and opts.get("poses_out") is not None:
            # TODO(screen_job.c): vsg_screen_job_run opens --poses-out only when --output is set (rows
            # in memory only: no pose file); until it does, the CSV goes to a temporary file too.
            d = stack.enter_context(tempfile.TemporaryDirectory(prefix="vsgrid-screen-"))
            opts["output"] = os.path.join(d, "rows.csv")
        rows = _Rows(as_arrays=as_arrays, on_row=on_row, relabel=lf.relabel if lf.files else None)
        report = _run_job(_target_path(target, stack), files, _option_items(opts), rows)
    return report if on_row is not None else rows.result()


def _target_path(target, stack):
    """A screen's target as a path: a MapSet's fld; a Grid written to a temporary .vsg (its values
    as they are now: a view may have changed them)."""
    if isinstance(target, MapSet):
        return target.path
    if isinstance(target, Grid):
        d = stack.enter_context(tempfile.TemporaryDirectory(prefix="vsgrid-grid-"))
        p = os.path.join(d, "target.vsg")
        target.save(p)
        return p
    return os.fsdecode(os.fspath(target))


def _shard_spec(shard, nshards):
    if nshards is None:
        if not isinstance(shard, str) or "/" not in shard:
            raise ValueError("shard: 'K/N', or K with nshards=N")
        return shard
    return "%d/%d" % (int(shard), int(nshards))


def screen_shard(target, libraries, shard, nshards=None, output=None, as_arrays=False, **options):
    """One task of a campaign: shard K of N of the screen of ``libraries`` (the records [K T / N,
    (K + 1) T / N) of their T records; ``shard`` K with ``nshards`` N, or ``shard="K/N"``), as
    `vsgrid screen TARGET LIBRARY... --shard K/N -o OUTPUT`. Returns the shard's rows (the forms of
    :func:`screen`: dicts, or with ``as_arrays`` numpy arrays; index is the record's index in the
    whole libraries).

    ``options`` are `vsgrid screen`'s by their command-line names with underscores (scoring,
    placement, devices or device, search, exhaustiveness, seed, poses_out, format, threads, ...;
    defaults are the command's: devices "all", every GPU, else the CPU); every task of one
    campaign must be given the same (their shard markers carry a fingerprint of them).

    With ``output`` the task writes the shard's files exactly as the command does: OUTPUT.partial
    while it runs, renamed to OUTPUT when every record has its row, then OUTPUT.done (the marker
    :func:`merge_shards` and `vsgrid merge` read); a pose file (poses_out) likewise. Run again after
    a kill, the task goes on from its partial files; run again when finished, it returns at once
    (the rows then read back from OUTPUT). Without ``output`` the files go to a temporary
    directory, removed after. LIBRARY.vsgidx indexes (`vsgrid index`) spare each task the scan of
    the records before its slice. ``target`` must be a path (or a MapSet): it is part of the
    fingerprint."""
    if isinstance(target, Grid):
        raise ValueError("screen_shard: give the target as a path (the shards' fingerprint names it)")
    for bad in ("o", "output", "shard", "records"):
        if bad in options:
            raise TypeError("screen_shard: %r is an argument of its own" % bad)
    spec = _shard_spec(shard, nshards)
    libs = _ligand_paths(libraries, "screen_shard")
    with contextlib.ExitStack() as stack:
        out = output
        if out is None:
            out = os.path.join(stack.enter_context(tempfile.TemporaryDirectory(prefix="vsgrid-shard-")), "shard.csv")
        out = os.fsdecode(os.fspath(out))
        rows = _Rows(as_arrays=as_arrays)
        report = _run_job(_target_path(target, stack), libs,
                          [("shard", spec), ("output", out)] + _option_items(options), rows)
        if report["shard_state"] in ("done", "resumed"):
            # finished before, or resumed: the rows kept from before are in the file, not the callback's
            rows = _read_screen_csv(out, _Rows(as_arrays=as_arrays))
        return rows.result()


def merge_shards(parts, csv=None, poses=None, best_per_molecule=False, top=0, top_csv=None, poses_top=0,
                 allow_partial=False):
    """Joins the files of a campaign's shards (their CSVs, each with its CSV.done marker beside it)
    into the files one uninterrupted run writes, as `vsgrid merge` (vsg_screen_merge): ``csv`` the
    merged CSV, ``poses`` the merged pose file (.sdf/.pdbqt, .gz), ``best_per_molecule`` the CSV as
    --best-per-molecule writes it, ``top``/``top_csv`` the best rows, ``poses_top`` only the best
    records' poses, ``allow_partial`` the finished shards only. A missing, doubled or unfinished
    shard, or shards of different screens, raise DataError naming the part. Returns the merge's
    report (parts, rows, records_total, poses, missing, seconds)."""
    if not _lib.has("vsg_screen_merge"):
        raise ImportError("vsgrid: %s has no vsg_screen_merge (an older library: rebuild it)" % library_path)
    paths = [_b(p) for p in parts]
    o = _lib.MergeOptions()
    o.parts, o.nparts = (ctypes.c_char_p * max(len(paths), 1))(*paths), len(paths)
    o.csv = _b(csv) if csv is not None else None
    o.poses = _b(poses) if poses is not None else None
    o.best_per_molecule = 1 if best_per_molecule else 0
    o.top, o.top_csv = int(top), (_b(top_csv) if top_csv is not None else None)
    o.poses_top = int(poses_top)
    o.allow_partial = 1 if allow_partial else 0
    rep = _lib.MergeReport()
    _check(_L.vsg_screen_merge(ctypes.byref(o), ctypes.byref(rep)))
    return _struct_dict(rep)


_POSE_OPTIONS = ("poses_out", "poses-out", "sdf_out", "sdf-out")


def _pose_suffix(path):
    p = os.fspath(path)
    base, ext = os.path.splitext(p[:-3] if p.endswith(".gz") else p)
    return ext + (".gz" if p.endswith(".gz") else "")


def _dask_shard_task(k, target, libraries, nshards, output_dir, options):
    """Task K of :func:`dask_screen`: screen_shard's rows as arrays. A module-level function, so
    that Dask pickles it by reference: the worker process imports vsgrid itself."""
    opts = dict(options)
    out = None
    if output_dir is not None:
        out = os.path.join(output_dir, "shard_%d.csv" % k)
        for key in _POSE_OPTIONS:
            if opts.get(key) is not None:
                opts[key] = os.path.join(output_dir, "shard_%d_poses%s" % (k, _pose_suffix(opts[key])))
    return screen_shard(target, libraries, k, nshards, output=out, as_arrays=True, **opts)


def dask_screen(client, target, libraries, nshards, output_dir=None, as_arrays=True, **options):
    """A campaign on a Dask cluster: :func:`screen_shard` mapped over shards 0 .. ``nshards`` - 1
    (``client.map(..., pure=False)`` on a ``distributed.Client``), each task returning its rows as
    arrays, gathered in shard order and concatenated: the rows of the whole screen, in input order
    (a dict of numpy arrays as ``screen(..., as_arrays=True)`` returns; ``as_arrays=False``: the
    list of dicts). ``options`` as :func:`screen_shard`'s (the same for every task).

    With ``output_dir`` (a directory every worker can write, on a shared filesystem) task K writes
    OUTPUT_DIR/shard_K.csv and its .done marker (a pose file given by poses_out or sdf_out goes to
    OUTPUT_DIR/shard_K_poses.EXT), so a task retried after a lost worker goes on from its partial
    files; then the shards are merged (:func:`merge_shards`) into OUTPUT_DIR/all.csv (and
    OUTPUT_DIR/all_poses.EXT), the bytes one `vsgrid screen -o` run writes.

    The task function is a module-level function of vsgrid (picklable by reference): every worker
    process imports vsgrid itself, so the workers need the package importable and the library
    found (VSGRID_LIB, or an installed copy), and paths (target, libraries, output_dir) that mean
    the same on the workers (absolute paths on a shared filesystem). A LocalCluster with
    processes=True starts its workers with multiprocessing's spawn, which imports the main module
    again in each: make the cluster under ``if __name__ == "__main__":`` in a script. Each task
    runs one screen with the library's threads (OpenMP): give ``threads=`` to share the cores
    among the workers of one host."""
    _need_numpy("dask_screen")
    n = int(nshards)
    if n < 1:
        raise ValueError("nshards: at least 1")
    for bad in ("o", "output", "shard", "records"):
        if bad in options:
            raise TypeError("dask_screen: %r is set per task" % bad)
    if output_dir is None and any(options.get(k) is not None for k in _POSE_OPTIONS):
        raise ValueError("dask_screen: a pose file (poses_out, sdf_out) needs output_dir")
    if isinstance(target, MapSet):
        target = target.path
    libs = _ligand_paths(libraries, "dask_screen")
    od = None
    if output_dir is not None:
        od = os.fsdecode(os.fspath(output_dir))
        os.makedirs(od, exist_ok=True)
    futures = client.map(_dask_shard_task, range(n), target=os.fsdecode(os.fspath(target)), libraries=libs,
                         nshards=n, output_dir=od, options=dict(options), pure=False)
    parts = client.gather(futures)
    arrays = _concat_arrays(parts)
    if od is not None and not _lib.has("vsg_screen_merge"):
        # TODO(issue 26): an older library without vsg_screen_merge: the shards are left unmerged
        import warnings
        warnings.warn("vsgrid: %s has no vsg_screen_merge: %s/shard_K.csv not merged (run 'vsgrid merge')"
                      % (library_path, od), LibraryWarning, stacklevel=2)
    elif od is not None:
        pose_key = next((k for k in _POSE_OPTIONS if options.get(k) is not None), None)
        merge_shards([os.path.join(od, "shard_%d.csv" % k) for k in range(n)], csv=os.path.join(od, "all.csv"),
                     poses=os.path.join(od, "all_poses%s" % _pose_suffix(options[pose_key])) if pose_key else None)
    return arrays if as_arrays else _arrays_to_rows(arrays)


# ---- docking -----------------------------------------------------------------------------
class Pose:
    """One docked pose: ``coordinates`` (natoms×3 array of the model's atoms, Å; model atom i
    is record atom ``record_atom[i]`` of the input), ``score`` (dict: total, inter, intra,
    torsional, unbound, num_tors, outside — `vina --score_only`'s terms of the pose; total is the
    best pose's --score_only total, and for later poses Vina ≥ 1.2.4's docking output, relative
    to the best pose's intra (``unbound``), so totals are in order),
    ``energy`` (inter + intra the search minimised), ``rmsd_input`` (Å, heavy atoms);
    ``posebusters_valid`` (True when the pose passes PoseBusters' checks as `vsgrid dock` makes
    them: bonds, angles, flat rings, stereo, internal clashes, inside the box, and with the
    receptor given no clash with it and within 5 Å; None when the checks could not run) and
    ``posebusters_failed`` (the failed checks' names)."""

    def __init__(self, coordinates, score, energy, rmsd_input):
        self.coordinates, self.score, self.energy, self.rmsd_input = coordinates, score, energy, rmsd_input
        self.posebusters_valid, self.posebusters_failed = None, []

    def __repr__(self):
        return "<vsgrid.Pose %.3f kcal/mol>" % self.score["total"]


class DockResult:
    """The docking of one record: ``poses`` (best first), ``record_atom`` (input atom index of
    each model atom: SDF/MOL2 non-polar hydrogens are merged into their carbon and have no
    model atom), ``name``, ``source`` (the file, or "<smiles>"/"<rdkit>"), ``record``,
    ``natoms``, ``rotors``, ``chains``, ``steps``, ``evaluations``, ``seconds``; ``search``: the
    preset searched with when dock() chose it or was given one (None for local_only, flex);
    ``status``/``error`` when the record could not be docked. ``molblock``: the record as a
    molfile when it is an SDF record or a prepared SMILES (the molecule docked: Open Babel's
    atoms, hydrogens and protonation), else None; ``note``: a prepared SMILES's note ("net
    charge +0 -> -1 at pH 7.4", "" when none)."""

    def __repr__(self):
        if self.error:
            return "<vsgrid.DockResult %s: %s>" % (self.name, self.error)
        return "<vsgrid.DockResult %s: %d poses, best %.3f kcal/mol>" % (self.name, len(self.poses),
                                                                         self.poses[0].score["total"])

    def to_rdkit(self, mol=None, pose=0):
        """A copy of the RDKit molecule ``mol`` (the one docked) with the pose's coordinates on
        every atom: the model's atoms as docked; each hydrogen the model merged (non-polar H)
        moved rigidly with its heavy atom (the superposition of the heavy atom and its
        neighbours, which move with it, from input to pose); polar hydrogens vsgrid added to a
        molecule without hydrogens (``added_hydrogens``) added to the copy, bonded as docked.
        Without ``mol``: the record's own molecule (``molblock``: an SDF record, or the molecule
        prepared from a SMILES, whose atoms are not those of the SMILES's RDKit molecule, so a
        SMILES-docked record takes no ``mol``)."""
        from rdkit import Chem
        from rdkit.Geometry import Point3D
        if mol is None:
            if not self.molblock:
                raise ValueError("to_rdkit: give the RDKit molecule docked (this record is no SDF record)")
            mol = Chem.MolFromMolBlock(self.molblock, removeHs=False)
            if mol is None:
                mol = Chem.MolFromMolBlock(self.molblock, removeHs=False, sanitize=False)
            if mol is None:
                raise ValueError("to_rdkit: RDKit cannot read the record's molfile")
        elif self.molblock and "> <vsgrid_smiles>" in self.molblock:
            raise ValueError("to_rdkit: this record was prepared from a SMILES (its atoms are Open Babel's, not "
                             "those of the molecule given): call to_rdkit() without a molecule")
        elif mol.GetNumConformers() == 0:
            raise ValueError("to_rdkit: the molecule has no conformer")
        m = Chem.RWMol(mol)
        n0 = m.GetNumAtoms()
        for heavy in getattr(self, "added_hydrogens", []):
            if heavy < n0:
                h = m.AddAtom(Chem.Atom(1))
                m.AddBond(int(heavy), h, Chem.BondType.SINGLE)
                # the hydrogen an RDKit atom counted (RemoveHs leaves explicit-H counts) is now an atom
                at = m.GetAtomWithIdx(int(heavy))
                if at.GetNumExplicitHs() > 0:
                    at.SetNumExplicitHs(at.GetNumExplicitHs() - 1)
        m = m.GetMol()
        m.UpdatePropertyCache(strict=False)
        conf = m.GetConformer()
        old = [conf.GetAtomPosition(i) for i in range(n0)]
        xyz = self.poses[pose].coordinates
        new = {}
        for i, a in enumerate(self.record_atom):
            new[int(a)] = tuple(float(v) for v in xyz[i])
        for a in range(m.GetNumAtoms()):
            if a not in new:
                continue
            conf.SetAtomPosition(a, Point3D(*new[a]))
        for a in range(n0):
            if a in new:
                continue
            atom = m.GetAtomWithIdx(a)
            heavy = [nb.GetIdx() for nb in atom.GetNeighbors() if nb.GetIdx() in new]
            if not heavy:
                continue
            c = heavy[0]
            # points rigid with c's body: c, its neighbours (a rotor turns about its own axis), and
            # for a terminal c (methyl) its neighbour's neighbours
            ref = [c] + [nb.GetIdx() for nb in m.GetAtomWithIdx(c).GetNeighbors() if nb.GetIdx() in new and nb.GetIdx() < n0]
            if len(ref) < 3:
                for b in list(ref[1:]):
                    ref += [nb.GetIdx() for nb in m.GetAtomWithIdx(b).GetNeighbors()
                            if nb.GetIdx() in new and nb.GetIdx() < n0 and nb.GetIdx() not in ref]
            p = _rigid_place([tuple(old[k]) for k in ref], [new[k] for k in ref], tuple(old[a]))
            conf.SetAtomPosition(a, Point3D(*p))
        return m


def dock(mapset_prefix, ligand, search=None, device="auto", seed=0, poses=9, scoring="vina",
         exhaustiveness=None, steps=None, min_rmsd=None, threads=0, all_records=False, record=None,
         receptor=None, focus_chains=None, focus_steps=None, ph=None, minimize=None, stereo=None,
         embed=None, rigid_macrocycles=False, max_torsions=32, flex=None, local_only=False):
    """Docks a ligand into a Vina/Vinardo map set (`vsgrid maps --scoring vina -o PREFIX`) by
    vsg_dock_batch, as `vsgrid dock PREFIX LIGAND --search S --seed N --devices D` does:
    ``search`` "fast", "balanced", "detail", "thorough" or "vina" (the presets; ``exhaustiveness``,
    ``steps``, ``focus_chains`` and ``focus_steps`` override them); None (the default, as `vsgrid
    dock`'s): each record's by its box, thorough when the maps' box is more than twice the
    record's own (a cube of 2 × (its heavy atoms' reach from their centre + 4 Å)), else detail
    (vsg_dock_default_search; the result's ``search`` says which; the flex path: detail), ``device`` "auto" (the GPU when usable), "cpu", "gpu", or a GPU
    number or list of them (the records shared among them by cost).
    ``ligand``: a file (SDF, MOL2, PDBQT, PDB; SMILES .smi/.ism/.csv), an RDKit molecule (with a
    3D conformer: written to a temporary SDF with its partial charges; without one: as its
    isomeric SMILES), a :class:`Smiles`, or a list of these (as :func:`screen` takes them; record
    numbers and messages then count over the list). A SMILES is prepared in 3D first, as
    `vsgrid dock LIG.smi` does: ``ph`` (7.4, a pH in [0, 14], or "none") and ``minimize``
    (force-field steps) and ``stereo`` ("any" or "specified") and ``embed`` ("rdkit" or
    "openbabel") as the command's --ph, --minimize, --stereo and --embed; ``rigid_macrocycles``
    keeps rings of 12..33 atoms rigid, as --rigid-macrocycles (by default they are opened as
    Meeko opens them and searched with Vina's glue term); a SMILES that cannot be prepared raises its status's error (FormatError for bad_smiles, DataError for bad_element,
    UnsupportedError without Open Babel) with the message naming "<smiles>:1" (or file:line).
    Returns a :class:`DockResult` of its one record (``record``: the
    1-based record of a multi-record file; a file of several records without it raises
    :class:`ArgumentError`, as `vsgrid dock` exits 2), or with ``all_records`` a list of them
    (record i docked with seed + i, as `vsgrid screen --placement flexible`). A best pose outside
    the maps' box or touching no receptor atom raises :class:`DataError` (a row's ``error`` with
    ``all_records``); later such poses are dropped (vsg_dock_pose_check). ``receptor``: the
    receptor the maps were made from (a path; a PDB is prepared): the final poses are refined
    and scored on its atoms, as `vsgrid dock --receptor` and `vina --receptor` do.
    ``max_torsions`` (32, as `vsgrid dock --max-torsions`): a record with more torsions is not
    searched but raises :class:`DataError` (a row's ``error`` with ``all_records``) at once, naming
    the count: a receptor passed as the ligand has hundreds, and its search would take minutes.
    ``scoring="ad4"``: the AutoDock4 function (AutoDock-GPU's) on an AutoDock4 map set
    (``mapset_prefix``: PREFIX of PREFIX.maps.fld, or the .fld itself), as `vsgrid dock --scoring
    ad4`: on the GPU when there is one (``device`` "gpu" or a GPU number: that GPU; "cpu": the CPU
    twin; a record over the GPU's limits falls back to the CPU under "auto"); an SDF/MOL2/SMILES
    record is docked as the PDBQT prepare-ligands writes for it (macrocycles rigid); each pose's
    ``score`` holds autodock4's epdb terms (total = estimated free energy of binding, inter,
    vdw_hb_desolv, elec, intra, torsional, unbound, torsdof, outside) and poses are best free
    energy first; a best pose outside the grid or repulsive raises :class:`DataError` (later ones
    are dropped). ``receptor`` and ``posebusters_valid`` are the Vina functions' (None here);
    hydrated docking's W waters come back unjudged (as `vsgrid dock --no-dry`).
    ``flex``: flexible receptor side chains, as `vsgrid dock --flex FLEX.pdbqt` (Vina's ``--flex``:
    prepare_flexreceptor's residues, searched with the ligand; the map set must be the rigid
    part's, and ``receptor``, when given, that rigid part; the Vina functions only): on the GPU as
    `dock` chooses one, else the CPU twin; each pose gets ``flex`` (dict: the residues'
    ``coordinates`` in the file's atom order, ``ligand_flex`` (part of score inter), ``flex_rigid``
    and ``flex_intra`` (part of score intra), ``outside``); PoseBusters' checks are not run.
    ``local_only``: no search, the input pose minimised in place and scored, as `vsgrid dock
    --local-only` (Vina's --local_only; with scoring="ad4" too), on the CPU: the crystal pose's own
    minimum, to tell a scoring function's miss (it scores worse than the docked pose) from a
    search's; one pose a record."""
    if isinstance(max_torsions, bool) or not isinstance(max_torsions, int) or not 0 <= max_torsions <= 1000:
        raise ValueError("max_torsions: a count of 0 to 1000")
    p = _lib.DockParams()
    _L.vsg_dock_params_default(ctypes.byref(p))
    # no effort given: each record's preset by its box (_box_search), from detail's parameters
    by_box = search is None and exhaustiveness is None and steps is None and focus_chains is None and focus_steps is None
    _check(_L.vsg_dock_params_effort(ctypes.byref(p), str(search or "detail").encode(), int(exhaustiveness or 0), int(steps or 0),
                                     -1 if focus_chains is None else int(focus_chains), int(focus_steps or 0)))
    if min_rmsd is not None:
        p.min_rmsd = float(min_rmsd)
    p.poses = int(poses)
    p.seed = int(seed)
    p.threads = int(threads)
    if local_only and flex is not None:
        raise ValueError("local_only: not with flex (as vsgrid dock --flex --local-only)")
    if local_only and scoring != "ad4":
        return _dock_local(mapset_prefix, ligand, p, scoring, receptor, all_records, record, max_torsions,
                           dict(ph=ph, minimize=minimize, stereo=stereo, embed=embed, rigid_macrocycles=rigid_macrocycles))
    if flex is not None:
        if scoring == "ad4":
            raise ValueError("flex: the Vina and Vinardo functions take flexible side chains, not scoring='ad4'")
        return _dock_flex(mapset_prefix, ligand, p, device, all_records, record, max_torsions, scoring,
                          os.fsdecode(os.fspath(flex)), receptor,
                          dict(ph=ph, minimize=minimize, stereo=stereo, embed=embed, rigid_macrocycles=rigid_macrocycles))
    if scoring == "ad4":
        if receptor is not None:
            raise ValueError("receptor: the Vina functions' final refinement; scoring='ad4' scores on the maps")
        return _dock_ad4(mapset_prefix, ligand, p, "cpu" if local_only else device, all_records, record, max_torsions,
                         dict(ph=ph, minimize=minimize, stereo=stereo, embed=embed), local_only,
                         by_box and not local_only, search or "detail")
    if isinstance(device, (list, tuple)) or (isinstance(device, int) and not isinstance(device, bool)):
        gpus = list(device) if isinstance(device, (list, tuple)) else [device]
        if not 1 <= len(gpus) <= 16:
            raise ValueError("device: 1 to 16 GPU numbers")
        dev, p.ngpus = 2, len(gpus)
        p.gpus[:len(gpus)] = [int(g) for g in gpus]
    else:
        dev = _choice(_DEVICES, device, "device")
    t = ctypes.c_void_p()
    _vina_target(mapset_prefix, scoring, t)
    rec = None  # the receptor's atoms: the final refinement, and the pose checks' receptor tests
    if receptor is not None:
        try:
            rec = Molecule.read(receptor, prepare="pdbqt")
            _check(_L.vsg_vina_target_add_receptor(t, rec._h))
        except BaseException:
            _L.vsg_vina_target_free(t)
            raise
    results = []
    try:
        with _Ligands(ligand) as lf:
            path = lf.describe()
            r = _Reader(lf.paths, keep_text=True, ph=ph, minimize=minimize, stereo=stereo, embed=embed,
                        rigid_macrocycles=rigid_macrocycles)
            ligs = []
            try:
                extra, seen, added_h = [], 0, []
                for lig in r:
                    seen += 1
                    if not all_records and record is not None and seen < int(record):
                        extra.append(lig)  # released below with the others
                        continue
                    if not all_records and ligs:  # a second record: which one was meant?
                        extra.append(lig)
                        break
                    ligs.append(lig)
                    # polar hydrogens a file without hydrogens left out, as `vsgrid dock` adds them
                    # (a warning names the record; the added atoms follow the record's own)
                    added_h.append(_complete_hydrogens(lig))
                    if not all_records and record is not None:
                        break
                for lig in extra:
                    _L.vsg_ligand_release(ctypes.byref(lig))
                if not all_records and record is None and len(extra):
                    raise ArgumentError(-5, "%s holds more than one record: dock docks one; pass record=N, or "
                                        "all_records=True to dock them all" % path)
                if not ligs and record is not None:
                    raise ArgumentError(-5, "%s: no record %d (the file has %d)" % (path, int(record), seen))
                if not ligs:
                    raise FormatError(-2, "%s: no record" % path)
                over = {}  # index in ligs -> the record's torsions, when over max_torsions
                for i, lg in enumerate(ligs):
                    if lg.status == 0:
                        rot = _torsions(lg)
                        if rot is not None and rot > max_torsions:
                            over[i] = rot
                ok = [lg for i, lg in enumerate(ligs) if lg.status == 0 and i not in over]
                n = len(ok)
                res = (_lib.DockResult * max(n, 1))()
                status = (ctypes.c_int * max(n, 1))()
                msgs = ((ctypes.c_char * 256) * max(n, 1))()
                searches = [search or "detail"] * n
                if n and by_box:
                    vb = _lib.VinaBox()
                    _L.vsg_vina_target_is_maps(t, ctypes.byref(vb))
                    searches = [_box_search(vb.size, lg) for lg in ok]
                # one batch a search (a record's result does not depend on its batch's other records)
                for preset in sorted(set(searches)):
                    idx = [j for j in range(n) if searches[j] == preset]
                    q = _lib.DockParams.from_buffer_copy(p)
                    if by_box:
                        _check(_L.vsg_dock_params_effort(ctypes.byref(q), preset.encode(), 0, 0, -1, 0))
                    m = len(idx)
                    arr = (ctypes.POINTER(_lib.Ligand) * m)(*[ctypes.pointer(ok[j]) for j in idx])
                    seeds = (ctypes.c_uint64 * m)(*[(int(seed) + (ok[j].index if all_records else 0)) & 0xFFFFFFFFFFFFFFFF
                                                   for j in idx])  # one record: seed, as `vsgrid dock --seed`
                    sres, sstat, smsg = (_lib.DockResult * m)(), (ctypes.c_int * m)(), ((ctypes.c_char * 256) * m)()
                    _check(_L.vsg_dock_batch(t, arr, m, seeds, ctypes.byref(q), dev, sres, sstat, smsg))
                    for a, j in enumerate(idx):
                        res[j], status[j], msgs[j] = sres[a], sstat[a], smsg[a]
                k = 0
                for i, (lg, hs) in enumerate(zip(ligs, added_h)):
                    d = DockResult()
                    source, record, message = lf.relabel(_s(lg.source), lg.record, _s(lg.message))
                    d.name, d.source, d.record, d.poses, d.error, d.status = (_s(lg.name), source, record, [], None,
                                                                              lg.status)
                    d.note = message if lg.status == 0 else ""  # a prepared SMILES's note
                    d.molblock = _molblock(lg)
                    d.record_atom, d.natoms, d.rotors = [], 0, 0
                    d.added_hydrogens = hs
                    d.chains = d.steps = d.evaluations = 0
                    d.seconds = 0.0
                    d.search = None
                    if lg.status != 0:
                        d.error = message
                    elif i in over:
                        d.status = -9
                        d.error = ("%s: %d torsions, over max_torsions %d (a receptor given as the ligand? raise "
                                   "max_torsions to dock it)" % (path, over[i], max_torsions))
                    else:
                        rr, st = res[k], status[k]
                        d.status, d.search = st, searches[k]
                        if st != 0:
                            d.error = lf.relabel(_s(lg.source), lg.record, _s(msgs[k].value))[2]
                        else:
                            if _fill_checked(d, t, rr, path, "best pose"):
                                _check_poses(d, lg, rec, t, rr)
                        _L.vsg_dock_result_release(ctypes.byref(res[k]))
                        k += 1
                    results.append(d)
            finally:
                for lg in ligs:
                    _L.vsg_ligand_release(ctypes.byref(lg))
                r.close()
    finally:
        _L.vsg_vina_target_free(t)
    if not all_records:
        d = results[0]
        if d.error:
            raise _error(d.status if d.status < 0 else -9, d.error)
        return d
    return results


def _one_gpu(device, what):
    """The GPU a single-record call runs on (None: the CPU twin) and whether the choice was "auto"
    (a record over the GPU's limits then falls back to the CPU)."""
    if isinstance(device, (list, tuple)):
        if len(device) != 1:
            raise ValueError("device: %s docks a record on one GPU" % what)
        device = device[0]
    if isinstance(device, int) and not isinstance(device, bool):
        return device, False
    dev = _choice(_DEVICES, device, "device")
    return (-1 if dev == 2 or (dev == 0 and gpu_count() > 0) else None), dev == 0


def _vina_target(mapset_prefix, scoring, t):
    """The Vina/Vinardo map set PREFIX into t (vsg_vina_target_maps); an AutoDock4 set given instead
    raises FormatError saying so, as `vsgrid dock` does."""
    st = _L.vsg_vina_target_maps(_b(mapset_prefix), _choice({"vina": 0, "vinardo": 1}, scoring, "scoring"), ctypes.byref(t))
    if st != 0:
        fld = os.fsdecode(os.fspath(mapset_prefix)) + ".maps.fld"
        if os.path.exists(fld):
            raise FormatError(st, "%s; %s is an AutoDock4 map set: dock on it with scoring='ad4'"
                              % (_s(_L.vsg_last_error()), fld))
        _check(st)


def _dock_records(ligand, all_records, record, reader_options, dock_one):
    """The records dock() docks one at a time (scoring="ad4", flex): read first, as the Vina path
    reads them (a second record is refused before any search), then dock_one(lig, lf, path, offset)
    for each (offset: the seed's, the record's index with all_records), released after."""
    results = []
    with _Ligands(ligand) as lf:
        path = lf.describe()
        r = _Reader(lf.paths, keep_text=True, **reader_options)
        ligs, extra, seen = [], 0, 0
        try:
            for lig in r:
                seen += 1
                if all_records or (record is not None and seen == int(record)) or (record is None and not ligs):
                    ligs.append(lig)
                else:
                    extra += 1
                    _L.vsg_ligand_release(ctypes.byref(lig))
                if not all_records and ((record is not None and ligs) or (record is None and extra)):
                    break
            if not all_records and record is None and extra:
                raise ArgumentError(-5, "%s holds more than one record: dock docks one; pass record=N, or "
                                    "all_records=True to dock them all" % path)
            for lig in ligs:
                results.append(dock_one(lig, lf, path, lig.index if all_records else 0))
        finally:
            for lig in ligs:
                _L.vsg_ligand_release(ctypes.byref(lig))
            r.close()
    if not results:
        if record is not None:
            raise ArgumentError(-5, "%s: no record %d (the file has %d)" % (path, int(record), seen))
        raise FormatError(-2, "%s: no record" % path)
    if not all_records:
        d = results[0]
        if d.error:
            raise _error(d.status if d.status < 0 else -9, d.error)
        return d
    return results


def _box_search(size, lig):
    """The preset `vsgrid dock` searches record lig with in a box of size (Å) when no effort is
    given: thorough when the box is over twice the record's own, else detail (vsg_dock_default_search)."""
    box = (ctypes.c_double * 3)(*size)
    return _s(_L.vsg_dock_default_search(_L.vsg_dock_box_ratio(box, ctypes.byref(lig))))


def _dock_ad4(prefix, ligand, p, device, all_records, record, max_torsions, smiles, local_only=False, by_box=False,
              search="detail"):
    """dock(scoring="ad4"): each record as `vsgrid dock --scoring ad4` docks it (vsg_dock_ad4_gpu or
    vsg_dock_ad4_cpu), record i of all_records with seed + i."""
    if not (_lib.has("vsg_dock_ad4_gpu") and _lib.has("vsg_dock_ad4_cpu")):
        raise ImportError("this libvsgrid has no AutoDock4 docking (vsg_dock_ad4_cpu/gpu)")
    gpu, auto = _one_gpu(device, "scoring='ad4'")
    prefix = os.fsdecode(os.fspath(prefix))
    fld = prefix if prefix.endswith(".fld") else prefix + ".maps.fld"
    if not os.path.exists(fld) and os.path.exists(prefix + ".C_H.map"):  # the common slip, as `vsgrid dock` says it
        raise FormatError(-2, "%s is a Vina map set; scoring='ad4' docks on an AutoDock4 map set: maps(receptor, "
                          "scoring='ad4', prefix=PREFIX) or 'vsgrid maps REC.pdbqt --scoring ad4' makes PREFIX.maps.fld"
                          % prefix)
    t = ctypes.c_void_p()
    _check(_L.vsg_ad4_target_read(_b(fld), None, ctypes.byref(t)))
    try:
        return _dock_records(ligand, all_records, record, dict(smiles, rigid_macrocycles=True),
                             lambda lig, lf, path, offset: _dock_ad4_one(t, lig, lf, path, p, gpu, auto, max_torsions,
                                                                         offset, local_only, by_box, search))
    finally:
        _L.vsg_ad4_target_free(t)


def _new_result(lig, lf):
    """A record's DockResult before its search: names, status, note, molblock."""
    d = DockResult()
    source, rec_no, message = lf.relabel(_s(lig.source), lig.record, _s(lig.message))
    d.name, d.source, d.record, d.poses, d.error, d.status = _s(lig.name), source, rec_no, [], None, lig.status
    d.note = message if lig.status == 0 else ""
    d.molblock = _molblock(lig)
    d.record_atom, d.natoms, d.rotors, d.added_hydrogens = [], 0, 0, []
    d.chains = d.steps = d.evaluations = 0
    d.seconds = 0.0
    d.search = None
    if lig.status != 0:
        d.error = message
    return d


def _over_torsions(d, lig, path, max_torsions):
    """Marks d refused when the record has more torsions than max_torsions (True then)."""
    rot = _torsions(lig)
    if rot is not None and rot > max_torsions:
        d.status = -9
        d.error = ("%s: %d torsions, over max_torsions %d (a receptor given as the ligand? raise max_torsions to "
                   "dock it)" % (path, rot, max_torsions))
        return True
    return False


def _vina_record(lig, lf, path, max_torsions):
    """A record's DockResult before a Vina-function call, its hydrogens completed; d.error set
    when it is not to be docked (a bad record, or over max_torsions)."""
    d = _new_result(lig, lf)
    if not d.error:
        d.added_hydrogens = _complete_hydrogens(lig)
        _over_torsions(d, lig, path, max_torsions)
    return d


def _call_failed(d, st, lig, lf):
    """d with the failed library call's status and its message (named by file and record)."""
    d.status, d.error = st, lf.relabel(_s(lig.source), lig.record, _s(_L.vsg_last_error()))[2]
    return d


def _dock_flex(mapset_prefix, ligand, p, device, all_records, record, max_torsions, scoring, flex, receptor, reader_options):
    """dock(flex=...): each record with the flex residues as `vsgrid dock --flex` docks it
    (vsg_dock_flex_gpu or vsg_dock_flex_cpu), record i of all_records with seed + i."""
    if not (_lib.has("vsg_dock_flex_gpu") and _lib.has("vsg_dock_flex_cpu")):
        raise ImportError("this libvsgrid has no flexible side chains (vsg_dock_flex_cpu/gpu)")
    if isinstance(device, (list, tuple)) or (isinstance(device, int) and not isinstance(device, bool)):
        gpu, auto = _one_gpu(device, "flex")
    else:
        dev = _choice(_DEVICES, device, "device")
        # as `vsgrid dock --flex` chooses: the GPU by vsg_dock_auto_device's rule under "auto"
        gpu = -1 if dev == 2 or (dev == 0 and _L.vsg_dock_auto_device(ctypes.byref(p)) == 2) else None
        auto = dev == 0
    t = ctypes.c_void_p()
    _vina_target(mapset_prefix, scoring, t)
    fx = ctypes.c_void_p()
    try:
        _check(_L.vsg_flex_read(_b(flex), ctypes.byref(fx)))
        _check(_L.vsg_flex_check_maps(t, fx))  # maps of the rigid part only
        if receptor is not None:
            rec = Molecule.read(receptor, prepare="pdbqt")
            _check(_L.vsg_flex_check_rigid(fx, rec._h))  # the rigid part, without the flex atoms
            _check(_L.vsg_vina_target_add_receptor(t, rec._h))
        info = _lib.FlexInfo()
        _L.vsg_flex_get_info(fx, ctypes.byref(info))

        def one(lig, lf, path, offset):
            d = _vina_record(lig, lf, path, max_torsions)
            if d.error:
                return d
            q = _lib.DockParams.from_buffer_copy(p)
            q.seed = (int(p.seed) + offset) & 0xFFFFFFFFFFFFFFFF
            rr, fp, st, on = _lib.DockResult(), ctypes.POINTER(_lib.FlexPose)(), -1, gpu
            if on is not None:
                st = _L.vsg_dock_flex_gpu(t, ctypes.byref(lig), fx, ctypes.byref(q), on, ctypes.byref(rr), ctypes.byref(fp))
                if st == -6 and auto:  # VSG_E_LIMIT: over the GPU's atoms or torsions, the CPU twin docks it
                    on = None
            if on is None:
                st = _L.vsg_dock_flex_cpu(t, ctypes.byref(lig), fx, ctypes.byref(q), ctypes.byref(rr), ctypes.byref(fp))
            if st != 0:
                return _call_failed(d, st, lig, lf)
            npose = rr.npose
            try:
                if not _fill_checked(d, t, rr, path, "best pose"):
                    return d
                for k, pose in enumerate(d.poses):
                    xyz = [fp[k].xyz[i] for i in range(3 * info.natoms)]
                    if _np is not None:
                        xyz = _np.array(xyz, dtype=_np.float64).reshape(-1, 3)
                    else:
                        xyz = [tuple(xyz[3 * i:3 * i + 3]) for i in range(info.natoms)]
                    pose.flex = {"coordinates": xyz, "ligand_flex": fp[k].ligand_flex, "flex_rigid": fp[k].flex_rigid,
                                 "flex_intra": fp[k].flex_intra, "outside": fp[k].outside}
            finally:
                _L.vsg_flex_poses_free(fp, npose)
                _L.vsg_dock_result_release(ctypes.byref(rr))
            return d
        return _dock_records(ligand, all_records, record, reader_options, one)
    finally:
        if fx:
            _L.vsg_flex_free(fx)
        _L.vsg_vina_target_free(t)


def _dock_local(mapset_prefix, ligand, p, scoring, receptor, all_records, record, max_torsions, reader_options):
    """dock(local_only=True) with a Vina function: each record's own pose minimised in place
    (vsg_dock_local), checked and scored as the search's poses are."""
    t = ctypes.c_void_p()
    _vina_target(mapset_prefix, scoring, t)
    try:
        rec = None
        if receptor is not None:
            rec = Molecule.read(receptor, prepare="pdbqt")
            _check(_L.vsg_vina_target_add_receptor(t, rec._h))

        def one(lig, lf, path, offset):
            d = _vina_record(lig, lf, path, max_torsions)
            if d.error:
                return d
            rr = _lib.DockResult()
            st = _L.vsg_dock_local(t, ctypes.byref(lig), ctypes.byref(p), ctypes.byref(rr))
            if st != 0:
                return _call_failed(d, st, lig, lf)
            try:
                if _fill_checked(d, t, rr, path, "the minimised pose"):
                    _check_poses(d, lig, rec, t, rr)
            finally:
                _L.vsg_dock_result_release(ctypes.byref(rr))
            return d
        return _dock_records(ligand, all_records, record, reader_options, one)
    finally:
        _L.vsg_vina_target_free(t)


def _dock_ad4_one(t, lig, lf, path, p, gpu, auto, max_torsions, offset, local_only=False, by_box=False, search="detail"):
    d = _new_result(lig, lf)
    if d.error:
        return d
    st = 0
    if lig.format != 3:  # not VSG_LIG_PDBQT: as prepare-ligands writes it (AutoDock types, charges, its tree)
        d.added_hydrogens = _complete_hydrogens(lig)
        st = _L.vsg_ligand_as_pdbqt(ctypes.byref(lig))
        if st == 0 and lig.status != 0:
            st = lig.status
    if st != 0:
        return _call_failed(d, st, lig, lf)
    if _over_torsions(d, lig, path, max_torsions):
        return d
    q = _lib.DockParams.from_buffer_copy(p)
    if by_box:  # no effort given: the preset by the box, as `vsgrid dock --scoring ad4` chooses it
        lo, hi = (ctypes.c_double * 3)(), (ctypes.c_double * 3)()
        _check(_L.vsg_ad4_target_box(t, lo, hi))
        search = _box_search([hi[i] - lo[i] for i in range(3)], lig)
        _check(_L.vsg_dock_params_effort(ctypes.byref(q), search.encode(), 0, 0, -1, 0))
    d.search = None if local_only else search
    q.seed = (int(p.seed) + offset) & 0xFFFFFFFFFFFFFFFF
    rr = _lib.DockResult()
    sc = (_lib.Ad4Score * (max(int(p.poses), 1) + 1))()
    st = -1
    if local_only:
        st, gpu = _L.vsg_dock_ad4_local(t, ctypes.byref(lig), ctypes.byref(q), ctypes.byref(rr), sc), None
    elif gpu is not None:
        st = _L.vsg_dock_ad4_gpu(t, ctypes.byref(lig), ctypes.byref(q), gpu, ctypes.byref(rr), sc)
        if st == -6 and auto:  # VSG_E_LIMIT: over the GPU's atoms or torsions, the CPU twin docks it
            gpu = None
    if gpu is None and not local_only:
        st = _L.vsg_dock_ad4_cpu(t, ctypes.byref(lig), ctypes.byref(q), ctypes.byref(rr), sc)
    if st != 0:
        return _call_failed(d, st, lig, lf)
    try:
        if rr.npose < 1 or sc[0].outside or not sc[0].inter < 0:  # vsgrid dock's rule: never a meaningless best
            why = ("atoms lie outside the maps' grid" if rr.npose and sc[0].outside
                   else "the pose clashes with the receptor (intermolecular energy repulsive)" if rr.npose
                   and sc[0].inter > 0 else "the pose touches no receptor atom")
            d.status, d.error = -9, "%s: best pose means nothing: %s" % (path, why)
            return d
        _fill_dock(d, rr)
        keep = 1
        while keep < rr.npose and not sc[keep].outside and sc[keep].inter < 0:
            keep += 1
        del d.poses[keep:]
        for k, pose in enumerate(d.poses):
            pose.score = _struct_dict(sc[k])
    finally:
        _L.vsg_dock_result_release(ctypes.byref(rr))
    return d


def _torsions(lig):
    """The active torsions of a record's Vina model (vsg_vina_ligand_get_info's rotors), or None
    when the model cannot be built (the docking call then says why)."""
    vl = ctypes.c_void_p()
    if _L.vsg_vina_ligand_new(ctypes.byref(lig), ctypes.byref(vl)) != 0:
        return None
    try:
        info = _lib.VinaLigandInfo()
        _L.vsg_vina_ligand_get_info(vl, ctypes.byref(info))
        return info.rotors
    finally:
        _L.vsg_vina_ligand_free(vl)


def _molblock(lig):
    """The record's text when it is an SDF record (a prepared SMILES is one), else None."""
    if lig.format != 1 or not lig.text or not lig.text_len:
        return None
    return ctypes.string_at(lig.text, lig.text_len).decode("utf-8", errors="replace")


def _complete_hydrogens(lig):
    """vsg_ligand_complete_hydrogens on a record read by _Reader (warning through the library's
    handler): the heavy atom of each added hydrogen (the record's bonds to atoms past its own)."""
    if lig.status != 0:
        return []
    n0, added = lig.natoms, ctypes.c_int(0)
    _check(_L.vsg_ligand_complete_hydrogens(ctypes.byref(lig), ctypes.byref(added), 1))
    return [lig.bonds[b].a for b in range(lig.nbonds) if lig.bonds[b].b >= n0 and lig.bonds[b].a < n0]


def _rigid_place(ref_old, ref_new, x):
    """x moved by the rigid motion that takes the points ref_old onto ref_new (Kabsch; one point:
    a translation; collinear points: the rotation about their line is left free, which leaves a
    point on that line where it belongs)."""
    if _np is None or len(ref_old) < 2:
        d = [ref_new[0][k] - ref_old[0][k] for k in range(3)]
        return tuple(x[k] + d[k] for k in range(3))
    P, Q = _np.array(ref_old, dtype=float), _np.array(ref_new, dtype=float)
    pc, qc = P.mean(axis=0), Q.mean(axis=0)
    H = (P - pc).T @ (Q - qc)
    U, S, Vt = _np.linalg.svd(H)
    D = _np.diag([1.0, 1.0, _np.sign(_np.linalg.det(Vt.T @ U.T)) or 1.0])
    R = Vt.T @ D @ U.T
    return tuple(float(v) for v in R @ (_np.array(x, dtype=float) - pc) + qc)


def _check_poses(d, lig, rec, t, rr):
    """PoseBusters' checks of each pose of d (vsg_dock_pose_checks against the record as read,
    as `vsgrid dock` checks them; rec: the receptor Molecule or None)."""
    chk = ctypes.c_void_p()
    if _L.vsg_pose_checker_new(ctypes.byref(lig), rec._h if rec is not None else None, ctypes.byref(chk)) != 0:
        return  # (a record the checks cannot take: valid stays None)
    try:
        for j, pose in enumerate(d.poses):
            pc = _lib.PoseCheckResult()
            if _L.vsg_dock_pose_checks(chk, t, ctypes.byref(rr), j, ctypes.byref(pc)) == 0:
                buf = ctypes.create_string_buffer(200)
                _L.vsg_pose_check_failed(ctypes.byref(pc), buf, 200)
                pose.posebusters_valid = bool(pc.valid)
                pose.posebusters_failed = [x for x in _s(buf.value).split(";") if x]
    finally:
        _L.vsg_pose_checker_free(chk)


def _fill_checked(d, t, rr, path, what):
    """The library's rule (vsg_dock_pose_check), as `vsgrid dock` applies it: a best pose outside the
    maps' box or away from the receptor makes d an error (False); else d gets the result's poses
    (_fill_dock) up to the first later one that fails the same check (True)."""
    why = ctypes.create_string_buffer(320)
    cst = _L.vsg_dock_pose_check(t, ctypes.byref(rr), 0, why, 320)
    if cst != 0:
        d.status, d.error = cst, "%s: %s means nothing: %s" % (path, what, _s(why.value))
        return False
    _fill_dock(d, rr)
    keep = 1
    while keep < rr.npose and _L.vsg_dock_pose_check(t, ctypes.byref(rr), keep, None, 0) == 0:
        keep += 1
    del d.poses[keep:]
    return True


def _fill_dock(d, rr):
    d.natoms, d.rotors = rr.natoms, rr.rotors
    d.chains, d.steps, d.evaluations, d.seconds = rr.chains, rr.steps, rr.evaluations, rr.seconds
    d.record_atom = [rr.record_atom[i] for i in range(rr.natoms)]
    for j in range(rr.npose):
        ps = rr.pose[j]
        xyz = [ps.xyz[i] for i in range(3 * rr.natoms)]
        if _np is not None:
            xyz = _np.array(xyz, dtype=_np.float64).reshape(-1, 3)
        else:
            xyz = [tuple(xyz[3 * i:3 * i + 3]) for i in range(rr.natoms)]
        d.poses.append(Pose(xyz, _struct_dict(ps.score), ps.energy, ps.rmsd_input))
