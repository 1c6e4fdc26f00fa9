# cmake -DHEADER=grids/base/vsgrid.h -DOUT=vsgrid.map -P vsgrid_exports.cmake
# Writes the linker version script of libvsgrid.so: every function declared in the public header
# (a line "type name(" or "type *name(") is global, everything else local, so the library's
# internal helpers (many named vsg_* too) stay out of its dynamic symbol table.
file(STRINGS "${HEADER}" lines REGEX "^((const|unsigned|signed|struct|enum) )*[A-Za-z_0-9]+[ *]+vsg_[a-z0-9_]+\\(")
set(names "")
foreach(line IN LISTS lines)
  string(REGEX MATCH "vsg_[a-z0-9_]+\\(" name "${line}")
  string(REPLACE "(" "" name "${name}")
  list(APPEND names "${name}")
endforeach()
list(REMOVE_DUPLICATES names)
list(SORT names)
list(LENGTH names n)
if(n EQUAL 0)
  message(FATAL_ERROR "vsgrid_exports.cmake: no function declarations found in ${HEADER}")
endif()
set(text "/* Generated from ${HEADER} by cmake/vsgrid_exports.cmake: ${n} functions. */\n{\n  global:\n")
foreach(name IN LISTS names)
  string(APPEND text "    ${name};\n")
endforeach()
string(APPEND text "  local:\n    *;\n};\n")
file(WRITE "${OUT}" "${text}")  # always: make compares its time with the header's
