#!/usr/bin/env bash
# Peer comparison with AutoDock Vina 1.2 (Debian's /usr/bin/vina 1.2.3), run for real in CI:
# `vsgrid maps` against `vina --write_maps --force_even_voxels` on the same box and spacing,
# for all 19 XS ligand types (vina writes the maps of the ligand's types, so it is given a
# rigid "ligand" of isolated fragments that carries every type), on
#   1IEP (Vina's basic docking example), 20 Å box, 0.375 Å, vina and vinardo;
#   3CE3 (AutoDock-GPU's example), a 15.1 × 20.3 × 14.9 Å box at 0.4 Å (voxel counts rounded
#   up and made even), vina.
# Tolerance: vina prints "%.4g" (4 significant digits) and vsgrid computes the same sums (Vina's
# r² table) in double and stores them in float, so every value must agree within one unit in
# its 4th significant digit (|a−b| ≤ 10^(⌊log10 max(|a|,|b|)⌋−3)); the header (SPACING,
# NELEMENTS, CENTER) must be identical. Then `vina --maps` must read vsgrid's maps and score the
# 1IEP crystal ligand exactly as with its own maps (same printed energies).
# Without ../shared/data (or $VSG_SHARED_DATA) the same checks run on data/'s 1STP receptor, a 20 Å
# box over its biotin at 0.375 Å, vina and vinardo (shipped), so anyone with vina checks the claim.
# Prints the max deviation per map. Usage: peer_vina_maps.sh VSGRID SOURCE_DIR BINARY_DIR.
# Exit 77 (skipped) without vina.
set -u
VSGRID=$1 SRC=$2
VINA=${VINA:-$(command -v vina || true)}
DATA=${VSG_SHARED_DATA:-$SRC/../shared/data}
if [ -z "$VINA" ]; then echo "SKIP: vina (AutoDock Vina 1.2) not installed"; exit 77; fi
shipped=0
if [ ! -f "$DATA/autodock_vina/1iep/1iep_receptor.pdbqt" ] || [ ! -f "$DATA/autodock_gpu/3ce3/3ce3_protein.pdbqt" ]; then
    echo "SKIPPED-PART: 1IEP and 3CE3 (autodock_vina/1iep, autodock_gpu/3ce3 not under $DATA; data/'s 1STP instead)"
    shipped=1
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0

# lig CX CY CZ: isolated fragments around the center, one per XS type (C_H; C_P+O_A; N_P;
# N_D; N_A; N_DA; O_P; O_D; O_DA; S_P; P_P; F_H; Cl_H; Br_H; I_H; Si; At; Met_D)
lig() {
    awk -v cx="$1" -v cy="$2" -v cz="$3" 'BEGIN {
        n = split("C|C,OA|N|N,HD|NA|NA,HD|O|O,HD|OA,HD|S|P|F|Cl|Br|I|Si|At|Zn", frag, "|")
        print "ROOT"; s = 0
        for (f = 1; f <= n; f++) {
            m = split(frag[f], at, ",")
            x = cx - 4.5 + ((f - 1) % 3) * 4.5; y = cy - 4.5 + (int((f - 1) / 3) % 3) * 4.5
            z = cz - 2.25 + int((f - 1) / 9) * 4.5
            for (k = 1; k <= m; k++) {
                s++; t = at[k]
                printf "ATOM  %5d %-4s LIG A   1    %8.3f%8.3f%8.3f  1.00  0.00    %+6.3f %-2s\n", s,
                       substr(t, 1, 1) s, x + (k - 1) * (t == "HD" ? 1.0 : 1.4), y, z, 0, t
            }
        }
        print "ENDROOT"; print "TORSDOF 0" }'
}

# cmp REF MINE: "points max_dev units_beyond"
cmpmap() {
    paste <(tail -n +7 "$1") <(tail -n +7 "$2") | awk '
    { a = $1 + 0; b = $2 + 0; d = a - b; if (d < 0) d = -d
      m = a < 0 ? -a : a; if ((b < 0 ? -b : b) > m) m = (b < 0 ? -b : b)
      e = int(log(m > 0 ? m : 1) / log(10) + 100) - 100; if (m > 0 && m < 10 ^ e) e--
      u = m > 0 ? 10 ^ (e - 3) : 0
      if (d > u * 1.0001 + 1e-12) bad++
      if (d > dmax) dmax = d
      n++ }
    END { printf "%d %.3g %d\n", n, dmax, bad + 0 }'
}

