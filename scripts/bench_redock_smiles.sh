#!/usr/bin/env bash
# bench_redock_smiles.sh — issue 29: re-docking the shared crystal complexes from their ligands'
# SMILES (no crystal coordinates) against re-docking from the crystal ligand's own conformer.
# Target: the SMILES's success rate (top pose < 2 A from the crystal pose) >= 0.9 x the crystal
# conformer's.
#
# The complexes: data/redock_smiles/complexes.tsv (the 26 of ../shared/data/adgpu_set42, 1IEP,
# the PDBbind pair 1IMX and 1K9Q, 1STP, 3CE3 and DUD-E INHA's 2H7L ligand); the SMILES:
# data/redock_smiles/crystal_ligands.smi (how each was made and checked: its README.md). For
# each complex, on one map set and box and with the same search and seeds:
#   smiles   the SMILES, RUNS times in one `vsgrid screen` (record k: seed k), each record
#            prepared in 3D by vsgrid (Open Babel) with --ph PH (default none: the SMILES carries
#            the crystal files' own protonation, their polar hydrogens, so both arms dock the same
#            species and only the 3D preparation differs; a pH model would change some of them)
#   crystal  the crystal ligand's own conformer, RUNS times (record k: seed k): the AutoDock-GPU
#            set's random starts rand-k.pdbqt where the table says "rand" (as bench_redock_set42.sh
#            docks them: the crystal's bond lengths, angles and rings, torsions randomised), else
#            the crystal file itself (the search starts every chain from a random position,
#            orientation and torsions anyway), docked with the file's own torsion tree: the
#            AutoDock-GPU set's PDBQTs were made by AutoDockTools, whose rotatable-bond rules are not
#            vsgrid's (1YWR's aminopyrimidine C-NH, among others, is fixed at its crystal angle there)
#   crystal-vsgrid  the crystal arm's conformers (the same coordinates, record k: seed k) as SDFs
#            that vsgrid prepares itself, as it prepares the SMILES's molecule: its own torsion
#            tree, the same rules as the smiles arm; the SMILES's bond orders and formal charges,
#            the crystal file's polar hydrogens. They are committed, made with RDKit by
#            `scripts/redock_crystal_smiles.py sdf --gzip` (data/redock_smiles/README.md), so no
#            RDKit is needed here: data/redock_smiles/crystal_sdf/<complex>-rand-<k>.sdf.gz for
#            rand-k.pdbqt, <complex>-crystal.sdf.gz for the crystal file (also the start of a run
#            without a rand-k SDF: 3ER5's rand-k open a proline ring, see the README). An SDF is
#            docked as read (one conformer, no 3D rebuild); SMILES vs crystal-vsgrid isolates the
#            3D generation, crystal-vsgrid vs crystal the torsion trees.
# Maps: `vsgrid maps --scoring vina` of the receptor (a PDB receptor prepared first by `vsgrid
# prepare`) on the set's own box (its protein.maps.fld) for adgpu_set42, else `--around` the
# crystal ligand (vina's --autobox, 4 A), as bench_redock_set42.sh and bench_dock_accuracy.sh
# make them (lib_redock.sh). Docking: `vsgrid screen --placement flexible --search SEARCH
# --receptor REC` (final poses refined and scored on the receptor's atoms), top pose of each
# record written as SDF. RMSD: `vsgrid rmsd CRYSTAL POSES.sdf` (symmetry-aware heavy-atom RMSD,
# atoms matched by the bond graph across formats, no superposition; the crystal arm's poses that
# do not match by graph are compared in file order, as bench_redock_set42.sh does). With RDKit
# (python3; scripts/redock_crystal_smiles.py poses), two columns on the SMILES's docked molecules:
# "stereo", in how many runs it has the SMILES's stereo (Open Babel's 3D builder can invert a
# centre), and "rings", the largest RMSD of a ring system (with the atoms bonded to it,
# superposed) to the crystal's over the runs: docking keeps rings rigid (but for rings of 12..33
# atoms, opened as Meeko opens them unless DOCK_ARGS=--rigid-macrocycles), so what the preparation
# built is what is docked (a ring pucker or an axial substituent the crystal does not have).
#
# Environment:
#   VSGRID           the binary (default build/vsgrid beside this script)
#   VSG_SHARED_DATA  the shared data (default ../shared/data beside the repository)
#   OUTDIR           maps, poses, logs (default /tmp/bench_redock_smiles); finished parts are not
#                    redone (delete OUTDIR to start again)
#   SEARCH           --search preset (default balanced, vsgrid's default)
#   RUNS             runs of each arm a complex (default 3: seeds 0..RUNS-1)
#   PH               --ph of the SMILES arm (default none)
#   DEVICES          --devices (default gpu; CPU=1 makes it cpu)
#   CPU              1: the small CPU mode: COMPLEXES defaults to "1lrh 1stp 1yv3", DEVICES to cpu
#   COMPLEXES        a subset, e.g. "1n46 2brt" (default all, in the table's order)
#   DOCK_ARGS        extra `vsgrid screen` arguments for every arm
#   ARMS             the arms run, in the table's order (default "smiles crystal crystal-vsgrid")
#   OB_DIR           an Open Babel carried in (include/ lib/ plugins/ data/, as scripts/gpu_smiles.sh
#                    describes): its lib on LD_LIBRARY_PATH, BABEL_LIBDIR and BABEL_DATADIR set
#   PYTHON           python3 with RDKit for the stereo and rings columns (default /usr/bin/python3;
#                    without RDKit: "-")
# Usage: scripts/bench_redock_smiles.sh            (the table on stdout)
#        scripts/bench_redock_smiles.sh --files    (the shared-data files it reads, one a line,
#                                                   relative to VSG_SHARED_DATA: what to carry;
#                                                   the crystal-vsgrid SDFs are in the repository)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
vsgrid=${VSGRID:-$root/build/vsgrid}
shared=${VSG_SHARED_DATA:-$root/../shared/data}
table=$root/data/redock_smiles/complexes.tsv
smiles=$root/data/redock_smiles/crystal_ligands.smi
out=${OUTDIR:-/tmp/bench_redock_smiles}
search=${SEARCH:-balanced}
runs=${RUNS:-3}
ph=${PH:-none}
if [ "${CPU:-0}" = 1 ]; then
  devices=${DEVICES:-cpu}
  complexes=${COMPLEXES:-1lrh 1stp 1yv3}
