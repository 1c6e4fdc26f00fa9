#!/usr/bin/env bash
# vsgrid enrich: help, exit codes, the hand-computed 10-molecule example (tests/test_enrichment.c)
# through the CLI (names repeated over protomers, failed rows, --higher-better, --label-column,
# a SMILES-style actives list), the PNG and JSON, repeatable bootstrap intervals; and a real
# DUD-E target (../shared/data/dude/inha, scored by heavy-atom count, a cheap but real ranking)
# against the independent scripts/enrichment.py: AUC, EF1%, EF5%, adjusted logAUC equal to 1e-6.
# Usage: cli_enrich.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_enrich
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"
near() {  # near A B TOL
  awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= t) }'
}

# Help: the metrics' definitions are stated.
expect_rc 0 "$vsgrid" enrich --help
grep -q "usage: vsgrid enrich" out.txt || fail "enrich --help has no usage line"
for w in --actives --label-column --score-column --higher-better --name-column --png --json --bootstrap --seed \
         "k = max(1, round(x% of N))" "BEDROC" "0.001 to 1" "ties 1/2"; do
  grep -qF -- "$w" out.txt || fail "enrich --help does not document '$w'"
done

# The 10-molecule example: scores -10..-1, actives at ranks 1, 3, 6 (m1, m3, m6). m3 has a
# second, worse protomer; m9 a failed row besides its scored one; m11 only a failed row (an
# extra decoy, ranked last): 11 molecules, 3 actives. m11 changes nothing above rank 10 but
# adds a decoy: AUC = (8 + 7 + 5) / (3 * 8) = 20/24.
cat > res.csv <<'EOF'
index,name,source,record,atoms,score_kcal_mol,elec_kcal_mol,atoms_outside,status,message
0,m1,a.sdf,1,10,-10.0000,0,0,ok,
1,m2,a.sdf,2,10,-9.0000,0,0,ok,
2,m3,a.sdf,3,10,-8.0000,0,0,ok,
3,m3,a.sdf,4,10,-2.5000,0,0,ok,
4,m4,a.sdf,5,10,-7.0000,0,0,ok,
5,m5,a.sdf,6,10,-6.0000,0,3,outside,"3 of 10 atoms outside the grid (they contribute 0)"
6,m6,a.sdf,7,10,-5.0000,0,0,ok,
7,m7,a.sdf,8,10,-4.0000,0,0,ok,
8,m8,a.sdf,9,10,-3.0000,0,0,ok,
9,m9,a.sdf,10,10,-2.0000,0,0,ok,
10,m9,a.sdf,11,10,,,,parse,"a.sdf:99: bad, very bad"
11,m10,a.sdf,12,10,-1.0000,0,0,ok,
12,m11,a.sdf,13,10,,,,no_atoms,a.sdf:120: no atoms
EOF
printf 'm1\nm3\n\n# a comment\nm6\n' > act.txt
expect_rc 0 "$vsgrid" enrich res.csv --actives act.txt --json e.json --png roc.png --bootstrap 200 --seed 7
grep -q "ROC AUC" out.txt && grep -q "EF 1% (top 1)" out.txt && grep -q BEDROC out.txt || fail "no table: $(cat out.txt)"
grep -q "11 molecules (3 actives, 8 decoys) from 13 rows" out.txt || fail "counts: $(head -2 out.txt)"
near "$(json_val e.json auc)" 0.8333333333 1e-9 || fail "AUC $(json_val e.json auc), expected 20/24"
[ "$(json_val e.json unscored)" = 1 ] && [ "$(json_val e.json rows_failed)" = 2 ] || fail "unscored/failed counts"
[ "$(json_val e.json bootstrap_valid)" -gt 100 ] || fail "bootstrap_valid $(json_val e.json bootstrap_valid)"
for k in command auc auc_ci95 logauc_percent adjusted_logauc_percent adjusted_logauc_percent_ci95 ef percent top \
         value ci95 bedroc bedroc_ci95 bedroc_alpha bootstrap_samples seed roc fpr tpr molecules actives decoys; do
  grep -q "\"$k\":" e.json || fail "JSON has no key $k"
