#!/usr/bin/env bash
# vsgrid prepare against pdb2pqr, measured where it matters: the PB solvation energy.
# For each protein (HETATM and waters stripped, as the issue's target says "proteins without
# HETATM"): pdb2pqr --ff=FF (its defaults: debump and H-bond optimisation) → APBS solvation
# energy (the reference); vsgrid prepare --ff FF → vsgrid energy --solvation on the same grid
# (the user's path), and APBS on vsgrid's PQR (the preparation alone). Settings as
# scripts/compare_apbs.sh: pdie 2, sdie 78.54, 0.15 M, SES, spl0, mdh, 0.5 Å, box = extent + 24 Å.
#   scripts/compare_prepare_apbs.sh [VSGRID]     (VSG_SHARED_DATA or ../shared/data; FF=AMBER|PARSE;
#   PROTEINS="paths below the data folder" for a subset)
# Exit status 1 if a row's |vsgrid − APBS(pdb2pqr)| exceeds 1%.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
vsgrid=${1:-$here/build/vsgrid}
case "$vsgrid" in /*) ;; *) vsgrid="$PWD/$vsgrid" ;; esac
shared=${VSG_SHARED_DATA:-$here/../shared/data}
ff=${FF:-AMBER}
for t in apbs pdb2pqr30; do
  command -v $t > /dev/null 2>&1 || { echo "skipped: $t not installed (apt-get install apbs pdb2pqr)"; exit 77; }
done
[ -x "$vsgrid" ] || { echo "no vsgrid at $vsgrid"; exit 2; }
[ -d "$shared" ] || { echo "skipped: no shared data at $shared"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
fails=0

. "$here/scripts/lib_apbs.sh" # box_of, apbs_elec
apbs_solvation() {  # PQR "CX CY CZ" N → kcal/mol
  { printf 'read\n    mol pqr %s\nend\n' "$1"
    apbs_elec solv "$2" "$3" 78.54 1.4 1
    apbs_elec ref "$2" "$3" 2.0 1.4 0
    printf 'print elecEnergy solv - ref end\nquit\n'; } > a.in
  apbs a.in > a.log 2>&1
  awk '/Global net ELEC energy/ { e = $6 } END { if (e == "") print "nan"; else printf "%.3f", e / 4.184 }' a.log
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "nan"; else { d = 100 * (a - b) / b; printf "%+.2f", d } }'; }

printf '%-8s %-6s %7s %7s %7s %12s %12s %12s %8s %8s %s\n' protein ff atoms_p atoms_v charge \
  "APBS(p2p)" "APBS(vsg)" "vsgrid" "prep%" "total%" result
for spec in ${PROTEINS:-pqr/pdb2pqr/1AFS.pdb.gz pqr/pdb2pqr/1AJJ.pdb autodock_gpu/1stp/1STP.pdb autodock_gpu/3ce3/3CE3.pdb \
            pdb/1mbo.pdb pdbbind_subset/1imx/1imx_protein.pdb pdbbind_subset/1k9q/1k9q_protein.pdb}; do
  src=$shared/$spec
  [ -f "$src" ] || { echo "missing $src"; continue; }
  name=$(basename "$spec" | sed 's/[._].*//')
  # the first model, amino acids only: no HETATM, no waters
  { case "$src" in *.gz) gzip -dc "$src" ;; *) cat "$src" ;; esac; } |
    awk '/^ENDMDL|^END/ { exit } /^ATOM/ { print } /^TER/ { print }' > "$name.pdb"
  if ! pdb2pqr30 --ff="$ff" --keep-chain "$name.pdb" p2p.pqr > p2p.log 2>&1; then # the peer's failure, not ours
    "$vsgrid" prepare "$name.pdb" -o vsg.pqr --ff "$(echo "$ff" | tr A-Z a-z)" > prep.log 2>&1 && ours="prepared" || ours="failed too"
    echo "$name: pdb2pqr failed ($(grep -m1 -o 'ValueError: [^:]*' p2p.log)); vsgrid prepare: $ours"; continue
  fi
  "$vsgrid" prepare "$name.pdb" -o vsg.pqr --ff "$(echo "$ff" | tr A-Z a-z)" > prep.log 2>&1 ||
    { echo "$name: vsgrid prepare failed: $(tail -1 prep.log)"; fails=$((fails + 1)); continue; }
  read -r cx cy cz n <<< "$(box_of p2p.pqr)"
  ref=$(apbs_solvation p2p.pqr "$cx $cy $cz" "$n")
  prep=$(apbs_solvation vsg.pqr "$cx $cy $cz" "$n")
  len=$(awk -v n="$n" 'BEGIN { print (n - 1) * 0.5 }')
  "$vsgrid" energy vsg.pqr --box "$cx,$cy,$cz,$len,$len,$len" --spacing 0.5 --surface ses --salt 0.15 \
    --solvation --device "${VSG_DEVICE:-cpu}" --quiet --json e.json > e.out 2>&1
  ours=$(awk -F': ' '/"solvation_energy_kcal_mol"/ { gsub(/,/, "", $2); printf "%.3f", $2 }' e.json 2>/dev/null)
  ours=${ours:-nan}
  q=$(awk '/^ATOM|^HETATM/ { s += $(NF-1) } END { printf "%+.0f", s }' vsg.pqr)
  tot=$(pct "$ours" "$ref")
  ok=$(awk -v d="$tot" 'BEGIN { if (d == "nan") print "FAIL"; else print ((d < 0 ? -d : d) <= 1.0) ? "ok" : "FAIL" }')
  [ "$ok" = ok ] || fails=$((fails + 1))
  printf '%-8s %-6s %7d %7d %7s %12s %12s %12s %8s %8s %s\n' "$name" "$ff" "$(grep -c '^ATOM' p2p.pqr)" \
    "$(grep -c '^ATOM' vsg.pqr)" "$q" "$ref" "$prep" "$ours" "$(pct "$prep" "$ref")" "$tot" "$ok"
done
echo "$(apbs --version 2>&1 | grep -m1 -o 'APBS [0-9.]*'); $(pdb2pqr30 --version 2>&1 | tail -1); $(nproc) cores; n^3 grid at 0.5 Å; kcal/mol"
[ "$fails" = 0 ]
