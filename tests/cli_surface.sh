#!/usr/bin/env bash
# `vsgrid surface` end to end on myoglobin (data/1mbo.pqr.gz): PLY, per-vertex CSV, residue
# table, PNG (decoded with a real decoder, PIL, when present), JSON; exact vs HCP; usage and
# input errors with their exit codes. With ../shared: GEM's 1UWO MSMS surface with
# --gem-compat, checked vertex by vertex against an independent transcription of GEM's
# formula (Python, double; GEM itself computes in float: tolerance 1e-4 of the range).
# Usage: cli_surface.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_surface
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3 || true)
mb=$src/data/1mbo.pqr.gz

expect_rc 0 "$vsgrid" surface --help
for opt in --mode --vertices --faces --gem-compat --csv --residues --png --eps-in --eps-out --salt --thresholds \
  --device --json --probe --spacing --range; do
  grep -q -- "$opt" out.txt || fail "surface --help does not document $opt"
done
expect_rc 2 "$vsgrid" surface "$mb"                                   # no output asked for
expect_rc 2 "$vsgrid" surface "$mb" -o x.ply --mode fast
expect_rc 2 "$vsgrid" surface "$mb" -o x.ply --thresholds 10,70
expect_rc 2 "$vsgrid" surface "$mb" -o x.ply --vertices a.vert        # needs --faces
expect_rc 2 "$vsgrid" surface "$mb" -o x.ply --salt -1
expect_rc 3 "$vsgrid" surface missing.pqr -o x.ply
printf "" > empty.pqr
expect_rc 3 "$vsgrid" surface empty.pqr -o x.ply                        # no atoms
expect_rc 4 "$vsgrid" surface "$mb" -o x.ply --spacing 0.05 --max-memory 100M   # lattice over the cap
grep -q "use a coarser spacing" err.txt || fail "memory cap message: $(cat err.txt)"
printf "ATOM      1  NA  ION     1       0.000   0.000   0.000  1.0000 1.8000\n" > ion.pqr
expect_rc 1 "$vsgrid" surface ion.pqr -o no/such/dir/x.ply --device cpu   # output not writable
printf '# MSMS\n#h\n 3 1 3.0 1.5\n1 2 3 0 0 1 0 1 1\n' > bad.vert
printf '# MSMS\n#h\n 1 1 3.0 1.5\n1 2 3 1 1\n' > bad.face
expect_rc 3 "$vsgrid" surface "$mb" -o x.ply --vertices bad.vert --faces bad.face   # 1 vertex of 3
grep -q "bad.vert:" err.txt || fail "MSMS error does not name the file and line: $(cat err.txt)"
if [ "$("$vsgrid" info --gpus 2>/dev/null | grep -c GPU)" = 0 ] && ! nvidia-smi -L >/dev/null 2>&1; then
  expect_rc 5 "$vsgrid" surface "$mb" -o x.ply --device gpu --spacing 1
fi

# The full run: coarse surface (1 Å) to keep CI quick.
expect_rc 0 "$vsgrid" surface "$mb" -o mb.ply --csv mb.csv --residues mb_res.csv --png mb.png --json mb.json \
  --spacing 1.0 --device cpu
nv=$(awk '/^element vertex/ { print $3 }' mb.ply)
[ -n "$nv" ] && [ "$nv" -gt 10000 ] || fail "PLY vertex count '$nv'"
[ "$(($(wc -l < mb.csv) - 1))" = "$nv" ] || fail "CSV rows $(($(wc -l < mb.csv) - 1)) != PLY vertices $nv"
head -1 mb.csv | grep -qx "vertex,x,y,z,nx,ny,nz,atom,residue_name,residue_number,chain,potential_kT_e,potential_kcal_mol_e" ||
  fail "CSV header: $(head -1 mb.csv)"
