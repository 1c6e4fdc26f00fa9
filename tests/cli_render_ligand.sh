#!/usr/bin/env bash
# `vsgrid render --ligand`: biotin (PDBQT, the 1STP crystal pose) drawn over a PB slice of
# streptavidin made with `vsgrid grid`, decoded with Pillow: an in-plane atom's pixel has its
# element's colour, a far atom is faded, pixels away from the ligand equal the picture without
# it, the legend band is drawn; --slice z=ligand is the centroid; the file's bonds (SDF) versus
# bonds by distance (PDBQT); --poses and --record on a two-MODEL file; .gz input; the warning
# when no atom is in view; usage errors (2) and a missing ligand (3).
# Usage: cli_render_ligand.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_render_ligand
py=/usr/bin/python3
if ! [ -x "$py" ] || ! "$py" -c 'import PIL.Image' 2>/dev/null; then
  echo "skipped: $py with PIL (python3-pil) is needed to decode the PNGs"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"

# probe LIGAND.png PLAIN.png NX "ELEMENT U V" ...: for each atom (U, V: its x, y in grid
# spacings from the grid's origin, for a z slice) prints "ELEMENT R G B" of the pixel at its
# projection, and counts the pixels of the plain picture's area that changed farther than 24
# pixels from every atom given (far) and nearer (near). The plot is found by its
# black frame: the topmost row holding the longest black run, and the column under its start.
# Last line: "far_changed N near_changed N legend_ink N height_grew N".
probe() {
  "$py" - "$@" <<'PY'
import sys
from PIL import Image
lig, plain = Image.open(sys.argv[1]).convert("RGB"), Image.open(sys.argv[2]).convert("RGB")
nx = int(sys.argv[3])
W, H = plain.size
pp = plain.load()
def runs(y):
    best, start, run = (0, 0), 0, 0
    for x in range(W):
        if pp[x, y] == (0, 0, 0):
            run += 1
            if run > best[0]: best = (run, x - run + 1)
        else:
            run = 0
    return best
rows = [(runs(y), y) for y in range(H)]
longest = max(r[0][0] for r in rows)
(run, x0), y0 = next(r for r in rows if r[0][0] == longest)
ph = 0
while pp[x0, y0 + ph + 1] == (0, 0, 0): ph += 1
px0, py0, pw, ph = x0 + 1, y0 + 1, run - 2, ph - 1
s = pw / nx
atoms = []
for spec in sys.argv[4:]:
    el, u, v = spec.split()
    col = px0 + (float(u) + 0.5) * s - 0.5
    row = py0 + ph - 0.5 - (float(v) + 0.5) * s
    atoms.append((el, round(col), round(row)))
lp = lig.load()
for el, c, r in atoms:
    print(el, *lp[c, r])
far = near = 0
for y in range(H):
    for x in range(W):
        if lp[x, y] == pp[x, y]: continue
        if min((x - c) ** 2 + (y - r) ** 2 for _, c, r in atoms) > 24 ** 2: far += 1
        else: near += 1
ink = sum(1 for y in range(H, lig.size[1]) for x in range(lig.size[0]) if lp[x, y] != (255, 255, 255))
print("far_changed", far, "near_changed", near, "legend_ink", ink, "height_grew", lig.size[1] - H)
PY
}
# grid_xy GRID: "ox oy nx sx sy" of a grid (vsgrid info)
grid_xy() {
  "$vsgrid" info "$1" 2>&1 | awk '/^ *origin/ { ox = $2; oy = $3 } /^ *spacing/ { sx = $2; sy = $3 }
    /grid [0-9]+ x/ { nx = $3 } END { print ox, oy, nx, sx, sy }'
}
# in_picture OX OY SX SY < atoms "EL X Y Z": "EL U V" in grid spacings from the origin
in_picture() { awk -v ox="$1" -v oy="$2" -v sx="$3" -v sy="$4" '{ printf "%s %.4f %.4f\n", $1, ($2 - ox) / sx, ($3 - oy) / sy }'; }
# colour of an element, as --help lists them (carbon of the first file)
declare -A colour=([C]="64 64 64" [N]="40 70 240" [O]="230 0 0" [S]="230 200 0")

expect_rc 0 "$vsgrid" render --help
for opt in --ligand --poses --record --hydrogens "z=ligand\|'ligand'" "1.5 Å" "white"; do
  grep -q -- "$opt" out.txt || fail "render --help does not document $opt"
done

