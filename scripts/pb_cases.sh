# pb_cases.sh — the PB timing cases that profile_pb.sh and time_to_solution.sh share; sourced,
# not run. Sets here (the repository), shared (the shared data), cases (the arguments, or all),
# work (a scratch folder, removed on exit), and defines pb_case NAME, which sets rec, box and h
# (1 for an unknown name). 1STP (1,116 atoms) at 161³ and 257³; AChBP (16,090 atoms, needs
# the shared data: VSG_SHARED_DATA or ../shared/data) at 297³ and 513³; box centred on the molecule.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
shared=${VSG_SHARED_DATA:-$here/../shared/data}
cases=${*:-"1stp161 1stp257 achbp297 achbp513"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pb_case() {
    case $1 in
        1stp161) rec=$here/data/1stp_receptor.pdbqt box="10.734,2.033,-11.537,80,80,80" h=0.5 ;;
        1stp257) rec=$here/data/1stp_receptor.pdbqt box="10.734,2.033,-11.537,84.48,84.48,84.48" h=0.33 ;;
        achbp297) rec=$shared/pqr/apbs_misc/achbp.pqr.gz box="45.64,44.19,27.92,97.68,97.68,97.68" h=0.33 ;;
        achbp513) rec=$shared/pqr/apbs_misc/achbp.pqr.gz box="45.64,44.19,27.92,102.4,102.4,102.4" h=0.2 ;;
        *) echo "unknown case $1" >&2; return 1 ;;
    esac
}