else
  devices=${DEVICES:-gpu}
  complexes=${COMPLEXES:-}
fi
dock_args=${DOCK_ARGS:-}
python=${PYTHON:-/usr/bin/python3}
arms=${ARMS:-smiles crystal crystal-vsgrid}
sdf_dir=$root/data/redock_smiles/crystal_sdf
for arm in $arms; do
  case $arm in smiles | crystal | crystal-vsgrid) ;; *) echo "bench_redock_smiles: unknown arm '$arm' in ARMS (smiles crystal crystal-vsgrid)" >&2; exit 2 ;; esac
done
if [ -n "${OB_DIR:-}" ]; then
  OB_DIR=$(cd "$OB_DIR" && pwd) || exit 2
  export LD_LIBRARY_PATH=$OB_DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} BABEL_LIBDIR=$OB_DIR/plugins BABEL_DATADIR=$OB_DIR/data
fi
# shellcheck source=scripts/lib_redock.sh
. "$here/lib_redock.sh"

# the table's rows: complex crystal receptor box starts (paths as written: "repo:" or shared)
rows() { awk -F'\t' '!/^#/ && NF >= 5' "$table"; }
path_of() { case $1 in repo:*) echo "$root/${1#repo:}" ;; *) echo "$shared/$1" ;; esac; }

if [ "${1:-}" = --files ]; then
  rows | while IFS=$'\t' read -r c crystal receptor box starts; do
    for p in "$crystal" "$receptor" "${box#fld:}"; do [[ $p == repo:* || $p == around ]] || echo "$p"; done
    if [ "$starts" = rand ]; then for ((k = 0; k < runs; k++)); do echo "$(dirname "$crystal")/rand-$k.pdbqt"; done; fi
  done
  exit 0
