"""ctypes declarations of the public C API (grids/base/vsgrid.h), and the library's loading.

Only the calls and structs the Python module uses are declared. The struct layouts follow the
header field by field; python/tests/test_errors.py checks them against the library's defaults
(and test_prepare.py the prepare summary against the command's report).
"""
import ctypes
import ctypes.util
import os

c_double_p = ctypes.POINTER(ctypes.c_double)
c_float_p = ctypes.POINTER(ctypes.c_float)
c_int_p = ctypes.POINTER(ctypes.c_int)
c_uint8_p = ctypes.POINTER(ctypes.c_uint8)
c_uint32_p = ctypes.POINTER(ctypes.c_uint32)
c_char_pp = ctypes.POINTER(ctypes.c_char_p)

# ---- status ------------------------------------------------------------------------------
VSG_OK = 0
STATUS_NAMES = {0: "ok", -1: "io", -2: "format", -3: "nomem", -4: "device", -5: "arg", -6: "limit",
                -7: "converge", -8: "unsupported", -9: "data", -10: "stopped"}


# ---- structs -----------------------------------------------------------------------------
class AtomInfo(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("z", ctypes.c_double),
                ("charge", ctypes.c_double), ("radius", ctypes.c_double),
                ("serial", ctypes.c_int), ("residue_number", ctypes.c_int), ("model", ctypes.c_int),
                ("segment", ctypes.c_int), ("line", ctypes.c_int),
                ("name", ctypes.c_char * 5), ("residue_name", ctypes.c_char * 5),
                ("element", ctypes.c_char * 3), ("ad_type", ctypes.c_char * 4),
                ("chain", ctypes.c_char), ("insertion_code", ctypes.c_char)]


class GridShape(ctypes.Structure):
    _fields_ = [("n", ctypes.c_int * 3), ("origin", ctypes.c_double * 3), ("spacing", ctypes.c_double * 3),
                ("units", ctypes.c_char * 16)]


class Ion(ctypes.Structure):
    _fields_ = [("charge", ctypes.c_double), ("molar", ctypes.c_double), ("radius", ctypes.c_double)]


VSG_MAX_IONS = 8


class PBParams(ctypes.Structure):
    _fields_ = [("spacing", ctypes.c_double), ("box_mode", ctypes.c_int), ("fill", ctypes.c_double),
                ("box_center", ctypes.c_double * 3), ("box_size", ctypes.c_double * 3),
                ("around", ctypes.c_void_p), ("padding", ctypes.c_double),
                ("eps_in", ctypes.c_double), ("eps_out", ctypes.c_double), ("temperature", ctypes.c_double),
                ("n_ions", ctypes.c_int), ("ions", Ion * VSG_MAX_IONS),
                ("surface", ctypes.c_int), ("probe", ctypes.c_double), ("spline", ctypes.c_int),
                ("bc", ctypes.c_int), ("focus_file", ctypes.c_char_p), ("nonlinear", ctypes.c_int),
                ("tol", ctypes.c_double), ("max_iter", ctypes.c_int), ("check_every", ctypes.c_int),
                ("precision", ctypes.c_int), ("device", ctypes.c_int), ("gpu_index", ctypes.c_int),
                ("threads", ctypes.c_int), ("max_memory", ctypes.c_double), ("max_gpu_memory", ctypes.c_double),
                ("progress", ctypes.c_int)]


class PBReport(ctypes.Structure):
    _fields_ = [("levels", ctypes.c_int), ("n", ctypes.c_int * 3), ("spacing", ctypes.c_double),
                ("origin", ctypes.c_double * 3), ("iterations", ctypes.c_int), ("total_iterations", ctypes.c_int),
                ("final_change", ctypes.c_double), ("tol", ctypes.c_double), ("converged", ctypes.c_int),
                ("seconds", ctypes.c_double), ("device_start_seconds", ctypes.c_double),
                ("seconds_per_iteration", ctypes.c_double), ("setup_seconds", ctypes.c_double),
                ("omega", ctypes.c_double), ("bytes_per_node", ctypes.c_double), ("peak_bytes", ctypes.c_double),
                ("energy_kt", ctypes.c_double), ("charge_in_box", ctypes.c_double),
                ("charge_outside", ctypes.c_double), ("boundary_nodes", ctypes.c_long),
                ("charged_nodes", ctypes.c_long), ("pattern_nodes", ctypes.c_long),
                ("debye_length", ctypes.c_double), ("kt_kcal", ctypes.c_double),
                ("device", ctypes.c_char * 64), ("precision", ctypes.c_char * 8)]


class Level(ctypes.Structure):
    _fields_ = [("n", ctypes.c_int * 3), ("h", ctypes.c_double), ("origin", ctypes.c_double * 3)]


class CoulombKernel(ctypes.Structure):
    _fields_ = [("model", ctypes.c_int), ("eps", ctypes.c_double), ("scale", ctypes.c_double),
                ("rmin", ctypes.c_double), ("cutoff", ctypes.c_double), ("table", c_double_p),
                ("table_n", ctypes.c_int), ("table_per_a", ctypes.c_double), ("autogrid", ctypes.c_int),
                ("have_center", ctypes.c_int), ("center", ctypes.c_double * 3)]