done
[ "$(head -c 8 roc.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "roc.png is not a PNG"
[ "$(stat -c %s roc.png)" -gt 2000 ] || fail "roc.png too small"
# Same seed, same intervals; another seed, other intervals.
expect_rc 0 "$vsgrid" enrich res.csv --actives act.txt --json e2.json --bootstrap 200 --seed 7
grep -A2 auc_ci95 e.json > ci1.txt; grep -A2 auc_ci95 e2.json > ci2.txt
cmp -s ci1.txt ci2.txt || fail "--seed 7 twice: different intervals"
expect_rc 0 "$vsgrid" enrich res.csv --actives act.txt --json e3.json --bootstrap 200 --seed 8
grep -A2 bedroc_ci95 e3.json > ci3.txt; grep -A2 bedroc_ci95 e.json > ci1.txt
cmp -s ci1.txt ci3.txt && fail "--seed 7 and 8: the same intervals"
# --bootstrap 0: no intervals.
expect_rc 0 "$vsgrid" enrich res.csv --actives act.txt --bootstrap 0
grep -q "CI" out.txt && fail "--bootstrap 0 still prints intervals"
# --higher-better on the negated scores gives the same AUC; on the same scores, the reversal.
sed 's/,-\([0-9]\)/,\1/' res.csv > neg.csv
expect_rc 0 "$vsgrid" enrich neg.csv --actives act.txt --higher-better --json h.json --bootstrap 0
near "$(json_val h.json auc)" 0.8333333333 1e-9 || fail "--higher-better: AUC $(json_val h.json auc)"
# A label column (and a SMILES-style list, and a CSV list with a header) give the same numbers.
awk -F, -v OFS=, 'NR == 1 { print $0, "active"; next } { print $0, ($2 == "m1" || $2 == "m3" || $2 == "m6") }' res.csv > lab.csv
expect_rc 0 "$vsgrid" enrich lab.csv --label-column active --json l.json --bootstrap 0
near "$(json_val l.json auc)" 0.8333333333 1e-9 || fail "--label-column: AUC $(json_val l.json auc)"
printf 'c1ccccc1O m1 1001\nCCN m3\nCCO\tZINC000 m6\n' > act.ism
expect_rc 0 "$vsgrid" enrich res.csv --actives act.ism --json s.json --bootstrap 0
[ "$(json_val s.json actives)" = 3 ] || fail "SMILES list: $(json_val s.json actives) actives, expected 3"
printf 'name,smiles\nm1,C\n"m3",CC\nm6,CCC\nnot_there,C\n' > act.csv
expect_rc 0 "$vsgrid" enrich res.csv --actives act.csv --json c.json --bootstrap 0
[ "$(json_val c.json actives)" = 3 ] && [ "$(json_val c.json list_entries_not_found)" = 1 ] ||
  fail "CSV list: $(json_val c.json actives) actives, $(json_val c.json list_entries_not_found) not found"

# Usage errors → 2.
expect_rc 2 "$vsgrid" enrich
expect_rc 2 "$vsgrid" enrich res.csv
expect_rc 2 "$vsgrid" enrich res.csv --actives act.txt --label-column x
expect_rc 2 "$vsgrid" enrich res.csv --actives act.txt --bootstrap -3
expect_rc 2 "$vsgrid" enrich res.csv --actives act.txt --seed abc
expect_rc 2 "$vsgrid" enrich res.csv --actives act.txt --frobnicate
# Bad input → 3, one clear line.
expect_rc 3 "$vsgrid" enrich missing.csv --actives act.txt
grep -q "cannot read missing.csv" err.txt || fail "missing file: $(cat err.txt)"
expect_rc 3 "$vsgrid" enrich res.csv --actives missing.txt
printf 'zz1\nzz2\n' > none.txt
expect_rc 3 "$vsgrid" enrich res.csv --actives none.txt
grep -q "names no molecule" err.txt || fail "list naming nothing: $(cat err.txt)"
[ "$(wc -l < err.txt)" = 1 ] || fail "more than one error line: $(cat err.txt)"
printf 'name,value\na,1\nb,2\n' > noscore.csv
expect_rc 3 "$vsgrid" enrich noscore.csv --actives act.txt
grep -q "no score column" err.txt || fail "no score column: $(cat err.txt)"
expect_rc 3 "$vsgrid" enrich res.csv --actives act.txt --score-column nope
awk -F, -v OFS=, 'NR == 1 { print $0, "active"; next } { print $0, 0 }' res.csv > zero.csv
expect_rc 3 "$vsgrid" enrich zero.csv --label-column active
grep -q "no actives" err.txt || fail "no actives: $(cat err.txt)"
awk -F, -v OFS=, 'NR == 1 { print $0, "active"; next } { print $0, 1 }' res.csv > one.csv
expect_rc 3 "$vsgrid" enrich one.csv --label-column active
grep -q "no decoys" err.txt || fail "no decoys: $(cat err.txt)"
awk -F, -v OFS=, 'NR == 1 { print $0, "active"; next } { print $0, "maybe" }' res.csv > badlab.csv
expect_rc 3 "$vsgrid" enrich badlab.csv --label-column active
: > empty.csv
expect_rc 3 "$vsgrid" enrich empty.csv --actives act.txt

# A real DUD-E target against scripts/enrichment.py.
dude=$(shared_data "$src")/dude/inha
if [ ! -r "$dude/actives_final.mol2.gz" ] || [ ! -r "$dude/decoys_final.mol2.gz" ]; then
  skip_part "the DUD-E comparison" "no $dude; set VSG_SHARED_DATA"
elif [ ! -x /usr/bin/python3 ]; then
  skip_part "the DUD-E comparison" "no /usr/bin/python3"
else
  # One row per mol2 record (protomers repeat names), as a screen CSV: score -0.3 per heavy atom
  # minus 0.05 (record mod 3) (protomers of one molecule differ, many molecules tie); every 97th
  # record a failed row. The actives list in DUD-E's .ism layout: SMILES NAME ID.
  for f in actives_final decoys_final; do
    gzip -dc "$dude/$f.mol2.gz" | awk -v src=$f.mol2.gz '
      /^@<TRIPOS>MOLECULE/ { getline; name = $1; rec++; next }
      /^@<TRIPOS>ATOM/ { inatom = 1; heavy = 0; next }
      /^@<TRIPOS>/ { if (inatom) printf "%s,%s,%d,%d\n", name, src, rec, heavy; inatom = 0; next }
      inatom && NF >= 6 && $6 !~ /^H/ { heavy++ }'
  done > rows.txt
  awk -F, 'BEGIN { print "index,name,source,record,atoms,score_kcal_mol,elec_kcal_mol,atoms_outside,status,message" }
    { i = NR - 1
      if (NR % 97 == 0) printf "%d,%s,%s,%d,%d,,,,parse,\"%s:%d: bad, record\"\n", i, $1, $2, $3, $4, $2, $3
      else printf "%d,%s,%s,%d,%d,%.4f,%.4f,0,ok,\n", i, $1, $2, $3, $4, -0.3 * $4 - 0.05 * ($3 % 3), -0.05 * ($3 % 3) }' \
    rows.txt > inha.csv
  grep ',actives_final' rows.txt | cut -d, -f1 | sort -u | awk '{ print "CC(=O)Nc1ccccc1 " $1 " " NR }' > inha.ism
  cut -d, -f1 rows.txt | sort -u | awk 'BEGIN { while ((getline l < "inha.ism") > 0) { split(l, a, " "); act[a[2]] = 1 }
    print "name,active" } { print $1 "," ($1 in act ? 1 : 0) }' > inha_labels.csv
  expect_rc 0 "$vsgrid" enrich inha.csv --actives inha.ism --json inha.json --png inha.png
  cat out.txt
  /usr/bin/python3 "$src/scripts/enrichment.py" inha.csv inha_labels.csv --json inha_py.json > py.txt 2>&1 ||
    fail "scripts/enrichment.py failed: $(cat py.txt)"
  /usr/bin/python3 - inha.json inha_py.json <<'EOF' || fail "vsgrid enrich and scripts/enrichment.py differ on inha"