# case NAME RECEPTOR CX CY CZ SX SY SZ SPACING SCORING
case_() {
    local name=$1 rec=$2 cx=$3 cy=$4 cz=$5 sx=$6 sy=$7 sz=$8 h=$9 sf=${10}
    lig "$cx" "$cy" "$cz" > "$TMP/lig_$name.pdbqt"
    local t0=$(date +%s.%N)
    if ! "$VINA" --receptor "$rec" --ligand "$TMP/lig_$name.pdbqt" --center_x "$cx" --center_y "$cy" --center_z "$cz" \
        --size_x "$sx" --size_y "$sy" --size_z "$sz" --spacing "$h" --scoring "$sf" --force_even_voxels --cpu 1 \
        --score_only --write_maps "$TMP/vina_$name" > "$TMP/vina_$name.log" 2>&1; then
        echo "FAIL $name: vina failed:"; tail -5 "$TMP/vina_$name.log"; fail=1; return
    fi
    local t1=$(date +%s.%N)
    if ! "$VSGRID" maps "$rec" --scoring "$sf" --box "$cx,$cy,$cz,$sx,$sy,$sz" --spacing "$h" --quiet \
        -o "$TMP/vsg_$name"; then
        echo "FAIL $name: vsgrid maps failed"; fail=1; return
    fi
    local t2=$(date +%s.%N)
    printf '%s (%s, %s, box %s x %s x %s Å, spacing %s Å): vina --write_maps %s s, vsgrid maps %s s\n' "$name" "$sf" \
        "$(basename "$rec")" "$sx" "$sy" "$sz" "$h" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b - a}')" \
        "$(awk -v a="$t1" -v b="$t2" 'BEGIN{printf "%.2f", b - a}')"
    local nmaps=0
    for ref in "$TMP/vina_$name".*.map; do
        local t=${ref#"$TMP/vina_$name".}; t=${t%.map}
        local mine="$TMP/vsg_$name.$t.map"
        nmaps=$((nmaps + 1))
        if [ ! -f "$mine" ]; then echo "  FAIL $t: vsgrid wrote no $mine"; fail=1; continue; fi
        if ! diff <(sed -n 4,6p "$ref") <(sed -n 4,6p "$mine") > /dev/null; then
            echo "  FAIL $t: header differs:"; diff <(sed -n 4,6p "$ref") <(sed -n 4,6p "$mine"); fail=1; continue
        fi
        read -r n dmax bad <<< "$(cmpmap "$ref" "$mine")"
        local want=$(($(wc -l < "$ref") - 6))
        printf '  %-6s %7d points, max |dev| %-8s kcal/mol, %d beyond one unit in the 4th digit\n' "$t" "$n" "$dmax" "$bad"
        if [ "$bad" != 0 ] || [ "$n" != "$want" ] || [ "$(wc -l < "$mine")" != "$(wc -l < "$ref")" ]; then
            echo "  FAIL $t"; fail=1
        fi
    done
    if [ "$nmaps" != 19 ]; then echo "  FAIL $name: vina wrote $nmaps maps, expected 19"; fail=1; fi
}

if [ "$shipped" = 0 ]; then
    V=$DATA/autodock_vina/1iep
    c=1iep xlig=$V/1iep_ligand.pdbqt
    case_ 1iep_vina "$V/1iep_receptor.pdbqt" 15.19 53.903 16.917 20 20 20 0.375 vina
    case_ 1iep_vinardo "$V/1iep_receptor.pdbqt" 15.19 53.903 16.917 20 20 20 0.375 vinardo
    case_ 3ce3_vina "$DATA/autodock_gpu/3ce3/3ce3_protein.pdbqt" 20.402 18.013 56.855 15.1 20.3 14.9 0.4 vina
else
    c=1stp xlig=$SRC/data/biotin.pdbqt
    case_ 1stp_vina "$SRC/data/1stp_receptor.pdbqt" 11.333 1.444 -10.511 20 20 20 0.375 vina
    case_ 1stp_vinardo "$SRC/data/1stp_receptor.pdbqt" 11.333 1.444 -10.511 20 20 20 0.375 vinardo
fi

# vina reads vsgrid's maps: the crystal ligand scores the same with either set
for sf in vina vinardo; do
    a=$("$VINA" --maps "$TMP/vina_${c}_$sf" --scoring "$sf" --ligand "$xlig" --score_only 2>&1 | grep -E "Estimated|Intermolecular")
    b=$("$VINA" --maps "$TMP/vsg_${c}_$sf" --scoring "$sf" --ligand "$xlig" --score_only 2>&1 | grep -E "Estimated|Intermolecular")
    echo "vina --maps ($sf), $c ligand: vina's maps: $(echo "$a" | head -1 | tr -s ' ')"
    echo "                                  vsgrid's:   $(echo "$b" | head -1 | tr -s ' ')"
    if [ -z "$a" ] || [ "$a" != "$b" ]; then echo "FAIL: vina --maps scores differ ($sf)"; fail=1; fi
done
[ "$fail" = 0 ] && echo "peer_vina_maps: all maps agree" || echo "peer_vina_maps: FAILED"
exit "$fail"