class VinaBox(ctypes.Structure):
    _fields_ = [("center", ctypes.c_double * 3), ("size", ctypes.c_double * 3), ("spacing", ctypes.c_double)]


class VinaParams(ctypes.Structure):
    _fields_ = [("scoring", ctypes.c_int), ("tabulated", ctypes.c_int)]


VSG_AG_PATH = 512
VSG_AG_MAX_MAPS = 32


class Gpf(ctypes.Structure):
    _fields_ = [("npts", ctypes.c_int * 3), ("spacing", ctypes.c_double), ("center", ctypes.c_double * 3),
                ("have_npts", ctypes.c_int), ("have_center", ctypes.c_int), ("center_auto", ctypes.c_int),
                ("receptor", ctypes.c_char * VSG_AG_PATH), ("gridfld", ctypes.c_char * VSG_AG_PATH),
                ("elecmap", ctypes.c_char * VSG_AG_PATH), ("have_dielectric", ctypes.c_int),
                ("dielectric", ctypes.c_double), ("have_estat", ctypes.c_int), ("estat_coeff", ctypes.c_double),
                ("n_ligand_types", ctypes.c_int), ("ligand_types", (ctypes.c_char * 4) * VSG_AG_MAX_MAPS),
                ("n_maps", ctypes.c_int), ("maps", (ctypes.c_char * VSG_AG_PATH) * VSG_AG_MAX_MAPS),
                ("dsolvmap", ctypes.c_char * VSG_AG_PATH), ("n_receptor_types", ctypes.c_int),
                ("receptor_types", (ctypes.c_char * 4) * VSG_AG_MAX_MAPS), ("smooth", ctypes.c_double),
                ("qasp", ctypes.c_double), ("parameter_file", ctypes.c_char * VSG_AG_PATH)]


class AutogridHeader(ctypes.Structure):
    _fields_ = [("gpf", ctypes.c_char_p), ("fld", ctypes.c_char_p), ("macromolecule", ctypes.c_char_p)]


class FldMap(ctypes.Structure):
    _fields_ = [("type", ctypes.c_char * 8), ("file", ctypes.c_char * VSG_AG_PATH)]


class Fld(ctypes.Structure):
    _fields_ = [("npts", ctypes.c_int * 3), ("spacing", ctypes.c_double), ("center", ctypes.c_double * 3),
                ("macromolecule", ctypes.c_char * VSG_AG_PATH), ("gpf", ctypes.c_char * VSG_AG_PATH),
                ("xyz", ctypes.c_char * VSG_AG_PATH), ("n_maps", ctypes.c_int), ("maps", FldMap * VSG_AG_MAX_MAPS)]


VSG_AD4_MAX_TYPES = 64


class Ad4AtomPar(ctypes.Structure):
    _fields_ = [("type", ctypes.c_char * 4), ("rii", ctypes.c_double), ("epsii", ctypes.c_double),
                ("vol", ctypes.c_double), ("solpar", ctypes.c_double), ("rij_hb", ctypes.c_double),
                ("epsij_hb", ctypes.c_double), ("hbond", ctypes.c_int)]


class Ad4Params(ctypes.Structure):
    _fields_ = [("coeff_vdw", ctypes.c_double), ("coeff_hbond", ctypes.c_double), ("coeff_estat", ctypes.c_double),
                ("coeff_desolv", ctypes.c_double), ("coeff_tors", ctypes.c_double), ("n", ctypes.c_int),
                ("atom", Ad4AtomPar * VSG_AD4_MAX_TYPES)]


VSG_SCORE_MAX_MAPS = 32
VSG_SCORE_NO_TYPE = 255


class ScoreGrids(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("n", ctypes.c_int * 3), ("origin", ctypes.c_double * 3),
                ("spacing", ctypes.c_double * 3), ("nmaps", ctypes.c_int),
                ("maps", c_float_p * VSG_SCORE_MAX_MAPS), ("types", (ctypes.c_char * 4) * VSG_SCORE_MAX_MAPS),
                ("e_map", ctypes.c_int), ("d_map", ctypes.c_int), ("elec_factor", ctypes.c_double)]


class ScoreBatch(ctypes.Structure):
    _fields_ = [("nlig", ctypes.c_size_t), ("natoms", ctypes.c_size_t), ("start", c_uint32_p),
                ("x", c_float_p), ("y", c_float_p), ("z", c_float_p), ("q", c_float_p), ("type", c_uint8_p)]


class ScoreResult(ctypes.Structure):
    _fields_ = [("total", ctypes.c_double), ("elec", ctypes.c_double), ("vdw_hb", ctypes.c_double),
                ("desolv", ctypes.c_double), ("outside", ctypes.c_int)]


