#!/usr/bin/env bash
# Peer check of `vsgrid prepare-ligands -o OUT.pdbqt` with AutoDock Vina 1.2 (Debian's
# /usr/bin/vina 1.2.3): the PDBQT it writes is what vina reads, and scores as vsgrid does.
#   - one MODEL per input record, in input order (8 SMILES in, 8 models out), each with its REMARK
#     VSGRID STATUS; the two bad records (a broken SMILES, selenium) are models without atoms
#     whose status says why;
#   - every ok model has ROOT/ENDROOT, balanced BRANCH/ENDBRANCH and TORSDOF equal to its branches;
#     the AutoDock types A C N NA OA SA HD all occur;
#   - the SMILES' SDF (prepare-ligands -o OUT.sdf), each molecule moved into 1STP's biotin pocket,
#     then prepared again as PDBQT (the SDF input path): vina --score_only on the receptor with an
#     explicit box accepts every ok model, and each of its five terms (estimated free energy,
#     inter, intra, torsional, unbound) equals `vsgrid rescore`'s of the same model within
#     0.01 kcal/mol (vina prints 3 decimals; the max |d| per term is printed);
#   - the torsions: TORSDOF and Vina's N_rot of each model equal vsgrid's own count for the same
#     molecule read from the SDF (`vsgrid rescore` on it: torsdof and num_tors columns), and the
#     SDF and the PDBQT score the same within 0.05 kcal/mol (PDBQT rounds coordinates to 0.001 A).
#   - vina also accepts every ok model of the PDBQT written straight from the SMILES (--autobox).
# Usage: peer_vina_prepare.sh VSGRID SOURCE_DIR BINARY_DIR. Exit 77 (skipped) without vina or
# without Open Babel in vsgrid (SMILES need it).
set -u
vsgrid=$1 src=$2 work=$3/peer_vina_prepare
VINA=${VINA:-$(command -v vina || true)}
. "$src/tests/lib_cli.sh"
[ -n "$VINA" ] || skip_test "vina (AutoDock Vina 1.2) not installed"
have_openbabel "$vsgrid" || skip_test "vsgrid built without Open Babel (SMILES preparation)"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
rec=$src/data/1stp_receptor.pdbqt

cat > lib.smi <<'EOF'
# types A C N NA OA SA HD, 0 to 5 torsions, a salt, two records that cannot be prepared
OC(=O)CCCC[C@@H]1SC[C@@H]2NC(=O)N[C@H]12 biotin
c1ccc(cc1)C(=O)N benzamide
CC(C)Cc1ccc(cc1)[C@@H](C)C(=O)O ibuprofen
OCCc1cccnc1 pyridine_ethanol
[S-]c1ccccc1 thiophenolate
C1CC( broken
C[Se]C selenide
CC(=O)[O-].[Na+] sodium_acetate
EOF
nrec=$(grep -cv '^#\|^[[:space:]]*$' lib.smi)
want="ok ok ok ok ok bad_smiles bad_element ok"

# status_list FILE: the REMARK VSGRID STATUS of each model, in order
status_list() { awk '/^REMARK VSGRID STATUS:/ { printf "%s%s", n++ ? " " : "", $4 }' "$1"; }
# tree_check FILE: every model with atoms has ROOT, ENDROOT, TORSDOF = its BRANCH count, and each
# ENDBRANCH closes the last open BRANCH; prints the models' TORSDOF, "-" for one without atoms
tree_check() {
  awk '/^MODEL/ { m++; atoms = root = endroot = nb = depth = 0; tors = -1; bad = ""; next }
       /^(ATOM|HETATM)/ { atoms++ }
       /^ROOT/ { root++ } /^ENDROOT/ { endroot++ }
       /^BRANCH/ { nb++; stack[++depth] = $2 " " $3 }
       /^ENDBRANCH/ { if (depth < 1 || stack[depth] != $2 " " $3) bad = bad " unbalanced ENDBRANCH " $2 " " $3; depth-- }
       /^TORSDOF/ { tors = $2 }
       /^ENDMDL/ { if (!atoms) { printf "- "; next }
                   if (root != 1 || endroot != 1) bad = bad " ROOT/ENDROOT"
                   if (depth != 0) bad = bad " an open BRANCH"
                   if (tors != nb) bad = bad " TORSDOF " tors " for " nb " branches"
                   if (bad != "") { print "model " m ":" bad > "/dev/stderr"; exit 1 }
                   printf "%s ", tors }' "$1"
}
# vina_terms LOG: total inter intra torsional unbound of one `vina --score_only` run
vina_terms() {
  awk -F: 'function v() { split($2, w, " "); return w[1] }
       /^Estimated Free Energy/ { t = v() } /^\(1\)/ { i = v() } /^\(2\)/ { a = v() } /^\(3\)/ { o = v() }
       /^\(4\)/ { u = v() } END { if (t == "" || u == "") exit 1; print t, i, a, o, u }' "$1"
}
# split_models FILE PREFIX: model k with atoms into PREFIXk.pdbqt (vina reads one ligand a file,
# without MODEL lines: what vina_split does); prints the numbers of the models written
split_models() {
  awk -v p="$2" '/^MODEL/ { k = $2; n = 0; delete l; next }
       /^ENDMDL/ { if (n_atoms) { f = p k ".pdbqt"; for (i = 1; i <= n; i++) print l[i] > f; close(f); printf "%d ", k }
                   n_atoms = 0; next }
       { l[++n] = $0; if (/^(ATOM|HETATM)/) n_atoms++ }' "$1"
}

# 1. Straight from the SMILES: records, order, statuses, trees, types; vina reads every ok model.
expect_rc 0 "$vsgrid" prepare-ligands lib.smi -o lib.pdbqt --threads 2
[ "$(grep -c '^MODEL' lib.pdbqt)" = "$nrec" ] || fail "$nrec records in, $(grep -c '^MODEL' lib.pdbqt) models out"
[ "$(status_list lib.pdbqt)" = "$want" ] || fail "statuses: '$(status_list lib.pdbqt)', want '$want'"
grep -q "REMARK VSGRID MESSAGE: lib.smi:7: record 6 (broken)" lib.pdbqt || fail "the broken SMILES' message is missing"
tors_smi=$(tree_check lib.pdbqt) || fail "torsion tree of lib.pdbqt"
echo "TORSDOF from the SMILES: $tors_smi"
types=$(awk '/^(ATOM|HETATM)/ { t[substr($0, 78, 2)] = 1 } END { for (k in t) printf "%s\n", k }' lib.pdbqt | tr -d ' ' | sort | tr '\n' ' ')
for t in A C N NA OA SA HD; do
  case " $types" in *" $t "*) ;; *) fail "AutoDock type $t missing (types: $types)" ;; esac
