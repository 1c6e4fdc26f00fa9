#!/usr/bin/env bash
# Peer comparison with APBS (Debian's apbs), run for real in CI: the two checked cases of
# scripts/compare_apbs.sh --quick —
#   fasciculin-2 solvation energy (SES, 0.15 M, 0.5 Å): within 1% of APBS;
#   biotin's interaction energy in the 1STP receptor's potential (vdW surface): within 2%.
# Usage: peer_apbs.sh VSGRID SOURCE_DIR BINARY_DIR. Exit 77 (skipped) without apbs.
exec bash "$2/scripts/compare_apbs.sh" --quick "$1"