fi
[ -x "$vsgrid" ] || { echo "bench_redock_smiles: no vsgrid at '$vsgrid' (set VSGRID)" >&2; exit 2; }
[ -d "$shared" ] || { echo "bench_redock_smiles: no shared data at '$shared' (set VSG_SHARED_DATA)" >&2; exit 2; }
mkdir -p "$out" || exit 1
have_rdkit=0
"$python" -c 'import rdkit' 2> /dev/null && have_rdkit=1

# Top-pose RMSD of each record of an SDF of poses (--poses 1), in record order: one line a
# record "k rmsd" (k 0-based; rmsd empty when the record has no pose or could not be compared).
# FALLBACK=order (the crystal arm: its poses list the heavy atoms in the crystal file's order):
# poses whose bond graph does not match the crystal's are compared in file order (lib_redock.sh).
record_rmsds() {
  local ref=$1 f=$2 n=$3 k
  if [ ! -s "$f" ]; then
    for ((k = 0; k < n; k++)); do echo "$k"; done
    return 0
  fi
  redock_rmsd_csv "$ref" "$f"
  # pose i of the file is record vsgrid_record of the screen (a failed record has no pose)
  awk -v n="$n" 'FNR == 1 { file++ }
    file == 1 && /^> <vsgrid_record>/ { getline; rec[++p] = $1 }
    file == 2 && FNR > 1 { split($0, a, ","); r[rec[a[1]]] = a[3] }
    END { for (k = 0; k < n; k++) print k, r[k] }' "$f" "$f.rmsd"
}

# One arm of one complex: LIB files, docked in one screen; ARGS after "--" go to the screen.
dock_arm() {
  local c=$1 arm=$2 rec=$3 d=$out/$1 f=$out/$1/$2
  shift 3
  local lib=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do lib+=("$1"); shift; done
  shift
  [ -s "$f.csv" ] && return 0
  local t0 t1
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086 # DOCK_ARGS is a list of words
  "$vsgrid" screen "$d/maps" "${lib[@]}" --scoring vina --placement flexible --search "$search" --seed 0 --poses 1 \
    --poses-out "$f.sdf" -o "$f.csv" --receptor "$rec" --devices "$devices" --quiet "$@" $dock_args > "$f.log" 2>&1 ||
    echo "$c $arm: screen failed (exit $?): $(tail -1 "$f.log")" >&2
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }' > "$f.seconds"
}

