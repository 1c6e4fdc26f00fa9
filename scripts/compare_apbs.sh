#!/usr/bin/env bash
# vsgrid against APBS (mg-manual) on the same grids with matched settings: solvation energies
# and biotin's interaction energy in the 1STP receptor's potential. Prints one table.
#   scripts/compare_apbs.sh [--quick] [VSGRID]
# --quick runs the two cases CI checks (tests/peer_apbs.sh); without it, the full table.
# Settings on both sides: pdie 2, sdie 78.54, 298.15 K, 0.15 M 1:1 salt (ion radius 2 Å), spl0
# charges, mdh faces, spacing 0.5 Å, box = molecule extent (atom centres) + 2×12 Å rounded to an
# APBS multigrid size; surface ses (APBS srfm mol, srad 1.4) or vdw (srad 0).
# VSG_DEVICE=gpu runs vsgrid on the GPU (default cpu: the CPU twin).
# Exit status 1 if a checked row is beyond its limit; rows with limit "-" are reported only.
set -u
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
here=$(cd "$(dirname "$0")/.." && pwd)
vsgrid=${1:-$here/build/vsgrid}
case "$vsgrid" in /*) ;; *) vsgrid="$PWD/$vsgrid" ;; esac
command -v apbs > /dev/null 2>&1 || { echo "skipped: apbs not installed (apt-get install apbs)"; exit 77; }
[ -x "$vsgrid" ] || { echo "no vsgrid at $vsgrid"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
fails=0
. "$here/scripts/lib_apbs.sh" # box_of, apbs_elec
kt=$(awk 'BEGIN { printf "%.9f", 1.987204259e-3 * 298.15 }')

row() {  # row CASE QUANTITY VSGRID APBS LIMIT(fraction or -) VSG_SECONDS APBS_SECONDS
  awk -v c="$1" -v q="$2" -v a="$3" -v b="$4" -v l="$5" -v ts="$6" -v ta="$7" 'BEGIN {
    numeric = "^-?[0-9]+([.][0-9]*)?([eE][-+]?[0-9]+)?$"
    if (a !~ numeric || b !~ numeric || b + 0 == 0) { d = -1; ok = "FAIL" }
    else { d = (a - b) / b; if (d < 0) d = -d; ok = (l == "-") ? "report" : (d <= l ? "ok" : "FAIL") }
    printf "%-22s %-26s %13s %13s %8.3f%% %7s %7s %8.2f %8.2f\n", c, q, a, b, 100 * d,
           (l == "-") ? "-" : sprintf("%.1f%%", 100 * l), ok, ts, ta
    exit (ok == "FAIL") }' || fails=$((fails + 1))
}

solvation() {  # solvation NAME PQR SURFACE LIMIT
  local name=$1 pqr=$2 surf=$3 limit=$4 srad=1.4 box cx cy cz n t0 ta tv ours apbs_kj
  [ "$surf" = vdw ] && srad=0.0
  box=$(box_of "$pqr"); read -r cx cy cz n <<< "$box"
  { printf 'read\n    mol pqr %s\nend\n' "$pqr"
    apbs_elec solv "$cx $cy $cz" "$n" 78.54 "$srad" 1
    apbs_elec ref "$cx $cy $cz" "$n" 2.0 "$srad" 0
    printf 'print elecEnergy solv - ref end\nquit\n'; } > "$name.in"
  t0=$(date +%s.%N); apbs "$name.in" > "$name.log" 2>&1; ta=$(echo "$(date +%s.%N)" | awk -v t="$t0" '{ printf "%.2f", $1 - t }')
  apbs_kj=$(awk '/Global net ELEC energy/ { print $6 }' "$name.log" | tail -1)
  local len; len=$(awk -v n="$n" 'BEGIN { print (n - 1) * 0.5 }')
  t0=$(date +%s.%N)
  "$vsgrid" energy "$pqr" --box "$cx,$cy,$cz,$len,$len,$len" --spacing 0.5 --surface "$surf" --salt 0.15 \
    --solvation --device "${VSG_DEVICE:-cpu}" --quiet --json "$name.json" > "$name.out" 2>&1
  tv=$(echo "$(date +%s.%N)" | awk -v t="$t0" '{ printf "%.2f", $1 - t }')
  ours=$(awk -F': ' '/"solvation_energy_kcal_mol"/ { gsub(/,/, "", $2); print $2 }' "$name.json")
  row "$name ${n}^3" "solvation kcal/mol, $surf" "${ours:-nan}" "$(awk -v e="${apbs_kj:-nan}" 'BEGIN { print e / 4.184 }')" "$limit" "$tv" "$ta"
}

interaction() {  # interaction NAME RECEPTOR_PQR LIGAND SURFACE LIMIT
  local name=$1 pqr=$2 lig=$3 surf=$4 limit=$5 srad=1.4 cx=10.734 cy=2.033 cz=-11.537 t0 ta tv dx ours apbs_e
  [ "$surf" = vdw ] && srad=0.0
  { printf 'read\n    mol pqr %s\nend\n' "$pqr"
    apbs_elec pot "$cx $cy $cz" 97 78.54 "$srad" 1 "$name"
    printf 'quit\n'; } > "$name.in"
  t0=$(date +%s.%N); apbs "$name.in" > "$name.log" 2>&1; ta=$(echo "$(date +%s.%N)" | awk -v t="$t0" '{ printf "%.2f", $1 - t }')
  dx=$(ls "$name"*.dx 2>/dev/null | head -1)
  apbs_e=$("$vsgrid" probe "$dx" "$lig" --quiet | awk '{ print $3 }')
  t0=$(date +%s.%N)
  "$vsgrid" grid "$pqr" -o "$name.vsg" --box "$cx,$cy,$cz,48,48,48" --spacing 0.5 --surface "$surf" --salt 0.15 \
    --device "${VSG_DEVICE:-cpu}" --quiet > "$name.out" 2>&1
  tv=$(echo "$(date +%s.%N)" | awk -v t="$t0" '{ printf "%.2f", $1 - t }')
  ours=$("$vsgrid" probe "$name.vsg" "$lig" --quiet | awk '{ print $3 }')
  row "$name 97^3" "biotin Σqφ kT, $surf" "${ours:-nan}" "${apbs_e:-nan}" "$limit" "$tv" "$ta"
}

cp "$here/data/fas2.pqr" fas2.pqr
"$vsgrid" info "$here/data/1stp_receptor.pdbqt" --pqr 1stp.pqr > /dev/null
printf '%-22s %-26s %13s %13s %9s %7s %7s %8s %8s\n' case quantity vsgrid APBS diff limit result vsg_s apbs_s
solvation fas2 fas2.pqr ses 0.01
interaction 1stp_biotin_vdw 1stp.pqr "$here/data/biotin.pdbqt" vdw 0.02
if [ "$quick" = 0 ]; then
  solvation fas2_vdw fas2.pqr vdw 0.01
  solvation 1stp 1stp.pqr ses 0.01
  solvation 1stp_vdw 1stp.pqr vdw 0.01
  interaction 1stp_biotin_ses 1stp.pqr "$here/data/biotin.pdbqt" ses -
  if [ -d "$here/../shared/data/pqr/apbs_bem" ]; then
    for p in 451c 1a63; do
      cp "$here/../shared/data/pqr/apbs_bem/$p.pqr" "$p.pqr"
      solvation "$p" "$p.pqr" ses 0.01
    done
  fi
fi
echo "kT = $kt kcal/mol; $(grep -m1 -o "APBS [0-9][0-9.]*" fas2.log 2>/dev/null || echo APBS); $(nproc) cores"
[ "$fails" = 0 ]