class LigAtom(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("z", ctypes.c_double),
                ("charge", ctypes.c_double), ("line", ctypes.c_int), ("formal", ctypes.c_int),
                ("name", ctypes.c_char * 8), ("element", ctypes.c_char * 3), ("ad_type", ctypes.c_char * 4)]


class LigBond(ctypes.Structure):
    _fields_ = [("a", ctypes.c_int), ("b", ctypes.c_int), ("order", ctypes.c_int)]


class Ligand(ctypes.Structure):
    _fields_ = [("index", ctypes.c_size_t), ("source", ctypes.c_char_p), ("record", ctypes.c_long),
                ("line", ctypes.c_long), ("format", ctypes.c_int), ("name", ctypes.c_char * 128),
                ("natoms", ctypes.c_int), ("nbonds", ctypes.c_int),
                ("atoms", ctypes.POINTER(LigAtom)), ("bonds", ctypes.POINTER(LigBond)),
                ("atoms_cap", ctypes.c_int), ("bonds_cap", ctypes.c_int), ("has_charges", ctypes.c_int),
                ("model", ctypes.c_int), ("text", ctypes.c_void_p), ("text_len", ctypes.c_size_t),
                ("text_cap", ctypes.c_size_t), ("status", ctypes.c_int), ("code", ctypes.c_char * 16),
                ("message", ctypes.c_char * 256), ("rigid_macrocycles", ctypes.c_int),
                ("nconformers", ctypes.c_int), ("conformers", ctypes.POINTER(ctypes.c_double))]


# vsg_smiles_options: how SMILES records are prepared (all 0: pH 7.4, the builder's stereo, 100 steps)
class SmilesOptions(ctypes.Structure):
    _fields_ = [("ph_mode", ctypes.c_int), ("ph", ctypes.c_double), ("stereo", ctypes.c_int),
                ("min_steps", ctypes.c_int), ("embed", ctypes.c_int), ("conformers", ctypes.c_int)]


class LigandReaderOptions(ctypes.Structure):
    _fields_ = [("format", ctypes.c_int), ("keep_text", ctypes.c_int), ("max_atoms", ctypes.c_int),
                ("smiles", SmilesOptions), ("rigid_macrocycles", ctypes.c_int)]


class VinaScore(ctypes.Structure):
    _fields_ = [("total", ctypes.c_double), ("inter", ctypes.c_double), ("intra", ctypes.c_double),
                ("torsional", ctypes.c_double), ("unbound", ctypes.c_double), ("num_tors", ctypes.c_double),
                ("outside", ctypes.c_int)]


class Quat(ctypes.Structure):
    _fields_ = [("w", ctypes.c_double), ("x", ctypes.c_double), ("y", ctypes.c_double), ("z", ctypes.c_double)]


class PlaceBox(ctypes.Structure):
    _fields_ = [("center", ctypes.c_double * 3), ("half", ctypes.c_double * 3), ("step", ctypes.c_double)]


VSG_SCREEN_MAX_DEVICES = 16
VSG_SCREEN_CPU = -1


class ScreenOptions(ctypes.Structure):
    _fields_ = [("inputs", c_char_pp), ("ninputs", ctypes.c_int), ("format", ctypes.c_int),
                ("charges", ctypes.c_int), ("max_atoms", ctypes.c_int), ("kernel", ctypes.c_int),
                ("double_precision", ctypes.c_int), ("tolerance", ctypes.c_double), ("ndevices", ctypes.c_int),
                ("devices", ctypes.c_int * VSG_SCREEN_MAX_DEVICES), ("max_gpu_memory", ctypes.c_double),
                ("batch_atoms", ctypes.c_size_t), ("csv", ctypes.c_void_p), ("sdf_path", ctypes.c_char_p),
                ("top", ctypes.c_long), ("progress", ctypes.c_int), ("parse_threads", ctypes.c_int),
                ("placement", ctypes.c_int), ("box", PlaceBox), ("rotations", ctypes.POINTER(Quat)),
                ("nrotations", ctypes.c_int), ("top_poses", ctypes.c_int), ("poses_path", ctypes.c_char_p),
                ("smiles", SmilesOptions)]


class ScreenReport(ctypes.Structure):
    _fields_ = [("records", ctypes.c_size_t), ("scored", ctypes.c_size_t), ("failed", ctypes.c_size_t),
                ("outside", ctypes.c_size_t), ("by_code_n", ctypes.c_size_t),
                ("by_code", (ctypes.c_char * 16) * 16), ("by_code_count", ctypes.c_size_t * 16),
                ("atoms", ctypes.c_uint64), ("seconds", ctypes.c_double), ("parse_s", ctypes.c_double),
                ("transfer_s", ctypes.c_double), ("score_s", ctypes.c_double), ("write_s", ctypes.c_double),
                ("parse_threads", ctypes.c_int), ("splitters", ctypes.c_int), ("split_s", ctypes.c_double),
                ("split_wait_s", ctypes.c_double), ("scorer_busy_s", ctypes.c_double),
                ("scorer_wait_s", ctypes.c_double), ("write_wait_s", ctypes.c_double),
                ("kernel", ctypes.c_char * 32), ("device", ctypes.c_char * 160), ("precision", ctypes.c_char * 8),
                ("poses", ctypes.c_uint64), ("poses_scored", ctypes.c_uint64),
                ("poses_checked", ctypes.c_uint64), ("poses_valid", ctypes.c_uint64)]