t_start=$(date +%s.%N)
rows_out=$out/rows.tsv
: > "$rows_out"
missing=()
while IFS=$'\t' read -r c crystal receptor box starts; do
  if [ -n "$complexes" ] && [[ " $complexes " != *" $c "* ]]; then continue; fi
  d=$out/$c
  mkdir -p "$d"
  lig=$(path_of "$crystal")
  rec=$(path_of "$receptor")
  smi=$(awk -v c="$c" '$2 == c { print $1; exit }' "$smiles")
  if [ ! -f "$lig" ] || [ ! -f "$rec" ] || [ -z "$smi" ]; then
    missing+=("$c (missing: $([ -f "$lig" ] || echo "$lig ")$([ -f "$rec" ] || echo "$rec ")$([ -n "$smi" ] || echo "its SMILES"))")
    continue
  fi
  if [[ $rec != *.pdbqt ]]; then # a PDB receptor: prepared once (hydrogens, charges) for the maps and --receptor
    [ -s "$d/receptor.pdbqt" ] || "$vsgrid" prepare "$rec" -o "$d/receptor.pdbqt" > "$d/prepare.log" 2>&1 ||
      { missing+=("$c (vsgrid prepare failed: $(tail -1 "$d/prepare.log"))"); continue; }
    rec=$d/receptor.pdbqt
  fi
  if [[ $box == fld:* ]]; then
    read -r cx cy cz sx sy sz <<< "$(redock_box_fld "$(path_of "${box#fld:}")")"
    boxarg=$cx,$cy,$cz,$sx,$sy,$sz
  else
    boxarg=around:$lig
  fi
  redock_maps "$rec" "$boxarg" "$d" "$c" || { missing+=("$c (vsgrid maps failed)"); continue; }
  # the arms' libraries: record k is run k, docked with seed k
  : > "$d/smiles.smi"
  crys=() vsg=() no_sdf=
  for ((k = 0; k < runs; k++)); do
    echo "$smi $c" >> "$d/smiles.smi"
    start=$lig sdf=$sdf_dir/$c-crystal.sdf.gz
    if [ "$starts" = rand ] && [ -f "$(dirname "$lig")/rand-$k.pdbqt" ]; then
      start=$(dirname "$lig")/rand-$k.pdbqt
      # no SDF of this rand-k (its bonds are not the crystal's: 3ER5): the crystal file's conformer
      [ -f "$sdf_dir/$c-rand-$k.sdf.gz" ] && sdf=$sdf_dir/$c-rand-$k.sdf.gz
    fi
    crys+=("$start")
    vsg+=("$sdf")
    [ -f "$sdf" ] || no_sdf=$sdf
  done
  done_arms=
  for arm in $arms; do
    case $arm in
      smiles) dock_arm "$c" smiles "$rec" "$d/smiles.smi" -- --ph "$ph" ;;
      crystal) dock_arm "$c" crystal "$rec" "${crys[@]}" -- ;;
      crystal-vsgrid)
        if [ -n "$no_sdf" ]; then
          missing+=("$c crystal-vsgrid (no ${no_sdf#"$root"/}: scripts/redock_crystal_smiles.py sdf --gzip makes them)")
          continue
        fi
        dock_arm "$c" crystal-vsgrid "$rec" "${vsg[@]}" -- ;;
    esac
    done_arms+=" $arm"
  done
  for arm in $done_arms; do
    tors=$(awk -F, 'NR > 1 && $14 == "ok" { print $12; exit }' "$d/$arm.csv" 2> /dev/null)
    st=$(awk -F, 'NR > 1 && $14 != "ok" { printf "%s%s", sep, $14; sep = "," }' "$d/$arm.csv" 2> /dev/null)
    stereo=- rings=-
    if [ "$arm" = smiles ] && [ $have_rdkit = 1 ] && [ -s "$d/$arm.sdf" ]; then
      [ -s "$d/poses.tsv" ] || "$python" "$here/redock_crystal_smiles.py" poses --table "$table" --shared "$shared" --smiles "$smiles" \
        "$d/$arm.sdf" > "$d/poses.tsv" 2> /dev/null
      stereo=$(awk -F'\t' '$4 != "" { n++; ok += $4 } END { printf "%d/%d", ok, n }' "$d/poses.tsv")
      rings=$(awk -F'\t' '$5 != "" && ($5 > m || m == "") { m = $5 } END { print (m == "" ? "-" : m) }' "$d/poses.tsv")
    fi
    rm -f "$d/$arm.rmsd.tsv"
    fallback=
    # the crystal conformers' poses list the heavy atoms in the crystal file's order (the SDFs too)
    [ "$arm" != smiles ] && fallback=order
    FALLBACK=$fallback record_rmsds "$lig" "$d/$arm.sdf" "$runs" > "$d/$arm.rmsd.tsv"
    printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" "$c" "$arm" "${tors:--}" "$(awk '{ printf "%s%s", sep, ($2 == "" ? "-" : sprintf("%.2f", $2)); sep = " " }' "$d/$arm.rmsd.tsv")" \
      "$(cat "$d/$arm.seconds" 2> /dev/null)" "$stereo" "${st:-}" "$rings" >> "$rows_out"
  done
done < <(rows)
t_end=$(date +%s.%N)