grep -q '"vertices": '"$nv" mb.json || fail "JSON vertices"
grep -q '"pairs_per_second"' mb.json || fail "JSON pairs_per_second"
grep -q '"alpb_region": 2' mb.json || fail "JSON region (vsgrid default is 2)"
# 153 residues of myoglobin; most have surface vertices; areas add up to the surface area
nres=$(($(wc -l < mb_res.csv) - 1))
[ "$nres" = 153 ] || fail "residue rows $nres, expected 153"
awk -F, -v want="$(grep -o '"surface_area_A2": [0-9.e+]*' mb.json | awk '{ print $2 }')" \
  'NR > 1 { s += $10; if ($9 > 0) n++ } END { if (n < 120 || (s - want) ^ 2 > (1e-3 * want) ^ 2) { print "residue areas " s " vs " want ", " n " exposed"; exit 1 } }' mb_res.csv ||
  fail "residue table"
# potentials: plausible range for a protein surface in kT/e, not all one sign
awk -F, 'NR > 1 { if ($12 < lo) lo = $12; if ($12 > hi) hi = $12 } END { if (!(lo < -0.5 && hi > 0.5 && lo > -60 && hi < 60)) { print lo, hi; exit 1 } }' mb.csv ||
  fail "potential range"

# exact vs HCP on the same surface: relative RMS below 0.05 (test_hcp pins the numbers)
expect_rc 0 "$vsgrid" surface "$mb" --csv mb_exact.csv --spacing 1.0 --mode exact --device cpu --quiet
paste -d, mb.csv mb_exact.csv | awk -F, 'NR > 1 { d = $12 - $25; n += d * d; s += $25 * $25 } END { r = sqrt(n / s); print "HCP vs exact relative RMS", r; if (!(r < 0.05 && r > 0)) exit 1 }' ||
  fail "HCP vs exact"

# --groups: the whole protein as one residue / chain / complex; a file with the wrong line count
zcat "$mb" | awk '/^(ATOM|HETATM)/ { print "R C X" }' > one.groups
expect_rc 0 "$vsgrid" surface "$mb" --json g.json --spacing 1.5 --device cpu --quiet --groups one.groups
grep -q '"residues": 1,' g.json && grep -q '"chains": 1,' g.json || fail "--groups: $(grep -E '"(residues|chains)"' g.json | tr -d '\n')"
echo "a b c" > bad.groups
expect_rc 3 "$vsgrid" surface "$mb" --json g.json --spacing 1.5 --device cpu --quiet --groups bad.groups
grep -q "bad.groups: 1 lines for 2459 atoms" err.txt || fail "--groups error: $(cat err.txt)"

if [ -n "$py" ] && "$py" -c 'import PIL' 2>/dev/null; then
  "$py" - <<'EOF' || fail "PNG did not decode as expected"
from PIL import Image
im = Image.open("mb.png"); im.load()
w, h = im.size
assert w >= 600 and h >= 400, im.size
px = im.convert("RGB").getdata()
red = sum(1 for r, g, b in px if r > 200 and g < 80 and b < 80)
blue = sum(1 for r, g, b in px if b > 200 and r < 80 and g < 80)
assert red > 100 and blue > 100, (red, blue)
print("PNG", w, "x", h, "red", red, "blue", blue)
EOF
else
  skip_part "PNG decode check" "no python3 with PIL"
fi

# GEM's own input: 1UWO chain A with its MSMS surface (../shared, not redistributed).
g=${VSG_SHARED_DATA:-$src/../shared/data}/gem_hcp
if [ -f "$g/1uwo_A.vert.gz" ] && [ -n "$py" ]; then
  expect_rc 0 "$vsgrid" surface "$g/1uwo_A.pqr" --vertices "$g/1uwo_A.vert.gz" --faces "$g/1uwo_A.face.gz" \
    --gem-compat --salt 0.1 --mode exact --device cpu --csv uwo.csv -o uwo.ply --json uwo.json
  [ "$(($(wc -l < uwo.csv) - 1))" = 16529 ] || fail "1UWO MSMS vertex count"
  A=$(grep -o '"electrostatic_size_A": [0-9.e+]*' uwo.json | awk '{ print $2 }')
  cat > gem_ref.py <<'EOF'