# A screen as one call (vsg_screen_job_*, "a screen as one call" in vsgrid.h): the row handed to
# the caller (vsg_screen_row, valid during the call only) and the callback's type (vsg_screen_row_fn:
# nonzero stops the screen).
class ScreenRow(ctypes.Structure):
    _fields_ = [("index", ctypes.c_size_t), ("name", ctypes.c_char_p), ("source", ctypes.c_char_p),
                ("record", ctypes.c_long), ("atoms", ctypes.c_int), ("ncols", ctypes.c_int),
                ("cols", c_char_pp), ("values", c_double_p), ("status", ctypes.c_char_p),
                ("message", ctypes.c_char_p), ("ntext", ctypes.c_int), ("text_cols", c_char_pp),
                ("texts", c_char_pp)]


SCREEN_ROW_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ScreenRow))


# Shards of a campaign and their merge (vsg_screen_merge).
class MergeOptions(ctypes.Structure):
    _fields_ = [("parts", c_char_pp), ("nparts", ctypes.c_int), ("csv", ctypes.c_char_p),
                ("poses", ctypes.c_char_p), ("best_per_molecule", ctypes.c_int), ("top", ctypes.c_long),
                ("top_csv", ctypes.c_char_p), ("poses_top", ctypes.c_long), ("allow_partial", ctypes.c_int)]


class MergeReport(ctypes.Structure):
    _fields_ = [("parts", ctypes.c_size_t), ("rows", ctypes.c_size_t), ("records_total", ctypes.c_size_t),
                ("poses", ctypes.c_size_t), ("missing", ctypes.c_size_t), ("seconds", ctypes.c_double)]


class VinaScreenOptions(ctypes.Structure):
    _fields_ = [("inputs", c_char_pp), ("ninputs", ctypes.c_int), ("format", ctypes.c_int),
                ("max_atoms", ctypes.c_int), ("csv", ctypes.c_void_p), ("progress", ctypes.c_int),
                ("smiles", SmilesOptions), ("rigid_macrocycles", ctypes.c_int)]


class DockParams(ctypes.Structure):
    _fields_ = [("seed", ctypes.c_uint64), ("exhaustiveness", ctypes.c_int), ("steps", ctypes.c_int),
                ("local_steps", ctypes.c_int), ("poses", ctypes.c_int), ("min_rmsd", ctypes.c_double),
                ("random_start", ctypes.c_int), ("threads", ctypes.c_int), ("chain_keep", ctypes.c_int),
                ("ngpus", ctypes.c_int), ("gpus", ctypes.c_int * 16), ("focus_chains", ctypes.c_int),
                ("focus_steps", ctypes.c_int), ("focus_amplitude", ctypes.c_double)]


class PoseCheckResult(ctypes.Structure):  # vsg_pose_check_result
    _fields_ = [("valid", ctypes.c_int), ("bond_lengths", ctypes.c_int), ("nbonds", ctypes.c_int),
                ("bad_bonds", ctypes.c_int), ("bond_ratio", ctypes.c_double), ("bond_angles", ctypes.c_int),
                ("nangles", ctypes.c_int), ("bad_angles", ctypes.c_int), ("angle_deviation", ctypes.c_double),
                ("aromatic_flatness", ctypes.c_int), ("nrings", ctypes.c_int), ("bad_rings", ctypes.c_int),
                ("ring_deviation", ctypes.c_double), ("double_bond_flatness", ctypes.c_int),
                ("ndouble", ctypes.c_int), ("bad_double", ctypes.c_int), ("double_bond_deviation", ctypes.c_double),
                ("stereo", ctypes.c_int), ("ncentres", ctypes.c_int), ("inverted", ctypes.c_int),
                ("internal_clash", ctypes.c_int), ("npairs", ctypes.c_int), ("internal_clashes", ctypes.c_int),
                ("internal_ratio", ctypes.c_double), ("receptor_clash", ctypes.c_int),
                ("receptor_clashes", ctypes.c_int), ("receptor_ratio", ctypes.c_double),
                ("receptor_distance", ctypes.c_double), ("near_receptor", ctypes.c_int), ("inside_box", ctypes.c_int),
                ("atoms_outside", ctypes.c_int)]


class DockPose(ctypes.Structure):
    _fields_ = [("xyz", c_double_p), ("score", VinaScore), ("energy", ctypes.c_double),
                ("rmsd_input", ctypes.c_double)]


class DockResult(ctypes.Structure):
    _fields_ = [("natoms", ctypes.c_int), ("record_atom", c_int_p), ("rotors", ctypes.c_int),
                ("body", c_int_p), ("root", ctypes.c_int), ("rotor", c_int_p), ("npose", ctypes.c_int),
                ("pose", ctypes.POINTER(DockPose)), ("chains", ctypes.c_int), ("steps", ctypes.c_int),
                ("local_steps", ctypes.c_int), ("evaluations", ctypes.c_long), ("seconds", ctypes.c_double)]


