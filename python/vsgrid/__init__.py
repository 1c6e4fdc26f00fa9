"""vsgrid from Python: receptor preparation, grids, map sets, scores, screens and docking over the
public C API.

A thin ctypes layer over ``libvsgrid.so`` (grids/base/vsgrid.h, the one contract): no compiler
step. numpy is used when present (arrays in and out); RDKit molecules are accepted where a
ligand is taken when RDKit is installed.

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
    result = vsgrid.dock("maps/rec", "ligand.sdf", search="fast", seed=1)
    result.poses[0].score["total"], result.poses[0].coordinates

Every failure of the C library raises :class:`Error` (a subclass per status: :class:`FileError`,
:class:`FormatError`, :class:`ArgumentError`, ...) whose message is ``vsg_last_error()``;
arrays of the wrong shape or type raise ``ValueError`` before any C call.
"""
import csv as _csv
import ctypes
import os
import tempfile

from . import _lib
from ._lib import lib as _L

try:
    import numpy as _np
except ImportError:  # numpy is optional: lists then
    _np = None

__all__ = ["Error", "FileError", "FormatError", "NoMemoryError", "DeviceError", "ArgumentError", "LimitError",
           "ConvergenceError", "UnsupportedError", "DataError", "Molecule", "Grid", "MapSet", "DockResult",
           "Pose", "PreparedReceptor", "prepare", "coulomb", "pb", "maps", "score", "screen", "dock",
           "read_ligands", "rdkit_to_sdf",
           "capture_warnings", "LibraryWarning", "version", "library_version", "library_path", "gpu_count",
           "XS_TYPES"]

__version__ = "0.2.0"
library_path = _lib.path


def library_version():
    """The C library's version at run time ("0.2.0")."""
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


_ERRORS = {-1: FileError, -2: FormatError, -3: NoMemoryError, -4: DeviceError, -5: ArgumentError, -6: LimitError,
           -7: ConvergenceError, -8: UnsupportedError, -9: DataError}


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
            _check(_L.vsg_vina_map_write(g._h, _b("%s.%s.map" % (os.fspath(prefix), t)), macro))
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


# ---- ligands: files and RDKit molecules --------------------------------------------------
def _is_rdkit(mol):
    return type(mol).__module__.startswith("rdkit")


def rdkit_to_sdf(mols, path, charges="gasteiger", conformers="all"):
    """Writes RDKit molecules to an SDF that vsgrid reads with their partial charges, one record
    per conformer (``conformers="all"``, in conformer order) or of the default conformer only
    (``conformers="first"``); hydrogens as the molecule has them. Charges: each atom's
    "PartialCharge" property (what vsgrid's own SDF carries), else its "_GasteigerCharge", else
    Gasteiger charges computed here by RDKit (``charges="gasteiger"``; ``charges="file"``
    refuses a molecule without them), written as the atom property list
    ``atom.dprop.PartialCharge``."""
    from rdkit import Chem
    from rdkit.Chem import AllChem
    w = Chem.SDWriter(os.fspath(path))
    try:
        for mol in mols:
            m = Chem.Mol(mol)
            if m.GetNumConformers() == 0:
                raise ValueError("RDKit molecule without coordinates (embed it first: AllChem.EmbedMolecule)")
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


class _LigandFile:
    """A path for a ligand argument: a path as given, or a temporary SDF for RDKit molecules."""

    def __init__(self, ligand):
        self.ligand = ligand
        self.tmp = None

    def __enter__(self):
        lig = self.ligand
        if isinstance(lig, (str, bytes, os.PathLike)):
            return os.fspath(lig)
        mols = [lig] if _is_rdkit(lig) else list(lig)
        if not mols or not all(_is_rdkit(m) for m in mols):
            raise ValueError("ligand: a file path, an RDKit molecule or a list of RDKit molecules")
        fd, self.tmp = tempfile.mkstemp(suffix=".sdf", prefix="vsgrid-")
        os.close(fd)
        rdkit_to_sdf(mols, self.tmp)
        return self.tmp

    def __exit__(self, *exc):
        if self.tmp:
            os.unlink(self.tmp)
        return False


