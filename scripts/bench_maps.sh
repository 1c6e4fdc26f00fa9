#!/usr/bin/env bash
# bench_maps.sh [BUILD_DIR] — run ON the GPU machine after a CUDA build: the speed of vsgrid's
# receptor map sets (issue 17's targets), one table. Needs ../shared/data or VSG_SHARED_DATA.
#   1. bench_ad4_maps: the AutoDock4 affinity + d maps, GPU against the 16-thread CPU twin, and
#      the whole set in one process (GPU maps, GPU e map, every map written as AutoGrid text),
#      on a whole-receptor box (1STP, 193³) and a 24 Å pocket (1IEP, 65³), 13 ligand types:
#      every type a drug-like library needs (A C NA OA N SA HD F Cl Br I P S).
#   2. bench_vina_maps: Vina maps, GPU against the CPU twin.
#   3. The CLI end to end (process and CUDA start, reading, maps, writing): `vsgrid grid --gpf`
#      on the same two boxes, and `vsgrid maps --scoring vina|ad4 --around` the 1IEP ligand.
# autogrid4 is not on the GPU machine: its times on the same gpfs come from the dev machine
# (docs/PERFORMANCE.md says which).
set -u
B=${1:-build-gpu-check}
B=$(cd "$B" && pwd)
D=${VSG_SHARED_DATA:-$PWD/../shared/data}
T13="A C NA OA N SA HD F Cl Br I P S"
W=$(mktemp -d /tmp/bench_maps.XXXXXX)
STP=$D/autodock_gpu/1stp/1stp_protein.pdbqt
IEP=$D/autodock_vina/1iep/1iep_receptor.pdbqt
LIG=$D/autodock_vina/1iep/1iep_ligand.pdbqt
mkdir -p "$W/shm" 2> /dev/null
echo "== bench_ad4_maps, whole receptor (1STP, 193^3), 13 types"
"$B/bench_ad4_maps" -r 3 -n 192 -t "$T13" -w "$W" "$STP" | tail -4
echo "== bench_ad4_maps, 24 A pocket (1IEP, 65^3), 13 types; written to $W, then to /dev/shm"
"$B/bench_ad4_maps" -r 5 -n 64 -t "$T13" -w "$W" "$IEP" | tail -4
if [ -d /dev/shm ]; then mkdir -p /dev/shm/bench_maps && "$B/bench_ad4_maps" -r 5 -n 64 -t "$T13" -w /dev/shm/bench_maps "$IEP" | tail -1; rm -rf /dev/shm/bench_maps; fi
echo "== bench_vina_maps"
"$B/bench_vina_maps" -r 5 | tail -7
echo "== the CLI, whole command (best of 3 wall times)"
cp "$IEP" "$W/p.pdbqt" && cp "$STP" "$W/w.pdbqt"
mk() { # npts prefix receptor receptor_types centre
  echo "npts $1 $1 $1"; echo "gridfld $2.maps.fld"; echo "spacing 0.375"; echo "receptor_types $4"
  echo "ligand_types $T13"; echo "receptor $3"; echo "gridcenter $5"; echo "smooth 0.5"
  for t in $T13; do echo "map $2.$t.map"; done
  echo "elecmap $2.e.map"; echo "dsolvmap $2.d.map"; echo "dielectric -0.1465"
}
mk 64 p p.pdbqt "HD C A N NA OA F P SA S Cl Br I Mg Ca Mn Fe Zn" "15.190 53.903 16.917" > "$W/p.gpf"
mk 192 w w.pdbqt "A C H HD N OA" auto > "$W/w.gpf"
best() { # label command...
  local b=999
  for _ in 1 2 3; do
    local t0 t1
    t0=$(date +%s.%N); "${@:2}" > /dev/null 2>&1 || { echo "$1: failed"; return; }; t1=$(date +%s.%N)
    b=$(echo "$t0 $t1 $b" | awk '{ d = $2 - $1; print (d < $3 ? d : $3) }')
  done
  printf "%-58s %8.3f s\n" "$1" "$b"
}
cd "$W" || exit 1
best "grid --gpf (24 A pocket, 13 types + e + d)" "$B/vsgrid" grid --gpf p.gpf --autogrid-maps p
best "grid --gpf (whole receptor 193^3, 13 types + e + d)" "$B/vsgrid" grid --gpf w.gpf --autogrid-maps w
best "maps --scoring ad4 --around (1IEP ligand, default types)" "$B/vsgrid" maps p.pdbqt --scoring ad4 --around "$LIG" -o a
best "maps --scoring vina --around (1IEP ligand, 19 XS types)" "$B/vsgrid" maps p.pdbqt --scoring vina --around "$LIG" -o v
best "grid --gpf, --device cpu (24 A pocket)" "$B/vsgrid" grid --gpf p.gpf --autogrid-maps p --device cpu
rm -rf "$W"
