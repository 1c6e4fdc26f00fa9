#!/usr/bin/env bash
# The Python module (python/vsgrid, ctypes over libvsgrid.so): python/tests run by Debian's pytest
# against this build's library and command (the reference results are the command's).
# Usage: python_module.sh LIBVSGRID.so VSGRID SOURCE_DIR WORK_DIR [SANITIZE]
# Skips (77) without /usr/bin/python3, pytest or numpy, without the library, or in a sanitizer
# build (an ASan library cannot be loaded into an uninstrumented python).
set -u
lib=$1 cli=$2 src=$3 work=$4 sanitize=${5:-OFF}
py=/usr/bin/python3
case "$sanitize" in ON|on|1|TRUE|true|YES|yes) echo "skipped: sanitizer build"; exit 77 ;; esac
[ -x "$py" ] || { echo "skipped: no $py"; exit 77; }
"$py" -c "import pytest, numpy" 2>/dev/null || {
  echo "skipped: no pytest or numpy (apt-get install python3-pytest python3-numpy)"; exit 77; }
[ -f "$lib" ] || { echo "skipped: no library $lib"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$src" || exit 1
VSGRID_LIB=$lib VSGRID_CLI=$cli PYTHONDONTWRITEBYTECODE=1 OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} \
  "$py" -m pytest -q -p no:cacheprovider --basetemp="$work/tmp" python/tests