class _Reader:
    def __init__(self, paths, keep_text=True):
        arr = (ctypes.c_char_p * len(paths))(*[_b(p) for p in paths])
        self._paths = arr
        o = _lib.LigandReaderOptions(0, 1 if keep_text else 0, 0)
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


def _records(path):
    """Every record of a ligand file as dicts (name, record, status, code, message, coordinates,
    charges, elements, ad_types)."""
    r = _Reader([path], keep_text=False)
    out = []
    try:
        for lig in r:
            atoms = [lig.atoms[i] for i in range(lig.natoms)]
            out.append({"name": _s(lig.name), "record": lig.record, "status": lig.status, "code": _s(lig.code),
                        "message": _s(lig.message), "has_charges": bool(lig.has_charges),
                        "coordinates": [(a.x, a.y, a.z) for a in atoms], "charges": [a.charge for a in atoms],
                        "elements": [_s(a.element) for a in atoms], "ad_types": [_s(a.ad_type) for a in atoms]})
            _L.vsg_ligand_release(ctypes.byref(lig))
    finally:
        r.close()
    return out


def read_ligands(ligand):
    """The records of a ligand file (SDF, MOL2, PDBQT, PDB) or RDKit molecules, as vsgrid's
    reader yields them: a list of dicts with name, record, status (0 = ok), code, message,
    has_charges, coordinates (N×3 array), charges, elements, ad_types."""
    with _LigandFile(ligand) as path:
        recs = _records(path)
    if _np is not None:
        for r in recs:
            r["coordinates"] = _np.array(r["coordinates"], dtype=_np.float64).reshape(-1, 3)
            r["charges"] = _np.array(r["charges"], dtype=_np.float64)
    return recs


# ---- screens -----------------------------------------------------------------------------
def _convert(v):
    if v == "":
        return None
    for f in (int, float):
        try:
            return f(v)
        except ValueError:
            pass
    return v


def _read_csv(path):
    with open(path, newline="") as f:
        return [{k: _convert(v) for k, v in row.items()} for row in _csv.DictReader(f)]


_CHARGES = {"auto": 0, "file": 1, "gasteiger": 2}


def screen(target, ligands, scoring=None, charges="auto", device="cpu", temperature=298.15, sdf_out=None, top=0,
           progress=False, placement="as-is", box=None, around=None, padding=2.0, step=1.0, rotations=1000,
           top_poses=0, poses_out=None):
    """Screens ligand files (a path, a list of paths, an RDKit molecule or a list of them) and
    returns their rows, one dict per input record in input order, the columns of `vsgrid
    screen`'s CSV (index, name, score_kcal_mol, ..., status, message; numbers as int/float,
    empty fields as None; RDKit molecules get source "<rdkit>" and record 1, 2, ... in order).

    ``target``: a .maps.fld path or :class:`MapSet` (AutoDock4 scores), a grid path or
    :class:`Grid` (electrostatics: PB in kT/e at ``temperature``, Coulomb in kcal/mol/e), or,
    with ``scoring="vina"|"vinardo"``, a Vina map-set prefix (`vsgrid screen PREFIX
    --scoring vina`). ``device``: "cpu" (the CPU twin), "auto" (every GPU, else the CPU) or a
    GPU number. ``sdf_out``: also write the scored molecules (the best ``top``) as SDF.

    ``placement="rigid"`` (AutoDock4 map sets): every molecule placed by the exhaustive
    rigid-body search, as `vsgrid screen --placement rigid`: ``rotations`` super-Fibonacci
    rotations (1000) times site points ``step`` Å apart (1.0) in the site box: ``box`` (cx, cy,
    cz, sx, sy, sz), ``around`` a ligand (its first record's atom extent plus ``padding``, 2 Å),
    or the grid's box less 2 Å a side; ``poses_out`` (.pdbqt or .sdf) gets each molecule's best
    ``top_poses`` poses; the rows gain the best pose's columns.

    v1: the rows go through a temporary CSV file that is read back (the C API has no in-memory
    row interface yet). Flexible docking of a library: :func:`dock` with ``all_records=True``."""
    paths_in = [ligands] if isinstance(ligands, (str, bytes, os.PathLike)) or _is_rdkit(ligands) else list(ligands)
    files, tmps = [], []
    try:
        rd = [m for m in paths_in if _is_rdkit(m)]
        if rd:
            if len(rd) != len(paths_in):
                raise ValueError("ligands: paths or RDKit molecules, not both")
            cm = _LigandFile(rd)
            files.append(cm.__enter__())
            tmps.append(cm)
        else:
            files = [os.fspath(p) for p in paths_in]
        fd, csvpath = tempfile.mkstemp(suffix=".csv", prefix="vsgrid-")
        os.close(fd)
        try:
            place = dict(placement=placement, box=box, around=around, padding=padding, step=step,
                         rotations=rotations, top_poses=top_poses, poses_out=poses_out)
            _screen_to(target, files, scoring, charges, device, temperature, sdf_out, top, progress, csvpath, place)
            rows = _read_csv(csvpath)
            if rd:  # the temporary file's name means nothing to the caller
                for row in rows:
                    row["source"] = "<rdkit>"
            return rows
        finally:
            os.unlink(csvpath)
    finally:
        for cm in tmps:
            cm.__exit__(None, None, None)


