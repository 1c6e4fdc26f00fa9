#!/usr/bin/env bash
# Robustness of `dock` and the flexible `screen` (issue 27): malformed ligands (every prefix of a
# PDBQT, SDF and MOL2 record, lines with bytes flipped, NaN and huge coordinates, empty files,
# binary noise) and option values at and past their limits. Nothing may crash (a signal, exit >=
# 128) or answer exit 0 without poses: dock exits 0 with poses, or 2/3/4/8 with a one-line
# message; a flexible screen gives every record of the file its row (status ok or why not).
# Under the sanitizer build (CI) the same runs check memory errors too.
# Usage: cli_dock_robust.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_dock_robust
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"
rec=$src/data/1stp_receptor.pdbqt lig=$src/data/biotin.pdbqt
quick=(--exhaustiveness 1 --steps 5 --devices cpu --threads 1 --quiet)
"$vsgrid" maps "$rec" --scoring vina --around "$lig" -o m --device cpu --quiet || { echo "FAIL: maps"; exit 1; }
zcat "$src/data/inha/library.mol2.gz" | awk '/^@<TRIPOS>MOLECULE/ { n++ } n == 1' > one.mol2
cat > one.sdf <<'EOF'
ethanol
  vsgrid

  9  8  0  0  0  0  0  0  0  0999 V2000
   -0.8883    0.1670   -0.0273 C   0  0  0  0  0  0  0  0  0  0  0  0
    0.4658   -0.5116   -0.0368 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.4311    0.3450    0.5646 O   0  0  0  0  0  0  0  0  0  0  0  0
   -0.8170    1.1276   -0.5491 H   0  0  0  0  0  0  0  0  0  0  0  0
   -1.6336   -0.4550   -0.5299 H   0  0  0  0  0  0  0  0  0  0  0  0
   -1.2020    0.3600    1.0010 H   0  0  0  0  0  0  0  0  0  0  0  0
    0.7940   -0.7040   -1.0610 H   0  0  0  0  0  0  0  0  0  0  0  0
    0.3850   -1.4760    0.4720 H   0  0  0  0  0  0  0  0  0  0  0  0
    1.5380    1.1210    0.0000 H   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
  2  3  1  0
  1  4  1  0
  1  5  1  0
  1  6  1  0
  2  7  1  0
  2  8  1  0
  3  9  1  0
M  END
$$$$
EOF
# move the ethanol into the pocket, so that the intact record docks
c=$(awk '/^CENTER/ { print $2, $3, $4; exit }' m.C_H.map)
awk -v c="$c" 'BEGIN { split(c, o, " ") } NF == 16 { printf "%10.4f%10.4f%10.4f%s\n", $1 + o[1], $2 + o[2], $3 + o[3], substr($0, 31); next } { print }' one.sdf > tmp.sdf && mv tmp.sdf one.sdf

runs=0
# check_dock FILE: dock's exit code is one that means something, and 0 only with poses
check_dock() {
  rm -f o.pdbqt
  "$vsgrid" dock m "$1" "${quick[@]}" -o o.pdbqt >out.txt 2>err.txt
  local rc=$?
  runs=$((runs + 1))
  case $rc in
    0) grep -q "^MODEL" o.pdbqt 2>/dev/null || fail "dock $1: exit 0 without poses" ;;
    2|3|4|8) [ -s err.txt ] || fail "dock $1: exit $rc without a message" ;;
    *) fail "dock $1: exit $rc: $(head -c 300 err.txt)"; cp "$1" "crash_$runs.${1##*.}" ;;
  esac
}
# check_screen FILE RECORDS: a flexible screen gives each record its row
check_screen() {
  "$vsgrid" screen m "$1" --scoring vina --placement flexible "${quick[@]}" -o s.csv >out.txt 2>err.txt
  local rc=$?
  runs=$((runs + 1))
  case $rc in 0|3|8) ;; *) fail "screen $1: exit $rc: $(head -c 300 err.txt)" ;; esac
  [ "$rc" -ge 128 ] && return
  local rows
  rows=$(awk 'NR > 1 && /^[0-9]+,/' s.csv | wc -l)
  [ "$rows" -ge 1 ] || fail "screen $1: no row ($(head -c 200 err.txt))"
}

for base in "$lig" one.mol2 one.sdf; do
  ext=${base##*.}
  n=$(wc -l < "$base")
  check_dock "$base"
  [ -f o.pdbqt ] || fail "intact $base did not dock: $(cat err.txt)"
  # every prefix of the record (a truncated download), a step of lines at a time
  step=$(( n / 12 + 1 ))
  for ((k = 1; k < n; k += step)); do head -n "$k" "$base" > "cut.$ext"; check_dock "cut.$ext"; done
  # one line at a time made garbage: its numbers flipped to NaN, to 1e30, or its text reversed
  for ((k = 1; k <= n; k += step)); do
    awk -v k="$k" 'NR == k { gsub(/[0-9]+\.[0-9]+/, "nan") } { print }' "$base" > "nan.$ext"; check_dock "nan.$ext"
    awk -v k="$k" 'NR == k { gsub(/[0-9]+\.[0-9]+/, "1e30") } { print }' "$base" > "big.$ext"; check_dock "big.$ext"
    awk -v k="$k" 'NR == k { s = ""; for (i = length($0); i > 0; i--) s = s substr($0, i, 1); $0 = s } { print }' \
      "$base" > "rev.$ext"; check_dock "rev.$ext"
  done
  # several records of which some are broken: the screen rows every one
  { cat "$base"; head -n $((n / 2)) "$base"; [ "$ext" = sdf ] && echo '$$$$'; cat "$base"; } > "mixed.$ext"
  check_screen "mixed.$ext"
  : > "empty.$ext"; check_dock "empty.$ext"; check_screen "empty.$ext"
  head -c 2000 /dev/urandom > "noise.$ext" 2>/dev/null || printf '\x00\x01\xff' > "noise.$ext"
  check_dock "noise.$ext"
done

# option values at and past their limits: usage errors (2), never a crash or a meaningless 0
for opt in "--exhaustiveness 0" "--exhaustiveness -1" "--exhaustiveness 1e9" "--steps 0" "--steps abc" "--poses 0" \
           "--poses 1000001" "--min-rmsd -1" "--min-rmsd nan" "--seed -5" "--seed 1e40" "--threads 0" "--record 0" \
           "--record x" "--search nope" "--scoring ad4" "--devices 99" "--devices" "-o"; do
  # shellcheck disable=SC2086
  "$vsgrid" dock m "$lig" $opt -o o.pdbqt --devices cpu --quiet >out.txt 2>err.txt
  rc=$?
  runs=$((runs + 1))
  case $rc in 2|3|5|7) ;; 0) grep -q "^MODEL" o.pdbqt || fail "dock $opt: exit 0 without poses" ;;
    *) fail "dock $opt: exit $rc: $(head -c 300 err.txt)" ;; esac
done
for opt in "--max-torsions 0" "--max-torsions -3" "--poses-top -1" "--poses-below nan" "--exhaustiveness 0" "--steps -2"; do
  # shellcheck disable=SC2086
  "$vsgrid" screen m "$lig" --scoring vina --placement flexible $opt --devices cpu -o s.csv --quiet >out.txt 2>err.txt
  rc=$?
  runs=$((runs + 1))
  case $rc in 0|2|3|8) ;; *) fail "screen $opt: exit $rc: $(head -c 300 err.txt)" ;; esac
done
echo "$runs runs, $fails failure(s)"
exit $((fails > 0))
