# lib_maps.sh — sourced by the peer map tests: the point-by-point comparison of two AutoGrid maps.
# compare_maps REF.map TEST.map → "max_abs beyond header_ok points": beyond counts the points
# outside autogrid4's printed precision, max(1e-3·|v|, 2e-3), and the points with |v| ≥ 1000
# that are not equal; header_ok says whether SPACING, NELEMENTS and CENTER lines and the point
# count agree.
compare_maps() {
  awk 'FNR == NR { if (FNR <= 6) h[FNR] = $0; else ref[FNR] = $1; nref = FNR; next }
       FNR <= 6 { if (FNR >= 4 && $0 != h[FNR]) hdr = 1; next }
       { n++; v = $1; r = ref[FNR]; d = v - r; if (d < 0) d = -d; a = r < 0 ? -r : r
         tol = 1e-3 * a; if (tol < 2e-3) tol = 2e-3
         if (a >= 1000 && d > 0) tol = 0
         if (d > mx) mx = d; if (d > tol) bad++ }
       END { if (FNR != nref) hdr = 1; printf "%.4g %d %s %d\n", mx, bad + 0, hdr ? "no" : "yes", n }' "$1" "$2"
}