def _site_box(place, grids):
    """The rigid placement's site box (vsg_place_box), as `vsgrid screen` resolves it."""
    b = _lib.PlaceBox()
    b.step = float(place["step"])
    if place["box"] is not None and place["around"] is not None:
        raise ValueError("give box or around, not both")
    if place["box"] is not None:
        v = [float(x) for x in place["box"]]
        if len(v) != 6 or min(v[3:]) < 0:
            raise ValueError("box: (cx, cy, cz, sx, sy, sz) with sizes >= 0")
        b.center[:], b.half[:] = v[:3], [0.5 * x for x in v[3:]]
    elif place["around"] is not None:
        recs = read_ligands(place["around"])
        if not recs or recs[0]["status"] != 0 or not len(recs[0]["coordinates"]):
            raise FormatError(-2, "around: %s" % (recs[0]["message"] if recs else "no record"))
        xyz = recs[0]["coordinates"]
        lo = [min(p[d] for p in xyz) for d in range(3)]
        hi = [max(p[d] for p in xyz) for d in range(3)]
        b.center[:] = [0.5 * (lo[d] + hi[d]) for d in range(3)]
        b.half[:] = [0.5 * (hi[d] - lo[d]) + float(place["padding"]) for d in range(3)]
    else:
        for d in range(3):
            extent = (grids.n[d] - 1) * grids.spacing[d]
            b.center[d] = grids.origin[d] + 0.5 * extent
            b.half[d] = max(0.5 * extent - 2.0, 0.0)
    return b