import json, sys
v = json.load(open(sys.argv[1])); p = json.load(open(sys.argv[2]))
ef = {e["percent"]: e for e in v["ef"]}
pairs = [("molecules", v["molecules"], p["molecules"]), ("actives", v["actives"], p["actives"]),
         ("unscored", v["unscored"], p["unscored"]), ("AUC", v["auc"], p["auc"]),
         ("EF1%", ef[1]["value"], p["ef1"]), ("EF1% top", ef[1]["top"], p["ef1_n"]),
         ("EF5%", ef[5]["value"], p["ef5"]), ("EF5% top", ef[5]["top"], p["ef5_n"]),
         ("logAUC %", v["logauc_percent"], p["logauc"]),
         ("adjusted logAUC %", v["adjusted_logauc_percent"], p["adjusted_logauc"])]
bad = 0
for what, a, b in pairs:
    ok = abs(a - b) <= 1e-6
    bad += not ok
    print("inha %-18s vsgrid %.9f  enrichment.py %.9f  %s" % (what, a, b, "ok" if ok else "DIFFER"))
sys.exit(1 if bad else 0)
EOF
  [ "$(json_val inha.json actives)" = 43 ] || fail "inha: $(json_val inha.json actives) actives, expected 43"
  # the same through a label column
  awk -F, 'NR == FNR { if (FNR > 1) lab[$1] = $2; next } FNR == 1 { print $0 ",active"; next } { print $0 "," lab[$2] }' \
    inha_labels.csv inha.csv > inha_lab.csv
  expect_rc 0 "$vsgrid" enrich inha_lab.csv --label-column active --json inha_l.json --bootstrap 0
  [ "$(json_val inha_l.json auc)" = "$(json_val inha.json auc)" ] || fail "inha: --label-column AUC differs"
  [ -s inha.png ] || fail "inha: no PNG"
fi

[ "$fails" -eq 0 ] && echo "cli_enrich: ok" || echo "cli_enrich: $fails failure(s)"
[ "$fails" -eq 0 ]