done
ok_smi=$(split_models lib.pdbqt smi_)
for k in $ok_smi; do
  "$VINA" --receptor "$rec" --ligand "smi_$k.pdbqt" --score_only --autobox --cpu 1 > v.log 2>&1 ||
    fail "vina refuses model $k of lib.pdbqt: $(grep -i error v.log | head -2)"
done
[ "$(echo $ok_smi | wc -w)" = 6 ] || fail "models with atoms: '$ok_smi', want 6"
# gzip output from the extension
expect_rc 0 "$vsgrid" prepare-ligands lib.smi -o lib.pdbqt.gz --quiet
[ "$(gzip -dc lib.pdbqt.gz | grep -c '^MODEL')" = "$nrec" ] || fail "lib.pdbqt.gz: not $nrec gzipped models"

# 2. The SDF, moved into the biotin pocket (each record's centroid on the crystal biotin's), then
#    PDBQT from the SDF: what vina scores, term by term, against vsgrid rescore.
expect_rc 0 "$vsgrid" prepare-ligands lib.smi -o lib.sdf --threads 2
read -r cx cy cz <<< "$(awk '/^(ATOM|HETATM)/ { n++; x += substr($0, 31, 8); y += substr($0, 39, 8); z += substr($0, 47, 8) }
    END { printf "%.3f %.3f %.3f\n", x / n, y / n, z / n }' "$src/data/biotin.pdbqt")"
awk -v cx="$cx" -v cy="$cy" -v cz="$cz" '
    FNR == 1 { pass++; r = 0; ln = 0 }
    $0 == "$$$$" { if (pass == 2) print; r++; ln = 0; next }
    { ln++ }
    ln == 4 { na[r] = substr($0, 1, 3) + 0 }
    pass == 1 { if (ln > 4 && ln <= 4 + na[r]) { sx[r] += substr($0, 1, 10); sy[r] += substr($0, 11, 10); sz[r] += substr($0, 21, 10) }; next }
    ln > 4 && ln <= 4 + na[r] { printf "%10.4f%10.4f%10.4f%s\n", substr($0, 1, 10) - sx[r] / na[r] + cx,
                                 substr($0, 11, 10) - sy[r] / na[r] + cy, substr($0, 21, 10) - sz[r] / na[r] + cz, substr($0, 31); next }
    { print }' lib.sdf lib.sdf > pocket.sdf