class Ad4Score(ctypes.Structure):  # vsg_ad4_score: autodock4's epdb terms of a pose
    _fields_ = [("total", ctypes.c_double), ("inter", ctypes.c_double), ("vdw_hb_desolv", ctypes.c_double),
                ("elec", ctypes.c_double), ("intra", ctypes.c_double), ("torsional", ctypes.c_double),
                ("unbound", ctypes.c_double), ("torsdof", ctypes.c_int), ("outside", ctypes.c_int)]


class FlexPose(ctypes.Structure):  # vsg_flex_pose: one docked pose's flex residues
    _fields_ = [("xyz", c_double_p), ("ligand_flex", ctypes.c_double), ("flex_rigid", ctypes.c_double),
                ("flex_intra", ctypes.c_double), ("outside", ctypes.c_int)]


class FlexInfo(ctypes.Structure):  # vsg_flex_info
    _fields_ = [("residues", ctypes.c_int), ("natoms", ctypes.c_int), ("movable_heavy", ctypes.c_int),
                ("torsions", ctypes.c_int), ("npairs", ctypes.c_int)]


class VinaLigandInfo(ctypes.Structure):
    _fields_ = [("natoms", ctypes.c_int), ("heavy_atoms", ctypes.c_int), ("bodies", ctypes.c_int),
                ("rotors", ctypes.c_int), ("torsdof", ctypes.c_int), ("num_tors", ctypes.c_double),
                ("nbonds", ctypes.c_int), ("npairs", ctypes.c_int), ("nglue", ctypes.c_int)]


VSG_PREP_PQR, VSG_PREP_PDBQT = 0, 1
VSG_PREP_AMBER, VSG_PREP_PARSE = 0, 1


class PrepOptions(ctypes.Structure):
    _fields_ = [("ph", ctypes.c_double), ("ff", ctypes.c_int), ("format", ctypes.c_int),
                ("keep_waters", ctypes.c_int)]


# vsg_prep_summary: the counts, total_charge, report (malloc'ed: vsg_prep_summary_free), then the
# counts added later at the end (the pH's states, kept_named).
PREP_COUNTS = ("atoms_in", "atoms_out", "h_added", "heavy_added", "residues", "het_groups", "waters_dropped",
               "altlocs_dropped", "his_hid", "his_hie", "disulfides", "his_hip", "asp_ash", "glu_glh", "lys_lyn",
               "cys_cym", "kept_named")


class PrepSummary(ctypes.Structure):
    _fields_ = ([(n, ctypes.c_int) for n in PREP_COUNTS[:11]] +
                [("total_charge", ctypes.c_double), ("report", ctypes.c_char_p)] +
                [(n, ctypes.c_int) for n in PREP_COUNTS[11:]])


# ---- loading -----------------------------------------------------------------------------
def _candidates():
    env = os.environ.get("VSGRID_LIB")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    for name in sorted(os.listdir(here)):
        if name.startswith("libvsgrid.so"):
            yield os.path.join(here, name)
    repo = os.path.dirname(os.path.dirname(here))
    yield os.path.join(repo, "build", "libvsgrid.so")
    found = ctypes.util.find_library("vsgrid")
    if found:
        yield found


def _load():
    tried = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            tried.append(path + " (absent)")
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("vsgrid: libvsgrid.so not found: set VSGRID_LIB to the library's path (tried: %s)"
                      % ", ".join(tried) if tried else "vsgrid: libvsgrid.so not found: set VSGRID_LIB")


lib, path = _load()

