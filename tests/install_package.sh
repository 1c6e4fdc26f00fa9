#!/usr/bin/env bash
# The installed library: `cmake --install` of this build tree into a temporary prefix, then
# examples/link_example built against it with find_package(vsgrid) (shared and static targets)
# and with `cc $(pkg-config --cflags --libs vsgrid)` (and libvsgrid.a with `pkg-config --static`);
# each program's atoms, net charge and CRC-32 of data/fas2.pqr must be the installed `vsgrid info`'s,
# and its Coulomb grid (CPU; GPU too where present, which the program checks) the others'.
# Also: libvsgrid.so's SONAME, and its dynamic symbol table holds the public API's functions only
# (the version script's names).
# Usage: install_package.sh SOURCE_DIR BINARY_DIR WORK_DIR CMAKE C_COMPILER SANITIZE
set -u
src=$1 bin=$2 work=$3 cmake=$4 cc=$5 sanitize=$6
if [ "$sanitize" = ON ] || [ "$sanitize" = 1 ] || [ "$sanitize" = TRUE ]; then
  # A program linked with the sanitized library would need the sanitizer runtime loaded first.
  echo "skipped: sanitizer build (VSG_SANITIZE=ON)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"
prefix=$work/prefix
mol=$src/data/fas2.pqr

"$cmake" --install "$bin" --prefix "$prefix" >install.log 2>&1 || { cat install.log; echo "FAIL: cmake --install"; exit 1; }
pc=$(find "$prefix" -name vsgrid.pc | head -1)
[ -n "$pc" ] || { echo "FAIL: no vsgrid.pc installed"; exit 1; }
libdir=$(dirname "$(dirname "$pc")")
for f in bin/vsgrid include/vsgrid/vsgrid.h; do
  [ -f "$prefix/$f" ] || fail "not installed: $f"
done
for f in libvsgrid.a libvsgrid.so pkgconfig/vsgrid.pc cmake/vsgrid/vsgridConfig.cmake \
         cmake/vsgrid/vsgridConfigVersion.cmake cmake/vsgrid/vsgridTargets.cmake; do
  [ -e "$libdir/$f" ] || fail "not installed: $libdir/$f"
done
[ "$fails" = 0 ] || exit 1
# the installed header includes standard headers only
if grep '^#include' "$prefix/include/vsgrid/vsgrid.h" | grep -vq '<std[a-z]*\.h>'; then
  fail "installed vsgrid.h includes a non-standard header"
fi

# SONAME from the major version; exports = the version script's names (the header's functions).
major=$(sed -n 's/^#define VSG_VERSION_MAJOR \([0-9]*\).*/\1/p' "$prefix/include/vsgrid/vsgrid.h")
if command -v objdump >/dev/null 2>&1; then
  objdump -p "$libdir/libvsgrid.so" | grep -q "SONAME *libvsgrid.so.$major\$" || fail "SONAME is not libvsgrid.so.$major"
fi
if command -v nm >/dev/null 2>&1; then
  nm -D --defined-only "$libdir/libvsgrid.so" | awk '$2 ~ /^[A-Z]$/ {print $3}' | sed 's/@.*//' | sort -u >exports.txt
  sed -n 's/^ *\(vsg_[a-z0-9_]*\);$/\1/p' "$bin/vsgrid.map" | sort -u >public.txt
  extra=$(comm -23 exports.txt public.txt | tr '\n' ' ')
  [ -z "$extra" ] || fail "libvsgrid.so exports names outside the public API: $extra"
  missing=$(comm -13 exports.txt public.txt | tr '\n' ' ')
  [ -z "$missing" ] || echo "note: declared in vsgrid.h, not defined in the library: $missing"
  echo "libvsgrid.so exports $(wc -l <exports.txt) functions ($(wc -l <public.txt) declared in vsgrid.h)"
fi

# What the programs must print: the installed command's view of the molecule.
"$prefix/bin/vsgrid" info "$mol" >info.txt 2>&1 || { cat info.txt; fail "installed vsgrid info failed"; exit 1; }
atoms=$(sed -n 's/^.*: \([0-9]*\) atoms,.*/\1/p' info.txt | head -1)
{ echo "  atoms $atoms"; grep -E '^  (net charge|crc32) ' info.txt; } >expected.txt
if [ -z "$atoms" ] || [ "$(wc -l <expected.txt)" != 3 ]; then
  cat info.txt
  fail "unexpected vsgrid info output"
  exit 1
fi
check_run() {  # check_run NAME PROGRAM: runs it on the molecule, compares with expected.txt
  LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$2" "$mol" >"$1.out" 2>"$1.err" ||
    { fail "$1 exited $?: $(head -c 600 "$1.err")"; return; }
  grep -E '^  (atoms|net charge|crc32) ' "$1.out" | diff expected.txt - >"$1.diff" ||
    fail "$1 printed other numbers than vsgrid info: $(cat "$1.diff")"
  # the Coulomb grid's mean (and, with a GPU, the GPU's agreement, checked by the program)
  grep '^  coulomb' "$1.out" >"$1.coulomb"
  [ -s "$1.coulomb" ] || fail "$1 printed no Coulomb line"
  [ -f coulomb.txt ] || cp "$1.coulomb" coulomb.txt
  diff coulomb.txt "$1.coulomb" >/dev/null || fail "$1's Coulomb lines differ: $(cat "$1.coulomb")"
}

# find_package(vsgrid): shared and static targets.
if "$cmake" -S "$src/examples/link_example" -B example -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
     -DCMAKE_BUILD_TYPE=Release >example.log 2>&1 && "$cmake" --build example >>example.log 2>&1; then
  check_run find_package_shared example/link_example
  check_run find_package_static example/link_example_static
  ldd example/link_example_static 2>/dev/null | grep -q libvsgrid && fail "link_example_static loads libvsgrid.so"
else
  fail "the example did not build with find_package(vsgrid): $(tail -c 1500 example.log)"
fi

# pkg-config
if command -v pkg-config >/dev/null 2>&1; then
  export PKG_CONFIG_PATH="$libdir/pkgconfig"
  [ "$(pkg-config --modversion vsgrid)" = "$("$prefix/bin/vsgrid" --version | grep -o '[0-9]*\.[0-9]*\.[0-9]*' | head -1)" ] ||
    fail "vsgrid.pc's version is not vsgrid --version's"
  # shellcheck disable=SC2046
  if "$cc" -std=c11 -Wall -Wextra -Werror "$src/examples/link_example/link_example.c" \
       $(pkg-config --cflags --libs vsgrid) -o pc_example 2>pc.log; then
    check_run pkg_config ./pc_example
  else
    fail "the example did not build with pkg-config: $(head -c 1500 pc.log)"
  fi
  # the static library with Libs.private (pkg-config --static)
  # shellcheck disable=SC2046
  if "$cc" -std=c11 "$src/examples/link_example/link_example.c" $(pkg-config --cflags vsgrid) \
       $(pkg-config --static --libs vsgrid | sed "s|-lvsgrid|$libdir/libvsgrid.a|") -o pc_static 2>pc_static.log; then
    check_run pkg_config_static ./pc_static
  else
    fail "the example did not link libvsgrid.a with pkg-config --static: $(head -c 1500 pc_static.log)"
  fi
else
  echo "note: pkg-config not found, its build is not checked"
fi

[ "$fails" = 0 ] || exit 1
echo "ok: installed to $prefix; find_package and pkg-config builds (shared, static) print vsgrid info's numbers"
