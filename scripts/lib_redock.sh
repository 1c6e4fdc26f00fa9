# shellcheck shell=bash disable=SC2154 # $vsgrid: set by the script that sources this file
# lib_redock.sh — pieces the re-docking benchmarks share (sourced by bench_redock_set42.sh and
# bench_redock_smiles.sh): the box of an AutoGrid map set, a complex's Vina maps made once on a
# box, and the RMSDs of a poses file to the crystal pose. The caller sets $vsgrid (the binary).

# The box of an AutoGrid map set (its .maps.fld: CENTER, NELEMENTS x SPACING), as
# "cx cy cz sx sy sz".
redock_box_fld() {
  awk '/^#SPACING/ { s = $2 } /^#NELEMENTS/ { nx = $2; ny = $3; nz = $4 } /^#CENTER/ { cx = $2; cy = $3; cz = $4 }
       END { printf "%s %s %s %.3f %.3f %.3f\n", cx, cy, cz, nx * s, ny * s, nz * s }' "$1"
}

# Vina maps of RECEPTOR on BOX ("cx,cy,cz,sx,sy,sz", or "around:LIGAND": vina's --autobox of that
# ligand, `vsgrid maps --around`) as DIR/maps, made once: DIR/maps.done marks a finished set,
# DIR/maps.log keeps vsgrid's messages. On failure: 1, and "NAME: vsgrid maps failed: ..." on stderr.
# vsgrid maps warns about a HETATM group left in the box's centre (a receptor that still holds
# its ligand).
redock_maps() {
  local rec=$1 box=$2 d=$3 name=$4 where
  [ -f "$d/maps.done" ] && return 0
  mkdir -p "$d" || return 1
  if [[ $box == around:* ]]; then where=(--around "${box#around:}"); else where=(--box "$box"); fi
  if "$vsgrid" maps "$rec" --scoring vina "${where[@]}" -o "$d/maps" > "$d/maps.log" 2>&1; then
    touch "$d/maps.done"
    return 0
  fi
  echo "$name: vsgrid maps failed: $(tail -1 "$d/maps.log")" >&2
  return 1
}

# RMSD of every pose of FILE to the crystal pose REF (`vsgrid rmsd`: symmetry-aware heavy-atom
# RMSD, no superposition), cached in FILE.rmsd (CSV index,name,rmsd); prints "top best n" (the
# first pose's, the lowest, the poses compared), nothing when FILE is missing or empty.
# FALLBACK=order: when a pose could not be matched by its bond graph (bonds inferred from
# distances can differ between two poses of a large flexible ligand: 3ER5, a contact taken for a
# bond), every pose is compared in file order (--no-symmetry): only for poses whose heavy atoms
# are listed in REF's order (the AutoDock-GPU set's PDBQTs).
redock_rmsds() {
  local ref=$1 f=$2
  [ -s "$f" ] || return 0
  redock_rmsd_csv "$ref" "$f"
  awk -F, 'NR > 1 && $3 != "" { n++; if (n == 1) top = $3; if (best == "" || $3 < best) best = $3 }
           END { if (n) printf "%s %s %d\n", top, best, n }' "$f.rmsd"
}
# The CSV alone: FILE.rmsd made once (FALLBACK as above), vsgrid's messages in FILE.rmsd.log.
redock_rmsd_csv() {
  local ref=$1 f=$2
  [ -s "$f.rmsd" ] || "$vsgrid" rmsd "$ref" "$f" > "$f.rmsd" 2> "$f.rmsd.log"
  if [ "${FALLBACK:-}" = order ] && awk -F, 'NR > 1 && $3 == "" { bad = 1 } END { exit !bad }' "$f.rmsd"; then
    "$vsgrid" rmsd "$ref" "$f" --no-symmetry > "$f.rmsd" 2>> "$f.rmsd.log"
  fi
}