# GEM's kernel (OpenDwarfs n-body-methods/gem, calculate_potential.cl) transcribed from its
# description: charges × 332, region 1 (r = A, r0 = A/2), κ = 0.316·√salt, ion radius 2,
# d from the vertex, d' from vertex + 2·normal; the result is GEM's dumpVertices value.
# Usage: gem_ref.py PQR[.gz] VERTS(.vert[.gz] | .ply) CSV A SALT STRIDE
import gzip, math, struct, sys, csv
pqr, vsrc, csvp, A, salt, stride = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
op = gzip.open if pqr.endswith(".gz") else open
atoms = []
with op(pqr, "rt") as f:
    for line in f:
        if line.startswith(("ATOM", "HETATM")):
            t = line.split()
            atoms.append((float(t[-5]), float(t[-4]), float(t[-3]), float(t[-2]) * 332.0))
verts = []
if vsrc.endswith(".ply"):  # vsgrid's own mesh: exact float32 positions and normals
    data = open(vsrc, "rb").read()
    head = data[:data.index(b"end_header\n") + 11]
    nv = int([l for l in head.split(b"\n") if l.startswith(b"element vertex")][0].split()[2])
    off = len(head)
    for i in range(nv):
        verts.append(struct.unpack_from("<6f", data, off + 31 * i))
else:
    vop = gzip.open if vsrc.endswith(".gz") else open
    with vop(vsrc, "rt") as f:
        for i, line in enumerate(f):
            if i >= 3:
                verts.append(tuple(float(x) for x in line.split()[:6]))
rows = list(csv.DictReader(open(csvp)))
assert len(rows) == len(verts), (len(rows), len(verts))
alpha, ei, eo, ion = 0.571412, 1.0, 80.0, 2.0
kap, beta = 0.316 * math.sqrt(salt), ei / eo
r, rp, r0 = A, A + ion, A / 2
inv = 1 / ((1 + alpha * beta) * eo)
worst, big = 0.0, 0.0
for k in range(0, len(verts), stride):
    x, y, z, nx, ny, nz = verts[k]
    n = math.sqrt(nx * nx + ny * ny + nz * nz)
    nx, ny, nz = nx / n, ny / n, nz / n
    px, py_, pz = x + ion * nx, y + ion * ny, z + ion * nz
    tot = 0.0
    for ax, ay, az, q in atoms:
        d = math.sqrt((x - ax) ** 2 + (y - ay) ** 2 + (z - az) ** 2)
        dp = math.sqrt((px - ax) ** 2 + (py_ - ay) ** 2 + (pz - az) ** 2)
        s1 = 1 / (d * ei)
        s2 = (1 / ei - 1 / eo) / ((1 + alpha * beta) * A)
        s3 = A * A / math.sqrt((A * A - r0 * r0) * (A * A - r * r) + A * A * d * d)
        sl = inv * ((1 + alpha) / dp * (1 / (1 + kap * dp) - 1) + alpha * (1 - beta) / rp * (1 - 1 / (1 + kap * rp)))
        tot += (s1 - s2 * s3 + sl) * q
    got = float(rows[k]["potential_kcal_mol_e"])
    worst, big = max(worst, abs(got - tot)), max(big, abs(tot))
print("GEM formula vs vsgrid --gem-compat, %s (every %dth of %d vertices): max |diff| %.2e of max |phi| %.3f kcal/mol/e"
      % (pqr.split("/")[-1], stride, len(verts), worst, big))
sys.exit(0 if worst <= 1e-4 * big else 1)
EOF
  "$py" gem_ref.py "$g/1uwo_A.pqr" "$g/1uwo_A.vert.gz" uwo.csv "$A" 0.1 40 || fail "--gem-compat differs from GEM's formula (1UWO)"
  # The nucleosome on vsgrid's own surface (no MSMS surface is shipped for it)
  expect_rc 0 "$vsgrid" surface "$g/nucleosome.pqr.gz" --gem-compat --salt 0 --mode exact --device cpu --spacing 2.5 \
    --csv nuc.csv -o nuc.ply --json nuc.json --quiet
  A=$(grep -o '"electrostatic_size_A": [0-9.e+]*' nuc.json | awk '{ print $2 }')
  "$py" gem_ref.py "$g/nucleosome.pqr.gz" nuc.ply nuc.csv "$A" 0 1000 || fail "--gem-compat differs from GEM's formula (nucleosome)"
else
  skip_part "GEM/MSMS comparison" "no $g or no python3; set VSG_SHARED_DATA"
fi

[ "$fails" = 0 ] && echo "cli_surface: all checks passed"
exit $((fails > 0))