echo "# Re-docking from SMILES against the crystal conformer (issue 29; arms: $arms)"
echo
echo "$("$vsgrid" --version 2> /dev/null | head -1); $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores; --search $search --devices $devices; SMILES --ph $ph; $runs runs an arm (seeds 0-$((runs - 1))); DOCK_ARGS: ${dock_args:-(none)}; outputs in $out"
echo
echo "Top-pose RMSD (A) to the crystal pose, run by run; success: < 2 A; torsions: TORSDOF of each arm's tree (vsgrid CSV column torsdof);"
echo "arms: smiles (from SMILES), crystal (the crystal conformer, AutoDockTools' tree), crystal-vsgrid (the same conformer, vsgrid's tree):"
echo
awk -F'\t' -v runs="$runs" -v arms="$arms" '
  function succ(s,   a, n, i, k) { n = split(s, a, " "); k = 0; for (i = 1; i <= n; i++) if (a[i] != "-" && a[i] < 2) k++; return k }
  function pct(a, b) { return b ? 100 * a / b : 0 }
  function ratio(x, y, target,   S, C, N, i, c) {
    for (i = 1; i <= nc; i++) { c = order[i]; if ((c, x) in rm && (c, y) in rm) { S += succ(rm[c, x]); C += succ(rm[c, y]); N += runs } }
    if (!N) return ""
    if (!C) return sprintf("%s/%s: %d/%d against %d/%d, ratio undefined (no %s success)", label[x], label[y], S, N, C, N, label[y])
    return sprintf("%s/%s: %d/%d against %d/%d, ratio %.2f", label[x], label[y], S, N, C, N, S / C) (target ? sprintf(" (target >= 0.90: %s)", (S / C >= 0.9 ? "met" : "not met")) : "")
  }
  BEGIN {
    na = split(arms, arm, " ")
    label["smiles"] = "SMILES"; label["crystal"] = "crystal"; label["crystal-vsgrid"] = "crystal-vsgrid"
    title["smiles"] = "from SMILES"; title["crystal"] = "from crystal conformer"; title["crystal-vsgrid"] = "from crystal conformer, vsgrid tree"
    h = "| complex | torsions ("; r = "|---|--:|"
    for (j = 1; j <= na; j++) h = h (j > 1 ? " / " : "") label[arm[j]]
    h = h ") |"
    for (j = 1; j <= na; j++) {
      h = h " " title[arm[j]] " | success |"; r = r "---|--:|"
      if (arm[j] == "smiles") { h = h " stereo as the SMILES | rings vs crystal (A) |"; r = r "--:|--:|" }
    }
    h = h " s ("; for (j = 1; j <= na; j++) h = h (j > 1 ? " / " : "") label[arm[j]]
    print h ") |"; print r "--:|"
  }
  { key = $1; if (!(key in seen)) { seen[key] = 1; order[++nc] = key }
    tors[key, $2] = $3; rm[key, $2] = $4; sec[key, $2] = $5; if ($2 == "smiles") { stereo[key] = $6; rings[key] = $8 }; bad[key, $2] = $7 }
  END {
    for (i = 1; i <= nc; i++) {
      c = order[i]; note = ""; t = ""; s = ""; cols = ""
      for (j = 1; j <= na; j++) {
        a = arm[j]; has = ((c, a) in rm)
        if (bad[c, a] != "") note = note " (" label[a] ": " bad[c, a] ")"
        t = t (j > 1 ? " / " : "") (has ? tors[c, a] : "-"); s = s (j > 1 ? " / " : "") (has ? sec[c, a] : "-")
        if (has) { k = succ(rm[c, a]); tot[a] += k; n[a] += runs; cols = cols sprintf(" %s | %d/%d |", rm[c, a], k, runs) }
        else cols = cols " - | - |"
        if (a == "smiles") cols = cols sprintf(" %s | %s |", (has ? stereo[c] : "-"), (has ? rings[c] : "-"))
      }
      printf "| %s%s | %s |%s %s |\n", c, note, t, cols, s
    }
    printf "\nSuccess (top pose < 2 A), runs of %d complexes:", nc
    for (j = 1; j <= na; j++) printf "%s %s %d/%d (%.0f%%)", (j > 1 ? ";" : ""), title[arm[j]], tot[arm[j]], n[arm[j]], pct(tot[arm[j]], n[arm[j]])
    printf "\n"
    if ((x = ratio("smiles", "crystal", 1)) != "") print "- " x
    if ((x = ratio("smiles", "crystal-vsgrid", 1)) != "") print "- " x " (the 3D generation alone)"
    if ((x = ratio("crystal-vsgrid", "crystal", 0)) != "") print "- " x " (the torsion trees alone)"
  }' "$rows_out"
awk -v a="$t_start" -v b="$t_end" 'BEGIN { printf "\nWhole run %.0f s (maps, preparation, docking, RMSDs).\n", b - a }'
if [ ${#missing[@]} -gt 0 ]; then
  echo
  echo "Not run:"
  for m in "${missing[@]}"; do echo "- $m"; done
fi