_S = ctypes.c_int  # vsg_status
_P = ctypes.c_void_p
_protos = {
    "vsg_status_name": (ctypes.c_char_p, [_S]),
    "vsg_status_text": (ctypes.c_char_p, [_S]),
    "vsg_last_error": (ctypes.c_char_p, []),
    "vsg_version": (ctypes.c_char_p, []),
    "vsg_clear_error": (None, []),
    "vsg_gpu_count": (ctypes.c_int, []),
    "vsg_kt_kcal": (ctypes.c_double, [ctypes.c_double]),
    # molecules
    "vsg_molecule_read": (_S, [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(_P)]),
    "vsg_receptor_read": (_S, [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(_P), ctypes.POINTER(_P)]),
    "vsg_receptor_is_pdb": (ctypes.c_int, [ctypes.c_char_p]),
    "vsg_prep_options_default": (None, [ctypes.POINTER(PrepOptions)]),
    "vsg_receptor_prepare": (_S, [ctypes.c_char_p, ctypes.POINTER(PrepOptions), ctypes.POINTER(_P),
                                  ctypes.POINTER(PrepSummary)]),
    "vsg_prep_summary_free": (None, [ctypes.POINTER(PrepSummary)]),
    "vsg_molecule_free": (None, [_P]),
    "vsg_molecule_atom_count": (ctypes.c_size_t, [_P]),
    "vsg_molecule_atom": (_S, [_P, ctypes.c_size_t, ctypes.POINTER(AtomInfo)]),
    "vsg_molecule_net_charge": (ctypes.c_double, [_P]),
    "vsg_molecule_source": (ctypes.c_char_p, [_P]),
    "vsg_molecule_write_pqr": (_S, [_P, ctypes.c_char_p]),
    # grids
    "vsg_grid_read": (_S, [ctypes.c_char_p, ctypes.POINTER(_P)]),
    "vsg_grid_write": (_S, [_P, ctypes.c_char_p]),
    "vsg_grid_free": (None, [_P]),
    "vsg_grid_shape_of": (_S, [_P, ctypes.POINTER(GridShape)]),
    "vsg_grid_values": (c_float_p, [_P]),
    "vsg_grid_metadata": (ctypes.c_char_p, [_P]),
    "vsg_grid_interpolate": (_S, [_P, ctypes.c_double, ctypes.c_double, ctypes.c_double, c_double_p]),
    "vsg_grid_new": (_P, [ctypes.c_int * 3, ctypes.c_double * 3, ctypes.c_double * 3, ctypes.c_char_p]),
    "vsg_grid_nodes": (ctypes.c_size_t, [_P]),
    "vsg_autogrid_map_write": (_S, [_P, ctypes.c_char_p, _P]),
    "vsg_vina_map_write": (_S, [_P, ctypes.c_char_p, ctypes.c_char_p]),
    "vsg_vina_map_write_scored": (_S, [_P, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int]),
    "vsg_dock_pose_check": (_S, [_P, _P, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]),
    "vsg_pose_checker_new": (_S, [_P, _P, ctypes.POINTER(ctypes.c_void_p)]),
    "vsg_pose_checker_free": (None, [_P]),
    "vsg_dock_pose_checks": (_S, [_P, _P, _P, ctypes.c_int, _P]),
    "vsg_pose_check_failed": (ctypes.c_size_t, [_P, ctypes.c_char_p, ctypes.c_size_t]),
    "vsg_receptor_warn_box_group": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_char_p,
                                                   ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double)]),
    "vsg_ligand_complete_hydrogens": (_S, [ctypes.POINTER(Ligand), ctypes.POINTER(ctypes.c_int), ctypes.c_int]),
    "vsg_screen_stop": (None, []),
    "vsg_screen_stop_requested": (ctypes.c_int, []),
    "vsg_screen_stop_reset": (None, []),
    # PB and Coulomb
    "vsg_pb_params_default": (None, [ctypes.POINTER(PBParams)]),
    "vsg_pb_solve": (_S, [_P, ctypes.POINTER(PBParams), ctypes.POINTER(_P), ctypes.POINTER(PBReport)]),
    "vsg_fine_level": (_S, [_P, ctypes.POINTER(PBParams), ctypes.POINTER(Level)]),
    "vsg_coulomb_kernel_make": (_S, [ctypes.c_int, ctypes.c_double, ctypes.c_int, ctypes.POINTER(CoulombKernel)]),
    "vsg_coulomb_kernel_free": (None, [ctypes.POINTER(CoulombKernel)]),
    "vsg_coulomb_cpu": (_S, [_P, ctypes.POINTER(CoulombKernel), _P]),
    "vsg_coulomb_gpu": (_S, [_P, ctypes.POINTER(CoulombKernel), _P, ctypes.c_int, c_double_p]),
    # Vina maps
    "vsg_vina_params_default": (None, [ctypes.POINTER(VinaParams)]),
    "vsg_vina_maps_cpu": (_S, [_P, ctypes.POINTER(VinaBox), ctypes.POINTER(VinaParams), c_int_p, ctypes.c_int,
                              ctypes.POINTER(_P)]),
    "vsg_vina_maps_gpu": (_S, [_P, ctypes.POINTER(VinaBox), ctypes.POINTER(VinaParams), c_int_p, ctypes.c_int,
                              ctypes.c_int, ctypes.c_double, ctypes.POINTER(_P)]),
    "vsg_xs_type_name": (ctypes.c_char_p, [ctypes.c_int]),
    "vsg_xs_types_from_name": (_S, [ctypes.c_char_p, c_int_p, c_int_p]),
    # scoring
    "vsg_score_grids_from_grid": (_S, [_P, ctypes.c_double, ctypes.POINTER(ScoreGrids)]),
    "vsg_score_cpu": (_S, [ctypes.POINTER(ScoreGrids), ctypes.POINTER(ScoreBatch), ctypes.POINTER(ScoreResult)]),
    "vsg_mapset_read": (_S, [ctypes.c_char_p, ctypes.POINTER(_P)]),
    "vsg_mapset_free": (None, [_P]),
    "vsg_mapset_grids": (ctypes.POINTER(ScoreGrids), [_P]),
    "vsg_mapset_type_index": (ctypes.c_uint8, [_P, ctypes.c_char_p]),
    "vsg_mapset_map_path": (ctypes.c_char_p, [_P, ctypes.c_int]),
    # ligands
    "vsg_ligand_reader_open": (_S, [c_char_pp, ctypes.c_int, ctypes.POINTER(LigandReaderOptions),
                                   ctypes.POINTER(_P)]),
    "vsg_ligand_reader_next": (ctypes.c_int, [_P, ctypes.POINTER(Ligand)]),
    "vsg_ligand_reader_close": (None, [_P]),
    "vsg_ligand_init": (None, [ctypes.POINTER(Ligand)]),
    "vsg_ligand_release": (None, [ctypes.POINTER(Ligand)]),
    # screens
    "vsg_screen_run": (_S, [ctypes.POINTER(ScoreGrids), ctypes.POINTER(ScreenOptions),
                            ctypes.POINTER(ScreenReport)]),
    "vsg_vina_target_maps": (_S, [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(_P)]),
    "vsg_vina_target_free": (None, [_P]),
    "vsg_vina_target_add_receptor": (_S, [_P, _P]),
    "vsg_vina_target_is_maps": (ctypes.c_int, [_P, ctypes.POINTER(VinaBox)]),
    "vsg_vina_screen_run": (_S, [_P, ctypes.POINTER(VinaScreenOptions), ctypes.POINTER(ScreenReport)]),
    "vsg_vina_ligand_new": (_S, [ctypes.POINTER(Ligand), ctypes.POINTER(_P)]),
    "vsg_vina_ligand_free": (None, [_P]),
    "vsg_vina_ligand_get_info": (None, [_P, ctypes.POINTER(VinaLigandInfo)]),
    "vsg_vina_score_pose": (_S, [_P, _P, ctypes.POINTER(VinaScore)]),
    # docking
    "vsg_dock_params_default": (None, [ctypes.POINTER(DockParams)]),
    "vsg_dock_params_preset": (_S, [ctypes.POINTER(DockParams), ctypes.c_char_p]),
    "vsg_dock_params_effort": (_S, [ctypes.POINTER(DockParams), ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                    ctypes.c_int]),
    # dock's default search: thorough in a box over twice the ligand's own, else detail
    "vsg_dock_box_ratio": (ctypes.c_double, [ctypes.POINTER(ctypes.c_double), ctypes.POINTER(Ligand)]),
    "vsg_dock_default_search": (ctypes.c_char_p, [ctypes.c_double]),
    "vsg_ad4_target_box": (_S, [_P, ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double)]),
    "vsg_ad4_params_builtin": (_S, [ctypes.POINTER(Ad4Params)]),
    "vsg_ad4_params_read": (_S, [ctypes.c_char_p, ctypes.POINTER(Ad4Params)]),
    "vsg_ad4_params_find": (ctypes.c_void_p, [ctypes.POINTER(Ad4Params), ctypes.c_char_p]),
    "vsg_ad4_gpf_for_box": (_S, [_P, ctypes.c_char_p, ctypes.c_double * 3, ctypes.c_double * 3, ctypes.c_double,
                                 c_char_pp, ctypes.c_int, ctypes.c_char_p, ctypes.POINTER(Gpf)]),
    "vsg_gpf_write": (_S, [ctypes.POINTER(Gpf), ctypes.c_char_p, ctypes.c_char_p]),
    "vsg_gpf_read": (_S, [ctypes.c_char_p, ctypes.POINTER(Gpf)]),
    "vsg_ad4_maps_cpu": (_S, [_P, ctypes.POINTER(Gpf), ctypes.POINTER(Ad4Params), ctypes.c_int, ctypes.POINTER(_P)]),
    "vsg_ad4_maps_gpu": (_S, [_P, ctypes.POINTER(Gpf), ctypes.POINTER(Ad4Params), ctypes.c_int, ctypes.POINTER(_P)]),
    "vsg_autogrid_maps_write": (_S, [ctypes.POINTER(_P), c_char_pp, ctypes.c_int, ctypes.POINTER(AutogridHeader)]),
    "vsg_autogrid_fld_write": (_S, [ctypes.c_char_p, ctypes.POINTER(Fld)]),
    "vsg_pb_map_fill": (_S, [_P, ctypes.POINTER(PBParams), ctypes.c_double, _P, ctypes.POINTER(PBReport)]),
    "vsg_rotations_super_fibonacci": (_S, [ctypes.c_int, ctypes.POINTER(Quat)]),
    "vsg_set_warning_handler": (None, [ctypes.c_void_p, ctypes.c_void_p]),
    "vsg_warning_count": (ctypes.c_size_t, []),
    "vsg_dock_batch": (_S, [_P, ctypes.POINTER(ctypes.POINTER(Ligand)), ctypes.c_int,
                            ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(DockParams), ctypes.c_int,
                            ctypes.POINTER(DockResult), c_int_p, ctypes.c_void_p]),
    "vsg_dock_result_release": (None, [ctypes.POINTER(DockResult)]),
    # docking with the AutoDock4 function (dock(scoring="ad4"))
    "vsg_ad4_target_read": (_S, [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(_P)]),
    "vsg_ad4_target_free": (None, [_P]),
    "vsg_ligand_as_pdbqt": (_S, [ctypes.POINTER(Ligand)]),
}
# A screen as one call and the merge of a campaign's shards (issue 26), SMILES options (issue 29).
# Declared when the library has them (an older libvsgrid.so lacks them: the calls that need them
# then raise ImportError).
_optional = {
    "vsg_screen_job_new": (_S, [ctypes.POINTER(_P)]),
    "vsg_screen_job_free": (None, [_P]),
    "vsg_screen_job_key": (ctypes.c_int, [ctypes.c_char_p]),
    "vsg_screen_job_set": (_S, [_P, ctypes.c_char_p, ctypes.c_char_p]),
    "vsg_screen_job_on_row": (_S, [_P, SCREEN_ROW_FN, _P]),
    "vsg_screen_job_check": (_S, [_P]),
    "vsg_screen_job_run": (_S, [_P, ctypes.POINTER(ScreenReport)]),
    "vsg_screen_job_info": (ctypes.c_char_p, [_P, ctypes.c_char_p]),
    "vsg_screen_job_library": (ctypes.c_char_p, [_P, ctypes.c_int]),
    "vsg_screen_merge": (_S, [ctypes.POINTER(MergeOptions), ctypes.POINTER(MergeReport)]),
    # SMILES preparation (issue 29): the reader's options for .smi/.ism/.csv records
    "vsg_smiles_available": (ctypes.c_int, []),
    "vsg_smiles_parse_ph": (_S, [ctypes.c_char_p, ctypes.POINTER(SmilesOptions)]),
    "vsg_smiles_parse_minimize": (_S, [ctypes.c_char_p, ctypes.POINTER(SmilesOptions)]),
    "vsg_smiles_parse_stereo": (_S, [ctypes.c_char_p, ctypes.POINTER(SmilesOptions)]),
    "vsg_smiles_parse_embed": (_S, [ctypes.c_char_p, ctypes.POINTER(SmilesOptions)]),
    "vsg_smiles_rdkit_available": (ctypes.c_int, []),
    # no search: the input pose minimised in place (dock(local_only=True))
    "vsg_dock_local": (_S, [_P, ctypes.POINTER(Ligand), ctypes.POINTER(DockParams), ctypes.POINTER(DockResult)]),
    "vsg_dock_ad4_local": (_S, [_P, ctypes.POINTER(Ligand), ctypes.POINTER(DockParams), ctypes.POINTER(DockResult),
                                ctypes.POINTER(Ad4Score)]),
    # flexible side chains (dock(flex=...))
    "vsg_dock_auto_device": (ctypes.c_int, [ctypes.POINTER(DockParams)]),
    "vsg_flex_read": (_S, [ctypes.c_char_p, ctypes.POINTER(_P)]),
    "vsg_flex_free": (None, [_P]),
    "vsg_flex_get_info": (None, [_P, ctypes.POINTER(FlexInfo)]),
    "vsg_flex_check_maps": (_S, [_P, _P]),
    "vsg_flex_check_rigid": (_S, [_P, _P]),
    "vsg_flex_poses_free": (None, [ctypes.POINTER(FlexPose), ctypes.c_int]),
    "vsg_dock_flex_cpu": (_S, [_P, ctypes.POINTER(Ligand), _P, ctypes.POINTER(DockParams), ctypes.POINTER(DockResult),
                               ctypes.POINTER(ctypes.POINTER(FlexPose))]),
    "vsg_dock_flex_gpu": (_S, [_P, ctypes.POINTER(Ligand), _P, ctypes.POINTER(DockParams), ctypes.c_int,
                               ctypes.POINTER(DockResult), ctypes.POINTER(ctypes.POINTER(FlexPose))]),
    # the AutoDock4 function's search on a GPU and its CPU twin (dock(scoring="ad4"))
    "vsg_dock_ad4_cpu": (_S, [_P, ctypes.POINTER(Ligand), ctypes.POINTER(DockParams), ctypes.POINTER(DockResult),
                              ctypes.POINTER(Ad4Score)]),
    "vsg_dock_ad4_gpu": (_S, [_P, ctypes.POINTER(Ligand), ctypes.POINTER(DockParams), ctypes.c_int,
                              ctypes.POINTER(DockResult), ctypes.POINTER(Ad4Score)]),
}
for _name, (_res, _args) in _protos.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args
for _name, (_res, _args) in _optional.items():
    _f = getattr(lib, _name, None)
    if _f is not None:
        _f.restype = _res
        _f.argtypes = _args


def has(name):
    """Whether the loaded library exports the C call `name`."""
    return hasattr(lib, name)

WARNING_FN = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_void_p)

# libc, for the FILE * the screening calls write their CSV rows to.
libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
libc.fopen.restype = ctypes.c_void_p
libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
libc.fclose.restype = ctypes.c_int
libc.fclose.argtypes = [ctypes.c_void_p]
libc.free.restype = None
libc.free.argtypes = [ctypes.c_void_p]
