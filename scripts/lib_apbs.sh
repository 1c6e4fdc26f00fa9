# lib_apbs.sh — sourced by the scripts that run APBS on vsgrid's benchmark case (1STP receptor,
# linear PB, 0.15 M, SES, mdh, spl0): apbs_elec_body prints the lines of the elec block after
# the grid (dime/grid or glen/gcent are the caller's), through the end of the input.
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