def _screen_to(target, files, scoring, charges, device, temperature, sdf_out, top, progress, csvpath, place):
    inputs = (ctypes.c_char_p * len(files))(*[_b(p) for p in files])
    rep = _lib.ScreenReport()
    f = _lib.libc.fopen(_b(csvpath), b"w")
    if not f:
        raise FileError(-1, "cannot write %s" % csvpath)
    st = 0
    try:
        if scoring in ("vina", "vinardo"):
            t = ctypes.c_void_p()
            _check(_L.vsg_vina_target_maps(_b(target), 0 if scoring == "vina" else 1, ctypes.byref(t)))
            try:
                o = _lib.VinaScreenOptions(inputs, len(files), 0, 0, f, 1 if progress else 0)
                st = _L.vsg_vina_screen_run(t, ctypes.byref(o), ctypes.byref(rep))
            finally:
                _L.vsg_vina_target_free(t)
        elif scoring not in (None, "ad4", "elec"):
            raise ValueError("scoring: None (from the target), 'ad4', 'elec', 'vina' or 'vinardo', not %r" % (scoring,))
        else:
            keep = target
            if not isinstance(target, (Grid, MapSet)):
                p = os.fspath(target)
                keep = MapSet.load(p) if p.endswith(".fld") else Grid.load(p)
            if isinstance(keep, MapSet):
                grids = _L.vsg_mapset_grids(keep._h)
            else:
                g = _lib.ScoreGrids()
                _check(_L.vsg_score_grids_from_grid(keep._h, float(temperature), ctypes.byref(g)))
                grids = ctypes.pointer(g)
            o = _lib.ScreenOptions()
            o.inputs, o.ninputs = inputs, len(files)
            o.charges = _choice(_CHARGES, charges, "charges")
            o.kernel = 0
            o.tolerance = 0.01
            if device == "cpu":
                devs = [_lib.VSG_SCREEN_CPU]
            elif device == "auto":
                devs = list(range(min(gpu_count(), 16))) or [_lib.VSG_SCREEN_CPU]
            elif isinstance(device, int):
                devs = [device]
            else:
                raise ValueError("device: 'cpu', 'auto' or a GPU number, not %r" % (device,))
            o.ndevices = len(devs)
            o.devices[:len(devs)] = devs
            o.csv = f
            o.sdf_path = _b(sdf_out) if sdf_out else None
            o.top = int(top)
            o.progress = 1 if progress else 0
            placement = _choice({"as-is": 0, "rigid": 1}, place["placement"], "placement")
            rot = None
            if placement == 1:
                nrot = int(place["rotations"])
                if not 1 <= nrot <= 10000000:
                    raise ValueError("rotations: 1 .. 10000000")
                rot = (_lib.Quat * nrot)()
                _check(_L.vsg_rotations_super_fibonacci(nrot, rot))
                o.placement, o.box = 1, _site_box(place, grids.contents)
                o.rotations, o.nrotations = rot, nrot
                o.top_poses = int(place["top_poses"])
                o.poses_path = _b(place["poses_out"]) if place["poses_out"] else None
            elif place["poses_out"] or place["box"] is not None or place["around"] is not None:
                raise ValueError("box, around and poses_out need placement='rigid'")
            st = _L.vsg_screen_run(grids, ctypes.byref(o), ctypes.byref(rep))
    finally:
        _lib.libc.fclose(f)
    _check(st)


# ---- docking -----------------------------------------------------------------------------
class Pose:
    """One docked pose: ``coordinates`` (natoms×3 array of the model's atoms, Å; model atom i
    is record atom ``record_atom[i]`` of the input), ``score`` (dict: total, inter, intra,
    torsional, unbound, num_tors, outside — what `vina --score_only` gives the pose),
    ``energy`` (inter + intra the search minimised), ``rmsd_input`` (Å, heavy atoms)."""

    def __init__(self, coordinates, score, energy, rmsd_input):
        self.coordinates, self.score, self.energy, self.rmsd_input = coordinates, score, energy, rmsd_input

    def __repr__(self):
        return "<vsgrid.Pose %.3f kcal/mol>" % self.score["total"]


class DockResult:
    """The docking of one record: ``poses`` (best first), ``record_atom`` (input atom index of
    each model atom: SDF/MOL2 non-polar hydrogens are merged into their carbon and have no
    model atom), ``name``, ``natoms``, ``rotors``, ``chains``, ``steps``, ``evaluations``,
    ``seconds``; ``status``/``error`` when the record could not be docked."""

    def __repr__(self):
        if self.error:
            return "<vsgrid.DockResult %s: %s>" % (self.name, self.error)
        return "<vsgrid.DockResult %s: %d poses, best %.3f kcal/mol>" % (self.name, len(self.poses),
                                                                         self.poses[0].score["total"])

    def to_rdkit(self, mol, pose=0):
        """A copy of the RDKit molecule ``mol`` (the one docked) with the pose's coordinates on
        the model's atoms. Merged non-polar hydrogens keep their input positions: call
        ``Chem.AddHs(Chem.RemoveHs(m), addCoords=True)`` to place them again."""
        from rdkit import Chem
        from rdkit.Geometry import Point3D
        m = Chem.Mol(mol)
        conf = m.GetConformer()
        xyz = self.poses[pose].coordinates
        for i, a in enumerate(self.record_atom):
            conf.SetAtomPosition(int(a), Point3D(*(float(v) for v in xyz[i])))
        return m


