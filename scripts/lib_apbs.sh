# lib_apbs.sh — sourced by the scripts that run APBS on vsgrid's benchmark settings (linear PB,
# pdie 2, sdie 78.54, 0.15 M, SES, mdh, spl0): apbs_elec_body prints the lines of the elec block
# after the grid (dime/grid or glen/gcent are the caller's), through the end of the input;
# box_of and apbs_elec write a whole mg-manual block on a molecule's box.
apbs_elec_body() {
  cat <<'EOF_BODY'
    mol 1
    lpbe
    bcfl mdh
    pdie 2.0
    sdie 78.54
    srfm mol
    chgm spl0
    srad 1.4
    swin 0.3
    sdens 10.0
    temp 298.15
    ion charge 1 conc 0.15 radius 2.0
    ion charge -1 conc 0.15 radius 2.0
    calcenergy total
    calcforce no
end
quit
EOF_BODY
}

# APBS grid for a molecule: "CX CY CZ N" with N = 32k+1 nodes covering extent + 24 Å at 0.5 Å.
box_of() {
  awk '/^ATOM|^HETATM/ { x=$(NF-4); y=$(NF-3); z=$(NF-2); n++
    if (n==1 || x<a) a=x; if (n==1 || x>A) A=x; if (n==1 || y<b) b=y; if (n==1 || y>B) B=y
    if (n==1 || z<c) c=z; if (n==1 || z>C) C=z }
    END { e = A-a; if (B-b > e) e = B-b; if (C-c > e) e = C-c
          need = (e + 24) / 0.5; k = int((need - 1) / 32) + 1
          printf "%.3f %.3f %.3f %d", (a+A)/2, (b+B)/2, (c+C)/2, 32*k+1 }' "$1"
}

# apbs_elec NAME CENTRE DIME SDIE SRAD SALT(0|1) [WRITE_STEM]
apbs_elec() {
  printf 'elec name %s\n    mg-manual\n    dime %s %s %s\n    grid 0.5 0.5 0.5\n    gcent %s\n' "$1" "$3" "$3" "$3" "$2"
  printf '    mol 1\n    lpbe\n    bcfl mdh\n    pdie 2.0\n    sdie %s\n    srfm mol\n    chgm spl0\n' "$4"
  printf '    srad %s\n    swin 0.3\n    sdens 10.0\n    temp 298.15\n' "$5"
  [ "$6" = 1 ] && printf '    ion charge 1 conc 0.15 radius 2.0\n    ion charge -1 conc 0.15 radius 2.0\n'
  printf '    calcenergy total\n    calcforce no\n'
  [ -n "${7:-}" ] && printf '    write pot dx %s\n' "$7"
  printf 'end\n'
}