# Streptavidin (1STP) PB grid at 1 Å; biotin's atoms, heavy ones, as "EL X Y Z".
expect_rc 0 "$vsgrid" grid "$src/data/1stp_receptor.pdbqt" -o stp.vsg --spacing 1.0 --device cpu --quiet
[ -s stp.vsg ] || { fail "no grid made"; echo "cli_render_ligand: $fails failed"; exit 1; }
read -r ox oy nx sx sy < <(grid_xy stp.vsg)
echo "grid: origin $ox $oy, $nx nodes across, spacing $sx $sy"
awk '/^(ATOM|HETATM)/ { t = substr($0, 78, 2); gsub(/ /, "", t); el = t == "A" ? "C" : substr(t, 1, 1)
  if (el != "H") print el, substr($0, 31, 8) + 0, substr($0, 39, 8) + 0, substr($0, 47, 8) + 0 }' \
  "$src/data/biotin.pdbqt" > biotin_atoms.txt
[ "$(wc -l < biotin_atoms.txt)" = 16 ] || fail "biotin has $(wc -l < biotin_atoms.txt) heavy atoms, expected 16"

# --slice z=ligand: the plane through the heavy-atom centroid, as the summary says.
expect_rc 0 "$vsgrid" render stp.vsg --slice z=ligand --ligand "$src/data/biotin.pdbqt" -o zlig.png
cz=$(awk '{ z += $4 } END { printf "%.3f", z / NR }' biotin_atoms.txt)
grep -q "z = $cz Å" err.txt || fail "z=ligand is not the centroid z $cz: $(head -1 err.txt)"
grep -q "centroid [-0-9.]* [-0-9.]* $cz Å" err.txt || fail "summary centroid is not $cz: $(cat err.txt)"
grep -q "16 atoms drawn in view" err.txt || fail "not all 16 heavy atoms in view: $(cat err.txt)"

# The ligand over the plane z = -10 against the same plane without it.
plane=-10
expect_rc 0 "$vsgrid" render stp.vsg --slice z=$plane -o plain.png --scale 12
expect_rc 0 "$vsgrid" render stp.vsg --slice z=$plane -o lig.png --scale 12 --ligand "$src/data/biotin.pdbqt"
grep -q "biotin.pdbqt: 1 pose from record 1" err.txt || fail "no ligand summary: $(cat err.txt)"
# atoms nearest the plane (|dz| < 0.75 Å) must show their element's colour exactly; the farthest is faded
mapfile -t near < <(awk -v p=$plane '{ d = $4 - p; if (d < 0) d = -d; if (d < 0.75) print $1, $2, $3 }' biotin_atoms.txt |
                     in_picture "$ox" "$oy" "$sx" "$sy")
mapfile -t far < <(awk -v p=$plane '{ d = $4 - p; if (d < 0) d = -d; print d, $1, $2, $3 }' biotin_atoms.txt | sort -g |
                    tail -1 | cut -d' ' -f2- | in_picture "$ox" "$oy" "$sx" "$sy")