def dock(mapset_prefix, ligand, search="balanced", device="auto", seed=0, poses=9, scoring="vina",
         exhaustiveness=None, steps=None, min_rmsd=None, threads=0, all_records=False):
    """Docks a ligand into a Vina/Vinardo map set (`vsgrid maps --scoring vina -o PREFIX`) by
    vsg_dock_batch, as `vsgrid dock PREFIX LIGAND --search S --seed N --devices D` does:
    ``search`` "fast", "balanced", "detail" or "vina" (the presets; ``exhaustiveness`` and
    ``steps`` override them), ``device`` "auto" (the GPU when usable), "cpu", "gpu", or a GPU
    number or list of them (the records shared among them by cost).
    ``ligand``: a file (SDF, MOL2, PDBQT) or an RDKit molecule (written to a temporary SDF with
    its partial charges). Returns a :class:`DockResult` of the first record, or with
    ``all_records`` a list of them (record i docked with seed + i, as `vsgrid screen
    --placement flexible`)."""
    p = _lib.DockParams()
    _L.vsg_dock_params_default(ctypes.byref(p))
    _check(_L.vsg_dock_params_preset(ctypes.byref(p), str(search).encode()))
    if exhaustiveness:
        p.exhaustiveness = int(exhaustiveness)
    if steps:
        p.steps = int(steps)
    if min_rmsd is not None:
        p.min_rmsd = float(min_rmsd)
    p.poses = int(poses)
    p.seed = int(seed)
    p.threads = int(threads)
    if isinstance(device, (list, tuple)) or (isinstance(device, int) and not isinstance(device, bool)):
        gpus = list(device) if isinstance(device, (list, tuple)) else [device]
        if not 1 <= len(gpus) <= 16:
            raise ValueError("device: 1 to 16 GPU numbers")
        dev, p.ngpus = 2, len(gpus)
        p.gpus[:len(gpus)] = [int(g) for g in gpus]
    else:
        dev = _choice(_DEVICES, device, "device")
    sf = {"vina": 0, "vinardo": 1}
    t = ctypes.c_void_p()
    _check(_L.vsg_vina_target_maps(_b(mapset_prefix), _choice(sf, scoring, "scoring"), ctypes.byref(t)))
    results = []
    try:
        with _LigandFile(ligand) as path:
            r = _Reader([path], keep_text=True)
            ligs = []
            try:
                for lig in r:
                    ligs.append(lig)
                    if not all_records:
                        break
                if not ligs:
                    raise FormatError(-2, "%s: no record" % path)
                ok = [lg for lg in ligs if lg.status == 0]
                n = len(ok)
                res = (_lib.DockResult * max(n, 1))()
                status = (ctypes.c_int * max(n, 1))()
                msgs = ((ctypes.c_char * 256) * max(n, 1))()
                if n:
                    arr = (ctypes.POINTER(_lib.Ligand) * n)(*[ctypes.pointer(lg) for lg in ok])
                    seeds = (ctypes.c_uint64 * n)(*[(int(seed) + lg.index) & 0xFFFFFFFFFFFFFFFF for lg in ok])
                    _check(_L.vsg_dock_batch(t, arr, n, seeds, ctypes.byref(p), dev, res, status, msgs))
                k = 0
                for lg in ligs:
                    d = DockResult()
                    d.name, d.record, d.poses, d.error, d.status = _s(lg.name), lg.record, [], None, lg.status
                    d.record_atom, d.natoms, d.rotors = [], 0, 0
                    d.chains = d.steps = d.evaluations = 0
                    d.seconds = 0.0
                    if lg.status != 0:
                        d.error = _s(lg.message)
                    else:
                        rr, st = res[k], status[k]
                        d.status = st
                        if st != 0:
                            d.error = _s(msgs[k].value)
                        else:
                            _fill_dock(d, rr)
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
