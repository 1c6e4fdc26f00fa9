#!/usr/bin/env bash
# Peer comparison with APBS (Debian's apbs), run for real in CI:
#   1. solvation energy of fasciculin-2 (data/fas2.pqr), SES surface, 0.15 M salt, 97³ at 0.5 Å:
#      within 1% of APBS (mg-manual, srfm mol, chgm spl0, bcfl mdh, same box);
#   2. biotin's interaction energy Σ q·φ in the 1STP receptor's potential (vdW surface, same
#      box, both potentials probed by vsgrid at the same atoms): within 2% of APBS.
# Usage: peer_apbs.sh VSGRID SOURCE_DIR BINARY_DIR. Exit 77 (skipped) without apbs.
set -u
vsgrid=$1 src=$2 work=$3/peer_apbs
if ! command -v apbs >/dev/null 2>&1; then echo "skipped: apbs not installed (apt-get install apbs)"; exit 77; fi
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
within() {  # within NAME GOT REF REL
  awk -v n="$1" -v a="$2" -v b="$3" -v r="$4" 'BEGIN {
    d = (a - b) / b; if (d < 0) d = -d
    printf "%-38s vsgrid %12.5f  APBS %12.5f  diff %.3f%% (limit %.1f%%)\n", n, a, b, 100 * d, 100 * r
    exit !(d <= r) }' || fail "$1: vsgrid $2 vs APBS $3 beyond $4"
}
# APBS input for one mg-manual run: apbs_elec NAME MOL CENTRE SDIE SRAD IONS(0|1) [WRITE]
apbs_elec() {
  cat <<EOT
elec name $1
    mg-manual
    dime 97 97 97
    grid 0.5 0.5 0.5
    gcent $3
    mol $2
    lpbe
    bcfl mdh
    pdie 2.0
    sdie $4
    srfm mol
    chgm spl0
    srad $5
    swin 0.3
    sdens 10.0
    temp 298.15
EOT
  [ "$6" = 1 ] && printf '    ion charge 1 conc 0.15 radius 2.0\n    ion charge -1 conc 0.15 radius 2.0\n'
  printf '    calcenergy total\n    calcforce no\n'
  [ -n "${7:-}" ] && printf '    write pot dx %s\n' "$7"
  printf 'end\n'
}

# 1. fasciculin-2 solvation energy.
cp "$src/data/fas2.pqr" .
centre=$(awk '/^ATOM|^HETATM/ { x=$6; y=$7; z=$8
  if (NR==1 || x<a) a=x; if (NR==1 || x>A) A=x; if (NR==1 || y<b) b=y; if (NR==1 || y>B) B=y
  if (NR==1 || z<c) c=z; if (NR==1 || z>C) C=z }
  END { printf "%.3f %.3f %.3f", (a+A)/2, (b+B)/2, (c+C)/2 }' fas2.pqr)
{ printf 'read\n    mol pqr fas2.pqr\nend\n'
  apbs_elec solv 1 "$centre" 78.54 1.4 1
  apbs_elec ref 1 "$centre" 2.0 1.4 0
  printf 'print elecEnergy solv - ref end\nquit\n'; } > fas2.in
apbs fas2.in > fas2.log 2>&1 || fail "apbs failed on fas2 (see $work/fas2.log)"
apbs_kj=$(awk '/Global net ELEC energy/ { print $6 }' fas2.log | tail -1)
apbs_kcal=$(awk -v e="$apbs_kj" 'BEGIN { printf "%.6f", e / 4.184 }')
"$vsgrid" energy fas2.pqr --box "${centre// /,},48,48,48" --spacing 0.5 --surface ses --salt 0.15 \
  --solvation --device cpu --quiet --json fas2.json > fas2.out 2>&1 || fail "vsgrid energy failed on fas2"
ours=$(awk -F': ' '/"solvation_energy_kcal_mol"/ { gsub(/,/, "", $2); print $2 }' fas2.json)
within "fas2 solvation energy (kcal/mol)" "$ours" "$apbs_kcal" 0.01

# 2. biotin in the 1STP receptor's potential.
"$vsgrid" info "$src/data/1stp_receptor.pdbqt" --pqr 1stp.pqr > /dev/null || fail "cannot write 1stp.pqr"
{ printf 'read\n    mol pqr 1stp.pqr\nend\n'
  apbs_elec pot 1 "10.734 2.033 -11.537" 78.54 0.0 1 apbs_pot
  printf 'quit\n'; } > 1stp.in
apbs 1stp.in > 1stp.log 2>&1 || fail "apbs failed on 1stp (see $work/1stp.log)"
dx=$(ls apbs_pot*.dx 2>/dev/null | head -1)
apbs_e=$("$vsgrid" probe "$dx" "$src/data/biotin.pdbqt" --quiet | awk '{ print $3 }')
"$vsgrid" grid 1stp.pqr -o vs.vsg --box 10.734,2.033,-11.537,48,48,48 --spacing 0.5 --surface vdw \
  --salt 0.15 --device cpu --quiet > grid.out 2>&1 || fail "vsgrid grid failed on 1stp"
ours_e=$("$vsgrid" probe vs.vsg "$src/data/biotin.pdbqt" --quiet | awk '{ print $3 }')
within "biotin interaction energy (kT), vdw" "$ours_e" "$apbs_e" 0.02

echo "peer_apbs: $fails failed"
[ "$fails" = 0 ]