mapfile -t all < <(cut -d' ' -f1-3 biotin_atoms.txt | in_picture "$ox" "$oy" "$sx" "$sy")
echo "in-plane atoms: ${#near[@]}; farthest: ${far[0]}"
[ "${#near[@]}" -ge 3 ] || fail "only ${#near[@]} biotin atoms within 0.75 Å of z = $plane"
probe lig.png plain.png "$nx" "${near[@]}" "${far[@]}" "${all[@]}" > probe.txt || fail "probe failed"
head -n $((${#near[@]} + 1)) probe.txt
tail -1 probe.txt
n=0
while read -r el r g b; do
  n=$((n + 1))
  [ $n -gt $((${#near[@]} + 1)) ] && break
  if [ $n -le ${#near[@]} ]; then
    [ "$r $g $b" = "${colour[$el]}" ] || fail "in-plane $el atom pixel is $r $g $b, expected ${colour[$el]}"
  else
    [ "$r $g $b" != "${colour[$el]}" ] || fail "the farthest atom ($el) is not faded: $r $g $b"
  fi
done < probe.txt
read -r _ far_changed _ near_changed _ legend_ink _ grew < <(tail -1 probe.txt)
[ "${far_changed:-1}" = 0 ] || fail "$far_changed pixels changed far from every atom"
[ "${near_changed:-0}" -gt 300 ] || fail "only $near_changed pixels drawn near the atoms"
[ "${grew:-0}" -gt 0 ] && [ "${legend_ink:-0}" -gt 200 ] || fail "no legend band (grew $grew, ink $legend_ink)"
# gzipped input draws the same picture above the legend (which names the file)
gzip -c "$src/data/biotin.pdbqt" > biotin.pdbqt.gz
expect_rc 0 "$vsgrid" render stp.vsg --slice z=$plane -o lig_gz.png --scale 12 --ligand biotin.pdbqt.gz --quiet
probe lig_gz.png plain.png "$nx" "${near[@]}" "${far[@]}" "${all[@]}" | cut -d' ' -f1-4 > probe_gz.txt
cut -d' ' -f1-4 probe.txt | cmp -s - probe_gz.txt || fail "biotin.pdbqt.gz draws another picture than biotin.pdbqt"
[ -s err.txt ] && fail "--quiet printed: $(cat err.txt)"

# Bonds: an SDF's own (C-N only), PDBQT's by distance (C-N and N-O, 1.4 Å). A pixel 40 % of
# the way from N to O is bond-coloured (N) only in the PDBQT picture.
cat > cno.sdf <<'EOF'
cno
  hand

  3  1  0  0  0  0  0  0  0  0999 V2000
    5.0000    5.0000  -10.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    6.5000    5.0000  -10.0000 N   0  0  0  0  0  0  0  0  0  0  0  0
    6.5000    6.4000  -10.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0  0  0  0
M  END
$$$$
EOF
cat > cno.pdbqt <<'EOF'
ATOM      1  C1  LIG A   1       5.000   5.000 -10.000  1.00  0.00     0.000 C
ATOM      2  N1  LIG A   1       6.500   5.000 -10.000  1.00  0.00     0.000 N
ATOM      3  O1  LIG A   1       6.500   6.400 -10.000  1.00  0.00     0.000 OA
EOF
cno_pts=$(printf 'C 5.6 5.0\nN 6.5 5.56\n' | in_picture "$ox" "$oy" "$sx" "$sy")
mapfile -t cno <<< "$cno_pts"
for f in sdf pdbqt; do
  expect_rc 0 "$vsgrid" render stp.vsg --slice z=$plane -o cno_$f.png --scale 12 --ligand cno.$f
  probe cno_$f.png plain.png "$nx" "${cno[@]}" > cno_$f.txt || fail "probe cno.$f failed"
done
plain_no=$(probe plain.png plain.png "$nx" "${cno[@]}" | sed -n 2p)
echo "C-N bond pixel: sdf $(sed -n 1p cno_sdf.txt), pdbqt $(sed -n 1p cno_pdbqt.txt); N-O pixel: sdf $(sed -n 2p cno_sdf.txt), pdbqt $(sed -n 2p cno_pdbqt.txt), plain $plain_no"
[ "$(sed -n 1p cno_sdf.txt)" = "C ${colour[C]}" ] || fail "SDF C-N bond not drawn in carbon's colour: $(sed -n 1p cno_sdf.txt)"
[ "$(sed -n 1p cno_pdbqt.txt)" = "C ${colour[C]}" ] || fail "PDBQT C-N bond not drawn: $(sed -n 1p cno_pdbqt.txt)"
[ "$(sed -n 2p cno_pdbqt.txt)" = "N ${colour[N]}" ] || fail "PDBQT N-O bond (by distance) not drawn: $(sed -n 2p cno_pdbqt.txt)"
[ "$(sed -n 2p cno_sdf.txt)" = "$plain_no" ] || fail "SDF has no N-O bond, yet one is drawn: $(sed -n 2p cno_sdf.txt)"

# Two MODELs, the second moved 10 Å along y: --poses 2 draws both (the second in rings),
# --record 2 only the second, solid.
awk '/^(ATOM|HETATM)/' "$src/data/biotin.pdbqt" > model.txt
{ echo "MODEL 1"; cat model.txt; echo "ENDMDL"; echo "MODEL 2"
  awk '{ printf "%s%8.3f%s\n", substr($0, 1, 38), substr($0, 39, 8) + 10.0, substr($0, 47) }' model.txt; echo "ENDMDL"; } > two.pdbqt
mapfile -t moved < <(awk -v p=$plane '{ d = $4 - p; if (d < 0) d = -d; if (d < 0.75) print $1, $2, $3 + 10.0 }' biotin_atoms.txt |
                      in_picture "$ox" "$oy" "$sx" "$sy")
mapfile -t all_moved < <(awk '{ print $1, $2, $3 + 10.0 }' biotin_atoms.txt | in_picture "$ox" "$oy" "$sx" "$sy")
expect_rc 0 "$vsgrid" render stp.vsg --slice z=$plane -o two.png --scale 12 --ligand two.pdbqt --poses 2
grep -q "two.pdbqt: 2 poses from record 1, 32 atoms drawn in view" err.txt || fail "--poses 2: $(cat err.txt)"
probe two.png plain.png "$nx" "${near[@]}" "${moved[@]}" "${all[@]}" "${all_moved[@]}" > two.txt
expect_rc 0 "$vsgrid" render stp.vsg --slice z=$plane -o rec2.png --scale 12 --ligand two.pdbqt --record 2
grep -q "two.pdbqt: 1 pose from record 2" err.txt || fail "--record 2: $(cat err.txt)"
probe rec2.png plain.png "$nx" "${moved[@]}" "${all_moved[@]}" > rec2.txt
solid_first=0 solid_second=0 solid_rec2=0
while read -r el r g b; do [ "$r $g $b" = "${colour[$el]:-x}" ] && solid_first=$((solid_first + 1)); done < <(head -n ${#near[@]} two.txt)
while read -r el r g b; do [ "$r $g $b" = "${colour[$el]:-x}" ] && solid_second=$((solid_second + 1)); done < <(sed -n "$((${#near[@]} + 1)),$((2 * ${#near[@]}))p" two.txt)
while read -r el r g b; do [ "$r $g $b" = "${colour[$el]:-x}" ] && solid_rec2=$((solid_rec2 + 1)); done < <(head -n ${#moved[@]} rec2.txt)
echo "solid atom pixels: first pose $solid_first, second pose $solid_second (--poses 2), record 2 alone $solid_rec2 of ${#near[@]}"
[ "$solid_first" = "${#near[@]}" ] || fail "--poses 2: first pose has $solid_first solid atoms of ${#near[@]}"
[ "$solid_second" = 0 ] || fail "--poses 2: the second pose is drawn solid ($solid_second atoms)"
[ "$solid_rec2" = "${#near[@]}" ] || fail "--record 2: $solid_rec2 solid atoms of ${#near[@]}"
read -r _ far2 _ near2 _ _ _ _ < <(tail -1 two.txt)
[ "${far2:-1}" = 0 ] && [ "${near2:-0}" -gt 600 ] || fail "--poses 2 changed $far2 far pixels, $near2 near"

# No atom in view: biotin moved 200 Å along x. A warning, exit 0, the map still drawn.
awk '/^(ATOM|HETATM)/ { printf "%s%8.3f%s\n", substr($0, 1, 30), substr($0, 31, 8) + 200.0, substr($0, 39) }' \
  "$src/data/biotin.pdbqt" > away.pdbqt
expect_rc 0 "$vsgrid" render stp.vsg --slice z=$plane -o away.png --scale 12 --ligand away.pdbqt
[ "$(grep -c "warning: .*no atom of away.pdbqt" err.txt)" = 1 ] || fail "no one-line warning for a ligand out of view: $(cat err.txt)"
read -r _ far3 _ near3 _ ink3 _ _ < <(probe away.png plain.png "$nx" "C 0 0" | tail -1)
[ "${far3:-1}" = 0 ] && [ "${near3:-1}" = 0 ] && [ "${ink3:-0}" -gt 100 ] || fail "out-of-view picture: map changed ($far3, $near3) or no legend ($ink3)"
expect_rc 0 "$vsgrid" render stp.vsg --slice z=$plane -o away_q.png --ligand away.pdbqt --quiet
grep -q "warning: .*no atom" err.txt || fail "--quiet hid the out-of-view warning"

# Usage errors → 2; a missing ligand → 3, named.
expect_rc 2 "$vsgrid" render stp.vsg --slice z=ligand -o a.png
expect_rc 2 "$vsgrid" render stp.vsg --slice z=$plane -o a.png --poses 2
expect_rc 2 "$vsgrid" render stp.vsg --slice z=$plane -o a.png --ligand two.pdbqt --poses 0
expect_rc 2 "$vsgrid" render stp.vsg --slice z=$plane -o a.png --ligand two.pdbqt --record 1.5
expect_rc 3 "$vsgrid" render stp.vsg --slice z=$plane -o a.png --ligand missing.sdf
grep -q "missing.sdf" err.txt || fail "missing ligand not named: $(cat err.txt)"
expect_rc 3 "$vsgrid" render stp.vsg --slice z=$plane -o a.png --ligand missing.xyz
grep -q "missing.xyz" err.txt || fail "ligand of unknown format not named: $(cat err.txt)"
expect_rc 3 "$vsgrid" render stp.vsg --slice z=$plane -o a.png --ligand two.pdbqt --record 3
grep -q "two.pdbqt" err.txt || fail "--record past the end: file not named: $(cat err.txt)"
[ -e a.png ] && fail "a failed render left a.png"

echo "cli_render_ligand: $fails failed"
[ "$fails" = 0 ]
