#!/usr/bin/env bash
# Peer comparison with autogrid4 (Debian's autogrid 4.2.6), run for real in CI: vsgrid's
# AutoGrid-compatible e map (--method coulomb --gpf X.gpf --autogrid-maps vs) against
# autogrid4's .e.map on the same gpf, every point within max(1e-3·|v|, 2e-3) kcal/mol/e:
# data/1stp_receptor.pdbqt in the 1STP box of AutoDock-GPU's 1stp.gpf, plus 2BRT and 1IEP
# when ../shared/data is there (scripts/compare_autogrid.sh --quick).
# Usage: peer_autogrid.sh VSGRID SOURCE_DIR BINARY_DIR. Exit 77 (skipped) without autogrid4.
command -v autogrid4 > /dev/null 2>&1 && [ ! -d "${VSG_SHARED_DATA:-$2/../shared/data}" ] &&
  echo "SKIPPED-PART: 2BRT and 1IEP (no ../shared/data; set VSG_SHARED_DATA)"
exec bash "$2/scripts/compare_autogrid.sh" --quick "$1"