expect_rc 0 "$vsgrid" prepare-ligands pocket.sdf -o pocket.pdbqt
[ "$(grep -c '^MODEL' pocket.pdbqt)" = "$nrec" ] || fail "pocket.sdf: $nrec records in, $(grep -c '^MODEL' pocket.pdbqt) models out"
tors_sdf=$(tree_check pocket.pdbqt) || fail "torsion tree of pocket.pdbqt"
[ "$tors_sdf" = "$tors_smi" ] || fail "TORSDOF from the SDF '$tors_sdf' differ from the SMILES' '$tors_smi'"
box=(--center_x "$cx" --center_y "$cy" --center_z "$cz" --size_x 26 --size_y 26 --size_z 26)
: > ref.txt
ok_sdf=$(split_models pocket.pdbqt sdf_)
for k in $ok_sdf; do
  if "$VINA" --receptor "$rec" --ligand "sdf_$k.pdbqt" --score_only "${box[@]}" --cpu 1 > v.log 2>&1 && vina_terms v.log > t.txt; then
    echo "$k $(cat t.txt)" >> ref.txt
  else
    fail "vina --score_only refuses model $k of pocket.pdbqt: $(grep -i error v.log | head -2)"
  fi
done
expect_rc 0 "$vsgrid" rescore "$rec" pocket.pdbqt --scoring vina -o pdbqt.csv --quiet
expect_rc 0 "$vsgrid" rescore "$rec" pocket.sdf --scoring vina -o sdf.csv --quiet
[ "$(sed 1d pdbqt.csv | wc -l)" = "$nrec" ] && [ "$(sed 1d sdf.csv | wc -l)" = "$nrec" ] ||
  fail "rescore rows: $(sed 1d pdbqt.csv | wc -l) (PDBQT), $(sed 1d sdf.csv | wc -l) (SDF), want $nrec"
# vina against vsgrid on the PDBQT, model k = CSV row k
res=$(awk -F, 'NR == FNR { split($0, v, " "); ref[v[1]] = $0; next }
    FNR > 1 && (FNR - 1) in ref { split(ref[FNR - 1], r, " "); n++
        if ($14 != "ok") bad = bad " row " FNR - 1 ": " $14
        for (k = 1; k <= 5; k++) { d = $(5 + k) - r[k + 1]; if (d < 0) d = -d; if (d > m[k]) m[k] = d } }
    END { printf "%d %.4f %.4f %.4f %.4f %.4f%s\n", n, m[1], m[2], m[3], m[4], m[5], bad }' ref.txt pdbqt.csv)
read -r n dt di da do du rest <<< "$res"
echo "vina vs vsgrid rescore, $n models: max |d| total $dt inter $di intra $da torsional $do unbound $du"
[ "$n" = 6 ] && [ -z "${rest:-}" ] || fail "models scored by both: $n, want 6;${rest:-}"
for x in "$dt" "$di" "$da" "$do" "$du"; do
  awk -v x="$x" 'BEGIN { exit !(x <= 0.01) }' || fail "vina and vsgrid differ by $x > 0.01 kcal/mol"
done
# vsgrid's own torsions (SDF: from the bonds) = the PDBQT's TORSDOF and N_rot; the same scores
res=$(awk -F, 'NR == FNR { if (FNR > 1) { t[FNR] = $12; nr[FNR] = $11; s[FNR] = $6; st[FNR] = $14 }; next }
    FNR > 1 && st[FNR] == "ok" { n++; d = $6 - s[FNR]; if (d < 0) d = -d; if (d > m) m = d
        if ($14 != "ok" || $12 != t[FNR] || $11 != nr[FNR]) bad = bad " row " FNR - 1 ": torsdof " $12 "/" t[FNR] " num_tors " $11 "/" nr[FNR] " " $14 }
    END { printf "%d %.4f%s\n", n, m, bad }' pdbqt.csv sdf.csv)
read -r n dsc rest <<< "$res"
echo "SDF vs PDBQT, $n models: torsions equal, max |d score| $dsc"
[ "$n" = 6 ] && [ -z "${rest:-}" ] || fail "SDF and PDBQT models: $n ok;${rest:-}"
awk -v x="$dsc" 'BEGIN { exit !(x <= 0.05) }' || fail "SDF and PDBQT scores differ by $dsc > 0.05 kcal/mol"

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "peer_vina_prepare: ok"
