#!/usr/bin/env bash
# `vsgrid render`: a PB grid of fasciculin made with `vsgrid grid`, sliced to PNG and decoded
# with a real decoder (Pillow): size, colour bar red and blue, the receptor's outline (found
# through the grid's metadata, given with --receptor, or read from a PDB); .dx input; usage
# errors (2) and bad input (3).
# Usage: cli_render.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_render
py=/usr/bin/python3
if ! [ -x "$py" ] || ! "$py" -c 'import PIL.Image' 2>/dev/null; then
  echo "skipped: $py with PIL (python3-pil) is needed to decode the PNGs"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"
# png_stats FILE: "width height red blue black" (pure-ish red, blue and black pixel counts)
png_stats() {
  "$py" - "$1" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1])
im.load()
assert im.format == "PNG", im.format
assert im.mode == "RGB", im.mode
w, h = im.size
px = im.getdata()
red = sum(1 for r, g, b in px if r > 240 and g < 20 and b < 20)
blue = sum(1 for r, g, b in px if b > 240 and r < 20 and g < 20)
black = sum(1 for r, g, b in px if r == 0 and g == 0 and b == 0)
# the colour bar is in the bottom quarter: it must hold both ends of the scale
bar = [im.getpixel((x, y)) for y in range(3 * h // 4, h) for x in range(w)]
bar_red = sum(1 for r, g, b in bar if r > 240 and g < 20 and b < 20)
bar_blue = sum(1 for r, g, b in bar if b > 240 and r < 20 and g < 20)
print(w, h, red, blue, black, bar_red, bar_blue)
PY
}

# Help documents every option.
expect_rc 0 "$vsgrid" render --help
grep -q "usage: vsgrid render" out.txt || fail "render --help has no usage line"
for opt in --slice -o --range --receptor --no-outline --scale --quiet "Exit codes"; do
  grep -q -- "$opt" out.txt || fail "render --help does not document $opt"
done

# A coarse PB grid; its metadata names the receptor by the path given here.
expect_rc 0 "$vsgrid" grid "$src/data/fas2.pqr" -o fas.vsg --dx fas.dx.gz --spacing 1.0 --device cpu --quiet
[ -s fas.vsg ] || { fail "no grid made"; echo "cli_render: $fails failed"; exit 1; }

# Default: outline from the grid's receptor.
expect_rc 0 "$vsgrid" render fas.vsg --slice z=center -o z.png
grep -q "outline: .*fas2.pqr" err.txt || fail "no outline from the grid's metadata: $(cat err.txt)"
read -r w h red blue black bar_red bar_blue < <(png_stats z.png) || fail "z.png does not decode"
echo "z.png: ${w}x${h}, red $red, blue $blue, black $black, colour bar red $bar_red blue $bar_blue"
[ "${w:-0}" -ge 400 ] && [ "${h:-0}" -ge 400 ] || fail "z.png is ${w}x${h}, expected at least 400x400"
[ "${bar_red:-0}" -gt 20 ] && [ "${bar_blue:-0}" -gt 20 ] || fail "colour bar lacks red ($bar_red) or blue ($bar_blue)"
[ "${red:-0}" -gt 1000 ] && [ "${blue:-0}" -gt 1000 ] || fail "slice has too few saturated red ($red) / blue ($blue) pixels"
# The outline is what --no-outline takes away: many black pixels.
expect_rc 0 "$vsgrid" render fas.vsg --slice z=center -o z_plain.png --no-outline --quiet
read -r w2 h2 _ _ black2 _ _ < <(png_stats z_plain.png)
[ "$w2" = "$w" ] && [ "$h2" = "$h" ] || fail "--no-outline changed the size (${w2}x${h2})"
echo "outline pixels: $((black - black2))"
[ $((black - black2)) -gt 500 ] || fail "outline adds only $((black - black2)) black pixels"
[ -s err.txt ] && fail "--quiet printed: $(cat err.txt)"

# Explicit receptor, range, scale; x and y planes; a plane between grid nodes; .dx.gz input.
expect_rc 0 "$vsgrid" render fas.vsg --slice x=0.3 -o x.png --receptor "$src/data/fas2.pqr" --range -2,2 --scale 4
grep -q "colours -2..2" err.txt || fail "--range not used: $(cat err.txt)"
read -r wx hx _ _ _ _ _ < <(png_stats x.png)
[ "${wx:-0}" -ge 236 ] || fail "x.png at --scale 4 is only $wx wide"
expect_rc 0 "$vsgrid" render fas.dx.gz --slice y=center -o y.png --receptor "$src/data/fas2.pqr"
read -r wy hy redy bluey _ _ _ < <(png_stats y.png) || fail "y.png does not decode"
[ "${redy:-0}" -gt 100 ] && [ "${bluey:-0}" -gt 100 ] || fail "y.png from .dx.gz has no red/blue"
# A PDB (no charges) serves for the outline: coordinates and element radii.
awk '$1 == "ATOM" { printf "ATOM  %5d %-4s %3s A%4d    %8.3f%8.3f%8.3f  1.00  0.00          %2s\n", \
     NR, $3, $4, $5, $6, $7, $8, substr($3, 1, 1) }' "$src/data/fas2.pqr" > fas2.pdb
expect_rc 0 "$vsgrid" render fas.vsg --slice z=center -o z_pdb.png --receptor fas2.pdb
grep -q "outline: fas2.pdb" err.txt || fail "PDB outline not used: $(cat err.txt)"
read -r _ _ _ _ black3 _ _ < <(png_stats z_pdb.png)
[ $((black3 - black2)) -gt 500 ] || fail "PDB outline adds only $((black3 - black2)) black pixels"
# The grid's receptor is looked up as written, then next to the grid; when it is gone the
# picture is still made, and says there is no outline.
mkdir -p sub && cp "$src/data/fas2.pqr" rec.pqr
expect_rc 0 "$vsgrid" grid rec.pqr -o sub/rec.vsg --spacing 2.0 --device cpu --quiet
expect_rc 0 "$vsgrid" render sub/rec.vsg --slice z=center -o r1.png
grep -q "outline: rec.pqr" err.txt || fail "receptor in the working directory not used: $(cat err.txt)"
mv rec.pqr sub/
expect_rc 0 "$vsgrid" render sub/rec.vsg --slice z=center -o r2.png
grep -q "outline: sub/rec.pqr" err.txt || fail "receptor next to the grid not used: $(cat err.txt)"
rm sub/rec.pqr
expect_rc 0 "$vsgrid" render sub/rec.vsg --slice z=center -o r3.png
grep -q "no outline" err.txt || fail "no message about the missing outline: $(cat err.txt)"
[ -s r3.png ] || fail "no picture without the receptor"

# Usage errors → 2.
expect_rc 2 "$vsgrid" render
expect_rc 2 "$vsgrid" render fas.vsg -o a.png
expect_rc 2 "$vsgrid" render fas.vsg --slice z=1
expect_rc 2 "$vsgrid" render fas.vsg --slice w=1 -o a.png
expect_rc 2 "$vsgrid" render fas.vsg --slice z -o a.png
expect_rc 2 "$vsgrid" render fas.vsg --slice z=abc -o a.png
expect_rc 2 "$vsgrid" render fas.vsg --slice z=1000 -o a.png
grep -q "outside the grid" err.txt || fail "plane outside the grid: no clear message: $(cat err.txt)"
expect_rc 2 "$vsgrid" render fas.vsg --slice z=1 -o a.png --range 5,1
expect_rc 2 "$vsgrid" render fas.vsg --slice z=1 -o a.png --scale 0
expect_rc 2 "$vsgrid" render fas.vsg --slice z=1 -o a.png --frobnicate
[ -e a.png ] && fail "a failed render left a.png"

# Bad input → 3.
expect_rc 3 "$vsgrid" render missing.vsg --slice z=1 -o a.png
printf 'not a grid' > corrupt.vsg
expect_rc 3 "$vsgrid" render corrupt.vsg --slice z=1 -o a.png
expect_rc 3 "$vsgrid" render fas.vsg --slice z=center -o a.png --receptor missing.pqr
expect_rc 3 "$vsgrid" render fas.vsg --slice z=center -o /nonexistent-dir/a.png
grep -q "nonexistent-dir/a.png" err.txt || fail "unwritable output not named: $(cat err.txt)"

echo "cli_render: $fails failed"
[ "$fails" = 0 ]
